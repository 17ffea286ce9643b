//! NumPy's indexing routines on top of the gather, scatter and compaction families.
use super::{gather, int_index, plan, scatter};
use crate::axes::IntoAxes;
use crate::ufunc::{materialize, Operand};
use crate::{where_, Array, BinaryUfunc};
use xp_core::{BinaryOp, Combine, DType, Error, IndexMode, Kind, OutRule, Result, SliceElem};

/// `a` itself when C-contiguous from offset 0 of a buffer it may write through, flattened; a flat
/// view where the layout allows one, else a copy (`copied` says which).
fn flat(a: &Array) -> Result<(Array, bool)> {
    match a.layout.reshape_view(&[a.size()]) {
        Some(l) => Ok((a.with_layout(l), false)),
        None => Ok((a.copy()?.reshape_exact(&[a.size()])?, true)),
    }
}

impl Array {
    /// NumPy's `take(a, indices, axis)`: elements at `indices` (an integer array on this array's
    /// device, any shape) along `axis` (`..`: of the flattened array); negative indices count
    /// from the end. Shape: `a.shape[:axis] + indices.shape + a.shape[axis+1:]`.
    pub fn take(&self, indices: &Array, axis: impl IntoAxes) -> Result<Array> {
        self.take_mode(indices, axis, IndexMode::Raise)
    }
    /// [`Array::take`] with NumPy's `mode`: out-of-range indices raise, wrap around or clip.
    pub fn take_mode(&self, indices: &Array, axis: impl IntoAxes, mode: IndexMode) -> Result<Array> {
        let idx = int_index("take", self, indices)?;
        let idx = if idx.is_contiguous() { idx } else { idx.copy()? };
        let (src, ax) = match axis.into_axes().single("take")? {
            None => (flat(self)?.0, 0),
            Some(a) => (self.clone(), xp_core::normalize_axis("take", a, self.ndim())?),
        };
        gather(&src, &src.layout, ax, std::slice::from_ref(&idx), idx.shape(), mode)
    }
    /// NumPy's `put(a, ind, v, mode)`: `a.flat[ind] = v`, `v` repeated as needed (cast to this
    /// array's dtype; the last of duplicate indices wins).
    pub fn put<'a>(&self, indices: &Array, v: impl Into<Operand<'a>>, mode: IndexMode) -> Result<()> {
        let idx = int_index("put", self, indices)?.ravel()?;
        let v = materialize(&v.into(), self.dtype(), self.device())?.ravel()?;
        if idx.size() == 0 {
            return Ok(());
        }
        if v.size() == 0 {
            return Err(Error::invalid("put", "cannot put an empty array of values"));
        }
        let v = if v.size() == idx.size() {
            v
        } else {
            let pos = crate::on(self.device()).arange(0, idx.size() as i64, 1, None)?;
            v.take_mode(&pos, 0, IndexMode::Wrap)?
        };
        let (target, copied) = flat(self)?;
        let idx = if idx.is_contiguous() { idx } else { idx.copy()? };
        scatter(
            &target,
            &target.layout.clone(),
            0,
            std::slice::from_ref(&idx),
            idx.shape(),
            mode,
            &v,
            Combine::Assign,
        )?;
        if copied {
            self.assign(&target.reshape_exact(self.shape())?)?;
        }
        Ok(())
    }
}

