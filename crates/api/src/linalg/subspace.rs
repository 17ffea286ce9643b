//! SciPy's functions built on the SVD and the Hermitian eigensolver: `polar`, `pinvh`, batched
//! over leading axes.
//!
//! ```
//! use xp::linalg::{self, Side};
//! let a = xp::Array::from_vec(vec![1.0f64, 2.0, 3.0, 4.0], &[2, 2]).unwrap();
//! let f = linalg::polar(&a, Side::Right).unwrap();          // a = u p
//! assert!(xp::allclose(&xp::matmul(&f.u, &f.p).unwrap(), &a).unwrap());
//! ```
use super::decomp::svd;
use crate::Array;
use xp_core::Result;

/// Which side the positive semidefinite factor of [`polar`] stands on (SciPy's `side`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Side {
    /// `A = U P` (SciPy's default)
    #[default]
    Right,
    /// `A = P U`
    Left,
}

impl std::str::FromStr for Side {
    type Err = xp_core::Error;
    /// SciPy's names, `"right"` and `"left"`.
    fn from_str(s: &str) -> Result<Side> {
        match s {
            "right" => Ok(Side::Right),
            "left" => Ok(Side::Left),
            _ => Err(xp_core::Error::InvalidArgument {
                op: "polar",
                msg: format!("side must be either 'right' or 'left', got {s:?}"),
            }),
        }
    }
}

/// The factors of [`polar`].
#[derive(Clone, Debug)]
pub struct Polar {
    /// orthonormal columns (or rows, for a wide matrix): `(.., m, n)`
    pub u: Array,
    /// Hermitian positive semidefinite: `(.., n, n)` on the right, `(.., m, m)` on the left
    pub p: Array,
}

/// The polar decomposition (SciPy `polar(a, side)`), from the thin SVD `A = W S Vᴴ`:
/// `U = W Vᴴ`, `P = V S Vᴴ` (right) or `W S Wᴴ` (left).
pub fn polar(a: &Array, side: Side) -> Result<Polar> {
    let f = svd(a, false)?;
    let u = crate::matmul(&f.u, &f.vh)?;
    let s = f.s.expand_dims(-1)?.astype(f.u.dtype())?;
    let p = match side {
        Side::Right => {
            let v = crate::matrix_transpose(&f.vh)?.conj()?;
            crate::matmul(&v, &f.vh.mul(&s)?)?
        }
        Side::Left => {
            let wh = crate::matrix_transpose(&f.u)?.conj()?;
            crate::matmul(&f.u, &wh.mul(&s)?)?
        }
    };
    Ok(Polar { u, p })
}

/// SciPy's `pinvh` options; the default is SciPy's (`atol` 0, `rtol` `n·eps`, the lower
/// triangle read).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pinvh {
    /// absolute cutoff for small eigenvalues
    pub atol: Option<f64>,
    /// relative cutoff (times the largest |eigenvalue|)
    pub rtol: Option<f64>,
    /// read the lower triangle (else the upper)
    pub lower: bool,
}

impl Default for Pinvh {
    fn default() -> Self {
        Pinvh { atol: None, rtol: None, lower: true }
    }
}

/// The pseudo-inverse of Hermitian matrices (SciPy `pinvh(a, atol, rtol, lower)`), from the
/// eigendecomposition of the triangle read: `V diag(1/w) Vᴴ` over the eigenvalues with
/// `|w| > atol + rtol·max|w|` (each matrix of a stack its own cutoff). Negative tolerances are
/// [`xp_core::Error::InvalidArgument`].
pub fn pinvh(a: &Array, opts: Pinvh) -> Result<Array> {
    let (atol, rtol) = (opts.atol.unwrap_or(0.0), opts.rtol);
    if atol < 0.0 || rtol.is_some_and(|r| r < 0.0) {
        return Err(xp_core::Error::InvalidArgument {
            op: "pinvh",
            msg: "atol and rtol values must be positive.".into(),
        });
    }
    let f = super::eigh(a, if opts.lower { super::Uplo::Lower } else { super::Uplo::Upper })?;
    let n = f.v.shape()[f.v.ndim() - 1];
    let eps = if f.w.dtype() == xp_core::DType::F32 { f32::EPSILON as f64 } else { f64::EPSILON };
    let rtol = rtol.unwrap_or(n as f64 * eps);
    let aw = f.w.abs()?;
    let top = if n == 0 { aw.clone() } else { aw.max_keepdim(-1)? };
    let keep = aw.gt(&top.mul(rtol)?.add(atol)?)?;
    // 1/w where kept, 0 elsewhere (no division by the dropped ones)
    let safe = crate::where_(&keep, &f.w, 1.0)?;
    let inv = crate::where_(&keep, &safe.reciprocal()?, 0.0)?;
    let scaled = f.v.mul(&inv.expand_dims(-2)?.astype(f.v.dtype())?)?;
    crate::matmul(&scaled, &crate::matrix_transpose(&f.v)?.conj()?)
}
