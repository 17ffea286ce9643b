//! Arithmetic between sparse arrays, and with dense ones, as SciPy's sparse arrays do it: `+`,
//! `-`, `multiply`, `maximum`, `minimum` of two sparse arrays of one shape give a sparse array
//! in the left operand's compressed format (CSR for a COO one) without the positions whose result
//! is zero; `+` with a dense array gives a dense array; `multiply` by a dense array (broadcast)
//! gives a COO array over the stored positions.
//!
//! ```
//! use xp::sparse::{CsrArray, Sparse};
//! let a = CsrArray::from_dense(&xp::Array::from_vec(vec![1.0f64, 0.0, 0.0, 2.0], &[2, 2]).unwrap()).unwrap();
//! let b = CsrArray::from_dense(&xp::Array::from_vec(vec![-1.0f64, 3.0, 0.0, 0.0], &[2, 2]).unwrap()).unwrap();
//! let s = a.add(&b).unwrap();              // the (0, 0) sum is zero and is not stored
//! assert_eq!((s.format(), s.nnz()), (xp::sparse::Format::Csr, 2));
//! assert_eq!(s.toarray().unwrap().to_vec::<f64>().unwrap(), vec![0.0, 3.0, 0.0, 2.0]);
//! ```
use super::compressed::Compressed;
use super::keys::offsets;
use super::{shape_error, BsrArray, CooArray, CooArray1d, CscArray, CsrArray, DiaArray, Format, SparseArray};
use crate::ufunc::BinaryUfunc;
use crate::{get_array_module, Array};
use xp_core::{BinaryOp, DType, Result, Side};

/// What every sparse format offers; the arithmetic comes with it.
pub trait Sparse {
    /// The shape (rows, columns).
    fn shape(&self) -> [usize; 2];
    /// The storage format.
    fn format(&self) -> Format;
    /// The value dtype.
    fn dtype(&self) -> DType;
    /// The canonical CSR form (sorted indices, duplicates summed).
    fn canonical_csr(&self) -> Result<CsrArray>;
    /// The stored entries in coordinate form: duplicates kept for CSR and CSC (as their
    /// `tocoo`), the canonical entries for the other formats.
    fn stored_coo(&self) -> Result<CooArray> {
        self.canonical_csr()?.tocoo()
    }
    /// The device the parts live on.
    fn device(&self) -> xp_core::Device;
    /// The block size `(R, C)` of a BSR array (`None` for the other formats).
    fn blocksize(&self) -> Option<[usize; 2]> {
        None
    }

