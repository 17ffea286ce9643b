//! SciPy's `periodogram`: the power spectral density (or power spectrum) of a signal along an
//! axis, through a window, a detrend and one real FFT, on any device.
use super::detrend;
use super::options::{Periodogram, Welch};
use crate::fft::{self, FftNorm};
use crate::Array;
use xp_core::{normalize_axis, DType, Error, Result};

/// How [`periodogram`] scales the squared spectrum (SciPy's `scaling`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Scaling {
    /// power per unit of frequency (V²/Hz): `1 / (fs Σ w²)`
    #[default]
    Density,
    /// power per bin (V²): `1 / (Σ w)²`
    Spectrum,
}

/// SciPy's `periodogram` of real `x` along `axis`: the frequencies (`rfftfreq(nfft, 1/fs)`) and
/// the one-sided spectrum, `x` detrended (`Some(kind)`) and multiplied by the periodic `window`
/// first; `nfft` (default: the axis's length) cuts or zero-pads. The spectrum of float32 stays
/// float32; the frequencies are float64, as SciPy gives them.
///
/// ```
/// use xp::signal::{periodogram, Periodogram, Scaling};
/// let x = xp::Array::from_vec(vec![1.0, -1.0, 1.0, -1.0], &[4]).unwrap(); // the Nyquist tone
/// let (f, p) = periodogram(&x, Periodogram { scaling: Scaling::Spectrum, ..Default::default() }).unwrap();
/// assert_eq!(f.to_vec::<f64>().unwrap(), vec![0.0, 0.25, 0.5]);
/// assert!((p.to_vec::<f64>().unwrap()[2] - 1.0).abs() < 1e-12);
/// ```
pub fn periodogram(x: &Array, opts: Periodogram) -> Result<(Array, Array)> {
    let Periodogram { fs, window, nfft, detrend: detrend_kind, scaling, axis } = opts;
    let op = "periodogram";
    let ax = normalize_axis(op, axis, x.ndim())?;
    if x.dtype().is_complex() {
        return Err(Error::InvalidDType { op, dtype: x.dtype() });
    }
    let real = if x.dtype() == DType::F32 { DType::F32 } else { DType::F64 };
    let mut x = x.astype(real)?;
    let nfft = nfft.unwrap_or(x.shape()[ax]);
    if nfft == 0 || x.shape()[ax] == 0 {
        return Err(Error::invalid(op, "the signal and nfft must have at least one point"));
    }
    if nfft < x.shape()[ax] {
        x = fft::slice_axis(&x, ax, 0, nfft)?;
    }
    let n = x.shape()[ax];
    // the window, its sums and the one-sided doubling made on the device (host loops and
    // uploads of 2^22 points took 20 ms of a GPU periodogram)
    let w = window.array(n, false, x.device())?;
    let sw = w.sum(..)?.item::<f64>()?;
    let sw2 = w.mul(&w)?.sum(..)?.item::<f64>()?;
    let scale = match scaling {
        Scaling::Density => 1.0 / (fs * sw2),
        Scaling::Spectrum => 1.0 / (sw * sw),
    };
    if let Some(kind) = detrend_kind {
        x = detrend(&x, axis, kind)?;
    }
    let mut shape = vec![1; x.ndim()];
    shape[ax] = n;
    let shape: Vec<isize> = shape.iter().map(|&v| v as isize).collect();
    let win = w.reshape(&shape)?.astype(real)?;
    let spec = fft::rfft(&x.mul(&win)?, Some(nfft), axis, FftNorm::Backward)?;
    let p = spec.abs()?.square()?.mul(scale)?;
    // one-sided: every bin but DC (and Nyquist, for even nfft) carries its negative twin
    let m = nfft / 2 + 1;
    let twice = crate::on(x.device()).full([m], 2.0, real)?;
    twice.slice(crate::s![..1])?.assign(1.0)?;
    if nfft.is_multiple_of(2) && m > 1 {
        twice.slice(crate::s![-1..])?.assign(1.0)?;
    }
    let mut tshape = vec![1; x.ndim()];
    tshape[ax] = m;
    let tshape: Vec<isize> = tshape.iter().map(|&v| v as isize).collect();
    let twice = twice.reshape(&tshape)?;
    let f = fft::rfftfreq(nfft, 1.0 / fs, x.device())?; // float64, as SciPy gives it
    Ok((f, p.mul(&twice)?))
}

/// SciPy's `welch`: the mean of the [`periodogram`]s of segments of `nperseg` points (default
/// 256, at most the axis's length) overlapping by `noverlap` (default half a segment), each
/// detrended and windowed on its own. Returns the frequencies and the averaged spectrum.
pub fn welch(x: &Array, opts: Welch) -> Result<(Array, Array)> {
    let Welch { fs, window, nperseg, noverlap, nfft, detrend: detrend_kind, scaling, axis } = opts;
    let op = "welch";
    let ax = normalize_axis(op, axis, x.ndim())?;
    let n = x.shape()[ax];
    let seg = nperseg.unwrap_or(256).min(n);
    let overlap = noverlap.unwrap_or(seg / 2);
    if seg == 0 || overlap >= seg {
        return Err(Error::invalid(op, format!("noverlap ({overlap}) must be less than nperseg ({seg})")));
    }
    if nfft.is_some_and(|f| f < seg) {
        return Err(Error::invalid(op, "nfft must be greater than or equal to nperseg"));
    }
    // every segment's periodogram at once: segments on a new axis before the last
    let last = x.moveaxis(ax as isize, -1)?;
    let segs = segments(&last, seg, seg - overlap)?;
    let (f, p) = periodogram(&segs, Periodogram { fs, window, nfft, detrend: detrend_kind, scaling, axis: -1 })
        .map_err(|e| e.in_op(op))?;
    Ok((f, p.mean(-2)?.moveaxis(-1, ax as isize)?))
}

/// The segments of `x` along its last axis: `nperseg` points every `step`, as many as fit,
/// stacked on a new axis before the last (`(..., segments, nperseg)`; SciPy's
/// `sliding_window_view(..)[..., ::step, :]`), at least one.
pub(super) fn segments(x: &Array, nperseg: usize, step: usize) -> Result<Array> {
    let n = x.shape()[x.ndim() - 1];
    let count = (n.max(nperseg) - nperseg) / step + 1;
    if n < nperseg {
        // one segment, shorter than nperseg: SciPy's view is the whole line
        return x.expand_dims(-2);
    }
    // A view (segments overlap in memory), as SciPy's is: no copy, and no launch per segment.
    let l = &x.layout;
    let nd = l.ndim();
    let mut shape = l.shape()[..nd - 1].to_vec();
    shape.extend([count, nperseg]);
    let mut strides = l.strides()[..nd - 1].to_vec();
    let s = l.strides()[nd - 1];
    strides.extend([s * step as isize, s]);
    Ok(x.with_layout(xp_core::Layout::new(shape, strides, l.offset())))
}
