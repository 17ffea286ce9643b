//! Registers of the evaluator: a column of one C type per register, a block long, and the typed
//! loops over them (one loop per op and type: the compiler vectorises each).
use num_traits::AsPrimitive;
use xp_core::kernel::{BinOp, UnOp};
use xp_core::{bf16, f16, DType, Element};

/// Run `f` compiled for the widest SIMD the processor has (pulp's runtime dispatch): `f` must be
/// a small loop whose callees are `#[inline(always)]`, so that they inherit the target features.
#[inline(always)]
pub(crate) fn wide<R>(f: impl FnOnce() -> R) -> R {
    struct Wide<F>(F);
    impl<R, F: FnOnce() -> R> pulp::WithSimd for Wide<F> {
        type Output = R;
        #[inline(always)]
        fn with_simd<S: pulp::Simd>(self, _: S) -> R {
            (self.0)()
        }
    }
    pulp::Arch::new().dispatch(Wide(f))
}

/// `o = a op b` as pulp's `WithSimd`, so that the loop is compiled for the dispatched
/// instruction set (a closure handed to the dispatcher is not reliably inlined into it).
pub(crate) struct ArithLoop<'a, T> {
    pub(crate) op: BinOp,
    pub(crate) a: &'a [T],
    pub(crate) b: &'a [T],
    pub(crate) o: &'a mut [T],
}

impl<T: Arith> pulp::WithSimd for ArithLoop<'_, T> {
    type Output = ();
    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _: S) {
        arith(self.op, self.a, self.b, self.o)
    }
}

/// `o = m ? a : o` as pulp's `WithSimd` (a blend, not a conditional store: it vectorises).
pub(crate) struct MergeLoop<'a, T> {
    pub(crate) m: &'a [bool],
    pub(crate) a: &'a [T],
    pub(crate) o: &'a mut [T],
}

impl<T: Reg> pulp::WithSimd for MergeLoop<'_, T> {
    type Output = ();
    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _: S) {
        for ((o, &m), &x) in self.o.iter_mut().zip(self.m).zip(self.a) {
            *o = T::pick(m, x, *o);
        }
    }
}

/// C's conversion of a block (`as`) as pulp's `WithSimd`.
pub(crate) struct ConvertLoop<'a, A, B> {
    pub(crate) a: &'a [A],
    pub(crate) o: &'a mut [B],
}

impl<A: Reg + AsPrimitive<B>, B: Reg> pulp::WithSimd for ConvertLoop<'_, A, B> {
    type Output = ();
    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _: S) {
        convert(self.a, self.o)
    }
}

/// `o = op a` as pulp's `WithSimd`.
pub(crate) struct UnaryLoop<'a, T> {
    pub(crate) op: UnOp,
    pub(crate) a: &'a [T],
    pub(crate) o: &'a mut [T],
}

impl<T: Arith> pulp::WithSimd for UnaryLoop<'_, T> {
    type Output = ();
    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _: S) {
        unary(self.op, self.a, self.o)
    }
}

/// A register: a block of values of one register class.
#[derive(Clone, Debug)]
pub(crate) enum Col {
    B(Vec<bool>),
    I32(Vec<i32>),
    U32(Vec<u32>),
    I64(Vec<i64>),
    U64(Vec<u64>),
    F32(Vec<f32>),
    F64(Vec<f64>),
}

/// The register class holding C values of type `d` (narrow integers promote to int, float16
/// and bfloat16 compute as float).
pub(crate) fn class(d: DType) -> DType {
    match d {
        DType::I8 | DType::I16 | DType::U8 | DType::U16 | DType::I32 => DType::I32,
        DType::F16 | DType::BF16 => DType::F32,
        d => d,
    }
}

impl Col {
    pub(crate) fn new(d: DType, n: usize) -> Col {
        match class(d) {
            DType::Bool => Col::B(vec![false; n]),
            DType::I32 => Col::I32(vec![0; n]),
            DType::U32 => Col::U32(vec![0; n]),
            DType::I64 => Col::I64(vec![0; n]),
            DType::U64 => Col::U64(vec![0; n]),
            DType::F32 => Col::F32(vec![0.0; n]),
            _ => Col::F64(vec![0.0; n]),
        }
    }
}

