//! Reduction kernels: CuPy's `ReductionKernel(in_params, out_params, map_expr, reduce_expr,
//! post_map_expr, identity, name)`: each element maps to a value of the reduce type, values
//! combine pairwise with `reduce_expr` over `a` and `b`, and `post_map_expr` writes the outputs
//! from the result `a`.
use super::check::{raw_params, Checker};
use super::ir::{compute, Program, Role, TExpr, TStmt};
use super::rust::reduce::{Parts, RustReduce};
use super::{hash_str, parse, placeholders, print, ElementwiseDef, Param};
use crate::kernel::Typedef;
use crate::{DType, Error, Result};
use std::sync::Arc;

/// A reduction kernel's definition.
#[derive(Clone, Debug)]
pub struct ReductionDef {
    /// the kernel's name
    pub name: String,
    /// input parameters
    pub ins: Vec<Param>,
    /// output parameters
    pub outs: Vec<Param>,
    /// the map expression (over the inputs)
    pub map_expr: String,
    /// the reduce expression (over `a` and `b`)
    pub reduce_expr: String,
    /// the statements that write the outputs from `a`
    pub post_map_expr: String,
    /// the identity of `reduce_expr`, as an expression (empty: none, so empty reductions fail)
    pub identity: String,
    /// the type values reduce in: a dtype, a placeholder, or empty for the first output's type
    pub reduce_type: String,
    /// code placed before the kernel (GPU only)
    pub preamble: String,
    /// a hash of all of the above
    pub id: u64,
    /// parts built rather than parsed (a fused chain): used as they are
    typed: Option<ReductionPrograms>,
    /// functions written in Rust (`#[xp::reduction]`): lowered per binding
    pub rust: Option<Arc<RustReduce>>,
}

/// A reduction's typed parts, for the CPU.
#[derive(Clone, Debug)]
pub struct ReductionPrograms {
    /// the reduce type
    pub reduce_ty: DType,
    /// inputs → output 0 (`__map`, of the reduce type)
    pub map: Program,
    /// inputs 0, 1 (`a`, `b`) → output 0 (`__reduce`)
    pub reduce: Program,
    /// input 0 (`a`) and the scalar parameters → the outputs
    pub post: Program,
    /// the identity, if any
    pub identity: Option<TExpr>,
}

