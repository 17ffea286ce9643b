//! Conjugate gradients on a CSR matrix in three kernels an iteration and a wait every
//! [`CHECK`] iterations (SciPy's `cg` without a preconditioner).
//!
//! The scalars (`ρ = rᵀr`, the previous `ρ`, `pᵀq`, the iteration count and the stopping flag)
//! stay on the device in a small state block. An iteration is `cg_dir` (`p ← r + (ρ/ρ′) p`),
//! `cg_spmv` (`q ← A p`, with `pᵀq` summed as `q` is stored) and `cg_update` (`x ← x + α p`,
//! `r ← r − α q`, with the new `rᵀr` summed as `r` is stored, and SciPy's test `‖r‖ < atol`).
//! Each sum is the blocks' partial sums added in block order by the last block to finish (the
//! same sum for the same launch, run after run). Once the test has passed, the kernels of the
//! iterations already queued return at once; the host reads the state every [`CHECK`]
//! iterations, so the device never waits for the host in between.
use super::source;
use crate::codegen::{compute_size, compute_ty, storage_ty};
use crate::runtime::buffer::CudaStorage;
use crate::runtime::device::driver_err;
use crate::runtime::launch::{Family, Key, Source};
use cudarc::driver::LaunchConfig;
use xp_core::{BackendStorage, CgRun, CsrParts, DType, Error, Result};

/// Iterations queued between two reads of the state.
const CHECK: usize = 16;
/// Threads per block.
const THREADS: u32 = 256;

/// The state block: `rho, prev, pq` (f64), then `count, stopped, iterations` (32-bit), padded.
const STATE_BYTES: usize = 40;

/// The kernels, for values of `d` (float32 or float64) and indices of `ix`.
fn kernels(d: DType, ix: DType) -> String {
    let (t, c, i) = (storage_ty(d), compute_ty(d), storage_ty(ix));
    format!(
        "{products}
struct CgState {{ double rho, prev, pq; unsigned count; int stopped, iterations; }};

// The sum of `v` over the block, in thread 0.
__device__ __forceinline__ {c} block_sum({c} v) {{
  __shared__ {c} warps[32];
  for (int o = 16; o > 0; o >>= 1) v += shfl_down(v, o);
  __syncthreads();
  if ((threadIdx.x & 31) == 0) warps[threadIdx.x >> 5] = v;
  __syncthreads();
  v = threadIdx.x < (blockDim.x >> 5) ? warps[threadIdx.x] : ({c})0;
  if (threadIdx.x < 32)
    for (int o = 16; o > 0; o >>= 1) v += shfl_down(v, o);
  return v;
}}

// The grid's sum of `v`: true in thread 0 of the last block to finish, with the total in `*out`.
__device__ __forceinline__ bool grid_sum({c} v, {c}* parts, CgState* st, double* out) {{
  __shared__ bool last;
  v = block_sum(v);
  if (threadIdx.x == 0) {{
    parts[blockIdx.x] = v;
    __threadfence();
    last = atomicAdd(&st->count, 1u) == gridDim.x - 1;
  }}
  __syncthreads();
  if (!last) return false;
  {c} s = ({c})0;
  for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) s += __ldcg(parts + b);
  s = block_sum(s);
  if (threadIdx.x != 0) return false;
  st->count = 0;
  *out = (double)s;
  return true;
}}

// SciPy's test before an iteration, on the new `ρ = rᵀr`.
__device__ __forceinline__ void test(CgState* st, double atol) {{
  st->stopped = sqrt(fmax(st->rho, 0.0)) < atol;
}}

extern \"C\" __global__ void XP_NAME(cg_start)(const {t}* __restrict__ r, i64 n, {c}* parts, CgState* st,
    double atol) {{
  {c} acc = ({c})0;
  for (i64 k = (i64)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += (i64)gridDim.x * blockDim.x) {{
    const {c} v = r[k];
    acc += v * v;
  }}
  if (grid_sum(acc, parts, st, &st->rho)) {{
    st->iterations = 0;
    test(st, atol);
  }}
}}

