//! Streams and events.
//!
//! Every operation is enqueued on the calling thread's *current stream* of its device: the
//! device's default stream, or a [`Stream`] made current for a scope with [`Stream::enter`] or
//! [`Stream::scope`]. Operations return without waiting; a host read waits for its stream.
//!
//! Buffers remember the stream they were allocated on. While a device has only its default
//! stream nothing else is tracked (no event per argument). Once a [`Stream`] exists on the device,
//! a buffer used on a stream other than its own is ordered by events: the use waits for the work
//! queued on the buffer's stream (and for other streams' earlier uses), and the buffer is freed only
//! after every use has finished. Work on different streams that touches different arrays runs
//! concurrently.
//!
//! ```no_run
//! # fn main() -> xp_core::Result<()> {
//! let s = xp_cuda::Stream::new(0)?;
//! let start = s.record()?;
//! s.scope(|| {
//!     // operations here are enqueued on `s`
//! });
//! let end = s.record()?;
//! end.synchronize()?;
//! println!("{} ms", start.elapsed_ms(&end)?);
//! # Ok(()) }
//! ```
use crate::runtime::device::{driver_err, Dev};
use cudarc::driver::{sys, CudaEvent, CudaStream};
use std::cell::RefCell;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use xp_core::Result;

thread_local! {
    /// The streams made current on this thread, innermost last: (device ordinal, scope id, stream).
    static CURRENT: RefCell<Vec<(usize, u64, Arc<CudaStream>)>> = const { RefCell::new(Vec::new()) };
}
static SCOPE_IDS: AtomicU64 = AtomicU64::new(0);

/// The calling thread's current stream on `dev`.
pub(crate) fn current(dev: &Dev) -> Arc<CudaStream> {
    if dev.multi.load(Ordering::Relaxed) {
        let found = CURRENT.with(|c| c.borrow().iter().rev().find(|e| e.0 == dev.ordinal).map(|e| e.2.clone()));
        if let Some(s) = found {
            return s;
        }
    }
    dev.stream.clone()
}

/// A CUDA stream: a queue of work on one device, non-blocking with respect to the default stream.
/// Cheap to clone (clones share the stream).
#[derive(Clone)]
pub struct Stream {
    dev: Arc<Dev>,
    inner: Arc<CudaStream>,
}

impl std::fmt::Debug for Stream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Stream({:?}, {:?})", self.dev, self.inner.cu_stream())
    }
}

/// Two handles are equal when they name the same stream.
impl PartialEq for Stream {
    fn eq(&self, other: &Stream) -> bool {
        self.dev.ordinal == other.dev.ordinal && key(&self.inner) == key(&other.inner)
    }
}

/// The last user handle of a stream gives back the small blocks cached for it (see
/// `memory::stream_dropped`), so that the stream itself can go.
impl Drop for Stream {
    fn drop(&mut self) {
        crate::runtime::memory::stream_dropped(&self.dev, &self.inner);
    }
}

