//! The [`Element`] trait (one Rust type per [`DType`]), runtime [`Scalar`] values and the
//! [`HostBuffer`] that holds a contiguous run of elements of any dtype.
//!
//! ```
//! use xp_core::{DType, Element, HostBuffer, Scalar};
//! let b = HostBuffer::from(vec![1.5f32, -2.0]);
//! assert_eq!(b.dtype(), DType::F32);
//! assert_eq!(i8::from_scalar(Scalar::Float(-2.7)), -2); // truncation, as NumPy's astype
//! assert_eq!(u8::from_scalar(Scalar::Int(-1)), 255);    // modular, as NumPy's astype
//! ```
use crate::DType;
use half::{bf16, f16};
use num_complex::{Complex32, Complex64};
use std::fmt::Debug;

/// A runtime value of any dtype, widened without loss to one of five kinds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    /// a boolean
    Bool(bool),
    /// a signed integer
    Int(i64),
    /// an unsigned integer
    Uint(u64),
    /// a real floating-point number
    Float(f64),
    /// a complex number
    Complex(Complex64),
}

impl Scalar {
    /// The value as f64 (complex: the real part, as NumPy's cast does).
    pub fn to_f64(self) -> f64 {
        match self {
            Scalar::Bool(b) => b as u8 as f64,
            Scalar::Int(i) => i as f64,
            Scalar::Uint(u) => u as f64,
            Scalar::Float(f) => f,
            Scalar::Complex(c) => c.re,
        }
    }
    /// The value as a complex number.
    pub fn to_c128(self) -> Complex64 {
        match self {
            Scalar::Complex(c) => c,
            s => Complex64::new(s.to_f64(), 0.0),
        }
    }
    /// The value as i64, truncating floats and wrapping large unsigned values (C cast semantics).
    pub fn to_i64(self) -> i64 {
        match self {
            Scalar::Bool(b) => b as i64,
            Scalar::Int(i) => i,
            Scalar::Uint(u) => u as i64,
            Scalar::Float(f) => f as i64,
            Scalar::Complex(c) => c.re as i64,
        }
    }
    /// The value as u64, with C cast semantics.
    pub fn to_u64(self) -> u64 {
        match self {
            Scalar::Uint(u) => u,
            Scalar::Float(f) if f >= 0.0 => f as u64,
            Scalar::Complex(c) if c.re >= 0.0 => c.re as u64,
            s => s.to_i64() as u64,
        }
    }
    /// True when the value is nonzero (NumPy's truth value of a cast to bool).
    pub fn is_nonzero(self) -> bool {
        match self {
            Scalar::Bool(b) => b,
            Scalar::Int(i) => i != 0,
            Scalar::Uint(u) => u != 0,
            Scalar::Float(f) => f != 0.0,
            Scalar::Complex(c) => c.re != 0.0 || c.im != 0.0,
        }
    }
}

macro_rules! scalar_from {
    ($($t:ty => $v:ident as $w:ty),*) => {$(
        impl From<$t> for Scalar { fn from(x: $t) -> Self { Scalar::$v(x as $w) } }
    )*};
}
scalar_from!(i8 => Int as i64, i16 => Int as i64, i32 => Int as i64, i64 => Int as i64,
    isize => Int as i64, u8 => Uint as u64, u16 => Uint as u64, u32 => Uint as u64,
    u64 => Uint as u64, usize => Uint as u64, f32 => Float as f64, f64 => Float as f64);
impl From<bool> for Scalar {
    fn from(x: bool) -> Self {
        Scalar::Bool(x)
    }
}
impl From<Complex64> for Scalar {
    fn from(x: Complex64) -> Self {
        Scalar::Complex(x)
    }
}
impl From<Complex32> for Scalar {
    fn from(x: Complex32) -> Self {
        Scalar::Complex(Complex64::new(x.re as f64, x.im as f64))
    }
}
impl From<f16> for Scalar {
    fn from(x: f16) -> Self {
        Scalar::Float(x.to_f64())
    }
}
impl From<bf16> for Scalar {
    fn from(x: bf16) -> Self {
        Scalar::Float(x.to_f64())
    }
}

