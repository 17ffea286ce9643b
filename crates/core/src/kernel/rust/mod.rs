//! Kernels written in Rust (`#[xp::kernel]`): the function's body as data ([`ast`]), its
//! lowering into the typed [`Program`](super::Program) for one binding of its generic
//! parameters ([`lower`]), and its native form on the CPU ([`native`]).
pub mod ast;
mod infer;
pub mod lower;
pub mod native;
pub mod reduce;

pub use native::{Col, ColMut, Elem, Float, Index, Int, NativeKernel, Num, OutOfBounds, Raw};

use crate::kernel::{compute, Typedef};
use crate::{DType, Error, Result};

/// The compute dtype of each generic parameter `generics` under the bindings `typedefs`,
/// checked against its bound.
pub fn binding(kernel: &str, generics: &[(&'static str, ast::Bound)], typedefs: &[Typedef]) -> Result<Vec<DType>> {
    (generics.iter())
        .map(|(g, bound)| {
            let d = typedefs.iter().find(|t| &*t.0 == *g).map(|t| t.1).ok_or_else(|| Error::KernelArgs {
                kernel: kernel.to_string(),
                msg: format!("no argument binds type {g}"),
            })?;
            if !bound.admits(d) {
                let msg = format!("type {g}: {} is bound to {d}; cast the argument with astype", bound.name());
                return Err(Error::KernelArgs { kernel: kernel.to_string(), msg });
            }
            Ok(compute(d))
        })
        .collect()
}

/// The compute dtype of type `t` of function `f` under `bind`.
pub fn infer_ty(f: &ast::Func, bind: &[DType], t: ast::Ty) -> Result<DType> {
    infer::resolve_ty(f, bind, t).map(compute).map_err(|e| Error::KernelSource {
        kernel: f.name.into(),
        line: 0,
        msg: e.msg,
    })
}