impl Stream {
    /// A new non-blocking stream on device `ordinal`.
    pub fn new(ordinal: usize) -> Result<Stream> {
        let dev = crate::CudaDevice::new(ordinal)?.dev;
        let inner = dev.ctx.new_stream().map_err(driver_err)?;
        dev.multi.store(true, Ordering::Relaxed);
        Ok(Stream { dev, inner })
    }
    /// The calling thread's current stream on device `ordinal` (the default stream outside any
    /// scope).
    pub fn current(ordinal: usize) -> Result<Stream> {
        let dev = crate::CudaDevice::new(ordinal)?.dev;
        let inner = current(&dev);
        Ok(Stream { dev, inner })
    }
    /// The device ordinal.
    pub fn ordinal(&self) -> usize {
        self.dev.ordinal
    }
    /// The raw `CUstream` (for DLPack's stream arguments and other libraries' calls).
    pub fn handle(&self) -> u64 {
        self.inner.cu_stream() as u64
    }
    /// Make this the calling thread's current stream on its device until the guard drops.
    pub fn enter(&self) -> StreamGuard {
        let id = SCOPE_IDS.fetch_add(1, Ordering::Relaxed);
        CURRENT.with(|c| c.borrow_mut().push((self.dev.ordinal, id, self.inner.clone())));
        StreamGuard { id, _not_send: PhantomData }
    }
    /// Run `f` with this stream current on the calling thread.
    pub fn scope<R>(&self, f: impl FnOnce() -> R) -> R {
        let _g = self.enter();
        f()
    }
    /// Wait until all work queued on this stream has finished.
    pub fn synchronize(&self) -> Result<()> {
        crate::runtime::graph::capturable(self.dev.ordinal, "Stream::synchronize", "it waits for the device")?;
        self.inner.synchronize().map_err(driver_err)
    }
    /// Capture the xp operations `f` queues (this stream is current for the call) into a CUDA
    /// graph without running them; replay it with [`crate::Graph::launch`]. The default stream
    /// cannot be captured. Inside `f`, calls that wait for the device or read host memory fail
    /// with `Error::NotCapturable`, and so does the capture. While a thread captures, the driver
    /// refuses device-wide waits from other threads of the process (`synchronize`,
    /// `free_all_blocks`), and such a wait breaks the capture: capture when no other thread waits
    /// on the whole device.
    ///
    /// ```no_run
    /// # fn main() -> xp_core::Result<()> {
    /// let s = xp_cuda::Stream::new(0)?;
    /// let (graph, ()) = s.capture(|| { /* xp operations on arrays made before */ Ok(()) })?;
    /// graph.launch()?;
    /// s.synchronize()?;
    /// # Ok(()) }
    /// ```
    pub fn capture<R>(&self, f: impl FnOnce() -> Result<R>) -> Result<(crate::Graph, R)> {
        let _current = self.enter();
        crate::runtime::graph::capture(&self.dev, &self.inner, f)
    }
    /// Record an event (with timing) after the work queued so far.
    pub fn record(&self) -> Result<Event> {
        let e = self.inner.record_event(Some(sys::CUevent_flags::CU_EVENT_DEFAULT)).map_err(driver_err)?;
        Ok(Event { inner: e })
    }
    /// Make work queued on this stream from now on wait until `event` has completed.
    pub fn wait(&self, event: &Event) -> Result<()> {
        self.inner.wait(&event.inner).map_err(driver_err)
    }
}

/// Keeps a [`Stream`] current on this thread; restores the previous one when dropped. Not `Send`:
/// it belongs to the thread that entered the stream.
#[must_use = "the stream is current only while the guard lives"]
pub struct StreamGuard {
    id: u64,
    _not_send: PhantomData<*const ()>,
}

impl Drop for StreamGuard {
    fn drop(&mut self) {
        CURRENT.with(|c| c.borrow_mut().retain(|e| e.1 != self.id));
    }
}

/// A point in a stream's work: wait for it, or time the work between two.
#[derive(Debug)]
pub struct Event {
    inner: CudaEvent,
}

impl Event {
    /// Wait until the work before the event has finished.
    pub fn synchronize(&self) -> Result<()> {
        self.inner.synchronize().map_err(driver_err)
    }
    /// True when the work before the event has finished.
    pub fn is_complete(&self) -> Result<bool> {
        self.inner.try_is_complete().map_err(driver_err)
    }
    /// Milliseconds between this event and a later one (both must have completed).
    pub fn elapsed_ms(&self, end: &Event) -> Result<f32> {
        self.inner.elapsed_ms(&end.inner).map_err(driver_err)
    }
}

/// Cross-stream ordering of one buffer: events after its uses on streams other than its own.
#[derive(Default)]
pub(crate) struct Uses {
    /// (stream, event after its latest use); holding the stream keeps its handle from being reused
    foreign: std::sync::Mutex<Vec<(Arc<CudaStream>, CudaEvent)>>,
}

fn key(s: &CudaStream) -> usize {
    s.cu_stream() as usize
}

