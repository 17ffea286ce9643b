//! Op markers. An elementwise op is a value of [`UnaryOp`] or [`BinaryOp`]: it carries its NumPy
//! name, its loop table (the dtypes it has kernels for, in NumPy's resolution order), the rule for
//! its output dtype and its reduction identity. A new elementwise op adds a variant here, a scalar
//! function in the CPU backend (`xp_cpu::scalar`) and a device function `u_<name>`/`b_<name>` in
//! the CUDA prelude (`crates/cuda/src/runtime/prelude.cu`), not a trait method.
//!
//! ```
//! use xp_core::{BinaryOp, DType, UnaryOp};
//! // np.sin on int8 runs the float16 loop, on int32 the float64 loop
//! assert_eq!(UnaryOp::Sin.resolve(DType::I8).unwrap(), (DType::F16, DType::F16));
//! assert_eq!(UnaryOp::Sin.resolve(DType::I32).unwrap(), (DType::F64, DType::F64));
//! // true division of integers gives float64, comparison gives bool
//! assert_eq!(BinaryOp::Div.resolve(DType::I8, DType::I8).unwrap(), (DType::F64, DType::F64));
//! assert_eq!(BinaryOp::Lt.resolve(DType::F32, DType::I8).unwrap(), (DType::F32, DType::Bool));
//! ```
use crate::{can_cast_safe, promote_types, DType, Error, Result, Scalar};

/// A set of dtypes for which an op has a kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Loops(u16);

/// NumPy's loop order: the first loop an input casts to safely is the one chosen.
pub const LOOP_ORDER: [DType; 15] = [
    DType::Bool,
    DType::I8,
    DType::U8,
    DType::I16,
    DType::U16,
    DType::I32,
    DType::U32,
    DType::I64,
    DType::U64,
    DType::F16,
    DType::BF16,
    DType::F32,
    DType::F64,
    DType::C64,
    DType::C128,
];

const fn bit(d: DType) -> u16 {
    1 << (d as u16)
}

impl Loops {
    /// bool only
    pub const BOOL: Loops = Loops(bit(DType::Bool));
    /// the eight integer dtypes
    pub const INTS: Loops = Loops(
        bit(DType::I8)
            | bit(DType::I16)
            | bit(DType::I32)
            | bit(DType::I64)
            | bit(DType::U8)
            | bit(DType::U16)
            | bit(DType::U32)
            | bit(DType::U64),
    );
    /// the four real floating dtypes
    pub const FLOATS: Loops = Loops(bit(DType::F16) | bit(DType::BF16) | bit(DType::F32) | bit(DType::F64));
    /// the two complex dtypes
    pub const COMPLEX: Loops = Loops(bit(DType::C64) | bit(DType::C128));
    /// union of two sets
    pub const fn or(self, o: Loops) -> Loops {
        Loops(self.0 | o.0)
    }
    /// True when `d` has a loop.
    pub const fn contains(self, d: DType) -> bool {
        self.0 & bit(d) != 0
    }
    /// The loop chosen for an input of (promoted) dtype `d`: the first in [`LOOP_ORDER`] that `d`
    /// casts to safely.
    pub fn select(self, d: DType) -> Option<DType> {
        LOOP_ORDER.into_iter().find(|&l| self.contains(l) && can_cast_safe(d, l))
    }
}

const NUM: Loops = Loops::INTS.or(Loops::FLOATS).or(Loops::COMPLEX);
const ALL: Loops = NUM.or(Loops::BOOL);
const REAL: Loops = Loops::INTS.or(Loops::FLOATS);
const INEXACT: Loops = Loops::FLOATS.or(Loops::COMPLEX);
const BITS: Loops = Loops::INTS.or(Loops::BOOL);
/// SciPy's special functions: float32 and float64 loops (real arguments only)
const SPECIAL: Loops = Loops(bit(DType::F32) | bit(DType::F64));

/// How an op's output dtype follows from its loop dtype.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutRule {
    /// the loop dtype
    Same,
    /// bool (predicates, comparisons)
    Bool,
    /// the real dtype of a complex loop (abs, real, imag, angle)
    Real,
}

