//! The FFT family: one call transforms an array over several axes (one N-D plan where the backend
//! has one, rather than a pass per axis), the front end having already cut or zero-padded each
//! transformed axis to its length, cast the input to the transform's precision and computed the
//! scale that `norm` asks for.
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

impl FftNorm {
    /// The factor of a transform over `n` points in total, forward (`inverse == false`) or
    /// backward.
    pub fn scale(self, n: usize, inverse: bool) -> f64 {
        match (self, inverse) {
            (FftNorm::Ortho, _) => 1.0 / (n as f64).sqrt(),
            (FftNorm::Backward, true) | (FftNorm::Forward, false) => 1.0 / n as f64,
            _ => 1.0,
        }
    }
    /// The norm whose forward scaling is this one's backward scaling (NumPy's `hfft`/`ihfft`
    /// are `irfft`/`rfft` with the directions' norms swapped).
    pub fn swapped(self) -> FftNorm {
        match self {
            FftNorm::Backward => FftNorm::Forward,
            FftNorm::Forward => FftNorm::Backward,
            FftNorm::Ortho => FftNorm::Ortho,
        }
    }
}

/// Which transform of the FFT family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FftKind {
    /// complex to complex, forward (`exp(-2πi jk/n)`)
    Forward,
    /// complex to complex, inverse (`exp(+2πi jk/n)`, unscaled)
    Inverse,
    /// real to half-spectrum complex: the last axis of `n` reals gives `n/2 + 1` values
    RealForward,
    /// half-spectrum complex to real: the last axis, of `n/2 + 1` values, gives `n` reals
    RealInverse {
        /// length of the real output along the last transformed axis
        n: usize,
    },
}

/// One transform: its kind, its axes and the factor its result is multiplied by.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FftSpec<'a> {
    /// what is transformed into what
    pub kind: FftKind,
    /// the transformed axes, distinct, each of length ≥ 1; for the real kinds the last one is the
    /// real axis, the others are transformed complex to complex (forward for `RealForward`,
    /// inverse for `RealInverse`)
    pub axes: &'a [usize],
    /// the factor applied to every output value (`norm`'s scaling)
    pub scale: f64,
    /// for `RealInverse`: the input is known to be the spectrum of a real array (Hermitian
    /// along every transformed axis, as a product of real transforms is), so that a backend may
    /// take all its axes in one multi-dimensional complex-to-real transform (whose result
    /// differs from NumPy's axis-by-axis one for other inputs)
    pub hermitian: bool,
}

/// A plan cache's state (CuPy's `get_plan_cache()`): plans kept, the most it keeps (least
/// recently used ones go first), and lookups that found a plan or had to make one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlanCacheInfo {
    /// plans in the cache
    pub size: usize,
    /// the most plans it keeps
    pub capacity: usize,
    /// lookups that found their plan
    pub hits: u64,
    /// lookups that made a plan
    pub misses: u64,
}

impl PlanCacheInfo {
    /// The capacity a cache starts with (CuPy's default), on every backend.
    pub const DEFAULT_CAPACITY: usize = 16;
}

/// The FFT family of a backend's storage.
pub trait FftStorage: BackendStorage {
    /// The transform `spec` of `self` at `l`: complex input (complex64 or complex128) for the
    /// complex kinds and `RealInverse`, real (float32 or float64) for `RealForward`; the result
    /// is contiguous, of the input's precision, complex except for `RealInverse`.
    fn fft(&self, _l: &Layout, _spec: &FftSpec<'_>) -> Result<Self> {
        unsupported("fft", Self::NAME)
    }
}
