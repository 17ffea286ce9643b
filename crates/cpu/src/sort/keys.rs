//! Order-preserving unsigned keys: unsigned ascending order of `key(x)` is NumPy's sort order
//! (NaNs last whatever their sign or payload, `-0.0` equal to `+0.0`, complex numbers in the
//! extended order `[R + Rj, R + nanj, nan + Rj, nan + nanj]`, each class lexicographic).
//! A key joined with a 32-bit position (`wide`) is unique, so an unstable radix sort of wide keys
//! is a stable argsort.
use num_complex::Complex32;
use std::cmp::Ordering;
use xp_core::{bf16, f16, Element};

/// An unsigned key type, and its widening with a position.
pub(crate) trait Key: Copy + Default + Ord + Send + Sync + rdst::RadixKey + 'static {
    /// the key with a 32-bit position below it
    type Wide: Copy + Default + Ord + Send + Sync + rdst::RadixKey + 'static;
    fn wide(self, i: u32) -> Self::Wide;
    fn position(w: Self::Wide) -> u32;
}

macro_rules! key_into {
    ($k:ty, $w:ty) => {
        impl Key for $k {
            type Wide = $w;
            #[inline]
            fn wide(self, i: u32) -> $w {
                ((self as $w) << 32) | i as $w
            }
            #[inline]
            fn position(w: $w) -> u32 {
                w as u32
            }
        }
    };
}
key_into!(u8, u64);
key_into!(u16, u64);
key_into!(u32, u64);
key_into!(u64, u128);
key_into!(u128, u128); // complex64 keys use 66 bits, so the position fits below them

/// An element type with an order-preserving key.
pub(crate) trait Sortable: Element {
    type K: Key;
    fn key(self) -> Self::K;
    /// The value of a key (a NaN key gives a NaN, `+0.0` for either zero).
    fn from_key(k: Self::K) -> Self;
}

impl Sortable for bool {
    type K = u8;
    fn key(self) -> u8 {
        self as u8
    }
    fn from_key(k: u8) -> bool {
        k != 0
    }
}

macro_rules! unsigned {
    ($($t:ty),*) => {$(
        impl Sortable for $t {
            type K = $t;
            #[inline]
            fn key(self) -> $t { self }
            #[inline]
            fn from_key(k: $t) -> $t { k }
        }
    )*};
}
unsigned!(u8, u16, u32, u64);

macro_rules! signed {
    ($($t:ty => $u:ty),*) => {$(
        impl Sortable for $t {
            type K = $u;
            #[inline]
            fn key(self) -> $u { (self as $u) ^ (1 << (<$u>::BITS - 1)) }
            #[inline]
            fn from_key(k: $u) -> $t { (k ^ (1 << (<$u>::BITS - 1))) as $t }
        }
    )*};
}
signed!(i8 => u8, i16 => u16, i32 => u32, i64 => u64);

/// The key of a float's bits: sign-flipped, NaN above +inf, -0 as +0.
macro_rules! float_key {
    ($bits:expr, $nan:expr, $zero:expr, $u:ty) => {{
        let (b, top): ($u, $u) = ($bits, 1 << (<$u>::BITS - 1));
        if $nan {
            <$u>::MAX
        } else if $zero {
            top
        } else if b & top != 0 {
            !b
        } else {
            b | top
        }
    }};
}
macro_rules! float_from_key {
    ($k:expr, $u:ty) => {{
        let (k, top): ($u, $u) = ($k, 1 << (<$u>::BITS - 1));
        if k == <$u>::MAX {
            None
        } else if k & top != 0 {
            Some(k ^ top)
        } else {
            Some(!k)
        }
    }};
}

