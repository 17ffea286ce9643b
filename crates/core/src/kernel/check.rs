//! Types a parsed body with C's rules (integer promotion, the usual arithmetic conversions,
//! implicit conversion on assignment) into a [`Program`]. Calls of the preamble's functions are
//! inlined: each call's parameters and locals are fresh slots, pointer parameters name the
//! caller's local array (or `&variable`), reference parameters the caller's variable.
use super::ir::{compute, BinOp, MathFn, Node, Program, Role, TExpr, TStmt, UnOp, VarInfo};
use super::parse::{Expr, Init, PKind, Preamble, Stmt, Target, E};
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

/// What a name denotes.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Bind {
    /// a variable slot
    Var(usize),
    /// a local array slot (an array, or a pointer parameter naming one)
    Arr(usize),
    /// a pointer parameter naming the caller's variable (`&x`): `p[0]`/`*p` is the variable
    Ptr(usize),
}

/// A place an expression reads or an assignment writes.
enum Place {
    Var(usize),
    Elem(usize, TExpr),
    Raw(usize, TExpr),
}

/// An inlined call: the statements that bind its parameters and run its body, and its result
/// slot and type (none for void).
type Inlined = (Vec<TStmt>, Option<(usize, DType)>);

/// A function being inlined: its name and result slot.
struct Call {
    name: String,
    ret: Option<(usize, DType)>,
}

/// The longest local array on the CPU (each element is a register of a block of elements).
const MAX_ARRAY: usize = 256;
/// The deepest chain of calls inlined.
const MAX_DEPTH: usize = 24;
/// The most slots an inlined program may have.
const MAX_VARS: usize = 1 << 16;

pub(crate) struct Checker<'a> {
    pub(crate) vars: Vec<VarInfo>,
    scopes: Vec<HashMap<String, Bind>>,
    typedefs: &'a [Typedef],
    raws: &'a [RawParam],
    pre: Option<&'a Preamble>,
    /// typedefs of the body (or of the function being inlined): (name, type)
    local_types: Vec<(String, String)>,
    /// loops around the statement being checked, in the current function (or the body)
    loops: usize,
    /// the functions being inlined, innermost last
    calls: Vec<Call>,
}

