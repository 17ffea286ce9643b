//! Kernels written in Rust (`#[xp::kernel]`): the function's body as data ([`ast`]), its
//! lowering into the typed [`Program`](super::Program) for one binding of its generic
//! parameters ([`lower`]), and its native form on the CPU ([`native`]).
pub mod ast;
mod infer;
pub mod lower;
pub mod native;
mod raw;
pub mod reduce;

pub use native::{Col, ColMut, Elem, Float, Index, Int, NativeKernel, Num, OutOfBounds, Raw};

use crate::kernel::{compute, Typedef};
use crate::{DType, Error, Result};

/// The compute dtype of each generic parameter `generics` under the bindings `typedefs`,
/// checked against its bound.
pub fn binding(kernel: &str, generics: &[(&'static str, ast::Bound)], typedefs: &[Typedef]) -> Result<Vec<DType>> {
    generics.iter().map(|g| bound_of(kernel, g, typedefs)).collect()
}

/// [`binding`]'s checks alone (nothing allocated: this runs on every call).
pub fn check_bounds(kernel: &str, generics: &[(&'static str, ast::Bound)], typedefs: &[Typedef]) -> Result<()> {
    generics.iter().try_for_each(|g| bound_of(kernel, g, typedefs).map(|_| ()))
}

fn bound_of(kernel: &str, (g, bound): &(&'static str, ast::Bound), typedefs: &[Typedef]) -> Result<DType> {
    let d = typedefs
        .iter()
        .find(|t| &*t.0 == *g)
        .map(|t| t.1)
        .ok_or_else(|| Error::KernelArgs { kernel: kernel.to_string(), msg: format!("no argument binds type {g}") })?;
    if !bound.admits(d) {
        let msg = format!("type {g}: {} is bound to {d}; cast the argument with astype", bound.name());
        return Err(Error::KernelArgs { kernel: kernel.to_string(), msg });
    }
    Ok(compute(d))
}

/// The compute dtype of type `t` of function `f` under `bind`.
pub fn infer_ty(f: &ast::Func, bind: &[DType], t: ast::Ty) -> Result<DType> {
    infer::resolve_ty(f, bind, t).map(compute).map_err(|e| Error::KernelSource {
        kernel: f.name.into(),
        line: 0,
        msg: e.msg,
    })
}
