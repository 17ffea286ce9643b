//! Gathers: `out[p, b, q] = src[p, i_0[b], …, i_{k-1}[b], q]` into a new C-contiguous array.
//!
//! A gather copies bits, so its kernels are specialised on the element *size*, not the dtype. Two
//! kernels:
//! - **take** (`P` and `Q` empty: `take` of a 1-D array, `a[i, j]` addressing every axis): four
//!   positions per thread, the indices loaded 16 bytes at a time where every array is aligned,
//!   four independent source loads in flight, one vector store; no integer division at all. This
//!   is the path that bounds `take` by the index reads and the random source reads.
//! - **general**: a thread per output word over the collapsed `P × B × Q` (see the module docs of
//!   `index`). Where `Q` ends in a unit-stride run of the source whose length, the source offset
//!   and every other source stride are multiples of `v` elements, `v` adjacent elements move as
//!   one word of up to 16 bytes (gathering rows of a matrix moves whole vectors).
use super::flag::{check_code, validate, Flag};
use super::{offsets, word_ty, Addr, Fix, Ks, COMMON};
use crate::codegen::PRELUDE;
use crate::runtime::buffer::CudaStorage;
use crate::runtime::launch::{cfg, Family, Key, Source};
use crate::space::{idx, vector_width, Idx};
use xp_core::{numel, IndexSet, Layout, Result};

/// The gather of the trait (see `IndexStorage::gather`).
pub(crate) fn gather(src: &CudaStorage, l: &Layout, set: &IndexSet<'_, CudaStorage>) -> Result<CudaStorage> {
    let a = Addr::new(src, l, set, set.mode.into(), "gather")?;
    let shape = set.out_shape(l.shape());
    let n = numel(&shape);
    let mut out = CudaStorage::alloc(&src.dev, src.dtype, n)?;
    if a.nb == 0 {
        return Ok(out);
    }
    if n == 0 {
        // Nothing to copy, but NumPy's fancy indexing still checks the indices.
        if a.fix == Fix::Raise {
            validate(src, &a)?;
        }
        return Ok(out);
    }
    a.empty_axis_error()?;
    let flag = if a.fix == Fix::Raise && a.k > 0 { Some(Flag::new(src)?) } else { None };
    gather_into(src, l, &a, &mut out, flag.as_ref().map_or(0, Flag::ptr))?;
    if let Some(f) = flag {
        f.check(&a)?;
    }
    Ok(out)
}

fn log2(bytes: usize) -> u64 {
    bytes.trailing_zeros() as u64
}

/// How a gather runs: the take kernel (only `B` left after collapsing: `base` is the source
/// offset, `iv` says the index arrays load 16 bytes at a time), or the general kernel over `ix`
/// with words of `word` bytes (`ks` strides in words).
#[derive(Clone, Copy, Debug)]
#[allow(clippy::large_enum_variant)]
pub(crate) enum Plan {
    Take { base: i64, iv: bool },
    General { ix: Idx, ks: Ks, word: usize, small: bool },
}

/// The plan of a gather of elements of `size` bytes from `l` through `a`.
pub(crate) fn plan(l: &Layout, a: &Addr<'_>, size: usize) -> Result<Plan> {
    let (shape, base, bpos) = a.pbq(l);
    let ol = Layout::contiguous(&shape);
    let mut ix = idx(&[&ol, &base, &bpos])?;
    if ix.nd == 1 && ix.st[2][0] == 1 {
        return Ok(Plan::Take { base: ix.off[1], iv: (0..a.k).all(|j| a.ks.p[j].is_multiple_of(16)) });
    }
    let (mut ks, k) = (a.ks, a.k);
    let last = ix.nd as usize - 1;
    // Q ends in a unit-stride run: move `v` elements as one word where every run start and
    // stride is a multiple of `v`.
    let v = if ix.st[2][last] == 0 && ix.st[1][last] == 1 {
        vector_width(16 / size, |v| {
            let v = v as i64;
            ix.shape[last] % v == 0
                && ix.off[1] % v == 0
                && (0..last).all(|d| ix.st[1][d] % v == 0)
                && (0..k).all(|j| ks.st[j] % v == 0)
        })
    } else {
        1
    };
    if v > 1 {
        let vi = v as i64;
        ix.n /= vi;
        ix.shape[last] /= vi;
        ix.off[1] /= vi;
        for d in 0..last {
            ix.st[0][d] /= vi;
            ix.st[1][d] /= vi;
        }
        for st in &mut ks.st[..k] {
            *st /= vi;
        }
    }
    Ok(Plan::General { ix, ks, word: size * v, small: ix.n < 1 << 31 })
}