/// The flat positions, in a C-contiguous array of shape `lines`, of the elements that
/// `indices` (same number of dimensions as `a`, broadcast against it except along `axis`) picks
/// along `axis`: int64 of the broadcast index shape, checked (one wait for the extremes) and
/// with negative indices counted from the end. Also `lines` and the normalised axis.
fn along(a: &Array, indices: &Array, axis: isize, op: &'static str) -> Result<(Array, Vec<usize>, Vec<usize>, usize)> {
    let idx = int_index(op, a, indices)?;
    if idx.ndim() != a.ndim() {
        return Err(Error::invalid(op, "`indices` and `arr` must have the same number of dimensions"));
    }
    let ax = xp_core::normalize_axis(op, axis, a.ndim())?;
    let n = a.shape()[ax];
    let (mut sa, mut si) = (a.shape().to_vec(), idx.shape().to_vec());
    sa[ax] = 1;
    si[ax] = 1;
    let mut shape = xp_core::broadcast_shapes(op, &sa, &si)?;
    shape[ax] = idx.shape()[ax];
    let mut lines = shape.clone();
    lines[ax] = n;
    let ib = idx.broadcast_to(&shape)?;
    let mut j = ib.clone();
    if ib.size() > 0 {
        let ends = crate::stack(&[&ib.min(..)?, &ib.max(..)?], 0)?.to_vec::<i64>()?;
        if ends[0] < -(n as i64) || ends[1] >= n as i64 {
            let bad = ib.lt(-(n as i64))?.logical_or(&ib.ge(n as i64)?)?;
            let first = bad.ravel()?.argmax(..)?.item::<i64>()?;
            let index = ib.ravel()?.get([SliceElem::Index(first as isize)])?.item::<i64>()? as isize;
            return Err(Error::IndexOutOfBounds { index, axis: ax, size: n });
        }
        if ends[0] < 0 {
            j = where_(&ib.lt(0)?, &ib.add(n as i64)?, &ib)?;
        }
    }
    // position = j * stride[axis] + Σ_d coord_d * stride[d] over the other axes, the sum built
    // from one broadcasting range per axis
    let strides: Vec<usize> = (0..lines.len()).map(|d| lines[d + 1..].iter().product()).collect();
    let on = crate::on(a.device());
    let mut pos = if strides[ax] == 1 { j } else { j.mul(strides[ax] as i64)? };
    for (d, &len) in shape.iter().enumerate() {
        if d == ax || len == 1 {
            continue;
        }
        let mut s1 = vec![1usize; shape.len()];
        s1[d] = len;
        let r = on.arange(0, (len * strides[d]) as i64, strides[d] as i64, Some(DType::I64))?.reshape_exact(&s1)?;
        pos = pos.add(&r)?;
    }
    let pos =
        if pos.shape() == shape.as_slice() { pos.ascontiguousarray()? } else { pos.broadcast_to(&shape)?.copy()? };
    Ok((pos, shape, lines, ax))
}

/// NumPy's `take_along_axis(arr, indices, axis)`: `out[.., j, ..] = arr[.., indices[.., j, ..], ..]`
/// (the index of a sort, `argpartition` or `argmax` picks the values). Out-of-range indices raise.
pub fn take_along_axis(a: &Array, indices: &Array, axis: isize) -> Result<Array> {
    if a.ndim() == 0 {
        return Err(Error::invalid("take_along_axis", "needs at least one dimension"));
    }
    let (pos, shape, lines, _) = along(a, indices, axis, "take_along_axis")?;
    // `a` as the C-contiguous lines, a flat view where it already is one
    let (src, _) = flat(&a.broadcast_to(&lines)?)?;
    gather(&src, &src.layout.clone(), 0, &[pos], &shape, IndexMode::Wrap)
}

/// NumPy's `put_along_axis(arr, indices, values, axis)`: the scatter that inverts
/// [`take_along_axis`] (`values` broadcast to the indices' shape; the last duplicate wins).
pub fn put_along_axis<'a>(a: &Array, indices: &Array, values: impl Into<Operand<'a>>, axis: isize) -> Result<()> {
    let (pos, shape, lines, _) = along(a, indices, axis, "put_along_axis")?;
    if lines.as_slice() != a.shape() {
        return Err(Error::invalid("put_along_axis", "indices must not broadcast the destination"));
    }
    // flat positions and values: one index per value (the host's scatter has a plain loop for
    // that; an n-d index set walks offset tables)
    let v = materialize(&values.into(), a.dtype(), a.device())?.broadcast_to(&shape)?.ravel()?;
    let pos = pos.ravel()?;
    // in place where `a` has a flat view; else on a copy written back
    let (target, copied) = flat(a)?;
    let n = [pos.size()];
    let how = Combine::Assign;
    scatter(&target, &target.layout.clone(), 0, std::slice::from_ref(&pos), &n, IndexMode::Wrap, &v, how)?;
    if copied {
        a.assign(&target.reshape_exact(a.shape())?)?;
    }
    Ok(())
}

