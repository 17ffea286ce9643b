//! Rust's type inference for the subset, as far as the lowering needs it: the type of every
//! unsuffixed literal and of every `let` without a type (`let mut acc = 0.0; acc += x` makes
//! `acc` the type of `x`, as rustc does). Unification over type variables; an integer literal
//! left unconstrained is `i32`, a float one `f64`. rustc has checked the function, so a
//! conflict here is a gap in this module, reported with the position.
use super::ast::{Block, Expr, Func, ParamKind, Stmt, Ty, E};
use super::lower::LowerError;
use crate::DType;
use std::collections::HashMap;

/// The resolved types: of expressions, `let`s and `for` loop variables, by address.
#[derive(Default)]
pub(crate) struct Types(HashMap<usize, DType>);

impl Types {
    pub(crate) fn expr(&self, e: &Expr) -> Option<DType> {
        self.0.get(&(e as *const Expr as usize)).copied()
    }
    pub(crate) fn stmt(&self, s: &Stmt) -> Option<DType> {
        self.0.get(&(s as *const Stmt as usize)).copied()
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Lit {
    Any,
    Int,
    Float,
}

#[derive(Clone, Copy)]
enum Sym {
    Scalar(usize),
    Array(usize),
    Raw(DType),
}

/// A generic or primitive type under the binding `bind`.
pub(crate) fn resolve_ty(f: &Func, bind: &[DType], t: Ty) -> Result<DType, LowerError> {
    match t {
        Ty::D(d) => Ok(d),
        Ty::Gen(n) => f
            .generics
            .iter()
            .position(|g| g.0 == n)
            .and_then(|k| bind.get(k).copied())
            .ok_or_else(|| LowerError::new(0, 0, format!("unknown type parameter `{n}`"))),
    }
}

struct Inf<'f> {
    f: &'f Func,
    bind: &'f [DType],
    parent: Vec<usize>,
    val: Vec<Option<DType>>,
    lit: Vec<Lit>,
    seen: Vec<(usize, usize)>,
    scopes: Vec<Vec<(&'static str, Sym)>>,
}

/// Infer the types of `f`'s body under `bind` (the compute dtypes of its generic parameters).
pub(crate) fn infer(f: &Func, bind: &[DType]) -> Result<Types, LowerError> {
    let mut s = Inf { f, bind, parent: vec![], val: vec![], lit: vec![], seen: vec![], scopes: vec![vec![]] };
    for p in &f.params {
        let d = resolve_ty(f, bind, p.ty)?;
        let sym = match p.kind {
            ParamKind::Raw | ParamKind::RawMut => Sym::Raw(d),
            _ => Sym::Scalar(s.known(d)),
        };
        s.scopes[0].push((p.name, sym));
    }
    let outs: Vec<usize> =
        f.outs.iter().map(|&t| resolve_ty(f, bind, t).map(|d| s.known(d))).collect::<Result<_, _>>()?;
    for st in &f.body.stmts {
        s.stmt(st, &outs)?;
    }
    if let Some(e) = f.body.tail.as_deref() {
        let v = match &e.kind {
            E::Tuple(_) => None,
            _ => s.expr(e, &outs)?,
        };
        s.result(e, v, &outs)?;
    }
    let mut m = HashMap::new();
    for &(addr, tv) in &s.seen.clone() {
        m.insert(addr, s.resolved(tv));
    }
    Ok(Types(m))
}

impl Inf<'_> {
    fn fresh(&mut self, lit: Lit) -> usize {
        self.parent.push(self.parent.len());
        self.val.push(None);
        self.lit.push(lit);
        self.parent.len() - 1
    }
    fn known(&mut self, d: DType) -> usize {
        let v = self.fresh(Lit::Any);
        self.val[v] = Some(d);
        v
    }
    fn root(&mut self, mut v: usize) -> usize {
        while self.parent[v] != v {
            self.parent[v] = self.parent[self.parent[v]];
            v = self.parent[v];
        }
        v
    }
    fn unify(&mut self, a: usize, b: usize, e: &Expr) -> Result<(), LowerError> {
        let (a, b) = (self.root(a), self.root(b));
        if a == b {
            return Ok(());
        }
        match (self.val[a], self.val[b]) {
            (Some(x), Some(y)) if x != y => {
                return Err(LowerError::at(e, format!("types {x} and {y} meet here (a gap in xp's inference)")))
            }
            (None, Some(y)) => self.val[a] = Some(y),
            _ => {}
        }
        if self.lit[a] == Lit::Any {
            self.lit[a] = self.lit[b];
        }
        self.parent[b] = a;
        Ok(())
    }
    fn resolved(&mut self, v: usize) -> DType {
        let r = self.root(v);
        self.val[r].unwrap_or(match self.lit[r] {
            Lit::Float => DType::F64,
            _ => DType::I32,
        })
    }
    fn lookup(&self, name: &str, e: &Expr) -> Result<Sym, LowerError> {
        (self.scopes.iter().rev().flat_map(|s| s.iter().rev()))
            .find(|(n, _)| *n == name)
            .map(|x| x.1)
            .ok_or_else(|| LowerError::at(e, format!("unknown name `{name}`")))
    }
    fn ty(&self, t: Ty) -> Result<DType, LowerError> {
        resolve_ty(self.f, self.bind, t)
    }
    fn block(&mut self, b: &Block, outs: &[usize]) -> Result<Option<usize>, LowerError> {
        self.scopes.push(vec![]);
        for st in &b.stmts {
            self.stmt(st, outs)?;
        }
        let r = match &b.tail {
            Some(e) => self.expr(e, outs)?,
            None => None,
        };
        self.scopes.pop();
        Ok(r)
    }
    fn stmt(&mut self, st: &Stmt, outs: &[usize]) -> Result<(), LowerError> {
        match st {
            Stmt::Let { name, ty, init } => {
                let v = match init {
                    Some(e) => self.value(e, outs)?,
                    None => self.fresh(Lit::Any),
                };
                if let Some(t) = ty {
                    let k = self.known(self.ty(*t)?);
                    let pos = init.as_ref().map_or(Expr::at(E::Bool(false), 0, 0), |e| e.clone());
                    self.unify(v, k, &pos)?;
                }
                self.seen.push((st as *const Stmt as usize, v));
                self.scopes.last_mut().expect("scope").push((name, Sym::Scalar(v)));
            }
            Stmt::Array { name, ty, elem, .. } => {
                let v = self.value(elem, outs)?;
                if let Some(t) = ty {
                    let k = self.known(self.ty(*t)?);
                    self.unify(v, k, elem)?;
                }
                self.seen.push((st as *const Stmt as usize, v));
                self.scopes.last_mut().expect("scope").push((name, Sym::Array(v)));
            }
            Stmt::Shared { name, ty, .. } => {
                let v = self.known(self.ty(*ty)?);
                self.seen.push((st as *const Stmt as usize, v));
                self.scopes.last_mut().expect("scope").push((name, Sym::Array(v)));
            }
            Stmt::Expr(e) => {
                self.expr(e, outs)?;
            }
        }
        Ok(())
    }
    /// An expression that must have a value.
    fn value(&mut self, e: &Expr, outs: &[usize]) -> Result<usize, LowerError> {
        self.expr(e, outs)?.ok_or_else(|| LowerError::at(e, "this expression has no value".into()))
    }
    /// A kernel's result (`tail` or `return`): one value per output.
    fn result(&mut self, e: &Expr, v: Option<usize>, outs: &[usize]) -> Result<(), LowerError> {
        match (&e.kind, v) {
            (E::Tuple(es), _) if es.len() == outs.len() => {
                for (x, &o) in es.iter().zip(outs) {
                    let t = self.value(x, outs)?;
                    self.unify(t, o, x)?;
                }
                Ok(())
            }
            (_, Some(t)) if outs.len() == 1 => self.unify(t, outs[0], e),
            (E::Tuple(_), _) => Err(LowerError::at(e, format!("the function returns {} values", outs.len()))),
            (_, None) => Ok(()), // diverges (a `return` or a loop)
            _ => Err(LowerError::at(e, format!("the function returns {} values", outs.len()))),
        }
    }
    fn expr(&mut self, e: &Expr, outs: &[usize]) -> Result<Option<usize>, LowerError> {
        let v = self.expr_inner(e, outs)?;
        if let Some(v) = v {
            self.seen.push((e as *const Expr as usize, v));
        }
        Ok(v)
    }
    fn expr_inner(&mut self, e: &Expr, outs: &[usize]) -> Result<Option<usize>, LowerError> {
        use super::ast::BinOp as B;
        Ok(Some(match &e.kind {
            E::Int(_, Some(t)) | E::Float(_, Some(t)) => {
                let d = self.ty(*t)?;
                self.known(d)
            }
            E::Int(_, None) => self.fresh(Lit::Int),
            E::Float(_, None) => self.fresh(Lit::Float),
            E::Bool(_) => self.known(DType::Bool),
            E::Builtin(..) => self.known(DType::U32),
            E::Call(name, _) if *name == "sync_threads" => return Ok(None),
            E::Call(name, args) if name.starts_with("shfl") && args.len() == 2 => {
                let v = self.value(&args[0], outs)?;
                let a = self.value(&args[1], outs)?;
                let u = self.known(DType::U32);
                self.unify(a, u, &args[1])?;
                v
            }
            E::Var(n) => match self.lookup(n, e)? {
                Sym::Scalar(v) => v,
                _ => return Err(LowerError::at(e, format!("`{n}` is an array: read it with an index"))),
            },
            E::Const(t, _) => {
                let d = self.ty(*t)?;
                self.known(d)
            }
            E::Lit(t, x) => {
                let v = self.value(x, outs)?;
                let f = self.known(DType::F64);
                self.unify(v, f, x)?;
                let d = self.ty(*t)?;
                self.known(d)
            }
            E::Un(_, a) => self.value(a, outs)?,
            E::Bin(op, a, b) => {
                let (x, y) = (self.value(a, outs)?, self.value(b, outs)?);
                match op {
                    B::Shl | B::Shr => x,
                    B::And | B::Or => self.known(DType::Bool),
                    op if op.is_comparison() => {
                        self.unify(x, y, e)?;
                        self.known(DType::Bool)
                    }
                    _ => {
                        self.unify(x, y, e)?;
                        x
                    }
                }
            }
            E::Assign(op, place, val) => {
                let (x, y) = (self.value(place, outs)?, self.value(val, outs)?);
                if !matches!(op, Some(B::Shl | B::Shr)) {
                    self.unify(x, y, e)?;
                }
                return Ok(None);
            }
            E::Cast(a, t) => {
                self.value(a, outs)?;
                let d = self.ty(*t)?;
                self.known(d)
            }
            E::If(c, then, els) => {
                self.value(c, outs)?;
                let t = self.block(then, outs)?;
                let f = match els {
                    Some(x) => self.expr(x, outs)?,
                    None => None,
                };
                match (t, f) {
                    (Some(a), Some(b)) => {
                        self.unify(a, b, e)?;
                        a
                    }
                    (Some(a), None) | (None, Some(a)) if els.is_some() => a,
                    _ => return Ok(None),
                }
            }
            E::Block(b) => return self.block(b, outs),
            E::Match(s, arms) => {
                self.value(s, outs)?;
                let mut r: Option<usize> = None;
                for a in arms {
                    if let Some(g) = &a.guard {
                        self.value(g, outs)?;
                    }
                    if let Some(v) = self.expr(&a.body, outs)? {
                        match r {
                            Some(x) => self.unify(x, v, &a.body)?,
                            None => r = Some(v),
                        }
                    }
                }
                return Ok(r);
            }
            E::For { var, lo, hi, step, body, .. } => {
                let (a, b) = (self.value(lo, outs)?, self.value(hi, outs)?);
                self.unify(a, b, e)?;
                if let Some(s) = step {
                    let v = self.value(s, outs)?;
                    let u = self.known(DType::U64);
                    self.unify(v, u, s)?;
                }
                self.seen.push((e as *const Expr as usize, a));
                self.scopes.push(vec![(var, Sym::Scalar(a))]);
                self.block(body, outs)?;
                self.scopes.pop();
                return Ok(None);
            }
            E::While(c, b) => {
                self.value(c, outs)?;
                self.block(b, outs)?;
                return Ok(None);
            }
            E::Loop(b) => {
                self.block(b, outs)?;
                return Ok(None);
            }
            E::Break | E::Continue => return Ok(None),
            E::Return(x) => {
                if let Some(x) = x {
                    let v = match &x.kind {
                        E::Tuple(_) => None,
                        _ => Some(self.value(x, outs)?),
                    };
                    self.result(x, v, outs)?;
                }
                return Ok(None);
            }
            E::Method(r, name, args) if *name == "set" => {
                self.method(e, r, name, args, outs)?;
                return Ok(None);
            }
            E::Method(r, name, args) => return self.method(e, r, name, args, outs).map(Some),
            E::Call(name, args) => return self.call(e, name, args, outs).map(Some),
            E::Tuple(es) => {
                for x in es {
                    self.value(x, outs)?;
                }
                return Ok(None);
            }
            E::Index(a, j) => {
                let E::Var(n) = &a.kind else {
                    return Err(LowerError::at(e, "only a local array can be indexed".into()));
                };
                let Sym::Array(v) = self.lookup(n, a)? else {
                    return Err(LowerError::at(e, format!("`{n}` is not a local array")));
                };
                let k = self.value(j, outs)?;
                let u = self.known(DType::U64);
                self.unify(k, u, j)?;
                v
            }
        }))
    }
    fn method(&mut self, e: &Expr, r: &Expr, name: &str, args: &[Expr], outs: &[usize]) -> Result<usize, LowerError> {
        let raw_method = matches!(name, "at" | "len" | "set") || name.starts_with("atomic_");
        if let (E::Var(n), true) = (&r.kind, raw_method) {
            let Sym::Raw(d) = self.lookup(n, r)? else {
                return Err(LowerError::at(e, format!("`{n}` is not a Raw parameter")));
            };
            for (k, j) in args.iter().enumerate() {
                let v = self.value(j, outs)?;
                let t = self.known(if k == 0 { DType::I64 } else { d });
                self.unify(v, t, j)?;
            }
            return Ok(self.known(if name == "len" { DType::I64 } else { d }));
        }
        let x = self.value(r, outs)?;
        let arg = |s: &mut Self, k: usize, d: Option<DType>| -> Result<(), LowerError> {
            let a = args.get(k).ok_or_else(|| LowerError::at(e, format!("`{name}` needs more arguments")))?;
            let v = s.value(a, outs)?;
            let t = match d {
                Some(d) => s.known(d),
                None => x,
            };
            s.unify(v, t, a)
        };
        Ok(match name {
            "is_nan" | "is_infinite" | "is_finite" | "is_sign_negative" | "is_sign_positive" => self.known(DType::Bool),
            "to_f64" => self.known(DType::F64),
            "to_i64" => self.known(DType::I64),
            "powi" => {
                arg(self, 0, Some(DType::I32))?;
                x
            }
            "wrapping_shl" | "wrapping_shr" => {
                arg(self, 0, Some(DType::U32))?;
                x
            }
            "mul_add" | "clamp" => {
                arg(self, 0, None)?;
                arg(self, 1, None)?;
                x
            }
            "powf" | "log" | "atan2" | "hypot" | "max" | "min" | "copysign" | "wrapping_add" | "wrapping_sub"
            | "wrapping_mul" => {
                arg(self, 0, None)?;
                x
            }
            _ => x,
        })
    }
    fn call(&mut self, e: &Expr, name: &str, args: &[Expr], outs: &[usize]) -> Result<usize, LowerError> {
        let Some(callee) = self.f.callees.iter().find(|c| c.0 == name).map(|c| (c.1)()) else {
            // a math function: one float type throughout
            let mut first = None;
            for a in args {
                let v = self.value(a, outs)?;
                match first {
                    Some(f) => self.unify(f, v, a)?,
                    None => first = Some(v),
                }
            }
            return first.ok_or_else(|| LowerError::at(e, format!("`{name}` needs an argument")));
        };
        let inst: Vec<usize> = callee.generics.iter().map(|_| self.fresh(Lit::Any)).collect();
        let ty_of = |s: &mut Self, t: Ty| -> usize {
            match t {
                Ty::D(d) => s.known(d),
                Ty::Gen(n) => {
                    callee.generics.iter().position(|g| g.0 == n).map_or_else(|| s.fresh(Lit::Any), |k| inst[k])
                }
            }
        };
        if args.len() != callee.params.len() {
            return Err(LowerError::at(e, format!("`{name}` takes {} arguments", callee.params.len())));
        }
        for (a, p) in args.iter().zip(&callee.params) {
            let v = self.value(a, outs)?;
            let t = ty_of(self, p.ty);
            self.unify(v, t, a)?;
        }
        let out = callee.outs.first().ok_or_else(|| LowerError::at(e, format!("`{name}` returns nothing")))?;
        Ok(ty_of(self, *out))
    }
}
