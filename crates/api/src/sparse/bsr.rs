//! The block format, [`BsrArray`] (SciPy's `bsr_array`): dense `R × C` blocks stored as CSR
//! stores values — `indptr` over block rows, `indices` the block column of each block, `data`
//! of shape `(blocks, R, C)`; what `kron` of a dense-ish factor gives and what finite elements
//! with several unknowns per node assemble. Every conversion is composed from xp's gathers,
//! scatters and searches, so it runs on every device; products go through the CSR form, which a
//! canonical BSR array gives in order without a sort. A backend with its own block loops
//! (the CPU's) converts and multiplies in one pass instead.
//!
//! ```
//! use xp::sparse::{CsrArray, Sparse};
//! let dense = xp::Array::from_vec(vec![1.0f64, 2.0, 0.0, 0.0, 3.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 4.0], &[3, 4]).unwrap();
//! let csr = CsrArray::from_dense(&dense).unwrap();
//! let b = xp::sparse::BsrArray::from_dense(&dense.reshape(&[3, 4]).unwrap(), Some([1, 2])).unwrap();
//! assert_eq!((b.blocksize(), b.nnz()), ([1, 2], 6));        // three blocks of two, a zero inside
//! assert_eq!(b.indices().to_vec::<i32>().unwrap(), vec![0, 0, 1]);
//! assert_eq!(b.toarray().unwrap().to_vec::<f64>().unwrap(), dense.ravel().unwrap().to_vec::<f64>().unwrap());
//! let x = xp::Array::from_vec(vec![1.0f64, 1.0, 1.0, 1.0], &[4]).unwrap();
//! assert_eq!(b.matmul(&x).unwrap().to_vec::<f64>().unwrap(), csr.matmul(&x).unwrap().to_vec::<f64>().unwrap());
//! assert_eq!(b.add(&csr).unwrap().format(), xp::sparse::Format::Bsr);  // SciPy's format
//! ```
use super::compressed::Compressed;
use super::keys::{expand, offsets};
use super::{index_dtype_for, CooArray, CscArray, CsrArray, DiaArray};
use crate::{get_array_module, Array};
use std::sync::Arc;
use xp_core::{DType, Device, Error, Result, SliceElem};

/// A 2-D sparse array of dense blocks (SciPy's `bsr_array`).
#[derive(Clone, Debug)]
pub struct BsrArray {
    data: Array,
    indices: Array,
    indptr: Array,
    shape: [usize; 2],
    canonical: bool,
}

impl BsrArray {
    /// SciPy's `bsr_array((data, indices, indptr), shape)`: `data` of shape `(blocks, R, C)`
    /// with `R` dividing the rows and `C` the columns, `indices` the block column of each block,
    /// `indptr` the offsets of the `rows / R` block rows; checked as SciPy's `check_format`
    /// (the index checks of [`CsrArray::new`] over the block grid), parts copied.
    pub fn new(data: &Array, indices: &Array, indptr: &Array, shape: [usize; 2]) -> Result<BsrArray> {
        let op = "bsr_array";
        let &[nb, r, c] = data.shape() else {
            return Err(Error::invalid(op, format!("data must be 3-D (blocks, R, C), got shape {:?}", data.shape())));
        };
        let [r, c] = check_blocksize(op, shape, [r, c])?;
        // the block grid is a CSR structure: its checks, over one position per block
        let grid = get_array_module(data).arange(0i64, nb as i64, 1i64, Some(DType::I64))?;
        let s = Compressed::new(op, &grid, indices, indptr, [shape[0] / r, shape[1] / c])?;
        Ok(BsrArray { data: data.copy()?, indices: s.indices, indptr: s.indptr, shape, canonical: s.canonical })
    }

    /// SciPy's `bsr_array(dense, blocksize)`: the blocks of a 2-D array that hold a nonzero
    /// (`None`: the block size SciPy's `estimate_blocksize` picks).
    pub fn from_dense(dense: &Array, blocksize: Option<[usize; 2]>) -> Result<BsrArray> {
        CsrArray::from_dense(dense)?.tobsr(blocksize)
    }

