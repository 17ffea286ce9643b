//! The indexing family on the GPU (to be written): gathers, scatters, compaction.
use crate::CudaStorage;
use xp_core::IndexStorage;

impl IndexStorage for CudaStorage {}