/// A register's element type.
pub(crate) trait Reg: Copy + Default + PartialOrd + Send + Sync + 'static {
    fn get(c: &Col) -> &[Self];
    fn get_mut(c: &mut Col) -> &mut [Self];
    /// `m ? a : b` by bit masks, so that loops of it vectorise (a branch or a select of
    /// addresses does not).
    fn pick(m: bool, a: Self, b: Self) -> Self;
}

macro_rules! reg {
    ($t:ty, $v:ident, $bits:ty, $to:expr, $from:expr) => {
        impl Reg for $t {
            #[inline(always)]
            fn pick(m: bool, a: $t, b: $t) -> $t {
                let k = (m as $bits).wrapping_neg();
                $from(($to(a) & k) | ($to(b) & !k))
            }
            #[inline(always)]
            fn get(c: &Col) -> &[$t] {
                match c {
                    Col::$v(v) => v,
                    _ => unreachable!("register class checked at compile time"),
                }
            }
            #[inline(always)]
            fn get_mut(c: &mut Col) -> &mut [$t] {
                match c {
                    Col::$v(v) => v,
                    _ => unreachable!("register class checked at compile time"),
                }
            }
        }
    };
}
reg!(bool, B, u8, |x: bool| x as u8, |x: u8| x != 0);
reg!(i32, I32, i32, |x| x, |x| x);
reg!(u32, U32, u32, |x| x, |x| x);
reg!(i64, I64, i64, |x| x, |x| x);
reg!(u64, U64, u64, |x| x, |x| x);
reg!(f32, F32, u32, f32::to_bits, f32::from_bits);
reg!(f64, F64, u64, f64::to_bits, f64::from_bits);

/// Bind `$T` to the register type of class `$d` and run `$body`.
macro_rules! with_class {
    ($d:expr, $T:ident => $body:expr) => {
        if $crate::eval::col::class($d) == xp_core::DType::Bool {
            type $T = bool;
            $body
        } else {
            $crate::eval::col::with_num!($d, $T => $body)
        }
    };
}
pub(crate) use with_class;

/// The match behind the binding macros: one arm per (dtype, Rust type) pair, then a fallback.
macro_rules! type_arms {
    ($d:expr, $T:ident => $body:expr, $other:pat => $fallback:expr; $($v:ident $ty:ty),*) => {
        match $d {
            $(xp_core::DType::$v => {
                type $T = $ty;
                $body
            })*
            $other => $fallback,
        }
    };
}
pub(crate) use type_arms;

/// Bind `$T` to a numeric (non-bool) register type of class `$d`.
macro_rules! with_num {
    ($d:expr, $T:ident => $body:expr) => {
        $crate::eval::col::type_arms!($crate::eval::col::class($d), $T => $body, d => unreachable!("{d} is not numeric");
            I32 i32, U32 u32, I64 i64, U64 u64, F32 f32, F64 f64)
    };
}
pub(crate) use with_num;

/// A storage element type and its register type.
pub(crate) trait Lane: Element {
    type R: Reg;
    fn up(self) -> Self::R;
    fn down(r: Self::R) -> Self;
}

macro_rules! lane {
    ($t:ty, $r:ty) => {
        impl Lane for $t {
            type R = $r;
            #[inline(always)]
            fn up(self) -> $r {
                self as $r
            }
            #[inline(always)]
            fn down(r: $r) -> $t {
                r as $t
            }
        }
    };
}
lane!(i8, i32);
lane!(i16, i32);
lane!(u8, i32);
lane!(u16, i32);
lane!(i32, i32);
lane!(u32, u32);
lane!(i64, i64);
lane!(u64, u64);
lane!(f32, f32);
lane!(f64, f64);
impl Lane for bool {
    type R = bool;
    fn up(self) -> bool {
        self
    }
    fn down(r: bool) -> bool {
        r
    }
}
impl Lane for f16 {
    type R = f32;
    fn up(self) -> f32 {
        self.to_f32()
    }
    fn down(r: f32) -> f16 {
        f16::from_f32(r)
    }
}
impl Lane for bf16 {
    type R = f32;
    fn up(self) -> f32 {
        self.to_f32()
    }
    fn down(r: f32) -> bf16 {
        bf16::from_f32(r)
    }
}

