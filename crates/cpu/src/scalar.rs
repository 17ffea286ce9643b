//! The CPU scalar function of every op marker, per element type. A type answers `None` for an
//! op it has no loop for (the front end never asks for those: it resolves loops first).
use crate::cmath::{self, Wide};
use xp_core::{bf16, f16, BinaryOp, Complex32, Complex64, Element, UnaryOp};

/// The scalar functions of one element type.
pub trait ScalarOps: Element + Default {
    /// The real type of the element (itself for real types).
    type Real: ScalarOps;
    /// `op` when its output has the element type.
    fn unary_fn(op: UnaryOp) -> Option<fn(Self) -> Self>;
    /// `op` when its output is the real type (abs, real, imag, angle of complex).
    fn real_fn(op: UnaryOp) -> Option<fn(Self) -> Self::Real>;
    /// A predicate op (isnan, isinf, isfinite, logical_not).
    fn pred_fn(op: UnaryOp) -> Option<fn(Self) -> bool>;
    /// `op` when its output has the element type.
    fn binary_fn(op: BinaryOp) -> Option<fn(Self, Self) -> Self>;
    /// A comparison or logical op.
    fn cmp_fn(op: BinaryOp) -> Option<fn(Self, Self) -> bool>;
    /// `a + b` (wrapping for integers), inlined into hot loops.
    fn add(a: Self, b: Self) -> Self;
    /// `a * b` (wrapping for integers), inlined into hot loops.
    fn mul(a: Self, b: Self) -> Self;
    /// `a - b` (wrapping for integers), inlined into hot loops.
    fn sub(a: Self, b: Self) -> Self;
    /// `a / b` for inexact types (integers: wrapping, 0 for division by zero; bool: `a & b`).
    fn div(a: Self, b: Self) -> Self;
    /// NaN test (false for non-floats).
    fn is_nan(self) -> bool;
    /// Ordering for max/argmax: `a > b` (complex: lexicographic).
    fn gt(a: Self, b: Self) -> bool;
    /// Ordering for min/argmin: `a < b` (complex: lexicographic).
    fn lt(a: Self, b: Self) -> bool;
}

/// Python's floor division and modulo on floats (NumPy's `npy_divmod`), for one float width.
macro_rules! divmod {
    ($name:ident, $t:ty) => {
        fn $name(a: $t, b: $t) -> ($t, $t) {
            if b == 0.0 {
                return (a / b, <$t>::NAN);
            }
            let mut m = a % b;
            let mut div = (a - m) / b;
            if m != 0.0 {
                if (b < 0.0) != (m < 0.0) {
                    m += b;
                    div -= 1.0;
                }
            } else {
                m = (0.0 as $t).copysign(b);
            }
            let fl = if div != 0.0 {
                let f = div.floor();
                if div - f > 0.5 {
                    f + 1.0
                } else {
                    f
                }
            } else {
                (0.0 as $t).copysign(a / b)
            };
            (fl, m)
        }
    };
}
divmod!(f32_divmod, f32);
divmod!(float_divmod, f64);

/// Comparisons and logical ops of a real type whose zero is `$zero`.
macro_rules! real_cmp_fn {
    ($t:ty, $zero:expr) => {
        fn cmp_fn(op: BinaryOp) -> Option<fn($t, $t) -> bool> {
            use BinaryOp::*;
            Some(match op {
                Eq => |a, b| a == b,
                Ne => |a, b| a != b,
                Lt => |a, b| a < b,
                Le => |a, b| a <= b,
                Gt => |a, b| a > b,
                Ge => |a, b| a >= b,
                LogicalAnd => |a, b| a != $zero && b != $zero,
                LogicalOr => |a, b| a != $zero || b != $zero,
                LogicalXor => |a, b| (a != $zero) != (b != $zero),
                _ => return None,
            })
        }
    };
}

