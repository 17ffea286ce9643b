//! CUDA sources of the sparse products (see the module's docs for the plan of each kernel).
use crate::codegen::{compute_ty, storage_ty, store, PRELUDE};
use xp_core::{BinaryOp, DType};

/// The products `A X` for values of `d` and indices of `ix` (int32 or int64): `csr_matmul` (a
/// group of lanes per (row, column of `X`)) and `csr_spmv` (a vector, short rows).
pub(super) fn products(d: DType, ix: DType) -> String {
    let (t, c, i) = (storage_ty(d), compute_ty(d), storage_ty(ix));
    let out = store(d, "s");
    let term = format!("b_multiply(({c})ld(data[j]), ({c})ld(x[xo + (i64)indices[j] * s0]))");
    format!(
        "{PRELUDE}
extern \"C\" __global__ void XP_NAME(csr_matmul)(const {i}* __restrict__ indptr, const {i}* __restrict__ indices,
    const {t}* __restrict__ data, const {t}* __restrict__ x, i64 xo, i64 s0, i64 s1, {t}* __restrict__ y,
    i64 rows, i64 k, int lanes) {{
  const i64 groups = rows * k, step = (i64)gridDim.x * blockDim.x;
  const int lane = threadIdx.x & (lanes - 1), wl = threadIdx.x & 31;
  // whole warps go round together (the test is on the warp's first thread), so that every lane
  // of a warp takes part in the shuffles
  for (i64 t = (i64)blockIdx.x * blockDim.x + threadIdx.x; t - wl < groups * lanes; t += step) {{
    const i64 g = t / lanes, r = g / k, col = g - r * k;
    {c} s = {c}();
    if (g < groups) {{
      const i64 lo = (i64)indptr[r], hi = (i64)indptr[r + 1];
      const {t}* xc = x + xo + col * s1;
      for (i64 j = lo + lane; j < hi; j += lanes)
        s = b_add(s, b_multiply(({c})ld(data[j]), ({c})ld(xc[(i64)indices[j] * s0])));
    }}
    for (int o = lanes >> 1; o > 0; o >>= 1) s = b_add(s, shfl_down(s, o));
    if (g < groups && lane == 0) y[g] = {out};
  }}
}}

// Streaming loads (`__ldcs`: evict first) for the values and indices that are read once, so
// that the gathered `x` keeps its place in L2 (3-4% on the issue's SpMV, an H200).
__device__ __forceinline__ float xp_cs(const float* p) {{ return __ldcs(p); }}
__device__ __forceinline__ double xp_cs(const double* p) {{ return __ldcs(p); }}
__device__ __forceinline__ int xp_cs(const int* p) {{ return __ldcs(p); }}
__device__ __forceinline__ long long xp_cs(const long long* p) {{ return __ldcs(p); }}
template <class T> __device__ __forceinline__ T xp_cs(const T* p) {{ return *p; }}

// A block takes `per` consecutive rows. Where their values fit in `cap` elements of shared
// memory, its threads first form every product of the block (consecutive values, many loads in
// flight), then each thread adds up one row's products in order; otherwise a warp takes a row.
// With `DOT` (a square matrix), each thread also returns the sum of `x[r] y[r]` over the rows it
// wrote (conjugate gradients' `pᵀ A p`, formed as `A p` is stored).
template <bool DOT>
__device__ __forceinline__ {c} spmv_body(const {i}* __restrict__ indptr, const {i}* __restrict__ indices,
    const {t}* __restrict__ data, const {t}* __restrict__ x, i64 xo, i64 s0, {t}* __restrict__ y,
    i64 rows, int per, int cap) {{
  extern __shared__ double xp_sh[];  // the block's products (the base is 16-byte aligned)
  {c}* sh = ({c}*)xp_sh;
  const i64 r0 = (i64)blockIdx.x * per, r1 = r0 + per < rows ? r0 + per : rows;
  const i64 lo = (i64)indptr[r0], hi = (i64)indptr[r1];
  {c} dot = {c}();
  if (hi - lo <= cap) {{
    // 32-bit positions within the block's run of values
    const int n = (int)(hi - lo);
    const {i}* ind = indices + lo;
    const {t}* dat = data + lo;
    const {t}* xb = x + xo;
    const int nr = (int)(r1 - r0);
    // the thread's first row's bounds (and x there), loaded while the products are formed
    i64 fa = 0, fb = 0;
    {c} fx = {c}();
    if (threadIdx.x < nr) {{
      fa = (i64)indptr[r0 + threadIdx.x];
      fb = (i64)indptr[r0 + threadIdx.x + 1];
      if (DOT) fx = ({c})ld(xb[(r0 + threadIdx.x) * s0]);
    }}
#pragma unroll 4
    for (int e = threadIdx.x; e < n; e += blockDim.x)
      sh[e] = b_multiply(({c})ld(xp_cs(dat + e)), ({c})ld(xb[(i64)xp_cs(ind + e) * s0]));
    __syncthreads();
    for (int q = threadIdx.x; q < nr; q += blockDim.x) {{
      const bool first = q == (int)threadIdx.x;
      const int a = (int)((first ? fa : (i64)indptr[r0 + q]) - lo);
      const int b = (int)((first ? fb : (i64)indptr[r0 + q + 1]) - lo);
      {c} s = {c}();
      for (int e = a; e < b; ++e) s = b_add(s, sh[e]);
      y[r0 + q] = {out};
      if (DOT) dot = b_add(dot, b_multiply(s, first ? fx : ({c})ld(xb[(r0 + q) * s0])));
    }}
  }} else {{
    const int lane = threadIdx.x & 31;
    for (i64 r = r0 + (threadIdx.x >> 5); r < r1; r += blockDim.x >> 5) {{
      const i64 a = (i64)indptr[r], b = (i64)indptr[r + 1];
      {c} s = {c}();
      for (i64 j = a + lane; j < b; j += 32) s = b_add(s, {term});
      for (int o = 16; o > 0; o >>= 1) s = b_add(s, shfl_down(s, o));
      if (lane == 0) {{
        y[r] = {out};
        if (DOT) dot = b_add(dot, b_multiply(s, ({c})ld(x[xo + r * s0])));
      }}
    }}
  }}
  return dot;
}}

extern \"C\" __global__ void XP_NAME(csr_spmv)(const {i}* __restrict__ indptr, const {i}* __restrict__ indices,
    const {t}* __restrict__ data, const {t}* __restrict__ x, i64 xo, i64 s0, {t}* __restrict__ y,
    i64 rows, int per, int cap) {{
  spmv_body<false>(indptr, indices, data, x, xo, s0, y, rows, per, cap);
}}
"
    )
}

