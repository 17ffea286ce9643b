//! SciPy's N-D `convolve` / `correlate` (direct or by FFT) and the 2-D `convolve2d` /
//! `correlate2d` with their boundaries. The direct method pads the first operand by the mode's
//! (or the boundary's) border and runs one valid correlation with the reversed second
//! ([`crate::filter`]: the backends' tiled kernels for floats, exact multiply-add passes for
//! integers).
use super::fftconv::{circular, fast_len, ordered, span};
use super::options::Conv2d;
use super::{choose, fftconvolve, Mode};
use crate::filter::correlate_valid;
use crate::manip::PadMode;
use crate::Array;
use xp_core::{promote_types, Error, Result, Scalar};

/// How [`convolve`] and [`correlate`] compute (SciPy's `method`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Method {
    /// whichever [`choose::prefer_fft`] expects to be faster for the sizes and the device
    /// (integers always direct, so that they stay exact)
    #[default]
    Auto,
    /// the sum of products, in the operands' promoted dtype
    Direct,
    /// [`fftconvolve`]
    Fft,
}

/// The border of [`convolve2d`] and [`correlate2d`] (SciPy's `boundary` and `fillvalue`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Boundary {
    /// the input continued by a constant (SciPy's default: 0)
    Fill(Scalar),
    /// the input continued periodically
    Wrap,
    /// the input mirrored, its edge repeated
    Symm,
}

impl Default for Boundary {
    fn default() -> Self {
        Boundary::Fill(Scalar::Int(0))
    }
}

/// The convolution of `a` with `b` at `start .. start + len` of its full result, `a` continued
/// by `pad` (`a` padded so that the window of each output lies inside it, then one valid
/// correlation with `b` reversed).
fn direct_at(a: &Array, b: &Array, start: &[usize], len: &[usize], pad: PadMode) -> Result<Array> {
    correlate_valid(&extended(a, b, start, len, pad)?, &b.flip(..)?)
}

/// `a` in the operands' promoted dtype, continued by `pad` just far enough that each output at
/// `start .. start + len` of the full convolution with `b` reads inside it (its valid part).
fn extended(a: &Array, b: &Array, start: &[usize], len: &[usize], pad: PadMode) -> Result<Array> {
    // full[f] = Σ_k b[k] a[f - k]: output i reads a[start + i - (m - 1)] .. a[start + i]
    let widths: Vec<(usize, usize)> = a
        .shape()
        .iter()
        .zip(b.shape())
        .zip(start.iter().zip(len))
        .map(|((&n, &m), (&s, &l))| (m - 1 - s, l + s - n))
        .collect();
    let a = a.cast_if(promote_types(a.dtype(), b.dtype()))?;
    if widths.iter().all(|&w| w == (0, 0)) {
        Ok(a)
    } else {
        a.pad(&widths, pad)
    }
}

/// The direct convolution of `a` and `b` (same number of axes; for `Valid`, `a` the larger)
/// in `mode`, zero beyond `a`.
pub(super) fn direct(a: &Array, b: &Array, mode: Mode) -> Result<Array> {
    let (start, len) = span(a.shape(), b.shape(), mode);
    direct_at(a, b, &start, &len, PadMode::Constant(Scalar::Int(0)))
}

/// An FFT convolution's result in the operands' result type, integers rounded (SciPy's
/// `convolve(method="fft")`).
fn result_type(out: Array, a: &Array, b: &Array) -> Result<Array> {
    let rt = promote_types(a.dtype(), b.dtype());
    let out = if rt.is_integer() { out.rint()? } else { out };
    out.cast_if(rt)
}

/// Whether `method` takes the FFT for `b` over `a` with `outputs` results: `Auto` asks
/// [`choose::prefer_fft`] (and keeps integers direct, where they are exact).
fn use_fft(method: Method, a: &Array, b: &Array, outputs: usize) -> bool {
    let float = |x: &Array| x.dtype().is_float() || x.dtype().is_complex();
    match method {
        Method::Fft => true,
        Method::Direct => false,
        Method::Auto => {
            let fft: usize = a.shape().iter().zip(b.shape()).map(|(&n, &m)| fast_len(n + m - 1)).product();
            float(a) && float(b) && choose::prefer_fft(a.device(), outputs, b.size(), fft)
        }
    }
}

fn empty(in1: &Array, in2: &Array) -> bool {
    in1.size() == 0 || in2.size() == 0
}

/// The N-D convolution of `in1` and `in2` (SciPy's `scipy.signal.convolve`).
///
/// ```
/// use xp::signal::{convolve, Method, Mode};
/// let a = xp::Array::from_vec(vec![1i64, 2, 3, 4], &[2, 2]).unwrap();
/// let k = xp::Array::from_vec(vec![1i64, 1], &[1, 2]).unwrap();
/// let c = convolve(&a, &k, Mode::Full, Method::Direct).unwrap();
/// assert_eq!(c.to_vec::<i64>().unwrap(), vec![1, 3, 2, 3, 7, 4]);
/// ```
pub fn convolve(in1: &Array, in2: &Array, mode: Mode, method: Method) -> Result<Array> {
    let op = "convolve";
    let (a, b) = ordered(op, in1, in2, mode)?;
    let outputs = span(a.shape(), b.shape(), mode).1.iter().product();
    if empty(a, b) || use_fft(method, a, b, outputs) {
        return result_type(fftconvolve(in1, in2, mode).map_err(|e| e.in_op(op))?, in1, in2);
    }
    direct(a, b, mode)
}

