//! Scatters: `a[idx] = v` and `ufunc.at`, over the index space `P × B × Q` of the gather.
//!
//! With raise mode every index is checked first (`flag::validate`, one wait), so an error leaves
//! the array unchanged. Then, by what the combination needs:
//! - **assign**: the last position in C order over `B` wins where several address one element
//!   (NumPy's rule; pytorch#88096 is what happens otherwise). Where the addressed positions `K`
//!   are few enough for a scratch array (at most 2^26, or four times the values), a first pass
//!   takes `atomicMax(winner[target], b)` over the positions `b`; otherwise the (target, b) pairs
//!   are sorted and the last of each run marks its `b`. The write pass then copies only the
//!   winners' values (all `P × Q` elements of each).
//! - **ufunc.at with an order-free op** (`atomic.rs`): a thread per value applies it with a
//!   hardware atomic or a compare-and-swap loop.
//! - **ufunc.at into a small destination** (no more elements than a quarter of the values, as a
//!   histogram's bins): instead of the separate validation pass, the order-free update runs on a
//!   copy of the destination with the check inside the atomic kernel, and the copy is written back
//!   only when the flag shows no violation (one pass over the indices, still one wait). `add.at` and
//!   `subtract.at` of 4- and 8-byte numbers accumulate in shared memory (`privatized.rs`) and, on
//!   a dense destination, skip the copy: their last kernel adds into it only if the flag is clear.
//! - **other ops**: the (target, b) pairs are sorted stably by target and one thread per distinct
//!   target (and `p`, `q`) applies that target's values in `b` order, as NumPy's loop does. The
//!   same path serves 1- and 2-byte elements whose buffer does not end on a 4-byte boundary (their
//!   word atomics would touch bytes past it).
use super::atomic::{strategy, update_fn, Strategy};
use super::flag::validate;
use super::{offsets, store_expr, word_ty, Addr, Fix, COMMON};
use crate::codegen::{compute_ty, storage_ty, PRELUDE};
use crate::runtime::buffer::CudaStorage;
use crate::runtime::device::driver_err;
use crate::runtime::launch::{cfg, Family, Kernel, Key, Param, Source};
use crate::space::idx;
use xp_core::{numel, BackendStorage, BinaryOp, Combine, DType, Device, Error, IndexSet, Layout, Result};

/// Targets up to this many always get a winner array.
const WINNER_MIN: usize = 1 << 26;

/// How the assignment's write pass picks the winners.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dedupe {
    /// one index position: no duplicates
    None = 0,
    /// `int` winner per target
    Win32 = 1,
    /// `long long` winner per target
    Win64 = 2,
    /// a keep byte per position `b`
    Keep = 3,
}

/// The scatter of the trait (see `IndexStorage::scatter`).
pub(crate) fn scatter(
    dst: &mut CudaStorage,
    l: &Layout,
    set: &IndexSet<'_, CudaStorage>,
    v: &CudaStorage,
    vl: &Layout,
    how: Combine,
) -> Result<()> {
    if v.dev.ordinal != dst.dev.ordinal {
        let (lhs, rhs) = (Device::Cuda(dst.dev.ordinal), Device::Cuda(v.dev.ordinal));
        return Err(Error::DeviceMismatch { op: "scatter", lhs, rhs });
    }
    let a = Addr::new(dst, l, set, set.mode.into(), "scatter")?;
    let shape = set.out_shape(l.shape());
    if vl.shape() != shape.as_slice() {
        return Err(Error::invalid("scatter", format!("values of shape {:?} for {:?}", vl.shape(), shape)));
    }
    if a.nb == 0 {
        return Ok(());
    }
    if let (Fix::Raise, Combine::Ufunc(op)) = (a.fix, how) {
        let words_inside = dst.dtype.size() >= 4 || (l.numel() * dst.dtype.size()).is_multiple_of(4);
        let free = strategy(op, dst.dtype) != Strategy::Ordered && words_inside;
        if free && v.dtype == dst.dtype && l.numel() * 4 <= numel(&shape) && numel(&shape) > 0 {
            return staged(dst, l, set, v, vl, op);
        }
    }
    if a.fix == Fix::Raise {
        validate(dst, &a)?;
    }
    if numel(&shape) == 0 {
        return Ok(());
    }
    a.empty_axis_error()?;
    let cast;
    let (v, vl) = if v.dtype == dst.dtype {
        (v, vl.clone())
    } else {
        cast = v.cast(vl, dst.dtype)?;
        (&cast, Layout::contiguous(&shape))
    };
    match how {
        Combine::Assign => assign(dst, l, &a, v, &vl),
        Combine::Ufunc(op) => {
            let words_inside = dst.dtype.size() >= 4 || dst.buf.bytes.is_multiple_of(4);
            if strategy(op, dst.dtype) == Strategy::Ordered || !words_inside {
                ordered(dst, l, &a, v, &vl, op)
            } else {
                atomic(dst, l, &a, v, &vl, op)
            }
        }
    }
}

