//! Value clean-up: NumPy's `nan_to_num` and `around`/`round`.
//!
//! ```
//! use xp::{Array, NanToNum};
//! let x = Array::from_vec(vec![f64::NAN, f64::INFINITY, -f64::INFINITY, 2.5], &[4]).unwrap();
//! let y = xp::nan_to_num(&x, NanToNum::default()).unwrap().to_vec::<f64>().unwrap();
//! assert_eq!(y, vec![0.0, f64::MAX, f64::MIN, 2.5]);
//! let r = xp::around(&Array::from_vec(vec![0.125, 2.5, 1234.5], &[3]).unwrap(), 2).unwrap();
//! assert_eq!(r.to_vec::<f64>().unwrap(), vec![0.12, 2.5, 1234.5]);
//! ```
use crate::Array;
use xp_core::{Complex64, DType, Kind, Result};

/// What [`nan_to_num`] puts in place of NaN and the infinities; `Default` is NumPy's: 0.0 for NaN,
/// the dtype's largest finite value for +inf and its most negative for -inf.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NanToNum {
    /// the value for NaN
    pub nan: f64,
    /// the value for +inf (`None`: the largest finite value of the dtype)
    pub posinf: Option<f64>,
    /// the value for -inf (`None`: the most negative finite value of the dtype)
    pub neginf: Option<f64>,
}

fn largest_finite(d: DType) -> f64 {
    match d {
        DType::F16 => 65504.0,
        DType::BF16 => 3.3895313892515355e38,
        DType::F32 | DType::C64 => f32::MAX as f64,
        _ => f64::MAX,
    }
}

fn replace_real(x: &Array, v: NanToNum) -> Result<Array> {
    let big = largest_finite(x.dtype());
    let y = crate::where_(&x.isnan()?, v.nan, x)?;
    let pos = x.isinf()?.logical_and(&x.gt(0.0)?)?;
    let y = crate::where_(&pos, v.posinf.unwrap_or(big), &y)?;
    let neg = x.isinf()?.logical_and(&x.lt(0.0)?)?;
    crate::where_(&neg, v.neginf.unwrap_or(-big), &y)?.astype(x.dtype())
}

/// NaN, +inf and -inf replaced by finite numbers (NumPy `nan_to_num(x, copy=True, nan, posinf,
/// neginf)`); a complex array has its real and imaginary parts treated separately; integer and
/// bool arrays come back as a copy. The result keeps `x`'s dtype and device.
pub fn nan_to_num(x: &Array, v: NanToNum) -> Result<Array> {
    if let Some(y) = host_nan_to_num(x, v)? {
        return Ok(y);
    }
    match x.dtype().kind() {
        Kind::Float => replace_real(x, v),
        Kind::Complex => {
            let (re, im) = (replace_real(&x.real()?, v)?, replace_real(&x.imag()?, v)?);
            re.astype(x.dtype())?.add(&im.astype(x.dtype())?.mul(Complex64::new(0.0, 1.0))?)?.astype(x.dtype())
        }
        _ => x.copy(),
    }
}

/// Rounded to `decimals` decimal places, halves to even (NumPy `around`/`round`): `rint(x * 10^d)
/// / 10^d`, so like NumPy's the result can differ from the decimal rounding of the printed value
/// (`around(0.125, 2)` is 0.12, `around(2.675, 2)` is 2.67). Negative `decimals` round to tens,
/// hundreds…; integers are returned as they are for `decimals >= 0` and rounded through float64
/// otherwise (exact below 2^53); complex numbers round both parts.
pub fn around(x: &Array, decimals: i32) -> Result<Array> {
    let kind = x.dtype().kind();
    if matches!(kind, Kind::Bool | Kind::Int | Kind::Uint) {
        if decimals >= 0 {
            return x.copy();
        }
        return around(&x.astype(DType::F64)?, decimals)?.astype(x.dtype());
    }
    if let Some(y) = host_around(x, decimals)? {
        return Ok(y);
    }
    if decimals == 0 {
        return x.rint();
    }
    let s = 10f64.powi(decimals.abs());
    if decimals > 0 {
        x.mul(s)?.rint()?.div(s)
    } else {
        x.div(s)?.rint()?.mul(s)
    }
}

