//! MINRES for Hermitian (possibly indefinite) systems, as SciPy 1.17 writes it (Paige and
//! Saunders' Lanczos with a QR of the tridiagonal matrix).
use super::system::{make_system, Krylov, Solution, Status};
use super::LinearOperator;
use crate::Array;
use xp_core::Complex64 as C;
use xp_core::{Error, Result};

/// Solves `(A − shift I) x = b` by MINRES (SciPy's `minres`): `A` Hermitian, possibly
/// indefinite; `M` (if given) Hermitian positive definite. `maxiter` defaults to `5 n`. Stops on
/// SciPy's tests (`‖r‖ / (‖A‖ ‖x‖) ≤ rtol`, or the least-squares test, or an ill-conditioned
/// `A`); `Status::MaxIter` only when the limit was reached. An indefinite preconditioner (or a
/// non-Hermitian `A` detected by a negative `β²`) is an [`Error::InvalidArgument`].
///
/// ```
/// use xp::sparse::linalg::{minres, Krylov};
/// // symmetric indefinite: tridiag(1, ±3, 1)
/// let d: Vec<f64> = (0..30).map(|i| if i % 2 == 0 { -3.0 } else { 3.0 }).collect();
/// let one = xp::Array::from_vec(vec![1.0f64], &[1]).unwrap();
/// let main = xp::Array::from_vec(d, &[30]).unwrap();
/// let a = xp::sparse::diags_array(&[&one, &main, &one], &[-1, 0, 1], Some([30, 30]), None, xp::sparse::Format::Csr).unwrap();
/// let b = xp::ones(&[30], xp::DType::F64).unwrap();
/// let sol = minres(&a, &b, 0.0, Krylov { rtol: 1e-10, ..Default::default() }).unwrap();
/// let r = b.sub(&a.matmul(&sol.x).unwrap()).unwrap();
/// assert!(xp::linalg::norm(&r, None, ..).unwrap().to_f64().unwrap() < 1e-8);
/// ```
pub fn minres<'a>(a: &'a dyn LinearOperator, b: &Array, shift: f64, mut opts: Krylov<'a>) -> Result<Solution> {
    let op = "minres";
    let mut s = make_system(op, a, b, &opts)?;
    let v = s.v;
    let n = s.n;
    let maxiter = opts.maxiter.unwrap_or(5 * n);
    let rtol = opts.rtol;
    let eps = v.eps();
    let mut r1 = s.residual()?;
    let mut y = s.psolve(&r1)?;
    let beta1 = v.dot(&r1, &y)?.re;
    if beta1 < 0.0 {
        return Err(Error::invalid(op, "indefinite preconditioner: rᴴ M r < 0"));
    } else if beta1 == 0.0 {
        return s.done(Status::Converged, 0, 0.0);
    }
    if v.norm(&s.b)? == 0.0 {
        s.x = s.b.clone();
        return s.done(Status::Converged, 0, 0.0);
    }
    let beta1 = beta1.sqrt();
    let (mut oldb, mut beta, mut dbar, mut epsln) = (0.0f64, beta1, 0.0f64, 0.0f64);
    let (mut phibar, mut rhs1, mut rhs2, mut tnorm2) = (beta1, beta1, 0.0f64, 0.0f64);
    let (mut gmax, mut gmin) = (0.0f64, f64::MAX);
    let (mut cs, mut sn) = (-1.0f64, 0.0f64);
    let zeros = s.x.zeros_like()?;
    let (mut w, mut w2) = (zeros.clone(), zeros);
    let mut r2 = r1.clone();
    let (mut itn, mut istop) = (0usize, 0i32);
    let mut rnorm = beta1;
    while itn < maxiter {
        itn += 1;
        let vv = v.scale(C::new(1.0 / beta, 0.0), &y)?;
        y = s.matvec(&vv)?;
        if shift != 0.0 {
            y = v.axpy(C::new(-shift, 0.0), &vv, &y)?;
        }
        if itn >= 2 {
            y = v.axpy(C::new(-beta / oldb, 0.0), &r1, &y)?;
        }
        let alfa = v.dot(&vv, &y)?.re;
        y = v.axpy(C::new(-alfa / beta, 0.0), &r2, &y)?;
        r1 = r2;
        r2 = y;
        y = s.psolve(&r2)?;
        oldb = beta;
        let b2 = v.dot(&r2, &y)?.re;
        if b2 < 0.0 {
            return Err(Error::invalid(op, "non-symmetric matrix: a Lanczos step gave β² < 0"));
        }
        beta = b2.sqrt();
        tnorm2 += alfa * alfa + oldb * oldb + beta * beta;
        if itn == 1 && beta / beta1 <= 10.0 * eps {
            istop = -1;
        }
        let oldeps = epsln;
        let delta = cs * dbar + sn * alfa;
        let gbar = sn * dbar - cs * alfa;
        epsln = sn * beta;
        dbar = -cs * beta;
        let root = gbar.hypot(dbar);
        let gamma = gbar.hypot(beta).max(eps);
        cs = gbar / gamma;
        sn = beta / gamma;
        let phi = cs * phibar;
        phibar *= sn;
        let denom = 1.0 / gamma;
        let w1 = w2;
        w2 = w;
        // w = (v − oldeps w1 − delta w2) / gamma
        w =
            v.scale(C::new(denom, 0.0), &v.axpy(C::new(-delta, 0.0), &w2, &v.axpy(C::new(-oldeps, 0.0), &w1, &vv)?)?)?;
        s.x = v.axpy(C::new(phi, 0.0), &w, &s.x)?;
        gmax = gmax.max(gamma);
        gmin = gmin.min(gamma);
        let z = rhs1 / gamma;
        rhs1 = rhs2 - delta * z;
        rhs2 = -epsln * z;
        let anorm = tnorm2.sqrt();
        let ynorm = v.norm(&s.x)?;
        let epsx = anorm * ynorm * eps;
        rnorm = phibar;
        let test1 = if ynorm == 0.0 || anorm == 0.0 { f64::INFINITY } else { rnorm / (anorm * ynorm) };
        let test2 = if anorm == 0.0 { f64::INFINITY } else { root / anorm };
        let acond = gmax / gmin;
        if istop == 0 {
            if 1.0 + test2 <= 1.0 {
                istop = 2;
            }
            if 1.0 + test1 <= 1.0 {
                istop = 1;
            }
            if itn >= maxiter {
                istop = 6;
            }
            if acond >= 0.1 / eps {
                istop = 4;
            }
            if epsx >= beta1 {
                istop = 3;
            }
            if test2 <= rtol {
                istop = 2;
            }
            if test1 <= rtol {
                istop = 1;
            }
        }
        opts.notify(&s.x);
        if istop != 0 {
            break;
        }
    }
    let status = if istop == 6 { Status::MaxIter } else { Status::Converged };
    s.done(status, itn, rnorm)
}
