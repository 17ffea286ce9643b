//! Views and manipulation: reshape, transpose, broadcasting, basic indexing and assignment,
//! joining and splitting, flip, roll, tile, repeat, pad, take.
//!
//! ```
//! use xp::{s, Array};
//! let a = xp::arange(0, 12, 1, None).unwrap().reshape(&[3, 4]).unwrap();
//! let v = a.slice(s![1.., ..;-1]).unwrap();          // a[1:, ::-1], a view
//! assert_eq!(v.to_vec::<i64>().unwrap(), vec![7, 6, 5, 4, 11, 10, 9, 8]);
//! v.slice(s![0, ..]).unwrap().assign(0).unwrap();     // writes through to `a`
//! assert_eq!(a.slice(s![1, ..]).unwrap().to_vec::<i64>().unwrap(), vec![0, 0, 0, 0]);
//! ```
use crate::axes::{Axes, IntoAxes};
use crate::shape::{shape_of, IntoNewShape, IntoShape};
use crate::ufunc::{materialize, Operand};
use crate::Array;
use xp_core::{broadcast_shapes, normalize_axis, numel, promote_types, Error, Layout, Result, SliceElem};

/// Build a basic index: `s![1.., ..;-1, 0, xp::NEW_AXIS, xp::ELLIPSIS]` (NumPy's
/// `[1:, ::-1, 0, np.newaxis, ...]`). Each element is an integer, a range, `..`, or one of the
/// constants, optionally followed by `;step`.
#[macro_export]
macro_rules! s {
    ($($e:expr $(;$step:expr)?),* $(,)?) => {
        [$($crate::SliceElem::from($e)$(.step($step))?),*]
    };
}

/// `np.newaxis` for [`s!`].
pub const NEW_AXIS: SliceElem = SliceElem::NewAxis;
/// `...` for [`s!`].
pub const ELLIPSIS: SliceElem = SliceElem::Ellipsis;

/// Resolve a shape with at most one -1 against a size.
fn resolve_shape(op: &'static str, from: &[usize], shape: &[isize]) -> Result<Vec<usize>> {
    let size = numel(from);
    let err = || Error::ReshapeSize { from: from.to_vec(), to: shape.to_vec(), size };
    let unknown: Vec<usize> = (0..shape.len()).filter(|&i| shape[i] == -1).collect();
    if unknown.len() > 1 || shape.iter().any(|&d| d < -1) {
        return Err(Error::invalid(op, format!("invalid shape {shape:?}: only one dimension can be -1, none below")));
    }
    let known: usize = shape.iter().filter(|&&d| d >= 0).map(|&d| d as usize).product();
    let mut out: Vec<usize> = shape.iter().map(|&d| d.max(0) as usize).collect();
    if let Some(&u) = unknown.first() {
        if known == 0 || !size.is_multiple_of(known) {
            return Err(err());
        }
        out[u] = size / known;
    } else if known != size {
        return Err(err());
    }
    Ok(out)
}

