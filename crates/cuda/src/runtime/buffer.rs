//! [`CudaStorage`]: a typed buffer in one device's memory, allocated from the device's pool on
//! the current stream, with the cross-stream record of its uses (see [`super::stream`]).
use super::device::{driver_err, Dev};
use super::stream::Uses;
use cudarc::driver::result;
use std::sync::Arc;
use xp_core::{with_buffer, DType, Element, HostBuffer, Result};

/// A buffer in the memory of one CUDA device.
pub struct CudaStorage {
    pub(crate) dev: Arc<Dev>,
    pub(crate) buf: super::memory::Block,
    pub(crate) dtype: DType,
    pub(crate) len: usize,
    /// cross-stream ordering (used only once the device has several streams)
    pub(crate) uses: Uses,
    /// memory another library owns (see `foreign`): given back through this, not to the pool
    pub(crate) owner: Option<super::foreign::Release>,
}

impl std::fmt::Debug for CudaStorage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CudaStorage({:?}, {} x {})", self.dev, self.len, self.dtype)
    }
}

fn bytes_of<T>(v: &[T]) -> &[u8] {
    // SAFETY: any initialised memory may be viewed as bytes.
    unsafe { std::slice::from_raw_parts(v.as_ptr() as *const u8, std::mem::size_of_val(v)) }
}

pub(crate) fn bytes_of_mut<T: Element>(v: &mut [T]) -> &mut [u8] {
    // SAFETY: every element type of xp is plain data for which the device writes valid bit
    // patterns (bool as 0/1 bytes), so any bytes copied from a device buffer of the same dtype
    // are valid values.
    unsafe { std::slice::from_raw_parts_mut(v.as_mut_ptr() as *mut u8, std::mem::size_of_val(v)) }
}

impl CudaStorage {
    pub(crate) fn alloc(dev: &Arc<Dev>, dtype: DType, len: usize) -> Result<CudaStorage> {
        // Uninitialised: every kernel writes each element of its output before anything reads it.
        let buf = super::memory::alloc(dev, (len * dtype.size()).max(1))?;
        Ok(CudaStorage { dev: dev.clone(), buf, dtype, len, uses: Uses::default(), owner: None })
    }
    pub(crate) fn upload(dev: &Arc<Dev>, host: &HostBuffer) -> Result<CudaStorage> {
        super::graph::capturable(dev.ordinal, "a host to device copy", "it reads host memory when queued")?;
        let bytes: &[u8] = with_buffer!(host, v => bytes_of(v));
        let out = CudaStorage::alloc(dev, host.dtype(), host.len())?;
        if !bytes.is_empty() {
            dev.bind()?;
            // SAFETY: the block holds at least `bytes.len()` bytes; the copy from pageable memory
            // has read `bytes` when the call returns.
            unsafe { result::memcpy_htod_async(out.buf.ptr, bytes, out.buf.stream.cu_stream()) }.map_err(driver_err)?;
        }
        Ok(out)
    }
    /// The device this storage lives on (no driver call: the storage holds it).
    pub fn cuda_device(&self) -> crate::CudaDevice {
        crate::CudaDevice::of(&self.dev)
    }
    /// The device address of element `off` (no event is involved: xp orders streams itself).
    pub(crate) fn ptr(&self, off: usize) -> u64 {
        self.buf.ptr + (off * self.dtype.size()) as u64
    }
}

impl Drop for CudaStorage {
    fn drop(&mut self) {
        // The block is reused or freed on its own stream: after every foreign use.
        self.uses.release(&self.buf.stream);
        if let Some(give_back) = self.owner.take() {
            // adopted memory: back to its owner once xp's last use of it has finished
            self.dev.ctx.record_err(self.buf.stream.synchronize());
            give_back();
            return;
        }
        super::memory::release(&self.dev, &self.buf);
    }
}
