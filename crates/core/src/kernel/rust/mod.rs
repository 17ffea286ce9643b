//! Kernels written in Rust (`#[xp::kernel]`): the function's body as data ([`ast`]), its
//! lowering into the typed [`Program`](super::Program) for one binding of its generic
//! parameters ([`lower`]), and its native form on the CPU ([`native`]).
pub mod ast;
mod infer;
pub mod lower;
pub mod native;

pub use native::{Col, ColMut, Elem, Float, Index, Int, NativeKernel, Num, OutOfBounds, Raw};
