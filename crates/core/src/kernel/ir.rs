//! The typed program both backends run: every expression carries its C type (a [`DType`]), the
//! C conversions are explicit [`Node::Convert`]s, and variables are slots (a local array is one
//! slot of [`Role::Array`]). Calls of a preamble's functions are inlined by the checker: the
//! parameters become locals (or name the caller's array or variable, for pointer and reference
//! parameters), the body a [`TStmt::Inline`] that `return` leaves. The CPU evaluates the program
//! on blocks of elements; the CUDA backend prints it as C (for fused kernels; a user's body goes
//! to NVRTC as written).
use crate::{BinaryOp, DType, Scalar, UnaryOp};

/// A typed expression.
#[derive(Clone, Debug, PartialEq)]
pub struct TExpr {
    /// Its C type, one of the compute types (float16 and bfloat16 values compute as float32).
    pub ty: DType,
    /// What it computes.
    pub node: Node,
}

/// C's unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// `-x`
    Neg,
    /// `!x` (on a bool)
    Not,
    /// `~x`
    BitNot,
}

/// C's binary operators. Both operands have the node's operand type (C's usual arithmetic
/// conversions applied), except shifts (left operand's type) and `&&`/`||` (bools).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    /// truncating for integers (division by zero gives 0 on the CPU; undefined in CUDA)
    Div,
    Rem,
    Shl,
    Shr,
    And,
    Or,
    Xor,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    LAnd,
    LOr,
}

impl BinOp {
    /// The C spelling.
    pub fn c(self) -> &'static str {
        use BinOp::*;
        match self {
            Add => "+",
            Sub => "-",
            Mul => "*",
            Div => "/",
            Rem => "%",
            Shl => "<<",
            Shr => ">>",
            And => "&",
            Or => "|",
            Xor => "^",
            Lt => "<",
            Le => "<=",
            Gt => ">",
            Ge => ">=",
            Eq => "==",
            Ne => "!=",
            LAnd => "&&",
            LOr => "||",
        }
    }
    /// True for the ops whose result is bool.
    pub fn is_predicate(self) -> bool {
        use BinOp::*;
        matches!(self, Lt | Le | Gt | Ge | Eq | Ne | LAnd | LOr)
    }
}

/// The math functions of the subset (CUDA's names; the `f`-suffixed float forms map here too).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum MathFn {
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Tanh,
    Asinh,
    Acosh,
    Atanh,
    Exp,
    Exp2,
    Expm1,
    Log,
    Log2,
    Log10,
    Log1p,
    Sqrt,
    Rsqrt,
    Cbrt,
    Floor,
    Ceil,
    Trunc,
    Round,
    Rint,
    Fabs,
    Erf,
    Erfc,
    /// CUDA's `erfinv`
    Erfinv,
    /// CUDA's `erfcinv`
    Erfcinv,
    Erfcx,
    /// the standard normal CDF (CUDA's `normcdf`)
    Normcdf,
    /// its inverse (CUDA's `normcdfinv`)
    Normcdfinv,
    /// `log|Γ(x)|`
    Lgamma,
    /// `Γ(x)`
    Tgamma,
    J0,
    J1,
    Y0,
    Y1,
    /// CUDA's `cyl_bessel_i0`
    I0,
    /// CUDA's `cyl_bessel_i1`
    I1,
    Pow,
    Atan2,
    Hypot,
    Fmin,
    Fmax,
    Fmod,
    Copysign,
    Fma,
    IsNan,
    IsInf,
    IsFinite,
    Signbit,
    /// integer or float absolute value
    Abs,
    /// integer or float minimum (C's `a < b ? a : b` for floats: `min(NaN, 1)` is 1 in CUDA)
    Min,
    Max,
}

