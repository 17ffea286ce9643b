//! [`RustRawKernel`]: what `#[xp::raw_kernel]` builds — a GPU kernel written in Rust, launched
//! on a grid and a block as CuPy's `RawKernel` (and `cupyx.jit.rawkernel`) are; the builtins it
//! may call are in [`gpu`].
use super::call::prepare;
use super::rust::weak_scalar;
use super::Dim3;
use crate::ufunc::Operand;
use xp_core::kernel::rust::ast::{Func, ParamKind};
use xp_core::kernel::{ElementwiseDef, ParamTy};
use xp_core::{Error, KernelDevice, Result};

/// A GPU kernel written in Rust (`#[xp::raw_kernel]`): its arguments are scalars and whole
/// arrays (`Raw<T>` read, `RawMut<T>` written in place; nothing is broadcast), launched on
/// `grid` × `block` threads. On the CPU a launch is [`Error::KernelUnsupported`].
#[derive(Clone, Debug)]
pub struct RustRawKernel {
    def: ElementwiseDef,
    lockstep: bool,
}

impl RustRawKernel {
    /// The kernel of `func` (the macro's expansion calls this); `lockstep`: the body uses
    /// barriers, shuffles or shared memory.
    #[doc(hidden)]
    pub fn new(path: &str, func: &'static Func, hash: u64, lockstep: bool) -> RustRawKernel {
        RustRawKernel { def: ElementwiseDef::from_rust_raw(path, func, hash), lockstep }
    }
    /// The definition.
    pub fn def(&self) -> &ElementwiseDef {
        &self.def
    }
    /// Launch on `grid` × `block` threads with `args` (the function's parameters, in order).
    pub fn launch(&self, grid: impl Into<Dim3>, block: impl Into<Dim3>, args: &[Operand]) -> Result<()> {
        let (g, b) = (grid.into(), block.into());
        let d = &self.def;
        let p = prepare(&d.name, &d.ins, &[], args, &[])?;
        d.rust_binding(&p.types.typedefs)?;
        let func = d.rust.as_ref().expect("a Rust function").func;
        for ((a, dt), (param, fp)) in args.iter().zip(&p.types.ins).zip(d.ins.iter().zip(&func.params)) {
            match a {
                Operand::Scalar(s) => weak_scalar(&d.name, &param.name, *s, *dt)?,
                Operand::Array(x) if fp.kind == ParamKind::RawMut && x.dtype() != *dt => {
                    let msg =
                        format!("`{}` is written in place: its dtype must be {dt}, not {}", param.name, x.dtype());
                    return Err(Error::KernelArgs { kernel: d.name.clone(), msg });
                }
                Operand::Array(_) if fp.kind == ParamKind::Value => {
                    let msg = format!("`{}` is a scalar parameter", param.name);
                    return Err(Error::KernelArgs { kernel: d.name.clone(), msg });
                }
                _ => {}
            }
            if matches!((a, &param.ty), (Operand::Scalar(_), ParamTy::Generic(_))) && fp.kind != ParamKind::Value {
                let msg = format!("`{}` needs an array", param.name);
                return Err(Error::KernelArgs { kernel: d.name.clone(), msg });
            }
        }
        let (gd, bd) = ([g.0, g.1, g.2], [b.0, b.1, b.2]);
        let lockstep = self.lockstep;
        p.run(
            |_, _| {
                let reason = if lockstep {
                    "barriers, warp shuffles and shared memory need a block's threads in lockstep: GPU only"
                } else {
                    "raw kernels run on a GPU only"
                };
                Err(Error::KernelUnsupported { kernel: d.name.clone(), backend: "cpu", reason: reason.into() })
            },
            |dev, a| dev.raw_kernel(d, &p.types, a, gd, bd).map(|()| Default::default()),
        )?;
        Ok(())
    }
}
