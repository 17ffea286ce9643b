//! `fftconvolve`: N-D convolution through the real (or complex) FFT, both operands padded to a
//! length with only small prime factors, the product transformed back once and cut to the mode's
//! shape (SciPy's `scipy.signal.fftconvolve`). float32 stays in single precision.
use crate::fft::{self, FftNorm};
use crate::filter::spans;
use crate::Array;
use xp_core::{DType, Error, Result};

/// Which part of the full convolution is returned (SciPy's `mode`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Mode {
    /// every point where the operands overlap: `n1 + n2 - 1` per axis
    #[default]
    Full,
    /// the size of the first operand, centred on the full result
    Same,
    /// only points computed without padding: `n1 - n2 + 1` per axis
    Valid,
}

/// The smallest `m ≥ n` whose prime factors are 2, 3, 5 and 7 (rustfft's and cuFFT's fast
/// radices).
pub(crate) fn fast_len(n: usize) -> usize {
    (n.max(1)..)
        .find(|&m| {
            let mut r = m;
            for p in [2, 3, 5, 7] {
                while r % p == 0 {
                    r /= p;
                }
            }
            r == 1
        })
        .expect("7-smooth numbers are unbounded")
}

/// The convolution of `in1` and `in2` (of the same number of axes) over all axes, by FFT.
///
/// ```
/// use xp::signal::{fftconvolve, Mode};
/// let a = xp::Array::from_vec(vec![1.0, 2.0, 3.0], &[3]).unwrap();
/// let k = xp::Array::from_vec(vec![0.0, 1.0, 0.5], &[3]).unwrap();
/// let c = fftconvolve(&a, &k, Mode::Full).unwrap().to_vec::<f64>().unwrap();
/// let want = [0.0, 1.0, 2.5, 4.0, 1.5];
/// assert!(c.iter().zip(want).all(|(x, w)| (x - w).abs() < 1e-12));
/// ```
pub fn fftconvolve(in1: &Array, in2: &Array, mode: Mode) -> Result<Array> {
    let op = "fftconvolve";
    let work = conv_dtype(in1, in2);
    // SciPy's axes: those where either operand has length 1 broadcast, and take no part in
    // `valid`'s size check or cut
    let (in1, in2, axes) = ordered_axes(op, in1, in2, mode, None)?;
    if in1.size() == 0 || in2.size() == 0 {
        // SciPy's answer for empty operands: an empty float64 vector
        return crate::on(in1.device()).zeros([0], DType::F64);
    }
    let (s1, s2) = (in1.shape(), in2.shape());
    // Every axis of length 1 in one operand: the convolution is their product (SciPy's
    // shortcut, which keeps NumPy's promotion: int32 stays int32).
    let (mut start, mut len) = span(s1, s2, mode);
    if mode == Mode::Valid {
        for i in (0..s1.len()).filter(|i| !axes.contains(i)) {
            (start[i], len[i]) = (0, s1[i].max(s2[i]));
        }
    }
    if axes.is_empty() {
        // (the product's shape is the full result's)
        return in1.mul(in2)?.slice(spans(&start, &len));
    }
    // A circular convolution of length L aliases full[j + L] onto j: the kept part is clean once
    // L reaches past it and past the full result's end seen from its start.
    let fshape: Vec<usize> =
        (0..s1.len()).map(|i| fast_len((s1[i] + s2[i] - 1 - start[i]).max(start[i] + len[i]))).collect();
    let prod = product(in1, in2, work, &fshape)?;
    // SciPy returns the kept part as a view of the transform's output, and so does this
    prod.slice(spans(&start, &len))
}

/// The circular convolution of `a` and `b` over `shape` (each at least theirs) by FFT, in
/// `work`. The `1/n` of the inverse transform is applied to the smaller operand before its
/// transform (a pass over it, not over the result); the real inverse transform's input is a
/// product of real spectra, so a backend may take it in one multi-axis transform.
fn product(a: &Array, b: &Array, work: DType, shape: &[usize]) -> Result<Array> {
    let n: usize = shape.iter().product();
    let (big, small) = if a.size() >= b.size() { (a, b) } else { (b, a) };
    let big = big.cast_if(work)?;
    let small = small.cast_if(work)?.mul(1.0 / n as f64)?.cast_if(work)?;
    let (fwd, inv) = (FftNorm::Backward, FftNorm::Forward);
    if work.is_complex() {
        let spec = fft::fftn(&big, Some(shape), None, fwd)?.mul(&fft::fftn(&small, Some(shape), None, fwd)?)?;
        fft::ifftn(&spec, None, None, inv)
    } else {
        let spec = fft::rfftn(&big, Some(shape), None, fwd)?.mul(&fft::rfftn(&small, Some(shape), None, fwd)?)?;
        fft::irfftn_hermitian(&spec, shape, inv)
    }
}

/// The dtype an FFT convolution of `in1` and `in2` computes in: complex if either is, single
/// precision if both are (SciPy transforms float32 in single precision), else double.
pub(super) fn conv_dtype(in1: &Array, in2: &Array) -> DType {
    let complex = in1.dtype().is_complex() || in2.dtype().is_complex();
    match (complex, fft::single(in1.dtype()) && fft::single(in2.dtype())) {
        (true, true) => DType::C64,
        (true, false) => DType::C128,
        (false, true) => DType::F32,
        (false, false) => DType::F64,
    }
}

