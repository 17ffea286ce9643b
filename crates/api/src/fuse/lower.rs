//! A traced graph as one typed program (a local per node, NumPy's ufuncs as `Ufunc` nodes,
//! float16 intermediates rounded as the unfused chain rounds them), and the op-by-op path.
use super::sym::{FNode, KernelCall, Reduce, ReduceKind};
use crate::kernel::{ElementwiseKernel, ReductionKernel};
use crate::Array;
use xp_core::kernel::{
    compute, ElementwiseDef, Node, Param, ParamTy, Program, ReductionDef, ReductionPrograms, Role, TExpr, TStmt,
    VarInfo,
};
use xp_core::{BinaryOp, DType, Result, Scalar};

fn rounded(d: DType, e: TExpr) -> TExpr {
    if matches!(d, DType::F16 | DType::BF16) {
        TExpr { ty: e.ty, node: Node::Round(d, Box::new(e)) }
    } else {
        e
    }
}

/// The chain of `graph` up to `root` over inputs of `dtypes` as typed statements: the
/// variables (the inputs first, then a local per node), the statements, and the root's value.
fn chain(graph: &[(FNode, DType)], root: usize, dtypes: &[DType]) -> Result<(Vec<VarInfo>, Vec<TStmt>, TExpr)> {
    let mut vars: Vec<VarInfo> = dtypes
        .iter()
        .enumerate()
        .map(|(k, &d)| VarInfo { name: format!("in{k}"), ty: compute(d), role: Role::In(k) })
        .collect();
    let mut slot = vec![usize::MAX; graph.len()];
    let mut body = Vec::new();
    let var = |slot: &[usize], vars: &[VarInfo], n: usize| TExpr { ty: vars[slot[n]].ty, node: Node::Var(slot[n]) };
    for (n, (node, d)) in graph.iter().enumerate().take(root + 1) {
        let ty = compute(*d);
        let e = match node {
            FNode::Input(k) => {
                slot[n] = *k;
                continue;
            }
            FNode::Const(v) => TExpr::constant(ty, *v),
            FNode::Unary(op, l, a) => {
                rounded(*d, TExpr { ty, node: Node::Ufunc1(*op, *l, Box::new(var(&slot, &vars, *a))) })
            }
            FNode::Binary(op, l, a, b) => rounded(
                *d,
                TExpr {
                    ty,
                    node: Node::Ufunc2(*op, *l, Box::new(var(&slot, &vars, *a)), Box::new(var(&slot, &vars, *b))),
                },
            ),
            FNode::Where(c, a, b) => TExpr {
                ty,
                node: Node::Select(
                    Box::new(var(&slot, &vars, *c)),
                    Box::new(var(&slot, &vars, *a)),
                    Box::new(var(&slot, &vars, *b)),
                ),
            },
            FNode::Cast(a) => rounded(*d, TExpr { ty, node: Node::Convert(Box::new(var(&slot, &vars, *a))) }),
            FNode::Kernel(c) => rounded(*d, inline(c, n, &slot, &mut vars, &mut body)?),
            FNode::Reduce(..) => unreachable!("a reduction ends the graph"),
        };
        vars.push(VarInfo { name: format!("_t{n}"), ty, role: Role::Local });
        slot[n] = vars.len() - 1;
        body.push(TStmt::Set(slot[n], e));
    }
    let value = var(&slot, &vars, root);
    Ok((vars, body, value))
}

