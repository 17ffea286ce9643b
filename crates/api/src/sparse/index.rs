//! Selecting lines of a compressed array: rows and columns by an integer array (repeats
//! allowed, negative indices counted from the end), a bool mask or a stepped range,
//! and single elements — all by gathers over the offsets, so they run on every device.
//!
//! ```
//! let d = xp::Array::from_vec((0..12).map(|i| (i % 5) as f64).collect(), &[4, 3]).unwrap();
//! let a = xp::sparse::CsrArray::from_dense(&d).unwrap();
//! let rows = xp::Array::from_vec(vec![3i64, 0, 3], &[3]).unwrap();
//! let picked = a.take_rows(&rows).unwrap();
//! assert_eq!(picked.toarray().unwrap().to_vec::<f64>().unwrap(), d.take(&rows, 0).unwrap().to_vec::<f64>().unwrap());
//! assert_eq!(a.get(2, 1).unwrap().item::<f64>().unwrap(), 2.0);
//! ```
use super::compressed::exact;
use super::compressed::Compressed;
use super::keys::{expand, whole};
use super::{CscArray, CsrArray};
use crate::backend::{Many, Reads, Storage};
use crate::{get_array_module, Array};
use std::sync::Arc;
use xp_core::{DType, Error, Result, SliceElem};

/// `lines` (a 1-D integer array, negatives counted from the end, or a bool mask of the axis's
/// length, as NumPy's and SciPy's `A[mask]`) checked against an axis of `len` lines, as int64 in
/// `0..len`.
pub(super) fn checked(lines: &Array, len: usize, axis: usize) -> Result<Array> {
    let kind = lines.dtype().kind();
    if lines.ndim() != 1 || !matches!(kind, xp_core::Kind::Int | xp_core::Kind::Uint | xp_core::Kind::Bool) {
        return Err(Error::invalid(
            "take",
            format!("lines must be a 1-D integer or bool array, got {} of shape {:?}", lines.dtype(), lines.shape()),
        ));
    }
    if kind == xp_core::Kind::Bool {
        if lines.size() != len {
            return Err(Error::invalid(
                "take",
                format!("a bool mask of {} lines for an axis of {len} (boolean index did not match)", lines.size()),
            ));
        }
        return crate::flatnonzero(lines);
    }
    let n = len as i64;
    let l = lines.cast_if(DType::I64)?;
    if l.size() > 0 {
        // the smallest and largest line, read back together
        let ends = crate::stack(&[&l.min(..)?, &l.max(..)?], 0)?.to_vec::<i64>()?;
        for &bad in &ends {
            if bad < -n || bad >= n {
                return Err(Error::IndexOutOfBounds { index: bad as isize, axis, size: len });
            }
        }
    }
    crate::where_(&l.lt(0)?, &l.add(n)?, &l)
}

/// The lines `lines` along the major axis of `c` (axis `axis` of the array), in order.
fn take_lines(c: &Compressed, lines: &Array, axis: usize) -> Result<Compressed> {
    let l = checked(lines, c.dims[0], axis)?;
    let mods = get_array_module(&c.data);
    // (the picked offsets cast, not the whole offsets array)
    let cut = |r: std::ops::Range<isize>| c.indptr.slice([SliceElem::from(r)])?.take(&l, 0)?.cast_if(DType::I64);
    let starts = cut(0..c.dims[0] as isize)?;
    let counts = cut(1..c.dims[0] as isize + 1)?.sub(&starts)?;
    let new_ptr = crate::concatenate(&[&mods.zeros([1], DType::I64)?, &counts.cumsum(0)?], 0)?;
    let total = new_ptr.slice([SliceElem::Index(-1)])?.to_i64()? as usize;
    // repeated lines may hold more values than the index dtype counted
    let ix = super::index_dtype_for(&[c.indptr.dtype()], total);
    let (indices, data) = if total == 0 {
        (mods.zeros([0], ix)?, mods.zeros([0], c.data.dtype())?)
    } else if let Some(runs) = backend_runs(c, &starts, &new_ptr, total, ix)? {
        runs
    } else {
        let line = expand(&new_ptr, total)?;
        let p = mods.arange(0i64, total as i64, 1i64, Some(DType::I64))?;
        let src = starts.take(&line, 0)?.add(&p.sub(&new_ptr.take(&line, 0)?)?)?;
        (c.indices.take(&src, 0)?.cast_if(ix)?, c.data.take(&src, 0)?)
    };
    Ok(Compressed {
        indptr: new_ptr.cast_if(ix)?,
        indices,
        data,
        dims: [l.size(), c.dims[1]],
        canonical: c.canonical,
        other: Arc::default(),
    })
}

