//! The FFT family on the GPU: cuFFT plans (with strides, batches and 64-bit sizes, work areas from
//! xp's pool, bound to the current stream) are the next step of issue 12; until then the family
//! answers [`xp_core::Error::Unsupported`], and `xp::fft` transforms GPU arrays on the host
//! (a copy each way).
use crate::CudaStorage;

impl xp_core::FftStorage for CudaStorage {}
