//! SciPy's triangular solves and the Cholesky pair built on them: `solve_triangular`,
//! `cho_factor`, `cho_solve`, batched over leading axes.
//!
//! ```
//! use xp::linalg::{self, SolveTriangular, Trans};
//! // upper triangular A (SciPy's default triangle)
//! let a = xp::Array::from_vec(vec![2.0f64, 1.0, 0.0, 4.0], &[2, 2]).unwrap();
//! let b = xp::Array::from_vec(vec![4.0f64, 8.0], &[2]).unwrap();
//! let x = linalg::solve_triangular(&a, &b, SolveTriangular::default()).unwrap();
//! assert_eq!(x.to_vec::<f64>().unwrap(), vec![1.0, 2.0]);
//! let singular = xp::Array::from_vec(vec![1.0f64, 1.0, 0.0, 0.0], &[2, 2]).unwrap();
//! let e = linalg::solve_triangular(&singular, &b, SolveTriangular::default()).unwrap_err();
//! assert!(e.to_string().contains("diagonal 1"));
//! // a positive-definite system through its Cholesky factor
//! let spd = xp::Array::from_vec(vec![4.0f64, 2.0, 2.0, 3.0], &[2, 2]).unwrap();
//! let c = linalg::cho_factor(&spd, false).unwrap();
//! let y = linalg::cho_solve(&c, &b).unwrap();
//! let back = xp::matmul(&spd, &y).unwrap();
//! assert!(xp::allclose(&back, &b).unwrap());
//! # let _ = Trans::N;
//! ```
use super::system::System;
use crate::backend::on_pair;
use crate::products::with_two;
use crate::Array;
use xp_core::linalg::{Trans, TriangularSpec, Uplo};
use xp_core::{LinalgStorage, Result};

/// SciPy's `solve_triangular` options; the default is SciPy's (the upper triangle, `A x = b`,
/// the diagonal read).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolveTriangular {
    /// the system solved (SciPy's `trans`)
    pub trans: Trans,
    /// read the lower triangle (SciPy's `lower`; the other is ignored)
    pub lower: bool,
    /// take the diagonal to be ones without reading it (SciPy's `unit_diagonal`)
    pub unit_diagonal: bool,
}

/// Solve `op(A) x = b` for triangular `A` (SciPy `solve_triangular(a, b, trans, lower,
/// unit_diagonal)`): `A` `(.., n, n)` reading only its triangle, `b` a vector `(n,)` or a stack
/// `(.., n, k)`, batch axes broadcast. An exact zero on the diagonal is
/// [`xp_core::LinAlgKind::SingularDiagonal`] naming the first (SciPy's "singular matrix:
/// resolution failed at diagonal"), found before solving.
pub fn solve_triangular(a: &Array, b: &Array, opts: SolveTriangular) -> Result<Array> {
    let sys = System::new("solve_triangular", a, b)?;
    if sys.is_empty() {
        return sys.finish(None);
    }
    let spec = TriangularSpec {
        uplo: if opts.lower { Uplo::Lower } else { Uplo::Upper },
        trans: opts.trans,
        unit_diagonal: opts.unit_diagonal,
    };
    let s = with_two(
        &sys.a,
        &sys.b,
        |p, q| on_pair!("solve_triangular", p, q, s, t => s.solve_triangular(&sys.al, t, &sys.bl, spec)),
    )?;
    sys.finish(Some(s))
}

/// A Cholesky factor as SciPy's `cho_factor` returns it, for [`cho_solve`].
#[derive(Clone, Debug)]
pub struct ChoFactor {
    /// the factor in the triangle `lower` names (`A = L Lᴴ` or `A = Uᴴ U`); zeros in the other
    /// (SciPy leaves unspecified values there)
    pub c: Array,
    /// whether `c` is the lower factor
    pub lower: bool,
}

/// The Cholesky factor of Hermitian positive-definite `A` (SciPy `cho_factor(a, lower)`),
/// reading the triangle it returns. Not positive definite:
/// [`xp_core::LinAlgKind::NotPositiveDefinite`].
pub fn cho_factor(a: &Array, lower: bool) -> Result<ChoFactor> {
    let c = super::cholesky(a, if lower { Uplo::Lower } else { Uplo::Upper })?;
    Ok(ChoFactor { c, lower })
}

/// Solve `A x = b` with `A`'s [`cho_factor`] (SciPy `cho_solve((c, lower), b)`): two triangular
/// solves, `b` a vector `(n,)` or a stack `(.., n, k)`, batch axes broadcast.
pub fn cho_solve(f: &ChoFactor, b: &Array) -> Result<Array> {
    let first =
        SolveTriangular { trans: if f.lower { Trans::N } else { Trans::C }, lower: f.lower, unit_diagonal: false };
    let second = SolveTriangular { trans: if f.lower { Trans::C } else { Trans::N }, ..first };
    // a vector stays one column through both solves (a batch of vectors is no matrix)
    let bm = if b.ndim() == 1 { b.expand_dims(-1)? } else { b.clone() };
    let x = solve_triangular(&f.c, &solve_triangular(&f.c, &bm, first)?, second)?;
    if b.ndim() == 1 {
        x.squeeze(-1)
    } else {
        Ok(x)
    }
}