/// `ufunc.at` with the index check inside the update kernel: on a contiguous copy of the
/// destination, which replaces it only when no index was out of range; `add.at`/`subtract.at`
/// through shared-memory accumulators (`privatized.rs`) work on a dense destination in place, as
/// their last kernel writes it only when the flag is clear.
fn staged(
    dst: &mut CudaStorage,
    l: &Layout,
    set: &IndexSet<'_, CudaStorage>,
    v: &CudaStorage,
    vl: &Layout,
    op: BinaryOp,
) -> Result<()> {
    let (m, n) = (l.numel(), vl.numel());
    let plan = super::privatized::Plan::new(dst, op, m, n);
    let in_place = plan.is_some() && l.is_contiguous() && l.offset() == 0 && dst.len == m;
    let tmp = if in_place { None } else { Some(dst.contiguous_copy(l)?) };
    let tl = Layout::contiguous(l.shape());
    let t = tmp.as_ref().unwrap_or(dst);
    let a = Addr::new(t, &tl, set, Fix::Raise, "scatter")?;
    let flag = super::flag::Flag::new(t)?;
    let (_, base, bpos) = a.pbq(&tl);
    let ix = idx(&[&base, vl, &bpos])?;
    let (d, small) = (t.dtype, ix.n < 1 << 31);
    if let Some(plan) = plan {
        plan.run(t, &a, v, &ix, &flag)?;
    } else {
        let key = Key::new(Family::ScatterCombine)
            .dtype(d)
            .bits(7, op as u64)
            .bits(4, a.k as u64)
            .bits(2, a.fix as u64)
            .flag(small)
            .flag(true);
        let k = t.dev.kernel(key, "scatter_combine", || {
            Source::new(combine_spec(d, op, &a, small, "_checked"), atomic_src(d, op, a.k, a.fix, small, true))
        })?;
        launch_write(t, &a, v, &k, &ix, &[flag.ptr(), a.nb as u64])?;
    }
    flag.check(&a)?;
    match tmp {
        Some(tmp) => tmp.copy_into(&tl, dst, l),
        None => Ok(()),
    }
}

/// What specialises a combining scatter's kernel: the op, the dtype, the index arrays and mode.
fn combine_spec(d: DType, op: BinaryOp, a: &Addr<'_>, small: bool, more: &str) -> String {
    format!("{}_{}_k{}_{}{}{more}", op.name(), d.name(), a.k, a.fix.name(), if small { "_i32" } else { "" })
}

/// The entry names of [`per_b_src`]'s kernels.
const PER_B: [&str; 3] = ["scatter_winners", "scatter_pairs", "scatter_keep"];

fn log2(bytes: usize) -> u64 {
    bytes.trailing_zeros() as u64
}

/// Device code: `t`, the target's number in `K`, of position `b`; with `p`, also adds the target's
/// offset to `p`.
fn target(fix: Fix, k: usize, b: &str, p: Option<&str>) -> String {
    let m = fix as u8;
    let add = p.map_or(String::new(), |p| format!(" {p} += c * ks.st[j];"));
    format!(
        "i64 t = 0;
#pragma unroll
    for (int j = 0; j < {k}; ++j) {{ const i64 c = fix<{m}>(ks.p[j][{b}], ks.len[j]); t += c * ks.ts[j];{add} }}"
    )
}

