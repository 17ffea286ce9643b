//! The augmented restarted methods, as SciPy 1.17 writes them: LGMRES (restarts that keep the
//! last corrections as extra directions) and GCROT(m, k) (restarts that keep a recycled
//! subspace the next cycles stay orthogonal to), both on the flexible GMRES cycle.
use super::basis::Basis;
use super::fgmres::{fgmres, Ops};
use super::system::{make_system, Krylov, Solution, Status};
use super::LinearOperator;
use crate::Array;
use std::collections::VecDeque;
use xp_core::{Complex64 as C, Error, Result};

/// `Σ y_i a_i` over the first `y.len()` arrays.
fn combine(arrays: &[Array], y: &[C], v: super::system::Vecs) -> Result<Array> {
    Basis::of(&arrays[..y.len().min(arrays.len())], v)?.combine(y)
}

/// Solves `A x = b` by LGMRES (SciPy's `lgmres`): cycles of `restart` (SciPy's `inner_m`,
/// default 30) flexible GMRES steps, each augmented by the corrections of the last `outer_k`
/// cycles (SciPy's default 3); at most `maxiter` cycles (default 1000). `Solution::iterations`
/// counts the cycles.
pub fn lgmres<'a>(a: &'a dyn LinearOperator, b: &Array, mut opts: Krylov<'a>, outer_k: usize) -> Result<Solution> {
    let op = "lgmres";
    let mut s = make_system(op, a, b, &opts)?;
    let v = s.v;
    let bnorm = v.norm(&s.b)?;
    if !bnorm.is_finite() {
        return Err(Error::invalid(op, "the right-hand side b must contain only finite numbers"));
    }
    let atol = s.tolerance(&opts, bnorm);
    if bnorm == 0.0 {
        s.x = s.b.clone();
        return s.done(Status::Converged, 0, 0.0);
    }
    let maxiter = opts.maxiter.unwrap_or(1000);
    let inner_m = opts.restart.unwrap_or(30);
    let mut ptol_max = 1.0f64;
    let mut outer: VecDeque<(Array, Option<Array>)> = VecDeque::new();
    let (matvec, psolve) = (|x: &Array| s.matvec(x), |x: &Array| s.psolve(x));
    let ident = |x: &Array| Ok(x.clone());
    let ops = Ops { matvec: &matvec, lpsolve: &psolve, rpsolve: &ident };
    let mut x = s.x.clone();
    let mut rnorm = f64::NAN;
    let mut status = Status::MaxIter;
    let mut cycles = maxiter;
    for k in 0..maxiter {
        let r = s.matvec(&x)?.sub(&s.b)?;
        opts.notify(&x);
        rnorm = v.norm(&r)?;
        if rnorm <= atol {
            (status, cycles) = (Status::Converged, k);
            break;
        }
        let v0 = s.psolve(&r)?.neg()?;
        let inner0 = v.norm(&v0)?;
        if inner0 == 0.0 {
            return Err(Error::invalid(
                op,
                format!("the preconditioner returned a zero vector; ‖v‖ ~ {rnorm:.1e}, ‖M v‖ = 0"),
            ));
        }
        let v0 = v.scale(C::new(1.0 / inner0, 0.0), &v0)?;
        let ptol = ptol_max.min(atol / rnorm);
        let outer_v: Vec<(Array, Option<Array>)> = outer.iter().cloned().collect();
        let Ok(cycle) = fgmres(&ops, v, v0, inner_m, ptol, &[], &outer_v) else {
            cycles = k + 1;
            break;
        };
        let y: Vec<C> = cycle.y.iter().map(|c| c * inner0).collect();
        if y.iter().any(|c| !c.re.is_finite() || !c.im.is_finite()) {
            cycles = k + 1;
            break;
        }
        ptol_max = if cycle.res > ptol { (1.5 * ptol_max).min(1.0) } else { (0.25 * ptol_max).max(1e-16) };
        let dx = combine(&cycle.zs, &y, v)?;
        let nx = v.norm(&dx)?;
        if nx > 0.0 {
            let ax = cycle.vs.combine(&cycle.h_times(&y))?;
            let inv = C::new(1.0 / nx, 0.0);
            outer.push_back((v.scale(inv, &dx)?, Some(v.scale(inv, &ax)?)));
        }
        while outer.len() > outer_k {
            outer.pop_front();
        }
        x = x.add(&dx)?;
    }
    s.x = x;
    s.done(status, cycles, rnorm)
}

