//! The user-kernel family: a device runs an [`ElementwiseDef`] or a [`ReductionDef`] over
//! arguments the front end has checked, typed and broadcast.
use super::unsupported;
use crate::kernel::{ElementwiseDef, ReductionDef, Typedef};
use crate::{BackendDevice, BackendStorage, DType, Layout, Result, Scalar};
use smallvec::SmallVec;
use std::borrow::Cow;

/// An argument of a kernel call, as a backend receives it.
#[derive(Debug)]
pub enum KernelArg<'a, S> {
    /// an array, its layout broadcast to the call's shape (its dtype the parameter's); borrowed
    /// where the array already has that shape
    Array(&'a S, Cow<'a, Layout>),
    /// a `raw` array: the body indexes it (C order of its layout)
    Raw(&'a S, Cow<'a, Layout>),
    /// a scalar, already of the parameter's dtype
    Scalar(Scalar, DType),
    /// no value: an output the backend allocates
    None,
}

impl<S> Clone for KernelArg<'_, S> {
    fn clone(&self) -> Self {
        match self {
            KernelArg::Array(s, l) => KernelArg::Array(s, l.clone()),
            KernelArg::Raw(s, l) => KernelArg::Raw(s, l.clone()),
            KernelArg::Scalar(v, d) => KernelArg::Scalar(*v, *d),
            KernelArg::None => KernelArg::None,
        }
    }
}

/// The resolved types of a call: the placeholders' dtypes and every parameter's.
#[derive(Clone, Debug)]
pub struct KernelTypes {
    /// placeholder bindings (`T` → float32, ...)
    pub typedefs: SmallVec<[Typedef; 2]>,
    /// the inputs' dtypes, in order
    pub ins: SmallVec<[DType; 8]>,
    /// the outputs' dtypes, in order
    pub outs: SmallVec<[DType; 4]>,
    /// whether input `k` is a scalar
    pub scalar: SmallVec<[bool; 8]>,
}

/// A kernel call's output storages (inline for up to two: a call allocates no list).
pub type Outputs<S> = SmallVec<[S; 2]>;

/// The user-kernel family of a backend's device. Arguments are the inputs in order, then one
/// per output (`Array` when the call gave the output: the body may read its values; `None`
/// otherwise). Outputs come back as new C-contiguous storages of the call's shape (a reduction:
/// of its kept axes).
pub trait KernelDevice: BackendDevice {
    /// Run an elementwise kernel over `shape`.
    fn elementwise_kernel(
        &self,
        _def: &ElementwiseDef,
        _types: &KernelTypes,
        _args: &[KernelArg<'_, Self::Storage>],
        _shape: &[usize],
    ) -> Result<Outputs<Self::Storage>> {
        unsupported("ElementwiseKernel", <Self::Storage as BackendStorage>::NAME)
    }
    /// Run a reduction kernel over `shape`, reducing `axes` (sorted, non-empty).
    fn reduction_kernel(
        &self,
        _def: &ReductionDef,
        _types: &KernelTypes,
        _args: &[KernelArg<'_, Self::Storage>],
        _shape: &[usize],
        _axes: &[usize],
    ) -> Result<Outputs<Self::Storage>> {
        unsupported("ReductionKernel", <Self::Storage as BackendStorage>::NAME)
    }
    /// Launch a raw kernel written in Rust (`#[xp::raw_kernel]`) on `grid` × `block` threads;
    /// its arguments are scalars and whole arrays (`Raw`, written in place where `RawMut`).
    fn raw_kernel(
        &self,
        _def: &ElementwiseDef,
        _types: &KernelTypes,
        _args: &[KernelArg<'_, Self::Storage>],
        _grid: [u32; 3],
        _block: [u32; 3],
    ) -> Result<()> {
        unsupported("raw_kernel", <Self::Storage as BackendStorage>::NAME)
    }
}
