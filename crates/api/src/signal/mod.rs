//! `xp::signal`: SciPy's signal processing, on every device. So far: the window functions
//! (SciPy's `get_window` and `windows`, and NumPy's `hanning` … `kaiser`, which
//! [`crate::ArrayModule`] and the crate root also offer); [`convolve`], [`correlate`] (direct or
//! by FFT), [`convolve2d`], [`correlate2d`] (with boundaries), [`fftconvolve`], [`detrend`], [`periodogram`], [`welch`]; the median filters [`medfilt`] and [`medfilt2d`]; and
//! NumPy's 1-D [`crate::convolve`] and [`crate::correlate`] at the crate root.
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
mod detrend;
pub(crate) mod direct1d;
mod fftconv;
mod medfilt;
mod nd;
mod spectral;
mod window;

pub use detrend::{detrend, Detrend};
pub use fftconv::{fftconvolve, Mode};
pub use medfilt::{medfilt, medfilt2d};
pub use nd::{convolve, convolve2d, correlate, correlate2d, Boundary, Method};
pub use spectral::{periodogram, welch, Scaling};
pub use window::{bartlett, blackman, get_window, hamming, hanning, kaiser, windows, Window};
