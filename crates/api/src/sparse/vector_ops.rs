//! Arithmetic, products and reductions of 1-D sparse arrays ([`Sparse1d`]), as SciPy's: `add`,
//! `sub`, `multiply`, `maximum`, `minimum` and comparisons of two give a 1-D CSR array
//! (zeros dropped, whichever format is on the left); `multiply_dense` a 1-D COO array;
//! `add_dense` and `divide` a dense one; a product with a dense vector, or with a sparse one, a
//! 0-d array; `v @ X` for a dense or sparse matrix `X` a dense or 1-D COO vector; reductions
//! over the whole array a 0-d array. Each runs as the same operation on the `1 × n` row of the
//! stored values ([`Sparse1d::as_row`]), so it holds on every device and dtype the 2-D one does.
//!
//! ```
//! use xp::sparse::{CsrArray1d, Sparse1d};
//! let v = CsrArray1d::from_dense(&xp::Array::from_vec(vec![1i64, 0, -2, 0], &[4]).unwrap()).unwrap();
//! let w = CsrArray1d::from_dense(&xp::Array::from_vec(vec![-1i64, 0, 3, 5], &[4]).unwrap()).unwrap();
//! let s = v.add(&w).unwrap(); // the sum at 0 is zero and is not stored
//! assert_eq!(s.indices().to_vec::<i32>().unwrap(), vec![2, 3]);
//! assert_eq!(v.dot_sparse(&w).unwrap().to_i64().unwrap(), -7);
//! assert_eq!(v.max(false).unwrap().to_i64().unwrap(), 1);
//! assert_eq!(v.argmin(false).unwrap().to_i64().unwrap(), 2);
//! ```
use super::compressed::Compressed;
use super::vector::{of_2d, one_line, CooArray1d, CsrArray1d, SparseArray1d};
use super::{shape_error, CooArray, CsrArray, Format, Sparse, SparseArray};
use crate::{Array, Matmul};
use xp_core::{BinaryOp, DType, Device, Error, Result, Scalar};

/// What both 1-D sparse formats offer; the arithmetic, products and reductions come with it.
pub trait Sparse1d {
    /// The shape `[len]`.
    fn shape(&self) -> [usize; 1];
    /// The storage format (COO or CSR).
    fn format(&self) -> Format;
    /// The value dtype.
    fn dtype(&self) -> DType;
    /// The device the parts live on.
    fn device(&self) -> Device;
    /// The `1 × len` CSR array of the same stored values (SciPy's `reshape(1, -1)`, as CSR).
    fn as_row(&self) -> CsrArray;

