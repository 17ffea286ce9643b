//! NumPy's elementwise functions that xp's backends have no loop for, written as compositions of
//! xp's ufuncs (so they run on every device): angle conversion, `fmod`/`divmod`/`modf`,
//! `ldexp`/`frexp`, `float_power`, `logaddexp2`, `heaviside`, `signbit`, `gcd`/`lcm`, the
//! infinity and complex tests, `real_if_close`, `nextafter` and `spacing`.
//!
//! Loop dtypes are NumPy's: a float-only function takes the first float loop the input casts to
//! safely (int8 → float16, int16 → float32, int64 → float64) and refuses complex input with
//! [`Error::InvalidDType`]; two operands promote as NumPy 2 does, Rust scalars weakly.
//!
//! ```
//! use xp::Array;
//! let x = Array::from_vec(vec![-7i32, 7], [2]).unwrap();
//! assert_eq!(xp::fmod(&x, 3).unwrap().to_vec::<i32>().unwrap(), vec![-1, 1]);
//! assert_eq!(xp::remainder(&x, 3).unwrap().to_vec::<i32>().unwrap(), vec![2, 1]);
//! let r = xp::degrees(&Array::from_vec(vec![std::f64::consts::PI], [1]).unwrap()).unwrap();
//! assert!((r.to_vec::<f64>().unwrap()[0] - 180.0).abs() < 1e-12);
//! ```
use crate::ufunc::{materialize, Operand};
use crate::{where_, Array};
use xp_core::{default_dtype, promote_weak, BinaryOp, DType, Error, Kind, Result, UnaryOp};

/// The two operands as arrays of their NumPy 2 promoted dtype (a Rust scalar is weak).
fn pair<'a, 'b>(op: &'static str, a: impl Into<Operand<'a>>, b: impl Into<Operand<'b>>) -> Result<(Array, Array)> {
    let (a, b) = (a.into(), b.into());
    let dev = match (&a, &b) {
        (Operand::Array(x), Operand::Array(y)) if x.device() != y.device() => {
            return Err(Error::DeviceMismatch { op, lhs: x.device(), rhs: y.device() })
        }
        (Operand::Array(x), _) | (_, Operand::Array(x)) => x.device(),
        _ => xp_core::Device::Cpu,
    };
    let dt = |o: &Operand, other: &Operand| match (o, other) {
        (Operand::Array(x), _) => x.dtype(),
        (Operand::Scalar(s), Operand::Array(y)) => promote_weak(y.dtype(), s),
        (Operand::Scalar(s), _) => default_dtype(s),
    };
    let (da, db) = (dt(&a, &b), dt(&b, &a));
    let d = xp_core::promote_types(da, db);
    Ok((materialize(&a, d, dev)?, materialize(&b, d, dev)?))
}

/// NumPy's float loop for a float-only unary function (`e`, `f`, `d`): complex refused.
fn float_loop(op: &'static str, d: DType) -> Result<DType> {
    let (l, _) = UnaryOp::Sin.resolve(d).map_err(|e| e.in_op(op))?;
    if l.is_complex() {
        return Err(Error::InvalidDType { op, dtype: d });
    }
    Ok(l)
}

/// Radians to degrees (NumPy `degrees`, the same as `rad2deg`): `x · 180/π` in NumPy's float
/// loop (int8 → float16, int16 → float32, wider integers → float64); complex is refused.
///
/// ```
/// let x = xp::Array::from_vec(vec![0.0f32, std::f32::consts::FRAC_PI_2], [2]).unwrap();
/// let d = xp::degrees(&x).unwrap();
/// assert_eq!(d.dtype(), xp::DType::F32);
/// assert_eq!(d.to_vec::<f32>().unwrap(), vec![0.0, 90.0]);
/// ```
pub fn degrees(x: &Array) -> Result<Array> {
    x.cast_if(float_loop("degrees", x.dtype())?)?.mul(180.0 / std::f64::consts::PI)
}

/// Degrees to radians (NumPy `radians`, the same as `deg2rad`): `x · π/180` in NumPy's float loop.
///
/// ```
/// let x = xp::Array::from_vec(vec![180i64], [1]).unwrap();
/// assert_eq!(xp::radians(&x).unwrap().to_vec::<f64>().unwrap(), vec![std::f64::consts::PI]);
/// ```
pub fn radians(x: &Array) -> Result<Array> {
    x.cast_if(float_loop("radians", x.dtype())?)?.mul(std::f64::consts::PI / 180.0)
}