impl MathFn {
    /// The function and how many arguments it takes, by its CUDA name (without an `f` suffix).
    pub fn by_name(name: &str) -> Option<(MathFn, usize)> {
        use MathFn::*;
        Some(match name {
            "sin" => (Sin, 1),
            "cos" => (Cos, 1),
            "tan" => (Tan, 1),
            "asin" => (Asin, 1),
            "acos" => (Acos, 1),
            "atan" => (Atan, 1),
            "sinh" => (Sinh, 1),
            "cosh" => (Cosh, 1),
            "tanh" => (Tanh, 1),
            "asinh" => (Asinh, 1),
            "acosh" => (Acosh, 1),
            "atanh" => (Atanh, 1),
            "exp" => (Exp, 1),
            "exp2" => (Exp2, 1),
            "expm1" => (Expm1, 1),
            "log" => (Log, 1),
            "log2" => (Log2, 1),
            "log10" => (Log10, 1),
            "log1p" => (Log1p, 1),
            "sqrt" => (Sqrt, 1),
            "rsqrt" => (Rsqrt, 1),
            "cbrt" => (Cbrt, 1),
            "floor" => (Floor, 1),
            "ceil" => (Ceil, 1),
            "trunc" => (Trunc, 1),
            "round" => (Round, 1),
            "rint" => (Rint, 1),
            "fabs" => (Fabs, 1),
            "erf" => (Erf, 1),
            "erfc" => (Erfc, 1),
            "erfinv" => (Erfinv, 1),
            "erfcinv" => (Erfcinv, 1),
            "erfcx" => (Erfcx, 1),
            "normcdf" => (Normcdf, 1),
            "normcdfinv" => (Normcdfinv, 1),
            "lgamma" => (Lgamma, 1),
            "tgamma" => (Tgamma, 1),
            "j0" => (J0, 1),
            "j1" => (J1, 1),
            "y0" => (Y0, 1),
            "y1" => (Y1, 1),
            "cyl_bessel_i0" => (I0, 1),
            "cyl_bessel_i1" => (I1, 1),
            "pow" => (Pow, 2),
            "atan2" => (Atan2, 2),
            "hypot" => (Hypot, 2),
            "fmin" => (Fmin, 2),
            "fmax" => (Fmax, 2),
            "fmod" => (Fmod, 2),
            "copysign" => (Copysign, 2),
            "fma" => (Fma, 3),
            "isnan" => (IsNan, 1),
            "isinf" => (IsInf, 1),
            "isfinite" => (IsFinite, 1),
            "signbit" => (Signbit, 1),
            "abs" => (Abs, 1),
            "min" => (Min, 2),
            "max" => (Max, 2),
            _ => return None,
        })
    }
    /// CUDA's name of the function.
    pub fn c(self) -> &'static str {
        use MathFn::*;
        match self {
            Sin => "sin",
            Cos => "cos",
            Tan => "tan",
            Asin => "asin",
            Acos => "acos",
            Atan => "atan",
            Sinh => "sinh",
            Cosh => "cosh",
            Tanh => "tanh",
            Asinh => "asinh",
            Acosh => "acosh",
            Atanh => "atanh",
            Exp => "exp",
            Exp2 => "exp2",
            Expm1 => "expm1",
            Log => "log",
            Log2 => "log2",
            Log10 => "log10",
            Log1p => "log1p",
            Sqrt => "sqrt",
            Rsqrt => "rsqrt",
            Cbrt => "cbrt",
            Floor => "floor",
            Ceil => "ceil",
            Trunc => "trunc",
            Round => "round",
            Rint => "rint",
            Fabs => "fabs",
            Erf => "erf",
            Erfc => "erfc",
            Erfinv => "erfinv",
            Erfcinv => "erfcinv",
            Erfcx => "erfcx",
            Normcdf => "normcdf",
            Normcdfinv => "normcdfinv",
            Lgamma => "lgamma",
            Tgamma => "tgamma",
            J0 => "j0",
            J1 => "j1",
            Y0 => "y0",
            Y1 => "y1",
            I0 => "cyl_bessel_i0",
            I1 => "cyl_bessel_i1",
            Pow => "pow",
            Atan2 => "atan2",
            Hypot => "hypot",
            Fmin => "fmin",
            Fmax => "fmax",
            Fmod => "fmod",
            Copysign => "copysign",
            Fma => "fma",
            IsNan => "isnan",
            IsInf => "isinf",
            IsFinite => "isfinite",
            Signbit => "signbit",
            Abs => "abs",
            Min => "min",
            Max => "max",
        }
    }
    /// True for the predicates (bool result).
    pub fn is_predicate(self) -> bool {
        matches!(self, MathFn::IsNan | MathFn::IsInf | MathFn::IsFinite | MathFn::Signbit)
    }
    /// True for the functions defined on integers as well (`abs`, `min`, `max`).
    pub fn takes_integers(self) -> bool {
        matches!(self, MathFn::Abs | MathFn::Min | MathFn::Max)
    }
}

/// A GPU builtin of a raw kernel (uint32): `threadIdx.x`, ...
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Builtin {
    ThreadIdx,
    BlockIdx,
    BlockDim,
    GridDim,
    LaneId,
    WarpSize,
}

/// A warp shuffle (`__shfl_*_sync` over the whole warp).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Shfl {
    Down,
    Up,
    Xor,
    Idx,
}

/// An atomic read-modify-write of a raw array's element; the old value is its result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum AtomicOp {
    Add,
    Sub,
    Max,
    Min,
    Exch,
    /// compare and swap: arguments index, compare, value
    Cas,
}

