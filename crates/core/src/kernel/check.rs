//! Types a parsed body with C's rules (integer promotion, the usual arithmetic conversions,
//! implicit conversion on assignment) into a [`Program`].
use super::ir::{compute, BinOp, MathFn, Node, Program, Role, TExpr, TStmt, UnOp, VarInfo};
use super::parse::{Expr, Stmt, E};
use super::SourceError;
use crate::kernel::Typedef;
use crate::{DType, Scalar};
use std::collections::HashMap;

/// A raw parameter: its name, dtype and input position.
pub(crate) struct RawParam {
    pub(crate) name: String,
    pub(crate) dtype: DType,
    pub(crate) pos: usize,
}

/// The raw parameters among `ins`, with their dtypes under `typedefs` and input positions.
pub(crate) fn raw_params(ins: &[super::Param], typedefs: &[Typedef]) -> Vec<RawParam> {
    (ins.iter().enumerate())
        .filter(|(_, p)| p.raw)
        .map(|(k, p)| RawParam { name: p.name.clone(), dtype: p.dtype(typedefs), pos: k })
        .collect()
}

pub(crate) struct Checker<'a> {
    pub(crate) vars: Vec<VarInfo>,
    scopes: Vec<HashMap<String, usize>>,
    typedefs: &'a [Typedef],
    raws: &'a [RawParam],
}

/// C's type of a type name (`unsigned long long`, `float`, a placeholder, ...).
fn c_type(name: &str, typedefs: &[Typedef]) -> Option<DType> {
    if let Some((_, d)) = typedefs.iter().find(|(n, _)| &**n == name) {
        return Some(compute(*d));
    }
    Some(match name {
        "bool" => DType::Bool,
        "char" | "signed char" | "i8" | "int8_t" => DType::I8,
        "unsigned char" | "u8" | "uint8_t" => DType::U8,
        "short" | "short int" | "signed short" | "i16" | "int16_t" => DType::I16,
        "unsigned short" | "unsigned short int" | "u16" | "uint16_t" => DType::U16,
        "int" | "signed" | "signed int" | "i32" | "int32_t" => DType::I32,
        "unsigned" | "unsigned int" | "u32" | "uint32_t" => DType::U32,
        "long" | "long int" | "long long" | "long long int" | "signed long long" | "i64" | "int64_t" | "ptrdiff_t" => {
            DType::I64
        }
        "unsigned long" | "unsigned long long" | "unsigned long long int" | "u64" | "uint64_t" | "size_t" => DType::U64,
        "float" => DType::F32,
        "double" => DType::F64,
        _ => return None,
    })
}

/// C's integer promotion.
pub(crate) fn promote_int(t: DType) -> DType {
    match t {
        DType::Bool | DType::I8 | DType::I16 | DType::U8 | DType::U16 => DType::I32,
        t => t,
    }
}

/// C's usual arithmetic conversions.
pub(crate) fn common(a: DType, b: DType) -> DType {
    if a == DType::F64 || b == DType::F64 {
        return DType::F64;
    }
    if a == DType::F32 || b == DType::F32 {
        return DType::F32;
    }
    let (a, b) = (promote_int(a), promote_int(b));
    if a == b {
        return a;
    }
    let rank = |t: DType| if t.size() == 8 { 2 } else { 1 };
    let signed = |t: DType| t.kind() == crate::Kind::Int;
    match (signed(a), signed(b)) {
        (x, y) if x == y => {
            if rank(a) >= rank(b) {
                a
            } else {
                b
            }
        }
        _ => {
            let (s, u) = if signed(a) { (a, b) } else { (b, a) };
            if rank(u) >= rank(s) {
                u
            } else {
                s
            }
        }
    }
}

fn is_int(t: DType) -> bool {
    t.is_integer() || t == DType::Bool
}