impl Array {
    /// Reshape (one dimension may be -1): a view when the strides allow, else a copy.
    pub fn reshape(&self, shape: impl IntoNewShape) -> Result<Array> {
        let dims = shape.into_dims();
        let shape: Vec<isize> =
            dims.0.iter().map(|&d| d.clamp(isize::MIN as i64, isize::MAX as i64) as isize).collect();
        let shape = resolve_shape("reshape", self.shape(), &shape)?;
        self.reshape_exact(&shape)
    }
    pub(crate) fn reshape_exact(&self, shape: &[usize]) -> Result<Array> {
        if numel(shape) != self.size() {
            return Err(Error::ReshapeSize {
                from: self.shape().to_vec(),
                to: shape.iter().map(|&d| d as isize).collect(),
                size: self.size(),
            });
        }
        match self.layout.reshape_view(shape) {
            Some(l) => Ok(self.with_layout(l)),
            None => Ok(self.copy()?.with_layout(Layout::contiguous(shape))),
        }
    }
    /// A 1-d view when possible, else a copy (NumPy `ravel`).
    pub fn ravel(&self) -> Result<Array> {
        self.reshape_exact(&[self.size()])
    }
    /// A 1-d copy (NumPy `flatten`).
    pub fn flatten(&self) -> Result<Array> {
        self.copy()?.ravel()
    }
    /// Reverse the axes (NumPy `.T`).
    pub fn t(&self) -> Result<Array> {
        let perm: Vec<usize> = (0..self.ndim()).rev().collect();
        Ok(self.with_layout(self.layout.permute(&perm)?))
    }
    /// Permute the axes (`..`: reverse them; a list: the new order), a view (NumPy `transpose`).
    pub fn transpose(&self, axes: impl IntoAxes) -> Result<Array> {
        let Axes::List(axes) = axes.into_axes() else { return self.t() };
        let perm = axes.iter().map(|&a| normalize_axis("transpose", a, self.ndim())).collect::<Result<Vec<_>>>()?;
        Ok(self.with_layout(self.layout.permute(&perm)?))
    }
    /// Permute the axes, a view (array API `permute_dims`).
    pub fn permute_dims(&self, axes: &[isize]) -> Result<Array> {
        self.transpose(axes)
    }
    /// Exchange two axes, a view.
    pub fn swapaxes(&self, a: isize, b: isize) -> Result<Array> {
        let (a, b) = (normalize_axis("swapaxes", a, self.ndim())?, normalize_axis("swapaxes", b, self.ndim())?);
        let mut perm: Vec<usize> = (0..self.ndim()).collect();
        perm.swap(a, b);
        Ok(self.with_layout(self.layout.permute(&perm)?))
    }
    /// Move axis `src` to position `dst`, a view.
    pub fn moveaxis(&self, src: isize, dst: isize) -> Result<Array> {
        let (s, d) = (normalize_axis("moveaxis", src, self.ndim())?, normalize_axis("moveaxis", dst, self.ndim())?);
        let mut perm: Vec<usize> = (0..self.ndim()).filter(|&i| i != s).collect();
        perm.insert(d, s);
        Ok(self.with_layout(self.layout.permute(&perm)?))
    }
    /// Insert a length-1 axis at `axis` (in `-ndim-1..=ndim`), a view.
    pub fn expand_dims(&self, axis: isize) -> Result<Array> {
        let a = normalize_axis("expand_dims", axis, self.ndim() + 1)?;
        Ok(self.with_layout(self.layout.insert_axis(a)))
    }
    /// Remove length-1 axes (`..`: all of them), a view; naming an axis whose length is not 1 is
    /// an error.
    pub fn squeeze(&self, axes: impl IntoAxes) -> Result<Array> {
        let ax = match axes.into_axes() {
            Axes::All => (0..self.ndim()).filter(|&i| self.shape()[i] == 1).collect(),
            axes => axes.normalize("squeeze", self.ndim())?,
        };
        if let Some(&bad) = ax.iter().find(|&&i| self.shape()[i] != 1) {
            return Err(Error::invalid(
                "squeeze",
                format!(
                    "cannot select an axis to squeeze out which has size not equal to one (axis {bad}, size {})",
                    self.shape()[bad]
                ),
            ));
        }
        Ok(self.with_layout(self.layout.remove_axes(&ax)))
    }
    /// A read-only-in-spirit view broadcast to `shape` (zero strides; writing through it writes
    /// the same element many times).
    pub fn broadcast_to(&self, shape: impl IntoShape) -> Result<Array> {
        let shape = shape_of("broadcast_to", shape)?;
        Ok(self.with_layout(self.layout.broadcast_to("broadcast_to", &shape)?))
    }
    /// Basic indexing: integers, slices (any step, negative too), new axes, one ellipsis. A view.
    pub fn slice(&self, index: impl AsRef<[SliceElem]>) -> Result<Array> {
        Ok(self.with_layout(self.layout.index(index.as_ref())?))
    }
    /// Write `value` (broadcast, cast to this array's dtype) into this array or view, as NumPy's
    /// `a[...] = value`. Every view of the same data sees the change.
    pub fn assign<'a>(&self, value: impl Into<Operand<'a>>) -> Result<()> {
        let value = value.into();
        if let Operand::Array(v) = &value
            && v.device() != self.device()
        {
            return Err(Error::DeviceMismatch { op: "assign", lhs: self.device(), rhs: v.device() });
        }
        let v = materialize(&value, self.dtype(), self.device())?;
        let vl = v.layout.broadcast_to("assign", self.shape())?;
        // Overlapping source and destination: copy the source first.
        let (v, vl) = if v.shares_storage(self) {
            let c = v.with_layout(vl).copy()?;
            let l = c.layout.clone();
            (c, l)
        } else {
            (v, vl)
        };
        let src = v.read();
        let mut dst = self.write();
        src.copy_into(&vl, &mut dst, &self.layout)
    }
    /// Reverse the order of elements along `axes` (`..`: all), a view.
    pub fn flip(&self, axes: impl IntoAxes) -> Result<Array> {
        let ax = axes.into_axes().normalize("flip", self.ndim())?;
        let idx: Vec<SliceElem> = (0..self.ndim())
            .map(|i| if ax.contains(&i) { SliceElem::FULL.step(-1) } else { SliceElem::FULL })
            .collect();
        self.slice(idx)
    }
    /// Elements at host-known positions `indices` along `axis` (negative indices count from the
    /// end): the shape-derived selections of `roll`, `repeat` and `pad`.
    pub(crate) fn take_positions(&self, indices: &[isize], axis: isize) -> Result<Array> {
        let ax = normalize_axis("take", axis, self.ndim())?;
        let n = self.shape()[ax];
        let idx = indices
            .iter()
            .map(|&i| {
                let j = if i < 0 { i + n as isize } else { i };
                if j < 0 || j >= n as isize {
                    Err(Error::IndexOutOfBounds { index: i, axis: ax, size: n })
                } else {
                    Ok(j as i64)
                }
            })
            .collect::<Result<Vec<_>>>()?;
        // Checked here already: the gather needs no check (and so no wait) of its own.
        let len = idx.len();
        let idx = crate::on(self.device()).asarray(idx, [len])?;
        crate::index::gather(self, &self.layout, ax, &[idx], &[len], xp_core::IndexMode::Wrap)
    }
    /// Roll elements by `shift` along each of `axes` (`..`: over the flattened array, shape kept).
    pub fn roll(&self, shift: isize, axes: impl IntoAxes) -> Result<Array> {
        let Axes::List(axes) = axes.into_axes() else {
            return self.ravel()?.roll(shift, 0)?.reshape_exact(self.shape());
        };
        let shifts: Vec<(isize, isize)> = axes.iter().map(|&a| (a, shift)).collect();
        self.roll_axes(&shifts)
    }
    /// Roll by `shift` along `axis` for each `(axis, shift)` (a repeated axis rolls again):
    /// up to three axes as the `2^k` blocks copied into place, more one axis at a time.
    pub(crate) fn roll_axes(&self, shifts: &[(isize, isize)]) -> Result<Array> {
        let mut by_axis = vec![0isize; self.ndim()];
        for &(axis, shift) in shifts {
            let ax = normalize_axis("roll", axis, self.ndim())?;
            by_axis[ax] += shift;
        }
        let moved: Vec<(usize, usize)> = by_axis
            .iter()
            .enumerate()
            .filter_map(|(ax, &sh)| {
                let n = self.shape()[ax];
                let s = if n == 0 { 0 } else { sh.rem_euclid(n as isize) as usize };
                (s != 0).then_some((ax, s))
            })
            .collect();
        if moved.is_empty() {
            return self.copy();
        }
        if moved.len() > 3 {
            let mut r = self.clone();
            for &(ax, s) in &moved {
                r = r.roll_one(s as isize, ax as isize)?;
            }
            return Ok(r);
        }
        // out[s..] = x[..n - s] and out[..s] = x[n - s..] along each moved axis, every
        // combination of the halves one strided copy
        let out = crate::on(self.device()).empty(self.shape(), self.dtype())?;
        for corner in 0..1usize << moved.len() {
            let mut src = vec![SliceElem::FULL; self.ndim()];
            let mut dst = src.clone();
            for (b, &(ax, s)) in moved.iter().enumerate() {
                let n = self.shape()[ax] as isize;
                let s = s as isize;
                if corner >> b & 1 == 0 {
                    src[ax] = SliceElem::from(..n - s);
                    dst[ax] = SliceElem::from(s..);
                } else {
                    src[ax] = SliceElem::from(n - s..);
                    dst[ax] = SliceElem::from(..s);
                }
            }
            out.slice(&dst)?.assign(&self.slice(&src)?)?;
        }
        Ok(out)
    }
    fn roll_one(&self, shift: isize, axis: isize) -> Result<Array> {
        let ax = normalize_axis("roll", axis, self.ndim())?;
        let n = self.shape()[ax] as isize;
        if n == 0 {
            return self.copy();
        }
        let idx: Vec<isize> = (0..n).map(|i| (i - shift).rem_euclid(n)).collect();
        self.take_positions(&idx, axis)
    }
    /// Repeat the whole array `reps` times along each axis (NumPy `tile`).
    pub fn tile(&self, reps: &[usize]) -> Result<Array> {
        let nd = self.ndim().max(reps.len());
        let mut sh = vec![1usize; nd - self.ndim()];
        sh.extend_from_slice(self.shape());
        let mut r = vec![1usize; nd - reps.len()];
        r.extend_from_slice(reps);
        // a[None, :, None, :] broadcast to (r0, n0, r1, n1), then merged.
        let inter: Vec<usize> = (0..nd).flat_map(|i| [1, sh[i]]).collect();
        let wide: Vec<usize> = (0..nd).flat_map(|i| [r[i], sh[i]]).collect();
        let out: Vec<usize> = (0..nd).map(|i| r[i] * sh[i]).collect();
        self.reshape_exact(&inter)?.broadcast_to(&wide)?.copy()?.reshape_exact(&out)
    }
    /// Repeat each element `repeats` times along `axis` (None: flattened) — NumPy `repeat` with a
    /// scalar count.
    pub fn repeat(&self, repeats: usize, axis: Option<isize>) -> Result<Array> {
        let (a, ax) = match axis {
            None => (self.ravel()?, 0),
            Some(ax) => (self.clone(), normalize_axis("repeat", ax, self.ndim())?),
        };
        let mut inter = a.shape().to_vec();
        inter.insert(ax + 1, 1);
        let mut wide = inter.clone();
        wide[ax + 1] = repeats;
        let mut out = a.shape().to_vec();
        out[ax] *= repeats;
        a.reshape_exact(&inter)?.broadcast_to(&wide)?.copy()?.reshape_exact(&out)
    }
    /// Repeat element `i` along `axis` `counts[i]` times (NumPy `repeat` with an array of counts).
    pub fn repeat_counts(&self, counts: &[usize], axis: isize) -> Result<Array> {
        let ax = normalize_axis("repeat", axis, self.ndim())?;
        if counts.len() != self.shape()[ax] {
            return Err(Error::ShapeMismatch { op: "repeat", lhs: vec![counts.len()], rhs: vec![self.shape()[ax]] });
        }
        let idx: Vec<isize> =
            counts.iter().enumerate().flat_map(|(i, &c)| std::iter::repeat_n(i as isize, c)).collect();
        self.take_positions(&idx, axis)
    }
    /// Pad every axis `i` with `widths[i] = (before, after)` elements (one pair for all axes is
    /// allowed).
    pub fn pad(&self, widths: &[(usize, usize)], mode: PadMode) -> Result<Array> {
        let w: Vec<(usize, usize)> = match widths.len() {
            1 => vec![widths[0]; self.ndim()],
            n if n == self.ndim() => widths.to_vec(),
            n => return Err(Error::invalid("pad", format!("{n} pad widths given for {} axes", self.ndim()))),
        };
        if let PadMode::Constant(v) = mode {
            let shape: Vec<usize> = (0..self.ndim()).map(|i| self.shape()[i] + w[i].0 + w[i].1).collect();
            let out = crate::full_on(self.device(), &shape, v, self.dtype())?;
            let idx: Vec<SliceElem> = (0..self.ndim())
                .map(|i| SliceElem::from(w[i].0 as isize..(w[i].0 + self.shape()[i]) as isize))
                .collect();
            out.slice(idx)?.assign(self)?;
            return Ok(out);
        }
        let mut r = self.clone();
        for (ax, &(b, a)) in w.iter().enumerate() {
            let n = self.shape()[ax] as isize;
            if b + a == 0 {
                continue;
            }
            if n == 0 {
                return Err(Error::invalid("pad", "can't extend an empty axis except with a constant"));
            }
            // The borders gathered (their index lists are as short as they are), the middle as it
            // is: one copy of the array, not a gather through an index list of the whole axis.
            let before: Vec<isize> = (-(b as isize)..0).map(|i| pad_index(i, n, mode)).collect();
            let after: Vec<isize> = (n..n + a as isize).map(|i| pad_index(i, n, mode)).collect();
            let mut parts = vec![];
            if b > 0 {
                parts.push(r.take_positions(&before, ax as isize)?);
            }
            parts.push(r.clone());
            if a > 0 {
                parts.push(r.take_positions(&after, ax as isize)?);
            }
            r = crate::concatenate(&parts.iter().collect::<Vec<_>>(), ax as isize)?;
        }
        Ok(r)
    }
}