/// C arithmetic of a numeric register type (integers wrap; integer division by zero gives 0).
pub(crate) trait Arith: Reg {
    fn add(a: Self, b: Self) -> Self;
    fn sub(a: Self, b: Self) -> Self;
    fn mul(a: Self, b: Self) -> Self;
    fn div(a: Self, b: Self) -> Self;
    fn rem(a: Self, b: Self) -> Self;
    fn neg(a: Self) -> Self;
    fn bits(op: BinOp, a: Self, b: Self) -> Self;
    fn not(a: Self) -> Self;
}

macro_rules! int_arith {
    ($t:ty) => {
        impl Arith for $t {
            #[inline(always)]
            fn add(a: $t, b: $t) -> $t {
                a.wrapping_add(b)
            }
            #[inline(always)]
            fn sub(a: $t, b: $t) -> $t {
                a.wrapping_sub(b)
            }
            #[inline(always)]
            fn mul(a: $t, b: $t) -> $t {
                a.wrapping_mul(b)
            }
            #[inline(always)]
            fn div(a: $t, b: $t) -> $t {
                if b == 0 {
                    0
                } else {
                    a.wrapping_div(b)
                }
            }
            #[inline(always)]
            fn rem(a: $t, b: $t) -> $t {
                if b == 0 {
                    0
                } else {
                    a.wrapping_rem(b)
                }
            }
            #[inline(always)]
            fn neg(a: $t) -> $t {
                a.wrapping_neg()
            }
            #[inline(always)]
            fn bits(op: BinOp, a: $t, b: $t) -> $t {
                match op {
                    BinOp::And => a & b,
                    BinOp::Or => a | b,
                    BinOp::Xor => a ^ b,
                    BinOp::Shl => a.wrapping_shl(b as u32),
                    _ => a.wrapping_shr(b as u32),
                }
            }
            #[inline(always)]
            fn not(a: $t) -> $t {
                !a
            }
        }
    };
}
int_arith!(i32);
int_arith!(u32);
int_arith!(i64);
int_arith!(u64);

macro_rules! float_arith {
    ($t:ty) => {
        impl Arith for $t {
            #[inline(always)]
            fn add(a: $t, b: $t) -> $t {
                a + b
            }
            #[inline(always)]
            fn sub(a: $t, b: $t) -> $t {
                a - b
            }
            #[inline(always)]
            fn mul(a: $t, b: $t) -> $t {
                a * b
            }
            #[inline(always)]
            fn div(a: $t, b: $t) -> $t {
                a / b
            }
            #[inline(always)]
            fn rem(a: $t, b: $t) -> $t {
                a % b
            }
            #[inline(always)]
            fn neg(a: $t) -> $t {
                -a
            }
            fn bits(_: BinOp, a: $t, _: $t) -> $t {
                a
            }
            fn not(a: $t) -> $t {
                a
            }
        }
    };
}
float_arith!(f32);
float_arith!(f64);

#[inline(always)]
fn zip2<T: Copy, U>(a: &[T], b: &[T], o: &mut [U], f: impl Fn(T, T) -> U) {
    for ((o, &x), &y) in o.iter_mut().zip(a).zip(b) {
        *o = f(x, y);
    }
}