    /// `self + other` of one length: CSR without zero sums (SciPy's `v + w`).
    fn add(&self, other: &dyn Sparse1d) -> Result<CsrArray1d> {
        pairwise(self, other, "add", |a, b| Sparse::add(a, b))
    }
    /// `self - other`.
    fn sub(&self, other: &dyn Sparse1d) -> Result<CsrArray1d> {
        pairwise(self, other, "subtract", |a, b| Sparse::sub(a, b))
    }
    /// The elementwise product (SciPy's `multiply`, `*` of sparse arrays).
    fn multiply(&self, other: &dyn Sparse1d) -> Result<CsrArray1d> {
        pairwise(self, other, "multiply", |a, b| Sparse::multiply(a, b))
    }
    /// The elementwise maximum, an absent entry counting as zero.
    fn maximum(&self, other: &dyn Sparse1d) -> Result<CsrArray1d> {
        pairwise(self, other, "maximum", |a, b| Sparse::maximum(a, b))
    }
    /// The elementwise minimum, an absent entry counting as zero.
    fn minimum(&self, other: &dyn Sparse1d) -> Result<CsrArray1d> {
        pairwise(self, other, "minimum", |a, b| Sparse::minimum(a, b))
    }
    /// `self op other` for a comparison `op`: a bool CSR array (as [`Sparse::compare`]).
    fn compare(&self, other: &dyn Sparse1d, op: BinaryOp) -> Result<CsrArray1d> {
        pairwise(self, other, "compare", |a, b| Sparse::compare(a, b, op))
    }
    /// `self op s` for a comparison `op` and a scalar (as [`Sparse::compare_scalar`]).
    fn compare_scalar(&self, s: Scalar, op: BinaryOp) -> Result<CsrArray1d> {
        Ok(CsrArray1d(of_2d(&self.as_row().compare_scalar(s, op)?)?))
    }
    /// `self / other` of two sparse arrays: a dense array (as [`Sparse::divide`]).
    fn divide(&self, other: &dyn Sparse1d) -> Result<Array> {
        same_length(self, other, "divide")?;
        self.as_row().divide(&other.as_row())?.reshape(&self.shape()[..])
    }
    /// `self + dense` (`dense` of one element or this length): a dense array.
    fn add_dense(&self, dense: &Array) -> Result<Array> {
        fits(self, dense, "add")?;
        self.as_row().add_dense(dense)?.reshape(&self.shape()[..])
    }
    /// The elementwise product with `dense` (one element or this length): a COO array over the
    /// stored positions, as SciPy's `multiply`.
    fn multiply_dense(&self, dense: &Array) -> Result<CooArray1d> {
        fits(self, dense, "multiply")?;
        coo_of(&self.as_row().multiply_dense(dense)?)
    }
    /// `self / dense` as SciPy computes it (`multiply` by `1 / dense` over the stored
    /// positions): COO, or CSR where this is CSR and `dense` holds one value.
    fn divide_dense(&self, dense: &Array) -> Result<SparseArray1d> {
        fits(self, dense, "divide")?;
        let r = self.as_row().divide_dense(dense)?;
        in_format(if dense.size() == 1 { self.format() } else { Format::Coo }, of_2d(&r)?)
    }
    /// `self / s` (SciPy's true division by a scalar): this format, the stored values times
    /// `1 / s`, in float64 where the dtype casts to it safely (duplicates summed where that
    /// casts, kept otherwise, as SciPy's).
    fn divide_scalar(&self, s: f64) -> Result<SparseArray1d> {
        let dt = if xp_core::can_cast_safe(self.dtype(), DType::F64) { DType::F64 } else { self.dtype() };
        // (SciPy casts first, which sums duplicates; it keeps them where no cast is needed)
        let row = if dt == self.dtype() { self.as_row().0 } else { self.as_row().0.canonicalized()? };
        let data = row.data.astype(dt)?.mul(1.0 / s)?;
        in_format(self.format(), Compressed { data, ..row })
    }
    /// `self @ x` for a dense `x` of shape `(n,)` (a 0-d array) or `(n, k)` (a 1-D array of `k`).
    fn matmul(&self, x: &Array) -> Result<Array> {
        let n = self.shape()[0];
        aligned("matmul", &[n], x, 0)?;
        let row = self.as_row();
        if x.ndim() == 1 && row.device() != Device::Cpu {
            // the values times `x` where they are, summed: a GPU's product of a one-row matrix
            // would run on one block (the CPU's splits the row between its cores)
            return products_summed(&row.0.data, &x.take(&row.0.indices, 0)?);
        }
        let y = row.matmul(x)?;
        y.reshape(&y.shape()[1..])
    }
    /// `x @ self` for a dense `x` of shape `(n,)` (a 0-d array) or `(m, n)` (a 1-D array of `m`).
    fn rmatmul(&self, x: &Array) -> Result<Array> {
        let n = self.shape()[0];
        if x.ndim() == 1 {
            return self.matmul(x);
        }
        aligned("matmul", &[n], x, 1)?;
        self.as_row().transpose().rmatmul(x)?.reshape(&x.shape()[..1])
    }
    /// `self @ b` for a sparse matrix `b` of `n` rows: a 1-D COO array (SciPy's).
    fn matmul_sparse(&self, b: &dyn Sparse) -> Result<CooArray1d> {
        let n = self.shape()[0];
        if b.shape()[0] != n {
            return Err(not_aligned(&[n], &b.shape(), 0, 0));
        }
        Ok(CooArray1d(of_2d(&self.as_row().matmul_sparse(b)?)?))
    }
    /// `self @ other` of two sparse vectors: their inner product, a 0-d array in the product's
    /// dtype (SciPy's).
    fn dot_sparse(&self, other: &dyn Sparse1d) -> Result<Array> {
        if self.shape() != other.shape() {
            return Err(not_aligned(&self.shape(), &other.shape(), 0, 0));
        }
        // each of `other`'s values times this one's at its position (found by a search of the
        // sorted positions), summed
        let mine = self.as_row().sum_duplicates()?.0;
        let theirs = other.as_row().0;
        let nnz = mine.data.size();
        if nnz == 0 || theirs.data.size() == 0 {
            return products_summed(
                &mine.data.slice([xp_core::SliceElem::from(0..0)])?,
                &theirs.data.slice([xp_core::SliceElem::from(0..0)])?,
            );
        }
        let at =
            crate::searchsorted(&mine.indices, &theirs.indices, xp_core::Side::Left, None)?.minimum(nnz as i64 - 1)?;
        let hit = mine.indices.take(&at, 0)?.eq(&theirs.indices)?;
        let zero = crate::get_array_module(&mine.data).zeros([1], mine.data.dtype())?;
        let mine_there = crate::where_(&hit, &mine.data.take(&at, 0)?, &zero)?;
        products_summed(&mine_there, &theirs.data)
    }
    /// The sum of the values, duplicates summed first (a 0-d array in NumPy's sum dtype; SciPy's
    /// `sum()`: a bool array's duplicates count once).
    fn sum(&self) -> Result<Array> {
        self.as_row().sum_duplicates()?.sum(None)
    }
    /// The mean, absent entries counting (float64 for integers and bool).
    fn mean(&self) -> Result<Array> {
        Sparse::mean(&self.as_row().sum_duplicates()?, None)
    }
    /// The largest value, absent entries counting as zeros unless `explicit` (a 0-d array).
    fn max(&self, explicit: bool) -> Result<Array> {
        Sparse::max(&self.as_row(), None, explicit)
    }
    /// The smallest value, as [`Self::max`].
    fn min(&self, explicit: bool) -> Result<Array> {
        Sparse::min(&self.as_row(), None, explicit)
    }
    /// The position of the first largest value (a 0-d int64 array; as [`Sparse::argmax`]).
    fn argmax(&self, explicit: bool) -> Result<Array> {
        Sparse::argmax(&self.as_row(), None, explicit)
    }
    /// The position of the first smallest value.
    fn argmin(&self, explicit: bool) -> Result<Array> {
        Sparse::argmin(&self.as_row(), None, explicit)
    }
}

