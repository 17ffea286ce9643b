//! The sparse family on the GPU: `Y = A X` and `Y = Aᵀ X` for a CSR matrix `A` and a dense `X`
//! of any strides, for every value dtype and both index widths (cuSPARSE has no integer, bool or
//! float16 SpMV). Sources in `source.rs`:
//! - a vector with short rows (mean ≤ 64 values, the common sparse case): `csr_spmv`, a block
//!   per run of rows that forms all its products into shared memory first (consecutive values,
//!   many independent loads in flight: a lane per row waits on three dependent loads and little
//!   else), then adds each row up in order (SciPy's order);
//! - otherwise `csr_matmul`: a group of `L` lanes per (row, column of `X`), the lanes striding
//!   over the row's values and folding by warp shuffles (`L` = 32 for a vector of long rows, 1
//!   for several columns, where the lanes of a warp read neighbouring columns of one row of `X`);
//! - `A B` of two CSR matrices by hash tables per row (`spgemm.rs`);
//! - conjugate gradients in three kernels an iteration, the scalars on the device (`cg.rs`);
//! - selected lines' runs copied end to end, a warp per run (`runs.rs`);
//! - `Aᵀ X` (`csr_matmul_t`) by atomic additions into a zeroed `Y`, for the dtypes whose addition
//!   has a hardware atomic; the others answer `Unsupported` and the front end multiplies by the
//!   transpose's CSR form.
mod cg;
mod runs;
mod source;
mod spgemm;
mod spgemm_src;

use crate::codegen::compute_size;
use crate::runtime::buffer::CudaStorage;
use crate::runtime::device::driver_err;
use crate::runtime::launch::{Family, Key, Source};
use cudarc::driver::LaunchConfig;
use xp_core::{BackendStorage, CgRun, CsrBuilt, CsrParts, DType, Error, Layout, Result, SparseStorage};

/// Threads per block.
const THREADS: u32 = 256;
/// Products a block of `csr_spmv` aims at (8 per thread).
const PER_BLOCK: usize = 2048;

/// Lanes per row for a product of `k` columns with `nnz` values over `rows` rows.
fn lanes(nnz: usize, rows: usize, k: usize) -> u32 {
    if k > 1 || rows == 0 {
        return 1;
    }
    (nnz / rows).clamp(1, 32).next_power_of_two().min(32) as u32
}

/// Whether a vector product over rows of `nnz / rows` values on average takes `csr_spmv`.
fn short_rows(nnz: usize, rows: usize, k: usize) -> bool {
    k == 1 && rows > 0 && nnz <= 64 * rows
}

/// Rows per block and shared capacity (elements) of `csr_spmv` for compute values of `bytes`.
fn spmv_plan(nnz: usize, rows: usize, bytes: usize) -> (usize, usize) {
    let mean = nnz.div_ceil(rows).max(1);
    let per = (PER_BLOCK / mean).clamp(32, 1024);
    (per, (2 * PER_BLOCK).min(48 * 1024 / bytes))
}

/// Checks the operands' dtypes; `k`, the columns of `X`, and `X`'s offset and strides.
fn operands(
    op: &'static str,
    a: &CsrParts<'_, CudaStorage>,
    x: &CudaStorage,
    xl: &Layout,
) -> Result<(usize, [i64; 3])> {
    let (d, ix) = (x.dtype, a.indptr.dtype);
    if a.data.dtype != d {
        return Err(Error::InvalidDType { op, dtype: a.data.dtype });
    }
    if !matches!(ix, DType::I32 | DType::I64) || a.indices.dtype != ix {
        return Err(Error::invalid(op, "indptr and indices must share one index dtype, int32 or int64"));
    }
    let k = xl.shape().get(1).copied().unwrap_or(1);
    let st = xl.strides();
    Ok((k, [xl.offset() as i64, st[0] as i64, st.get(1).copied().unwrap_or(0) as i64]))
}

fn grid(blocks: usize, shared: usize) -> LaunchConfig {
    LaunchConfig { grid_dim: (blocks as u32, 1, 1), block_dim: (THREADS, 1, 1), shared_mem_bytes: shared as u32 }
}

impl SparseStorage for CudaStorage {
    fn csr_matmul(a: &CsrParts<'_, Self>, x: &Self, xl: &Layout) -> Result<Self> {
        let (k, [xo, s0, s1]) = operands("csr_matmul", a, x, xl)?;
        let (d, ix) = (x.dtype, a.indptr.dtype);
        let out = CudaStorage::alloc(&x.dev, d, a.rows * k)?;
        if a.rows * k == 0 {
            return Ok(out);
        }
        let key = Key::new(Family::SparseMatmul).dtype(d).flag(ix == DType::I64).flag(false);
        let spec = format!("{}_{}", d.name(), ix.name());
        let [vector, spmv] =
            x.dev.kernels(key, ["csr_matmul", "csr_spmv"], || Source::new(spec, source::products(d, ix)))?;
        let nnz = a.data.len;
        let rows = a.rows as i64;
        let (pp, pi, pd, px, py) = (a.indptr.ptr(0), a.indices.ptr(0), a.data.ptr(0), x.ptr(0), out.ptr(0));
        let wk = x.dev.work(&[a.indptr, a.indices, a.data, x, &out])?;
        // SAFETY (both launches): the parameters match the kernels; indptr holds rows + 1
        // non-decreasing offsets into indices and data, every index is below X's first extent
        // (checked by the front end), X is read at xo + j·s0 + c·s1 inside its validated layout,
        // y holds rows·k elements, and csr_spmv's shared memory holds `cap` compute values.
        if short_rows(nnz, a.rows, k) {
            let (per, cap) = spmv_plan(nnz, a.rows, compute_size(d));
            let (pe, ca) = (per as i32, cap as i32);
            let cfg = grid(a.rows.div_ceil(per), cap * compute_size(d));
            unsafe { wk.launch(&spmv, cfg, &[&pp, &pi, &pd, &px, &xo, &s0, &py, &rows, &pe, &ca]) }?;
        } else {
            let l = lanes(nnz, a.rows, k);
            let threads = (a.rows * k) as u64 * l as u64;
            let blocks = threads.div_ceil(THREADS as u64).min(1 << 20) as usize;
            let (kk, li) = (k as i64, l as i32);
            unsafe { wk.launch(&vector, grid(blocks, 0), &[&pp, &pi, &pd, &px, &xo, &s0, &s1, &py, &rows, &kk, &li]) }?;
        }
        wk.done()?;
        Ok(out)
    }

