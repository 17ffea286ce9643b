//! `eigsh` and `eigs` (SciPy's ARPACK drivers) by a thick-restarted Krylov space
//! ([`super::arnoldi`]): Lanczos with full reorthogonalisation for a Hermitian operator,
//! Arnoldi in complex arithmetic otherwise; shift-invert through `splu` of `A − σI`.
//!
//! ```
//! use xp::sparse::linalg::{eigsh, EigOptions, Which};
//! // the 1-D Laplacian of order 100: eigenvalues 2 − 2 cos(jπ/101)
//! let d = |v: f64| xp::Array::from_vec(vec![v], &[1]).unwrap();
//! let t = xp::sparse::diags_array(&[&d(-1.0), &d(2.0), &d(-1.0)], &[-1, 0, 1], Some([100, 100]), None, xp::sparse::Format::Csr).unwrap();
//! let r = eigsh(&t, 3, EigOptions { which: Which::SA, ..Default::default() }).unwrap();
//! let w = r.w.to_vec::<f64>().unwrap();
//! for (j, w) in w.iter().enumerate() {
//!     let exact = 2.0 - 2.0 * ((j + 1) as f64 * std::f64::consts::PI / 101.0).cos();
//!     assert!((w - exact).abs() < 1e-10);
//! }
//! ```
use super::arnoldi::{random_vector, Space};
use super::direct::{splu, SuperLu, Trans};
use super::operator::LinearOperator;
use super::system::Vecs;
use crate::linalg::{eig, eigh, qr};
use crate::Array;
use std::cmp::Ordering;
use xp_core::linalg::{QrMode, Uplo};
use xp_core::{Complex64 as C, DType, Device, Error, LinAlgKind, Result};

/// Which eigenvalues (SciPy's `which`): largest or smallest magnitude, largest or smallest
/// algebraic (`eigsh`), both ends (`eigsh`), largest or smallest real or imaginary part (`eigs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Which {
    /// largest magnitude
    #[default]
    LM,
    /// smallest magnitude
    SM,
    /// largest algebraic (`eigsh`)
    LA,
    /// smallest algebraic (`eigsh`)
    SA,
    /// half from each end, one more from the high end when `k` is odd (`eigsh`)
    BE,
    /// largest real part (`eigs`)
    LR,
    /// smallest real part (`eigs`)
    SR,
    /// largest imaginary part (`eigs`)
    LI,
    /// smallest imaginary part (`eigs`)
    SI,
}

/// SciPy's ARPACK arguments of `eigsh`, `eigs` and `svds`.
#[derive(Clone, Copy, Default)]
pub struct EigOptions<'a> {
    /// which eigenvalues (of the shifted-inverted operator when `sigma` is given)
    pub which: Which,
    /// shift-invert about `sigma`: the eigenvalues nearest `sigma` (`which` LM)
    pub sigma: Option<f64>,
    /// the starting vector (default: a pseudo-random one, the same on every device)
    pub v0: Option<&'a Array>,
    /// the size of the Krylov space (default `min(n, max(2k + 1, 20))`)
    pub ncv: Option<usize>,
    /// restarts allowed (default `10 n`)
    pub maxiter: Option<usize>,
    /// relative accuracy of the eigenvalues (0: the working dtype's machine precision)
    pub tol: f64,
    /// `(A − σI)⁻¹` as an operator (SciPy's `OPinv`), instead of factoring `A − σI`
    pub opinv: Option<&'a dyn LinearOperator>,
}

impl std::fmt::Debug for EigOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EigOptions")
            .field("which", &self.which)
            .field("sigma", &self.sigma)
            .field("ncv", &self.ncv)
            .field("maxiter", &self.maxiter)
            .field("tol", &self.tol)
            .finish_non_exhaustive()
    }
}

/// Eigenvalues and eigenvectors from [`eigsh`] or [`eigs`].
#[derive(Clone, Debug)]
pub struct EigResult {
    /// the `k` eigenvalues: real and ascending (`eigsh`), complex, most wanted first (`eigs`)
    pub w: Array,
    /// the eigenvectors as the columns of an `(n, k)` array, unit norm (orthonormal for `eigsh`)
    pub v: Array,
    /// restarts made
    pub restarts: usize,
    /// operator applications made
    pub matvecs: usize,
}