/// `Σ a·b` of two vectors of one length as a matrix product forms it: in the promoted dtype
/// (integers wrapping, bool an or of ands), a 0-d array.
fn products_summed(a: &Array, b: &Array) -> Result<Array> {
    let dt = xp_core::promote_types(a.dtype(), b.dtype());
    // half precision multiplies and adds in float32, as the products with dense operands do
    let wide = if matches!(dt, DType::F16 | DType::BF16) { DType::F32 } else { dt };
    // (NumPy's sum widens integers and counts bools: the cast back wraps, or tests for any)
    a.cast_if(wide)?.mul(&b.cast_if(wide)?)?.sum(..)?.cast_if(dt)
}

/// The typed error of operands of different lengths.
fn same_length<A: Sparse1d + ?Sized>(a: &A, b: &dyn Sparse1d, op: &'static str) -> Result<()> {
    if a.shape() != b.shape() {
        return Err(shape_error(op, &a.shape(), &b.shape()));
    }
    Ok(())
}

/// `f` of the rows of two arrays of one length, as a 1-D CSR array.
fn pairwise<A: Sparse1d + ?Sized>(
    a: &A,
    b: &dyn Sparse1d,
    op: &'static str,
    f: impl FnOnce(&CsrArray, &CsrArray) -> Result<SparseArray>,
) -> Result<CsrArray1d> {
    same_length(a, b, op)?;
    Ok(CsrArray1d(of_2d(&f(&a.as_row(), &b.as_row())?)?))
}

/// A dense operand of an elementwise operation: at most one dimension, broadcasting to the length.
fn fits<A: Sparse1d + ?Sized>(a: &A, dense: &Array, op: &'static str) -> Result<()> {
    let n = a.shape()[0];
    match dense.shape() {
        [] => Ok(()),
        [m] if *m == n || *m == 1 => Ok(()),
        s => Err(shape_error(op, &[n], s)),
    }
}

/// The error of a product whose inner dimensions differ.
fn not_aligned(lhs: &[usize], rhs: &[usize], lhs_axis: usize, rhs_axis: usize) -> Error {
    Error::NotAligned {
        op: "matmul",
        lhs: lhs.to_vec(),
        rhs: rhs.to_vec(),
        lhs_axis,
        lhs_size: lhs[lhs_axis],
        rhs_axis,
        rhs_size: rhs.get(rhs_axis).copied().unwrap_or(0),
    }
}

/// A dense operand `x` of 1 or 2 dimensions whose axis `axis` is `v`'s length.
fn aligned(op: &'static str, v: &[usize], x: &Array, axis: usize) -> Result<()> {
    if x.ndim() == 0 || x.ndim() > 2 {
        return Err(Error::invalid(
            op,
            format!("the dense operand must be 1- or 2-dimensional, got shape {:?}", x.shape()),
        ));
    }
    if x.shape().get(axis) != Some(&v[0]) {
        return Err(not_aligned(v, x.shape(), 0, axis));
    }
    Ok(())
}