/// SciPy's special functions in float64 (`crate::special`), float32 rounding the float64 result.
macro_rules! special_unary {
    ($op:expr, $t:ty) => {
        special_unary!(@ $op, $t; Erf erf, Erfc erfc, Erfcx erfcx, Erfinv erfinv, Erfcinv erfcinv, Ndtr ndtr,
            Ndtri ndtri, LogNdtr log_ndtr, Gamma gamma, Gammaln gammaln, Digamma digamma, Expit expit,
            Logit logit, LogExpit log_expit, I0 i0, I0e i0e, I1 i1, I1e i1e, J0 j0, J1 j1, Y0 y0, Y1 y1,
            Entr entr, RiemannZeta riemann_zeta)
    };
    (@ $op:expr, $t:ty; $($v:ident $f:ident),*) => {
        match $op {
            $(UnaryOp::$v => Some(|x: $t| crate::special::$f(x as f64) as $t),)*
            _ => None,
        }
    };
}
macro_rules! special_binary {
    ($op:expr, $t:ty) => {
        special_binary!(@ $op, $t; Xlogy xlogy, Xlog1py xlog1py, Beta beta, Betaln betaln, Gammainc gammainc,
            Gammaincc gammaincc, Zeta zeta, RelEntr rel_entr, KlDiv kl_div, Binom binom)
    };
    (@ $op:expr, $t:ty; $($v:ident $f:ident),*) => {
        match $op {
            $(BinaryOp::$v => Some(|a: $t, b: $t| crate::special::$f(a as f64, b as f64) as $t),)*
            _ => None,
        }
    };
}

macro_rules! float_common {
    ($t:ty, $divmod:path) => {
        fn unary_fn(op: UnaryOp) -> Option<fn($t) -> $t> {
            use UnaryOp::*;
            Some(match op {
                Neg => |x| -x,
                Pos | Conj | Real => |x| x,
                Abs => |x: $t| x.abs(),
                Sign => |x: $t| {
                    if x > 0.0 {
                        1.0
                    } else if x < 0.0 {
                        -1.0
                    } else if x == 0.0 {
                        0.0
                    } else {
                        x
                    }
                },
                Reciprocal => |x| 1.0 / x,
                Exp => |x: $t| x.exp(),
                Exp2 => |x: $t| x.exp2(),
                Expm1 => |x: $t| x.exp_m1(),
                Log => |x: $t| x.ln(),
                Log2 => |x: $t| x.log2(),
                Log10 => |x: $t| x.log10(),
                Log1p => |x: $t| x.ln_1p(),
                Sqrt => |x: $t| x.sqrt(),
                Cbrt => |x: $t| x.cbrt(),
                Square => |x| x * x,
                Sin => |x: $t| x.sin(),
                Cos => |x: $t| x.cos(),
                Tan => |x: $t| x.tan(),
                Arcsin => |x: $t| x.asin(),
                Arccos => |x: $t| x.acos(),
                Arctan => |x: $t| x.atan(),
                Sinh => |x: $t| x.sinh(),
                Cosh => |x: $t| x.cosh(),
                Tanh => |x: $t| x.tanh(),
                Arcsinh => |x: $t| x.asinh(),
                Arccosh => |x: $t| x.acosh(),
                // musl's, on |x| (Rust's formula loses up to 12 ulps near -1; NumPy's does not)
                Arctanh => |x: $t| libm::atanh(x as f64) as $t,
                Floor => |x: $t| x.floor(),
                Ceil => |x: $t| x.ceil(),
                Trunc => |x: $t| x.trunc(),
                Rint => |x: $t| x.round_ties_even(),
                Imag => |_| 0.0,
                Angle => |x: $t| (0.0 as $t).atan2(x),
                IsNan | IsInf | IsFinite | LogicalNot | Invert => return None,
                _ => return special_unary!(op, $t),
            })
        }
        fn real_fn(op: UnaryOp) -> Option<fn($t) -> $t> {
            Self::unary_fn(op)
        }
        fn pred_fn(op: UnaryOp) -> Option<fn($t) -> bool> {
            use UnaryOp::*;
            Some(match op {
                IsNan => |x: $t| x.is_nan(),
                IsInf => |x: $t| x.is_infinite(),
                IsFinite => |x: $t| x.is_finite(),
                LogicalNot => |x| x == 0.0,
                _ => return None,
            })
        }
        fn binary_fn(op: BinaryOp) -> Option<fn($t, $t) -> $t> {
            use BinaryOp::*;
            Some(match op {
                Add => |a, b| a + b,
                Sub => |a, b| a - b,
                Mul => |a, b| a * b,
                Div => |a, b| a / b,
                FloorDiv => |a, b| $divmod(a, b).0,
                Rem => |a, b| $divmod(a, b).1,
                Pow => |a: $t, b| a.powf(b),
                Max => |a: $t, b| if a >= b || a.is_nan() { a } else { b },
                Min => |a: $t, b| if a <= b || a.is_nan() { a } else { b },
                Fmax => |a: $t, b| a.max(b),
                Fmin => |a: $t, b| a.min(b),
                Arctan2 => |a: $t, b| a.atan2(b),
                Hypot => |a: $t, b| a.hypot(b),
                LogAddExp => |a: $t, b: $t| {
                    if a == b {
                        a + std::f64::consts::LN_2 as $t
                    } else {
                        let d = a - b;
                        if d > 0.0 {
                            a + (-d).exp().ln_1p()
                        } else if d <= 0.0 {
                            b + d.exp().ln_1p()
                        } else {
                            d
                        }
                    }
                },
                CopySign => |a: $t, b| a.copysign(b),
                _ => return special_binary!(op, $t),
            })
        }
        real_cmp_fn!($t, 0.0);
        #[inline(always)]
        fn add(a: $t, b: $t) -> $t {
            a + b
        }
        #[inline(always)]
        fn mul(a: $t, b: $t) -> $t {
            a * b
        }
        #[inline(always)]
        fn sub(a: $t, b: $t) -> $t {
            a - b
        }
        #[inline(always)]
        fn div(a: $t, b: $t) -> $t {
            a / b
        }
        #[inline(always)]
        fn is_nan(self) -> bool {
            <$t>::is_nan(self)
        }
        #[inline(always)]
        fn gt(a: $t, b: $t) -> bool {
            a > b
        }
        #[inline(always)]
        fn lt(a: $t, b: $t) -> bool {
            a < b
        }
    };
}