/// NumPy `rad2deg`: [`degrees`].
///
/// ```
/// let x = xp::Array::from_vec(vec![std::f64::consts::PI], [1]).unwrap();
/// assert_eq!(xp::rad2deg(&x).unwrap().to_vec::<f64>().unwrap(), vec![180.0]);
/// ```
pub fn rad2deg(x: &Array) -> Result<Array> {
    degrees(x)
}

/// NumPy `deg2rad`: [`radians`].
///
/// ```
/// let x = xp::Array::from_vec(vec![90.0], [1]).unwrap();
/// assert_eq!(xp::deg2rad(&x).unwrap().to_vec::<f64>().unwrap(), vec![std::f64::consts::FRAC_PI_2]);
/// ```
pub fn deg2rad(x: &Array) -> Result<Array> {
    radians(x)
}

/// C's remainder `fmod(a, b)`: the sign of the dividend `a` (NumPy `fmod`; [`crate::remainder`]
/// has the divisor's sign). Integer division by zero gives 0 and float division by zero NaN, as
/// in NumPy; complex is refused.
///
/// ```
/// let a = xp::Array::from_vec(vec![-3.5, 3.5], [2]).unwrap();
/// assert_eq!(xp::fmod(&a, 2.0).unwrap().to_vec::<f64>().unwrap(), vec![-1.5, 1.5]);
/// ```
pub fn fmod<'a, 'b>(a: impl Into<Operand<'a>>, b: impl Into<Operand<'b>>) -> Result<Array> {
    let (a, b) = pair("fmod", a, b)?;
    let (l, _) = BinaryOp::Rem.resolve(a.dtype(), b.dtype()).map_err(|e| e.in_op("fmod"))?;
    let (a, b) = (a.cast_if(l)?, b.cast_if(l)?);
    match l.kind() {
        // |a| mod |b| is C's fmod of the magnitudes; the sign is the dividend's
        Kind::Float => a.abs()?.remainder(&b.abs()?)?.copysign(&a)?.cast_if(l),
        Kind::Int => {
            let r = a.remainder(&b)?;
            let fix = r.ne(0)?.logical_and(&r.lt(0)?.logical_xor(&a.lt(0)?)?)?;
            where_(&fix, &r.sub(&b)?, &r)?.cast_if(l)
        }
        _ => a.remainder(&b),
    }
}

/// NumPy `divmod(a, b)`: `(floor_divide(a, b), remainder(a, b))`.
///
/// ```
/// let a = xp::Array::from_vec(vec![7, -7], [2]).unwrap();
/// let (q, r) = xp::divmod(&a, 2).unwrap();
/// assert_eq!(q.to_vec::<i32>().unwrap(), vec![3, -4]);
/// assert_eq!(r.to_vec::<i32>().unwrap(), vec![1, 1]);
/// ```
pub fn divmod<'a, 'b>(a: impl Into<Operand<'a>>, b: impl Into<Operand<'b>>) -> Result<(Array, Array)> {
    let (a, b) = pair("divmod", a, b)?;
    Ok((a.floor_divide(&b)?, a.remainder(&b)?))
}

/// NumPy `modf(x)`: `(fractional, integral)` parts, both with the sign of `x` (`modf(-inf)` is
/// `(-0.0, -inf)`), in NumPy's float loop.
///
/// ```
/// let x = xp::Array::from_vec(vec![-2.5, 3.0], [2]).unwrap();
/// let (f, i) = xp::modf(&x).unwrap();
/// assert_eq!(f.to_vec::<f64>().unwrap(), vec![-0.5, 0.0]);
/// assert_eq!(i.to_vec::<f64>().unwrap(), vec![-2.0, 3.0]);
/// ```
pub fn modf(x: &Array) -> Result<(Array, Array)> {
    let x = x.cast_if(float_loop("modf", x.dtype())?)?;
    let i = x.trunc()?;
    let f = where_(&x.isinf()?, 0.0, &x.sub(&i)?)?.copysign(&x)?.cast_if(x.dtype())?;
    Ok((f, i))
}

