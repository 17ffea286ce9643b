//! The diagonal format, [`DiaArray`] (SciPy's `dia_array`): row `k` of a 2-D `data` holds
//! diagonal `offsets[k]`, aligned by column (`data[k, j]` sits at `(j - offsets[k], j)`); what
//! banded matrices (finite differences, `diags_array`) are stored as. Conversions go through
//! coordinates, as SciPy's do.
//!
//! ```
//! use xp::sparse::{DiaArray, Sparse};
//! let data = xp::Array::from_vec(vec![1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3]).unwrap();
//! let offsets = xp::Array::from_vec(vec![0i64, 1], &[2]).unwrap();
//! let a = DiaArray::new(&data, &offsets, [3, 3]).unwrap();
//! assert_eq!(a.toarray().unwrap().to_vec::<f64>().unwrap(), vec![1.0, 5.0, 0.0, 0.0, 2.0, 6.0, 0.0, 0.0, 3.0]);
//! let back = a.tocsr().unwrap().todia().unwrap();
//! assert_eq!(back.offsets().to_vec::<i32>().unwrap(), vec![0, 1]);  // int32: the shape's index dtype
//! ```
use super::{index_dtype, index_dtype_for, CooArray, CscArray, CsrArray};
use crate::{get_array_module, Array};
use xp_core::{DType, Device, Error, Result};

/// A 2-D sparse array of diagonals (SciPy's `dia_array`).
#[derive(Clone, Debug)]
pub struct DiaArray {
    data: Array,
    offsets: Array,
    /// the offsets in host memory (for `nnz` without a device read)
    host: Vec<i64>,
    shape: [usize; 2],
}

impl DiaArray {
    /// SciPy's `dia_array((data, offsets), shape)`: `data` 2-D (a 1-D one is one diagonal),
    /// `offsets` 1-D integers (or 0-d), one per row of `data`, no offset twice (copied).
    pub fn new(data: &Array, offsets: &Array, shape: [usize; 2]) -> Result<DiaArray> {
        let op = "dia_array";
        let data = match data.ndim() {
            1 => data.reshape(&[1, data.size()][..])?,
            2 => data.clone(),
            d => return Err(Error::invalid(op, format!("expected a 1-D or 2-D data array, got {d}-D"))),
        };
        let offsets = match offsets.ndim() {
            0 => offsets.reshape(&[1usize][..])?,
            1 => offsets.clone(),
            d => return Err(Error::invalid(op, format!("offsets must be 0-D or 1-D, got {d}-D"))),
        };
        if !matches!(offsets.dtype().kind(), xp_core::Kind::Int | xp_core::Kind::Uint) {
            return Err(Error::invalid(op, format!("offsets must be integers, got {}", offsets.dtype())));
        }
        if offsets.size() != data.shape()[0] {
            return Err(Error::invalid(
                op,
                format!(
                    "number of diagonals ({}) does not match the number of offsets ({})",
                    data.shape()[0],
                    offsets.size()
                ),
            ));
        }
        // (SciPy's offsets take the index dtype of the shape, whatever their own)
        let ix = index_dtype(shape[0].max(shape[1]));
        let o = offsets.cast_if(DType::I64)?;
        if crate::unique_values(&o)?.size() != o.size() {
            return Err(Error::invalid(op, "offset array contains duplicate values"));
        }
        let host = o.to_device(Device::Cpu)?.to_vec::<i64>()?;
        let offsets = o.astype(ix)?.to_device(data.device())?;
        Ok(DiaArray { data: data.copy()?, offsets, host, shape })
    }

