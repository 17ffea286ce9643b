//! The sparse family: products of a compressed sparse row (CSR) matrix with dense operands.
//!
//! The front end (`xp::sparse`) keeps every sparse format as xp arrays and writes what it can
//! once over the other families (conversions by sorting, sums by scatters); a backend provides
//! only the loops no composition makes fast. A compressed sparse column matrix is the CSR
//! matrix of its transpose, so one product serves both.
use super::unsupported;
use crate::{BackendStorage, BinaryOp, DType, Layout, Result};

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

/// A BSR matrix as a backend sees it: the CSR structure of its block grid (`grid.rows` block
/// rows, `grid.cols` block columns, `grid.indices` the block column of each block) whose
/// `grid.data` holds the blocks, `R · C` values each in C order; checked by the front end.
#[derive(Clone, Copy, Debug)]
pub struct BsrParts<'a, S> {
    /// the block grid, values block by block
    pub grid: CsrParts<'a, S>,
    /// the block shape `[R, C]`
    pub block: [usize; 2],
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

/// How a backend's conjugate-gradient run ([`SparseStorage::csr_cg`]) ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CgRun {
    /// the iterations made (the updates of `x`)
    pub iterations: usize,
    /// whether the residual's norm fell below the tolerance before `maxiter` iterations
    pub converged: bool,
    /// the last residual's norm, `‖r‖`
    pub residual: f64,
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
    /// SciPy's conjugate gradients without a preconditioner on the square CSR matrix `a`
    /// (values of a real floating dtype) from the iterate `x` and its residual `r = b − A x`
    /// (contiguous, `a.rows` values of `a`'s dtype; neither is modified): before each
    /// iteration the test `‖r‖ < atol` (converged), at most `maxiter` iterations
    /// (`p ← r + (ρ/ρ′) p`, `q ← A p`, `α = ρ / pᵀq`, `x ← x + α p`, `r ← r − α q`, `ρ = rᵀr`).
    /// The final iterate and the report. A backend without it answers `Unsupported` and the
    /// front end runs the iteration from its other families.
    fn csr_cg(_a: &CsrParts<'_, Self>, _x: &Self, _r: &Self, _atol: f64, _maxiter: usize) -> Result<(Self, CgRun)> {
        unsupported("csr_cg", Self::NAME)
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
    /// The CSR parts of the BSR matrix `a`, every block value stored: row `I·R + i` holds row
    /// `i` of block row `I`'s blocks in their order (so canonical blocks give canonical rows),
    /// indices of dtype `ix`. A backend without it answers `Unsupported` and the front end
    /// composes the same from gathers and scatters.
    fn bsr_to_csr(_a: &BsrParts<'_, Self>, _ix: DType) -> Result<CsrBuilt<Self>> {
        unsupported("bsr_to_csr", Self::NAME)
    }
    /// The BSR parts of the CSR matrix `a` (its rows and columns divisible by `block`): the
    /// blocks holding a stored value, each block row's in increasing block column, values at
    /// one place added in their order; `data` holds the blocks end to end, indices of dtype
    /// `ix`. A backend without it answers `Unsupported` and the front end composes the same.
    fn csr_to_bsr(_a: &CsrParts<'_, Self>, _block: [usize; 2], _ix: DType) -> Result<CsrBuilt<Self>> {
        unsupported("csr_to_bsr", Self::NAME)
    }
    /// `A @ X` for the BSR matrix `a` and the dense `X` at `xl` (values of `a`'s dtype, shape
    /// `(a.grid.cols · C, k)`, any strides): a new C-contiguous `(a.grid.rows · R, k)` storage,
    /// sums as [`Self::csr_matmul`]'s. A backend without it answers `Unsupported` and the front
    /// end multiplies by the CSR form.
    fn bsr_matmul(_a: &BsrParts<'_, Self>, _x: &Self, _xl: &Layout) -> Result<Self> {
        unsupported("bsr_matmul", Self::NAME)
    }
    /// `op` (`Add`, `Sub`, `Mul`, `Max`, `Min`: NumPy's, in the values' dtype) of two canonical
    /// CSR matrices of one shape and one value dtype over the union of their positions, an
    /// absent value counting as zero: the canonical CSR parts of the result without the
    /// positions whose result is zero (SciPy's `csr_binop_csr`), indices of dtype `ix`. A
    /// backend without it (or without `op` for the dtype) answers `Unsupported` and the front
    /// end composes the same from a sort of the positions.
    fn csr_binop(
        _a: &CsrParts<'_, Self>,
        _b: &CsrParts<'_, Self>,
        _op: BinaryOp,
        _ix: DType,
    ) -> Result<CsrBuilt<Self>> {
        unsupported("csr_binop", Self::NAME)
    }
    /// Each row's stored values of the CSR matrix `a` folded by `op` (`Max`, `Min`: NumPy's
    /// `maximum`/`minimum` of the dtype) in their order from the first, zero for an empty row: a
    /// new `(a.rows,)` storage of the values' dtype. A backend without it answers
    /// `Unsupported` and the front end composes the same from a scatter.
    fn csr_reduce_rows(_a: &CsrParts<'_, Self>, _op: BinaryOp) -> Result<Self> {
        unsupported("csr_reduce_rows", Self::NAME)
    }
    /// Columns of the CSR matrix `a` picked by a selection given per column: column `m` occurs
    /// `counts[m]` times, at the selection's positions `order[starts[m]..][..counts[m]]`
    /// (contiguous int64, one count and start per column, checked by the front end). Each
    /// stored value is copied once per occurrence of its column, in row order, with the
    /// position as its new index (SciPy's `csr_column_index2`): the CSR parts, offsets int64,
    /// indices of dtype `ix`. A backend without it answers `Unsupported` and the front end
    /// composes the same from gathers.
    fn csr_take_minor(
        _a: &CsrParts<'_, Self>,
        _counts: &Self,
        _starts: &Self,
        _order: &Self,
        _ix: DType,
    ) -> Result<CsrBuilt<Self>> {
        unsupported("csr_take_minor", Self::NAME)
    }
}
