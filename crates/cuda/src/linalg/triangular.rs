//! Triangular solves (SciPy's `solve_triangular`) through cuBLAS's `trsm`, and SciPy's
//! `lu_factor`/`lu_solve` through cuSOLVER's `getrf`/`getrs` (`lu.rs`), one matrix of a stack
//! after another.
//!
//! `trsm` reads column-major matrices; a row-major `A` read so is `Aᵀ`, and the row-major
//! right-hand sides `B` (n × k) are `Bᵀ`. So `op(A) X = B` is solved as `Xᵀ op(A)ᵀ = Bᵀ` from
//! the right, with the other triangle and the same operation letter (`op(A)ᵀ` is `Aᵀ` read
//! as is for `N`, `A` for `T`, and `conj(A)` for `C`): no transposed copy of either operand.
use super::batched;
use super::common::{dims, row_major};
use super::handles::{blas_err, cublas};
use super::lu::{getrf, getrs, uniform};
use crate::runtime::buffer::CudaStorage;
use crate::runtime::device::CudaDevice;
use cudarc::cublas::sys as blas;
use std::ffi::c_int;
use xp_core::linalg::{Trans, TriangularSpec, Uplo};
use xp_core::{BackendDevice, BackendStorage, BinaryOp, DType, Error, HostBuffer, Layout, LinAlgKind, Result, Scalar};

/// The first exact zero on the diagonal of a stack of square matrices: (matrix, position).
fn zero_diagonal(a: &CudaStorage, al: &Layout) -> Result<Option<(usize, usize)>> {
    let nd = al.ndim();
    let n = al.shape()[nd - 1];
    let dl = al.diagonal(0, nd - 2, nd - 1);
    let zero = CudaDevice::of(&a.dev).full(1, Scalar::Float(0.0), a.dtype)?;
    let zl = Layout::new(dl.shape().to_vec(), vec![0; dl.ndim()], 0);
    let eq = a.binary(&dl, &zero, &zl, BinaryOp::Eq)?;
    match eq.to_host(&Layout::contiguous(dl.shape()))? {
        HostBuffer::Bool(v) => Ok(v.iter().position(|&z| z).map(|i| (i / n, i % n))),
        b => Err(Error::InvalidDType { op: "solve_triangular", dtype: b.dtype() }),
    }
}

/// `X` with `op(A) X = B` for triangular `A` `[.., n, n]` and `B` `[.., n, k]` of one batch.
pub(crate) fn solve_triangular(
    a: &CudaStorage,
    al: &Layout,
    b: &CudaStorage,
    bl: &Layout,
    spec: TriangularSpec,
) -> Result<CudaStorage> {
    let (count, n, _) = dims(al);
    let k = bl.shape()[bl.ndim() - 1];
    if !spec.unit_diagonal {
        if let Some((index, diagonal)) = zero_diagonal(a, al)? {
            return Err(Error::LinAlg {
                op: "solve_triangular",
                kind: LinAlgKind::SingularDiagonal { index, diagonal },
            });
        }
    }
    let x = b.contiguous_copy(bl)?;
    if count * n * k == 0 {
        return Ok(x);
    }
    // A with unit column stride (rows `ld` apart), as trsm needs it
    let (mut ca, mut aoff, mut st) = uniform(a, al)?;
    if st[1] != 1 || st[0] < n as i64 {
        let c = a.contiguous_copy(al)?;
        (aoff, st) = (0, [n as i64, 1, (n * n) as i64]);
        ca = Some(c);
    }
    let a = ca.as_ref().unwrap_or(a);
    let h = cublas(&a.dev)?;
    let side = blas::cublasSideMode_t::CUBLAS_SIDE_RIGHT;
    // the triangle of Aᵀ (what trsm reads) is the other one of A
    let fill = match spec.uplo {
        Uplo::Lower => blas::cublasFillMode_t::CUBLAS_FILL_MODE_UPPER,
        Uplo::Upper => blas::cublasFillMode_t::CUBLAS_FILL_MODE_LOWER,
    };
    let op = batched::blas_op(spec.trans);
    let diag = if spec.unit_diagonal {
        blas::cublasDiagType_t::CUBLAS_DIAG_UNIT
    } else {
        blas::cublasDiagType_t::CUBLAS_DIAG_NON_UNIT
    };
    let (one64, one32) = ([1.0f64, 0.0], [1.0f32, 0.0]);
    let (m_, n_, lda, ldb) = (k as c_int, n as c_int, st[0] as c_int, k as c_int);
    let w = a.dev.work(&[a, &x])?;
    for z in 0..count {
        let pa = a.ptr(aoff + z * st[2] as usize);
        let pb = x.ptr(z * n * k);
        // SAFETY: a live handle on the current stream; matrix z of A (n × n read through its
        // rows `lda` apart, inside the validated or copied block) and of X (n × k, dense); alpha
        // is a host scalar of the dtype's type.
        let s = unsafe {
            match a.dtype {
                DType::F32 => blas::cublasStrsm_v2(
                    h,
                    side,
                    fill,
                    op,
                    diag,
                    m_,
                    n_,
                    one32.as_ptr(),
                    pa as *const f32,
                    lda,
                    pb as *mut f32,
                    ldb,
                ),
                DType::F64 => blas::cublasDtrsm_v2(
                    h,
                    side,
                    fill,
                    op,
                    diag,
                    m_,
                    n_,
                    one64.as_ptr(),
                    pa as *const f64,
                    lda,
                    pb as *mut f64,
                    ldb,
                ),
                DType::C64 => blas::cublasCtrsm_v2(
                    h,
                    side,
                    fill,
                    op,
                    diag,
                    m_,
                    n_,
                    one32.as_ptr().cast(),
                    pa as *const _,
                    lda,
                    pb as *mut _,
                    ldb,
                ),
                _ => blas::cublasZtrsm_v2(
                    h,
                    side,
                    fill,
                    op,
                    diag,
                    m_,
                    n_,
                    one64.as_ptr().cast(),
                    pa as *const _,
                    lda,
                    pb as *mut _,
                    ldb,
                ),
            }
        };
        s.result().map_err(|e| blas_err("trsm", e))?;
    }
    w.done()?;
    Ok(x)
}

