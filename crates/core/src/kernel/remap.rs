//! Renaming a program's variable slots: how a typed program is inlined into another (a
//! `#[xp::kernel]` function inside a fused chain).
use super::ir::{Node, TExpr, TStmt};

/// `body` with every variable slot `k` renamed `map[k]`.
pub fn stmts(body: &[TStmt], map: &[usize]) -> Vec<TStmt> {
    body.iter().map(|s| stmt(s, map)).collect()
}

fn stmt(s: &TStmt, m: &[usize]) -> TStmt {
    match s {
        TStmt::Set(k, e) => TStmt::Set(m[*k], expr(e, m)),
        TStmt::Let(k, e) => TStmt::Let(m[*k], expr(e, m)),
        TStmt::SetElem(k, i, e) => TStmt::SetElem(m[*k], expr(i, m), expr(e, m)),
        TStmt::If(c, t, e) => TStmt::If(expr(c, m), stmts(t, m), stmts(e, m)),
        TStmt::Loop { cond, body, step, post } => {
            TStmt::Loop { cond: expr(cond, m), body: stmts(body, m), step: stmts(step, m), post: *post }
        }
        TStmt::Inline(b) => TStmt::Inline(stmts(b, m)),
        TStmt::Break => TStmt::Break,
        TStmt::Continue => TStmt::Continue,
        TStmt::Return => TStmt::Return,
        TStmt::Store(k, i, e) => TStmt::Store(*k, expr(i, m), expr(e, m)),
        TStmt::Sync => TStmt::Sync,
    }
}

/// `e` with every variable slot `k` renamed `m[k]`.
pub fn expr(e: &TExpr, m: &[usize]) -> TExpr {
    let b = |x: &TExpr| Box::new(expr(x, m));
    let node = match &e.node {
        Node::Var(k) => Node::Var(m[*k]),
        Node::Elem(k, i) => Node::Elem(m[*k], b(i)),
        Node::Const(_) | Node::Index | Node::RawLen(_) | Node::Builtin(..) => e.node.clone(),
        Node::Shuffle(k, v, a) => Node::Shuffle(*k, b(v), b(a)),
        Node::Atomic(op, k, args) => Node::Atomic(*op, *k, args.iter().map(|a| expr(a, m)).collect()),
        Node::Raw(k, i) => Node::Raw(*k, b(i)),
        Node::Un(op, a) => Node::Un(*op, b(a)),
        Node::Bin(op, x, y) => Node::Bin(*op, b(x), b(y)),
        Node::Select(c, x, y) => Node::Select(b(c), b(x), b(y)),
        Node::Convert(a) => Node::Convert(b(a)),
        Node::Math(f, args) => Node::Math(*f, args.iter().map(|a| expr(a, m)).collect()),
        Node::Ufunc1(op, d, a) => Node::Ufunc1(*op, *d, b(a)),
        Node::Ufunc2(op, d, x, y) => Node::Ufunc2(*op, *d, b(x), b(y)),
        Node::Round(d, a) => Node::Round(*d, b(a)),
        Node::Stmts(s, v) => Node::Stmts(stmts(s, m), b(v)),
    };
    TExpr { ty: e.ty, node }
}
