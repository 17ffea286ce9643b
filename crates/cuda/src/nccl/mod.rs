//! NCCL communicators over xp's CUDA storages: the transport of `xp::dist`.
//!
//! NCCL is loaded at run time ([`library`]); a build needs nothing installed. Every call is
//! queued on the calling thread's current stream of the communicator's device, after the
//! operands' pending work (as every xp kernel is), and returns without waiting. Communicators
//! made for several processes are non-blocking (NCCL's `blocking = 0`), so that creating one and
//! finalizing it poll with a deadline instead of hanging on a rank that is gone; [`NcclComm::wait`]
//! waits for the queued work with a deadline and aborts the communicator when it passes.
//! Types and reductions are NCCL's codes (`ncclDataType_t`, `ncclRedOp_t`); the front end
//! (`xp::dist`) maps dtypes onto them.
mod library;
mod watchdog;

pub use library::{nccl_path, nccl_version, require, UniqueId};

use crate::runtime::buffer::CudaStorage;
use crate::runtime::device::{driver_err, get, Dev};
use library::{check, nccl, CommPtr, Config, NcclResult, IN_PROGRESS, SUCCESS};
use std::ffi::{c_int, c_void};
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};
use watchdog::Shared;
use xp_core::{DistKind, Error, Result};

/// A fresh `ncclUniqueId` (rank 0 makes it; the others receive it).
pub fn unique_id() -> Result<UniqueId> {
    let n = nccl()?;
    let mut id = UniqueId([0; 128]);
    // SAFETY: `id` is a valid out-pointer of 128 bytes.
    check("ncclGetUniqueId", unsafe { (n.get_unique_id)(&mut id) }, std::ptr::null_mut())?;
    Ok(id)
}

thread_local! {
    /// The depth of the calling thread's groups, and the communicators its open group used
    /// (NCCL queues their work at the outermost `ncclGroupEnd`, which for a non-blocking one
    /// may return before it has: they are polled then).
    static GROUP: std::cell::RefCell<(usize, Vec<Member>)> = const { std::cell::RefCell::new((0, Vec::new())) };
}

/// A communicator an open group used: polled at the group's end when non-blocking, and (when
/// watched) its work noted to its watchdog then, on the stream it went to.
struct Member {
    comm: usize,
    /// non-blocking: polled until NCCL has queued its work
    poll: bool,
    watch: Option<(Weak<Shared>, Arc<cudarc::driver::CudaStream>)>,
}

/// How long a non-blocking call may stay in progress before it is a typed timeout.
const QUEUE_TIMEOUT: Duration = Duration::from_secs(300);

/// Starts a group of calls (`ncclGroupStart`): one thread driving several devices must group
/// its calls, which NCCL runs at [`group_end`].
pub fn group_start() -> Result<()> {
    // SAFETY: no arguments.
    check("ncclGroupStart", unsafe { (nccl()?.group_start)() }, std::ptr::null_mut())?;
    GROUP.with(|g| g.borrow_mut().0 += 1);
    Ok(())
}

/// Ends a group of calls (`ncclGroupEnd`); at the outermost end, waits (with a deadline) until
/// NCCL has queued the work of every non-blocking communicator the group used.
pub fn group_end() -> Result<()> {
    let pending = GROUP.with(|g| {
        let mut g = g.borrow_mut();
        g.0 = g.0.saturating_sub(1);
        if g.0 == 0 {
            std::mem::take(&mut g.1)
        } else {
            Vec::new()
        }
    });
    // SAFETY: no arguments.
    check("ncclGroupEnd", unsafe { (nccl()?.group_end)() }, std::ptr::null_mut())?;
    let deadline = Instant::now() + QUEUE_TIMEOUT;
    for m in pending {
        if m.poll {
            settle("ncclGroupEnd", m.comm as CommPtr, deadline, QUEUE_TIMEOUT)?;
        }
        if let Some((sh, stream)) = m.watch.and_then(|(w, s)| Some((w.upgrade()?, s))) {
            sh.queued(&stream);
        }
    }
    Ok(())
}

/// Whether the calling thread is inside a group.
fn grouped() -> bool {
    GROUP.with(|g| g.borrow().0 > 0)
}

struct State {
    comm: CommPtr,
    /// the error that ended it (aborted: no further call reaches NCCL)
    failed: Option<DistKind>,
}

/// One rank's NCCL communicator on one device.
pub struct NcclComm {
    dev: Arc<Dev>,
    rank: usize,
    size: usize,
    blocking: bool,
    /// the communicator's state, shared with its watchdog
    shared: Arc<Shared>,
}

// SAFETY: the raw communicator is used under the mutex; NCCL allows calls from any thread.
unsafe impl Send for NcclComm {}
// SAFETY: as above.
unsafe impl Sync for NcclComm {}