extern \"C\" __global__ void XP_NAME(cg_dir)({t}* __restrict__ p, const {t}* __restrict__ r, i64 n,
    const CgState* st) {{
  if (st->stopped) return;
  const bool first = st->iterations == 0;
  const {c} beta = first ? ({c})0 : ({c})(st->rho / st->prev);
  for (i64 k = (i64)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += (i64)gridDim.x * blockDim.x)
    p[k] = first ? r[k] : r[k] + beta * p[k];
}}

extern \"C\" __global__ void XP_NAME(cg_spmv)(const {i}* __restrict__ indptr, const {i}* __restrict__ indices,
    const {t}* __restrict__ data, const {t}* __restrict__ p, {t}* __restrict__ q, i64 rows, int per, int cap,
    {c}* parts, CgState* st) {{
  if (st->stopped) return;
  const {c} dot = spmv_body<true>(indptr, indices, data, p, 0, 1, q, rows, per, cap);
  grid_sum(dot, parts, st, &st->pq);
}}

extern \"C\" __global__ void XP_NAME(cg_update)({t}* __restrict__ x, {t}* __restrict__ r,
    const {t}* __restrict__ p, const {t}* __restrict__ q, i64 n, {c}* parts, CgState* st, double atol) {{
  if (st->stopped) return;
  const {c} alpha = ({c})(st->rho / st->pq);
  {c} acc = ({c})0;
  for (i64 k = (i64)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += (i64)gridDim.x * blockDim.x) {{
    x[k] = x[k] + alpha * p[k];
    const {c} v = r[k] - alpha * q[k];
    r[k] = v;
    acc += v * v;
  }}
  double rho;
  if (grid_sum(acc, parts, st, &rho)) {{
    st->prev = st->rho;
    st->rho = rho;
    st->iterations += 1;
    test(st, atol);
  }}
}}
",
        products = source::products(d, ix)
    )
}

fn grid(blocks: usize, shared: usize) -> LaunchConfig {
    LaunchConfig { grid_dim: (blocks as u32, 1, 1), block_dim: (THREADS, 1, 1), shared_mem_bytes: shared as u32 }
}

/// Copies the first `n` elements of `src` into `dst` (one dtype), queued on `s`.
fn copy(src: &CudaStorage, dst: &CudaStorage, n: usize, s: &cudarc::driver::CudaStream) -> Result<()> {
    // SAFETY: both buffers hold at least n elements of one dtype; the copy is ordered on `s`.
    unsafe { cudarc::driver::result::memcpy_dtod_async(dst.ptr(0), src.ptr(0), n * src.dtype.size(), s.cu_stream()) }
        .map_err(driver_err)
}

/// The state block's fields, read back.
fn state(st: &CudaStorage, s: &cudarc::driver::CudaStream) -> Result<(f64, bool, usize)> {
    let mut b = [0u8; STATE_BYTES];
    st.dev.read_small(s, st.ptr(0), &mut b)?;
    let rho = f64::from_le_bytes(b[0..8].try_into().expect("8 bytes"));
    let stopped = i32::from_le_bytes(b[28..32].try_into().expect("4 bytes")) != 0;
    let it = i32::from_le_bytes(b[32..36].try_into().expect("4 bytes"));
    Ok((rho, stopped, it.max(0) as usize))
}

