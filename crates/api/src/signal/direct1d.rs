//! NumPy's `convolve` and `correlate` of two 1-D arrays, computed directly in their promoted
//! dtype (integers exact and wrapping as NumPy's do), on any device: the direct path of
//! [`super::convolve`].
use super::nd::direct;
use super::Mode;
use crate::Array;
use xp_core::{Error, Result};

fn operands<'a>(op: &'static str, a: &'a Array, v: &'a Array) -> Result<()> {
    for (name, x) in [("a", a), ("v", v)] {
        if x.ndim() != 1 {
            return Err(Error::invalid(op, format!("{name} must be 1-D, it has {} axes", x.ndim())));
        }
        if x.size() == 0 {
            return Err(Error::invalid(op, format!("{name} cannot be empty")));
        }
    }
    if a.device() != v.device() {
        return Err(Error::DeviceMismatch { op, lhs: a.device(), rhs: v.device() });
    }
    Ok(())
}

/// The discrete linear convolution of 1-D `a` and `v` (NumPy's `convolve`): `Full` has
/// `n + m - 1` values, `Same` the longer operand's length, `Valid` `max - min + 1`.
///
/// ```
/// use xp::signal::Mode;
/// let a = xp::Array::from_vec(vec![1i64, 2, 3], &[3]).unwrap();
/// let v = xp::Array::from_vec(vec![0i64, 1, 10], &[3]).unwrap();
/// let c = xp::convolve(&a, &v, Mode::Full).unwrap();
/// assert_eq!(c.to_vec::<i64>().unwrap(), vec![0, 1, 12, 23, 30]);
/// ```
pub fn convolve(a: &Array, v: &Array, mode: Mode) -> Result<Array> {
    operands("convolve", a, v)?;
    let (a, v) = if v.size() > a.size() { (v, a) } else { (a, v) };
    direct(a, v, mode)
}

/// The cross-correlation of 1-D `a` and `v` (NumPy's `correlate`):
/// `c[k] = Σ_n a[n + k] conj(v[n])`, with `convolve`'s modes (NumPy's default is `Valid`).
pub fn correlate(a: &Array, v: &Array, mode: Mode) -> Result<Array> {
    operands("correlate", a, v)?;
    if v.size() > a.size() {
        // NumPy computes the swapped correlation and gives it back reversed and conjugated
        let c = correlate(v, a, mode)?;
        let c = if c.dtype().is_complex() { c.conj()? } else { c };
        return c.flip(0)?.copy();
    }
    let w = if v.dtype().is_complex() { v.conj()? } else { v.clone() };
    convolve(a, &w.flip(0)?, mode).map_err(|e| e.in_op("correlate"))
}