impl<'a> Checker<'a> {
    pub(crate) fn new(typedefs: &'a [Typedef], raws: &'a [RawParam]) -> Self {
        Checker { vars: Vec::new(), scopes: vec![HashMap::new()], typedefs, raws }
    }
    /// Declare a parameter (or local) in the outermost scope.
    pub(crate) fn declare(&mut self, name: &str, ty: DType, role: Role) -> usize {
        self.vars.push(VarInfo { name: name.to_string(), ty, role });
        let k = self.vars.len() - 1;
        self.scopes.last_mut().expect("a scope").insert(name.to_string(), k);
        k
    }
    fn lookup(&self, name: &str) -> Option<usize> {
        self.scopes.iter().rev().find_map(|s| s.get(name).copied())
    }
    pub(crate) fn ty_of(&self, name: &str, line: usize) -> Result<DType, SourceError> {
        match c_type(name, self.typedefs) {
            Some(t) => Ok(t),
            None => Err(SourceError::syntax(line, format!("unknown type `{name}`"))),
        }
    }
    pub(crate) fn program(mut self, body: &[Stmt]) -> Result<Program, SourceError> {
        let body = self.stmts(body)?;
        Ok(Program { vars: self.vars, body })
    }
    fn stmts(&mut self, body: &[Stmt]) -> Result<Vec<TStmt>, SourceError> {
        let mut out = Vec::new();
        for s in body {
            match s {
                Stmt::Decl { ty, name, init, line } => {
                    let t = self.ty_of(ty, *line)?;
                    if self.scopes.last().expect("a scope").contains_key(name) {
                        return Err(SourceError::syntax(*line, format!("`{name}` is declared twice")));
                    }
                    let v = match init {
                        Some(e) => self.expr(e)?.to(t),
                        None => TExpr::constant(t, Scalar::Int(0)),
                    };
                    let k = self.declare(name, t, Role::Local);
                    out.push(TStmt::Set(k, v));
                }
                Stmt::Assign { name, op, value, line } => {
                    let Some(k) = self.lookup(name) else {
                        return Err(self.unknown(name, *line));
                    };
                    let info = &self.vars[k];
                    match info.role {
                        Role::Out(_) | Role::Local => {}
                        _ => {
                            return Err(SourceError::syntax(
                                *line,
                                format!("`{name}` is an input and cannot be assigned"),
                            ))
                        }
                    }
                    let ty = info.ty;
                    let v = self.expr(value)?;
                    let v = if *op == "=" {
                        v
                    } else {
                        let cur = TExpr { ty, node: Node::Var(k) };
                        self.binary(&op[..op.len() - 1], cur, v, *line)?
                    };
                    out.push(TStmt::Set(k, v.to(ty)));
                }
                Stmt::If { cond, then, els } => {
                    let c = self.expr(cond)?.to(DType::Bool);
                    self.scopes.push(HashMap::new());
                    let t = self.stmts(then)?;
                    self.scopes.pop();
                    self.scopes.push(HashMap::new());
                    let e = self.stmts(els)?;
                    self.scopes.pop();
                    out.push(TStmt::If(c, t, e));
                }
            }
        }
        Ok(out)
    }
    fn unknown(&self, name: &str, line: usize) -> SourceError {
        if self.raws.iter().any(|r| r.name == name) {
            return SourceError::syntax(line, format!("raw parameter `{name}` is read by indexing: `{name}[i]`"));
        }
        SourceError::outside(
            line,
            format!("unknown name `{name}`: not a parameter or local (names from a preamble run on the GPU only)"),
        )
    }
    pub(crate) fn expr(&mut self, e: &E) -> Result<TExpr, SourceError> {
        let line = e.line;
        Ok(match &e.e {
            Expr::Int(v, u, l) => {
                let v = *v;
                let ty = match (u, l) {
                    (false, false) if v <= i32::MAX as u64 => DType::I32,
                    (false, _) if v <= i64::MAX as u64 => DType::I64,
                    (true, false) if v <= u32::MAX as u64 => DType::U32,
                    _ => DType::U64,
                };
                let s = if ty.kind() == crate::Kind::Int { Scalar::Int(v as i64) } else { Scalar::Uint(v) };
                TExpr::constant(ty, s)
            }
            Expr::Float(v, f) => TExpr::constant(if *f { DType::F32 } else { DType::F64 }, Scalar::Float(*v)),
            Expr::Bool(b) => TExpr::constant(DType::Bool, Scalar::Bool(*b)),
            Expr::Name(n) => match self.lookup(n) {
                Some(k) => TExpr { ty: self.vars[k].ty, node: Node::Var(k) },
                None if n == "i" => TExpr { ty: DType::I64, node: Node::Index },
                None if n == "INFINITY" || n == "CUDART_INF_F" => {
                    TExpr::constant(DType::F32, Scalar::Float(f64::INFINITY))
                }
                None if n == "NAN" || n == "CUDART_NAN_F" => TExpr::constant(DType::F32, Scalar::Float(f64::NAN)),
                None if n == "CUDART_INF" => TExpr::constant(DType::F64, Scalar::Float(f64::INFINITY)),
                None => return Err(self.unknown(n, line)),
            },
            Expr::Index(n, i) => {
                let Some(r) = self.raws.iter().find(|r| &r.name == n) else {
                    return Err(SourceError::outside(line, format!("`{n}[...]`: only raw parameters can be indexed")));
                };
                let (ty, pos) = (compute(r.dtype), r.pos);
                let i = self.expr(i)?;
                if !is_int(i.ty) {
                    return Err(SourceError::syntax(line, format!("the index of `{n}` must be an integer")));
                }
                TExpr { ty, node: Node::Raw(pos, Box::new(i.to(DType::I64))) }
            }
            Expr::Un(op, x) => {
                let x = self.expr(x)?;
                match *op {
                    "+" => {
                        let t = promote_int(x.ty);
                        x.to(t)
                    }
                    "-" => {
                        let t = promote_int(x.ty);
                        TExpr { ty: t, node: Node::Un(UnOp::Neg, Box::new(x.to(t))) }
                    }
                    "!" => TExpr { ty: DType::Bool, node: Node::Un(UnOp::Not, Box::new(x.to(DType::Bool))) },
                    _ => {
                        if !is_int(x.ty) {
                            return Err(SourceError::syntax(line, "`~` needs an integer operand"));
                        }
                        let t = promote_int(x.ty);
                        TExpr { ty: t, node: Node::Un(UnOp::BitNot, Box::new(x.to(t))) }
                    }
                }
            }
            Expr::Bin(op, a, b) => {
                let (a, b) = (self.expr(a)?, self.expr(b)?);
                self.binary(op, a, b, line)?
            }
            Expr::Cond(c, a, b) => {
                let c = self.expr(c)?.to(DType::Bool);
                let (a, b) = (self.expr(a)?, self.expr(b)?);
                let t = if a.ty == b.ty { a.ty } else { common(a.ty, b.ty) };
                TExpr { ty: t, node: Node::Select(Box::new(c), Box::new(a.to(t)), Box::new(b.to(t))) }
            }
            Expr::Cast(ty, x) => {
                let t = self.ty_of(ty, line)?;
                let x = self.expr(x)?;
                TExpr { ty: t, node: Node::Convert(Box::new(x)) }
            }
            Expr::Call(name, args) => self.call(name, args, line)?,
        })
    }
    fn binary(&mut self, op: &str, a: TExpr, b: TExpr, line: usize) -> Result<TExpr, SourceError> {
        use BinOp::*;
        let bop = match op {
            "+" => Add,
            "-" => Sub,
            "*" => Mul,
            "/" => Div,
            "%" => Rem,
            "<<" => Shl,
            ">>" => Shr,
            "&" => And,
            "|" => Or,
            "^" => Xor,
            "<" => Lt,
            "<=" => Le,
            ">" => Gt,
            ">=" => Ge,
            "==" => Eq,
            "!=" => Ne,
            "&&" => LAnd,
            _ => LOr,
        };
        let node = |ty, a: TExpr, b: TExpr| TExpr { ty, node: Node::Bin(bop, Box::new(a), Box::new(b)) };
        Ok(match bop {
            LAnd | LOr => node(DType::Bool, a.to(DType::Bool), b.to(DType::Bool)),
            Shl | Shr | Rem | And | Or | Xor if !(is_int(a.ty) && is_int(b.ty)) => {
                return Err(SourceError::syntax(line, format!("`{op}` needs integer operands")));
            }
            Shl | Shr => {
                let t = promote_int(a.ty);
                node(t, a.to(t), b.to(t))
            }
            Lt | Le | Gt | Ge | Eq | Ne => {
                let t = common(a.ty, b.ty);
                node(DType::Bool, a.to(t), b.to(t))
            }
            _ => {
                let t = common(a.ty, b.ty);
                node(t, a.to(t), b.to(t))
            }
        })
    }
    fn call(&mut self, name: &str, args: &[E], line: usize) -> Result<TExpr, SourceError> {
        let (f, n, single) = match MathFn::by_name(name) {
            Some((f, n)) => (f, n, false),
            None => match name.strip_suffix('f').and_then(MathFn::by_name) {
                Some((f, n)) if !f.takes_integers() => (f, n, true),
                _ => {
                    return Err(SourceError::outside(
                        line,
                        format!("`{name}` is not one of the CPU subset's math functions (it may run on the GPU)"),
                    ))
                }
            },
        };
        if args.len() != n {
            return Err(SourceError::syntax(line, format!("`{name}` takes {n} argument(s), got {}", args.len())));
        }
        let args: Vec<TExpr> = args.iter().map(|a| self.expr(a)).collect::<Result<_, _>>()?;
        let t = if f.takes_integers() && args.iter().all(|a| is_int(a.ty)) {
            args.iter().map(|a| promote_int(a.ty)).reduce(common).expect("an argument")
        } else if single || args.iter().all(|a| a.ty == DType::F32) {
            DType::F32
        } else {
            DType::F64
        };
        let ty = if f.is_predicate() { DType::Bool } else { t };
        Ok(TExpr { ty, node: Node::Math(f, args.into_iter().map(|a| a.to(t)).collect()) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::parse::parse;

    fn check(src: &str, x: DType) -> Result<Program, SourceError> {
        let td = vec![("T".into(), x)];
        let mut c = Checker::new(&td, &[]);
        c.declare("x", compute(x), Role::In(0));
        c.declare("alpha", DType::F32, Role::Scalar(1));
        c.declare("y", compute(x), Role::Out(0));
        c.program(&parse(src, &["T".to_string()])?)
    }

    #[test]
    fn c_conversions() {
        assert_eq!(common(DType::I32, DType::U32), DType::U32);
        assert_eq!(common(DType::I64, DType::U32), DType::I64);
        assert_eq!(common(DType::I8, DType::U16), DType::I32);
        assert_eq!(common(DType::U64, DType::I64), DType::U64);
        assert_eq!(common(DType::F32, DType::I64), DType::F32);
        // 0.1 is a double: float * double computes in double, then converts on assignment
        let p = check("y = 0.1 * x", DType::F32).unwrap();
        let TStmt::Set(2, e) = &p.body[0] else { panic!() };
        assert_eq!(e.ty, DType::F32);
        let Node::Convert(inner) = &e.node else { panic!("{e:?}") };
        assert_eq!(inner.ty, DType::F64);
        // x > 0 ? x : alpha * x stays float
        let p = check("y = x > 0 ? x : alpha * x", DType::F32).unwrap();
        let TStmt::Set(_, e) = &p.body[0] else { panic!() };
        assert!(matches!(e.node, Node::Select(..)));
    }

    #[test]
    fn type_errors_and_outside() {
        let e = check("y = x;\ny = x % 2", DType::F32).unwrap_err();
        assert_eq!((e.line, e.outside), (2, false));
        let e = check("x = 1", DType::F32).unwrap_err();
        assert!(!e.outside && e.msg.contains("input"), "{e:?}");
        let e = check("y = my_fn(x)", DType::F32).unwrap_err();
        assert!(e.outside);
        let e = check("y = sinf(x) + __float2int_rn(x)", DType::F32).unwrap_err();
        assert!(e.outside, "{e:?}");
        let p = check("T t = sinf(x); if (t < 0) t = -t; y = t", DType::F64).unwrap();
        assert_eq!(p.vars[3].ty, DType::F64);
    }
}
