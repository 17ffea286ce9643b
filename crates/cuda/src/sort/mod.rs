//! The sort family on the GPU: stable sorts and argsorts along an axis, and binary search, all in
//! NumPy's order through order-preserving keys (`keys.rs`).
//!
//! Which sort runs depends on the line length n along the axis (`segmented.rs`): a warp's bitonic
//! network for n ≤ 32, a block-wide radix sort in shared memory for lines that fit a block (up to
//! 8192 items), the device-wide Onesweep radix sort (`radix.rs`) for longer ones. Everything is
//! asynchronous on the current stream; nothing waits for the device.
#[cfg(test)]
mod emu;
mod keys;
mod merge;
pub(crate) mod radix;
mod search;
mod segmented;

use crate::runtime::buffer::CudaStorage;
use crate::runtime::device::driver_err;
use xp_core::{DType, Error, Layout, Result, Side, SortOutput, SortStorage};

impl CudaStorage {
    /// `n` int64 zeros.
    fn zeros_i64(&self, n: usize) -> Result<CudaStorage> {
        let out = CudaStorage::alloc(&self.dev, DType::I64, n)?;
        let w = self.dev.work(&[&out])?;
        self.dev.bind()?;
        // SAFETY: the block holds n int64; the fill is ordered on the current stream.
        unsafe { cudarc::driver::result::memset_d8_async(out.ptr(0), 0, n * 8, w.stream().cu_stream()) }
            .map_err(driver_err)?;
        w.done()?;
        Ok(out)
    }
}

impl SortStorage for CudaStorage {
    fn sort(&self, l: &Layout, axis: usize, out: SortOutput) -> Result<Self> {
        let numel = l.numel();
        if numel == 0 {
            let dt = if out == SortOutput::Indices { DType::I64 } else { self.dtype };
            return CudaStorage::alloc(&self.dev, dt, 0);
        }
        if l.ndim() == 0 || l.shape()[axis] == 1 {
            return match out {
                SortOutput::Values => self.contiguous_copy(l),
                SortOutput::Indices => self.zeros_i64(numel),
            };
        }
        if numel > u32::MAX as usize {
            return Err(Error::Unsupported { op: "sort of 2^32 or more elements", backend: "cuda" });
        }
        let n = l.shape()[axis];
        if n <= 32 {
            return self.sort_lines(l, axis, out, None);
        }
        if let Some(tier) = self.block_fit(n, out)? {
            return self.sort_lines(l, axis, out, Some(tier));
        }
        self.sort_long_lines(l, axis, out)
    }

    fn searchsorted(&self, l: &Layout, v: &Self, vl: &Layout, side: Side) -> Result<Self> {
        self.searchsorted_impl(l, v, vl, side)
    }
}