/// NumPy's `compress(condition, a, axis)`: the slices along `axis` (`..`: of the flattened array)
/// where the 1-D `condition` is true; a condition shorter than the axis counts as false beyond.
pub fn compress(condition: &Array, a: &Array, axis: impl IntoAxes) -> Result<Array> {
    let c = condition.not_equal(0)?;
    if c.ndim() != 1 {
        return Err(Error::invalid("compress", "condition must be a 1-d array"));
    }
    let (src, ax) = match axis.into_axes().single("compress")? {
        None => (a.ravel()?, 0),
        Some(x) => (a.clone(), xp_core::normalize_axis("compress", x, a.ndim())?),
    };
    let n = src.shape()[ax];
    if c.size() > n {
        return Err(Error::IndexOutOfBounds { index: n as isize, axis: ax, size: n });
    }
    let c = if c.size() < n {
        let pad = crate::on(a.device()).zeros([n - c.size()], DType::Bool)?;
        crate::concatenate(&[&c, &pad], 0)?
    } else {
        c
    };
    src.compress_at(&src.layout.clone(), ax, &c)
}

/// NumPy's `extract(condition, arr)`: the elements of `arr` where `condition` is nonzero, flat.
pub fn extract(condition: &Array, a: &Array) -> Result<Array> {
    let c = condition.not_equal(0)?.ravel()?;
    let x = a.ravel()?;
    if c.size() != x.size() {
        return Err(Error::BoolIndexMismatch { axis: 0, size: x.size(), got: c.size() });
    }
    x.compress_at(&x.layout.clone(), 0, &c)
}

/// NumPy's `place(arr, mask, vals)`: the elements where `mask` (of `arr`'s size) is true take the
/// values of `vals` in order, repeated as needed (cast safely to `arr`'s dtype, as NumPy does).
///
/// Without a wait for the count: the `k`-th true element's running count `k + 1` picks
/// `vals[k % len]` out of `vals` rolled by one, and a select writes those elements.
pub fn place(a: &Array, mask: &Array, vals: &Array) -> Result<()> {
    let m = mask.not_equal(0)?;
    if m.size() != a.size() {
        return Err(Error::BoolIndexMismatch { axis: 0, size: a.size(), got: m.size() });
    }
    if m.device() != a.device() || vals.device() != a.device() {
        let rhs = if m.device() != a.device() { m.device() } else { vals.device() };
        return Err(Error::DeviceMismatch { op: "place", lhs: a.device(), rhs });
    }
    if a.size() == 0 {
        return Ok(());
    }
    if !xp_core::can_cast_safe(vals.dtype(), a.dtype()) {
        let why = format!("cannot cast the values from {} to {} with casting rule 'safe'", vals.dtype(), a.dtype());
        return Err(Error::invalid("place", why));
    }
    let v = vals.astype(a.dtype())?.ravel()?;
    if v.size() == 0 {
        if m.any(..)?.item::<bool>()? {
            return Err(Error::invalid("place", "cannot insert from an empty array"));
        }
        return Ok(());
    }
    let m = m.reshape_exact(a.shape())?;
    let rank = m.astype(DType::I64)?.cumsum(..)?.reshape_exact(a.shape())?;
    let picked = v.roll(1, ..)?.take_mode(&rank, .., IndexMode::Wrap)?;
    a.assign(&where_(&m, &picked, a)?)
}

/// NumPy's `choose(a, choices, mode)`: `choices[a[i]][i]`, everything broadcast together.
pub fn choose(a: &Array, choices: &[&Array], mode: IndexMode) -> Result<Array> {
    let n = choices.len() as i64;
    let idx = int_index("choose", a, a)?;
    if n == 0 {
        return Err(Error::invalid("choose", "choices must not be empty"));
    }
    let idx = match mode {
        IndexMode::Raise => {
            if idx.lt(0)?.logical_or(&idx.ge(n)?)?.any(..)?.item::<bool>()? {
                return Err(Error::invalid("choose", "invalid entry in choice array"));
            }
            idx
        }
        IndexMode::Wrap => idx.remainder(n)?,
        IndexMode::Clip => idx.clip(Some(0), Some(n - 1))?,
    };
    let mut out = choices[0].clone();
    for (j, c) in choices.iter().enumerate() {
        out = where_(&idx.equal(j as i64)?, *c, &out)?;
    }
    let shape =
        choices.iter().try_fold(idx.shape().to_vec(), |s, c| xp_core::broadcast_shapes("choose", &s, c.shape()))?;
    out.broadcast_to(&shape)?.copy()
}

