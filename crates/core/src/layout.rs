//! Shapes, strides and offsets: how an n-d view maps onto a flat buffer, and the pure
//! arithmetic on them (broadcasting, transposition, reshaping without copy, basic indexing,
//! collapsing of contiguous dimensions for kernels).
//!
//! ```
//! use xp_core::{Layout, SliceElem};
//! let l = Layout::contiguous(&[3, 4]);
//! let t = l.permute(&[1, 0]).unwrap();
//! assert_eq!(t.strides(), &[1, 4]);
//! // a[1:, ::-1]
//! let v = l.index(&[SliceElem::from(1..), SliceElem::from(..).step(-1)]).unwrap();
//! assert_eq!((v.shape(), v.strides(), v.offset()), (&[2usize, 4][..], &[4isize, -1][..], 7));
//! ```
use crate::{Error, Result};
use smallvec::SmallVec;

/// Dimensions a layout holds without a heap allocation.
const INLINE: usize = 4;

/// A shape plus signed strides (in elements) and an offset (in elements) into a buffer. Up to
/// four dimensions live inline: making the layout of a small op's result allocates nothing.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    shape: SmallVec<[usize; INLINE]>,
    strides: SmallVec<[isize; INLINE]>,
    offset: usize,
}

/// The C-order strides of a shape, in elements.
pub fn contiguous_strides(shape: &[usize]) -> Vec<isize> {
    let mut s = vec![0isize; shape.len()];
    let mut acc = 1isize;
    for i in (0..shape.len()).rev() {
        s[i] = acc;
        acc *= shape[i].max(1) as isize;
    }
    s
}

/// Number of elements of a shape.
pub fn numel(shape: &[usize]) -> usize {
    shape.iter().product()
}

/// Turn a possibly negative axis into an index below `ndim`.
pub fn normalize_axis(op: &'static str, axis: isize, ndim: usize) -> Result<usize> {
    let n = ndim as isize;
    if axis < -n || axis >= n {
        return Err(Error::AxisOutOfRange { op, axis, ndim });
    }
    Ok(if axis < 0 { (axis + n) as usize } else { axis as usize })
}

/// Normalise a list of axes (None: all axes), rejecting repeats; the result is sorted.
pub fn normalize_axes(op: &'static str, axes: Option<&[isize]>, ndim: usize) -> Result<Vec<usize>> {
    let Some(axes) = axes else { return Ok((0..ndim).collect()) };
    let mut out = Vec::with_capacity(axes.len());
    for &a in axes {
        let n = normalize_axis(op, a, ndim)?;
        if out.contains(&n) {
            return Err(Error::RepeatedAxis { op, axis: a });
        }
        out.push(n);
    }
    out.sort_unstable();
    Ok(out)
}

/// The broadcast shape of two shapes (NumPy rules), or a [`Error::ShapeMismatch`].
pub fn broadcast_shapes(op: &'static str, a: &[usize], b: &[usize]) -> Result<Vec<usize>> {
    let n = a.len().max(b.len());
    let mut out = vec![0; n];
    for i in 0..n {
        let x = if i + a.len() >= n { a[i + a.len() - n] } else { 1 };
        let y = if i + b.len() >= n { b[i + b.len() - n] } else { 1 };
        out[i] = match (x, y) {
            _ if x == y => x,
            (1, y) => y,
            (x, 1) => x,
            _ => return Err(Error::ShapeMismatch { op, lhs: a.to_vec(), rhs: b.to_vec() }),
        };
    }
    Ok(out)
}

/// One element of a basic index: an integer, a slice, a new axis or an ellipsis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SliceElem {
    /// a single position (removes the axis); negative counts from the end
    Index(isize),
    /// `start:stop:step`, NumPy semantics for negative and omitted bounds
    Slice {
        /// first position (None: the start in the direction of `step`)
        start: Option<isize>,
        /// one past the last (None: the end in the direction of `step`)
        stop: Option<isize>,
        /// nonzero step
        step: isize,
    },
    /// `np.newaxis`: inserts an axis of length 1
    NewAxis,
    /// `...`: as many full slices as needed
    Ellipsis,
}

impl SliceElem {
    /// The full slice `:`.
    pub const FULL: SliceElem = SliceElem::Slice { start: None, stop: None, step: 1 };
    /// Set the step of a slice (an index stays an index).
    pub fn step(self, step: isize) -> SliceElem {
        match self {
            SliceElem::Slice { start, stop, .. } => SliceElem::Slice { start, stop, step },
            other => other,
        }
    }
}

