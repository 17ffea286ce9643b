//! A traced graph as one typed program (a local per node, NumPy's ufuncs as `Ufunc` nodes,
//! float16 intermediates rounded as the unfused chain rounds them), and the op-by-op path.
use super::sym::{FNode, Reduce, ReduceKind};
use crate::kernel::ElementwiseKernel;
use crate::Array;
use xp_core::kernel::{compute, ElementwiseDef, Node, Param, ParamTy, Program, Role, TExpr, TStmt, VarInfo};
use xp_core::{DType, Result};

fn rounded(d: DType, e: TExpr) -> TExpr {
    if matches!(d, DType::F16 | DType::BF16) {
        TExpr { ty: e.ty, node: Node::Round(d, Box::new(e)) }
    } else {
        e
    }
}

/// The elementwise kernel of `graph` up to `root` over inputs of `dtypes` (None when `root` is
/// an input: nothing to compute).
pub(crate) fn kernel(graph: &[(FNode, DType)], root: usize, dtypes: &[DType]) -> Result<Option<ElementwiseKernel>> {
    if matches!(graph[root].0, FNode::Input(_)) {
        return Ok(None);
    }
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
            FNode::Reduce(..) => unreachable!("a reduction ends the graph"),
        };
        vars.push(VarInfo { name: format!("_t{n}"), ty, role: Role::Local });
        slot[n] = vars.len() - 1;
        body.push(TStmt::Set(slot[n], e));
    }
    let out_ty = graph[root].1;
    vars.push(VarInfo { name: "out0".into(), ty: compute(out_ty), role: Role::Out(0) });
    body.push(TStmt::Set(vars.len() - 1, var(&slot, &vars, root)));
    let program = Program { vars, body };
    let ins: Vec<Param> = (dtypes.iter().enumerate())
        .map(|(k, &d)| Param { name: format!("in{k}"), ty: ParamTy::Fixed(d), raw: false })
        .collect();
    let outs = vec![Param { name: "out0".into(), ty: ParamTy::Fixed(out_ty), raw: false }];
    // Named by the hash of the program, so that the kernel's name says which chain it is.
    let mut def = ElementwiseDef::from_program("xp_fused", ins, outs, program);
    def.name = format!("xp_fused_{:016x}", def.id);
    Ok(Some(ElementwiseKernel::from_def(def)))
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