/// NumPy's `select(condlist, choicelist, default)`: the first choice whose condition holds.
pub fn select<'a>(conds: &[&Array], choices: &[&Array], default: impl Into<Operand<'a>>) -> Result<Array> {
    if conds.len() != choices.len() {
        return Err(Error::invalid("select", "list of cases must be same length as list of conditions"));
    }
    let default = default.into();
    if conds.is_empty() {
        return Err(Error::invalid("select", "select with an empty condition list is not possible"));
    }
    let dtype = choices.iter().skip(1).fold(choices[0].dtype(), |d, c| xp_core::promote_types(d, c.dtype()));
    let dtype = match default {
        Operand::Array(x) => xp_core::promote_types(dtype, x.dtype()),
        Operand::Scalar(s) => xp_core::promote_weak(dtype, &s),
    };
    let mut out = materialize(&default, dtype, choices[0].device())?;
    for (c, x) in conds.iter().zip(choices).rev() {
        if c.dtype() != DType::Bool {
            return Err(Error::InvalidDType { op: "select", dtype: c.dtype() });
        }
        out = where_(c, &x.astype(dtype)?, &out)?;
    }
    Ok(out)
}

/// NumPy's `nonzero(a)`: one int64 array of positions per dimension (one wait for the count on
/// the GPU). A 0-d array is an error, as in NumPy 2.
pub fn nonzero(a: &Array) -> Result<Vec<Array>> {
    if a.ndim() == 0 {
        return Err(Error::invalid("nonzero", "calling nonzero on 0d arrays is not allowed; use atleast_1d"));
    }
    let nz = a.nonzero_coords()?;
    if a.ndim() == 1 {
        // one coordinate per row: the column is the whole buffer
        return Ok(vec![nz.reshape_exact(&[nz.shape()[0]])?]);
    }
    (0..a.ndim()).map(|d| nz.slice([SliceElem::FULL, SliceElem::Index(d as isize)])?.copy()).collect()
}

/// NumPy's `where(condition)` with one argument: [`nonzero`].
pub fn where_nonzero(condition: &Array) -> Result<Vec<Array>> {
    nonzero(condition)
}

/// NumPy's `argwhere(a)`: the coordinates of the nonzero elements, `(count, ndim)` int64.
pub fn argwhere(a: &Array) -> Result<Array> {
    a.nonzero_coords()
}

/// NumPy's `flatnonzero(a)`: positions of the nonzero elements of the flattened array.
pub fn flatnonzero(a: &Array) -> Result<Array> {
    Ok(nonzero(&a.ravel()?)?.remove(0))
}

/// NumPy's `ix_(*seqs)`: open-mesh index arrays (1-D integer or boolean inputs), the i-th shaped
/// to vary along axis i.
pub fn ix_(seqs: &[&Array]) -> Result<Vec<Array>> {
    let n = seqs.len();
    seqs.iter()
        .enumerate()
        .map(|(i, s)| {
            if s.ndim() != 1 {
                return Err(Error::invalid("ix_", "cross index must be 1 dimensional"));
            }
            let v = if s.dtype() == DType::Bool { flatnonzero(s)? } else { int_index("ix_", s, s)? };
            let mut shape = vec![1; n];
            shape[i] = v.size();
            v.reshape_exact(&shape)
        })
        .collect()
}

/// NumPy's `unravel_index(indices, shape)` in C order: one int64 array of coordinates per
/// dimension of `shape`. Indices outside `0 .. prod(shape)` are an error.
pub fn unravel_index(indices: &Array, shape: &[usize]) -> Result<Vec<Array>> {
    let idx = int_index("unravel_index", indices, indices)?;
    let size: usize = shape.iter().product();
    if idx.size() > 0 && idx.lt(0)?.logical_or(&idx.ge(size as i64)?)?.any(..)?.item::<bool>()? {
        let bad = idx.lt(0)?.logical_or(&idx.ge(size as i64)?)?.ravel()?.argmax(..)?.item::<i64>()?;
        let index = idx.ravel()?.get([SliceElem::Index(bad as isize)])?.item::<i64>()? as isize;
        return Err(Error::IndexOutOfBounds { index, axis: 0, size });
    }
    let mut stride = size.max(1);
    shape
        .iter()
        .map(|&d| {
            stride /= d.max(1);
            idx.floor_divide(stride as i64)?.remainder(d.max(1) as i64)
        })
        .collect()
}