impl ScalarOps for f32 {
    type Real = f32;
    float_common!(f32, f32_divmod);
}
impl ScalarOps for f64 {
    type Real = f64;
    float_common!(f64, float_divmod);
}

macro_rules! lift_unary {
    ($op:expr, $t:ty; $($v:ident),*) => {
        match $op {
            $(UnaryOp::$v => |x: $t| {
                <$t>::from_f32(<f32 as ScalarOps>::unary_fn(UnaryOp::$v).unwrap()(x.to_f32()))
            },)*
            _ => return None,
        }
    };
}
macro_rules! lift_binary {
    ($op:expr, $t:ty; $($v:ident),*) => {
        match $op {
            $(BinaryOp::$v => |a: $t, b: $t| {
                <$t>::from_f32(<f32 as ScalarOps>::binary_fn(BinaryOp::$v).unwrap()(a.to_f32(), b.to_f32()))
            },)*
            _ => return None,
        }
    };
}
macro_rules! lift_cmp {
    ($op:expr, $t:ty; $($v:ident),*) => {
        match $op {
            $(BinaryOp::$v => |a: $t, b: $t| <f32 as ScalarOps>::cmp_fn(BinaryOp::$v).unwrap()(a.to_f32(), b.to_f32()),)*
            _ => return None,
        }
    };
}

