//! A `#[xp::kernel]` function's body ([`super::ast`]) as the typed [`Program`] both backends run,
//! for one binding of its generic parameters, with Rust's semantics where they differ from C's:
//!
//! * integer `+ - * << -x` wrap (narrow integers compute in `i32` and are converted back; the
//!   CUDA printer goes through unsigned types, so nothing is undefined); shift amounts are
//!   masked to the width, as in a release build;
//! * `as` from a float to an integer saturates and NaN gives 0;
//! * float `%` is `fmod`; `max`/`min` ignore a NaN (`fmax`/`fmin`); `a.mul_add(b, c)` is `fma`;
//! * literals take the type rustc gives them ([`super::infer`]);
//! * a `return` leaves the function (the body is an inlined block); `#[xp::device]` callees
//!   are inlined with their generic parameters bound from the arguments' types.
//!
//! Integer division by zero (a panic in Rust) gives 0 on the CPU and is undefined on a GPU.
//!
//! Variables are named so that no name of the user can meet one of the generated C: values
//! `v_<name>`, results `r_<k>`, locals `l_<name>`, temporaries `t_`, raw arrays `_raw<k>`.
use super::ast::{self, Block, Expr, Func, ParamKind, Pat, Stmt, Ty, E};
use super::infer::{infer, resolve_ty, Types};
use crate::kernel::ir::{BinOp, MathFn, Node, Program, Role, TExpr, TStmt, UnOp, VarInfo};
use crate::{DType, Kind, Scalar};

/// An error of the lowering, at a position of the user's file.
#[derive(Clone, Debug, PartialEq)]
pub struct LowerError {
    /// 1-based line (0: unknown)
    pub line: u32,
    /// 0-based column
    pub col: u32,
    /// what was wrong
    pub msg: String,
}

impl LowerError {
    pub(crate) fn new(line: u32, col: u32, msg: String) -> Self {
        LowerError { line, col, msg }
    }
    pub(crate) fn at(e: &Expr, msg: String) -> Self {
        LowerError { line: e.line, col: e.col, msg }
    }
}

type Res<T> = Result<T, LowerError>;

/// The C name of value parameter `name`, result `k`, raw parameter at argument position `k`.
pub fn value_name(name: &str) -> String {
    format!("v_{name}")
}
/// The C name of result `k`.
pub fn result_name(k: usize) -> String {
    format!("r_{k}")
}
/// The C name of the raw parameter at argument position `k`.
pub fn raw_name(k: usize) -> String {
    format!("_raw{k}")
}

#[derive(Clone, Copy)]
pub(super) enum Sym {
    Slot(usize),
    Array(usize),
    /// argument position, element compute type
    Raw(usize, DType),
    Index,
}

