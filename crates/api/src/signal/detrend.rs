//! SciPy's `detrend`: remove the mean, or the least-squares line, along an axis, written once on
//! top of xp's reductions (any device).
use crate::Array;
use xp_core::{normalize_axis, DType, Result};

/// What [`detrend`] removes (SciPy's `type`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Detrend {
    /// the least-squares line `a + b t` of each line
    #[default]
    Linear,
    /// the mean of each line
    Constant,
}

/// `data` minus its trend along `axis`. float32 and complex64 keep their precision; other
/// dtypes are computed in float64 (SciPy's rule).
///
/// ```
/// use xp::signal::{detrend, Detrend};
/// let x = xp::Array::from_vec(vec![1.0, 3.0, 5.0, 7.0], &[4]).unwrap(); // a line
/// let r = detrend(&x, -1, Detrend::Linear).unwrap().to_vec::<f64>().unwrap();
/// assert!(r.iter().all(|v| v.abs() < 1e-12));
/// ```
pub fn detrend(data: &Array, axis: isize, kind: Detrend) -> Result<Array> {
    let ax = normalize_axis("detrend", axis, data.ndim())?;
    let d = match data.dtype() {
        d @ (DType::F32 | DType::F64 | DType::C64 | DType::C128) => d,
        _ => DType::F64,
    };
    let x = data.astype(d)?;
    let centred = x.sub(&x.mean_keepdim(axis)?)?;
    let n = x.shape()[ax];
    if kind == Detrend::Constant || n < 2 {
        return Ok(centred);
    }
    // t - mean(t) along the axis, shaped to broadcast: the slope is Σ t x / Σ t² of the centred
    // values.
    let real = if d == DType::C64 {
        DType::F32
    } else if d == DType::C128 {
        DType::F64
    } else {
        d
    };
    // t made on the device (built on the host, a long axis cost an upload of 8 n bytes: 19 ms
    // at 2^22 on the GPU), and Σ t² = n (n² - 1) / 12 in closed form
    let half = (n - 1) as f64 / 2.0;
    let nf = n as f64;
    let tt = nf * (nf * nf - 1.0) / 12.0;
    let mut shape = vec![1; x.ndim()];
    shape[ax] = n;
    let t = crate::on(x.device()).arange(0, n as i64, 1, Some(DType::F64))?.sub(half)?;
    let t = t.reshape_exact(&shape)?.astype(real)?;
    let slope = centred.mul(&t)?.sum_keepdim(axis)?.div(tt)?;
    centred.sub(&slope.mul(&t)?)
}

/// SciPy's `detrend(data, axis, type="linear", bp)`: each piece of `data` between consecutive
/// breakpoints (`0`, the sorted unique `bp`, the axis's length) minus its own least-squares
/// line. A breakpoint beyond the axis's length is an [`xp_core::Error::InvalidArgument`].
///
/// ```
/// use xp::signal::detrend_bp;
/// // two lines meeting at index 3
/// let x = xp::Array::from_vec(vec![0.0, 1.0, 2.0, 3.0, 1.0, -1.0], &[6]).unwrap();
/// let r = detrend_bp(&x, -1, &[3]).unwrap().to_vec::<f64>().unwrap();
/// assert!(r.iter().all(|v| v.abs() < 1e-12));
/// ```
pub fn detrend_bp(data: &Array, axis: isize, bp: &[usize]) -> Result<Array> {
    let op = "detrend";
    let ax = normalize_axis(op, axis, data.ndim())?;
    let n = data.shape()[ax];
    if bp.iter().any(|&b| b > n) {
        return Err(xp_core::Error::invalid(op, "Breakpoints must be less than length of data along given axis."));
    }
    let mut cuts: Vec<usize> = [0, n].iter().chain(bp).copied().collect();
    cuts.sort_unstable();
    cuts.dedup();
    let pieces: Vec<Array> = cuts
        .windows(2)
        .map(|w| detrend(&crate::fft::slice_axis(data, ax, w[0], w[1])?, axis, Detrend::Linear))
        .collect::<Result<_>>()?;
    if pieces.is_empty() {
        return detrend(data, axis, Detrend::Linear);
    }
    crate::concatenate(&pieces.iter().collect::<Vec<_>>(), axis)
}
