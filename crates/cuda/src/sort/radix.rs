//! The device-wide stable LSD radix sort, for one long line (or many lines sorted together as
//! (line, key) pairs): Onesweep (Adinets & Merrill, 2022), the design of CUB's radix sort.
//!
//! One launch reads the keys once and counts the digits of every pass; one block scans those
//! histograms and plans the passes on the device (a pass whose digit is the same for every item is
//! skipped, so small-range integers and bool take one or two passes; the active passes find their
//! buffers from the plan, so the host never waits); then one launch per pass: each block ranks a
//! tile of 4096 items by warp multisplit, learns where its digits go by decoupled look-back over the
//! tiles before it, and scatters through shared memory. 8-bit digits, 256 threads.
//!
//! Memory traffic per item and pass: the items read and written once (values too, when any); the
//! first pass reads the input in place (any stride, no key array: the digit is computed from the
//! original bits, which the sort moves), argsort's positions are made by the first pass and written
//! as int64 only by the last (u32 in between). float32: 4 + 4 × 8 = 36 bytes per element for
//! `sort`, 4 + 12 + 2 × 16 + 16 = 64 for `argsort` (CUB's pairs sort with int64 values: about 100).
//! Look-back adds 1 KB per 4096-item tile per pass, mostly in L2.
use super::keys;
use crate::codegen::PRELUDE;
use crate::runtime::buffer::CudaStorage;
use crate::runtime::device::{driver_err, knob, Dev};
use crate::runtime::launch::{Family, Key, Param, Source};
use cudarc::driver::LaunchConfig;
use std::sync::{Arc, OnceLock};
use xp_core::{DType, Error, Result};

/// The ranking library shared by every sort kernel.
pub(crate) const RANK: &str = include_str!("rank.cu");
const ONESWEEP: &str = include_str!("onesweep.cu");

/// Items per thread of a pass tile (256 threads): `XP_SORT_ITEMS`, by default 20 for a sort of
/// items alone and 16 when values travel with them (on the H100, 2^24 float32: the sort 0.679 ms
/// with 16, 0.655 ms with 20; the argsort 0.821 and 0.871 ms), fewer where the tile staged in
/// shared memory (items, then their values) would pass 32 KB.
fn items(d: DType, vmode: u64) -> usize {
    static M: OnceLock<Option<usize>> = OnceLock::new();
    let want = knob(&M, "XP_SORT_ITEMS").unwrap_or(if vmode == 0 { 20 } else { 16 });
    let widest = d.size().max(if vmode == 2 { 8 } else { 4 });
    want.clamp(4, 32).min((32 << 10) / (256 * widest))
}

/// The most items one pass launch covers: a look-back word counts up to 2^29 - 1.
const PORTION: usize = 1 << 28;

/// How values travel with the items.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Vals {
    /// none: the sorted items only
    None,
    /// the items' positions, u32 made by the first pass, written as int64 by the last (modulo
    /// the line length for lines)
    Positions,
    /// int64 values at this device address, moved with the items
    Given(u64),
}

impl Vals {
    fn mode(self) -> u64 {
        match self {
            Vals::None => 0,
            Vals::Positions => 1,
            Vals::Given(_) => 2,
        }
    }
}

/// One device-wide sort.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Job {
    /// the items' dtype (their order: `keys::header`)
    pub(crate) dtype: DType,
    /// device address of item 0 and the step between items, in elements
    pub(crate) src: u64,
    pub(crate) stride: i64,
    pub(crate) n: usize,
    /// with `linelen > 0`, the items are `n / linelen` lines one after another (stride 1), each
    /// sorted on its own: the line number is sorted on after the key (needs `Vals::Positions`),
    /// and the positions written are those along the line
    pub(crate) linelen: usize,
    pub(crate) vals: Vals,
    /// whether the sorted items are wanted
    pub(crate) items_out: bool,
    /// whether the int64 values are wanted
    pub(crate) vals_out: bool,
}

/// The histogram kernel of `d`.
pub(crate) fn hist_src(d: DType) -> String {
    format!("{PRELUDE}\n{}\n{RANK}\n#define XP_HIST\n{ONESWEEP}", keys::header(d))
}

/// The scan-and-plan kernel (no dtype).
pub(crate) fn plan_src() -> String {
    format!("{PRELUDE}\n{RANK}\n#define XP_PLAN\n{ONESWEEP}")
}

/// The pass kernel of `d`, value mode `vmode` (`Vals::mode`), digits of the key or (`line`) of
/// the line number.
pub(crate) fn pass_src(d: DType, vmode: u64, line: bool) -> String {
    pass_src_items(d, vmode, line, items(d, vmode))
}