/// What an expression computes.
#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    /// a constant of the expression's type
    Const(Scalar),
    /// the value of variable slot `k`
    Var(usize),
    /// the element index `i` (int64)
    Index,
    /// element `index` (C order) of raw parameter `param` (an input's position)
    Raw(usize, Box<TExpr>),
    /// the number of elements of raw parameter `param` (int64)
    RawLen(usize),
    /// C's unary operator
    Un(UnOp, Box<TExpr>),
    /// C's binary operator
    Bin(BinOp, Box<TExpr>, Box<TExpr>),
    /// `c ? a : b`
    Select(Box<TExpr>, Box<TExpr>, Box<TExpr>),
    /// C's conversion to the expression's type (narrow integers wrap; floats truncate toward
    /// zero into integers)
    Convert(Box<TExpr>),
    /// a math function, arguments already converted to the types it takes
    Math(MathFn, Vec<TExpr>),
    /// NumPy's ufunc `op` on its loop dtype (`loop`), as xp's own kernels compute it (fusion)
    Ufunc1(UnaryOp, DType, Box<TExpr>),
    /// NumPy's ufunc `op` on its loop dtype (fusion)
    Ufunc2(BinaryOp, DType, Box<TExpr>, Box<TExpr>),
    /// the value rounded to `dtype` and back (a float16 intermediate of a fused chain)
    Round(DType, Box<TExpr>),
    /// element `index` (int64) of local array slot `k` (an index outside the array is an
    /// error on the CPU; undefined in CUDA)
    Elem(usize, Box<TExpr>),
    /// a GPU builtin's component (`axis` 0..3 of `threadIdx`, ...): raw kernels only
    Builtin(Builtin, u8),
    /// a warp shuffle of the value by the argument (uint32): raw kernels only
    Shuffle(Shfl, Box<TExpr>, Box<TExpr>),
    /// an atomic operation on element `args[0]` of raw parameter `param` (the further
    /// arguments: the value, or compare and value): raw kernels only
    Atomic(AtomicOp, usize, Vec<TExpr>),
    /// statements run before the value is computed: an inlined call in an expression
    /// (`[params, Inline(body)]`, then the variable holding the result)
    Stmts(Vec<TStmt>, Box<TExpr>),
}

/// A typed statement.
#[derive(Clone, Debug, PartialEq)]
pub enum TStmt {
    /// `var = value` (value already of the variable's type)
    Set(usize, TExpr),
    /// The declaration of local `var` with its initial value: no statement before it reads
    /// the variable in its scope, so where this runs under a mask the inactive elements'
    /// values are never read (the CPU writes it unmasked).
    Let(usize, TExpr),
    /// `array[index] = value` (index int64, value of the element type)
    SetElem(usize, TExpr, TExpr),
    /// `if (cond) then else els`
    If(TExpr, Vec<TStmt>, Vec<TStmt>),
    /// A loop: `while (cond) { body; step }`, or with `post` `do { body; step } while (cond)`;
    /// `continue` goes to `step`.
    Loop {
        /// tested before each iteration (after, with `post`)
        cond: TExpr,
        /// the body
        body: Vec<TStmt>,
        /// `for`'s step: run after the body and after a `continue`
        step: Vec<TStmt>,
        /// a `do`/`while` loop
        post: bool,
    },
    /// leave the innermost loop
    Break,
    /// go to the innermost loop's step
    Continue,
    /// the body of an inlined function: [`TStmt::Return`] leaves it
    Inline(Vec<TStmt>),
    /// leave the innermost [`TStmt::Inline`] (the result, if any, is set before)
    Return,
    /// `raw[index] = value` of a writable raw parameter (raw kernels only)
    Store(usize, TExpr, TExpr),
    /// a barrier of the block's threads (raw kernels only)
    Sync,
}

/// The part a variable plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// input array `k` (read-only)
    In(usize),
    /// output `k`
    Out(usize),
    /// scalar parameter at input position `k`
    Scalar(usize),
    /// a local
    Local,
    /// a local array of this many elements of the variable's type
    Array(usize),
    /// a block's shared array of this many elements (raw kernels only)
    Shared(usize),
}

/// A variable slot.
#[derive(Clone, Debug, PartialEq)]
pub struct VarInfo {
    /// its name in the source
    pub name: String,
    /// its C type
    pub ty: DType,
    /// what it is
    pub role: Role,
}

/// A checked body: its variables and statements.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    /// every variable, parameters first
    pub vars: Vec<VarInfo>,
    /// the statements
    pub body: Vec<TStmt>,
}

impl TExpr {
    /// A constant.
    pub fn constant(ty: DType, v: Scalar) -> TExpr {
        TExpr { ty, node: Node::Const(v) }
    }
    /// This expression converted to `ty` (itself when it already has that type).
    pub fn to(self, ty: DType) -> TExpr {
        if self.ty == ty {
            self
        } else {
            TExpr { ty, node: Node::Convert(Box::new(self)) }
        }
    }
}

/// The C type a value of storage dtype `d` computes in (float16 and bfloat16 as float32).
pub fn compute(d: DType) -> DType {
    match d {
        DType::F16 | DType::BF16 => DType::F32,
        d => d,
    }
}
