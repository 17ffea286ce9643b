//! The compressed formats: [`CsrArray`] (rows) and [`CscArray`] (columns), one implementation
//! over a major and a minor axis.
use super::keys::{expand, offsets, sort_coords, whole};
use super::{index_dtype_for, CooArray};
use crate::backend::{on_many, on_many_map, Reads};
use crate::{get_array_module, Array};
use std::sync::{Arc, OnceLock};
use xp_core::{CsrParts, DType, Device, Error, Result, SliceElem};

/// The structure of a [`Compressed`] along its other axis: its indices and offsets there, and
/// the position in `data` of each of its values.
#[derive(Debug)]
pub(crate) struct Other {
    perm: Array,
    indices: Array,
    indptr: Array,
}

/// What CSR and CSC share: offsets along the major axis, minor indices, values.
#[derive(Clone, Debug)]
pub(crate) struct Compressed {
    pub(crate) data: Array,
    pub(crate) indices: Array,
    pub(crate) indptr: Array,
    /// (major, minor) extents: (rows, cols) for CSR, (cols, rows) for CSC
    pub(crate) dims: [usize; 2],
    /// sorted minor indices within each line and no duplicates (SciPy's `has_canonical_format`)
    pub(crate) canonical: bool,
    /// the structure compressed along the other axis, made by the first product that needs it
    /// (`A.T @ x` of a CSR array, `A @ x` of a CSC one) and kept, so that a later product only
    /// gathers the values (which may have changed in place) into that order
    pub(crate) other: Arc<OnceLock<Other>>,
}

impl Compressed {
    /// From coordinates along (major, minor): sorted, duplicates summed.
    /// Index arrays of dtype `ix`, or int64 where the dimensions need it.
    pub(crate) fn from_coords(
        major: &Array,
        minor: &Array,
        data: &Array,
        dims: [usize; 2],
        ix: DType,
    ) -> Result<Compressed> {
        let ix = index_dtype_for(&[ix], dims[0].max(dims[1]).max(data.size()));
        let (ma, mi, d) = (exact(&major.cast_if(DType::I64)?)?, exact(&minor.cast_if(DType::I64)?)?, exact(data)?);
        let built = if super::generic() {
            Err(Error::Unsupported { op: "tocsr", backend: "" })
        } else {
            let reads = Reads::lock(&[&ma, &mi, &d]);
            on_many_map!(reads.many("tocsr")?, v => {
                use xp_core::SparseStorage;
                SparseStorage::coo_to_csr(v[0], v[1], v[2], dims, ix)
            })
        };
        let (indptr, indices, data) = match built {
            Ok(b) => (whole(b.indptr), whole(b.indices), whole(b.data)),
            Err(Error::Unsupported { .. }) => {
                // the backend has no conversion of its own: sort, then sum
                let s = sort_coords(&ma, &mi, &d, dims, true)?;
                (offsets(&s.major, dims[0], ix)?, s.minor.cast_if(ix)?, s.data)
            }
            Err(e) => return Err(e),
        };
        Ok(Compressed { indptr, indices, data, dims, canonical: true, other: Arc::default() })
    }