/// How [`Array::pad`] fills the border.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PadMode {
    /// a constant value
    Constant(xp_core::Scalar),
    /// the edge value repeated
    Edge,
    /// the other end of the axis (periodic)
    Wrap,
    /// mirror without repeating the edge (`[3 2 | 1 2 3 | 2 1]`)
    Reflect,
    /// mirror repeating the edge (`[2 1 | 1 2 3 | 3 2]`)
    Symmetric,
}

fn pad_index(i: isize, n: isize, mode: PadMode) -> isize {
    match mode {
        PadMode::Edge | PadMode::Constant(_) => i.clamp(0, n - 1),
        PadMode::Wrap => i.rem_euclid(n),
        PadMode::Reflect => {
            if n == 1 {
                return 0;
            }
            let p = 2 * (n - 1);
            let m = i.rem_euclid(p);
            if m < n {
                m
            } else {
                p - m
            }
        }
        PadMode::Symmetric => {
            let p = 2 * n;
            let m = i.rem_euclid(p);
            if m < n {
                m
            } else {
                p - 1 - m
            }
        }
    }
}

/// Views of all arrays broadcast to their common shape.
pub fn broadcast_arrays(arrays: &[&Array]) -> Result<Vec<Array>> {
    let mut shape: Vec<usize> = vec![];
    for a in arrays {
        shape = broadcast_shapes("broadcast_arrays", &shape, a.shape())?;
    }
    arrays.iter().map(|a| a.broadcast_to(&shape)).collect()
}