    /// The blocks, `(blocks, R, C)`.
    pub fn data(&self) -> &Array {
        &self.data
    }
    /// The block column of each block.
    pub fn indices(&self) -> &Array {
        &self.indices
    }
    /// Where each block row's blocks start (`rows / R + 1` offsets).
    pub fn indptr(&self) -> &Array {
        &self.indptr
    }
    /// The shape (rows, columns).
    pub fn shape(&self) -> [usize; 2] {
        self.shape
    }
    /// The block shape `(R, C)` (SciPy's `blocksize`).
    pub fn blocksize(&self) -> [usize; 2] {
        [self.data.shape()[1], self.data.shape()[2]]
    }
    /// Stored values: every value of every block, zeros included (SciPy's `nnz`).
    pub fn nnz(&self) -> usize {
        self.data.size()
    }
    /// The number of nonzero values.
    pub fn count_nonzero(&self) -> Result<usize> {
        self.tocsr()?.sum_duplicates()?.count_nonzero()
    }
    /// The value dtype.
    pub fn dtype(&self) -> DType {
        self.data.dtype()
    }
    /// The device the parts live on.
    pub fn device(&self) -> Device {
        self.data.device()
    }
    /// Block columns strictly increasing within each block row (SciPy's `has_canonical_format`).
    pub fn has_canonical_format(&self) -> bool {
        self.canonical
    }
    /// The canonical form: blocks in increasing block column, repeated blocks summed.
    pub fn sum_duplicates(&self) -> Result<BsrArray> {
        if self.canonical {
            return Ok(self.clone());
        }
        self.tocsr()?.tobsr(Some(self.blocksize()))
    }
    /// Without the blocks that hold only zeros (SciPy's `eliminate_zeros`; zeros inside a
    /// block that holds a nonzero stay).
    pub fn eliminate_zeros(&self) -> Result<BsrArray> {
        let nb = self.data.shape()[0];
        let keep = self.data.reshape(&[nb, self.data.size() / nb.max(1)][..])?.ne(0)?.any(1)?;
        let brow = expand(&self.indptr, nb)?;
        let ix = self.indptr.dtype();
        Ok(BsrArray {
            data: crate::compress(&keep, &self.data, 0)?,
            indices: crate::compress(&keep, &self.indices, 0)?,
            indptr: offsets(&crate::compress(&keep, &brow, 0)?, self.indptr.size() - 1, ix)?,
            ..self.clone()
        })
    }
    /// A copy with parts of its own.
    pub fn copy(&self) -> Result<BsrArray> {
        Ok(BsrArray { data: self.data.copy()?, indices: self.indices.copy()?, indptr: self.indptr.copy()?, ..*self })
    }
    /// The values cast to `dtype`.
    pub fn astype(&self, dtype: DType) -> Result<BsrArray> {
        Ok(BsrArray { data: self.data.astype(dtype)?, ..self.clone() })
    }
    /// The complex conjugate.
    pub fn conj(&self) -> Result<BsrArray> {
        Ok(BsrArray { data: self.data.conj()?, ..self.clone() })
    }
    /// New values, one per stored value, on the same structure.
    pub(crate) fn with_data(&self, data: Array) -> Result<BsrArray> {
        Ok(BsrArray { data: data.reshape(self.data.shape())?, ..self.clone() })
    }
    /// The same array on `device`.
    pub fn to_device(&self, device: Device) -> Result<BsrArray> {
        Ok(BsrArray {
            data: self.data.to_device(device)?,
            indices: self.indices.to_device(device)?,
            indptr: self.indptr.to_device(device)?,
            ..*self
        })
    }
    /// The transpose: blocks `(C, R)` (SciPy's `bsr.T`).
    pub fn transpose(&self) -> Result<BsrArray> {
        let [r, c] = self.blocksize();
        self.tocoo()?.transpose().tobsr(Some([c, r]))
    }
    /// Every stored value at its coordinates, block by block (SciPy's `tocoo`: zeros inside
    /// blocks kept).
    pub fn tocoo(&self) -> Result<CooArray> {
        let (nb, [r, c]) = (self.data.shape()[0], self.blocksize());
        let mods = get_array_module(&self.data);
        let brow = expand(&self.indptr, nb)?.mul(r as i64)?.reshape(&[nb, 1, 1][..])?;
        let bcol = self.indices.cast_if(DType::I64)?.mul(c as i64)?.reshape(&[nb, 1, 1][..])?;
        let i: Array = mods.arange(0i64, r as i64, 1i64, Some(DType::I64))?.reshape(&[1, r, 1][..])?;
        let j: Array = mods.arange(0i64, c as i64, 1i64, Some(DType::I64))?.reshape(&[1, 1, c][..])?;
        let full = |x: Array| x.broadcast_to(&[nb, r, c][..])?.ravel();
        let ix = self.indptr.dtype();
        CooArray::from_parts(self.data.ravel()?, full(brow.add(&i)?)?, full(bcol.add(&j)?)?, self.shape, false, ix)
    }
    /// The same values as CSR, every block's values stored (SciPy's `tocsr`): row `I·R + i`
    /// holds row `i` of each of block row `I`'s blocks in their order, so each block value has
    /// its place computed (no sort) and a canonical array gives a canonical CSR array.
    pub fn tocsr(&self) -> Result<CsrArray> {
        let (nb, [r, c]) = (self.data.shape()[0], self.blocksize());
        let (rc, nnz) = ((r * c) as i64, self.data.size());
        let ix = index_dtype_for(&[self.indptr.dtype()], self.shape[0].max(self.shape[1]).max(nnz));
        let parts = [&self.indptr, &self.indices, &self.data];
        if let Some(b) = super::seam::to_csr(parts, self.grid(), [r, c], ix)? {
            let dims = self.shape;
            let other = Arc::default();
            let (indptr, indices, data) = (b.indptr, b.indices, b.data);
            return Ok(CsrArray(Compressed { data, indices, indptr, dims, canonical: self.canonical, other }));
        }
        let mods = get_array_module(&self.data);
        let ptr = self.indptr.cast_if(DType::I64)?;
        let nbr = ptr.size() - 1;
        let start = ptr.slice([SliceElem::from(..-1)])?;
        let count = crate::diff(&ptr, 1, 0)?;
        // row I·R + i starts at start[I]·R·C + i·count[I]·C
        let ri: Array = mods.arange(0i64, r as i64, 1i64, Some(DType::I64))?;
        let column = |x: &Array| x.reshape(&[nbr, 1][..]);
        let rows = column(&start)?.mul(rc)?.add(&ri.reshape(&[1, r][..])?.mul(&column(&count)?.mul(c as i64)?)?)?;
        let total = Array::from_vec(vec![nnz as i64], [1])?.to_device(self.device())?;
        let rowptr = crate::concatenate(&[&rows.ravel()?, &total], 0)?;
        // value (b, i, j) of a block of block row I goes to that row's start, past the earlier
        // blocks' C values: start[I]·R·C + i·count[I]·C + (b − start[I])·C + j
        let brow = expand(&self.indptr, nb)?;
        let (pb, n) = (start.take(&brow, 0)?, count.take(&brow, 0)?);
        let b: Array = mods.arange(0i64, nb as i64, 1i64, Some(DType::I64))?;
        let cube = |x: Array| x.reshape(&[nb, 1, 1][..]);
        let base = cube(pb.mul(rc)?.add(&b.sub(&pb)?.mul(c as i64)?)?)?;
        let i = ri.reshape(&[1, r, 1][..])?;
        let j: Array = mods.arange(0i64, c as i64, 1i64, Some(DType::I64))?.reshape(&[1, 1, c][..])?;
        let dest = base.add(&i.mul(&cube(n.mul(c as i64)?)?)?)?.add(&j)?.broadcast_to(&[nb, r, c][..])?.ravel()?;
        let cols = cube(self.indices.cast_if(DType::I64)?.mul(c as i64)?)?.add(&j)?.broadcast_to(&[nb, r, c][..])?;
        let (data, indices) = (mods.zeros([nnz], self.dtype())?, mods.zeros([nnz], ix)?);
        if nnz > 0 {
            data.put(&dest, &self.data.ravel()?, xp_core::IndexMode::Raise)?;
            indices.put(&dest, &cols.ravel()?.cast_if(ix)?, xp_core::IndexMode::Raise)?;
        }
        Ok(CsrArray(Compressed {
            data,
            indices,
            indptr: rowptr.cast_if(ix)?,
            dims: self.shape,
            canonical: self.canonical,
            other: Arc::default(),
        }))
    }
    /// The same matrix as CSC.
    pub fn tocsc(&self) -> Result<CscArray> {
        self.tocsr()?.tocsc()
    }
    /// The same matrix as DIA.
    pub fn todia(&self) -> Result<DiaArray> {
        self.tocoo()?.todia()
    }
    /// The dense array (repeated blocks summed).
    pub fn toarray(&self) -> Result<Array> {
        self.tocsr()?.toarray()
    }
    /// `A @ x` for a dense `x` of shape `(cols,)` or `(cols, k)`, through the CSR form.
    pub fn matmul(&self, x: &Array) -> Result<Array> {
        super::compressed::check_operand("matmul", self.shape, x)?;
        let parts = [&self.indptr, &self.indices, &self.data];
        match super::seam::matmul(parts, self.grid(), self.blocksize(), x)? {
            Some(y) => Ok(y),
            None => self.tocsr()?.matmul(x),
        }
    }
    /// The block grid: block rows and block columns.
    fn grid(&self) -> [usize; 2] {
        let [r, c] = self.blocksize();
        [self.shape[0] / r, self.shape[1] / c]
    }
    /// `x @ A` for a dense `x` of shape `(rows,)` or `(m, rows)`.
    pub fn rmatmul(&self, x: &Array) -> Result<Array> {
        self.tocsr()?.rmatmul(x)
    }
    /// The sum over everything or along `axis`, as [`CsrArray::sum`].
    pub fn sum(&self, axis: Option<usize>) -> Result<Array> {
        self.tocsr()?.sum(axis)
    }
}