/// Kernels over the index positions: `0` winners (`atomicMax` of `b` per target; `wide`: 64-bit),
/// `1` the (target, b) pairs to sort (`wide`: 64-bit keys), `2` the keep byte of each run's last
/// position in sorted order.
pub(crate) fn per_b_src(which: u8, k: usize, fix: Fix, wide: bool) -> String {
    let (wt, kt) = if wide { ("i64", "u64") } else { ("i32", "u32") };
    let entry = PER_B[which as usize];
    let t = target(fix, k, "b", None);
    let (params, body) = match which {
        0 => (format!("Ks ks, i64 nb, {wt}* __restrict__ win"), format!("{t}\n    atomicMax(win + t, ({wt})b);")),
        1 => (
            format!("Ks ks, i64 nb, {kt}* __restrict__ key, i64* __restrict__ val"),
            format!("{t}\n    key[b] = ({kt})t; val[b] = b;"),
        ),
        _ => (
            format!("const {kt}* __restrict__ sk, const i64* __restrict__ sv, i64 nb, u8* __restrict__ keep"),
            "keep[sv[b]] = b + 1 == nb || sk[b + 1] != sk[b];".into(),
        ),
    };
    format!(
        "{PRELUDE}{COMMON}
extern \"C\" __global__ void XP_NAME({entry})({params}) {{
  const i64 step = (i64)gridDim.x * blockDim.x;
  for (i64 b = (i64)blockIdx.x * blockDim.x + threadIdx.x; b < nb; b += step) {{
    {body}
  }}
}}\n"
    )
}

/// The assignment's write pass: elements of `size` bytes, winners picked as `dd` says.
pub(crate) fn assign_src(size: usize, k: usize, fix: Fix, dd: Dedupe, small: bool) -> String {
    let w = word_ty(size);
    let t = target(fix, k, "p2", Some("p0"));
    let pick = match dd {
        Dedupe::None => "",
        Dedupe::Win32 => "if (((const i32*)sel)[t] != (i32)p2) continue;",
        Dedupe::Win64 => "if (((const i64*)sel)[t] != p2) continue;",
        Dedupe::Keep => "if (!((const u8*)sel)[p2]) continue;",
    };
    format!(
        "{PRELUDE}{COMMON}
extern \"C\" __global__ void XP_NAME(scatter_assign)({w}* __restrict__ d, const {w}* __restrict__ v, Ks ks, Idx ix, const void* __restrict__ sel) {{
  const i64 step = (i64)gridDim.x * blockDim.x;
  for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < ix.n; i += step) {{
    {offs}
    {t}
    {pick}
    d[p0] = v[p1];
  }}
}}\n",
        offs = offsets(&[0, 1, 2], small),
    )
}

/// Device code: add the target's offset to `p0` for position `p2`, checking each index (raise
/// mode: an index out of range is recorded in `flag` and the position skipped by `continue`).
pub(crate) fn checked_target(k: usize) -> String {
    let ok = super::flag::check_code("c", "j", "p2");
    format!(
        "bool inb = true;
#pragma unroll
    for (int j = 0; j < {k}; ++j) {{ const i64 c = fix<0>(ks.p[j][p2], ks.len[j]); inb &= {ok}; p0 += c * ks.st[j]; }}
    if (!inb) continue;"
    )
}

/// `ufunc.at` with an order-free op: a thread per value, one atomic update each. `checked`: raise
/// mode's check inside the kernel (out-of-range positions recorded in `flag`, not applied).
pub(crate) fn atomic_src(d: DType, op: BinaryOp, k: usize, fix: Fix, small: bool, checked: bool) -> String {
    let st = storage_ty(d);
    let upd = update_fn(op, d).expect("an order-free op");
    let (t, extra) =
        if checked { (checked_target(k), ", u64* flag, i64 nb") } else { (target(fix, k, "p2", Some("p0")), "") };
    format!(
        "{PRELUDE}{COMMON}{upd}
extern \"C\" __global__ void XP_NAME(scatter_combine)({st}* d, const {st}* __restrict__ v, Ks ks, Idx ix{extra}) {{
  const i64 step = (i64)gridDim.x * blockDim.x;
  for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < ix.n; i += step) {{
    {offs}
    {t}
    upd(d + p0, ld(v[p1]));
  }}
}}\n",
        offs = offsets(&[0, 1, 2], small),
    )
}

