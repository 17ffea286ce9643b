//! The seam of the family still to come (FFT), typed in the pattern of
//! [`super::LinalgStorage`] so that no placeholder takes a string or a bare flag. No backend
//! implements them yet: every method answers [`crate::Error::Unsupported`]. The issue that brings
//! a family may refine these types; it keeps the pattern (typed parameters, named results, one
//! trait per family, defaults that answer `Unsupported`).
use super::unsupported;
use crate::{BackendStorage, Layout, Result};

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
