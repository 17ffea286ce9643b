//! The reduction family on the GPU: reductions over any axes (row mode: blocks per output,
//! two-stage when few outputs; column mode: a coalesced thread per output), arg-reductions and
//! scans.
use crate::codegen;
use crate::generator::reduction::{self, chunking, identity};
use crate::runtime::buffer::CudaStorage;
use crate::runtime::device::driver_err;
use crate::runtime::launch::{blocks_cfg, cfg, Family, Key, Param, Source};
use crate::space::{idx, split, vector_width, Idx};
use xp_core::{ArgReduceOp, BackendStorage, BinaryOp, DType, Layout, Result};

/// Elements per vector load (up to 16 bytes) along unit-stride runs starting at the offsets of
/// `kix`'s operand 1 plus multiples of `per`: the widest width that divides all of them (1: scalar
/// loads).
fn vec_width(d: DType, kix: &Idx, per: usize, unit: bool) -> usize {
    if !unit {
        return 1;
    }
    vector_width(16 / d.size(), |v| {
        let v = v as i64;
        kix.off[1] % v == 0 && (per as i64) % v == 0 && (0..kix.nd as usize).all(|a| kix.st[1][a] % v == 0)
    })
}

/// Whether long scans find each tile's start by decoupled look-back (`XP_SCAN=lookback`, read
/// once) instead of from tile totals.
fn lookback_scan() -> bool {
    static LOOKBACK: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *LOOKBACK.get_or_init(|| std::env::var("XP_SCAN").is_ok_and(|v| v == "lookback"))
}

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
        let (kl, _) = split(l, &[axis]);
        let (nk, n) = (kl.numel(), l.shape()[axis]);
        if nk == 0 {
            return CudaStorage::alloc(&self.dev, DType::I64, 0);
        }
        let ok = Layout::contiguous(kl.shape());
        let kix = idx(&[&ok, &kl])?;
        let better = match op {
            ArgReduceOp::ArgMax => "gt",
            ArgReduceOp::ArgMin => "lt",
        };
        let vec = vec_width(self.dtype, &kix, 0, l.strides()[axis] == 1);
        let key = Key::new(Family::ArgReduce).dtype(self.dtype).flag(better == "gt").bits(5, vec as u64);
        let entry = if better == "gt" { "argmax" } else { "argmin" };
        let k = self.dev.kernel(key, entry, || {
            let name = format!("XP_NAME({entry})");
            Source::new(format!("{}_v{vec}", self.dtype.name()), codegen::arg_reduce(&name, self.dtype, better, vec))
        })?;
        let (chunks, per) = if nk >= k.fill { (1, n.max(1)) } else { chunking(n, k.fill / nk, 2048) };
        let (nn, s) = (n as i64, l.strides()[axis] as i64);
        let launch = |out: &CudaStorage, chunks: i64, per: i64, cand: &CudaStorage, ncand: i64| -> Result<()> {
            let wk = self.dev.work(&[self, cand, out])?;
            let cp = cand.buf.ptr;
            let args: [&dyn Param; 9] = [&out.buf.ptr, &self.buf.ptr, &kix, &nn, &s, &chunks, &per, &cp, &ncand];
            // SAFETY: parameters match the generated kernel; offsets and candidate indices stay
            // inside the input.
            unsafe { wk.launch(&k, blocks_cfg(nk as i64 * chunks), &args) }?;
            wk.done()
        };
        let first = CudaStorage::alloc(&self.dev, DType::I64, nk * chunks)?;
        launch(&first, chunks as i64, per as i64, self, 0)?;
        if chunks == 1 {
            return Ok(first);
        }
        let out = CudaStorage::alloc(&self.dev, DType::I64, nk)?;
        launch(&out, 1, nn, &first, chunks as i64)?;
        Ok(out)
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
        let (ln, sa, so) = (len as i64, l.strides()[axis] as i64, ol.strides()[axis] as i64);
        let opn = format!("b_{}", op.name());
        let spec = || format!("{}_{}", op.name(), self.dtype.name());
        // Lines longer than a tile, op with an identity: tile scans in shared memory, each tile
        // starting from the total before it: from the tiles' totals reduced and scanned by
        // earlier launches (reads the input twice), or with `XP_SCAN=lookback` found by decoupled
        // look-back in a single pass (reads it once; slower on the H100 so far: see RESULTS.md).
        if let Some(id) = identity(op, self.dtype).filter(|_| op.is_reorderable() && len > codegen::SCAN_TILE) {
            let lookback = lookback_scan();
            let key = Key::new(Family::Scan).dtype(self.dtype).bits(7, op as u64).flag(lookback);
            let entry = if lookback { "scan_lookback" } else { "scan_tiles" };
            let f = self.dev.kernel(key, entry, || {
                let name = format!("XP_NAME({entry})");
                Source::new(spec(), codegen::scan_lookback(&name, self.dtype, &opn, &id, lookback))
            })?;
            let tpl = len.div_ceil(codegen::SCAN_TILE);
            let tiles = nk * tpl;
            // Look-back: scratch for the tile counter, a status flag and two values per tile.
            // Otherwise the tiles' inclusive totals: the input reduced per tile, then scanned.
            // (`_buf` holds the scratch or the totals until the launch below is queued.)
            let (_buf, counter, flags, aggs, incls) = if lookback {
                let cs = codegen::compute_size(self.dtype);
                let flags_at = 16;
                let aggs_at = (flags_at + 4 * tiles).next_multiple_of(16);
                let incls_at = aggs_at + cs * tiles;
                let scratch = CudaStorage::alloc(&self.dev, DType::U8, incls_at + cs * tiles)?;
                let base = scratch.ptr(0);
                self.dev.bind()?;
                // SAFETY: zeroes the counter and flags, inside the scratch buffer just allocated.
                unsafe { cudarc::driver::result::memset_d8_async(base, 0, aggs_at, self.dev.current().cu_stream()) }
                    .map_err(driver_err)?;
                let at = |k: usize| base + k as u64;
                (scratch, base, at(flags_at), at(aggs_at), at(incls_at))
            } else {
                let parts = self.chunk_totals(l, op, axis, tpl, codegen::SCAN_TILE)?;
                let totals = parts.scan(&Layout::contiguous(&[nk, tpl]), op, 1)?;
                let p = totals.ptr(0);
                (totals, 0, 0, 0, p)
            };
            let tp = tpl as i64;
            let wk = self.dev.work(&[self, &out, &_buf])?;
            let args: [&dyn Param; 11] =
                [&out.buf.ptr, &self.buf.ptr, &kix, &ln, &sa, &so, &tp, &counter, &flags, &aggs, &incls];
            let grid = cudarc::driver::LaunchConfig {
                grid_dim: (tiles as u32, 1, 1),
                block_dim: (256, 1, 1),
                shared_mem_bytes: 0,
            };
            // SAFETY: parameters match the generated kernel; one block per tile; the scratch holds
            // `tiles` flags and values, zeroed flags and counter (look-back), or `incls` the tiles'
            // inclusive totals; offsets stay inside the buffers.
            unsafe { wk.launch(&f, grid, &args) }?;
            wk.done()?;
            return Ok(out);
        }
        // Otherwise few long lines: chunk totals (stage one of the reduction), their running
        // totals per line, then every chunk scans from the total before it. Not-reorderable ops
        // scan line by line.
        let fill = 32 * self.dev.sms;
        let (chunks, per) =
            if !op.is_reorderable() || nk >= fill { (1, len.max(1)) } else { chunking(len, fill / nk, 256) };
        let pre = if chunks > 1 {
            let parts = self.chunk_totals(l, op, axis, chunks, per)?;
            Some(parts.scan(&Layout::contiguous(&[nk, chunks]), op, 1)?)
        } else {
            None
        };
        // Chunks (reorderable ops only) scan as blocks over coalesced tiles; otherwise one thread
        // per line walks it in order.
        let blocks = chunks > 1;
        let key = Key::new(Family::ScanBlocks).dtype(self.dtype).bits(7, op as u64).flag(blocks);
        let entry = if blocks { "scan_chunks" } else { "scan_lines" };
        let f = self.dev.kernel(key, entry, || {
            let name = format!("XP_NAME({entry})");
            let code = if blocks {
                codegen::scan_blocks(&name, self.dtype, &opn)
            } else {
                codegen::scan(&name, self.dtype, &opn)
            };
            Source::new(spec(), code)
        })?;
        let (c, p) = (chunks as i64, per as i64);
        let pre_buf = pre.as_ref().map_or(&self.buf.ptr, |p| &p.buf.ptr);
        let mut used = vec![self, &out];
        used.extend(pre.as_ref());
        let wk = self.dev.work(&used)?;
        let args: [&dyn Param; 9] = [&out.buf.ptr, &self.buf.ptr, &kix, &ln, &sa, &so, &c, &p, pre_buf];
        let launch = if blocks { blocks_cfg(nk as i64 * c) } else { cfg(nk as i64 * c) };
        // SAFETY: as for reduce; `pre` is read only when chunks > 1, where it holds nk * chunks totals.
        unsafe { wk.launch(&f, launch, &args) }?;
        wk.done()?;
        Ok(out)
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

    #[test]
    fn vector_width_needs_unit_stride_and_aligned_starts() {
        let l = Layout::new(vec![8, 64], vec![64, 1], 0);
        let (kl, _) = split(&l, &[1]);
        let ok = Layout::contiguous(kl.shape());
        let kix = idx(&[&ok, &kl]).unwrap();
        assert_eq!(vec_width(DType::F32, &kix, 0, true), 4);
        assert_eq!(vec_width(DType::F64, &kix, 0, true), 2);
        assert_eq!(vec_width(DType::C128, &kix, 0, true), 1);
        assert_eq!(vec_width(DType::F32, &kix, 0, false), 1, "strided runs load scalars");
        assert_eq!(vec_width(DType::F32, &kix, 6, true), 2, "chunk starts at multiples of 6");
        // Rows starting at odd offsets.
        let l = Layout::new(vec![8, 63], vec![63, 1], 1);
        let (kl, _) = split(&l, &[1]);
        let kix = idx(&[&Layout::contiguous(kl.shape()), &kl]).unwrap();
        assert_eq!(vec_width(DType::F32, &kix, 0, true), 1);
    }
}
