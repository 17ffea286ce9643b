//! NumPy's functional helpers over arrays (issue 27): `apply_along_axis`, `apply_over_axes`,
//! `piecewise` and `block`. The functions given are Rust closures over [`Array`]s, so whatever
//! they compute runs on the arrays' device; the loops over slices run on the host.
//!
//! ```
//! let a = xp::Array::from_vec(vec![1.0, 2.0, 3.0, 4.0], [2, 2]).unwrap();
//! let s = xp::apply_along_axis(|v| v.sum(..), -1, &a).unwrap();
//! assert_eq!(s.to_vec::<f64>().unwrap(), vec![3.0, 7.0]);
//! ```
use crate::{concatenate, Array};
use xp_core::{normalize_axis, Error, Result, SliceElem};

/// NumPy `apply_along_axis(func1d, axis, arr)`: `func1d` applied to every 1-D slice of `arr`
/// along `axis`; the results (all of the first result's shape and dtype) take that axis's place
/// in the output. An iteration dimension of length 0 is refused, as in NumPy.
///
/// ```
/// let a = xp::Array::from_vec(vec![3, 1, 2, 9, 7, 8], [2, 3]).unwrap();
/// let s = xp::apply_along_axis(|v| v.sort(-1), 1, &a).unwrap();
/// assert_eq!(s.to_vec::<i32>().unwrap(), vec![1, 2, 3, 7, 8, 9]);
/// ```
pub fn apply_along_axis(mut func1d: impl FnMut(&Array) -> Result<Array>, axis: isize, arr: &Array) -> Result<Array> {
    let ax = normalize_axis("apply_along_axis", axis, arr.ndim())?;
    let view = arr.moveaxis(ax as isize, -1)?;
    let outer: Vec<usize> = view.shape()[..view.ndim() - 1].to_vec();
    let count: usize = outer.iter().product();
    if count == 0 {
        return Err(Error::invalid("apply_along_axis", "Cannot apply_along_axis when any iteration dimensions are 0"));
    }
    let mut results = Vec::with_capacity(count);
    for flat in 0..count {
        let mut idx = Vec::with_capacity(outer.len() + 1);
        let mut rest = flat;
        for &n in outer.iter().rev() {
            idx.push(SliceElem::Index((rest % n) as isize));
            rest /= n;
        }
        idx.reverse();
        idx.push(SliceElem::FULL);
        let r = func1d(&view.slice(&idx[..])?)?;
        if let Some(first) = results.first() {
            let first: &Array = first;
            if r.shape() != first.shape() {
                return Err(Error::ShapeMismatch {
                    op: "apply_along_axis",
                    lhs: first.shape().to_vec(),
                    rhs: r.shape().to_vec(),
                });
            }
        }
        results.push(r);
    }
    let dtype = results[0].dtype();
    let res_shape = results[0].shape().to_vec();
    let cast = results.iter().map(|r| r.astype(dtype)).collect::<Result<Vec<_>>>()?;
    let stacked = crate::stack(&cast.iter().collect::<Vec<_>>(), 0)?;
    let mut shape = outer.clone();
    shape.extend_from_slice(&res_shape);
    let buff = stacked.reshape_exact(&shape)?;
    // the result's axes go where `axis` was
    let nd = buff.ndim();
    let rn = res_shape.len();
    let mut perm: Vec<isize> = (0..ax as isize).collect();
    perm.extend((nd - rn) as isize..nd as isize);
    perm.extend(ax as isize..(nd - rn) as isize);
    buff.permute_dims(&perm)
}

/// NumPy `apply_over_axes(func, a, axes)`: `a = func(a, axis)` for each axis in turn, a result
/// with one dimension fewer getting that axis back with length 1 (so a reduction keeps the
/// rank); any other rank is refused.
///
/// ```
/// let a = xp::arange(0, 24, 1, None).unwrap().reshape([2, 3, 4]).unwrap();
/// let s = xp::apply_over_axes(|x, ax| x.sum(ax), &a, &[0, 2]).unwrap();
/// assert_eq!((s.shape(), s.to_vec::<i64>().unwrap()), (&[1, 3, 1][..], vec![60, 92, 124]));
/// ```
pub fn apply_over_axes(
    mut func: impl FnMut(&Array, isize) -> Result<Array>,
    a: &Array,
    axes: &[isize],
) -> Result<Array> {
    let mut val = a.clone();
    let n = a.ndim();
    for &axis in axes {
        let ax = normalize_axis("apply_over_axes", axis, n)? as isize;
        let res = func(&val, ax)?;
        val = if res.ndim() == val.ndim() {
            res
        } else if res.ndim() + 1 == val.ndim() {
            res.expand_dims(ax)?
        } else {
            return Err(Error::invalid("apply_over_axes", "function is not returning an array of the correct shape"));
        };
    }
    Ok(val)
}

