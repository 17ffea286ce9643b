//! The recursive filters (SciPy's `lfilter`, `sosfilt`) on the GPU: every line cut into chunks of
//! `L` samples, three launches (`recursive.cu`): the chunks filtered in parallel from a
//! zero state, a scan per line that joins them through the recursion's zero-input state map
//! (`P = M^L`, computed here in double-double and rounded once; `L` long enough that `P` has
//! shrunk, so that a join rounds no worse than a step), and the chunks filtered again from
//! their true start states, writing the output. A line that is one chunk (many short lines) takes
//! the last launch alone. The kernels keep the state in registers and are compiled per state
//! length: up to [`MAX_STATE`] values (order 16, or 8 sections); longer states answer
//! `Unsupported` and the front end filters on the host.
use crate::codegen::PRELUDE;
use crate::runtime::buffer::CudaStorage;
use crate::runtime::device::driver_err;
use crate::runtime::launch::{Family, Key, Param, Source};
use cudarc::driver::LaunchConfig;
use xp_core::{
    matrix_power, norm_inf, Complex32, Complex64, DType, Error, HostBuffer, Layout, Recursed, Recursion, RecursionKind,
    Result,
};

const SRC: &str = include_str!("recursive.cu");

/// The longest state the kernels hold in registers.
pub(crate) const MAX_STATE: usize = 16;

/// Threads of the carry kernel's block (a power of two): the number of chunk groups it joins.
const CARRY_THREADS: usize = 256;

/// The kernels' source for dtype `d`, recursion `kind` and state length `k`.
pub(crate) fn source(d: DType, kind: RecursionKind, k: usize) -> String {
    let t = crate::codegen::storage_ty(d);
    let (sos, ncoef) = match kind {
        RecursionKind::Df2t => (0, 2 * (k + 1)),
        RecursionKind::Sos => (1, 3 * k),
    };
    format!("{PRELUDE}\ntypedef {t} T;\n#define K {k}\n#define SOS {sos}\n#define NCOEF {ncoef}\n{SRC}")
}

/// Complex128 values as a host buffer of dtype `d` (real parts for the real dtypes).
fn host(v: &[Complex64], d: DType) -> HostBuffer {
    match d {
        DType::F32 => HostBuffer::F32(v.iter().map(|c| c.re as f32).collect()),
        DType::F64 => HostBuffer::F64(v.iter().map(|c| c.re).collect()),
        DType::C64 => HostBuffer::C64(v.iter().map(|c| Complex32::new(c.re as f32, c.im as f32)).collect()),
        _ => HostBuffer::C128(v.to_vec()),
    }
}

/// The chunk length for `lines` lines of `n` samples and the state map `m` (`k × k`): about
/// 2^17 chunks in all (enough threads to fill the GPU), at least 64 samples each, and long enough
/// that the map across a chunk, `M^L`, has shrunk to a row sum of magnitudes of at most 1. A
/// join computes `M^L s` at once; while the map is still growing (a high-order direct form is
/// far from normal: Chebyshev order 8 grows to 2.7e3 before it decays), its rounding would be
/// that much larger than a sequential run's. A map that has not shrunk within the line leaves
/// one chunk per line: SciPy's own loop.
fn chunk_len(lines: usize, n: usize, m: &[Complex64], k: usize) -> usize {
    let mut l = (lines * n).div_ceil(1 << 17).next_power_of_two().max(64);
    let mut p = matrix_power(m, k, l as u64);
    // (false for a NaN norm: an unstable map keeps growing, one chunk per line)
    let shrunk = |p: &[Complex64]| norm_inf(p, k) <= 1.0;
    while l < n && !shrunk(&p) {
        p = matrix_power(&p, k, 2);
        l *= 2;
    }
    l
}

fn grid(items: usize) -> LaunchConfig {
    LaunchConfig {
        grid_dim: (items.div_ceil(128).clamp(1, 1 << 20) as u32, 1, 1),
        block_dim: (128, 1, 1),
        shared_mem_bytes: 0,
    }
}

