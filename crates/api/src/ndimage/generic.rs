//! SciPy's `ndimage.generic_filter`: a user function of the values under the window at every
//! element. SciPy calls a Python function per element; CuPy takes a `ReductionKernel` (or a
//! `RawKernel` device function) instead. xp takes, as a [`FilterFunction`]:
//! - a [`ReductionKernel`] (CuPy's form): the window's values are stacked along a new last axis
//!   (one view of the extended input per tap of the footprint, in C order) and the kernel reduces
//!   that axis, wherever the input lives (CPU bodies in the kernels' expression subset);
//! - an [`ElementwiseKernel`] with one input per tap: the taps' views are its arguments, so
//!   nothing is stacked (the fastest form for small windows);
//! - a Rust function of the values (SciPy's callable): it runs on the host, over the stacked
//!   windows read back from the device, in parallel on the cores.
//!
//! The kernels see the values in the input's dtype (the border's `cval` cast to it, as CuPy's
//! `cast<X>`); the Rust function sees them in float64 with `cval` as given (SciPy's double
//! buffers). The result is cast back to the input's dtype as SciPy's C code stores a double
//! (integers truncated toward zero).
use super::boundary::{extend, reach, window_nd};
use super::correlate::unravel;
use super::{cast_out, check_origin, per_axis, Filter, Window};
use crate::kernel::{ElementwiseKernel, ReductionKernel};
use crate::Array;
use xp_core::{DType, Error, Result, Scalar};

/// The function [`generic_filter`] applies to each window's values.
///
/// ```
/// use xp::ndimage::{generic_filter, FilterFunction, Window};
/// let x = xp::Array::from_vec(vec![1, 2, 3, 4], &[4]).unwrap();
/// let first = |v: &[f64]| v[0]; // the window's first value
/// let r = generic_filter(&x, FilterFunction::Host(&first), Window::Size(&[2]), Default::default()).unwrap();
/// assert_eq!(r.to_vec::<i32>().unwrap(), vec![1, 1, 2, 3]);
/// ```
#[derive(Clone, Copy)]
pub enum FilterFunction<'a> {
    /// CuPy's form: a reduction kernel with one input and one output, reducing the window's
    /// values (in the input's dtype) to the output's value
    Reduction(&'a ReductionKernel),
    /// a kernel with one input per true element of the footprint (C order), called elementwise
    /// with the taps' values (a footprint without true elements is refused)
    Elementwise(&'a ElementwiseKernel),
    /// SciPy's form: a Rust function of the window's values in float64 (C order of the
    /// footprint), run on the host
    Host(&'a (dyn Fn(&[f64]) -> f64 + Sync)),
}

impl std::fmt::Debug for FilterFunction<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FilterFunction::Reduction(k) => f.debug_tuple("Reduction").field(&k.def().name).finish(),
            FilterFunction::Elementwise(k) => f.debug_tuple("Elementwise").field(&k.def().name).finish(),
            FilterFunction::Host(_) => f.write_str("Host(..)"),
        }
    }
}

