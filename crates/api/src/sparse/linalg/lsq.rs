//! Least squares by Golub–Kahan bidiagonalisation: `lsqr` (Paige and Saunders) and `lsmr`
//! (Fong and Saunders), as SciPy 1.17 writes them, for any `m × n` operator with `rmatvec`.
use super::system::Vecs;
use super::LinearOperator;
use crate::Array;
use xp_core::{DType, Error, Result};

/// The arguments of [`lsqr`] and [`lsmr`] (SciPy's, with its defaults).
#[derive(Clone, Debug)]
pub struct Lsq<'a> {
    /// Tikhonov damping: minimise `‖A x − b‖² + damp² ‖x‖²`
    pub damp: f64,
    /// stopping tolerance on `‖Aᴴ r‖ / (‖A‖ ‖r‖)` (and on `‖r‖` with `btol`)
    pub atol: f64,
    /// stopping tolerance on `‖r‖ / ‖b‖`
    pub btol: f64,
    /// stop when the estimate of `cond(A)` exceeds this (0: no limit)
    pub conlim: f64,
    /// the iteration limit (`2 n` for `lsqr`, `min(m, n)` for `lsmr` by default)
    pub iter_lim: Option<usize>,
    /// the starting guess
    pub x0: Option<&'a Array>,
    /// `lsqr` only: estimate the diagonal of `(AᴴA + damp² I)⁻¹` into `var`
    pub calc_var: bool,
}

impl Default for Lsq<'_> {
    fn default() -> Self {
        Lsq { damp: 0.0, atol: 1e-6, btol: 1e-6, conlim: 1e8, iter_lim: None, x0: None, calc_var: false }
    }
}

/// Why a least-squares iteration stopped (SciPy's `istop` 0–7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LsqStop {
    /// `x = 0` (or `x0`) is the exact solution (0)
    Exact,
    /// `A x − b` is small enough, given `atol` and `btol`: a compatible system (1)
    Compatible,
    /// the least-squares solution is good enough, given `atol` (2)
    LeastSquares,
    /// the estimate of `cond(A)` exceeded `conlim` (3)
    ConditionLimit,
    /// `A x − b` is small enough for this machine (4)
    CompatibleMachine,
    /// the least-squares solution is good enough for this machine (5)
    LeastSquaresMachine,
    /// `cond(A)` seems too large for this machine (6)
    ConditionMachine,
    /// the iteration limit was reached (7)
    IterationLimit,
}

impl LsqStop {
    fn from_code(c: u8) -> LsqStop {
        match c {
            0 => LsqStop::Exact,
            1 => LsqStop::Compatible,
            2 => LsqStop::LeastSquares,
            3 => LsqStop::ConditionLimit,
            4 => LsqStop::CompatibleMachine,
            5 => LsqStop::LeastSquaresMachine,
            6 => LsqStop::ConditionMachine,
            _ => LsqStop::IterationLimit,
        }
    }
    /// SciPy's `istop`.
    pub fn code(self) -> u8 {
        self as u8
    }
}

/// What [`lsqr`] and [`lsmr`] return (SciPy's tuples as named fields).
#[derive(Clone, Debug)]
pub struct LsqSolution {
    /// the solution
    pub x: Array,
    /// why the iteration stopped
    pub istop: LsqStop,
    /// iterations taken
    pub itn: usize,
    /// `‖b − A x‖` (lsqr's `r1norm`; lsmr's `normr`, which includes the damping term)
    pub normr: f64,
    /// lsqr's `r2norm`: `√(‖r‖² + damp² ‖x‖²)` (lsmr: the same as `normr`)
    pub r2norm: f64,
    /// `‖Aᴴ r − damp² x‖`
    pub normar: f64,
    /// the estimate of the Frobenius norm of `[A; damp I]`
    pub norm_a: f64,
    /// the estimate of its condition number
    pub cond_a: f64,
    /// `‖x‖`
    pub normx: f64,
    /// lsqr with `calc_var`: the estimate of `diag((AᴴA + damp² I)⁻¹)`
    pub var: Option<Array>,
}

