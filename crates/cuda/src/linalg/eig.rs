//! The general eigensolver on the GPU: cuSOLVER's `Xgeev` (CUDA 12.6 and later) on a complex
//! column-major copy (real input is promoted, so that eigenvalues and eigenvectors come back in
//! one complex layout), right eigenvectors scaled to unit norm with their largest component real
//! (LAPACK's convention, which makes the vectors of real eigenvalues of real matrices real).
use super::common::{check, col_major_as, dims, infos, per_matrix, row_major, ty, unit_columns, workspace};
use super::handles::cusolver;
use super::lu::call;
use crate::runtime::buffer::CudaStorage;
use cudarc::cusolver::sys as sol;
use std::ffi::c_void;
use xp_core::{Layout, LinAlgKind, Result};

/// Complex eigenvalues and, if asked, unit-norm right eigenvectors (columns) of every matrix.
pub(crate) fn eig(a: &CudaStorage, al: &Layout, vectors: bool) -> Result<(CudaStorage, Option<CudaStorage>)> {
    let (count, n, _) = dims(al);
    let cd = if a.dtype.is_complex() { a.dtype } else { a.dtype.to_complex() };
    let c = col_major_as(a, al, cd)?;
    let w = CudaStorage::alloc(&a.dev, cd, n * count)?;
    let vr = if vectors { Some(CudaStorage::alloc(&a.dev, cd, n * n * count)?) } else { None };
    let info = infos(a, count)?;
    let (h, p) = cusolver(&a.dev)?;
    let (t, nn) = (ty(cd), n as i64);
    let none = sol::cusolverEigMode_t::CUSOLVER_EIG_MODE_NOVECTOR;
    let jobvr = if vectors { sol::cusolverEigMode_t::CUSOLVER_EIG_MODE_VECTOR } else { none };
    let pv = vr.as_ref().map_or(0, |v| v.ptr(0));
    let ldvr = if vectors { nn } else { 1 };
    let (mut dbytes, mut hbytes) = (0usize, 0usize);
    // SAFETY: a live handle; an n × n column-major complex matrix, n eigenvalues, n × n vectors.
    call!(
        "eig",
        sol::cusolverDnXgeev_bufferSize(
            h,
            p,
            none,
            jobvr,
            nn,
            t,
            c.ptr(0) as *const c_void,
            nn,
            t,
            w.ptr(0) as *const c_void,
            t,
            std::ptr::null(),
            1,
            t,
            pv as *const c_void,
            ldvr,
            t,
            &mut dbytes,
            &mut hbytes
        )
    );
    let work = workspace(a, dbytes)?;
    let mut hwork = vec![0u8; hbytes.max(1)];
    let mut bufs: Vec<&CudaStorage> = vec![&c, &w, &info, &work];
    bufs.extend(vr.iter());
    per_matrix(a, &bufs, count, |z| {
        let vz = if vectors { pv + (z * n * n * cd.size()) as u64 } else { 0 };
        // SAFETY: matrix z of the copy (overwritten), its n eigenvalues, n × n vectors and status
        // word; workspaces of the queried sizes; on the handle's stream.
        call!(
            "eig",
            sol::cusolverDnXgeev(
                h,
                p,
                none,
                jobvr,
                nn,
                t,
                c.ptr(z * n * n) as *mut c_void,
                nn,
                t,
                w.ptr(z * n) as *mut c_void,
                t,
                std::ptr::null_mut(),
                1,
                t,
                vz as *mut c_void,
                ldvr,
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
    // The status read waits for the solver, so the host workspace is no longer in use after it.
    check("eig", &info, count, |b, _| LinAlgKind::NoConvergence { index: b })?;
    drop(hwork);
    let v = match vr {
        Some(mut v) => {
            unit_columns(&mut v, n, count)?;
            Some(row_major(&v, count, n, n, false)?)
        }
        None => None,
    };
    Ok((w, v))
}
