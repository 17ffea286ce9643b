//! `lobpcg` (SciPy's): Knyazev's locally optimal block preconditioned conjugate gradient for the
//! extreme eigenpairs of a Hermitian operator, from a block of `k` starting vectors. Each step
//! is a Rayleigh–Ritz on `[X, M R, P]` made orthonormal by a QR factorisation (columns that the
//! QR finds dependent are dropped): block products on the device, the small eigenproblem on the
//! host.
//!
//! ```
//! use xp::sparse::linalg::{lobpcg, Lobpcg};
//! let d = xp::arange(1.0, 101.0, 1.0, Some(xp::DType::F64)).unwrap();
//! let a = xp::sparse::diags_array(&[&d], &[0], Some([100, 100]), None, xp::sparse::Format::Csr).unwrap();
//! let x = xp::random::default_rng(0).standard_normal(&[100, 3], xp::DType::F64).unwrap();
//! let r = lobpcg(&a, &x, Lobpcg { tol: Some(1e-8), maxiter: Some(200), ..Default::default() }).unwrap();
//! let w = r.w.to_vec::<f64>().unwrap();
//! assert!(r.converged && (w[0] - 100.0).abs() < 1e-6 && (w[2] - 98.0).abs() < 1e-6);
//! ```
use super::operator::LinearOperator;
use crate::linalg::{eigh, qr};
use crate::Array;
use xp_core::linalg::{QrMode, Uplo};
use xp_core::{DType, Error, Result};

/// SciPy's `lobpcg` arguments (no `B`, no constraints `Y`).
#[derive(Clone, Copy, Default)]
pub struct Lobpcg<'a> {
    /// a preconditioner applied to the residual block (`matmat`)
    pub m: Option<&'a dyn LinearOperator>,
    /// the residual norm at which a pair has converged (default `sqrt(eps) · n`, SciPy's)
    pub tol: Option<f64>,
    /// iterations allowed (default 20, SciPy's)
    pub maxiter: Option<usize>,
    /// the smallest eigenvalues instead of the largest (SciPy's `largest=False`)
    pub smallest: bool,
}

/// The eigenpairs from [`lobpcg`].
#[derive(Clone, Debug)]
pub struct LobpcgResult {
    /// the `k` eigenvalues: descending for the largest, ascending for the smallest (SciPy's)
    pub w: Array,
    /// the eigenvectors as the columns of an `(n, k)` array, orthonormal
    pub v: Array,
    /// iterations made
    pub iterations: usize,
    /// whether every residual norm met `tol` (SciPy warns and answers anyway)
    pub converged: bool,
}

/// `Q` of the reduced QR of `s`, without the columns whose `|R_jj|` is below `1e-10 · max`.
fn orthonormal(s: &Array) -> Result<Array> {
    let f = qr(s, QrMode::Reduced)?;
    let q = f.q.expect("reduced QR has Q");
    let d: Vec<f64> = f.r.diagonal(0, 0, 1)?.abs()?.astype(DType::F64)?.to_vec::<f64>()?;
    let top = d.iter().copied().fold(0.0, f64::max);
    let keep: Vec<i64> = (0..d.len()).filter(|&j| d[j] > 1e-10 * top).map(|j| j as i64).collect();
    if keep.len() == d.len() {
        return Ok(q);
    }
    let idx = Array::from_vec(keep.clone(), [keep.len()])?.to_device(q.device())?;
    q.take(&idx, Some(1))
}

/// `Sᴴ (A S)` as a host matrix, made Hermitian, and its eigenvalues (ascending) and vectors.
fn rayleigh_ritz(s: &Array, as_: &Array) -> Result<(Vec<f64>, Array)> {
    let g = s.conj()?.t()?.matmul(as_)?.to_host()?;
    let g = g.add(&g.conj()?.t()?)?.mul(0.5)?;
    let e = eigh(&g, Uplo::Lower)?;
    Ok((e.w.astype(DType::F64)?.to_vec::<f64>()?, e.v))
}

