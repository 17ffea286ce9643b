//! SciPy's N-D `convolve` / `correlate` (direct or by FFT) and the 2-D `convolve2d` /
//! `correlate2d` with their boundaries. The direct method makes one multiply-add pass over the
//! first operand per element of the second, in the promoted dtype (integers exact); the tiled GPU
//! kernels of the issue are to replace it for large kernels.
use super::fftconv::{cut, ordered, spans};
use super::{fftconvolve, Mode};
use crate::manip::PadMode;
use crate::Array;
use xp_core::{promote_types, Complex64, Error, Result, Scalar};

/// How [`convolve`] and [`correlate`] compute (SciPy's `method`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Method {
    /// [`Method::Fft`] for float operands whose smaller one has more than 64 elements, else
    /// [`Method::Direct`] (integers always direct, so that they stay exact)
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

/// The full direct convolution: one pass per element of `in2`.
pub(super) fn direct_full(in1: &Array, in2: &Array) -> Result<Array> {
    let dt = promote_types(in1.dtype(), in2.dtype());
    let (s1, s2) = (in1.shape().to_vec(), in2.shape().to_vec());
    let full: Vec<usize> = s1.iter().zip(&s2).map(|(a, b)| a + b - 1).collect();
    let a = in1.astype(dt)?;
    let taps = in2.astype(dt)?.to_buffer()?;
    let acc = crate::on(in1.device()).zeros(&full, dt)?;
    let mut at = vec![0usize; s2.len()];
    for k in 0..in2.size() {
        // `at`: the C-order position of tap k
        let mut r = k;
        for (i, &n) in s2.iter().enumerate().rev() {
            at[i] = r % n;
            r /= n;
        }
        let seg = acc.slice(spans(&at, &s1))?;
        seg.assign(&seg.add(&a.mul(taps.get(k).expect("k < size"))?)?)?;
    }
    Ok(acc)
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
    let float = |x: &Array| x.dtype().is_float() || x.dtype().is_complex();
    let fft = match method {
        Method::Fft => true,
        Method::Direct => false,
        Method::Auto => float(a) && float(b) && a.size().min(b.size()) > 64,
    };
    if fft || empty(a, b) {
        return fftconvolve(in1, in2, mode).map_err(|e| e.in_op(op));
    }
    let full = direct_full(a, b)?;
    cut(full, a.shape(), b.shape(), mode)
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
/// `convolve2d`): computed directly, in the promoted dtype.
pub fn convolve2d(in1: &Array, in2: &Array, mode: Mode, boundary: Boundary) -> Result<Array> {
    let op = "convolve2d";
    two_d(op, in1, in2)?;
    let (a, b) = ordered(op, in1, in2, mode)?;
    if empty(a, b) {
        return convolve(a, b, mode, Method::Direct);
    }
    let pad = match boundary {
        Boundary::Fill(v) if v.to_c128() == Complex64::new(0.0, 0.0) => return convolve(a, b, mode, Method::Direct),
        _ if mode == Mode::Valid => return convolve(a, b, mode, Method::Direct),
        Boundary::Fill(v) => PadMode::Constant(v),
        Boundary::Wrap => PadMode::Wrap,
        Boundary::Symm => PadMode::Symmetric,
    };
    // the border the full result reads, then only the products that lie inside it
    let (s1, s2) = (a.shape().to_vec(), b.shape().to_vec());
    let widths: Vec<(usize, usize)> = s2.iter().map(|&m| (m - 1, m - 1)).collect();
    let dt = promote_types(a.dtype(), b.dtype());
    let padded = a.astype(dt)?.pad(&widths, pad)?;
    let full = convolve(&padded, b, Mode::Valid, Method::Direct)?;
    cut(full, &s1, &s2, mode)
}

/// The 2-D cross-correlation with `boundary` (SciPy's `correlate2d`).
pub fn correlate2d(in1: &Array, in2: &Array, mode: Mode, boundary: Boundary) -> Result<Array> {
    let op = "correlate2d";
    two_d(op, in1, in2)?;
    let (a, _) = ordered(op, in1, in2, mode)?;
    if std::ptr::eq(a, in2) && in1.shape() != in2.shape() {
        // 'valid' swapped: SciPy correlates the other way and reverses (without conjugating)
        return convolve2d(in2, &reverse_conj(in1)?, mode, boundary)?.flip(..);
    }
    let w = reverse_conj(in2)?;
    if mode == Mode::Same {
        // SciPy centres a 2-D correlation at m/2 of the full result (a convolution at (m-1)/2)
        let full = convolve2d(in1, &w, Mode::Full, boundary).map_err(|e| e.in_op(op))?;
        let start: Vec<usize> = in2.shape().iter().map(|&m| m / 2).collect();
        return full.slice(spans(&start, in1.shape()))?.copy();
    }
    convolve2d(in1, &w, mode, boundary).map_err(|e| e.in_op(op))
}
