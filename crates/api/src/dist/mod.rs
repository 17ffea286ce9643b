//! Many GPUs, in one process or many, over NCCL (CuPy's `cupy.cuda.nccl`): communicators and
//! collectives on xp arrays.
//!
//! One process per GPU, started by the launchers clusters already use (`torchrun`, `srun`,
//! `mpirun`): [`init`] reads the rank, the world's size and the local rank from the launcher's
//! environment ([`Launch::from_env`]), meets the other ranks at rank 0 over TCP (a typed
//! `Timeout` naming the ranks that never arrived; [`Rendezvous`]), hands out NCCL's id and
//! makes the communicator on GPU `local_rank`. [`Communicator::local`] drives several GPUs from
//! one process instead (its calls go inside [`group`]).
//!
//! NCCL is loaded at run time (`libnccl.so.2`, from the system or from the `nvidia-nccl-cu*`
//! Python wheels; `XP_NCCL_LIBRARY` names a file), so the default build needs nothing
//! installed. Collectives are queued on the arrays' device's current stream after the work that
//! produced their operands, and return without waiting for the device; bool travels as bytes
//! (a sum is a logical or, as NumPy's), complex numbers as pairs of reals where the reduction
//! allows. A rank that is gone does not hang the others: the rendezvous and the communicator's
//! creation and shutdown have deadlines, and [`Communicator::synchronize`] waits for queued work
//! with one, aborting the communicator (a typed error) when it passes. By default each
//! collective first checks over the rendezvous's connections that every rank called the same
//! operation on the same shape and dtype ([`Options::verify`]: a typed `Mismatch` instead of a
//! hang; it costs a round trip to rank 0).
//!
//! ```no_run
//! // torchrun --nproc-per-node 2 target/release/examples/distributed
//! use xp::dist::{self, ReduceOp};
//! let comm = dist::init()?;
//! let g = xp::on(comm.device());
//! let x = g.full(&[4], comm.rank() as f64, xp::DType::F64)?;
//! let total = comm.all_reduce(&x, ReduceOp::Sum)?; // 0 + 1 + … on every rank
//! comm.synchronize()?;
//! # Ok::<(), xp::Error>(())
//! ```
mod cg;
mod env;
mod meeting;
#[cfg(feature = "mpi")]
mod mpi;
mod ops;
mod rendezvous;
mod sharded;
mod sparse;
mod spmd;
#[cfg(not(xp_cuda))]
mod stand_in;
mod wire;

#[cfg(not(xp_cuda))]
pub(crate) use stand_in::Nccl;
#[cfg(xp_cuda)]
pub(crate) use xp_cuda::nccl::NcclComm as Nccl;

pub use cg::{cg, ShardedSolution};
pub use env::{first_node, Launch, Launcher, DEFAULT_PORT};
use meeting::{Meet, Meeting};
#[cfg(feature = "mpi")]
pub use mpi::MpiWorld;
pub use rendezvous::Rendezvous;
pub use sharded::{block, shard_path, Placement, ShardedArray};
pub use sparse::ShardedCsr;
pub use spmd::spmd;

use crate::Device;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use xp_core::{DistKind, Error, Result};

/// A reduction of the collectives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReduceOp {
    /// the sum (bool: logical or)
    Sum,
    /// the product (bool: logical and; not for complex)
    Prod,
    /// the maximum (bool: logical or; not for complex)
    Max,
    /// the minimum (bool: logical and; not for complex)
    Min,
    /// the mean over ranks (floating and complex dtypes; NCCL 2.10+)
    Avg,
}

/// How a communicator is made and checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// the longest wait for other ranks: the rendezvous, the communicator's creation, a
    /// [`Communicator::synchronize`] (default 300 s, or `XP_DIST_TIMEOUT` seconds)
    pub timeout: Duration,
    /// check before each collective that every rank called the same operation on the same
    /// shape and dtype (default true)
    pub verify: bool,
}

impl Default for Options {
    fn default() -> Self {
        let secs = std::env::var("XP_DIST_TIMEOUT").ok().and_then(|v| v.parse().ok()).unwrap_or(300);
        Options { timeout: Duration::from_secs(secs), verify: true }
    }
}

pub(crate) struct Inner {
    pub(crate) rank: usize,
    pub(crate) size: usize,
    pub(crate) device: Device,
    pub(crate) opts: Options,
    /// how the processes of one launch meet (xp's rendezvous, or MPI), for the checks
    pub(crate) rdv: Option<Mutex<Box<dyn Meet>>>,
    /// how many communicators of this clique this process drives (more than one: [`group`])
    pub(crate) local: usize,
    /// the in-process agreement of a [`Communicator::local`] clique run by [`spmd`]
    pub(crate) meeting: Option<Arc<Meeting>>,
    pub(crate) nccl: Nccl,
}

/// One rank of a group of GPUs that run collectives together (NCCL's `ncclComm_t`).
#[derive(Clone)]
pub struct Communicator {
    pub(crate) inner: Arc<Inner>,
}