/// `ufunc.at` in index order: positions sorted by target (`sk`, `sv`), a thread per run start
/// (and `p`, `q`) folds its run; the values are C-contiguous `P × B × Q` (`nq` per row).
pub(crate) fn ordered_src(d: DType, op: BinaryOp, k: usize, fix: Fix, key64: bool, small: bool) -> String {
    let (st, ct, kt) = (storage_ty(d), compute_ty(d), if key64 { "u64" } else { "u32" });
    let t = target(fix, k, "b0", Some("p0"));
    let out = store_expr(d, "acc");
    format!(
        "{PRELUDE}{COMMON}
extern \"C\" __global__ void XP_NAME(scatter_ordered)({st}* __restrict__ d, const {st}* __restrict__ v, Ks ks, Idx ix, const {kt}* __restrict__ sk, const i64* __restrict__ sv, i64 nb, i64 nq) {{
  const i64 step = (i64)gridDim.x * blockDim.x;
  for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < ix.n; i += step) {{
    {offs}
    if (p2 > 0 && sk[p2 - 1] == sk[p2]) continue;
    const i64 b0 = sv[p2];
    const {kt} key = sk[p2];
    {t}
    {ct} acc = ld(d[p0]);
    for (i64 s = p2; s < nb && sk[s] == key; ++s) acc = cv<{ct}>(b_{name}(acc, ld(v[p1 + (sv[s] - p2) * nq])));
    d[p0] = {out};
  }}
}}\n",
        offs = offsets(&[0, 1, 2], small),
        name = op.name(),
    )
}

/// Launch a kernel over the index positions (`per_b_src`) with the given pointer arguments.
fn launch_per_b(dst: &CudaStorage, a: &Addr<'_>, which: u8, wide: bool, ptrs: &[u64]) -> Result<()> {
    let key =
        Key::new(Family::ScatterTargets).bits(2, which as u64).bits(4, a.k as u64).bits(2, a.fix as u64).flag(wide);
    let k = dst.dev.kernel(key, PER_B[which as usize], || {
        let spec = format!("k{}_{}{}", a.k, a.fix.name(), if wide { "_i64" } else { "" });
        Source::new(spec, per_b_src(which, a.k, a.fix, wide))
    })?;
    let arrays = a.storages();
    let w = dst.dev.work(&arrays)?;
    let nb = a.nb as i64;
    let mut args: Vec<&dyn Param> = Vec::with_capacity(5);
    if which == 2 {
        args.extend([&ptrs[0] as &dyn Param, &ptrs[1], &nb, &ptrs[2]]);
    } else {
        args.extend([&a.ks as &dyn Param, &nb]);
        args.extend(ptrs.iter().map(|p| p as &dyn Param));
    }
    // SAFETY: parameters match the kernel; every buffer holds `nb` entries, the winner array one
    // per target, and every index is in range (checked, wrapped or clipped).
    unsafe { w.launch(&k, cfg(nb), &args) }?;
    w.done()
}

/// The (target, b) pairs sorted stably by target, and whether the keys are 64-bit.
fn sorted_targets(dst: &CudaStorage, a: &Addr<'_>) -> Result<(CudaStorage, CudaStorage, bool)> {
    let nk = a.nk();
    let key64 = nk > 1 << 32;
    let keys = CudaStorage::alloc(&dst.dev, if key64 { DType::U64 } else { DType::U32 }, a.nb)?;
    let vals = CudaStorage::alloc(&dst.dev, DType::I64, a.nb)?;
    launch_per_b(dst, a, 1, key64, &[keys.buf.ptr, vals.buf.ptr])?;
    // The sort family's stable radix sort (it skips the passes of digits that never vary, so
    // targets in a small range sort in one or two passes).
    let (sk, sv) = crate::sort::radix::sort_pairs(&keys, &vals, a.nb)?;
    Ok((sk, sv, key64))
}