    /// `self op other` for a comparison `op` (`Eq`, `Ne`, `Lt`, `Le`, `Gt`, `Ge`) of two arrays
    /// of one shape: a sparse bool array in this one's compressed format (CSR for COO), as
    /// SciPy's `A != B`, `A < B`, … (see [`crate::sparse`]'s `compare` module notes: `==`, `<=`
    /// and `>=` are true at every position both leave empty, so their result is dense in
    /// structure, as SciPy's).
    fn compare(&self, other: &dyn Sparse, op: BinaryOp) -> Result<SparseArray> {
        super::compare::sparse(self, other, op)
    }
    /// `self op s` for a comparison `op` and a scalar `s`: only stored values where `op(0, s)`
    /// is false (`A > 0.5`, `A != 0`), every position otherwise (`A < 1`, as SciPy's).
    fn compare_scalar(&self, s: xp_core::Scalar, op: BinaryOp) -> Result<SparseArray> {
        super::compare::scalar(self, s, op)
    }
    /// `self + other` (SciPy's sparse `+`).
    fn add(&self, other: &dyn Sparse) -> Result<SparseArray> {
        binop(self, other, BinaryOp::Add, "add")
    }
    /// `self - other`.
    fn sub(&self, other: &dyn Sparse) -> Result<SparseArray> {
        binop(self, other, BinaryOp::Sub, "subtract")
    }
    /// The elementwise product (SciPy's `multiply`; `*` of sparse arrays).
    fn multiply(&self, other: &dyn Sparse) -> Result<SparseArray> {
        binop(self, other, BinaryOp::Mul, "multiply")
    }
    /// The elementwise maximum, an absent entry counting as zero (SciPy's `maximum`).
    fn maximum(&self, other: &dyn Sparse) -> Result<SparseArray> {
        binop(self, other, BinaryOp::Max, "maximum")
    }
    /// The elementwise minimum, an absent entry counting as zero.
    fn minimum(&self, other: &dyn Sparse) -> Result<SparseArray> {
        binop(self, other, BinaryOp::Min, "minimum")
    }
    /// The matrix product `self @ other` of two sparse arrays (SpGEMM): CSC when `self` is CSC,
    /// BSR of blocks `(R, C)` when `self` is BSR of `R` rows a block (`C` that of a BSR `other`,
    /// 1 otherwise), CSR otherwise (SciPy's formats), without zero sums; as SciPy's, its indices may be
    /// unsorted (`sum_duplicates` sorts them). On the CPU by Gustavson's rows on every core, on
    /// a GPU by a hash table per row; where a backend has neither, composed in bounded blocks.
    fn matmul_sparse(&self, other: &dyn Sparse) -> Result<SparseArray> {
        let c = CsrArray(super::spgemm::spgemm(&self.canonical_csr()?.0, &other.canonical_csr()?.0)?);
        Ok(match (self.format(), self.blocksize()) {
            (Format::Csc, _) => SparseArray::Csc(c.tocsc()?),
            (Format::Bsr, Some([r, _])) => SparseArray::Bsr(c.tobsr(Some([r, other.blocksize().map_or(1, |b| b[1])]))?),
            _ => SparseArray::Csr(c),
        })
    }
    /// The largest value over everything (`None`, a 0-d array) or along `axis` 0 or 1 (a dense
    /// 1-D array: [`Self::max_along`] gives SciPy's 1-D COO one), absent entries counting as
    /// zeros unless `explicit` (SciPy's `max`; with `explicit`, an empty line gives zero, as
    /// SciPy's).
    fn max(&self, axis: Option<usize>, explicit: bool) -> Result<Array> {
        super::reduce::extreme(self, axis, super::reduce::Extreme::Max, explicit, false, "max")
    }
    /// The smallest value, as [`Self::max`].
    fn min(&self, axis: Option<usize>, explicit: bool) -> Result<Array> {
        super::reduce::extreme(self, axis, super::reduce::Extreme::Min, explicit, false, "min")
    }
    /// SciPy's `max(axis)`: the largest value of each line along `axis` (0 or 1) as a 1-D COO
    /// array of the nonzero maxima ([`Self::max`] gives the dense form).
    fn max_along(&self, axis: usize, explicit: bool) -> Result<CooArray1d> {
        CooArray1d::from_dense(&self.max(Some(axis), explicit)?)
    }
    /// SciPy's `min(axis)`, as [`Self::max_along`].
    fn min_along(&self, axis: usize, explicit: bool) -> Result<CooArray1d> {
        CooArray1d::from_dense(&self.min(Some(axis), explicit)?)
    }
    /// `self @ v` of a sparse vector `v` (SciPy's: a 1-D COO array).
    fn matmul_vector(&self, v: &dyn super::Sparse1d) -> Result<CooArray1d> {
        super::vector_ops::matrix_vector(self, v)
    }
    /// The flat (row-major) index of the first largest value (`None`, a 0-d int64 array) or the
    /// index of each line's first largest along `axis` 0 or 1 (a dense 1-D int64 array), absent
    /// entries counting as zeros unless `explicit` (then among the stored values only, 0 for an
    /// empty line): NumPy's `argmax` of the dense array. SciPy 1.17 answers the position in
    /// `data` instead where `explicit` is set over everything, or where a zero ties.
    fn argmax(&self, axis: Option<usize>, explicit: bool) -> Result<Array> {
        super::reduce::extreme(self, axis, super::reduce::Extreme::Max, explicit, true, "argmax")
    }
    /// The index of the first smallest value, as [`Self::argmax`].
    fn argmin(&self, axis: Option<usize>, explicit: bool) -> Result<Array> {
        super::reduce::extreme(self, axis, super::reduce::Extreme::Min, explicit, true, "argmin")
    }
    /// The mean over everything or along `axis`, absent entries counting (SciPy's `mean`: float64
    /// for integers and bool).
    fn mean(&self, axis: Option<usize>) -> Result<Array> {
        super::reduce::mean(self, axis)
    }
    /// The values of diagonal `k` (above the main one for `k > 0`) as a dense 1-D array
    /// (SciPy's `diagonal`; duplicates summed).
    fn diagonal(&self, k: isize) -> Result<Array>
    where
        Self: Sized,
    {
        super::structure::diagonal(self, k)
    }
    /// SciPy's `A[rows, cols] = values` as a new array of this format: each target position
    /// (integer arrays, negatives from the end; `rows`, `cols` and `values` broadcast) takes its
    /// value (the last where a position repeats), stored even where zero; see `assign.rs`.
    fn assign(&self, rows: &Array, cols: &Array, values: &Array) -> Result<SparseArray>
    where
        Self: Sized,
    {
        super::assign::assign(self, rows, cols, values)
    }
    /// SciPy's `setdiag(values, k)`, as a new array of this format: diagonal `k` set to
    /// `values` (0-d: the whole diagonal; 1-D: its first positions), values of zero stored.
    fn setdiag(&self, values: &Array, k: isize) -> Result<SparseArray>
    where
        Self: Sized,
    {
        super::structure::setdiag(self, values, k)
    }
    /// The sum of diagonal `k` (SciPy's `trace`), a 0-d array in NumPy's sum dtype.
    fn trace(&self, k: isize) -> Result<Array>
    where
        Self: Sized,
    {
        super::structure::diagonal(self, k)?.sum(..)
    }
    /// `self + dense`: a dense array (`dense` broadcast to this shape, NumPy's promotion).
    fn add_dense(&self, dense: &Array) -> Result<Array> {
        self.canonical_csr()?.toarray()?.add(dense)
    }
    /// The elementwise product with `dense` (broadcast to this shape): a COO array over the
    /// stored positions, as SciPy's `multiply` of a sparse and a dense array.
    fn multiply_dense(&self, dense: &Array) -> Result<CooArray> {
        on_stored(self, dense, BinaryOp::Mul, "multiply")
    }
    /// `self / s` (SciPy's true division by a scalar): this format, the stored values times
    /// `1 / s` (SciPy's way: an ulp from `v / s` at times), in float64 unless complex.
    fn divide_scalar(&self, s: f64) -> Result<SparseArray> {
        let dt = if xp_core::can_cast_safe(self.dtype(), DType::F64) { DType::F64 } else { self.dtype() };
        let scaled = |d: &Array| d.astype(dt)?.mul(1.0 / s);
        let c = self.canonical_csr()?;
        Ok(match self.format() {
            Format::Coo => {
                let coo = c.tocoo()?;
                let ix = coo.row().dtype();
                SparseArray::Coo(CooArray::from_parts(
                    scaled(coo.data())?,
                    coo.row().clone(),
                    coo.col().clone(),
                    self.shape(),
                    true,
                    ix,
                )?)
            }
            _ => like(self, CsrArray(c.0.with_data(scaled(c.data())?)))?,
        })
    }
    /// `self / dense` (broadcast to this shape), as SciPy computes it: `multiply` by `1 / dense`
    /// over the stored positions (the absent entries stay zero): a COO array, or this format
    /// where `dense` holds one value (SciPy's scalar path).
    fn divide_dense(&self, dense: &Array) -> Result<SparseArray> {
        let coo = on_stored(self, &BinaryOp::Div.call(1.0, dense)?, BinaryOp::Mul, "divide")?;
        match (dense.size(), self.format()) {
            (1, Format::Csr | Format::Csc | Format::Bsr) => like(self, coo.tocsr()?),
            _ => Ok(SparseArray::Coo(coo)),
        }
    }
    /// `self / other` of two sparse arrays: a dense array (SciPy's: `0 / 0` is NaN there), in
    /// float64 where this dtype casts to it safely.
    fn divide(&self, other: &dyn Sparse) -> Result<Array> {
        if self.shape() != other.shape() {
            return Err(shape_error("divide", &self.shape(), &other.shape()));
        }
        // (SciPy divides in float64 where the left dtype casts to it safely)
        let a = self.canonical_csr()?.toarray()?;
        let a = if xp_core::can_cast_safe(a.dtype(), DType::F64) { a.astype(DType::F64)? } else { a };
        BinaryOp::Div.call(&a, &other.canonical_csr()?.toarray()?)
    }
}