/// NumPy's `ravel_multi_index(multi_index, dims, mode)` in C order: flat positions (int64) of the
/// coordinate arrays (broadcast together), each checked, wrapped or clipped against its dimension.
pub fn ravel_multi_index(multi: &[&Array], dims: &[usize], mode: IndexMode) -> Result<Array> {
    if multi.len() != dims.len() || multi.is_empty() {
        return Err(Error::invalid(
            "ravel_multi_index",
            "parameter multi_index must be a sequence of length len(dims)",
        ));
    }
    let mut acc: Option<Array> = None;
    for (j, (x, &d)) in multi.iter().zip(dims).enumerate() {
        let x = int_index("ravel_multi_index", x, x)?;
        let x = match mode {
            IndexMode::Raise => {
                let bad = x.lt(0)?.logical_or(&x.ge(d as i64)?)?;
                if x.size() > 0 && bad.any(..)?.item::<bool>()? {
                    let first = bad.ravel()?.argmax(..)?.item::<i64>()?;
                    let index = x.ravel()?.get([SliceElem::Index(first as isize)])?.item::<i64>()? as isize;
                    return Err(Error::IndexOutOfBounds { index, axis: j, size: d });
                }
                x
            }
            IndexMode::Wrap => x.remainder(d.max(1) as i64)?,
            IndexMode::Clip => x.clip(Some(0), Some(d.saturating_sub(1) as i64))?,
        };
        acc = Some(match acc {
            None => x,
            Some(a) => a.mul(d as i64)?.add(&x)?,
        });
    }
    Ok(acc.expect("nonempty"))
}

/// NumPy's `diag_indices(n, ndim)`: `ndim` copies of `0 .. n` (int64), on `device`.
pub fn diag_indices(n: usize, ndim: usize, device: xp_core::Device) -> Result<Vec<Array>> {
    (0..ndim).map(|_| crate::on(device).arange(0, n as i64, 1, None)).collect()
}

fn tri_indices(n: usize, k: isize, m: Option<usize>, device: xp_core::Device, lower: bool) -> Result<(Array, Array)> {
    // The triangle as a mask on the device, then its coordinates in C order (one compaction,
    // one count read back), as CuPy makes them.
    let m = m.unwrap_or(n);
    if device == xp_core::Device::Cpu {
        return tri_indices_host(n, k, m, lower);
    }
    let mask = crate::on(device).ones([n, m], DType::Bool)?;
    let mask = if lower { mask.tril(k)? } else { mask.triu(k)? };
    let mut rc = crate::where_nonzero(&mask)?;
    let c = rc.pop().expect("two axes");
    Ok((rc.pop().expect("two axes"), c))
}

/// [`tri_indices`] on the host: each row's columns are one range, written at the row's offset,
/// rows over the cores (the mask and its compaction took eight times NumPy's time).
fn tri_indices_host(n: usize, k: isize, m: usize, lower: bool) -> Result<(Array, Array)> {
    use rayon::prelude::*;
    // the columns of row i: 0 ..= i + k (lower) or i + k .. m (upper), clipped to 0 .. m
    let span = |i: usize| -> (usize, usize) {
        let d = i as isize + k;
        if lower {
            (0, (d + 1).clamp(0, m as isize) as usize)
        } else {
            (d.clamp(0, m as isize) as usize, m)
        }
    };
    let mut offs = Vec::with_capacity(n + 1);
    offs.push(0usize);
    for i in 0..n {
        let (a, b) = span(i);
        offs.push(offs[i] + (b - a));
    }
    let total = offs[n];
    let (mut rows, mut cols) = (vec![0i64; total], vec![0i64; total]);
    let mut parts = Vec::with_capacity(n);
    let (mut rr, mut cr) = (&mut rows[..], &mut cols[..]);
    for i in 0..n {
        let len = offs[i + 1] - offs[i];
        let (r0, r1) = rr.split_at_mut(len);
        let (c0, c1) = cr.split_at_mut(len);
        parts.push((i, r0, c0));
        (rr, cr) = (r1, c1);
    }
    parts.into_par_iter().with_min_len(64).for_each(|(i, r, c)| {
        let a = span(i).0;
        r.fill(i as i64);
        for (j, v) in c.iter_mut().enumerate() {
            *v = (a + j) as i64;
        }
    });
    Ok((Array::from_vec(rows, [total])?, Array::from_vec(cols, [total])?))
}

