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
}

struct Builder<'p> {
    p: &'p Program,
    c: Compiled,
    /// how many assignments each variable has in the whole body
    writes: Vec<usize>,
    /// how many of them are compiled so far
    done: Vec<usize>,
}

/// Count the assignments of each variable in `body` into `w`.
fn count_writes(body: &[TStmt], w: &mut [usize]) {
    for s in body {
        match s {
            TStmt::Set(v, _) => w[*v] += 1,
            TStmt::If(_, t, e) => {
                count_writes(t, w);
                count_writes(e, w);
            }
        }
    }
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
    fn mask_and(&mut self, m: Option<R>, c: R) -> R {
        match m {
            None => c,
            Some(m) => {
                let r = self.reg(DType::Bool);
                self.c.ins.push(Ins::Bin { dst: r, op: BinOp::LAnd, a: m, b: c, ty: DType::Bool });
                r
            }
        }
    }
    fn not(&mut self, c: R) -> R {
        let r = self.reg(DType::Bool);
        self.c.ins.push(Ins::Un { dst: r, op: UnOp::Not, a: c, ty: DType::Bool });
        r
    }
    fn expr(&mut self, e: &TExpr, m: Option<R>) -> R {
        let ty = e.ty;
        let ins = match &e.node {
            Node::Const(v) => return self.konst(ty, *v),
            Node::Var(k) => return self.c.var_reg[*k],
            Node::Index => {
                let dst = self.reg(DType::I64);
                Ins::Index { dst }
            }
            Node::Raw(op, i) => {
                let idx = self.expr(i, m);
                let dst = self.reg(ty);
                Ins::Raw { dst, op: *op, idx, mask: m }
            }
            Node::Un(op, a) => {
                let a = self.expr(a, m);
                let dst = self.reg(ty);
                Ins::Un { dst, op: *op, a, ty }
            }
            Node::Bin(op, a, b) => {
                let t = a.ty;
                let (a, b) = (self.expr(a, m), self.expr(b, m));
                let dst = self.reg(ty);
                Ins::Bin { dst, op: *op, a, b, ty: t }
            }
            Node::Select(c, a, b) => {
                let cr = self.expr(c, m);
                let (ma, mb) = if has_raw(a) || has_raw(b) {
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
    fn stmts(&mut self, body: &[TStmt], m: Option<R>) {
        for s in body {
            match s {
                TStmt::Set(v, e) => {
                    let before = self.c.regs.len();
                    let r = self.expr(e, m);
                    let (dst, ty) = (self.c.var_reg[*v], self.p.vars[*v].ty);
                    let is_const = self.c.consts.iter().any(|c| c.0 == r);
                    let fresh = r >= before && !is_const;
                    let renamable = matches!(self.p.vars[*v].role, Role::Local | Role::Out(_));
                    // A register no later instruction writes: a constant, or the register of a
                    // variable with no assignment left (inputs, scalars, single assignments
                    // already made).
                    let mut holders = (0..self.p.vars.len()).filter(|&u| self.c.var_reg[u] == r).peekable();
                    let held = holders.peek().is_some();
                    let frozen =
                        is_const || (held && holders.all(|u| self.writes[u] <= 1 && self.done[u] == self.writes[u]));
                    // Assigned once from a frozen register: the variable can share it (no copy).
                    // Not an output sharing a constant or scalar register: those are filled once
                    // per call, and a reduction folds its map's output register in place.
                    let fixed = is_const || self.c.scalar_regs.iter().any(|c| c.0 == r);
                    let out = matches!(self.p.vars[*v].role, Role::Out(_));
                    let share = frozen && self.writes[*v] == 1 && !(out && fixed);
                    match m {
                        // Unconditional: the variable now lives in the result's register.
                        None if (fresh || share) && renamable && self.c.regs[r] == class(ty) => self.c.var_reg[*v] = r,
                        None => self.c.ins.push(Ins::Copy { dst, a: r, ty }),
                        Some(m) => self.c.ins.push(Ins::Merge { dst, m, a: r, ty }),
                    }
                    self.done[*v] += 1;
                }
                TStmt::If(c, t, e) => {
                    let cr = self.expr(c, m);
                    let mt = self.mask_and(m, cr);
                    self.stmts(t, Some(mt));
                    if !e.is_empty() {
                        let n = self.not(cr);
                        let me = self.mask_and(m, n);
                        self.stmts(e, Some(me));
                    }
                }
            }
        }
    }
}

fn has_raw(e: &TExpr) -> bool {
    match &e.node {
        Node::Raw(..) => true,
        Node::Const(_) | Node::Var(_) | Node::Index => false,
        Node::Un(_, a) | Node::Convert(a) | Node::Ufunc1(_, _, a) | Node::Round(_, a) => has_raw(a),
        Node::Bin(_, a, b) | Node::Ufunc2(_, _, a, b) => has_raw(a) || has_raw(b),
        Node::Select(c, a, b) => has_raw(c) || has_raw(a) || has_raw(b),
        Node::Math(_, args) => args.iter().any(has_raw),
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
        };
        let mut writes = vec![0; p.vars.len()];
        count_writes(&p.body, &mut writes);
        let done = vec![0; p.vars.len()];
        let mut b = Builder { p, c, writes, done };
        for v in &p.vars {
            let r = match v.role {
                Role::Scalar(k) => {
                    let r = b.reg(v.ty);
                    b.c.scalar_regs.push((r, k));
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
        b.stmts(&p.body, None);
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
        for ins in &self.ins {
            step(ins, regs, srcs, start, n)?;
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
                with_num!(ty, T => col::unary::<T>(op, &T::get(&r[a])[..n], &mut T::get_mut(o)[..n]));
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
        Ins::Merge { dst, m, a, ty } => with_dst(regs, dst, |r, o| {
            with_class!(ty, T => {
                let o = &mut T::get_mut(o)[..n];
                for ((o, &m), &x) in o.iter_mut().zip(&bool::get(&r[m])[..n]).zip(&T::get(&r[a])[..n]) {
                    if m { *o = x; }
                }
            });
        }),
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
            with_num!(to, B => col::convert::<$A, B>(&<$A>::get(a)[..n], &mut B::get_mut(o)[..n]))
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
    let chunk =
        if n < crate::iter::PAR_THRESHOLD { n.max(1) } else { (n / (rayon::current_num_threads() * 4)).max(BLK * 8) };
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