/// `f` of every element of a host array of float32/float64 (and complex64/complex128 through
/// `fc`), any layout, into a new C-contiguous array in one parallel pass; None for other dtypes
/// and for device arrays, which take the device-generic path.
fn host_map(
    x: &Array,
    f32: impl Fn(f32) -> f32 + Sync,
    f64: impl Fn(f64) -> f64 + Sync,
    complex: bool,
) -> Result<Option<Array>> {
    use crate::backend::Storage;
    use xp_core::HostBuffer as H;
    use xp_cpu::iter::map1;
    if x.device() != xp_core::Device::Cpu {
        return Ok(None);
    }
    let g = x.read();
    let Storage::Cpu(st) = &*g else { return Ok(None) };
    let l = &x.layout;
    let out = match &st.0 {
        H::F32(v) => H::F32(map1(v, l, &f32)),
        H::F64(v) => H::F64(map1(v, l, &f64)),
        H::C64(v) if complex => H::C64(map1(v, l, |z| xp_core::Complex32::new(f32(z.re), f32(z.im)))),
        H::C128(v) if complex => H::C128(map1(v, l, |z| Complex64::new(f64(z.re), f64(z.im)))),
        _ => return Ok(None),
    };
    drop(g);
    Array::from_buffer(out, x.shape(), xp_core::Device::Cpu).map(Some)
}

/// [`nan_to_num`] of a host float32/float64/complex array: one pass with the three tests per
/// element (the general path's three predicates and three `where`s were six passes, 0.27x
/// NumPy at 2^22 float32). The replacements are cast to the dtype as NumPy casts them.
fn host_nan_to_num(x: &Array, v: NanToNum) -> Result<Option<Array>> {
    let big = largest_finite(x.dtype());
    let (nan, pos, neg) = (v.nan, v.posinf.unwrap_or(big), v.neginf.unwrap_or(-big));
    let (nan32, pos32, neg32) = (nan as f32, pos as f32, neg as f32);
    // three selects, no branch (NaNs scattered through the data would mispredict)
    let f32 = move |a: f32| {
        let r = if a == f32::INFINITY { pos32 } else { a };
        let r = if a == f32::NEG_INFINITY { neg32 } else { r };
        if a.is_nan() {
            nan32
        } else {
            r
        }
    };
    // three selects, no branch (NaNs scattered through the data would mispredict)
    let f64 = move |a: f64| {
        let r = if a == f64::INFINITY { pos } else { a };
        let r = if a == f64::NEG_INFINITY { neg } else { r };
        if a.is_nan() {
            nan
        } else {
            r
        }
    };
    host_map(x, f32, f64, true)
}

/// Round half to even for `|x| < 2^52` by the float64 magic number (exact: adding 2^52 to a
/// magnitude below it leaves no fraction bits, and the default rounding mode breaks ties to
/// even), `x` itself above (already integral, infinite or NaN); the sign is kept, so -0.3 gives
/// -0.0 as `rint`. Vectorises on the baseline x86-64 target, where `round_ties_even` is a call.
#[inline(always)]
fn rint64(x: f64) -> f64 {
    const M: f64 = 4503599627370496.0; // 2^52
    let a = x.abs();
    if a < M {
        ((a + M) - M).copysign(x)
    } else {
        x
    }
}

/// [`rint64`] for float32 (2^23).
#[inline(always)]
fn rint32(x: f32) -> f32 {
    const M: f32 = 8388608.0; // 2^23
    let a = x.abs();
    if a < M {
        ((a + M) - M).copysign(x)
    } else {
        x
    }
}

/// [`around`] of a host float32/float64/complex array: `rint(x * 10^d) / 10^d` (or `* 10^-d`
/// for negative `d`) in the array's dtype as NumPy computes it, in one pass (three passes with
/// `rint` through a function pointer ran at 0.21x NumPy at 2^22 float32).
fn host_around(x: &Array, decimals: i32) -> Result<Option<Array>> {
    let s = 10f64.powi(decimals.abs());
    let s32 = s as f32;
    match decimals {
        0 => host_map(x, rint32, rint64, true),
        d if d > 0 => host_map(x, move |a| rint32(a * s32) / s32, move |a| rint64(a * s) / s, true),
        _ => host_map(x, move |a| rint32(a / s32) * s32, move |a| rint64(a / s) * s, true),
    }
}

impl Array {
    /// [`around`] as a method: `x.round(2)`.
    pub fn round(&self, decimals: i32) -> Result<Array> {
        around(self, decimals)
    }
}
