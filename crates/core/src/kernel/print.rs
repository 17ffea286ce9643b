//! A typed program as CUDA C over xp's prelude (`u_<op>`/`b_<op>` for ufuncs, `cv<T>` for NumPy's
//! casts, `st_h`/`st_bh` for float16/bfloat16 rounding): how a fused chain reaches the GPU.
use super::ir::{Node, Program, Role, TExpr, TStmt, UnOp};
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
        d => format!("(({})({}LL))", c_type(d), v.to_i64()),
    }
}

/// The C text of `e`, variables named by `p`.
pub fn expr(e: &TExpr, p: &Program) -> String {
    match &e.node {
        Node::Const(v) => constant(e.ty, *v),
        Node::Var(k) => p.vars[*k].name.clone(),
        Node::Index => "i".into(),
        Node::Raw(k, i) => format!("_raw{k}[{}]", expr(i, p)),
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
    }
}

/// The statements of `p` as C: locals declared first, then the body.
pub fn body(p: &Program) -> String {
    let mut s: String =
        p.vars.iter().filter(|v| v.role == Role::Local).map(|v| format!("{} {};\n", c_type(v.ty), v.name)).collect();
    stmts(&p.body, p, &mut s);
    s
}

fn stmts(body: &[TStmt], p: &Program, s: &mut String) {
    for st in body {
        match st {
            TStmt::Set(k, e) => *s += &format!("{} = {};\n", p.vars[*k].name, expr(e, p)),
            TStmt::If(c, t, e) => {
                *s += &format!("if ({}) {{\n", expr(c, p));
                stmts(t, p, s);
                *s += "} else {\n";
                stmts(e, p, s);
                *s += "}\n";
            }
        }
    }
}
