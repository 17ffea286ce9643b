//! The elements of a NumPy index and the [`ix!`](crate::ix) macro that writes one.
use crate::Array;
use xp_core::SliceElem;

/// One element of an index: a basic element (integer, slice, new axis, ellipsis) or an array
/// (integer positions, or a boolean mask over as many axes as it has dimensions).
#[derive(Clone, Debug)]
pub enum IndexItem {
    /// an integer, slice, `NEW_AXIS` or `ELLIPSIS`
    Basic(SliceElem),
    /// an integer or boolean array on the indexed array's device
    Array(Array),
}

impl IndexItem {
    /// Set the step of a slice (anything else is unchanged).
    pub fn step(self, step: isize) -> IndexItem {
        match self {
            IndexItem::Basic(s) => IndexItem::Basic(s.step(step)),
            a => a,
        }
    }
}

impl<T: Into<SliceElem>> From<T> for IndexItem {
    fn from(x: T) -> Self {
        IndexItem::Basic(x.into())
    }
}
impl From<&Array> for IndexItem {
    fn from(a: &Array) -> Self {
        IndexItem::Array(a.clone())
    }
}
impl From<Array> for IndexItem {
    fn from(a: Array) -> Self {
        IndexItem::Array(a)
    }
}

/// Build a mixed index: `ix![.., &rows, 1..;2]` is NumPy's `[:, rows, 1::2]`. Each element is
/// anything [`s!`](crate::s) accepts, or an array (`&Array` or `Array`) of integers or booleans.
#[macro_export]
macro_rules! ix {
    ($($e:expr $(;$step:expr)?),* $(,)?) => {
        [$($crate::IndexItem::from($e)$(.step($step))?),*]
    };
}

/// Anything that can index an array: a basic index (`s![..]`), a mixed one (`ix![..]`), or a
/// single array (`&mask`, `&idx`).
pub trait IntoIndex {
    /// The index as a list of items.
    fn into_index(self) -> Vec<IndexItem>;
}

impl<const N: usize> IntoIndex for [SliceElem; N] {
    fn into_index(self) -> Vec<IndexItem> {
        self.into_iter().map(IndexItem::Basic).collect()
    }
}
impl IntoIndex for &[SliceElem] {
    fn into_index(self) -> Vec<IndexItem> {
        self.iter().map(|&s| IndexItem::Basic(s)).collect()
    }
}
impl IntoIndex for Vec<SliceElem> {
    fn into_index(self) -> Vec<IndexItem> {
        self.as_slice().into_index()
    }
}
impl<const N: usize> IntoIndex for [IndexItem; N] {
    fn into_index(self) -> Vec<IndexItem> {
        self.into()
    }
}
impl IntoIndex for Vec<IndexItem> {
    fn into_index(self) -> Vec<IndexItem> {
        self
    }
}
impl IntoIndex for &[IndexItem] {
    fn into_index(self) -> Vec<IndexItem> {
        self.to_vec()
    }
}
impl IntoIndex for &Array {
    fn into_index(self) -> Vec<IndexItem> {
        vec![IndexItem::Array(self.clone())]
    }
}
impl IntoIndex for Array {
    fn into_index(self) -> Vec<IndexItem> {
        vec![IndexItem::Array(self)]
    }
}