/// `[R, C]` when both are positive and divide the rows and columns of `shape`.
fn check_blocksize(op: &'static str, shape: [usize; 2], [r, c]: [usize; 2]) -> Result<[usize; 2]> {
    if r == 0 || c == 0 || !shape[0].is_multiple_of(r) || !shape[1].is_multiple_of(c) {
        return Err(Error::invalid(op, format!("invalid blocksize ({r}, {c}) for shape ({}, {})", shape[0], shape[1])));
    }
    Ok([r, c])
}

/// The block of each stored value of `a` as the key `I · (cols / C) + J` (int64), with the
/// coordinates and values it came from.
fn block_keys(a: &CsrArray, [r, c]: [usize; 2]) -> Result<(Array, Array, Array, Array)> {
    let coo = a.tocoo()?;
    let (row, col) = (coo.row().cast_if(DType::I64)?, coo.col().cast_if(DType::I64)?);
    let span = super::keys::key_span("tobsr", a.shape()[0] / r, a.shape()[1] / c)?;
    let key = row.floor_divide(r as i64)?.mul(span)?.add(&col.floor_divide(c as i64)?)?;
    Ok((key, row, col, coo.data().clone()))
}

/// SciPy's `estimate_blocksize(A, 0.7)`: 6×6, 4×4, 3×3 or 2×2 where blocks of that size would
/// be filled to that efficiency, in SciPy's order of trying (1×1 otherwise).
fn estimate_blocksize(a: &CsrArray) -> Result<[usize; 2]> {
    let nnz = a.nnz() as f64;
    if nnz == 0.0 {
        return Ok([1, 1]);
    }
    let [m, n] = a.shape();
    let (efficiency, high) = (0.7, (1.0 + 0.7) / 2.0);
    let fill = |b: usize| -> Result<f64> {
        if !m.is_multiple_of(b) || !n.is_multiple_of(b) {
            return Ok(0.0);
        }
        let blocks = crate::unique_values(&block_keys(a, [b, b])?.0)?.size();
        Ok(nnz / ((b * b * blocks) as f64))
    };
    let (e22, e33) = (fill(2)?, fill(3)?);
    Ok(if e22 > high && e33 > high {
        if fill(6)? > efficiency {
            [6, 6]
        } else {
            [3, 3]
        }
    } else if fill(4)? > efficiency {
        [4, 4]
    } else if e33 > efficiency {
        [3, 3]
    } else if e22 > efficiency {
        [2, 2]
    } else {
        [1, 1]
    })
}