/// [`xp_core::FilterStorage::recursive_filter`] on the GPU.
pub(crate) fn filter(
    x: &CudaStorage,
    l: &Layout,
    r: &Recursion,
    zi: &CudaStorage,
    zl: &Layout,
) -> Result<Recursed<CudaStorage>> {
    let d = x.dtype;
    let k = r.state_len();
    if !matches!(d, DType::F32 | DType::F64 | DType::C64 | DType::C128) || zi.dtype != d {
        return Err(Error::InvalidDType { op: "lfilter", dtype: d });
    }
    if k == 0 || k > MAX_STATE {
        return Err(Error::Unsupported { op: "lfilter", backend: "cuda" });
    }
    let n = *l.shape().last().expect("lines along the last axis");
    let lines = l.shape().iter().product::<usize>() / n.max(1);
    let dev = &x.dev;
    let y = CudaStorage::alloc(dev, d, lines * n)?;
    let zf = CudaStorage::alloc(dev, d, lines * k)?;
    if lines * n == 0 {
        return Ok(Recursed { y, zf: zi.contiguous_copy(zl)? });
    }
    let xc = x.contiguous_copy(l)?;
    let zc = zi.contiguous_copy(zl)?;
    let coef = CudaStorage::upload(dev, &host(&r.coef, d))?;
    let transition = r.transition();
    let big_l = chunk_len(lines, n, &transition, k);
    let chunks = n.div_ceil(big_l);
    let sos = r.kind == RecursionKind::Sos;
    let key = Key::new(Family::Recursive).dtype(d).flag(sos).bits(5, k as u64);
    let [local, carry, apply] = dev.kernels(key, ["iir_local", "iir_carry", "iir_apply"], || {
        Source::new(format!("{}_{}{k}", d.name(), if sos { "sos" } else { "order" }), source(d, r.kind, k))
    })?;
    let (nn, ln, cn, lc) = (n as i64, lines as i64, chunks as i64, big_l as i64);
    let (px, pc, pz, py, pf) = (xc.ptr(0), coef.ptr(0), zc.ptr(0), y.ptr(0), zf.ptr(0));
    // The true state at each chunk's start (chunk 0 starts from zi, read in place).
    let start = if chunks > 1 { Some(CudaStorage::alloc(dev, d, lines * chunks * k)?) } else { None };
    if let Some(start) = &start {
        let loc = CudaStorage::alloc(dev, d, lines * chunks * k)?;
        let threads = CARRY_THREADS.min(chunks.next_power_of_two());
        let levels = threads.trailing_zeros() as usize;
        let g = chunks.div_ceil(threads);
        // P = M^L, then P^(G 2^j) for each of the scan's levels
        let p = matrix_power(&transition, k, big_l as u64);
        let mut mats = p.clone();
        for j in 0..levels {
            mats.extend(matrix_power(&p, k, (g << j) as u64));
        }
        let pw = CudaStorage::upload(dev, &host(&mats, d))?;
        let smem = ((1 + levels) * k * k + threads * k) * d.size();
        if smem > 48 * 1024 {
            use cudarc::driver::sys::CUfunction_attribute_enum::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES as MAX;
            carry.f.set_attribute(MAX, smem as i32).map_err(driver_err)?;
        }
        let wk = dev.work(&[&xc, &coef, &zc, &loc, &pw, start])?;
        let (pl, pp, ps) = (loc.ptr(0), pw.ptr(0), start.ptr(0));
        let args: [&dyn Param; 8] = [&px, &nn, &ln, &cn, &lc, &pc, &pz, &pl];
        // SAFETY: the parameters match iir_local; x holds lines × n samples, zi lines × k
        // values, loc lines × chunks × k.
        unsafe { wk.launch(&local, grid(lines * chunks), &args) }?;
        let (gn, lv) = (g as i64, levels as i32);
        let args: [&dyn Param; 7] = [&pl, &ln, &cn, &gn, &pp, &lv, &ps];
        let cfg = LaunchConfig {
            grid_dim: (lines.clamp(1, 1 << 20) as u32, 1, 1),
            block_dim: (threads as u32, 1, 1),
            shared_mem_bytes: smem as u32,
        };
        // SAFETY: the parameters match iir_carry; pw holds 1 + levels k × k matrices, the
        // block is a power of two of threads, `smem` the matrices and one state per thread.
        unsafe { wk.launch(&carry, cfg, &args) }?;
        wk.done()?;
    }
    let ps = start.as_ref().map_or(pz, |s| s.ptr(0));
    let mut bufs = vec![&xc, &coef, &zc, &y, &zf];
    bufs.extend(start.iter());
    let wk = dev.work(&bufs)?;
    let args: [&dyn Param; 10] = [&px, &nn, &ln, &cn, &lc, &pc, &pz, &ps, &py, &pf];
    // SAFETY: the parameters match iir_apply; start holds lines × chunks × k values when
    // there is more than one chunk (it is not read otherwise), y lines × n, zf lines × k.
    unsafe { wk.launch(&apply, grid(lines * chunks), &args) }?;
    wk.done()?;
    Ok(Recursed { y, zf })
}

#[cfg(test)]
mod tests {
    //! Without a GPU: the kernels parse under g++ with the CUDA keywords stubbed.
    use super::*;

    #[test]
    fn recursive_kernels_parse() {
        for d in [DType::F32, DType::F64, DType::C64, DType::C128] {
            for (kind, k) in
                [(RecursionKind::Df2t, 1), (RecursionKind::Df2t, 16), (RecursionKind::Sos, 2), (RecursionKind::Sos, 16)]
            {
                crate::codegen::tests_support::syntax_check(&format!("iir-{d}-{kind:?}-{k}"), &source(d, kind, k));
            }
        }
    }
}
