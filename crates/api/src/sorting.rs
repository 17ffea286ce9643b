//! Sorting and searching: `sort`, `argsort` (stable, NaNs last, complex lexicographic, every
//! dtype), `lexsort`, `partition`, `argpartition`, `searchsorted`. The backends sort
//! order-preserving keys with radix sorts (see `xp_core::SortStorage`).
//!
//! ```
//! let a = xp::Array::from_vec(vec![3.0f32, f32::NAN, -1.0, 2.0], &[4]).unwrap();
//! let s = a.sort(-1).unwrap();
//! assert_eq!(&s.to_vec::<f32>().unwrap()[..3], &[-1.0, 2.0, 3.0]);
//! assert_eq!(a.argsort(-1).unwrap().to_vec::<i64>().unwrap(), vec![2, 3, 0, 1]);
//! let sorted = xp::Array::from_vec(vec![1i64, 2, 2, 5], &[4]).unwrap();
//! let v = xp::Array::from_vec(vec![2i64, 6], &[2]).unwrap();
//! let i = xp::searchsorted(&sorted, &v, xp::Side::Right, None).unwrap();
//! assert_eq!(i.to_vec::<i64>().unwrap(), vec![3, 4]);
//! ```
use crate::axes::IntoAxes;
use crate::backend::{on_many, on_storage, Reads};
use crate::ufunc::{materialize, Operand};
use crate::{take_along_axis, Array};
use xp_core::{normalize_axis, promote_types, promote_weak, Error, Result, Side, SortOutput, SortStorage};

impl Array {
    fn sort_impl(&self, axis: impl IntoAxes, out: SortOutput, op: &'static str) -> Result<Array> {
        let (x, ax) = match axis.into_axes().single(op)? {
            None => (self.ravel()?, 0),
            Some(a) => {
                if self.ndim() == 0 {
                    return Err(Error::invalid(op, "cannot sort a 0-d array along an axis; use axis `..`"));
                }
                (self.clone(), normalize_axis(op, a, self.ndim())?)
            }
        };
        let s = on_storage!(&*x.read(), s => s.sort(&x.layout, ax, out))?;
        Ok(Array::from_storage(s, x.shape()))
    }
    /// NumPy's `sort(a, axis)`: a sorted copy along `axis` (`..`: of the flattened array), stable,
    /// in NumPy's order (NaNs last, complex by real then imaginary part).
    pub fn sort(&self, axis: impl IntoAxes) -> Result<Array> {
        self.sort_impl(axis, SortOutput::Values, "sort")
    }
    /// NumPy's `argsort(a, axis, stable=True)`: the int64 positions that sort each line (equal
    /// elements keep their order).
    pub fn argsort(&self, axis: impl IntoAxes) -> Result<Array> {
        self.sort_impl(axis, SortOutput::Indices, "argsort")
    }
    /// NumPy's `partition(a, kth, axis)`: the element of rank `k` at position `k` for each `k` of
    /// `kth`, smaller ones before and larger ones after. (xp sorts the whole line, which is one
    /// valid partition: the order within each part is unspecified in NumPy too.)
    pub fn partition(&self, kth: &[isize], axis: impl IntoAxes) -> Result<Array> {
        let axes = axis.into_axes();
        check_kth(self, kth, &axes, "partition")?;
        self.sort(axes)
    }
    /// NumPy's `argpartition(a, kth, axis)`: the positions of [`Array::partition`]'s result.
    pub fn argpartition(&self, kth: &[isize], axis: impl IntoAxes) -> Result<Array> {
        let axes = axis.into_axes();
        check_kth(self, kth, &axes, "argpartition")?;
        self.argsort(axes)
    }
}

fn check_kth(a: &Array, kth: &[isize], axes: &crate::Axes, op: &'static str) -> Result<()> {
    let n = match axes.single(op)? {
        None => a.size(),
        Some(x) if a.ndim() > 0 => a.shape()[normalize_axis(op, x, a.ndim())?],
        Some(_) => return Err(Error::invalid(op, "cannot partition a 0-d array along an axis")),
    };
    for &k in kth {
        if k < -(n as isize) || k >= n as isize {
            return Err(Error::invalid(op, format!("kth(={k}) out of bounds ({n})")));
        }
    }
    Ok(())
}

/// NumPy's `sort(a, axis)`.
pub fn sort(a: &Array, axis: impl IntoAxes) -> Result<Array> {
    a.sort(axis)
}
/// NumPy's `argsort(a, axis)` (stable).
pub fn argsort(a: &Array, axis: impl IntoAxes) -> Result<Array> {
    a.argsort(axis)
}

/// NumPy's `lexsort(keys)`: the stable permutation that sorts by the last key, then the one
/// before it, and so on, along the last axis (keys of one shape).
pub fn lexsort(keys: &[&Array]) -> Result<Array> {
    let Some(first) = keys.first() else { return Err(Error::invalid("lexsort", "need sequence of keys with len > 0")) };
    if first.ndim() == 0 {
        return Err(Error::invalid("lexsort", "keys must be at least 1-dimensional"));
    }
    let mut idx = first.argsort(-1)?;
    for k in &keys[1..] {
        if k.shape() != first.shape() {
            return Err(Error::ShapeMismatch { op: "lexsort", lhs: first.shape().to_vec(), rhs: k.shape().to_vec() });
        }
        let perm = take_along_axis(k, &idx, -1)?.argsort(-1)?;
        idx = take_along_axis(&idx, &perm, -1)?;
    }
    Ok(idx)
}

/// NumPy's `searchsorted(a, v, side, sorter)`: where each element of `v` would go in the 1-D `a`
/// (sorted ascending, or put in order by the permutation `sorter`) to keep it sorted; int64 of
/// `v`'s shape. Both are compared in their promoted dtype, in the sort's order (NaNs last).
pub fn searchsorted<'a>(a: &Array, v: impl Into<Operand<'a>>, side: Side, sorter: Option<&Array>) -> Result<Array> {
    if a.ndim() != 1 {
        return Err(Error::invalid("searchsorted", "a must be 1-dimensional"));
    }
    let v = v.into();
    let dtype = match &v {
        Operand::Array(x) => {
            if x.device() != a.device() {
                return Err(Error::DeviceMismatch { op: "searchsorted", lhs: a.device(), rhs: x.device() });
            }
            promote_types(a.dtype(), x.dtype())
        }
        Operand::Scalar(s) => promote_weak(a.dtype(), s),
    };
    let a = match sorter {
        Some(s) => {
            if s.shape() != a.shape() {
                return Err(Error::invalid("searchsorted", "sorter must have the shape of a"));
            }
            a.take(s, 0)?
        }
        None => a.clone(),
    };
    let a = a.cast_if(dtype)?;
    let v = materialize(&v, dtype, a.device())?;
    let reads = Reads::lock(&[&a, &v]);
    let s = on_many!(reads.many("searchsorted")?, x => x[0].searchsorted(&a.layout, x[1], &v.layout, side))?;
    Ok(Array::from_storage(s, v.shape()))
}
