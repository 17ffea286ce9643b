//! Cholesky (`potrf`), QR (`geqrf` + `orgqr` / `ungqr`) and the Hermitian eigensolver (`syevd`)
//! on the GPU for matrices too large for the batched routes (`syevj.rs`, then xp's stack
//! kernels in `stack.rs`, tried first): one
//! cuSOLVER call sequence per matrix of a stack on a column-major copy, outputs turned back to C
//! order by xp's kernels.
use super::common::{check, col_major, dims, infos, per_matrix, row_major, triangle, ty, workspace};
use super::handles::{cusolver, solver_err};
use super::lu::call;
use crate::runtime::buffer::CudaStorage;
use cudarc::cusolver::sys as sol;
use std::ffi::{c_int, c_void};
use xp_core::linalg::{EighSpec, QrMode, Uplo};
use xp_core::{DType, Error, Layout, LinAlgKind, Result};

pub(crate) fn fill(u: Uplo) -> sol::cublasFillMode_t {
    match u {
        Uplo::Lower => sol::cublasFillMode_t::CUBLAS_FILL_MODE_LOWER,
        Uplo::Upper => sol::cublasFillMode_t::CUBLAS_FILL_MODE_UPPER,
    }
}

/// The Cholesky factor of every matrix, reading and returning triangle `uplo`.
pub(crate) fn cholesky(a: &CudaStorage, al: &Layout, uplo: Uplo) -> Result<CudaStorage> {
    if let Some(l) = super::stack::cholesky(a, al, uplo)? {
        return Ok(l);
    }
    let (count, n, _) = dims(al);
    // The column-major copy is the same matrix: the triangle `uplo` of it is the one NumPy reads.
    let c = col_major(a, al)?;
    let info = infos(a, count)?;
    let (h, p) = cusolver(&a.dev)?;
    let (t, nn, f) = (ty(a.dtype), n as i64, fill(uplo));
    let (mut dbytes, mut hbytes) = (0usize, 0usize);
    // SAFETY: a live handle and an n × n column-major matrix.
    call!(
        "cholesky",
        sol::cusolverDnXpotrf_bufferSize(h, p, f, nn, t, c.ptr(0) as *const c_void, nn, t, &mut dbytes, &mut hbytes)
    );
    let work = workspace(a, dbytes)?;
    let mut hwork = vec![0u8; hbytes.max(1)];
    per_matrix(a, &[&c, &info, &work], count, |z| {
        // SAFETY: matrix z of the copy, its status word, workspaces of the queried sizes.
        call!(
            "cholesky",
            sol::cusolverDnXpotrf(
                h,
                p,
                f,
                nn,
                t,
                c.ptr(z * n * n) as *mut c_void,
                nn,
                t,
                work.ptr(0) as *mut c_void,
                dbytes,
                hwork.as_mut_ptr().cast(),
                hbytes,
                info.ptr(z) as *mut i32
            )
        );
        Ok(())
    })?;
    check("cholesky", &info, count, |b, order| LinAlgKind::NotPositiveDefinite { index: b, order: order as usize })?;
    // The other triangle still holds the input: keep only the factor's.
    triangle(&c, n, n * n, n, n, n, uplo == Uplo::Upper, count)
}

/// `orgqr` / `ungqr` of the four types: Q's first `cols` columns from `k` reflectors.
#[allow(clippy::too_many_arguments)]
unsafe fn orgqr(
    h: sol::cusolverDnHandle_t,
    d: DType,
    m: c_int,
    cols: c_int,
    k: c_int,
    a: u64,
    lda: c_int,
    tau: u64,
    x: &CudaStorage,
    info: u64,
) -> Result<()> {
    let mut lwork: c_int = 0;
    macro_rules! go {
        ($size:ident, $run:ident, $t:ty) => {{
            $size(h, m, cols, k, a as *const $t, lda, tau as *const $t, &mut lwork)
                .result()
                .map_err(|e| solver_err("qr", e))?;
            let work = workspace(x, lwork.max(1) as usize * d.size())?;
            $run(h, m, cols, k, a as *mut $t, lda, tau as *const $t, work.ptr(0) as *mut $t, lwork, info as *mut c_int)
                .result()
                .map_err(|e| solver_err("qr", e))?;
        }};
    }
    use sol::*;
    match d {
        DType::F32 => go!(cusolverDnSorgqr_bufferSize, cusolverDnSorgqr, f32),
        DType::F64 => go!(cusolverDnDorgqr_bufferSize, cusolverDnDorgqr, f64),
        DType::C64 => go!(cusolverDnCungqr_bufferSize, cusolverDnCungqr, cuComplex),
        DType::C128 => go!(cusolverDnZungqr_bufferSize, cusolverDnZungqr, cuDoubleComplex),
        _ => return Err(Error::InvalidDType { op: "qr", dtype: d }),
    }
    Ok(())
}