/// NumPy's `tril_indices(n, k, m)`: row and column indices of the lower triangle (on or below
/// diagonal `k`) of an `n × m` array, row by row.
pub fn tril_indices(n: usize, k: isize, m: Option<usize>, device: xp_core::Device) -> Result<(Array, Array)> {
    tri_indices(n, k, m, device, true)
}

/// NumPy's `triu_indices(n, k, m)`: the upper triangle (on or above diagonal `k`).
pub fn triu_indices(n: usize, k: isize, m: Option<usize>, device: xp_core::Device) -> Result<(Array, Array)> {
    tri_indices(n, k, m, device, false)
}

/// `ufunc.at(a, index, v)` for a binary op: `a[index] = op(a[index], v)` applied once per
/// occurrence of each index, in order (NumPy's unbuffered in-place operation).
pub(crate) fn ufunc_at(op: BinaryOp, a: &Array, index: Vec<super::IndexItem>, v: &Operand) -> Result<()> {
    // Logical ops on booleans are the bitwise ones; every other op must keep the array's dtype.
    let op = match (op, a.dtype()) {
        (BinaryOp::LogicalAnd, DType::Bool) => BinaryOp::BitAnd,
        (BinaryOp::LogicalOr, DType::Bool) => BinaryOp::BitOr,
        (BinaryOp::LogicalXor, DType::Bool) => BinaryOp::BitXor,
        (op, _) => op,
    };
    let vd = match v {
        Operand::Array(x) => x.dtype(),
        Operand::Scalar(s) => xp_core::promote_weak(a.dtype(), s),
    };
    let (l, out) = op.resolve(a.dtype(), vd)?;
    let same_kind = |from: DType, to: DType| {
        xp_core::can_cast_safe(from, to)
            || (from.kind() == to.kind())
            || (from.kind() != Kind::Complex && to.kind() == Kind::Complex)
    };
    if op.out_rule() != OutRule::Same
        || !same_kind(out, a.dtype())
        || !same_kind(l, a.dtype())
        || op.resolve(a.dtype(), a.dtype()).map(|r| r.0) != Ok(a.dtype())
    {
        return Err(Error::InvalidDType { op: op.name(), dtype: a.dtype() });
    }
    if let Operand::Array(x) = v
        && x.device() != a.device()
    {
        return Err(Error::DeviceMismatch { op: op.name(), lhs: a.device(), rhs: x.device() });
    }
    let v = materialize(v, a.dtype(), a.device())?;
    match plan::plan(a, index)? {
        plan::Plan::View(l) => {
            let t = a.with_layout(l);
            t.assign(&op.call(&t, &v)?)
        }
        plan::Plan::Mask { view, axis, mask } => {
            let nz = mask.nonzero_coords()?;
            let arrays = (0..mask.ndim())
                .map(|d| nz.slice([SliceElem::FULL, SliceElem::Index(d as isize)])?.copy())
                .collect::<Result<Vec<_>>>()?;
            scatter(a, &view, axis, &arrays, &[nz.shape()[0]], IndexMode::Raise, &v, Combine::Ufunc(op))
        }
        plan::Plan::Gather { view, axis, arrays, shape, axes } => {
            scatter(a, &view, axis, &arrays, &shape, IndexMode::Raise, &v, Combine::Ufunc(op))
                .map_err(|e| super::remap(e, axis, &axes))
        }
    }
}

/// CuPy's `cupyx.scatter_add(a, indices, v)`: `np.add.at`.
pub fn scatter_add<'a>(a: &Array, indices: impl super::IntoIndex, v: impl Into<Operand<'a>>) -> Result<()> {
    ufunc_at(BinaryOp::Add, a, indices.into_index(), &v.into())
}
/// CuPy's `cupyx.scatter_max(a, indices, v)`: `np.maximum.at`.
pub fn scatter_max<'a>(a: &Array, indices: impl super::IntoIndex, v: impl Into<Operand<'a>>) -> Result<()> {
    ufunc_at(BinaryOp::Max, a, indices.into_index(), &v.into())
}
/// CuPy's `cupyx.scatter_min(a, indices, v)`: `np.minimum.at`.
pub fn scatter_min<'a>(a: &Array, indices: impl super::IntoIndex, v: impl Into<Operand<'a>>) -> Result<()> {
    ufunc_at(BinaryOp::Min, a, indices.into_index(), &v.into())
}
