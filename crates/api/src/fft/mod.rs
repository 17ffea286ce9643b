//! `xp::fft`: NumPy's discrete Fourier transforms, on every device.
//!
//! The names, arguments and results are `numpy.fft`'s:
//! - `n` / `s` cut or zero-pad the transformed axes;
//! - `axis` / `axes` may be any axes of any layout (negative counts from the end);
//! - `norm` is [`FftNorm`]: `Backward` (NumPy's default), `Ortho` or `Forward`.
//!
//! complex64 and float32 (and float16) are transformed in single precision; every other dtype
//! goes to float64 / complex128. Any length works, prime lengths included. Plans are cached per
//! device: see [`plan_cache`]. The CPU runs rustfft and realfft, a GPU cuFFT (loaded at run time).
//!
//! ```
//! use xp::fft::{self, FftNorm};
//! let x = xp::Array::from_vec(vec![1.0, 2.0, 3.0, 4.0], &[4]).unwrap();
//! let y = fft::fft(&x, None, -1, FftNorm::Backward).unwrap();
//! assert_eq!(y.dtype(), xp::DType::C128);
//! let back = fft::ifft(&y, None, -1, FftNorm::Backward).unwrap();
//! assert!(xp::allclose_with(&back.real().unwrap(), &x, xp::Tolerance { rtol: 1e-12, atol: 1e-12, ..Default::default() }).unwrap());
//! // a real signal's half spectrum, and back to the signal's length
//! let h = fft::rfft(&x, None, -1, FftNorm::Ortho).unwrap();
//! assert_eq!(h.shape(), &[3]);
//! let r = fft::irfft(&h, Some(4), -1, FftNorm::Ortho).unwrap();
//! assert!(xp::allclose_with(&r, &x, xp::Tolerance { rtol: 1e-12, atol: 1e-12, ..Default::default() }).unwrap());
//! ```
mod helpers;
mod transform;

use crate::Array;
pub use helpers::{fftfreq, fftshift, ifftshift, rfftfreq};
pub(crate) use transform::{irfftn_hermitian, single, slice_axis};
use transform::{plan_axes, transform};
#[cfg(not(xp_cuda))]
use xp_core::Error;
use xp_core::{normalize_axis, Device, FftKind, Result};
pub use xp_core::{FftNorm, PlanCacheInfo};

/// One axis and its length (`n`, or the axis's own; for an inverse real transform, `2 (m - 1)`).
fn one_axis(
    op: &'static str,
    a: &Array,
    n: Option<usize>,
    axis: isize,
    half: bool,
) -> Result<(Vec<usize>, Vec<usize>)> {
    let ax = normalize_axis(op, axis, a.ndim())?;
    plan_axes(op, a, n.as_ref().map(std::slice::from_ref), Some(&[ax as isize]), half)
}

/// The 1-D transform of `a` along `axis`, `n` points (cut or zero-padded).
pub fn fft(a: &Array, n: Option<usize>, axis: isize, norm: FftNorm) -> Result<Array> {
    let (ax, l) = one_axis("fft", a, n, axis, false)?;
    transform("fft", a, FftKind::Forward, &ax, &l, norm)
}

/// The inverse of [`fft`].
pub fn ifft(a: &Array, n: Option<usize>, axis: isize, norm: FftNorm) -> Result<Array> {
    let (ax, l) = one_axis("ifft", a, n, axis, false)?;
    transform("ifft", a, FftKind::Inverse, &ax, &l, norm)
}

/// The transform of real `a` along `axis`: its `n / 2 + 1` non-negative frequencies. Complex
/// input is an [`crate::Error::InvalidDType`].
pub fn rfft(a: &Array, n: Option<usize>, axis: isize, norm: FftNorm) -> Result<Array> {
    let (ax, l) = one_axis("rfft", a, n, axis, false)?;
    transform("rfft", a, FftKind::RealForward, &ax, &l, norm)
}

/// The inverse of [`rfft`]: `n` real points (default `2 (m - 1)` for `m` input values) from a
/// half spectrum. The imaginary parts of the zero frequency (and, for even `n`, of the Nyquist
/// frequency) are ignored, as NumPy ignores them.
pub fn irfft(a: &Array, n: Option<usize>, axis: isize, norm: FftNorm) -> Result<Array> {
    let (ax, l) = one_axis("irfft", a, n, axis, true)?;
    transform("irfft", a, FftKind::RealInverse { n: 0 }, &ax, &l, norm)
}

/// The transform of a signal with Hermitian symmetry given by its half spectrum `a`: `n` real
/// points (NumPy's `hfft`, `irfft(conj(a))` with the norm's directions swapped).
pub fn hfft(a: &Array, n: Option<usize>, axis: isize, norm: FftNorm) -> Result<Array> {
    let (ax, l) = one_axis("hfft", a, n, axis, true)?;
    transform("hfft", &a.conj()?, FftKind::RealInverse { n: 0 }, &ax, &l, norm.swapped())
}

/// The inverse of [`hfft`]: the half spectrum of real `a` (`conj(rfft(a))` with the norm's
/// directions swapped).
pub fn ihfft(a: &Array, n: Option<usize>, axis: isize, norm: FftNorm) -> Result<Array> {
    let (ax, l) = one_axis("ihfft", a, n, axis, false)?;
    transform("ihfft", a, FftKind::RealForward, &ax, &l, norm.swapped())?.conj()
}

