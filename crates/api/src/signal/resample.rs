//! SciPy's `resample` (Fourier method) and `resample_poly` (a Kaiser-windowed FIR low-pass
//! filter applied to the zero-stuffed signal, then decimated), on any device: both are built
//! on xp's FFTs and array ops.
use super::options::ResamplePoly;
use super::{upfirdn, Window};
use crate::fft::{self, slice_axis, FftNorm};
use crate::Array;
use xp_core::{normalize_axis, DType, Error, Result};

/// The pieces of `x` along `axis` joined, skipping empty ones.
fn join(parts: &[Array], axis: usize) -> Result<Array> {
    let keep: Vec<&Array> = parts.iter().filter(|p| p.shape()[axis] > 0).collect();
    crate::concatenate(&keep, axis as isize)
}

/// Zeros of `x`'s shape with `n` along `axis`.
fn zeros_along(x: &Array, axis: usize, n: usize) -> Result<Array> {
    let mut s = x.shape().to_vec();
    s[axis] = n;
    crate::on(x.device()).zeros(&s, x.dtype())
}

/// SciPy's `resample(x, num, axis)`: `x` resampled to `num` points along `axis` by keeping
/// (or zero-padding) the lowest `min(num, n)` frequencies of its FFT, scaled by `num / n`. For
/// an even number of kept bins the unpaired Nyquist bin is SciPy's: doubled (real input) or
/// joined with its twin (complex) when downsampling, halved and split into a pair when
/// upsampling. Real input uses `rfft` (float32 stays float32, integers become float64),
/// complex input `fft`. With a `window`, the spectrum is first weighted by SciPy's
/// `fftshift(get_window(window, n))` (folded onto the one-sided bins for real input). `num = 0`
/// is an [`Error::InvalidArgument`].
///
/// ```
/// use xp::signal::resample;
/// let x = xp::Array::from_vec(vec![1.0, 0.0, -1.0, 0.0], &[4]).unwrap(); // cos(πn/2)
/// let y = resample(&x, 8, -1, None).unwrap().to_vec::<f64>().unwrap();
/// let want = [1.0, 0.7071, 0.0, -0.7071, -1.0, -0.7071, 0.0, 0.7071];
/// assert!(y.iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-4));
/// ```
pub fn resample(x: &Array, num: usize, axis: isize, window: Option<Window>) -> Result<Array> {
    let op = "resample";
    let ax = normalize_axis(op, axis, x.ndim())?;
    let n = x.shape()[ax];
    if num == 0 || n == 0 {
        return Err(Error::invalid(op, "the signal and num must have at least one point"));
    }
    let s_fac = n as f64 / num as f64;
    let m = num.min(n);
    let m2 = m / 2 + 1;
    let even = m.is_multiple_of(2) && num != n;
    // the window centred on DC (SciPy's fftshift of the periodic window)
    let weights = match window {
        Some(w) => {
            let v = w.values(n, false).map_err(|e| e.in_op(op))?;
            Some((0..n).map(|k| v[(k + n - n / 2) % n]).collect::<Vec<f64>>())
        }
        None => None,
    };
    // SciPy weighs a one-sided spectrum in place (its dtype stays), a two-sided one by a
    // float64 product (complex64 becomes complex128)
    let weigh = |spec: Array, w: Vec<f64>, real: DType| -> Result<Array> {
        let mut shape = vec![1; spec.ndim()];
        shape[ax] = w.len();
        spec.mul(&crate::on(spec.device()).asarray(w, &shape)?.astype(real)?)
    };
    if !x.dtype().is_complex() {
        let mut spec = fft::rfft(x, None, axis, FftNorm::Backward)?;
        if let Some(mut w) = weights {
            // each one-sided bin stands for its negative twin too: the mean of both weights
            let nx = n / 2 + 1;
            for l in 1..nx {
                w[l] = (w[l] + w[n - l]) / 2.0;
            }
            w.truncate(nx);
            spec = weigh(spec, w, if fft::single(x.dtype()) { DType::F32 } else { DType::F64 })?;
        }
        let mut spec = slice_axis(&spec, ax, 0, m2)?;
        if even {
            let f = if num < n { 2.0 } else { 0.5 };
            let nyq = slice_axis(&spec, ax, m / 2, m2)?.mul(f)?;
            spec = join(&[slice_axis(&spec, ax, 0, m / 2)?, nyq], ax)?;
        }
        return fft::irfft(&spec.div(s_fac)?, Some(num), axis, FftNorm::Backward);
    }
    let mut spec = fft::fft(x, None, axis, FftNorm::Backward)?;
    if let Some(w) = weights {
        spec = weigh(spec, w, DType::F64)?;
    }
    let neg = slice_axis(&spec, ax, n - (m - m2), n)?;
    let y = if !even {
        join(&[slice_axis(&spec, ax, 0, m2)?, zeros_along(&spec, ax, num - m)?, neg], ax)?
    } else if num < n {
        // downsampling: the bin pair at ±m/2 becomes one unpaired bin
        let nyq = slice_axis(&spec, ax, m / 2, m2)?.add(&slice_axis(&spec, ax, n - m / 2, n - m / 2 + 1)?)?;
        join(&[slice_axis(&spec, ax, 0, m / 2)?, nyq, neg], ax)?
    } else {
        // upsampling: the unpaired bin is split into a pair of halves
        let half = slice_axis(&spec, ax, m / 2, m2)?.div(2.0)?;
        let gap = zeros_along(&spec, ax, num - m - 1)?;
        join(&[slice_axis(&spec, ax, 0, m / 2)?, half.clone(), gap, half, neg], ax)?
    };
    fft::ifft(&y.div(s_fac)?, Some(num), axis, FftNorm::Backward)
}