pub(super) struct Lo<'f, 'v> {
    f: &'f Func,
    bind: Vec<DType>,
    types: Types,
    vars: &'v mut Vec<VarInfo>,
    scopes: Vec<Vec<(&'static str, Sym)>>,
    /// where a `return` writes
    results: Vec<usize>,
    depth: usize,
    /// a raw kernel: the GPU-only constructs allowed
    pub(super) raw: bool,
}

/// The program of kernel `f` under `bind` (the compute dtype of each generic parameter);
/// `scalar[k]`: whether argument `k` (the parameters other than an `Index`, in order) is a scalar.
pub fn lower(f: &Func, bind: &[DType], scalar: &[bool]) -> Res<Program> {
    lower_with(f, bind, scalar, false)
}

/// The program of raw kernel `f` (`#[xp::raw_kernel]`) under `bind`: its value parameters are
/// scalars; the GPU's builtins, shared arrays, barriers, shuffles, stores and atomics allowed.
pub fn lower_raw(f: &Func, bind: &[DType]) -> Res<Program> {
    lower_with(f, bind, &[], true)
}

fn lower_with(f: &Func, bind: &[DType], scalar: &[bool], raw: bool) -> Res<Program> {
    let mut vars = Vec::new();
    let mut scope = Vec::new();
    let mut pre = Vec::new();
    let mut k = 0;
    for p in &f.params {
        let d = crate::kernel::compute(resolve_ty(f, bind, p.ty)?);
        match p.kind {
            ParamKind::Index => scope.push((p.name, Sym::Index)),
            ParamKind::Raw | ParamKind::RawMut => {
                scope.push((p.name, Sym::Raw(k, d)));
                k += 1;
            }
            ParamKind::Value => {
                let role = if raw || scalar.get(k).copied().unwrap_or(false) { Role::Scalar(k) } else { Role::In(k) };
                vars.push(VarInfo { name: value_name(p.name), ty: d, role });
                // a local copy: the body may assign its parameters
                vars.push(VarInfo { name: format!("l_{}", p.name), ty: d, role: Role::Local });
                let (src, dst) = (vars.len() - 2, vars.len() - 1);
                pre.push(TStmt::Let(dst, TExpr { ty: d, node: Node::Var(src) }));
                scope.push((p.name, Sym::Slot(dst)));
                k += 1;
            }
        }
    }
    let mut results = Vec::new();
    for (j, t) in f.outs.iter().enumerate() {
        let d = crate::kernel::compute(resolve_ty(f, bind, *t)?);
        vars.push(VarInfo { name: result_name(j), ty: d, role: Role::Out(j) });
        results.push(vars.len() - 1);
    }
    let mut lo = Lo::new(f, bind, &mut vars, 0)?;
    lo.raw = raw;
    lo.scopes.push(scope);
    lo.results = results;
    let mut body = pre;
    lo.function_body(&mut body)?;
    // the parameters' copies go first: the rest is one inlined block that `return` leaves
    let n = f.params.iter().filter(|p| p.kind == ParamKind::Value).count();
    let inner = body.split_off(n);
    body.push(TStmt::Inline(inner));
    Ok(Program { vars, body })
}

fn narrow(d: DType) -> bool {
    matches!(d, DType::I8 | DType::I16 | DType::U8 | DType::U16)
}
fn is_float(d: DType) -> bool {
    matches!(d, DType::F16 | DType::BF16 | DType::F32 | DType::F64)
}
fn int(d: DType) -> bool {
    d.is_integer() && d != DType::Bool
}
fn bits(d: DType) -> u32 {
    d.size() as u32 * 8
}
fn texpr(ty: DType, node: Node) -> TExpr {
    TExpr { ty, node }
}
fn cnst(ty: DType, v: Scalar) -> TExpr {
    TExpr::constant(ty, v)
}
fn bx(e: TExpr) -> Box<TExpr> {
    Box::new(e)
}
fn bin(op: BinOp, a: TExpr, b: TExpr) -> TExpr {
    let ty = if op.is_predicate() { DType::Bool } else { a.ty };
    texpr(ty, Node::Bin(op, bx(a), bx(b)))
}
fn math(f: MathFn, ty: DType, args: Vec<TExpr>) -> TExpr {
    texpr(if f.is_predicate() { DType::Bool } else { ty }, Node::Math(f, args))
}
fn select(c: TExpr, a: TExpr, b: TExpr) -> TExpr {
    texpr(a.ty, Node::Select(bx(c), bx(a), bx(b)))
}
/// An integer operation with Rust's wrapping: narrow types compute in int32 and convert back.
fn int_op(op: BinOp, a: TExpr, b: TExpr) -> TExpr {
    let ty = a.ty;
    if narrow(ty) {
        let r = bin(op, a.to(DType::I32), b.to(DType::I32));
        if op.is_predicate() {
            r
        } else {
            r.to(ty)
        }
    } else {
        let b = b.to(ty);
        bin(op, a, b)
    }
}
/// The value of an integer constant in dtype `d` (wrapping).
fn int_scalar(d: DType, v: i128) -> Scalar {
    let b = bits(d);
    let m = if b == 64 { v as u64 } else { (v as u64) & ((1u64 << b) - 1) };
    if d.kind() == Kind::Uint {
        Scalar::Uint(m)
    } else {
        // sign-extend
        Scalar::Int(((m << (64 - b)) as i64) >> (64 - b))
    }
}

/// Rust's `e as to`.
fn rust_cast(a: TExpr, to: DType, out: &mut Vec<TStmt>, vars: &mut Vec<VarInfo>) -> TExpr {
    let from = a.ty;
    if from == to {
        return a;
    }
    if !(is_float(from) && int(to)) {
        return a.to(to);
    }
    let x = temp(a, out, vars);
    let b = bits(to);
    let (hi, lo, max, min) = if to.kind() == Kind::Uint {
        (2f64.powi(b as i32), 0.0, int_scalar(to, (1i128 << b) - 1), Scalar::Uint(0))
    } else {
        let h = 2f64.powi(b as i32 - 1);
        (h, -h, int_scalar(to, (1i128 << (b - 1)) - 1), int_scalar(to, -(1i128 << (b - 1))))
    };
    let c = |v: f64| cnst(from, Scalar::Float(v));
    let inner = select(
        bin(BinOp::Ge, x.clone(), c(hi)),
        cnst(to, max),
        select(bin(BinOp::Le, x.clone(), c(lo)), cnst(to, min), x.clone().to(to)),
    );
    select(math(MathFn::IsNan, from, vec![x]), cnst(to, int_scalar(to, 0)), inner)
}

/// `a` in a fresh local unless it is already a variable or a constant.
fn temp(a: TExpr, out: &mut Vec<TStmt>, vars: &mut Vec<VarInfo>) -> TExpr {
    if matches!(a.node, Node::Var(_) | Node::Const(_)) {
        return a;
    }
    vars.push(VarInfo { name: "t_".into(), ty: a.ty, role: Role::Local });
    let k = vars.len() - 1;
    let ty = a.ty;
    out.push(TStmt::Let(k, a));
    texpr(ty, Node::Var(k))
}

/// An associated constant of `d`.
fn constant(d: DType, name: &str) -> Option<Scalar> {
    use std::f64::consts as c;
    if int(d) {
        let b = bits(d);
        let (min, max) =
            if d.kind() == Kind::Uint { (0, (1i128 << b) - 1) } else { (-(1i128 << (b - 1)), (1i128 << (b - 1)) - 1) };
        return Some(int_scalar(
            d,
            match name {
                "ZERO" => 0,
                "ONE" => 1,
                "MAX" => max,
                "MIN" => min,
                "BITS" => b as i128,
                _ => return None,
            },
        ));
    }
    let f32 = d != DType::F64;
    let pick = |a: f32, b: f64| Some(Scalar::Float(if f32 { a as f64 } else { b }));
    use std::f32::consts as s;
    match name {
        "ZERO" => pick(0.0, 0.0),
        "ONE" => pick(1.0, 1.0),
        "MAX" => pick(f32::MAX, f64::MAX),
        "MIN" => pick(f32::MIN, f64::MIN),
        "EPSILON" => pick(f32::EPSILON, f64::EPSILON),
        "INFINITY" => pick(f32::INFINITY, f64::INFINITY),
        "NEG_INFINITY" => pick(f32::NEG_INFINITY, f64::NEG_INFINITY),
        "NAN" => pick(f32::NAN, f64::NAN),
        "MIN_POSITIVE" => pick(f32::MIN_POSITIVE, f64::MIN_POSITIVE),
        "PI" => pick(s::PI, c::PI),
        "TAU" => pick(s::TAU, c::TAU),
        "E" => pick(s::E, c::E),
        "LN_2" => pick(s::LN_2, c::LN_2),
        "LN_10" => pick(s::LN_10, c::LN_10),
        "LOG2_E" => pick(s::LOG2_E, c::LOG2_E),
        "LOG10_E" => pick(s::LOG10_E, c::LOG10_E),
        "LOG2_10" => pick(s::LOG2_10, c::LOG2_10),
        "LOG10_2" => pick(s::LOG10_2, c::LOG10_2),
        "SQRT_2" => pick(s::SQRT_2, c::SQRT_2),
        "FRAC_1_SQRT_2" => pick(s::FRAC_1_SQRT_2, c::FRAC_1_SQRT_2),
        "FRAC_PI_2" => pick(s::FRAC_PI_2, c::FRAC_PI_2),
        "FRAC_PI_3" => pick(s::FRAC_PI_3, c::FRAC_PI_3),
        "FRAC_PI_4" => pick(s::FRAC_PI_4, c::FRAC_PI_4),
        "FRAC_PI_6" => pick(s::FRAC_PI_6, c::FRAC_PI_6),
        "FRAC_PI_8" => pick(s::FRAC_PI_8, c::FRAC_PI_8),
        "FRAC_1_PI" => pick(s::FRAC_1_PI, c::FRAC_1_PI),
        "FRAC_2_PI" => pick(s::FRAC_2_PI, c::FRAC_2_PI),
        "FRAC_2_SQRT_PI" => pick(s::FRAC_2_SQRT_PI, c::FRAC_2_SQRT_PI),
        _ => None,
    }
}

impl<'f, 'v> Lo<'f, 'v> {
    fn new(f: &'f Func, bind: &[DType], vars: &'v mut Vec<VarInfo>, depth: usize) -> Res<Self> {
        let types = infer(f, bind)?;
        Ok(Lo { f, bind: bind.to_vec(), types, vars, scopes: vec![], results: vec![], depth, raw: false })
    }
    pub(super) fn local(&mut self, name: String, ty: DType, role: Role) -> usize {
        self.vars.push(VarInfo { name, ty: crate::kernel::compute(ty), role });
        self.vars.len() - 1
    }
    fn var(&self, k: usize) -> TExpr {
        texpr(self.vars[k].ty, Node::Var(k))
    }
    fn ty(&self, t: Ty) -> Res<DType> {
        resolve_ty(self.f, &self.bind, t).map(crate::kernel::compute)
    }
    pub(super) fn lookup(&self, name: &str, e: &Expr) -> Res<Sym> {
        (self.scopes.iter().rev().flat_map(|s| s.iter().rev()))
            .find(|(n, _)| *n == name)
            .map(|x| x.1)
            .ok_or_else(|| LowerError::at(e, format!("unknown name `{name}`")))
    }
    fn bind_name(&mut self, name: &'static str, s: Sym) {
        self.scopes.last_mut().expect("a scope").push((name, s));
    }
    /// The function's statements and its result (the tail) written to `self.results`.
    fn function_body(&mut self, out: &mut Vec<TStmt>) -> Res<()> {
        self.scopes.push(vec![]);
        for st in &self.f.body.stmts {
            self.stmt(st, out)?;
        }
        if let Some(t) = self.f.body.tail.as_deref() {
            self.set_results(t, out)?;
        }
        self.scopes.pop();
        Ok(())
    }
    /// `e` (a value, or a tuple of values) into the result variables.
    fn set_results(&mut self, e: &Expr, out: &mut Vec<TStmt>) -> Res<()> {
        let vals: Vec<&Expr> = match &e.kind {
            E::Tuple(es) => es.iter().collect(),
            _ => vec![e],
        };
        let mut got = Vec::new();
        for v in &vals {
            got.push(self.expr(v, out)?);
        }
        if got.iter().all(Option::is_none) {
            return Ok(()); // diverges
        }
        if got.len() != self.results.len() {
            return Err(LowerError::at(e, format!("the function returns {} values", self.results.len())));
        }
        for (v, &k) in got.into_iter().zip(&self.results.clone()) {
            let v = v.ok_or_else(|| LowerError::at(e, "a result without a value".into()))?;
            let ty = self.vars[k].ty;
            out.push(TStmt::Set(k, v.to(ty)));
        }
        Ok(())
    }
    fn stmt(&mut self, st: &Stmt, out: &mut Vec<TStmt>) -> Res<()> {
        match st {
            Stmt::Let { name, init, .. } => {
                let d = self.types.stmt(st).ok_or_else(|| LowerError::new(0, 0, format!("no type for `{name}`")))?;
                let v = match init {
                    Some(e) => Some(self.value(e, out)?),
                    None => None,
                };
                let k = self.local(format!("l_{name}"), d, Role::Local);
                if let Some(v) = v {
                    out.push(TStmt::Let(k, v.to(self.vars[k].ty)));
                }
                self.bind_name(name, Sym::Slot(k));
            }
            Stmt::Array { name, elem, len, .. } => {
                let d = self.types.stmt(st).ok_or_else(|| LowerError::at(elem, format!("no type for `{name}`")))?;
                if *len == 0 || *len > 256 {
                    return Err(LowerError::at(elem, format!("a local array holds 1 to 256 elements, not {len}")));
                }
                let v = self.value(elem, out)?;
                let v = temp(v.to(crate::kernel::compute(d)), out, self.vars);
                let k = self.local(format!("l_{name}"), d, Role::Array(*len));
                for j in 0..*len {
                    out.push(TStmt::SetElem(k, cnst(DType::I64, Scalar::Int(j as i64)), v.clone()));
                }
                self.bind_name(name, Sym::Array(k));
            }
            Stmt::Shared { name, len, .. } => {
                let d = self.types.stmt(st).ok_or_else(|| LowerError::new(0, 0, format!("no type for `{name}`")))?;
                self.gpu_only(name)?;
                let k = self.local(format!("s_{name}"), d, Role::Shared(*len));
                self.bind_name(name, Sym::Array(k));
            }
            Stmt::Expr(e) => {
                // a value with an effect (an atomic whose old value is unused) is still computed
                match self.expr(e, out)? {
                    Some(v) if matches!(v.node, Node::Atomic(..)) => {
                        temp(v, out, self.vars);
                    }
                    _ => {}
                }
            }
        }
        Ok(())
    }
    pub(super) fn value(&mut self, e: &Expr, out: &mut Vec<TStmt>) -> Res<TExpr> {
        self.expr(e, out)?.ok_or_else(|| LowerError::at(e, "this expression has no value".into()))
    }
    fn block(&mut self, b: &Block, out: &mut Vec<TStmt>) -> Res<Option<TExpr>> {
        self.scopes.push(vec![]);
        for st in &b.stmts {
            self.stmt(st, out)?;
        }
        let r = match &b.tail {
            Some(t) => self.expr(t, out)?,
            None => None,
        };
        self.scopes.pop();
        Ok(r)
    }
    fn expr(&mut self, e: &Expr, out: &mut Vec<TStmt>) -> Res<Option<TExpr>> {
        let ty = self.types.expr(e).map(crate::kernel::compute);
        let need = |t: Option<DType>| t.ok_or_else(|| LowerError::at(e, "no type inferred here".into()));
        Ok(Some(match &e.kind {
            E::Int(v, _) => {
                let d = need(ty)?;
                if is_float(d) {
                    cnst(d, Scalar::Float(*v as f64))
                } else {
                    cnst(d, int_scalar(d, *v as i128))
                }
            }
            E::Float(text, _) => {
                let d = need(ty)?;
                let v =
                    if d == DType::F64 { text.parse::<f64>().ok() } else { text.parse::<f32>().ok().map(f64::from) };
                cnst(d, Scalar::Float(v.ok_or_else(|| LowerError::at(e, format!("bad literal `{text}`")))?))
            }
            E::Bool(b) => cnst(DType::Bool, Scalar::Bool(*b)),
            E::Builtin(name, axis) => {
                self.gpu_only(name)?;
                texpr(DType::U32, Node::Builtin(super::raw::builtin(name, e)?, *axis))
            }
            E::Call(name, args) if *name == "sync_threads" || name.starts_with("shfl") => {
                self.gpu_only(name)?;
                return self.gpu_call(e, name, args, out);
            }
            E::Method(r, name, args) if *name == "set" || name.starts_with("atomic_") => {
                self.gpu_only(name)?;
                return self.raw_write(e, r, name, args, out);
            }
            E::Var(n) => match self.lookup(n, e)? {
                Sym::Slot(k) => self.var(k),
                Sym::Index => texpr(DType::I64, Node::Index),
                _ => return Err(LowerError::at(e, format!("`{n}` is an array: read its elements"))),
            },
            E::Const(t, name) => {
                let d = self.ty(*t)?;
                let v = constant(d, name).ok_or_else(|| LowerError::at(e, format!("no constant `{name}` for {d}")))?;
                cnst(d, v)
            }
            E::Lit(t, x) => {
                let d = self.ty(*t)?;
                let v = self.value(x, out)?.to(DType::F64);
                rust_cast(v, d, out, self.vars)
            }
            E::Un(op, a) => return self.unary(e, *op, a, out).map(Some),
            E::Bin(op, a, b) => {
                let x = self.value(a, out)?;
                let y = self.value(b, out)?;
                self.binary(e, *op, x, y)?
            }
            E::Assign(op, place, val) => {
                let v = self.value(val, out)?;
                let v = match op {
                    Some(op) => {
                        let cur = self.value(place, out)?;
                        self.binary(e, *op, cur, v)?
                    }
                    None => v,
                };
                self.store(place, v, out)?;
                return Ok(None);
            }
            E::Cast(a, t) => {
                let d = self.ty(*t)?;
                let v = self.value(a, out)?;
                rust_cast(v, d, out, self.vars)
            }
            E::If(c, then, els) => return self.if_expr(ty, c, then, els.as_deref(), out),
            E::Block(b) => return self.block(b, out),
            E::Match(s, arms) => return self.match_expr(ty, s, arms, out),
            E::For { .. } => {
                self.for_loop(e, out)?;
                return Ok(None);
            }
            E::While(c, b) => {
                let mut cs = Vec::new();
                let cv = self.value(c, &mut cs)?;
                let mut body = Vec::new();
                self.block(b, &mut body)?;
                if cs.is_empty() {
                    out.push(TStmt::Loop { cond: cv, body, step: vec![], post: false });
                } else {
                    cs.push(TStmt::If(texpr(DType::Bool, Node::Un(UnOp::Not, bx(cv))), vec![TStmt::Break], vec![]));
                    cs.extend(body);
                    out.push(TStmt::Loop {
                        cond: cnst(DType::Bool, Scalar::Bool(true)),
                        body: cs,
                        step: vec![],
                        post: false,
                    });
                }
                return Ok(None);
            }
            E::Loop(b) => {
                let mut body = Vec::new();
                self.block(b, &mut body)?;
                out.push(TStmt::Loop { cond: cnst(DType::Bool, Scalar::Bool(true)), body, step: vec![], post: false });
                return Ok(None);
            }
            E::Break => {
                out.push(TStmt::Break);
                return Ok(None);
            }
            E::Continue => {
                out.push(TStmt::Continue);
                return Ok(None);
            }
            E::Return(x) => {
                if let Some(x) = x {
                    self.set_results(x, out)?;
                }
                out.push(TStmt::Return);
                return Ok(None);
            }
            E::Method(r, name, args) => self.method(e, r, name, args, out)?,
            E::Call(name, args) => self.call(e, name, args, out)?,
            E::Tuple(_) => return Err(LowerError::at(e, "a tuple is a function's result only".into())),
            E::Index(a, j) => {
                let k = self.array(a)?;
                let j = self.value(j, out)?.to(DType::I64);
                texpr(self.vars[k].ty, Node::Elem(k, bx(j)))
            }
        }))
    }
    fn array(&self, a: &Expr) -> Res<usize> {
        match &a.kind {
            E::Var(n) => match self.lookup(n, a)? {
                Sym::Array(k) => Ok(k),
                _ => Err(LowerError::at(a, format!("`{n}` is not a local array"))),
            },
            _ => Err(LowerError::at(a, "only a local array can be indexed".into())),
        }
    }
    fn store(&mut self, place: &Expr, v: TExpr, out: &mut Vec<TStmt>) -> Res<()> {
        match &place.kind {
            E::Var(n) => match self.lookup(n, place)? {
                Sym::Slot(k) => {
                    let ty = self.vars[k].ty;
                    out.push(TStmt::Set(k, v.to(ty)));
                    Ok(())
                }
                _ => Err(LowerError::at(place, format!("`{n}` cannot be assigned"))),
            },
            E::Index(a, j) => {
                let k = self.array(a)?;
                let j = self.value(j, out)?.to(DType::I64);
                let ty = self.vars[k].ty;
                out.push(TStmt::SetElem(k, j, v.to(ty)));
                Ok(())
            }
            _ => Err(LowerError::at(place, "only a variable or an array element can be assigned".into())),
        }
    }
    fn unary(&mut self, e: &Expr, op: ast::UnOp, a: &Expr, out: &mut Vec<TStmt>) -> Res<TExpr> {
        if let (ast::UnOp::Neg, E::Int(v, _)) = (op, &a.kind) {
            // a negative literal: folded, so that `-128i8` is i8::MIN
            let d = self.types.expr(a).ok_or_else(|| LowerError::at(e, "no type inferred here".into()))?;
            return Ok(if is_float(d) {
                cnst(crate::kernel::compute(d), Scalar::Float(-(*v as f64)))
            } else {
                cnst(d, int_scalar(d, -(*v as i128)))
            });
        }
        let x = self.value(a, out)?;
        let ty = x.ty;
        Ok(match op {
            ast::UnOp::Neg if is_float(ty) => texpr(ty, Node::Un(UnOp::Neg, bx(x))),
            ast::UnOp::Neg if narrow(ty) => texpr(DType::I32, Node::Un(UnOp::Neg, bx(x.to(DType::I32)))).to(ty),
            ast::UnOp::Neg => texpr(ty, Node::Un(UnOp::Neg, bx(x))),
            ast::UnOp::Not if ty == DType::Bool => texpr(ty, Node::Un(UnOp::Not, bx(x))),
            ast::UnOp::Not if narrow(ty) => texpr(DType::I32, Node::Un(UnOp::BitNot, bx(x.to(DType::I32)))).to(ty),
            ast::UnOp::Not if int(ty) => texpr(ty, Node::Un(UnOp::BitNot, bx(x))),
            ast::UnOp::Not => return Err(LowerError::at(e, format!("`!` of a {ty}"))),
        })
    }
    fn binary(&mut self, e: &Expr, op: ast::BinOp, x: TExpr, y: TExpr) -> Res<TExpr> {
        use ast::BinOp as A;
        let ty = x.ty;
        let b = match op {
            A::Add => BinOp::Add,
            A::Sub => BinOp::Sub,
            A::Mul => BinOp::Mul,
            A::Div => BinOp::Div,
            A::Rem => BinOp::Rem,
            A::Shl => BinOp::Shl,
            A::Shr => BinOp::Shr,
            A::BitAnd => BinOp::And,
            A::BitOr => BinOp::Or,
            A::BitXor => BinOp::Xor,
            A::Lt => BinOp::Lt,
            A::Le => BinOp::Le,
            A::Gt => BinOp::Gt,
            A::Ge => BinOp::Ge,
            A::Eq => BinOp::Eq,
            A::Ne => BinOp::Ne,
            A::And => BinOp::LAnd,
            A::Or => BinOp::LOr,
        };
        Ok(match op {
            A::And | A::Or => bin(b, x.to(DType::Bool), y.to(DType::Bool)),
            A::Shl | A::Shr => {
                if !int(ty) {
                    return Err(LowerError::at(e, format!("a shift of a {ty}")));
                }
                let amount = bin(BinOp::And, y.to(DType::U32), cnst(DType::U32, Scalar::Uint(bits(ty) as u64 - 1)));
                int_op(b, x, amount)
            }
            _ if ty == DType::Bool => match op {
                A::BitAnd => bin(BinOp::LAnd, x, y),
                A::BitOr => bin(BinOp::LOr, x, y),
                A::BitXor | A::Ne => bin(BinOp::Ne, x, y),
                A::Eq => bin(BinOp::Eq, x, y),
                // false < true
                A::Lt => bin(BinOp::Lt, x.to(DType::I32), y.to(DType::I32)),
                A::Le => bin(BinOp::Le, x.to(DType::I32), y.to(DType::I32)),
                A::Gt => bin(BinOp::Gt, x.to(DType::I32), y.to(DType::I32)),
                A::Ge => bin(BinOp::Ge, x.to(DType::I32), y.to(DType::I32)),
                _ => return Err(LowerError::at(e, "arithmetic on bools".into())),
            },
            A::Rem if is_float(ty) => math(MathFn::Fmod, ty, vec![x, y.to(ty)]),
            _ if is_float(ty) => {
                let y = y.to(ty);
                bin(b, x, y)
            }
            _ => int_op(b, x, y),
        })
    }
    fn if_expr(
        &mut self,
        ty: Option<DType>,
        c: &Expr,
        then: &Block,
        els: Option<&Expr>,
        out: &mut Vec<TStmt>,
    ) -> Res<Option<TExpr>> {
        let cv = self.value(c, out)?.to(DType::Bool);
        let (mut tb, mut eb) = (Vec::new(), Vec::new());
        let tv = self.block(then, &mut tb)?;
        let ev = match els {
            Some(x) => self.expr(x, &mut eb)?,
            None => None,
        };
        let Some(ty) = ty else {
            out.push(TStmt::If(cv, tb, eb));
            return Ok(None);
        };
        if let (true, true, Some(a), Some(b)) = (tb.is_empty(), eb.is_empty(), &tv, &ev) {
            return Ok(Some(select(cv, a.clone().to(ty), b.clone().to(ty))));
        }
        let t = self.local("t_".into(), ty, Role::Local);
        let ty = self.vars[t].ty;
        if let Some(a) = tv {
            tb.push(TStmt::Set(t, a.to(ty)));
        }
        if let Some(b) = ev {
            eb.push(TStmt::Set(t, b.to(ty)));
        }
        out.push(TStmt::If(cv, tb, eb));
        Ok(Some(self.var(t)))
    }
    fn match_expr(
        &mut self,
        ty: Option<DType>,
        s: &Expr,
        arms: &[ast::Arm],
        out: &mut Vec<TStmt>,
    ) -> Res<Option<TExpr>> {
        let sv = self.value(s, out)?;
        let sv = temp(sv, out, self.vars);
        let sty = sv.ty;
        let res = ty.map(|t| self.local("t_".into(), t, Role::Local));
        // (condition, statements) per arm, conditions computed before the chain
        let mut chain: Vec<(Option<TExpr>, Vec<TStmt>)> = Vec::new();
        for a in arms {
            let mut cond: Option<TExpr> = None;
            let or = |c: Option<TExpr>, x: TExpr| {
                Some(match c {
                    Some(c) => bin(BinOp::LOr, c, x),
                    None => x,
                })
            };
            let k = |v: i128| {
                if sty == DType::Bool {
                    cnst(DType::Bool, Scalar::Bool(v != 0))
                } else {
                    cnst(sty, int_scalar(sty, v))
                }
            };
            let mut wild = false;
            for p in &a.pats {
                match *p {
                    Pat::Wild => wild = true,
                    Pat::Lit(v) => cond = or(cond, int_op(BinOp::Eq, sv.clone(), k(v))),
                    Pat::Range(lo, hi, incl) => {
                        let lo = lo.map(|v| int_op(BinOp::Ge, sv.clone(), k(v)));
                        let hi = hi.map(|v| int_op(if incl { BinOp::Le } else { BinOp::Lt }, sv.clone(), k(v)));
                        let c = match (lo, hi) {
                            (Some(a), Some(b)) => bin(BinOp::LAnd, a, b),
                            (Some(a), None) | (None, Some(a)) => a,
                            (None, None) => cnst(DType::Bool, Scalar::Bool(true)),
                        };
                        cond = or(cond, c);
                    }
                }
            }
            if wild {
                cond = None;
            }
            if let Some(g) = &a.guard {
                let gv = self.value(g, out)?.to(DType::Bool);
                cond = Some(match cond {
                    Some(c) => bin(BinOp::LAnd, c, gv),
                    None => gv,
                });
            }
            let mut body = Vec::new();
            let v = self.expr(&a.body, &mut body)?;
            if let (Some(r), Some(v)) = (res, v) {
                let t = self.vars[r].ty;
                body.push(TStmt::Set(r, v.to(t)));
            }
            chain.push((cond, body));
        }
        let mut tail: Vec<TStmt> = Vec::new();
        for (cond, body) in chain.into_iter().rev() {
            tail = match cond {
                None => body,
                Some(c) => vec![TStmt::If(c, body, tail)],
            };
        }
        out.extend(tail);
        Ok(res.map(|r| self.var(r)))
    }
    fn for_loop(&mut self, e: &Expr, out: &mut Vec<TStmt>) -> Res<()> {
        let E::For { var, lo, hi, inclusive, rev, step, body } = &e.kind else { unreachable!("a for loop") };
        let d = self.types.expr(e).ok_or_else(|| LowerError::at(e, "no type for the loop variable".into()))?;
        let lov = self.value(lo, out)?.to(d);
        let hiv = self.value(hi, out)?.to(d);
        let i = self.local(format!("l_{var}"), d, Role::Local);
        let end = self.local("t_".into(), d, Role::Local);
        let one = cnst(d, int_scalar(d, 1));
        let iv = self.var(i);
        self.scopes.push(vec![(var, Sym::Slot(i))]);
        let mut inner = Vec::new();
        if *rev {
            if step.is_some() {
                return Err(LowerError::at(e, "`.rev()` with `.step_by()` is outside the subset".into()));
            }
            // from the end down: the decrement opens the body
            let start = if *inclusive { int_op(BinOp::Add, hiv, one.clone()) } else { hiv };
            out.push(TStmt::Let(end, lov));
            out.push(TStmt::Let(i, start));
            inner.push(TStmt::Set(i, int_op(BinOp::Sub, iv.clone(), one)));
            self.block(body, &mut inner)?;
            self.scopes.pop();
            let cond = int_op(BinOp::Gt, iv, self.var(end));
            out.push(TStmt::Loop { cond, body: inner, step: vec![], post: false });
            return Ok(());
        }
        let stepv = match step {
            Some(s) => {
                let v = self.value(s, out)?.to(d);
                temp(v, out, self.vars)
            }
            None => one,
        };
        out.push(TStmt::Let(end, hiv));
        out.push(TStmt::Let(i, lov));
        self.block(body, &mut inner)?;
        self.scopes.pop();
        let cond = int_op(if *inclusive { BinOp::Le } else { BinOp::Lt }, iv.clone(), self.var(end));
        let step = vec![TStmt::Set(i, int_op(BinOp::Add, iv, stepv))];
        out.push(TStmt::Loop { cond, body: inner, step, post: false });
        Ok(())
    }
    fn method(&mut self, e: &Expr, r: &Expr, name: &str, args: &[Expr], out: &mut Vec<TStmt>) -> Res<TExpr> {
        if let (E::Var(n), "at" | "len") = (&r.kind, name) {
            let Sym::Raw(k, d) = self.lookup(n, r)? else {
                return Err(LowerError::at(e, format!("`{n}` is not a Raw parameter")));
            };
            if name == "len" {
                return Ok(texpr(DType::I64, Node::RawLen(k)));
            }
            let j = self.value(args.first().ok_or_else(|| LowerError::at(e, "`at` takes an index".into()))?, out)?;
            return Ok(texpr(d, Node::Raw(k, bx(j.to(DType::I64)))));
        }
        let x = self.value(r, out)?;
        let ty = x.ty;
        let mut a = Vec::new();
        for v in args {
            a.push(self.value(v, out)?);
        }
        let arg = |k: usize| -> Res<TExpr> {
            a.get(k).cloned().ok_or_else(|| LowerError::at(e, format!("`{name}` needs more arguments")))
        };
        let f = |m: MathFn| -> Res<TExpr> { Ok(math(m, ty, vec![x.clone()])) };
        let f2 = |m: MathFn| -> Res<TExpr> { Ok(math(m, ty, vec![x.clone(), arg(0)?.to(ty)])) };
        let fl = is_float(ty);
        let one = || cnst(ty, Scalar::Float(1.0));
        match name {
            "to_f64" => return Ok(x.to(DType::F64)),
            "to_i64" => return Ok(rust_cast(x, DType::I64, out, self.vars)),
            "max" | "min" if !fl => return f2(if name == "max" { MathFn::Max } else { MathFn::Min }),
            "abs" if !fl => return f(MathFn::Abs),
            "wrapping_add" => return Ok(int_op(BinOp::Add, x, arg(0)?)),
            "wrapping_sub" => return Ok(int_op(BinOp::Sub, x, arg(0)?)),
            "wrapping_mul" => return Ok(int_op(BinOp::Mul, x, arg(0)?)),
            "wrapping_neg" => return Ok(int_op(BinOp::Sub, cnst(ty, int_scalar(ty, 0)), x)),
            "wrapping_shl" | "wrapping_shr" => {
                let op = if name == "wrapping_shl" { ast::BinOp::Shl } else { ast::BinOp::Shr };
                return self.binary(e, op, x, arg(0)?);
            }
            "clamp" => {
                let x = temp(x, out, self.vars);
                let (lo, hi) = (arg(0)?.to(ty), arg(1)?.to(ty));
                let lt = if narrow(ty) {
                    int_op(BinOp::Lt, x.clone(), lo.clone())
                } else {
                    bin(BinOp::Lt, x.clone(), lo.clone())
                };
                let gt = if narrow(ty) {
                    int_op(BinOp::Gt, x.clone(), hi.clone())
                } else {
                    bin(BinOp::Gt, x.clone(), hi.clone())
                };
                return Ok(select(lt, lo, select(gt, hi, x)));
            }
            "signum" if !fl => {
                let x = temp(x, out, self.vars);
                let z = cnst(ty, int_scalar(ty, 0));
                let gt = int_op(BinOp::Gt, x.clone(), z.clone());
                let lt = int_op(BinOp::Lt, x, z.clone());
                return Ok(select(gt, cnst(ty, int_scalar(ty, 1)), select(lt, cnst(ty, int_scalar(ty, -1)), z)));
            }
            _ if !fl => return Err(LowerError::at(e, format!("`{name}` of a {ty}"))),
            _ => {}
        }
        use MathFn as M;
        match name {
            "sin" => f(M::Sin),
            "cos" => f(M::Cos),
            "tan" => f(M::Tan),
            "asin" => f(M::Asin),
            "acos" => f(M::Acos),
            "atan" => f(M::Atan),
            "sinh" => f(M::Sinh),
            "cosh" => f(M::Cosh),
            "tanh" => f(M::Tanh),
            "asinh" => f(M::Asinh),
            "acosh" => f(M::Acosh),
            "atanh" => f(M::Atanh),
            "exp" => f(M::Exp),
            "exp2" => f(M::Exp2),
            "exp_m1" => f(M::Expm1),
            "ln" => f(M::Log),
            "log2" => f(M::Log2),
            "log10" => f(M::Log10),
            "ln_1p" => f(M::Log1p),
            "sqrt" => f(M::Sqrt),
            "cbrt" => f(M::Cbrt),
            "floor" => f(M::Floor),
            "ceil" => f(M::Ceil),
            "trunc" => f(M::Trunc),
            "round" => f(M::Round),
            "round_ties_even" => f(M::Rint),
            "abs" => f(M::Fabs),
            "is_nan" => f(M::IsNan),
            "is_infinite" => f(M::IsInf),
            "is_finite" => f(M::IsFinite),
            "is_sign_negative" => f(M::Signbit),
            "is_sign_positive" => Ok(texpr(DType::Bool, Node::Un(UnOp::Not, bx(math(M::Signbit, ty, vec![x]))))),
            "powf" => f2(M::Pow),
            "powi" => Ok(math(M::Pow, ty, vec![x, arg(0)?.to(ty)])),
            "atan2" => f2(M::Atan2),
            "hypot" => f2(M::Hypot),
            "max" => f2(M::Fmax),
            "min" => f2(M::Fmin),
            "copysign" => f2(M::Copysign),
            "mul_add" => Ok(math(M::Fma, ty, vec![x, arg(0)?.to(ty), arg(1)?.to(ty)])),
            "fract" => {
                let x = temp(x, out, self.vars);
                Ok(bin(BinOp::Sub, x.clone(), math(M::Trunc, ty, vec![x])))
            }
            "recip" => Ok(bin(BinOp::Div, one(), x)),
            // Rust's formulas: a multiplication by the constant `1.0.to_degrees()`
            "to_degrees" | "to_radians" => {
                let k = match (ty == DType::F64, name == "to_degrees") {
                    (true, true) => 1f64.to_degrees(),
                    (true, false) => 1f64.to_radians(),
                    (false, true) => 1f32.to_degrees() as f64,
                    (false, false) => 1f32.to_radians() as f64,
                };
                Ok(bin(BinOp::Mul, x, cnst(ty, Scalar::Float(k))))
            }
            "log" => {
                let b = arg(0)?.to(ty);
                Ok(bin(BinOp::Div, math(M::Log, ty, vec![x]), math(M::Log, ty, vec![b])))
            }
            "signum" => {
                // NaN stays NaN; ±0 gives ±1
                let x = temp(x, out, self.vars);
                Ok(select(math(M::IsNan, ty, vec![x.clone()]), x.clone(), math(M::Copysign, ty, vec![one(), x])))
            }
            _ => Err(LowerError::at(e, format!("the method `{name}` is outside the kernel subset"))),
        }
    }
    fn call(&mut self, e: &Expr, name: &str, args: &[Expr], out: &mut Vec<TStmt>) -> Res<TExpr> {
        let mut a = Vec::new();
        for v in args {
            a.push(self.value(v, out)?);
        }
        let Some(callee) = self.f.callees.iter().find(|c| c.0 == name).map(|c| (c.1)()) else {
            let m = match name {
                "i0" => MathFn::I0,
                "i1" => MathFn::I1,
                n => MathFn::by_name(n).filter(|m| m.1 == a.len()).map(|m| m.0).ok_or_else(|| {
                    LowerError::at(e, format!("`{name}` is neither a math function nor an #[xp::device] function"))
                })?,
            };
            let ty = self.types.expr(e).map(crate::kernel::compute).unwrap_or(DType::F64);
            return Ok(math(m, ty, a.into_iter().map(|x| x.to(ty)).collect()));
        };
        if self.depth > 32 {
            return Err(LowerError::at(e, format!("`{name}`: calls nest too deeply (recursion?)")));
        }
        // the callee's generic parameters from the arguments' types
        let mut bind = vec![DType::F64; callee.generics.len()];
        for (p, x) in callee.params.iter().zip(&a) {
            if let Ty::Gen(n) = p.ty {
                if let Some(k) = callee.generics.iter().position(|g| g.0 == n) {
                    bind[k] = x.ty;
                }
            }
        }
        let out_ty = crate::kernel::compute(resolve_ty(callee, &bind, callee.outs[0])?);
        let r = self.local("t_".into(), out_ty, Role::Local);
        let mut sub = Lo::new(callee, &bind, self.vars, self.depth + 1)?;
        let mut scope = Vec::new();
        let mut body = Vec::new();
        for (p, x) in callee.params.iter().zip(a) {
            let d = crate::kernel::compute(resolve_ty(callee, &bind, p.ty)?);
            let k = sub.local(format!("l_{}", p.name), d, Role::Local);
            out.push(TStmt::Let(k, x.to(d)));
            scope.push((p.name, Sym::Slot(k)));
        }
        sub.scopes.push(scope);
        sub.results = vec![r];
        sub.function_body(&mut body)?;
        out.push(TStmt::Inline(body));
        Ok(self.var(r))
    }
}