impl std::fmt::Debug for Communicator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Communicator(rank {} of {} on {})", self.inner.rank, self.inner.size, self.inner.device)
    }
}

/// The version of the NCCL library xp loads (NCCL's code: 22803 for 2.28.3), or why it cannot
/// be loaded (a typed error listing the places tried).
pub fn nccl_version() -> Result<u32> {
    #[cfg(xp_cuda)]
    return xp_cuda::nccl::nccl_version();
    #[cfg(not(xp_cuda))]
    Err(Error::CudaNotCompiled)
}

/// The communicator of this process, from the launcher's environment ([`Launch::from_env`]) on
/// GPU `local_rank` (modulo the GPUs visible), with the default [`Options`].
pub fn init() -> Result<Communicator> {
    let launch = Launch::from_env()?;
    let n = crate::cuda::device_count();
    if n == 0 {
        return Err(Error::NoCuda("dist::init needs a CUDA device".into()));
    }
    init_with(&launch, Device::Cuda(launch.local_rank % n), &Options::default())
}

/// The communicator of the process `launch` describes, on `device` (a CUDA device).
pub fn init_with(launch: &Launch, device: Device, opts: &Options) -> Result<Communicator> {
    let Device::Cuda(ordinal) = device else {
        return Err(Error::Unsupported { op: "dist::init_with", backend: "cpu (NCCL runs on CUDA devices)" });
    };
    #[cfg(not(xp_cuda))]
    {
        let _ = (launch, ordinal, opts);
        Err(Error::CudaNotCompiled)
    }
    #[cfg(xp_cuda)]
    {
        use xp_cuda::nccl;
        let mut rdv = meet(launch, opts)?;
        // rank 0 makes the id (or says why it cannot); every rank learns the outcome
        let id = if launch.rank == 0 { nccl::unique_id() } else { Ok(nccl::UniqueId([0; 128])) };
        rdv.agree(id.as_ref().map(|_| ()).map_err(kind_of))?;
        let bytes = rdv.broadcast(&id?.0)?;
        let id = nccl::UniqueId(bytes.try_into().map_err(|_| Error::Dist {
            op: "dist::init",
            kind: DistKind::Rendezvous { what: "an id of the wrong length".into() },
        })?);
        let comm = nccl::NcclComm::init_rank(ordinal, launch.world_size, &id, launch.rank, opts.timeout);
        rdv.agree(comm.as_ref().map(|_| ()).map_err(kind_of))?;
        Ok(Communicator {
            inner: Arc::new(Inner {
                rank: launch.rank,
                size: launch.world_size,
                device,
                opts: opts.clone(),
                rdv: Some(Mutex::new(rdv)),
                local: 1,
                meeting: None,
                nccl: comm?,
            }),
        })
    }
}

/// How this process meets the others of its launch: over MPI for an MPI launch when built with
/// the `mpi` feature (unless `XP_DIST_MPI=0`), else xp's TCP rendezvous at rank 0.
#[cfg_attr(not(xp_cuda), allow(dead_code))]
fn meet(launch: &Launch, opts: &Options) -> Result<Box<dyn Meet>> {
    #[cfg(feature = "mpi")]
    if matches!(launch.launcher, Launcher::OpenMpi | Launcher::Mpich)
        && std::env::var("XP_DIST_MPI").map_or(true, |v| v != "0")
    {
        let w = mpi::MpiWorld::join()?;
        if (w.rank(), w.size()) != (launch.rank, launch.world_size) {
            return Err(Error::Dist {
                op: "dist::init",
                kind: DistKind::WorldSize { expected: launch.world_size, got: w.size(), rank: w.rank() },
            });
        }
        return Ok(Box::new(w));
    }
    Ok(Box::new(Rendezvous::join(launch, opts.timeout)?))
}

/// An error as the kind the other ranks are told.
#[cfg_attr(not(any(xp_cuda, feature = "io")), allow(dead_code))]
fn kind_of(e: &Error) -> DistKind {
    match e {
        Error::Dist { kind, .. } => kind.clone(),
        e => DistKind::Rendezvous { what: e.to_string() },
    }
}

impl Communicator {
    /// One communicator per device of `devices` (CUDA devices, each once), all driven by this
    /// process: rank `i` on `devices[i]` (`ncclCommInitAll`). Their collectives go inside
    /// [`group`], one call per communicator.
    pub fn local(devices: &[Device]) -> Result<Vec<Communicator>> {
        let op = "Communicator::local";
        let mut ordinals = Vec::with_capacity(devices.len());
        for d in devices {
            let Device::Cuda(o) = *d else {
                return Err(Error::Unsupported { op, backend: "cpu (NCCL runs on CUDA devices)" });
            };
            if ordinals.contains(&o) {
                return Err(Error::invalid(op, format!("{d} is named twice")));
            }
            ordinals.push(o);
        }
        if ordinals.is_empty() {
            return Err(Error::invalid(op, "no devices"));
        }
        #[cfg(not(xp_cuda))]
        {
            Err(Error::CudaNotCompiled)
        }
        #[cfg(xp_cuda)]
        {
            let comms = xp_cuda::nccl::NcclComm::init_all(&ordinals, Options::default().timeout)?;
            let n = comms.len();
            let meeting = Meeting::new(n);
            Ok(comms
                .into_iter()
                .enumerate()
                .map(|(rank, nccl)| Communicator {
                    inner: Arc::new(Inner {
                        rank,
                        size: n,
                        device: Device::Cuda(ordinals[rank]),
                        opts: Options { verify: false, ..Options::default() },
                        rdv: None,
                        local: n,
                        meeting: Some(meeting.clone()),
                        nccl,
                    }),
                })
                .collect())
        }
    }

