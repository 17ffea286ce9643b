//! `xp::ndimage`: SciPy's `scipy.ndimage` on every device — filters (correlation and
//! convolution, Gaussian, uniform, minimum/maximum/median/rank/percentile, derivatives) and spline
//! interpolation (`zoom`, `shift`, `rotate`, `map_coordinates`, the spline prefilter), and
//! connected components (`label`) and measurements over labelled regions (`sum_labels`, `mean`,
//! `variance`, `standard_deviation`, `minimum`, `maximum`, `center_of_mass`), and morphology with
//! flat structuring elements (`binary_*`, `grey_*`, `morphological_gradient`, `iterate_structure`).
//!
//! Everything is written once on xp's device-generic array operations (padding, views,
//! elementwise arithmetic, sorting, gathers), so it runs wherever the input lives. The core of
//! each algorithm sits behind one internal function (`correlate1d_impl`, `correlate_nd_with`,
//! `rank_filter_impl`, `interpolate_impl`) that fast backend kernels can later replace.
//!
//! Conventions, as SciPy's with types instead of strings:
//! - the border is a [`Mode`], whose constant variants carry SciPy's `cval`;
//! - per-axis parameters (`sigma`, `size`, `origin`, `zoom`, ...) are slices holding one value
//!   for every axis or one per axis (as [`crate::Array::pad`]'s widths);
//! - the result has the input's dtype (SciPy's default `output`): filters compute in float64
//!   (float32 for float32 input) and cast back as SciPy's C code does — toward zero for
//!   integers, wrapping like a C cast; interpolation rounds integers half away from zero.
//!
//! ```
//! use xp::ndimage::{gaussian_filter, median_filter, zoom, Interpolation, Window};
//! let x = xp::Array::from_vec(vec![0.0, 0.0, 1.0, 0.0, 0.0], &[5]).unwrap();
//! let g = gaussian_filter(&x, &[1.0], Default::default()).unwrap();
//! let s: f64 = g.to_vec::<f64>().unwrap().iter().sum();
//! assert!((s - 1.0).abs() < 1e-12);
//! let m = median_filter(&x, Window::Size(&[3]), Default::default()).unwrap();
//! assert_eq!(m.to_vec::<f64>().unwrap(), vec![0.0; 5]);
//! let z = zoom(&x, &[2.0], Interpolation { order: 1, ..Default::default() }, Default::default()).unwrap();
//! assert_eq!(z.shape(), &[10]);
//! ```
mod affine;
mod boundary;
mod correlate;
mod derivatives;
mod distance;
mod gaussian;
mod generic;
mod interpolate;
mod label;
mod measure;
mod measure_host;
mod morphology;
mod objects;
mod options;
mod rank;
mod spline;
mod uniform;

pub use affine::affine_transform;
pub use correlate::{convolve, convolve1d, correlate, correlate1d};
pub use derivatives::{gaussian_laplace, laplace, prewitt, sobel};
pub use distance::{distance_transform_edt, DistanceTransform};
pub use gaussian::{gaussian_filter, gaussian_filter1d};
pub use generic::{generic_filter, FilterFunction};
pub use interpolate::{map_coordinates, rotate, shift, zoom, Interpolation, Reshape, Rotate, ZoomGrid};
pub use label::{generate_binary_structure, label, Labels};
pub use measure::{
    center_of_mass, extrema, histogram, labeled_comprehension, maximum, maximum_position, mean, median, minimum,
    minimum_position, standard_deviation, sum_labels, variance, Extrema, LabelIndex,
};
pub use morphology::{
    binary_closing, binary_dilation, binary_erosion, binary_fill_holes, binary_opening, grey_closing, grey_dilation,
    grey_erosion, grey_opening, iterate_structure, morphological_gradient, Morphology,
};
pub use objects::find_objects;
pub use options::{Filter, Filter1d, Gaussian, Gaussian1d};
pub use rank::{
    maximum_filter, maximum_filter1d, median_filter, minimum_filter, minimum_filter1d, percentile_filter, rank_filter,
    Window,
};
pub use spline::{spline_filter, spline_filter1d, Spline};
pub use uniform::{uniform_filter, uniform_filter1d};

use crate::Array;
use xp_core::{normalize_axis, DType, Error, Result};