impl std::fmt::Debug for NcclComm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "NcclComm(rank {} of {}, cuda:{})", self.rank, self.size, self.dev.ordinal)
    }
}

/// Polls `comm`'s asynchronous state until it leaves `ncclInProgress`, or `deadline`.
fn settle(op: &'static str, comm: CommPtr, deadline: Instant, timeout: Duration) -> Result<()> {
    let n = nccl()?;
    loop {
        let mut st: NcclResult = IN_PROGRESS;
        // SAFETY: a live communicator and a valid out-pointer.
        check(op, unsafe { (n.async_error)(comm, &mut st) }, comm)?;
        match st {
            SUCCESS => return Ok(()),
            IN_PROGRESS if Instant::now() < deadline => std::thread::sleep(Duration::from_micros(200)),
            IN_PROGRESS => {
                return Err(Error::Dist {
                    op,
                    kind: DistKind::Timeout { seconds: timeout.as_secs(), missing: Vec::new() },
                })
            }
            r => return check(op, r, comm),
        }
    }
}

impl NcclComm {
    /// Rank `rank` of a communicator of `size` ranks on device `ordinal`, from the id all ranks
    /// share (`ncclCommInitRankConfig`, non-blocking): a typed `Timeout` when the other ranks do
    /// not join within `timeout` (the half-made communicator is aborted).
    pub fn init_rank(ordinal: usize, size: usize, id: &UniqueId, rank: usize, timeout: Duration) -> Result<NcclComm> {
        let op = "ncclCommInitRank";
        let n = nccl()?;
        let dev = get(ordinal)?;
        dev.bind()?;
        let mut comm: CommPtr = std::ptr::null_mut();
        let mut cfg = Config::new(false);
        // SAFETY: valid out-pointer and config; the id is 128 bytes passed by value.
        let r = unsafe { (n.init_rank_config)(&mut comm, size as c_int, *id, rank as c_int, &mut cfg) };
        check(op, r, comm)?;
        if let Err(e) = settle(op, comm, Instant::now() + timeout, timeout) {
            // SAFETY: the communicator was created (possibly half-way); abort frees it.
            unsafe { (n.abort)(comm) };
            return Err(e);
        }
        Ok(NcclComm { dev, rank, size, blocking: false, shared: Shared::new(comm, Some(timeout)) })
    }

    /// One communicator per device of `ordinals`, all in this process (`ncclCommInitAll`): the
    /// rank of each is its position; each watched with `timeout` (see [`watchdog`]).
    pub fn init_all(ordinals: &[usize], timeout: Duration) -> Result<Vec<NcclComm>> {
        let n = nccl()?;
        let devs = ordinals.iter().map(|&o| get(o)).collect::<Result<Vec<_>>>()?;
        let list: Vec<c_int> = ordinals.iter().map(|&o| o as c_int).collect();
        let mut comms: Vec<CommPtr> = vec![std::ptr::null_mut(); list.len()];
        // SAFETY: one out-slot per device; the list holds valid ordinals.
        check(
            "ncclCommInitAll",
            unsafe { (n.init_all)(comms.as_mut_ptr(), list.len() as c_int, list.as_ptr()) },
            std::ptr::null_mut(),
        )?;
        Ok(devs
            .into_iter()
            .zip(comms)
            .enumerate()
            .map(|(rank, (dev, comm))| NcclComm {
                dev,
                rank,
                size: list.len(),
                blocking: true,
                shared: Shared::new(comm, Some(timeout)),
            })
            .collect())
    }

    /// This communicator's rank.
    pub fn rank(&self) -> usize {
        self.rank
    }
    /// The number of ranks.
    pub fn size(&self) -> usize {
        self.size
    }
    /// The device's ordinal.
    pub fn ordinal(&self) -> usize {
        self.dev.ordinal
    }

    /// Runs `f` with the live communicator and the stream to queue on, after the operands'
    /// pending work; their uses are recorded for their frees.
    fn queue(
        &self,
        op: &'static str,
        bufs: &[&CudaStorage],
        f: impl FnOnce(&library::Nccl, CommPtr, *mut c_void) -> NcclResult,
    ) -> Result<()> {
        let n = nccl()?;
        let st = self.shared.state.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(k) = &st.failed {
            return Err(Error::Dist { op, kind: k.clone() });
        }
        if let Some(b) = bufs.iter().find(|b| b.dev.ordinal != self.dev.ordinal) {
            return Err(Error::DeviceMismatch {
                op,
                lhs: xp_core::Device::Cuda(self.dev.ordinal),
                rhs: xp_core::Device::Cuda(b.dev.ordinal),
            });
        }
        self.dev.bind()?;
        let wk = self.dev.work(bufs)?;
        let r = f(n, st.comm, wk.stream().cu_stream() as *mut c_void);
        check(op, r, st.comm)?;
        if grouped() {
            // NCCL queues a group's work at its end: a non-blocking communicator is polled
            // then, and the watchdog told of the work then
            GROUP.with(|g| {
                let mut g = g.borrow_mut();
                if !g.1.iter().any(|m| m.comm == st.comm as usize) {
                    let watch = self.shared.watched().then(|| (Arc::downgrade(&self.shared), wk.stream().clone()));
                    g.1.push(Member { comm: st.comm as usize, poll: !self.blocking, watch });
                }
            });
        } else if !self.blocking && r == IN_PROGRESS {
            // a non-blocking call may return before NCCL has queued its work: wait for that
            let t = self.shared.timeout().unwrap_or(QUEUE_TIMEOUT);
            settle(op, st.comm, Instant::now() + t, t)?;
        }
        drop(st);
        if !grouped() {
            self.shared.queued(wk.stream());
        }
        wk.done()
    }

