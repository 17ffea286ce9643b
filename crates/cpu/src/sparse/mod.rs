//! The sparse family on the CPU: the CSR × dense product ([`spmm`]) over row blocks of equal
//! stored-value counts, one rayon task each.
mod spmm;

use crate::CpuStorage;
use xp_core::{CsrParts, Layout, Result, SparseStorage};

impl SparseStorage for CpuStorage {
    fn csr_matmul(a: &CsrParts<'_, Self>, x: &Self, xl: &Layout) -> Result<Self> {
        spmm::csr_matmul(a, x, xl).map(CpuStorage)
    }
}
