//! Compiling a program into block instructions, and running them.
use super::col::{self, class, with_class, with_lane, with_num, Col, Lane, Reg};
use super::BLK;
use num_traits::AsPrimitive;
use rayon::prelude::*;
use std::sync::Mutex;
use xp_core::kernel::{BinOp, MathFn, Node, Program, Role, TExpr, TStmt, UnOp};
use xp_core::{numel, BinaryOp, DType, Element, Error, HostBuffer, Layout, Result, Scalar, UnaryOp};

/// An argument of a kernel on the CPU.
#[derive(Clone, Copy, Debug)]
pub enum Operand<'a> {
    /// an array, broadcast to the kernel's shape
    Array(&'a HostBuffer, &'a Layout),
    /// a raw array: indexed by the body
    Raw(&'a HostBuffer, &'a Layout),
    /// a scalar of a dtype
    Scalar(Scalar, DType),
    /// nothing (an output the kernel allocates)
    None,
}

type R = usize;

/// One instruction over a block.
#[derive(Clone, Debug)]
enum Ins {
    /// an input from operand `op` (storage dtype `dt`)
    Load {
        dst: R,
        op: usize,
        dt: DType,
    },
    Index {
        dst: R,
    },
    Raw {
        dst: R,
        op: usize,
        idx: R,
        mask: Option<R>,
    },
    /// `dst = numel(raw operand op)`
    RawLen {
        dst: R,
        op: usize,
    },
    Un {
        dst: R,
        op: UnOp,
        a: R,
        ty: DType,
    },
    Bin {
        dst: R,
        op: BinOp,
        a: R,
        b: R,
        ty: DType,
    },
    Sel {
        dst: R,
        c: R,
        a: R,
        b: R,
        ty: DType,
    },
    Cvt {
        dst: R,
        a: R,
        from: DType,
        to: DType,
    },
    Math {
        dst: R,
        f: MathFn,
        args: [R; 3],
        ty: DType,
    },
    Uf1 {
        dst: R,
        op: UnaryOp,
        dt: DType,
        a: R,
    },
    Uf2 {
        dst: R,
        op: BinaryOp,
        dt: DType,
        a: R,
        b: R,
    },
    Round {
        dst: R,
        dt: DType,
        a: R,
    },
    Copy {
        dst: R,
        a: R,
        ty: DType,
    },
    Merge {
        dst: R,
        m: R,
        a: R,
        ty: DType,
    },
    /// go to instruction `to`
    Jump {
        to: usize,
    },
    /// go to `to` when no element of mask `m` is set
    JumpNone {
        m: R,
        to: usize,
    },
    /// go to `to` when some element of mask `m` is set
    JumpAny {
        m: R,
        to: usize,
    },
    /// `dst &= a` (masks)
    AndIn {
        dst: R,
        a: R,
    },
    /// `dst &= !a` (masks: `break`, `continue`, `return`)
    AndNotIn {
        dst: R,
        a: R,
    },
    /// `dst = v` in every element (a mask)
    FillB {
        dst: R,
        v: bool,
    },
    /// `dst = array[idx]`: the array is registers `base..base + len`
    ElemGet {
        dst: R,
        base: R,
        len: usize,
        idx: R,
        mask: Option<R>,
        ty: DType,
    },
    /// `array[idx] = val` where `mask` is set
    ElemSet {
        base: R,
        len: usize,
        idx: R,
        val: R,
        mask: Option<R>,
        ty: DType,
    },
}

/// A compiled program.
#[derive(Clone, Debug)]
pub(crate) struct Compiled {
    ins: Vec<Ins>,
    /// the register class of each register
    regs: Vec<DType>,
    /// registers filled once: constants
    consts: Vec<(R, Scalar)>,
    /// registers filled once per call: (register, scalar input position)
    scalar_regs: Vec<(R, usize)>,
    /// the register of each variable
    pub(crate) var_reg: Vec<R>,
    /// (register, storage dtype) of each output, in output order
    pub(crate) outs: Vec<(R, DType)>,
    /// (input position, register) of each array input the program reads
    pub(crate) ins_read: Vec<(usize, R)>,
    /// the program loops: an element may cost far more than a pass over memory
    looped: bool,
}

struct Builder<'p> {
    p: &'p Program,
    c: Compiled,
    /// how many assignments each variable has in the whole body (arrays: more than any)
    writes: Vec<usize>,
    /// how many of them are compiled so far
    done: Vec<usize>,
    /// the masks in force, innermost last (none at the top level: every element active)
    chain: Vec<R>,
    /// the loops and functions around the statement being compiled
    frames: Vec<Frame>,
    /// the mask in force at each local's declaration (`Some(None)`: the top level)
    decl_mask: Vec<Option<Option<R>>>,
}

/// A construct that `break`, `continue` or `return` leaves: the positions in the mask chain
/// of the masks they clear from.
#[derive(Clone, Copy)]
enum Frame {
    /// a loop: `break` clears from its loop mask, `continue` from its body mask
    Loop { brk: usize, cont: usize },
    /// an inlined function with a `return` before its end
    Func { at: usize },
}