/// SciPy's `_sym_ortho`: a stable Givens rotation `(c, s, r)` of two reals.
fn sym_ortho(a: f64, b: f64) -> (f64, f64, f64) {
    let sign = |x: f64| {
        if x > 0.0 {
            1.0
        } else if x < 0.0 {
            -1.0
        } else {
            0.0
        }
    };
    if b == 0.0 {
        (sign(a), 0.0, a.abs())
    } else if a == 0.0 {
        (0.0, sign(b), b.abs())
    } else if b.abs() > a.abs() {
        let tau = a / b;
        let s = sign(b) / (1.0 + tau * tau).sqrt();
        (s * tau, s, b / s)
    } else {
        let tau = b / a;
        let c = sign(a) / (1.0 + tau * tau).sqrt();
        (c, c * tau, a / c)
    }
}

/// The start shared by both: checks, the working dtype (float64 or complex128, as SciPy's
/// `x = zeros(n)` makes it), `u = b − A x0`, `β = ‖u‖`, `v = Aᴴ u / α`.
struct Start {
    v: Vecs,
    x: Array,
    u: Array,
    vv: Array,
    alpha: f64,
    beta: f64,
    bnorm: f64,
}

fn start(op: &'static str, a: &dyn LinearOperator, b: &Array, opts: &Lsq) -> Result<Start> {
    a.validate().map_err(|e| e.in_op(op))?;
    let [m, n] = a.shape();
    if b.size() != m || !(b.ndim() == 1 || (b.ndim() == 2 && b.shape().contains(&1))) {
        return Err(Error::invalid(op, format!("shapes of A {:?} and b {:?} are incompatible", [m, n], b.shape())));
    }
    for (name, val) in [("damp", opts.damp), ("atol", opts.atol), ("btol", opts.btol), ("conlim", opts.conlim)] {
        if val.is_nan() || val < 0.0 {
            return Err(Error::InvalidParameter {
                op,
                param: name,
                requirement: "must be a non-negative number".into(),
            });
        }
    }
    let complex = a.dtype().is_complex() || b.dtype().is_complex();
    let v = Vecs { dtype: if complex { DType::C128 } else { DType::F64 } };
    let b = b.reshape([m])?.astype(v.dtype)?;
    let bnorm = v.norm(&b)?;
    let (x, u) = match opts.x0 {
        Some(x0) => {
            if x0.size() != n {
                return Err(Error::invalid(
                    op,
                    format!("shapes of A {:?} and x0 {:?} are incompatible", [m, n], x0.shape()),
                ));
            }
            let x = x0.reshape([n])?.astype(v.dtype)?.copy()?;
            let u = b.sub(&v.cast(a.matvec(&x)?)?)?;
            (x, u)
        }
        None => (crate::creation::full_on(b.device(), &[n], 0, v.dtype)?, b),
    };
    let beta = v.norm(&u)?;
    let (u, vv, alpha) = if beta > 0.0 {
        let u = v.scale((1.0 / beta).into(), &u)?;
        let vv = v.cast(a.rmatvec(&u)?)?;
        let alpha = v.norm(&vv)?;
        (u, vv, alpha)
    } else {
        (u, x.zeros_like()?, 0.0)
    };
    let vv = if alpha > 0.0 { v.scale((1.0 / alpha).into(), &vv)? } else { vv };
    Ok(Start { v, x, u, vv, alpha, beta, bnorm })
}

/// The quantities the stopping tests look at (SciPy's names).
struct Tests {
    test1: f64,
    test2: f64,
    test3: f64,
    t1: f64,
    rtol: f64,
}

