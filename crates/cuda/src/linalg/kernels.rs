//! xp's own linear-algebra kernels, NVRTC-compiled like the rest of xp: a tiled GEMM for the
//! integer and bool products cuBLAS has no loop for (NumPy's wrapping arithmetic) and for small
//! float products, where a single simple launch beats cuBLAS, and a
//! one-block-per-matrix LU / Gauss–Jordan for stacks of small matrices (solve, inverse,
//! determinant in one launch, where cuSOLVER would take several per matrix).
use crate::codegen::{storage_ty, PRELUDE};
use crate::runtime::buffer::CudaStorage;
use crate::runtime::device::driver_err;
use crate::runtime::launch::{Family, Key, Param, Source};
use cudarc::driver::LaunchConfig;
use xp_core::{DType, Layout, Result};

/// Fill `out` with zero bytes (the product of an empty sum).
pub(crate) fn zero(out: CudaStorage) -> Result<CudaStorage> {
    let w = out.dev.work(&[&out])?;
    out.dev.bind()?;
    // SAFETY: the block holds len * size bytes; the fill is ordered on the current stream.
    let s = w.stream().cu_stream();
    unsafe { cudarc::driver::result::memset_d8_async(out.ptr(0), 0, out.len * out.dtype.size(), s) }
        .map_err(driver_err)?;
    w.done()?;
    Ok(out)
}

const TILE: usize = 16;

/// CUDA source of xp's tiled GEMM: 16×16 tiles through shared memory, any operand strides
/// (negative too), a uniform batch stride per operand. Integers accumulate in 64-bit unsigned
/// arithmetic and are truncated once, which is NumPy's wrapping in the dtype; bool is
/// or-of-ands; float32 and float64 accumulate with fused multiply-adds in their own type.
pub(crate) fn tiled_gemm_src(d: DType) -> String {
    let t = storage_ty(d);
    let (acc, widen, mac) = match d {
        DType::Bool => ("int", "(int)", "acc |= sa[ty][q] & sb[q][tx];"),
        DType::F32 | DType::F64 => (t, "", "acc = fma(sa[ty][q], sb[q][tx], acc);"),
        _ => ("u64", "(u64)(i64)", "acc += sa[ty][q] * sb[q][tx];"),
    };
    format!(
        "{PRELUDE}
#define TS {TILE}
extern \"C\" __global__ void XP_NAME(gemm_tiled)({t}* __restrict__ c, const {t}* __restrict__ a, const {t}* __restrict__ b,
    i64 m, i64 k, i64 n, i64 count, i64 ars, i64 acs, i64 abs_, i64 brs, i64 bcs, i64 bbs) {{
  __shared__ {acc} sa[TS][TS + 1];
  __shared__ {acc} sb[TS][TS + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const i64 row = (i64)blockIdx.y * TS + ty, col = (i64)blockIdx.x * TS + tx;
  for (i64 z = blockIdx.z; z < count; z += gridDim.z) {{
    const {t}* A = a + z * abs_;
    const {t}* B = b + z * bbs;
    {acc} acc = 0;
    for (i64 t0 = 0; t0 < k; t0 += TS) {{
      sa[ty][tx] = (row < m && t0 + tx < k) ? {widen}A[row * ars + (t0 + tx) * acs] : ({acc})0;
      sb[ty][tx] = (t0 + ty < k && col < n) ? {widen}B[(t0 + ty) * brs + col * bcs] : ({acc})0;
      __syncthreads();
#pragma unroll
      for (int q = 0; q < TS; ++q) {{ {mac} }}
      __syncthreads();
    }}
    if (row < m && col < n) c[z * m * n + row * n + col] = ({t})acc;
  }}
}}
"
    )
}

/// Whether xp's tiled kernel takes a float product instead of cuBLAS: small problems, where
/// one launch of a simple kernel beats cuBLAS's call overhead and its kernels for tiny tiles
/// (measured in `benches/RESULTS.md`); `XP_GEMM=cublas` turns it off.
pub(crate) fn tiled_float(d: DType, (m, k, n, count): (usize, usize, usize, usize)) -> bool {
    matches!(d, DType::F32 | DType::F64)
        && !cublas_only()
        && m.max(n) <= 128
        && k <= 256
        && (m * n * k).saturating_mul(count) <= 1 << 24
}

