//! How ranks agree. Between processes: [`Meet`], which xp's TCP rendezvous and (feature
//! `mpi`) MPI implement. Between the ranks of one process ([`super::Communicator::local`], each
//! on its own thread under [`super::spmd`]): [`Meeting`], where each posts its outcome, all
//! wait for all, and each reads the first failure.
use std::sync::{Arc, Barrier, Mutex};
use xp_core::{DistKind, Result};

/// What the ranks of several processes do together besides NCCL's collectives.
pub(crate) trait Meet: Send {
    /// Rank 0's `bytes` on every rank (the NCCL id: unused without CUDA).
    #[cfg_attr(not(xp_cuda), allow(dead_code))]
    fn broadcast(&mut self, bytes: &[u8]) -> Result<Vec<u8>>;
    /// `Ok` on every rank when every rank's `mine` is `Ok`; else the first failure, typed, on
    /// every rank.
    fn agree(&mut self, mine: std::result::Result<(), DistKind>) -> Result<()>;
    /// A typed `Mismatch` on every rank unless every rank describes its call as `what`.
    fn same(&mut self, what: &str) -> Result<()>;
}

impl Meet for super::Rendezvous {
    fn broadcast(&mut self, bytes: &[u8]) -> Result<Vec<u8>> {
        super::Rendezvous::broadcast(self, bytes)
    }
    fn agree(&mut self, mine: std::result::Result<(), DistKind>) -> Result<()> {
        super::Rendezvous::agree(self, mine)
    }
    fn same(&mut self, what: &str) -> Result<()> {
        super::Rendezvous::same(self, what)
    }
}

/// The meeting point of a clique's threads, and their crew for [`super::spmd`].
pub(crate) struct Meeting {
    barrier: Barrier,
    slots: Mutex<Vec<Option<DistKind>>>,
    crew: std::sync::OnceLock<super::spmd::Crew>,
}

impl Meeting {
    /// A meeting of `n` ranks.
    #[cfg_attr(not(xp_cuda), allow(dead_code))]
    pub(crate) fn new(n: usize) -> Arc<Meeting> {
        Arc::new(Meeting {
            barrier: Barrier::new(n),
            slots: Mutex::new(vec![None; n]),
            crew: std::sync::OnceLock::new(),
        })
    }

    /// The clique's crew of threads, made at the first call.
    pub(crate) fn crew(&self) -> &super::spmd::Crew {
        self.crew.get_or_init(|| super::spmd::Crew::new(self.slots.lock().unwrap_or_else(|e| e.into_inner()).len()))
    }

    /// Rank `rank`'s failure, if any, posted; once every rank has posted, the failure of the
    /// lowest rank that failed (on every rank).
    pub(crate) fn agree(&self, rank: usize, mine: Option<DistKind>) -> Option<DistKind> {
        self.slots.lock().unwrap_or_else(|e| e.into_inner())[rank] = mine;
        self.barrier.wait();
        let first = self.slots.lock().unwrap_or_else(|e| e.into_inner()).iter().find_map(|s| s.clone());
        // nobody posts the next outcome before every rank has read this one
        self.barrier.wait();
        first
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_thread_learns_the_first_failure() {
        let m = Meeting::new(3);
        let fail = |r: usize| (r == 2).then(|| DistKind::Rendezvous { what: format!("rank {r}") });
        for round in 0..3 {
            let got: Vec<_> = std::thread::scope(|s| {
                let hs: Vec<_> = (0..3)
                    .map(|r| {
                        let m = &m;
                        s.spawn(move || m.agree(r, if round == 1 { fail(r) } else { None }))
                    })
                    .collect();
                hs.into_iter().map(|h| h.join().unwrap()).collect()
            });
            let want = if round == 1 { fail(2) } else { None };
            assert!(got.iter().all(|g| *g == want), "round {round}: {got:?}");
        }
    }
}