/// A Rust type that is the element of one [`DType`].
pub trait Element: Copy + Send + Sync + Debug + PartialEq + Default + 'static {
    /// The dtype whose elements have this type.
    const DTYPE: DType;
    /// Widen to a [`Scalar`] without loss.
    fn to_scalar(self) -> Scalar;
    /// Convert with NumPy's `astype` semantics (modular for integers, truncation for floats to
    /// integers, real part for complex to real).
    fn from_scalar(s: Scalar) -> Self;
    /// Wrap a vector of this type in a [`HostBuffer`].
    fn into_buffer(v: Vec<Self>) -> HostBuffer;
    /// The slice of a buffer of this dtype, if it is one.
    fn slice_of(b: &HostBuffer) -> Option<&[Self]>;
    /// The mutable slice of a buffer of this dtype, if it is one.
    fn slice_of_mut(b: &mut HostBuffer) -> Option<&mut [Self]>;
}

macro_rules! impl_element {
    ($t:ty, $dt:ident, $to:expr, $from:expr) => {
        impl Element for $t {
            const DTYPE: DType = DType::$dt;
            #[inline]
            fn to_scalar(self) -> Scalar {
                #[allow(clippy::redundant_closure_call)]
                ($to)(self)
            }
            #[inline]
            fn from_scalar(s: Scalar) -> Self {
                #[allow(clippy::redundant_closure_call)]
                ($from)(s)
            }
            fn into_buffer(v: Vec<Self>) -> HostBuffer {
                HostBuffer::$dt(v)
            }
            fn slice_of(b: &HostBuffer) -> Option<&[Self]> {
                match b {
                    HostBuffer::$dt(v) => Some(v),
                    _ => None,
                }
            }
            fn slice_of_mut(b: &mut HostBuffer) -> Option<&mut [Self]> {
                match b {
                    HostBuffer::$dt(v) => Some(v),
                    _ => None,
                }
            }
        }
        impl From<Vec<$t>> for HostBuffer {
            fn from(v: Vec<$t>) -> Self {
                HostBuffer::$dt(v)
            }
        }
    };
}

impl_element!(bool, Bool, Scalar::Bool, |s: Scalar| s.is_nonzero());
impl_element!(i8, I8, Scalar::from, |s: Scalar| s.to_i64() as i8);
impl_element!(i16, I16, Scalar::from, |s: Scalar| s.to_i64() as i16);
impl_element!(i32, I32, Scalar::from, |s: Scalar| s.to_i64() as i32);
impl_element!(i64, I64, Scalar::from, |s: Scalar| s.to_i64());
impl_element!(u8, U8, Scalar::from, |s: Scalar| s.to_u64() as u8);
impl_element!(u16, U16, Scalar::from, |s: Scalar| s.to_u64() as u16);
impl_element!(u32, U32, Scalar::from, |s: Scalar| s.to_u64() as u32);
impl_element!(u64, U64, Scalar::from, |s: Scalar| s.to_u64());
impl_element!(f16, F16, Scalar::from, |s: Scalar| f16::from_f64(s.to_f64()));
impl_element!(bf16, BF16, Scalar::from, |s: Scalar| bf16::from_f64(s.to_f64()));
impl_element!(f32, F32, Scalar::from, |s: Scalar| s.to_f64() as f32);
impl_element!(f64, F64, Scalar::from, |s: Scalar| s.to_f64());
impl_element!(Complex32, C64, Scalar::from, |s: Scalar| {
    let c = s.to_c128();
    Complex32::new(c.re as f32, c.im as f32)
});
impl_element!(Complex64, C128, Scalar::from, |s: Scalar| s.to_c128());

/// A contiguous host vector of elements of one dtype.
#[derive(Clone, Debug, PartialEq)]
#[allow(missing_docs)]
pub enum HostBuffer {
    Bool(Vec<bool>),
    I8(Vec<i8>),
    I16(Vec<i16>),
    I32(Vec<i32>),
    I64(Vec<i64>),
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<u32>),
    U64(Vec<u64>),
    F16(Vec<f16>),
    BF16(Vec<bf16>),
    F32(Vec<f32>),
    F64(Vec<f64>),
    C64(Vec<Complex32>),
    C128(Vec<Complex64>),
}