/// float16 and bfloat16 compute through float32, rounding each result once.
macro_rules! half_kernel {
    ($t:ty) => {
        impl ScalarOps for $t {
            type Real = $t;
            fn unary_fn(op: UnaryOp) -> Option<fn($t) -> $t> {
                Some(lift_unary!(op, $t; Neg, Pos, Conj, Real, Abs, Sign, Reciprocal, Exp, Exp2, Expm1, Log, Log2, Log10, Log1p,
                    Sqrt, Cbrt, Square, Sin, Cos, Tan, Arcsin, Arccos, Arctan, Sinh, Cosh, Tanh, Arcsinh, Arccosh,
                    Arctanh, Floor, Ceil, Trunc, Rint, Imag, Angle))
            }
            fn real_fn(op: UnaryOp) -> Option<fn($t) -> $t> {
                Self::unary_fn(op)
            }
            fn pred_fn(op: UnaryOp) -> Option<fn($t) -> bool> {
                use UnaryOp::*;
                Some(match op {
                    IsNan => |x: $t| x.is_nan(),
                    IsInf => |x: $t| x.is_infinite(),
                    IsFinite => |x: $t| x.is_finite(),
                    LogicalNot => |x: $t| x.to_f32() == 0.0,
                    _ => return None,
                })
            }
            fn binary_fn(op: BinaryOp) -> Option<fn($t, $t) -> $t> {
                Some(lift_binary!(op, $t; Add, Sub, Mul, Div, FloorDiv, Rem, Pow, Max, Min, Fmax, Fmin, Arctan2, Hypot, LogAddExp,
                    CopySign))
            }
            fn cmp_fn(op: BinaryOp) -> Option<fn($t, $t) -> bool> {
                Some(lift_cmp!(op, $t; Eq, Ne, Lt, Le, Gt, Ge, LogicalAnd, LogicalOr, LogicalXor))
            }
            #[inline(always)]
            fn add(a: $t, b: $t) -> $t {
                <$t>::from_f32(a.to_f32() + b.to_f32())
            }
            #[inline(always)]
            fn mul(a: $t, b: $t) -> $t {
                <$t>::from_f32(a.to_f32() * b.to_f32())
            }
            #[inline(always)]
            fn sub(a: $t, b: $t) -> $t {
                <$t>::from_f32(a.to_f32() - b.to_f32())
            }
            #[inline(always)]
            fn div(a: $t, b: $t) -> $t {
                <$t>::from_f32(a.to_f32() / b.to_f32())
            }
            fn is_nan(self) -> bool {
                <$t>::is_nan(self)
            }
            fn gt(a: $t, b: $t) -> bool {
                a > b
            }
            fn lt(a: $t, b: $t) -> bool {
                a < b
            }
        }
    };
}
half_kernel!(f16);
half_kernel!(bf16);