impl CsrArray {
    /// The same matrix in blocks of `blocksize` (SciPy's `tobsr`; `None`: the size SciPy's
    /// `estimate_blocksize` picks): every block holding a stored value, repeated values summed,
    /// blocks in increasing block column (SciPy's keeps their order of first appearance).
    pub fn tobsr(&self, blocksize: Option<[usize; 2]>) -> Result<BsrArray> {
        let op = "tobsr";
        let [r, c] = match blocksize {
            Some(b) => check_blocksize(op, self.shape(), b)?,
            None => estimate_blocksize(self)?,
        };
        let [m, n] = self.shape();
        let wide = index_dtype_for(&[self.indptr().dtype()], (n / c).max(self.nnz()));
        if let Some(b) = super::seam::from_csr(&self.0, [r, c], wide)? {
            let nb = b.indices.size();
            let ix = index_dtype_for(&[self.indptr().dtype()], (n / c).max(nb));
            return Ok(BsrArray {
                data: b.data.reshape(&[nb, r, c][..])?,
                indices: b.indices.cast_if(ix)?,
                indptr: b.indptr.cast_if(ix)?,
                shape: [m, n],
                canonical: true,
            });
        }
        let (key, row, col, data) = block_keys(self, [r, c])?;
        let keys = crate::unique_values(&key)?;
        let nb = keys.size();
        let mods = get_array_module(&data);
        let out = mods.zeros([nb * r * c], data.dtype())?;
        if nb > 0 {
            let at = crate::searchsorted(&keys, &key, xp_core::Side::Left, None)?;
            let inner = row.remainder(r as i64)?.mul(c as i64)?.add(&col.remainder(c as i64)?)?;
            crate::scatter_add(&out, &at.mul((r * c) as i64)?.add(&inner)?, &data)?;
        }
        let span = (n / c) as i64;
        let ix = index_dtype_for(&[self.indptr().dtype()], (n / c).max(nb));
        Ok(BsrArray {
            data: out.reshape(&[nb, r, c][..])?,
            indices: keys.remainder(span)?.cast_if(ix)?,
            indptr: offsets(&keys.floor_divide(span)?, m / r, ix)?,
            shape: [m, n],
            canonical: true,
        })
    }
}