macro_rules! slice_from_int {
    ($($t:ty),*) => {$(
        impl From<$t> for SliceElem {
            fn from(i: $t) -> Self { SliceElem::Index(i as isize) }
        }
        impl From<std::ops::Range<$t>> for SliceElem {
            fn from(r: std::ops::Range<$t>) -> Self {
                SliceElem::Slice { start: Some(r.start as isize), stop: Some(r.end as isize), step: 1 }
            }
        }
        impl From<std::ops::RangeFrom<$t>> for SliceElem {
            fn from(r: std::ops::RangeFrom<$t>) -> Self {
                SliceElem::Slice { start: Some(r.start as isize), stop: None, step: 1 }
            }
        }
        impl From<std::ops::RangeTo<$t>> for SliceElem {
            fn from(r: std::ops::RangeTo<$t>) -> Self {
                SliceElem::Slice { start: None, stop: Some(r.end as isize), step: 1 }
            }
        }
        impl From<std::ops::RangeInclusive<$t>> for SliceElem {
            fn from(r: std::ops::RangeInclusive<$t>) -> Self {
                let end = *r.end() as isize;
                SliceElem::Slice { start: Some(*r.start() as isize), stop: if end == -1 { None } else { Some(end + 1) }, step: 1 }
            }
        }
    )*};
}
slice_from_int!(i32, i64, isize, usize);
impl From<std::ops::RangeFull> for SliceElem {
    fn from(_: std::ops::RangeFull) -> Self {
        SliceElem::FULL
    }
}

/// Resolve `start:stop:step` on an axis of length `len`: (first index, count), as CPython's
/// `PySlice_AdjustIndices`.
pub fn resolve_slice(start: Option<isize>, stop: Option<isize>, step: isize, len: usize) -> (isize, usize) {
    let n = len as isize;
    let clamp = |v: isize, lo: isize, hi: isize| v.max(lo).min(hi);
    let adj = |v: isize| if v < 0 { v + n } else { v };
    if step > 0 {
        let s = start.map_or(0, |v| clamp(adj(v), 0, n));
        let e = stop.map_or(n, |v| clamp(adj(v), 0, n));
        (s, if e > s { ((e - s + step - 1) / step) as usize } else { 0 })
    } else {
        let s = start.map_or(n - 1, |v| clamp(adj(v), -1, n - 1));
        let e = stop.map_or(-1, |v| clamp(adj(v), -1, n - 1));
        (s, if s > e { ((s - e + (-step) - 1) / (-step)) as usize } else { 0 })
    }
}