/// `op(stored value, dense at its position)` over the stored positions of `a` (`dense`
/// broadcast to its shape), as a canonical COO array.
fn on_stored<A: Sparse + ?Sized>(a: &A, dense: &Array, op: BinaryOp, name: &'static str) -> Result<CooArray> {
    let shape = a.shape();
    let d = dense.broadcast_to(&shape[..]).map_err(|_| shape_error(name, &shape, dense.shape()))?;
    let coo = a.canonical_csr()?.tocoo()?;
    let flat = coo.row().cast_if(DType::I64)?.mul(shape[1] as i64)?.add(&coo.col().cast_if(DType::I64)?)?;
    let picked = d.ravel()?.take(&flat, 0)?;
    let ix = coo.row().dtype();
    let v = op.call(coo.data(), &picked).map_err(|e| e.in_op(name))?;
    CooArray::from_parts(v, coo.row().clone(), coo.col().clone(), shape, true, ix)
}

/// `op` of two sparse arrays over the union of their stored positions, zeros dropped.
pub(crate) fn binop<A: Sparse + ?Sized>(
    a: &A,
    b: &dyn Sparse,
    op: BinaryOp,
    name: &'static str,
) -> Result<SparseArray> {
    let shape = a.shape();
    if b.shape() != shape {
        return Err(shape_error(name, &shape, &b.shape()));
    }
    let (ca, cb) = (a.canonical_csr()?, b.canonical_csr()?);
    let ptrs = [ca.indptr().dtype(), cb.indptr().dtype()];
    let ix_for = |nnz: usize| super::index_dtype_for(&ptrs, shape[0].max(shape[1]).max(nnz));
    let bool_sub = op == BinaryOp::Sub && ca.dtype() == DType::Bool && cb.dtype() == DType::Bool;
    let seam = if bool_sub { None } else { super::seam::binop(&ca.0, &cb.0, op, ix_for(ca.nnz() + cb.nnz()))? };
    if let Some(b) = seam {
        let ix = ix_for(b.indices.size());
        let (indptr, indices, data) = (b.indptr.cast_if(ix)?, b.indices.cast_if(ix)?, b.data);
        let csr =
            CsrArray(Compressed { indptr, indices, data, dims: shape, canonical: true, other: Default::default() });
        return in_format(a, op, csr);
    }
    let cols = super::keys::key_span(name, shape[0], shape[1])?;
    let key = |c: &CsrArray| -> Result<Array> {
        let coo = c.tocoo()?;
        coo.row().cast_if(DType::I64)?.mul(cols)?.add(&coo.col().cast_if(DType::I64)?)
    };
    let (ka, kb) = (key(&ca)?, key(&cb)?);
    let union = crate::unique_values(&crate::concatenate(&[&ka, &kb], 0)?)?;
    // each operand's values on the union (zero where it stores nothing)
    let on_union = |k: &Array, data: &Array| -> Result<Array> {
        let v = get_array_module(data).zeros([union.size()], data.dtype())?;
        if k.size() > 0 {
            crate::scatter_add(&v, &crate::searchsorted(&union, k, Side::Left, None)?, data)?;
        }
        Ok(v)
    };
    let (va, vb) = (on_union(&ka, ca.data())?, on_union(&kb, cb.data())?);
    // bool subtraction as SciPy's: a value stays where exactly one side holds true
    let op =
        if op == BinaryOp::Sub && va.dtype() == DType::Bool && vb.dtype() == DType::Bool { BinaryOp::Ne } else { op };
    let r = op.call(&va, &vb).map_err(|e| e.in_op(name))?;
    let keep = r.ne(0)?;
    let (keys, vals) = (crate::compress(&keep, &union, 0)?, crate::compress(&keep, &r, 0)?);
    let (row, col) = (keys.floor_divide(cols)?, keys.remainder(cols)?);
    let ix = ix_for(keys.size());
    let csr = CsrArray(Compressed {
        indptr: offsets(&row, shape[0], ix)?,
        indices: col.cast_if(ix)?,
        data: vals,
        dims: shape,
        canonical: true,
        other: Default::default(),
    });
    in_format(a, op, csr)
}

