//! What a `#[xp::kernel]` function is on the CPU: the traits its generic parameters are bound
//! by ([`Float`], [`Int`], [`Num`]), the [`Raw`] view of a whole array, and the typed columns
//! ([`Col`], [`ColMut`]) through which the CPU backend hands a block of elements to the
//! function's native instances ([`NativeKernel`], written by the macro).
//!
//! ```
//! use xp_core::kernel::rust::{Float, Raw};
//! fn leaky<T: Float>(x: T, alpha: T) -> T { if x > T::ZERO { x } else { alpha * x } }
//! assert_eq!(leaky(-2.0f32, 0.5), -1.0);
//! let r = Raw::new(&[1.0f64, 2.0, 3.0]);
//! assert_eq!((r.at(2), r.len()), (3.0, 3));
//! ```
use crate::DType;
use std::ops::{Add, BitAnd, BitOr, BitXor, Div, Mul, Neg, Not, Rem, Shl, Shr, Sub};

/// The element index in C order of the broadcast shape: a kernel parameter `i: Index`.
pub type Index = i64;

/// A whole array of a `Raw<T>` parameter, read by index (C order); not broadcast.
#[derive(Clone, Copy, Debug)]
pub struct Raw<'a, T> {
    data: &'a [T],
}

impl<'a, T: Copy> Raw<'a, T> {
    /// A view of `data`.
    pub fn new(data: &'a [T]) -> Self {
        Raw { data }
    }
    /// Element `j`. Panics when `j` is outside `0..len()` (the CPU backend reports it as
    /// [`crate::Error::IndexOutOfBounds`]; on a GPU such a read is undefined).
    #[inline(always)]
    pub fn at(&self, j: Index) -> T {
        match usize::try_from(j).ok().and_then(|j| self.data.get(j)) {
            Some(v) => *v,
            None => std::panic::panic_any(OutOfBounds { index: j, len: self.data.len() }),
        }
    }
    /// The number of elements.
    #[inline(always)]
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> Index {
        self.data.len() as Index
    }
}

/// The panic payload of [`Raw::at`] outside the array.
#[derive(Clone, Copy, Debug)]
pub struct OutOfBounds {
    /// the index read
    pub index: i64,
    /// the array's length
    pub len: usize,
}

/// A sealed element type of the native columns.
pub trait Elem: Copy + Send + Sync + 'static + private::Sealed {
    /// its dtype
    const DTYPE: DType;
    /// the column's slice, if it holds this type
    fn col<'a>(c: &Col<'a>) -> Option<&'a [Self]>;
    /// the column's slice, if it holds this type
    fn col_mut<'a, 'b>(c: &'b mut ColMut<'a>) -> Option<&'b mut [Self]>;
}

mod private {
    pub trait Sealed {}
}

macro_rules! cols {
    ($($v:ident $t:ty),*) => {
        /// A column of values of one compute type (read).
        #[derive(Clone, Copy, Debug)]
        #[allow(missing_docs)]
        pub enum Col<'a> { $($v(&'a [$t])),* }
        /// A column of values of one compute type (written).
        #[derive(Debug)]
        #[allow(missing_docs)]
        pub enum ColMut<'a> { $($v(&'a mut [$t])),* }
        $(
            impl private::Sealed for $t {}
            impl Elem for $t {
                const DTYPE: DType = DType::$v;
                #[inline(always)]
                fn col<'a>(c: &Col<'a>) -> Option<&'a [Self]> {
                    if let Col::$v(s) = c { Some(*s) } else { None }
                }
                #[inline(always)]
                fn col_mut<'a, 'b>(c: &'b mut ColMut<'a>) -> Option<&'b mut [Self]> {
                    if let ColMut::$v(s) = c { Some(&mut **s) } else { None }
                }
            }
        )*
        impl Col<'_> {
            /// Its length.
            pub fn len(&self) -> usize { match self { $(Col::$v(s) => s.len()),* } }
            /// Whether it is empty.
            pub fn is_empty(&self) -> bool { self.len() == 0 }
        }
    };
}
cols!(Bool bool, I8 i8, I16 i16, I32 i32, I64 i64, U8 u8, U16 u16, U32 u32, U64 u64, F32 f32, F64 f64);

/// The native instances of a `#[xp::kernel]` function, written by the macro.
pub trait NativeKernel: Send + Sync + 'static {
    /// Run the function over one block: `bind` is the compute dtype of each generic parameter
    /// (in order), `start` the index of the block's first element, `ins` one column per
    /// parameter other than an `Index` (a value parameter's values for the block, a `Raw`
    /// parameter's whole array), `outs` one column per result. Returns false when no instance
    /// matches `bind` and the columns' types.
    fn run(&self, bind: &[DType], start: Index, ins: &[Col<'_>], outs: &mut [ColMut<'_>]) -> bool;
}

