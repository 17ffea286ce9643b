//! One-dimensional sparse arrays, SciPy's 1-D `coo_array` and `csr_array`: [`CooArray1d`]
//! (`data[k]` at `coords[k]`, duplicates allowed) and [`CsrArray1d`] (`indices` with `indptr =
//! [0, nnz]`, as SciPy's). They are what SciPy gives where a 2-D sparse array yields one
//! dimension: a row or a column ([`CsrArray::row`], [`CsrArray::col`]), `max`/`min` along an
//! axis ([`Sparse::max_along`]), a sparse matrix times a sparse vector. Their arithmetic,
//! products and reductions are the [`Sparse1d`](super::Sparse1d) trait's.
//!
//! Both keep their values as the one line of a `1 × n` compressed array, so every 2-D
//! operation serves them unchanged, on every device.
//!
//! ```
//! use xp::sparse::{CooArray1d, CsrArray, Sparse, Sparse1d};
//! let v = CooArray1d::from_dense(&xp::Array::from_vec(vec![0.0f64, 2.0, 0.0, 3.0], &[4]).unwrap()).unwrap();
//! assert_eq!((v.shape(), v.nnz()), ([4], 2));
//! let w = v.add(&v).unwrap(); // CSR, as SciPy's `v + v`
//! assert_eq!(w.indptr().to_vec::<i32>().unwrap(), vec![0, 2]);
//! assert_eq!(w.toarray().unwrap().to_vec::<f64>().unwrap(), vec![0.0, 4.0, 0.0, 6.0]);
//! let ones = xp::Array::from_vec(vec![1.0f64; 4], &[4]).unwrap();
//! assert_eq!(v.matmul(&ones).unwrap().to_f64().unwrap(), 5.0); // a 0-d array
//! let d = xp::Array::from_vec(vec![1.0f64, 0.0, 2.0, 0.0, 0.0, 0.0, 3.0, 1.0], &[2, 4]).unwrap();
//! let a = CsrArray::from_dense(&d).unwrap();
//! let r = a.row(-1).unwrap(); // SciPy's A[-1]: a 1-D COO array
//! assert_eq!(r.toarray().unwrap().to_vec::<f64>().unwrap(), vec![0.0, 0.0, 3.0, 1.0]);
//! assert_eq!(a.matmul_vector(&v).unwrap().toarray().unwrap().to_vec::<f64>().unwrap(), vec![0.0, 3.0]);
//! ```
use super::compressed::Compressed;
use super::{index_dtype, index_dtype_for, shape_error, CooArray, CscArray, CsrArray, Format, Sparse};
use crate::Array;
use std::sync::Arc;
use xp_core::{resolve_slice, DType, Device, Error, Result, SliceElem};

/// The one line of `c` (a `1 × n` or, read along its other axis, `n × 1` array) as the parts of
/// a 1-D array of length `c.dims[1]`.
fn line(c: Compressed) -> Compressed {
    debug_assert_eq!(c.dims[0], 1);
    Compressed { other: Arc::default(), ..c }
}

/// A `1 × len` compressed array of `index` and `data` (index dtype `ix`).
pub(crate) fn one_line(data: Array, index: Array, len: usize, canonical: bool, ix: DType) -> Result<Compressed> {
    let ix = index_dtype_for(&[ix], len.max(data.size()));
    let indptr = Array::from_vec(vec![0i64, data.size() as i64], [2])?.to_device(data.device())?.astype(ix)?;
    Ok(Compressed { data, indices: index.cast_if(ix)?, indptr, dims: [1, len], canonical, other: Arc::default() })
}

/// The values of a 2-D sparse array of one row or one column, as one line.
pub(crate) fn of_2d(a: &dyn Sparse) -> Result<Compressed> {
    match a.shape() {
        [1, _] => Ok(line(a.canonical_csr()?.0)),
        [_, 1] => Ok(line(a.canonical_csr()?.tocsc()?.0)),
        s => Err(Error::invalid(
            "sparse",
            format!("a 1-D array from shape {s:?}, which has neither one row nor one column"),
        )),
    }
}