/// The eigen-decomposition of the `m × m` projection: values and the eigenvectors as columns
/// (`m × m` row-major).
fn small(h: &[C], m: usize, hermitian: bool) -> Result<(Vec<C>, Vec<C>)> {
    if hermitian {
        let re: Vec<f64> = h.iter().map(|c| c.re).collect();
        let e = eigh(&Array::from_vec(re, [m, m])?, Uplo::Lower)?;
        let w = e.w.to_vec::<f64>()?.into_iter().map(|x| C::new(x, 0.0)).collect();
        let v = e.v.to_vec::<f64>()?.into_iter().map(|x| C::new(x, 0.0)).collect();
        Ok((w, v))
    } else {
        let e = eig(&Array::from_vec(h.to_vec(), [m, m])?)?;
        Ok((e.w.astype(DType::C128)?.to_vec::<C>()?, e.v.astype(DType::C128)?.to_vec::<C>()?))
    }
}

/// The indices of `theta`, most wanted first. For a real operator `LI`/`SI` rank by `|Im|`
/// (ARPACK's real driver: a conjugate pair is wanted together).
fn wanted(theta: &[C], which: Which, k: usize, real: bool) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..theta.len()).collect();
    let key = |i: usize| -> f64 {
        let t = theta[i];
        match which {
            Which::LM => -t.norm(),
            Which::SM => t.norm(),
            Which::LA | Which::LR | Which::BE => -t.re,
            Which::SA | Which::SR => t.re,
            Which::LI if real => -t.im.abs(),
            Which::SI if real => t.im.abs(),
            Which::LI => -t.im,
            Which::SI => t.im,
        }
    };
    idx.sort_by(|&a, &b| key(a).partial_cmp(&key(b)).unwrap_or(Ordering::Equal));
    if which == Which::BE {
        // alternate: high end first, then low end (k odd: one more from the high end)
        let (mut lo, mut hi) = (idx.len(), 0usize);
        let mut out = Vec::with_capacity(idx.len());
        let mut take_hi = true;
        while hi < lo {
            if take_hi || out.len() >= k {
                out.push(idx[hi]);
                hi += 1;
            } else {
                lo -= 1;
                out.push(idx[lo]);
            }
            take_hi = !take_hi;
        }
        // past the k wanted, order the rest nearest the ends first: already alternating
        return out;
    }
    idx
}

/// The `k` wanted Ritz values and vectors (columns of `s`, `m × m`) of `op`, most wanted first,
/// with the restarts and operator applications made.
pub(crate) struct Ritz {
    pub theta: Vec<C>,
    /// the Ritz vectors as rows `(k, n)`
    pub rows: Array,
    pub restarts: usize,
    pub matvecs: usize,
}

