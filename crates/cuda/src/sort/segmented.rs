//! Sorts along an axis of any strided layout: every line (the elements along `axis` at one
//! position of the other axes) sorted on its own, the result C-contiguous with the input's shape.
//!
//! - Lines of up to 32: a bitonic sort across the lanes of a warp (several lines per warp), since a
//!   radix pass costs a 256-digit scan whatever the line's length.
//! - Lines that fit a block's shared memory (up to 8192 items of up to 8 bytes): one block per
//!   line, the line in shared memory, a block-wide LSD radix sort (the rank of `rank.cu`) that
//!   skips the passes whose digit is the same along the whole line. Each line is read and written
//!   once, in place (the kernel walks the layout itself).
//! - Longer lines: the device-wide radix sort (`radix.rs`) over (line, key) pairs: the items are
//!   sorted by key, then stably by line number (extra digit passes computed from each item's
//!   position), which a contiguous copy with the axis last precedes when the layout needs it.
use super::{keys, radix};
use crate::codegen::PRELUDE;
use crate::runtime::buffer::CudaStorage;
use crate::runtime::device::driver_err;
use crate::runtime::launch::{Family, Key, Source};
use crate::space::{idx, split};
use cudarc::driver::LaunchConfig;
use xp_core::{DType, Layout, Result, SortOutput};

const SEGMENT: &str = include_str!("segment.cu");

/// Static shared memory of the block kernel besides the dynamic part (tot, start, wsum).
const STATIC_SMEM: usize = 2 * 1024 + 64;

/// The block shape (warps, items per thread) for lines of `n` items of `d`: the smallest tier that
/// holds the line. Complex128 items (16 bytes) keep to 8 per thread (registers).
pub(crate) fn block_tier(d: DType, n: usize) -> Option<(usize, usize)> {
    const SMALL: [(usize, usize); 8] = [(1, 2), (1, 4), (1, 8), (2, 8), (4, 8), (8, 8), (8, 16), (16, 16)];
    const WIDE: [(usize, usize); 7] = [(1, 2), (1, 4), (1, 8), (2, 8), (4, 8), (8, 8), (16, 8)];
    let tiers: &[(usize, usize)] = if d.size() > 8 { &WIDE } else { &SMALL };
    tiers.iter().copied().find(|&(w, i)| w * 32 * i >= n)
}

/// Dynamic shared memory of the block kernel: the line, its u16 positions (argsort), the warps'
/// digit counters and peer words (`rank.cu`).
pub(crate) fn block_smem(d: DType, (warps, items): (usize, usize), indices: bool) -> usize {
    let cap = warps * 32 * items;
    cap * d.size() + if indices { cap * 2 } else { 0 } + warps * 2048
}

/// The block kernel's source.
pub(crate) fn block_src(d: DType, (warps, items): (usize, usize), indices: bool) -> String {
    format!(
        "{PRELUDE}\n{}\n{}\n{}\n#define XP_SEG_BLOCK\n#define WARPS {warps}\n#define ITEMS {items}\n#define OUTIDX {}\n{SEGMENT}",
        keys::header(d),
        radix::rank_define(),
        radix::RANK,
        indices as u8
    )
}

/// The warp kernel's source.
pub(crate) fn warp_src(d: DType, indices: bool) -> String {
    format!(
        "{PRELUDE}\n{}\n{}\n#define XP_SEG_WARP\n#define OUTIDX {}\n{SEGMENT}",
        keys::header(d),
        radix::RANK,
        indices as u8
    )
}

fn out_dtype(d: DType, out: SortOutput) -> DType {
    match out {
        SortOutput::Values => d,
        SortOutput::Indices => DType::I64,
    }
}