/// SciPy's `lu_factor`: the packed factors in C order and the 0-based int32 interchanges.
pub(crate) fn lu_factor(a: &CudaStorage, al: &Layout) -> Result<(CudaStorage, CudaStorage)> {
    let (count, m, n) = dims(al);
    let k = m.min(n);
    if count * m * n == 0 {
        let dev = CudaDevice::of(&a.dev);
        return Ok((
            dev.full(count * m * n, Scalar::Int(0), a.dtype)?,
            dev.full(count * k, Scalar::Int(0), DType::I32)?,
        ));
    }
    // (a zero pivot is no error here: SciPy only warns)
    let pl = Layout::contiguous(&[count, k]);
    let ones = Layout::new(vec![count, k], vec![0, 0], 0);
    // cuBLAS's batched LU picks complex pivots by modulus, LAPACK (and SciPy) by |re| + |im|:
    // complex stacks go through cuSOLVER's getrf, whose pivots are LAPACK's.
    if m == n && batched::batched(count, n) && !a.dtype.is_complex() {
        let (lu, piv) = batched::getrf(a, al)?;
        let one = CudaDevice::of(&a.dev).full(1, Scalar::Int(1), DType::I32)?;
        return Ok((row_major(&lu, count, n, n, false)?, piv.binary(&pl, &one, &ones, BinaryOp::Sub)?));
    }
    let (lu, ipiv, _info) = getrf("lu_factor", a, al)?;
    let lu = row_major(&lu, count, m, n, false)?;
    let one = CudaDevice::of(&a.dev).full(1, Scalar::Int(1), DType::I64)?;
    let piv = ipiv.binary(&pl, &one, &ones, BinaryOp::Sub)?;
    Ok((lu, piv.cast(&pl, DType::I32)?))
}

/// SciPy's `lu_solve` from [`lu_factor`]'s results (any layouts; batches broadcast to `b`'s).
#[allow(clippy::too_many_arguments)] // the factors, their pivots and the right-hand sides
pub(crate) fn lu_solve(
    lu: &CudaStorage,
    l: &Layout,
    piv: &CudaStorage,
    pl: &Layout,
    b: &CudaStorage,
    bl: &Layout,
    trans: Trans,
) -> Result<CudaStorage> {
    let (count, n, _) = dims(l);
    let k = bl.shape()[bl.ndim() - 1];
    if count * n * k == 0 {
        return b.contiguous_copy(bl);
    }
    let f = super::common::col_major(lu, l)?;
    // the pivots 1-based, in the integer type the solver reads
    let small = batched::batched(count, n);
    let it = if small { DType::I32 } else { DType::I64 };
    let p = piv.cast(pl, it)?;
    let cl = Layout::contiguous(pl.shape());
    let one = CudaDevice::of(&lu.dev).full(1, Scalar::Int(1), it)?;
    let ipiv = p.binary(&cl, &one, &Layout::new(pl.shape().to_vec(), vec![0; pl.ndim()], 0), BinaryOp::Add)?;
    let x = super::common::col_major(b, bl)?;
    if small {
        batched::getrs(&f, &ipiv, &x, (n, k, count), trans)?;
    } else {
        getrs("lu_solve", &f, &ipiv, &x, n, k, count, trans)?;
    }
    row_major(&x, count, n, k, false)
}