    /// From SciPy's `(data, indices, indptr)`, checked as SciPy's `check_format` does.
    pub(crate) fn new(
        op: &'static str,
        data: &Array,
        indices: &Array,
        indptr: &Array,
        dims: [usize; 2],
    ) -> Result<Compressed> {
        super::check_vectors(op, data, [("indices", indices), ("indptr", indptr)])?;
        let nnz = data.size();
        if indices.size() != nnz {
            return Err(Error::invalid(
                op,
                format!("indices and data should have the same size ({} != {nnz})", indices.size()),
            ));
        }
        if indptr.size() != dims[0] + 1 {
            return Err(Error::invalid(op, format!("index pointer size {} should be {}", indptr.size(), dims[0] + 1)));
        }
        let ptr = indptr.cast_if(DType::I64)?;
        let ends = ptr.slice([SliceElem::Index(0)])?.to_i64()?;
        let last = ptr.slice([SliceElem::Index(-1)])?.to_i64()?;
        if ends != 0 {
            return Err(Error::invalid(op, "index pointer should start with 0"));
        }
        if last != nnz as i64 {
            return Err(Error::invalid(
                op,
                format!("last value of index pointer {last} should be the number of values {nnz}"),
            ));
        }
        if dims[0] > 0 {
            let steps = crate::diff(&ptr, 1, 0)?;
            if steps.lt(0)?.any(..)?.item::<bool>()? {
                return Err(Error::invalid(op, "index pointer values must form a non-decreasing sequence"));
            }
        }
        if nnz > 0 {
            let ix = indices.cast_if(DType::I64)?;
            let (lo, hi) = (ix.min(..)?.to_i64()?, ix.max(..)?.to_i64()?);
            if lo < 0 {
                return Err(Error::IndexOutOfBounds { index: lo as isize, axis: 1, size: dims[1] });
            }
            if hi >= dims[1] as i64 {
                return Err(Error::IndexOutOfBounds { index: hi as isize, axis: 1, size: dims[1] });
            }
        }
        let ix = index_dtype_for(&[indices.dtype(), indptr.dtype()], dims[0].max(dims[1]));
        let c = Compressed {
            data: data.copy()?,
            indices: indices.astype(ix)?,
            indptr: indptr.astype(ix)?,
            dims,
            canonical: false,
            other: Arc::default(),
        };
        let canonical = c.check_canonical()?;
        Ok(Compressed { canonical, ..c })
    }

    /// Whether every line's minor indices strictly increase.
    fn check_canonical(&self) -> Result<bool> {
        let n = self.data.size();
        if n < 2 {
            return Ok(true);
        }
        let major = expand(&self.indptr, n)?;
        let ix = self.indices.cast_if(DType::I64)?;
        let cut = |a: &Array, r: std::ops::Range<isize>| a.slice([SliceElem::from(r)]);
        let n = n as isize;
        // a new line, or a larger index than the previous one, everywhere
        let new_line = cut(&major, 1..n)?.ne(&cut(&major, 0..n - 1)?)?;
        let up = cut(&ix, 1..n)?.gt(&cut(&ix, 0..n - 1)?)?;
        new_line.logical_or(&up)?.all(..)?.item::<bool>()
    }

    fn nnz(&self) -> usize {
        self.data.size()
    }

    /// Coordinates (major, minor) as int64, one per stored value.
    pub(crate) fn coords(&self) -> Result<(Array, Array)> {
        Ok((expand(&self.indptr, self.nnz())?, self.indices.cast_if(DType::I64)?))
    }

    /// The dense array with the major axis first (duplicates summed).
    fn dense_major(&self) -> Result<Array> {
        let out = get_array_module(&self.data).zeros([self.dims[0] * self.dims[1]], self.data.dtype())?;
        if self.nnz() > 0 {
            let (ma, mi) = self.coords()?;
            let flat = ma.mul(self.dims[1] as i64)?.add(&mi)?;
            crate::scatter_add(&out, &flat, &self.data)?;
        }
        out.reshape(&[self.dims[0], self.dims[1]][..])
    }

    /// The same matrix compressed along the other axis.
    fn swapped(&self) -> Result<Compressed> {
        let (ma, mi) = self.coords()?;
        Compressed::from_coords(&mi, &ma, &self.data, [self.dims[1], self.dims[0]], self.indptr.dtype())
    }

    /// Canonical: sorted indices, duplicates summed.
    pub(crate) fn canonicalized(&self) -> Result<Compressed> {
        if self.canonical {
            return Ok(self.clone());
        }
        let (ma, mi) = self.coords()?;
        Compressed::from_coords(&ma, &mi, &self.data, self.dims, self.indptr.dtype())
    }

    /// Without explicitly stored zeros.
    pub(crate) fn without_zeros(&self) -> Result<Compressed> {
        let keep = self.data.ne(0)?;
        let (ma, mi) = self.coords()?;
        let (ma, mi, data) =
            (crate::compress(&keep, &ma, 0)?, crate::compress(&keep, &mi, 0)?, crate::compress(&keep, &self.data, 0)?);
        let ix = self.indptr.dtype();
        Ok(Compressed {
            indptr: offsets(&ma, self.dims[0], ix)?,
            indices: mi.cast_if(ix)?,
            data,
            dims: self.dims,
            canonical: self.canonical,
            other: Arc::default(),
        })
    }

