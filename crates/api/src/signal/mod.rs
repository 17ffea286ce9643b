//! `xp::signal`: SciPy's signal processing, on every device. So far:
//! - windows: SciPy's `get_window` and `windows`, and NumPy's `hanning` … `kaiser` (which
//!   [`crate::ArrayModule`] and the crate root also offer);
//! - convolution: [`convolve`], [`correlate`] (direct or by FFT), [`convolve2d`],
//!   [`correlate2d`] (with boundaries), [`fftconvolve`], [`oaconvolve`] (overlap-add, with
//!   `axes`), and NumPy's 1-D [`crate::convolve`] and [`crate::correlate`] at the crate root;
//! - filtering: [`lfilter`], [`lfilter_zi`], [`sosfilt`], [`sosfilt_zi`], [`filtfilt`] (these
//!   recursions are sequential and run on the host: a GPU array is copied down and back), and
//!   [`wiener`];
//! - resampling: [`resample`] (Fourier), [`resample_poly`] (Kaiser FIR, zero-stuffed and
//!   decimated) and [`upfirdn`];
//! - spectral analysis: [`periodogram`], [`welch`], [`stft`], [`detrend`] and [`detrend_bp`]
//!   (with breakpoints);
//! - peaks: [`find_peaks`] with all of SciPy's conditions and properties (on the host);
//! - median filters: [`medfilt`] and [`medfilt2d`] (zero padded, as SciPy's).
//!
//! ```
//! use xp::signal::{get_window, Window};
//! // a periodic Hann window for spectral analysis (SciPy's `get_window("hann", 8)`)
//! let w = get_window(Window::Hann, 8, true, xp::Device::Cpu).unwrap();
//! let v = w.to_vec::<f64>().unwrap();
//! assert!((v[0] - 0.0).abs() < 1e-15 && (v[4] - 1.0).abs() < 1e-15);
//! // NumPy's symmetric one
//! assert_eq!(xp::hanning(3).unwrap().to_vec::<f64>().unwrap(), vec![0.0, 1.0, 0.0]);
//! ```
mod choose;
mod detrend;
pub(crate) mod direct1d;
mod fftconv;
mod filtfilt;
mod lfilter;
mod lines;
mod medfilt;
mod nd;
mod oaconv;
mod options;
mod peaks;
mod resample;
mod sosfilt;
mod spectral;
mod stft;
mod upfirdn;
mod wiener;
mod window;

pub use detrend::{detrend, detrend_bp, Detrend};
pub use fftconv::{fftconvolve, Mode};
pub use filtfilt::{filtfilt, PadType};
pub use lfilter::{lfilter, lfilter_zi, Filtered};
pub use medfilt::{medfilt, medfilt2d};
pub use nd::{convolve, convolve2d, correlate, correlate2d, Boundary, Method};
pub use oaconv::oaconvolve;
pub use options::{Conv2d, Filtfilt, Iir, Periodogram, ResamplePoly, Upfirdn, Welch};
pub use peaks::{find_peaks, PeakConditions, Peaks, Range};
pub use resample::{resample, resample_poly, PolyPad};
pub use sosfilt::{sosfilt, sosfilt_zi};
pub use spectral::{periodogram, welch, Scaling};
pub use stft::{stft, StftParams, StftScaling};
pub use upfirdn::upfirdn;
pub use wiener::wiener;
pub use window::{bartlett, blackman, get_window, hamming, hanning, kaiser, windows, Window};
