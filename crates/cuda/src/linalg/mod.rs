//! The linear-algebra family on the GPU.
use crate::CudaStorage;
use xp_core::LinalgStorage;

impl LinalgStorage for CudaStorage {}
