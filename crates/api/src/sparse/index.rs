//! Selecting lines of a compressed array: rows of a CSR array and columns of a CSC one by an
//! integer array (repeats allowed, negative indices counted from the end) or a stepped range,
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
use super::compressed::Compressed;
use super::keys::expand;
use super::{CscArray, CsrArray};
use crate::{get_array_module, Array};
use std::sync::Arc;
use xp_core::{DType, Error, Result, SliceElem};

/// The lines `lines` (int64 on the array's device, checked) of `c`, in order.
fn take_lines(c: &Compressed, lines: &Array, axis: usize) -> Result<Compressed> {
    let op = "take";
    if lines.ndim() != 1 || !matches!(lines.dtype().kind(), xp_core::Kind::Int | xp_core::Kind::Uint) {
        return Err(Error::invalid(
            op,
            format!("lines must be a 1-D integer array, got {} of shape {:?}", lines.dtype(), lines.shape()),
        ));
    }
    let n = c.dims[0] as i64;
    let l = lines.cast_if(DType::I64)?;
    if l.size() > 0 {
        let (lo, hi) = (l.min(..)?.to_i64()?, l.max(..)?.to_i64()?);
        for bad in [lo, hi] {
            if bad < -n || bad >= n {
                return Err(Error::IndexOutOfBounds { index: bad as isize, axis, size: c.dims[0] });
            }
        }
    }
    let l = crate::where_(&l.lt(0)?, &l.add(n)?, &l)?;
    let mods = get_array_module(&c.data);
    let ptr = c.indptr.cast_if(DType::I64)?;
    let cut = |r: std::ops::Range<isize>| ptr.slice([SliceElem::from(r)]);
    let starts = cut(0..c.dims[0] as isize)?.take(&l, 0)?;
    let counts = cut(1..c.dims[0] as isize + 1)?.take(&l, 0)?.sub(&starts)?;
    let new_ptr = crate::concatenate(&[&mods.zeros([1], DType::I64)?, &counts.cumsum(0)?], 0)?;
    let total = new_ptr.slice([SliceElem::Index(-1)])?.to_i64()? as usize;
    // repeated lines may hold more values than the index dtype counted
    let ix = super::index_dtype_for(&[c.indptr.dtype()], total);
    let (indices, data) = if total == 0 {
        (mods.zeros([0], ix)?, mods.zeros([0], c.data.dtype())?)
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

/// `start, start + step, …` before `stop` as an index array (Python's `range`).
fn stepped(device: xp_core::Device, start: isize, stop: isize, step: isize) -> Result<Array> {
    if step == 0 {
        return Err(Error::invalid("slice", "slice step cannot be zero"));
    }
    crate::on(device).arange(start as i64, stop as i64, step as i64, Some(DType::I64))
}

impl CsrArray {
    /// Rows `rows` (SciPy's `A[rows]` with an integer array; repeats allowed, negative rows from
    /// the end) as a CSR array.
    pub fn take_rows(&self, rows: &Array) -> Result<CsrArray> {
        take_lines(&self.0, rows, 0).map(CsrArray)
    }
    /// Rows `start..stop` by `step` (indices already in range: SciPy's `A[start:stop:step]` after
    /// Python's slice rules).
    pub fn slice_rows(&self, start: usize, stop: usize, step: isize) -> Result<CsrArray> {
        self.take_rows(&stepped(self.device(), start as isize, stop as isize, step)?)
    }
    /// Columns `cols` (SciPy's `A[:, cols]`) as a CSR array, through the columns' compressed form.
    pub fn take_cols(&self, cols: &Array) -> Result<CsrArray> {
        self.tocsc()?.take_cols(cols)?.tocsr()
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
        self.take_cols(&stepped(self.device(), start as isize, stop as isize, step)?)
    }
    /// Rows `rows` (SciPy's `A[rows]`) as a CSC array, through the rows' compressed form.
    pub fn take_rows(&self, rows: &Array) -> Result<CscArray> {
        self.tocsr()?.take_rows(rows)?.tocsc()
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