/// How the input is extended beyond its border (SciPy's `mode`, with `cval` carried by the
/// constant modes). Shown for the line `a b c d`:
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Mode {
    /// `d c b a | a b c d | d c b a`: mirrored about the edge, the edge repeated (SciPy's
    /// default for filters)
    #[default]
    Reflect,
    /// `k k k k | a b c d | k k k k`; interpolation returns `k` for points outside the input
    /// and does not interpolate beyond the edge
    Constant(f64),
    /// `a a a a | a b c d | d d d d`
    Nearest,
    /// `d c b | a b c d | c b a`: mirrored about the edge sample
    Mirror,
    /// `a b c d | a b c d | a b c d` for filters; interpolation wraps with period `n - 1`
    /// as SciPy's `wrap` does (see [`Mode::GridWrap`] for the period `n`)
    Wrap,
    /// interpolation: the input padded by `k` and interpolated there too; filters: as
    /// [`Mode::Constant`]
    GridConstant(f64),
    /// interpolation: as [`Mode::Reflect`]; filters: the same
    GridMirror,
    /// interpolation: periodic with period `n`; filters: as [`Mode::Wrap`]
    GridWrap,
}

impl Mode {
    /// The mode a filter applies: the grid modes mean the same as their plain ones there.
    fn for_filter(self) -> Mode {
        match self {
            Mode::GridConstant(c) => Mode::Constant(c),
            Mode::GridMirror => Mode::Reflect,
            Mode::GridWrap => Mode::Wrap,
            m => m,
        }
    }
    /// The same mode with another constant.
    fn with_cval(self, c: f64) -> Mode {
        match self {
            Mode::Constant(_) => Mode::Constant(c),
            Mode::GridConstant(_) => Mode::GridConstant(c),
            m => m,
        }
    }
    /// The value beyond the border of a constant mode (0 otherwise).
    fn cval(self) -> f64 {
        match self {
            Mode::Constant(c) | Mode::GridConstant(c) => c,
            _ => 0.0,
        }
    }
}

/// SciPy's rule for complex input to a linear filter or an interpolation: `f` of the real part
/// and of the imaginary part (with the imaginary part of the real `cval`: 0), joined as
/// `re + i·im`. Real input goes straight to `f`.
fn complex_parts(input: &Array, mode: Mode, f: impl Fn(&Array, Mode) -> Result<Array>) -> Result<Array> {
    if !input.dtype().is_complex() {
        return f(input, mode);
    }
    let re = f(&input.real()?, mode)?;
    let im = f(&input.imag()?, mode.with_cval(0.0))?;
    re.add(&im.mul(xp_core::Complex64::new(0.0, 1.0))?)
}

/// The dtype a real filter computes in: float32 for float32 input, float64 otherwise; float16 and
/// bfloat16 are refused as SciPy refuses them, and complex input (which the linear filters and
/// interpolations split into parts first, [`complex_parts`]) as SciPy's rank filters refuse it.
fn work_dtype(op: &'static str, x: &Array) -> Result<DType> {
    match x.dtype() {
        DType::F32 => Ok(DType::F32),
        DType::F16 | DType::BF16 => Err(Error::InvalidDType { op, dtype: x.dtype() }),
        d if d.is_complex() => Err(Error::InvalidDType { op, dtype: d }),
        _ => Ok(DType::F64),
    }
}

/// A computed result cast to `dtype` as SciPy's C code stores a double: integers toward zero,
/// then wrapped to the width as a C cast does (through int64); bool as `(npy_bool)` of the
/// truncated value, so `0.6` is `false`.
fn cast_out(r: &Array, dtype: DType) -> Result<Array> {
    if r.dtype() == dtype {
        return Ok(r.clone());
    }
    match dtype {
        d if d.is_float() => r.astype(d),
        DType::Bool => r.trunc()?.not_equal(0.0),
        d => r.trunc()?.astype(DType::I64)?.astype(d),
    }
}

/// One value per axis: a single value repeated, or one per axis (SciPy's
/// `_normalize_sequence`), else a typed error naming `what`.
fn per_axis<T: Copy>(op: &'static str, what: &str, v: &[T], ndim: usize) -> Result<Vec<T>> {
    match v.len() {
        1 => Ok(vec![v[0]; ndim]),
        n if n == ndim => Ok(v.to_vec()),
        n => Err(Error::invalid(
            op,
            format!("sequence argument {what} must have length equal to input rank ({ndim}), it has {n}"),
        )),
    }
}

/// SciPy's origin check for a window of `size`: `-(size // 2) <= origin <= (size - 1) // 2`.
fn check_origin(op: &'static str, origin: isize, size: usize) -> Result<()> {
    let (lo, hi) = (-((size / 2) as isize), (size as isize - 1) / 2);
    if origin < lo || origin > hi {
        return Err(Error::invalid(
            op,
            format!("invalid origin {origin} for a window of {size} (allowed {lo}..={hi})"),
        ));
    }
    Ok(())
}

/// The normalized axis of a 1-D filter.
fn axis_of(op: &'static str, x: &Array, axis: isize) -> Result<usize> {
    if x.ndim() == 0 {
        return Err(Error::invalid(op, "a 0-d array has no axis to filter along"));
    }
    normalize_axis(op, axis, x.ndim())
}
