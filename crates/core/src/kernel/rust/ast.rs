//! The Rust subset of a `#[xp::kernel]` function as data: what the `xp-macros` expansion builds
//! (once, at the first call) from the function's tokens, untyped. [`super::lower`] gives it its
//! types for one binding of the generic parameters and writes the typed [`crate::kernel::Program`].
//!
//! Every name is the `&'static str` the macro wrote; every expression carries its position in the
//! user's file (for messages of the lowering, which are rare: rustc has checked the function).
use crate::DType;

/// A generic parameter's bound (`T: Float`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// float32, float64 (float16 and bfloat16 arrays compute as float32)
    Float,
    /// the eight integer dtypes
    Int,
    /// the integers and the floats
    Num,
}

impl Bound {
    /// Whether a compute dtype satisfies the bound.
    pub fn admits(self, d: DType) -> bool {
        let float = matches!(d, DType::F16 | DType::BF16 | DType::F32 | DType::F64);
        let int = d.is_integer() && d != DType::Bool;
        match self {
            Bound::Float => float,
            Bound::Int => int,
            Bound::Num => float || int,
        }
    }
    /// The trait's name.
    pub fn name(self) -> &'static str {
        match self {
            Bound::Float => "Float",
            Bound::Int => "Int",
            Bound::Num => "Num",
        }
    }
}

/// A type as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    /// a generic parameter of the function, by name
    Gen(&'static str),
    /// a primitive (`f32`, `u8`, `bool`, `usize` as uint64, `isize` as int64, `Index` as int64)
    D(DType),
}

/// What a parameter is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    /// a value: an array read elementwise (broadcast), or a scalar
    Value,
    /// `Raw<T>`: the whole array, read with `x.at(j)` and `x.len()`
    Raw,
    /// `Index`: the element's index in C order (not an argument of the call)
    Index,
    /// `RawMut<T>` (a `#[xp::raw_kernel]`'s parameter): the whole array, written by index with
    /// `out.set(j, v)` and the atomics `out.atomic_add(j, v)` ..; read with `out.at(j)` and
    /// `out.len()`
    RawMut,
}

/// A parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    /// its name
    pub name: &'static str,
    /// its type (the element type for a `Raw`)
    pub ty: Ty,
    /// what it is
    pub kind: ParamKind,
}

/// How a callee's function is reached (its module's `__xp_ast`).
pub type Callee = fn() -> &'static Func;

/// A function: a kernel, a device function, or one function of a reduction.
#[derive(Clone, Debug)]
pub struct Func {
    /// its name
    pub name: &'static str,
    /// generic parameters and their bounds
    pub generics: Vec<(&'static str, Bound)>,
    /// parameters
    pub params: Vec<Param>,
    /// the return types (several for a tuple)
    pub outs: Vec<Ty>,
    /// the body
    pub body: Block,
    /// the `#[xp::device]` functions it calls, by the name the call uses
    pub callees: Vec<(&'static str, Callee)>,
}

/// `{ stmts; tail }`
#[derive(Clone, Debug, Default)]
pub struct Block {
    /// statements
    pub stmts: Vec<Stmt>,
    /// the value, if the block ends with an expression
    pub tail: Option<Box<Expr>>,
}

/// A statement.
#[derive(Clone, Debug)]
pub enum Stmt {
    /// `let [mut] name[: ty] [= init];`
    Let {
        /// the name bound
        name: &'static str,
        /// its declared type
        ty: Option<Ty>,
        /// its initial value
        init: Option<Expr>,
    },
    /// `let [mut] name = [elem; len];`: a local array
    Array {
        /// the name bound
        name: &'static str,
        /// the declared element type, if any (`let a: [f32; 4] = ...`)
        ty: Option<Ty>,
        /// every element's initial value
        elem: Expr,
        /// the length
        len: usize,
    },
    /// `let [mut] name = shared::<ty, len>();`: an array in the block's shared memory (a
    /// `#[xp::raw_kernel]`'s), read `name[j]` and written `name[j] = v` by every thread of the block
    Shared {
        /// the name bound
        name: &'static str,
        /// the element type
        ty: Ty,
        /// the length (1 ..= 49152 / the element's size in bytes)
        len: usize,
    },
    /// an expression statement
    Expr(Expr),
}

/// Rust's binary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    BitAnd,
    BitOr,
    BitXor,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    And,
    Or,
}

impl BinOp {
    /// True for the comparisons.
    pub fn is_comparison(self) -> bool {
        matches!(self, BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne)
    }
}

/// Rust's unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    /// `-x`
    Neg,
    /// `!x` (logical on bool, bitwise on integers)
    Not,
}