/// Count the assignments of each variable in `body` into `w`.
fn count_writes(body: &[TStmt], w: &mut [usize]) {
    for s in body {
        match s {
            TStmt::Set(v, e) | TStmt::Let(v, e) => {
                w[*v] += 1;
                count_expr_writes(e, w);
            }
            TStmt::SetElem(v, i, e) => {
                w[*v] = usize::MAX / 2;
                count_expr_writes(i, w);
                count_expr_writes(e, w);
            }
            TStmt::If(c, t, e) => {
                count_expr_writes(c, w);
                count_writes(t, w);
                count_writes(e, w);
            }
            TStmt::Loop { cond, body, step, .. } => {
                count_expr_writes(cond, w);
                count_writes(body, w);
                count_writes(step, w);
            }
            TStmt::Inline(b) => count_writes(b, w),
            TStmt::Break | TStmt::Continue | TStmt::Return => {}
            TStmt::Store(..) | TStmt::Sync => unreachable!("a raw kernel's statement on the CPU"),
        }
    }
}

fn count_expr_writes(e: &TExpr, w: &mut [usize]) {
    walk(e, &mut |e| {
        if let Node::Stmts(s, _) = &e.node {
            count_writes(s, w);
        }
    });
}

/// Call `f` on `e` and every subexpression (not those of statements inside it).
fn walk(e: &TExpr, f: &mut impl FnMut(&TExpr)) {
    f(e);
    match &e.node {
        Node::Const(_) | Node::Var(_) | Node::Index | Node::RawLen(_) => {}
        Node::Builtin(..) | Node::Shuffle(..) | Node::Atomic(..) => unreachable!("a raw kernel's node on the CPU"),
        Node::Raw(_, a)
        | Node::Elem(_, a)
        | Node::Un(_, a)
        | Node::Convert(a)
        | Node::Ufunc1(_, _, a)
        | Node::Round(_, a)
        | Node::Stmts(_, a) => walk(a, f),
        Node::Bin(_, a, b) | Node::Ufunc2(_, _, a, b) => {
            walk(a, f);
            walk(b, f);
        }
        Node::Select(c, a, b) => {
            walk(c, f);
            walk(a, f);
            walk(b, f);
        }
        Node::Math(_, args) => args.iter().for_each(|a| walk(a, f)),
    }
}

/// True when `body` has a `what` that leaves a construct around it: a `return` (not one of a
/// function inlined in it) or a `continue` of this loop (not one of a loop inside).
fn jumps(body: &[TStmt], what: &TStmt) -> bool {
    body.iter().any(|s| match s {
        s if s == what => true,
        TStmt::If(_, t, e) => jumps(t, what) || jumps(e, what),
        TStmt::Loop { body, step, .. } => *what == TStmt::Return && (jumps(body, what) || jumps(step, what)),
        _ => false,
    })
}

/// The constant an index or a conversion of a constant folds to.
fn const_of(e: &TExpr) -> Option<Scalar> {
    match &e.node {
        Node::Const(v) => Some(*v),
        Node::Convert(a) => {
            let v = const_of(a)?;
            let from = a.ty;
            let int = |d: DType| d.is_integer() || d == DType::Bool;
            match e.ty {
                DType::F64 if from != DType::Bool => Some(Scalar::Float(v.to_f64())),
                DType::F32 if matches!(from, DType::F32 | DType::F64) => Some(Scalar::Float(v.to_f64())),
                DType::I32 | DType::I64 if int(from) => Some(Scalar::Int(v.to_i64())),
                DType::U32 | DType::U64 if int(from) => Some(Scalar::Uint(v.to_u64())),
                _ => None,
            }
        }
        Node::Un(UnOp::Neg, a) if matches!(e.ty, DType::F32 | DType::F64) => {
            const_of(a).map(|v| Scalar::Float(-v.to_f64()))
        }
        _ => None,
    }
}

/// True when evaluating `e` for an element it does not apply to could fail or have effects:
/// such an operand of `?:`, `&&` or `||` is evaluated under its mask.
fn guarded(e: &TExpr) -> bool {
    let mut g = false;
    walk(e, &mut |e| {
        g |= match &e.node {
            Node::Raw(..) | Node::Stmts(..) => true,
            Node::Elem(_, i) => const_of(i).is_none(),
            _ => false,
        }
    });
    g
}