/// Solves `A x = b` by GCROT(m, k) (SciPy's `gcrotmk` with `truncate='oldest'`): cycles of `m`
/// (`opts.restart`, default 20) flexible GMRES steps kept orthogonal to a recycled subspace of at
/// most `k` vectors (default `m`); at most `maxiter` cycles (default 1000). `M` applies on the
/// right. `Solution::iterations` counts the cycles.
pub fn gcrotmk<'a>(a: &'a dyn LinearOperator, b: &Array, mut opts: Krylov<'a>, k: Option<usize>) -> Result<Solution> {
    let op = "gcrotmk";
    let mut s = make_system(op, a, b, &opts)?;
    let v = s.v;
    let bnorm = v.norm(&s.b)?;
    if !bnorm.is_finite() {
        return Err(Error::invalid(op, "the right-hand side b must contain only finite numbers"));
    }
    let beta_tol = s.tolerance(&opts, bnorm);
    if bnorm == 0.0 {
        s.x = s.b.clone();
        return s.done(Status::Converged, 0, 0.0);
    }
    let maxiter = opts.maxiter.unwrap_or(1000);
    let m = opts.restart.unwrap_or(20);
    let k = k.unwrap_or(m);
    let mut r = s.residual()?;
    let mut x = s.x.clone();
    let (matvec, psolve) = (|x: &Array| s.matvec(x), |x: &Array| s.psolve(x));
    let ident = |x: &Array| Ok(x.clone());
    let ops = Ops { matvec: &matvec, lpsolve: &ident, rpsolve: &psolve };
    let mut cu: VecDeque<(Array, Array)> = VecDeque::new();
    let mut beta = f64::NAN;
    let mut status = Status::MaxIter;
    let mut cycles = maxiter;
    for j in 0..maxiter {
        opts.notify(&x);
        beta = v.norm(&r)?;
        if beta <= beta_tol && (j > 0 || !cu.is_empty()) {
            // the recurrence's residual says done: check the true one
            r = s.b.sub(&s.matvec(&x)?)?;
            beta = v.norm(&r)?;
        }
        if beta <= beta_tol {
            (status, cycles) = (Status::Converged, j);
            break;
        }
        let ml = m + k.saturating_sub(cu.len());
        let cs: Vec<Array> = cu.iter().map(|(c, _)| c.clone()).collect();
        let v0 = v.scale(C::new(1.0 / beta, 0.0), &r)?;
        let Ok(cycle) = fgmres(&ops, v, v0, ml, beta_tol / beta, &cs, &[]) else {
            cycles = j + 1;
            break;
        };
        let y: Vec<C> = cycle.y.iter().map(|c| c * beta).collect();
        let mut ux = combine(&cycle.zs, &y, v)?;
        for ((_, u), byc) in cu.iter().zip(cycle.b_times(&y)) {
            ux = v.axpy(-byc, u, &ux)?;
        }
        let cx = cycle.vs.combine(&cycle.h_times(&y))?;
        let alpha = 1.0 / v.norm(&cx)?;
        if !alpha.is_finite() {
            continue;
        }
        let (cx, ux) = (v.scale(C::new(alpha, 0.0), &cx)?, v.scale(C::new(alpha, 0.0), &ux)?);
        let gamma = v.dot(&cx, &r)?;
        r = v.axpy(-gamma, &cx, &r)?;
        x = v.axpy(gamma, &ux, &x)?;
        while cu.len() >= k && !cu.is_empty() {
            cu.pop_front();
        }
        cu.push_back((cx, ux));
    }
    s.x = x;
    s.done(status, cycles, beta)
}
