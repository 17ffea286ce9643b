//! Shape arguments in one form everywhere: `usize` or `isize` dimensions, as an array literal,
//! a slice, a `Vec` or a single length, so that a shape read from one array (`a.shape()`, a
//! `&[usize]`) or computed in signed arithmetic (`Vec<isize>`) goes straight into creation,
//! `reshape` and `broadcast_to` without a conversion.
//!
//! ```
//! let a = xp::zeros([2, 3], None).unwrap();              // float64, as NumPy's default
//! let signed: Vec<isize> = vec![3, 2];
//! assert_eq!(a.reshape(&signed).unwrap().shape(), &[3, 2]);
//! assert_eq!(a.reshape([-1]).unwrap().shape(), &[6]);     // one dimension may be -1
//! let n: usize = 6;
//! assert_eq!(a.reshape([n, 1]).unwrap().shape(), &[6, 1]);
//! let b = xp::ones(a.shape(), xp::DType::I32).unwrap();  // a shape read from another array
//! assert_eq!(xp::empty(4, None).unwrap().shape(), &[4]);
//! assert!(xp::zeros(&[-2isize, 3][..], None).is_err());  // a typed error, not a panic
//! # let _ = b;
//! ```
//!
//! Array literals are `usize` for creation (so `&[]` is the 0-d shape) and `usize`, `isize` or
//! `i32` for `reshape` (so that `[-1, 3]` needs no suffix); slices and `Vec`s of `usize`, `isize`
//! or `i32` (what `vec![3; n]` infers) are accepted by both.
use smallvec::SmallVec;
use xp_core::{Error, Result};

/// Dimensions as given, before validation (negative values are kept to be refused or, in
/// `reshape`, resolved).
#[doc(hidden)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dims(pub(crate) SmallVec<[i64; 6]>);

/// One dimension: an unsigned or signed integer.
#[doc(hidden)]
pub trait Dim: Copy {
    /// The value as `i64` (saturating: no real dimension reaches `i64::MAX`).
    fn as_dim(self) -> i64;
}
macro_rules! dim {
    ($($t:ty),*) => {$(
        impl Dim for $t {
            fn as_dim(self) -> i64 {
                i64::try_from(self).unwrap_or(i64::MAX)
            }
        }
    )*};
}
dim!(usize, isize, i32, i64, u32, u64);

fn collect<T: Dim>(s: &[T]) -> Dims {
    Dims(s.iter().map(|d| d.as_dim()).collect())
}

/// A shape for creation (`zeros`, `from_vec`, `broadcast_to`, random sizes, ...): array literals
/// of `usize`, slices and `Vec`s of `usize`, `isize` or `i32`, or one length.
pub trait IntoShape {
    #[doc(hidden)]
    fn into_dims(self) -> Dims;
}
/// A target shape for `reshape`, where one dimension may be `-1`: array literals of `usize`,
/// `isize` or `i32`, slices and `Vec`s of `usize`, `isize` or `i32`.
pub trait IntoNewShape {
    #[doc(hidden)]
    fn into_dims(self) -> Dims;
}

macro_rules! both {
    ($($t:ty),*) => {$(
        impl IntoShape for &[$t] {
            fn into_dims(self) -> Dims { collect(self) }
        }
        impl IntoShape for Vec<$t> {
            fn into_dims(self) -> Dims { collect(&self) }
        }
        impl IntoShape for &Vec<$t> {
            fn into_dims(self) -> Dims { collect(self) }
        }
        impl IntoNewShape for &[$t] {
            fn into_dims(self) -> Dims { collect(self) }
        }
        impl IntoNewShape for Vec<$t> {
            fn into_dims(self) -> Dims { collect(&self) }
        }
        impl IntoNewShape for &Vec<$t> {
            fn into_dims(self) -> Dims { collect(self) }
        }
    )*};
}
both!(usize, isize, i32);

impl<const N: usize> IntoShape for [usize; N] {
    fn into_dims(self) -> Dims {
        collect(&self)
    }
}
impl<const N: usize> IntoShape for &[usize; N] {
    fn into_dims(self) -> Dims {
        collect(self)
    }
}
impl IntoShape for usize {
    fn into_dims(self) -> Dims {
        collect(&[self])
    }
}
impl IntoShape for &Dims {
    fn into_dims(self) -> Dims {
        self.clone()
    }
}

macro_rules! new_shape_arrays {
    ($($t:ty),*) => {$(
        impl<const N: usize> IntoNewShape for [$t; N] {
            fn into_dims(self) -> Dims { collect(&self) }
        }
        impl<const N: usize> IntoNewShape for &[$t; N] {
            fn into_dims(self) -> Dims { collect(self) }
        }
    )*};
}
new_shape_arrays!(usize, isize, i32);

impl Dims {
    /// The dimensions as a shape, refusing negative ones as NumPy does.
    pub(crate) fn shape(&self, op: &'static str) -> Result<Vec<usize>> {
        if self.0.iter().any(|&d| d < 0) {
            return Err(Error::invalid(op, format!("negative dimensions are not allowed: {:?}", self.0)));
        }
        Ok(self.0.iter().map(|&d| usize::try_from(d).unwrap_or(usize::MAX)).collect())
    }
}

/// `shape` validated for `op`: every dimension ≥ 0.
pub(crate) fn shape_of(op: &'static str, shape: impl IntoShape) -> Result<Vec<usize>> {
    shape.into_dims().shape(op)
}
