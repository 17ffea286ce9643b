//! The random family: a device fills a new array from one draw of a counter-based stream
//! ([`crate::random`]), so that every device draws the same values for the same seed.
use super::unsupported;
use crate::random::Stream;
use crate::{BackendDevice, BackendStorage, DType, Result};

/// What a draw produces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Distribution {
    /// uniform in [0, 1) (float32 or float64)
    Uniform,
    /// standard normal (float32 or float64)
    StandardNormal,
    /// integers uniform in `low ..= low + span` (any integer dtype that holds them)
    Integers {
        /// the smallest value
        low: i64,
        /// the number of values less one
        span: u64,
    },
}

/// The random family of a backend's device.
pub trait RandomDevice: BackendDevice {
    /// `n` values of `dist` as `dtype` from `stream`, value `i` at position `i` (see
    /// [`crate::random`] for which words each value takes). The caller has checked that `dtype`
    /// suits `dist`.
    fn random(&self, _n: usize, _dtype: DType, _dist: Distribution, _stream: Stream) -> Result<Self::Storage> {
        unsupported("random", <Self::Storage as BackendStorage>::NAME)
    }
}
