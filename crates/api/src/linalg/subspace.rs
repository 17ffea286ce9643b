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

/// How many singular values of each matrix exceed `rcond` (default `eps · max(m, n)`) times its
/// largest: one count for the whole stack (SciPy stacks the per-matrix bases, which must agree).
fn rank_of(op: &'static str, s: &Array, m: usize, n: usize, rcond: Option<f64>) -> Result<usize> {
    let eps = if s.dtype() == xp_core::DType::F32 { f32::EPSILON as f64 } else { f64::EPSILON };
    let rcond = rcond.unwrap_or(eps * m.max(n) as f64);
    if s.shape()[s.ndim() - 1] == 0 {
        return Ok(0);
    }
    let top = s.max_keepdim(-1)?;
    let counts =
        s.gt(&top.mul(rcond)?)?.astype(xp_core::DType::I64)?.sum(-1)?.reshape([s.size() / s.shape()[s.ndim() - 1]])?;
    let counts = counts.to_vec::<i64>()?;
    match counts.split_first() {
        Some((&c, rest)) if rest.iter().all(|&r| r == c) => Ok(c as usize),
        Some(_) => Err(xp_core::Error::InvalidArgument {
            op,
            msg: format!("the matrices of the stack have different ranks {counts:?}: their bases do not stack"),
        }),
        None => Ok(0),
    }
}

/// An orthonormal basis of the null space (SciPy `null_space(a, rcond)`): the right singular
/// vectors of the singular values at most `rcond · max(s)` (`rcond` default `eps · max(m, n)`),
/// as the columns of `(.., n, n − rank)`. A stack whose matrices have different ranks is
/// [`xp_core::Error::InvalidArgument`].
pub fn null_space(a: &Array, rcond: Option<f64>) -> Result<Array> {
    let (_, m, n) = super::prepared("null_space", a, false)?;
    let f = svd(a, true)?;
    let r = rank_of("null_space", &f.s, m, n, rcond)?;
    let rows =
        f.vh.slice([xp_core::SliceElem::Ellipsis, xp_core::SliceElem::from(r as isize..), xp_core::SliceElem::FULL])?;
    crate::matrix_transpose(&rows)?.conj()?.copy()
}

/// An orthonormal basis of the range (SciPy `orth(a, rcond)`): the left singular vectors of the
/// singular values above `rcond · max(s)` (`rcond` default `eps · max(m, n)`), as the columns of
/// `(.., m, rank)`. A stack whose matrices have different ranks is
/// [`xp_core::Error::InvalidArgument`].
pub fn orth(a: &Array, rcond: Option<f64>) -> Result<Array> {
    let (_, m, n) = super::prepared("orth", a, false)?;
    let f = svd(a, false)?;
    let r = rank_of("orth", &f.s, m, n, rcond)?;
    f.u.slice([xp_core::SliceElem::Ellipsis, xp_core::SliceElem::FULL, xp_core::SliceElem::from(0..r as isize)])?.copy()
}

/// The principal angles between the column spaces of `a` `(.., m, ka)` and `b` `(.., m, kb)`
/// in radians, largest first (SciPy `subspace_angles(A, B)`, Knyazev and Argentati's algorithm:
/// arcsin for the small angles, arccos for the large), of the real dtype. Different row counts
/// are [`xp_core::Error::InvalidArgument`].
pub fn subspace_angles(a: &Array, b: &Array) -> Result<Array> {
    let (_, m, _) = super::prepared("subspace_angles", a, false)?;
    let (_, mb, _) = super::prepared("subspace_angles", b, false)?;
    if m != mb {
        return Err(xp_core::Error::InvalidArgument {
            op: "subspace_angles",
            msg: format!("A and B must have the same number of rows, got {m} and {mb}"),
        });
    }
    let dt = super::common_dtype("subspace_angles", &[a.dtype(), b.dtype()])?;
    let (qa, qb) = (orth(&a.cast_if(dt)?, None)?, orth(&b.cast_if(dt)?, None)?);
    let ct = |x: &Array| -> Result<Array> { crate::matrix_transpose(x)?.conj() };
    let qa_qb = crate::matmul(&ct(&qa)?, &qb)?;
    let sigma = super::svdvals(&qa_qb)?;
    let rest = if qa.shape()[qa.ndim() - 1] >= qb.shape()[qb.ndim() - 1] {
        qb.sub(&crate::matmul(&qa, &qa_qb)?)?
    } else {
        qa.sub(&crate::matmul(&qb, &ct(&qa_qb)?)?)?
    };
    let mask = sigma.square()?.ge(0.5)?;
    let mu = super::svdvals(&rest)?.clip(Some(-1.0), Some(1.0))?.arcsin()?;
    let big = sigma.flip(-1)?.clip(Some(-1.0), Some(1.0))?.arccos()?;
    crate::where_(&mask, &mu, &big)
}