    /// `recv = op over ranks of send` (`count` elements of NCCL type `ty` each).
    pub fn all_reduce(&self, send: &CudaStorage, recv: &CudaStorage, count: usize, ty: c_int, op: c_int) -> Result<()> {
        self.queue("all_reduce", &[send, recv], |n, c, s| unsafe {
            // SAFETY: both buffers hold `count` values of `ty` on the communicator's device.
            (n.all_reduce)(send.ptr(0) as *const c_void, recv.ptr(0) as *mut c_void, count, ty, op, c, s)
        })
    }
    /// `recv = root's send` (`send` read on the root only).
    pub fn broadcast(
        &self,
        send: &CudaStorage,
        recv: &CudaStorage,
        count: usize,
        ty: c_int,
        root: usize,
    ) -> Result<()> {
        self.queue("broadcast", &[send, recv], |n, c, s| unsafe {
            // SAFETY: as for all_reduce.
            (n.broadcast)(send.ptr(0) as *const c_void, recv.ptr(0) as *mut c_void, count, ty, root as c_int, c, s)
        })
    }
    /// `recv = op over ranks of send` on `root` (`recv` written on the root only).
    pub fn reduce(
        &self,
        send: &CudaStorage,
        recv: &CudaStorage,
        count: usize,
        ty: c_int,
        op: c_int,
        root: usize,
    ) -> Result<()> {
        self.queue("reduce", &[send, recv], |n, c, s| unsafe {
            // SAFETY: as for all_reduce.
            (n.reduce)(send.ptr(0) as *const c_void, recv.ptr(0) as *mut c_void, count, ty, op, root as c_int, c, s)
        })
    }
    /// `recv[r·count..] = rank r's send` for every rank.
    pub fn all_gather(&self, send: &CudaStorage, recv: &CudaStorage, count: usize, ty: c_int) -> Result<()> {
        self.queue("all_gather", &[send, recv], |n, c, s| unsafe {
            // SAFETY: send holds `count` values, recv `count · size`.
            (n.all_gather)(send.ptr(0) as *const c_void, recv.ptr(0) as *mut c_void, count, ty, c, s)
        })
    }
    /// `recv = op over ranks of send[rank·count..]`.
    pub fn reduce_scatter(
        &self,
        send: &CudaStorage,
        recv: &CudaStorage,
        count: usize,
        ty: c_int,
        op: c_int,
    ) -> Result<()> {
        self.queue("reduce_scatter", &[send, recv], |n, c, s| unsafe {
            // SAFETY: send holds `count · size` values, recv `count`.
            (n.reduce_scatter)(send.ptr(0) as *const c_void, recv.ptr(0) as *mut c_void, count, ty, op, c, s)
        })
    }
    /// Sends `count` values of NCCL type `ty` from byte `offset` of `buf` on, to `peer`.
    pub fn send(&self, buf: &CudaStorage, offset: usize, count: usize, ty: c_int, peer: usize) -> Result<()> {
        self.queue("send", &[buf], |n, c, s| unsafe {
            // SAFETY: the range lies inside buf (checked by the caller).
            (n.send)((buf.ptr(0) as usize + offset) as *const c_void, count, ty, peer as c_int, c, s)
        })
    }
    /// Receives `count` values into `buf` from byte `offset` on, from `peer`.
    pub fn recv(&self, buf: &CudaStorage, offset: usize, count: usize, ty: c_int, peer: usize) -> Result<()> {
        self.queue("recv", &[buf], |n, c, s| unsafe {
            // SAFETY: the range lies inside buf (checked by the caller).
            (n.recv)((buf.ptr(0) as usize + offset) as *mut c_void, count, ty, peer as c_int, c, s)
        })
    }

