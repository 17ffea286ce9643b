//! SciPy's `upfirdn`: upsample (insert zeros), FIR filter, downsample, along one axis, with
//! zeros beyond the ends. Built on [`super::oaconvolve`], so it runs on every device.
use super::{oaconvolve, Mode};
use crate::fft::slice_axis;
use crate::{Array, PadMode};
use xp_core::{normalize_axis, promote_types, DType, Error, Result, Scalar, SliceElem};

/// SciPy's `upfirdn(h, x, up, down, axis)` (its default `mode="constant"`, `cval=0`): `x` with
/// `up - 1` zeros after each sample, convolved with the 1-D filter `h` (in full), every
/// `down`-th sample kept: `((n - 1) up + len(h) - 1) / down + 1` points along `axis`.
///
/// The dtype is SciPy's `result_type(h, x, float32)`. The filtering is an FFT convolution
/// (overlap-add for long signals) of the zero-stuffed signal rather than a polyphase loop: a
/// few FFTs on any device, instead of `n · len(h) / down` multiply-adds. An empty or non-1-D
/// `h` and `up` or `down` of 0 are [`Error::InvalidArgument`]s.
///
/// ```
/// use xp::signal::upfirdn;
/// let h = xp::Array::from_vec(vec![1.0, 1.0], &[2]).unwrap();
/// let x = xp::Array::from_vec(vec![1.0, 2.0, 3.0], &[3]).unwrap();
/// // upsample by 2 with a zero-order hold
/// let y = upfirdn(&h, &x, 2, 1, -1).unwrap().to_vec::<f64>().unwrap();
/// let want = [1.0, 1.0, 2.0, 2.0, 3.0, 3.0];
/// assert!(y.iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-12));
/// ```
pub fn upfirdn(h: &Array, x: &Array, up: usize, down: usize, axis: isize) -> Result<Array> {
    let op = "upfirdn";
    let ax = normalize_axis(op, axis, x.ndim())?;
    if h.ndim() != 1 || h.size() == 0 {
        return Err(Error::invalid(op, "h must be 1-D with non-zero length"));
    }
    if up < 1 || down < 1 {
        return Err(Error::invalid(op, "Both up and down must be >= 1"));
    }
    let d = promote_types(promote_types(h.dtype(), x.dtype()), DType::F32);
    let n = x.shape()[ax];
    if n == 0 {
        // SciPy's output length ((n - 1) up + len(h) - 1) // down + 1 still counts the filter's
        // tail past the (absent) signal: zeros
        let len = (h.size() as i64 - 1 - up as i64).div_euclid(down as i64) + 1;
        let mut shape = x.shape().to_vec();
        shape[ax] = len.max(0) as usize;
        return crate::on(x.device()).zeros(&shape, d);
    }
    let x = x.astype(d)?;
    let stuffed = if up > 1 {
        // (…, n, 1, …) padded to (…, n, up, …) and merged: each sample then up - 1 zeros
        let mut w = vec![(0, 0); x.ndim() + 1];
        w[ax + 1] = (0, up - 1);
        let mut shape: Vec<isize> = x.shape().iter().map(|&v| v as isize).collect();
        shape[ax] = (n * up) as isize;
        let s = x.expand_dims(ax as isize + 1)?.pad(&w, PadMode::Constant(Scalar::Int(0)))?.reshape(&shape)?;
        slice_axis(&s, ax, 0, (n - 1) * up + 1)?
    } else {
        x
    };
    let mut hshape = vec![1; stuffed.ndim()];
    hshape[ax] = h.size();
    let h = h.astype(d)?.reshape(&hshape.iter().map(|&v| v as isize).collect::<Vec<_>>())?;
    let y = oaconvolve(&stuffed, &h, Mode::Full, Some(&[ax as isize]))?;
    let mut ix = vec![SliceElem::Slice { start: None, stop: None, step: 1 }; y.ndim()];
    ix[ax] = SliceElem::Slice { start: None, stop: None, step: down as isize };
    y.slice(ix)?.copy()
}