/// Blocks of the pass kernel that must fit on an SM at once (its `__launch_bounds__`), which caps
/// its registers: `XP_SORT_MINB`, default 4. Uncapped, the pass kernel took 75 registers, which
/// left room for 3 blocks of 256 threads per SM (37.5% occupancy, 19% of DRAM bandwidth by ncu);
/// with 4 (at most 64 registers) a 2^24 float32 sort went from 0.79-0.91 ms to 0.75 ms and the
/// argsort from 0.91-1.07 ms to 0.85 ms on the H100 (5: 0.744 and 0.935 ms).
fn min_blocks() -> usize {
    static M: OnceLock<Option<usize>> = OnceLock::new();
    knob(&M, "XP_SORT_MINB").unwrap_or(4).clamp(1, 8)
}

/// How `rank.cu` finds the lanes of a warp that share a digit (`XP_SORT_RANK`), as a `#define`:
/// 1 (the default) or-ed peer words in shared memory, 0 eight ballots, 2 match.any.sync. On the
/// H100 (2^24 float32, 16 items per thread) the sort took 0.679, 0.740 and 0.860 ms: the pass
/// kernel is bound by instruction issue, and the peer word costs one shared atomic and one load
/// where the ballots cost some forty instructions.
pub(crate) fn rank_define() -> String {
    static M: OnceLock<Option<usize>> = OnceLock::new();
    format!("#define XP_RANK {}", knob(&M, "XP_SORT_RANK").unwrap_or(1).min(2))
}

/// [`pass_src`] with `items` per thread (the CPU emulation of the tests uses small tiles).
pub(crate) fn pass_src_items(d: DType, vmode: u64, line: bool, items: usize) -> String {
    format!(
        "{PRELUDE}\n{}\n{}\n{RANK}\n#define XP_PASS\n#define ITEMS {items}\n#define VMODE {vmode}\n#define LINE_DIGIT {}\n#define XP_MINB {}\n{ONESWEEP}",
        keys::header(d),
        rank_define(),
        line as u8,
        min_blocks()
    )
}

/// Bytes needed for `x` (0 for 0).
fn bytes_of(x: usize) -> usize {
    (usize::BITS - x.leading_zeros()).div_ceil(8) as usize
}

/// The device scratch of one sort, by byte offset: `[bins: 2 × P × 256 u64][plan: P × 3 i32]`,
/// then the part zeroed before the sort: `[hist: P × 256 u32][counters: P × portions u32]
/// [look-back words: tiles × 256 u32]`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Scratch {
    plan: usize,
    zero: usize,
    ctr: usize,
    status: usize,
    total: usize,
}

impl Scratch {
    fn new(passes: usize, portions: usize, tiles: usize) -> Scratch {
        let plan = 2 * passes * 256 * 8;
        let zero = (plan + passes * 12).next_multiple_of(16);
        let ctr = zero + passes * 1024;
        let status = (ctr + passes * portions * 4).next_multiple_of(16);
        Scratch { plan, zero, ctr, status, total: status + tiles * 1024 }
    }
}

fn launch_1d(blocks: usize) -> LaunchConfig {
    LaunchConfig { grid_dim: (blocks as u32, 1, 1), block_dim: (256, 1, 1), shared_mem_bytes: 0 }
}