#[allow(clippy::too_many_arguments)]
pub(crate) fn ritz(
    op: &dyn Fn(&Array) -> Result<Array>,
    n: usize,
    v: Vecs,
    device: Device,
    k: usize,
    opts: &EigOptions,
    hermitian: bool,
    real: bool,
    v0: Option<Array>,
    name: &'static str,
) -> Result<Ritz> {
    let m = opts.ncv.unwrap_or_else(|| n.min((2 * k + 1).max(20))).min(n);
    if m <= k {
        return Err(Error::InvalidParameter {
            op: name,
            param: "ncv",
            requirement: format!("ncv = {m} must be greater than k = {k} and at most n = {n}"),
        });
    }
    let v0 = match v0 {
        Some(x) => x,
        None => random_vector(n, 1, v, device)?,
    };
    let mut space = Space::new(op, v0, m, v)?;
    let tol = if opts.tol > 0.0 { opts.tol } else { v.eps() };
    let eps23 = v.eps().powf(2.0 / 3.0);
    let maxiter = opts.maxiter.unwrap_or(10 * n).max(1);
    let mut prev: Option<Vec<C>> = None;
    // converged sets found the same from new random directions in a row
    let mut confirmed = 0;
    for restart in 0..maxiter {
        space.extend(m)?;
        let j = space.len();
        let (theta, s) = small(&space.projection(hermitian), j, hermitian)?;
        let order = wanted(&theta, opts.which, k, real);
        let (fnorm, r) = space.residual()?;
        let scale = theta.iter().map(|t| t.norm()).fold(0.0, f64::max);
        let res = |i: usize| fnorm * (0..j).map(|p| r[p] * s[p * j + i]).sum::<C>().norm();
        // SciPy's (ARPACK's) test, `tol · max(eps^(2/3), |θ|)` made relative to the spectrum's
        // scale, and never below the estimate's own rounding floor (`eps` in the eigenvectors of
        // the projection times `‖f‖ ≈ ‖A‖`), which ARPACK's tridiagonal QR lets it pass
        let floor = 16.0 * v.eps() * scale;
        let converged = order[..k].iter().all(|&i| res(i) <= (tol * theta[i].norm().max(eps23 * scale)).max(floor));
        let fresh = if converged || j == n {
            let mut cur: Vec<C> = order[..k].iter().map(|&i| theta[i]).collect();
            cur.sort_by(|a, b| (a.re, a.im).partial_cmp(&(b.re, b.im)).unwrap_or(Ordering::Equal));
            // the same set: a copy of a multiple eigenvalue found by the new direction would
            // displace the least wanted value by more than this
            let same = prev.as_ref().is_some_and(|p| {
                p.iter().zip(&cur).all(|(a, b)| (a - b).norm() <= eps23 * scale.max(f64::MIN_POSITIVE))
            });
            confirmed = if same { confirmed + 1 } else { 0 };
            if j == n || confirmed >= 1 {
                let sel: Vec<C> =
                    (0..j).flat_map(|p| order[..k].iter().map(move |&i| (p, i))).map(|(p, i)| s[p * j + i]).collect();
                let rows = space.vectors(&sel, k)?;
                let theta = order[..k].iter().map(|&i| theta[i]).collect();
                return Ok(Ritz { theta, rows, restarts: restart, matvecs: space.matvecs });
            }
            // converged: check from a new direction for missing copies of multiple eigenvalues
            // and for wanted eigenvalues the restarts filtered out
            prev = Some(cur);
            true
        } else {
            false
        };
        let l = (k + (j - k) / 2).clamp(k, j - 1);
        let mut w: Vec<C> =
            (0..j).flat_map(|p| order[..l].iter().map(move |&i| (p, i))).map(|(p, i)| s[p * j + i]).collect();
        if !hermitian {
            let q = qr(&Array::from_vec(w, [j, l])?, QrMode::Reduced)?.q.expect("reduced QR has Q");
            w = q.astype(DType::C128)?.to_vec::<C>()?;
        }
        space.restart(&w, l, hermitian, fresh)?;
    }
    Err(Error::LinAlg { op: name, kind: LinAlgKind::NoConvergence { index: 0 } })
}

/// The working dtype of an eigenproblem on `dt`: float32 stays, complex64 stays, the rest
/// float64 or complex128.
fn working(dt: DType) -> DType {
    match dt {
        DType::F32 | DType::F64 | DType::C64 | DType::C128 => dt,
        DType::F16 | DType::BF16 => DType::F32,
        _ => DType::F64,
    }
}

/// The order of a square operator.
fn order(a: &dyn LinearOperator, op: &'static str) -> Result<usize> {
    a.validate()?;
    let [rows, cols] = a.shape();
    if rows != cols {
        return Err(Error::LinAlg { op, kind: LinAlgKind::NotSquare { rows, cols } });
    }
    Ok(rows)
}

fn check_k(k: usize, n: usize, limit: usize, op: &'static str) -> Result<()> {
    if k == 0 || k >= limit {
        return Err(Error::InvalidParameter {
            op,
            param: "k",
            requirement: format!("k = {k} must be between 1 and {} for an operator of order {n}", limit - 1),
        });
    }
    Ok(())
}

