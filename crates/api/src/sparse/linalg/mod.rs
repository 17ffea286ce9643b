//! Sparse linear algebra (SciPy's `scipy.sparse.linalg`): [`LinearOperator`], the Krylov
//! solvers, written once over xp's array operations so that they run wherever the operator and
//! the right-hand side live.
//!
//! The solvers take SciPy's arguments in [`Krylov`] (`x0`, `rtol`, `atol`, `maxiter`, `M`,
//! `callback`, `restart`) and answer a [`Solution`]: the iterate and a typed [`Status`] in place
//! of SciPy's integer `info` ([`Solution::ok`] turns non-convergence into an error).
//!
//! ```
//! use xp::sparse::linalg::{cg, gmres, Krylov, Status};
//! // the 2-D Poisson matrix on a 16 × 16 grid: kron(I, T) + kron(T, I)
//! let d = |v: f64| xp::Array::from_vec(vec![v], &[1]).unwrap();
//! let t = xp::sparse::diags_array(&[&d(-1.0), &d(2.0), &d(-1.0)], &[-1, 0, 1], Some([16, 16]), None, xp::sparse::Format::Csr).unwrap();
//! let a = xp::sparse::kronsum(&t, &t, None).unwrap();
//! let b = xp::ones(&[256], xp::DType::F64).unwrap();
//! let sol = cg(&a, &b, Krylov { rtol: 1e-8, ..Default::default() }).unwrap();
//! assert_eq!(sol.status, Status::Converged);
//! // a cap on the iterations is reported, not hidden
//! let short = gmres(&a, &b, Krylov { rtol: 1e-12, maxiter: Some(1), restart: Some(2), ..Default::default() }).unwrap();
//! assert_eq!(short.status, Status::MaxIter);
//! assert!(short.ok("gmres").is_err());
//! ```
mod arnoldi;
mod basis;
mod bicg;
mod cg;
mod direct;
mod eigen;
mod fgmres;
mod gmres;
mod lgmres;
mod lobpcg;
mod lsq;
mod matfuncs;
mod minres;
mod operator;
mod qmr;
mod svds;
mod system;

pub use bicg::{bicg, bicgstab};
pub use cg::{cg, cgs};
pub use direct::{cholesky, factorized, spilu, splu, spsolve, spsolve_triangular, IluOptions, SuperLu, Trans};
pub use eigen::{eigs, eigsh, EigOptions, EigResult, Which};
pub use gmres::gmres;
pub use lgmres::{gcrotmk, lgmres};
pub use lobpcg::{lobpcg, Lobpcg, LobpcgResult};
pub use lsq::{lsmr, lsqr, Lsq, LsqSolution, LsqStop};
pub use matfuncs::{expm, expm_multiply, inv, matrix_power, norm, onenormest};
pub use minres::minres;
pub use operator::{aslinearoperator, IdentityOperator, LinearOperator, Operator, ProductFn};
pub use qmr::{qmr, tfqmr};
pub use svds::{svds, Svds};
pub use system::{Breakdown, Callback, Krylov, Solution, Status};

thread_local! {
    static FUSED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Makes this thread's solvers take their GPU paths (scalars on the device, fused updates) on
/// the CPU too, so that the tests check them where there is no GPU. Not for users.
#[doc(hidden)]
pub fn force_fused(on: bool) {
    FUSED.with(|f| f.set(on));
}

pub(crate) fn fused_forced() -> bool {
    FUSED.with(|f| f.get())
}