/// Run `job` on the current stream, asynchronously. `inputs` are the storages `job` reads from
/// (ordered across streams). Returns the sorted items and the int64 values, as asked.
pub(crate) fn run(
    dev: &Arc<Dev>,
    job: &Job,
    inputs: &[&CudaStorage],
) -> Result<(Option<CudaStorage>, Option<CudaStorage>)> {
    let (d, n) = (job.dtype, job.n);
    if n > u32::MAX as usize {
        return Err(Error::Unsupported { op: "sort of 2^32 or more elements", backend: "cuda" });
    }
    let lines = n.checked_div(job.linelen).unwrap_or(1);
    debug_assert!(job.linelen == 0 || (job.vals == Vals::Positions && job.stride == 1 && lines * job.linelen == n));
    let pk = keys::key_passes(d);
    let lp = if lines > 1 { bytes_of(lines - 1) } else { 0 };
    let passes = pk + lp;
    let tile = 256 * items(d, job.vals.mode());
    let tiles = n.div_ceil(tile);
    let per_portion = PORTION / tile;
    let portions = tiles.div_ceil(per_portion).max(1);
    let sc = Scratch::new(passes, portions, tiles);
    let alloc = |dt: DType| CudaStorage::alloc(dev, dt, n);
    if n == 0 {
        let vout = if job.vals_out && job.vals != Vals::None { Some(alloc(DType::I64)?) } else { None };
        return Ok((if job.items_out { Some(alloc(d)?) } else { None }, vout));
    }
    let kout = if job.items_out { Some(alloc(d)?) } else { None };
    let ka = alloc(d)?;
    let kb = if job.items_out { None } else { Some(alloc(d)?) };
    let (va, vb) = match job.vals {
        Vals::None => (None, None),
        Vals::Positions => (Some(alloc(DType::U32)?), Some(alloc(DType::U32)?)),
        Vals::Given(_) => (Some(alloc(DType::I64)?), None),
    };
    let vout = if job.vals_out && job.vals != Vals::None { Some(alloc(DType::I64)?) } else { None };
    let scratch = CudaStorage::alloc(dev, DType::U8, sc.total)?;
    let mut bufs: Vec<&CudaStorage> = inputs.to_vec();
    bufs.extend([&ka, &scratch].into_iter().chain(kout.iter()).chain(kb.iter()));
    bufs.extend(va.iter().chain(vb.iter()).chain(vout.iter()));
    let w = dev.work(&bufs)?;
    let s = w.stream();
    let at = |off: usize| scratch.ptr(0) + off as u64;
    dev.bind()?;
    // SAFETY: zeroes the histograms, tile counters and look-back words, inside the scratch block
    // just allocated, ordered on the current stream.
    unsafe { cudarc::driver::result::memset_d8_async(at(sc.zero), 0, sc.total - sc.zero, s.cu_stream()) }
        .map_err(driver_err)?;

    let (hist, bins, plan) = (at(sc.zero), at(0), at(sc.plan));
    let (n64, linelen, lines64, lp32) = (n as u64, job.linelen as u32, lines as u64, lp as i32);
    let k = dev.kernel(Key::new(Family::RadixHist).dtype(d), "radix_hist", || Source::new(d.name(), hist_src(d)))?;
    let blocks = n.div_ceil(1024).min(8 * dev.sms).max(1);
    let args: [&dyn Param; 7] = [&job.src, &job.stride, &n64, &hist, &lines64, &linelen, &lp32];
    // SAFETY: parameters match the kernel; it reads n items at the job's stride (inside `inputs`)
    // and adds into the zeroed histograms of `passes` passes.
    unsafe { w.launch(&k, launch_1d(blocks), &args) }?;

    let k = dev.kernel(Key::new(Family::RadixPlan), "radix_plan", || Source::new("", plan_src()))?;
    let np = passes as i32;
    // SAFETY: one block reads `passes` histograms and writes as many bins and plan entries.
    unsafe { w.launch(&k, launch_1d(1), &[&hist, &bins, &plan, &np, &n64]) }?;

    let ptr = |x: Option<&CudaStorage>| x.map_or(0u64, |x| x.ptr(0));
    let (pka, pkb, pkout) = (ka.ptr(0), ptr(kb.as_ref()), ptr(kout.as_ref()));
    let (pva, pvb, pvout) = (ptr(va.as_ref()), ptr(vb.as_ref()), ptr(vout.as_ref()));
    let v0 = if let Vals::Given(p) = job.vals { p } else { 0 };
    let vmode = job.vals.mode();
    for p in 0..passes {
        let line = p >= pk;
        let key = Key::new(Family::RadixPass).dtype(d).bits(2, vmode).flag(line);
        let k = dev.kernel(key, "radix_pass", || {
            let spec = format!(
                "{}_{}{}",
                d.name(),
                ["keys", "positions", "pairs"][vmode as usize],
                if line { "_lines" } else { "" }
            );
            Source::new(spec, pass_src(d, vmode, line))
        })?;
        let pass = p as i32;
        for q in 0..portions {
            let tile0 = (q * per_portion) as u64;
            let nt = per_portion.min(tiles - q * per_portion);
            let nt32 = nt as u32;
            let bins_in = bins + (((q & 1) * passes + p) * 256 * 8) as u64;
            let bins_out = bins + ((((q + 1) & 1) * passes + p) * 256 * 8) as u64;
            let ctr = at(sc.ctr + (p * portions + q) * 4);
            let status = at(sc.status);
            let args: [&dyn Param; 19] = [
                &job.src,
                &job.stride,
                &pka,
                &pkb,
                &pkout,
                &v0,
                &pva,
                &pvb,
                &pvout,
                &plan,
                &pass,
                &status,
                &ctr,
                &bins_in,
                &bins_out,
                &n64,
                &tile0,
                &nt32,
                &linelen,
            ];
            // SAFETY: parameters match the kernel. One block per tile of this portion; every
            // buffer holds n items (values) of its type; the plan, bins and zeroed look-back
            // words were written by the launches above on this stream.
            unsafe { w.launch(&k, launch_1d(nt), &args) }?;
        }
    }
    w.done()?;
    Ok((kout, vout))
}