macro_rules! int_kernel {
    ($t:ty, $signed:expr) => {
        impl ScalarOps for $t {
            type Real = $t;
            fn unary_fn(op: UnaryOp) -> Option<fn($t) -> $t> {
                use UnaryOp::*;
                Some(match op {
                    Neg => |x: $t| x.wrapping_neg(),
                    Pos | Conj | Real | Floor | Ceil | Trunc => |x| x,
                    #[allow(unused_comparisons)]
                    Abs => |x: $t| if x < 0 { x.wrapping_neg() } else { x },
                    #[allow(unused_comparisons)]
                    Sign => |x: $t| {
                        if x > 0 {
                            1
                        } else if x < 0 {
                            (0 as $t).wrapping_sub(1)
                        } else {
                            0
                        }
                    },
                    // NumPy computes 1/0 through a float for 32- and 64-bit signed integers: MIN.
                    #[allow(unused_comparisons)]
                    Reciprocal => |x: $t| {
                        if x != 0 {
                            (1 as $t).wrapping_div(x)
                        } else if <$t>::MIN < 0 && std::mem::size_of::<$t>() >= 4 {
                            <$t>::MIN
                        } else {
                            0
                        }
                    },
                    Square => |x: $t| x.wrapping_mul(x),
                    Invert => |x: $t| !x,
                    Imag => |_| 0,
                    _ => return None,
                })
            }
            fn real_fn(op: UnaryOp) -> Option<fn($t) -> $t> {
                Self::unary_fn(op)
            }
            fn pred_fn(op: UnaryOp) -> Option<fn($t) -> bool> {
                use UnaryOp::*;
                Some(match op {
                    IsNan | IsInf => |_| false,
                    IsFinite => |_| true,
                    LogicalNot => |x| x == 0,
                    _ => return None,
                })
            }
            fn binary_fn(op: BinaryOp) -> Option<fn($t, $t) -> $t> {
                use BinaryOp::*;
                const BITS: $t = (std::mem::size_of::<$t>() * 8) as $t;
                Some(match op {
                    Add => |a: $t, b| a.wrapping_add(b),
                    Sub => |a: $t, b| a.wrapping_sub(b),
                    Mul => |a: $t, b| a.wrapping_mul(b),
                    // Python semantics: round toward -inf, x // 0 == 0 (NumPy warns and gives 0).
                    FloorDiv => |a: $t, b: $t| {
                        if b == 0 {
                            return 0;
                        }
                        let q = a.wrapping_div(b);
                        #[allow(unused_comparisons)]
                        if (a % b != 0) && ((a < 0) != (b < 0)) {
                            q - 1
                        } else {
                            q
                        }
                    },
                    Rem => |a: $t, b: $t| {
                        if b == 0 {
                            return 0;
                        }
                        let r = a.wrapping_rem(b);
                        #[allow(unused_comparisons)]
                        if r != 0 && ((r < 0) != (b < 0)) {
                            r + b
                        } else {
                            r
                        }
                    },
                    // Negative exponents are refused by the front end before this runs.
                    Pow => |a: $t, b: $t| {
                        let (mut base, mut e, mut acc) = (a, b as u64, 1 as $t);
                        while e > 0 {
                            if e & 1 == 1 {
                                acc = acc.wrapping_mul(base);
                            }
                            base = base.wrapping_mul(base);
                            e >>= 1;
                        }
                        acc
                    },
                    Max | Fmax => |a: $t, b: $t| a.max(b),
                    Min | Fmin => |a: $t, b: $t| a.min(b),
                    BitAnd => |a, b| a & b,
                    BitOr => |a, b| a | b,
                    BitXor => |a, b| a ^ b,
                    #[allow(unused_comparisons)]
                    Shl => |a: $t, b: $t| if (0..BITS).contains(&b) { a << b } else { 0 },
                    #[allow(unused_comparisons)]
                    Shr => |a: $t, b: $t| {
                        if (0..BITS).contains(&b) {
                            a >> b
                        } else if a < 0 {
                            (0 as $t).wrapping_sub(1)
                        } else {
                            0
                        }
                    },
                    _ => return None,
                })
            }
            real_cmp_fn!($t, 0);
            #[inline(always)]
            fn add(a: $t, b: $t) -> $t {
                a.wrapping_add(b)
            }
            #[inline(always)]
            fn mul(a: $t, b: $t) -> $t {
                a.wrapping_mul(b)
            }
            #[inline(always)]
            fn sub(a: $t, b: $t) -> $t {
                a.wrapping_sub(b)
            }
            #[inline(always)]
            fn div(a: $t, b: $t) -> $t {
                if b == 0 {
                    0
                } else {
                    a.wrapping_div(b)
                }
            }
            fn is_nan(self) -> bool {
                false
            }
            fn gt(a: $t, b: $t) -> bool {
                a > b
            }
            fn lt(a: $t, b: $t) -> bool {
                a < b
            }
        }
    };
}
int_kernel!(i8, true);
int_kernel!(i16, true);
int_kernel!(i32, true);
int_kernel!(i64, true);
int_kernel!(u8, false);
int_kernel!(u16, false);
int_kernel!(u32, false);
int_kernel!(u64, false);

impl ScalarOps for bool {
    type Real = bool;
    fn unary_fn(op: UnaryOp) -> Option<fn(bool) -> bool> {
        use UnaryOp::*;
        Some(match op {
            Abs | Pos | Floor | Ceil | Trunc | Real | Conj => |x| x,
            Invert => |x| !x,
            Imag => |_| false,
            _ => return None,
        })
    }
    fn real_fn(op: UnaryOp) -> Option<fn(bool) -> bool> {
        Self::unary_fn(op)
    }
    fn pred_fn(op: UnaryOp) -> Option<fn(bool) -> bool> {
        use UnaryOp::*;
        Some(match op {
            IsNan | IsInf => |_| false,
            IsFinite => |_| true,
            LogicalNot => |x| !x,
            _ => return None,
        })
    }
    fn binary_fn(op: BinaryOp) -> Option<fn(bool, bool) -> bool> {
        use BinaryOp::*;
        Some(match op {
            Add | Max | Fmax | BitOr | LogicalOr => |a, b| a | b,
            Mul | Min | Fmin | BitAnd | LogicalAnd => |a, b| a & b,
            BitXor | LogicalXor | Ne => |a, b| a ^ b,
            Eq => |a, b| a == b,
            Lt => |a, b| !a & b,
            Le => |a, b| a <= b,
            Gt => |a, b| a & !b,
            Ge => |a, b| a >= b,
            _ => return None,
        })
    }
    fn cmp_fn(op: BinaryOp) -> Option<fn(bool, bool) -> bool> {
        use BinaryOp::*;
        match op {
            Eq | Ne | Lt | Le | Gt | Ge | LogicalAnd | LogicalOr | LogicalXor => Self::binary_fn(op),
            _ => None,
        }
    }
    fn add(a: bool, b: bool) -> bool {
        a | b
    }
    fn mul(a: bool, b: bool) -> bool {
        a & b
    }
    fn sub(a: bool, b: bool) -> bool {
        a ^ b
    }
    fn div(a: bool, b: bool) -> bool {
        a & b
    }
    fn is_nan(self) -> bool {
        false
    }
    fn gt(a: bool, b: bool) -> bool {
        a & !b
    }
    fn lt(a: bool, b: bool) -> bool {
        !a & b
    }
}

