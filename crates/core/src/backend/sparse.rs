//! The sparse family: products of a compressed sparse row (CSR) matrix with dense operands.
//!
//! The front end (`xp::sparse`) keeps every sparse format as xp arrays and writes what it can
//! once over the other families (conversions by sorting, sums by scatters); a backend provides
//! only the loops no composition makes fast. A compressed sparse column matrix is the CSR
//! matrix of its transpose, so one product serves both.
use super::unsupported;
use crate::{BackendStorage, DType, Layout, Result};

/// A CSR matrix as a backend sees it: contiguous storages, indices of one dtype (int32 or
/// int64), checked by the front end (`indptr` non-decreasing from 0 to `nnz`, every index in
/// `0..cols`; duplicates and unsorted rows allowed: their products add up).
#[derive(Clone, Copy, Debug)]
pub struct CsrParts<'a, S> {
    /// `rows + 1` offsets into `indices` and `data`
    pub indptr: &'a S,
    /// the column of each stored value
    pub indices: &'a S,
    /// the stored values
    pub data: &'a S,
    /// rows of the matrix
    pub rows: usize,
    /// columns of the matrix
    pub cols: usize,
}

/// The parts of a CSR matrix a backend built.
#[derive(Clone, Debug)]
pub struct CsrBuilt<S> {
    /// `rows + 1` offsets
    pub indptr: S,
    /// the column of each value
    pub indices: S,
    /// the values
    pub data: S,
}

impl<S> CsrBuilt<S> {
    /// The same parts through `f` (to wrap a backend's storages).
    pub fn map<T>(self, mut f: impl FnMut(S) -> T) -> CsrBuilt<T> {
        CsrBuilt { indptr: f(self.indptr), indices: f(self.indices), data: f(self.data) }
    }
}

/// The sparse family of a backend's storage.
pub trait SparseStorage: BackendStorage {
    /// `A @ X` for the CSR matrix `a` (values of `X`'s dtype) and the dense `X` at `xl`, of shape
    /// `(a.cols, k)` (any strides): a new C-contiguous `(a.rows, k)` storage. Sums run in the
    /// dtype's arithmetic as NumPy's `matmul` does (integers wrap, bool is or-of-ands, float16
    /// and bfloat16 accumulate in float32 and round once).
    fn csr_matmul(_a: &CsrParts<'_, Self>, _x: &Self, _xl: &Layout) -> Result<Self> {
        unsupported("csr_matmul", Self::NAME)
    }
    /// `Aᵀ @ X` for the CSR matrix `a` and the dense `X` at `xl`, of shape `(a.rows, k)`: a new
    /// C-contiguous `(a.cols, k)` storage, sums as [`Self::csr_matmul`]'s. A backend without it
    /// answers `Unsupported` and the front end multiplies by the transpose's CSR form instead.
    fn csr_matmul_t(_a: &CsrParts<'_, Self>, _x: &Self, _xl: &Layout) -> Result<Self> {
        unsupported("csr_matmul_t", Self::NAME)
    }
    /// `A @ B` of two CSR matrices (values of one dtype, indices of dtype `ix` in both,
    /// `a.cols == b.rows`): the CSR parts of the product, no column twice in a row but in any
    /// order (as SciPy's `csr_matmat`), indices of dtype `ix` (which the caller picked to hold
    /// the product's size). Positions whose sum is zero may be kept: the front end drops them. A backend without it answers
    /// `Unsupported` and the front end composes the product from gathers and a sort.
    fn csr_spgemm(_a: &CsrParts<'_, Self>, _b: &CsrParts<'_, Self>, _ix: DType) -> Result<CsrBuilt<Self>> {
        unsupported("csr_spgemm", Self::NAME)
    }
    /// The canonical CSR parts of the coordinates `row`, `col` (contiguous int64, checked to lie in
    /// `0..rows` and `0..cols`) and values `data` (contiguous, one per coordinate): columns
    /// sorted within each row, values at one position added in their given order (NumPy's
    /// addition of the dtype), index arrays of dtype `ix` (int32 or int64). A backend without
    /// it answers `Unsupported` and the front end composes the same from sorts and scatters.
    fn coo_to_csr(_row: &Self, _col: &Self, _data: &Self, _shape: [usize; 2], _ix: DType) -> Result<CsrBuilt<Self>> {
        unsupported("coo_to_csr", Self::NAME)
    }
    /// Runs of `indices` and `data` (contiguous, one length) put end to end: run `q` starts at
    /// `starts[q]` in them and is `ptr[q + 1] - ptr[q]` long, and goes to `ptr[q]` in the result
    /// (`starts`, `ptr` contiguous int64, `ptr` non-decreasing from 0 to `total`, every run inside
    /// the parts: checked by the front end). The selected lines of a compressed array: new
    /// `(indices, data)` of `total` values, indices of dtype `ix`. A backend without it answers `Unsupported` and the front end
    /// composes the same from gathers.
    fn gather_runs(
        _indices: &Self,
        _data: &Self,
        _starts: &Self,
        _ptr: &Self,
        _total: usize,
        _ix: DType,
    ) -> Result<(Self, Self)> {
        unsupported("gather_runs", Self::NAME)
    }
}
