//! The SVD on the GPU. Every matrix is brought to a tall column-major one without a transposing
//! copy where possible: a C-order m × n matrix with n ≥ m is, read in column order, its n × m
//! transpose, whose SVD gives A's with U and Vᴴ exchanged (`A = Mᵀ = conj(V_M) S U_Mᵀ`). Three
//! cuSOLVER algorithms are wired: one-sided Jacobi (`gesvdj`), the polar-decomposition based
//! `Xgesvdp` and the classic QR iteration (`Xgesvd`); [`algorithm`] picks one (measured in
//! `benches/RESULTS.md`), `XP_SVD=jacobi|polar|qr` overrides it.
use super::common::{check, col_major, dims, infos, row_major, transposed, ty, workspace};
use super::handles::{cusolver, solver_err};
use super::lu::call;
use crate::runtime::buffer::CudaStorage;
use cudarc::cusolver::sys as sol;
use std::ffi::{c_int, c_void};
use xp_core::linalg::SvdSpec;
use xp_core::{DType, Error, Layout, LinAlgKind, Result};

/// A cuSOLVER SVD algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Algorithm {
    /// one-sided Jacobi (`gesvdj`)
    Jacobi,
    /// polar decomposition (`Xgesvdp`)
    Polar,
    /// QR iteration (`Xgesvd`, LAPACK's `gesvd`, what CuPy uses)
    Qr,
}

/// The algorithm in use: `XP_SVD` if set, else QR iteration, the only one of the three that was
/// accurate on a 2048² float32 uniform matrix (`benches/RESULTS.md`: |U S Vh - A| / |A| and
/// |UᵀU - I| were 4e-6 and 2e-4 with `Xgesvd`, 54 and 1e-4 with `Xgesvdp` (which reported
/// err_sigma = 1.4e3), 3e-4 and 5e-2 with `gesvdj`); the other two are kept for measurement.
pub(crate) fn algorithm() -> Algorithm {
    match std::env::var("XP_SVD").as_deref() {
        Ok("jacobi") => Algorithm::Jacobi,
        Ok("qr") => Algorithm::Qr,
        Ok("polar") => Algorithm::Polar,
        _ => Algorithm::Qr,
    }
}

/// One stack's column-major SVD: `U` (r × ucols), `s` (c), and `V` (c × c) or, for the QR
/// algorithm, `Vᴴ` (c × c), for `count` matrices r × c with r ≥ c.
struct Factors {
    u: Option<CudaStorage>,
    s: CudaStorage,
    v: Option<CudaStorage>,
    v_is_vh: bool,
}

/// `gesvdj` of the four types (legacy 32-bit API with a `gesvdjInfo_t`); `u` and `v` address
/// `count` factors of r × ucols and c × c even when only values are wanted.
#[allow(clippy::too_many_arguments)]
unsafe fn gesvdj(
    h: sol::cusolverDnHandle_t,
    d: DType,
    vectors: bool,
    econ: bool,
    (r, c): (usize, usize),
    m: &CudaStorage,
    s: &CudaStorage,
    u: u64,
    v: u64,
    ucols: usize,
    info: &CudaStorage,
    count: usize,
) -> Result<()> {
    let mut params: sol::gesvdjInfo_t = std::ptr::null_mut();
    sol::cusolverDnCreateGesvdjInfo(&mut params).result().map_err(|e| solver_err("svd", e))?;
    let jobz = if vectors {
        sol::cusolverEigMode_t::CUSOLVER_EIG_MODE_VECTOR
    } else {
        sol::cusolverEigMode_t::CUSOLVER_EIG_MODE_NOVECTOR
    };
    let (ri, ci, e) = (r as c_int, c as c_int, econ as c_int);
    let mut lwork: c_int = 0;
    let result = (|| -> Result<()> {
        macro_rules! go {
            ($size:ident, $run:ident, $t:ty, $rt:ty) => {{
                $size(
                    h,
                    jobz,
                    e,
                    ri,
                    ci,
                    m.ptr(0) as *const $t,
                    ri,
                    s.ptr(0) as *const $rt,
                    u as *const $t,
                    ri,
                    v as *const $t,
                    ci,
                    &mut lwork,
                    params,
                )
                .result()
                .map_err(|e| solver_err("svd", e))?;
                let work = workspace(m, lwork.max(1) as usize * d.size())?;
                for z in 0..count {
                    let (uz, vz) = (u + (z * r * ucols * d.size()) as u64, v + (z * c * c * d.size()) as u64);
                    $run(
                        h,
                        jobz,
                        e,
                        ri,
                        ci,
                        m.ptr(z * r * c) as *mut $t,
                        ri,
                        s.ptr(z * c) as *mut $rt,
                        uz as *mut $t,
                        ri,
                        vz as *mut $t,
                        ci,
                        work.ptr(0) as *mut $t,
                        lwork,
                        info.ptr(z) as *mut c_int,
                        params,
                    )
                    .result()
                    .map_err(|e| solver_err("svd", e))?;
                }
            }};
        }
        use sol::*;
        match d {
            DType::F32 => go!(cusolverDnSgesvdj_bufferSize, cusolverDnSgesvdj, f32, f32),
            DType::F64 => go!(cusolverDnDgesvdj_bufferSize, cusolverDnDgesvdj, f64, f64),
            DType::C64 => go!(cusolverDnCgesvdj_bufferSize, cusolverDnCgesvdj, cuComplex, f32),
            DType::C128 => go!(cusolverDnZgesvdj_bufferSize, cusolverDnZgesvdj, cuDoubleComplex, f64),
            _ => return Err(Error::InvalidDType { op: "svd", dtype: d }),
        }
        Ok(())
    })();
    sol::cusolverDnDestroyGesvdjInfo(params);
    result
}

