//! A typed program as CUDA C over xp's prelude (`u_<op>`/`b_<op>` for ufuncs, `cv<T>` for NumPy's
//! casts, `st_h`/`st_bh` for float16/bfloat16 rounding): how a fused chain reaches the GPU.
//! (A user's body reaches NVRTC as written; its inlined calls, loops and arrays print too, as C
//! of the same meaning: an inlined function as a lambda called in place.)
use super::ir::{AtomicOp, BinOp, Builtin, Node, Program, Role, Shfl, TExpr, TStmt, UnOp};
use crate::{DType, Scalar};

/// The C name of a compute type in xp's prelude.
pub fn c_type(d: DType) -> &'static str {
    match d {
        DType::Bool => "bool",
        DType::I8 => "i8",
        DType::I16 => "i16",
        DType::I32 => "i32",
        DType::I64 => "i64",
        DType::U8 => "u8",
        DType::U16 => "u16",
        DType::U32 => "u32",
        DType::U64 => "u64",
        DType::F16 | DType::BF16 | DType::F32 => "float",
        DType::F64 => "double",
        DType::C64 => "cf",
        DType::C128 => "cd",
    }
}

fn constant(ty: DType, v: Scalar) -> String {
    match ty {
        DType::Bool => (if v.is_nonzero() { "true" } else { "false" }).into(),
        DType::F32 | DType::F16 | DType::BF16 => format!("__int_as_float({:#x})", (v.to_f64() as f32).to_bits()),
        DType::F64 => format!("__longlong_as_double({:#x}LL)", v.to_f64().to_bits()),
        DType::C64 => {
            let c = v.to_c128();
            format!(
                "cf{{__int_as_float({:#x}), __int_as_float({:#x})}}",
                (c.re as f32).to_bits(),
                (c.im as f32).to_bits()
            )
        }
        DType::C128 => {
            let c = v.to_c128();
            format!(
                "cd{{__longlong_as_double({:#x}LL), __longlong_as_double({:#x}LL)}}",
                c.re.to_bits(),
                c.im.to_bits()
            )
        }
        d if d.kind() == crate::Kind::Uint => format!("(({})({}ULL))", c_type(d), v.to_u64()),
        // the literal 9223372036854775808 does not fit a long long
        d if v.to_i64() == i64::MIN => format!("(({})(-9223372036854775807LL - 1))", c_type(d)),
        d => format!("(({})({}LL))", c_type(d), v.to_i64()),
    }
}

fn signed_pair(d: DType) -> (&'static str, &'static str) {
    if d == DType::I32 {
        ("i32", "u32")
    } else {
        ("i64", "u64")
    }
}

/// The C name of variable `k`: its own, with the slot appended when another variable has the
/// same name (shadowing, inlined calls).
pub fn var_name(p: &Program, k: usize) -> String {
    let n = &p.vars[k].name;
    let ok = |c: char| c.is_ascii_alphanumeric() || c == '_';
    if n.chars().all(ok) && p.vars.iter().enumerate().all(|(j, v)| j == k || v.name != *n) {
        n.clone()
    } else {
        format!("{}_{k}", n.replace(|c: char| !ok(c), "_"))
    }
}

