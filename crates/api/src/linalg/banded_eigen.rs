//! SciPy's eigensolvers for banded and tridiagonal Hermitian matrices: `eig_banded`,
//! `eigh_tridiagonal`, `eigvalsh_tridiagonal`, batched over leading axes. The band is expanded
//! to the dense matrix (one gather) and handed to `eigh`, whose triangle is the one stored.
//!
//! ```
//! use xp::linalg;
//! // the tridiagonal [[2, -1, 0], [-1, 2, -1], [0, -1, 2]]: eigenvalues 2 - √2, 2, 2 + √2
//! let d = xp::Array::from_vec(vec![2.0f64, 2.0, 2.0], &[3]).unwrap();
//! let e = xp::Array::from_vec(vec![-1.0f64, -1.0], &[2]).unwrap();
//! let w = linalg::eigvalsh_tridiagonal(&d, &e).unwrap().to_vec::<f64>().unwrap();
//! assert!((w[0] - (2.0 - 2f64.sqrt())).abs() < 1e-14 && (w[2] - (2.0 + 2f64.sqrt())).abs() < 1e-14);
//! ```
use super::banded::dense;
use super::{eigh, eigvalsh, Eig, Uplo};
use crate::Array;
use xp_core::{Error, LinAlgKind, Result};

/// The eigenvalues (ascending, real) and eigenvectors (columns) of Hermitian banded matrices in
/// LAPACK's band storage (SciPy `eig_banded(a_band, lower)`): upper form `a_band[u + i - j, j]
/// = A[i, j]` for `i ≤ j` (`u` = rows − 1), lower form `a_band[i - j, j] = A[i, j]` for `i ≥ j`.
pub fn eig_banded(a_band: &Array, lower: bool) -> Result<Eig> {
    let (a, uplo) = from_band(a_band, lower)?;
    eigh(&a, uplo)
}

/// The eigenvalues alone of [`eig_banded`] (SciPy `eig_banded(a_band, lower, eigvals_only=True)`).
pub fn eigvals_banded(a_band: &Array, lower: bool) -> Result<Array> {
    let (a, uplo) = from_band(a_band, lower)?;
    eigvalsh(&a, uplo)
}

/// Eigenvalues and eigenvectors of the real symmetric tridiagonal matrices with diagonal `d`
/// `(.., n)` and off-diagonal `e` `(.., n - 1)` (SciPy `eigh_tridiagonal(d, e)`).
pub fn eigh_tridiagonal(d: &Array, e: &Array) -> Result<Eig> {
    eigh(&tridiagonal(d, e)?, Uplo::Lower)
}

/// The eigenvalues alone of [`eigh_tridiagonal`] (SciPy `eigvalsh_tridiagonal(d, e)`).
pub fn eigvalsh_tridiagonal(d: &Array, e: &Array) -> Result<Array> {
    eigvalsh(&tridiagonal(d, e)?, Uplo::Lower)
}

fn from_band(a_band: &Array, lower: bool) -> Result<(Array, Uplo)> {
    if a_band.ndim() < 2 {
        return Err(Error::LinAlg { op: "eig_banded", kind: LinAlgKind::NotMatrix { ndim: a_band.ndim() } });
    }
    let x = a_band.cast_if(super::compute_dtype("eig_banded", a_band.dtype())?)?;
    let rows = x.shape()[x.ndim() - 2];
    Ok(if lower { (dense(&x, 0)?, Uplo::Lower) } else { (dense(&x, rows - 1)?, Uplo::Upper) })
}

/// The dense lower triangle of the tridiagonal matrices of `d` and `e` (real dtypes only, as
/// SciPy's).
fn tridiagonal(d: &Array, e: &Array) -> Result<Array> {
    let op = "eigh_tridiagonal";
    for x in [d, e] {
        if x.dtype().is_complex() {
            return Err(Error::InvalidDType { op, dtype: x.dtype() });
        }
    }
    let n = d.shape().last().copied().unwrap_or(0);
    if d.ndim() < 1 || e.ndim() != d.ndim() || e.shape()[e.ndim() - 1] + 1 != n.max(1) {
        return Err(Error::InvalidArgument {
            op,
            msg: format!("d {:?} and e {:?}: e must hold one element fewer than d", d.shape(), e.shape()),
        });
    }
    let dt = super::common_dtype(op, &[d.dtype(), e.dtype()])?;
    let (d, e) = (d.cast_if(dt)?, e.cast_if(dt)?);
    // band storage of the lower form: row 0 the diagonal, row 1 the subdiagonal (padded)
    let mut pad_shape = e.shape().to_vec();
    *pad_shape.last_mut().expect("1-D at least") = 1;
    let pad = crate::on(e.device()).zeros(pad_shape.as_slice(), dt)?;
    let sub = crate::concatenate(&[&e, &pad], -1)?;
    let sub = if n == 0 { sub.slice([xp_core::SliceElem::Ellipsis, xp_core::SliceElem::from(0..0)])? } else { sub };
    let ab = crate::stack(&[&d, &sub], -2)?;
    dense(&ab, 0)
}