/// Join arrays along an existing axis (dtype: their promotion).
pub fn concatenate(arrays: &[&Array], axis: isize) -> Result<Array> {
    let first =
        arrays.first().ok_or_else(|| Error::invalid("concatenate", "need at least one array to concatenate"))?;
    if first.ndim() == 0 {
        return Err(Error::invalid("concatenate", "zero-dimensional arrays cannot be concatenated"));
    }
    let ax = normalize_axis("concatenate", axis, first.ndim())?;
    let mut dtype = first.dtype();
    let mut total = 0;
    for a in arrays {
        if a.device() != first.device() {
            return Err(Error::DeviceMismatch { op: "concatenate", lhs: first.device(), rhs: a.device() });
        }
        let same = a.ndim() == first.ndim() && (0..a.ndim()).all(|i| i == ax || a.shape()[i] == first.shape()[i]);
        if !same {
            return Err(Error::ShapeMismatch {
                op: "concatenate",
                lhs: first.shape().to_vec(),
                rhs: a.shape().to_vec(),
            });
        }
        dtype = promote_types(dtype, a.dtype());
        total += a.shape()[ax];
    }
    let mut shape = first.shape().to_vec();
    shape[ax] = total;
    let out = crate::full_on(first.device(), &shape, 0, dtype)?;
    let mut at = 0isize;
    for a in arrays {
        let n = a.shape()[ax] as isize;
        let mut idx = vec![SliceElem::FULL; first.ndim()];
        idx[ax] = SliceElem::from(at..at + n);
        out.slice(idx)?.assign(*a)?;
        at += n;
    }
    Ok(out)
}

