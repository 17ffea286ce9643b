//! SciPy's `medfilt` and `medfilt2d`: the median over an odd window with the input zero-padded,
//! written on [`crate::ndimage::rank_filter`].
use crate::ndimage::{rank_filter, Filter, Mode, Window};
use crate::Array;
use xp_core::{DType, Error, Result};

fn checked_sizes(op: &'static str, x: &Array, kernel_size: &[usize]) -> Result<Vec<usize>> {
    let ok = x.dtype().is_integer() || matches!(x.dtype(), DType::F32 | DType::F64);
    if !ok || x.dtype() == DType::Bool {
        return Err(Error::invalid(op, format!("dtype={} is not supported by medfilt", x.dtype())));
    }
    let sizes = match kernel_size.len() {
        1 => vec![kernel_size[0]; x.ndim()],
        n if n == x.ndim() => kernel_size.to_vec(),
        n => return Err(Error::invalid(op, format!("{n} kernel sizes given for {} axes", x.ndim()))),
    };
    if sizes.iter().any(|k| k % 2 != 1) {
        return Err(Error::invalid(op, "Each element of kernel_size should be odd."));
    }
    Ok(sizes)
}

/// The median over a window of `kernel_size` (odd; one value or one per axis) with the input
/// zero-padded (SciPy's `medfilt`; a 0-d input is taken as 1-D). Integer and float32/float64
/// inputs keep their dtype.
///
/// ```
/// let x = xp::Array::from_vec(vec![2.0, 6.0, 5.0, 4.0, 0.0, 3.0, 5.0, 7.0, 9.0, 2.0], &[10]).unwrap();
/// let m = xp::signal::medfilt(&x, &[3]).unwrap();
/// assert_eq!(m.to_vec::<f64>().unwrap(), vec![2.0, 5.0, 5.0, 4.0, 3.0, 3.0, 5.0, 7.0, 7.0, 2.0]);
/// ```
pub fn medfilt(volume: &Array, kernel_size: &[usize]) -> Result<Array> {
    let op = "medfilt";
    let v = if volume.ndim() == 0 { volume.reshape_exact(&[1])? } else { volume.clone() };
    let sizes = checked_sizes(op, &v, kernel_size)?;
    let n: usize = sizes.iter().product();
    rank_filter(&v, (n / 2) as isize, Window::Size(&sizes), Filter { mode: Mode::Constant(0.0), origin: &[0] })
        .map_err(|e| e.in_op(op))
}

/// [`medfilt`] of a 2-D array (SciPy's `medfilt2d`).
pub fn medfilt2d(input: &Array, kernel_size: &[usize]) -> Result<Array> {
    let op = "medfilt2d";
    if input.ndim() != 2 {
        return Err(Error::invalid(op, format!("medfilt2d needs a 2-D input, it has {} axes", input.ndim())));
    }
    checked_sizes(op, input, kernel_size)?;
    medfilt(input, kernel_size).map_err(|e| e.in_op(op))
}
