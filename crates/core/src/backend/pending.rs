//! The seams of the families still to come (FFT, random), typed in the pattern of
//! [`super::LinalgStorage`] so that no placeholder takes a string or a bare flag. No backend
//! implements them yet: every method answers [`crate::Error::Unsupported`]. The issue that brings
//! a family may refine these types; it keeps the pattern (typed parameters, named results, one
//! trait per family, defaults that answer `Unsupported`).
use super::unsupported;
use crate::{BackendDevice, BackendStorage, DType, Layout, Result};

/// How an FFT is scaled (NumPy's `norm`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum FftNorm {
    /// no scaling forward, `1/n` backward (NumPy's default)
    #[default]
    Backward,
    /// `1/sqrt(n)` both ways
    Ortho,
    /// `1/n` forward, none backward
    Forward,
}

/// Which transform of the FFT family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FftKind {
    /// complex to complex, forward
    Forward,
    /// complex to complex, inverse
    Inverse,
    /// real to half-spectrum complex
    RealForward,
    /// half-spectrum complex to real, of length `n` along the last transformed axis
    RealInverse {
        /// length of the real output
        n: usize,
    },
}

/// The FFT family of a backend's storage.
pub trait FftStorage: BackendStorage {
    /// The transform `kind` over `axes` (sorted, distinct), scaled as `norm` says.
    fn fft(&self, _l: &Layout, _axes: &[usize], _kind: FftKind, _norm: FftNorm) -> Result<Self> {
        unsupported("fft", Self::NAME)
    }
}

/// A distribution of the random family.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Distribution {
    /// uniform in [0, 1)
    Uniform,
    /// standard normal
    StandardNormal,
}

/// The random family of a backend's device: counter-based draws keyed by (seed, position), so
/// that every device draws the same stream.
pub trait RandomDevice: BackendDevice {
    /// `n` draws of `dist` as `dtype`, the i-th from counter `offset + i` of stream `seed`.
    fn random(&self, _n: usize, _dtype: DType, _dist: Distribution, _seed: u64, _offset: u64) -> Result<Self::Storage> {
        unsupported("random", <Self::Storage as BackendStorage>::NAME)
    }
}
