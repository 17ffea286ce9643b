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

impl Array {
    /// [`around`] as a method: `x.round(2)`.
    pub fn round(&self, decimals: i32) -> Result<Array> {
        around(self, decimals)
    }
}