    /// New values on the same structure (which keeps its [`Other`]).
    pub(crate) fn with_data(&self, data: Array) -> Compressed {
        Compressed { data, ..self.clone() }
    }

    /// The structure along the other axis ([`Other`]), made once and kept.
    fn other(&self) -> Result<&Other> {
        if let Some(o) = self.other.get() {
            return Ok(o);
        }
        let (ma, mi) = self.coords()?;
        let ix = self.indptr.dtype();
        let key = mi.mul(super::keys::key_span("matmul", self.dims[1], self.dims[0])?)?.add(&ma)?;
        let perm = key.argsort(0)?;
        let o = Other {
            indices: ma.take(&perm, 0)?.cast_if(ix)?,
            indptr: offsets(&mi.take(&perm, 0)?, self.dims[1], ix)?,
            perm,
        };
        Ok(self.other.get_or_init(|| o))
    }

    /// The same matrix compressed along the other axis for a product (duplicates kept, values in
    /// the kept structure's order).
    fn transposed_for_product(&self) -> Result<Compressed> {
        let o = self.other()?;
        Ok(Compressed {
            data: self.data.take(&o.perm, 0)?,
            indices: o.indices.clone(),
            indptr: o.indptr.clone(),
            dims: [self.dims[1], self.dims[0]],
            canonical: false,
            other: Arc::default(),
        })
    }

    /// `A @ X` for the matrix whose rows are the major lines (X: (minor,) or (minor, k)).
    fn product(&self, x: &Array, op: &'static str) -> Result<Array> {
        self.product_as(x, op, false)
    }

    /// `Aᵀ @ X` for the same `A` (X: (major,) or (major, k)): the backend's transposed product,
    /// or, where it has none, the product of the transpose's CSR form.
    fn product_t(&self, x: &Array, op: &'static str) -> Result<Array> {
        let r =
            if super::generic() { Err(Error::Unsupported { op, backend: "" }) } else { self.product_as(x, op, true) };
        match r {
            Err(Error::Unsupported { .. }) => self.transposed_for_product()?.product(x, op),
            r => r,
        }
    }

    fn product_as(&self, x: &Array, op: &'static str, transposed: bool) -> Result<Array> {
        let dt = xp_core::promote_types(self.data.dtype(), x.dtype());
        let (data, x) = (self.data.cast_if(dt)?, x.cast_if(dt)?);
        let idx = exact(&self.indices)?;
        let ptr = exact(&self.indptr.cast_if(idx.dtype())?)?;
        let data = exact(&data)?;
        let reads = Reads::lock(&[&ptr, &idx, &data, &x]);
        let out = on_many!(reads.many(op)?, v => {
            use xp_core::SparseStorage;
            let parts = CsrParts { indptr: v[0], indices: v[1], data: v[2], rows: self.dims[0], cols: self.dims[1] };
            if transposed {
                SparseStorage::csr_matmul_t(&parts, v[3], &x.layout)
            } else {
                SparseStorage::csr_matmul(&parts, v[3], &x.layout)
            }
        })?;
        let mut shape = vec![self.dims[usize::from(transposed)]];
        shape.extend_from_slice(&x.shape()[1..]);
        Ok(Array::from_storage(out, &shape))
    }
}

/// `a` as a whole buffer of its own: C-contiguous from the buffer's start to its end (what a
/// backend's sparse loops index directly), copied where it is a view.
/// Whether `a` is the whole of its storage, C-contiguous from its start.
pub(crate) fn is_exact(a: &Array) -> bool {
    a.is_contiguous() && a.layout.offset() == 0 && a.read().len() == a.size()
}

pub(crate) fn exact(a: &Array) -> Result<Array> {
    if is_exact(a) {
        Ok(a.clone())
    } else {
        a.copy()
    }
}

/// The C-contiguous transpose of a 2-D product (a 1-D one as it is).
fn untranspose(y: Array) -> Result<Array> {
    if y.ndim() == 2 {
        y.t()?.ascontiguousarray()
    } else {
        Ok(y)
    }
}

