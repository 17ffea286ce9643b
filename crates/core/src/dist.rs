//! What can go wrong between processes and GPUs (`xp::dist`): the kinds of
//! [`Error::Dist`](crate::Error::Dist).
use std::fmt;

/// What went wrong in a distributed operation.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DistKind {
    /// Ranks that did not arrive (or answer) within the time allowed.
    Timeout {
        /// the seconds waited
        seconds: u64,
        /// the ranks that never arrived, where known (empty when the peer is not known)
        missing: Vec<usize>,
    },
    /// Two ranks disagree on the size of the world.
    WorldSize {
        /// this rank's world size
        expected: usize,
        /// the other rank's
        got: usize,
        /// the other rank
        rank: usize,
    },
    /// Two ranks (or devices) called one collective with operands that do not match.
    Mismatch {
        /// what differs, naming the ranks
        what: String,
    },
    /// The launch environment is missing a variable or holds a bad value.
    Environment {
        /// the variable and what is wrong with it
        what: String,
    },
    /// The rendezvous failed (a connection refused or reset, a malformed message).
    Rendezvous {
        /// what happened
        what: String,
    },
    /// NCCL's shared library was not found.
    NcclNotFound {
        /// the names and folders tried
        searched: Vec<String>,
    },
    /// The loaded NCCL is older than an operation needs.
    NcclVersion {
        /// the loaded version (NCCL's code, e.g. 22803 for 2.28.3)
        have: u32,
        /// the version needed
        need: u32,
    },
    /// NCCL reported an error (at once or asynchronously); the communicator is unusable after it.
    Nccl {
        /// NCCL's result code
        code: i32,
        /// NCCL's message
        msg: String,
    },
    /// The communicator was aborted after an earlier error or timeout.
    Aborted,
}

impl fmt::Display for DistKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DistKind::Timeout { seconds, missing } if missing.is_empty() => {
                write!(f, "timed out after {seconds} s")
            }
            DistKind::Timeout { seconds, missing } => {
                write!(f, "timed out after {seconds} s waiting for rank(s) {missing:?}")
            }
            DistKind::WorldSize { expected, got, rank } => {
                write!(f, "rank {rank} has a world of {got} ranks, this rank {expected}")
            }
            DistKind::Mismatch { what } => write!(f, "ranks disagree: {what}"),
            DistKind::Environment { what } => write!(f, "launch environment: {what}"),
            DistKind::Rendezvous { what } => write!(f, "rendezvous: {what}"),
            DistKind::NcclNotFound { searched } => write!(f, "NCCL not found (tried {})", searched.join(", ")),
            DistKind::NcclVersion { have, need } => {
                write!(f, "NCCL {} is loaded, {} or newer is needed", version(*have), version(*need))
            }
            DistKind::Nccl { code, msg } => write!(f, "NCCL error {code}: {msg}"),
            DistKind::Aborted => write!(f, "the communicator was aborted after an earlier error"),
        }
    }
}

/// NCCL's version code as `major.minor.patch`.
pub fn version(code: u32) -> String {
    format!("{}.{}.{}", code / 10000, code / 100 % 100, code % 100)
}