/// The stopping tests both methods share, in SciPy's order (the last that holds wins).
fn stop_code(itn: usize, iter_lim: usize, t: Tests, o: &Lsq) -> u8 {
    let Tests { test1, test2, test3, t1, rtol } = t;
    let ctol = if o.conlim > 0.0 { 1.0 / o.conlim } else { 0.0 };
    let mut istop = 0;
    if itn >= iter_lim {
        istop = 7;
    }
    if 1.0 + test3 <= 1.0 {
        istop = 6;
    }
    if 1.0 + test2 <= 1.0 {
        istop = 5;
    }
    if 1.0 + t1 <= 1.0 {
        istop = 4;
    }
    if test3 <= ctol {
        istop = 3;
    }
    if test2 <= o.atol {
        istop = 2;
    }
    if test1 <= rtol {
        istop = 1;
    }
    istop
}

/// The least-squares solution of `A x = b` (or the damped problem) by LSQR (SciPy's `lsqr`):
/// any `m × n` operator with `rmatvec`, square or not, consistent or not.
///
/// ```
/// use xp::sparse::linalg::{lsqr, Lsq};
/// // an overdetermined system: fit a line through three points
/// let a = xp::Array::from_vec(vec![1.0f64, 0.0, 1.0, 1.0, 1.0, 2.0], &[3, 2]).unwrap();
/// let b = xp::Array::from_vec(vec![1.0f64, 2.0, 2.0], &[3]).unwrap();
/// let sol = lsqr(&a, &b, Lsq { atol: 1e-12, btol: 1e-12, ..Default::default() }).unwrap();
/// let x = sol.x.to_vec::<f64>().unwrap();
/// assert!((x[0] - 7.0 / 6.0).abs() < 1e-9 && (x[1] - 0.5).abs() < 1e-9);
/// ```
pub fn lsqr(a: &dyn LinearOperator, b: &Array, opts: Lsq) -> Result<LsqSolution> {
    let Start { v, mut x, mut u, vv, mut alpha, mut beta, bnorm } = start("lsqr", a, b, &opts)?;
    let mut vv = vv;
    let n = a.shape()[1];
    let iter_lim = opts.iter_lim.unwrap_or(2 * n);
    let eps = f64::EPSILON;
    let (damp, dampsq) = (opts.damp, opts.damp * opts.damp);
    let (mut anorm, mut acond, mut ddnorm, mut res2, mut xnorm, mut xxnorm, mut z) =
        (0.0f64, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
    let (mut cs2, mut sn2) = (-1.0f64, 0.0f64);
    let mut var = if opts.calc_var { Some(crate::creation::full_on(x.device(), &[n], 0, DType::F64)?) } else { None };
    let mut w = vv.clone();
    let (mut rhobar, mut phibar) = (alpha, beta);
    let mut rnorm = beta;
    let (mut r1norm, mut r2norm) = (rnorm, rnorm);
    let mut arnorm = alpha * beta;
    let done = |x, istop: u8, itn, r1norm, r2norm, arnorm, anorm, acond, xnorm, var| {
        Ok(LsqSolution {
            x,
            istop: LsqStop::from_code(istop),
            itn,
            normr: r1norm,
            r2norm,
            normar: arnorm,
            norm_a: anorm,
            cond_a: acond,
            normx: xnorm,
            var,
        })
    };
    if arnorm == 0.0 {
        return done(x, 0, 0, r1norm, r2norm, arnorm, anorm, acond, xnorm, var);
    }
    let mut itn = 0;
    let mut istop = 0;
    while itn < iter_lim {
        itn += 1;
        u = v.axpy((-alpha).into(), &u, &v.cast(a.matvec(&vv)?)?)?;
        beta = v.norm(&u)?;
        if beta > 0.0 {
            u = v.scale((1.0 / beta).into(), &u)?;
            anorm = (anorm * anorm + alpha * alpha + beta * beta + dampsq).sqrt();
            vv = v.axpy((-beta).into(), &vv, &v.cast(a.rmatvec(&u)?)?)?;
            alpha = v.norm(&vv)?;
            if alpha > 0.0 {
                vv = v.scale((1.0 / alpha).into(), &vv)?;
            }
        }
        let (rhobar1, psi) = if damp > 0.0 {
            let rhobar1 = (rhobar * rhobar + dampsq).sqrt();
            let (cs1, sn1) = (rhobar / rhobar1, damp / rhobar1);
            let psi = sn1 * phibar;
            phibar *= cs1;
            (rhobar1, psi)
        } else {
            (rhobar, 0.0)
        };
        let (cs, sn, rho) = sym_ortho(rhobar1, beta);
        let theta = sn * alpha;
        rhobar = -cs * alpha;
        let phi = cs * phibar;
        phibar *= sn;
        let tau = sn * phi;
        let (t1, t2) = (phi / rho, -theta / rho);
        let dk = v.scale((1.0 / rho).into(), &w)?;
        x = v.axpy(t1.into(), &w, &x)?;
        w = v.axpy(t2.into(), &w, &vv)?;
        let dkn = v.norm(&dk)?;
        ddnorm += dkn * dkn;
        if let Some(var) = var.as_mut() {
            *var = var.add(&dk.abs()?.square()?)?;
        }
        let delta = sn2 * rho;
        let gambar = -cs2 * rho;
        let rhs = phi - delta * z;
        let zbar = rhs / gambar;
        xnorm = (xxnorm + zbar * zbar).sqrt();
        let gamma = gambar.hypot(theta);
        cs2 = gambar / gamma;
        sn2 = theta / gamma;
        z = rhs / gamma;
        xxnorm += z * z;
        acond = anorm * ddnorm.sqrt();
        res2 += psi * psi;
        rnorm = (phibar * phibar + res2).sqrt();
        arnorm = alpha * tau.abs();
        r1norm = if damp > 0.0 {
            let r1sq = rnorm * rnorm - dampsq * xxnorm;
            r1sq.abs().sqrt().copysign(r1sq)
        } else {
            rnorm
        };
        r2norm = rnorm;
        let test1 = rnorm / bnorm;
        let test2 = arnorm / (anorm * rnorm + eps);
        let test3 = 1.0 / (acond + eps);
        let t1 = test1 / (1.0 + anorm * xnorm / bnorm);
        let rtol = opts.btol + opts.atol * anorm * xnorm / bnorm;
        istop = stop_code(itn, iter_lim, Tests { test1, test2, test3, t1, rtol }, &opts);
        if istop != 0 {
            break;
        }
    }
    done(x, istop, itn, r1norm, r2norm, arnorm, anorm, acond, xnorm, var)
}

/// The least-squares solution of `A x = b` (or the damped problem) by LSMR (SciPy's `lsmr`):
/// `‖Aᴴ r‖` decreases monotonically, so it may stop earlier than [`lsqr`].
pub fn lsmr(a: &dyn LinearOperator, b: &Array, opts: Lsq) -> Result<LsqSolution> {
    let Start { v, mut x, mut u, vv, mut alpha, mut beta, bnorm } = start("lsmr", a, b, &opts)?;
    let mut vv = vv;
    let [m, n] = a.shape();
    let maxiter = opts.iter_lim.unwrap_or(m.min(n));
    let damp = opts.damp;
    let (mut zetabar, mut alphabar) = (alpha * beta, alpha);
    let (mut rho, mut rhobar, mut cbar, mut sbar) = (1.0f64, 1.0f64, 1.0f64, 0.0f64);
    let mut h = vv.clone();
    let mut hbar = x.zeros_like()?;
    let (mut betadd, mut betad, mut rhodold, mut tautildeold, mut thetatilde, mut zeta, mut d) =
        (beta, 0.0f64, 1.0f64, 0.0f64, 0.0f64, 0.0f64, 0.0f64);
    let mut norm_a2 = alpha * alpha;
    let (mut maxrbar, mut minrbar) = (0.0f64, 1e100f64);
    let mut norm_a = norm_a2.sqrt();
    let (mut cond_a, mut normx) = (1.0f64, 0.0f64);
    let mut normr = beta;
    let mut normar = alpha * beta;
    let done = |x, istop: u8, itn, normr, normar, norm_a, cond_a, normx| {
        Ok(LsqSolution {
            x,
            istop: LsqStop::from_code(istop),
            itn,
            normr,
            r2norm: normr,
            normar,
            norm_a,
            cond_a,
            normx,
            var: None,
        })
    };
    if normar == 0.0 {
        return done(x, 0, 0, normr, normar, norm_a, cond_a, normx);
    }
    if bnorm == 0.0 {
        return done(x.zeros_like()?, 0, 0, normr, normar, norm_a, cond_a, normx);
    }
    let (mut itn, mut istop) = (0usize, 0u8);
    while itn < maxiter {
        itn += 1;
        u = v.axpy((-alpha).into(), &u, &v.cast(a.matvec(&vv)?)?)?;
        beta = v.norm(&u)?;
        if beta > 0.0 {
            u = v.scale((1.0 / beta).into(), &u)?;
            vv = v.axpy((-beta).into(), &vv, &v.cast(a.rmatvec(&u)?)?)?;
            alpha = v.norm(&vv)?;
            if alpha > 0.0 {
                vv = v.scale((1.0 / alpha).into(), &vv)?;
            }
        }
        let (chat, shat, alphahat) = sym_ortho(alphabar, damp);
        let rhoold = rho;
        let (c, s, r) = sym_ortho(alphahat, beta);
        rho = r;
        let thetanew = s * alpha;
        alphabar = c * alpha;
        let rhobarold = rhobar;
        let zetaold = zeta;
        let thetabar = sbar * rho;
        let rhotemp = cbar * rho;
        let (cb, sb, rb) = sym_ortho(cbar * rho, thetanew);
        (cbar, sbar, rhobar) = (cb, sb, rb);
        zeta = cbar * zetabar;
        zetabar *= -sbar;
        hbar = v.axpy((-(thetabar * rho / (rhoold * rhobarold))).into(), &hbar, &h)?;
        x = v.axpy((zeta / (rho * rhobar)).into(), &hbar, &x)?;
        h = v.axpy((-(thetanew / rho)).into(), &h, &vv)?;
        let betaacute = chat * betadd;
        let betacheck = -shat * betadd;
        let betahat = c * betaacute;
        betadd = -s * betaacute;
        let thetatildeold = thetatilde;
        let (ctildeold, stildeold, rhotildeold) = sym_ortho(rhodold, thetabar);
        thetatilde = stildeold * rhobar;
        rhodold = ctildeold * rhobar;
        betad = -stildeold * betad + ctildeold * betahat;
        tautildeold = (zetaold - thetatildeold * tautildeold) / rhotildeold;
        let taud = (zeta - thetatilde * tautildeold) / rhodold;
        d += betacheck * betacheck;
        normr = (d + (betad - taud).powi(2) + betadd * betadd).sqrt();
        norm_a2 += beta * beta;
        norm_a = norm_a2.sqrt();
        norm_a2 += alpha * alpha;
        maxrbar = maxrbar.max(rhobarold);
        if itn > 1 {
            minrbar = minrbar.min(rhobarold);
        }
        cond_a = maxrbar.max(rhotemp) / minrbar.min(rhotemp);
        normar = zetabar.abs();
        normx = v.norm(&x)?;
        let test1 = normr / bnorm;
        let test2 = if norm_a * normr != 0.0 { normar / (norm_a * normr) } else { f64::INFINITY };
        let test3 = 1.0 / cond_a;
        let t1 = test1 / (1.0 + norm_a * normx / bnorm);
        let rtol = opts.btol + opts.atol * norm_a * normx / bnorm;
        istop = stop_code(itn, maxiter, Tests { test1, test2, test3, t1, rtol }, &opts);
        if istop > 0 {
            break;
        }
    }
    done(x, istop, itn, normr, normar, norm_a, cond_a, normx)
}