/// The most rows a block of the transposed product takes (its offsets sit in shared memory).
pub(super) const T_ROWS: usize = 1024;

/// `Y += Aᵀ X` (`Y` zeroed, C-contiguous `(cols, k)`) for values of `d` whose addition has a
/// hardware atomic, indices of `ix`: a block takes up to [`T_ROWS`] consecutive rows, its
/// threads take the block's (value, column of `X`) pairs in turn, find the value's row among the
/// block's offsets by a binary search in shared memory and add the product into `Y` atomically
/// (`csr_matmul_t`). For a vector, `csr_matvec_t`: each thread takes a row of the block, puts its
/// `x` value in shared memory and marks its values with the row there; then the threads take the
/// block's values in turn (streaming loads) and add `data · x[row]` into `y` atomically; rows too
/// long for the block's shared memory go a warp to a row.
pub(super) fn transposed(d: DType, ix: DType) -> Option<String> {
    use crate::index::{strategy, update_fn, Strategy};
    if strategy(BinaryOp::Add, d) != Strategy::Native {
        return None;
    }
    let (t, c, i) = (storage_ty(d), compute_ty(d), storage_ty(ix));
    let upd = update_fn(BinaryOp::Add, d)?;
    Some(format!(
        "{PRELUDE}{upd}
extern \"C\" __global__ void XP_NAME(csr_matmul_t)(const {i}* __restrict__ indptr, const {i}* __restrict__ indices,
    const {t}* __restrict__ data, const {t}* __restrict__ x, i64 xo, i64 s0, i64 s1, {t}* __restrict__ y,
    i64 rows, i64 k, int per) {{
  __shared__ i64 ptr[{T_ROWS} + 1];
  const i64 r0 = (i64)blockIdx.x * per, r1 = r0 + per < rows ? r0 + per : rows;
  const int nr = (int)(r1 - r0);
  for (int q = threadIdx.x; q <= nr; q += blockDim.x) ptr[q] = (i64)indptr[r0 + q];
  __syncthreads();
  const i64 lo = ptr[0], m = (ptr[nr] - lo) * k;
  for (i64 u = threadIdx.x; u < m; u += blockDim.x) {{
    const i64 j = lo + (k == 1 ? u : u / k), col = k == 1 ? 0 : u - (j - lo) * k;
    int a = 0, b = nr - 1;  // the last row whose offset is at most j
    while (a < b) {{ const int h = (a + b + 1) >> 1; if (ptr[h] <= j) a = h; else b = h - 1; }}
    const {c} v = b_multiply(({c})ld(data[j]), ({c})ld(x[xo + (r0 + a) * s0 + col * s1]));
    upd(y + (i64)indices[j] * k + col, v);
  }}
}}

__device__ __forceinline__ float xp_cs(const float* p) {{ return __ldcs(p); }}
__device__ __forceinline__ double xp_cs(const double* p) {{ return __ldcs(p); }}
__device__ __forceinline__ int xp_cs(const int* p) {{ return __ldcs(p); }}
__device__ __forceinline__ long long xp_cs(const long long* p) {{ return __ldcs(p); }}
template <class T> __device__ __forceinline__ T xp_cs(const T* p) {{ return *p; }}

extern \"C\" __global__ void XP_NAME(csr_matvec_t)(const {i}* __restrict__ indptr, const {i}* __restrict__ indices,
    const {t}* __restrict__ data, const {t}* __restrict__ x, i64 xo, i64 s0, {t}* __restrict__ y,
    i64 rows, int per, int cap) {{
  extern __shared__ double xp_sh[];
  {c}* xs = ({c}*)xp_sh;                                // x at the block's rows
  unsigned short* rowof = (unsigned short*)(xs + per);  // the block row of each value
  const i64 r0 = (i64)blockIdx.x * per, r1 = r0 + per < rows ? r0 + per : rows;
  const i64 lo = (i64)indptr[r0], hi = (i64)indptr[r1];
  if (hi - lo <= cap) {{
    const int n = (int)(hi - lo);
    for (int q = threadIdx.x; q < (int)(r1 - r0); q += blockDim.x) {{
      xs[q] = ({c})ld(x[xo + (r0 + q) * s0]);
      const int a = (int)((i64)indptr[r0 + q] - lo), b = (int)((i64)indptr[r0 + q + 1] - lo);
      for (int e = a; e < b; ++e) rowof[e] = (unsigned short)q;
    }}
    __syncthreads();
    const {i}* ind = indices + lo;
    const {t}* dat = data + lo;
#pragma unroll 4
    for (int e = threadIdx.x; e < n; e += blockDim.x)
      upd(y + (i64)xp_cs(ind + e), b_multiply(({c})ld(xp_cs(dat + e)), xs[rowof[e]]));
  }} else {{
    const int lane = threadIdx.x & 31;
    for (i64 r = r0 + (threadIdx.x >> 5); r < r1; r += blockDim.x >> 5) {{
      const {c} xv = ({c})ld(x[xo + r * s0]);
      for (i64 j = (i64)indptr[r] + lane; j < (i64)indptr[r + 1]; j += 32)
        upd(y + (i64)indices[j], b_multiply(({c})ld(data[j]), xv));
    }}
  }}
}}
"
    ))
}