/// The values of `c` (one line) at positions `first + k·step` for `k < count`, renumbered `k`:
/// a run of sorted positions for a step of 1, else elementwise over the stored values (a
/// position is picked where `(p - first) / step` is a whole number in `0..count`), in
/// ascending order.
fn sliced(c: &Compressed, first: i64, count: usize, step: i64) -> Result<Compressed> {
    let ix = c.indices.dtype();
    if step == 1 && c.canonical {
        // a run of the sorted positions: two searches, and views of the parts
        let ends = Array::from_vec(vec![first, first + count as i64], [2])?.to_device(c.data.device())?;
        let at = crate::searchsorted(&c.indices, &ends, xp_core::Side::Left, None)?.to_vec::<i64>()?;
        let run = [SliceElem::from(at[0] as isize..at[1] as isize)];
        let k = c.indices.slice(run)?.cast_if(DType::I64)?.sub(first)?;
        return one_line(c.data.slice(run)?.copy()?, k, count, true, ix);
    }
    // the stored positions between the ends (a run of them where they are sorted)
    let last = first + (count as i64 - 1) * step;
    let (lo, hi) = (first.min(last), first.max(last));
    let (idx, data) = if c.canonical && count > 0 {
        let ends = Array::from_vec(vec![lo, hi + 1], [2])?.to_device(c.data.device())?;
        let at = crate::searchsorted(&c.indices, &ends, xp_core::Side::Left, None)?.to_vec::<i64>()?;
        let run = [SliceElem::from(at[0] as isize..at[1] as isize)];
        (c.indices.slice(run)?, c.data.slice(run)?)
    } else {
        (c.indices.clone(), c.data.clone())
    };
    // k = (p - first) / step, rounded in float64 (no integer division, exact below 2^53; the
    // cast truncates, a floor where k + 1/2 >= 0, and no other k passes the test), is
    // p's place where k · step gives p back and k lies in 0..count
    let rel = idx.cast_if(DType::I64)?.sub(first)?;
    let k = rel.astype(DType::F64)?.mul(1.0 / step as f64)?.add(0.5)?.astype(DType::I64)?;
    let mut keep = k.mul(step)?.eq(&rel)?;
    if !(c.canonical && count > 0) {
        keep = keep.logical_and(&k.ge(0)?)?.logical_and(&k.lt(count as i64)?)?;
    }
    let (mut k, mut data) = (crate::compress(&keep, &k, 0)?, crate::compress(&keep, &data, 0)?);
    if step < 0 {
        // (picked from the end: ascending again)
        let back = [SliceElem::FULL.step(-1)];
        (k, data) = (k.slice(back)?.copy()?, data.slice(back)?.copy()?);
    }
    one_line(data, k, count, c.canonical, ix)
}

/// A 1-D sparse array of coordinates (SciPy's 1-D `coo_array`): `data[k]` at `coords[k]`;
/// repeated coordinates add up wherever it is used as a vector.
#[derive(Clone, Debug)]
pub struct CooArray1d(pub(crate) Compressed);

/// A 1-D compressed sparse array (SciPy's 1-D `csr_array`): `data[k]` at `indices[k]`, with
/// `indptr = [0, nnz]`.
#[derive(Clone, Debug)]
pub struct CsrArray1d(pub(crate) Compressed);

impl CooArray1d {
    /// SciPy's `coo_array((data, (coords,)), shape=(len,))`: the coordinates are checked (1-D,
    /// as long as `data`, integers, inside `len`) and kept as given (copied), duplicates
    /// included. Index dtype as SciPy's (int64 where `coords` is int64, uint32 or uint64).
    pub fn new(data: &Array, coords: &Array, len: usize) -> Result<CooArray1d> {
        let op = "coo_array";
        super::check_vectors(op, data, [("coords", coords), ("coords", coords)])?;
        if coords.size() != data.size() {
            return Err(shape_error(op, coords.shape(), data.shape()));
        }
        let c = coords.cast_if(DType::I64)?;
        if c.size() > 0 {
            let (lo, hi) = (c.min(..)?.to_i64()?, c.max(..)?.to_i64()?);
            for bad in [lo, hi] {
                if bad < 0 || bad >= len as i64 {
                    return Err(Error::IndexOutOfBounds { index: bad as isize, axis: 0, size: len });
                }
            }
        }
        let ix = index_dtype_for(&[coords.dtype()], len);
        // (SciPy marks coordinates as given not canonical, however few)
        Ok(CooArray1d(one_line(data.copy()?, c, len, false, ix)?))
    }
}

