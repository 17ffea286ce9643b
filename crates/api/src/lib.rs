//! xp: NumPy/CuPy for Rust. An [`Array`] lives in host memory or on an NVIDIA GPU behind one API,
//! so that numerical code is written once and runs wherever its data are.
//!
//! NumPy is the specification: names, broadcasting, NumPy 2 type promotion (Rust scalars are weak,
//! like Python scalars), axis handling and edge cases follow it. Every operation returns a
//! [`Result`] whose [`Error`] says what was wrong; operator sugar (`&a + &b`) panics instead, as
//! std's operators do.
//!
//! ```
//! /// Written once: runs wherever x lives.
//! fn softmax(x: &xp::Array, axis: isize) -> xp::Result<xp::Array> {
//!     let m = x.max_keepdim(axis)?;
//!     let e = x.sub(&m)?.exp()?;
//!     e.div(&e.sum_keepdim(axis)?)
//! }
//! let x = xp::Array::from_vec(vec![1.0f32, 2.0, 3.0, 1.0, 1.0, 1.0], &[2, 3]).unwrap();
//! let p = softmax(&x, -1).unwrap();
//! let row = p.sum(-1).unwrap().to_vec::<f32>().unwrap();
//! assert!(row.iter().all(|s| (s - 1.0).abs() < 1e-6));
//! println!("{p}");
//! ```
//!
//! Cargo features, all on by default: `cuda` (the CUDA backend, loaded at run time), and one per
//! family whose CPU side is heavy to build — `linalg` (decompositions through faer), `fft`
//! (rustfft), `signal` (IIR filters), `io` (`.npy`/`.npz`, the `xp::io` module). Without a family's
//! feature its CPU operations answer [`Error::FeatureDisabled`]; `default-features = false` is the
//! smallest build (about a third of the default's time).
#![warn(missing_docs)]

extern crate self as xp;

mod array;
mod axes;
mod backend;
mod compare;
mod creation;
mod diagonal;
mod display;
pub mod dist;
pub mod dlpack;
mod einsum;
pub mod fft;
pub(crate) mod filter;
pub mod fuse;
mod grids;
mod index;
mod interop;
#[cfg(feature = "io")]
pub mod io;
pub mod kernel;
pub mod linalg;
mod manip;
mod more;
pub mod ndimage;
mod numeric;
mod ops;
mod products;
pub mod profiler;
pub mod random;
mod reductions;
mod sets;
mod shape;
pub mod signal;
mod sorting;
pub mod sparse;
pub mod special;
mod stats;
mod stream;
#[cfg(xp_cuda)]
mod transfer;
pub mod ufunc;
mod warmup;

pub use array::Array;
pub use xp_macros::{device, kernel, raw_kernel, reduction};