/// A function of the selected elements, as [`Piece::Func`] holds it.
pub type PieceFn<'f> = Box<dyn Fn(&Array) -> Result<Array> + 'f>;

/// One piece of [`piecewise`]: a constant, or a function of the selected elements (a 1-D array)
/// giving one value each (or one value for all).
pub enum Piece<'f> {
    /// this value
    Value(f64),
    /// this function of the selected elements
    Func(PieceFn<'f>),
}

impl From<f64> for Piece<'_> {
    fn from(v: f64) -> Self {
        Piece::Value(v)
    }
}

impl<'f> Piece<'f> {
    /// A function piece.
    pub fn func(f: impl Fn(&Array) -> Result<Array> + 'f) -> Self {
        Piece::Func(Box::new(f))
    }
}

/// NumPy `piecewise(x, condlist, funclist)`: zeros like `x`, with the elements where
/// `condlist[i]` holds set by `funclist[i]` (later conditions overwriting earlier ones); one
/// extra piece is the value where no condition holds. Each condition is a bool array of `x`'s
/// shape; any other count of pieces is refused.
///
/// ```
/// use xp::Piece;
/// let x = xp::Array::from_vec(vec![-2.0, -1.0, 0.5, 3.0], [4]).unwrap();
/// let neg = x.lt(0.0).unwrap();
/// let y = xp::piecewise(&x, &[&neg], vec![Piece::func(|v| v.neg()), Piece::Value(1.0)]).unwrap();
/// assert_eq!(y.to_vec::<f64>().unwrap(), vec![2.0, 1.0, 1.0, 1.0]);
/// ```
pub fn piecewise(x: &Array, condlist: &[&Array], funclist: Vec<Piece<'_>>) -> Result<Array> {
    let n = condlist.len();
    if funclist.len() != n && funclist.len() != n + 1 {
        return Err(Error::invalid("piecewise", "with N conditions, there must be N or N+1 functions"));
    }
    let mut conds: Vec<Array> = Vec::with_capacity(n + 1);
    for c in condlist {
        if c.shape() != x.shape() {
            return Err(Error::ShapeMismatch { op: "piecewise", lhs: x.shape().to_vec(), rhs: c.shape().to_vec() });
        }
        conds.push(c.astype(xp_core::DType::Bool)?);
    }
    if funclist.len() == n + 1 {
        let mut any = crate::full_on(x.device(), x.shape(), false, xp_core::DType::Bool)?;
        for c in &conds {
            any = any.logical_or(c)?;
        }
        conds.push(any.logical_not()?);
    }
    let y = crate::zeros_like(x)?;
    for (c, f) in conds.iter().zip(funclist) {
        match f {
            Piece::Value(v) => crate::where_(c, v, &y)?.astype(y.dtype()).and_then(|r| y.assign(&r))?,
            Piece::Func(f) => {
                let vals = crate::extract(c, x)?;
                if vals.size() > 0 {
                    let out = f(&vals)?;
                    let out = if out.size() == 1 { out.reshape_exact(&[])?.broadcast_to(vals.shape())? } else { out };
                    crate::place(&y, c, &out.astype(y.dtype())?)?;
                }
            }
        }
    }
    Ok(y)
}

/// NumPy `block([[a, b], [c, d]])` (a list of rows): each row's arrays joined along the last
/// axis, the rows along the second-last, every array first given leading axes up to
/// `max(2, its rank)`.
///
/// ```
/// let a = xp::eye(2, None, 0, xp::DType::I32).unwrap();
/// let (b, c) = (xp::zeros([2, 1], xp::DType::I32).unwrap(), xp::zeros([1, 2], xp::DType::I32).unwrap());
/// let d = xp::Array::from_vec(vec![5i32], [1]).unwrap();
/// let m = xp::block(&[&[&a, &b], &[&c, &d]]).unwrap();
/// assert_eq!(m.to_vec::<i32>().unwrap(), vec![1, 0, 0, 0, 1, 0, 0, 0, 5]);
/// ```
pub fn block(rows: &[&[&Array]]) -> Result<Array> {
    if rows.is_empty() || rows.iter().any(|r| r.is_empty()) {
        return Err(Error::invalid("block", "Lists cannot be empty"));
    }
    let nd = rows.iter().flat_map(|r| r.iter()).map(|a| a.ndim()).max().unwrap_or(0).max(2);
    let lift = |a: &Array| -> Result<Array> {
        let mut s = vec![1; nd - a.ndim()];
        s.extend_from_slice(a.shape());
        a.reshape_exact(&s)
    };
    let joined = rows
        .iter()
        .map(|r| {
            let parts = r.iter().map(|a| lift(a)).collect::<Result<Vec<_>>>()?;
            concatenate(&parts.iter().collect::<Vec<_>>(), -1)
        })
        .collect::<Result<Vec<_>>>()?;
    concatenate(&joined.iter().collect::<Vec<_>>(), -2)
}