    /// The diagonals, one per row (`(len(offsets), L)`).
    pub fn data(&self) -> &Array {
        &self.data
    }
    /// The offset of each diagonal (above the main one for positive offsets).
    pub fn offsets(&self) -> &Array {
        &self.offsets
    }
    /// The shape (rows, columns).
    pub fn shape(&self) -> [usize; 2] {
        self.shape
    }
    /// The value dtype.
    pub fn dtype(&self) -> DType {
        self.data.dtype()
    }
    /// The device the parts live on.
    pub fn device(&self) -> Device {
        self.data.device()
    }
    /// Stored positions inside the array, zeros included: each diagonal's length (SciPy's
    /// `nnz`, which does not clip by the width of `data`; a diagonal outside the array counts 0).
    pub fn nnz(&self) -> usize {
        let [m, n] = [self.shape[0] as i64, self.shape[1] as i64];
        self.host.iter().map(|&k| if k > 0 { m.min(n - k) } else { (m + k).min(n) }.max(0) as usize).sum()
    }
    /// The nonzero values at their coordinates (SciPy's `tocoo`: positions outside the array,
    /// past the array's columns or holding zero are left out).
    pub fn tocoo(&self) -> Result<CooArray> {
        let [m, n] = self.shape;
        let (k, len) = (self.data.shape()[0], self.data.shape()[1]);
        let mods = get_array_module(&self.data);
        let cols: Array = mods.arange(0i64, len as i64, 1i64, Some(DType::I64))?.reshape(&[1, len][..])?;
        let rows = cols.sub(&self.offsets.cast_if(DType::I64)?.reshape(&[k, 1][..])?)?;
        let inside = rows.ge(0)?.logical_and(&rows.lt(m as i64)?)?.logical_and(&cols.lt(n as i64)?)?;
        let keep = inside.logical_and(&self.data.ne(0)?)?.ravel()?;
        let pick = |x: &Array| crate::compress(&keep, &x.broadcast_to(&[k, len][..])?.ravel()?, 0);
        let ix = index_dtype_for(&[self.offsets.dtype()], m.max(n));
        CooArray::from_parts(pick(&self.data)?, pick(&rows)?, pick(&cols)?, self.shape, false, ix)
    }
    /// The same matrix as CSR.
    pub fn tocsr(&self) -> Result<CsrArray> {
        self.tocoo()?.tocsr()
    }
    /// The same matrix as CSC.
    pub fn tocsc(&self) -> Result<CscArray> {
        self.tocoo()?.tocsc()
    }
    /// The dense array.
    pub fn toarray(&self) -> Result<Array> {
        self.tocoo()?.toarray()
    }
    /// New diagonals of the same shape.
    pub(crate) fn with_data(&self, data: Array) -> Result<DiaArray> {
        Ok(DiaArray { data: data.reshape(self.data.shape())?, ..self.clone() })
    }
    /// The transpose, as diagonals (offsets negated; SciPy's `dia.T`).
    pub fn transpose(&self) -> Result<DiaArray> {
        self.tocoo()?.transpose().todia()
    }
    /// `A @ x` for a dense `x`, through the CSR form.
    pub fn matmul(&self, x: &Array) -> Result<Array> {
        self.tocsr()?.matmul(x)
    }
    /// `x @ A` for a dense `x`, through the CSR form.
    pub fn rmatmul(&self, x: &Array) -> Result<Array> {
        self.tocsr()?.rmatmul(x)
    }
    /// The values cast to `dtype`.
    pub fn astype(&self, dtype: DType) -> Result<DiaArray> {
        Ok(DiaArray { data: self.data.astype(dtype)?, ..self.clone() })
    }
}

/// SciPy's `todia` of the canonical coordinates (`row`, `col`, `data`, duplicates summed) of an
/// array of `shape`: one row of `data` per occupied diagonal, in increasing offset, as wide as
/// the largest column plus one.
pub(crate) fn from_coords(row: &Array, col: &Array, data: &Array, shape: [usize; 2]) -> Result<DiaArray> {
    let mods = get_array_module(data);
    let ix = index_dtype(shape[0].max(shape[1]));
    if data.size() == 0 {
        let empty = mods.zeros([0usize, 0], data.dtype())?;
        return Ok(DiaArray { data: empty, offsets: mods.zeros([0], ix)?, host: vec![], shape });
    }
    let (r, c) = (row.cast_if(DType::I64)?, col.cast_if(DType::I64)?);
    let ks = c.sub(&r)?;
    let diags = crate::unique_values(&ks)?;
    let at = crate::searchsorted(&diags, &ks, xp_core::Side::Left, None)?;
    let width = c.max(..)?.to_i64()? as usize + 1;
    let out = mods.zeros([diags.size() * width], data.dtype())?;
    crate::scatter_add(&out, &at.mul(width as i64)?.add(&c)?, data)?;
    let host = diags.to_device(Device::Cpu)?.to_vec::<i64>()?;
    Ok(DiaArray { data: out.reshape(&[diags.size(), width][..])?, offsets: diags.astype(ix)?, host, shape })
}

impl CooArray {
    /// The same matrix in the diagonal format (SciPy's `todia`).
    pub fn todia(&self) -> Result<DiaArray> {
        let c = self.sum_duplicates()?;
        from_coords(c.row(), c.col(), c.data(), c.shape())
    }
}

impl CsrArray {
    /// The same matrix in the diagonal format (SciPy's `todia`).
    pub fn todia(&self) -> Result<DiaArray> {
        self.tocoo()?.todia()
    }
}

impl CscArray {
    /// The same matrix in the diagonal format (SciPy's `todia`).
    pub fn todia(&self) -> Result<DiaArray> {
        self.tocoo()?.todia()
    }
}