/// The C text of `e`, variables named by `p`.
pub fn expr(e: &TExpr, p: &Program) -> String {
    match &e.node {
        Node::Const(v) => constant(e.ty, *v),
        Node::Var(k) => var_name(p, *k),
        Node::Index => "i".into(),
        Node::Raw(k, i) => format!("_raw{k}[{}]", expr(i, p)),
        Node::RawLen(k) => format!("_raw{k}.size()"),
        // signed integers wrap as Rust's (and the CPU's) do: through the unsigned type, where
        // C leaves an overflow undefined
        Node::Un(UnOp::Neg, a) if matches!(e.ty, DType::I32 | DType::I64) => {
            let (t, u) = signed_pair(e.ty);
            format!("(({t})(({u})0 - ({u})({})))", expr(a, p))
        }
        Node::Bin(op @ (BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Shl), a, b)
            if matches!(e.ty, DType::I32 | DType::I64) =>
        {
            let (t, u) = signed_pair(e.ty);
            let rhs = if *op == BinOp::Shl { format!("({})", expr(b, p)) } else { format!("({u})({})", expr(b, p)) };
            format!("(({t})(({u})({}) {} {rhs}))", expr(a, p), op.c())
        }
        Node::Un(op, a) => {
            let o = match op {
                UnOp::Neg => "-",
                UnOp::Not => "!",
                UnOp::BitNot => "~",
            };
            format!("({o}({}))", expr(a, p))
        }
        Node::Bin(op, a, b) => format!("(({}) {} ({}))", expr(a, p), op.c(), expr(b, p)),
        Node::Select(c, a, b) => format!("(({}) ? ({}) : ({}))", expr(c, p), expr(a, p), expr(b, p)),
        Node::Convert(a) => format!("cv<{}>({})", c_type(e.ty), expr(a, p)),
        Node::Math(f, args) => {
            let a: Vec<String> = args.iter().map(|x| expr(x, p)).collect();
            format!("{}({})", f.c(), a.join(", "))
        }
        Node::Ufunc1(op, _, a) => format!("u_{}({})", op.name(), expr(a, p)),
        Node::Ufunc2(op, _, a, b) => format!("b_{}({}, {})", op.name(), expr(a, p), expr(b, p)),
        Node::Round(DType::F16, a) => format!("ld(st_h({}))", expr(a, p)),
        Node::Round(DType::BF16, a) => format!("ld(st_bh({}))", expr(a, p)),
        Node::Round(_, a) => expr(a, p),
        Node::Elem(k, i) => format!("{}[{}]", var_name(p, *k), expr(i, p)),
        Node::Builtin(b, axis) => {
            let f = ["x", "y", "z"][(*axis as usize).min(2)];
            match b {
                Builtin::ThreadIdx => format!("((u32)threadIdx.{f})"),
                Builtin::BlockIdx => format!("((u32)blockIdx.{f})"),
                Builtin::BlockDim => format!("((u32)blockDim.{f})"),
                Builtin::GridDim => format!("((u32)gridDim.{f})"),
                Builtin::LaneId => "xp_lane_id()".into(),
                Builtin::WarpSize => "((u32)warpSize)".into(),
            }
        }
        Node::Shuffle(k, v, a) => {
            let f = match k {
                Shfl::Down => "__shfl_down_sync",
                Shfl::Up => "__shfl_up_sync",
                Shfl::Xor => "__shfl_xor_sync",
                Shfl::Idx => "__shfl_sync",
            };
            format!("{f}(0xffffffffu, {}, (int)({}))", expr(v, p), expr(a, p))
        }
        Node::Atomic(op, k, args) => {
            let f = match op {
                AtomicOp::Add => "add",
                AtomicOp::Sub => "sub",
                AtomicOp::Max => "max",
                AtomicOp::Min => "min",
                AtomicOp::Exch => "exch",
                AtomicOp::Cas => "cas",
            };
            let rest: Vec<String> = args[1..].iter().map(|a| expr(a, p)).collect();
            format!("xp_atomic_{f}(_raw{k}.p + ({}), {})", expr(&args[0], p), rest.join(", "))
        }
        Node::Stmts(st, v) => {
            let mut s = format!("[&]() -> {} {{\n", c_type(e.ty));
            stmts(st, p, &mut s);
            s + &format!("return {};\n}}()", expr(v, p))
        }
    }
}

/// The statements of `p` as C: locals declared first, then the body.
pub fn body(p: &Program) -> String {
    let mut s: String = (p.vars.iter().enumerate())
        .filter_map(|(k, v)| match v.role {
            Role::Local => Some(format!("{} {};\n", c_type(v.ty), var_name(p, k))),
            Role::Array(n) => Some(format!("{} {}[{n}];\n", c_type(v.ty), var_name(p, k))),
            Role::Shared(n) => Some(format!("__shared__ {} {}[{n}];\n", c_type(v.ty), var_name(p, k))),
            _ => None,
        })
        .collect();
    stmts(&p.body, p, &mut s);
    s
}

fn stmts(body: &[TStmt], p: &Program, s: &mut String) {
    for st in body {
        match st {
            TStmt::Set(k, e) | TStmt::Let(k, e) => *s += &format!("{} = {};\n", var_name(p, *k), expr(e, p)),
            TStmt::SetElem(k, i, e) => *s += &format!("{}[{}] = {};\n", var_name(p, *k), expr(i, p), expr(e, p)),
            TStmt::If(c, t, e) => {
                *s += &format!("if ({}) {{\n", expr(c, p));
                stmts(t, p, s);
                *s += "} else {\n";
                stmts(e, p, s);
                *s += "}\n";
            }
            TStmt::Loop { cond, body, step, post } => {
                // `continue` must reach the step: the body is a `do { } while (0)` whose
                // `continue` ends it, and a flag carries a `break` out of it.
                *s += "for (;;) {\n";
                if !post {
                    *s += &format!("if (!({})) break;\n", expr(cond, p));
                }
                *s += "bool _brk = true;\ndo {\n";
                stmts(body, p, s);
                *s += "_brk = false;\n} while (0);\nif (_brk) break;\n";
                stmts(step, p, s);
                if *post {
                    *s += &format!("if (!({})) break;\n", expr(cond, p));
                }
                *s += "}\n";
            }
            TStmt::Break => *s += "break;\n",
            TStmt::Continue => *s += "_brk = false; continue;\n",
            TStmt::Inline(b) => {
                *s += "[&]() {\n";
                stmts(b, p, s);
                *s += "}();\n";
            }
            TStmt::Return => *s += "return;\n",
            TStmt::Store(k, i, e) => *s += &format!("_raw{k}.set({}, {});\n", expr(i, p), expr(e, p)),
            TStmt::Sync => *s += "__syncthreads();\n",
        }
    }
}
