//! The constructs of `#[xp::raw_kernel]` lowered: builtins (`thread_idx().x` …), barriers,
//! warp shuffles, stores into a `RawMut<T>` and atomics. They print as CUDA and exist on the GPU
//! only: an elementwise kernel or a reduction never holds them (the macro refuses them there, and
//! so does the lowering).
use super::ast::{Expr, E};
use super::lower::{Lo, LowerError, Sym};
use crate::kernel::ir::{AtomicOp, Builtin, Node, Shfl, TExpr, TStmt};
use crate::DType;

type Res<T> = Result<T, LowerError>;

/// The builtin of a name the macro wrote.
pub(super) fn builtin(name: &str, e: &Expr) -> Res<Builtin> {
    Ok(match name {
        "thread_idx" => Builtin::ThreadIdx,
        "block_idx" => Builtin::BlockIdx,
        "block_dim" => Builtin::BlockDim,
        "grid_dim" => Builtin::GridDim,
        "lane_id" => Builtin::LaneId,
        "warp_size" => Builtin::WarpSize,
        n => return Err(LowerError::at(e, format!("unknown builtin `{n}`"))),
    })
}

impl Lo<'_, '_> {
    /// An error unless this is a raw kernel.
    pub(super) fn gpu_only(&self, what: &str) -> Res<()> {
        if self.raw {
            Ok(())
        } else {
            Err(LowerError::new(0, 0, format!("`{what}` is available only in #[xp::raw_kernel]")))
        }
    }
    /// `sync_threads()` and the shuffles.
    pub(super) fn gpu_call(&mut self, e: &Expr, name: &str, args: &[Expr], out: &mut Vec<TStmt>) -> Res<Option<TExpr>> {
        if name == "sync_threads" {
            out.push(TStmt::Sync);
            return Ok(None);
        }
        let kind = match name {
            "shfl_down" => Shfl::Down,
            "shfl_up" => Shfl::Up,
            "shfl_xor" => Shfl::Xor,
            "shfl" => Shfl::Idx,
            n => return Err(LowerError::at(e, format!("unknown warp function `{n}`"))),
        };
        let [v, a] = args else { return Err(LowerError::at(e, format!("`{name}` takes a value and a lane"))) };
        let v = self.value(v, out)?;
        let a = self.value(a, out)?.to(DType::U32);
        if matches!(v.ty, DType::Bool) {
            return Err(LowerError::at(e, "a warp shuffle of a bool".into()));
        }
        Ok(Some(TExpr { ty: v.ty, node: Node::Shuffle(kind, Box::new(v), Box::new(a)) }))
    }
    /// `out.set(j, v)` and `out.atomic_*(j, ..)`.
    pub(super) fn raw_write(
        &mut self,
        e: &Expr,
        r: &Expr,
        name: &str,
        args: &[Expr],
        out: &mut Vec<TStmt>,
    ) -> Res<Option<TExpr>> {
        let E::Var(n) = &r.kind else { return Err(LowerError::at(e, format!("`{name}` of a RawMut parameter"))) };
        let Sym::Raw(k, d) = self.lookup(n, r)? else {
            return Err(LowerError::at(e, format!("`{n}` is not a RawMut parameter")));
        };
        let mut a = Vec::new();
        for (j, x) in args.iter().enumerate() {
            let v = self.value(x, out)?;
            a.push(if j == 0 { v.to(DType::I64) } else { v.to(d) });
        }
        if name == "set" {
            let [i, v] =
                <[TExpr; 2]>::try_from(a).map_err(|_| LowerError::at(e, "`set` takes an index and a value".into()))?;
            out.push(TStmt::Store(k, i, v));
            return Ok(None);
        }
        let op = match name {
            "atomic_add" => AtomicOp::Add,
            "atomic_sub" => AtomicOp::Sub,
            "atomic_max" => AtomicOp::Max,
            "atomic_min" => AtomicOp::Min,
            "atomic_exch" => AtomicOp::Exch,
            "atomic_cas" => AtomicOp::Cas,
            n => return Err(LowerError::at(e, format!("unknown atomic `{n}`"))),
        };
        let ints = matches!(d, DType::I32 | DType::U32 | DType::I64 | DType::U64);
        let ok = match op {
            AtomicOp::Add | AtomicOp::Sub | AtomicOp::Exch => ints || matches!(d, DType::F32 | DType::F64),
            AtomicOp::Max | AtomicOp::Min | AtomicOp::Cas => ints,
        };
        if !ok {
            return Err(LowerError::at(
                e,
                format!(
                    "`{name}` on a {d} array: the GPU has it for 32- and 64-bit integers{}",
                    if matches!(op, AtomicOp::Add | AtomicOp::Sub | AtomicOp::Exch) { " and floats" } else { "" }
                ),
            ));
        }
        let want = if op == AtomicOp::Cas { 3 } else { 2 };
        if a.len() != want {
            return Err(LowerError::at(e, format!("`{name}` takes {want} arguments")));
        }
        Ok(Some(TExpr { ty: d, node: Node::Atomic(op, k, a) }))
    }
}
