//! `A x` on the GPU for a float32/float64 matrix with contiguous rows and a vector (`dot(A, p)`,
//! `A @ p`): a block per row, 16-byte loads along the row, a warp-shuffle sum. cuBLAS's GEMM
//! with n = 1 (and its transposed GEMV, which is what a row-major A is to it) reads an 8192²
//! float32 matrix at about 2.1 TB/s on an H100 where a copy moves 2.7; this kernel is the GEMV
//! the bandwidth allows. `x A` stays with cuBLAS (its non-transposed GEMV already streams).
use crate::codegen::PRELUDE;
use crate::runtime::buffer::CudaStorage;
use crate::runtime::launch::{Family, Key, Source};
use cudarc::driver::LaunchConfig;
use xp_core::{DType, Layout, Result};

/// Threads per block (a row each).
const THREADS: u32 = 256;
/// The fewest rows taken here.
const MIN_ROWS: usize = 64;

/// Whether the kernel takes `[.., m, k] @ [.., k, n]` of dtype `d` (one product, n = 1, A's rows
/// contiguous, rows long enough to fill a block); `XP_GEMM=cublas` turns it off.
pub(crate) fn fits(d: DType, al: &Layout, (m, k, n, count): (usize, usize, usize, usize)) -> bool {
    let plain = matches!(d, DType::F32 | DType::F64) && !super::kernels::cublas_only();
    // a block per row: a few rows would leave the device idle while one block walks a long row
    // (a (1, 2^20) @ (2^20, 1) product took one block 0.1 ms; cuBLAS splits it)
    plain && n == 1 && count == 1 && k >= THREADS as usize && m >= MIN_ROWS && {
        let nd = al.ndim();
        al.strides()[nd - 1] == 1
    }
}

fn source(d: DType) -> String {
    let (t, v, vw, mac) = match d {
        DType::F32 => (
            "float",
            "float4",
            4,
            "s = fma(p.x, q.x, s); s = fma(p.y, q.y, s); s = fma(p.z, q.z, s); s = fma(p.w, q.w, s);",
        ),
        _ => ("double", "double2", 2, "s = fma(p.x, q.x, s); s = fma(p.y, q.y, s);"),
    };
    format!(
        "{PRELUDE}
extern \"C\" __global__ void XP_NAME(gemv)(const {t}* __restrict__ a, i64 rs, const {t}* __restrict__ x, i64 xs,
    {t}* __restrict__ y, i64 m, i64 k, int vec) {{
  __shared__ {t} part[32];
  const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5, nw = blockDim.x >> 5;
  for (i64 row = blockIdx.x; row < m; row += gridDim.x) {{
    const {t}* r = a + row * rs;
    {t} s = 0;
    if (vec) {{
      const {v}* rv = (const {v}*)r;
      const {v}* xv = (const {v}*)x;
      const i64 kv = k / {vw};
#pragma unroll 4
      for (i64 j = threadIdx.x; j < kv; j += blockDim.x) {{
        const {v} p = __ldg(rv + j), q = __ldg(xv + j);
        {mac}
      }}
    }} else {{
      for (i64 j = threadIdx.x; j < k; j += blockDim.x) s = fma(r[j], x[j * xs], s);
    }}
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
    if (lane == 0) part[wid] = s;
    __syncthreads();
    if (wid == 0) {{
      s = lane < nw ? part[lane] : ({t})0;
      for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
      if (lane == 0) y[row] = s;
    }}
    __syncthreads();
  }}
}}
"
    )
}

/// `out` (m) = A (m × k, rows contiguous) x (k, any stride), for a product [`fits`] accepted.
pub(crate) fn gemv(
    a: &CudaStorage,
    al: &Layout,
    b: &CudaStorage,
    bl: &Layout,
    out: CudaStorage,
    (m, k, _, _): (usize, usize, usize, usize),
) -> Result<CudaStorage> {
    let nd = al.ndim();
    let (rs, xs) = (al.strides()[nd - 2] as i64, bl.strides()[nd - 2] as i64);
    let d = a.dtype;
    let kr = a.dev.kernel(Key::new(Family::Gemv).dtype(d), "gemv", || Source::new(d.name(), source(d)))?;
    let (pa, px, py) = (a.ptr(al.offset()), b.ptr(bl.offset()), out.ptr(0));
    let w = (16 / d.size()) as i64;
    let vec = (xs == 1 && k as i64 % w == 0 && rs % w == 0 && pa % 16 == 0 && px % 16 == 0) as i32;
    let dims = [m as i64, k as i64];
    let wk = a.dev.work(&[a, b, &out])?;
    let cfg = LaunchConfig { grid_dim: (m.min(1 << 20) as u32, 1, 1), block_dim: (THREADS, 1, 1), shared_mem_bytes: 0 };
    // SAFETY: the parameters match the kernel; row i of A is k contiguous elements at pa + i·rs
    // and x k elements at px + j·xs (validated layouts); 16-byte loads only where the row
    // starts, the row stride, k and x are 16-byte aligned (`vec`); it writes m outputs.
    unsafe { wk.launch(&kr, cfg, &[&pa, &rs, &px, &xs, &py, &dims[0], &dims[1], &vec]) }?;
    wk.done()?;
    Ok(out)
}
