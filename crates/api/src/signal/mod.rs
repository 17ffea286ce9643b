//! `xp::signal`: SciPy's signal processing, on every device. So far: the window functions
//! (SciPy's `get_window` and `windows`, and NumPy's `hanning` … `kaiser`, which
//! [`crate::ArrayModule`] and the crate root also offer), [`fftconvolve`], [`detrend`], and NumPy's 1-D
//! [`convolve`] and [`correlate`] (also at the crate root).
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
mod direct1d;
mod fftconv;
mod window;

pub use detrend::{detrend, Detrend};
pub use direct1d::{convolve, correlate};
pub use fftconv::{fftconvolve, Mode};
pub use window::{bartlett, blackman, get_window, hamming, hanning, kaiser, windows, Window};