impl ReductionDef {
    /// Parse the signature; the expressions are parsed when the CPU runs the kernel (the GPU
    /// compiles them as written).
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        ins: &str,
        outs: &str,
        map_expr: &str,
        reduce_expr: &str,
        post_map_expr: &str,
        identity: &str,
        name: &str,
        reduce_type: &str,
    ) -> Result<ReductionDef> {
        // The signature rules are an elementwise kernel's.
        let e = ElementwiseDef::new(ins, outs, post_map_expr, name, "")?;
        if let Some(p) = e.outs.iter().find(|p| p.name == "a" || p.name == "b") {
            let msg = format!("`{}` is reserved for the reduction's operands", p.name);
            return Err(Error::KernelSource { kernel: name.into(), line: 1, msg });
        }
        let mut def = ReductionDef {
            name: name.into(),
            ins: e.ins,
            outs: e.outs,
            map_expr: map_expr.into(),
            reduce_expr: reduce_expr.into(),
            post_map_expr: post_map_expr.into(),
            identity: identity.into(),
            reduce_type: String::new(),
            preamble: String::new(),
            id: 0,
            typed: None,
            rust: None,
        };
        def.set_reduce_type(reduce_type);
        Ok(def)
    }
    /// A reduction of typed programs built by xp (a fused chain ending in a reduction): the GPU
    /// compiles them printed as C (the map as a lambda called in place, so that its statements
    /// form one expression); the CPU runs the programs themselves. `progs.map` writes the mapped
    /// value to its output 0, `progs.reduce` combines inputs 0 and 1 (`a`, `b`) into output 0,
    /// `progs.post` writes the outputs from input 0 (`a`).
    pub fn from_programs(name: &str, ins: Vec<Param>, outs: Vec<Param>, progs: ReductionPrograms) -> ReductionDef {
        let out_of = |p: &Program| p.vars.iter().position(|v| v.role == Role::Out(0)).unwrap_or(0);
        let ret = |p: &Program| {
            let TStmt::Set(_, e) = p.body.last().expect("a program sets its output") else {
                unreachable!("expression programs end in their output's assignment")
            };
            print::expr(e, p)
        };
        let map = &progs.map;
        let out = &map.vars[out_of(map)];
        let (ct, o) = (print::c_type(out.ty), &out.name);
        let map_expr = format!("[&]() -> {ct} {{\n{ct} {o};\n{}return {o};\n}}()", print::body(map));
        let reduce_expr = ret(&progs.reduce);
        let post_map_expr = print::body(&progs.post);
        let identity = progs.identity.as_ref().map_or(String::new(), |e| print::expr(e, &progs.post));
        let mut def = ReductionDef {
            name: name.into(),
            ins,
            outs,
            map_expr,
            reduce_expr,
            post_map_expr,
            identity,
            reduce_type: String::new(),
            preamble: String::new(),
            id: 0,
            typed: None,
            rust: None,
        };
        def.set_reduce_type(progs.reduce_ty.name());
        def.typed = Some(progs);
        def
    }
    /// The reduction of functions written in Rust (`#[xp::reduction]`): `path` its module path
    /// and `hash` a hash of its tokens (its identity). The map's parameters other than an
    /// `Index` are the inputs; `finish`'s results (else the reduced value) the outputs.
    pub fn from_rust(
        path: &str,
        name: &str,
        map: &'static super::rust::ast::Func,
        combine: &'static super::rust::ast::Func,
        finish: Option<&'static super::rust::ast::Func>,
        identity: Option<&'static super::rust::ast::Func>,
        hash: u64,
    ) -> ReductionDef {
        use super::rust::ast::{ParamKind, Ty};
        use super::ParamTy;
        let pty = |t: Ty| match t {
            Ty::D(d) => ParamTy::Fixed(d),
            Ty::Gen(n) => ParamTy::Generic(n.into()),
        };
        let ins = (map.params.iter().filter(|p| p.kind != ParamKind::Index))
            .map(|p| Param { name: p.name.to_string(), ty: pty(p.ty), raw: p.kind == ParamKind::Raw })
            .collect();
        let outs = (finish.map_or(&map.outs, |f| &f.outs).iter().enumerate())
            .map(|(k, t)| Param { name: format!("out{k}"), ty: pty(*t), raw: false })
            .collect();
        ReductionDef {
            name: format!("xpr_{name}"),
            ins,
            outs,
            map_expr: String::new(),
            reduce_expr: String::new(),
            post_map_expr: String::new(),
            identity: identity.map_or(String::new(), |f| f.name.to_string()),
            reduce_type: String::new(),
            preamble: String::new(),
            id: hash_str(hash_str(hash ^ 0x5265_6475, path), name),
            typed: None,
            rust: Some(Arc::new(RustReduce::new(map, combine, finish, identity))),
        }
    }
    /// A Rust reduction's parts for these bindings (`None` for one written in C).
    pub fn rust_parts(&self, typedefs: &[Typedef], scalar: &[bool]) -> Result<Option<Arc<Parts>>> {
        let Some(r) = &self.rust else { return Ok(None) };
        let bind = super::rust::binding(&self.name, &r.map.generics, typedefs)?;
        r.parts(&self.name, &bind, scalar).map(Some)
    }
    /// The C name of argument `k` (the inputs, then the outputs).
    pub fn c_name(&self, k: usize) -> &str {
        match &self.rust {
            Some(r) => &r.c_names[k],
            None if k < self.ins.len() => &self.ins[k].name,
            None => &self.outs[k - self.ins.len()].name,
        }
    }
    /// Reduce in `reduce_type` (a dtype name or a placeholder; empty: the first output's type).
    pub fn set_reduce_type(&mut self, reduce_type: &str) {
        self.reduce_type = reduce_type.into();
        let sig = format!("{:?}{:?}", self.ins, self.outs);
        let parts = [
            &self.name,
            &self.map_expr,
            &self.reduce_expr,
            &self.post_map_expr,
            &self.identity,
            &self.reduce_type,
            &sig,
        ];
        self.id = parts.iter().fold(7, |h, s| hash_str(h, s));
    }
    /// The reduce type under `typedefs`, given the outputs' dtypes.
    pub fn reduce_dtype(&self, typedefs: &[Typedef], out_dtypes: &[DType]) -> Result<DType> {
        if let Some(r) = &self.rust {
            let bind = super::rust::binding(&self.name, &r.map.generics, typedefs)?;
            return super::rust::infer_ty(r.map, &bind, r.map.outs[0]);
        }
        let t = self.reduce_type.trim();
        if t.is_empty() {
            return Ok(out_dtypes[0]);
        }
        if let Some((_, d)) = typedefs.iter().find(|(n, _)| **n == *t) {
            return Ok(*d);
        }
        super::dtype_name(t).ok_or_else(|| Error::KernelSource {
            kernel: self.name.clone(),
            line: 1,
            msg: format!("reduce_type `{t}` is neither a dtype nor a placeholder"),
        })
    }
    /// The typed parts under `typedefs`; `scalar[k]` says whether input `k` is a scalar.
    pub fn programs(&self, typedefs: &[Typedef], scalar: &[bool], out_dtypes: &[DType]) -> Result<ReductionPrograms> {
        if let Some(p) = self.rust_parts(typedefs, scalar)? {
            return Ok(p.programs.clone());
        }
        if let Some(p) = &self.typed {
            if p.reduce_ty.is_complex() || p.map.vars.iter().any(|v| v.ty.is_complex()) {
                let reason = "complex values run on the GPU only".to_string();
                return Err(Error::KernelUnsupported { kernel: self.name.clone(), backend: "cpu", reason });
            }
            return Ok(p.clone());
        }
        let rt = compute(self.reduce_dtype(typedefs, out_dtypes)?);
        let types = placeholders(self.ins.iter().chain(&self.outs));
        let name = &self.name;
        let tys = |p: &Param| p.dtype(typedefs);
        let raws = raw_params(&self.ins, typedefs);
        let declare_ins = |c: &mut Checker, scalars_only: bool| {
            for (k, p) in self.ins.iter().enumerate() {
                let s = scalar.get(k).copied().unwrap_or(false);
                if p.raw || (scalars_only && !s) {
                    continue;
                }
                c.declare(&p.name, compute(tys(p)), if s { Role::Scalar(k) } else { Role::In(k) });
            }
        };
        let expr_program = |c: Checker, src: &str, part: &str| -> Result<Program> {
            let e = parse::parse_expr(src, &types).map_err(|e| e.into_error(name, part))?;
            let mut c = c;
            let v = c.expr(&e).map_err(|e| e.into_error(name, part))?.to(rt);
            let k = c.declare("__out", rt, Role::Out(0));
            let mut p = c.program(&[]).map_err(|e| e.into_error(name, part))?;
            p.body.push(TStmt::Set(k, v));
            Ok(p)
        };
        let mut c = Checker::new(typedefs, &raws);
        declare_ins(&mut c, false);
        let map = expr_program(c, &self.map_expr, "map_expr")?;
        let mut c = Checker::new(typedefs, &[]);
        c.declare("a", rt, Role::In(0));
        c.declare("b", rt, Role::In(1));
        let reduce = expr_program(c, &self.reduce_expr, "reduce_expr")?;
        let mut c = Checker::new(typedefs, &[]);
        c.declare("a", rt, Role::In(0));
        declare_ins(&mut c, true);
        for (k, p) in self.outs.iter().enumerate() {
            c.declare(&p.name, compute(tys(p)), Role::Out(k));
        }
        let stmts = parse::parse(&self.post_map_expr, &types).map_err(|e| e.into_error(name, "post_map_expr"))?;
        let post = c.program(&stmts).map_err(|e| e.into_error(name, "post_map_expr"))?;
        let identity = if self.identity.trim().is_empty() {
            None
        } else {
            let e = parse::parse_expr(&self.identity, &types).map_err(|e| e.into_error(name, "identity"))?;
            let mut c = Checker::new(typedefs, &[]);
            Some(c.expr(&e).map_err(|e| e.into_error(name, "identity"))?.to(rt))
        };
        if rt.is_complex() {
            let reason = "a complex reduce type runs on the GPU only".to_string();
            return Err(Error::KernelUnsupported { kernel: name.clone(), backend: "cpu", reason });
        }
        Ok(ReductionPrograms { reduce_ty: rt, map, reduce, post, identity })
    }
}
