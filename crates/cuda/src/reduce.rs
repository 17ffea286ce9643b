//! The reduction family on the GPU: reductions over any axes, arg-reductions (folds of (value,
//! index) pairs) and scans, all from the one reduction generator (`generator::reduction`): the
//! plans and kernels of the reductions, and scan kernels written from the same fold.
use crate::generator::reduction::{self, chunking, identity};
use crate::generator::scan_src::{ScanMode, SCAN_TILE};
use crate::runtime::buffer::CudaStorage;
use crate::runtime::launch::{blocks_cfg, cfg, Family, Key, Param, Source};
use crate::space::{idx, split};
use xp_core::{ArgReduceOp, BackendStorage, BinaryOp, Layout, Result};

impl CudaStorage {
    pub(crate) fn reduce_impl(&self, l: &Layout, op: BinaryOp, axes: &[usize]) -> Result<CudaStorage> {
        reduction::builtin(self, l, op, axes)
    }
    /// Totals of `chunks` consecutive ranges of `per` positions of each line along `axis`, as
    /// `self`'s dtype: (lines, chunks), C-contiguous.
    fn chunk_totals(&self, l: &Layout, op: BinaryOp, axis: usize, chunks: usize, per: usize) -> Result<CudaStorage> {
        let parts = reduction::builtin_parts(self, l, op, axis, chunks, per)?;
        let nk = split(l, &[axis]).0.numel();
        let pl = Layout::contiguous(&[nk, chunks]);
        if parts.dtype == self.dtype {
            return Ok(parts);
        }
        // float16 and bfloat16 partials are float32: rounded to the dtype the scan reads
        parts.cast(&pl, self.dtype)
    }
    pub(crate) fn arg_reduce_impl(&self, l: &Layout, op: ArgReduceOp, axis: usize) -> Result<CudaStorage> {
        reduction::builtin_arg(self, l, op, axis)
    }
    pub(crate) fn scan_impl(&self, l: &Layout, op: BinaryOp, axis: usize) -> Result<CudaStorage> {
        let n = l.numel();
        let out = CudaStorage::alloc(&self.dev, self.dtype, n)?;
        if n == 0 {
            return Ok(out);
        }
        let ol = Layout::contiguous(l.shape());
        let (kl, _) = split(l, &[axis]);
        let (okl, _) = split(&ol, &[axis]);
        let kix = idx(&[&okl, &kl])?;
        let (nk, len) = (kl.numel(), l.shape()[axis]);
        // Lines longer than a tile, op with an identity: tile scans, each tile starting from the
        // inclusive total of the tiles before it (the tiles' totals reduced by the reduction
        // kernel, then scanned by a recursive call). Otherwise: few lines, reorderable op: chunks
        // scanned by blocks from the chunks' scanned totals; else a thread walks each line.
        let fill = 32 * self.dev.sms;
        let (mode, chunks, per) = if identity(op, self.dtype).is_some() && op.is_reorderable() && len > SCAN_TILE {
            (ScanMode::Tiles, len.div_ceil(SCAN_TILE), SCAN_TILE)
        } else if !op.is_reorderable() || nk >= fill {
            (ScanMode::Lines, 1, len.max(1))
        } else {
            match chunking(len, fill / nk, 256) {
                (1, per) => (ScanMode::Lines, 1, per),
                (chunks, per) => (ScanMode::Chunks, chunks, per),
            }
        };
        let pre = if chunks > 1 {
            let parts = self.chunk_totals(l, op, axis, chunks, per)?;
            Some(parts.scan(&Layout::contiguous(&[nk, chunks]), op, 1)?)
        } else {
            None
        };
        let entry = &scan_entry(op);
        let key = Key::new(Family::Scan).dtype(self.dtype).bits(7, op as u64).bits(2, mode as u64);
        let f = self.dev.kernel(key, entry, || {
            let spec = format!("{}_{}", self.dtype.name(), format!("{mode:?}").to_lowercase());
            Source::new(spec, reduction::scan_source(entry, op, self.dtype, mode))
        })?;
        let (ln, sa, so) = (len as i64, l.strides()[axis] as i64, ol.strides()[axis] as i64);
        let (c, p) = (chunks as i64, per as i64);
        let pre_buf = pre.as_ref().map_or(&self.buf.ptr, |p| &p.buf.ptr);
        let mut used = vec![self, &out];
        used.extend(pre.as_ref());
        let wk = self.dev.work(&used)?;
        let args: [&dyn Param; 9] = [&out.buf.ptr, &self.buf.ptr, &kix, &ln, &sa, &so, &c, &p, pre_buf];
        let launch = match mode {
            ScanMode::Lines => cfg(nk as i64),
            ScanMode::Chunks => blocks_cfg(nk as i64 * c),
            ScanMode::Tiles => cudarc::driver::LaunchConfig {
                grid_dim: ((nk * chunks) as u32, 1, 1),
                block_dim: (256, 1, 1),
                shared_mem_bytes: 0,
            },
        };
        // SAFETY: parameters match the scan kernel's; `pre` is read only when chunks > 1, where
        // it holds nk * chunks totals; offsets stay inside the buffers; a tile scan has a block
        // of 256 threads per tile.
        unsafe { wk.launch(&f, launch, &args) }?;
        wk.done()?;
        Ok(out)
    }
}

/// The entry name of the scan with `op` as NumPy names it: `cumsum`, `cumprod`, else
/// `<ufunc>_accumulate`.
fn scan_entry(op: BinaryOp) -> String {
    match op {
        BinaryOp::Add => "cumsum".into(),
        BinaryOp::Mul => "cumprod".into(),
        _ => format!("{}_accumulate", op.name()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans_cover_every_position_without_empty_chunks() {
        for n in [1usize, 15, 16, 17, 2047, 2048, 4096, 10_000, 1 << 20, 10_000_000] {
            for want in [1usize, 2, 7, 1056, 4224] {
                for min in [1usize, 256, 2048] {
                    let (chunks, per) = chunking(n, want, min);
                    assert!(chunks >= 1 && chunks * per >= n, "{n} {want} {min}: {chunks} x {per}");
                    assert!((chunks - 1) * per < n, "an empty chunk: {n} {want} {min}: {chunks} x {per}");
                    if chunks > 1 {
                        assert_eq!(per % 16, 0, "{n} {want} {min}: per {per}");
                        assert!(chunks <= want, "{n} {want} {min}: {chunks} chunks");
                    }
                }
            }
        }
    }
}
