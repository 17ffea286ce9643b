//! Norms and condition numbers: `norm` (NumPy's vector and matrix orders, axes, `_keepdim`), the
//! Array API's `vector_norm` and `matrix_norm`, and `cond`.
//!
//! ```
//! use xp::linalg::{norm, NormOrd};
//! let a = xp::Array::from_vec(vec![3.0f64, -4.0, 0.0, 0.0], &[2, 2]).unwrap();
//! assert_eq!(norm(&a, None, ..).unwrap().item::<f64>().unwrap(), 5.0);          // Frobenius
//! assert_eq!(norm(&a, NormOrd::Inf, -1).unwrap().to_vec::<f64>().unwrap(), vec![4.0, 0.0]);
//! assert_eq!(norm(&a, NormOrd::P(1.0), [0, 1]).unwrap().item::<f64>().unwrap(), 4.0); // max column sum
//! ```
use crate::axes::{Axes, IntoAxes};
use crate::Array;
use xp_core::{normalize_axis, DType, Error, LinAlgKind, Result, SliceElem};

/// The order of a norm (NumPy's `ord`). `None` where an `Option<NormOrd>` is taken means NumPy's
/// default: the 2-norm of vectors, the Frobenius norm of matrices.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NormOrd {
    /// Frobenius (matrices): `sqrt(sum(|x|²))`
    Fro,
    /// nuclear (matrices): the sum of the singular values
    Nuc,
    /// `max(|x|)` (vectors); the largest row sum of |x| (matrices)
    Inf,
    /// `min(|x|)` (vectors); the smallest row sum of |x| (matrices)
    NegInf,
    /// `sum(|x|^p)^(1/p)` (vectors; 0 counts nonzeros); for matrices 1, -1 (column sums), 2, -2
    /// (extreme singular values)
    P(f64),
}

impl From<f64> for NormOrd {
    fn from(p: f64) -> Self {
        if p == f64::INFINITY {
            NormOrd::Inf
        } else if p == f64::NEG_INFINITY {
            NormOrd::NegInf
        } else {
            NormOrd::P(p)
        }
    }
}

fn bad_ord(what: &str, ord: Option<NormOrd>) -> Error {
    Error::invalid("norm", format!("invalid norm order {ord:?} for {what}"))
}

/// NumPy `norm(x, ord, axis)`: a vector norm over one axis, a matrix norm over two, and with all
/// axes (`..`) the 2-norm of the flattened array when `ord` is `None`, else the vector or matrix
/// norm of a 1-D or 2-D array. Integers and bool are computed in float64; the result is real.
pub fn norm(x: &Array, ord: impl Into<Option<NormOrd>>, axes: impl IntoAxes) -> Result<Array> {
    norm_impl(x, ord.into(), axes.into_axes(), false)
}

/// [`norm`] keeping the reduced axes with length 1.
pub fn norm_keepdim(x: &Array, ord: impl Into<Option<NormOrd>>, axes: impl IntoAxes) -> Result<Array> {
    norm_impl(x, ord.into(), axes.into_axes(), true)
}

/// Array API `vector_norm`: the vector norm over `axes` (all axes: of the flattened array).
pub fn vector_norm(x: &Array, ord: impl Into<Option<NormOrd>>, axes: impl IntoAxes) -> Result<Array> {
    let x = inexact(x)?;
    match axes.into_axes() {
        Axes::All => vector(&x.ravel()?, ord.into(), 0, false),
        Axes::List(ax) => {
            // Several axes: moved to the end and flattened into one.
            let nd = x.ndim();
            let ax = ax.iter().map(|&a| normalize_axis("vector_norm", a, nd)).collect::<Result<Vec<_>>>()?;
            let mut perm: Vec<isize> = (0..nd).filter(|i| !ax.contains(i)).map(|i| i as isize).collect();
            perm.extend(ax.iter().map(|&i| i as isize));
            let mut shape: Vec<usize> = (0..nd).filter(|i| !ax.contains(i)).map(|i| x.shape()[i]).collect();
            shape.push(ax.iter().map(|&i| x.shape()[i]).product());
            vector(&x.transpose(perm)?.reshape_exact(&shape)?, ord.into(), -1, false)
        }
    }
}

/// Array API `matrix_norm`: the matrix norm over the last two axes.
pub fn matrix_norm(x: &Array, ord: impl Into<Option<NormOrd>>) -> Result<Array> {
    norm_impl(x, ord.into(), Axes::List(vec![-2, -1]), false)
}