macro_rules! common {
    () => {
        /// 0
        const ZERO: Self;
        /// 1
        const ONE: Self;
        /// the largest finite value
        const MAX: Self;
        /// the smallest finite value
        const MIN: Self;
        /// `v as Self` (Rust's `as`: floats into integers saturate, NaN gives 0)
        fn lit(v: f64) -> Self;
        /// `self as f64`
        fn to_f64(self) -> f64;
        /// `self as i64`
        fn to_i64(self) -> i64;
    };
}

/// The float types a generic parameter `T: Float` takes: `f32`, `f64` (float16 and bfloat16
/// arrays compute as `f32`). The methods are the primitives' own, but for
/// `atanh`: musl's (as CUDA's and NumPy's, within an ulp; Rust's own loses up to 12 ulps near -1, which
/// a kernel over concrete `f32`/`f64` calling the inherent method still gets on the CPU).
#[allow(missing_docs)]
pub trait Float:
    Elem
    + PartialOrd
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Rem<Output = Self>
    + Neg<Output = Self>
    + std::ops::AddAssign
    + std::ops::SubAssign
    + std::ops::MulAssign
    + std::ops::DivAssign
    + std::ops::RemAssign
{
    common!();
    const EPSILON: Self;
    const INFINITY: Self;
    const NEG_INFINITY: Self;
    const NAN: Self;
    const MIN_POSITIVE: Self;
    const PI: Self;
    const E: Self;
    const LN_2: Self;
    const SQRT_2: Self;
    fn sin(self) -> Self;
    fn cos(self) -> Self;
    fn tan(self) -> Self;
    fn asin(self) -> Self;
    fn acos(self) -> Self;
    fn atan(self) -> Self;
    fn sinh(self) -> Self;
    fn cosh(self) -> Self;
    fn tanh(self) -> Self;
    fn asinh(self) -> Self;
    fn acosh(self) -> Self;
    fn atanh(self) -> Self;
    fn exp(self) -> Self;
    fn exp2(self) -> Self;
    fn exp_m1(self) -> Self;
    fn ln(self) -> Self;
    fn log2(self) -> Self;
    fn log10(self) -> Self;
    fn ln_1p(self) -> Self;
    fn sqrt(self) -> Self;
    fn cbrt(self) -> Self;
    fn floor(self) -> Self;
    fn ceil(self) -> Self;
    fn trunc(self) -> Self;
    fn round(self) -> Self;
    fn round_ties_even(self) -> Self;
    fn fract(self) -> Self;
    fn abs(self) -> Self;
    fn signum(self) -> Self;
    fn recip(self) -> Self;
    fn to_degrees(self) -> Self;
    fn to_radians(self) -> Self;
    fn powf(self, n: Self) -> Self;
    fn powi(self, n: i32) -> Self;
    fn log(self, base: Self) -> Self;
    fn atan2(self, other: Self) -> Self;
    fn hypot(self, other: Self) -> Self;
    fn max(self, other: Self) -> Self;
    fn min(self, other: Self) -> Self;
    fn copysign(self, sign: Self) -> Self;
    fn mul_add(self, a: Self, b: Self) -> Self;
    fn clamp(self, min: Self, max: Self) -> Self;
    fn is_nan(self) -> bool;
    fn is_infinite(self) -> bool;
    fn is_finite(self) -> bool;
    fn is_sign_negative(self) -> bool;
    fn is_sign_positive(self) -> bool;
}