/// Join arrays of one shape along a new axis.
pub fn stack(arrays: &[&Array], axis: isize) -> Result<Array> {
    let first = arrays.first().ok_or_else(|| Error::invalid("stack", "need at least one array to stack"))?;
    if let Some(b) = arrays.iter().find(|b| b.shape() != first.shape()) {
        return Err(Error::ShapeMismatch { op: "stack", lhs: first.shape().to_vec(), rhs: b.shape().to_vec() });
    }
    let ex = arrays.iter().map(|a| a.expand_dims(axis)).collect::<Result<Vec<_>>>()?;
    concatenate(&ex.iter().collect::<Vec<_>>(), axis)
}

/// Join along the second axis (the first for 1-d arrays).
pub fn hstack(arrays: &[&Array]) -> Result<Array> {
    let a1 = arrays
        .iter()
        .map(|a| if a.ndim() == 0 { a.reshape_exact(&[1]) } else { Ok((*a).clone()) })
        .collect::<Result<Vec<_>>>()?;
    let axis = if a1.first().is_some_and(|a| a.ndim() == 1) { 0 } else { 1 };
    concatenate(&a1.iter().collect::<Vec<_>>(), axis)
}

/// Join along the first axis, 1-d arrays becoming rows.
pub fn vstack(arrays: &[&Array]) -> Result<Array> {
    let a2 = arrays
        .iter()
        .map(|a| match a.ndim() {
            0 => a.reshape_exact(&[1, 1]),
            1 => a.reshape_exact(&[1, a.size()]),
            _ => Ok((*a).clone()),
        })
        .collect::<Result<Vec<_>>>()?;
    concatenate(&a2.iter().collect::<Vec<_>>(), 0)
}