/// Whether `XP_GEMM=cublas` sends every float product to cuBLAS (for measurement).
pub(crate) fn cublas_only() -> bool {
    static OFF: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *OFF.get_or_init(|| std::env::var("XP_GEMM").is_ok_and(|v| v == "cublas"))
}

/// Integer, bool and small float products (`[.., m, k] @ [.., k, n]`) with the tiled kernel;
/// operands whose batch is not one uniform stride are copied to C order first.
pub(crate) fn tiled_gemm(
    a: &CudaStorage,
    al: &Layout,
    b: &CudaStorage,
    bl: &Layout,
    out: CudaStorage,
    (m, k, n, count): (usize, usize, usize, usize),
) -> Result<CudaStorage> {
    let (ca, al, abs_) = super::common::uniform_batch(a, al)?;
    let (cb, bl, bbs) = super::common::uniform_batch(b, bl)?;
    let (a, b) = (ca.as_ref().unwrap_or(a), cb.as_ref().unwrap_or(b));
    let nd = al.ndim();
    let st = |l: &Layout, i: usize| l.strides()[nd - 2 + i] as i64;
    let key = Key::new(Family::StackGemm).dtype(a.dtype);
    let kr = a.dev.kernel(key, "gemm_tiled", || Source::new(a.dtype.name(), tiled_gemm_src(a.dtype)))?;
    let w = a.dev.work(&[a, b, &out])?;
    let (pc, pa, pb) = (out.ptr(0), a.ptr(al.offset()), b.ptr(bl.offset()));
    let dims = [m as i64, k as i64, n as i64, count as i64];
    let strides = [st(&al, 0), st(&al, 1), abs_, st(&bl, 0), st(&bl, 1), bbs];
    let mut args: Vec<&dyn Param> = vec![&pc, &pa, &pb];
    args.extend(dims.iter().chain(&strides).map(|x| x as &dyn Param));
    // SAFETY: the parameters match the generated kernel; every element it reads lies inside the
    // operands (validated layouts, batch strides from them), it writes count * m * n outputs.
    unsafe { w.launch(&kr, super::gemm::tiles(m, n, count, TILE), &args) }?;
    w.done()?;
    Ok(out)
}

/// What the small-matrix kernel computes per matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Small {
    /// `X = A⁻¹ B` (Gauss–Jordan with partial pivoting)
    Solve,
    /// `A⁻¹` (the same with `B = I`)
    Inverse,
    /// det, sign and log|det| from the LU pivots
    Det,
}

/// The compute type of a float or complex dtype in these kernels, and its real type.
fn field(d: DType) -> (&'static str, &'static str) {
    match d {
        DType::F32 => ("float", "float"),
        DType::F64 => ("double", "double"),
        DType::C64 => ("cf", "float"),
        _ => ("cd", "double"),
    }
}

/// Scalar helpers of the kernels over `T`: a pivot magnitude (|re| + |im| for complex, as
/// LAPACK's), one and zero, |x|, and x / |x| (the sign of a real).
fn small_helpers(d: DType) -> String {
    let (t, r) = field(d);
    if d.is_complex() {
        format!(
            "__device__ __forceinline__ double mag({t} x) {{ return fabs((double)x.re) + fabs((double)x.im); }}
__device__ __forceinline__ {t} unit() {{ return mk(({r})1, ({r})0, ({t}*)0); }}
__device__ __forceinline__ {t} nil() {{ return mk(({r})0, ({r})0, ({t}*)0); }}
__device__ __forceinline__ {r} absv({t} x) {{ return hypot(x.re, x.im); }}
__device__ __forceinline__ {t} phase({t} x) {{ {r} m = hypot(x.re, x.im); return mk(x.re / m, x.im / m, ({t}*)0); }}"
        )
    } else {
        format!(
            "__device__ __forceinline__ double mag({t} x) {{ return fabs((double)x); }}
__device__ __forceinline__ {t} unit() {{ return ({t})1; }}
__device__ __forceinline__ {t} nil() {{ return ({t})0; }}
__device__ __forceinline__ {r} absv({t} x) {{ return fabs(x); }}
__device__ __forceinline__ {t} phase({t} x) {{ return x > 0 ? ({t})1 : ({t})-1; }}"
        )
    }
}