macro_rules! complex_kernel {
    ($t:ty, $r:ty) => {
        impl ScalarOps for $t {
            type Real = $r;
            fn unary_fn(op: UnaryOp) -> Option<fn($t) -> $t> {
                use UnaryOp::*;
                const LN2: $r = std::f64::consts::LN_2 as $r;
                const LN10: $r = std::f64::consts::LN_10 as $r;
                Some(match op {
                    Neg => |z| -z,
                    Pos => |z| z,
                    Conj => |z: $t| z.conj(),
                    Sign => |z: $t| if z.re == 0.0 && z.im == 0.0 { <$t>::new(0.0, 0.0) } else { z / z.norm() },
                    Reciprocal => |z: $t| z.inv(),
                    Exp => |z: $t| z.exp(),
                    Exp2 => |z: $t| (z * LN2).exp(),
                    Expm1 => |z: $t| z.exp() - 1.0,
                    Log => |z: $t| z.ln(),
                    Log2 => |z: $t| z.ln() / LN2,
                    Log10 => |z: $t| z.ln() / LN10,
                    Log1p => |z: $t| (z + 1.0).ln(),
                    Sqrt => |z: $t| <$t>::narrow(cmath::sqrt(z.wide())),
                    Square => |z| z * z,
                    Sin => |z: $t| <$t>::narrow(cmath::sin(z.wide())),
                    Cos => |z: $t| <$t>::narrow(cmath::cos(z.wide())),
                    Tan => |z: $t| <$t>::narrow(cmath::tan(z.wide())),
                    Arcsin => |z: $t| <$t>::narrow(cmath::asin(z.wide())),
                    Arccos => |z: $t| <$t>::narrow(cmath::acos(z.wide())),
                    Arctan => |z: $t| <$t>::narrow(cmath::atan(z.wide())),
                    Sinh => |z: $t| <$t>::narrow(cmath::sinh(z.wide())),
                    Cosh => |z: $t| <$t>::narrow(cmath::cosh(z.wide())),
                    Tanh => |z: $t| <$t>::narrow(cmath::tanh(z.wide())),
                    Arcsinh => |z: $t| <$t>::narrow(cmath::asinh(z.wide())),
                    Arccosh => |z: $t| <$t>::narrow(cmath::acosh(z.wide())),
                    Arctanh => |z: $t| <$t>::narrow(cmath::atanh(z.wide())),
                    Rint => |z: $t| <$t>::new(z.re.round_ties_even(), z.im.round_ties_even()),
                    _ => return None,
                })
            }
            fn real_fn(op: UnaryOp) -> Option<fn($t) -> $r> {
                use UnaryOp::*;
                Some(match op {
                    Abs => |z: $t| z.norm(),
                    Real => |z: $t| z.re,
                    Imag => |z: $t| z.im,
                    Angle => |z: $t| z.im.atan2(z.re),
                    _ => return None,
                })
            }
            fn pred_fn(op: UnaryOp) -> Option<fn($t) -> bool> {
                use UnaryOp::*;
                Some(match op {
                    IsNan => |z: $t| z.re.is_nan() || z.im.is_nan(),
                    IsInf => |z: $t| z.re.is_infinite() || z.im.is_infinite(),
                    IsFinite => |z: $t| z.re.is_finite() && z.im.is_finite(),
                    LogicalNot => |z: $t| z.re == 0.0 && z.im == 0.0,
                    _ => return None,
                })
            }
            fn binary_fn(op: BinaryOp) -> Option<fn($t, $t) -> $t> {
                use BinaryOp::*;
                Some(match op {
                    Add => |a, b| a + b,
                    Sub => |a, b| a - b,
                    Mul => |a, b| a * b,
                    Div => Self::div,
                    Pow => |a: $t, b: $t| {
                        if b.re == 0.0 && b.im == 0.0 {
                            <$t>::new(1.0, 0.0)
                        } else if a.re == 0.0 && a.im == 0.0 {
                            if b.re > 0.0 && b.im == 0.0 {
                                <$t>::new(0.0, 0.0)
                            } else {
                                <$t>::new(<$r>::NAN, <$r>::NAN)
                            }
                        } else if b.im == 0.0 && b.re.fract() == 0.0 && b.re.abs() <= 100.0 {
                            a.powi(b.re as i32)
                        } else {
                            a.powc(b)
                        }
                    },
                    Max => |a: $t, b: $t| if Self::is_nan(a) || (!Self::is_nan(b) && !Self::lt(a, b)) { a } else { b },
                    Min => |a: $t, b: $t| if Self::is_nan(a) || (!Self::is_nan(b) && !Self::gt(a, b)) { a } else { b },
                    Fmax => |a: $t, b: $t| if Self::is_nan(b) || (!Self::is_nan(a) && !Self::lt(a, b)) { a } else { b },
                    Fmin => |a: $t, b: $t| if Self::is_nan(b) || (!Self::is_nan(a) && !Self::gt(a, b)) { a } else { b },
                    _ => return None,
                })
            }
            fn cmp_fn(op: BinaryOp) -> Option<fn($t, $t) -> bool> {
                use BinaryOp::*;
                let nz = |z: $t| z.re != 0.0 || z.im != 0.0;
                let _ = nz;
                Some(match op {
                    Eq => |a, b| a == b,
                    Ne => |a, b| a != b,
                    Lt => |a, b| Self::lt(a, b),
                    Le => |a: $t, b: $t| a.re < b.re || (a.re == b.re && a.im <= b.im),
                    Gt => |a, b| Self::gt(a, b),
                    Ge => |a: $t, b: $t| a.re > b.re || (a.re == b.re && a.im >= b.im),
                    LogicalAnd => |a: $t, b: $t| (a.re != 0.0 || a.im != 0.0) && (b.re != 0.0 || b.im != 0.0),
                    LogicalOr => |a: $t, b: $t| (a.re != 0.0 || a.im != 0.0) || (b.re != 0.0 || b.im != 0.0),
                    LogicalXor => |a: $t, b: $t| (a.re != 0.0 || a.im != 0.0) != (b.re != 0.0 || b.im != 0.0),
                    _ => return None,
                })
            }
            #[inline(always)]
            fn add(a: $t, b: $t) -> $t {
                a + b
            }
            #[inline(always)]
            fn mul(a: $t, b: $t) -> $t {
                a * b
            }
            #[inline(always)]
            fn sub(a: $t, b: $t) -> $t {
                a - b
            }
            /// Smith's algorithm, as NumPy: no overflow for large divisors, signed zeros and
            /// infinities where the naive formula gives NaN.
            #[inline(always)]
            fn div(a: $t, b: $t) -> $t {
                let (ar, ai, br, bi) = (a.re, a.im, b.re, b.im);
                if br.abs() >= bi.abs() {
                    if br == 0.0 && bi == 0.0 {
                        return <$t>::new(ar / br.abs(), ai / bi.abs());
                    }
                    let rat = bi / br;
                    let scl = 1.0 / (br + bi * rat);
                    <$t>::new((ar + ai * rat) * scl, (ai - ar * rat) * scl)
                } else {
                    let rat = br / bi;
                    let scl = 1.0 / (bi + br * rat);
                    <$t>::new((ar * rat + ai) * scl, (ai * rat - ar) * scl)
                }
            }
            fn is_nan(self) -> bool {
                self.re.is_nan() || self.im.is_nan()
            }
            fn gt(a: $t, b: $t) -> bool {
                a.re > b.re || (a.re == b.re && a.im > b.im)
            }
            fn lt(a: $t, b: $t) -> bool {
                a.re < b.re || (a.re == b.re && a.im < b.im)
            }
        }
    };
}
complex_kernel!(Complex32, f32);
complex_kernel!(Complex64, f64);
