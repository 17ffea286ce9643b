//! Device memory shared with other libraries (DLPack): xp's storage handed out by address, with
//! the consumer's stream ordered after xp's queued work; and memory another library owns adopted
//! as a storage that xp's pool never takes, released by its owner's callback once xp's last use
//! of it has finished.
use super::buffer::CudaStorage;
use super::device::driver_err;
use super::memory::Block;
use super::stream::Uses;
use cudarc::driver::sys;
use xp_core::{DType, Result};

/// What gives adopted memory back to its owner (a DLPack deleter).
pub type Release = Box<dyn FnOnce() + Send + Sync>;

impl CudaStorage {
    /// The device address of element 0.
    pub fn device_ptr(&self) -> u64 {
        self.buf.ptr
    }

    /// The ordinal of the device the storage is on.
    pub fn ordinal(&self) -> usize {
        self.dev.ordinal
    }

    /// Orders a consumer after the work xp has queued on this storage: `Some(stream)` (a raw
    /// `CUstream` of this device; 0 is the legacy default stream) waits for it through an event,
    /// with no host wait; `None` waits on the host.
    pub fn hand_over(&self, stream: Option<u64>) -> Result<()> {
        let w = self.dev.work(&[self])?;
        let ev = w.stream().record_event(None).map_err(driver_err)?;
        w.done()?;
        match stream {
            // SAFETY: the caller's stream handle belongs to this device's context (bound by
            // `work`); the event is live until the call returns.
            Some(s) => {
                unsafe { sys::cuStreamWaitEvent(s as sys::CUstream, ev.cu_event(), 0) }.result().map_err(driver_err)
            }
            None => ev.synchronize().map_err(driver_err),
        }
    }

    /// `len` elements of `dtype` at device address `ptr` on device `ordinal`, owned by another
    /// library: xp reads and writes them in place and never frees them; when the storage drops,
    /// after xp's last use has finished, `release` runs. `producer` (a raw `CUstream` of that
    /// device) is a stream whose queued work xp's first use waits for (an event, no host wait).
    ///
    /// # Safety
    /// `ptr` must address `len · dtype.size()` bytes of device memory of device `ordinal` that
    /// stay valid until `release` runs, and `producer` must be a live stream of that device.
    pub unsafe fn adopt(
        ordinal: usize,
        ptr: u64,
        dtype: DType,
        len: usize,
        producer: Option<u64>,
        release: Release,
    ) -> Result<CudaStorage> {
        let dev = crate::CudaDevice::new(ordinal)?.dev;
        dev.bind()?;
        let stream = dev.current();
        if let Some(p) = producer {
            let ev = dev.ctx.new_event(None).map_err(driver_err)?;
            // SAFETY: a live event of this context and, as the caller vouches, a live stream.
            unsafe { sys::cuEventRecord(ev.cu_event(), p as sys::CUstream) }.result().map_err(driver_err)?;
            stream.wait(&ev).map_err(driver_err)?;
        }
        let buf = Block { ptr, bytes: len * dtype.size(), stream };
        Ok(CudaStorage { dev, buf, dtype, len, uses: Uses::default(), owner: Some(release) })
    }
}
