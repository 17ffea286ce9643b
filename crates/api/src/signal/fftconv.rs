//! `fftconvolve`: N-D convolution through the real (or complex) FFT, both operands padded to a
//! length with only small prime factors, the product transformed back once and cut to the mode's
//! shape (SciPy's `scipy.signal.fftconvolve`). float32 stays in single precision.
use crate::fft::{self, FftNorm};
use crate::{Array, SliceElem};
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
    if in1.ndim() != in2.ndim() {
        return Err(Error::invalid(op, "in1 and in2 should have the same dimensionality"));
    }
    if in1.device() != in2.device() {
        return Err(Error::DeviceMismatch { op, lhs: in1.device(), rhs: in2.device() });
    }
    let (s1, s2) = (in1.shape().to_vec(), in2.shape().to_vec());
    let complex = in1.dtype().is_complex() || in2.dtype().is_complex();
    let single = |d: DType| matches!(d, DType::F16 | DType::BF16 | DType::F32 | DType::C64);
    let work = match (complex, single(in1.dtype()) && single(in2.dtype())) {
        (true, true) => DType::C64,
        (true, false) => DType::C128,
        (false, true) => DType::F32,
        (false, false) => DType::F64,
    };
    // 'valid' with the second operand the larger in every axis swaps them, as SciPy does.
    let (in1, in2, s1, s2) = if mode == Mode::Valid && s1.iter().zip(&s2).any(|(a, b)| a < b) {
        if !s1.iter().zip(&s2).all(|(a, b)| a <= b) {
            return Err(Error::invalid(
                op,
                "for 'valid' mode, one must be at least as large as the other in every dimension",
            ));
        }
        (in2, in1, s2, s1)
    } else {
        (in1, in2, s1, s2)
    };
    if in1.size() == 0 || in2.size() == 0 {
        // SciPy's answer for empty operands: an empty float64 vector
        return crate::on(in1.device()).zeros(&[0], DType::F64);
    }
    let full: Vec<usize> = s1.iter().zip(&s2).map(|(a, b)| a + b - 1).collect();
    let fshape: Vec<usize> = full.iter().map(|&n| fast_len(n)).collect();
    let (a, b) = (in1.astype(work)?, in2.astype(work)?);
    // Every axis of length 1 in one operand: the convolution is their product (SciPy's
    // shortcut, which keeps NumPy's promotion: int32 stays int32).
    let trivial = s1.iter().zip(&s2).all(|(&a, &b)| a == 1 || b == 1);
    let prod = if trivial {
        in1.mul(in2)?
    } else if complex {
        let fa = fft::fftn(&a, Some(&fshape), None, FftNorm::Backward)?;
        fft::ifftn(&fa.mul(&fft::fftn(&b, Some(&fshape), None, FftNorm::Backward)?)?, None, None, FftNorm::Backward)?
    } else {
        let fa = fft::rfftn(&a, Some(&fshape), None, FftNorm::Backward)?;
        let fb = fft::rfftn(&b, Some(&fshape), None, FftNorm::Backward)?;
        fft::irfftn(&fa.mul(&fb)?, Some(&fshape), None, FftNorm::Backward)?
    };
    let (start, len): (Vec<usize>, Vec<usize>) = match mode {
        Mode::Full => (vec![0; full.len()], full.clone()),
        Mode::Same => full.iter().zip(&s1).map(|(&f, &n)| ((f - n) / 2, n)).unzip(),
        Mode::Valid => s1.iter().zip(&s2).map(|(&a, &b)| (b - 1, a - b + 1)).unzip(),
    };
    let ix: Vec<SliceElem> = start
        .iter()
        .zip(&len)
        .map(|(&s, &n)| SliceElem::Slice { start: Some(s as isize), stop: Some((s + n) as isize), step: 1 })
        .collect();
    prod.slice(ix)?.copy()
}