/// The result `csr` of `a op b` in SciPy's format for it.
fn in_format<A: Sparse + ?Sized>(a: &A, op: BinaryOp, csr: CsrArray) -> Result<SparseArray> {
    match (a.format(), op) {
        // (SciPy's BSR maximum and minimum go through CSR)
        (Format::Bsr, BinaryOp::Max | BinaryOp::Min) => Ok(SparseArray::Csr(csr)),
        _ => like(a, csr),
    }
}

/// `csr` in the format SciPy gives a result of `a`'s arithmetic: `a`'s own where it is CSC or
/// BSR (of its block size), CSR otherwise.
pub(crate) fn like<A: Sparse + ?Sized>(a: &A, csr: CsrArray) -> Result<SparseArray> {
    Ok(match (a.format(), a.blocksize()) {
        (Format::Csc, _) => SparseArray::Csc(csr.tocsc()?),
        (Format::Bsr, Some(b)) => SparseArray::Bsr(csr.tobsr(Some(b))?),
        _ => SparseArray::Csr(csr),
    })
}

impl crate::OnDevice for dyn Sparse + '_ {
    fn on_device(&self) -> xp_core::Device {
        self.device()
    }
}

macro_rules! on_device {
    ($($t:ty),*) => {$(
        impl crate::OnDevice for $t {
            fn on_device(&self) -> xp_core::Device {
                Sparse::device(self)
            }
        }
    )*};
}
on_device!(CsrArray, CscArray, CooArray, DiaArray, BsrArray, SparseArray);

