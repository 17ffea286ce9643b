//! SciPy's legacy `stft`: windowed, optionally detrended segments of a signal and their FFTs,
//! on any device, on the segment machinery that `welch` uses.
use super::spectral::segments;
use super::{detrend, Detrend, Window};
use crate::fft::{self, FftNorm};
use crate::{Array, PadMode};
use xp_core::{normalize_axis, DType, Error, Result, Scalar};

/// How [`stft`] scales the transforms (SciPy's `scaling`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum StftScaling {
    /// magnitude spectrum: `1 / Σ w`
    #[default]
    Spectrum,
    /// the square root of the power spectral density's `1 / (fs Σ w²)`
    Psd,
}

/// The parameters of [`stft`] after the signal, with SciPy's defaults (`Default`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StftParams {
    /// sampling frequency (default 1)
    pub fs: f64,
    /// the window of each segment (default Hann, periodic)
    pub window: Window,
    /// points per segment (default 256, at most the signal's length)
    pub nperseg: Option<usize>,
    /// points shared by neighbouring segments (default half a segment)
    pub noverlap: Option<usize>,
    /// FFT length, at least `nperseg` (default `nperseg`)
    pub nfft: Option<usize>,
    /// what each segment has removed before the window (default nothing)
    pub detrend: Option<Detrend>,
    /// one-sided spectrum for real input (default true; complex input is always two-sided)
    pub return_onesided: bool,
    /// zeros of half a segment at both ends, so that the first segment is centred on the first
    /// point (SciPy's `boundary="zeros"`, the default); false: None
    pub boundary: bool,
    /// zero-pad the end to a whole number of segments (default true)
    pub padded: bool,
    /// the scaling (default spectrum)
    pub scaling: StftScaling,
}

impl Default for StftParams {
    fn default() -> Self {
        StftParams {
            fs: 1.0,
            window: Window::Hann,
            nperseg: None,
            noverlap: None,
            nfft: None,
            detrend: None,
            return_onesided: true,
            boundary: true,
            padded: true,
            scaling: StftScaling::Spectrum,
        }
    }
}

/// SciPy's `stft(x, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, boundary,
/// padded, axis, scaling)`: the frequencies, the segment times and the transforms `Zxx`, whose
/// shape is `x`'s with `axis` replaced by the frequencies and the segments as a new last axis.
/// `Zxx` is complex64 for float32 and complex64 input, complex128 otherwise; the frequencies
/// and times are float64 on `x`'s device.
///
/// `noverlap ≥ nperseg`, `nfft < nperseg` and an empty segment are
/// [`Error::InvalidArgument`]s.
///
/// ```
/// use xp::signal::{stft, StftParams};
/// let x = xp::Array::from_vec(vec![1.0; 16], &[16]).unwrap();
/// let p = StftParams { nperseg: Some(8), ..Default::default() };
/// let (f, t, z) = stft(&x, -1, &p).unwrap();
/// assert_eq!((f.shape(), t.shape(), z.shape()), (&[5][..], &[5][..], &[5, 5][..]));
/// ```
pub fn stft(x: &Array, axis: isize, p: &StftParams) -> Result<(Array, Array, Array)> {
    let op = "stft";
    let ax = normalize_axis(op, axis, x.ndim())?;
    let n = x.shape()[ax];
    let seg = p.nperseg.unwrap_or(256).min(n);
    if seg == 0 {
        return Err(Error::invalid(op, "nperseg must be a positive integer"));
    }
    let nfft = p.nfft.unwrap_or(seg);
    if nfft < seg {
        return Err(Error::invalid(op, "nfft must be greater than or equal to nperseg."));
    }
    let overlap = p.noverlap.unwrap_or(seg / 2);
    if overlap >= seg {
        return Err(Error::invalid(op, "noverlap must be less than nperseg."));
    }
    let step = seg - overlap;
    let single = matches!(x.dtype(), DType::F32 | DType::C64);
    let (real, cplx) = if single { (DType::F32, DType::C64) } else { (DType::F64, DType::C128) };
    let complex = x.dtype().is_complex();
    let mut xl = x.moveaxis(ax as isize, -1)?.astype(if complex { cplx } else { real })?;
    let last = xl.ndim() - 1;
    if p.boundary {
        let mut w = vec![(0, 0); xl.ndim()];
        w[last] = (seg / 2, seg / 2);
        xl = xl.pad(&w, PadMode::Constant(Scalar::Int(0)))?;
    }
    if p.padded {
        let len = xl.shape()[last] as isize;
        let add = ((-(len - seg as isize)).rem_euclid(step as isize)) % seg as isize;
        let mut w = vec![(0, 0); xl.ndim()];
        w[last] = (0, add as usize);
        xl = xl.pad(&w, PadMode::Constant(Scalar::Int(0)))?;
    }
    let mut segs = segments(&xl, seg, step)?;
    if let Some(kind) = p.detrend {
        segs = detrend(&segs, -1, kind)?;
    }
    let w = p.window.values(seg, false).map_err(|e| e.in_op(op))?;
    let scale = match p.scaling {
        StftScaling::Spectrum => 1.0 / w.iter().sum::<f64>().powi(2),
        StftScaling::Psd => 1.0 / (p.fs * w.iter().map(|v| v * v).sum::<f64>()),
    }
    .sqrt();
    let win = crate::on(x.device()).asarray(w, [seg])?.astype(real)?;
    let segs = segs.mul(&win)?;
    let onesided = p.return_onesided && !complex;
    let (f, z) = if onesided {
        (fft::rfftfreq(nfft, 1.0 / p.fs, x.device())?, fft::rfft(&segs, Some(nfft), -1, FftNorm::Backward)?)
    } else {
        (fft::fftfreq(nfft, 1.0 / p.fs, x.device())?, fft::fft(&segs, Some(nfft), -1, FftNorm::Backward)?)
    };
    let z = z.mul(scale)?.astype(cplx)?;
    // SciPy's times: arange(nperseg/2, len - nperseg/2 + 1, step) / fs, less the boundary's shift
    let half = seg as f64 / 2.0;
    let count = z.shape()[z.ndim() - 2];
    let shift = if p.boundary { half } else { 0.0 };
    let times: Vec<f64> = (0..count).map(|k| (half + (k * step) as f64) / p.fs - shift / p.fs).collect();
    let t = crate::on(x.device()).asarray(times, [count])?;
    // (..., segments, freqs) -> frequencies where the axis was, segments last
    Ok((f, t, z.moveaxis(-1, ax as isize)?))
}