/// See [`xp_core::SparseStorage::csr_cg`].
pub(super) fn run(
    a: &CsrParts<'_, CudaStorage>,
    x0: &CudaStorage,
    r0: &CudaStorage,
    atol: f64,
    maxiter: usize,
) -> Result<(CudaStorage, CgRun)> {
    let op = "csr_cg";
    let (d, ix, n) = (a.data.dtype, a.indptr.dtype, a.rows);
    if !matches!(d, DType::F32 | DType::F64) {
        return Err(Error::Unsupported { op, backend: CudaStorage::NAME });
    }
    if a.rows != a.cols || x0.dtype != d || r0.dtype != d || x0.len < n || r0.len < n || n == 0 {
        return Err(Error::invalid(op, "a square matrix and two vectors of its rows and dtype"));
    }
    if !matches!(ix, DType::I32 | DType::I64) || a.indices.dtype != ix {
        return Err(Error::invalid(op, "indptr and indices must share one index dtype, int32 or int64"));
    }
    let dev = &x0.dev;
    let key = Key::new(Family::SparseCg).dtype(d).flag(ix == DType::I64);
    let spec = format!("{}_{}", d.name(), ix.name());
    let [start, dir, spmv, update] =
        dev.kernels(key, ["cg_start", "cg_dir", "cg_spmv", "cg_update"], || Source::new(spec, kernels(d, ix)))?;
    // a row per thread at most (its bounds load while the products are formed), and shared
    // memory for twice a block's mean share of values: 8 blocks an SM fit (occupancy bound the
    // first cut, 6 blocks of 2 × 2048 values, to 31% of the bandwidth on the 1024² Poisson matrix)
    let (per, cap) = super::spmv_plan(a.data.len, n, compute_size(d));
    let per = per.min(THREADS as usize);
    let cap = cap.min(2 * per * a.data.len.div_ceil(n).max(1));
    let spmv_blocks = n.div_ceil(per);
    let fill = n.div_ceil(THREADS as usize).min(start.fill.min(update.fill)).max(1);
    let parts = CudaStorage::alloc(dev, d, spmv_blocks.max(fill))?;
    let st = CudaStorage::alloc(dev, DType::U8, STATE_BYTES)?;
    let [x, r, p, q] = [0; 4].map(|_| CudaStorage::alloc(dev, d, n));
    let (x, r, p, q) = (x?, r?, p?, q?);
    let wk = dev.work(&[a.indptr, a.indices, a.data, x0, r0, &parts, &st, &x, &r, &p, &q])?;
    let s = wk.stream();
    copy(x0, &x, n, s)?;
    copy(r0, &r, n, s)?;
    // SAFETY: the state block holds STATE_BYTES bytes.
    unsafe { cudarc::driver::result::memset_d8_async(st.ptr(0), 0, STATE_BYTES, s.cu_stream()) }.map_err(driver_err)?;
    let (nn, rows, pe, ca) = (n as i64, n as i64, per as i32, cap as i32);
    let (px, pr, pp, pq, pa, ps) = (x.ptr(0), r.ptr(0), p.ptr(0), q.ptr(0), parts.ptr(0), st.ptr(0));
    let (pi, pj, pd) = (a.indptr.ptr(0), a.indices.ptr(0), a.data.ptr(0));
    let (g, gs) = (grid(fill, 0), grid(spmv_blocks, cap * compute_size(d)));
    // SAFETY (every launch): the parameters match the kernels; x, r, p and q hold n values,
    // parts holds one value per block of either grid, the state block STATE_BYTES; indptr holds
    // n + 1 non-decreasing offsets into indices and data, every index below n (checked by the
    // front end), and cg_spmv's shared memory holds `cap` compute values.
    unsafe { wk.launch(&start, g, &[&pr, &nn, &pa, &ps, &atol]) }?;
    let mut done = 0;
    let (rho, stopped, it) = loop {
        let until = (done + CHECK).min(maxiter);
        for _ in done..until {
            unsafe { wk.launch(&dir, g, &[&pp, &pr, &nn, &ps]) }?;
            unsafe { wk.launch(&spmv, gs, &[&pi, &pj, &pd, &pp, &pq, &rows, &pe, &ca, &pa, &ps]) }?;
            unsafe { wk.launch(&update, g, &[&px, &pr, &pp, &pq, &nn, &pa, &ps, &atol]) }?;
        }
        done = until;
        let (rho, stopped, it) = state(&st, s)?;
        if stopped || done == maxiter {
            break (rho, stopped, it);
        }
    };
    wk.done()?;
    // SciPy tests before an iteration: a residual that passes only after the last one is
    // reported as the limit reached
    let converged = stopped && it < maxiter;
    Ok((x, CgRun { iterations: if converged { it } else { maxiter }, converged, residual: rho.max(0.0).sqrt() }))
}