/// `2^k` exactly for integral float64 `k` in `[-3000, 3000]`, as three factors each a normal number.
fn pow2_parts(k: &Array) -> Result<[Array; 3]> {
    let k = k.astype(DType::I64)?.clip(Some(-3000), Some(3000))?;
    let k1 = k.floor_divide(3)?;
    let k2 = k.sub(&k1)?.floor_divide(2)?;
    let k3 = k.sub(&k1)?.sub(&k2)?;
    let e = |k: &Array| k.astype(DType::F64)?.exp2();
    Ok([e(&k1)?, e(&k2)?, e(&k3)?])
}

/// `x · 2^k` exactly (rounded once) in float64.
fn scale2(x: &Array, k: &Array) -> Result<Array> {
    let [a, b, c] = pow2_parts(k)?;
    x.mul(&a)?.mul(&b)?.mul(&c)
}

/// NumPy `ldexp(x, i)`: `x · 2^i`, rounded once, in `x`'s float loop (int8 → float16 ...); `i`
/// must be an integer array or scalar ([`Error::InvalidDType`] otherwise).
///
/// ```
/// let x = xp::Array::from_vec(vec![1.5f32, -3.0], [2]).unwrap();
/// let y = xp::ldexp(&x, 3).unwrap();
/// assert_eq!((y.dtype(), y.to_vec::<f32>().unwrap()), (xp::DType::F32, vec![12.0, -24.0]));
/// ```
pub fn ldexp<'b>(x: &Array, i: impl Into<Operand<'b>>) -> Result<Array> {
    let l = float_loop("ldexp", x.dtype())?;
    let i = match i.into() {
        Operand::Array(a) => a.clone(),
        Operand::Scalar(s) => Array::scalar_on(s, default_dtype(&s), x.device())?,
    };
    if !matches!(i.dtype().kind(), Kind::Int | Kind::Uint | Kind::Bool) {
        return Err(Error::InvalidDType { op: "ldexp", dtype: i.dtype() });
    }
    if x.device() != i.device() {
        return Err(Error::DeviceMismatch { op: "ldexp", lhs: x.device(), rhs: i.device() });
    }
    scale2(&x.astype(DType::F64)?, &i)?.astype(l)
}

/// NumPy `frexp(x)`: `(mantissa, exponent)` with `x = mantissa · 2^exponent`, `0.5 <= |mantissa| <
/// 1`, the exponent int32; zero, infinities and NaN come back as they are with exponent 0.
///
/// ```
/// let x = xp::Array::from_vec(vec![8.0, -0.375, 0.0], [3]).unwrap();
/// let (m, e) = xp::frexp(&x).unwrap();
/// assert_eq!(m.to_vec::<f64>().unwrap(), vec![0.5, -0.75, 0.0]);
/// assert_eq!(e.to_vec::<i32>().unwrap(), vec![4, -1, 0]);
/// ```
pub fn frexp(x: &Array) -> Result<(Array, Array)> {
    let l = float_loop("frexp", x.dtype())?;
    let x = x.astype(DType::F64)?;
    let special = x.eq(0)?.logical_or(&x.isfinite()?.logical_not()?)?;
    let a = where_(&special, 1.0, &x.abs()?)?;
    let mut e = a.log2()?.floor()?.add(1)?.astype(DType::I64)?;
    let mut m = scale2(&a, &e.neg()?)?;
    // log2 may round across a power of two: one correction step either way
    let hi = m.ge(1)?;
    e = where_(&hi, &e.add(1)?, &e)?;
    m = where_(&hi, &m.mul(0.5)?, &m)?;
    let lo = m.lt(0.5)?;
    e = where_(&lo, &e.sub(1)?, &e)?;
    m = where_(&lo, &m.mul(2.0)?, &m)?;
    let m = where_(&special, &x, &m.copysign(&x)?)?.astype(l)?;
    let e = where_(&special, 0, &e)?.astype(DType::I32)?;
    Ok((m, e))
}