impl Builder<'_> {
    fn reg(&mut self, ty: DType) -> R {
        self.c.regs.push(class(ty));
        self.c.regs.len() - 1
    }
    fn konst(&mut self, ty: DType, v: Scalar) -> R {
        let r = self.reg(ty);
        self.c.consts.push((r, v));
        r
    }
    fn cur(&self) -> Option<R> {
        self.chain.last().copied()
    }
    /// `m & c` in a fresh register (`c` copied when there is no `m`).
    fn mask_and(&mut self, m: Option<R>, c: R) -> R {
        let r = self.reg(DType::Bool);
        self.c.ins.push(match m {
            None => Ins::Copy { dst: r, a: c, ty: DType::Bool },
            Some(m) => Ins::Bin { dst: r, op: BinOp::LAnd, a: m, b: c, ty: DType::Bool },
        });
        r
    }
    fn not(&mut self, c: R) -> R {
        let r = self.reg(DType::Bool);
        self.c.ins.push(Ins::Un { dst: r, op: UnOp::Not, a: c, ty: DType::Bool });
        r
    }
    /// A fresh mask: a copy of the one in force, or all set.
    fn copy_mask(&mut self) -> R {
        let r = self.reg(DType::Bool);
        self.c.ins.push(match self.cur() {
            Some(m) => Ins::Copy { dst: r, a: m, ty: DType::Bool },
            None => Ins::FillB { dst: r, v: true },
        });
        r
    }
    /// The elements active here leave every mask from chain position `at` inward.
    fn clear_from(&mut self, at: usize) {
        let m = *self.chain.last().expect("a jump has a mask");
        for j in at..self.chain.len() - 1 {
            let dst = self.chain[j];
            self.c.ins.push(Ins::AndNotIn { dst, a: m });
        }
        self.c.ins.push(Ins::FillB { dst: m, v: false });
    }
    fn expr(&mut self, e: &TExpr, m: Option<R>) -> R {
        let ty = e.ty;
        if !matches!(e.node, Node::Const(_)) {
            if let Some(v) = const_of(e) {
                return self.konst(ty, v);
            }
        }
        let ins = match &e.node {
            Node::Builtin(..) | Node::Shuffle(..) | Node::Atomic(..) => unreachable!("a raw kernel's node on the CPU"),
            Node::Const(v) => return self.konst(ty, *v),
            Node::Var(k) => return self.c.var_reg[*k],
            Node::Index => {
                let dst = self.reg(DType::I64);
                Ins::Index { dst }
            }
            Node::RawLen(op) => {
                let dst = self.reg(DType::I64);
                Ins::RawLen { dst, op: *op }
            }
            Node::Raw(op, i) => {
                let idx = self.expr(i, m);
                let dst = self.reg(ty);
                Ins::Raw { dst, op: *op, idx, mask: m }
            }
            Node::Elem(k, i) => {
                let (base, len) = self.array(*k);
                if let Some(j) = const_of(i) {
                    return base + j.to_i64() as usize;
                }
                let idx = self.expr(i, m);
                let dst = self.reg(ty);
                Ins::ElemGet { dst, base, len, idx, mask: m, ty }
            }
            Node::Stmts(st, v) => {
                let pushed = m.is_some() && m != self.cur();
                if let Some(m) = m.filter(|_| pushed) {
                    self.chain.push(m);
                }
                self.stmts(st);
                let r = self.expr(v, m);
                if pushed {
                    self.chain.pop();
                }
                return r;
            }
            Node::Un(op, a) => {
                let a = self.expr(a, m);
                let dst = self.reg(ty);
                Ins::Un { dst, op: *op, a, ty }
            }
            Node::Bin(op, a, b) => {
                let t = a.ty;
                let ra = self.expr(a, m);
                let rb = if matches!(op, BinOp::LAnd | BinOp::LOr) && guarded(b) {
                    // the right operand only where the left one does not decide
                    let c = if *op == BinOp::LAnd { ra } else { self.not(ra) };
                    let mb = self.mask_and(m, c);
                    self.expr(b, Some(mb))
                } else {
                    self.expr(b, m)
                };
                let dst = self.reg(ty);
                Ins::Bin { dst, op: *op, a: ra, b: rb, ty: t }
            }
            Node::Select(c, a, b) => {
                let cr = self.expr(c, m);
                let (ma, mb) = if guarded(a) || guarded(b) {
                    let n = self.not(cr);
                    (Some(self.mask_and(m, cr)), Some(self.mask_and(m, n)))
                } else {
                    (m, m)
                };
                let (a, b) = (self.expr(a, ma), self.expr(b, mb));
                let dst = self.reg(ty);
                Ins::Sel { dst, c: cr, a, b, ty }
            }
            Node::Convert(a) => {
                let from = a.ty;
                let a = self.expr(a, m);
                let dst = self.reg(ty);
                Ins::Cvt { dst, a, from, to: ty }
            }
            Node::Math(f, args) => {
                let t = args[0].ty;
                let mut rs = [0; 3];
                for (k, a) in args.iter().enumerate() {
                    rs[k] = self.expr(a, m);
                }
                let dst = self.reg(ty);
                Ins::Math { dst, f: *f, args: rs, ty: t }
            }
            Node::Ufunc1(op, dt, a) => {
                let a = self.expr(a, m);
                let dst = self.reg(ty);
                Ins::Uf1 { dst, op: *op, dt: *dt, a }
            }
            Node::Ufunc2(op, dt, a, b) => {
                let (a, b) = (self.expr(a, m), self.expr(b, m));
                let dst = self.reg(ty);
                Ins::Uf2 { dst, op: *op, dt: *dt, a, b }
            }
            Node::Round(dt, a) => {
                let a = self.expr(a, m);
                let dst = self.reg(ty);
                Ins::Round { dst, dt: *dt, a }
            }
        };
        self.c.ins.push(ins);
        self.c.regs.len() - 1
    }
    /// The first register and length of local array `k`.
    fn array(&self, k: usize) -> (R, usize) {
        let Role::Array(len) = self.p.vars[k].role else { unreachable!("an array slot") };
        (self.c.var_reg[k], len)
    }
    /// `var = e`; `decl`: the variable's declaration.
    fn set(&mut self, v: usize, e: &TExpr, decl: bool) {
        let m = self.cur();
        let before = self.c.regs.len();
        let r = self.expr(e, m);
        let (dst, ty) = (self.c.var_reg[v], self.p.vars[v].ty);
        let local = self.p.vars[v].role == Role::Local;
        // Unmasked: at the top level, at a declaration (no element outside the mask reads the
        // variable in its scope), or at the mask of the declaration (the elements that left
        // it since left the variable's scope).
        let unmasked = m.is_none() || (local && (decl || self.decl_mask[v] == Some(m)));
        if decl {
            self.decl_mask[v] = Some(m);
        }
        let is_const = self.c.consts.iter().any(|c| c.0 == r);
        let fresh = r >= before && !is_const;
        let renamable = matches!(self.p.vars[v].role, Role::Local | Role::Out(_));
        // A register no later instruction writes: a constant, or the register of a variable
        // with no assignment left (inputs, scalars, single assignments already made).
        let mut holders = (0..self.p.vars.len()).filter(|&u| self.c.var_reg[u] == r).peekable();
        let held = holders.peek().is_some();
        let frozen = is_const || (held && holders.all(|u| self.writes[u] <= 1 && self.done[u] == self.writes[u]));
        // Assigned once from a frozen register: the variable can share it (no copy). Not an
        // output sharing a constant or scalar register: those are filled once per call, and a
        // reduction folds its map's output register in place.
        let fixed = is_const || self.c.scalar_regs.iter().any(|c| c.0 == r);
        let out = matches!(self.p.vars[v].role, Role::Out(_));
        let share = frozen && self.writes[v] == 1 && !(out && fixed);
        match m {
            _ if unmasked && (fresh || share) && renamable && self.c.regs[r] == class(ty) => self.c.var_reg[v] = r,
            _ if unmasked => {
                if r != dst {
                    self.c.ins.push(Ins::Copy { dst, a: r, ty })
                }
            }
            Some(m) => self.c.ins.push(Ins::Merge { dst, m, a: r, ty }),
            None => unreachable!("unmasked at the top level"),
        }
        self.done[v] += 1;
    }
    fn stmts(&mut self, body: &[TStmt]) {
        for s in body {
            match s {
                TStmt::Store(..) | TStmt::Sync => unreachable!("a raw kernel's statement on the CPU"),
                TStmt::Set(v, e) => self.set(*v, e, false),
                TStmt::Let(v, e) => self.set(*v, e, true),
                TStmt::SetElem(k, i, e) => {
                    let m = self.cur();
                    let (base, len) = self.array(*k);
                    let ty = self.p.vars[*k].ty;
                    let r = self.expr(e, m);
                    match (const_of(i), m) {
                        (Some(j), None) => {
                            let dst = base + j.to_i64() as usize;
                            if dst != r {
                                self.c.ins.push(Ins::Copy { dst, a: r, ty });
                            }
                        }
                        (Some(j), Some(m)) => {
                            let dst = base + j.to_i64() as usize;
                            self.c.ins.push(Ins::Merge { dst, m, a: r, ty });
                        }
                        (None, _) => {
                            let idx = self.expr(i, m);
                            self.c.ins.push(Ins::ElemSet { base, len, idx, val: r, mask: m, ty });
                        }
                    }
                    self.done[*k] += 1;
                }
                TStmt::If(c, t, e) => {
                    let m = self.cur();
                    let cr = self.expr(c, m);
                    // both masks before either branch runs (a branch may change `m`)
                    let mt = self.mask_and(m, cr);
                    let me = if e.is_empty() {
                        None
                    } else {
                        let n = self.not(cr);
                        Some(self.mask_and(m, n))
                    };
                    self.chain.push(mt);
                    self.stmts(t);
                    self.chain.pop();
                    if let Some(me) = me {
                        self.chain.push(me);
                        self.stmts(e);
                        self.chain.pop();
                    }
                }
                TStmt::Loop { cond, body, step, post } => {
                    let lm = self.copy_mask();
                    self.chain.push(lm);
                    let brk = self.chain.len() - 1;
                    let top = self.c.ins.len();
                    let mut exit = None;
                    if !post {
                        let c = self.expr(cond, Some(lm));
                        self.c.ins.push(Ins::AndIn { dst: lm, a: c });
                        exit = Some(self.c.ins.len());
                        self.c.ins.push(Ins::JumpNone { m: lm, to: usize::MAX });
                    }
                    let has_cont = jumps(body, &TStmt::Continue);
                    if has_cont {
                        let bm = self.copy_mask();
                        self.chain.push(bm);
                    }
                    self.frames.push(Frame::Loop { brk, cont: self.chain.len() - 1 });
                    self.stmts(body);
                    self.frames.pop();
                    if has_cont {
                        self.chain.pop();
                    }
                    self.stmts(step);
                    if *post {
                        let c = self.expr(cond, Some(lm));
                        self.c.ins.push(Ins::AndIn { dst: lm, a: c });
                        self.c.ins.push(Ins::JumpAny { m: lm, to: top });
                    } else {
                        self.c.ins.push(Ins::Jump { to: top });
                    }
                    let end = self.c.ins.len();
                    if let Some(x) = exit {
                        self.c.ins[x] = Ins::JumpNone { m: lm, to: end };
                    }
                    self.chain.pop();
                }
                TStmt::Break | TStmt::Continue => {
                    let Some(&Frame::Loop { brk, cont }) =
                        self.frames.iter().rev().find(|f| matches!(f, Frame::Loop { .. }))
                    else {
                        unreachable!("the checker keeps jumps inside loops")
                    };
                    self.clear_from(if *s == TStmt::Break { brk } else { cont });
                    return; // the rest of this list is dead
                }
                TStmt::Return => {
                    let Some(&Frame::Func { at }) = self.frames.iter().rev().find(|f| matches!(f, Frame::Func { .. }))
                    else {
                        unreachable!("a return inside an inlined function with a mask")
                    };
                    self.clear_from(at);
                    return;
                }
                TStmt::Inline(b) => {
                    if jumps(b, &TStmt::Return) {
                        let fm = self.copy_mask();
                        self.chain.push(fm);
                        // loops of the caller are not the function's
                        let saved = std::mem::take(&mut self.frames);
                        self.frames.push(Frame::Func { at: self.chain.len() - 1 });
                        self.stmts(b);
                        self.frames = saved;
                        self.chain.pop();
                    } else {
                        let saved = std::mem::take(&mut self.frames);
                        self.stmts(b);
                        self.frames = saved;
                    }
                }
            }
        }
    }
}

