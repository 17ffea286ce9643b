//! xp's built-in elementwise ops (unary and binary ufuncs, casts, `where`, strided copies) as
//! kernels of the one generator ([`super::gen`]): inputs `x0, x1, ...`, output `o`, and the body
//! `o = (T)(op(x0, ...));`. They share the user kernels' dense (packed, up to 16 bytes per operand
//! per access) and strided (collapsed dimensions, 32-bit index arithmetic where it fits) modes.
use super::gen::{self, Arg, Mode, Role};
use super::params::Params;
use super::{generated, mode_name};
use crate::codegen::compute_ty;
use crate::runtime::buffer::CudaStorage;
use crate::runtime::device::Dev;
use crate::runtime::launch::{cfg, Source};
use crate::space::vector_width;
use std::sync::Arc;
use xp_core::kernel::hash_str;
use xp_core::{BinaryOp, DType, Layout, Result, UnaryOp};

/// What a built-in elementwise kernel computes from its inputs `x0, x1, ...`.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Expr {
    Unary(UnaryOp),
    Binary(BinaryOp),
    /// `x0` converted to the output's dtype
    Cast,
    /// `x0 ? x1 : x2`
    Where,
}

impl Expr {
    /// The body over `x0, x1, ...` into `o` of dtype `out`.
    fn body(self, out: DType) -> String {
        let e = match self {
            Expr::Unary(op) => format!("u_{}(x0)", op.name()),
            Expr::Binary(op) => format!("b_{}(x0, x1)", op.name()),
            Expr::Cast => format!("cv<{}>(x0)", compute_ty(out)),
            Expr::Where => "(x0 ? x1 : x2)".into(),
        };
        format!("o = ({})({e});", compute_ty(out))
    }
    /// The kernel's entry name: the op's.
    fn entry(self) -> &'static str {
        match self {
            Expr::Unary(op) => op.name(),
            Expr::Binary(op) => op.name(),
            Expr::Cast => "cast",
            Expr::Where => "where",
        }
    }
    /// What specialises the kernel: the output's and inputs' dtypes and the addressing mode.
    fn spec(out: DType, ins: &[DType], mode: Mode) -> String {
        let mut v: Vec<&str> = vec![out.name()];
        v.extend(ins.iter().map(|d| d.name()));
        v.push(mode_name(mode));
        v.join("_")
    }
    /// A hash of what determines the body: the kind and the op's name (no formatting: this runs
    /// on every call).
    fn hash(self) -> u64 {
        match self {
            Expr::Unary(op) => hash_str(0xb1, op.name()),
            Expr::Binary(op) => hash_str(0xb2, op.name()),
            Expr::Cast => hash_str(0xb3, "cast"),
            Expr::Where => hash_str(0xb4, "where"),
        }
    }
}

const IN_NAMES: [&str; 3] = ["x0", "x1", "x2"];

/// The source of `expr` over inputs of `ins` into an output of `out`.
pub(crate) fn source(expr: Expr, out: DType, ins: &[DType], mode: Mode) -> String {
    let mut args: Vec<Arg> =
        ins.iter().zip(IN_NAMES).map(|(&dtype, name)| Arg { name, role: Role::In, dtype }).collect();
    args.push(Arg { name: "o", role: Role::Out(false), dtype: out });
    gen::elementwise(&format!("XP_NAME({})", expr.entry()), &[], "", &args, &expr.body(out), mode)
}

/// `o = expr(ins)` elementwise over the inputs' shape (every input laid out over the same
/// shape), into `out` laid out by `ol` (None: C-contiguous from element 0).
pub(crate) fn run(
    dev: &Arc<Dev>,
    expr: Expr,
    out: &CudaStorage,
    ol: Option<&Layout>,
    ins: &[(&CudaStorage, &Layout)],
) -> Result<()> {
    let n = ins[0].1.numel();
    if n == 0 {
        return Ok(());
    }
    let mut p = Params::default();
    let dense = ol.is_none_or(|l| l.is_contiguous()) && ins.iter().all(|(_, l)| l.is_contiguous());
    let ooff = ol.map_or(0, |l| l.offset());
    let (mode, threads) = if dense {
        for (s, l) in ins {
            p.ptr(s.ptr(l.offset()));
        }
        p.ptr(out.ptr(ooff));
        p.i64(n as i64);
        let widest = ins.iter().map(|(s, _)| s.dtype.size()).fold(out.dtype.size(), usize::max);
        let aligned = |v: usize| {
            out.ptr(ooff).is_multiple_of((v * out.dtype.size()) as u64)
                && ins.iter().all(|(s, l)| s.ptr(l.offset()).is_multiple_of((v * s.dtype.size()) as u64))
        };
        let v = vector_width(16 / widest, aligned);
        (Mode::Dense(v), n.div_ceil(v))
    } else {
        for (s, _) in ins {
            p.ptr(s.ptr(0));
        }
        p.ptr(out.ptr(0));
        let own = Layout::contiguous(ins[0].1.shape());
        let ol = ol.unwrap_or(&own);
        let mut ls: [&Layout; 4] = [ol; 4];
        for (k, (_, l)) in ins.iter().enumerate() {
            ls[k] = l;
        }
        p.indexer(&ls[..=ins.len()])?;
        (Mode::Strided(n < (1 << 31)), n)
    };
    let mix = |h: u64, x: u64| (h ^ x).wrapping_mul(0x100_0000_01b3).rotate_left(29);
    let key = ins.iter().fold(mix(expr.hash(), out.dtype as u64), |h, (s, _)| mix(h, s.dtype as u64));
    let key = hash_str(key, mode_name(mode));
    let [f] = generated(dev, key, false, [expr.entry()], || {
        let dts: Vec<DType> = ins.iter().map(|(s, _)| s.dtype).collect();
        Source::new(Expr::spec(out.dtype, &dts, mode), source(expr, out.dtype, &dts, mode))
    })?;
    let mut bufs: [&CudaStorage; 4] = [out; 4];
    for (k, (s, _)) in ins.iter().enumerate() {
        bufs[k] = s;
    }
    p.launch(dev, &f, cfg(threads as i64), &bufs[..=ins.len()])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::tests_support::syntax_check;

    /// Every built-in kind for every dtype, in every addressing mode, parsed by g++.
    #[test]
    fn builtin_kernels_parse_for_every_dtype() {
        let prelude = crate::codegen::PRELUDE;
        for d in DType::ALL {
            let mut src = String::from(prelude);
            let modes = [Mode::Dense(4), Mode::Dense(1), Mode::Strided(true), Mode::Strided(false)];
            let mut k = 0;
            for mode in modes {
                for (expr, out, ins) in [
                    (Expr::Cast, d, vec![DType::Bool]),
                    (Expr::Where, d, vec![DType::Bool, d, d]),
                    (Expr::Cast, DType::F16, vec![d]),
                ] {
                    // each kernel in its own namespace, under its own name: one translation unit
                    let one = source(expr, out, &ins, mode)
                        .replace(prelude, "")
                        .replace("XP_NAME(", &format!("XP_NAME(k{k}_"));
                    src += &format!("namespace n{k} {{\n{one}\n}}\n");
                    k += 1;
                }
            }
            syntax_check(&format!("builtin-{}", d.name()), &src);
        }
    }
}
