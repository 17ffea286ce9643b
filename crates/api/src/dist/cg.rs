//! Conjugate gradients on a [`ShardedCsr`] and [`ShardedArray`] vectors (SciPy's `cg`, without
//! a preconditioner): each rank updates its block of the vectors, the two inner products of an
//! iteration are local sums added over ranks (an all-reduce of one value each), and `A p` is
//! the halo-exchange product. The iterates are those of the one-GPU `cg` up to the order of
//! the sums.
use super::{Placement, ReduceOp, ShardedArray, ShardedCsr};
use crate::sparse::linalg::{Krylov, Status};
use crate::Array;
use xp_core::{Error, Result};

/// What [`cg`] returns: this rank's part of the answer and the run's report (the same on
/// every rank).
#[derive(Clone, Debug)]
pub struct ShardedSolution {
    /// the last iterate, sharded as `b`
    pub x: ShardedArray,
    /// how the solve ended
    pub status: Status,
    /// iterations taken
    pub iterations: usize,
    /// `‖b − A x‖` when it stopped
    pub residual: f64,
}

impl ShardedSolution {
    /// Whether the tolerance was reached.
    pub fn converged(&self) -> bool {
        self.status == Status::Converged
    }
}

/// Solves `A x = b` by conjugate gradients over the ranks (SciPy's `cg`: converged when
/// `‖r‖ < max(atol, rtol ‖b‖)`, `maxiter` by default `10 n`). `A` is Hermitian positive
/// definite and real; `b` a vector sharded in blocks (`Placement::Sharded(0)`); `opts.x0`,
/// when given, is this rank's block of the first guess. A preconditioner or callback is an
/// error (not taken here).
pub fn cg(a: &ShardedCsr, b: &ShardedArray, opts: Krylov<'_>) -> Result<ShardedSolution> {
    let op = "dist::cg";
    let [n, cols] = a.shape();
    if n != cols {
        return Err(Error::invalid(op, format!("A must be square, not {n} × {cols}")));
    }
    if b.shape() != [n] || b.placement() != Placement::Sharded(0) {
        return Err(Error::invalid(op, format!("b must be a vector of {n} sharded by blocks")));
    }
    if opts.m.is_some() || opts.callback.is_some() {
        return Err(Error::invalid(op, "the sharded cg takes no preconditioner or callback"));
    }
    let dt = xp_core::promote_types(a.local().data().dtype(), b.dtype());
    if !dt.is_float() {
        return Err(Error::InvalidDType { op, dtype: dt });
    }
    let comm = a.comm();
    let dot = |u: &Array, v: &Array| comm.all_reduce(&crate::vdot(u, v)?, ReduceOp::Sum);
    let host = |s: &Array| -> Result<f64> { Ok(s.to_f64()?.max(0.0).sqrt()) };
    let sharded = |v: Array| ShardedArray::from_parts(comm, vec![n], Placement::Sharded(0), v);
    let bl = b.local().astype(dt)?;
    let (mut x, mut r) = match opts.x0 {
        Some(x0) if x0.shape() != bl.shape() => {
            return Err(Error::invalid(op, format!("x0 must be this rank's block, of shape {:?}", bl.shape())))
        }
        Some(x0) => {
            let x = x0.to_device(comm.device())?.astype(dt)?;
            let ax = a.matvec(&sharded(x.clone())?)?;
            let r = bl.sub(ax.local())?;
            (x, r)
        }
        None => (crate::on(comm.device()).zeros(bl.shape(), dt)?, bl.clone()),
    };
    let atol = opts.atol.max(opts.rtol * host(&dot(&bl, &bl)?)?);
    let maxiter = opts.maxiter.unwrap_or(10 * n);
    let (mut p, mut rho_prev) = (None::<Array>, None::<Array>);
    let done = |x: Array, status, iterations, residual| -> Result<ShardedSolution> {
        Ok(ShardedSolution { x: sharded(x)?, status, iterations, residual })
    };
    for it in 0..maxiter {
        let rho = dot(&r, &r)?;
        let rnorm = host(&rho)?;
        if rnorm < atol {
            return done(x, Status::Converged, it, rnorm);
        }
        let pk = match (p.take(), &rho_prev) {
            (Some(p), Some(prev)) => r.add(&rho.div(prev)?.mul(&p)?)?,
            _ => r.clone(),
        };
        let q = a.matvec(&sharded(pk.clone())?)?;
        let alpha = rho.div(&dot(&pk, q.local())?)?;
        x = x.add(&alpha.mul(&pk)?)?;
        r = r.sub(&alpha.mul(q.local())?)?;
        rho_prev = Some(rho);
        p = Some(pk);
    }
    // SciPy reports the limit without a last test of the residual
    let rnorm = host(&dot(&r, &r)?)?;
    done(x, Status::MaxIter, maxiter, rnorm)
}
