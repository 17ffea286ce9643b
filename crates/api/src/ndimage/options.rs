//! SciPy's keyword arguments of the filters, as option structs whose `Default` is SciPy's
//! defaults, so that a call names only what differs:
//!
//! ```
//! use xp::ndimage::{gaussian_filter, uniform_filter1d, Filter1d, Gaussian, Mode};
//! let x = xp::Array::from_vec(vec![0.0, 0.0, 1.0, 0.0, 0.0], [5]).unwrap();
//! let g = gaussian_filter(&x, &[1.0], Gaussian::default()).unwrap();      // mode reflect, truncate 4
//! let d = gaussian_filter(&x, &[1.0], Gaussian { order: &[1], ..Default::default() }).unwrap();
//! let u = uniform_filter1d(&x, 3, Filter1d { mode: Mode::Constant(0.0), ..Default::default() }).unwrap();
//! assert_eq!(u.to_vec::<f64>().unwrap()[1], 1.0 / 3.0);
//! # let _ = (g, d);
//! ```
use super::Mode;

/// The border and origin of an N-D filter (SciPy's `mode`/`cval` and `origin` keywords;
/// the default is `mode='reflect'`, `origin=0`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Filter<'a> {
    /// how the input is extended beyond its border
    pub mode: Mode,
    /// the window's offset: one value for every axis or one per axis
    pub origin: &'a [isize],
}

impl Default for Filter<'_> {
    fn default() -> Self {
        Filter { mode: Mode::Reflect, origin: &[0] }
    }
}

/// The axis, border and origin of a 1-D filter (SciPy's `axis=-1`, `mode='reflect'`,
/// `origin=0`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Filter1d {
    /// the axis filtered (negative counts from the end)
    pub axis: isize,
    /// how the input is extended beyond its border
    pub mode: Mode,
    /// the window's offset
    pub origin: isize,
}

impl Default for Filter1d {
    fn default() -> Self {
        Filter1d { axis: -1, mode: Mode::Reflect, origin: 0 }
    }
}

/// The keywords of [`super::gaussian_filter`] (and [`super::gaussian_laplace`], which takes
/// the border, `truncate` and `radius` from it): SciPy's `order=0`, `mode='reflect'`,
/// `truncate=4.0`, `radius=None`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gaussian<'a> {
    /// the derivative order per axis, 0 (smoothing) to 3: one value or one per axis
    pub order: &'a [usize],
    /// how the input is extended beyond its border
    pub mode: Mode,
    /// the kernel is cut at this many standard deviations
    pub truncate: f64,
    /// the kernel's radius in taps, overriding `truncate`: one value or one per axis
    pub radius: Option<&'a [usize]>,
}

impl Default for Gaussian<'_> {
    fn default() -> Self {
        Gaussian { order: &[0], mode: Mode::Reflect, truncate: 4.0, radius: None }
    }
}

/// The keywords of [`super::gaussian_filter1d`]: SciPy's `axis=-1`, `order=0`,
/// `mode='reflect'`, `truncate=4.0`, `radius=None`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gaussian1d {
    /// the axis filtered (negative counts from the end)
    pub axis: isize,
    /// the derivative order, 0 (smoothing) to 3
    pub order: usize,
    /// how the input is extended beyond its border
    pub mode: Mode,
    /// the kernel is cut at this many standard deviations
    pub truncate: f64,
    /// the kernel's radius in taps, overriding `truncate`
    pub radius: Option<usize>,
}

impl Default for Gaussian1d {
    fn default() -> Self {
        Gaussian1d { axis: -1, order: 0, mode: Mode::Reflect, truncate: 4.0, radius: None }
    }
}