impl Compiled {
    /// Compile `p` (scalar parameters are filled per call: [`Compiled::regs_for`]); `in_dtypes[k]` input `k`'s
    /// storage dtype; `out_dtypes` the outputs' storage dtypes.
    pub(crate) fn new(p: &Program, in_dtypes: &[DType], out_dtypes: &[DType]) -> Compiled {
        let c = Compiled {
            ins: vec![],
            regs: vec![],
            consts: vec![],
            scalar_regs: vec![],
            var_reg: vec![],
            outs: vec![],
            ins_read: vec![],
            looped: false,
        };
        let mut writes = vec![0; p.vars.len()];
        count_writes(&p.body, &mut writes);
        let done = vec![0; p.vars.len()];
        let decl_mask = vec![None; p.vars.len()];
        let mut b = Builder { p, c, writes, done, chain: vec![], frames: vec![], decl_mask };
        for v in &p.vars {
            let r = match v.role {
                Role::Scalar(k) => {
                    let r = b.reg(v.ty);
                    b.c.scalar_regs.push((r, k));
                    r
                }
                // an array: one register per element
                Role::Array(len) => {
                    let r = b.reg(v.ty);
                    (1..len).for_each(|_| {
                        b.reg(v.ty);
                    });
                    r
                }
                _ => b.reg(v.ty),
            };
            b.c.var_reg.push(r);
        }
        for (k, v) in p.vars.iter().enumerate() {
            if let Role::In(j) = v.role {
                let dst = b.c.var_reg[k];
                b.c.ins_read.push((j, dst));
                b.c.ins.push(Ins::Load { dst, op: j, dt: in_dtypes.get(j).copied().unwrap_or(v.ty) });
            }
        }
        for (k, v) in p.vars.iter().enumerate() {
            if let Role::Out(j) = v.role {
                let dst = b.c.var_reg[k];
                let dt = out_dtypes.get(j).copied().unwrap_or(v.ty);
                b.c.ins.push(Ins::Load { dst, op: in_dtypes.len() + j, dt });
            }
        }
        b.stmts(&p.body);
        let mut outs: Vec<(usize, R, DType)> = p
            .vars
            .iter()
            .enumerate()
            .filter_map(|(k, v)| match v.role {
                Role::Out(j) => Some((j, b.c.var_reg[k], out_dtypes.get(j).copied().unwrap_or(v.ty))),
                _ => None,
            })
            .collect();
        outs.sort_by_key(|o| o.0);
        b.c.outs = outs.into_iter().map(|(_, r, d)| (r, d)).collect();
        b.c.looped = b.c.ins.iter().any(|i| matches!(i, Ins::Jump { .. } | Ins::JumpAny { .. }));
        b.c
    }
    /// A register file for this program of blocks of `len` (at most [`BLK`]) elements,
    /// constants and the scalar parameters `scalars` (by input position) filled.
    pub(crate) fn regs_for(&self, len: usize, scalars: &[Option<Scalar>]) -> Vec<Col> {
        let mut regs: Vec<Col> = self.regs.iter().map(|&d| Col::new(d, len.clamp(1, BLK))).collect();
        for &(r, v) in &self.consts {
            fill(&mut regs[r], v);
        }
        for &(r, k) in &self.scalar_regs {
            fill(&mut regs[r], scalars.get(k).copied().flatten().unwrap_or(Scalar::Int(0)));
        }
        regs
    }
    /// A full-size register file without scalar parameters.
    pub(crate) fn regs(&self) -> Vec<Col> {
        self.regs_for(BLK, &[])
    }
    /// Run the instructions over `n` (at most [`BLK`]) elements at positions `start..start + n`
    /// of `srcs` (the operands, their layouts already those of the iteration space); the loads of
    /// inputs whose operand is `None` are skipped (the caller filled their registers).
    pub(crate) fn run(&self, regs: &mut [Col], srcs: &[Operand], start: usize, n: usize) -> Result<()> {
        let mut pc = 0;
        while let Some(ins) = self.ins.get(pc) {
            pc = match *ins {
                Ins::Jump { to } => to,
                Ins::JumpNone { m, to } => {
                    if bool::get(&regs[m])[..n].contains(&true) {
                        pc + 1
                    } else {
                        to
                    }
                }
                Ins::JumpAny { m, to } => {
                    if bool::get(&regs[m])[..n].contains(&true) {
                        to
                    } else {
                        pc + 1
                    }
                }
                _ => {
                    step(ins, regs, srcs, start, n)?;
                    pc + 1
                }
            };
        }
        Ok(())
    }
}