/// The `1 × n` COO result of an operation on the row as a 1-D COO array (its order kept).
fn coo_of(c: &CooArray) -> Result<CooArray1d> {
    let idx = c.col();
    Ok(CooArray1d(one_line(c.data().clone(), idx.clone(), c.shape()[1], c.has_canonical_format(), idx.dtype())?))
}

/// One line in `format`.
fn in_format(format: Format, c: Compressed) -> Result<SparseArray1d> {
    Ok(match format {
        Format::Csr => SparseArray1d::Csr(CsrArray1d(c)),
        _ => SparseArray1d::Coo(CooArray1d(c)),
    })
}

macro_rules! sparse_1d {
    ($($t:ident => $f:ident),*) => {$(
        impl Sparse1d for $t {
            fn shape(&self) -> [usize; 1] {
                $t::shape(self)
            }
            fn format(&self) -> Format {
                Format::$f
            }
            fn dtype(&self) -> DType {
                $t::dtype(self)
            }
            fn device(&self) -> Device {
                $t::device(self)
            }
            fn as_row(&self) -> CsrArray {
                CsrArray(self.0.clone())
            }
        }
        impl Matmul<Array> for $t {
            type Output = Array;
            fn matmul_with(&self, x: &Array) -> Result<Array> {
                Sparse1d::matmul(self, x)
            }
        }
        impl Matmul<$t> for Array {
            type Output = Array;
            fn matmul_with(&self, v: &$t) -> Result<Array> {
                Sparse1d::rmatmul(v, self)
            }
        }
        impl<B: Sparse> Matmul<B> for $t {
            type Output = CooArray1d;
            fn matmul_with(&self, b: &B) -> Result<CooArray1d> {
                Sparse1d::matmul_sparse(self, b)
            }
        }
        impl Matmul<CooArray1d> for $t {
            type Output = Array;
            fn matmul_with(&self, w: &CooArray1d) -> Result<Array> {
                self.dot_sparse(w)
            }
        }
        impl Matmul<CsrArray1d> for $t {
            type Output = Array;
            fn matmul_with(&self, w: &CsrArray1d) -> Result<Array> {
                self.dot_sparse(w)
            }
        }
    )*};
}
sparse_1d!(CooArray1d => Coo, CsrArray1d => Csr);

impl Sparse1d for SparseArray1d {
    fn shape(&self) -> [usize; 1] {
        SparseArray1d::shape(self)
    }
    fn format(&self) -> Format {
        SparseArray1d::format(self)
    }
    fn dtype(&self) -> DType {
        SparseArray1d::dtype(self)
    }
    fn device(&self) -> Device {
        SparseArray1d::device(self)
    }
    fn as_row(&self) -> CsrArray {
        CsrArray(self.line().clone())
    }
}

/// `A @ v` of a 2-D sparse array and a 1-D one (SciPy's: a 1-D COO array).
macro_rules! matrix_times_vector {
    ($($t:ty),*) => {$(
        impl Matmul<CooArray1d> for $t {
            type Output = CooArray1d;
            fn matmul_with(&self, v: &CooArray1d) -> Result<CooArray1d> {
                self.matmul_vector(v)
            }
        }
        impl Matmul<CsrArray1d> for $t {
            type Output = CooArray1d;
            fn matmul_with(&self, v: &CsrArray1d) -> Result<CooArray1d> {
                self.matmul_vector(v)
            }
        }
    )*};
}
matrix_times_vector!(super::CsrArray, super::CscArray, super::CooArray, super::DiaArray, super::BsrArray, SparseArray);

/// [`Sparse::matmul_vector`].
///
/// With finite values in `a`, the product with `v`'s dense form (SpMV: one pass over `a`, on
/// every core or the GPU) whose nonzeros are the result (SpGEMM's structure: the sums that are
/// not zero); otherwise SpGEMM, where an infinity times an absent zero stays out.
pub(crate) fn matrix_vector<A: Sparse + ?Sized>(a: &A, v: &dyn Sparse1d) -> Result<CooArray1d> {
    let (shape, n) = (a.shape(), v.shape()[0]);
    if shape[1] != n {
        return Err(not_aligned(&shape, &[n], 1, 0));
    }
    let csr = a.canonical_csr()?;
    let finite = match csr.dtype().kind() {
        xp_core::Kind::Float | xp_core::Kind::Complex => csr.data().isfinite()?.all(..)?.item::<bool>()?,
        _ => true,
    };
    if !finite {
        return Ok(CooArray1d(of_2d(&csr.matmul_sparse(&v.as_row().transpose())?)?));
    }
    let x = v.as_row().toarray()?.reshape(&[n][..])?;
    CooArray1d::from_dense(&csr.matmul(&x)?)
}