macro_rules! ops {
    ($(#[$m:meta])* $name:ident { $($v:ident = $np:literal, $loops:expr, $rule:ident;)* }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[allow(missing_docs)]
        pub enum $name { $($v),* }
        impl $name {
            /// Every op of this family.
            pub const ALL: &'static [$name] = &[$($name::$v),*];
            /// NumPy's name of the op.
            pub const fn name(self) -> &'static str { match self { $($name::$v => $np),* } }
            /// The dtypes the op has loops for.
            pub const fn loops(self) -> Loops { match self { $($name::$v => $loops),* } }
            /// How the output dtype follows from the loop dtype.
            pub const fn out_rule(self) -> OutRule { match self { $($name::$v => OutRule::$rule),* } }
        }
    };
}

ops! {
    /// Elementwise ops of one operand.
    UnaryOp {
        Neg = "negative", NUM, Same;
        Pos = "positive", NUM, Same;
        Abs = "absolute", ALL, Real;
        Sign = "sign", NUM, Same;
        Reciprocal = "reciprocal", NUM, Same;
        Exp = "exp", INEXACT, Same;
        Exp2 = "exp2", INEXACT, Same;
        Expm1 = "expm1", INEXACT, Same;
        Log = "log", INEXACT, Same;
        Log2 = "log2", INEXACT, Same;
        Log10 = "log10", INEXACT, Same;
        Log1p = "log1p", INEXACT, Same;
        Sqrt = "sqrt", INEXACT, Same;
        Cbrt = "cbrt", Loops::FLOATS, Same;
        Square = "square", NUM, Same;
        Sin = "sin", INEXACT, Same;
        Cos = "cos", INEXACT, Same;
        Tan = "tan", INEXACT, Same;
        Arcsin = "arcsin", INEXACT, Same;
        Arccos = "arccos", INEXACT, Same;
        Arctan = "arctan", INEXACT, Same;
        Sinh = "sinh", INEXACT, Same;
        Cosh = "cosh", INEXACT, Same;
        Tanh = "tanh", INEXACT, Same;
        Arcsinh = "arcsinh", INEXACT, Same;
        Arccosh = "arccosh", INEXACT, Same;
        Arctanh = "arctanh", INEXACT, Same;
        Floor = "floor", REAL.or(Loops::BOOL), Same;
        Ceil = "ceil", REAL.or(Loops::BOOL), Same;
        Trunc = "trunc", REAL.or(Loops::BOOL), Same;
        Rint = "rint", INEXACT, Same;
        IsNan = "isnan", ALL, Bool;
        IsInf = "isinf", ALL, Bool;
        IsFinite = "isfinite", ALL, Bool;
        LogicalNot = "logical_not", ALL, Bool;
        Invert = "invert", BITS, Same;
        Conj = "conjugate", NUM, Same;
        Real = "real", ALL, Real;
        Imag = "imag", ALL, Real;
        Angle = "angle", INEXACT, Real;
        Erf = "erf", SPECIAL, Same;
        Erfc = "erfc", SPECIAL, Same;
        Erfcx = "erfcx", SPECIAL, Same;
        Erfinv = "erfinv", SPECIAL, Same;
        Erfcinv = "erfcinv", SPECIAL, Same;
        Ndtr = "ndtr", SPECIAL, Same;
        Ndtri = "ndtri", SPECIAL, Same;
        LogNdtr = "log_ndtr", SPECIAL, Same;
        Gamma = "gamma", SPECIAL, Same;
        Gammaln = "gammaln", SPECIAL, Same;
        Digamma = "digamma", SPECIAL, Same;
        Expit = "expit", SPECIAL, Same;
        Logit = "logit", SPECIAL, Same;
        LogExpit = "log_expit", SPECIAL, Same;
        I0 = "i0", SPECIAL, Same;
        I0e = "i0e", SPECIAL, Same;
        I1 = "i1", SPECIAL, Same;
        I1e = "i1e", SPECIAL, Same;
        J0 = "j0", SPECIAL, Same;
        J1 = "j1", SPECIAL, Same;
        Y0 = "y0", SPECIAL, Same;
        Y1 = "y1", SPECIAL, Same;
        Entr = "entr", SPECIAL, Same;
        RiemannZeta = "riemann_zeta", SPECIAL, Same;
    }
}

ops! {
    /// Elementwise ops of two operands (also the ops of reduce, accumulate and outer).
    BinaryOp {
        Add = "add", ALL, Same;
        Sub = "subtract", NUM, Same;
        Mul = "multiply", ALL, Same;
        Div = "divide", INEXACT, Same;
        FloorDiv = "floor_divide", REAL, Same;
        Rem = "remainder", REAL, Same;
        Pow = "power", NUM, Same;
        Max = "maximum", ALL, Same;
        Min = "minimum", ALL, Same;
        Fmax = "fmax", ALL, Same;
        Fmin = "fmin", ALL, Same;
        Arctan2 = "arctan2", Loops::FLOATS, Same;
        Hypot = "hypot", Loops::FLOATS, Same;
        LogAddExp = "logaddexp", Loops::FLOATS, Same;
        CopySign = "copysign", Loops::FLOATS, Same;
        Eq = "equal", ALL, Bool;
        Ne = "not_equal", ALL, Bool;
        Lt = "less", ALL, Bool;
        Le = "less_equal", ALL, Bool;
        Gt = "greater", ALL, Bool;
        Ge = "greater_equal", ALL, Bool;
        LogicalAnd = "logical_and", ALL, Bool;
        LogicalOr = "logical_or", ALL, Bool;
        LogicalXor = "logical_xor", ALL, Bool;
        BitAnd = "bitwise_and", BITS, Same;
        BitOr = "bitwise_or", BITS, Same;
        BitXor = "bitwise_xor", BITS, Same;
        Shl = "left_shift", Loops::INTS, Same;
        Shr = "right_shift", Loops::INTS, Same;
        Xlogy = "xlogy", SPECIAL, Same;
        Xlog1py = "xlog1py", SPECIAL, Same;
        Beta = "beta", SPECIAL, Same;
        Betaln = "betaln", SPECIAL, Same;
        Gammainc = "gammainc", SPECIAL, Same;
        Gammaincc = "gammaincc", SPECIAL, Same;
        Zeta = "zeta", SPECIAL, Same;
        RelEntr = "rel_entr", SPECIAL, Same;
        KlDiv = "kl_div", SPECIAL, Same;
        Binom = "binom", SPECIAL, Same;
    }
}

fn out_dtype(rule: OutRule, loop_dtype: DType) -> DType {
    match rule {
        OutRule::Same => loop_dtype,
        OutRule::Bool => DType::Bool,
        OutRule::Real => loop_dtype.to_real(),
    }
}

impl UnaryOp {
    /// True for SciPy's special functions (`xp::special`): float loops only, and not among the
    /// common kernels that `warmup` compiles.
    pub const fn is_special(self) -> bool {
        (self as u8) >= (UnaryOp::Erf as u8)
    }
    /// SciPy's loop order for the op is float64 before float32 (so that every input but float32
    /// runs in float64); the others take the first loop the input casts to safely, as NumPy does.
    const fn float64_first(self) -> bool {
        self.is_special() && !matches!(self, UnaryOp::Erfinv | UnaryOp::Erfcinv | UnaryOp::Ndtri | UnaryOp::Entr)
    }
    /// (loop dtype, output dtype) for an input of dtype `d`, or the error NumPy raises.
    pub fn resolve(self, d: DType) -> Result<(DType, DType)> {
        let err = Err(Error::InvalidDType { op: self.name(), dtype: d });
        let l = match self {
            // NumPy refuses these on booleans instead of casting them to int8.
            UnaryOp::Neg | UnaryOp::Pos | UnaryOp::Sign if d == DType::Bool => return err,
            // real/imag are functions, not ufuncs: they keep integer dtypes.
            UnaryOp::Real | UnaryOp::Imag => d,
            // np.angle is arctan2(0, x) with a weak Python 0, which makes bool int64 first.
            UnaryOp::Angle if d == DType::Bool => DType::F64,
            // SciPy lists the float64 loop first: only float32 itself stays float32.
            _ if self.float64_first() && !d.is_complex() => {
                if d == DType::F32 {
                    DType::F32
                } else {
                    DType::F64
                }
            }
            _ => match self.loops().select(d) {
                Some(l) => l,
                None => return err,
            },
        };
        Ok((l, out_dtype(self.out_rule(), l)))
    }
}

impl BinaryOp {
    /// True for SciPy's special functions (`xp::special`).
    pub const fn is_special(self) -> bool {
        (self as u8) >= (BinaryOp::Xlogy as u8)
    }
    /// SciPy's loop order is float64 first (see [`UnaryOp`]'s rule).
    const fn float64_first(self) -> bool {
        matches!(
            self,
            BinaryOp::Xlogy
                | BinaryOp::Xlog1py
                | BinaryOp::Beta
                | BinaryOp::Betaln
                | BinaryOp::Gammainc
                | BinaryOp::Gammaincc
        )
    }
    /// (loop dtype, output dtype) for inputs of dtypes `a` and `b` (after weak-scalar promotion):
    /// the first loop that both inputs cast to safely, as NumPy selects (so `arctan2(int8,
    /// uint8)` runs in float16 although int8 and uint8 promote to int16).
    pub fn resolve(self, a: DType, b: DType) -> Result<(DType, DType)> {
        let p = promote_types(a, b);
        let err = Err(Error::InvalidDType { op: self.name(), dtype: p });
        let l = match self {
            // NumPy refuses boolean subtraction; true division of integers runs in float64.
            BinaryOp::Sub if p == DType::Bool => return err,
            BinaryOp::Div if !p.is_inexact() => DType::F64,
            _ if self.float64_first() && !p.is_complex() => {
                if a == DType::F32 && b == DType::F32 {
                    DType::F32
                } else {
                    DType::F64
                }
            }
            _ => match LOOP_ORDER
                .into_iter()
                .find(|&l| self.loops().contains(l) && can_cast_safe(a, l) && can_cast_safe(b, l))
            {
                Some(l) => l,
                None => return err,
            },
        };
        Ok((l, out_dtype(self.out_rule(), l)))
    }
    /// The identity of the op's reduction on `dtype`, if it has one (empty reductions use it).
    pub fn identity(self, dtype: DType) -> Option<Scalar> {
        Some(match self {
            BinaryOp::Add | BinaryOp::LogicalOr | BinaryOp::LogicalXor | BinaryOp::BitOr | BinaryOp::BitXor => {
                Scalar::Int(0)
            }
            BinaryOp::Mul | BinaryOp::LogicalAnd => Scalar::Int(1),
            BinaryOp::BitAnd => {
                if dtype == DType::Bool {
                    Scalar::Bool(true)
                } else {
                    Scalar::Int(-1)
                }
            }
            _ => return None,
        })
    }
    /// True when the reduction result does not depend on the order of the operands, so that a
    /// reduction over several axes at once is allowed (NumPy's "reorderable").
    pub const fn is_reorderable(self) -> bool {
        matches!(
            self,
            BinaryOp::Add
                | BinaryOp::Mul
                | BinaryOp::Max
                | BinaryOp::Min
                | BinaryOp::Fmax
                | BinaryOp::Fmin
                | BinaryOp::LogicalAnd
                | BinaryOp::LogicalOr
                | BinaryOp::LogicalXor
                | BinaryOp::BitAnd
                | BinaryOp::BitOr
                | BinaryOp::BitXor
        )
    }
}

/// Reductions that return an index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArgReduceOp {
    /// index of the first maximum (the first NaN if any)
    ArgMax,
    /// index of the first minimum (the first NaN if any)
    ArgMin,
}

impl ArgReduceOp {
    /// NumPy's name.
    pub const fn name(self) -> &'static str {
        match self {
            ArgReduceOp::ArgMax => "argmax",
            ArgReduceOp::ArgMin => "argmin",
        }
    }
}
