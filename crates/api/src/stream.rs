//! Device-generic streams and events: CuPy's stream examples written once for every device.
//!
//! A [`Stream`] is a queue of work on one device. On a CUDA device it is a CUDA stream (see
//! `xp::cuda::Stream` for the ordering rules); on the CPU, where every operation has finished when
//! it returns, it is an in-order queue that is always empty: `scope` runs its closure,
//! `synchronize` returns at once, and an [`Event`] is the time it was recorded. Both exist in builds
//! without CUDA, so code that times itself or overlaps work compiles and runs everywhere.
//!
//! ```
//! # fn main() -> xp::Result<()> {
//! for device in xp::devices() {
//!     let streams = (0..2).map(|_| xp::Stream::new(device)).collect::<xp::Result<Vec<_>>>()?;
//!     let start = xp::Stream::current(device)?.record()?;
//!     let parts = streams
//!         .iter()
//!         .map(|s| s.scope(|| xp::on(device).arange(0.0, 1000.0, 1.0, None)?.square()?.sum(..)))
//!         .collect::<xp::Result<Vec<_>>>()?;
//!     for s in &streams {
//!         s.synchronize()?;
//!     }
//!     let end = xp::Stream::current(device)?.record()?;
//!     end.synchronize()?;
//!     let total: f64 = parts.iter().map(|p| p.item::<f64>()).sum::<xp::Result<f64>>()?;
//!     assert_eq!(total, 2.0 * 332833500.0);
//!     println!("{device}: {total} in {:.3} ms", start.elapsed_ms(&end)?);
//!     xp::synchronize(device)?;
//! }
//! # Ok(()) }
//! ```
use std::time::Instant;
use xp_core::{Device, Error, Result};

/// A queue of work on one device (see the module docs). Cheap to clone; clones share the queue.
#[derive(Clone, Debug, PartialEq)]
pub struct Stream {
    inner: Inner,
}

#[derive(Clone, Debug, PartialEq)]
enum Inner {
    Cpu,
    #[cfg(xp_cuda)]
    Cuda(xp_cuda::Stream),
}

fn no_cuda(device: Device) -> Error {
    #[cfg(xp_cuda)]
    let _ = device;
    #[cfg(not(xp_cuda))]
    if let Device::Cuda(_) = device {
        return Error::CudaNotCompiled;
    }
    Error::invalid("Stream", format!("no stream on {device}"))
}

impl Stream {
    /// A new stream on `device` (on a GPU non-blocking with respect to its default stream). A
    /// typed error for a GPU that is absent or in a build without CUDA.
    pub fn new(device: Device) -> Result<Stream> {
        let inner = match device {
            Device::Cpu => Inner::Cpu,
            #[cfg(xp_cuda)]
            Device::Cuda(i) => Inner::Cuda(xp_cuda::Stream::new(i)?),
            #[allow(unreachable_patterns)]
            d => return Err(no_cuda(d)),
        };
        Ok(Stream { inner })
    }
    /// The calling thread's current stream on `device` (its default stream outside any scope).
    pub fn current(device: Device) -> Result<Stream> {
        let inner = match device {
            Device::Cpu => Inner::Cpu,
            #[cfg(xp_cuda)]
            Device::Cuda(i) => Inner::Cuda(xp_cuda::Stream::current(i)?),
            #[allow(unreachable_patterns)]
            d => return Err(no_cuda(d)),
        };
        Ok(Stream { inner })
    }
    /// The stream's device.
    pub fn device(&self) -> Device {
        match &self.inner {
            Inner::Cpu => Device::Cpu,
            #[cfg(xp_cuda)]
            Inner::Cuda(s) => Device::Cuda(s.ordinal()),
        }
    }
    /// Make this the calling thread's current stream on its device until the guard drops.
    pub fn enter(&self) -> StreamGuard {
        match &self.inner {
            Inner::Cpu => StreamGuard { _cuda: None },
            #[cfg(xp_cuda)]
            Inner::Cuda(s) => StreamGuard { _cuda: Some(s.enter()) },
        }
    }
    /// Run `f` with this stream current on the calling thread (CuPy's `with stream:`).
    pub fn scope<R>(&self, f: impl FnOnce() -> R) -> R {
        let _g = self.enter();
        f()
    }
    /// Wait until all work queued on this stream has finished.
    pub fn synchronize(&self) -> Result<()> {
        match &self.inner {
            Inner::Cpu => Ok(()),
            #[cfg(xp_cuda)]
            Inner::Cuda(s) => s.synchronize(),
        }
    }
    /// Record an event after the work queued so far.
    pub fn record(&self) -> Result<Event> {
        Ok(Event {
            inner: match &self.inner {
                Inner::Cpu => EventInner::Cpu(Instant::now()),
                #[cfg(xp_cuda)]
                Inner::Cuda(s) => EventInner::Cuda(s.record()?),
            },
        })
    }
    /// Make work queued on this stream from now on wait until `event` has completed. An event of
    /// another device is a typed error unless one of the two is the CPU (whose events have always
    /// completed).
    pub fn wait(&self, event: &Event) -> Result<()> {
        match (&self.inner, &event.inner) {
            (_, EventInner::Cpu(_)) => Ok(()),
            #[cfg(xp_cuda)]
            (Inner::Cpu, EventInner::Cuda(e)) => e.synchronize(),
            #[cfg(xp_cuda)]
            (Inner::Cuda(s), EventInner::Cuda(e)) => s.wait(e),
        }
    }
    /// The raw `CUstream` of a CUDA stream (for DLPack's `stream` argument and other libraries'
    /// calls); `None` for the CPU's.
    pub fn handle(&self) -> Option<u64> {
        #[cfg(xp_cuda)]
        if let Inner::Cuda(s) = &self.inner {
            return Some(s.handle());
        }
        None
    }
    /// The CUDA stream underneath, if this is one.
    #[cfg(xp_cuda)]
    pub fn as_cuda(&self) -> Option<&xp_cuda::Stream> {
        match &self.inner {
            Inner::Cuda(s) => Some(s),
            Inner::Cpu => None,
        }
    }
}

