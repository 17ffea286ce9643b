//! LU on the GPU: `solve`, `inv` and the determinant. Stacks of small matrices (whose matrix and
//! right-hand sides fit one block's shared memory) run xp's one-launch kernel; larger ones
//! cuSOLVER's `getrf` + `getrs` per matrix. Singular matrices (an exact zero pivot) are found in
//! the status words read back at the end.
use super::common::{check, col_major, dims, eye, infos, lu_det, per_matrix, row_major, ty, uniform_batch, workspace};
use super::handles::cusolver;
use super::kernels::{small_cfg, small_smem, small_src, Small, SMALL_SMEM_LIMIT};
use crate::runtime::buffer::CudaStorage;
use crate::runtime::device::driver_err;
use crate::runtime::launch::{Family, Key, Param, Source};
use cudarc::cusolver::sys as sol;
use std::ffi::c_void;
use xp_core::linalg::Trans;
use xp_core::{DType, Layout, LinAlgKind, Result};

/// Call a cuSOLVER function, turning its status into xp's error.
macro_rules! call {
    ($what:expr, $e:expr) => {
        // SAFETY: see each call site.
        unsafe { $e }.result().map_err(|e| $crate::linalg::handles::solver_err($what, e))?
    };
}
pub(crate) use call;

/// Whether the small kernel takes an n × n system with `kk` right-hand sides.
pub(crate) fn small_fits(d: DType, n: usize, kk: usize) -> bool {
    n <= 128 && small_smem(d, n, kk) <= SMALL_SMEM_LIMIT
}

/// A stack's first element and (row, column, batch) strides, copied to C order when its batch
/// has no single stride.
pub(crate) fn uniform(x: &CudaStorage, l: &Layout) -> Result<(Option<CudaStorage>, usize, [i64; 3])> {
    let (c, ul, s) = uniform_batch(x, l)?;
    let nd = ul.ndim();
    Ok((c, ul.offset(), [ul.strides()[nd - 2] as i64, ul.strides()[nd - 1] as i64, s]))
}

/// The small kernel's results: X (solve, inverse) or (det, sign, log|det|).
pub(crate) enum SmallOut {
    X(CudaStorage),
    Det([CudaStorage; 3]),
}

/// Run the small kernel `op` over the stack `a` (and right-hand sides `b` for solve).
pub(crate) fn small(op: Small, a: &CudaStorage, al: &Layout, b: Option<(&CudaStorage, &Layout)>) -> Result<SmallOut> {
    let (count, n, _) = dims(al);
    let kk = match (op, b) {
        (Small::Solve, Some((_, bl))) => bl.shape()[bl.ndim() - 1],
        (Small::Inverse, _) => n,
        _ => 0,
    };
    let (ca, aoff, ast) = uniform(a, al)?;
    let a = ca.as_ref().unwrap_or(a);
    let (cb, boff, bst) = match b {
        Some((b, bl)) => {
            let (c, o, s) = uniform(b, bl)?;
            (c.map(|c| (c, true)), o, s)
        }
        None => (None, 0, [0; 3]),
    };
    let bref = cb.as_ref().map(|c| &c.0).or(b.map(|x| x.0)).unwrap_or(a);
    let d = a.dtype;
    let info = infos(a, count)?;
    let (x, sign, logdet) = if op == Small::Det {
        let r = CudaStorage::alloc(&a.dev, d.to_real(), count)?;
        (CudaStorage::alloc(&a.dev, d, count)?, Some(CudaStorage::alloc(&a.dev, d, count)?), Some(r))
    } else {
        (CudaStorage::alloc(&a.dev, d, count * n * kk)?, None, None)
    };
    let name = match op {
        Small::Solve => "solve",
        Small::Inverse => "inv",
        Small::Det => "det",
    };
    let key = Key::new(Family::StackSmall).dtype(d).bits(2, op as u64);
    let k = a.dev.kernel(key, "small", || Source::new(format!("{name}_{}", d.name()), small_src(d, op)))?;
    let smem = small_smem(d, n, kk);
    if smem > 48 * 1024 {
        use cudarc::driver::sys::CUfunction_attribute_enum::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES as MAX;
        k.f.set_attribute(MAX, smem as i32).map_err(driver_err)?;
    }
    let mut bufs: Vec<&CudaStorage> = vec![a, bref, &x, &info];
    bufs.extend(sign.iter().chain(logdet.iter()));
    let w = a.dev.work(&bufs)?;
    let (pa, pb, px, pi) = (a.ptr(aoff), bref.ptr(boff), x.ptr(0), info.ptr(0));
    let (ps, pl) = (sign.as_ref().map_or(0, |v| v.ptr(0)), logdet.as_ref().map_or(0, |v| v.ptr(0)));
    let dimsv = [n as i64, kk as i64, count as i64];
    let args: [&dyn Param; 15] = [
        &pa, &ast[0], &ast[1], &ast[2], &pb, &bst[0], &bst[1], &bst[2], &px, &ps, &pl, &pi, &dimsv[0], &dimsv[1],
        &dimsv[2],
    ];
    // SAFETY: the parameters match the generated kernel; the stacks hold `count` matrices at the
    // given strides (validated layouts), the outputs `count` results each; the dynamic shared
    // memory is what the kernel indexes for this n and kk.
    unsafe { w.launch(&k, small_cfg(count, smem), &args) }?;
    w.done()?;
    if op == Small::Det {
        // A zero pivot only makes the determinant 0; nothing to report.
        return Ok(SmallOut::Det([x, sign.expect("det"), logdet.expect("det")]));
    }
    check(name, &info, count, |b, _| LinAlgKind::Singular { index: b })?;
    Ok(SmallOut::X(x))
}