/// NumPy `float_power(a, b)`: `a ** b` computed in float64 (complex128 for complex operands),
/// whatever the inputs' precision.
///
/// ```
/// let a = xp::Array::from_vec(vec![2i32, 4], [2]).unwrap();
/// let p = xp::float_power(&a, -1).unwrap();
/// assert_eq!((p.dtype(), p.to_vec::<f64>().unwrap()), (xp::DType::F64, vec![0.5, 0.25]));
/// ```
pub fn float_power<'a, 'b>(a: impl Into<Operand<'a>>, b: impl Into<Operand<'b>>) -> Result<Array> {
    let (a, b) = pair("float_power", a, b)?;
    let d = if a.dtype().is_complex() { DType::C128 } else { DType::F64 };
    a.cast_if(d)?.pow(&b.cast_if(d)?)
}

/// The float loop of a two-operand float-only function (NumPy's `e`, `f`, `d`).
fn float_pair<'a, 'b>(
    op: &'static str,
    a: impl Into<Operand<'a>>,
    b: impl Into<Operand<'b>>,
) -> Result<(Array, Array)> {
    let (a, b) = pair(op, a, b)?;
    let (l, _) = BinaryOp::LogAddExp.resolve(a.dtype(), b.dtype()).map_err(|e| e.in_op(op))?;
    if l.is_complex() {
        return Err(Error::InvalidDType { op, dtype: a.dtype() });
    }
    Ok((a.cast_if(l)?, b.cast_if(l)?))
}

/// NumPy `logaddexp2(a, b)`: `log2(2^a + 2^b)` without overflow or underflow.
///
/// ```
/// let a = xp::Array::from_vec(vec![1.0, 1000.0], [2]).unwrap();
/// assert_eq!(xp::logaddexp2(&a, &a).unwrap().to_vec::<f64>().unwrap(), vec![2.0, 1001.0]);
/// ```
pub fn logaddexp2<'a, 'b>(a: impl Into<Operand<'a>>, b: impl Into<Operand<'b>>) -> Result<Array> {
    let (a, b) = float_pair("logaddexp2", a, b)?;
    let l = a.dtype();
    let m = a.maximum(&b)?;
    let d = a.sub(&b)?.abs()?.neg()?;
    let r = m.add(&d.exp2()?.log1p()?.mul(std::f64::consts::LOG2_E)?)?;
    // equal arguments (the infinities included): x + 1
    let r = where_(&a.eq(&b)?, &a.add(1)?, &r)?;
    r.cast_if(l)
}

/// NumPy `heaviside(x, h0)`: 0 where `x < 0`, `h0` where `x == 0`, 1 where `x > 0`, NaN for NaN.
///
/// ```
/// let x = xp::Array::from_vec(vec![-1.5, 0.0, 2.0], [3]).unwrap();
/// assert_eq!(xp::heaviside(&x, 0.5).unwrap().to_vec::<f64>().unwrap(), vec![0.0, 0.5, 1.0]);
/// ```
pub fn heaviside<'a, 'b>(x: impl Into<Operand<'a>>, h0: impl Into<Operand<'b>>) -> Result<Array> {
    let (x, h) = float_pair("heaviside", x, h0)?;
    let r = where_(&x.lt(0)?, 0, &where_(&x.gt(0)?, 1, &h)?)?;
    where_(&x.isnan()?, &x, &r)?.cast_if(x.dtype())
}

/// NumPy `signbit(x)`: whether the sign bit is set (true for `-0.0` and negative NaN); false for
/// unsigned integers and bool; complex is refused.
///
/// ```
/// let x = xp::Array::from_vec(vec![-0.0, 0.0, -2.0], [3]).unwrap();
/// assert_eq!(xp::signbit(&x).unwrap().to_vec::<bool>().unwrap(), vec![true, false, true]);
/// ```
pub fn signbit(x: &Array) -> Result<Array> {
    match x.dtype().kind() {
        Kind::Float => crate::full_on(x.device(), x.shape(), 1.0, x.dtype())?.copysign(x)?.lt(0),
        Kind::Int => x.lt(0),
        Kind::Uint | Kind::Bool => crate::full_on(x.device(), x.shape(), false, DType::Bool),
        Kind::Complex => Err(Error::InvalidDType { op: "signbit", dtype: x.dtype() }),
    }
}

fn integer_pair<'a, 'b>(
    op: &'static str,
    a: impl Into<Operand<'a>>,
    b: impl Into<Operand<'b>>,
) -> Result<(Array, Array)> {
    let (a, b) = pair(op, a, b)?;
    if !matches!(a.dtype().kind(), Kind::Int | Kind::Uint) {
        return Err(Error::InvalidDType { op, dtype: a.dtype() });
    }
    let shape = xp_core::broadcast_shapes(op, a.shape(), b.shape())?;
    Ok((a.abs()?.broadcast_to(&shape[..])?, b.abs()?.broadcast_to(&shape[..])?))
}

