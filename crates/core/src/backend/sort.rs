//! The sort family: stable sorts and argsorts along one axis, and binary search.
//!
//! NumPy's order: NaNs last (a NaN with any payload or sign), `-0.0` equal to `+0.0` (so the two
//! keep their input order), complex numbers by real part then imaginary part (a NaN in either
//! part last), booleans `false < true`.
use super::unsupported;
use crate::{BackendStorage, Layout, Result};

/// What a sort returns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SortOutput {
    /// the sorted values (`sort`)
    #[default]
    Values,
    /// the permutation that sorts, int64 (`argsort`)
    Indices,
}

/// Which of several equal positions `searchsorted` returns (NumPy's `side`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Side {
    /// the first position where the value could be inserted (`a[i-1] < v <= a[i]`)
    #[default]
    Left,
    /// the last (`a[i-1] <= v < a[i]`)
    Right,
}

/// The sort family of a backend's storage.
pub trait SortStorage: BackendStorage {
    /// Sort every line along `axis` stably (equal elements keep their order) in NumPy's order;
    /// the result is C-contiguous with `l`'s shape: the values, or int64 positions along `axis`.
    fn sort(&self, _l: &Layout, _axis: usize, _out: SortOutput) -> Result<Self> {
        unsupported("sort", Self::NAME)
    }
    /// For each element of `v` (same dtype), its insertion position (int64) in the 1-D sorted
    /// `self` at `l` (NumPy's order, NaNs last); the result has `vl`'s shape, C-contiguous.
    fn searchsorted(&self, _l: &Layout, _v: &Self, _vl: &Layout, _side: Side) -> Result<Self> {
        unsupported("searchsorted", Self::NAME)
    }
}
