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
    /// standard exponential (float32 or float64), `-ln(1 - u)`
    StandardExponential,
    /// standard gamma of shape `params[0]` (float32 or float64; computed in float64)
    StandardGamma,
    /// Poisson of mean `params[0]` (int64)
    Poisson,
    /// binomial of `params[0]` trials with probability `params[1]` (int64)
    Binomial,
}

impl Distribution {
    /// How many parameter arrays the distribution reads.
    pub fn params(&self) -> usize {
        match self {
            Distribution::StandardGamma | Distribution::Poisson => 1,
            Distribution::Binomial => 2,
            _ => 0,
        }
    }
}

/// The random family of a backend's device.
pub trait RandomDevice: BackendDevice {
    /// `n` values of `dist` as `dtype` from `stream`, value `i` at position `i` (see
    /// [`crate::random`] for which words each value takes). `params` are the distribution's
    /// parameters as float64 storages of this device, each of one value (for every position) or
    /// of `n` (value `i` reads its `i`-th). The caller has checked that `dtype` suits `dist` and
    /// that the parameters are valid.
    fn random(
        &self,
        _n: usize,
        _dtype: DType,
        _dist: Distribution,
        _params: &[&Self::Storage],
        _stream: Stream,
    ) -> Result<Self::Storage> {
        unsupported("random", <Self::Storage as BackendStorage>::NAME)
    }
}