/// The backend's copy of the runs `starts[q]..` (`ptr[q + 1] - ptr[q]` long) of `c`'s indices
/// and values, end to end; `None` where it has none (or [`super::force_generic`] is on).
fn backend_runs(
    c: &Compressed,
    starts: &Array,
    ptr: &Array,
    total: usize,
    ix: DType,
) -> Result<Option<(Array, Array)>> {
    if super::generic() {
        return Ok(None);
    }
    let (i, d, s, p) = (exact(&c.indices)?, exact(&c.data)?, exact(starts)?, exact(ptr)?);
    let reads = Reads::lock(&[&i, &d, &s, &p]);
    use xp_core::SparseStorage;
    let r = match reads.many("take")? {
        Many::Cpu(v) => SparseStorage::gather_runs(v[0], v[1], v[2], v[3], total, ix)
            .map(|(a, b)| (Storage::Cpu(a), Storage::Cpu(b))),
        Many::Cuda(v) => SparseStorage::gather_runs(v[0], v[1], v[2], v[3], total, ix)
            .map(|(a, b)| (Storage::Cuda(a), Storage::Cuda(b))),
    }
    .map(|(a, b)| (whole(a), whole(b)));
    match r {
        Ok(parts) => Ok(Some(parts)),
        Err(Error::Unsupported { .. }) => Ok(None),
        Err(e) => Err(e),
    }
}

/// The lines `lines` along the minor axis of `c` (axis `axis` of the array), in order, without
/// converting `c` (SciPy's `_minor_index_fancy`): each stored value is copied once per
/// occurrence of its minor index in `lines`, to the positions of those occurrences; a line's
/// values stay in their order, so the result's indices are unsorted in general, as SciPy's are.
fn take_minor(c: &Compressed, lines: &Array, axis: usize) -> Result<Compressed> {
    let l = checked(lines, c.dims[1], axis)?;
    let mods = get_array_module(&c.data);
    let zero = mods.zeros([1], DType::I64)?;
    // the positions in `l` of each minor index, grouped by index (`order[starts[m]..][..counts[m]]`)
    let counts = crate::bincount(&l, None, c.dims[1])?.cast_if(DType::I64)?;
    let order = crate::argsort(&l, 0)?;
    let starts = counts.cumsum(0)?.sub(&counts)?;
    let narrow = super::index_dtype_for(&[c.indptr.dtype()], l.size().max(c.data.size()));
    if let Some(b) = super::seam::take_minor(c, [&counts, &starts, &order.cast_if(DType::I64)?], narrow)? {
        let total = b.indices.size();
        let ix = super::index_dtype_for(&[c.indptr.dtype()], total.max(l.size()));
        let (indptr, indices, data) = (b.indptr.cast_if(ix)?, b.indices.cast_if(ix)?, b.data);
        let dims = [c.dims[0], l.size()];
        return Ok(Compressed { indptr, indices, data, dims, canonical: false, other: Arc::default() });
    }
    let minor = c.indices.cast_if(DType::I64)?;
    let copies = counts.take(&minor, 0)?;
    let ends = crate::concatenate(&[&zero, &copies.cumsum(0)?], 0)?;
    let new_ptr = ends.take(&c.indptr.cast_if(DType::I64)?, 0)?;
    let total = ends.slice([SliceElem::Index(-1)])?.to_i64()? as usize;
    let ix = super::index_dtype_for(&[c.indptr.dtype()], total.max(l.size()));
    let (indices, data) = if total == 0 {
        (mods.zeros([0], ix)?, mods.zeros([0], c.data.dtype())?)
    } else {
        let src = expand(&ends, total)?;
        let p = mods.arange(0i64, total as i64, 1i64, Some(DType::I64))?;
        let at = starts.take(&minor.take(&src, 0)?, 0)?.add(&p.sub(&ends.take(&src, 0)?)?)?;
        (order.take(&at, 0)?.cast_if(ix)?, c.data.take(&src, 0)?)
    };
    Ok(Compressed {
        indptr: new_ptr.cast_if(ix)?,
        indices,
        data,
        dims: [c.dims[0], l.size()],
        canonical: false,
        other: Arc::default(),
    })
}

/// Lines `start..stop` along the major axis of `c` (step 1): the offsets of those lines less
/// their first, and copies of the runs of `indices` and `data` they cover (SciPy's copy), read
/// with one transfer of the two bounding offsets.
fn slice_lines(c: &Compressed, start: usize, stop: usize) -> Result<Compressed> {
    let stop = stop.clamp(start, c.dims[0].max(start));
    if start > c.dims[0] {
        return Err(Error::IndexOutOfBounds { index: start as isize, axis: 0, size: c.dims[0] });
    }
    let ptr = c.indptr.slice([SliceElem::from(start as isize..stop as isize + 1)])?;
    let gap = (stop - start).max(1) as isize;
    let ends =
        ptr.slice([SliceElem::Slice { start: None, stop: None, step: gap }])?.cast_if(DType::I64)?.to_vec::<i64>()?;
    let (p0, p1) = (ends[0], *ends.last().unwrap_or(&ends[0]));
    let run = |x: &Array| x.slice([SliceElem::from(p0 as isize..p1 as isize)])?.copy();
    Ok(Compressed {
        indptr: ptr.sub(p0)?.cast_if(c.indptr.dtype())?,
        indices: run(&c.indices)?,
        data: run(&c.data)?,
        dims: [stop - start, c.dims[1]],
        canonical: c.canonical,
        other: Arc::default(),
    })
}

