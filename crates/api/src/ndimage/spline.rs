//! SciPy's B-spline prefilter (`spline_filter1d`, `spline_filter`): the coefficients whose
//! spline interpolates the samples. SciPy runs a causal and an anticausal recursion per pole
//! with boundary conditions that make it exact for the signal extended by the mode; that is the
//! same as correlating the extended signal with the filter's symmetric impulse response
//! `h[k] ∝ z^|k|` (products for two poles). `h` is computed once on the host by SciPy's
//! recursion on an impulse and cut where it falls below 1e-19 of its peak, then applied with
//! [`super::correlate`]'s 1-D correlation, so the prefilter runs on any device.
use super::correlate::correlate1d_impl;
use super::{axis_of, complex_parts, Mode};
use crate::Array;
use xp_core::{DType, Error, Result};

/// The poles of the order's prefilter (SciPy's `get_filter_poles`).
fn poles(order: usize) -> &'static [f64] {
    match order {
        2 => &[-0.171_572_875_253_809_9],
        3 => &[-0.267_949_192_431_122_7],
        4 => &[-0.361_341_225_900_220_2, -0.013_725_429_297_339_121],
        5 => &[-0.430_575_347_099_973_8, -0.043_096_288_203_264_65],
        _ => &[],
    }
}

/// SciPy's `apply_filter` with mirror boundaries on a host line.
fn recursive(c: &mut [f64], poles: &[f64]) {
    let n = c.len();
    let gain: f64 = poles.iter().map(|&z| (1.0 - z) * (1.0 - 1.0 / z)).product();
    c.iter_mut().for_each(|v| *v *= gain);
    for &z in poles {
        // causal initialisation for a mirror-symmetric line
        let zn1 = z.powi(n as i32 - 1);
        let mut zi = z;
        let mut c0 = c[0] + zn1 * c[n - 1];
        for i in 1..n - 1 {
            c0 += zi * (c[i] + zn1 * c[n - 1 - i]);
            zi *= z;
        }
        c[0] = c0 / (1.0 - zn1 * zn1);
        for i in 1..n {
            c[i] += z * c[i - 1];
        }
        c[n - 1] = (z * c[n - 2] + c[n - 1]) * z / (z * z - 1.0);
        for i in (0..n - 1).rev() {
            c[i] = z * (c[i + 1] - c[i]);
        }
    }
}

/// The prefilter's impulse response `h[-K ..= K]`, `K` where the slowest pole's `|z|^K` is
/// below 1e-19.
fn taps(order: usize) -> Vec<f64> {
    let zmax = poles(order).iter().fold(0.0f64, |m, z| m.max(z.abs()));
    let k = (-44.0 / zmax.ln()).ceil() as usize;
    // an impulse far enough from the ends that their reflections vanish
    let mut line = vec![0.0; 4 * k + 1];
    line[2 * k] = 1.0;
    recursive(&mut line, poles(order));
    line[k..=3 * k].to_vec()
}

/// The extension under which SciPy's recursion for `mode` is exact.
fn filter_mode(mode: Mode) -> Mode {
    match mode {
        Mode::GridWrap => Mode::Wrap,
        Mode::Nearest | Mode::Reflect | Mode::GridMirror => Mode::Reflect,
        _ => Mode::Mirror,
    }
}

/// The prefilter of float64 `x` along `axes` (lines of one sample are left as they are).
pub(super) fn prefilter_impl(x: &Array, order: usize, axes: &[usize], mode: Mode) -> Result<Array> {
    let h = taps(order);
    let mut cur = x.clone();
    for &ax in axes {
        if cur.shape()[ax] > 1 && cur.size() > 0 {
            cur = correlate1d_impl(&cur, &h, ax, filter_mode(mode), 0)?;
        }
    }
    Ok(cur)
}

fn check(op: &'static str, input: &Array, order: usize, lowest: usize) -> Result<()> {
    if order < lowest || order > 5 {
        return Err(Error::invalid(op, format!("spline order not supported: {order}")));
    }
    super::work_dtype(op, input).map(|_| ())
}

/// The order and border of the spline prefilter (SciPy's `order=3`, `mode='mirror'`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spline {
    /// the spline order: 0 to 5 for [`spline_filter1d`] (0 and 1 copy), 2 to 5 for
    /// [`spline_filter`]
    pub order: usize,
    /// how the input is extended beyond its border
    pub mode: Mode,
}

impl Default for Spline {
    fn default() -> Self {
        Spline { order: 3, mode: Mode::Mirror }
    }
}

/// The 1-D spline prefilter along `axis` (SciPy's `spline_filter1d`). The result is float64.
///
/// ```
/// use xp::ndimage::spline_filter1d;
/// let x = xp::Array::from_vec(vec![0.0, 1.0, 0.0, 0.0], &[4]).unwrap();
/// let c = spline_filter1d(&x, -1, Default::default()).unwrap().to_vec::<f64>().unwrap(); // cubic
/// // the cubic spline of c at the samples gives x back: (c[i-1] + 4 c[i] + c[i+1]) / 6
/// assert!(((c[0] + 4.0 * c[1] + c[2]) / 6.0 - 1.0).abs() < 1e-12);
/// ```
pub fn spline_filter1d(input: &Array, axis: isize, s: Spline) -> Result<Array> {
    let Spline { order, mode } = s;
    let op = "spline_filter1d";
    complex_parts(input, mode, |input, mode| {
        check(op, input, order, 0)?;
        let ax = axis_of(op, input, axis)?;
        let x = input.astype(DType::F64)?;
        if order < 2 {
            return Ok(x);
        }
        prefilter_impl(&x, order, &[ax], mode)
    })
}

/// The N-D spline prefilter (order 2 to 5): the 1-D one along every axis (SciPy's
/// `spline_filter`). The result is float64.
pub fn spline_filter(input: &Array, s: Spline) -> Result<Array> {
    let Spline { order, mode } = s;
    complex_parts(input, mode, |input, mode| {
        check("spline_filter", input, order, 2)?;
        let axes: Vec<usize> = (0..input.ndim()).collect();
        prefilter_impl(&input.astype(DType::F64)?, order, &axes, mode)
    })
}