/// `|x|²` elementwise: one pass for real `x` (the magnitude first only for complex values).
fn squares(x: &Array) -> Result<Array> {
    if x.dtype().is_complex() {
        x.abs()?.square()
    } else {
        x.square()
    }
}

fn inexact(x: &Array) -> Result<Array> {
    if x.dtype().is_inexact() {
        Ok(x.clone())
    } else {
        x.astype(DType::F64)
    }
}

fn norm_impl(x: &Array, ord: Option<NormOrd>, axes: Axes, keep: bool) -> Result<Array> {
    let x = inexact(x)?;
    let axes = match axes {
        Axes::All if ord.is_none() => {
            let r = vector(&x.ravel()?, None, 0, false)?;
            return if keep { r.reshape_exact(&vec![1; x.ndim()]) } else { Ok(r) };
        }
        Axes::All if x.ndim() == 1 => vec![0],
        Axes::All if x.ndim() == 2 => vec![0, 1],
        Axes::All => return Err(Error::invalid("norm", "improper number of dimensions to norm")),
        Axes::List(a) => a,
    };
    match axes[..] {
        [a] => vector(&x, ord, a, keep),
        [r, c] => matrix(&x, ord, r, c, keep),
        _ => Err(Error::invalid("norm", "improper number of dimensions to norm")),
    }
}

fn vector(x: &Array, ord: Option<NormOrd>, axis: isize, keep: bool) -> Result<Array> {
    let ax = normalize_axis("norm", axis, x.ndim())? as isize;
    let sum = |a: &Array| if keep { a.sum_keepdim(ax) } else { a.sum(ax) };
    let real = x.dtype().to_real();
    match ord {
        // a real vector on the host: √(x·x) in one pass, as NumPy does (abs, square and sum are
        // three passes and two temporaries: 18× slower at 2^22)
        None | Some(NormOrd::P(2.0))
            if x.ndim() == 1
                && !keep
                && matches!(x.dtype(), DType::F32 | DType::F64)
                && x.device() == crate::Device::Cpu =>
        {
            crate::vecdot(x, x, 0)?.sqrt()
        }
        None | Some(NormOrd::P(2.0)) => sum(&squares(x)?)?.sqrt(),
        Some(NormOrd::Inf) => {
            if keep {
                x.abs()?.max_keepdim(ax)
            } else {
                x.abs()?.max(ax)
            }
        }
        Some(NormOrd::NegInf) => {
            if keep {
                x.abs()?.min_keepdim(ax)
            } else {
                x.abs()?.min(ax)
            }
        }
        Some(NormOrd::P(0.0)) => sum(&x.not_equal(0)?.astype(real)?),
        Some(NormOrd::P(1.0)) => sum(&x.abs()?),
        Some(NormOrd::P(p)) => sum(&x.abs()?.pow(p)?)?.pow(1.0 / p)?.cast_if(real),
        Some(NormOrd::Fro | NormOrd::Nuc) => Err(bad_ord("vectors", ord)),
    }
}

fn matrix(x: &Array, ord: Option<NormOrd>, r: isize, c: isize, keep: bool) -> Result<Array> {
    let nd = x.ndim();
    let (r, c) = (normalize_axis("norm", r, nd)?, normalize_axis("norm", c, nd)?);
    if r == c {
        return Err(Error::invalid("norm", "duplicate axes given"));
    }
    // After reducing one of the two axes, the other's index shifts down if it came later.
    let after = |gone: usize, other: usize| (if other > gone { other - 1 } else { other }) as isize;
    let sums = |axis: usize, other: usize, max: bool| -> Result<Array> {
        let s = x.abs()?.sum(axis as isize)?;
        if max {
            s.max(after(axis, other))
        } else {
            s.min(after(axis, other))
        }
    };
    let singular = |pick: fn(&Array) -> Result<Array>| -> Result<Array> {
        let mut perm: Vec<isize> = (0..nd).filter(|&i| i != r && i != c).map(|i| i as isize).collect();
        perm.extend([r as isize, c as isize]);
        pick(&super::svdvals(&x.transpose(perm)?)?)
    };
    let out = match ord {
        // real matrices on the host: each matrix's values as one vector, √(x·x) in one pass
        None | Some(NormOrd::Fro)
            if matches!(x.dtype(), DType::F32 | DType::F64) && x.device() == crate::Device::Cpu =>
        {
            let mut perm: Vec<isize> = (0..nd).filter(|&i| i != r && i != c).map(|i| i as isize).collect();
            perm.extend([r as isize, c as isize]);
            let mut shape: Vec<usize> = perm[..nd - 2].iter().map(|&i| x.shape()[i as usize]).collect();
            shape.push(x.shape()[r] * x.shape()[c]);
            let y = x.transpose(perm)?.reshape_exact(&shape)?;
            crate::vecdot(&y, &y, -1)?.sqrt()?
        }
        None | Some(NormOrd::Fro) => squares(x)?.sum([r as isize, c as isize])?.sqrt()?,
        Some(NormOrd::Nuc) => singular(|s| s.sum(-1))?,
        Some(NormOrd::P(2.0)) => singular(|s| s.max(-1))?,
        Some(NormOrd::P(-2.0)) => singular(|s| s.min(-1))?,
        Some(NormOrd::P(1.0)) => sums(r, c, true)?,
        Some(NormOrd::P(-1.0)) => sums(r, c, false)?,
        Some(NormOrd::Inf) => sums(c, r, true)?,
        Some(NormOrd::NegInf) => sums(c, r, false)?,
        Some(NormOrd::P(_)) => return Err(bad_ord("matrices", ord)),
    };
    if !keep {
        return Ok(out);
    }
    let mut shape = x.shape().to_vec();
    shape[r] = 1;
    shape[c] = 1;
    out.reshape_exact(&shape)
}