/// The shift-invert solve `(A − σI)⁻¹`: SciPy's `OPinv` or `splu` of `A − σI`.
enum Inverse<'a> {
    Given(&'a dyn LinearOperator),
    Lu(Box<SuperLu>),
}

fn inverse<'a>(
    a: &dyn LinearOperator,
    sigma: f64,
    opts: &EigOptions<'a>,
    n: usize,
    dt: DType,
    op: &'static str,
) -> Result<Inverse<'a>> {
    if let Some(m) = opts.opinv {
        if m.shape() != [n, n] {
            return Err(Error::invalid(op, format!("OPinv has shape {:?}, expected {:?}", m.shape(), [n, n])));
        }
        return Ok(Inverse::Given(m));
    }
    let Some(csr) = a.to_csr() else {
        return Err(Error::invalid(op, "shift-invert of a matrix-free operator needs `opinv`, (A - sigma I)^-1"));
    };
    let csr = csr?;
    let eye = crate::sparse::identity(n, dt, crate::sparse::Format::Csr, csr.device())?.mul_scalar(-sigma)?;
    let shifted = crate::sparse::Sparse::add(&csr, &eye)?;
    Ok(Inverse::Lu(Box::new(splu(&shifted).map_err(|e| e.in_op(op))?)))
}

impl Inverse<'_> {
    fn apply(&self, x: &Array) -> Result<Array> {
        match self {
            Inverse::Given(m) => m.matvec(x),
            Inverse::Lu(lu) => lu.solve(x, Trans::N),
        }
    }
}

/// `k` eigenvalues and eigenvectors of a real symmetric or complex Hermitian operator (SciPy's
/// `eigsh`), by Lanczos with full reorthogonalisation and thick restarts, on the operator's
/// device. `which`: LM, SM, LA, SA or BE (of `1/(λ − σ)` in shift-invert mode, where `a` must
/// hold a matrix to factor, or `opinv` be given). A converged space is checked from a new
/// random direction for copies of a multiple eigenvalue the Krylov space cannot see (a Krylov
/// space holds one vector of each eigenspace). The eigenvalues come ascending, the
/// eigenvectors orthonormal to about `k · n · eps`; non-convergence within `maxiter` restarts
/// is `Err(LinAlg { NoConvergence })`.
pub fn eigsh(a: &dyn LinearOperator, k: usize, opts: EigOptions) -> Result<EigResult> {
    let op = "eigsh";
    let n = order(a, op)?;
    check_k(k, n, n, op)?;
    if matches!(opts.which, Which::LR | Which::SR | Which::LI | Which::SI) {
        return Err(Error::InvalidParameter {
            op,
            param: "which",
            requirement: format!("{:?} is for eigs; eigsh takes LM, SM, LA, SA or BE", opts.which),
        });
    }
    let dt = working(a.dtype());
    if opts.which == Which::BE && dt.is_complex() {
        return Err(Error::InvalidParameter {
            op,
            param: "which",
            requirement: "BE cannot be used with a complex operator (as SciPy's)".into(),
        });
    }
    let v = Vecs { dtype: dt };
    let v0 = opts.v0.map(|x| x.astype(dt)).transpose()?;
    let device = v0.as_ref().map_or_else(|| probe_device(a, n, dt), |x| Ok(x.device()))?;
    // the smallest magnitudes of a matrix: as the largest of A⁻¹ (shift-invert about 0, which
    // SciPy's documentation advises; plain Lanczos converges slowly there and, restarted with
    // Ritz vectors of interior eigenvalues, can lose them)
    if opts.which == Which::SM && opts.sigma.is_none() && opts.opinv.is_none() && a.to_csr().is_some() {
        match eigsh(a, k, EigOptions { sigma: Some(0.0), which: Which::LM, ..opts }) {
            Err(Error::LinAlg { kind: LinAlgKind::SingularColumn { .. }, .. }) => {}
            r => return r,
        }
    }
    let r = match opts.sigma {
        None => ritz(&|x| a.matvec(x), n, v, device, k, &opts, true, false, v0, op)?,
        Some(sigma) => {
            let inv = inverse(a, sigma, &opts, n, dt, op)?;
            let mut r = ritz(&|x| inv.apply(x), n, v, device, k, &opts, true, false, v0, op)?;
            r.theta.iter_mut().for_each(|t| *t = C::new(sigma + 1.0 / t.re, 0.0));
            r
        }
    };
    finish(r, true, dt)
}

