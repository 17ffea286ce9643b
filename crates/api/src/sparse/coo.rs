//! The coordinate format, [`CooArray`] (SciPy's `coo_array`): values at (row, column) pairs,
//! duplicates allowed; what sparse arrays are built from.
use super::keys::sort_coords;
use super::{index_dtype, index_dtype_for, shape_error};
use crate::{get_array_module, Array};
use xp_core::{DType, Device, Error, Result, SliceElem};

/// A 2-D sparse array of coordinates (SciPy's `coo_array`): `data[k]` at `(row[k], col[k])`;
/// repeated coordinates add up wherever the array is used as a matrix.
#[derive(Clone, Debug)]
pub struct CooArray {
    data: Array,
    row: Array,
    col: Array,
    shape: [usize; 2],
    canonical: bool,
}

impl CooArray {
    /// SciPy's `coo_array((data, (row, col)), shape)`: the coordinates are checked (1-D, one
    /// length, integers, inside `shape`) and kept as given (copied), duplicates included.
    pub fn new(data: &Array, row: &Array, col: &Array, shape: [usize; 2]) -> Result<CooArray> {
        let op = "coo_array";
        super::check_vectors(op, data, [("row", row), ("col", col)])?;
        let n = data.size();
        if row.size() != n || col.size() != n {
            return Err(shape_error(op, &[row.size(), col.size()], &[n]));
        }
        let ix = index_dtype_for(&[row.dtype(), col.dtype()], shape[0].max(shape[1]));
        let (row, col) = (row.cast_if(DType::I64)?, col.cast_if(DType::I64)?);
        if n > 0 {
            for (axis, a) in [row.clone(), col.clone()].iter().enumerate() {
                let (lo, hi) = (a.min(..)?.to_i64()?, a.max(..)?.to_i64()?);
                if lo < 0 {
                    return Err(Error::IndexOutOfBounds { index: lo as isize, axis, size: shape[axis] });
                }
                if hi >= shape[axis] as i64 {
                    return Err(Error::IndexOutOfBounds { index: hi as isize, axis, size: shape[axis] });
                }
            }
        }
        Ok(CooArray { data: data.copy()?, row: row.astype(ix)?, col: col.astype(ix)?, shape, canonical: false })
    }

    /// Parts already checked (from another format), indices of dtype `ix` (or int64 where the
    /// shape needs it).
    pub(crate) fn from_parts(
        data: Array,
        row: Array,
        col: Array,
        shape: [usize; 2],
        canonical: bool,
        ix: DType,
    ) -> Result<CooArray> {
        let ix = index_dtype_for(&[ix], shape[0].max(shape[1]));
        Ok(CooArray { row: row.cast_if(ix)?, col: col.cast_if(ix)?, data, shape, canonical })
    }

    /// SciPy's `coo_array(dense)`: the nonzero elements of a 2-D array, in C order.
    pub fn from_dense(dense: &Array) -> Result<CooArray> {
        if dense.ndim() != 2 {
            return Err(Error::invalid("coo_array", format!("expected a 2-D array, got shape {:?}", dense.shape())));
        }
        let nz = crate::nonzero(dense)?;
        let data = dense.ravel()?.take(&crate::flatnonzero(dense)?, 0)?;
        let shape = [dense.shape()[0], dense.shape()[1]];
        CooArray::from_parts(data, nz[0].clone(), nz[1].clone(), shape, true, index_dtype(shape[0].max(shape[1])))
    }

    /// The stored values.
    pub fn data(&self) -> &Array {
        &self.data
    }
    /// The row of each stored value (int32 or int64, as [`index_dtype`] picks).
    pub fn row(&self) -> &Array {
        &self.row
    }
    /// The column of each stored value.
    pub fn col(&self) -> &Array {
        &self.col
    }
    /// SciPy's `coords`: `(row, col)`.
    pub fn coords(&self) -> (&Array, &Array) {
        (&self.row, &self.col)
    }
    /// The shape (rows, columns).
    pub fn shape(&self) -> [usize; 2] {
        self.shape
    }
    /// Stored values, duplicates and explicit zeros included.
    pub fn nnz(&self) -> usize {
        self.data.size()
    }
    /// The value dtype.
    pub fn dtype(&self) -> DType {
        self.data.dtype()
    }
    /// The device the parts live on.
    pub fn device(&self) -> Device {
        self.data.device()
    }
    /// Coordinates in row-major order without duplicates (SciPy's `has_canonical_format`).
    pub fn has_canonical_format(&self) -> bool {
        self.canonical
    }
    /// Duplicates summed, coordinates in row-major order (SciPy's `sum_duplicates`).
    pub fn sum_duplicates(&self) -> Result<CooArray> {
        if self.canonical {
            return Ok(self.clone());
        }
        let s = sort_coords(&self.row, &self.col, &self.data, self.shape, true)?;
        CooArray::from_parts(s.data, s.major, s.minor, self.shape, true, self.row.dtype())
    }
    /// The transpose (rows and columns swapped; no sort).
    pub fn transpose(&self) -> CooArray {
        CooArray {
            data: self.data.clone(),
            row: self.col.clone(),
            col: self.row.clone(),
            shape: [self.shape[1], self.shape[0]],
            canonical: false,
        }
    }
    /// The canonical coordinates with the values `f(data)` (duplicates summed first, as SciPy).
    pub(crate) fn map_data(&self, f: impl FnOnce(&Array) -> Result<Array>) -> Result<CooArray> {
        let c = self.sum_duplicates()?;
        Ok(CooArray { data: f(&c.data)?, ..c })
    }
    /// The same coordinates, duplicates included, with the values `f(data)`.
    pub(crate) fn map_stored(&self, f: impl FnOnce(&Array) -> Result<Array>) -> Result<CooArray> {
        Ok(CooArray { data: f(&self.data)?, ..self.clone() })
    }
    /// The values cast to `dtype`.
    pub fn astype(&self, dtype: DType) -> Result<CooArray> {
        Ok(CooArray { data: self.data.astype(dtype)?, ..self.clone() })
    }
    /// The same array on `device`.
    pub fn to_device(&self, device: Device) -> Result<CooArray> {
        Ok(CooArray {
            data: self.data.to_device(device)?,
            row: self.row.to_device(device)?,
            col: self.col.to_device(device)?,
            ..self.clone()
        })
    }
    /// The dense array, duplicates summed (SciPy's `toarray`).
    pub fn toarray(&self) -> Result<Array> {
        let [r, c] = self.shape;
        let out = get_array_module(&self.data).zeros([r * c], self.data.dtype())?;
        if self.nnz() > 0 {
            let flat = self.row.cast_if(DType::I64)?.mul(c as i64)?.add(&self.col.cast_if(DType::I64)?)?;
            crate::scatter_add(&out, &flat, &self.data)?;
        }
        out.reshape(&[r, c][..])
    }
    /// `A @ x` through the CSR form.
    pub fn matmul(&self, x: &Array) -> Result<Array> {
        self.tocsr()?.matmul(x)
    }
    /// `x @ A` through the CSR form.
    pub fn rmatmul(&self, x: &Array) -> Result<Array> {
        self.tocsr()?.rmatmul(x)
    }
    /// The value at each stored position `k` (a view of `data`).
    pub fn value(&self, k: usize) -> Result<Array> {
        self.data.slice([SliceElem::Index(k as isize)])
    }
}