fn euclid(a: Array, b: Array) -> Result<Array> {
    let (mut a, mut b) = (a, b);
    loop {
        let nz = b.ne(0)?;
        if !nz.any(..)?.to_bool()? {
            return Ok(a);
        }
        let r = where_(&nz, &a.remainder(&where_(&nz, &b, 1)?)?, 0)?.cast_if(a.dtype())?;
        a = where_(&nz, &b, &a)?.cast_if(b.dtype())?;
        b = r;
    }
}

/// NumPy `gcd(a, b)`: the greatest common divisor of `|a|` and `|b|` (integers only; `gcd(0, 0)`
/// is 0). Euclid's algorithm over the whole array, one step per pass (each pass reads one flag
/// back).
///
/// ```
/// let a = xp::Array::from_vec(vec![12, -20, 0], [3]).unwrap();
/// assert_eq!(xp::gcd(&a, 8).unwrap().to_vec::<i32>().unwrap(), vec![4, 4, 8]);
/// ```
pub fn gcd<'a, 'b>(a: impl Into<Operand<'a>>, b: impl Into<Operand<'b>>) -> Result<Array> {
    let (a, b) = integer_pair("gcd", a, b)?;
    euclid(a, b)
}

/// NumPy `lcm(a, b)`: the least common multiple of `|a|` and `|b|` (0 when either is 0;
/// integers only).
///
/// ```
/// let a = xp::Array::from_vec(vec![4, -6, 0], [3]).unwrap();
/// assert_eq!(xp::lcm(&a, 10).unwrap().to_vec::<i32>().unwrap(), vec![20, 30, 0]);
/// ```
pub fn lcm<'a, 'b>(a: impl Into<Operand<'a>>, b: impl Into<Operand<'b>>) -> Result<Array> {
    let (a, b) = integer_pair("lcm", a, b)?;
    let g = euclid(a.clone(), b.clone())?;
    let q = a.floor_divide(&where_(&g.eq(0)?, 1, &g)?.cast_if(g.dtype())?)?;
    q.mul(&b)?.cast_if(a.dtype())
}

fn inf_test(op: &'static str, x: &Array, negative: bool) -> Result<Array> {
    match x.dtype().kind() {
        Kind::Complex => Err(Error::InvalidDType { op, dtype: x.dtype() }),
        Kind::Float => {
            let s = signbit(x)?;
            x.isinf()?.logical_and(&if negative { s } else { s.logical_not()? })
        }
        _ => crate::full_on(x.device(), x.shape(), false, DType::Bool),
    }
}

/// NumPy `isposinf(x)`: true where `x` is +inf (false everywhere for integers; complex refused).
///
/// ```
/// let x = xp::Array::from_vec(vec![f64::INFINITY, -f64::INFINITY, 1.0], [3]).unwrap();
/// assert_eq!(xp::isposinf(&x).unwrap().to_vec::<bool>().unwrap(), vec![true, false, false]);
/// ```
pub fn isposinf(x: &Array) -> Result<Array> {
    inf_test("isposinf", x, false)
}

/// NumPy `isneginf(x)`: true where `x` is -inf (false everywhere for integers; complex refused).
///
/// ```
/// let x = xp::Array::from_vec(vec![f64::INFINITY, -f64::INFINITY, 1.0], [3]).unwrap();
/// assert_eq!(xp::isneginf(&x).unwrap().to_vec::<bool>().unwrap(), vec![false, true, false]);
/// ```
pub fn isneginf(x: &Array) -> Result<Array> {
    inf_test("isneginf", x, true)
}

/// NumPy `iscomplex(x)`: true where the imaginary part is nonzero (false everywhere for a real
/// dtype).
///
/// ```
/// use xp::Complex64;
/// let x = xp::Array::from_vec(vec![Complex64::new(1.0, 0.0), Complex64::new(0.0, 2.0)], [2]).unwrap();
/// assert_eq!(xp::iscomplex(&x).unwrap().to_vec::<bool>().unwrap(), vec![false, true]);
/// ```
pub fn iscomplex(x: &Array) -> Result<Array> {
    if !x.dtype().is_complex() {
        return crate::full_on(x.device(), x.shape(), false, DType::Bool);
    }
    x.imag()?.ne(0)
}