/// The condition number of square matrices (NumPy `cond(x, p)`): the ratio of extreme singular
/// values for `None`, 2 and -2, else `norm(x, p) * norm(inv(x), p)`, with `inf` for singular
/// matrices (NaN becomes inf unless the input held NaN, as NumPy).
pub fn cond(x: &Array, p: impl Into<Option<NormOrd>>) -> Result<Array> {
    let p = p.into();
    super::check_stack("cond", x, false)?;
    if x.size() == 0 {
        return Err(Error::invalid("cond", "cond is not defined on empty arrays"));
    }
    let r = match p {
        None | Some(NormOrd::P(2.0)) | Some(NormOrd::P(-2.0)) => {
            let s = super::svdvals(x)?;
            let first = s.slice([SliceElem::Ellipsis, SliceElem::Index(0)])?;
            let last = s.slice([SliceElem::Ellipsis, SliceElem::Index(-1)])?;
            if p == Some(NormOrd::P(-2.0)) {
                last.div(&first)?
            } else {
                first.div(&last)?
            }
        }
        Some(ord) => {
            super::check_stack("cond", x, true)?;
            let xd = x.astype(if x.dtype().is_complex() { DType::C128 } else { DType::F64 })?;
            let real = super::compute_dtype("cond", x.dtype())?.to_real();
            let nx = norm(&xd, ord, [-2, -1])?;
            let ni = match super::inv(&xd) {
                Ok(i) => norm(&i, ord, [-2, -1])?,
                Err(Error::LinAlg { kind: LinAlgKind::Singular { .. }, .. }) => per_matrix_inv_norm(&xd, ord)?,
                Err(e) => return Err(e.in_op("cond")),
            };
            nx.mul(&ni)?.cast_if(real)?
        }
    };
    // NaN (0/0, singular) becomes inf unless the input itself held NaN.
    let input_nan = x.isnan()?.any([-2, -1])?;
    let fix = r.isnan()?.logical_and(&input_nan.logical_not()?)?;
    crate::where_(&fix, f64::INFINITY, &r)
}

/// `norm(inv(m), ord)` per matrix of a stack in which some matrix is singular (inf there).
fn per_matrix_inv_norm(x: &Array, ord: NormOrd) -> Result<Array> {
    let bs = super::batch(x).to_vec();
    let n = x.shape()[x.ndim() - 1];
    let flat = x.reshape_exact(&[bs.iter().product(), n, n])?;
    let mut parts = vec![];
    for i in 0..flat.shape()[0] {
        let m = flat.slice(crate::s![i as isize])?;
        parts.push(match super::inv(&m) {
            Ok(inv) => norm(&inv, ord, [-2, -1])?,
            Err(Error::LinAlg { kind: LinAlgKind::Singular { .. }, .. }) => {
                crate::on(x.device()).full([], f64::INFINITY, x.dtype().to_real())?
            }
            Err(e) => return Err(e),
        });
    }
    crate::stack(&parts.iter().collect::<Vec<_>>(), 0)?.reshape_exact(&bs)
}