impl CsrArray1d {
    /// SciPy's `csr_array((data, indices, indptr), shape=(len,))`: `indptr` must be `[0, nnz]`
    /// and the indices inside `len`, checked as SciPy's `check_format` does.
    pub fn new(data: &Array, indices: &Array, indptr: &Array, len: usize) -> Result<CsrArray1d> {
        Ok(CsrArray1d(Compressed::new("csr_array", data, indices, indptr, [1, len])?))
    }
    /// The offsets `[0, nnz]` (SciPy's `indptr` of a 1-D CSR array).
    pub fn indptr(&self) -> &Array {
        &self.0.indptr
    }
    /// The position of each stored value.
    pub fn indices(&self) -> &Array {
        &self.0.indices
    }
    /// The coordinate form (duplicates kept).
    pub fn tocoo(&self) -> Result<CooArray1d> {
        Ok(CooArray1d(self.0.clone()))
    }
    /// Itself (SciPy's `tocsr` of a CSR array).
    pub fn tocsr(&self) -> Result<CsrArray1d> {
        Ok(self.clone())
    }
}

impl CooArray1d {
    /// SciPy's `coords`: the position of each stored value.
    pub fn coords(&self) -> &Array {
        &self.0.indices
    }
    /// The CSR form: sorted, duplicates summed (SciPy's `tocsr`).
    pub fn tocsr(&self) -> Result<CsrArray1d> {
        let c = self.0.canonicalized()?;
        if c.data.size() == 0 {
            // SciPy keeps the coordinates' index width, except that an empty array starts afresh
            return Ok(CsrArray1d(one_line(c.data, c.indices, c.dims[1], true, DType::I32)?));
        }
        Ok(CsrArray1d(c))
    }
    /// Itself (SciPy's `tocoo` of a COO array).
    pub fn tocoo(&self) -> Result<CooArray1d> {
        Ok(self.clone())
    }
}