/// NumPy `isreal(x)`: true where the imaginary part is zero (true everywhere for a real dtype).
///
/// ```
/// use xp::Complex64;
/// let x = xp::Array::from_vec(vec![Complex64::new(1.0, 0.0), Complex64::new(0.0, 2.0)], [2]).unwrap();
/// assert_eq!(xp::isreal(&x).unwrap().to_vec::<bool>().unwrap(), vec![true, false]);
/// ```
pub fn isreal(x: &Array) -> Result<Array> {
    if !x.dtype().is_complex() {
        return crate::full_on(x.device(), x.shape(), true, DType::Bool);
    }
    x.imag()?.eq(0)
}

/// NumPy `isrealobj(x)`: whether the dtype is not complex (whatever the values).
///
/// ```
/// let x = xp::Array::from_vec(vec![1.0], [1]).unwrap();
/// assert!(xp::isrealobj(&x));
/// ```
pub fn isrealobj(x: &Array) -> bool {
    !x.dtype().is_complex()
}

/// NumPy's `tol` of [`real_if_close`]: imaginary parts below `tol` machine epsilons of the dtype
/// count as zero (a `tol` above 1 is in epsilons, at most 1 an absolute bound). `Default` is
/// NumPy's 100.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RealIfClose {
    /// the tolerance (`> 1`: in machine epsilons of the dtype; otherwise absolute)
    pub tol: f64,
}

impl Default for RealIfClose {
    fn default() -> Self {
        RealIfClose { tol: 100.0 }
    }
}

/// NumPy `real_if_close(a, tol)`: the real part when every imaginary part is within the
/// tolerance, `a` itself otherwise (and for real dtypes). Reads one flag back.
///
/// ```
/// use xp::{Complex64, RealIfClose};
/// let x = xp::Array::from_vec(vec![Complex64::new(2.0, 1e-15)], [1]).unwrap();
/// let r = xp::real_if_close(&x, RealIfClose::default()).unwrap();
/// assert_eq!(r.dtype(), xp::DType::F64);
/// ```
pub fn real_if_close(a: &Array, opts: RealIfClose) -> Result<Array> {
    if !a.dtype().is_complex() {
        return Ok(a.clone());
    }
    let eps = if a.dtype() == DType::C64 { f32::EPSILON as f64 } else { f64::EPSILON };
    let tol = if opts.tol > 1.0 { opts.tol * eps } else { opts.tol };
    if a.imag()?.abs()?.lt(tol)?.all(..)?.to_bool()? {
        a.real()
    } else {
        Ok(a.clone())
    }
}

/// (mantissa bits, smallest subnormal exponent) of a float dtype.
fn float_format(d: DType) -> (i64, i64) {
    match d {
        DType::F16 => (11, -24),
        DType::BF16 => (8, -133),
        DType::F32 => (24, -149),
        _ => (53, -1074),
    }
}

/// `2^k` in float64 for integral `k`.
fn pow2(k: &Array) -> Result<Array> {
    let one = crate::full_on(k.device(), k.shape(), 1.0, DType::F64)?;
    scale2(&one, k)
}

/// NumPy `spacing(x)`: the distance from `x` to the next representable number away from zero,
/// with `x`'s sign (`spacing(0)` is the smallest subnormal; NaN for NaN and the infinities).
///
/// ```
/// let x = xp::Array::from_vec(vec![1.0, -1.0], [2]).unwrap();
/// assert_eq!(xp::spacing(&x).unwrap().to_vec::<f64>().unwrap(), vec![f64::EPSILON, -f64::EPSILON]);
/// ```
pub fn spacing(x: &Array) -> Result<Array> {
    let l = float_loop("spacing", x.dtype())?;
    let (p, tiny) = float_format(l);
    let xl = x.cast_if(l)?;
    let x = xl.astype(DType::F64)?;
    let (m, e) = frexp(&x)?;
    let k = e.astype(DType::I64)?.sub(p)?.maximum(tiny)?;
    let ulp = pow2(&k)?;
    let mut r = ulp.copysign(&x)?;
    if l == DType::F16 {
        // NumPy's half-precision spacing of a negative number is the positive step towards zero
        let towards_zero = where_(&m.eq(-0.5)?, &ulp.mul(0.5)?, &ulp)?.maximum(&pow2(&k.mul(0)?.add(tiny)?)?)?;
        r = where_(&x.lt(0)?, &towards_zero, &r)?;
    }
    // the largest finite number steps to an infinity, and zero (either sign) to the smallest
    // subnormal above it, as NumPy's nextafter(x, inf) - x
    let big = largest_towards(&x, l)?.astype(DType::F64)?;
    let top = if l == DType::F16 { x.eq(&big)?.logical_and(&x.gt(0)?)? } else { x.eq(&big)? };
    let r = where_(&top, &big.mul(f64::INFINITY)?, &r)?;
    let r = where_(&x.eq(0)?, &pow2(&crate::full_on(x.device(), x.shape(), tiny, DType::I64)?)?, &r)?;
    where_(&x.isfinite()?, &r, f64::NAN)?.astype(l)
}