fn fill(c: &mut Col, v: Scalar) {
    match c {
        Col::B(x) => x.fill(v.is_nonzero()),
        Col::I32(x) => x.fill(v.to_i64() as i32),
        Col::U32(x) => x.fill(v.to_u64() as u32),
        Col::I64(x) => x.fill(v.to_i64()),
        Col::U64(x) => x.fill(v.to_u64()),
        Col::F32(x) => x.fill(v.to_f64() as f32),
        Col::F64(x) => x.fill(v.to_f64()),
    }
}

/// Run `f` with every register readable and `dst` writable (taken out of the file for the
/// call: no instruction reads its own destination).
#[inline(always)]
fn with_dst<R2>(regs: &mut [Col], dst: R, f: impl FnOnce(&[Col], &mut Col) -> R2) -> R2 {
    let mut o = std::mem::replace(&mut regs[dst], Col::B(Vec::new()));
    let r = f(regs, &mut o);
    regs[dst] = o;
    r
}

fn step(ins: &Ins, regs: &mut [Col], srcs: &[Operand], start: usize, n: usize) -> Result<()> {
    match *ins {
        Ins::Load { dst, op, dt } => {
            if let Some(Operand::Array(buf, l)) = srcs.get(op) {
                with_lane!(dt, T => load::<T>(T::slice_of(buf).expect("dtype checked"), l, start, n, <<T as Lane>::R as Reg>::get_mut(&mut regs[dst])), unreachable!("complex"));
            }
        }
        Ins::Index { dst } => {
            for (k, o) in i64::get_mut(&mut regs[dst])[..n].iter_mut().enumerate() {
                *o = (start + k) as i64;
            }
        }
        Ins::RawLen { dst, op } => {
            let Some(Operand::Raw(_, l)) = srcs.get(op) else { unreachable!("raw operand") };
            i64::get_mut(&mut regs[dst])[..n].fill(l.numel() as i64);
        }
        Ins::Raw { dst, op, idx, mask } => {
            let Some(Operand::Raw(buf, l)) = srcs.get(op) else { unreachable!("raw operand") };
            let ix: Vec<i64> = i64::get(&regs[idx])[..n].to_vec();
            let m: Option<Vec<bool>> = mask.map(|m| bool::get(&regs[m])[..n].to_vec());
            let size = l.numel();
            for (k, &j) in ix.iter().enumerate() {
                if m.as_ref().is_none_or(|m| m[k]) && (j < 0 || j as usize >= size) {
                    return Err(Error::IndexOutOfBounds { index: j as isize, axis: 0, size });
                }
            }
            let dt = buf.dtype();
            with_lane!(dt, T => gather::<T>(T::slice_of(buf).expect("dtype"), l, &ix, m.as_deref(), <<T as Lane>::R as Reg>::get_mut(&mut regs[dst])), unreachable!("complex"));
        }
        Ins::Un { dst, op, a, ty } => with_dst(regs, dst, |r, o| {
            if op == UnOp::Not {
                for (o, &x) in bool::get_mut(o)[..n].iter_mut().zip(&bool::get(&r[a])[..n]) {
                    *o = !x;
                }
            } else {
                with_num!(ty, T => pulp::Arch::new().dispatch(col::UnaryLoop::<T> { op, a: &T::get(&r[a])[..n], o: &mut T::get_mut(o)[..n] }));
            }
        }),
        Ins::Bin { dst, op, a, b, ty } => with_dst(regs, dst, |r, o| {
            if op.is_predicate() {
                with_class!(ty, T => col::wide(|| col::compare::<T>(op, &T::get(&r[a])[..n], &T::get(&r[b])[..n], &mut bool::get_mut(o)[..n])));
            } else {
                with_num!(ty, T => pulp::Arch::new().dispatch(col::ArithLoop::<T> { op, a: &T::get(&r[a])[..n], b: &T::get(&r[b])[..n], o: &mut T::get_mut(o)[..n] }));
            }
        }),
        Ins::Sel { dst, c, a, b, ty } => with_dst(regs, dst, |r, o| {
            with_class!(ty, T => col::wide(|| col::select::<T>(&bool::get(&r[c])[..n], &T::get(&r[a])[..n], &T::get(&r[b])[..n], &mut T::get_mut(o)[..n])));
        }),
        Ins::Cvt { dst, a, from, to } => with_dst(regs, dst, |r, o| convert(&r[a], from, o, to, n)),
        Ins::Copy { dst, a, ty } => {
            if a != dst {
                with_dst(
                    regs,
                    dst,
                    |r, o| with_class!(ty, T => T::get_mut(o)[..n].copy_from_slice(&T::get(&r[a])[..n])),
                );
            }
        }
        Ins::Merge { dst, a, .. } if a == dst => {}
        Ins::Merge { dst, m, a, ty } => with_dst(regs, dst, |r, o| {
            with_class!(ty, T => {
                let (m, a, o) = (&bool::get(&r[m])[..n], &T::get(&r[a])[..n], &mut T::get_mut(o)[..n]);
                pulp::Arch::new().dispatch(col::MergeLoop { m, a, o })
            });
        }),
        Ins::Jump { .. } | Ins::JumpNone { .. } | Ins::JumpAny { .. } => unreachable!("jumps run in `run`"),
        Ins::AndIn { dst, a } => with_dst(regs, dst, |r, o| {
            for (o, &x) in bool::get_mut(o)[..n].iter_mut().zip(&bool::get(&r[a])[..n]) {
                *o &= x;
            }
        }),
        Ins::AndNotIn { dst, a } => with_dst(regs, dst, |r, o| {
            for (o, &x) in bool::get_mut(o)[..n].iter_mut().zip(&bool::get(&r[a])[..n]) {
                *o &= !x;
            }
        }),
        Ins::FillB { dst, v } => bool::get_mut(&mut regs[dst])[..n].fill(v),
        Ins::ElemGet { dst, base, len, idx, mask, ty } => {
            let ix = checked_index(regs, idx, mask, len, n)?;
            with_dst(regs, dst, |r, o| {
                with_class!(ty, T => {
                    for (k, (o, &j)) in T::get_mut(o)[..n].iter_mut().zip(&ix).enumerate() {
                        *o = T::get(&r[base + j])[k];
                    }
                })
            });
        }
        Ins::ElemSet { base, len, idx, val, mask, ty } => {
            let ix = checked_index(regs, idx, mask, len, n)?;
            let m: Option<Vec<bool>> = mask.map(|m| bool::get(&regs[m])[..n].to_vec());
            with_class!(ty, T => {
                let v: Vec<T> = T::get(&regs[val])[..n].to_vec();
                for (k, &j) in ix.iter().enumerate() {
                    if m.as_ref().is_none_or(|m| m[k]) {
                        T::get_mut(&mut regs[base + j])[k] = v[k];
                    }
                }
            });
        }
        Ins::Math { dst, f, args, ty } => {
            let k = if matches!(f, MathFn::Fma) {
                3
            } else if super_math::binary(f) {
                2
            } else {
                1
            };
            with_dst(regs, dst, |r, o| {
                let v: [&Col; 3] = [&r[args[0]], &r[args[(k > 1) as usize]], &r[args[if k > 2 { 2 } else { 0 }]]];
                super_math::math(f, ty, &v, o, n)
            });
        }
        Ins::Uf1 { dst, op, dt, a } => with_dst(regs, dst, |r, o| super_math::ufunc1(op, dt, &r[a], o, n))?,
        Ins::Uf2 { dst, op, dt, a, b } => {
            with_dst(regs, dst, |r, o| super_math::ufunc2(op, dt, &r[a], &r[b], o, n))?;
        }
        Ins::Round { dst, dt, a } => with_dst(regs, dst, |r, o| {
            with_lane!(dt, T => {
                let (a, o) = (<<T as Lane>::R as Reg>::get(&r[a]), <<T as Lane>::R as Reg>::get_mut(o));
                for (o, &x) in o[..n].iter_mut().zip(&a[..n]) { *o = T::down(x).up(); }
            }, unreachable!("complex"));
        }),
    }
    Ok(())
}