/// `start, start + step, …` before `stop` as an index array (Python's `range`).
fn stepped(device: xp_core::Device, start: isize, stop: isize, step: isize) -> Result<Array> {
    if step == 0 {
        return Err(Error::invalid("slice", "slice step cannot be zero"));
    }
    crate::on(device).arange(start as i64, stop as i64, step as i64, Some(DType::I64))
}

/// Major lines `start..stop` by `step` (axis `axis` of the array): a contiguous run as a slice of
/// the offsets, any other step by gathering its lines.
fn slice_major(c: &Compressed, start: usize, stop: usize, step: isize, axis: usize) -> Result<Compressed> {
    if step == 1 {
        return slice_lines(c, start, stop);
    }
    take_lines(c, &stepped(c.data.device(), start as isize, stop as isize, step)?, axis)
}

/// Minor lines `start..stop` by `step` (axis `axis` of the array).
fn slice_minor(c: &Compressed, start: usize, stop: usize, step: isize, axis: usize) -> Result<Compressed> {
    take_minor(c, &stepped(c.data.device(), start as isize, stop as isize, step)?, axis)
}

impl CsrArray {
    /// Rows `rows` (SciPy's `A[rows]` with an integer array, repeats allowed, negative rows from
    /// the end, or a bool mask) as a CSR array.
    pub fn take_rows(&self, rows: &Array) -> Result<CsrArray> {
        take_lines(&self.0, rows, 0).map(CsrArray)
    }
    /// Rows `start..stop` by `step` (indices already in range: SciPy's `A[start:stop:step]` after
    /// Python's slice rules).
    pub fn slice_rows(&self, start: usize, stop: usize, step: isize) -> Result<CsrArray> {
        slice_major(&self.0, start, stop, step, 0).map(CsrArray)
    }
    /// Columns `cols` (SciPy's `A[:, cols]` with an integer array, repeats allowed, negative
    /// columns from the end, or a bool mask) as a CSR array whose rows keep their values' order (unsorted
    /// indices, as SciPy's).
    pub fn take_cols(&self, cols: &Array) -> Result<CsrArray> {
        take_minor(&self.0, cols, 1).map(CsrArray)
    }
    /// Columns `start..stop` by `step` (SciPy's `A[:, start:stop:step]`).
    pub fn slice_cols(&self, start: usize, stop: usize, step: isize) -> Result<CsrArray> {
        slice_minor(&self.0, start, stop, step, 1).map(CsrArray)
    }
    /// The element at `(i, j)` (negative counts from the end), duplicates summed, as a 0-d array.
    pub fn get(&self, i: isize, j: isize) -> Result<Array> {
        element(&self.0, [i, j], false)
    }
}

impl CscArray {
    /// Columns `cols` (SciPy's `A[:, cols]` with an integer array) as a CSC array.
    pub fn take_cols(&self, cols: &Array) -> Result<CscArray> {
        take_lines(&self.0, cols, 1).map(CscArray)
    }
    /// Columns `start..stop` by `step` (SciPy's `A[:, start:stop:step]`).
    pub fn slice_cols(&self, start: usize, stop: usize, step: isize) -> Result<CscArray> {
        slice_major(&self.0, start, stop, step, 1).map(CscArray)
    }
    /// Rows `rows` (SciPy's `A[rows]`) as a CSC array (unsorted indices, as SciPy's).
    pub fn take_rows(&self, rows: &Array) -> Result<CscArray> {
        take_minor(&self.0, rows, 0).map(CscArray)
    }
    /// Rows `start..stop` by `step` (SciPy's `A[start:stop:step]`).
    pub fn slice_rows(&self, start: usize, stop: usize, step: isize) -> Result<CscArray> {
        slice_minor(&self.0, start, stop, step, 0).map(CscArray)
    }
    /// The element at `(i, j)`, as [`CsrArray::get`].
    pub fn get(&self, i: isize, j: isize) -> Result<Array> {
        element(&self.0, [i, j], true)
    }
}

/// The element at `(i, j)` of the array whose major axis is rows (`columns` false) or columns.
fn element(c: &Compressed, [i, j]: [isize; 2], columns: bool) -> Result<Array> {
    let shape = if columns { [c.dims[1], c.dims[0]] } else { c.dims };
    let at = |x: isize, axis: usize| -> Result<usize> {
        let n = shape[axis] as isize;
        if x < -n || x >= n {
            return Err(Error::IndexOutOfBounds { index: x, axis, size: shape[axis] });
        }
        Ok(if x < 0 { x + n } else { x } as usize)
    };
    let (i, j) = (at(i, 0)?, at(j, 1)?);
    let (major, minor) = if columns { (j, i) } else { (i, j) };
    let line = take_lines(c, &Array::from_vec(vec![major as i64], [1])?.to_device(c.data.device())?, 0)?;
    let hit = line.indices.cast_if(DType::I64)?.eq(minor as i64)?;
    let vals = crate::compress(&hit, &line.data, 0)?;
    vals.sum(..)?.cast_if(c.data.dtype())
}
