//! xp-core: the types every xp backend shares — [`DType`] and [`Element`], [`Layout`] and
//! broadcasting, NumPy 2 type promotion, the [`Error`] type, op markers and the [`BackendStorage`]
//! / [`BackendDevice`] traits. Users normally import the `xp` crate, which re-exports these.
//!
//! ```
//! use xp_core::{broadcast_shapes, promote_types, DType};
//! assert_eq!(broadcast_shapes("add", &[3, 1], &[4]).unwrap(), vec![3, 4]);
//! assert_eq!(promote_types(DType::F16, DType::I16), DType::F32);
//! ```
#![warn(missing_docs)]

mod backend;
mod device;
mod dist;
mod dtype;
mod element;
mod error;
pub mod kernel;
mod layout;
pub mod linalg;
mod op;
mod promote;
pub mod random;
pub mod select;

pub use backend::{
    matrix_power, norm_inf, BackendDevice, BackendStorage, BsrParts, CgRun, Combine, CsrBuilt, CsrParts, Distribution,
    FftKind, FftNorm, FftSpec, FftStorage, FilterStorage, IndexMode, IndexSet, IndexStorage, KernelArg, KernelDevice,
    KernelTypes, LinalgStorage, Outputs, PlanCacheInfo, RandomDevice, Recursed, Recursion, RecursionKind, Side,
    SortOutput, SortStorage, SparseStorage, StatsStorage,
};
pub use device::{Device, DeviceProperties};
pub use dist::{version as nccl_version, DistKind};
pub use dtype::{DType, Kind};
pub use element::{Element, HostBuffer, Scalar};
pub use error::{Error, Result};
pub use half::{bf16, f16};
pub use layout::{
    broadcast_shapes, collapse, contiguous_strides, normalize_axes, normalize_axis, numel, resolve_slice, Layout,
    SliceElem,
};
pub use linalg::LinAlgKind;
pub use num_complex::{Complex32, Complex64};
pub use op::{ArgReduceOp, BinaryOp, Loops, OutRule, UnaryOp, LOOP_ORDER};
pub use promote::{can_cast_safe, default_dtype, int_range, promote_types, promote_weak, scalar_fits};