/// The operand of a product: `(n,)` or `(n, k)` with `n` the sparse matrix's columns.
pub(crate) fn check_operand(op: &'static str, shape: [usize; 2], x: &Array) -> Result<()> {
    if x.ndim() == 0 || x.ndim() > 2 {
        return Err(Error::invalid(
            op,
            format!("the dense operand must be 1- or 2-dimensional, got shape {:?}", x.shape()),
        ));
    }
    if x.shape()[0] != shape[1] {
        return Err(Error::NotAligned {
            op,
            lhs: shape.to_vec(),
            rhs: x.shape().to_vec(),
            lhs_size: shape[1],
            lhs_axis: 1,
            rhs_size: x.shape()[0],
            rhs_axis: 0,
        });
    }
    Ok(())
}

macro_rules! compressed_common {
    ($t:ident, $name:literal, $major:literal) => {
        impl $t {
            #[doc = concat!("SciPy's `", $name, "_array((data, indices, indptr), shape)`: the parts as they are (copied), checked as SciPy's `check_format` does (index pointer from 0 to `nnz`, non-decreasing, every index inside the ", $major, " lines' length); unsorted indices and duplicates are kept. Index arrays take the dtype [`index_dtype`] picks.")]
            pub fn new(data: &Array, indices: &Array, indptr: &Array, shape: [usize; 2]) -> Result<$t> {
                Compressed::new(concat!($name, "_array"), data, indices, indptr, Self::dims(shape)).map($t)
            }
            #[doc = concat!("SciPy's `", $name, "_array((data, (row, col)), shape)`: values at coordinates, duplicates summed, indices sorted.")]
            pub fn from_triplets(data: &Array, row: &Array, col: &Array, shape: [usize; 2]) -> Result<$t> {
                CooArray::new(data, row, col, shape)?.to_compressed(Self::COLUMNS).map($t)
            }
            #[doc = concat!("SciPy's `", $name, "_array(dense)`: the nonzero elements of a 2-D array.")]
            pub fn from_dense(dense: &Array) -> Result<$t> {
                CooArray::from_dense(dense)?.to_compressed(Self::COLUMNS).map($t)
            }
            /// The stored values.
            pub fn data(&self) -> &Array {
                &self.0.data
            }
            #[doc = concat!("The ", $major, " index of each stored value (int32 or int64).")]
            pub fn indices(&self) -> &Array {
                &self.0.indices
            }
            #[doc = concat!("Offsets of each ", $major, " line's values in `indices` and `data`.")]
            pub fn indptr(&self) -> &Array {
                &self.0.indptr
            }
            /// The shape (rows, columns).
            pub fn shape(&self) -> [usize; 2] {
                Self::dims(self.0.dims)
            }
            /// Stored values, explicit zeros and duplicates included (SciPy's `nnz`).
            pub fn nnz(&self) -> usize {
                self.0.nnz()
            }
            /// The value dtype.
            pub fn dtype(&self) -> DType {
                self.0.data.dtype()
            }
            /// The device the parts live on.
            pub fn device(&self) -> Device {
                self.0.data.device()
            }
            /// Sorted indices and no duplicates (SciPy's `has_canonical_format`).
            pub fn has_canonical_format(&self) -> bool {
                self.0.canonical
            }
            /// The number of stored values that are not zero (SciPy's `count_nonzero`).
            pub fn count_nonzero(&self) -> Result<usize> {
                // duplicates summed first, as SciPy's `_deduped_data`
                Ok(self.0.canonicalized()?.data.ne(0)?.cast_if(DType::I64)?.sum(..)?.to_i64()? as usize)
            }
            /// Duplicates summed and indices sorted (SciPy's `sum_duplicates`, returning the result).
            pub fn sum_duplicates(&self) -> Result<$t> {
                self.0.canonicalized().map($t)
            }
            /// SciPy's `sort_indices`: here the canonical form (sorting keeps duplicates apart in
            /// SciPy; use [`Self::new`]'s parts to keep them).
            pub fn sorted_indices(&self) -> Result<$t> {
                self.0.canonicalized().map($t)
            }
            /// Without explicitly stored zeros (SciPy's `eliminate_zeros`).
            pub fn eliminate_zeros(&self) -> Result<$t> {
                self.0.without_zeros().map($t)
            }
            /// A copy whose parts share nothing with this one.
            pub fn copy(&self) -> Result<$t> {
                let c = &self.0;
                Ok($t(Compressed {
                    data: c.data.copy()?,
                    indices: c.indices.copy()?,
                    indptr: c.indptr.copy()?,
                    other: Arc::default(),
                    ..c.clone()
                }))
            }
            /// The values cast to `dtype` (NumPy's `astype`), the structure shared.
            pub fn astype(&self, dtype: DType) -> Result<$t> {
                Ok($t(self.0.with_data(self.0.data.astype(dtype)?)))
            }
            /// The complex conjugate (the values' `conj`).
            pub fn conj(&self) -> Result<$t> {
                Ok($t(self.0.with_data(self.0.data.conj()?)))
            }
            /// The same array on `device`.
            pub fn to_device(&self, device: Device) -> Result<$t> {
                let c = &self.0;
                Ok($t(Compressed {
                    data: c.data.to_device(device)?,
                    indices: c.indices.to_device(device)?,
                    indptr: c.indptr.to_device(device)?,
                    other: Arc::default(),
                    ..c.clone()
                }))
            }
            /// The coordinate form (duplicates kept).
            pub fn tocoo(&self) -> Result<CooArray> {
                let (ma, mi) = self.0.coords()?;
                let (row, col) = if Self::COLUMNS { (mi, ma) } else { (ma, mi) };
                let ix = self.0.indptr.dtype();
                CooArray::from_parts(self.0.data.clone(), row, col, self.shape(), self.0.canonical && !Self::COLUMNS, ix)
            }
            /// The dense array (duplicates summed, as SciPy's `toarray`).
            pub fn toarray(&self) -> Result<Array> {
                let d = self.0.dense_major()?;
                if Self::COLUMNS {
                    d.t()?.ascontiguousarray()
                } else {
                    Ok(d)
                }
            }
        }
    };
}