/// The program of kernel call `c` (node `n`) inlined: its variables renamed into `vars` (its
/// inputs are the argument nodes' slots), its statements appended to `body`; the value is its
/// output's variable.
fn inline(c: &KernelCall, n: usize, slot: &[usize], vars: &mut Vec<VarInfo>, body: &mut Vec<TStmt>) -> Result<TExpr> {
    let f = c.k.def();
    let func = f.rust.as_ref().map(|r| r.func);
    if func.is_some_and(|f| f.params.iter().any(|p| p.kind != xp_core::kernel::rust::ast::ParamKind::Value)) {
        let reason = "a Raw or Index parameter inside fuse: run op by op".to_string();
        return Err(xp_core::Error::KernelUnsupported { kernel: f.name.clone(), backend: "fuse", reason });
    }
    let p = f.program(&c.typedefs, &vec![false; c.args.len()])?;
    let mut map = vec![0; p.vars.len()];
    let mut out = 0;
    for (j, v) in p.vars.iter().enumerate() {
        map[j] = match v.role {
            Role::In(k) => slot[c.args[k]],
            r => {
                let role = if let Role::Array(len) = r { Role::Array(len) } else { Role::Local };
                vars.push(VarInfo { name: format!("_k{n}{}", v.name), ty: v.ty, role });
                if r == Role::Out(c.out) {
                    out = vars.len() - 1;
                }
                vars.len() - 1
            }
        };
    }
    body.extend(xp_core::kernel::remap::stmts(&p.body, &map));
    Ok(TExpr { ty: vars[out].ty, node: Node::Var(out) })
}

fn in_params(dtypes: &[DType]) -> Vec<Param> {
    (dtypes.iter().enumerate())
        .map(|(k, &d)| Param { name: format!("in{k}"), ty: ParamTy::Fixed(d), raw: false })
        .collect()
}

/// The elementwise kernel of `graph` up to `root` over inputs of `dtypes` (None when `root` is
/// an input: nothing to compute).
pub(crate) fn kernel(graph: &[(FNode, DType)], root: usize, dtypes: &[DType]) -> Result<Option<ElementwiseKernel>> {
    if matches!(graph[root].0, FNode::Input(_)) {
        return Ok(None);
    }
    let (mut vars, mut body, value) = chain(graph, root, dtypes)?;
    let out_ty = graph[root].1;
    vars.push(VarInfo { name: "out0".into(), ty: compute(out_ty), role: Role::Out(0) });
    body.push(TStmt::Set(vars.len() - 1, value));
    let program = Program { vars, body };
    let outs = vec![Param { name: "out0".into(), ty: ParamTy::Fixed(out_ty), raw: false }];
    // Named by the hash of the program, so that the kernel's name says which chain it is.
    let mut def = ElementwiseDef::from_program("xp_fused", in_params(dtypes), outs, program);
    def.name = format!("xp_fused_{:016x}", def.id);
    Ok(Some(ElementwiseKernel::from_def(def)))
}

/// The chain up to `root` and the reduction `r` that ends it (of result dtype `rt`) as one
/// reduction kernel: the chain is its map, so that the chain's values never reach memory. A
/// mean is a sum whose post-map divides by the count, passed as the last (scalar) input.
pub(crate) fn reduction(
    graph: &[(FNode, DType)],
    root: usize,
    dtypes: &[DType],
    r: &Reduce,
    rt: DType,
) -> Result<ReductionKernel> {
    let ct = compute(rt);
    let (mut vars, mut body, value) = chain(graph, root, dtypes)?;
    vars.push(VarInfo { name: "__out".into(), ty: ct, role: Role::Out(0) });
    body.push(TStmt::Set(vars.len() - 1, value.to(ct)));
    let map = Program { vars, body };
    let v = |k: usize| Box::new(TExpr { ty: ct, node: Node::Var(k) });
    let (op, identity) = match r.kind {
        ReduceKind::Sum | ReduceKind::Mean => (BinaryOp::Add, Some(0)),
        ReduceKind::Prod => (BinaryOp::Mul, Some(1)),
        ReduceKind::Max => (BinaryOp::Max, None),
        ReduceKind::Min => (BinaryOp::Min, None),
    };
    let var = |name: &str, role: Role| VarInfo { name: name.into(), ty: ct, role };
    let reduce = Program {
        vars: vec![var("a", Role::In(0)), var("b", Role::In(1)), var("__out", Role::Out(0))],
        body: vec![TStmt::Set(2, TExpr { ty: ct, node: Node::Ufunc2(op, rt, v(0), v(1)) })],
    };
    let mut ins = in_params(dtypes);
    let mut pvars = vec![var("a", Role::In(0)), var("out0", Role::Out(0))];
    let result = if r.kind == ReduceKind::Mean {
        let k = dtypes.len();
        ins.push(Param { name: "_count".into(), ty: ParamTy::Fixed(DType::F64), raw: false });
        pvars.push(VarInfo { name: "_count".into(), ty: DType::F64, role: Role::Scalar(k) });
        let count = TExpr { ty: DType::F64, node: Node::Var(2) }.to(ct);
        TExpr { ty: ct, node: Node::Ufunc2(BinaryOp::Div, rt, v(0), Box::new(count)) }
    } else {
        TExpr { ty: ct, node: Node::Var(0) }
    };
    let post = Program { vars: pvars, body: vec![TStmt::Set(1, result)] };
    let identity = identity.map(|i| TExpr::constant(ct, Scalar::Int(i)));
    let progs = ReductionPrograms { reduce_ty: rt, map, reduce, post, identity };
    let outs = vec![Param { name: "out0".into(), ty: ParamTy::Fixed(rt), raw: false }];
    let mut def = ReductionDef::from_programs("xp_fused_red", ins, outs, progs);
    def.name = format!("xp_fused_red_{:016x}", def.id);
    Ok(ReductionKernel::from_def(def))
}