impl Uses {
    /// Before a use of a buffer owned by `owner` on stream `s`: wait for the owner's queued work
    /// and for other streams' earlier uses.
    pub(crate) fn before(&self, owner: &CudaStream, s: &CudaStream) -> Result<()> {
        if key(owner) != key(s) {
            s.join(owner).map_err(driver_err)?;
        }
        for (k, e) in self.foreign.lock().unwrap_or_else(|e| e.into_inner()).iter() {
            if key(k) != key(s) {
                s.wait(e).map_err(driver_err)?;
            }
        }
        Ok(())
    }
    /// After a use on `s`: if `s` is not the owner, remember an event for the owner's free (and
    /// for later uses on other streams).
    pub(crate) fn after(&self, owner: &CudaStream, s: &Arc<CudaStream>) -> Result<()> {
        if key(owner) == key(s) {
            return Ok(());
        }
        let e = s.record_event(None).map_err(driver_err)?;
        let mut f = self.foreign.lock().unwrap_or_else(|e| e.into_inner());
        f.retain(|(k, _)| key(k) != key(s));
        f.push((s.clone(), e));
        Ok(())
    }
    /// Before the buffer is freed on `owner`: order the free after every foreign use.
    pub(crate) fn release(&mut self, owner: &CudaStream) {
        for (_, e) in self.foreign.get_mut().unwrap_or_else(|e| e.into_inner()).drain(..) {
            owner.context().record_err(owner.wait(&e));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::buffer::CudaStorage;
    use xp_core::{DType, Layout};

    /// A stream made, used and dropped is destroyed: its freed small blocks sat in the memory
    /// cache with a handle of it and kept it alive, so that a program making streams in a loop
    /// kept them all (and every device-wide synchronisation slowed with their number).
    #[test]
    fn dropped_streams_are_destroyed_whatever_their_blocks_did() {
        let Ok(dev) = crate::CudaDevice::new(0) else {
            assert!(std::env::var("XP_REQUIRE_CUDA").is_err(), "XP_REQUIRE_CUDA is set and there is no GPU");
            return;
        };
        let dev = dev.dev;
        // small blocks freed in the scope, one freed after the stream's handle went, a large one
        for (case, keep, elems) in
            [("small, freed first", false, 100), ("kept past the handle", true, 100), ("large", true, 1 << 19)]
        {
            let mut gone = Vec::new();
            for _ in 0..20 {
                let s = Stream::new(0).unwrap();
                let kept = s.scope(|| {
                    let a = CudaStorage::alloc(&dev, DType::F32, elems).unwrap();
                    drop(CudaStorage::alloc(&dev, DType::F64, 33).unwrap());
                    keep.then_some(a)
                });
                gone.push(Arc::downgrade(&s.inner));
                drop(s);
                drop(kept);
            }
            assert!(gone.iter().all(|w| w.upgrade().is_none()), "{case}: a dropped stream is still alive");
        }
        // a stream that ran a cuBLAS product: its 32 MiB workspace held it until a product on
        // another stream let the workspace go
        let (l, r) = (Layout::contiguous(&[64, 512]), Layout::contiguous(&[512, 64]));
        let product = || {
            let a = CudaStorage::alloc(&dev, DType::F32, 64 * 512).unwrap();
            let b = CudaStorage::alloc(&dev, DType::F32, 512 * 64).unwrap();
            drop(xp_core::LinalgStorage::matmul(&a, &l, &b, &r).unwrap());
        };
        let s = Stream::new(0).unwrap();
        s.scope(product);
        let w = Arc::downgrade(&s.inner);
        drop(s);
        product();
        assert!(w.upgrade().is_none(), "a stream that ran cuBLAS stayed alive");
        // a stream still held keeps its cached blocks (and stays)
        let s = Stream::new(0).unwrap();
        s.scope(|| drop(CudaStorage::alloc(&dev, DType::F32, 100).unwrap()));
        let w = Arc::downgrade(&s.inner);
        let again = s.clone();
        drop(s);
        assert!(w.upgrade().is_some(), "a stream with a live handle went");
        drop(again);
        assert!(w.upgrade().is_none(), "the last handle went and the stream stayed");
    }
}
