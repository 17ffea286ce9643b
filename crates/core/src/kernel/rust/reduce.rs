//! `#[xp::reduction]`: the map, combine, finish and identity functions lowered into a
//! reduction's typed parts ([`ReductionPrograms`], what the CPU runs) and printed as the four C
//! fragments the GPU's reduction generator pastes (`_mv`'s map, `REDUCE(a, b)`, the post-map
//! writing the outputs from `a`, the identity). Both are made once per binding of the generic
//! parameters and kept.
use super::ast::{Func, ParamKind};
use super::lower::{lower, result_name, value_name, LowerError};
use crate::kernel::ir::{Node, Program, Role, TExpr, TStmt, VarInfo};
use crate::kernel::{compute, print, ReductionPrograms};
use crate::{DType, Error, Result};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// A binding: the generic parameters' dtypes and which inputs are scalars.
type Binding = (Vec<DType>, Vec<bool>);

/// The functions of a `#[xp::reduction]` module.
pub struct RustReduce {
    /// element → value of the reduce type
    pub map: &'static Func,
    /// two values → one (associative)
    pub combine: &'static Func,
    /// the reduced value → the outputs (none: the value itself)
    pub finish: Option<&'static Func>,
    /// `combine`'s identity (none: an empty reduction is an error)
    pub identity: Option<&'static Func>,
    /// the C names of the inputs, then the outputs
    pub c_names: Vec<String>,
    memo: Mutex<HashMap<Binding, Arc<Parts>>>,
}

impl std::fmt::Debug for RustReduce {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RustReduce").field("map", &self.map.name).finish()
    }
}

/// A binding's parts: the programs and their C.
#[derive(Debug)]
pub struct Parts {
    /// the typed programs (the CPU's)
    pub programs: ReductionPrograms,
    /// the map, an expression over the inputs' C names
    pub map: String,
    /// `REDUCE(a, b)`'s body
    pub reduce: String,
    /// statements writing the outputs from `a`
    pub post: String,
    /// the identity (empty: none)
    pub identity: String,
}

fn err(kernel: &str, part: &str, e: LowerError) -> Error {
    Error::KernelSource {
        kernel: kernel.to_string(),
        line: e.line as usize,
        msg: format!("{part}, column {}: {}", e.col + 1, e.msg),
    }
}

/// `[&]() -> T { T r_0; <body> return r_0; }()`: a program with one output as an expression.
fn as_expr(p: &Program) -> String {
    let k = p.vars.iter().position(|v| v.role == Role::Out(0)).expect("an output");
    let ct = print::c_type(p.vars[k].ty);
    let r = print::var_name(p, k);
    format!("[&]() -> {ct} {{\n{ct} {r};\n{}return {r};\n}}()", print::body(p))
}

impl RustReduce {
    /// The functions, and the C names the generated code gives the kernel's arguments.
    pub fn new(
        map: &'static Func,
        combine: &'static Func,
        finish: Option<&'static Func>,
        identity: Option<&'static Func>,
    ) -> RustReduce {
        let mut c_names: Vec<String> = (map.params.iter().filter(|p| p.kind != ParamKind::Index))
            .enumerate()
            .map(|(k, p)| if p.kind == ParamKind::Raw { super::lower::raw_name(k) } else { value_name(p.name) })
            .collect();
        let nout = finish.map_or(1, |f| f.outs.len());
        c_names.extend((0..nout).map(result_name));
        RustReduce { map, combine, finish, identity, c_names, memo: Mutex::default() }
    }
    /// The parts for `bind` (the compute dtypes of the generic parameters) and `scalar`
    /// (whether each input is a scalar).
    pub fn parts(&self, kernel: &str, bind: &[DType], scalar: &[bool]) -> Result<Arc<Parts>> {
        let key = (bind.to_vec(), scalar.to_vec());
        if let Some(p) = self.memo.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
            return Ok(p.clone());
        }
        if self.map.params.iter().any(|p| p.kind == ParamKind::Index) {
            let msg = "an `Index` parameter has no meaning in a reduction's map".to_string();
            return Err(Error::KernelSource { kernel: kernel.into(), line: 0, msg });
        }
        let map = lower(self.map, bind, scalar).map_err(|e| err(kernel, "map", e))?;
        let reduce = lower(self.combine, bind, &[false, false]).map_err(|e| err(kernel, "combine", e))?;
        let rt = map.vars.iter().find(|v| v.role == Role::Out(0)).expect("an output").ty;
        let post = match self.finish {
            Some(f) => lower(f, bind, &[false]).map_err(|e| err(kernel, "finish", e))?,
            None => Program {
                vars: vec![
                    VarInfo { name: "v_a".into(), ty: rt, role: Role::In(0) },
                    VarInfo { name: result_name(0), ty: rt, role: Role::Out(0) },
                ],
                body: vec![TStmt::Set(1, TExpr { ty: rt, node: Node::Var(0) })],
            },
        };
        let (identity, identity_c) = match self.identity {
            None => (None, String::new()),
            Some(f) => {
                let p = lower(f, bind, &[]).map_err(|e| err(kernel, "identity", e))?;
                let e = match p.body.as_slice() {
                    [TStmt::Inline(b)] => match b.as_slice() {
                        [TStmt::Set(_, e)] if !crate::kernel::check::has_stmts(e) => Some(e.clone()),
                        _ => None,
                    },
                    _ => None,
                };
                let e = e.ok_or_else(|| Error::KernelSource {
                    kernel: kernel.into(),
                    line: 0,
                    msg: "identity: the function must be one expression (such as `T::ZERO`)".into(),
                })?;
                let c = print::expr(&e, &p);
                (Some(e.to(rt)), c)
            }
        };
        // the post-map's input is `a` in the generated code
        let pa = print::var_name(&post, 0);
        let post_c = format!("{{\nconst {} {pa} = a;\n{}}}", print::c_type(post.vars[0].ty), print::body(&post));
        let (ra, rb) = (print::var_name(&reduce, 0), print::var_name(&reduce, 2));
        let ct = print::c_type(compute(rt));
        // one line: it is the body of `#define REDUCE(a, b)`
        let reduce_c = format!(
            "[&](const {ct} {ra}, const {ct} {rb}) -> {ct} {{ return {}; }}((a), (b))",
            as_expr(&reduce).replace('\n', " ")
        );
        let parts = Parts {
            map: as_expr(&map),
            reduce: reduce_c,
            post: post_c,
            identity: identity_c,
            programs: ReductionPrograms { reduce_ty: rt, map, reduce, post, identity },
        };
        let parts = Arc::new(parts);
        self.memo.lock().unwrap_or_else(|e| e.into_inner()).insert(key, parts.clone());
        Ok(parts)
    }
}
