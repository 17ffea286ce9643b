//! Closeness and equality tests with NumPy's rules: `|a - b| <= atol + rtol * |b|` elementwise,
//! infinities close only to themselves, NaN close to nothing (unless `equal_nan`);
//! `array_equal` (same shape, equal elements) and `array_equiv` (broadcastable, equal elements).
//!
//! ```
//! let a = xp::Array::from_vec(vec![1.0, 2.0, f64::INFINITY], &[3]).unwrap();
//! let b = xp::Array::from_vec(vec![1.0 + 1e-9, 2.1, f64::INFINITY], &[3]).unwrap();
//! assert_eq!(xp::isclose(&a, &b).unwrap().to_vec::<bool>().unwrap(), vec![true, false, true]);
//! assert!(!xp::allclose(&a, &b).unwrap());                    // NumPy's rtol=1e-5, atol=1e-8
//! let loose = xp::Tolerance { rtol: 0.1, ..Default::default() };
//! assert!(xp::allclose_with(&a, &b, loose).unwrap());
//! // NaN equal to NaN
//! let n = xp::Array::from_vec(vec![f64::NAN, 1.0], &[2]).unwrap();
//! let tol = xp::Tolerance { equal_nan: true, ..Default::default() };
//! assert!(xp::allclose_with(&n, &n, tol).unwrap());
//! assert!(xp::array_equal_nan(&n, &n).unwrap() && !xp::array_equal(&n, &n).unwrap());
//! assert!(xp::array_equiv(&n.slice(xp::s![1..]).unwrap(), &xp::ones(&[3, 1], xp::DType::I8).unwrap()).unwrap());
//! ```
use crate::Array;
use xp_core::{DType, Result};

/// The tolerances of [`isclose_with`]/[`allclose_with`]; `Default` is NumPy's (`rtol=1e-05`,
/// `atol=1e-08`, `equal_nan=False`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerance {
    /// relative tolerance, applied to `|b|`
    pub rtol: f64,
    /// absolute tolerance
    pub atol: f64,
    /// whether NaN compares close to NaN
    pub equal_nan: bool,
}

impl Default for Tolerance {
    fn default() -> Tolerance {
        Tolerance { rtol: 1e-5, atol: 1e-8, equal_nan: false }
    }
}

/// Elementwise closeness with NumPy's default tolerances (`isclose(a, b)`: `rtol=1e-05`,
/// `atol=1e-08`), broadcast; bool result. Other tolerances: [`isclose_with`].
pub fn isclose(a: &Array, b: &Array) -> Result<Array> {
    isclose_with(a, b, Tolerance::default())
}

/// Elementwise closeness with every NumPy option (`isclose(a, b, rtol, atol, equal_nan)`).
pub fn isclose_with(a: &Array, b: &Array, tol: Tolerance) -> Result<Array> {
    let f = |x: &Array| if x.dtype().is_inexact() { Ok(x.clone()) } else { x.astype(DType::F64) };
    let (x, y) = (f(a)?, f(b)?);
    let near = x.sub(&y)?.abs()?.le(&y.abs()?.mul(tol.rtol)?.add(tol.atol)?)?;
    let finite = x.isfinite()?.logical_and(&y.isfinite()?)?;
    let close = crate::where_(&finite, &near, &x.equal(&y)?)?;
    if tol.equal_nan {
        close.logical_or(&x.isnan()?.logical_and(&y.isnan()?)?)
    } else {
        Ok(close)
    }
}

/// True when every element pair is close with NumPy's default tolerances (NumPy `allclose(a, b)`);
/// waits for the result. Other tolerances: [`allclose_with`].
pub fn allclose(a: &Array, b: &Array) -> Result<bool> {
    allclose_with(a, b, Tolerance::default())
}

/// [`allclose`] with every NumPy option; waits for the result.
pub fn allclose_with(a: &Array, b: &Array, tol: Tolerance) -> Result<bool> {
    isclose_with(a, b, tol)?.all(..)?.item::<bool>()
}

/// True when `a` and `b` have the same shape and equal elements (NumPy `array_equal(a1, a2)`;
/// values compare after promotion, so `[1, 2]` equals `[1.0, 2.0]`). Arrays on different devices
/// are an error, as in every binary operation.
pub fn array_equal(a: &Array, b: &Array) -> Result<bool> {
    if a.shape() != b.shape() {
        return Ok(false);
    }
    elements_equal(a, b, false)
}

/// [`array_equal`] with NaN equal to NaN (NumPy's `array_equal(a1, a2, equal_nan=True)`).
pub fn array_equal_nan(a: &Array, b: &Array) -> Result<bool> {
    if a.shape() != b.shape() {
        return Ok(false);
    }
    elements_equal(a, b, true)
}

/// True when `a` and `b` broadcast to one shape and are equal there (NumPy `array_equiv`).
pub fn array_equiv(a: &Array, b: &Array) -> Result<bool> {
    if xp_core::broadcast_shapes("array_equiv", a.shape(), b.shape()).is_err() {
        return Ok(false);
    }
    elements_equal(a, b, false)
}

fn elements_equal(a: &Array, b: &Array, equal_nan: bool) -> Result<bool> {
    let mut eq = a.equal(b)?;
    if equal_nan && (a.dtype().is_inexact() || b.dtype().is_inexact()) {
        eq = eq.logical_or(&a.isnan()?.logical_and(&b.isnan()?)?)?;
    }
    eq.all(..)?.item::<bool>()
}