/// What the expansions of `#[xp::kernel]`, `#[xp::device]` and `#[xp::reduction]` name.
#[doc(hidden)]
pub mod __rt {
    pub use crate::fuse::{Sym, SymOperand};
    pub use crate::kernel::{Dim3, RustKernel, RustRawKernel, RustReduction};
    pub use crate::ufunc::Operand;
    pub use crate::{Array, IntoAxes, Result};
    pub use std::sync::OnceLock;
    pub use xp_core::kernel::rust::ast;
    pub use xp_core::kernel::rust::{Col, ColMut, Elem, Float, Index, Int, NativeKernel, Num, Raw};
    pub use xp_core::DType;
}
pub use axes::{Axes, IntoAxes};
pub use compare::{
    allclose, allclose_with, array_equal, array_equal_nan, array_equiv, isclose, isclose_with, Tolerance,
};
pub(crate) use creation::full_on;
pub use creation::{
    arange, empty, empty_like, eye, full, full_like, get_array_module, identity, linspace, logspace, meshgrid, on,
    ones, ones_like, zeros, zeros_like, ArrayModule, Indexing, Linspace, Logspace, OnDevice,
};
pub use diagonal::{cross, cross_axes, diagonal, matrix_transpose, trace};
pub use einsum::einsum;
pub use fuse::fuse;
pub use grids::{fromfunction, indices, mgrid, ogrid, GridAxis};
pub use index::{
    argwhere, choose, compress, diag_indices, extract, flatnonzero, ix_, nonzero, place, put_along_axis,
    ravel_multi_index, scatter_add, scatter_max, scatter_min, select, take_along_axis, tril_indices, triu_indices,
    unravel_index, where_nonzero, IndexItem, IntoIndex,
};
#[cfg(feature = "io")]
pub use io::{fromfile, load, load_npz, save, savez, savez_compressed, Npz};
pub use manip::{
    array_split, broadcast_arrays, concatenate, hstack, split, stack, vstack, PadMode, Sections, ELLIPSIS, NEW_AXIS,
};
pub use more::apply::{apply_along_axis, apply_over_axes, block, piecewise, Piece, PieceFn};
pub use more::elementwise::{
    deg2rad, degrees, divmod, float_power, fmod, frexp, gcd, heaviside, iscomplex, isneginf, isposinf, isreal,
    isrealobj, lcm, ldexp, logaddexp2, modf, nextafter, rad2deg, radians, real_if_close, signbit, spacing, RealIfClose,
};
pub use more::extra::{asarray_chkfinite, matvec, polydiv, putmask, sort_complex, unstack, unwrap, vecmat, Unwrap};
pub use more::info::{bitwise_count, common_type, finfo, histogram_bin_edges, iinfo, mask_indices, Finfo, Iinfo};
pub use more::poly::{poly, polyadd, polyder, polyfit, polyint, polymul, polysub, polyval, roots};
pub use more::shapes::{
    append, atleast_1d, atleast_2d, atleast_3d, broadcast_shapes, column_stack, delete, diag_indices_from, diagflat,
    dsplit, dstack, fill_diagonal, fill_diagonal_wrap, fliplr, flipud, geomspace, geomspace_on, hsplit, insert, resize,
    rot90, rot90_axes, tri, tri_on, tril_indices_from, trim_zeros, triu_indices_from, vander, vsplit, Geomspace,
    Positions, Trim, Vander,
};
pub use numeric::{around, nan_to_num, NanToNum};
pub use products::{dot, inner, kron, matmul, outer, tensordot, vdot, vecdot, Matmul, TensorAxes};
pub use random::default_rng;
pub use reductions::Var;
pub use sets::{
    intersect1d, isin, setdiff1d, setxor1d, union1d, unique, unique_all, unique_counts, unique_inverse, unique_values,
    Unique, UniqueOptions,
};
pub use shape::{Dim, Dims, IntoNewShape, IntoShape};
pub use signal::direct1d::{convolve, correlate};
pub use signal::{bartlett, blackman, hamming, hanning, kaiser};
pub use sorting::{argsort, lexsort, searchsorted, sort};
pub use special::sinc;
pub use stats::*;
pub use stream::{synchronize, Event, Stream, StreamGuard};
pub use ufunc::*;
pub use xp_core::{
    bf16, can_cast_safe, f16, promote_types, promote_weak, ArgReduceOp, BinaryOp, Complex32, Complex64, DType, Device,
    DeviceProperties, DistKind, Element, Error, HostBuffer, IndexMode, Kind, Layout, LinAlgKind, Result, Scalar, Side,
    SliceElem, UnaryOp,
};

/// The CPU side: the host block cache (large buffers are reused instead of returned to the
/// allocator, like CuPy's memory pool).
pub mod cpu {
    pub use xp_cpu::pool::{cached_bytes, free_all_blocks, limit, set_limit};
}

