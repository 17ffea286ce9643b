//! Quasi-minimal residual methods: `qmr` (with `Aᴴ`, left and right preconditioners) and the
//! transpose-free `tfqmr`, as SciPy 1.17 writes them.
use super::operator::IdentityOperator;
use super::system::{make_system, Breakdown, Krylov, Solution, Status};
use super::LinearOperator;
use crate::Array;
use xp_core::Complex64 as C;
use xp_core::{Error, Result};

const ZERO: C = C::new(0.0, 0.0);

/// Solves `A x = b` by the quasi-minimal residual method (SciPy's `qmr`): `A` square with
/// `rmatvec`; `m1` and `m2` are the left and right preconditioners (the identity when `None`;
/// `opts.m` is refused, as SciPy's `qmr` has no `M`). `maxiter` defaults to `10 n`.
pub fn qmr<'a>(
    a: &'a dyn LinearOperator,
    b: &Array,
    mut opts: Krylov<'a>,
    m1: Option<&'a dyn LinearOperator>,
    m2: Option<&'a dyn LinearOperator>,
) -> Result<Solution> {
    if opts.m.is_some() {
        return Err(Error::invalid("qmr", "qmr takes the left and right preconditioners m1 and m2, not M"));
    }
    let mut s = make_system("qmr", a, b, &opts)?;
    let v = s.v;
    let n = s.n;
    let ident = IdentityOperator { n, dtype: v.dtype };
    let check = |m: Option<&'a dyn LinearOperator>, name: &str| -> Result<()> {
        match m {
            Some(m) if m.shape() != [n, n] => Err(Error::invalid(
                "qmr",
                format!("the preconditioner {name} has shape {:?}; the matrix A has {:?}", m.shape(), [n, n]),
            )),
            Some(m) => m.validate().map_err(|e| e.in_op("qmr")),
            None => Ok(()),
        }
    };
    check(m1, "M1")?;
    check(m2, "M2")?;
    let m1: &dyn LinearOperator = m1.unwrap_or(&ident);
    let m2: &dyn LinearOperator = m2.unwrap_or(&ident);
    let bnorm = v.norm(&s.b)?;
    let atol = s.tolerance(&opts, bnorm);
    if bnorm == 0.0 {
        s.x = s.b.clone();
        return s.done(Status::Converged, 0, 0.0);
    }
    let maxiter = opts.maxiter.unwrap_or(10 * n);
    let tol = v.eps();
    let mut r = s.residual()?;
    let mut vtilde = r.clone();
    let mut y = v.cast(m1.matvec(&vtilde)?)?;
    let mut rho = v.norm(&y)?;
    let mut wtilde = r.clone();
    let mut z = v.cast(m2.rmatvec(&wtilde)?)?;
    let mut xi = v.norm(&z)?;
    let (mut gamma, mut eta, mut theta) = (1.0f64, C::new(-1.0, 0.0), 0.0f64);
    let mut epsilon = ZERO;
    let mut state: Option<(Array, Array, Array, Array)> = None; // p, q, d, s
    for it in 0..maxiter {
        let rnorm = v.norm(&r)?;
        if rnorm < atol {
            return s.done(Status::Converged, it, rnorm);
        }
        if rho < tol {
            return s.done(Status::Breakdown(Breakdown::Rho), it, rnorm);
        }
        if xi < tol {
            return s.done(Status::Breakdown(Breakdown::Xi), it, rnorm);
        }
        let vv = v.scale(C::new(1.0 / rho, 0.0), &vtilde)?;
        y = v.scale(C::new(1.0 / rho, 0.0), &y)?;
        let w = v.scale(C::new(1.0 / xi, 0.0), &wtilde)?;
        z = v.scale(C::new(1.0 / xi, 0.0), &z)?;
        let delta = v.dot(&z, &y)?;
        if delta.norm() < tol {
            return s.done(Status::Breakdown(Breakdown::Delta), it, rnorm);
        }
        let ytilde = v.cast(m2.matvec(&y)?)?;
        let ztilde = v.cast(m1.rmatvec(&z)?)?;
        let prev = state.take();
        let (p, q) = match &prev {
            Some((p, q, _, _)) => {
                (v.axpy(-(xi * delta / epsilon), p, &ytilde)?, v.axpy(-(rho * (delta / epsilon).conj()), q, &ztilde)?)
            }
            None => (ytilde, ztilde),
        };
        let ptilde = s.matvec(&p)?;
        epsilon = v.dot(&q, &ptilde)?;
        if epsilon.norm() < tol {
            return s.done(Status::Breakdown(Breakdown::Epsilon), it, rnorm);
        }
        let beta = epsilon / delta;
        if beta.norm() < tol {
            return s.done(Status::Breakdown(Breakdown::Denominator), it, rnorm);
        }
        vtilde = v.axpy(-beta, &vv, &ptilde)?;
        y = v.cast(m1.matvec(&vtilde)?)?;
        let rho_prev = rho;
        rho = v.norm(&y)?;
        wtilde = v.axpy(-beta.conj(), &w, &s.rmatvec(&q)?)?;
        z = v.cast(m2.rmatvec(&wtilde)?)?;
        xi = v.norm(&z)?;
        let (gamma_prev, theta_prev) = (gamma, theta);
        theta = rho / (gamma_prev * beta.norm());
        gamma = 1.0 / (1.0 + theta * theta).sqrt();
        if gamma < tol {
            return s.done(Status::Breakdown(Breakdown::Gamma), it, rnorm);
        }
        eta *= -(rho_prev / beta) * (gamma / gamma_prev).powi(2);
        let (d, sv) = match prev {
            Some((_, _, d, sv)) => {
                let f = C::new((theta_prev * gamma).powi(2), 0.0);
                (v.axpy(eta, &p, &v.scale(f, &d)?)?, v.axpy(eta, &ptilde, &v.scale(f, &sv)?)?)
            }
            None => (v.scale(eta, &p)?, v.scale(eta, &ptilde)?),
        };
        s.x = s.x.add(&d)?;
        r = r.sub(&sv)?;
        state = Some((p, q, d, sv));
        opts.notify(&s.x);
    }
    s.limit(maxiter, &r)
}

