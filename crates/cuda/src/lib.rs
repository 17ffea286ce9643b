//! xp-cuda: the CUDA backend of xp.
//!
//! The driver, NVRTC and the CUDA libraries are loaded at run time through cudarc, so that this
//! crate builds without a CUDA toolkit and a binary that contains it still runs on a machine
//! without a GPU: every entry point first probes for the driver library
//! ([`cudarc::driver::sys::is_culib_present`]) and answers `false`, `0` or a typed error, never
//! cudarc's panic.
//!
//! Kernels are CUDA C generated per op family (the elementwise and reduction generator in
//! `generator/`, the families' own templates beside their modules, the prelude in
//! `runtime/prelude.cu`), compiled by NVRTC to a cubin for the device's own architecture, cached
//! in memory per device and on disk (see [`kernels_compiled`]), and launched through one path
//! (`runtime/launch.rs`) under names that say what they do (see [`kernels_loaded`]).
//!
//! ```
//! // On a machine without a driver this prints 0 and never panics.
//! println!("{} CUDA devices", xp_cuda::device_count());
//! ```
#![warn(missing_docs)]

mod codegen;
pub mod fft;
mod filter;
mod generator;
mod index;
mod label;
pub mod linalg;
pub mod nccl;
mod random;
mod raw;
mod recursive;
mod reduce;
pub mod runtime;
mod sort;
mod space;
mod sparse;
mod stats;
mod storage;
mod transfer;

pub use raw::{RawArg, RawModule};
pub use runtime::buffer::CudaStorage;
pub use runtime::device::{device_count, is_available, launch_floor_us, CudaDevice};
pub use runtime::graph::Graph;
pub use runtime::launch::kernels_loaded;
pub use runtime::memory;
pub use runtime::nvrtc::{compile_seconds, kernels_compiled, kernels_compiled_on_this_thread};
pub use runtime::properties::{mem_info, properties};
pub use runtime::stream::{Event, Stream, StreamGuard};
pub use transfer::Pinned;
