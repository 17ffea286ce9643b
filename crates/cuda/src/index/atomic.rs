//! Device updates for `ufunc.at` (`dst = op(dst, v)` once per occurrence) where the order of the
//! occurrences does not change NumPy's result, so that duplicates may meet in atomics:
//! - hardware atomics: integer add and subtract (wrapping; subtract adds the negation), min/max
//!   of 32- and 64-bit integers, bitwise and/or/xor (also on the aligned 32-bit word that holds a
//!   1- or 2-byte element: the other bytes are and-ed with ones, or-ed with zeros), logical ops on
//!   bool (its bytes are 0 or 1), float and complex add/subtract (`atomicAdd` per part; floats
//!   then agree with NumPy within a summation's rounding);
//! - a compare-and-swap loop over the element (4 and 8 bytes, complex64 included) or over the
//!   aligned 32-bit word holding a 1- or 2-byte element, computing `b_<op>` of the prelude
//!   exactly: multiply, float min/max with NumPy's NaN propagation, fmin/fmax, 1- and 2-byte
//!   integer arithmetic, float16 and bfloat16, logical ops of other types.
//!
//! Every other op (divide, power, arctan2, remainder, shifts, comparisons, hypot, ...; and
//! complex128 beyond add/subtract, which has no 16-byte atomic) depends on the order: such
//! scatters sort their targets and apply each target's values in index order (`scatter.rs`).
use super::store_expr;
use crate::codegen::{compute_ty, storage_ty};
use xp_core::{BinaryOp, DType};

/// How a scatter with `ufunc.at` semantics applies `op` to elements of `d`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Strategy {
    /// one hardware atomic per occurrence
    Native,
    /// a compare-and-swap loop per occurrence
    Cas,
    /// sorted by target, each target's occurrences in index order
    Ordered,
}

/// Ops whose repeated application to one element does not depend on the order (exactly for
/// integers and bool, up to rounding for floats).
fn order_free(op: BinaryOp) -> bool {
    use BinaryOp::*;
    matches!(
        op,
        Add | Sub | Mul | Max | Min | Fmax | Fmin | BitAnd | BitOr | BitXor | LogicalAnd | LogicalOr | LogicalXor
    )
}

/// The strategy for `op` on `d`.
pub(crate) fn strategy(op: BinaryOp, d: DType) -> Strategy {
    use BinaryOp::*;
    if !order_free(op) {
        return Strategy::Ordered;
    }
    let int = matches!(d, DType::I32 | DType::U32 | DType::I64 | DType::U64);
    let small = d.size() < 4;
    match op {
        Add | Sub if int || matches!(d, DType::F32 | DType::F64 | DType::C64 | DType::C128) => Strategy::Native,
        Max | Min | Fmax | Fmin if int => Strategy::Native,
        BitAnd | BitOr | BitXor if int || (small && !d.is_float()) => Strategy::Native,
        LogicalAnd | LogicalOr | LogicalXor if d == DType::Bool => Strategy::Native,
        Max | Min | Fmax | Fmin | Add | Mul if d == DType::Bool => Strategy::Native,
        _ if d == DType::C128 => Strategy::Ordered,
        _ => Strategy::Cas,
    }
}

/// The unsigned type of `bytes` bytes.
fn uty(bytes: usize) -> &'static str {
    match bytes {
        1 => "u8",
        2 => "u16",
        4 => "unsigned",
        _ => "u64",
    }
}

/// The containing aligned 32-bit word of `p`, the element's shift and mask within it (for 1- and
/// 2-byte elements).
fn word_of(size: usize) -> String {
    let m = if size == 1 { "0xffu" } else { "0xffffu" };
    format!(
        "unsigned* w = (unsigned*)((u64)p & ~3ull); const unsigned sh = ((unsigned)(u64)p & 3u) * 8u, m = {m} << sh;"
    )
}

/// The body of `upd(p, x)` for a hardware atomic.
fn native_body(op: BinaryOp, d: DType) -> String {
    use BinaryOp::*;
    let size = d.size();
    let u = uty(size);
    if size < 4 {
        // Bytes of an aligned word: bool ops act on the 0/1 byte, bitwise ops on the bits.
        let (and, or, xor) = ("atomicAnd(w, b | ~m);", "atomicOr(w, b);", "atomicXor(w, b);");
        let (v, stmt) = match op {
            BitAnd | LogicalAnd | Min | Fmin | Mul => ("x", and),
            BitOr | LogicalOr | Max | Fmax | Add => ("x", or),
            _ => ("x", xor),
        };
        let bits = if d == DType::Bool { format!("(unsigned)({v} != 0)") } else { format!("(unsigned)({u})({v})") };
        return format!("{} const unsigned b = ({bits} << sh) & m; {stmt}", word_of(size));
    }
    match (op, d) {
        (Add, DType::C64 | DType::C128) => "atomicAdd(&p->re, x.re); atomicAdd(&p->im, x.im);".into(),
        (Sub, DType::C64 | DType::C128) => "atomicAdd(&p->re, -x.re); atomicAdd(&p->im, -x.im);".into(),
        (Add, DType::F32 | DType::F64) => "atomicAdd(p, x);".into(),
        (Sub, DType::F32 | DType::F64) => "atomicAdd(p, -x);".into(),
        (Add, _) => format!("atomicAdd(({u}*)p, ({u})x);"),
        (Sub, _) => format!("atomicAdd(({u}*)p, ({u})0 - ({u})x);"),
        (Max | Fmax, _) => "atomicMax(p, x);".into(),
        (Min | Fmin, _) => "atomicMin(p, x);".into(),
        (BitAnd, _) => format!("atomicAnd(({u}*)p, ({u})x);"),
        (BitOr, _) => format!("atomicOr(({u}*)p, ({u})x);"),
        _ => format!("atomicXor(({u}*)p, ({u})x);"),
    }
}

/// The body of `upd(p, x)` as a compare-and-swap loop computing `b_<op>` exactly.
fn cas_body(op: BinaryOp, d: DType) -> String {
    let (st, ct, size) = (storage_ty(d), compute_ty(d), d.size());
    let new = |cur: &str| store_expr(d, &format!("cv<{ct}>(b_{}(ld(bitcast<{st}>({cur})), x))", op.name()));
    if size >= 4 {
        let u = uty(size);
        format!(
            "{u}* w = ({u}*)p; {u} old = *w, as;
  do {{ as = old; const {u} nw = bitcast<{u}>({}); if (nw == as) return; old = atomicCAS(w, as, nw); }} while (old != as);",
            new("as")
        )
    } else {
        let u = uty(size);
        format!(
            "{} unsigned old = *w, as;
  do {{ as = old; const {u} cur = ({u})((as & m) >> sh); const unsigned nw = (as & ~m) | ((unsigned)bitcast<{u}>({}) << sh);
    if (nw == as) return; old = atomicCAS(w, as, nw); }} while (old != as);",
            word_of(size),
            new("cur")
        )
    }
}

/// Device function `upd(p, x)`: one occurrence of `op` applied to `*p` with the value `x` (in
/// `d`'s compute type), safe against concurrent updates of the same element. `None` for ops that
/// need the ordered path.
pub(crate) fn update_fn(op: BinaryOp, d: DType) -> Option<String> {
    let body = match strategy(op, d) {
        Strategy::Native => native_body(op, d),
        Strategy::Cas => cas_body(op, d),
        Strategy::Ordered => return None,
    };
    Some(format!("__device__ __forceinline__ void upd({}* p, {} x) {{\n  {body}\n}}\n", storage_ty(d), compute_ty(d)))
}