    /// This communicator's rank, `0..size()`.
    pub fn rank(&self) -> usize {
        self.inner.rank
    }
    /// The number of ranks.
    pub fn size(&self) -> usize {
        self.inner.size
    }
    /// The GPU this rank runs on.
    pub fn device(&self) -> Device {
        self.inner.device
    }
    /// The options it was made with.
    pub fn options(&self) -> &Options {
        &self.inner.opts
    }

    /// Waits for the work queued on this rank's device so far (its collectives included), at
    /// most [`Options::timeout`]: past it, or on an error NCCL reports, the communicator is
    /// aborted and every later call fails at once with a typed error.
    pub fn synchronize(&self) -> Result<()> {
        self.inner.nccl.wait(self.inner.opts.timeout)
    }

    /// `mine`, this rank's outcome of a step every rank takes, once every rank has reported
    /// its own: a failure anywhere is an error everywhere (this rank's own error where it
    /// failed). Without a rendezvous ([`Communicator::local`]: one process sees every
    /// outcome) it is `mine`.
    #[cfg_attr(not(feature = "io"), allow(dead_code))]
    pub(crate) fn agree<T>(&self, op: &'static str, mine: Result<T>) -> Result<T> {
        let outcome = mine.as_ref().map(|_| ()).map_err(kind_of);
        let all = match (&self.inner.rdv, &self.inner.meeting) {
            (Some(rdv), _) => rdv.lock().unwrap_or_else(|e| e.into_inner()).agree(outcome),
            // the ranks of one process meet only when each runs on its own thread
            (None, Some(m)) if solo() => {
                m.agree(self.rank(), outcome.err()).map_or(Ok(()), |kind| Err(Error::Dist { op, kind }))
            }
            _ => return mine,
        };
        match (mine, all) {
            (Err(e), _) => Err(e),
            (Ok(_), Err(Error::Dist { kind, .. })) => Err(Error::Dist { op, kind }),
            (Ok(_), Err(e)) => Err(e),
            (Ok(v), Ok(())) => Ok(v),
        }
    }

    /// Stops the communicator at once (its queued and running collectives end unfinished);
    /// every later call fails with a typed error.
    pub fn abort(&self) {
        self.inner.nccl.abort();
    }
}

/// Work queued to run at the end of the outermost [`group`].
type Deferred = Box<dyn FnOnce() -> Result<()>>;

thread_local! {
    static GROUP: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    /// work to queue once the outermost group has ended (NCCL queues a group's operations at
    /// its end, so what reads their results must follow then)
    static AFTER: std::cell::RefCell<Vec<Deferred>> = const { std::cell::RefCell::new(Vec::new()) };
    /// whether this thread runs one rank of [`spmd`]
    pub(crate) static SOLO: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether this thread runs one rank of [`spmd`].
pub(crate) fn solo() -> bool {
    SOLO.with(|x| x.get())
}

/// Runs `f` as one group of collectives (NCCL's `ncclGroupStart`/`ncclGroupEnd`): a process
/// that drives several GPUs ([`Communicator::local`]) calls each communicator's collective in
/// one group; several point-to-point calls of one rank also go in one group.
pub fn group<R>(f: impl FnOnce() -> Result<R>) -> Result<R> {
    #[cfg(not(xp_cuda))]
    {
        let _ = f;
        Err(Error::CudaNotCompiled)
    }
    #[cfg(xp_cuda)]
    {
        xp_cuda::nccl::group_start()?;
        GROUP.with(|g| g.set(g.get() + 1));
        let r = f();
        let outermost = GROUP.with(|g| {
            g.set(g.get() - 1);
            g.get() == 0
        });
        let end = xp_cuda::nccl::group_end();
        let after = if outermost { AFTER.with(|a| std::mem::take(&mut *a.borrow_mut())) } else { Vec::new() };
        let r = r?;
        end?;
        for f in after {
            f()?;
        }
        Ok(r)
    }
}

/// Runs `f` now, or, inside [`group`], once the outermost group has ended and queued its
/// operations (so that `f` may read their results).
pub(crate) fn after_group(f: impl FnOnce() -> Result<()> + 'static) -> Result<()> {
    if in_group() {
        AFTER.with(|a| a.borrow_mut().push(Box::new(f)));
        Ok(())
    } else {
        f()
    }
}

/// Whether the calling thread is inside [`group`].
pub(crate) fn in_group() -> bool {
    GROUP.with(|g| g.get() > 0)
}