/// Gather into `out` (C-contiguous `P × B × Q`, at least one element, `B` not empty); `flag` is
/// the raise-mode flag's address (unused in other modes).
pub(crate) fn gather_into(src: &CudaStorage, l: &Layout, a: &Addr<'_>, out: &mut CudaStorage, flag: u64) -> Result<()> {
    let size = src.dtype.size();
    let (k, fix) = (a.k, a.fix);
    let mut ins = a.storages();
    ins.push(src);
    ins.push(&*out);
    let w = src.dev.work(&ins)?;
    let nb = a.nb as i64;
    match plan(l, a, size)? {
        Plan::Take { base, iv } => {
            let key = Key::new(Family::Take).bits(3, log2(size)).bits(4, k as u64).bits(2, fix as u64).flag(iv);
            let spec = || format!("b{size}_k{k}_{}{}", fix.name(), if iv { "_runs" } else { "" });
            let kr = src.dev.kernel(key, "take", || Source::new(spec(), take_src(size, k, fix, iv)))?;
            // SAFETY: parameters match the kernel; every index is brought into its axis (or
            // reported and not used), so each source offset lies inside the validated layout.
            unsafe { w.launch(&kr, cfg((nb + 3) / 4), &[&out.buf.ptr, &src.buf.ptr, &a.ks, &nb, &base, &flag]) }?;
        }
        Plan::General { ix, ks, word, small } => {
            let key = Key::new(Family::Gather).bits(3, log2(word)).bits(4, k as u64).bits(2, fix as u64).flag(small);
            let spec = || format!("b{word}_k{k}_{}{}", fix.name(), if small { "_i32" } else { "" });
            let kr = src.dev.kernel(key, "gather", || Source::new(spec(), gather_src(word, k, fix, small)))?;
            // SAFETY: as for the take kernel; words of `v` elements only where every run start
            // and stride is a multiple of `v` (so every word access is aligned and in bounds).
            unsafe { w.launch(&kr, cfg(ix.n), &[&out.buf.ptr, &src.buf.ptr, &ks, &ix, &nb, &flag]) }?;
        }
    }
    w.done()
}

/// The per-array statement of a gather: fix index `x` of array `j` at position `b`, check it in
/// raise mode (clearing `ok`), and add its offset to `p`.
fn fix_stmt(fix: Fix, x: &str, b: &str, p: &str, ok: &str) -> String {
    let m = fix as u8;
    let check =
        if fix == Fix::Raise { format!(" if (!{}) {ok} = false;", check_code("c", "j", b)) } else { String::new() };
    format!("{{ const i64 c = fix<{m}>({x}, ks.len[j]);{check} {p} += c * ks.st[j]; }}")
}

/// Source of the take kernel for elements of `size` bytes and `k` index arrays (`iv`: every
/// array 16-byte aligned, so indices load two at a time).
pub(crate) fn take_src(size: usize, k: usize, fix: Fix, iv: bool) -> String {
    let w = word_ty(size);
    let sv = (16 / size).clamp(1, 4);
    let load = if iv {
        "const Pack<2, i64> q0 = ((const Pack<2, i64>*)(ks.p[j] + b0))[0], q1 = ((const Pack<2, i64>*)(ks.p[j] + b0))[1];
        const i64 x[4] = {q0.v[0], q0.v[1], q1.v[0], q1.v[1]};"
    } else {
        "const i64 x[4] = {ks.p[j][b0], ks.p[j][b0 + 1], ks.p[j][b0 + 2], ks.p[j][b0 + 3]};"
    };
    let four = fix_stmt(fix, "x[u]", "b0 + u", "p[u]", "ok[u]");
    let one = fix_stmt(fix, "ks.p[j][b]", "b", "p", "ok");
    format!(
        "{PRELUDE}{COMMON}
extern \"C\" __global__ void XP_NAME(take)({w}* __restrict__ o, const {w}* __restrict__ a, Ks ks, i64 nb, i64 base, u64* flag) {{
  const i64 step = 4 * (i64)gridDim.x * blockDim.x;
  for (i64 b0 = 4 * ((i64)blockIdx.x * blockDim.x + threadIdx.x); b0 < nb; b0 += step) {{
    if (b0 + 4 <= nb) {{
      i64 p[4] = {{base, base, base, base}};
      bool ok[4] = {{true, true, true, true}};
#pragma unroll
      for (int j = 0; j < {k}; ++j) {{
        {load}
#pragma unroll
        for (int u = 0; u < 4; ++u) {four}
      }}
      Pack<4, {w}> r;
#pragma unroll
      for (int u = 0; u < 4; ++u) r.v[u] = ok[u] ? a[p[u]] : {w}();
#pragma unroll
      for (int s = 0; s < {nsv}; ++s) ((Pack<{sv}, {w}>*)(o + b0))[s] = ((const Pack<{sv}, {w}>*)&r)[s];
    }} else {{
      for (i64 b = b0; b < nb; ++b) {{
        i64 p = base; bool ok = true;
#pragma unroll
        for (int j = 0; j < {k}; ++j) {one}
        o[b] = ok ? a[p] : {w}();
      }}
    }}
  }}
}}\n",
        nsv = 4 / sv,
    )
}

/// Source of the general gather kernel for words of `word` bytes and `k` index arrays: a thread
/// per output word; `small`: 32-bit index arithmetic.
pub(crate) fn gather_src(word: usize, k: usize, fix: Fix, small: bool) -> String {
    let w = word_ty(word);
    let offs = offsets(&[1, 2], small);
    let one = fix_stmt(fix, "ks.p[j][p2]", "p2", "p1", "ok");
    format!(
        "{PRELUDE}{COMMON}
extern \"C\" __global__ void XP_NAME(gather)({w}* __restrict__ o, const {w}* __restrict__ a, Ks ks, Idx ix, i64 nb, u64* flag) {{
  const i64 step = (i64)gridDim.x * blockDim.x;
  for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < ix.n; i += step) {{
    {offs}
    bool ok = true;
#pragma unroll
    for (int j = 0; j < {k}; ++j) {one}
    o[i] = ok ? a[p1] : {w}();
  }}
}}\n"
    )
}