/// The indices in register `idx` of an array of `len` elements, checked where `mask` is set
/// (elsewhere 0: an element a mask leaves out reads element 0 and writes nothing).
fn checked_index(regs: &[Col], idx: R, mask: Option<R>, len: usize, n: usize) -> Result<Vec<usize>> {
    let m = mask.map(|m| &bool::get(&regs[m])[..n]);
    let mut ix = Vec::with_capacity(n);
    for (k, &j) in i64::get(&regs[idx])[..n].iter().enumerate() {
        let active = m.is_none_or(|m| m[k]);
        if active && (j < 0 || j as usize >= len) {
            return Err(Error::IndexOutOfBounds { index: j as isize, axis: 0, size: len });
        }
        ix.push(if active { j as usize } else { 0 });
    }
    Ok(ix)
}

use super::io::{fence, gather, load, store, Ptr};

/// Output bytes from which the evaluator stores around the caches.
const STREAM_BYTES: usize = 64 << 20;
use super::math as super_math;

/// C's conversion of register `a` (type `from`) into `o` (type `to`).
fn convert(a: &Col, from: DType, o: &mut Col, to: DType, n: usize) {
    if to == DType::Bool {
        let o = &mut bool::get_mut(o)[..n];
        with_class!(from, A => {
            let z = A::default();
            for (o, &x) in o.iter_mut().zip(&A::get(a)[..n]) { *o = x != z; }
        });
        return;
    }
    if from == DType::Bool {
        with_num!(to, B => {
            let one: B = 1u8.as_();
            let z = B::default();
            for (o, &x) in B::get_mut(o)[..n].iter_mut().zip(&bool::get(a)[..n]) { *o = if x { one } else { z }; }
        });
        return;
    }
    macro_rules! from_to {
        ($A:ty) => {
            with_num!(to, B => pulp::Arch::new().dispatch(col::ConvertLoop::<$A, B> { a: &<$A>::get(a)[..n], o: &mut B::get_mut(o)[..n] }))
        };
    }
    match class(from) {
        DType::I32 => from_to!(i32),
        DType::U32 => from_to!(u32),
        DType::I64 => from_to!(i64),
        DType::U64 => from_to!(u64),
        DType::F32 => from_to!(f32),
        _ => from_to!(f64),
    }
    if class(to) == DType::I32 && to != DType::I32 {
        col::narrow(to, &mut i32::get_mut(o)[..n]);
    }
}