/// `o = a op b` for an arithmetic or bit op.
#[inline(always)]
pub(crate) fn arith<T: Arith>(op: BinOp, a: &[T], b: &[T], o: &mut [T]) {
    match op {
        BinOp::Add => zip2(a, b, o, T::add),
        BinOp::Sub => zip2(a, b, o, T::sub),
        BinOp::Mul => zip2(a, b, o, T::mul),
        BinOp::Div => zip2(a, b, o, T::div),
        BinOp::Rem => zip2(a, b, o, T::rem),
        // one loop per bit op (the op matched inside the loop kept it from vectorising well)
        BinOp::And => zip2(a, b, o, |x, y| T::bits(BinOp::And, x, y)),
        BinOp::Or => zip2(a, b, o, |x, y| T::bits(BinOp::Or, x, y)),
        BinOp::Xor => zip2(a, b, o, |x, y| T::bits(BinOp::Xor, x, y)),
        BinOp::Shl => zip2(a, b, o, |x, y| T::bits(BinOp::Shl, x, y)),
        _ => zip2(a, b, o, |x, y| T::bits(BinOp::Shr, x, y)),
    }
}

/// `o = a op b` for a comparison.
#[inline(always)]
pub(crate) fn compare<T: Reg>(op: BinOp, a: &[T], b: &[T], o: &mut [bool]) {
    match op {
        BinOp::Lt => zip2(a, b, o, |x, y| x < y),
        BinOp::Le => zip2(a, b, o, |x, y| x <= y),
        BinOp::Gt => zip2(a, b, o, |x, y| x > y),
        BinOp::Ge => zip2(a, b, o, |x, y| x >= y),
        BinOp::Eq => zip2(a, b, o, |x, y| x == y),
        BinOp::Ne => zip2(a, b, o, |x, y| x != y),
        BinOp::LAnd => zip2(a, b, o, |x, y| x != T::default() && y != T::default()),
        _ => zip2(a, b, o, |x, y| x != T::default() || y != T::default()),
    }
}

/// `o = op a`.
#[inline(always)]
pub(crate) fn unary<T: Arith>(op: UnOp, a: &[T], o: &mut [T]) {
    match op {
        UnOp::Neg => o.iter_mut().zip(a).for_each(|(o, &x)| *o = T::neg(x)),
        _ => o.iter_mut().zip(a).for_each(|(o, &x)| *o = T::not(x)),
    }
}

/// `o = c ? a : b`.
#[inline(always)]
pub(crate) fn select<T: Reg>(c: &[bool], a: &[T], b: &[T], o: &mut [T]) {
    for (((o, &c), &x), &y) in o.iter_mut().zip(c).zip(a).zip(b) {
        *o = if c { x } else { y };
    }
}

/// C's conversion of a block from class `A` to `B` (`as`: integers wrap, floats truncate and
/// saturate where C leaves the result undefined).
#[inline(always)]
pub(crate) fn convert<A: Reg + AsPrimitive<B>, B: Reg>(a: &[A], o: &mut [B]) {
    o.iter_mut().zip(a).for_each(|(o, &x)| *o = x.as_());
}

/// Wrap values of class int to a narrow C type `d` (int8, uint8, int16, uint16).
pub(crate) fn narrow(d: DType, v: &mut [i32]) {
    match d {
        DType::I8 => v.iter_mut().for_each(|x| *x = *x as i8 as i32),
        DType::U8 => v.iter_mut().for_each(|x| *x = *x as u8 as i32),
        DType::I16 => v.iter_mut().for_each(|x| *x = *x as i16 as i32),
        DType::U16 => v.iter_mut().for_each(|x| *x = *x as u16 as i32),
        _ => {}
    }
}

/// Bind `$T` to the element type of a non-complex dtype.
macro_rules! with_lane {
    ($d:expr, $T:ident => $body:expr, $complex:expr) => {
        $crate::eval::col::type_arms!($d, $T => $body, _ => $complex;
            Bool bool, I8 i8, I16 i16, I32 i32, I64 i64, U8 u8, U16 u16, U32 u32, U64 u64,
            F16 xp_core::f16, BF16 xp_core::bf16, F32 f32, F64 f64)
    };
}
pub(crate) use with_lane;
