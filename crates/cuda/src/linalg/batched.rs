//! cuBLAS's batched LU (`getrfBatched`, `getrsBatched`) for stacks of small square matrices:
//! one launch sequence for the whole stack where cuSOLVER's `getrf`/`getrs` would take one call
//! per matrix (4096 matrices of 32 × 32: thousands of launches). They read column-major
//! matrices through device arrays of their addresses and int32 1-based pivots.
use super::common::{col_major, dims, infos};
use super::handles::{blas_err, cublas};
use crate::runtime::buffer::CudaStorage;
use cudarc::cublas::sys as blas;
use std::ffi::c_int;
use xp_core::linalg::Trans;
use xp_core::{DType, HostBuffer, Layout, Result};

/// cuBLAS's operation letter for the system `trans` names.
pub(crate) fn blas_op(trans: Trans) -> blas::cublasOperation_t {
    match trans {
        Trans::N => blas::cublasOperation_t::CUBLAS_OP_N,
        Trans::T => blas::cublasOperation_t::CUBLAS_OP_T,
        Trans::C => blas::cublasOperation_t::CUBLAS_OP_C,
    }
}

/// The largest order the batched routines take (cuBLAS's own guidance: small matrices).
pub(crate) const BATCHED_MAX: usize = 64;

/// Whether a stack of `count` matrices of order `n` goes through the batched routines.
pub(crate) fn batched(count: usize, n: usize) -> bool {
    count > 1 && n <= BATCHED_MAX
}

/// A device array of the addresses of `count` matrices `per` elements apart in `x`.
fn addresses(x: &CudaStorage, per: usize, count: usize) -> Result<CudaStorage> {
    let v: Vec<u64> = (0..count).map(|z| x.ptr(z * per)).collect();
    CudaStorage::upload(&x.dev, &HostBuffer::U64(v))
}

/// Column-major LU factors of the square stack `a`, their int32 1-based pivots and status words.
pub(crate) fn getrf(a: &CudaStorage, al: &Layout) -> Result<(CudaStorage, CudaStorage)> {
    let (count, n, _) = dims(al);
    let lu = col_major(a, al)?;
    let piv = CudaStorage::alloc(&a.dev, DType::I32, count * n)?;
    let info = infos(a, count)?;
    let ptrs = addresses(&lu, n * n, count)?;
    let h = cublas(&a.dev)?;
    let (nn, b) = (n as c_int, count as c_int);
    let (pp, pv, pi) = (ptrs.ptr(0), piv.ptr(0) as *mut c_int, info.ptr(0) as *mut c_int);
    let w = a.dev.work(&[&lu, &piv, &info, &ptrs])?;
    // SAFETY: a live handle on the current stream; `ptrs` holds `count` addresses of n × n
    // column-major matrices inside `lu`, `piv` n ints and `info` one int per matrix.
    let s = unsafe {
        match a.dtype {
            DType::F32 => blas::cublasSgetrfBatched(h, nn, pp as *const *mut f32, nn, pv, pi, b),
            DType::F64 => blas::cublasDgetrfBatched(h, nn, pp as *const *mut f64, nn, pv, pi, b),
            DType::C64 => blas::cublasCgetrfBatched(h, nn, pp as *const *mut _, nn, pv, pi, b),
            _ => blas::cublasZgetrfBatched(h, nn, pp as *const *mut _, nn, pv, pi, b),
        }
    };
    s.result().map_err(|e| blas_err("getrfBatched", e))?;
    w.done()?;
    Ok((lu, piv))
}

/// Overwrite the column-major right-hand sides `x` (n × k per matrix) with the solutions, from
/// the column-major factors `lu` and int32 1-based pivots `piv` of [`getrf`].
pub(crate) fn getrs(
    lu: &CudaStorage,
    piv: &CudaStorage,
    x: &CudaStorage,
    (n, k, count): (usize, usize, usize),
    trans: Trans,
) -> Result<()> {
    let (pa, pb) = (addresses(lu, n * n, count)?, addresses(x, n * k, count)?);
    let h = cublas(&lu.dev)?;
    let o = blas_op(trans);
    let (nn, kk, b) = (n as c_int, k as c_int, count as c_int);
    let (aa, bb, pv) = (pa.ptr(0), pb.ptr(0), piv.ptr(0) as *const c_int);
    let mut info: c_int = 0;
    let w = lu.dev.work(&[lu, piv, x, &pa, &pb])?;
    // SAFETY: a live handle on the current stream; the address arrays hold `count` matrices of
    // `lu` (n × n) and `x` (n × k), column-major; `piv` n ints per matrix; `info` a host int
    // (cuBLAS reports only argument errors there).
    let s = unsafe {
        match lu.dtype {
            DType::F32 => blas::cublasSgetrsBatched(
                h,
                o,
                nn,
                kk,
                aa as *const *const f32,
                nn,
                pv,
                bb as *const *mut f32,
                nn,
                &mut info,
                b,
            ),
            DType::F64 => blas::cublasDgetrsBatched(
                h,
                o,
                nn,
                kk,
                aa as *const *const f64,
                nn,
                pv,
                bb as *const *mut f64,
                nn,
                &mut info,
                b,
            ),
            DType::C64 => blas::cublasCgetrsBatched(
                h,
                o,
                nn,
                kk,
                aa as *const *const _,
                nn,
                pv,
                bb as *const *mut _,
                nn,
                &mut info,
                b,
            ),
            _ => blas::cublasZgetrsBatched(
                h,
                o,
                nn,
                kk,
                aa as *const *const _,
                nn,
                pv,
                bb as *const *mut _,
                nn,
                &mut info,
                b,
            ),
        }
    };
    s.result().map_err(|e| blas_err("getrsBatched", e))?;
    w.done()?;
    if info != 0 {
        return Err(xp_core::Error::Unsupported { op: "lu_solve (cuBLAS argument error)", backend: "cuda" });
    }
    Ok(())
}
