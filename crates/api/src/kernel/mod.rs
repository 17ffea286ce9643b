//! User-defined kernels, as CuPy has them: [`ElementwiseKernel`] and [`ReductionKernel`] written
//! once in CuPy's signature language and a C body, running on the GPU (NVRTC) and, for bodies in
//! the expression subset, on the CPU with the same results; [`RawKernel`] and [`RawModule`] for
//! CUDA C source launched by hand on the GPU.
//!
//! ```
//! use xp::kernel::ElementwiseKernel;
//! let leaky = ElementwiseKernel::new("T x, T alpha", "T y", "y = x > 0 ? x : alpha * x", "leaky_relu").unwrap();
//! let x = xp::Array::from_vec(vec![-2.0f32, -0.5, 0.0, 3.0], &[4]).unwrap();
//! let y = leaky.call1(&[(&x).into(), 0.1f32.into()]).unwrap();
//! assert_eq!(y.to_vec::<f32>().unwrap(), vec![-0.2f32, -0.05, 0.0, 3.0]);
//! // the same kernel on the data's device: on a GPU when `x` lives there
//! ```
mod builtin;
mod call;
mod elementwise;
pub mod gpu;
mod raw;
mod reduction;
pub mod rust;
mod rust_raw;

pub(crate) use builtin::{once, per_key, shape_only, Generated};
pub use elementwise::ElementwiseKernel;
pub use raw::{Dim3, KernelParam, RawKernel, RawModule};
pub use reduction::ReductionKernel;
pub use rust::{math, Float, Index, Int, Num, Raw, RustKernel, RustReduction};
pub use rust_raw::RustRawKernel;
