//! SciPy's keyword arguments of the signal functions, as option structs whose `Default` is
//! SciPy's defaults, so that a call names only what differs:
//!
//! ```
//! use xp::signal::{lfilter, welch, Iir, Welch};
//! let x = xp::linspace(0.0, 1.0, 1024, Default::default()).unwrap().mul(300.0).unwrap().sin().unwrap();
//! let (f, p) = welch(&x, Welch { fs: 1000.0, nperseg: Some(128), ..Default::default() }).unwrap();
//! assert_eq!((f.shape(), p.shape()), (&[65][..], &[65][..]));
//! let b = xp::Array::from_vec(vec![0.5, 0.5], [2]).unwrap();
//! let a = xp::Array::from_vec(vec![1.0], [1]).unwrap();
//! let y = lfilter(&b, &a, &x, Iir::default()).unwrap().y;          // axis -1, no initial state
//! assert_eq!(y.shape(), x.shape());
//! ```
use super::{Boundary, Detrend, Method, Mode, PadType, PolyPad, Scaling, Window};
use crate::Array;

/// The keywords of [`super::periodogram`]: SciPy's `fs=1.0`, `window='boxcar'`, `nfft=None`
/// (the axis's length), `detrend='constant'`, `scaling='density'`, `axis=-1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Periodogram {
    /// the sampling frequency
    pub fs: f64,
    /// the (periodic) window
    pub window: Window,
    /// the FFT length (cuts or zero-pads); `None`: the axis's length
    pub nfft: Option<usize>,
    /// the detrend applied first; `None`: none
    pub detrend: Option<Detrend>,
    /// density (V²/Hz) or spectrum (V²)
    pub scaling: Scaling,
    /// the time axis
    pub axis: isize,
}

impl Default for Periodogram {
    fn default() -> Self {
        Periodogram {
            fs: 1.0,
            window: Window::Boxcar,
            nfft: None,
            detrend: Some(Detrend::Constant),
            scaling: Scaling::Density,
            axis: -1,
        }
    }
}

/// The keywords of [`super::welch`]: SciPy's `fs=1.0`, `window='hann'`, `nperseg=None` (256,
/// at most the axis's length), `noverlap=None` (half a segment), `nfft=None`,
/// `detrend='constant'`, `scaling='density'`, `axis=-1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Welch {
    /// the sampling frequency
    pub fs: f64,
    /// the (periodic) window of each segment
    pub window: Window,
    /// the segment length
    pub nperseg: Option<usize>,
    /// the overlap of consecutive segments
    pub noverlap: Option<usize>,
    /// the FFT length of a segment (≥ `nperseg`)
    pub nfft: Option<usize>,
    /// the detrend of each segment; `None`: none
    pub detrend: Option<Detrend>,
    /// density (V²/Hz) or spectrum (V²)
    pub scaling: Scaling,
    /// the time axis
    pub axis: isize,
}

impl Default for Welch {
    fn default() -> Self {
        Welch {
            fs: 1.0,
            window: Window::Hann,
            nperseg: None,
            noverlap: None,
            nfft: None,
            detrend: Some(Detrend::Constant),
            scaling: Scaling::Density,
            axis: -1,
        }
    }
}

/// The keywords of [`super::filtfilt`]: SciPy's `axis=-1`, `padtype='odd'`, `padlen=None`
/// (`3 max(len(a), len(b))`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Filtfilt {
    /// the time axis
    pub axis: isize,
    /// how the signal is extended at both ends; `None`: not at all
    pub padtype: Option<PadType>,
    /// how many values extend each end
    pub padlen: Option<usize>,
}

impl Default for Filtfilt {
    fn default() -> Self {
        Filtfilt { axis: -1, padtype: Some(PadType::Odd), padlen: None }
    }
}

/// The keywords of [`super::resample_poly`]: SciPy's `axis=-1`, `window=('kaiser', 5.0)`,
/// `padtype='constant'` (zeros).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ResamplePoly {
    /// the time axis
    pub axis: isize,
    /// the window of the FIR low-pass filter's design
    pub window: Window,
    /// what lies beyond the signal's ends
    pub padtype: PolyPad,
}

impl Default for ResamplePoly {
    fn default() -> Self {
        ResamplePoly { axis: -1, window: Window::Kaiser { beta: 5.0 }, padtype: PolyPad::Zeros }
    }
}

/// The keywords of [`super::lfilter`] and [`super::sosfilt`]: SciPy's `axis=-1`, `zi=None`.
#[derive(Clone, Copy, Debug)]
pub struct Iir<'a> {
    /// the time axis
    pub axis: isize,
    /// the initial state (as [`super::lfilter_zi`] or [`super::sosfilt_zi`] shape it);
    /// `None`: rest
    pub zi: Option<&'a Array>,
}

impl Default for Iir<'_> {
    fn default() -> Self {
        Iir { axis: -1, zi: None }
    }
}

impl Iir<'_> {
    /// The options with `axis` and no initial state.
    pub fn axis(axis: isize) -> Self {
        Iir { axis, zi: None }
    }
}

/// The keywords of [`super::upfirdn`]: SciPy's `up=1`, `down=1`, `axis=-1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Upfirdn {
    /// the upsampling factor (≥ 1)
    pub up: usize,
    /// the downsampling factor (≥ 1)
    pub down: usize,
    /// the time axis
    pub axis: isize,
}

impl Default for Upfirdn {
    fn default() -> Self {
        Upfirdn { up: 1, down: 1, axis: -1 }
    }
}

/// The keywords of [`super::convolve2d`] and [`super::correlate2d`]: SciPy's `mode='full'`,
/// `boundary='fill'`, `fillvalue=0`, and xp's choice of method (SciPy's 2-D functions are always
/// direct; `Auto` picks the faster).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Conv2d {
    /// the output's extent
    pub mode: Mode,
    /// how the first input is extended beyond its border
    pub boundary: Boundary,
    /// direct sums, FFTs, or whichever is faster
    pub method: Method,
}