impl CscArray {
    /// The same matrix in blocks (SciPy's `tobsr`), as [`CsrArray::tobsr`].
    pub fn tobsr(&self, blocksize: Option<[usize; 2]>) -> Result<BsrArray> {
        self.tocsr()?.tobsr(blocksize)
    }
}

impl CooArray {
    /// The same matrix in blocks (SciPy's `tobsr`), as [`CsrArray::tobsr`].
    pub fn tobsr(&self, blocksize: Option<[usize; 2]>) -> Result<BsrArray> {
        self.tocsr()?.tobsr(blocksize)
    }
}

impl DiaArray {
    /// The same matrix in blocks (SciPy's `tobsr`), as [`CsrArray::tobsr`].
    pub fn tobsr(&self, blocksize: Option<[usize; 2]>) -> Result<BsrArray> {
        self.tocsr()?.tobsr(blocksize)
    }
}

/// The Kronecker product of the canonical CSR `a` and the dense `b` as blocks: one block
/// `a[i, j] · b` per stored value of `a` (SciPy's `kron` where `b` is dense enough).
pub(crate) fn kron_blocks(a: &CsrArray, b: &Array) -> Result<BsrArray> {
    let (p, [mb, nb]) = (a.nnz(), [b.shape()[0], b.shape()[1]]);
    let data = a.data().reshape(&[p, 1, 1][..])?.mul(&b.reshape(&[1, mb, nb][..])?)?;
    let [m, n] = a.shape();
    let ix = index_dtype_for(&[a.indptr().dtype()], (m * mb).max(n * nb));
    Ok(BsrArray {
        data,
        indices: a.indices().cast_if(ix)?,
        indptr: a.indptr().cast_if(ix)?,
        shape: [m * mb, n * nb],
        canonical: a.has_canonical_format(),
    })
}
