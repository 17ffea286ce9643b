//! `#[xp::kernel]` functions inside [`crate::fuse`]: `f::sym(x, y)` records the function as a
//! node of the traced graph (placeholders bound and scalars checked as a call binds and checks
//! them), and the lowering inlines its program into the fused chain. A function with a `Raw` or
//! `Index` parameter is not inlined: the fused function then runs op by op, calling it.
use super::sym::{FNode, KernelCall, Sym, SymOperand};
use crate::kernel::RustKernel;
use crate::ufunc::can_cast_same_kind;
use xp_core::kernel::{ParamTy, Typedef};
use xp_core::{default_dtype, Error, Result};

impl Sym {
    /// Apply kernel `k` to `args` (its parameters other than an `Index`, in order): one symbolic
    /// array per result. `#[xp::kernel]`'s `sym` calls this.
    pub fn apply(k: &'static RustKernel, args: Vec<SymOperand>) -> Result<Vec<Sym>> {
        let d = k.def();
        let err = |msg: String| Error::KernelArgs { kernel: d.name.clone(), msg };
        if args.len() != d.ins.len() {
            return Err(err(format!("takes {} arguments, got {}", d.ins.len(), args.len())));
        }
        let Some(first) = args.iter().find_map(|a| if let SymOperand::Sym(s) = a { Some(s.clone()) } else { None })
        else {
            return Err(err("needs a symbolic array argument".into()));
        };
        let mut typedefs: Vec<Typedef> = Vec::new();
        for (p, a) in d.ins.iter().zip(&args) {
            if let (ParamTy::Generic(t), SymOperand::Sym(s)) = (&p.ty, a) {
                match typedefs.iter().find(|(n, _)| n == t) {
                    Some((_, b)) if *b != s.dtype() => {
                        return Err(err(format!("type {t} is already {b}, but `{}` has dtype {}", p.name, s.dtype())))
                    }
                    Some(_) => {}
                    None => typedefs.push((t.clone(), s.dtype())),
                }
            }
        }
        for (p, a) in d.ins.iter().zip(&args) {
            if let (ParamTy::Generic(t), SymOperand::Scalar(v)) = (&p.ty, a)
                && !typedefs.iter().any(|(n, _)| n == t)
            {
                typedefs.push((t.clone(), default_dtype(v)));
            }
        }
        d.rust_binding(&typedefs)?;
        let mut ids = Vec::new();
        for (p, a) in d.ins.iter().zip(args) {
            let dt = p.dtype(&typedefs);
            match &a {
                SymOperand::Sym(s) if s.dtype() != dt && !can_cast_same_kind(s.dtype(), dt) => {
                    return Err(err(format!("`{}` has dtype {}, which cannot be cast to {dt}", p.name, s.dtype())))
                }
                SymOperand::Scalar(v) => crate::kernel::rust::weak_scalar(&d.name, &p.name, *v, dt)?,
                _ => {}
            }
            ids.push(first.operand(a, dt)?.id);
        }
        (d.outs.iter().enumerate())
            .map(|(j, o)| {
                let call = KernelCall { k, typedefs: typedefs.clone(), args: ids.clone(), out: j };
                first.node(FNode::Kernel(call), o.dtype(&typedefs))
            })
            .collect()
    }
}
