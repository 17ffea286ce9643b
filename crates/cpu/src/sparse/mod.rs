//! The sparse family on the CPU: the CSR × dense product ([`spmm`]) over row blocks of equal
//! stored-value counts, one rayon task each, and coordinates to CSR by a counting sort
//! ([`convert`]); runs of lines copied end to end on the cores ([`runs`]); the block format's
//! conversions and product ([`blocks`]); arithmetic over the union of two arrays' positions
//! ([`merge`]); each row's values folded ([`lines`]); columns picked ([`minor`]).
mod blocks;
mod convert;
mod elem;
mod lines;
mod merge;
mod minor;
mod runs;
mod spgemm;
mod spmm;
mod spmm_t;

use crate::CpuStorage;
use xp_core::{BinaryOp, BsrParts, CsrBuilt, CsrParts, DType, Layout, Result, SparseStorage};

impl SparseStorage for CpuStorage {
    fn csr_matmul(a: &CsrParts<'_, Self>, x: &Self, xl: &Layout) -> Result<Self> {
        spmm::dispatch(a, x, xl, "csr_matmul", false).map(CpuStorage)
    }
    fn csr_matmul_t(a: &CsrParts<'_, Self>, x: &Self, xl: &Layout) -> Result<Self> {
        spmm::dispatch(a, x, xl, "csr_matmul_t", true).map(CpuStorage)
    }
    fn csr_spgemm(a: &CsrParts<'_, Self>, b: &CsrParts<'_, Self>, ix: DType) -> Result<CsrBuilt<Self>> {
        spgemm::csr_spgemm(a, b, ix).map(|c| c.map(CpuStorage))
    }
    fn coo_to_csr(row: &Self, col: &Self, data: &Self, shape: [usize; 2], ix: DType) -> Result<CsrBuilt<Self>> {
        convert::coo_to_csr(row, col, data, shape, ix).map(|b| b.map(CpuStorage))
    }
    fn gather_runs(
        indices: &Self,
        data: &Self,
        starts: &Self,
        ptr: &Self,
        _total: usize,
        ix: DType,
    ) -> Result<(Self, Self)> {
        runs::gather_runs(indices, data, starts, ptr, ix).map(|(i, d)| (CpuStorage(i), CpuStorage(d)))
    }
    fn bsr_to_csr(a: &BsrParts<'_, Self>, ix: DType) -> Result<CsrBuilt<Self>> {
        blocks::bsr_to_csr(a, ix)
    }
    fn csr_to_bsr(a: &CsrParts<'_, Self>, block: [usize; 2], ix: DType) -> Result<CsrBuilt<Self>> {
        blocks::csr_to_bsr(a, block, ix)
    }
    fn bsr_matmul(a: &BsrParts<'_, Self>, x: &Self, xl: &Layout) -> Result<Self> {
        blocks::bsr_matmul(a, x, xl).map(CpuStorage)
    }
    fn csr_binop(a: &CsrParts<'_, Self>, b: &CsrParts<'_, Self>, op: BinaryOp, ix: DType) -> Result<CsrBuilt<Self>> {
        merge::csr_binop(a, b, op, ix)
    }
    fn csr_reduce_rows(a: &CsrParts<'_, Self>, op: BinaryOp) -> Result<Self> {
        lines::csr_reduce_rows(a, op).map(CpuStorage)
    }
    fn csr_take_minor(
        a: &CsrParts<'_, Self>,
        counts: &Self,
        starts: &Self,
        order: &Self,
        ix: DType,
    ) -> Result<CsrBuilt<Self>> {
        minor::csr_take_minor(a, counts, starts, order, ix)
    }
}