/// A `match` pattern (integers and bools; no bindings).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pat {
    /// a literal (a bool as 0/1)
    Lit(i128),
    /// `lo..=hi` (`inclusive`) or `lo..hi`; either end may be open
    Range(Option<i128>, Option<i128>, bool),
    /// `_`
    Wild,
}

/// A `match` arm.
#[derive(Clone, Debug)]
pub struct Arm {
    /// its alternatives (`1 | 2`)
    pub pats: Vec<Pat>,
    /// `if guard`
    pub guard: Option<Expr>,
    /// the arm's value
    pub body: Expr,
}

/// An expression, with its position in the user's file.
#[derive(Clone, Debug)]
pub struct Expr {
    /// what it is
    pub kind: E,
    /// 1-based line
    pub line: u32,
    /// 0-based column
    pub col: u32,
}

/// What an expression is.
#[derive(Clone, Debug)]
pub enum E {
    /// an integer literal and its suffix
    Int(u128, Option<Ty>),
    /// a float literal's digits and its suffix
    Float(&'static str, Option<Ty>),
    /// `true`, `false`
    Bool(bool),
    /// a variable or parameter
    Var(&'static str),
    /// an associated constant: `T::ZERO`, `f32::MAX`, `f64::consts::PI`
    Const(Ty, &'static str),
    /// `T::lit(v)`: `v as T`
    Lit(Ty, Box<Expr>),
    /// a unary operator
    Un(UnOp, Box<Expr>),
    /// a binary operator
    Bin(BinOp, Box<Expr>, Box<Expr>),
    /// `place = value` or `place op= value` (place: a variable or an array element)
    Assign(Option<BinOp>, Box<Expr>, Box<Expr>),
    /// `e as ty`
    Cast(Box<Expr>, Ty),
    /// `if cond { .. } else ..` (the else: a block or another `if`)
    If(Box<Expr>, Block, Option<Box<Expr>>),
    /// a block
    Block(Block),
    /// `match e { arms }`
    Match(Box<Expr>, Vec<Arm>),
    /// `for var in lo..hi`, `lo..=hi`, `(..).rev()`, `(..).step_by(s)`
    For {
        /// the loop variable
        var: &'static str,
        /// the start
        lo: Box<Expr>,
        /// the end
        hi: Box<Expr>,
        /// `..=`
        inclusive: bool,
        /// `.rev()`
        rev: bool,
        /// `.step_by(s)`
        step: Option<Box<Expr>>,
        /// the body
        body: Block,
    },
    /// `while cond { body }`
    While(Box<Expr>, Block),
    /// `loop { body }`
    Loop(Block),
    /// `break`
    Break,
    /// `continue`
    Continue,
    /// `return [e]`
    Return(Option<Box<Expr>>),
    /// `recv.name(args)`; in a `#[xp::raw_kernel]` also a `RawMut` parameter's `set(j, v)`,
    /// `atomic_add`, `atomic_sub`, `atomic_max`, `atomic_min`, `atomic_exch` `(j, v)` and
    /// `atomic_cas(j, compare, v)` (the atomics return the old value)
    Method(Box<Expr>, &'static str, Vec<Expr>),
    /// `path(args)`: a function of `xp::kernel::math` (by its last segment) or a callee; in a
    /// `#[xp::raw_kernel]` also `sync_threads()` and the warp shuffles `shfl_down(v, delta)`,
    /// `shfl_up(v, delta)`, `shfl_xor(v, mask)`, `shfl(v, lane)` (by their last segment, no callee)
    Call(&'static str, Vec<Expr>),
    /// `(a, b, ..)`: a kernel's several results
    Tuple(Vec<Expr>),
    /// `a[j]`
    Index(Box<Expr>, Box<Expr>),
    /// a GPU builtin of a `#[xp::raw_kernel]` and its axis: `thread_idx().x` / `.y` / `.z` as
    /// `("thread_idx", 0 | 1 | 2)`, likewise `block_idx`, `block_dim`, `grid_dim` (all `u32`);
    /// `lane_id()` as `("lane_id", 0)`, `warp_size()` as `("warp_size", 0)` (`u32`). (A raw
    /// kernel's `sync_threads()` and shuffles `shfl_down(v, d)` .. are `Call`s, its `out.set(j, v)`
    /// and `out.atomic_add(j, v)` .. `Method`s.)
    Builtin(&'static str, u8),
}

impl Expr {
    /// An expression at a position.
    pub fn at(kind: E, line: u32, col: u32) -> Expr {
        Expr { kind, line, col }
    }
}

/// `Box::new`, for the expansion's constructor code.
pub fn bx(e: Expr) -> Box<Expr> {
    Box::new(e)
}
