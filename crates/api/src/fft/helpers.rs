//! The sample frequencies of a transform and the shifts that centre the zero frequency.
use crate::Array;
use xp_core::{Device, Result};

/// The sample frequencies of an `n`-point [`super::fft`] with sample spacing `d`: `[0, 1, …,
/// n/2 - 1 (or (n-1)/2), -n/2, …, -1] / (d n)` as float64 on `device`.
pub fn fftfreq(n: usize, d: f64, device: Device) -> Result<Array> {
    let val = 1.0 / (d * n as f64);
    let half = n.div_ceil(2);
    if device == Device::Cpu {
        return on_host(n, |i| if i < half { i as f64 } else { i as f64 - n as f64 } * val);
    }
    if matches!(device, Device::Cuda(_)) {
        // one kernel from the element's index (the array chain is five passes: 0.65x CuPy)
        use crate::kernel::ElementwiseKernel;
        static K: std::sync::OnceLock<ElementwiseKernel> = std::sync::OnceLock::new();
        let k = crate::kernel::once(&K, || {
            let body = "y = (double)(i < h ? i : i - n) * v;";
            ElementwiseKernel::new("int8 z, int64 h, int64 n, float64 v", "float64 y", body, "xp_fftfreq")
        })?;
        let z = crate::kernel::shape_only(&[n], device)?;
        return k.call1(&[(&z).into(), (half as i64).into(), (n as i64).into(), val.into()]);
    }
    // NumPy's: integer frequencies (the upper half negative) times 1 / (d n), made on the device
    let i = crate::on(device).arange(0, n as i64, 1, Some(xp_core::DType::I64))?;
    let k = crate::where_(&i.lt(n.div_ceil(2) as i64)?, &i, &i.sub(n as i64)?)?;
    k.mul(1.0 / (d * n as f64))
}

/// The sample frequencies of an `n`-point [`super::rfft`]: `[0, 1, …, n/2] / (d n)`.
pub fn rfftfreq(n: usize, d: f64, device: Device) -> Result<Array> {
    if device == Device::Cpu {
        let val = 1.0 / (d * n as f64);
        return on_host(n / 2 + 1, |i| i as f64 * val);
    }
    crate::on(device).arange(0, (n / 2 + 1) as i64, 1, Some(xp_core::DType::I64))?.mul(1.0 / (d * n as f64))
}

/// `f(i)` for `i` in `0..n` on the host, over the cores (one pass where the array chain is
/// four or five).
fn on_host(n: usize, f: impl Fn(usize) -> f64 + Sync + Send) -> Result<Array> {
    use rayon::prelude::*;
    // into a buffer from the host pool (a fresh one's page faults cost as much as the loop)
    let mut v = xp_cpu::pool::alloc::<f64>(n);
    (0..n).into_par_iter().with_min_len(1 << 14).map(f).collect_into_vec(&mut v);
    Array::from_vec(v, [n])
}

/// Rolls each of `axes` (None: all) by `shift(len)`.
fn shifted(x: &Array, axes: Option<&[isize]>, shift: impl Fn(usize) -> isize) -> Result<Array> {
    let all: Vec<isize> = (0..x.ndim() as isize).collect();
    let axes = axes.unwrap_or(&all);
    let shifts = axes
        .iter()
        .map(|&ax| Ok((ax, shift(x.shape()[xp_core::normalize_axis("fftshift", ax, x.ndim())?]))))
        .collect::<Result<Vec<_>>>()?;
    let r = x.roll_axes(&shifts)?;
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