/// `k` eigenvalues and eigenvectors of a square operator (SciPy's `eigs`), by Arnoldi with
/// thick restarts in complex arithmetic. `which`: LM, SM, LR, SR, LI or SI (of `1/(λ − σ)`
/// with `sigma`; for a real operator LI and SI rank by `|Im λ|`, as ARPACK's real driver, so
/// that a conjugate pair is wanted together). The eigenvalues are complex, most wanted first; the eigenvectors unit norm.
pub fn eigs(a: &dyn LinearOperator, k: usize, opts: EigOptions) -> Result<EigResult> {
    let op = "eigs";
    let n = order(a, op)?;
    check_k(k, n, n.saturating_sub(1), op)?;
    if matches!(opts.which, Which::LA | Which::SA | Which::BE) {
        return Err(Error::InvalidParameter {
            op,
            param: "which",
            requirement: format!("{:?} is for eigsh; eigs takes LM, SM, LR, SR, LI or SI", opts.which),
        });
    }
    let dt = match working(a.dtype()) {
        DType::F32 | DType::C64 => DType::C64,
        _ => DType::C128,
    };
    let real = !a.dtype().is_complex();
    let v = Vecs { dtype: dt };
    let v0 = opts.v0.map(|x| x.astype(dt)).transpose()?;
    let device = v0.as_ref().map_or_else(|| probe_device(a, n, dt), |x| Ok(x.device()))?;
    if opts.which == Which::SM && opts.sigma.is_none() && opts.opinv.is_none() && a.to_csr().is_some() {
        match eigs(a, k, EigOptions { sigma: Some(0.0), which: Which::LM, ..opts }) {
            Err(Error::LinAlg { kind: LinAlgKind::SingularColumn { .. }, .. }) => {}
            r => return r,
        }
    }
    let r = match opts.sigma {
        None => ritz(&|x| a.matvec(x), n, v, device, k, &opts, false, real, v0, op)?,
        Some(sigma) => {
            let inv = inverse(a, sigma, &opts, n, dt, op)?;
            let mut r = ritz(&|x| inv.apply(x), n, v, device, k, &opts, false, real, v0, op)?;
            r.theta.iter_mut().for_each(|t| *t = C::new(sigma, 0.0) + 1.0 / *t);
            r
        }
    };
    finish(r, false, dt)
}

/// The device the operator answers on: that of its product with a zero vector on the host
/// moved where the operator's data are (a sparse or dense array) or the host.
fn probe_device(a: &dyn LinearOperator, n: usize, dt: DType) -> Result<Device> {
    match a.to_csr() {
        Some(c) => Ok(c?.device()),
        None => Ok(a.matvec(&crate::zeros([n], dt)?)?.device()),
    }
}

fn finish(r: Ritz, hermitian: bool, dt: DType) -> Result<EigResult> {
    let k = r.theta.len();
    let mut idx: Vec<usize> = (0..k).collect();
    if hermitian {
        idx.sort_by(|&a, &b| r.theta[a].re.partial_cmp(&r.theta[b].re).unwrap_or(Ordering::Equal));
    }
    let perm = Array::from_vec(idx.iter().map(|&i| i as i64).collect::<Vec<_>>(), [k])?.to_device(r.rows.device())?;
    let v = r.rows.take(&perm, Some(0))?.t()?.copy()?;
    let w = if hermitian {
        let real = if dt == DType::F32 || dt == DType::C64 { DType::F32 } else { DType::F64 };
        Array::from_vec(idx.iter().map(|&i| r.theta[i].re).collect::<Vec<f64>>(), [k])?.astype(real)?
    } else {
        Array::from_vec(idx.iter().map(|&i| r.theta[i]).collect::<Vec<C>>(), [k])?.astype(dt)?
    };
    Ok(EigResult { w: w.to_device(v.device())?, v, restarts: r.restarts, matvecs: r.matvecs })
}