/// C's type of a built-in type name (`unsigned long long`, `float`, ...).
fn c_type(name: &str) -> Option<DType> {
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

/// A conversion of an integer constant folded into the constant (array indices).
fn fold_index(i: TExpr) -> TExpr {
    match &i.node {
        Node::Convert(x) => match &x.node {
            Node::Const(c) if is_int(x.ty) => TExpr::constant(i.ty, Scalar::Int(c.to_i64())),
            _ => i,
        },
        _ => i,
    }
}

/// True when `e` runs statements (an inlined call).
pub(crate) fn has_stmts(e: &TExpr) -> bool {
    match &e.node {
        Node::Stmts(..) => true,
        Node::Const(_) | Node::Var(_) | Node::Index | Node::RawLen(_) | Node::Builtin(..) => false,
        Node::Shuffle(_, a, b) => has_stmts(a) || has_stmts(b),
        Node::Atomic(_, _, args) => args.iter().any(has_stmts),
        Node::Raw(_, a)
        | Node::Elem(_, a)
        | Node::Un(_, a)
        | Node::Convert(a)
        | Node::Ufunc1(_, _, a)
        | Node::Round(_, a) => has_stmts(a),
        Node::Bin(_, a, b) | Node::Ufunc2(_, _, a, b) => has_stmts(a) || has_stmts(b),
        Node::Select(c, a, b) => has_stmts(c) || has_stmts(a) || has_stmts(b),
        Node::Math(_, args) => args.iter().any(has_stmts),
    }
}

/// The `return`s of a function body (not those of functions inlined in it).
fn count_returns(body: &[TStmt]) -> usize {
    body.iter()
        .map(|s| match s {
            TStmt::Return => 1,
            TStmt::If(_, t, e) => count_returns(t) + count_returns(e),
            TStmt::Loop { body, step, .. } => count_returns(body) + count_returns(step),
            _ => 0,
        })
        .sum()
}

impl<'a> Checker<'a> {
    pub(crate) fn new(typedefs: &'a [Typedef], raws: &'a [RawParam]) -> Self {
        Checker {
            vars: Vec::new(),
            scopes: vec![HashMap::new()],
            typedefs,
            raws,
            pre: None,
            local_types: Vec::new(),
            loops: 0,
            calls: Vec::new(),
        }
    }
    /// Make the preamble's typedefs and functions available.
    pub(crate) fn with_preamble(mut self, pre: &'a Preamble) -> Self {
        self.pre = Some(pre);
        self
    }
    /// A slot not named in any scope.
    fn slot(&mut self, name: &str, ty: DType, role: Role) -> usize {
        self.vars.push(VarInfo { name: name.to_string(), ty, role });
        self.vars.len() - 1
    }
    /// Declare a parameter (or local) in the innermost scope.
    pub(crate) fn declare(&mut self, name: &str, ty: DType, role: Role) -> usize {
        let k = self.slot(name, ty, role);
        let b = if let Role::Array(_) = role { Bind::Arr(k) } else { Bind::Var(k) };
        self.scopes.last_mut().expect("a scope").insert(name.to_string(), b);
        k
    }
    fn lookup(&self, name: &str) -> Option<Bind> {
        self.scopes.iter().rev().find_map(|s| s.get(name).copied())
    }
    /// The C type of a type name: a placeholder, a typedef (the body's, the preamble's) or C's.
    pub(crate) fn ty_of(&self, name: &str, line: usize) -> Result<DType, SourceError> {
        let mut n = name.to_string();
        let mut via = None;
        for _ in 0..16 {
            if let Some((_, d)) = self.typedefs.iter().find(|(t, _)| **t == *n) {
                return Ok(compute(*d));
            }
            let local = self.local_types.iter().rev().find(|t| t.0 == n);
            let pre = self.pre.and_then(|p| p.typedefs.iter().rev().find(|t| t.0 == n));
            match local.or(pre) {
                Some((_, t)) if *t != n => {
                    via.get_or_insert_with(|| n.clone());
                    n = t.clone();
                }
                _ => break,
            }
        }
        if let Some(t) = c_type(&n) {
            return Ok(t);
        }
        if let Some(why) = self.pre.and_then(|p| p.why_not(&n)) {
            return Err(SourceError::outside(line, why));
        }
        match via {
            Some(v) => Err(SourceError::outside(
                line,
                format!("`{v}` is a typedef of `{n}`, a type the CPU subset does not have"),
            )),
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
            self.stmt(s, &mut out)?;
        }
        Ok(out)
    }
    /// `body` in a scope of its own.
    fn scoped(&mut self, body: &[Stmt]) -> Result<Vec<TStmt>, SourceError> {
        self.scopes.push(HashMap::new());
        let r = self.stmts(body);
        self.scopes.pop();
        r
    }
    fn in_loop(&mut self, body: &[Stmt]) -> Result<Vec<TStmt>, SourceError> {
        self.loops += 1;
        let r = self.scoped(body);
        self.loops -= 1;
        r
    }
    fn stmt(&mut self, s: &Stmt, out: &mut Vec<TStmt>) -> Result<(), SourceError> {
        match s {
            Stmt::Decl { ty, name, arr, init, line } => {
                let line = *line;
                let t = self.ty_of(ty, line)?;
                if self.scopes.last().expect("a scope").contains_key(name) {
                    return Err(SourceError::syntax(line, format!("`{name}` is declared twice")));
                }
                match arr {
                    None => {
                        let v = match init {
                            Some(Init::Expr(e)) => self.expr(e)?.to(t),
                            Some(Init::List(_)) => {
                                return Err(SourceError::syntax(
                                    line,
                                    format!("`{name}` is no array: a brace list initialises arrays"),
                                ))
                            }
                            None => TExpr::constant(t, Scalar::Int(0)),
                        };
                        let k = self.declare(name, t, Role::Local);
                        out.push(TStmt::Let(k, v));
                    }
                    Some(n) => {
                        let vals: Vec<TExpr> = match init {
                            None => Vec::new(),
                            Some(Init::List(v)) => {
                                v.iter().map(|e| Ok(self.expr(e)?.to(t))).collect::<Result<_, _>>()?
                            }
                            Some(Init::Expr(_)) => {
                                return Err(SourceError::syntax(
                                    line,
                                    format!("the array `{name}` is initialised by a brace list"),
                                ))
                            }
                        };
                        let len = n.map_or(vals.len() as u64, |n| n);
                        if len == 0 || (vals.len() as u64) > len {
                            return Err(SourceError::syntax(
                                line,
                                format!("`{name}`: {len} elements, {} initialisers", vals.len()),
                            ));
                        }
                        if len > MAX_ARRAY as u64 {
                            return Err(SourceError::outside(
                                line,
                                format!("local arrays of more than {MAX_ARRAY} elements are not in the CPU subset"),
                            ));
                        }
                        let len = len as usize;
                        let k = self.declare(name, t, Role::Array(len));
                        let mut vals = vals.into_iter();
                        for j in 0..len {
                            let v = vals.next().unwrap_or(TExpr::constant(t, Scalar::Int(0)));
                            out.push(TStmt::SetElem(k, TExpr::constant(DType::I64, Scalar::Int(j as i64)), v));
                        }
                    }
                }
            }
            Stmt::Assign { target, op, value, line } => {
                let line = *line;
                let v = self.expr(value)?;
                let place = match target {
                    Target::Name(n) => match self.lookup(n) {
                        Some(Bind::Var(k)) => Place::Var(k),
                        Some(Bind::Arr(_)) => {
                            return Err(SourceError::syntax(line, format!("the array `{n}` cannot be assigned")))
                        }
                        Some(Bind::Ptr(_)) => {
                            return Err(SourceError::outside(
                                line,
                                format!("assigning the pointer `{n}` is not in the CPU subset"),
                            ))
                        }
                        None => return Err(self.unknown(n, line)),
                    },
                    Target::Elem(n, i) => self.place(n, i, line)?,
                };
                let (cur, ty) = match &place {
                    Place::Var(k) => {
                        let info = &self.vars[*k];
                        if !matches!(info.role, Role::Out(_) | Role::Local) {
                            return Err(SourceError::syntax(
                                line,
                                format!("`{}` is an input and cannot be assigned", info.name),
                            ));
                        }
                        (TExpr { ty: info.ty, node: Node::Var(*k) }, info.ty)
                    }
                    Place::Elem(k, i) => {
                        let ty = self.vars[*k].ty;
                        (TExpr { ty, node: Node::Elem(*k, Box::new(i.clone())) }, ty)
                    }
                    Place::Raw(..) => {
                        let Target::Elem(n, _) = target else { unreachable!("raw places are elements") };
                        return Err(SourceError::syntax(line, format!("the raw parameter `{n}` is read-only")));
                    }
                };
                let v = if *op == "=" { v } else { self.binary(&op[..op.len() - 1], cur, v, line)? };
                out.push(match place {
                    Place::Var(k) => TStmt::Set(k, v.to(ty)),
                    Place::Elem(k, i) => TStmt::SetElem(k, i, v.to(ty)),
                    Place::Raw(..) => unreachable!("refused above"),
                });
            }
            Stmt::Expr(e) => {
                if let Expr::Call(name, args) = &e.e {
                    if self.pre.and_then(|p| p.func(name)).is_some() {
                        let (st, _) = self.inline(name, args, e.line)?;
                        out.extend(st);
                        return Ok(());
                    }
                }
                let t = self.expr(e)?;
                if has_stmts(&t) {
                    let k = self.slot("_discarded", t.ty, Role::Local);
                    out.push(TStmt::Let(k, t));
                }
            }
            Stmt::If { cond, then, els } => {
                let c = self.expr(cond)?.to(DType::Bool);
                let t = self.scoped(then)?;
                let e = self.scoped(els)?;
                out.push(TStmt::If(c, t, e));
            }
            Stmt::Block(b) => {
                let b = self.scoped(b)?;
                out.extend(b);
            }
            Stmt::Seq(b) => {
                for s in b {
                    self.stmt(s, out)?;
                }
            }
            Stmt::For { init, cond, step, body } => {
                self.scopes.push(HashMap::new());
                for s in init {
                    self.stmt(s, out)?;
                }
                let cond = match cond {
                    Some(c) => self.expr(c)?.to(DType::Bool),
                    None => TExpr::constant(DType::Bool, Scalar::Bool(true)),
                };
                let body = self.in_loop(body)?;
                self.loops += 1;
                let step = self.stmts(step);
                self.loops -= 1;
                self.scopes.pop();
                out.push(TStmt::Loop { cond, body, step: step?, post: false });
            }
            Stmt::While { cond, body } => {
                let cond = self.expr(cond)?.to(DType::Bool);
                let body = self.in_loop(body)?;
                out.push(TStmt::Loop { cond, body, step: Vec::new(), post: false });
            }
            Stmt::DoWhile { body, cond } => {
                let body = self.in_loop(body)?;
                let cond = self.expr(cond)?.to(DType::Bool);
                out.push(TStmt::Loop { cond, body, step: Vec::new(), post: true });
            }
            Stmt::Break(line) | Stmt::Continue(line) => {
                let brk = matches!(s, Stmt::Break(_));
                if self.loops == 0 {
                    let w = if brk { "break" } else { "continue" };
                    return Err(SourceError::syntax(*line, format!("`{w}` outside a loop")));
                }
                out.push(if brk { TStmt::Break } else { TStmt::Continue });
            }
            Stmt::Return(e, line) => {
                let Some(call) = self.calls.last() else {
                    return Err(SourceError::outside(
                        *line,
                        "`return` in a kernel body (on the GPU it ends the thread) is not in the CPU subset",
                    ));
                };
                match (call.ret, e) {
                    (Some((k, t)), Some(e)) => {
                        let v = self.expr(e)?.to(t);
                        out.push(TStmt::Set(k, v));
                    }
                    (None, None) => {}
                    (Some(_), None) => {
                        return Err(SourceError::syntax(
                            *line,
                            "`return` without a value in a function that returns one",
                        ))
                    }
                    (None, Some(_)) => return Err(SourceError::syntax(*line, "a void function returns no value")),
                }
                out.push(TStmt::Return);
            }
            Stmt::Typedef { ty, name } => self.local_types.push((name.clone(), ty.clone())),
        }
        Ok(())
    }
    /// The index expression of `name[...]`, as int64.
    fn index(&mut self, i: &E, name: &str, line: usize) -> Result<TExpr, SourceError> {
        let i = self.expr(i)?;
        if !is_int(i.ty) {
            return Err(SourceError::syntax(line, format!("the index of `{name}` must be an integer")));
        }
        Ok(fold_index(i.to(DType::I64)))
    }
    /// The place `name[i]` denotes.
    fn place(&mut self, name: &str, i: &E, line: usize) -> Result<Place, SourceError> {
        let idx = self.index(i, name, line)?;
        match self.lookup(name) {
            Some(Bind::Arr(k)) => {
                let Role::Array(len) = self.vars[k].role else { unreachable!("arrays bind arrays") };
                if let Node::Const(c) = &idx.node {
                    let j = c.to_i64();
                    if j < 0 || j as usize >= len {
                        return Err(SourceError::syntax(
                            line,
                            format!("index {j} is outside `{name}` ({len} elements)"),
                        ));
                    }
                }
                Ok(Place::Elem(k, idx))
            }
            Some(Bind::Ptr(k)) => match &idx.node {
                Node::Const(c) if c.to_i64() == 0 => Ok(Place::Var(k)),
                _ => Err(SourceError::outside(
                    line,
                    format!("`{name}` points to a variable: indexing it other than by 0 is not in the CPU subset"),
                )),
            },
            Some(Bind::Var(_)) => Err(SourceError::syntax(line, format!("`{name}` is not an array"))),
            None => match self.raws.iter().find(|r| r.name == name) {
                Some(r) if self.calls.is_empty() => Ok(Place::Raw(r.pos, idx)),
                _ => Err(self.unknown_indexed(name, line)),
            },
        }
    }
    fn unknown_indexed(&self, name: &str, line: usize) -> SourceError {
        if let Some(why) = self.pre.and_then(|p| p.why_not(name)) {
            return SourceError::outside(line, why);
        }
        SourceError::outside(
            line,
            format!("`{name}[...]`: only raw parameters, local arrays and pointer parameters can be indexed"),
        )
    }
    fn unknown(&self, name: &str, line: usize) -> SourceError {
        if self.calls.is_empty() && self.raws.iter().any(|r| r.name == name) {
            return SourceError::syntax(line, format!("raw parameter `{name}` is read by indexing: `{name}[i]`"));
        }
        if let Some(why) = self.pre.and_then(|p| p.why_not(name)) {
            return SourceError::outside(line, why);
        }
        if let Some(c) = self.calls.last() {
            return SourceError::outside(
                line,
                format!(
                    "unknown name `{name}` in `{}`: not a parameter or local (globals are not in the CPU subset)",
                    c.name
                ),
            );
        }
        SourceError::outside(
            line,
            format!("unknown name `{name}`: not a parameter or local (names from a preamble's macros and globals run on the GPU only)"),
        )
    }
    /// Inline a call of the preamble's function `name`: the statements that bind its
    /// parameters and run its body, and its result slot and type (none for void).
    fn inline(&mut self, name: &str, args: &[E], line: usize) -> Result<Inlined, SourceError> {
        let f = self.pre.and_then(|p| p.func(name)).expect("a preamble function");
        if self.calls.iter().any(|c| c.name == name) {
            return Err(SourceError::outside(
                line,
                format!("`{name}` calls itself: recursion is not in the CPU subset"),
            ));
        }
        if self.calls.len() >= MAX_DEPTH || self.vars.len() > MAX_VARS {
            return Err(SourceError::outside(line, format!("`{name}`: calls nested too deep or too many to inline")));
        }
        if args.len() != f.params.len() {
            return Err(SourceError::syntax(
                line,
                format!("`{name}` takes {} argument(s), got {}", f.params.len(), args.len()),
            ));
        }
        // The types as the preamble sees them: no typedef of the body.
        let saved_types = std::mem::take(&mut self.local_types);
        let types: Result<Vec<DType>, SourceError> = f.params.iter().map(|p| self.ty_of(&p.ty, line)).collect();
        let ret_ty = f.ret.as_ref().map(|t| self.ty_of(t, line)).transpose();
        self.local_types = saved_types;
        let (types, ret_ty) = (types?, ret_ty?);
        let mut st = Vec::new();
        let mut binds: Vec<(&str, Bind)> = Vec::new();
        for ((p, a), &t) in f.params.iter().zip(args).zip(&types) {
            let bad =
                |what: &str| SourceError::syntax(line, format!("argument `{}` of `{name}` must be {what}", p.name));
            let b = match p.kind {
                PKind::Value => {
                    let v = self.expr(a)?.to(t);
                    let k = self.slot(&p.name, t, Role::Local);
                    st.push(TStmt::Let(k, v));
                    Bind::Var(k)
                }
                PKind::Ref => match &a.e {
                    Expr::Name(n) => match self.lookup(n) {
                        Some(Bind::Var(k)) if self.vars[k].ty == t && matches!(self.vars[k].role, Role::Local | Role::Out(_)) => {
                            Bind::Var(k)
                        }
                        None => return Err(self.unknown(n, line)),
                        _ => return Err(bad(&format!("a writable variable of type `{}`", p.ty))),
                    },
                    _ => return Err(bad(&format!("a variable of type `{}` (a reference)", p.ty))),
                },
                PKind::Pointer => match &a.e {
                    Expr::Name(n) => match self.lookup(n) {
                        Some(b @ (Bind::Arr(k) | Bind::Ptr(k))) if self.vars[k].ty == t => b,
                        None if self.calls.is_empty() && self.raws.iter().any(|r| r.name == *n) => {
                            return Err(SourceError::outside(
                                line,
                                format!("the raw parameter `{n}` as a pointer argument is not in the CPU subset"),
                            ))
                        }
                        None => return Err(self.unknown(n, line)),
                        _ => return Err(bad(&format!("a local array of `{}` or `&variable`", p.ty))),
                    },
                    // (writes through the pointer to an input are refused as writes of it)
                    Expr::AddrOf(n) => match self.lookup(n) {
                        Some(Bind::Var(k)) if self.vars[k].ty == t => Bind::Ptr(k),
                        None => return Err(self.unknown(n, line)),
                        _ => return Err(bad(&format!("the address of a variable of type `{}`", p.ty))),
                    },
                    _ => {
                        return Err(SourceError::outside(
                            line,
                            format!("argument `{}` of `{name}`: pointers other than local arrays and `&variable` are not in the CPU subset", p.name),
                        ))
                    }
                },
            };
            binds.push((&p.name, b));
        }
        let ret = ret_ty.map(|t| (self.slot(&format!("_{name}_result"), t, Role::Local), t));
        // The function's own scope: its parameters only.
        let saved_scopes = std::mem::replace(&mut self.scopes, vec![HashMap::new()]);
        let saved_loops = std::mem::replace(&mut self.loops, 0);
        let saved_types = std::mem::take(&mut self.local_types);
        let mut dup = None;
        for (n, b) in binds {
            if !n.is_empty() && self.scopes[0].insert(n.to_string(), b).is_some() {
                dup = Some(n);
            }
        }
        self.calls.push(Call { name: name.to_string(), ret });
        let body = match dup {
            Some(n) => Err(SourceError::syntax(f.line, format!("parameter `{n}` appears twice"))),
            None => self.stmts(&f.body),
        };
        self.calls.pop();
        self.scopes = saved_scopes;
        self.loops = saved_loops;
        self.local_types = saved_types;
        let mut body = body.map_err(|e| SourceError {
            line,
            msg: format!("in `{name}` (preamble line {}): {}", e.line, e.msg),
            outside: e.outside,
        })?;
        // A single `return` that ends the function needs no jump: its value is the result's
        // declaration.
        if count_returns(&body) == 1 && body.last() == Some(&TStmt::Return) {
            body.pop();
            if let (Some((k, _)), Some(TStmt::Set(j, _))) = (ret, body.last()) {
                if *j == k {
                    let Some(TStmt::Set(_, v)) = body.pop() else { unreachable!("matched above") };
                    body.push(TStmt::Let(k, v));
                }
            }
        }
        st.push(TStmt::Inline(body));
        Ok((st, ret))
    }
    pub(crate) fn expr(&mut self, e: &E) -> Result<TExpr, SourceError> {
        let line = e.line;
        Ok(match &e.e {
            Expr::Int(v, u, l, dec) => {
                let v = *v;
                // C's types of integer literals (long is 64 bits, as in CUDA on Linux)
                let ty = match (u, l) {
                    (false, false) if v <= i32::MAX as u64 => DType::I32,
                    (false, false) if !dec && v <= u32::MAX as u64 => DType::U32,
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
                Some(Bind::Var(k)) => TExpr { ty: self.vars[k].ty, node: Node::Var(k) },
                Some(Bind::Arr(_) | Bind::Ptr(_)) => {
                    return Err(SourceError::outside(
                        line,
                        format!("`{n}` as a value (a pointer) is not in the CPU subset: index it, or pass it to a preamble function"),
                    ))
                }
                None if n == "i" && self.calls.is_empty() => TExpr { ty: DType::I64, node: Node::Index },
                None if n == "INFINITY" || n == "CUDART_INF_F" => {
                    TExpr::constant(DType::F32, Scalar::Float(f64::INFINITY))
                }
                None if n == "NAN" || n == "CUDART_NAN_F" => TExpr::constant(DType::F32, Scalar::Float(f64::NAN)),
                None if n == "CUDART_INF" => TExpr::constant(DType::F64, Scalar::Float(f64::INFINITY)),
                None if n == "CUDART_NAN" => TExpr::constant(DType::F64, Scalar::Float(f64::NAN)),
                None => return Err(self.unknown(n, line)),
            },
            Expr::Index(n, i) => match self.place(n, i, line)? {
                Place::Var(k) => TExpr { ty: self.vars[k].ty, node: Node::Var(k) },
                Place::Elem(k, i) => TExpr { ty: self.vars[k].ty, node: Node::Elem(k, Box::new(i)) },
                Place::Raw(pos, i) => {
                    let r = self.raws.iter().find(|r| r.pos == pos).expect("a raw parameter");
                    TExpr { ty: compute(r.dtype), node: Node::Raw(pos, Box::new(i)) }
                }
            },
            Expr::AddrOf(n) => {
                return Err(SourceError::outside(
                    line,
                    format!("`&{n}`: addresses are not in the CPU subset, except as pointer arguments of preamble functions"),
                ))
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
            Expr::Call(name, args) => {
                if self.pre.and_then(|p| p.func(name)).is_some() {
                    let (st, ret) = self.inline(name, args, line)?;
                    let Some((k, t)) = ret else {
                        return Err(SourceError::syntax(line, format!("`{name}` returns void: it has no value")));
                    };
                    TExpr { ty: t, node: Node::Stmts(st, Box::new(TExpr { ty: t, node: Node::Var(k) })) }
                } else {
                    self.call(name, args, line)?
                }
            }
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
                    if let Some(why) = self.pre.and_then(|p| p.why_not(name)) {
                        return Err(SourceError::outside(line, why));
                    }
                    if let Some(e) = self.pre.and_then(|p| p.fatal.as_ref()) {
                        return Err(SourceError::outside(line, format!("`{name}`: {}", e.msg)));
                    }
                    return Err(SourceError::outside(
                        line,
                        format!("`{name}` is not one of the CPU subset's math functions or the preamble's functions (it may run on the GPU)"),
                    ));
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
        for (src, outside) in [
            ("break;", false),
            ("return;", true),
            ("int a[2]; y = a[2];", false),
            ("int a[2]; y = a;", true),
            ("int a[300];", true),
            ("y = x[0];", false),
        ] {
            let e = check(src, DType::F32).unwrap_err();
            assert_eq!(e.outside, outside, "{src}: {e:?}");
        }
    }

    fn with_pre(src: &str, pre: &str) -> Result<Program, SourceError> {
        let td = vec![("T".into(), DType::F64)];
        let mut types = vec!["T".to_string()];
        let pre = crate::kernel::parse::parse_preamble(pre, &types);
        types.extend(pre.typedefs.iter().map(|t| t.0.clone()));
        let mut c = Checker::new(&td, &[]).with_preamble(&pre);
        c.declare("x", DType::F64, Role::In(0));
        c.declare("seed", DType::I32, Role::Scalar(1));
        c.declare("y", DType::F64, Role::Out(0));
        crate::kernel::parse::macro_use(src, &pre)?;
        c.program(&parse(src, &types)?)
    }

    #[test]
    fn literals() {
        let ty = |src: &str| {
            let p = check(&format!("y = {src};"), DType::F64).unwrap();
            let TStmt::Set(_, e) = &p.body[0] else { panic!() };
            let Node::Convert(c) = &e.node else { panic!("{e:?}") };
            c.ty
        };
        assert_eq!(ty("2147483647"), DType::I32);
        assert_eq!(ty("2147483648"), DType::I64);
        assert_eq!(ty("0x80000000"), DType::U32);
        assert_eq!(ty("0x5c721fd808f616b6"), DType::I64);
        assert_eq!(ty("18446744073709551615"), DType::U64);
        assert_eq!(ty("3u"), DType::U32);
        assert_eq!(ty("3ul"), DType::U64);
        assert_eq!(ty("017"), DType::I32);
    }

    #[test]
    fn inlined_calls() {
        let pre = "typedef unsigned long long u64_t;\n\
                   __device__ inline void bump(u64_t* a, int k) { a[k] += 1; if (k > 0) return; a[1] = 7; }\n\
                   __device__ T twice(T v) { return 2 * v; }\n\
                   __device__ void set(T& r, T* p) { r = 1; *p = 2; }\n\
                   __device__ int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }\n\
                   #define N 3\n__device__ T usesn(T v) { return v * N; }";
        let p = with_pre(
            "u64_t s[2] = {1};\nbump(s, seed);\nT a = 0, b = 0;\nset(a, &b);\ny = twice(x) + a + b + T(s[1]);",
            pre,
        )
        .unwrap();
        // bump has a return before its end: a jump; twice's single return is its result's declaration
        let TStmt::Inline(b) = &p.body[3] else { panic!("{:?}", p.body) };
        assert!(count_returns(b) == 1 && b.last() != Some(&TStmt::Return));
        assert!(matches!(p.vars.iter().find(|v| v.name == "s").unwrap().role, Role::Array(2)));
        let e = with_pre("y = fact(3);", pre).unwrap_err();
        assert!(e.outside && e.msg.contains("recursion"), "{e:?}");
        let e = with_pre("y = usesn(x);", pre).unwrap_err();
        assert!(e.outside && e.msg.contains("macro"), "{e:?}");
        let e = with_pre("y = N;", pre).unwrap_err();
        assert!(e.outside && e.msg.contains("macro"), "{e:?}");
        let e = with_pre("T s[2];\nbump(s, 0);", pre).unwrap_err();
        assert!(!e.outside && e.line == 2, "{e:?}");
        let e = with_pre("y = twice(x, x);", pre).unwrap_err();
        assert!(!e.outside, "{e:?}");
        // a function sees its parameters only
        let e = with_pre("y = g();", "__device__ T g() { return x; }").unwrap_err();
        assert!(e.outside && e.msg.contains("in `g`"), "{e:?}");
        // an unknown function names the preamble's item outside the subset
        let e = with_pre("y = h(x);", "template <class U> __device__ U h(U v) { return v; }").unwrap_err();
        assert!(e.outside && e.msg.contains("preamble line 1"), "{e:?}");
    }

    #[test]
    fn monte_carlo_kernel_checks() {
        let body = "uint64_t rand_state[2];\ninit_state(rand_state, i, seed);\nT call_sum = 0;\n\
                    for (int i = 0; i < 10; ++i) {\n  const T p = sample_normal(rand_state);\n  call_sum += p;\n}\ny = call_sum;";
        let pre = "typedef unsigned long long uint64_t;\n\
            __device__ inline void init_state(uint64_t* a, int i, int seed) { a[0] = i + 1; a[1] = 0x5c721fd808f616b6 + seed; }\n\
            __device__ inline uint64_t xorshift128plus(uint64_t* x) {\n uint64_t s1 = x[0];\n uint64_t s0 = x[1];\n x[0] = s0;\n\
              s1 = s1 ^ (s1 << 23);\n s1 = s1 ^ (s1 >> 17);\n s1 = s1 ^ s0;\n s1 = s1 ^ (s0 >> 26);\n x[1] = s1;\n return s0 + s1;\n}\n\
            __device__ inline T sample_uniform(uint64_t* state) {\n const uint64_t x = xorshift128plus(state);\n return T(x) / T(18446744073709551615);\n}\n\
            __device__ inline T sample_normal(uint64_t* state) {\n T x = sample_uniform(state);\n T s = T(-1.4142135623730950488016887242097);\n\
              if (x > 0.5) {\n x = 1 - x;\n s = -s;\n }\n T p = x + T(0.5);\n return s * erfcinv(2 * p);\n}";
        let p = with_pre(body, pre).unwrap();
        assert!(p.body.iter().any(|s| matches!(s, TStmt::Loop { .. })));
        // rand_state zeroed, init_state's parameters bound (its `i` the element index), its body
        assert!(matches!(&p.body[..2], [TStmt::SetElem(..), TStmt::SetElem(..)]));
        let TStmt::Let(k, e) = &p.body[2] else { panic!("{:?}", p.body) };
        assert_eq!(p.vars[*k].name, "i");
        assert!(matches!(&e.node, Node::Convert(x) if x.node == Node::Index));
        assert!(matches!(&p.body[4], TStmt::Inline(b) if b.len() == 2));
        // the loop's `i` is a local of its own
        let TStmt::Loop { cond, .. } = &p.body[7] else { panic!("{:?}", p.body) };
        assert!(matches!(&cond.node, Node::Bin(BinOp::Lt, a, _) if matches!(a.node, Node::Var(_))));
        let printed = crate::kernel::print::body(&p);
        assert!(printed.contains("rand_state[2]") && printed.contains("erfcinv"), "{printed}");
    }
}