/// Runs `$body` with `$v` bound to the typed vector inside a [`HostBuffer`] (by the binding mode
/// of `$buf`) and `$T` usable as its element type through `Element` methods on values.
#[macro_export]
macro_rules! with_buffer {
    ($buf:expr, $v:ident => $body:expr) => {
        match $buf {
            $crate::HostBuffer::Bool($v) => $body,
            $crate::HostBuffer::I8($v) => $body,
            $crate::HostBuffer::I16($v) => $body,
            $crate::HostBuffer::I32($v) => $body,
            $crate::HostBuffer::I64($v) => $body,
            $crate::HostBuffer::U8($v) => $body,
            $crate::HostBuffer::U16($v) => $body,
            $crate::HostBuffer::U32($v) => $body,
            $crate::HostBuffer::U64($v) => $body,
            $crate::HostBuffer::F16($v) => $body,
            $crate::HostBuffer::BF16($v) => $body,
            $crate::HostBuffer::F32($v) => $body,
            $crate::HostBuffer::F64($v) => $body,
            $crate::HostBuffer::C64($v) => $body,
            $crate::HostBuffer::C128($v) => $body,
        }
    };
}

/// Runs `$body` with the type alias `$T` set to the element type of `$dtype`.
#[macro_export]
macro_rules! with_dtype {
    ($dtype:expr, $T:ident => $body:expr) => {
        $crate::__dtype_arms!($dtype, $T, $body; Bool bool, I8 i8, I16 i16, I32 i32, I64 i64, U8 u8,
            U16 u16, U32 u32, U64 u64, F16 $crate::f16, BF16 $crate::bf16, F32 f32, F64 f64,
            C64 $crate::Complex32, C128 $crate::Complex64)
    };
}

/// The match behind [`with_dtype!`]: one arm per (variant, element type) pair.
#[doc(hidden)]
#[macro_export]
macro_rules! __dtype_arms {
    ($dtype:expr, $T:ident, $body:expr; $($v:ident $ty:ty),*) => {
        match $dtype {
            $($crate::DType::$v => {
                type $T = $ty;
                $body
            })*
        }
    };
}

impl HostBuffer {
    /// The dtype of the elements.
    pub fn dtype(&self) -> DType {
        fn d<T: Element>(_: &[T]) -> DType {
            T::DTYPE
        }
        with_buffer!(self, v => d(v))
    }
    /// Number of elements.
    pub fn len(&self) -> usize {
        with_buffer!(self, v => v.len())
    }
    /// True when the buffer holds no element.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// A buffer of `n` copies of `value` converted to `dtype`.
    pub fn full(n: usize, value: Scalar, dtype: DType) -> HostBuffer {
        with_dtype!(dtype, T => T::into_buffer(vec![T::from_scalar(value); n]))
    }
    /// A buffer of `dtype` built from `n` values produced by `f(i)`.
    pub fn from_fn(n: usize, dtype: DType, f: impl Fn(usize) -> Scalar) -> HostBuffer {
        with_dtype!(dtype, T => T::into_buffer((0..n).map(|i| T::from_scalar(f(i))).collect()))
    }
    /// `n` elements `start + i * step` converted to `dtype` (arange, linspace): exact integer
    /// arithmetic when the dtype and both arguments are integers, complex when either argument or
    /// the dtype is, float64 otherwise.
    pub fn affine(n: usize, start: Scalar, step: Scalar, dtype: DType) -> HostBuffer {
        let int = |s: &Scalar| matches!(s, Scalar::Int(_) | Scalar::Uint(_));
        let cplx = |s: &Scalar| matches!(s, Scalar::Complex(_));
        if dtype.is_integer() && int(&start) && int(&step) {
            let (s, d) = (start.to_i64(), step.to_i64());
            HostBuffer::from_fn(n, dtype, |i| Scalar::Int(s.wrapping_add(d.wrapping_mul(i as i64))))
        } else if dtype.is_complex() || cplx(&start) || cplx(&step) {
            let (s, d) = (start.to_c128(), step.to_c128());
            HostBuffer::from_fn(n, dtype, |i| Scalar::Complex(s + d * i as f64))
        } else {
            let (s, d) = (start.to_f64(), step.to_f64());
            HostBuffer::from_fn(n, dtype, |i| Scalar::Float(s + d * i as f64))
        }
    }
    /// Element `i` as a [`Scalar`] (None when out of range).
    pub fn get(&self, i: usize) -> Option<Scalar> {
        with_buffer!(self, v => v.get(i).map(|x| x.to_scalar()))
    }
}