/// Where to split: a number of equal sections, or the indices to split before.
#[derive(Clone, Debug)]
pub enum Sections {
    /// this many sections
    Count(usize),
    /// split before these positions
    Indices(Vec<isize>),
}

fn split_impl(a: &Array, sections: Sections, axis: isize, equal: bool) -> Result<Vec<Array>> {
    let ax = normalize_axis("split", axis, a.ndim())?;
    let n = a.shape()[ax];
    let bounds: Vec<usize> = match sections {
        Sections::Count(0) => return Err(Error::invalid("split", "number sections must be larger than 0")),
        Sections::Count(k) => {
            if equal && !n.is_multiple_of(k) {
                return Err(Error::invalid("split", "array split does not result in an equal division"));
            }
            let (q, r) = (n / k, n % k);
            (0..=k).map(|i| i * q + i.min(r)).collect()
        }
        Sections::Indices(ix) => {
            let mut b = vec![0];
            b.extend(ix.iter().map(|&i| if i < 0 { (i + n as isize).max(0) as usize } else { (i as usize).min(n) }));
            b.push(n);
            b
        }
    };
    bounds
        .windows(2)
        .map(|w| {
            let mut idx = vec![SliceElem::FULL; a.ndim()];
            idx[ax] = SliceElem::from(w[0] as isize..w[1].max(w[0]) as isize);
            a.slice(idx)
        })
        .collect()
}

/// Split into views; `Sections::Count(k)` must divide the axis evenly (NumPy `split`).
pub fn split(a: &Array, sections: Sections, axis: isize) -> Result<Vec<Array>> {
    split_impl(a, sections, axis, true)
}

/// Split into views; uneven counts give the first sections one more element (NumPy `array_split`).
pub fn array_split(a: &Array, sections: Sections, axis: isize) -> Result<Vec<Array>> {
    split_impl(a, sections, axis, false)
}