/// CUDA source of the small-matrix kernel: one block per matrix, the matrix (and right-hand
/// sides) in dynamic shared memory, pivots found by a warp-wide arg-max (first maximum, as
/// LAPACK), rows swapped and eliminated by the whole block. `info[z]` is the 1-based column of
/// the first exact zero pivot (0: none).
pub(crate) fn small_src(d: DType, op: Small) -> String {
    let (t, r) = field(d);
    let helpers = small_helpers(d);
    let gj = op != Small::Det;
    let load_b = match op {
        Small::Solve => "sB[i * kk + j] = b[z * bbs + i * brs + j * bcs];",
        Small::Inverse => "sB[i * kk + j] = i == j ? unit() : nil();",
        Small::Det => "",
    };
    let step = if gj {
        // Gauss–Jordan on the augmented [A | B] (width W = n + kk), whole rows at a time: the
        // pivot row (read from row piv) is kept in `prow` and the multipliers in `fac`, then
        // every element is updated from those two alone, so one pass needs no further ordering.
        // Columns left of p are already eliminated and stay as they are under the update.
        "    const T inv = unit() / s_pval;
    for (int j = tid; j < W; j += nt) {
      T* rp = j < n ? &sA[p * n + j] : &sB[p * kk + (j - n)];
      T* rq = j < n ? &sA[piv * n + j] : &sB[piv * kk + (j - n)];
      prow[j] = *rq;
      if (piv != p) *rq = *rp;
    }
    for (int i = tid; i < n; i += nt) fac[i] = i == p ? nil() : (i == piv ? sA[p * n + p] : sA[i * n + p]) * inv;
    __syncthreads();
    if (r0 < rs) for (int j = j0; j < W; j += js) {
      const T pj = prow[j];
      T* col = j < n ? sA + j : sB + (j - n);
      const int ld = j < n ? n : kk;
      for (int i = r0; i < n; i += rs) col[i * ld] = i == p ? pj * inv : col[i * ld] - fac[i] * pj;
    }
    __syncthreads();"
    } else {
        // LU: eliminate below the pivot only; the pivots stay on the diagonal.
        "    if (piv != p) {
      for (int j = tid; j < n; j += nt) { T v = sA[p * n + j]; sA[p * n + j] = sA[piv * n + j]; sA[piv * n + j] = v; }
      __syncthreads();
    }
    const T inv = unit() / s_pval;
    for (int i = p + 1 + tid; i < n; i += nt) fac[i] = sA[i * n + p] * inv;
    __syncthreads();
    const int w = n - p - 1;
    for (int q = tid; q < w * w; q += nt) {
      const int i = p + 1 + q / w, j = p + 1 + q % w;
      sA[i * n + j] = sA[i * n + j] - fac[i] * sA[p * n + j];
    }
    __syncthreads();"
    };
    let finish = if gj {
        "  for (int q = tid; q < n * kk; q += nt) x[z * n * kk + q] = sB[q];"
    } else {
        // det = parity * prod(pivots) in T (overflowing as NumPy's does); sign and log|det|.
        "  if (tid == 0) {
    T det = parity < 0 ? nil() - unit() : unit(), sign = det;
    R lg = 0;
    if (bad) { det = nil(); sign = nil(); lg = -CUDART_INF_XP; }
    else for (int p = 0; p < n; ++p) { T v = sA[p * n + p]; det = det * v; sign = sign * phase(v); lg += log(absv(v)); }
    x[z] = det; sgn[z] = sign; logdet[z] = lg;
  }"
    };
    format!(
        "{PRELUDE}
typedef {t} T;
typedef {r} R;
#define CUDART_INF_XP __longlong_as_double(0x7ff0000000000000ULL)
{helpers}
extern \"C\" __global__ void XP_NAME(small)(const T* __restrict__ a, i64 ars, i64 acs, i64 abs_,
    const T* __restrict__ b, i64 brs, i64 bcs, i64 bbs, T* __restrict__ x, T* __restrict__ sgn,
    R* __restrict__ logdet, int* __restrict__ info, i64 n_, i64 kk_, i64 count) {{
  const int n = (int)n_, kk = (int)kk_;
  extern __shared__ cd smem_[];  // cd: 16-byte aligned for every element type
  T* sA = (T*)smem_;
  T* sB = sA + n * n;
  T* fac = sB + n * kk;
  T* prow = fac + n;
  __shared__ int s_piv;
  __shared__ T s_pval;
  const int tid = threadIdx.x, nt = blockDim.x, W = (int)(n + kk);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  // Element (i, j) of [A | B] belongs to thread (j0 + c js, r0 + r rs): whole columns when the
  // block is wider than W, several columns per thread otherwise.
  const int rs = nt >= W ? nt / W : 1, r0 = nt >= W ? tid / W : 0;
  const int j0 = nt >= W ? tid % W : tid, js = nt >= W ? W : nt;
  for (i64 z = blockIdx.x; z < count; z += gridDim.x) {{
    for (int q = tid; q < n * n; q += nt) {{ const int i = q / n, j = q % n; sA[q] = a[z * abs_ + i * ars + j * acs]; }}
    for (int q = tid; q < n * kk; q += nt) {{ const int i = q / kk, j = q % kk; {load_b} }}
    int parity = 1, bad = 0;
    __syncthreads();
    for (int p = 0; p < n; ++p) {{
      if (warp == 0) {{
        double best = -1.0; int bi = p;
        for (int i = p + lane; i < n; i += 32) {{ const double v = mag(sA[i * n + p]); if (v > best) {{ best = v; bi = i; }} }}
        for (int off = 16; off > 0; off >>= 1) {{
          const double ob = __shfl_down_sync(0xffffffffu, best, off);
          const int oi = __shfl_down_sync(0xffffffffu, bi, off);
          if (ob > best || (ob == best && oi < bi)) {{ best = ob; bi = oi; }}
        }}
        if (lane == 0) {{ s_piv = bi; s_pval = sA[bi * n + p]; }}
      }}
      __syncthreads();
      const int piv = s_piv;
      if (mag(s_pval) == 0.0) {{ bad = p + 1; break; }}
      if (piv != p) parity = -parity;
{step}
    }}
{finish}
    if (tid == 0) info[z] = bad;
    __syncthreads();
  }}
}}
"
    )
}