/// NumPy `nextafter(a, b)`: the next representable number after `a` towards `b` (in their
/// promoted float loop; `b` itself when they are equal, NaN when either is NaN).
///
/// ```
/// let a = xp::Array::from_vec(vec![1.0f64, 1.0], [2]).unwrap();
/// let b = xp::Array::from_vec(vec![2.0f64, 0.0], [2]).unwrap();
/// let n = xp::nextafter(&a, &b).unwrap().to_vec::<f64>().unwrap();
/// assert_eq!(n, vec![1.0 + f64::EPSILON, 1.0 - f64::EPSILON / 2.0]);
/// ```
pub fn nextafter<'a, 'b>(a: impl Into<Operand<'a>>, b: impl Into<Operand<'b>>) -> Result<Array> {
    let (a, b) = float_pair("nextafter", a, b)?;
    let l = a.dtype();
    let (p, tiny) = float_format(l);
    let (x, y) = (a.astype(DType::F64)?, b.astype(DType::F64)?);
    let shape = xp_core::broadcast_shapes("nextafter", x.shape(), y.shape())?;
    let (x, y) = (x.broadcast_to(&shape[..])?, y.broadcast_to(&shape[..])?);
    let smallest = pow2(&crate::full_on(x.device(), &shape, tiny, DType::I64)?)?;
    let finite = x.isfinite()?;
    let safe = where_(&finite.logical_and(&x.ne(0)?)?, &x, 1.0)?;
    let (m, e) = frexp(&safe)?;
    let ulp = pow2(&e.astype(DType::I64)?.sub(p)?.maximum(tiny)?)?;
    // towards zero from a power of two the step is half as large (never below the smallest subnormal)
    let down = y.abs()?.lt(&x.abs()?)?.logical_or(&y.lt(0)?.logical_xor(&x.lt(0)?)?)?;
    let pow_two = m.abs()?.eq(0.5)?;
    let step = where_(&down.logical_and(&pow_two)?, &ulp.mul(0.5)?.maximum(&smallest)?, &ulp)?;
    let dir = where_(&y.gt(&x)?, 1.0, -1.0)?;
    let r = x.add(&step.mul(&dir)?)?;
    // from zero: the smallest subnormal towards b
    let r = where_(&x.eq(0)?, &smallest.copysign(&y)?, &r)?;
    // from an infinity towards a finite number: the largest finite number
    let r = where_(&finite, &r, &x)?.astype(l)?;
    let r = where_(&finite.logical_not()?.logical_and(&x.ne(&y)?)?, &largest_towards(&x, l)?, &r)?;
    let r = where_(&x.eq(&y)?, &y.astype(l)?, &r)?;
    let nan = x.isnan()?.logical_or(&y.isnan()?)?;
    where_(&nan, f64::NAN, &r)?.cast_if(l)
}

/// The largest finite number of `l` with the sign of `x` (an infinity stepping towards a finite
/// number).
fn largest_towards(x: &Array, l: DType) -> Result<Array> {
    let big = match l {
        DType::F16 => 65504.0,
        DType::BF16 => 3.3895313892515355e38,
        DType::F32 => f32::MAX as f64,
        _ => f64::MAX,
    };
    crate::full_on(x.device(), x.shape(), big, DType::F64)?.copysign(x)?.astype(l)
}
