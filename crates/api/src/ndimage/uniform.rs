//! Uniform (box) filters (SciPy's `uniform_filter1d`, `uniform_filter`): the sum over the
//! window by [`super::correlate`]'s 1-D correlation with unit weights, then one division by the
//! size (SciPy divides its running sum, so exact means of integers stay exact here too).
use super::correlate::{correlate1d_impl, separable};
use super::{axis_of, check_origin, complex_parts, per_axis, Filter, Filter1d, Mode};
use crate::Array;
use xp_core::{Error, Result};

fn mean_1d(x: &Array, size: usize, axis: usize, mode: Mode, origin: isize) -> Result<Array> {
    correlate1d_impl(x, &vec![1.0; size], axis, mode, origin)?.div(size as f64)
}

fn check_size(op: &'static str, size: usize, origin: isize) -> Result<()> {
    if size < 1 {
        return Err(Error::invalid(op, "incorrect filter size: it must be at least 1"));
    }
    check_origin(op, origin, size)
}

/// The mean over `size` consecutive values along `axis` (SciPy's `uniform_filter1d`), the
/// window placed by `origin` and the input extended by `mode`.
///
/// ```
/// use xp::ndimage::uniform_filter1d;
/// let x = xp::Array::from_vec(vec![2i64, 8, 0, 4, 1, 9, 9, 0], &[8]).unwrap();
/// let u = uniform_filter1d(&x, 3, Default::default()).unwrap();  // axis -1, reflect, origin 0
/// assert_eq!(u.to_vec::<i64>().unwrap(), vec![4, 3, 4, 1, 4, 6, 6, 3]);
/// ```
pub fn uniform_filter1d(input: &Array, size: usize, f: Filter1d) -> Result<Array> {
    let Filter1d { axis, mode, origin } = f;
    let op = "uniform_filter1d";
    let ax = axis_of(op, input, axis)?;
    check_size(op, size, origin)?;
    complex_parts(input, mode, |x, mode| separable(op, x, &[ax], |y, a| mean_1d(y, size, a, mode, origin)))
}

/// The mean over a box of `size` (one value or one per axis) placed by `origin` (SciPy's
/// `uniform_filter`): a 1-D pass per axis whose size exceeds 1. A size of 0 is an error (SciPy
/// skips such an axis).
pub fn uniform_filter(input: &Array, size: &[usize], f: Filter) -> Result<Array> {
    let Filter { mode, origin } = f;
    let op = "uniform_filter";
    let sizes = per_axis(op, "size", size, input.ndim())?;
    let origins = per_axis(op, "origin", origin, input.ndim())?;
    for (&s, &o) in sizes.iter().zip(&origins) {
        check_size(op, s, o)?;
    }
    let passes: Vec<usize> = (0..input.ndim()).filter(|&a| sizes[a] > 1).collect();
    complex_parts(input, mode, |x, mode| separable(op, x, &passes, |y, a| mean_1d(y, sizes[a], a, mode, origins[a])))
}
