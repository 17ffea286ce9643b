//! NumPy 2 type promotion: `promote_types` for two dtypes, weak Rust scalars (treated as NumPy 2
//! treats Python scalars), safe casting, and ufunc loop selection.
//!
//! ```
//! use xp_core::{promote_types, promote_weak, DType, Scalar};
//! assert_eq!(promote_types(DType::I8, DType::U8), DType::I16);
//! assert_eq!(promote_types(DType::I64, DType::U64), DType::F64);
//! assert_eq!(promote_weak(DType::U8, &Scalar::Int(1)), DType::U8);
//! assert_eq!(promote_weak(DType::F32, &Scalar::Float(1.0)), DType::F32);
//! assert_eq!(promote_weak(DType::I8, &Scalar::Float(1.5)), DType::F64);
//! ```
use crate::{DType, Kind, Scalar};

/// How much floating-point precision a dtype needs when it meets a float (bits, flavour).
fn float_need(d: DType) -> (u32, u8) {
    // flavour of 16-bit: 0 = either, 1 = float16, 2 = bfloat16
    match d {
        DType::Bool => (0, 0),
        DType::I8 | DType::U8 => (16, 0),
        DType::I16 | DType::U16 => (32, 0),
        DType::I32 | DType::U32 | DType::I64 | DType::U64 => (64, 0),
        DType::F16 => (16, 1),
        DType::BF16 => (16, 2),
        DType::F32 | DType::C64 => (32, 0),
        DType::F64 | DType::C128 => (64, 0),
    }
}

fn int_of(bits: u32, signed: bool) -> DType {
    match (bits, signed) {
        (8, true) => DType::I8,
        (16, true) => DType::I16,
        (32, true) => DType::I32,
        (64, true) => DType::I64,
        (8, false) => DType::U8,
        (16, false) => DType::U16,
        (32, false) => DType::U32,
        _ => DType::U64,
    }
}

/// The smallest dtype both `a` and `b` cast to safely (NumPy's `np.promote_types`). bfloat16
/// follows ml_dtypes: with float16 it gives float32, with (u)int8 and bool it stays bfloat16.
pub fn promote_types(a: DType, b: DType) -> DType {
    use Kind::*;
    if a == b {
        return a;
    }
    match (a.kind(), b.kind()) {
        (Bool, _) => return b,
        (_, Bool) => return a,
        (Int, Int) | (Uint, Uint) => return if a.bits() >= b.bits() { a } else { b },
        (Int, Uint) | (Uint, Int) => {
            let (s, u) = if a.kind() == Int { (a, b) } else { (b, a) };
            return if u.bits() < s.bits() {
                s
            } else if u.bits() < 64 {
                int_of(u.bits() * 2, true)
            } else {
                DType::F64
            };
        }
        _ => {}
    }
    let (ba, fa) = float_need(a);
    let (bb, fb) = float_need(b);
    let bits = ba.max(bb);
    let real = match bits {
        16 => match (fa, fb) {
            (1, 2) | (2, 1) => DType::F32,
            (2, _) | (_, 2) => DType::BF16,
            _ => DType::F16,
        },
        32 => DType::F32,
        _ => DType::F64,
    };
    if a.is_complex() || b.is_complex() {
        real.to_complex()
    } else {
        real
    }
}

/// True when every value of `from` is representable in `to` (NumPy's `can_cast(.., 'safe')`).
pub fn can_cast_safe(from: DType, to: DType) -> bool {
    promote_types(from, to) == to
}

/// The result dtype of an array of dtype `array` combined with a weak Rust scalar, as NumPy 2
/// combines an array with a Python scalar: the scalar adopts the array's dtype when its kind is
/// not higher; a higher kind gives that kind's default (int64, float64, complex128), except
/// float with complex, which keeps the array's precision.
pub fn promote_weak(array: DType, s: &Scalar) -> DType {
    use Kind::*;
    match (s, array.kind()) {
        (Scalar::Bool(_), _) => array,
        (Scalar::Int(_) | Scalar::Uint(_), Bool) => DType::I64,
        (Scalar::Int(_) | Scalar::Uint(_), _) => array,
        (Scalar::Float(_), Bool | Int | Uint) => DType::F64,
        (Scalar::Float(_), _) => array,
        (Scalar::Complex(_), Bool | Int | Uint) => DType::C128,
        (Scalar::Complex(_), _) => array.to_complex(),
    }
}

/// The default dtype NumPy gives a lone scalar of this kind (bool, int64, float64, complex128).
pub fn default_dtype(s: &Scalar) -> DType {
    match s {
        Scalar::Bool(_) => DType::Bool,
        Scalar::Int(_) => DType::I64,
        Scalar::Uint(u) if *u > i64::MAX as u64 => DType::U64,
        Scalar::Uint(_) => DType::I64,
        Scalar::Float(_) => DType::F64,
        Scalar::Complex(_) => DType::C128,
    }
}

/// The smallest and largest value of an integer dtype (NumPy's `iinfo`); `None` for others.
pub fn int_range(dtype: DType) -> Option<(i128, i128)> {
    Some(match dtype {
        DType::I8 => (i8::MIN as i128, i8::MAX as i128),
        DType::I16 => (i16::MIN as i128, i16::MAX as i128),
        DType::I32 => (i32::MIN as i128, i32::MAX as i128),
        DType::I64 => (i64::MIN as i128, i64::MAX as i128),
        DType::U8 => (0, u8::MAX as i128),
        DType::U16 => (0, u16::MAX as i128),
        DType::U32 => (0, u32::MAX as i128),
        DType::U64 => (0, u64::MAX as i128),
        _ => return None,
    })
}

/// True when an integer scalar fits an integer (or bool) dtype; other combinations always fit.
pub fn scalar_fits(s: &Scalar, dtype: DType) -> bool {
    let Some((lo, hi)) = int_range(dtype) else { return true };
    let v = match s {
        Scalar::Int(i) => *i as i128,
        Scalar::Uint(u) => *u as i128,
        _ => return true,
    };
    (lo..=hi).contains(&v)
}
