//! Biconjugate gradients (`bicg`, which needs `Aᴴ`) and its stabilised form (`bicgstab`), as
//! SciPy 1.17 writes them.
use super::system::{started, Breakdown, Krylov, Solution, Status};
use super::LinearOperator;
use crate::Array;
use xp_core::Complex64 as C;
use xp_core::Result;

const ZERO: C = C::new(0.0, 0.0);

/// Solves `A x = b` by biconjugate gradients (SciPy's `bicg`): `A` square, its `rmatvec`
/// (`Aᴴ x`) needed, as is the preconditioner's. `maxiter` defaults to `10 n`.
pub fn bicg<'a>(a: &'a dyn LinearOperator, b: &Array, mut opts: Krylov<'a>) -> Result<Solution> {
    let (mut s, atol, _) = started!("bicg", a, b, &opts);
    let v = s.v;
    let maxiter = opts.maxiter.unwrap_or(10 * s.n);
    let rhotol = v.eps() * v.eps();
    let mut r = s.residual()?;
    let mut rtilde = r.clone();
    let mut rho_prev = ZERO;
    let mut pp: Option<(Array, Array)> = None;
    for it in 0..maxiter {
        let rnorm = v.norm(&r)?;
        if rnorm < atol {
            return s.done(Status::Converged, it, rnorm);
        }
        let z = s.psolve(&r)?;
        let ztilde = s.rpsolve(&rtilde)?;
        let rho = v.dot(&rtilde, &z)?;
        if rho.norm() < rhotol {
            return s.done(Status::Breakdown(Breakdown::Rho), it, rnorm);
        }
        let (p, ptilde) = match pp.take() {
            Some((p, pt)) => {
                let beta = rho / rho_prev;
                (v.axpy(beta, &p, &z)?, v.axpy(beta.conj(), &pt, &ztilde)?)
            }
            None => (z, ztilde),
        };
        let q = s.matvec(&p)?;
        let qtilde = s.rmatvec(&ptilde)?;
        let rv = v.dot(&ptilde, &q)?;
        if rv == ZERO {
            return s.done(Status::Breakdown(Breakdown::Denominator), it, rnorm);
        }
        let alpha = rho / rv;
        s.x = v.axpy(alpha, &p, &s.x)?;
        r = v.axpy(-alpha, &q, &r)?;
        rtilde = v.axpy(-alpha.conj(), &qtilde, &rtilde)?;
        rho_prev = rho;
        pp = Some((p, ptilde));
        opts.notify(&s.x);
    }
    s.limit(maxiter, &r)
}

/// Solves `A x = b` by BiCGSTAB (SciPy's `bicgstab`), for general square `A`. `maxiter`
/// defaults to `10 n`.
///
/// ```
/// use xp::sparse::linalg::{bicgstab, Krylov};
/// // a non-symmetric tridiagonal system
/// let d = |v: f64| xp::Array::from_vec(vec![v], &[1]).unwrap();
/// let a = xp::sparse::diags_array(&[&d(-1.0), &d(3.0), &d(-0.5)], &[-1, 0, 1], Some([40, 40]), None, xp::sparse::Format::Csr).unwrap();
/// let b = xp::ones(&[40], xp::DType::F64).unwrap();
/// let sol = bicgstab(&a, &b, Krylov { rtol: 1e-10, ..Default::default() }).unwrap();
/// assert!(sol.converged());
/// ```
pub fn bicgstab<'a>(a: &'a dyn LinearOperator, b: &Array, mut opts: Krylov<'a>) -> Result<Solution> {
    let (mut s, atol, _) = started!("bicgstab", a, b, &opts);
    let v = s.v;
    let maxiter = opts.maxiter.unwrap_or(10 * s.n);
    let rhotol = v.eps() * v.eps();
    let omegatol = rhotol;
    let mut r = s.residual()?;
    let rtilde = r.clone();
    let (mut rho_prev, mut omega, mut alpha) = (ZERO, ZERO, ZERO);
    let mut pv: Option<(Array, Array)> = None;
    for it in 0..maxiter {
        let rnorm = v.norm(&r)?;
        if rnorm < atol {
            return s.done(Status::Converged, it, rnorm);
        }
        let rho = v.dot(&rtilde, &r)?;
        if rho.norm() < rhotol {
            return s.done(Status::Breakdown(Breakdown::Rho), it, rnorm);
        }
        let p = match pv.take() {
            Some((p, vv)) => {
                if omega.norm() < omegatol {
                    return s.done(Status::Breakdown(Breakdown::Denominator), it, rnorm);
                }
                let beta = rho / rho_prev * (alpha / omega);
                // p = r + β (p − ω v)
                v.axpy(beta, &v.axpy(-omega, &vv, &p)?, &r)?
            }
            None => r.clone(),
        };
        let phat = s.psolve(&p)?;
        let vv = s.matvec(&phat)?;
        let rv = v.dot(&rtilde, &vv)?;
        if rv == ZERO {
            return s.done(Status::Breakdown(Breakdown::Denominator), it, rnorm);
        }
        alpha = rho / rv;
        r = v.axpy(-alpha, &vv, &r)?;
        let snorm = v.norm(&r)?;
        if snorm < atol {
            s.x = v.axpy(alpha, &phat, &s.x)?;
            return s.done(Status::Converged, it + 1, snorm);
        }
        let shat = s.psolve(&r)?;
        let t = s.matvec(&shat)?;
        omega = v.dot(&t, &r)? / v.dot(&t, &t)?;
        s.x = v.axpy(omega, &shat, &v.axpy(alpha, &phat, &s.x)?)?;
        r = v.axpy(-omega, &t, &r)?;
        rho_prev = rho;
        pv = Some((p, vv));
        opts.notify(&s.x);
    }
    s.limit(maxiter, &r)
}
