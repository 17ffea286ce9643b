//! SciPy's `solve(a, b, assume_a=, lower=, transposed=, check_finite=)`: one entry point that
//! picks the solver the matrix's declared structure allows, reading only what that structure
//! says is there (one triangle of a symmetric, Hermitian or positive-definite matrix, the band
//! of a tridiagonal one, the diagonal of a diagonal one).
//!
//! ```
//! use xp::linalg::{self, AssumeA, Solve};
//! // only the upper triangle is read for a symmetric matrix (SciPy's default `lower=False`)
//! let a = xp::Array::from_vec(vec![4.0f64, 1.0, 99.0, 3.0], &[2, 2]).unwrap();
//! let b = xp::Array::from_vec(vec![1.0f64, 2.0], &[2]).unwrap();
//! let x = linalg::solve_with(&a, &b, Solve { assume_a: AssumeA::Symmetric, ..Default::default() }).unwrap();
//! let sym = xp::Array::from_vec(vec![4.0f64, 1.0, 1.0, 3.0], &[2, 2]).unwrap();
//! assert!(xp::allclose(&xp::matmul(&sym, &x).unwrap(), &b).unwrap());
//! ```
use super::triangular::{cho_factor, cho_solve, solve_triangular, SolveTriangular};
use super::{check_stack, solve};
use crate::Array;
use xp_core::linalg::Trans;
use xp_core::{Error, Result};

/// The structure `solve_with` may assume of `A` (SciPy's `assume_a`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum AssumeA {
    /// no assumption (SciPy's `None`): solved as a general matrix (SciPy looks for a structure
    /// first; the solution is the same up to rounding)
    #[default]
    Auto,
    /// a general square matrix (`'gen'`, `'general'`): LU with partial pivoting
    General,
    /// symmetric (`'sym'`): only the triangle `lower` names is read
    Symmetric,
    /// Hermitian (`'her'`): only the triangle `lower` names is read
    Hermitian,
    /// Hermitian positive definite (`'pos'`): Cholesky of the triangle `lower` names
    PositiveDefinite,
    /// diagonal (`'diagonal'`): only the diagonal is read
    Diagonal,
    /// tridiagonal (`'tridiagonal'`): only the three central diagonals are read
    Tridiagonal,
    /// banded (`'banded'`): the whole matrix is read (its band is what is nonzero)
    Banded,
    /// upper triangular (`'upper triangular'`): only the upper triangle is read
    UpperTriangular,
    /// lower triangular (`'lower triangular'`): only the lower triangle is read
    LowerTriangular,
}

impl std::str::FromStr for AssumeA {
    type Err = Error;
    /// SciPy's names (`"gen"`, `"sym"`, `"her"`, `"pos"` and the long ones).
    fn from_str(s: &str) -> Result<AssumeA> {
        Ok(match s {
            "gen" | "general" => AssumeA::General,
            "sym" | "symmetric" => AssumeA::Symmetric,
            "her" | "hermitian" => AssumeA::Hermitian,
            "pos" | "positive definite" => AssumeA::PositiveDefinite,
            "diagonal" => AssumeA::Diagonal,
            "tridiagonal" => AssumeA::Tridiagonal,
            "banded" => AssumeA::Banded,
            "upper triangular" => AssumeA::UpperTriangular,
            "lower triangular" => AssumeA::LowerTriangular,
            _ => {
                return Err(Error::InvalidArgument {
                    op: "solve",
                    msg: format!("{s} is not a recognized matrix structure"),
                })
            }
        })
    }
}

/// SciPy's `solve` options; the default is SciPy's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solve {
    /// the structure assumed of `A`
    pub assume_a: AssumeA,
    /// read the lower triangle for the symmetric, Hermitian and positive-definite structures
    pub lower: bool,
    /// solve `Aᵀ x = b` (real matrices only, as SciPy)
    pub transposed: bool,
    /// refuse infinities and NaN in the inputs (one reduction and a wait on a GPU)
    pub check_finite: bool,
}

impl Default for Solve {
    fn default() -> Self {
        Solve { assume_a: AssumeA::Auto, lower: false, transposed: false, check_finite: true }
    }
}

/// Solve `A x = b` (or `Aᵀ x = b`) assuming the structure `opts.assume_a` of `A` (SciPy
/// `solve(a, b, lower, check_finite, assume_a, transposed)`): `A` `(.., n, n)`, `b` a vector
/// `(n,)` or a stack `(.., n, k)`, batch axes broadcast. Errors as SciPy raises: a singular
/// matrix ([`xp_core::LinAlgKind::Singular`], or `SingularDiagonal` for the triangular
/// structures), one that is not positive definite, `transposed` for complex `A`
/// ([`Error::InvalidArgument`], SciPy's `NotImplementedError`), and with `check_finite`
/// infinities or NaN.
pub fn solve_with(a: &Array, b: &Array, opts: Solve) -> Result<Array> {
    let op = "solve";
    check_stack(op, a, true)?;
    if opts.transposed && a.dtype().is_complex() {
        return Err(Error::InvalidArgument {
            op,
            msg: "can currently not solve aᵀ x = b or aᴴ x = b for complex matrices".into(),
        });
    }
    if opts.check_finite {
        for x in [a, b] {
            if x.size() > 0 && !x.dtype().is_integer() && !x.isfinite()?.all(..)?.item::<bool>()? {
                return Err(Error::InvalidArgument { op, msg: "array must not contain infs or NaNs".into() });
            }
        }
    }
    let t = |m: Array| if opts.transposed { xp_core::Result::Ok(crate::matrix_transpose(&m)?) } else { Ok(m) };
    let tri = |lower: bool| {
        let trans = if opts.transposed { Trans::T } else { Trans::N };
        solve_triangular(a, b, SolveTriangular { trans, lower, unit_diagonal: false })
    };
    match opts.assume_a {
        AssumeA::Auto | AssumeA::General | AssumeA::Banded => solve(&t(a.clone())?, b),
        AssumeA::UpperTriangular => tri(false),
        AssumeA::LowerTriangular => tri(true),
        AssumeA::Diagonal => solve(&a.triu(0)?.tril(0)?, b),
        AssumeA::Tridiagonal => solve(&t(a.triu(-1)?.tril(1)?)?, b),
        AssumeA::Symmetric | AssumeA::Hermitian => {
            // the matrix the read triangle stands for (its transpose is itself)
            let (half, strict) = if opts.lower { (a.tril(0)?, a.tril(-1)?) } else { (a.triu(0)?, a.triu(1)?) };
            let mirror = crate::matrix_transpose(&strict)?;
            let mirror = if opts.assume_a == AssumeA::Hermitian { mirror.conj()? } else { mirror };
            let full = half.add(&mirror)?;
            let full = if opts.assume_a == AssumeA::Hermitian && full.dtype().is_complex() {
                // the diagonal of a Hermitian matrix is real: its imaginary part is not read
                let d = eye_like(&full)?;
                full.sub(&full.imag()?.mul(&d)?.mul(xp_core::Complex64::new(0.0, 1.0))?)?
            } else {
                full
            };
            solve(&full, b)
        }
        AssumeA::PositiveDefinite => cho_solve(&cho_factor(a, opts.lower)?, b),
    }
}

/// The identity of `a`'s order, dtype and device (broadcast over its batch by the caller's op).
fn eye_like(a: &Array) -> Result<Array> {
    let n = a.shape()[a.ndim() - 1];
    crate::on(a.device()).eye(n, None, 0, a.dtype())
}