/// LU factors (column-major, in place of a copy of the stack of m × n matrices), pivots
/// (1-based, int64, min(m, n) per matrix) and status words.
pub(crate) fn getrf(op: &'static str, a: &CudaStorage, al: &Layout) -> Result<(CudaStorage, CudaStorage, CudaStorage)> {
    let (count, m, n) = dims(al);
    let k = m.min(n);
    let lu = col_major(a, al)?;
    let ipiv = CudaStorage::alloc(&a.dev, DType::I64, (k * count).max(1))?;
    let info = infos(a, count)?;
    let (h, p) = cusolver(&a.dev)?;
    let t = ty(a.dtype);
    let (mm, nn) = (m as i64, n as i64);
    let ld = mm.max(1);
    let (mut dbytes, mut hbytes) = (0usize, 0usize);
    // SAFETY: a live handle; the matrix pointer addresses an m × n column-major matrix.
    call!(
        op,
        sol::cusolverDnXgetrf_bufferSize(h, p, mm, nn, t, lu.ptr(0) as *const c_void, ld, t, &mut dbytes, &mut hbytes)
    );
    let work = workspace(a, dbytes)?;
    let mut hwork = vec![0u8; hbytes.max(1)];
    per_matrix(a, &[&lu, &ipiv, &info, &work], count, |z| {
        // SAFETY: matrix z of the copy, its n pivots and status word; workspaces of the queried
        // sizes; everything on the handle's stream (the current one).
        call!(
            op,
            sol::cusolverDnXgetrf(
                h,
                p,
                mm,
                nn,
                t,
                lu.ptr(z * m * n) as *mut c_void,
                ld,
                ipiv.ptr(z * k) as *mut i64,
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
    Ok((lu, ipiv, info))
}

/// `X` with `A X = B` for stacks `a` [.., n, n] and `b` [.., n, k] of one batch shape.
pub(crate) fn solve(a: &CudaStorage, al: &Layout, b: &CudaStorage, bl: &Layout) -> Result<CudaStorage> {
    let (count, n, _) = dims(al);
    let k = bl.shape()[bl.ndim() - 1];
    if small_fits(a.dtype, n, k) {
        return match small(Small::Solve, a, al, Some((b, bl)))? {
            SmallOut::X(x) => Ok(x),
            SmallOut::Det(_) => unreachable!("solve returns X"),
        };
    }
    let (lu, ipiv, info) = getrf("solve", a, al)?;
    let x = col_major(b, bl)?;
    getrs("solve", &lu, &ipiv, &x, n, k, count, Trans::N)?;
    check("solve", &info, count, |b, _| LinAlgKind::Singular { index: b })?;
    row_major(&x, count, n, k, false)
}

/// Overwrite the column-major right-hand sides `x` (n × k per matrix) with the solutions of
/// the system `trans` names.
#[allow(clippy::too_many_arguments)] // the factors, the right-hand sides and their sizes
pub(crate) fn getrs(
    op: &'static str,
    lu: &CudaStorage,
    ipiv: &CudaStorage,
    x: &CudaStorage,
    n: usize,
    k: usize,
    count: usize,
    trans: Trans,
) -> Result<()> {
    let o = match trans {
        Trans::N => sol::cublasOperation_t::CUBLAS_OP_N,
        Trans::T => sol::cublasOperation_t::CUBLAS_OP_T,
        Trans::C => sol::cublasOperation_t::CUBLAS_OP_C,
    };
    let (h, p) = cusolver(&lu.dev)?;
    let t = ty(lu.dtype);
    let scratch = infos(lu, 1)?;
    per_matrix(lu, &[lu, ipiv, x, &scratch], count, |z| {
        // SAFETY: matrix z's factors and pivots from getrf, its right-hand sides (n × k,
        // leading dimension n) and a status word; on the handle's stream.
        call!(
            op,
            sol::cusolverDnXgetrs(
                h,
                p,
                o,
                n as i64,
                k as i64,
                t,
                lu.ptr(z * n * n) as *const c_void,
                n as i64,
                ipiv.ptr(z * n) as *const i64,
                t,
                x.ptr(z * n * k) as *mut c_void,
                n as i64,
                scratch.ptr(0) as *mut i32
            )
        );
        Ok(())
    })
}

/// The inverse of every matrix of the stack.
pub(crate) fn inv(a: &CudaStorage, al: &Layout) -> Result<CudaStorage> {
    let (count, n, _) = dims(al);
    if small_fits(a.dtype, n, n) {
        return match small(Small::Inverse, a, al, None)? {
            SmallOut::X(x) => Ok(x),
            SmallOut::Det(_) => unreachable!("inverse returns X"),
        };
    }
    let (lu, ipiv, info) = getrf("inv", a, al)?;
    let x = eye(a, n, count)?;
    getrs("inv", &lu, &ipiv, &x, n, n, count, Trans::N)?;
    check("inv", &info, count, |b, _| LinAlgKind::Singular { index: b })?;
    row_major(&x, count, n, n, false)
}

/// det, sign and log|det| of every matrix of the stack.
pub(crate) fn det(a: &CudaStorage, al: &Layout) -> Result<[CudaStorage; 3]> {
    let (count, n, _) = dims(al);
    if small_fits(a.dtype, n, 0) {
        return match small(Small::Det, a, al, None)? {
            SmallOut::Det(d) => Ok(d),
            SmallOut::X(_) => unreachable!("det returns three results"),
        };
    }
    let (lu, ipiv, _) = getrf("det", a, al)?;
    lu_det(&lu, &ipiv, n, count)
}
