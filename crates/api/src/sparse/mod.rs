//! Sparse arrays with SciPy's sparse *array* semantics (`scipy.sparse.csr_array`, not
//! `csr_matrix`): [`CsrArray`] (compressed rows: row access and products), [`CscArray`]
//! (compressed columns), [`CooArray`] (coordinates: construction), [`DiaArray`] (diagonals) and
//! [`BsrArray`] (dense blocks); in one dimension [`CooArray1d`] and [`CsrArray1d`] (SciPy's 1-D
//! `coo_array` and `csr_array`: a row `A[i]`, `max` along an axis). Their parts (`data`, `indices`, `indptr`, `row`, `col`, `offsets`)
//! are xp arrays, so a sparse array lives on any device,
//! holds any of xp's value dtypes, and its index arrays are int32 or int64, chosen as SciPy's
//! `get_index_dtype` does ([`index_dtype`]).
//!
//! Most operations are written once here over xp's other families (sorting, scatters,
//! searches); the product with a dense operand is the backend's ([`xp_core::SparseStorage`]).
//!
//! ```
//! use xp::sparse::CsrArray;
//! // the CuPy course's example: A = csr_matrix(A_dense); A @ b
//! let dense = xp::Array::from_vec(vec![1.0f64, 0.0, 2.0, 0.0, 0.0, 0.0, 3.0, 1.0, 5.0], &[3, 3]).unwrap();
//! let a = CsrArray::from_dense(&dense).unwrap();
//! assert_eq!(a.nnz(), 5);
//! let b = xp::Array::from_vec(vec![2.0f64, 1.0, 2.0], &[3]).unwrap();
//! assert_eq!(a.matmul(&b).unwrap().to_vec::<f64>().unwrap(), vec![6.0, 0.0, 17.0]);
//! // SciPy's constructor from coordinates sums duplicates
//! let row = xp::Array::from_vec(vec![0i64, 0, 2], &[3]).unwrap();
//! let col = xp::Array::from_vec(vec![1i64, 1, 0], &[3]).unwrap();
//! let data = xp::Array::from_vec(vec![1.0f32, 2.0, 5.0], &[3]).unwrap();
//! let c = CsrArray::from_triplets(&data, &row, &col, [3, 2]).unwrap();
//! assert_eq!(c.toarray().unwrap().to_vec::<f32>().unwrap(), vec![0.0, 3.0, 0.0, 0.0, 5.0, 0.0]);
//! assert_eq!(c.transpose().shape(), [2, 3]);
//! ```
mod arith;
mod assign;
mod blocks;
mod bsr;
mod compare;
mod compressed;
mod construct;
mod coo;
pub mod csgraph;
mod dia;
mod index;
#[cfg(feature = "io")]
mod io;
mod keys;
pub mod linalg;
mod mm;
mod operators;
mod reduce;
mod seam;
mod spgemm;
mod structure;
mod ufuncs;
mod vector;
mod vector_ops;

pub use arith::Sparse;
pub use blocks::{block_array, kronsum};
pub use bsr::BsrArray;
pub(crate) use compressed::{exact, is_exact};
pub use compressed::{CscArray, CsrArray};
pub use construct::{diags_array, eye, identity, random_array, spdiags};
pub use coo::CooArray;
pub use dia::DiaArray;
#[cfg(feature = "io")]
pub use io::{load_npz, load_npz_1d, load_npz_1d_on, load_npz_on, save_npz, save_npz_1d};
pub use mm::{mmread, mmwrite};
pub use structure::{block_diag, find, hstack, kron, tril, triu, vstack};
pub use vector::{CooArray1d, CsrArray1d, SparseArray1d};
pub use vector_ops::Sparse1d;

use xp_core::{DType, Error, Result};

/// The index dtype SciPy's `get_index_dtype` picks for a largest value `maxval` (a dimension or
/// the number of stored values): int32 where it fits, int64 beyond.
pub fn index_dtype(maxval: usize) -> DType {
    if maxval <= i32::MAX as usize {
        DType::I32
    } else {
        DType::I64
    }
}