impl Sortable for f32 {
    type K = u32;
    #[inline]
    fn key(self) -> u32 {
        float_key!(self.to_bits(), self.is_nan(), self == 0.0, u32)
    }
    #[inline]
    fn from_key(k: u32) -> f32 {
        float_from_key!(k, u32).map_or(f32::NAN, f32::from_bits)
    }
}
impl Sortable for f64 {
    type K = u64;
    #[inline]
    fn key(self) -> u64 {
        float_key!(self.to_bits(), self.is_nan(), self == 0.0, u64)
    }
    #[inline]
    fn from_key(k: u64) -> f64 {
        float_from_key!(k, u64).map_or(f64::NAN, f64::from_bits)
    }
}
impl Sortable for f16 {
    type K = u16;
    fn key(self) -> u16 {
        float_key!(self.to_bits(), self.is_nan(), self.to_bits() & 0x7fff == 0, u16)
    }
    fn from_key(k: u16) -> f16 {
        float_from_key!(k, u16).map_or(f16::NAN, f16::from_bits)
    }
}
impl Sortable for bf16 {
    type K = u16;
    fn key(self) -> u16 {
        float_key!(self.to_bits(), self.is_nan(), self.to_bits() & 0x7fff == 0, u16)
    }
    fn from_key(k: u16) -> bf16 {
        float_from_key!(k, u16).map_or(bf16::NAN, bf16::from_bits)
    }
}
impl Sortable for Complex32 {
    type K = u128;
    fn key(self) -> u128 {
        let class = ((self.re.is_nan() as u128) << 1) | self.im.is_nan() as u128;
        (class << 64) | ((self.re.key() as u128) << 32) | self.im.key() as u128
    }
    fn from_key(k: u128) -> Complex32 {
        Complex32::new(f32::from_key((k >> 32) as u32), f32::from_key(k as u32))
    }
}

/// NumPy's total order on complex128 (the one dtype whose key does not fit 128 bits with a
/// position): class (which parts are NaN), then real, then imaginary.
pub(crate) fn cmp_c128(a: &num_complex::Complex64, b: &num_complex::Complex64) -> Ordering {
    let class = |z: &num_complex::Complex64| ((z.re.is_nan() as u8) << 1) | z.im.is_nan() as u8;
    class(a).cmp(&class(b)).then(a.re.key().cmp(&b.re.key())).then(a.im.key().cmp(&b.im.key()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check<T: Sortable + std::fmt::Debug>(sorted: &[T]) {
        for w in sorted.windows(2) {
            assert!(w[0].key() <= w[1].key(), "{:?} !<= {:?}", w[0], w[1]);
        }
    }

    #[test]
    fn keys_follow_numpys_order() {
        let tiny = f32::from_bits(1);
        check(&[
            f32::NEG_INFINITY,
            f32::MIN,
            -1.0,
            -tiny,
            -0.0,
            0.0,
            tiny,
            1.0,
            f32::MAX,
            f32::INFINITY,
            f32::NAN,
            -f32::NAN,
        ]);
        check(&[f64::NEG_INFINITY, -1.0, -0.0, 0.0, 1.0, f64::INFINITY, f64::NAN, -f64::NAN]);
        check(&[i8::MIN, -1, 0, 1, i8::MAX]);
        check(&[i64::MIN, -1, 0, 1, i64::MAX]);
        check(&[
            f16::NEG_INFINITY,
            f16::from_f32(-1.0),
            f16::from_f32(-0.0),
            f16::ZERO,
            f16::ONE,
            f16::INFINITY,
            f16::NAN,
        ]);
        check(&[false, true]);
        let c = |a: f32, b: f32| Complex32::new(a, b);
        let n = f32::NAN;
        check(&[c(-1.0, 5.0), c(1.0, -1.0), c(1.0, 2.0), c(-5.0, n), c(3.0, n), c(n, -2.0), c(n, 1.0), c(n, n)]);
        assert_eq!((-0.0f32).key(), 0.0f32.key());
        assert_eq!(f32::NAN.key(), (-f32::NAN).key());
        for x in [-3.5f32, -0.0, 0.0, 7.25, f32::INFINITY] {
            assert_eq!(f32::from_key(x.key()), x);
        }
        assert!(f32::from_key(f32::NAN.key()).is_nan());
        for x in [i16::MIN, -7, 0, 9, i16::MAX] {
            assert_eq!(i16::from_key(x.key()), x);
        }
    }
}