impl CudaStorage {
    /// Whether lines of `n` fit the block kernel on this device; its tier if so.
    pub(crate) fn block_fit(&self, n: usize, out: SortOutput) -> Result<Option<(usize, usize)>> {
        let Some(tier) = block_tier(self.dtype, n) else { return Ok(None) };
        use cudarc::driver::sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN as OPTIN;
        let most = self.dev.ctx.attribute(OPTIN).map_err(driver_err)? as usize;
        let smem = block_smem(self.dtype, tier, out == SortOutput::Indices);
        Ok((smem + STATIC_SMEM <= most).then_some(tier))
    }

    /// Sort lines that fit a block (`tier` from [`Self::block_fit`]) or, with `tier == None`, lines
    /// of 2 to 32 items with the warp kernel.
    pub(crate) fn sort_lines(
        &self,
        l: &Layout,
        axis: usize,
        out: SortOutput,
        tier: Option<(usize, usize)>,
    ) -> Result<CudaStorage> {
        let d = self.dtype;
        let res = CudaStorage::alloc(&self.dev, out_dtype(d, out), l.numel())?;
        let ol = Layout::contiguous(l.shape());
        let (kl, _) = split(l, &[axis]);
        let (okl, _) = split(&ol, &[axis]);
        let kix = idx(&[&okl, &kl])?;
        let (n, sa, so) = (l.shape()[axis] as i64, l.strides()[axis] as i64, ol.strides()[axis] as i64);
        let lines = kix.n as usize;
        let indices = out == SortOutput::Indices;
        let (ov, oi) = if indices { (0u64, res.ptr(0)) } else { (res.ptr(0), 0u64) };
        let w = self.dev.work(&[self, &res])?;
        let what = if indices { "indices" } else { "values" };
        if let Some(tier) = tier {
            let key =
                Key::new(Family::SegmentSortBlock).dtype(d).flag(indices).bits(5, tier.0 as u64).bits(6, tier.1 as u64);
            let k = self.dev.kernel(key, "segsort_block", || {
                Source::new(format!("{}_{what}_w{}_i{}", d.name(), tier.0, tier.1), block_src(d, tier, indices))
            })?;
            let smem = block_smem(d, tier, indices);
            // the limit without the opt-in counts the static shared memory too: a tier whose
            // dynamic part is exactly 48 KB (int64 values, 8 warps × 16 items) was refused
            if smem + STATIC_SMEM > 48 * 1024 {
                use cudarc::driver::sys::CUfunction_attribute_enum::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES as MAX;
                k.f.set_attribute(MAX, smem as i32).map_err(driver_err)?;
            }
            let cfg = LaunchConfig {
                grid_dim: (lines.min(1 << 20) as u32, 1, 1),
                block_dim: (tier.0 as u32 * 32, 1, 1),
                shared_mem_bytes: smem as u32,
            };
            // SAFETY: parameters match the kernel; each line's offsets (kix, sa, so) lie inside the
            // input and the C-contiguous output of numel elements; n fits the block's tier and the
            // dynamic shared memory is the tier's (allowed above 48 KB by the attribute).
            unsafe { w.launch(&k, cfg, &[&self.buf.ptr, &kix, &n, &sa, &so, &ov, &oi]) }?;
        } else {
            debug_assert!((2..=32).contains(&n));
            let lgs = (usize::BITS - (n as usize - 1).leading_zeros()) as i32;
            let per_block = 256usize >> lgs;
            let key = Key::new(Family::SegmentSortWarp).dtype(d).flag(indices);
            let k = self
                .dev
                .kernel(key, "segsort_warp", || Source::new(format!("{}_{what}", d.name()), warp_src(d, indices)))?;
            let cfg = LaunchConfig {
                grid_dim: (lines.div_ceil(per_block).min(1 << 20) as u32, 1, 1),
                block_dim: (256, 1, 1),
                shared_mem_bytes: 0,
            };
            // SAFETY: as above; 2^lgs >= n lanes per line, lanes past n load and store nothing.
            unsafe { w.launch(&k, cfg, &[&self.buf.ptr, &kix, &n, &sa, &so, &lgs, &ov, &oi]) }?;
        }
        w.done()?;
        Ok(res)
    }