/// Solves `A x = b` by the transpose-free quasi-minimal residual method (SciPy's `tfqmr`).
/// `maxiter` defaults to `min(10000, 10 n)`; the test is SciPy's on the quasi-residual bound
/// `τ √(k+1)`, with the tolerance relative to the initial residual `‖b − A x0‖`.
pub fn tfqmr<'a>(a: &'a dyn LinearOperator, b: &Array, mut opts: Krylov<'a>) -> Result<Solution> {
    let mut s = make_system("tfqmr", a, b, &opts)?;
    let v = s.v;
    if v.norm(&s.b)? == 0.0 {
        s.x = s.b.clone();
        return s.done(Status::Converged, 0, 0.0);
    }
    let maxiter = opts.maxiter.unwrap_or((10 * s.n).min(10_000));
    let r = s.residual()?;
    let mut u = r.clone();
    let mut w = r.clone();
    let rstar = r.clone();
    let mut vv = s.psolve(&s.matvec(&r)?)?;
    let mut uhat = vv.clone();
    let mut d: Option<Array> = None;
    let (mut theta, mut eta) = (0.0f64, ZERO);
    let mut rho = v.dot(&rstar, &r)?;
    let mut rho_last = rho;
    let r0norm = rho.re.max(0.0).sqrt();
    let mut tau = r0norm;
    if r0norm == 0.0 {
        return s.done(Status::Converged, 0, 0.0);
    }
    let atol = opts.atol.max(opts.rtol * r0norm);
    let mut alpha = ZERO;
    let mut u_next = None;
    for it in 0..maxiter {
        let even = it % 2 == 0;
        if even {
            let vtr = v.dot(&rstar, &vv)?;
            if vtr == ZERO {
                return s.done(Status::Breakdown(Breakdown::Denominator), it, tau);
            }
            alpha = rho / vtr;
            u_next = Some(v.axpy(-alpha, &vv, &u)?);
        }
        w = v.axpy(-alpha, &uhat, &w)?;
        // d = u + θ² η / α d
        let dk = match d.take() {
            Some(d) => v.axpy(eta * theta * theta / alpha, &d, &u)?,
            None => u.clone(),
        };
        theta = v.norm(&w)? / tau;
        let c = (1.0 / (1.0 + theta * theta)).sqrt();
        tau *= theta * c;
        eta = alpha * (c * c);
        let zz = s.psolve(&dk)?;
        s.x = v.axpy(eta, &zz, &s.x)?;
        d = Some(dk);
        opts.notify(&s.x);
        if tau * ((it + 1) as f64).sqrt() < atol {
            return s.done(Status::Converged, it + 1, tau);
        }
        if !even {
            rho = v.dot(&rstar, &w)?;
            let beta = rho / rho_last;
            u = v.axpy(beta, &u, &w)?;
            vv = v.axpy(beta * beta, &vv, &v.scale(beta, &uhat)?)?;
            uhat = s.psolve(&s.matvec(&u)?)?;
            vv = vv.add(&uhat)?;
        } else {
            let un = u_next.take().unwrap_or_else(|| u.clone()); // set on the even step before
            uhat = s.psolve(&s.matvec(&un)?)?;
            u = un;
            rho_last = rho;
        }
    }
    s.done(Status::MaxIter, maxiter, tau)
}
