//! SciPy's `filtfilt` (method "pad"): a forward and a backward pass of `lfilter`, each started
//! from the steady state of the filter scaled by the first value it sees, over the signal
//! extended at both ends. Zero phase, squared magnitude.
use super::options::{Filtfilt, Iir};
use super::{lfilter, lfilter_zi};
use crate::{Array, PadMode};
use xp_core::{normalize_axis, Error, Result};

/// How [`filtfilt`] extends the signal at both ends before filtering (SciPy's `padtype`; no
/// extension is `None` in its `Option`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PadType {
    /// point reflection about the end value: `2 x[0] - x[k]` (SciPy's `odd_ext`)
    #[default]
    Odd,
    /// mirror without repeating the end value: `x[k]` (SciPy's `even_ext`)
    Even,
    /// the end value repeated (SciPy's `const_ext`)
    Constant,
}

/// `x` extended by `n` values at both ends of `axis`.
fn extend(x: &Array, axis: usize, n: usize, kind: PadType) -> Result<Array> {
    let mut w = vec![(0, 0); x.ndim()];
    w[axis] = (n, n);
    match kind {
        PadType::Even => x.pad(&w, PadMode::Reflect),
        PadType::Constant => x.pad(&w, PadMode::Edge),
        // 2 x_end - x_mirror; the middle is 2 x - x = x exactly
        PadType::Odd => x.pad(&w, PadMode::Edge)?.mul(2)?.sub(&x.pad(&w, PadMode::Reflect)?),
    }
}

/// SciPy's `filtfilt(b, a, x, axis, padtype, padlen)` with its "pad" method: `x` filtered
/// forward and backward along `axis` by `B(z) / A(z)` with [`lfilter`], each pass started from
/// [`lfilter_zi`] scaled by its first input, over `x` extended by `padlen` values at each end
/// (default `3 max(len(a), len(b))`; `padtype` None: no extension, `padlen` 0), the extension
/// cut off at the end.
///
/// A signal not longer than `padlen` along `axis` is an [`Error::InvalidArgument`]; so are the
/// coefficient errors of [`lfilter`] and [`lfilter_zi`]. dtypes as [`lfilter`]'s, with the
/// state's (float64 for integer coefficients) among them. Runs on the array's device, as
/// [`lfilter`] does.
///
/// ```
/// use xp::signal::filtfilt;
/// let b = xp::Array::from_vec(vec![0.5, 0.5], &[2]).unwrap();
/// let a = xp::Array::from_vec(vec![1.0], &[1]).unwrap();
/// let x = xp::Array::from_vec(vec![1.0; 8], &[8]).unwrap();
/// // a constant passes a zero-phase low-pass filter unchanged
/// let y = filtfilt(&b, &a, &x, Default::default()).unwrap().to_vec::<f64>().unwrap();
/// assert!(y.iter().all(|v| (v - 1.0).abs() < 1e-12));
/// ```
pub fn filtfilt(b: &Array, a: &Array, x: &Array, opts: Filtfilt) -> Result<Array> {
    let Filtfilt { axis, padtype, padlen } = opts;
    let op = "filtfilt";
    let ax = normalize_axis(op, axis, x.ndim())?;
    let edge = match padtype {
        None => 0,
        Some(_) => padlen.unwrap_or(3 * a.size().max(b.size())),
    };
    if x.shape()[ax] <= edge {
        return Err(Error::invalid(
            op,
            format!("The length of the input vector x must be greater than padlen, which is {edge}."),
        ));
    }
    let ext = match padtype {
        Some(kind) if edge > 0 => extend(x, ax, edge, kind)?,
        _ => x.clone(),
    };
    let zi = lfilter_zi(b, a).map_err(|e| e.in_op(op))?;
    let mut zshape = vec![1; x.ndim()];
    zshape[ax] = zi.size() as isize;
    let zi = zi.to_device(x.device())?.reshape(&zshape)?;
    let n = ext.shape()[ax];
    let first = |y: &Array| crate::fft::slice_axis(y, ax, 0, 1);
    let y = lfilter(b, a, &ext, Iir { axis, zi: Some(&zi.mul(&first(&ext)?)?) }).map_err(|e| e.in_op(op))?.y;
    let rev = y.flip(axis)?;
    let y =
        lfilter(b, a, &rev, Iir { axis, zi: Some(&zi.mul(&first(&rev)?)?) }).map_err(|e| e.in_op(op))?.y.flip(axis)?;
    crate::fft::slice_axis(&y, ax, edge, n - edge)?.copy()
}