impl Layout {
    /// A C-contiguous layout of `shape` at offset 0.
    pub fn contiguous(shape: &[usize]) -> Layout {
        let mut strides = SmallVec::from_elem(0isize, shape.len());
        let mut acc = 1isize;
        for i in (0..shape.len()).rev() {
            strides[i] = acc;
            acc *= shape[i].max(1) as isize;
        }
        Layout { shape: SmallVec::from_slice(shape), strides, offset: 0 }
    }
    /// A layout from parts; the caller guarantees they fit the buffer it is used with.
    pub fn new(shape: Vec<usize>, strides: Vec<isize>, offset: usize) -> Layout {
        debug_assert_eq!(shape.len(), strides.len());
        Layout { shape: SmallVec::from_vec(shape), strides: SmallVec::from_vec(strides), offset }
    }
    /// The shape.
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }
    /// The strides in elements.
    pub fn strides(&self) -> &[isize] {
        &self.strides
    }
    /// The offset in elements of element `[0, 0, ...]`.
    pub fn offset(&self) -> usize {
        self.offset
    }
    /// Number of dimensions.
    pub fn ndim(&self) -> usize {
        self.shape.len()
    }
    /// Number of elements.
    pub fn numel(&self) -> usize {
        numel(&self.shape)
    }
    /// True when the elements are C-contiguous (size-1 axes may have any stride).
    pub fn is_contiguous(&self) -> bool {
        let mut acc = 1isize;
        for i in (0..self.ndim()).rev() {
            if self.shape[i] != 1 && self.strides[i] != acc {
                return self.numel() == 0;
            }
            acc *= self.shape[i] as isize;
        }
        true
    }
    /// The smallest and one-past-largest buffer positions this layout touches (empty: offset..offset).
    pub fn span(&self) -> (usize, usize) {
        if self.numel() == 0 {
            return (self.offset, self.offset);
        }
        let (mut lo, mut hi) = (self.offset as isize, self.offset as isize);
        for (&n, &s) in self.shape.iter().zip(&self.strides) {
            let d = (n as isize - 1) * s;
            if d < 0 {
                lo += d
            } else {
                hi += d
            }
        }
        (lo as usize, hi as usize + 1)
    }
    /// Reorder the axes: axis `i` of the result is axis `perm[i]` of `self`.
    pub fn permute(&self, perm: &[usize]) -> Result<Layout> {
        let n = self.ndim();
        let mut seen = vec![false; n];
        if perm.len() != n || perm.iter().any(|&p| p >= n || std::mem::replace(&mut seen[p], true)) {
            return Err(Error::invalid("transpose", format!("axes {perm:?} are not a permutation of 0..{n}")));
        }
        Ok(Layout {
            shape: perm.iter().map(|&p| self.shape[p]).collect(),
            strides: perm.iter().map(|&p| self.strides[p]).collect(),
            offset: self.offset,
        })
    }
    /// A view of this layout broadcast to `shape` (zero strides on the new and stretched axes).
    pub fn broadcast_to(&self, op: &'static str, shape: &[usize]) -> Result<Layout> {
        let err = || Error::ShapeMismatch { op, lhs: self.shape.to_vec(), rhs: shape.to_vec() };
        if shape.len() < self.ndim() {
            return Err(err());
        }
        let lead = shape.len() - self.ndim();
        let mut strides = SmallVec::from_elem(0isize, shape.len());
        for i in 0..self.ndim() {
            let (have, want) = (self.shape[i], shape[lead + i]);
            strides[lead + i] = if have == want {
                self.strides[i]
            } else if have == 1 {
                0
            } else {
                return Err(err());
            };
        }
        Ok(Layout { shape: SmallVec::from_slice(shape), strides, offset: self.offset })
    }
    /// The layout of a reshape that needs no copy, if there is one (NumPy's
    /// `_attempt_nocopy_reshape`): None means the data must be copied.
    pub fn reshape_view(&self, new_shape: &[usize]) -> Option<Layout> {
        if self.numel() == 0 || self.is_contiguous() {
            return Some(Layout {
                shape: SmallVec::from_slice(new_shape),
                strides: SmallVec::from_vec(contiguous_strides(new_shape)),
                offset: self.offset,
            });
        }
        // Drop size-1 axes, then match groups of old axes to groups of new axes.
        let (os, ot): (Vec<usize>, Vec<isize>) =
            self.shape.iter().zip(&self.strides).filter(|(&n, _)| n != 1).map(|(&n, &s)| (n, s)).unzip();
        let mut ns = vec![0isize; new_shape.len()];
        let (mut oi, mut ni) = (0usize, 0usize);
        while oi < os.len() && ni < new_shape.len() {
            let (oj0, nj0) = (oi, ni);
            let (mut op, mut np) = (os[oi], new_shape[ni]);
            while op != np {
                if np < op {
                    ni += 1;
                    np *= new_shape[ni];
                } else {
                    oi += 1;
                    op *= os[oi];
                }
            }
            for k in oj0..oi {
                if ot[k] != ot[k + 1] * os[k + 1] as isize {
                    return None;
                }
            }
            ns[ni] = ot[oi];
            for k in (nj0..ni).rev() {
                ns[k] = ns[k + 1] * new_shape[k + 1] as isize;
            }
            oi += 1;
            ni += 1;
        }
        // Trailing new axes are all of size 1: any stride works.
        for s in ns.iter_mut().skip(ni) {
            *s = 1;
        }
        Some(Layout { shape: SmallVec::from_slice(new_shape), strides: ns.into(), offset: self.offset })
    }
    /// Basic indexing: integers, slices, new axes and one ellipsis.
    pub fn index(&self, elems: &[SliceElem]) -> Result<Layout> {
        let consumed = elems.iter().filter(|e| matches!(e, SliceElem::Index(_) | SliceElem::Slice { .. })).count();
        let ellipses = elems.iter().filter(|e| matches!(e, SliceElem::Ellipsis)).count();
        if ellipses > 1 {
            return Err(Error::invalid("index", "an index can only have a single ellipsis"));
        }
        if consumed > self.ndim() {
            return Err(Error::invalid(
                "index",
                format!(
                    "too many indices for array: array is {}-dimensional, but {consumed} were indexed",
                    self.ndim()
                ),
            ));
        }
        let mut full: Vec<SliceElem> = Vec::with_capacity(elems.len() + self.ndim());
        for e in elems {
            if let SliceElem::Ellipsis = e {
                full.extend(std::iter::repeat_n(SliceElem::FULL, self.ndim() - consumed));
            } else {
                full.push(*e);
            }
        }
        if ellipses == 0 {
            full.extend(std::iter::repeat_n(SliceElem::FULL, self.ndim() - consumed));
        }
        let (mut shape, mut strides) = (Vec::new(), Vec::new());
        let mut offset = self.offset as isize;
        let mut axis = 0;
        for e in full {
            match e {
                SliceElem::NewAxis => {
                    shape.push(1);
                    strides.push(0);
                }
                SliceElem::Index(i) => {
                    let n = self.shape[axis];
                    let j = if i < 0 { i + n as isize } else { i };
                    if j < 0 || j >= n as isize {
                        return Err(Error::IndexOutOfBounds { index: i, axis, size: n });
                    }
                    offset += j * self.strides[axis];
                    axis += 1;
                }
                SliceElem::Slice { start, stop, step } => {
                    if step == 0 {
                        return Err(Error::invalid("index", "slice step cannot be zero"));
                    }
                    let (s, len) = resolve_slice(start, stop, step, self.shape[axis]);
                    if len > 0 {
                        offset += s * self.strides[axis];
                    }
                    shape.push(len);
                    strides.push(self.strides[axis] * step);
                    axis += 1;
                }
                SliceElem::Ellipsis => unreachable!("expanded above"),
            }
        }
        Ok(Layout { shape: shape.into(), strides: strides.into(), offset: offset as usize })
    }
    /// The view of the diagonal at `offset` (above the main one when positive) of the plane of
    /// `axis1` and `axis2` (distinct, in range): those two axes removed and the diagonal appended
    /// as the last axis, as NumPy's `diagonal`.
    pub fn diagonal(&self, offset: isize, axis1: usize, axis2: usize) -> Layout {
        let (n1, n2) = (self.shape[axis1] as isize, self.shape[axis2] as isize);
        let (s1, s2) = (self.strides[axis1], self.strides[axis2]);
        let len = if offset >= 0 { n1.min(n2 - offset) } else { (n1 + offset).min(n2) }.max(0) as usize;
        let mut out = self.remove_axes(&[axis1, axis2]);
        let start = if offset >= 0 { offset * s2 } else { -offset * s1 };
        if len > 0 && out.numel() > 0 {
            out.offset = (self.offset as isize + start) as usize;
        }
        out.shape.push(len);
        out.strides.push(s1 + s2);
        out
    }
    /// Insert an axis of length 1 at `axis` (already normalised to `0..=ndim`).
    pub fn insert_axis(&self, axis: usize) -> Layout {
        let mut l = self.clone();
        l.shape.insert(axis, 1);
        l.strides.insert(axis, 0);
        l
    }
    /// Remove the listed axes, which must have length 1.
    pub fn remove_axes(&self, axes: &[usize]) -> Layout {
        let keep = |i: &usize| !axes.contains(i);
        Layout {
            shape: (0..self.ndim()).filter(keep).map(|i| self.shape[i]).collect(),
            strides: (0..self.ndim()).filter(keep).map(|i| self.strides[i]).collect(),
            offset: self.offset,
        }
    }
    /// Shift the offset, for views that start inside a buffer.
    pub fn with_offset(mut self, offset: usize) -> Layout {
        self.offset = offset;
        self
    }
}