/// What both 1-D formats have, on their shared parts.
macro_rules! vector_common {
    ($($t:ident => $f:ident),*) => {$(
        impl $t {
            /// SciPy's constructor from a dense 1-D array: its nonzero elements, in order.
            pub fn from_dense(dense: &Array) -> Result<$t> {
                if dense.ndim() != 1 {
                    return Err(Error::invalid(
                        "sparse",
                        format!("a 1-D sparse array needs a 1-D array, got shape {:?}", dense.shape()),
                    ));
                }
                let at = crate::flatnonzero(dense)?;
                let len = dense.size();
                Ok($t(one_line(dense.take(&at, 0)?, at, len, true, index_dtype(len))?))
            }
            /// The stored values.
            pub fn data(&self) -> &Array {
                &self.0.data
            }
            /// The shape `[len]`.
            pub fn shape(&self) -> [usize; 1] {
                [self.0.dims[1]]
            }
            /// Stored values, duplicates and explicit zeros included.
            pub fn nnz(&self) -> usize {
                self.0.data.size()
            }
            /// The value dtype.
            pub fn dtype(&self) -> DType {
                self.0.data.dtype()
            }
            /// The device the parts live on.
            pub fn device(&self) -> Device {
                self.0.data.device()
            }
            /// The storage format.
            pub fn format(&self) -> Format {
                Format::$f
            }
            /// Positions sorted without duplicates (SciPy's `has_canonical_format`).
            pub fn has_canonical_format(&self) -> bool {
                self.0.canonical
            }
            /// Duplicates summed and positions sorted (SciPy's `sum_duplicates`, returning the result).
            pub fn sum_duplicates(&self) -> Result<$t> {
                self.0.canonicalized().map($t)
            }
            /// Without explicitly stored zeros (SciPy's `eliminate_zeros`).
            pub fn eliminate_zeros(&self) -> Result<$t> {
                Ok($t(line(self.0.without_zeros()?)))
            }
            /// The number of stored values that are not zero, duplicates summed first.
            pub fn count_nonzero(&self) -> Result<usize> {
                Ok(self.0.canonicalized()?.data.ne(0)?.cast_if(DType::I64)?.sum(..)?.to_i64()? as usize)
            }
            /// The positions of the nonzero values, ascending (SciPy's `nonzero()[0]`), int64.
            pub fn nonzero(&self) -> Result<Array> {
                let c = self.0.canonicalized()?;
                crate::compress(&c.data.ne(0)?, &c.indices.cast_if(DType::I64)?, 0)
            }
            /// A copy whose parts share nothing with this one.
            pub fn copy(&self) -> Result<$t> {
                let c = &self.0;
                Ok($t(Compressed { data: c.data.copy()?, indices: c.indices.copy()?, indptr: c.indptr.copy()?, ..line(c.clone()) }))
            }
            /// The values cast to `dtype` (NumPy's `astype`): to another dtype after duplicates
            /// are summed (SciPy's), a copy otherwise.
            pub fn astype(&self, dtype: DType) -> Result<$t> {
                if dtype == self.dtype() {
                    return self.copy();
                }
                self.map_data(|d| d.astype(dtype))
            }
            /// The complex conjugate.
            pub fn conj(&self) -> Result<$t> {
                Ok($t(line(self.0.with_data(self.0.data.conj()?))))
            }
            /// Itself: the transpose of a 1-D array (SciPy's `.T`).
            pub fn transpose(&self) -> $t {
                self.clone()
            }
            /// The same array on `device`.
            pub fn to_device(&self, device: Device) -> Result<$t> {
                let c = &self.0;
                Ok($t(Compressed {
                    data: c.data.to_device(device)?,
                    indices: c.indices.to_device(device)?,
                    indptr: c.indptr.to_device(device)?,
                    ..line(c.clone())
                }))
            }
            /// The dense array (duplicates summed, as SciPy's `toarray`).
            pub fn toarray(&self) -> Result<Array> {
                CsrArray(self.0.clone()).toarray()?.reshape(&[self.0.dims[1]][..])
            }
            /// SciPy's `reshape(shape)` to two dimensions: a COO array of the same values at the
            /// positions `(k / cols, k % cols)` (duplicates kept).
            pub fn reshape(&self, shape: [usize; 2]) -> Result<CooArray> {
                let len = self.0.dims[1];
                if shape[0].checked_mul(shape[1]) != Some(len) {
                    return Err(Error::invalid("reshape", format!("cannot reshape an array of size {len} into shape {shape:?}")));
                }
                let k = self.0.indices.cast_if(DType::I64)?;
                let cols = shape[1].max(1) as i64;
                let ix = self.0.indices.dtype();
                CooArray::from_parts(self.0.data.clone(), k.floor_divide(cols)?, k.remainder(cols)?, shape, self.0.canonical, ix)
            }
            /// The element at `i` (negative counts from the end), duplicates summed, as a 0-d array.
            pub fn get(&self, i: isize) -> Result<Array> {
                let i = wrap(i, self.0.dims[1], 0)?;
                CsrArray(self.0.clone()).get(0, i as isize)
            }
            /// The elements at `positions` (an integer array, repeats allowed, negatives from the
            /// end, or a bool mask of the length), SciPy's `v[positions]`, in this format; only the nonzero picks are stored (SciPy's 1-D selection drops explicit zeros).
            pub fn take(&self, positions: &Array) -> Result<$t> {
                let picked = CsrArray(self.0.clone()).take_cols(positions)?;
                Ok($t(line(picked.eliminate_zeros()?.0)))
            }
            /// SciPy's `v[start:stop:step]` (NumPy's slice rules; `s` a [`SliceElem::Slice`] or a
            /// range), in this format, explicit zeros kept (as SciPy's).
            pub fn slice(&self, s: impl Into<SliceElem>) -> Result<$t> {
                let (start, stop, step) = match s.into() {
                    SliceElem::Slice { start, stop, step } => (start, stop, step),
                    other => return Err(Error::invalid("slice", format!("{other:?} is not a slice: use get"))),
                };
                if step == 0 {
                    return Err(Error::invalid("slice", "slice step cannot be zero"));
                }
                let (first, count) = resolve_slice(start, stop, step, self.0.dims[1]);
                Ok($t(sliced(&self.0, first as i64, count, step as i64)?))
            }
            /// The stored values, duplicates included, replaced by `f(data)`.
            pub(crate) fn map_stored(&self, f: impl FnOnce(&Array) -> Result<Array>) -> Result<$t> {
                Ok($t(line(self.0.with_data(f(&self.0.data)?))))
            }
            /// The stored values replaced by `f(data)` of the canonical form (duplicates summed
            /// first, as SciPy).
            pub(crate) fn map_data(&self, f: impl FnOnce(&Array) -> Result<Array>) -> Result<$t> {
                let c = self.0.canonicalized()?;
                let data = f(&c.data)?;
                Ok($t(line(c.with_data(data))))
            }
        }
        impl From<$t> for SparseArray1d {
            fn from(a: $t) -> SparseArray1d {
                SparseArray1d::$f(a)
            }
        }
        impl From<&$t> for SparseArray1d {
            fn from(a: &$t) -> SparseArray1d {
                SparseArray1d::$f(a.clone())
            }
        }
        impl crate::OnDevice for $t {
            fn on_device(&self) -> Device {
                self.device()
            }
        }
    )*};
}
vector_common!(CooArray1d => Coo, CsrArray1d => Csr);