/// `Sparse` for a format type: its own shape, dtype and device, its format, and how it becomes
/// canonical CSR.
macro_rules! sparse_format {
    ($($t:ident => $f:ident, $canonical:ident);*) => {$(
        impl Sparse for $t {
            fn shape(&self) -> [usize; 2] {
                $t::shape(self)
            }
            fn format(&self) -> Format {
                Format::$f
            }
            fn dtype(&self) -> DType {
                $t::dtype(self)
            }
            fn device(&self) -> xp_core::Device {
                $t::device(self)
            }
            fn canonical_csr(&self) -> Result<CsrArray> {
                self.$canonical()
            }
            fn stored_coo(&self) -> Result<CooArray> {
                stored_coo!($t, self)
            }
        }
    )*};
}
macro_rules! stored_coo {
    (CsrArray, $s:expr) => {
        $s.tocoo()
    };
    (CscArray, $s:expr) => {
        $s.tocoo()
    };
    ($t:ident, $s:expr) => {
        $s.canonical_csr()?.tocoo()
    };
}
sparse_format!(CsrArray => Csr, sum_duplicates; CscArray => Csc, tocsr; CooArray => Coo, tocsr; DiaArray => Dia, tocsr);

impl Sparse for BsrArray {
    fn shape(&self) -> [usize; 2] {
        BsrArray::shape(self)
    }
    fn format(&self) -> Format {
        Format::Bsr
    }
    fn dtype(&self) -> DType {
        BsrArray::dtype(self)
    }
    fn device(&self) -> xp_core::Device {
        BsrArray::device(self)
    }
    fn blocksize(&self) -> Option<[usize; 2]> {
        Some(BsrArray::blocksize(self))
    }
    fn canonical_csr(&self) -> Result<CsrArray> {
        self.tocsr()?.sum_duplicates()
    }
}

impl Sparse for SparseArray {
    fn shape(&self) -> [usize; 2] {
        SparseArray::shape(self)
    }
    fn format(&self) -> Format {
        SparseArray::format(self)
    }
    fn dtype(&self) -> DType {
        SparseArray::dtype(self)
    }
    fn device(&self) -> xp_core::Device {
        SparseArray::device(self)
    }
    fn blocksize(&self) -> Option<[usize; 2]> {
        match self {
            SparseArray::Bsr(a) => Some(a.blocksize()),
            _ => None,
        }
    }
    fn canonical_csr(&self) -> Result<CsrArray> {
        match self {
            SparseArray::Csr(a) => a.sum_duplicates(),
            _ => self.tocsr(),
        }
    }
    fn stored_coo(&self) -> Result<CooArray> {
        match self {
            SparseArray::Csr(a) => a.tocoo(),
            SparseArray::Csc(a) => a.tocoo(),
            _ => self.canonical_csr()?.tocoo(),
        }
    }
}