/// Keeps a [`Stream`] current on this thread; restores the previous one when dropped. Not `Send`
/// on a GPU: it belongs to the thread that entered the stream.
#[must_use = "the stream is current only while the guard lives"]
pub struct StreamGuard {
    #[cfg(xp_cuda)]
    _cuda: Option<xp_cuda::StreamGuard>,
    #[cfg(not(xp_cuda))]
    _cuda: Option<std::marker::PhantomData<*const ()>>,
}

/// A point in a stream's work: wait for it, or time the work between two (on the CPU, the time
/// it was recorded).
#[derive(Debug)]
pub struct Event {
    inner: EventInner,
}

#[derive(Debug)]
enum EventInner {
    Cpu(Instant),
    #[cfg(xp_cuda)]
    Cuda(xp_cuda::Event),
}

impl Event {
    /// Wait until the work before the event has finished.
    pub fn synchronize(&self) -> Result<()> {
        match &self.inner {
            EventInner::Cpu(_) => Ok(()),
            #[cfg(xp_cuda)]
            EventInner::Cuda(e) => e.synchronize(),
        }
    }
    /// True when the work before the event has finished.
    pub fn is_complete(&self) -> Result<bool> {
        match &self.inner {
            EventInner::Cpu(_) => Ok(true),
            #[cfg(xp_cuda)]
            EventInner::Cuda(e) => e.is_complete(),
        }
    }
    /// Milliseconds between this event and a later one of the same device (both completed).
    pub fn elapsed_ms(&self, end: &Event) -> Result<f64> {
        match (&self.inner, &end.inner) {
            (EventInner::Cpu(a), EventInner::Cpu(b)) => Ok(b.saturating_duration_since(*a).as_secs_f64() * 1e3),
            #[cfg(xp_cuda)]
            (EventInner::Cuda(a), EventInner::Cuda(b)) => Ok(a.elapsed_ms(b)? as f64),
            #[cfg(xp_cuda)]
            _ => Err(Error::invalid("Event::elapsed_ms", "the two events were recorded on different devices")),
        }
    }
}

/// Wait until all work queued on `device`, on every stream, has finished (CuPy's
/// `Device.synchronize()`; at once on the CPU). A typed error for an absent GPU.
pub fn synchronize(device: Device) -> Result<()> {
    match device {
        Device::Cpu => Ok(()),
        Device::Cuda(i) => crate::cuda::synchronize(i),
    }
}
