//! The sparse family on the GPU: `Y = A X` for a CSR matrix `A` and a dense `X` of any strides,
//! for every value dtype and both index widths (cuSPARSE has no integer, bool or float16 SpMV).
//!
//! One kernel: a group of `L` lanes per (row, column of `X`), the lanes striding over the row's
//! stored values and folding by warp shuffles. For a vector (`k = 1`) `L` is the power of two
//! nearest the mean row length (up to a warp), so that short rows do not leave most of a warp
//! idle; for several columns a thread takes one (row, column) pair, and the lanes of a warp read
//! neighbouring columns of one row of `X`.
use crate::codegen::{compute_ty, storage_ty, store, PRELUDE};
use crate::runtime::buffer::CudaStorage;
use crate::runtime::launch::{Family, Key, Source};
use cudarc::driver::LaunchConfig;
use xp_core::{CsrParts, DType, Error, Layout, Result, SparseStorage};

/// Threads per block.
const THREADS: u32 = 256;

/// CUDA source of the product for values of `d` and indices of `ix` (int32 or int64).
fn source(d: DType, ix: DType) -> String {
    let (t, c, i) = (storage_ty(d), compute_ty(d), storage_ty(ix));
    let out = store(d, "s");
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
"
    )
}

/// Lanes per row for a product of `k` columns with `nnz` values over `rows` rows.
fn lanes(nnz: usize, rows: usize, k: usize) -> u32 {
    if k > 1 || rows == 0 {
        return 1;
    }
    (nnz / rows).clamp(1, 32).next_power_of_two().min(32) as u32
}

impl SparseStorage for CudaStorage {
    fn csr_matmul(a: &CsrParts<'_, Self>, x: &Self, xl: &Layout) -> Result<Self> {
        let op = "csr_matmul";
        let (d, ix) = (x.dtype, a.indptr.dtype);
        if a.data.dtype != d {
            return Err(Error::InvalidDType { op, dtype: a.data.dtype });
        }
        if !matches!(ix, DType::I32 | DType::I64) || a.indices.dtype != ix {
            return Err(Error::invalid(op, "indptr and indices must share one index dtype, int32 or int64"));
        }
        let k = xl.shape().get(1).copied().unwrap_or(1);
        let out = CudaStorage::alloc(&x.dev, d, a.rows * k)?;
        if a.rows * k == 0 {
            return Ok(out);
        }
        let key = Key::new(Family::SparseMatmul).dtype(d).flag(ix == DType::I64);
        let spec = format!("{}_{}", d.name(), ix.name());
        let kr = x.dev.kernel(key, "csr_matmul", || Source::new(spec, source(d, ix)))?;
        let st = xl.strides();
        let (xo, s0, s1) = (xl.offset() as i64, st[0] as i64, st.get(1).copied().unwrap_or(0) as i64);
        let nnz = a.data.len;
        let l = lanes(nnz, a.rows, k);
        let threads = (a.rows * k) as u64 * l as u64;
        let blocks = threads.div_ceil(THREADS as u64).min(1 << 20) as u32;
        let (rows, kk, li) = (a.rows as i64, k as i64, l as i32);
        let (pp, pi, pd, px, py) = (a.indptr.ptr(0), a.indices.ptr(0), a.data.ptr(0), x.ptr(0), out.ptr(0));
        let wk = x.dev.work(&[a.indptr, a.indices, a.data, x, &out])?;
        let cfg = LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (THREADS, 1, 1), shared_mem_bytes: 0 };
        // SAFETY: the parameters match the kernel; indptr holds rows + 1 offsets into indices and
        // data, every index is below X's first extent (checked by the front end), X is read at
        // xo + j·s0 + c·s1 inside its validated layout, and y holds rows·k elements.
        unsafe { wk.launch(&kr, cfg, &[&pp, &pi, &pd, &px, &xo, &s0, &s1, &py, &rows, &kk, &li]) }?;
        wk.done()?;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::tests_support::syntax_check;

    /// Every generated product parses as C++ (the host stub stands in for CUDA).
    #[test]
    fn sources_parse() {
        for d in DType::ALL {
            for ix in [DType::I32, DType::I64] {
                syntax_check(&format!("csr_matmul_{}_{}", d.name(), ix.name()), &source(d, ix));
            }
        }
    }

    #[test]
    fn lanes_follow_the_mean_row_length() {
        assert_eq!(lanes(10_000_000, 1_000_000, 1), 16);
        assert_eq!(lanes(100, 100, 1), 1);
        assert_eq!(lanes(1 << 20, 4, 1), 32);
        assert_eq!(lanes(1 << 20, 4, 16), 1);
    }
}