    fn csr_cg(a: &CsrParts<'_, Self>, x: &Self, r: &Self, atol: f64, maxiter: usize) -> Result<(Self, CgRun)> {
        cg::run(a, x, r, atol, maxiter)
    }

    fn csr_matmul_t(a: &CsrParts<'_, Self>, x: &Self, xl: &Layout) -> Result<Self> {
        let op = "csr_matmul_t";
        let (k, [xo, s0, s1]) = operands(op, a, x, xl)?;
        let (d, ix) = (x.dtype, a.indptr.dtype);
        let Some(src) = source::transposed(d, ix) else {
            return Err(Error::Unsupported { op, backend: Self::NAME });
        };
        let out = CudaStorage::alloc(&x.dev, d, a.cols * k)?;
        if a.cols * k == 0 {
            return Ok(out);
        }
        let wk = x.dev.work(&[a.indptr, a.indices, a.data, x, &out])?;
        x.dev.bind()?;
        // SAFETY: `out` holds cols·k elements; the fill is ordered on the work's stream.
        unsafe {
            cudarc::driver::result::memset_d8_async(out.ptr(0), 0, a.cols * k * d.size(), wk.stream().cu_stream())
        }
        .map_err(driver_err)?;
        if a.rows > 0 && a.data.len > 0 {
            let key = Key::new(Family::SparseMatmul).dtype(d).flag(ix == DType::I64).flag(true);
            let spec = format!("{}_{}", d.name(), ix.name());
            let [kr, kv] = x.dev.kernels(key, ["csr_matmul_t", "csr_matvec_t"], || Source::new(spec, src))?;
            let per = (PER_BLOCK * 2 / (a.data.len.div_ceil(a.rows) * k).max(1)).clamp(32, source::T_ROWS);
            let (rows, kk, pe) = (a.rows as i64, k as i64, per as i32);
            let (pp, pi, pd, px, py) = (a.indptr.ptr(0), a.indices.ptr(0), a.data.ptr(0), x.ptr(0), out.ptr(0));
            let blocks = a.rows.div_ceil(per);
            if k == 1 {
                // shared: `per` x values, then a 2-byte row for each of up to `cap` values
                let cap = 4 * PER_BLOCK;
                let shared = per * compute_size(d) + 2 * cap;
                let ca = cap as i32;
                // SAFETY: as csr_matmul's; every index is below cols; a block's rows (at most
                // T_ROWS, below 2^16) and `cap` values fit the shared memory given.
                unsafe { wk.launch(&kv, grid(blocks, shared), &[&pp, &pi, &pd, &px, &xo, &s0, &py, &rows, &pe, &ca]) }?;
            } else {
                // SAFETY: as csr_matmul's; every index is below cols, so y's row index·k + col is
                // in range; a block's offsets (at most T_ROWS + 1) fit its shared array.
                unsafe { wk.launch(&kr, grid(blocks, 0), &[&pp, &pi, &pd, &px, &xo, &s0, &s1, &py, &rows, &kk, &pe]) }?;
            }
        }
        wk.done()?;
        Ok(out)
    }

    fn csr_spgemm(a: &CsrParts<'_, Self>, b: &CsrParts<'_, Self>, ix: DType) -> Result<CsrBuilt<Self>> {
        spgemm::spgemm(a, b, ix)
    }

    fn gather_runs(i: &Self, d: &Self, starts: &Self, ptr: &Self, total: usize, ix: DType) -> Result<(Self, Self)> {
        runs::gather_runs(i, d, starts, ptr, total, ix)
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
                let name = format!("{}_{}", d.name(), ix.name());
                syntax_check(&format!("csr_products_{name}"), &source::products(d, ix));
                if let Some(t) = source::transposed(d, ix) {
                    syntax_check(&format!("csr_matmul_t_{name}"), &t);
                }
                syntax_check(&format!("spgemm_{name}"), &spgemm_src::source(d, ix, DType::I64, 512));
                syntax_check(&format!("gather_runs_{name}"), &runs::source(d, ix, DType::I32));
            }
        }
    }

    #[test]
    fn plans_follow_the_mean_row_length() {
        assert_eq!(lanes(10_000_000, 1_000_000, 1), 16);
        assert_eq!(lanes(100, 100, 1), 1);
        assert_eq!(lanes(1 << 20, 4, 1), 32);
        assert_eq!(lanes(1 << 20, 4, 16), 1);
        assert!(short_rows(10_000_000, 1_000_000, 1) && !short_rows(10_000_000, 1_000_000, 2));
        assert!(!short_rows(1 << 20, 4, 1));
        assert_eq!(spmv_plan(10_000_000, 1_000_000, 4), (204, 4096));
        assert_eq!(spmv_plan(10, 1_000_000, 16), (1024, 3072));
    }
}
