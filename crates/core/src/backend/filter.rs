//! The filter family: sliding windows over an input that the front end has already extended by
//! its boundary (SciPy's modes, `convolve2d`'s `boundary`), so that every window lies inside it
//! and the result is the "valid" part: one output per window position, `n - m + 1` along an axis
//! of length `n` with a window of `m`.
use super::unsupported;
use crate::{BackendStorage, Layout, Result};

/// The filter family of a backend's storage.
pub trait FilterStorage: BackendStorage {
    /// The valid correlation `out[i] = Σ_k w[k] · x[i + k]` of `self` at `l` with the weights
    /// `w` at `wl` (the same number of axes, each no longer than the input's, the same dtype:
    /// float32 or float64), C-contiguous, of shape `l.shape - wl.shape + 1`.
    fn correlate_valid(&self, _l: &Layout, _w: &Self, _wl: &Layout) -> Result<Self> {
        unsupported("correlate", Self::NAME)
    }
    /// The valid rank filter: at each window position, the `rank`-th smallest (from 0) of the
    /// window's `size` box (one length per axis, each no longer than the input's) of `self` at
    /// `l` (float32 or float64), C-contiguous, of shape `l.shape - size + 1`.
    fn rank_valid(&self, _l: &Layout, _size: &[usize], _rank: usize) -> Result<Self> {
        unsupported("rank_filter", Self::NAME)
    }
}