macro_rules! float_impl {
    ($t:ident) => {
        impl Float for $t {
            const ZERO: Self = 0.0;
            const ONE: Self = 1.0;
            const MAX: Self = $t::MAX;
            const MIN: Self = $t::MIN;
            const EPSILON: Self = $t::EPSILON;
            const INFINITY: Self = $t::INFINITY;
            const NEG_INFINITY: Self = $t::NEG_INFINITY;
            const NAN: Self = $t::NAN;
            const MIN_POSITIVE: Self = $t::MIN_POSITIVE;
            const PI: Self = std::$t::consts::PI;
            const E: Self = std::$t::consts::E;
            const LN_2: Self = std::$t::consts::LN_2;
            const SQRT_2: Self = std::$t::consts::SQRT_2;
            #[inline(always)]
            fn lit(v: f64) -> Self {
                v as $t
            }
            #[inline(always)]
            fn to_f64(self) -> f64 {
                self as f64
            }
            #[inline(always)]
            fn to_i64(self) -> i64 {
                self as i64
            }
            float_impl!(@un $t: sin cos tan asin acos atan sinh cosh tanh asinh acosh exp exp2 exp_m1 ln
                log2 log10 ln_1p sqrt cbrt floor ceil trunc round round_ties_even fract abs signum recip
                to_degrees to_radians);
            float_impl!(@bin $t: powf log atan2 hypot max min copysign);
            float_impl!(@pred $t: is_nan is_infinite is_finite is_sign_negative is_sign_positive);
            /// musl's atanh, computed on |x| (in float64 for float32): Rust's own formula loses
            /// up to 12 ulps for negative arguments near -1, where CUDA's and NumPy's do not.
            #[inline(always)]
            fn atanh(self) -> Self {
                libm::atanh(self as f64) as $t
            }
            #[inline(always)]
            fn powi(self, n: i32) -> Self {
                $t::powi(self, n)
            }
            #[inline(always)]
            fn mul_add(self, a: Self, b: Self) -> Self {
                $t::mul_add(self, a, b)
            }
            #[inline(always)]
            fn clamp(self, min: Self, max: Self) -> Self {
                $t::clamp(self, min, max)
            }
        }
    };
    (@un $t:ident: $($f:ident)*) => { $( #[inline(always)] fn $f(self) -> Self { $t::$f(self) } )* };
    (@bin $t:ident: $($f:ident)*) => { $( #[inline(always)] fn $f(self, o: Self) -> Self { $t::$f(self, o) } )* };
    (@pred $t:ident: $($f:ident)*) => { $( #[inline(always)] fn $f(self) -> bool { $t::$f(self) } )* };
}
float_impl!(f32);
float_impl!(f64);

/// The integer types a generic parameter `T: Int` takes: `i8` … `u64`. Arithmetic wraps on the
/// GPU and in the CPU's lowered form; natively it is Rust's (a panic on overflow in a debug
/// build): write `wrapping_*` where overflow is meant.
#[allow(missing_docs)]
pub trait Int:
    Elem
    + Ord
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Rem<Output = Self>
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + std::ops::AddAssign
    + std::ops::SubAssign
    + std::ops::MulAssign
{
    common!();
    fn wrapping_add(self, o: Self) -> Self;
    fn wrapping_sub(self, o: Self) -> Self;
    fn wrapping_mul(self, o: Self) -> Self;
    fn wrapping_neg(self) -> Self;
    fn wrapping_shl(self, n: u32) -> Self;
    fn wrapping_shr(self, n: u32) -> Self;
}

macro_rules! int_impl {
    ($($t:ident)*) => {$(
        impl Int for $t {
            const ZERO: Self = 0;
            const ONE: Self = 1;
            const MAX: Self = $t::MAX;
            const MIN: Self = $t::MIN;
            #[inline(always)]
            fn lit(v: f64) -> Self { v as $t }
            #[inline(always)]
            fn to_f64(self) -> f64 { self as f64 }
            #[inline(always)]
            fn to_i64(self) -> i64 { self as i64 }
            #[inline(always)]
            fn wrapping_add(self, o: Self) -> Self { $t::wrapping_add(self, o) }
            #[inline(always)]
            fn wrapping_sub(self, o: Self) -> Self { $t::wrapping_sub(self, o) }
            #[inline(always)]
            fn wrapping_mul(self, o: Self) -> Self { $t::wrapping_mul(self, o) }
            #[inline(always)]
            fn wrapping_neg(self) -> Self { $t::wrapping_neg(self) }
            #[inline(always)]
            fn wrapping_shl(self, n: u32) -> Self { $t::wrapping_shl(self, n) }
            #[inline(always)]
            fn wrapping_shr(self, n: u32) -> Self { $t::wrapping_shr(self, n) }
        }
        impl Num for $t {
            const ZERO: Self = 0;
            const ONE: Self = 1;
            const MAX: Self = $t::MAX;
            const MIN: Self = $t::MIN;
            #[inline(always)]
            fn lit(v: f64) -> Self { v as $t }
            #[inline(always)]
            fn to_f64(self) -> f64 { self as f64 }
            #[inline(always)]
            fn to_i64(self) -> i64 { self as i64 }
            #[inline(always)]
            fn max(self, o: Self) -> Self { Ord::max(self, o) }
            #[inline(always)]
            fn min(self, o: Self) -> Self { Ord::min(self, o) }
        }
    )*};
}
int_impl!(i8 i16 i32 i64 u8 u16 u32 u64);

/// The integers and the floats (`T: Num`): arithmetic, comparisons, `max`/`min` (NaN-ignoring
/// on floats, as `f32::max`).
#[allow(missing_docs)]
pub trait Num:
    Elem
    + PartialOrd
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Rem<Output = Self>
    + std::ops::AddAssign
    + std::ops::SubAssign
    + std::ops::MulAssign
{
    common!();
    fn max(self, o: Self) -> Self;
    fn min(self, o: Self) -> Self;
}

macro_rules! num_float {
    ($($t:ident)*) => {$(
        impl Num for $t {
            const ZERO: Self = 0.0;
            const ONE: Self = 1.0;
            const MAX: Self = $t::MAX;
            const MIN: Self = $t::MIN;
            #[inline(always)]
            fn lit(v: f64) -> Self { v as $t }
            #[inline(always)]
            fn to_f64(self) -> f64 { self as f64 }
            #[inline(always)]
            fn to_i64(self) -> i64 { self as i64 }
            #[inline(always)]
            fn max(self, o: Self) -> Self { $t::max(self, o) }
            #[inline(always)]
            fn min(self, o: Self) -> Self { $t::min(self, o) }
        }
    )*};
}
num_float!(f32 f64);