    /// The communicators of the ranks that give the same `color` (`None`: this rank joins
    /// none, and gets `None`), ranked by `key` then by rank (`ncclCommSplit`, NCCL 2.18+).
    /// Every rank must call it.
    pub fn split(&self, color: Option<u32>, key: usize) -> Result<Option<NcclComm>> {
        let op = "split";
        let n = library::require_lib(21800)?;
        let st = self.shared.state.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(k) = &st.failed {
            return Err(Error::Dist { op, kind: k.clone() });
        }
        self.dev.bind()?;
        let mut out: CommPtr = std::ptr::null_mut();
        let mut cfg = Config::new(self.blocking);
        let c = color.map_or(-1, |c| c.min(i32::MAX as u32) as c_int);
        // SAFETY: a live communicator, a valid out-pointer and config.
        check(op, unsafe { (n.split)(st.comm, c, key as c_int, &mut out, &mut cfg) }, st.comm)?;
        if !self.blocking {
            let t = Duration::from_secs(300);
            settle(op, st.comm, Instant::now() + t, t)?;
        }
        if out.is_null() {
            return Ok(None);
        }
        let (mut rank, mut size): (c_int, c_int) = (0, 0);
        // SAFETY: a live communicator and valid out-pointers.
        unsafe {
            check(op, (n.user_rank)(out, &mut rank), out)?;
            check(op, (n.count)(out, &mut size), out)?;
        }
        Ok(Some(NcclComm {
            dev: self.dev.clone(),
            rank: rank as usize,
            size: size as usize,
            blocking: self.blocking,
            shared: Shared::new(out, self.shared.timeout()),
        }))
    }

    /// Waits until the work queued so far on the current stream is done, polling NCCL's
    /// asynchronous error; past `timeout` the communicator is aborted (its kernels stop) and the
    /// error is typed `Timeout`; every later call then fails at once.
    pub fn wait(&self, timeout: Duration) -> Result<()> {
        let op = "wait";
        let n = nccl()?;
        self.dev.bind()?;
        let ev = self.dev.current().record_event(None).map_err(driver_err)?;
        let deadline = Instant::now() + timeout;
        loop {
            let mut st = self.shared.state.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(k) = &st.failed {
                return Err(Error::Dist { op, kind: k.clone() });
            }
            if ev.is_complete() {
                return Ok(());
            }
            let mut a: NcclResult = SUCCESS;
            // SAFETY: a live communicator and a valid out-pointer.
            let r = unsafe { (n.async_error)(st.comm, &mut a) };
            let failure = if r != SUCCESS || (a != SUCCESS && a != IN_PROGRESS) {
                let code = if r != SUCCESS { r } else { a };
                Some(DistKind::Nccl { code, msg: library::message(code, st.comm) })
            } else if Instant::now() >= deadline {
                Some(DistKind::Timeout { seconds: timeout.as_secs(), missing: Vec::new() })
            } else {
                None
            };
            if let Some(kind) = failure {
                // SAFETY: the communicator is live; abort frees it and stops its kernels.
                unsafe { (n.abort)(st.comm) };
                st.failed = Some(DistKind::Aborted);
                return Err(Error::Dist { op, kind });
            }
            drop(st);
            std::thread::sleep(Duration::from_micros(50));
        }
    }

    /// Aborts the communicator (its queued and running operations stop).
    pub fn abort(&self) {
        let mut st = self.shared.state.lock().unwrap_or_else(|e| e.into_inner());
        if st.failed.is_none() {
            if let Ok(n) = nccl() {
                // SAFETY: a live communicator, freed by the abort.
                unsafe { (n.abort)(st.comm) };
            }
            st.failed = Some(DistKind::Aborted);
        }
    }

    /// Finalizes and destroys the communicator (an orderly shutdown: queued work completes
    /// first), within `timeout`; aborted instead where that passes.
    pub fn finalize(&self, timeout: Duration) -> Result<()> {
        let op = "finalize";
        let n = nccl()?;
        let mut st = self.shared.state.lock().unwrap_or_else(|e| e.into_inner());
        if st.failed.is_some() {
            return Ok(());
        }
        self.dev.bind()?;
        // SAFETY: a live communicator.
        let r = unsafe { (n.finalize)(st.comm) };
        let done = check(op, r, st.comm).and_then(|()| {
            if self.blocking {
                Ok(())
            } else {
                settle(op, st.comm, Instant::now() + timeout, timeout)
            }
        });
        // SAFETY: finalized (or failed): destroy frees it; abort where finalizing failed.
        unsafe {
            if done.is_ok() {
                (n.destroy)(st.comm);
            } else {
                (n.abort)(st.comm);
            }
        }
        st.failed = Some(DistKind::Aborted);
        done
    }
}

impl Drop for NcclComm {
    fn drop(&mut self) {
        // an orderly end where the peers are there; never an abort of the process
        let _ = self.finalize(Duration::from_secs(10));
    }
}