#[allow(clippy::needless_range_loop)] // d indexes the shape and every layout's strides together
/// Several same-shaped layouts with contiguous dimensions merged and size-1 dimensions dropped:
/// what a kernel iterates over. Returns the merged shape and each layout's strides (at least one
/// dimension, so that a 0-d array is one row of one element).
pub fn collapse(layouts: &[&Layout]) -> (Vec<usize>, Vec<Vec<isize>>) {
    let shape = layouts[0].shape();
    let mut out_shape: Vec<usize> = Vec::new();
    let mut out_strides: Vec<Vec<isize>> = vec![Vec::new(); layouts.len()];
    for d in 0..shape.len() {
        if shape[d] == 1 {
            continue;
        }
        let mergeable = !out_shape.is_empty()
            && layouts.iter().enumerate().all(|(k, l)| {
                let prev = *out_strides[k].last().unwrap();
                prev == l.strides()[d] * shape[d] as isize
            });
        if mergeable {
            *out_shape.last_mut().unwrap() *= shape[d];
            for (k, l) in layouts.iter().enumerate() {
                *out_strides[k].last_mut().unwrap() = l.strides()[d];
            }
        } else {
            out_shape.push(shape[d]);
            for (k, l) in layouts.iter().enumerate() {
                out_strides[k].push(l.strides()[d]);
            }
        }
    }
    if out_shape.is_empty() || shape.contains(&0) {
        let n = if shape.contains(&0) { 0 } else { 1 };
        return (vec![n], vec![vec![1]; layouts.len()]);
    }
    (out_shape, out_strides)
}