/// How [`resample_poly`] treats the signal beyond its ends (SciPy's `padtype`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PolyPad {
    /// zeros (SciPy's default `constant` with `cval` 0)
    #[default]
    Zeros,
    /// the mean of each line is removed before filtering and added back
    Mean,
    /// likewise the median
    Median,
    /// likewise the minimum
    Minimum,
    /// likewise the maximum
    Maximum,
}

/// SciPy's `firwin(numtaps, cutoff, window)` for a low-pass filter (`pass_zero`, `scale`):
/// the windowed sinc `c sinc(c m)` with `m` centred, normalised to unit gain at DC; `cutoff`
/// relative to the Nyquist frequency.
pub(super) fn firwin_lowpass(numtaps: usize, cutoff: f64, window: Window) -> Result<Vec<f64>> {
    let alpha = 0.5 * (numtaps as f64 - 1.0);
    let sinc = |v: f64| if v == 0.0 { 1.0 } else { (std::f64::consts::PI * v).sin() / (std::f64::consts::PI * v) };
    let win = window.values(numtaps, true)?;
    let h: Vec<f64> = (0..numtaps).map(|i| cutoff * sinc(cutoff * (i as f64 - alpha)) * win[i]).collect();
    let s: f64 = h.iter().sum();
    Ok(h.into_iter().map(|v| v / s).collect())
}

/// SciPy's `resample_poly(x, up, down, axis, window, padtype)`: `x` upsampled by `up`, filtered
/// by a zero-phase FIR low-pass filter and downsampled by `down` (`up / down` reduced by their
/// gcd first; `1 / 1` returns a copy). The filter is SciPy's: `firwin(20 max(up, down) + 1,
/// 1 / max(up, down), window)` times `up` (default window: Kaiser, β = 5), in `x`'s dtype for
/// floating and complex `x` (float64 otherwise), delayed so that output samples sit at the
/// centre. The output has `ceil(n up / down)` points along `axis`.
///
/// The filtering is [`upfirdn`]: an overlap-add FFT convolution of the zero-stuffed signal,
/// decimated, which runs on any device, at a cost of a few FFTs rather than the
/// `n · taps / down` multiply-adds of a polyphase loop. `up` or `down` of 0 is an
/// [`Error::InvalidArgument`].
///
/// ```
/// use xp::signal::{resample_poly, PolyPad, ResamplePoly};
/// let x = xp::Array::from_vec(vec![1.0; 10], &[10]).unwrap();
/// let y = resample_poly(&x, 3, 2, ResamplePoly { padtype: PolyPad::Mean, ..Default::default() }).unwrap();
/// assert_eq!(y.shape(), &[15]);
/// assert!(y.to_vec::<f64>().unwrap().iter().all(|v| (v - 1.0).abs() < 1e-12));
/// ```
pub fn resample_poly(x: &Array, up: usize, down: usize, opts: ResamplePoly) -> Result<Array> {
    let ResamplePoly { axis, window, padtype } = opts;
    let op = "resample_poly";
    let ax = normalize_axis(op, axis, x.ndim())?;
    if up < 1 || down < 1 {
        return Err(Error::invalid(op, "up and down must be >= 1"));
    }
    let g = gcd(up, down);
    let (up, down) = (up / g, down / g);
    if up == 1 && down == 1 {
        return x.copy();
    }
    let n_in = x.shape()[ax];
    let n_out = (n_in * up).div_ceil(down);
    let max_rate = up.max(down);
    let half_len = 10 * max_rate;
    let h = firwin_lowpass(2 * half_len + 1, 1.0 / max_rate as f64, window).map_err(|e| e.in_op(op))?;
    // the delay that centres the output samples (SciPy's pre- and post-padding of h)
    let pre = down - half_len % down;
    let pre_remove = (half_len + pre) / down;
    let out_len = |lh: usize| ((n_in.max(1) - 1) * up + lh - 1) / down + 1;
    let mut post = 0;
    while out_len(h.len() + pre + post) < n_out + pre_remove {
        post += 1;
    }
    let mut taps = vec![0.0; pre];
    taps.extend(h.iter().map(|v| v * up as f64));
    taps.extend(std::iter::repeat_n(0.0, post));
    let hd = match x.dtype() {
        d @ (DType::F32 | DType::F64 | DType::C64 | DType::C128) => d,
        _ => DType::F64,
    };
    let n_taps = taps.len();
    let taps = crate::on(x.device()).asarray(taps, [n_taps])?.astype(hd)?;
    let background = match padtype {
        PolyPad::Zeros => None,
        PolyPad::Mean => Some(x.mean_keepdim(axis)?),
        PolyPad::Median => Some(crate::median(x, axis)?.expand_dims(axis)?),
        PolyPad::Minimum => Some(x.min_keepdim(axis)?),
        PolyPad::Maximum => Some(x.max_keepdim(axis)?),
    };
    let xs = match &background {
        Some(b) => x.sub(b)?,
        None => x.clone(),
    };
    let y = upfirdn(&taps, &xs, super::Upfirdn { up, down, axis })?;
    finish(y, ax, pre_remove, n_out, background)
}

/// Greatest common divisor.
fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The `n_out` samples from `start` along `axis`, with the background added back.
fn finish(y: Array, axis: usize, start: usize, n_out: usize, background: Option<Array>) -> Result<Array> {
    let y = slice_axis(&y, axis, start, start + n_out)?;
    match background {
        Some(b) => y.add(&b),
        None => y.copy(),
    }
}
