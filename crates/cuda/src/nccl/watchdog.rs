//! A communicator's watchdog: a thread that, while the communicator's last queued operation
//! has not finished, polls NCCL's asynchronous error and the time since it was queued; on an
//! error, or past the communicator's timeout, it aborts the communicator (its kernels stop, so
//! a stream waiting on them moves on) and records why, so that the next call on it fails with
//! that typed error. Without it a peer lost during a collective would hang any read of the
//! result; [`super::NcclComm::wait`] is the explicit form of the same check.
use super::library::{nccl, CommPtr, IN_PROGRESS, SUCCESS};
use super::State;
use cudarc::driver::{CudaEvent, CudaStream};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};
use xp_core::DistKind;

/// What the watchdog and the communicator share.
pub(super) struct Shared {
    pub(super) state: Mutex<State>,
    /// an event recorded after the last operation queued (one event, recorded again each
    /// time: a record costs about a microsecond, a new event more), and when that was, while
    /// it may be running
    pending: Mutex<(Option<CudaEvent>, Option<Instant>)>,
    /// how long an operation may run (`None`: not watched)
    timeout: Option<Duration>,
}

// SAFETY: the raw communicator in `state` is used under its mutex (NCCL allows calls from any
// thread); the event is used under its own.
unsafe impl Send for Shared {}
// SAFETY: as above.
unsafe impl Sync for Shared {}

impl Shared {
    /// The shared part of a communicator, watched by a thread of its own when `timeout` is
    /// given (the thread ends with the communicator).
    pub(super) fn new(comm: CommPtr, timeout: Option<Duration>) -> Arc<Shared> {
        let sh = Arc::new(Shared {
            state: Mutex::new(State { comm, failed: None }),
            pending: Mutex::new((None, None)),
            timeout,
        });
        if let Some(t) = timeout {
            let weak = Arc::downgrade(&sh);
            let _ = std::thread::Builder::new().name("xp-nccl-watchdog".into()).spawn(move || watch(weak, t));
        }
        sh
    }

    /// Notes that work was queued on `stream` just now (nothing when unwatched).
    pub(super) fn queued(&self, stream: &Arc<CudaStream>) {
        if self.timeout.is_none() {
            return;
        }
        let mut p = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        let recorded = match &p.0 {
            Some(ev) => ev.record(stream).is_ok(),
            None => stream.record_event(None).map(|ev| p.0 = Some(ev)).is_ok(),
        };
        p.1 = recorded.then(Instant::now);
    }

    /// How long an operation may run, where watched.
    pub(super) fn timeout(&self) -> Option<Duration> {
        self.timeout
    }

    /// Whether it is watched (a group records its members' work at its end).
    pub(super) fn watched(&self) -> bool {
        self.timeout.is_some()
    }
}

/// The watchdog's loop: a look every twentieth of the timeout (10 ms to 500 ms).
fn watch(shared: Weak<Shared>, timeout: Duration) {
    let tick = (timeout / 20).clamp(Duration::from_millis(10), Duration::from_millis(500));
    loop {
        std::thread::sleep(tick);
        let Some(sh) = shared.upgrade() else { return };
        let mut pending = sh.pending.lock().unwrap_or_else(|e| e.into_inner());
        let (Some(ev), Some(since)) = (&pending.0, pending.1) else { continue };
        if ev.is_complete() {
            pending.1 = None;
            continue;
        }
        let mut st = sh.state.lock().unwrap_or_else(|e| e.into_inner());
        if st.failed.is_some() {
            pending.1 = None;
            continue;
        }
        let Ok(n) = nccl() else { return };
        let mut a = SUCCESS;
        // SAFETY: a live communicator (not failed) and a valid out-pointer.
        let r = unsafe { (n.async_error)(st.comm, &mut a) };
        let kind = if r != SUCCESS || (a != SUCCESS && a != IN_PROGRESS) {
            let code = if r != SUCCESS { r } else { a };
            Some(DistKind::Nccl { code, msg: super::library::message(code, st.comm) })
        } else if since.elapsed() >= timeout {
            Some(DistKind::Timeout { seconds: timeout.as_secs(), missing: Vec::new() })
        } else {
            None
        };
        if let Some(kind) = kind {
            // SAFETY: a live communicator; abort frees it and stops its kernels.
            unsafe { (n.abort)(st.comm) };
            st.failed = Some(kind);
            pending.1 = None;
        }
    }
}
