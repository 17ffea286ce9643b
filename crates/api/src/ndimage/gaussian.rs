//! Gaussian filters (SciPy's `gaussian_filter1d`, `gaussian_filter`): SciPy's sampled kernel
//! (normalised, its derivatives by the polynomial recurrence of `_gaussian_kernel1d`), computed
//! on the host and applied by [`super::correlate`]'s 1-D correlation, one axis after the other.
use super::correlate::{correlate1d_impl, separable};
use super::{axis_of, complex_parts, per_axis, Gaussian, Gaussian1d};
use crate::Array;
use xp_core::{Error, Result};

/// SciPy's `_gaussian_kernel1d(sigma, order, radius)`: taps at `-radius ..= radius`.
fn kernel(sigma: f64, order: usize, radius: usize) -> Vec<f64> {
    let s2 = sigma * sigma;
    let r = radius as i64;
    let x: Vec<f64> = (-r..=r).map(|v| v as f64).collect();
    let phi: Vec<f64> = x.iter().map(|&v| (-0.5 / s2 * v * v).exp()).collect();
    let sum: f64 = phi.iter().sum();
    let phi: Vec<f64> = phi.iter().map(|p| p / sum).collect();
    if order == 0 {
        return phi;
    }
    // q: the polynomial factor of the order-th derivative, q' = (D + P) q
    let mut q = vec![0.0; order + 1];
    q[0] = 1.0;
    for _ in 0..order {
        q = (0..=order)
            .map(|i| {
                let d = if i < order { (i + 1) as f64 * q[i + 1] } else { 0.0 };
                let p = if i >= 1 { -q[i - 1] / s2 } else { 0.0 };
                d + p
            })
            .collect();
    }
    x.iter()
        .zip(&phi)
        .map(|(&v, &p)| q.iter().enumerate().map(|(i, c)| c * v.powi(i as i32)).sum::<f64>() * p)
        .collect()
}

/// The checked radius of one axis: `radius`, else `int(truncate * sigma + 0.5)`.
fn radius_of(op: &'static str, sigma: f64, order: usize, truncate: f64, radius: Option<usize>) -> Result<usize> {
    if sigma.is_nan() || sigma < 0.0 {
        return Err(Error::invalid(op, format!("sigma must be nonnegative, it is {sigma}")));
    }
    if order > 3 {
        return Err(Error::invalid(op, format!("order must be 0, 1, 2 or 3, it is {order}")));
    }
    match radius {
        Some(r) => Ok(r),
        None => {
            let lw = (truncate * sigma + 0.5).trunc();
            if lw.is_nan() || lw < 0.0 {
                return Err(Error::invalid(op, "Radius must be a nonnegative integer."));
            }
            Ok(lw as usize)
        }
    }
}

/// The weights SciPy correlates with: the kernel reversed.
pub(super) fn weights(sigma: f64, order: usize, radius: usize) -> Vec<f64> {
    let mut w = kernel(sigma, order, radius);
    w.reverse();
    w
}

/// The 1-D Gaussian filter along `axis` (SciPy's `gaussian_filter1d`): standard deviation
/// `sigma` (≥ 0; 0 returns a copy, where SciPy's kernel would be NaN), `order` 0 (smoothing) to
/// 3 (the third derivative of the Gaussian), the kernel cut at `truncate` standard deviations or
/// at `radius` taps either side.
///
/// ```
/// use xp::ndimage::gaussian_filter1d;
/// let x = xp::Array::from_vec(vec![1.0, 2.0, 3.0, 4.0, 5.0], &[5]).unwrap();
/// let g = gaussian_filter1d(&x, 1.0, Default::default()).unwrap();
/// let want = [1.42704095, 2.06782203, 3.0, 3.93217797, 4.57295905];
/// assert!(g.to_vec::<f64>().unwrap().iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-8));
/// ```
pub fn gaussian_filter1d(input: &Array, sigma: f64, g: Gaussian1d) -> Result<Array> {
    let Gaussian1d { axis, order, mode, truncate, radius } = g;
    let op = "gaussian_filter1d";
    let ax = axis_of(op, input, axis)?;
    let r = radius_of(op, sigma, order, truncate, radius)?;
    let passes: &[usize] = if sigma > 1e-15 { &[ax] } else { &[] };
    let w = weights(sigma, order, r);
    complex_parts(input, mode, |x, mode| separable(op, x, passes, |y, a| correlate1d_impl(y, &w, a, mode, 0)))
}

/// The N-D Gaussian filter (SciPy's `gaussian_filter`): a 1-D pass per axis whose `sigma`
/// exceeds 1e-15, each with its `order` (0 to 3) and `radius`; `sigma`, `order` and `radius`
/// hold one value or one per axis. Integer results are truncated after every pass, as SciPy's.
///
/// ```
/// use xp::ndimage::{gaussian_filter, Gaussian, Mode};
/// let x = xp::Array::from_vec(vec![0u8, 0, 100, 0, 0, 0, 100, 0, 0], &[3, 3]).unwrap();
/// let g = gaussian_filter(&x, &[1.0, 0.5], Gaussian { mode: Mode::Constant(0.0), ..Default::default() }).unwrap();
/// assert_eq!(g.dtype(), xp::DType::U8);
/// ```
pub fn gaussian_filter(input: &Array, sigma: &[f64], g: Gaussian) -> Result<Array> {
    let Gaussian { order, mode, truncate, radius } = g;
    let op = "gaussian_filter";
    let nd = input.ndim();
    let sigmas = per_axis(op, "sigma", sigma, nd)?;
    let orders = per_axis(op, "order", order, nd)?;
    let radii: Vec<Option<usize>> = match radius {
        Some(r) => per_axis(op, "radius", r, nd)?.into_iter().map(Some).collect(),
        None => vec![None; nd],
    };
    let mut passes = vec![];
    for ax in 0..nd {
        let r = radius_of(op, sigmas[ax], orders[ax], truncate, radii[ax])?;
        if sigmas[ax] > 1e-15 {
            passes.push((ax, weights(sigmas[ax], orders[ax], r)));
        }
    }
    let idx: Vec<usize> = (0..passes.len()).collect();
    complex_parts(input, mode, |x, mode| {
        separable(op, x, &idx, |y, k| correlate1d_impl(y, &passes[k].1, passes[k].0, mode, 0))
    })
}