/// SciPy's `generic_filter(input, function, size | footprint, mode, cval, origin)`: `function`
/// of the values under the window (a box of `size`, or the true elements of `footprint`, placed
/// at `size // 2 + origin` before each element; beyond the border the input is extended by
/// `mode`) at every element. See [`FilterFunction`] for the three forms of `function`, and the
/// module's notes for dtypes. A footprint without true elements calls the function with no
/// values, as SciPy (a reduction kernel gives its identity).
///
/// ```
/// use xp::kernel::{ElementwiseKernel, ReductionKernel};
/// use xp::ndimage::{generic_filter, Filter, FilterFunction, Mode, Window};
/// let x = xp::Array::from_vec(vec![1.0, 5.0, 2.0, 8.0, 3.0], &[5]).unwrap();
/// let nearest = Filter { mode: Mode::Nearest, ..Default::default() };
/// // a sum of squares as CuPy's reduction kernel
/// let sq = ReductionKernel::new("T x", "T y", "x * x", "a + b", "y = a", "0", "sumsq").unwrap();
/// let r = generic_filter(&x, FilterFunction::Reduction(&sq), Window::Size(&[3]), nearest).unwrap();
/// assert_eq!(r.to_vec::<f64>().unwrap(), vec![27.0, 30.0, 93.0, 77.0, 82.0]);
/// // the same window's spread as an elementwise kernel of its three taps
/// let spread = ElementwiseKernel::new("T a, T b, T c", "T y", "y = max(max(a, b), c) - min(min(a, b), c)", "spread").unwrap();
/// let s = generic_filter(&x, FilterFunction::Elementwise(&spread), Window::Size(&[3]), nearest).unwrap();
/// assert_eq!(s.to_vec::<f64>().unwrap(), vec![4.0, 4.0, 6.0, 6.0, 5.0]);
/// // and as a Rust function on the host
/// let f = |v: &[f64]| v.iter().cloned().fold(f64::MIN, f64::max) - v.iter().cloned().fold(f64::MAX, f64::min);
/// let h = generic_filter(&x, FilterFunction::Host(&f), Window::Size(&[3]), nearest).unwrap();
/// assert_eq!(h.to_vec::<f64>().unwrap(), s.to_vec::<f64>().unwrap());
/// ```
pub fn generic_filter(input: &Array, function: FilterFunction, window: Window, f: Filter) -> Result<Array> {
    let op = "generic_filter";
    if input.dtype().is_complex() {
        return Err(Error::InvalidDType { op, dtype: input.dtype() });
    }
    let nd = input.ndim();
    let origins = per_axis(op, "origin", f.origin, nd)?;
    let (footprint, fshape) = match window {
        Window::Size(s) => {
            let shape = per_axis(op, "size", s, nd)?;
            if shape.contains(&0) {
                return Err(Error::invalid(op, "incorrect filter size: every size must be at least 1"));
            }
            (vec![true; shape.iter().product()], shape)
        }
        Window::Footprint(fp) => {
            if fp.device() != input.device() {
                return Err(Error::DeviceMismatch { op, lhs: input.device(), rhs: fp.device() });
            }
            if fp.ndim() != nd {
                return Err(Error::invalid(op, "footprint array has incorrect shape"));
            }
            let v = fp.astype(DType::Bool)?.to_vec::<bool>()?;
            (v, fp.shape().to_vec())
        }
    };
    for (&o, &m) in origins.iter().zip(&fshape) {
        check_origin(op, o, m)?;
    }
    let taps = footprint.iter().filter(|&&t| t).count();
    if let FilterFunction::Reduction(k) = function
        && (k.def().ins.len() != 1 || k.def().outs.len() != 1)
    {
        return Err(Error::invalid(op, "the reduction kernel must have one input and one output"));
    }
    if let FilterFunction::Elementwise(k) = function
        && (taps == 0 || k.def().ins.len() != taps)
    {
        return Err(Error::invalid(
            op,
            format!("the elementwise kernel takes {} inputs; the window has {taps} values", k.def().ins.len()),
        ));
    }
    if input.size() == 0 {
        return input.copy();
    }
    // the window's values: one view of the extended input per true tap, in C order
    let views = |x: &Array, cval: Scalar| -> Result<Vec<Array>> {
        let widths: Vec<(usize, usize)> = fshape.iter().zip(&origins).map(|(&m, &o)| reach(m, o)).collect();
        let ext = extend(x, &widths, f.mode, cval)?;
        (0..footprint.len())
            .filter(|&k| footprint[k])
            .map(|k| window_nd(&ext, &unravel(k, &fshape), x.shape()))
            .collect()
    };
    let stacked = |v: &[Array]| crate::stack(&v.iter().collect::<Vec<_>>(), -1);
    let c = f.mode.cval();
    let r = match function {
        FilterFunction::Reduction(k) => {
            let st = if taps == 0 {
                // no values: the kernel's identity, as SciPy calls its function with none
                let mut s = input.shape().to_vec();
                s.push(0);
                crate::on(input.device()).zeros(&s[..], input.dtype())?
            } else {
                stacked(&views(input, cval_in(c, input.dtype()))?)?
            };
            k.call1(&[(&st).into()], -1isize)?
        }
        FilterFunction::Elementwise(k) => {
            let v = views(input, cval_in(c, input.dtype()))?;
            let args: Vec<crate::ufunc::Operand> = v.iter().map(|a| a.into()).collect();
            k.call1(&args)?
        }
        FilterFunction::Host(func) => {
            use rayon::prelude::*;
            let out: Vec<f64> = if taps == 0 {
                (0..input.size()).map(|_| func(&[])).collect()
            } else {
                let v = views(&input.astype(DType::F64)?, Scalar::Float(c))?;
                let w = stacked(&v)?.to_vec::<f64>()?;
                w.par_chunks(taps).with_min_len(256).map(func).collect()
            };
            Array::from_vec(out, input.shape())?.to_device(input.device())?
        }
    };
    cast_out(&r, input.dtype())
}

/// `cval` in the input's dtype, as a C cast of the double stores it.
fn cval_in(c: f64, dtype: DType) -> Scalar {
    match dtype {
        DType::Bool => Scalar::Bool(c.trunc() != 0.0),
        d if d.is_float() => Scalar::Float(c),
        _ => Scalar::Int(c.trunc() as i64),
    }
}
