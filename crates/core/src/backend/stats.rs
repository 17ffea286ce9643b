//! The statistics family: counting values into bins (the histogram functions of the front end)
//! and counting their keys' digits (the selection behind `median`).
use super::unsupported;
use crate::select::RadixPass;
use crate::{BackendStorage, Layout, Result};

/// The statistics family of a backend's storage.
pub trait StatsStorage: BackendStorage {
    /// For each value of `self` at `l` (contiguous; float32 or float64), the bin `i` with
    /// `edges[i] <= x < edges[i + 1]`, the last bin also holding its right edge; values outside
    /// the edges and NaN are skipped. `edges` (contiguous, non-decreasing, at least two, the
    /// values' dtype) has one more element than the result. The result counts as int64, or sums
    /// `weights` (float64, contiguous, one per value) as float64.
    fn histogram(&self, _l: &Layout, _edges: &Self, _weights: Option<&Self>) -> Result<Self> {
        unsupported("histogram", Self::NAME)
    }
    /// One pass of a radix selection ([`crate::select`]) over the values of `self` at `l`
    /// (contiguous; float32 or float64): the `2^pass.bits` counts of the digit of the keys that
    /// match the pass's prefix, read back to the host.
    fn radix_counts(&self, _l: &Layout, _pass: RadixPass) -> Result<Vec<u64>> {
        unsupported("radix_counts", Self::NAME)
    }
}