/// The N-D transform over `axes` (None: the last `s.len()` axes, or all), with lengths `s`.
pub fn fftn(a: &Array, s: Option<&[usize]>, axes: Option<&[isize]>, norm: FftNorm) -> Result<Array> {
    let (ax, l) = plan_axes("fftn", a, s, axes, false)?;
    transform("fftn", a, FftKind::Forward, &ax, &l, norm)
}

/// The inverse of [`fftn`].
pub fn ifftn(a: &Array, s: Option<&[usize]>, axes: Option<&[isize]>, norm: FftNorm) -> Result<Array> {
    let (ax, l) = plan_axes("ifftn", a, s, axes, false)?;
    transform("ifftn", a, FftKind::Inverse, &ax, &l, norm)
}

/// The N-D transform of real `a`: the last of `axes` is halved to `s / 2 + 1`.
pub fn rfftn(a: &Array, s: Option<&[usize]>, axes: Option<&[isize]>, norm: FftNorm) -> Result<Array> {
    let (ax, l) = plan_axes("rfftn", a, s, axes, false)?;
    transform("rfftn", a, FftKind::RealForward, &ax, &l, norm)
}

/// The inverse of [`rfftn`]: real output of lengths `s` (the last one's default is `2 (m - 1)`).
pub fn irfftn(a: &Array, s: Option<&[usize]>, axes: Option<&[isize]>, norm: FftNorm) -> Result<Array> {
    let (ax, l) = plan_axes("irfftn", a, s, axes, true)?;
    transform("irfftn", a, FftKind::RealInverse { n: 0 }, &ax, &l, norm)
}

const LAST2: [isize; 2] = [-2, -1];

/// [`fftn`] over `axes` (None: the last two).
pub fn fft2(a: &Array, s: Option<&[usize]>, axes: Option<&[isize]>, norm: FftNorm) -> Result<Array> {
    fftn(a, s, Some(axes.unwrap_or(&LAST2)), norm).map_err(|e| e.in_op("fft2"))
}

/// [`ifftn`] over `axes` (None: the last two).
pub fn ifft2(a: &Array, s: Option<&[usize]>, axes: Option<&[isize]>, norm: FftNorm) -> Result<Array> {
    ifftn(a, s, Some(axes.unwrap_or(&LAST2)), norm).map_err(|e| e.in_op("ifft2"))
}

/// [`rfftn`] over `axes` (None: the last two).
pub fn rfft2(a: &Array, s: Option<&[usize]>, axes: Option<&[isize]>, norm: FftNorm) -> Result<Array> {
    rfftn(a, s, Some(axes.unwrap_or(&LAST2)), norm).map_err(|e| e.in_op("rfft2"))
}

/// [`irfftn`] over `axes` (None: the last two).
pub fn irfft2(a: &Array, s: Option<&[usize]>, axes: Option<&[isize]>, norm: FftNorm) -> Result<Array> {
    irfftn(a, s, Some(axes.unwrap_or(&LAST2)), norm).map_err(|e| e.in_op("irfft2"))
}

/// The FFT plan cache of `device` (CuPy's `get_plan_cache()`): plans kept, capacity, hits and
/// misses. Repeated transforms of one length, kind and precision hit.
///
/// ```
/// use xp::fft::{self, FftNorm};
/// let x = xp::ones(&[1000], xp::DType::C64).unwrap();
/// let before = fft::plan_cache(xp::Device::Cpu).unwrap();
/// fft::fft(&x, None, 0, FftNorm::Backward).unwrap();
/// fft::fft(&x, None, 0, FftNorm::Backward).unwrap();
/// assert!(fft::plan_cache(xp::Device::Cpu).unwrap().hits > before.hits);
/// ```
pub fn plan_cache(device: Device) -> Result<PlanCacheInfo> {
    match device {
        Device::Cpu => Ok(xp_cpu::fft::plan::info()),
        #[cfg(xp_cuda)]
        Device::Cuda(i) => Ok(xp_cuda::fft::plan::info(i)),
        #[cfg(not(xp_cuda))]
        Device::Cuda(_) => Err(Error::CudaNotCompiled),
    }
}

/// Keep at most `capacity` plans on `device` (0: none), dropping the least recently used.
pub fn set_plan_cache_capacity(device: Device, capacity: usize) -> Result<()> {
    match device {
        Device::Cpu => {
            xp_cpu::fft::plan::set_capacity(capacity);
            Ok(())
        }
        #[cfg(xp_cuda)]
        Device::Cuda(i) => xp_cuda::fft::plan::set_capacity(i, capacity),
        #[cfg(not(xp_cuda))]
        Device::Cuda(_) => Err(Error::CudaNotCompiled),
    }
}

/// Drop every plan of `device`'s cache and reset its counts.
pub fn clear_plan_cache(device: Device) -> Result<()> {
    match device {
        Device::Cpu => {
            xp_cpu::fft::plan::clear();
            Ok(())
        }
        #[cfg(xp_cuda)]
        Device::Cuda(i) => xp_cuda::fft::plan::clear(i),
        #[cfg(not(xp_cuda))]
        Device::Cuda(_) => Err(Error::CudaNotCompiled),
    }
}