/// A 1-D sparse array of either format: what [`super::load_npz_1d`] and a division by a dense
/// array give.
#[derive(Clone, Debug)]
pub enum SparseArray1d {
    /// coordinates
    Coo(CooArray1d),
    /// compressed
    Csr(CsrArray1d),
}

impl SparseArray1d {
    /// The format.
    pub fn format(&self) -> Format {
        match self {
            SparseArray1d::Coo(_) => Format::Coo,
            SparseArray1d::Csr(_) => Format::Csr,
        }
    }
    /// The parts as one line (shared by both formats).
    pub(crate) fn line(&self) -> &Compressed {
        match self {
            SparseArray1d::Coo(a) => &a.0,
            SparseArray1d::Csr(a) => &a.0,
        }
    }
    /// The shape `[len]`.
    pub fn shape(&self) -> [usize; 1] {
        [self.line().dims[1]]
    }
    /// Stored values.
    pub fn nnz(&self) -> usize {
        self.line().data.size()
    }
    /// The stored values.
    pub fn data(&self) -> &Array {
        &self.line().data
    }
    /// The value dtype.
    pub fn dtype(&self) -> DType {
        self.line().data.dtype()
    }
    /// The device the parts live on.
    pub fn device(&self) -> Device {
        self.line().data.device()
    }
    /// The dense array.
    pub fn toarray(&self) -> Result<Array> {
        CsrArray(self.line().clone()).toarray()?.reshape(&self.shape()[..])
    }
    /// As COO (SciPy's `tocoo`).
    pub fn tocoo(&self) -> Result<CooArray1d> {
        Ok(CooArray1d(self.line().clone()))
    }
    /// As CSR (SciPy's `tocsr`: sorted, duplicates summed).
    pub fn tocsr(&self) -> Result<CsrArray1d> {
        match self {
            SparseArray1d::Coo(a) => a.tocsr(),
            SparseArray1d::Csr(a) => Ok(a.clone()),
        }
    }
}

impl crate::OnDevice for SparseArray1d {
    fn on_device(&self) -> Device {
        self.device()
    }
}

/// Rows and columns of the compressed formats as 1-D arrays (SciPy's `A[i]`, `A[:, j]`: a 1-D
/// COO array).
macro_rules! lines_1d {
    ($($t:ident),*) => {$(
        impl $t {
            /// Row `i` (negative from the end), SciPy's `A[i]`: a 1-D COO array.
            pub fn row(&self, i: isize) -> Result<CooArray1d> {
                let m = self.shape()[0];
                let i = wrap(i, m, 0)?;
                let r = self.take_rows(&Array::from_vec(vec![i as i64], [1])?.to_device(self.device())?)?;
                Ok(CooArray1d(of_2d(&r)?))
            }
            /// Column `j` (negative from the end), SciPy's `A[:, j]`: a 1-D COO array.
            pub fn col(&self, j: isize) -> Result<CooArray1d> {
                let n = self.shape()[1];
                let j = wrap(j, n, 1)?;
                let c = self.take_cols(&Array::from_vec(vec![j as i64], [1])?.to_device(self.device())?)?;
                Ok(CooArray1d(of_2d(&c)?))
            }
        }
    )*};
}
lines_1d!(CsrArray, CscArray);

/// `i` in `0..n` (negative from the end), or the typed error for `axis`.
fn wrap(i: isize, n: usize, axis: usize) -> Result<usize> {
    let m = n as isize;
    if i < -m || i >= m {
        return Err(Error::IndexOutOfBounds { index: i, axis, size: n });
    }
    Ok(if i < 0 { i + m } else { i } as usize)
}