    /// Sort lines too long for a block with the device-wide radix sort: one line in place (any
    /// stride), several as (line, key) pairs over a copy with the axis last when the layout is not
    /// already so, the result moved back to the input's axis order when `axis` is not the last.
    pub(crate) fn sort_long_lines(&self, l: &Layout, axis: usize, out: SortOutput) -> Result<CudaStorage> {
        let (numel, n, nd) = (l.numel(), l.shape()[axis], l.ndim());
        let lines = numel / n;
        let indices = out == SortOutput::Indices;
        let mut job = radix::Job {
            dtype: self.dtype,
            src: self.ptr(l.offset()),
            stride: l.strides()[axis] as i64,
            n: numel,
            linelen: 0,
            vals: if indices { radix::Vals::Positions } else { radix::Vals::None },
            items_out: !indices,
            vals_out: indices,
        };
        if lines == 1 {
            // The other axes have length 1: one line at the layout's offset and stride.
            let (k, v) = radix::run(&self.dev, &job, &[self])?;
            return Ok(if indices { v } else { k }.expect("the output asked for"));
        }
        let mut perm: Vec<usize> = (0..nd).filter(|&a| a != axis).collect();
        perm.push(axis);
        let lp = l.permute(&perm)?;
        let copy = if lp.is_contiguous() { None } else { Some(self.contiguous_copy(&lp)?) };
        let src = copy.as_ref().unwrap_or(self);
        job.src = copy.as_ref().map_or(self.ptr(lp.offset()), |c| c.ptr(0));
        job.stride = 1;
        job.linelen = n;
        job.vals = radix::Vals::Positions;
        let (k, v) = radix::run(&self.dev, &job, &[src])?;
        let sorted = if indices { v } else { k }.expect("the output asked for");
        if axis == nd - 1 {
            return Ok(sorted);
        }
        // `sorted` is C-contiguous in the permuted shape: view it in the input's axis order.
        let pl = Layout::contiguous(lp.shape());
        let mut strides = vec![0isize; nd];
        for (i, &a) in perm.iter().enumerate() {
            strides[a] = pl.strides()[i];
        }
        sorted.contiguous_copy(&Layout::new(l.shape().to_vec(), strides, 0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::tests_support::syntax_check;

    #[test]
    fn every_segmented_kernel_parses_for_every_dtype() {
        for d in DType::ALL {
            for indices in [false, true] {
                syntax_check(&format!("seg-warp-{}-{indices}", d.name()), &warp_src(d, indices));
                // Every tier of the dtype (the ranks' template shapes differ).
                let mut tiers: Vec<(usize, usize)> =
                    [40, 100, 200, 400, 1000, 2000, 4000, 8000].iter().filter_map(|&n| block_tier(d, n)).collect();
                tiers.dedup();
                let src: Vec<String> = tiers.iter().map(|&t| block_src(d, t, indices)).collect();
                for (t, s) in tiers.iter().zip(&src) {
                    syntax_check(&format!("seg-block-{}-{}x{}-{indices}", d.name(), t.0, t.1), s);
                }
            }
        }
    }

    #[test]
    fn tiers_hold_their_lines() {
        for d in DType::ALL {
            for n in 33..=4096 {
                let (w, i) = block_tier(d, n).expect("lines up to 4096 fit a block");
                let cap = w * 32 * i;
                assert!(cap >= n && (cap < 2 * n || cap == 64), "{d}: {n} in {w}x{i}");
                assert!(w <= 16 && i <= 16 && (d.size() <= 8 || i <= 8));
            }
            assert_eq!(block_tier(d, 8192).is_some(), d.size() <= 8, "{d}");
            assert!(block_tier(d, 8193).is_none());
        }
        // 4096 float32: 8 warps of 16, 40 KB with positions (counters and peer words: 16 KB).
        assert_eq!(block_tier(DType::F32, 4096), Some((8, 16)));
        assert_eq!(block_smem(DType::F32, (8, 16), true), 16384 + 8192 + 16384);
    }
}