/// A 2-D sparse array in compressed sparse row format (SciPy's `csr_array`): fast row access and
/// matrix products.
#[derive(Clone, Debug)]
pub struct CsrArray(pub(crate) Compressed);

/// A 2-D sparse array in compressed sparse column format (SciPy's `csc_array`): fast column
/// access; its transpose is a [`CsrArray`] with the same parts.
#[derive(Clone, Debug)]
pub struct CscArray(pub(crate) Compressed);

compressed_common!(CsrArray, "csr", "column");
compressed_common!(CscArray, "csc", "row");

impl CsrArray {
    const COLUMNS: bool = false;
    fn dims(shape: [usize; 2]) -> [usize; 2] {
        shape
    }
    /// The transpose: a [`CscArray`] over the same parts (no copy), as SciPy's `csr.T`.
    pub fn transpose(&self) -> CscArray {
        CscArray(self.0.clone())
    }
    /// The same matrix in compressed columns.
    pub fn tocsc(&self) -> Result<CscArray> {
        self.0.swapped().map(CscArray)
    }
    /// `A @ x` for a dense `x` of shape `(cols,)` or `(cols, k)`: the result has shape `(rows,)` or
    /// `(rows, k)` and the promoted dtype, on the arrays' device (sums as NumPy's `matmul`).
    pub fn matmul(&self, x: &Array) -> Result<Array> {
        check_operand("matmul", self.shape(), x)?;
        self.0.product(x, "matmul")
    }
    /// `x @ A` for a dense `x` of shape `(rows,)` or `(m, rows)`.
    pub fn rmatmul(&self, x: &Array) -> Result<Array> {
        // (Aᵀ xᵀ)ᵀ
        let shape = self.shape();
        let xt = if x.ndim() == 2 { x.t()? } else { x.clone() };
        check_operand("matmul", [shape[1], shape[0]], &xt)?;
        untranspose(self.0.product_t(&xt, "matmul")?)
    }
    /// Sum of all values (`axis = None`), or along `axis` 0 or 1 as a 1-D array (SciPy's sparse
    /// arrays), in the dtype NumPy's `sum` gives.
    pub fn sum(&self, axis: Option<usize>) -> Result<Array> {
        check_axis(axis, "sum")?;
        line_sums(&self.0, axis.map(|a| a == 1), "sum")
    }
}

