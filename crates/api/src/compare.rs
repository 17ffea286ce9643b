//! Closeness tests with NumPy's rule: `|a - b| <= atol + rtol * |b|` elementwise, infinities
//! close only to themselves, NaN close to nothing.
//!
//! ```
//! let a = xp::Array::from_vec(vec![1.0, 2.0, f64::INFINITY], &[3]).unwrap();
//! let b = xp::Array::from_vec(vec![1.0 + 1e-9, 2.1, f64::INFINITY], &[3]).unwrap();
//! assert_eq!(xp::isclose(&a, &b, 1e-5, 1e-8).unwrap().to_vec::<bool>().unwrap(), vec![true, false, true]);
//! assert!(!xp::allclose(&a, &b, 1e-5, 1e-8).unwrap());
//! ```
use crate::Array;
use xp_core::{DType, Result};

/// Elementwise closeness (NumPy `isclose(a, b, rtol, atol)`), broadcast; bool result.
pub fn isclose(a: &Array, b: &Array, rtol: f64, atol: f64) -> Result<Array> {
    let f = |x: &Array| if x.dtype().is_inexact() { Ok(x.clone()) } else { x.astype(DType::F64) };
    let (x, y) = (f(a)?, f(b)?);
    let near = x.sub(&y)?.abs()?.le(&y.abs()?.mul(rtol)?.add(atol)?)?;
    let finite = x.isfinite()?.logical_and(&y.isfinite()?)?;
    crate::where_(&finite, &near, &x.equal(&y)?)
}

/// True when every element pair is close (NumPy `allclose`); waits for the result.
pub fn allclose(a: &Array, b: &Array, rtol: f64, atol: f64) -> Result<bool> {
    isclose(a, b, rtol, atol)?.all(..)?.item::<bool>()
}
