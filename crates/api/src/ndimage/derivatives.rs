//! Derivative filters (SciPy's `sobel`, `prewitt`, `laplace`, `gaussian_laplace`): separable
//! 1-D correlations, passes stored in the input's dtype after each step as SciPy's are, and the
//! Laplacians' sums of second derivatives added in that dtype.
use super::correlate::{correlate1d_impl, separable};
use super::gaussian::gaussian_filter;
use super::{axis_of, complex_parts, Gaussian, Mode};
use crate::Array;
use xp_core::{Error, Result};

/// A difference `[-1, 0, 1]` along `axis`, then `smooth` along every other axis.
fn edge(op: &'static str, input: &Array, axis: isize, mode: Mode, smooth: [f64; 3]) -> Result<Array> {
    let ax = axis_of(op, input, axis)?;
    let passes: Vec<usize> = std::iter::once(ax).chain((0..input.ndim()).filter(|&a| a != ax)).collect();
    complex_parts(input, mode, |x, mode| {
        separable(op, x, &passes, |y, a| {
            let w = if a == ax { [-1.0, 0.0, 1.0] } else { smooth };
            correlate1d_impl(y, &w, a, mode, 0)
        })
    })
}

/// The Sobel derivative along `axis` (SciPy's `sobel`): `[-1, 0, 1]` along it, smoothed by
/// `[1, 2, 1]` along the others.
///
/// ```
/// use xp::ndimage::{sobel, Mode};
/// let x = xp::Array::from_vec(vec![0i32, 0, 1, 1], &[4]).unwrap();
/// assert_eq!(sobel(&x, 0, Mode::Reflect).unwrap().to_vec::<i32>().unwrap(), vec![0, 1, 1, 0]);
/// ```
pub fn sobel(input: &Array, axis: isize, mode: Mode) -> Result<Array> {
    edge("sobel", input, axis, mode, [1.0, 2.0, 1.0])
}

/// The Prewitt derivative along `axis` (SciPy's `prewitt`): `[-1, 0, 1]` along it, smoothed by
/// `[1, 1, 1]` along the others.
pub fn prewitt(input: &Array, axis: isize, mode: Mode) -> Result<Array> {
    edge("prewitt", input, axis, mode, [1.0, 1.0, 1.0])
}

/// `Σ_axis d2(axis)`, each term in the input's dtype (SciPy's `generic_laplace`).
fn sum_axes(input: &Array, d2: impl Fn(usize) -> Result<Array>) -> Result<Array> {
    if input.ndim() == 0 || input.size() == 0 {
        return input.copy();
    }
    let mut out = d2(0)?;
    for ax in 1..input.ndim() {
        out = out.add(&d2(ax)?)?.astype(input.dtype())?;
    }
    Ok(out)
}

/// The discrete Laplacian (SciPy's `laplace`): the sum over the axes of `[1, -2, 1]`.
///
/// ```
/// use xp::ndimage::{laplace, Mode};
/// let x = xp::Array::from_vec(vec![0.0, 1.0, 4.0, 9.0], &[4]).unwrap();
/// assert_eq!(laplace(&x, Mode::Nearest).unwrap().to_vec::<f64>().unwrap(), vec![1.0, 2.0, 2.0, -5.0]);
/// ```
pub fn laplace(input: &Array, mode: Mode) -> Result<Array> {
    let op = "laplace";
    complex_parts(input, mode, |x, mode| {
        super::work_dtype(op, x)?;
        sum_axes(x, |ax| separable(op, x, &[ax], |y, a| correlate1d_impl(y, &[1.0, -2.0, 1.0], a, mode, 0)))
    })
}

/// The Laplacian of the Gaussian (SciPy's `gaussian_laplace`): the sum over the axes of the
/// Gaussian filter whose order is 2 along that axis (`sigma`: one value or one per axis); the
/// border, `truncate` and `radius` come from `g`, whose `order` must be left at its default.
pub fn gaussian_laplace(input: &Array, sigma: &[f64], g: Gaussian) -> Result<Array> {
    let op = "gaussian_laplace";
    if g.order.iter().any(|&o| o != 0) {
        return Err(Error::invalid(op, "the derivative orders are the Laplacian's own: leave Gaussian::order at 0"));
    }
    let nd = input.ndim();
    complex_parts(input, g.mode, |x, mode| {
        super::work_dtype("gaussian_laplace", x)?;
        sum_axes(x, |ax| {
            let mut order = vec![0; nd];
            order[ax] = 2;
            gaussian_filter(x, sigma, Gaussian { order: &order, mode, ..g }).map_err(|e| e.in_op(op))
        })
    })
}