/// The CUDA side: device discovery (and, with the CUDA backend, streams and memory).
pub mod cuda {
    /// Number of CUDA devices (0 without a driver, or in a build without the `cuda` feature).
    pub fn device_count() -> usize {
        #[cfg(xp_cuda)]
        return xp_cuda::device_count();
        #[cfg(not(xp_cuda))]
        0
    }
    /// What the driver reports about device `ordinal` (CuPy's `runtime.getDeviceProperties` and
    /// `Device.attributes`): name, compute capability, multiprocessors, memory, limits, and
    /// every attribute by name. A typed error without a GPU or in a build without CUDA.
    pub fn properties(ordinal: usize) -> crate::Result<crate::DeviceProperties> {
        #[cfg(xp_cuda)]
        return xp_cuda::properties(ordinal);
        #[cfg(not(xp_cuda))]
        {
            let _ = ordinal;
            Err(crate::Error::CudaNotCompiled)
        }
    }
    /// (free, total) bytes of device `ordinal`'s memory (CuPy's `Device.mem_info`).
    pub fn mem_info(ordinal: usize) -> crate::Result<(usize, usize)> {
        #[cfg(xp_cuda)]
        return xp_cuda::mem_info(ordinal);
        #[cfg(not(xp_cuda))]
        {
            let _ = ordinal;
            Err(crate::Error::CudaNotCompiled)
        }
    }
    /// True when a CUDA device can be used.
    pub fn is_available() -> bool {
        device_count() > 0
    }
    /// Number of kernels this process compiled with NVRTC (kernels found in the in-memory or
    /// on-disk cache are not counted).
    pub fn kernels_compiled() -> usize {
        #[cfg(xp_cuda)]
        return xp_cuda::kernels_compiled();
        #[cfg(not(xp_cuda))]
        0
    }
    /// Device memory: bytes held by arrays, bytes the pool reserved, a settable limit, and
    /// `free_all_blocks` (see `xp_cuda::memory`).
    #[cfg(xp_cuda)]
    pub use xp_cuda::memory;
    /// Whether float32 matrix products on the GPU may use TF32 tensor cores (about three decimal
    /// digits: not NumPy's accuracy, so off by default). `XP_ALLOW_TF32=1` in the environment
    /// turns it on for a process; [`set_allow_tf32`] at run time.
    pub fn allow_tf32() -> bool {
        #[cfg(xp_cuda)]
        return xp_cuda::linalg::allow_tf32();
        #[cfg(not(xp_cuda))]
        false
    }
    /// Allow (or forbid) TF32 tensor cores in float32 matrix products on the GPU (see
    /// [`allow_tf32`]); a no-op in a build without CUDA.
    pub fn set_allow_tf32(on: bool) {
        #[cfg(xp_cuda)]
        xp_cuda::linalg::set_allow_tf32(on);
        #[cfg(not(xp_cuda))]
        let _ = on;
    }
    /// Streams (create, make current for a scope on this thread, synchronise) and events (record,
    /// wait, synchronise, time): see `xp_cuda::Stream`.
    #[cfg(xp_cuda)]
    pub use xp_cuda::{Event, Graph, Stream, StreamGuard};
    /// Page-locked host memory for full-speed, asynchronous host↔device copies
    /// ([`crate::Array::from_pinned`], [`crate::Array::to_pinned`]).
    #[cfg(xp_cuda)]
    pub mod pinned {
        pub use xp_cuda::Pinned;
    }
    /// The wall-clock seconds of each NVRTC compilation this process ran, in order (kernels found
    /// in the in-memory or on-disk cache take none): what a first run waits for. Setting
    /// `XP_KERNEL_SOURCES=DIR` also writes each compiled source there. Empty without CUDA.
    pub fn compile_seconds() -> Vec<f64> {
        #[cfg(xp_cuda)]
        return xp_cuda::compile_seconds();
        #[cfg(not(xp_cuda))]
        Vec::new()
    }
    /// The names of the built-in kernels this process has loaded on any GPU, sorted: what Nsight
    /// Systems and Nsight Compute show, `xp_<what>_<dtypes and variant>` (`xp_sum_f32_rows_v4`,
    /// `xp_gather_b8_k1_wrap`). A user's own kernels are not listed. Empty without CUDA.
    pub fn kernels_loaded() -> Vec<String> {
        #[cfg(xp_cuda)]
        return xp_cuda::kernels_loaded();
        #[cfg(not(xp_cuda))]
        Vec::new()
    }
    /// Number of kernels the calling thread compiled with NVRTC.
    pub fn kernels_compiled_on_this_thread() -> usize {
        #[cfg(xp_cuda)]
        return xp_cuda::kernels_compiled_on_this_thread();
        #[cfg(not(xp_cuda))]
        0
    }
    /// Compile (or load from the disk cache) the common kernels for `dtypes` on CUDA device
    /// `ordinal` ahead of time: every unary and binary ufunc (not `xp::special`'s) that has a loop for each dtype, on
    /// contiguous and strided operands, the casts between the dtypes, and the reductions, arg-
    /// reductions and scans. The dtypes and layouts are spread over a pool of threads (as many as
    /// the host has, or `XP_WARMUP_THREADS`), so that NVRTC compiles several kernels at once.
    /// Returns how many kernels NVRTC compiled for it (0 with a warm disk cache).
    pub fn warmup(ordinal: usize, dtypes: &[crate::DType]) -> crate::Result<usize> {
        crate::warmup::run(crate::Device::Cuda(ordinal), dtypes)
    }
    /// `n` launches of an empty kernel on device `ordinal`, in µs per launch: (host time to enqueue
    /// them, time until all have run) — the floor under any per-op time (see `xp_cuda`).
    #[cfg(xp_cuda)]
    pub use xp_cuda::launch_floor_us;
    /// Wait until all work queued on CUDA device `ordinal` has finished.
    pub fn synchronize(ordinal: usize) -> crate::Result<()> {
        #[cfg(xp_cuda)]
        return xp_cuda::CudaDevice::new(ordinal)?.synchronize();
        #[cfg(not(xp_cuda))]
        {
            let _ = ordinal;
            Err(crate::Error::CudaNotCompiled)
        }
    }
}

/// Every device present: the CPU, then each CUDA device.
pub fn devices() -> Vec<Device> {
    std::iter::once(Device::Cpu).chain((0..cuda::device_count()).map(Device::Cuda)).collect()
}

/// The README's examples, compiled and run as doctests so that they stay true.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;
