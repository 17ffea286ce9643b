//! Hermitian eigenpairs of a stack of matrices up to 32 × 32 by cuSOLVER's batched Jacobi
//! (`syevjBatched` / `heevjBatched`, CuPy's route): one call for the whole stack on a
//! column-major copy, eigenvalues ascending, status words read once. With eigenvectors it beats
//! xp's two-sided Jacobi kernel (`stack.rs`), whose vector updates cost a block barrier per
//! rotation set; eigenvalues alone stay on xp's tridiagonal kernel, which is faster still.
//! `XP_EIGH_BATCHED=off` sends these stacks to the kernel instead (for measurement).
use super::common::{check, col_major, dims, infos, row_major};
use super::factor::fill;
use super::handles::cusolver;
use super::lu::call;
use crate::runtime::buffer::CudaStorage;
use cudarc::cusolver::sys as sol;
use std::ffi::c_int;
use xp_core::linalg::EighSpec;
use xp_core::{DType, Layout, LinAlgKind, Result};

/// The largest order cuSOLVER's batched Jacobi takes.
pub(crate) const MAX: usize = 32;

fn enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| !std::env::var("XP_EIGH_BATCHED").is_ok_and(|v| v == "off"))
}

/// cuSOLVER's Jacobi settings (defaults: tolerance of the working precision, 100 sweeps, sorted
/// eigenvalues), destroyed when dropped.
struct Params(sol::syevjInfo_t);

impl Params {
    fn new() -> Result<Params> {
        let mut p: sol::syevjInfo_t = std::ptr::null_mut();
        // SAFETY: writes a fresh handle into `p`.
        call!("eigh", sol::cusolverDnCreateSyevjInfo(&mut p));
        Ok(Params(p))
    }
}

impl Drop for Params {
    fn drop(&mut self) {
        // SAFETY: created by `new`, used by nothing after this.
        unsafe { sol::cusolverDnDestroySyevjInfo(self.0) };
    }
}

/// Eigenvalues (ascending) and eigenvectors (columns, C order) of every matrix, or None when
/// the stack is not this routine's (no vectors wanted, larger than [`MAX`], empty, or turned off).
pub(crate) fn eigh(a: &CudaStorage, al: &Layout, spec: EighSpec) -> Result<Option<(CudaStorage, Option<CudaStorage>)>> {
    let (count, n, _) = dims(al);
    if !spec.vectors || !enabled() || n > MAX || n == 0 || count == 0 || count > c_int::MAX as usize {
        return Ok(None);
    }
    let d = a.dtype;
    let c = col_major(a, al)?;
    let w = CudaStorage::alloc(&a.dev, d.to_real(), n * count)?;
    let info = infos(a, count)?;
    let (h, _) = cusolver(&a.dev)?;
    let params = Params::new()?;
    let (nn, bc, f, p) = (n as c_int, count as c_int, fill(spec.uplo), params.0);
    let jobz = sol::cusolverEigMode_t::CUSOLVER_EIG_MODE_VECTOR;
    let (pa, pw) = (c.ptr(0), w.ptr(0));
    let mut lwork: c_int = 0;
    // SAFETY: a live handle; `count` column-major n × n matrices one after another and their
    // n eigenvalues each; the size query writes `lwork` only.
    match d {
        DType::F32 => call!(
            "eigh",
            sol::cusolverDnSsyevjBatched_bufferSize(h, jobz, f, nn, pa as _, nn, pw as _, &mut lwork, p, bc)
        ),
        DType::F64 => call!(
            "eigh",
            sol::cusolverDnDsyevjBatched_bufferSize(h, jobz, f, nn, pa as _, nn, pw as _, &mut lwork, p, bc)
        ),
        DType::C64 => call!(
            "eigh",
            sol::cusolverDnCheevjBatched_bufferSize(h, jobz, f, nn, pa as _, nn, pw as _, &mut lwork, p, bc)
        ),
        _ => call!(
            "eigh",
            sol::cusolverDnZheevjBatched_bufferSize(h, jobz, f, nn, pa as _, nn, pw as _, &mut lwork, p, bc)
        ),
    }
    let work = CudaStorage::alloc(&a.dev, d, (lwork.max(1)) as usize)?;
    let wk = a.dev.work(&[&c, &w, &info, &work])?;
    let (pk, pi) = (work.ptr(0), info.ptr(0) as *mut c_int);
    // SAFETY: as above, with a workspace of `lwork` elements of the matrices' type and one status
    // word per matrix; the matrices are overwritten by their eigenvectors, on the handle's stream.
    match d {
        DType::F32 => {
            call!("eigh", sol::cusolverDnSsyevjBatched(h, jobz, f, nn, pa as _, nn, pw as _, pk as _, lwork, pi, p, bc))
        }
        DType::F64 => {
            call!("eigh", sol::cusolverDnDsyevjBatched(h, jobz, f, nn, pa as _, nn, pw as _, pk as _, lwork, pi, p, bc))
        }
        DType::C64 => {
            call!("eigh", sol::cusolverDnCheevjBatched(h, jobz, f, nn, pa as _, nn, pw as _, pk as _, lwork, pi, p, bc))
        }
        _ => {
            call!("eigh", sol::cusolverDnZheevjBatched(h, jobz, f, nn, pa as _, nn, pw as _, pk as _, lwork, pi, p, bc))
        }
    }
    wk.done()?;
    check("eigh", &info, count, |z, _| LinAlgKind::NoConvergence { index: z })?;
    Ok(Some((w, Some(row_major(&c, count, n, n, false)?))))
}