/// The SVD of `count` column-major r × c matrices (r ≥ c) in `m` (overwritten).
fn factor(m: &CudaStorage, (r, c): (usize, usize), count: usize, spec: SvdSpec, alg: Algorithm) -> Result<Factors> {
    let d = m.dtype;
    let dev = &m.dev;
    let full = spec.full_matrices;
    let ucols = if full { r } else { c };
    let vectors = spec.compute_uv;
    let s = CudaStorage::alloc(dev, d.to_real(), (c * count).max(1))?;
    // gesvdj writes V even when asked for values only (an identity, seen under memcheck), and
    // gesvdp documents no null factors: both get scratch factors, dropped afterwards.
    let buffers = vectors || alg != Algorithm::Qr;
    let u = if buffers { Some(CudaStorage::alloc(dev, d, (r * ucols * count).max(1))?) } else { None };
    let v = if buffers { Some(CudaStorage::alloc(dev, d, (c * c * count).max(1))?) } else { None };
    let info = infos(m, count)?;
    let (h, p) = cusolver(dev)?;
    let (pu, pv) = (u.as_ref().map_or(0, |x| x.ptr(0)), v.as_ref().map_or(0, |x| x.ptr(0)));
    let mut bufs: Vec<&CudaStorage> = vec![m, &s, &info];
    bufs.extend(u.iter().chain(v.iter()));
    let scope = dev.work(&bufs)?;
    let (t, tr) = (ty(d), ty(d.to_real()));
    let (ri, ci) = (r as i64, c as i64);
    let (ld_u, ld_v) = (ri, ci);
    match alg {
        // SAFETY (all arms): matrices z of `m`, `s`, `u`, `v` at the sizes allocated above, a status
        // word each; workspaces of the queried sizes; all on the handle's (current) stream.
        Algorithm::Jacobi => unsafe { gesvdj(h, d, vectors, !full, (r, c), m, &s, pu, pv, ucols, &info, count)? },
        Algorithm::Polar => {
            let jobz = if vectors {
                sol::cusolverEigMode_t::CUSOLVER_EIG_MODE_VECTOR
            } else {
                sol::cusolverEigMode_t::CUSOLVER_EIG_MODE_NOVECTOR
            };
            let econ = (!full) as c_int;
            let (mut dbytes, mut hbytes) = (0usize, 0usize);
            call!(
                "svd",
                sol::cusolverDnXgesvdp_bufferSize(
                    h,
                    p,
                    jobz,
                    econ,
                    ri,
                    ci,
                    t,
                    m.ptr(0) as *const c_void,
                    ri,
                    tr,
                    s.ptr(0) as *const c_void,
                    t,
                    pu as *const c_void,
                    ld_u,
                    t,
                    pv as *const c_void,
                    ld_v,
                    t,
                    &mut dbytes,
                    &mut hbytes
                )
            );
            let work = workspace(m, dbytes)?;
            let mut hwork = vec![0u8; hbytes.max(1)];
            for z in 0..count {
                let mut err_sigma = 0f64;
                let (uz, vz) = (pu + (z * r * ucols * d.size()) as u64, pv + (z * c * c * d.size()) as u64);
                call!(
                    "svd",
                    sol::cusolverDnXgesvdp(
                        h,
                        p,
                        jobz,
                        econ,
                        ri,
                        ci,
                        t,
                        m.ptr(z * r * c) as *mut c_void,
                        ri,
                        tr,
                        s.ptr(z * c) as *mut c_void,
                        t,
                        uz as *mut c_void,
                        ld_u,
                        t,
                        vz as *mut c_void,
                        ld_v,
                        t,
                        work.ptr(0) as *mut c_void,
                        dbytes,
                        hwork.as_mut_ptr().cast(),
                        hbytes,
                        info.ptr(z) as *mut i32,
                        &mut err_sigma
                    )
                );
            }
        }
        Algorithm::Qr => {
            let (jobu, jobvt) = if !vectors {
                (b'N' as i8, b'N' as i8)
            } else if full {
                (b'A' as i8, b'A' as i8)
            } else {
                (b'S' as i8, b'S' as i8)
            };
            let (mut dbytes, mut hbytes) = (0usize, 0usize);
            call!(
                "svd",
                sol::cusolverDnXgesvd_bufferSize(
                    h,
                    p,
                    jobu,
                    jobvt,
                    ri,
                    ci,
                    t,
                    m.ptr(0) as *const c_void,
                    ri,
                    tr,
                    s.ptr(0) as *const c_void,
                    t,
                    pu as *const c_void,
                    ld_u,
                    t,
                    pv as *const c_void,
                    ld_v,
                    t,
                    &mut dbytes,
                    &mut hbytes
                )
            );
            let work = workspace(m, dbytes)?;
            let mut hwork = vec![0u8; hbytes.max(1)];
            for z in 0..count {
                let (uz, vz) = if vectors {
                    (pu + (z * r * ucols * d.size()) as u64, pv + (z * c * c * d.size()) as u64)
                } else {
                    (0, 0)
                };
                call!(
                    "svd",
                    sol::cusolverDnXgesvd(
                        h,
                        p,
                        jobu,
                        jobvt,
                        ri,
                        ci,
                        t,
                        m.ptr(z * r * c) as *mut c_void,
                        ri,
                        tr,
                        s.ptr(z * c) as *mut c_void,
                        t,
                        uz as *mut c_void,
                        ld_u,
                        t,
                        vz as *mut c_void,
                        ld_v,
                        t,
                        work.ptr(0) as *mut c_void,
                        dbytes,
                        hwork.as_mut_ptr().cast(),
                        hbytes,
                        info.ptr(z) as *mut i32
                    )
                );
            }
        }
    }
    scope.done()?;
    check("svd", &info, count, |b, _| LinAlgKind::NoConvergence { index: b })?;
    let (u, v) = if vectors { (u, v) } else { (None, None) };
    Ok(Factors { u, s, v, v_is_vh: alg == Algorithm::Qr })
}