/// `(Q, R)` of every matrix as [`QrMode`] asks (Q absent for `R` mode).
pub(crate) fn qr(a: &CudaStorage, al: &Layout, mode: QrMode) -> Result<(Option<CudaStorage>, CudaStorage)> {
    if let Some(f) = super::stack::qr(a, al, mode)? {
        return Ok(f);
    }
    let (count, m, n) = dims(al);
    let k = m.min(n);
    let qcols = if mode == QrMode::Complete { m } else { k };
    // A column-major copy with room for a complete Q (m × max(n, m)) when one is asked for.
    let width = if mode == QrMode::Complete { n.max(m) } else { n };
    let c = if width == n {
        col_major(a, al)?
    } else {
        let wide = CudaStorage::alloc(&a.dev, a.dtype, m * width * count)?;
        let src = col_major(a, al)?;
        let mut wide = wide;
        let from = Layout::contiguous(&[count, m * n]);
        let to = Layout::new(vec![count, m * n], vec![(m * width) as isize, 1], 0);
        xp_core::BackendStorage::copy_into(&src, &from, &mut wide, &to)?;
        wide
    };
    let per = m * width;
    let tau = CudaStorage::alloc(&a.dev, a.dtype, (k * count).max(1))?;
    let info = infos(a, count)?;
    let (h, p) = cusolver(&a.dev)?;
    let (t, mm, nn) = (ty(a.dtype), m as i64, n as i64);
    let (mut dbytes, mut hbytes) = (0usize, 0usize);
    // SAFETY: a live handle; an m × n column-major matrix with leading dimension m.
    call!(
        "qr",
        sol::cusolverDnXgeqrf_bufferSize(
            h,
            p,
            mm,
            nn,
            t,
            c.ptr(0) as *const c_void,
            mm,
            t,
            tau.ptr(0) as *const c_void,
            t,
            &mut dbytes,
            &mut hbytes
        )
    );
    let work = workspace(a, dbytes)?;
    let mut hwork = vec![0u8; hbytes.max(1)];
    let w = a.dev.work(&[&c, &tau, &info, &work])?;
    for z in 0..count {
        // SAFETY: matrix z (leading dimension m), its k reflector scalars and status word.
        call!(
            "qr",
            sol::cusolverDnXgeqrf(
                h,
                p,
                mm,
                nn,
                t,
                c.ptr(z * per) as *mut c_void,
                mm,
                t,
                tau.ptr(z * k) as *mut c_void,
                t,
                work.ptr(0) as *mut c_void,
                dbytes,
                hwork.as_mut_ptr().cast(),
                hbytes,
                info.ptr(z) as *mut i32
            )
        );
    }
    let rrows = if mode == QrMode::Complete { m } else { k };
    let r = triangle(&c, m, per, rrows, n, k, true, count)?;
    let q = if mode == QrMode::R {
        None
    } else {
        for z in 0..count {
            // SAFETY: the reflectors of matrix z (first k columns, leading dimension m) and
            // room for `qcols` columns of Q in place.
            unsafe {
                orgqr(
                    h,
                    a.dtype,
                    m as c_int,
                    qcols as c_int,
                    k as c_int,
                    c.ptr(z * per),
                    m as c_int,
                    tau.ptr(z * k),
                    a,
                    info.ptr(z),
                )?;
            }
        }
        Some(c_q(&c, m, qcols, per, count)?)
    };
    w.done()?;
    check("qr", &info, count, |b, _| LinAlgKind::NoConvergence { index: b })?;
    Ok((q, r))
}

/// The first `cols` columns of `count` column-major m-row matrices `per` elements apart, in C order.
fn c_q(c: &CudaStorage, m: usize, cols: usize, per: usize, count: usize) -> Result<CudaStorage> {
    let l = Layout::new(vec![count, m, cols], vec![per as isize, 1, m.max(1) as isize], 0);
    c.contiguous_copy(&l)
}

/// Eigenvalues (ascending) and, if asked, eigenvectors of every Hermitian matrix.
pub(crate) fn eigh(a: &CudaStorage, al: &Layout, spec: EighSpec) -> Result<(CudaStorage, Option<CudaStorage>)> {
    if let Some(f) = super::syevj::eigh(a, al, spec)? {
        return Ok(f);
    }
    if let Some(f) = super::stack::eigh(a, al, spec)? {
        return Ok(f);
    }
    let (count, n, _) = dims(al);
    let c = col_major(a, al)?;
    let w = CudaStorage::alloc(&a.dev, a.dtype.to_real(), n * count)?;
    let info = infos(a, count)?;
    let (h, p) = cusolver(&a.dev)?;
    let (t, tw, nn, f) = (ty(a.dtype), ty(a.dtype.to_real()), n as i64, fill(spec.uplo));
    let jobz = if spec.vectors {
        sol::cusolverEigMode_t::CUSOLVER_EIG_MODE_VECTOR
    } else {
        sol::cusolverEigMode_t::CUSOLVER_EIG_MODE_NOVECTOR
    };
    let (mut dbytes, mut hbytes) = (0usize, 0usize);
    // SAFETY: a live handle; an n × n column-major matrix and n eigenvalues.
    call!(
        "eigh",
        sol::cusolverDnXsyevd_bufferSize(
            h,
            p,
            jobz,
            f,
            nn,
            t,
            c.ptr(0) as *const c_void,
            nn,
            tw,
            w.ptr(0) as *const c_void,
            t,
            &mut dbytes,
            &mut hbytes
        )
    );
    let work = workspace(a, dbytes)?;
    let mut hwork = vec![0u8; hbytes.max(1)];
    per_matrix(a, &[&c, &w, &info, &work], count, |z| {
        // SAFETY: matrix z of the copy (overwritten by its eigenvectors), its n eigenvalues and
        // status word; workspaces of the queried sizes.
        call!(
            "eigh",
            sol::cusolverDnXsyevd(
                h,
                p,
                jobz,
                f,
                nn,
                t,
                c.ptr(z * n * n) as *mut c_void,
                nn,
                tw,
                w.ptr(z * n) as *mut c_void,
                t,
                work.ptr(0) as *mut c_void,
                dbytes,
                hwork.as_mut_ptr().cast(),
                hbytes,
                info.ptr(z) as *mut i32
            )
        );
        Ok(())
    })?;
    check("eigh", &info, count, |b, _| LinAlgKind::NoConvergence { index: b })?;
    let v = if spec.vectors { Some(row_major(&c, count, n, n, false)?) } else { None };
    Ok((w, v))
}