/// SciPy's choice for parts given as arrays of `given` dtypes: int64 where a dimension or count
/// (`maxval`) needs it or where a given array's dtype does not cast safely to int32 (int64,
/// uint32, uint64: SciPy keeps such arrays' width), int32 otherwise.
pub(crate) fn index_dtype_for(given: &[DType], maxval: usize) -> DType {
    if given.iter().any(|d| matches!(d, DType::I64 | DType::U32 | DType::U64)) {
        DType::I64
    } else {
        index_dtype(maxval)
    }
}

/// A sparse array's storage format (SciPy's `format` attribute).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Format {
    /// compressed sparse rows (`"csr"`)
    #[default]
    Csr,
    /// compressed sparse columns (`"csc"`)
    Csc,
    /// coordinates (`"coo"`)
    Coo,
    /// diagonals (`"dia"`)
    Dia,
    /// dense blocks (`"bsr"`)
    Bsr,
}

impl Format {
    /// SciPy's name of the format.
    pub fn name(self) -> &'static str {
        match self {
            Format::Csr => "csr",
            Format::Csc => "csc",
            Format::Coo => "coo",
            Format::Dia => "dia",
            Format::Bsr => "bsr",
        }
    }
}

/// A sparse array of any format: what a function with a `format` argument returns.
#[derive(Clone, Debug)]
pub enum SparseArray {
    /// compressed rows
    Csr(CsrArray),
    /// compressed columns
    Csc(CscArray),
    /// coordinates
    Coo(CooArray),
    /// diagonals
    Dia(DiaArray),
    /// dense blocks
    Bsr(BsrArray),
}

/// `$e` with `$a` bound to the format's array, whichever it is.
macro_rules! each {
    ($s:expr, $a:ident => $e:expr) => {
        match $s {
            SparseArray::Csr($a) => $e,
            SparseArray::Csc($a) => $e,
            SparseArray::Coo($a) => $e,
            SparseArray::Dia($a) => $e,
            SparseArray::Bsr($a) => $e,
        }
    };
}

impl SparseArray {
    /// The format.
    pub fn format(&self) -> Format {
        match self {
            SparseArray::Csr(_) => Format::Csr,
            SparseArray::Csc(_) => Format::Csc,
            SparseArray::Coo(_) => Format::Coo,
            SparseArray::Dia(_) => Format::Dia,
            SparseArray::Bsr(_) => Format::Bsr,
        }
    }
    /// The shape (rows, columns).
    pub fn shape(&self) -> [usize; 2] {
        each!(self, a => a.shape())
    }
    /// The value dtype.
    pub fn dtype(&self) -> DType {
        each!(self, a => a.dtype())
    }
    /// The device the parts live on.
    pub fn device(&self) -> xp_core::Device {
        each!(self, a => a.device())
    }
    /// Stored values, explicit zeros and duplicates included.
    pub fn nnz(&self) -> usize {
        each!(self, a => a.nnz())
    }
    /// The dense array (duplicates summed).
    pub fn toarray(&self) -> Result<crate::Array> {
        each!(self, a => a.toarray())
    }
    /// `A @ x` for a dense `x` (the format's own product).
    pub fn matmul(&self, x: &crate::Array) -> Result<crate::Array> {
        each!(self, a => a.matmul(x))
    }
    /// `x @ A` for a dense `x` (the format's own product).
    pub fn rmatmul(&self, x: &crate::Array) -> Result<crate::Array> {
        each!(self, a => a.rmatmul(x))
    }
    /// Every stored value multiplied by `s`, the format kept.
    pub fn mul_scalar(&self, s: impl Into<xp_core::Scalar>) -> Result<SparseArray> {
        let s = s.into();
        each!(self, a => a.mul_scalar(s).map(SparseArray::from))
    }
    /// The transpose in SciPy's format for it: CSC for CSR and the reverse, the same format
    /// otherwise (BSR of blocks `(C, R)`).
    pub fn transpose(&self) -> Result<SparseArray> {
        Ok(match self {
            SparseArray::Csr(a) => SparseArray::Csc(a.transpose()),
            SparseArray::Csc(a) => SparseArray::Csr(a.transpose()),
            SparseArray::Coo(a) => SparseArray::Coo(a.transpose()),
            SparseArray::Dia(a) => SparseArray::Dia(a.transpose()?),
            SparseArray::Bsr(a) => SparseArray::Bsr(a.transpose()?),
        })
    }
    /// `-A`, the format kept.
    pub fn neg(&self) -> Result<SparseArray> {
        each!(self, a => a.neg().map(SparseArray::from))
    }
    /// The same matrix as CSR (SciPy's `tocsr`).
    pub fn tocsr(&self) -> Result<CsrArray> {
        match self {
            SparseArray::Csr(a) => Ok(a.clone()),
            SparseArray::Csc(a) => a.tocsr(),
            SparseArray::Coo(a) => a.tocsr(),
            SparseArray::Dia(a) => a.tocsr(),
            SparseArray::Bsr(a) => a.tocsr(),
        }
    }
    /// The same matrix in `format` (SciPy's `asformat`; BSR in the block size SciPy's
    /// `estimate_blocksize` picks, or as it is where it is BSR already).
    pub fn asformat(&self, format: Format) -> Result<SparseArray> {
        Ok(match format {
            Format::Csr => SparseArray::Csr(self.tocsr()?),
            Format::Csc => SparseArray::Csc(match self {
                SparseArray::Csc(a) => a.clone(),
                SparseArray::Csr(a) => a.tocsc()?,
                SparseArray::Coo(a) => a.tocsc()?,
                SparseArray::Dia(a) => a.tocsc()?,
                SparseArray::Bsr(a) => a.tocsc()?,
            }),
            Format::Coo => SparseArray::Coo(match self {
                SparseArray::Coo(a) => a.clone(),
                SparseArray::Csr(a) => a.tocoo()?,
                SparseArray::Csc(a) => a.tocoo()?,
                SparseArray::Dia(a) => a.tocoo()?,
                SparseArray::Bsr(a) => a.tocoo()?,
            }),
            Format::Dia => SparseArray::Dia(match self {
                SparseArray::Dia(a) => a.clone(),
                SparseArray::Csr(a) => a.todia()?,
                SparseArray::Csc(a) => a.todia()?,
                SparseArray::Coo(a) => a.todia()?,
                SparseArray::Bsr(a) => a.todia()?,
            }),
            Format::Bsr => SparseArray::Bsr(match self {
                SparseArray::Bsr(a) => a.clone(),
                other => other.tocsr()?.tobsr(None)?,
            }),
        })
    }
}