/// The graph evaluated op by op with xp's functions.
pub(crate) fn eager(graph: &[(FNode, DType)], root: usize, args: &[&Array]) -> Result<Array> {
    let device = args[0].device();
    let mut vals: Vec<Option<Array>> = vec![None; graph.len()];
    for (n, (node, d)) in graph.iter().enumerate().take(root + 1) {
        let get = |k: usize| vals[k].clone().expect("computed before use");
        let v = match node {
            FNode::Input(k) => args[*k].clone(),
            FNode::Const(s) => Array::scalar_on(*s, *d, device)?,
            FNode::Unary(op, _, a) => crate::ufunc::unary(*op, &get(*a))?,
            FNode::Binary(op, _, a, b) => crate::ufunc::binary(*op, &get(*a), &get(*b))?,
            FNode::Where(c, a, b) => crate::ufunc::where_(&get(*c), &get(*a), &get(*b))?,
            FNode::Cast(a) => get(*a).astype(*d)?,
            FNode::Kernel(c) => {
                let args: Vec<Array> = c.args.iter().map(|&k| get(k)).collect();
                let ops: Vec<crate::ufunc::Operand> = args.iter().map(|a| a.into()).collect();
                c.k.call(&ops)?.swap_remove(c.out)
            }
            FNode::Reduce(..) => unreachable!("a reduction ends the graph"),
        };
        vals[n] = Some(v);
    }
    Ok(vals[root].clone().expect("root computed"))
}

/// The reduction that ends a fused function.
pub(crate) fn reduce(x: &Array, r: &Reduce) -> Result<Array> {
    let axes: crate::Axes = match &r.axes {
        None => crate::Axes::All,
        Some(v) => crate::Axes::List(v.clone()),
    };
    match (r.kind, r.keepdims) {
        (ReduceKind::Sum, false) => x.sum(axes),
        (ReduceKind::Sum, true) => x.sum_keepdim(axes),
        (ReduceKind::Prod, false) => x.prod(axes),
        (ReduceKind::Prod, true) => x.prod_keepdim(axes),
        (ReduceKind::Max, false) => x.max(axes),
        (ReduceKind::Max, true) => x.max_keepdim(axes),
        (ReduceKind::Min, false) => x.min(axes),
        (ReduceKind::Min, true) => x.min_keepdim(axes),
        (ReduceKind::Mean, false) => x.mean(axes),
        (ReduceKind::Mean, true) => x.mean_keepdim(axes),
    }
}