/// `x` reversed along every axis and conjugated.
fn reverse_conj(x: &Array) -> Result<Array> {
    let x = if x.dtype().is_complex() { x.conj()? } else { x.clone() };
    x.flip(..)
}

/// The N-D cross-correlation of `in1` and `in2` (SciPy's `scipy.signal.correlate`):
/// `z[k] = Σ_l in1[l] conj(in2[l - k + N - 1])`.
pub fn correlate(in1: &Array, in2: &Array, mode: Mode, method: Method) -> Result<Array> {
    let (a, b) = ordered("correlate", in1, in2, mode)?;
    if std::ptr::eq(a, in2) && a.shape() != b.shape() {
        // 'valid' swapped: SciPy correlates the other way and reverses and conjugates back
        return reverse_conj(&convolve(in2, &reverse_conj(in1)?, mode, method)?);
    }
    convolve(in1, &reverse_conj(in2)?, mode, method).map_err(|e| e.in_op("correlate"))
}

fn two_d(op: &'static str, in1: &Array, in2: &Array) -> Result<()> {
    if in1.ndim() != 2 || in2.ndim() != 2 {
        return Err(Error::invalid(op, "in1 and in2 should both be 2-D"));
    }
    Ok(())
}

/// The 2-D convolution of `in1` and `in2` with `boundary` around `in1` (SciPy's
/// `convolve2d`). `method` is xp's addition: SciPy computes directly; `Auto` takes the FFT where
/// [`choose::prefer_fft`] expects it to be faster (for `Wrap` at `Same` size, a circular
/// convolution of `in1`'s own size).
///
/// ```
/// use xp::signal::{convolve2d, Boundary, Conv2d, Mode};
/// let img = xp::Array::from_vec(vec![1.0, 2.0, 3.0, 4.0], &[2, 2]).unwrap();
/// let k = xp::Array::from_vec(vec![1.0, 1.0], &[1, 2]).unwrap();
/// let c = convolve2d(&img, &k, Conv2d { mode: Mode::Same, boundary: Boundary::Wrap, ..Default::default() }).unwrap();
/// assert_eq!(c.to_vec::<f64>().unwrap(), vec![3.0, 3.0, 7.0, 7.0]);
/// ```
pub fn convolve2d(in1: &Array, in2: &Array, opts: Conv2d) -> Result<Array> {
    let Conv2d { mode, boundary, method } = opts;
    let op = "convolve2d";
    two_d(op, in1, in2)?;
    let (a, b) = ordered(op, in1, in2, mode)?;
    if empty(a, b) {
        return convolve(a, b, mode, Method::Direct);
    }
    let (start, len) = span(a.shape(), b.shape(), mode);
    bounded(a, b, &start, &len, boundary, method).map_err(|e| e.in_op(op))
}

/// The convolution of `a` with `b` at `start .. start + len` of the full result of `a` continued
/// by `boundary`.
fn bounded(a: &Array, b: &Array, start: &[usize], len: &[usize], boundary: Boundary, method: Method) -> Result<Array> {
    let pad = match boundary {
        Boundary::Fill(v) => PadMode::Constant(v),
        Boundary::Wrap => PadMode::Wrap,
        Boundary::Symm => PadMode::Symmetric,
    };
    if !use_fft(method, a, b, len.iter().product()) {
        return direct_at(a, b, start, len, pad);
    }
    let fits = a.shape().iter().zip(b.shape()).all(|(n, m)| m <= n);
    let out = if boundary == Boundary::Wrap && len == a.shape() && fits {
        circular(a, b, start)?
    } else {
        fftconvolve(&extended(a, b, start, len, pad)?, b, Mode::Valid)?
    };
    result_type(out, a, b)
}

/// The 2-D cross-correlation with `boundary` (SciPy's `correlate2d`; `method` as in
/// [`convolve2d`]).
pub fn correlate2d(in1: &Array, in2: &Array, opts: Conv2d) -> Result<Array> {
    let Conv2d { mode, boundary, method } = opts;
    let op = "correlate2d";
    two_d(op, in1, in2)?;
    let (a, _) = ordered(op, in1, in2, mode)?;
    if std::ptr::eq(a, in2) && in1.shape() != in2.shape() {
        // 'valid' swapped: SciPy correlates the other way and reverses (without conjugating)
        return convolve2d(in2, &reverse_conj(in1)?, opts)?.flip(..);
    }
    if empty(in1, in2) {
        return convolve2d(in1, &reverse_conj(in2)?, opts);
    }
    let w = reverse_conj(in2)?;
    let (mut start, len) = span(in1.shape(), in2.shape(), mode);
    if mode == Mode::Same {
        // SciPy centres a 2-D correlation at m/2 of the full result (a convolution at (m-1)/2)
        start = in2.shape().iter().map(|&m| m / 2).collect();
    }
    bounded(in1, &w, &start, &len, boundary, method).map_err(|e| e.in_op(op))
}