/// Dynamic shared memory the small kernel needs for an n × n matrix with `kk` right-hand sides
/// (the matrix, the right-hand sides, the multipliers and the pivot row).
pub(crate) fn small_smem(d: DType, n: usize, kk: usize) -> usize {
    (n * n + n * kk + n + n + kk) * d.size()
}

/// The largest dynamic shared memory a block may opt into on the devices xp targets (Hopper:
/// 227 KiB); the small kernel is used below this.
pub(crate) const SMALL_SMEM_LIMIT: usize = 160 * 1024;

/// Launch configuration of the small kernel: one block of 512 threads per matrix.
pub(crate) fn small_cfg(count: usize, smem: usize) -> LaunchConfig {
    LaunchConfig { grid_dim: (count.min(1 << 20) as u32, 1, 1), block_dim: (512, 1, 1), shared_mem_bytes: smem as u32 }
}

/// CUDA source of the helper kernels of the cuSOLVER paths over stacks of column-major
/// matrices of `T`: `eye` writes identities; `tri` copies a triangle (or trapezoid) of a
/// column-major factor into a row-major output, zeros elsewhere; `lu_det` turns LU factors and
/// pivots into det, sign and log|det|; `unit_cols` scales each eigenvector column to unit norm
/// with its largest component real (LAPACK's convention, which NumPy's `eig` returns).
pub(crate) fn helpers_src(d: DType) -> String {
    let (t, r) = field(d);
    let scalar = small_helpers(d);
    let (sq, fix) = if d.is_complex() {
        ("x.re * x.re + x.im * x.im", "mk(big.re / m / nrm, -big.im / m / nrm, (T*)0)")
    } else {
        ("x * x", "(big < 0 ? (T)-1 : (T)1) / nrm")
    };
    format!(
        "{PRELUDE}
typedef {t} T;
typedef {r} R;
#define CUDART_INF_XP __longlong_as_double(0x7ff0000000000000ULL)
{scalar}
extern \"C\" __global__ void XP_NAME(eye)(T* __restrict__ out, i64 n, i64 count) {{
  const i64 total = n * n * count;
  for (i64 q = (i64)blockIdx.x * blockDim.x + threadIdx.x; q < total; q += (i64)gridDim.x * blockDim.x) {{
    const i64 e = q % (n * n);
    out[q] = (e / n == e % n) ? unit() : nil();
  }}
}}
extern \"C\" __global__ void XP_NAME(tri)(const T* __restrict__ src, i64 ld, i64 src_stride, T* __restrict__ dst,
    i64 rows, i64 cols, i64 k, int upper, i64 count) {{
  const i64 total = rows * cols * count;
  for (i64 q = (i64)blockIdx.x * blockDim.x + threadIdx.x; q < total; q += (i64)gridDim.x * blockDim.x) {{
    const i64 z = q / (rows * cols), e = q % (rows * cols), i = e / cols, j = e % cols;
    const bool keep = i < k && (upper ? i <= j : i >= j);
    dst[q] = keep ? src[z * src_stride + i + j * ld] : nil();
  }}
}}
extern \"C\" __global__ void XP_NAME(lu_det)(const T* __restrict__ lu, const i64* __restrict__ ipiv, i64 n, i64 count,
    T* __restrict__ det_out, T* __restrict__ sign_out, R* __restrict__ log_out) {{
  for (i64 z = (i64)blockIdx.x * blockDim.x + threadIdx.x; z < count; z += (i64)gridDim.x * blockDim.x) {{
    const T* a = lu + z * n * n;
    int parity = 1;
    for (i64 i = 0; i < n; ++i) if (ipiv[z * n + i] != i + 1) parity = -parity;
    T det = parity < 0 ? nil() - unit() : unit(), sign = det;
    R lg = 0;
    for (i64 i = 0; i < n; ++i) {{
      const T v = a[i + i * n];
      if (mag(v) == 0.0) {{ det = nil(); sign = nil(); lg = -CUDART_INF_XP; break; }}
      det = det * v; sign = sign * phase(v); lg += log(absv(v));
    }}
    det_out[z] = det; sign_out[z] = sign; log_out[z] = lg;
  }}
}}
extern \"C\" __global__ void XP_NAME(unit_cols)(T* __restrict__ v, i64 n, i64 count) {{
  for (i64 q = (i64)blockIdx.x * blockDim.x + threadIdx.x; q < n * count; q += (i64)gridDim.x * blockDim.x) {{
    T* col = v + (q / n) * n * n + (q % n) * n;
    double nrm2 = 0.0, best = -1.0;
    T big = nil();
    for (i64 i = 0; i < n; ++i) {{
      const T x = col[i];
      nrm2 += (double)({sq});
      const double a = (double)absv(x);
      if (a > best) {{ best = a; big = x; }}
    }}
    const R nrm = (R)sqrt(nrm2), m = absv(big);
    if (nrm == 0 || m == 0) continue;
    const T f = {fix};
    for (i64 i = 0; i < n; ++i) col[i] = col[i] * f;
  }}
}}
"
    )
}

#[cfg(test)]
mod tests {
    //! Without a GPU: the generated sources parse under g++ with the CUDA keywords stubbed.
    use super::*;

    #[test]
    fn linalg_kernels_parse() {
        for d in DType::ALL.iter().filter(|d| d.is_integer() || matches!(d, DType::Bool | DType::F32 | DType::F64)) {
            crate::codegen::tests_support::syntax_check(&format!("tiled_gemm-{d}"), &tiled_gemm_src(*d));
        }
        for d in [DType::F32, DType::F64, DType::C64, DType::C128] {
            for op in [Small::Solve, Small::Inverse, Small::Det] {
                crate::codegen::tests_support::syntax_check(&format!("small-{d}-{op:?}"), &small_src(d, op));
            }
            crate::codegen::tests_support::syntax_check(&format!("helpers-{d}"), &helpers_src(d));
        }
    }
}