/// The `k` largest (or, with `smallest`, smallest) eigenvalues and eigenvectors of a Hermitian
/// operator from the starting block `x` of shape `(n, k)` (SciPy's `lobpcg`), `5k < n` advised.
/// Not converging within `maxiter` is reported in [`LobpcgResult::converged`], as SciPy warns.
pub fn lobpcg(a: &dyn LinearOperator, x: &Array, opts: Lobpcg) -> Result<LobpcgResult> {
    let op = "lobpcg";
    a.validate()?;
    let [rows, n] = a.shape();
    if rows != n {
        return Err(Error::LinAlg { op, kind: xp_core::LinAlgKind::NotSquare { rows, cols: n } });
    }
    if x.ndim() != 2 || x.shape()[0] != n || x.shape()[1] == 0 || x.shape()[1] > n {
        return Err(Error::invalid(op, format!("X has shape {:?}; expected ({n}, k) with 0 < k <= {n}", x.shape())));
    }
    if let Some(m) = opts.m
        && m.shape() != [n, n]
    {
        return Err(Error::invalid(op, format!("M has shape {:?}, expected {:?}", m.shape(), [n, n])));
    }
    let k = x.shape()[1];
    let dt = match xp_core::promote_types(a.dtype(), x.dtype()) {
        d @ (DType::F32 | DType::F64 | DType::C64 | DType::C128) => d,
        DType::F16 | DType::BF16 => DType::F32,
        _ => DType::F64,
    };
    let eps = if matches!(dt, DType::F32 | DType::C64) { f32::EPSILON as f64 } else { f64::EPSILON };
    let tol = opts.tol.unwrap_or(eps.sqrt() * n as f64);
    let maxiter = opts.maxiter.unwrap_or(20);
    let device = x.device();
    let pick = |w: &[f64], c: &Array| -> Result<(Vec<f64>, Array)> {
        let m = w.len();
        let idx: Vec<i64> =
            if opts.smallest { (0..k as i64).collect() } else { (0..k).map(|j| (m - 1 - j) as i64).collect() };
        let vals = idx.iter().map(|&j| w[j as usize]).collect();
        let cols = c.take(&Array::from_vec(idx, [k])?, Some(1))?.astype(dt)?.to_device(device)?;
        Ok((vals, cols))
    };
    let mut xb = orthonormal(&x.astype(dt)?)?;
    if xb.shape()[1] < k {
        return Err(Error::invalid(op, "the columns of X are linearly dependent"));
    }
    let mut ax = a.matmat(&xb)?.astype(dt)?;
    let (w0, c0) = rayleigh_ritz(&xb, &ax)?;
    let (mut theta, c) = pick(&w0, &c0)?;
    xb = xb.matmul(&c)?;
    ax = ax.matmul(&c)?;
    let mut p: Option<Array> = None;
    let mut iterations = 0;
    let mut converged = false;
    while iterations < maxiter {
        let lam = Array::from_vec(theta.clone(), [1, k])?.astype(dt)?.to_device(device)?;
        let r = ax.sub(&xb.mul(&lam)?)?;
        let norms = crate::linalg::norm(&r, None, 0)?.astype(DType::F64)?.to_vec::<f64>()?;
        if norms.iter().all(|&v| v <= tol) {
            converged = true;
            break;
        }
        iterations += 1;
        let w = match opts.m {
            Some(m) => m.matmat(&r)?.astype(dt)?,
            None => r,
        };
        // unit columns: the QR's dependence test is then relative to each direction, not to
        // the residual's (vanishing) size
        let unit = |b: &Array| -> Result<Array> {
            let nrm = crate::linalg::norm(b, None, 0)?;
            let safe = nrm.add(&nrm.eq(0.0)?.astype(nrm.dtype())?)?;
            b.div(&safe.reshape([1, -1])?.astype(dt)?)
        };
        let w = unit(&w)?;
        let pu = p.as_ref().map(unit).transpose()?;
        let mut blocks = vec![&xb, &w];
        if let Some(p) = &pu {
            blocks.push(p);
        }
        let s = orthonormal(&crate::concatenate(&blocks, 1)?)?;
        let as_ = a.matmat(&s)?.astype(dt)?;
        let (ws, cs) = rayleigh_ritz(&s, &as_)?;
        let (t, c) = pick(&ws, &cs)?;
        theta = t;
        let xn = s.matmul(&c)?;
        // P: the new vectors' part outside the old X (the columns of S past the first k span
        // W and P; the first k span X)
        let rest = crate::s![k as isize.., ..];
        p = Some(s.slice(crate::s![.., k as isize..])?.matmul(&c.slice(rest)?)?);
        ax = as_.matmul(&c)?;
        xb = xn;
    }
    if !converged {
        let lam = Array::from_vec(theta.clone(), [1, k])?.astype(dt)?.to_device(device)?;
        let norms = crate::linalg::norm(&ax.sub(&xb.mul(&lam)?)?, None, 0)?.astype(DType::F64)?.to_vec::<f64>()?;
        converged = norms.iter().all(|&v| v <= tol);
    }
    let real = if matches!(dt, DType::F32 | DType::C64) { DType::F32 } else { DType::F64 };
    Ok(LobpcgResult { w: Array::from_vec(theta, [k])?.astype(real)?.to_device(device)?, v: xb, iterations, converged })
}
