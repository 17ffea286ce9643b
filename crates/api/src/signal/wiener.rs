//! SciPy's `wiener`: an adaptive noise-removal filter from the local mean and variance of an
//! N-D array, on any device through [`super::correlate`] with a window of ones.
use super::{correlate, Method, Mode};
use crate::Array;
use xp_core::{DType, Error, Result};

/// SciPy's `wiener(im, mysize, noise)`: with the local mean `μ` and variance `σ²` over a window
/// of `mysize` (one size per axis, or one for all; default 3) with zeros beyond the edges, the
/// output is `μ + (1 - noise / σ²) (im - μ)`, or `μ` where `σ² < noise`. `noise` defaults to
/// the mean of the local variances. The result is float64 for real input (SciPy's correlation
/// with a float64 window promotes). A `mysize` of the wrong length or a 0 in it is an
/// [`Error::InvalidArgument`].
///
/// ```
/// use xp::signal::wiener;
/// let im = xp::Array::from_vec(vec![2.0; 9], &[3, 3]).unwrap();
/// // flat inside (the zero padding makes the edges vary): the centre is its local mean
/// let out = wiener(&im, None, None).unwrap().to_vec::<f64>().unwrap();
/// assert!((out[4] - 2.0).abs() < 1e-12);
/// ```
pub fn wiener(im: &Array, mysize: Option<&[usize]>, noise: Option<f64>) -> Result<Array> {
    let op = "wiener";
    let size: Vec<usize> = match mysize {
        None => vec![3; im.ndim()],
        Some([s]) => vec![*s; im.ndim()],
        Some(s) if s.len() == im.ndim() => s.to_vec(),
        Some(s) => {
            return Err(Error::invalid(op, format!("mysize has {} sizes for an array of {} axes", s.len(), im.ndim())))
        }
    };
    if size.contains(&0) {
        return Err(Error::invalid(op, "mysize must be positive"));
    }
    let count: usize = size.iter().product();
    let ones = crate::on(im.device()).ones(&size, DType::F64)?;
    let local = |a: &Array| -> Result<Array> { correlate(a, &ones, Mode::Same, Method::Direct)?.div(count as f64) };
    let mean = local(im).map_err(|e| e.in_op(op))?;
    let var = local(&im.mul(im)?)?.sub(&mean.mul(&mean)?)?;
    let noise = match noise {
        Some(v) => v,
        None => var.mean(..)?.item::<f64>()?,
    };
    let res = im.sub(&mean)?.mul(&crate::subtract(1.0, &crate::divide(noise, &var)?)?)?.add(&mean)?;
    crate::where_(&var.lt(noise)?, &mean, &res)
}