impl CscArray {
    const COLUMNS: bool = true;
    fn dims(shape: [usize; 2]) -> [usize; 2] {
        [shape[1], shape[0]]
    }
    /// The transpose: a [`CsrArray`] over the same parts (no copy), as SciPy's `csc.T`.
    pub fn transpose(&self) -> CsrArray {
        CsrArray(self.0.clone())
    }
    /// The same matrix in compressed rows.
    pub fn tocsr(&self) -> Result<CsrArray> {
        self.0.swapped().map(CsrArray)
    }
    /// `A @ x` (see [`CsrArray::matmul`]).
    pub fn matmul(&self, x: &Array) -> Result<Array> {
        check_operand("matmul", self.shape(), x)?;
        // this array's parts are the CSR form of Aᵀ
        self.0.product_t(x, "matmul")
    }
    /// `x @ A` for a dense `x` of shape `(rows,)` or `(m, rows)`: `(Aᵀ xᵀ)ᵀ` with `Aᵀ` this
    /// array's parts read as CSR.
    pub fn rmatmul(&self, x: &Array) -> Result<Array> {
        let shape = self.shape();
        let xt = if x.ndim() == 2 { x.t()? } else { x.clone() };
        check_operand("matmul", [shape[1], shape[0]], &xt)?;
        untranspose(self.0.product(&xt, "matmul")?)
    }
    /// Sum of all values, or along `axis` 0 or 1 (see [`CsrArray::sum`]).
    pub fn sum(&self, axis: Option<usize>) -> Result<Array> {
        check_axis(axis, "sum")?;
        line_sums(&self.0, axis.map(|a| a == 0), "sum")
    }
}

/// `None`, 0 or 1, else [`Error::AxisOutOfRange`].
pub(crate) fn check_axis(axis: Option<usize>, op: &'static str) -> Result<()> {
    match axis {
        Some(a) if a > 1 => Err(Error::AxisOutOfRange { op, axis: a as isize, ndim: 2 }),
        _ => Ok(()),
    }
}

/// The sum of all values (`minor: None`), of each major line (`Some(true)`: along the minor axis)
/// or of each minor position (`Some(false)`), in the dtype NumPy's `sum` gives.
fn line_sums(c: &Compressed, minor: Option<bool>, op: &'static str) -> Result<Array> {
    let mods = get_array_module(&c.data);
    // NumPy's sum dtype for these values (int8 → int64, bool → int64, ...)
    let dt = crate::ufunc::sum_dtype(c.data.dtype());
    let data = c.data.cast_if(dt)?;
    let Some(along_minor) = minor else {
        return data.sum(..);
    };
    let (ma, mi) = c.coords()?;
    let (len, at) = if along_minor { (c.dims[0], ma) } else { (c.dims[1], mi) };
    let out = mods.zeros([len], dt)?;
    if c.nnz() > 0 {
        crate::scatter_add(&out, &at, &data).map_err(|e| e.in_op(op))?;
    }
    Ok(out)
}

impl CooArray {
    /// Compressed along rows (`columns == false`) or columns.
    pub(crate) fn to_compressed(&self, columns: bool) -> Result<Compressed> {
        let [r, c] = self.shape();
        // SciPy keeps the coordinates' index width, except that an empty array starts afresh
        let ix = if self.nnz() == 0 { DType::I32 } else { self.row().dtype() };
        if columns {
            Compressed::from_coords(self.col(), self.row(), self.data(), [c, r], ix)
        } else {
            Compressed::from_coords(self.row(), self.col(), self.data(), [r, c], ix)
        }
    }
    /// SciPy's `tocsr`: duplicates summed, indices sorted.
    pub fn tocsr(&self) -> Result<CsrArray> {
        self.to_compressed(false).map(CsrArray)
    }
    /// SciPy's `tocsc`: duplicates summed, indices sorted.
    pub fn tocsc(&self) -> Result<CscArray> {
        self.to_compressed(true).map(CscArray)
    }
}
