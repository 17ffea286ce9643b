//! The indexing family: gathers and scatters through index arrays that live on the device,
//! compaction by masks, and the `nonzero` coordinates.
//!
//! NumPy's advanced indexing reduces to one shape: after basic indexing and a transposition
//! (both views, done by the front end), `k` integer index arrays of a common shape `B` address
//! axes `axis .. axis + k` of a layout `P × K × Q`; the gather's result has shape `P × B × Q`:
//!
//! `out[p, b, q] = src[p, i_0[b], …, i_{k-1}[b], q]`
//!
//! and a scatter writes (or combines) `v[p, b, q]` into the same places. Index arrays are int64,
//! C-contiguous over `B`, and may be negative (counted from the end) as in NumPy.
use super::unsupported;
use crate::{BackendStorage, BinaryOp, Layout, Result};

/// What an index outside its axis does (NumPy's `mode` of `take`, `put`, `choose`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum IndexMode {
    /// an out-of-bounds index is an error (`Error::IndexOutOfBounds`); negative indices count
    /// from the end
    #[default]
    Raise,
    /// indices are taken modulo the axis length
    Wrap,
    /// indices are clipped to `0 ..= len - 1`
    Clip,
}

/// The integer index arrays of a gather or scatter.
#[derive(Clone, Copy, Debug)]
pub struct IndexSet<'a, S> {
    /// the first source axis the arrays address; array `j` addresses axis `axis + j`
    pub axis: usize,
    /// one int64 storage per addressed axis, each C-contiguous over `shape`, starting at the
    /// given element offset
    pub arrays: &'a [(&'a S, usize)],
    /// the broadcast shape `B` of the index arrays
    pub shape: &'a [usize],
    /// what an out-of-range index does
    pub mode: IndexMode,
}

impl<S> IndexSet<'_, S> {
    /// Number of index positions (the product of `shape`).
    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }
    /// True when there is no index position.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The gather's output shape for a source of shape `src` (`P × B × Q`).
    pub fn out_shape(&self, src: &[usize]) -> Vec<usize> {
        let mut s = src[..self.axis].to_vec();
        s.extend_from_slice(self.shape);
        s.extend_from_slice(&src[self.axis + self.arrays.len()..]);
        s
    }
}

/// How a scatter combines a value with the element already there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Combine {
    /// overwrite; where several positions address one element, the last in C order over the
    /// index shape wins (NumPy's documented rule)
    Assign,
    /// `dst = op(dst, v)` once per occurrence, in index order (NumPy's `ufunc.at`)
    Ufunc(BinaryOp),
}

/// The indexing family of a backend's storage.
pub trait IndexStorage: BackendStorage {
    /// Gather (see the module docs): a new C-contiguous storage of shape `set.out_shape(l)`.
    /// With [`IndexMode::Raise`], an out-of-range index gives `Error::IndexOutOfBounds` naming
    /// the index, the axis of `l` and its size.
    fn gather(&self, _l: &Layout, _set: &IndexSet<'_, Self>) -> Result<Self> {
        unsupported("gather", Self::NAME)
    }
    /// Scatter `v` (laid out with the gather's output shape; strides may be 0) into `self` at
    /// `l`, as `how` says. With [`IndexMode::Raise`] every index is checked before anything is
    /// written: on error `self` is unchanged.
    fn scatter(
        &mut self,
        _l: &Layout,
        _set: &IndexSet<'_, Self>,
        _v: &Self,
        _vl: &Layout,
        _how: Combine,
    ) -> Result<()> {
        unsupported("scatter", Self::NAME)
    }
    /// The C-order coordinates of the nonzero elements of `l`: int64 of shape `(count, ndim)`.
    fn nonzero(&self, _l: &Layout) -> Result<Self> {
        unsupported("nonzero", Self::NAME)
    }
    /// `self[..., mask, ...]`: the boolean `mask` (layout `ml`, shape equal to axes
    /// `axis .. axis + ml.ndim()` of `l`) keeps the positions where it is true, in C order; the
    /// result has shape `P × [count] × Q`, C-contiguous.
    fn compress(&self, _l: &Layout, _axis: usize, _mask: &Self, _ml: &Layout) -> Result<Self> {
        unsupported("compress", Self::NAME)
    }
}