/// Run `c` over `shape`: every array operand already broadcast to it. Returns the outputs.
pub(crate) fn elementwise(
    c: &Compiled,
    srcs: &[Operand],
    scalars: &[Option<Scalar>],
    shape: &[usize],
) -> Result<Vec<HostBuffer>> {
    let n = numel(shape);
    // Uninitialised outputs from the host pool: every element is written before the length is set.
    let mut outs: Vec<HostBuffer> = c
        .outs
        .iter()
        .map(|&(_, d)| with_lane!(d, T => T::into_buffer(crate::pool::alloc::<T>(n)), HostBuffer::full(0, Scalar::Int(0), d)))
        .collect();
    let ptrs: Vec<Ptr> =
        outs.iter_mut().map(|b| Ptr(xp_core::with_buffer!(b, v => v.as_mut_ptr().cast::<u8>()))).collect();
    let err = Mutex::new(None);
    // (Blocks of 128 or 256 elements, whose registers would stay in the first-level cache,
    // ran the Monte Carlo kernel 10-20% slower than 512: the instructions' dispatch cost more.)
    let chunk = if c.looped {
        // an element may be long: tasks of whole blocks from the first elements on
        (n / (rayon::current_num_threads() * 4)).max(BLK)
    } else if n < crate::iter::PAR_THRESHOLD {
        n.max(1)
    } else {
        (n / (rayon::current_num_threads() * 4)).max(BLK * 8)
    };
    // Outputs larger than the last-level caches are written around them.
    let stream = c.outs.iter().map(|o| o.1.size()).sum::<usize>() * n >= STREAM_BYTES;
    let task = |s: usize| {
        let e = (s + chunk).min(n);
        let mut regs = c.regs_for(e - s, scalars);
        let mut p = s;
        while p < e {
            let m = (e - p).min(BLK);
            if let Err(x) = c.run(&mut regs, srcs, p, m) {
                *err.lock().unwrap_or_else(|e| e.into_inner()) = Some(x);
                return;
            }
            for (k, &(r, d)) in c.outs.iter().enumerate() {
                with_lane!(d, T => store::<T>(&regs[r], ptrs[k].0 as *mut T, p, m, stream), unreachable!("complex"));
            }
            p += m;
        }
        if stream {
            fence();
        }
    };
    let starts: Vec<usize> = (0..n).step_by(chunk).collect();
    if starts.len() > 1 {
        starts.into_par_iter().for_each(task);
    } else if n > 0 {
        task(0);
    }
    match err.into_inner().unwrap_or_else(|e| e.into_inner()) {
        Some(e) => Err(e),
        None => {
            for b in &mut outs {
                // SAFETY: the tasks wrote all n elements of each output (no error was reported).
                xp_core::with_buffer!(b, v => unsafe { v.set_len(n) });
            }
            Ok(outs)
        }
    }
}