/// `(U, s, Vh)` of every matrix of the stack (`U`, `Vh` only with `compute_uv`), in C order.
#[allow(clippy::type_complexity)]
pub(crate) fn svd(
    a: &CudaStorage,
    al: &Layout,
    spec: SvdSpec,
) -> Result<(Option<CudaStorage>, CudaStorage, Option<CudaStorage>)> {
    if let Some(f) = super::stack::svd(a, al, spec)? {
        return Ok(f);
    }
    let (count, m, n) = dims(al);
    let transposed_input = n >= m;
    // C order of A is the column-major Aᵀ (n × m): already tall when n ≥ m.
    let (r, c) = if transposed_input { (n, m) } else { (m, n) };
    let mat = if transposed_input { a.contiguous_copy(al)? } else { col_major(a, al)? };
    let f = factor(&mat, (r, c), count, spec, algorithm())?;
    let (Some(u), Some(v)) = (f.u, f.v) else { return Ok((None, f.s, None)) };
    let ucols = if spec.full_matrices { r } else { c };
    let (uo, vho) = match (transposed_input, f.v_is_vh) {
        // A = Mᵀ: U_A = conj(V_M) (m × m = c × c); Vh_A = U_Mᵀ, whose C order is U_M's memory.
        (true, false) => (row_major(&v, count, c, c, true)?, u),
        (true, true) => (v, u), // V_Mᴴ's transpose conjugated is conj(V_M); its memory is U_A's C order
        // A = M: U_A = U_M; Vh_A = V_Mᴴ, whose C order is V_M's memory conjugated.
        (false, false) => (row_major(&u, count, r, ucols, false)?, transposed(&v, count, c, c, true)?),
        (false, true) => (row_major(&u, count, r, ucols, false)?, row_major(&v, count, c, c, false)?),
    };
    Ok((Some(uo), f.s, Some(vho)))
}