/// Stable ascending sort of `n` (key, value) pairs: `keys` uint32 or uint64, `vals` int64, both
/// contiguous from element 0. Returns new storages of the sorted keys and the values in the same
/// order (for scatters whose combining op is not commutative, which need duplicates in order).
/// Asynchronous on the current stream.
#[allow(dead_code)] // used by the indexing family
pub(crate) fn sort_pairs(keys: &CudaStorage, vals: &CudaStorage, n: usize) -> Result<(CudaStorage, CudaStorage)> {
    if !matches!(keys.dtype, DType::U32 | DType::U64) {
        return Err(Error::InvalidDType { op: "sort_pairs", dtype: keys.dtype });
    }
    if vals.dtype != DType::I64 {
        return Err(Error::InvalidDType { op: "sort_pairs", dtype: vals.dtype });
    }
    assert!(keys.len >= n && vals.len >= n, "sort_pairs: {n} pairs from buffers of {} and {}", keys.len, vals.len);
    let job = Job {
        dtype: keys.dtype,
        src: keys.ptr(0),
        stride: 1,
        n,
        linelen: 0,
        vals: Vals::Given(vals.ptr(0)),
        items_out: true,
        vals_out: true,
    };
    let (k, v) = run(&keys.dev, &job, &[keys, vals])?;
    Ok((k.expect("items asked"), v.expect("values asked")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::tests_support::syntax_check;

    #[test]
    fn every_radix_kernel_parses_for_every_dtype() {
        syntax_check("radix-plan", &plan_src());
        for d in DType::ALL {
            syntax_check(&format!("radix-hist-{}", d.name()), &hist_src(d));
            for (vmode, line) in [(0, false), (1, false), (1, true), (2, false)] {
                syntax_check(&format!("radix-pass-{}-{vmode}-{line}", d.name()), &pass_src(d, vmode, line));
            }
        }
    }

    /// The buffer rule of `onesweep.cu` (mirrored): pass j of k reads what pass j - 1 wrote, the
    /// first reads the input, the last writes the output, and no pass reads and writes one buffer.
    #[test]
    fn active_passes_chain_their_buffers() {
        // 0: input, 1: a, 2: b, 3: out, 4: nothing
        let items = |with_out: bool, j: i32, k: i32| -> (u8, u8) {
            let last = j == k - 1;
            let (src, dst) = if with_out {
                (if (k - j) & 1 != 0 { 1 } else { 3 }, if (k - 1 - j) & 1 != 0 { 1 } else { 3 })
            } else {
                (
                    if (j - 1) & 1 != 0 { 2 } else { 1 },
                    if last {
                        4
                    } else if j & 1 != 0 {
                        2
                    } else {
                        1
                    },
                )
            };
            (if j == 0 { 0 } else { src }, dst)
        };
        for with_out in [true, false] {
            for k in 1..=21 {
                let mut prev = 0u8;
                for j in 0..k {
                    let (src, dst) = items(with_out, j, k);
                    assert_eq!(src, prev, "pass {j} of {k} reads {src}, the last wrote {prev}");
                    assert_ne!(src, dst);
                    prev = dst;
                }
                assert_eq!(prev, if with_out { 3 } else { 4 }, "{k} passes end in the output");
            }
        }
    }

    #[test]
    fn scratch_regions_do_not_overlap() {
        for (passes, portions, tiles) in [(1, 1, 1), (4, 1, 4096), (21, 3, 200_000), (8, 16, 1 << 20)] {
            let s = Scratch::new(passes, portions, tiles);
            assert!(s.plan >= 2 * passes * 256 * 8);
            assert!(s.zero >= s.plan + passes * 12 && s.zero.is_multiple_of(16));
            assert!(s.ctr >= s.zero + passes * 1024);
            assert!(s.status >= s.ctr + passes * portions * 4 && s.status.is_multiple_of(16));
            assert_eq!(s.total, s.status + tiles * 1024);
        }
        assert_eq!(bytes_of(0), 0);
        assert_eq!(bytes_of(1), 1);
        assert_eq!(bytes_of(255), 1);
        assert_eq!(bytes_of(256), 2);
        assert_eq!(bytes_of(u32::MAX as usize), 4);
        // Portions of whole tiles within the look-back counter's range.
        for d in DType::ALL {
            for vmode in 0..3 {
                let tile = 256 * items(d, vmode);
                assert!(PORTION / tile * tile < 1 << 29);
                assert!(tile * d.size().max(4) <= 32 << 10, "{d:?} {vmode}");
            }
        }
    }
}