fn assign(dst: &mut CudaStorage, l: &Layout, a: &Addr<'_>, v: &CudaStorage, vl: &Layout) -> Result<()> {
    let (_, base, bpos) = a.pbq(l);
    let ix = idx(&[&base, vl, &bpos])?;
    let nk = a.nk();
    let (dd, sel) = if a.nb == 1 {
        (Dedupe::None, None)
    } else if nk <= WINNER_MIN.max(4 * ix.n as usize) {
        let wide = a.nb > i32::MAX as usize;
        let win = CudaStorage::alloc(&dst.dev, if wide { DType::I64 } else { DType::I32 }, nk)?;
        let s = dst.dev.current();
        dst.dev.bind()?;
        // SAFETY: fills the winner array just allocated (-1: no winner yet), on the current stream.
        unsafe { cudarc::driver::result::memset_d8_async(win.ptr(0), 0xff, nk * win.dtype.size(), s.cu_stream()) }
            .map_err(driver_err)?;
        launch_per_b(dst, a, 0, wide, &[win.buf.ptr])?;
        (if wide { Dedupe::Win64 } else { Dedupe::Win32 }, Some(win))
    } else {
        let (sk, sv, key64) = sorted_targets(dst, a)?;
        let keep = CudaStorage::alloc(&dst.dev, DType::U8, a.nb)?;
        launch_per_b(dst, a, 2, key64, &[sk.buf.ptr, sv.buf.ptr, keep.buf.ptr])?;
        (Dedupe::Keep, Some(keep))
    };
    let small = ix.n < 1 << 31;
    let size = dst.dtype.size();
    let key = Key::new(Family::ScatterAssign).bits(3, log2(size)).bits(4, a.k as u64).bits(2, a.fix as u64);
    let k = dst.dev.kernel(key.bits(2, dd as u64).flag(small), "scatter_assign", || {
        let dds = ["all", "win32", "win64", "keep"][dd as usize];
        let spec = format!("b{size}_k{}_{}_{dds}{}", a.k, a.fix.name(), if small { "_i32" } else { "" });
        Source::new(spec, assign_src(size, a.k, a.fix, dd, small))
    })?;
    let sp = sel.as_ref().map_or(0, |s| s.buf.ptr);
    launch_write(dst, a, v, &k, &ix, &[sp])
}

/// Launch a write pass (`d`, `v`, `ks`, `ix`, then `extra`) and order its buffers.
fn launch_write(
    dst: &CudaStorage,
    a: &Addr<'_>,
    v: &CudaStorage,
    k: &Kernel,
    ix: &crate::space::Idx,
    extra: &[u64],
) -> Result<()> {
    let mut ins = a.storages();
    ins.extend([v, dst]);
    let w = dst.dev.work(&ins)?;
    let mut args: Vec<&dyn Param> = vec![&dst.buf.ptr, &v.buf.ptr, &a.ks, ix];
    args.extend(extra.iter().map(|p| p as &dyn Param));
    // SAFETY: parameters match the kernel; offsets stay inside the validated layouts of `dst`
    // and `v`, every index being in range (checked, wrapped or clipped).
    unsafe { w.launch(k, cfg(ix.n), &args) }?;
    w.done()
}

fn atomic(dst: &mut CudaStorage, l: &Layout, a: &Addr<'_>, v: &CudaStorage, vl: &Layout, op: BinaryOp) -> Result<()> {
    let (_, base, bpos) = a.pbq(l);
    let ix = idx(&[&base, vl, &bpos])?;
    let (d, small) = (dst.dtype, ix.n < 1 << 31);
    let key = Key::new(Family::ScatterCombine).dtype(d).bits(7, op as u64).bits(4, a.k as u64).bits(2, a.fix as u64);
    let k = dst.dev.kernel(key.flag(small), "scatter_combine", || {
        Source::new(combine_spec(d, op, a, small, ""), atomic_src(d, op, a.k, a.fix, small, false))
    })?;
    launch_write(dst, a, v, &k, &ix, &[])
}

fn ordered(dst: &mut CudaStorage, l: &Layout, a: &Addr<'_>, v: &CudaStorage, vl: &Layout, op: BinaryOp) -> Result<()> {
    let copy;
    let (v, vl) = if vl.is_contiguous() {
        (v, vl.clone())
    } else {
        copy = v.contiguous_copy(vl)?;
        (&copy, Layout::contiguous(vl.shape()))
    };
    let (sk, sv, key64) = sorted_targets(dst, a)?;
    let (_, base, bpos) = a.pbq(l);
    let ix = idx(&[&base, &vl, &bpos])?;
    let (d, small) = (dst.dtype, ix.n < 1 << 31);
    let key = Key::new(Family::ScatterOrdered).dtype(d).bits(7, op as u64).bits(4, a.k as u64).bits(2, a.fix as u64);
    let k = dst.dev.kernel(key.flag(key64).flag(small), "scatter_ordered", || {
        let more = if key64 { "_key64" } else { "" };
        Source::new(combine_spec(d, op, a, small, more), ordered_src(d, op, a.k, a.fix, key64, small))
    })?;
    let nq: usize = l.shape()[a.axis + a.k..].iter().product();
    let (nb, nq) = (a.nb as u64, nq as u64);
    launch_write(dst, a, v, &k, &ix, &[sk.buf.ptr, sv.buf.ptr, nb, nq])
}