thread_local! {
    static GENERIC: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// For tests: on this thread, skip the backends' own conversion and transposed product and run
/// the front end's compositions that a backend without them gets (the results are the same).
#[doc(hidden)]
pub fn force_generic(on: bool) {
    GENERIC.with(|g| g.set(on));
}

/// Whether [`force_generic`] is on for this thread.
pub(crate) fn generic() -> bool {
    GENERIC.with(|g| g.get())
}

/// The parts a constructor is given: every array 1-D, the index arrays integers on `data`'s
/// device.
pub(crate) fn check_vectors(op: &'static str, data: &crate::Array, index: [(&str, &crate::Array); 2]) -> Result<()> {
    for (name, a) in [("data", data)].into_iter().chain(index) {
        if a.ndim() != 1 {
            return Err(Error::invalid(op, format!("{name} must be 1-dimensional, got shape {:?}", a.shape())));
        }
    }
    for (_, a) in index {
        if !matches!(a.dtype().kind(), xp_core::Kind::Int | xp_core::Kind::Uint) {
            return Err(Error::IndexDType { op, dtype: a.dtype() });
        }
        if a.device() != data.device() {
            return Err(Error::DeviceMismatch { op, lhs: data.device(), rhs: a.device() });
        }
    }
    Ok(())
}

/// The error of an operand whose shape does not fit.
pub(crate) fn shape_error(op: &'static str, lhs: &[usize], rhs: &[usize]) -> Error {
    Error::ShapeMismatch { op, lhs: lhs.to_vec(), rhs: rhs.to_vec() }
}

macro_rules! into_any {
    ($($t:ident => $v:ident),*) => {$(
        impl From<$t> for SparseArray {
            fn from(a: $t) -> SparseArray {
                SparseArray::$v(a)
            }
        }
        impl From<&$t> for SparseArray {
            fn from(a: &$t) -> SparseArray {
                SparseArray::$v(a.clone())
            }
        }
    )*};
}
into_any!(CsrArray => Csr, CscArray => Csc, CooArray => Coo, DiaArray => Dia, BsrArray => Bsr);