/// The convolution of `a` with `b` (no longer than `a` along any axis) at `start ..` of the full
/// result of `a` continued periodically, of `a`'s shape: one circular convolution of `a`'s own
/// size, by FFT, `b` placed with its weight `k` at `(k - start) mod n`.
pub(super) fn circular(a: &Array, b: &Array, start: &[usize]) -> Result<Array> {
    // out[i] = Σ_k b[k] a[(i + start - k) mod n]
    let work = conv_dtype(a, b);
    let mut k = crate::on(a.device()).zeros(a.shape(), work)?;
    k.slice(spans(&vec![0; b.ndim()], b.shape()))?.assign(&b.cast_if(work)?)?;
    for (ax, &s) in start.iter().enumerate() {
        k = k.roll(-(s as isize), ax as isize)?;
    }
    product(a, &k, work, a.shape())
}

/// SciPy's `_init_freq_conv_axes`: the operands in the order `mode` computes them and the
/// convolved axes (None: all; sorted, without those where either operand has length 1, which
/// broadcast). The other axes must be equal or 1; `valid` with the second operand the larger
/// in every convolved axis swaps them.
pub(super) fn ordered_axes<'a>(
    op: &'static str,
    in1: &'a Array,
    in2: &'a Array,
    mode: Mode,
    axes: Option<&[isize]>,
) -> Result<(&'a Array, &'a Array, Vec<usize>)> {
    if in1.ndim() != in2.ndim() {
        return Err(Error::invalid(op, "in1 and in2 should have the same dimensionality"));
    }
    if in1.device() != in2.device() {
        return Err(Error::DeviceMismatch { op, lhs: in1.device(), rhs: in2.device() });
    }
    let (s1, s2) = (in1.shape(), in2.shape());
    let mut ax: Vec<usize> = match axes {
        None => (0..in1.ndim()).collect(),
        Some([]) => return Err(Error::invalid(op, "when provided, axes cannot be empty")),
        Some(a) => a.iter().map(|&i| xp_core::normalize_axis(op, i, in1.ndim())).collect::<Result<_>>()?,
    };
    ax.sort_unstable();
    if ax.windows(2).any(|w| w[0] == w[1]) {
        return Err(Error::invalid(op, "all axes must be unique"));
    }
    ax.retain(|&a| s1[a] != 1 && s2[a] != 1);
    if !(0..in1.ndim()).all(|a| ax.contains(&a) || s1[a] == s2[a] || s1[a] == 1 || s2[a] == 1) {
        return Err(Error::invalid(op, format!("incompatible shapes for in1 and in2: {s1:?} and {s2:?}")));
    }
    if mode == Mode::Valid && in1.ndim() > 0 {
        let ok1 = ax.iter().all(|&i| s1[i] >= s2[i]);
        if !ok1 && !ax.iter().all(|&i| s2[i] >= s1[i]) {
            return Err(Error::invalid(
                op,
                "For 'valid' mode, one must be at least as large as the other in every dimension",
            ));
        }
        if !ok1 {
            return Ok((in2, in1, ax));
        }
    }
    Ok((in1, in2, ax))
}

/// The operands in the order the mode computes them (SciPy's rules for every convolution):
/// the same number of axes, one device, and `valid` with the second the larger in every axis
/// swaps them; larger in some axes only is an error.
pub(super) fn ordered<'a>(
    op: &'static str,
    in1: &'a Array,
    in2: &'a Array,
    mode: Mode,
) -> Result<(&'a Array, &'a Array)> {
    if in1.ndim() != in2.ndim() {
        return Err(Error::invalid(op, "in1 and in2 should have the same dimensionality"));
    }
    if in1.device() != in2.device() {
        return Err(Error::DeviceMismatch { op, lhs: in1.device(), rhs: in2.device() });
    }
    let (s1, s2) = (in1.shape(), in2.shape());
    if mode == Mode::Valid && s1.iter().zip(s2).any(|(a, b)| a < b) {
        if !s1.iter().zip(s2).all(|(a, b)| a <= b) {
            return Err(Error::invalid(
                op,
                "for 'valid' mode, one must be at least as large as the other in every dimension",
            ));
        }
        return Ok((in2, in1));
    }
    Ok((in1, in2))
}

/// Where the part of a full convolution (`s1 + s2 - 1` per axis) that `mode` keeps starts, and
/// its length, per axis (for `Valid`, an axis where `s2` is longer than `s1` keeps nothing).
pub(super) fn span(s1: &[usize], s2: &[usize], mode: Mode) -> (Vec<usize>, Vec<usize>) {
    s1.iter()
        .zip(s2)
        .map(|(&a, &b)| match mode {
            Mode::Full => (0, a + b - 1),
            Mode::Same => ((b - 1) / 2, a),
            Mode::Valid => (b - 1, (a + 1).saturating_sub(b)),
        })
        .unzip()
}
