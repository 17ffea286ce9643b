//! The sample frequencies of a transform and the shifts that centre the zero frequency.
use crate::Array;
use xp_core::{Device, Result};

/// The sample frequencies of an `n`-point [`super::fft`] with sample spacing `d`: `[0, 1, …,
/// n/2 - 1 (or (n-1)/2), -n/2, …, -1] / (d n)` as float64 on `device`.
pub fn fftfreq(n: usize, d: f64, device: Device) -> Result<Array> {
    // NumPy's: integer frequencies (the upper half negative) times 1 / (d n), made on the device
    let i = crate::on(device).arange(0, n as i64, 1, Some(xp_core::DType::I64))?;
    let k = crate::where_(&i.lt(n.div_ceil(2) as i64)?, &i, &i.sub(n as i64)?)?;
    k.mul(1.0 / (d * n as f64))
}

/// The sample frequencies of an `n`-point [`super::rfft`]: `[0, 1, …, n/2] / (d n)`.
pub fn rfftfreq(n: usize, d: f64, device: Device) -> Result<Array> {
    crate::on(device).arange(0, (n / 2 + 1) as i64, 1, Some(xp_core::DType::I64))?.mul(1.0 / (d * n as f64))
}

/// Rolls each of `axes` (None: all) by `shift(len)`.
fn shifted(x: &Array, axes: Option<&[isize]>, shift: impl Fn(usize) -> isize) -> Result<Array> {
    let all: Vec<isize> = (0..x.ndim() as isize).collect();
    let axes = axes.unwrap_or(&all);
    let mut r = x.clone();
    for &ax in axes {
        let k = xp_core::normalize_axis("fftshift", ax, x.ndim())?;
        r = r.roll(shift(x.shape()[k]), ax)?;
    }
    if axes.is_empty() {
        r = r.copy()?;
    }
    Ok(r)
}

/// The zero frequency moved to the centre of each of `axes` (None: all): a roll by `n / 2`.
pub fn fftshift(x: &Array, axes: Option<&[isize]>) -> Result<Array> {
    shifted(x, axes, |n| (n / 2) as isize)
}

/// The inverse of [`fftshift`] (they differ for odd lengths): a roll by `-(n / 2)`.
pub fn ifftshift(x: &Array, axes: Option<&[isize]>) -> Result<Array> {
    shifted(x, axes, |n| -((n / 2) as isize))
}
