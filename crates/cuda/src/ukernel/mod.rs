//! User kernels on the GPU.
use crate::CudaDevice;
impl xp_core::KernelDevice for CudaDevice {}
