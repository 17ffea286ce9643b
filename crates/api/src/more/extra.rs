//! More NumPy names of issue 27 on xp's array operations: `polydiv`, `sort_complex`, `unstack`,
//! `matvec`/`vecmat`, `asarray_chkfinite`, `putmask` and `unwrap`.
//!
//! ```
//! let u = xp::Array::from_vec(vec![1.0, -3.0, 2.0], [3]).unwrap(); // (x - 1)(x - 2)
//! let v = xp::Array::from_vec(vec![1.0, -1.0], [2]).unwrap();
//! let (q, r) = xp::polydiv(&u, &v).unwrap();
//! assert_eq!((q.to_vec::<f64>().unwrap(), r.to_vec::<f64>().unwrap()), (vec![1.0, -2.0], vec![0.0]));
//! ```
use crate::{where_, Array};
use xp_core::{normalize_axis, DType, Error, IndexMode, Result, SliceElem};

/// NumPy `polydiv(u, v)`: quotient and remainder of polynomial division (highest power first),
/// in float64 (complex128 for complex coefficients); leading remainder coefficients within
/// `1e-8` of zero are dropped (NumPy's `allclose(r[0], 0)`), each read back.
///
/// ```
/// let u = xp::Array::from_vec(vec![3.0, 5.0, 2.0], [3]).unwrap();
/// let v = xp::Array::from_vec(vec![2.0, 1.0], [2]).unwrap();
/// let (q, r) = xp::polydiv(&u, &v).unwrap();
/// assert_eq!((q.to_vec::<f64>().unwrap(), r.to_vec::<f64>().unwrap()), (vec![1.5, 1.75], vec![0.25]));
/// ```
pub fn polydiv(u: &Array, v: &Array) -> Result<(Array, Array)> {
    let one_d = |a: &Array| -> Result<Array> {
        let a = crate::atleast_1d(a)?;
        if a.ndim() != 1 || a.size() == 0 {
            return Err(Error::invalid("polydiv", "the coefficients must be a non-empty rank-1 array"));
        }
        a.add(0.0)
    };
    let (u, v) = (one_d(u)?, one_d(v)?);
    if u.device() != v.device() {
        return Err(Error::DeviceMismatch { op: "polydiv", lhs: u.device(), rhs: v.device() });
    }
    let w = xp_core::promote_types(u.dtype(), v.dtype());
    let (m, n) = (u.size() - 1, v.size() - 1);
    let v = v.astype(w)?;
    let at = |a: &Array, i: usize| a.slice([SliceElem::Index(i as isize)]);
    let scale = crate::full_on(v.device(), &[], 1.0, w)?.div(&at(&v, 0)?)?;
    let q = crate::full_on(u.device(), &[(m + 1).saturating_sub(n).max(1)], 0, w)?;
    let r = u.astype(w)?;
    for k in 0..(m + 1).saturating_sub(n) {
        let d = scale.mul(&at(&r, k)?)?;
        at(&q, k)?.assign(&d)?;
        let part = r.slice([SliceElem::from(k as isize..(k + n + 1) as isize)])?;
        part.assign(&part.sub(&d.mul(&v)?)?)?;
    }
    let mut r = r;
    while r.size() > 1 && at(&r, 0)?.abs()?.to_f64()? <= 1e-8 {
        r = r.slice([SliceElem::from(1..)])?;
    }
    Ok((q, r))
}

/// NumPy `sort_complex(a)`: sorted along the last axis by real part, then imaginary part, as
/// complex numbers (int8/int16/uint8/uint16 as complex64, every other real dtype as complex128).
///
/// ```
/// let a = xp::Array::from_vec(vec![3i8, 1, 2], [3]).unwrap();
/// let s = xp::sort_complex(&a).unwrap();
/// assert_eq!(s.dtype(), xp::DType::C64);
/// ```
pub fn sort_complex(a: &Array) -> Result<Array> {
    let d = match a.dtype() {
        DType::C64 | DType::C128 => a.dtype(),
        DType::I8 | DType::I16 | DType::U8 | DType::U16 => DType::C64,
        _ => DType::C128,
    };
    let b = if a.ndim() == 0 { a.reshape_exact(&[1])? } else { a.clone() };
    crate::sort(&b.astype(d)?, -1)
}

/// NumPy `unstack(x, axis)`: the slices of `x` along `axis`, as views (the inverse of
/// [`crate::stack`]).
///
/// ```
/// let x = xp::Array::from_vec(vec![1, 2, 3, 4], [2, 2]).unwrap();
/// let cols = xp::unstack(&x, -1).unwrap();
/// assert_eq!(cols[1].to_vec::<i32>().unwrap(), vec![2, 4]);
/// ```
pub fn unstack(x: &Array, axis: isize) -> Result<Vec<Array>> {
    if x.ndim() == 0 {
        return Err(Error::invalid("unstack", "Input array must be at least 1-d."));
    }
    let ax = normalize_axis("unstack", axis, x.ndim())?;
    (0..x.shape()[ax])
        .map(|i| {
            let mut idx = vec![SliceElem::FULL; x.ndim()];
            idx[ax] = SliceElem::Index(i as isize);
            x.slice(idx)
        })
        .collect()
}

/// NumPy `matvec(x1, x2)`: the matrix–vector product over the last two axes of `x1` and the last
/// of `x2`, the batch axes broadcast (no conjugation).
///
/// ```
/// let a = xp::Array::from_vec(vec![1.0, 2.0, 3.0, 4.0], [2, 2]).unwrap();
/// let v = xp::Array::from_vec(vec![1.0, 1.0], [2]).unwrap();
/// assert_eq!(xp::matvec(&a, &v).unwrap().to_vec::<f64>().unwrap(), vec![3.0, 7.0]);
/// ```
pub fn matvec(x1: &Array, x2: &Array) -> Result<Array> {
    if x1.ndim() < 2 || x2.ndim() < 1 {
        return Err(Error::invalid("matvec", "matvec needs a matrix and a vector operand"));
    }
    crate::matmul(x1, &x2.expand_dims(-1)?).map_err(|e| e.in_op("matvec"))?.squeeze(-1)
}

/// NumPy `vecmat(x1, x2)`: the vector–matrix product of the conjugated vector `x1` (last axis)
/// with the matrices of `x2` (last two axes), the batch axes broadcast.
///
/// ```
/// let v = xp::Array::from_vec(vec![1.0, 1.0], [2]).unwrap();
/// let a = xp::Array::from_vec(vec![1.0, 2.0, 3.0, 4.0], [2, 2]).unwrap();
/// assert_eq!(xp::vecmat(&v, &a).unwrap().to_vec::<f64>().unwrap(), vec![4.0, 6.0]);
/// ```
pub fn vecmat(x1: &Array, x2: &Array) -> Result<Array> {
    if x1.ndim() < 1 || x2.ndim() < 2 {
        return Err(Error::invalid("vecmat", "vecmat needs a vector and a matrix operand"));
    }
    let v = if x1.dtype().is_complex() { x1.conj()? } else { x1.clone() };
    crate::matmul(&v.expand_dims(-2)?, x2).map_err(|e| e.in_op("vecmat"))?.squeeze(-2)
}

/// NumPy `asarray_chkfinite(a)`: `a` itself when every element is finite, an
/// [`Error::InvalidArgument`] when one is NaN or infinite (reads one flag back).
///
/// ```
/// let a = xp::Array::from_vec(vec![1.0, f64::NAN], [2]).unwrap();
/// assert!(xp::asarray_chkfinite(&a).is_err());
/// ```
pub fn asarray_chkfinite(a: &Array) -> Result<Array> {
    if a.dtype().is_inexact() && !a.isfinite()?.all(..)?.to_bool()? {
        return Err(Error::invalid("asarray_chkfinite", "array must not contain infs or NaNs"));
    }
    Ok(a.clone())
}

/// NumPy `putmask(a, mask, values)`: in place, `a.flat[i] = values.flat[i % values.size]` where
/// `mask.flat[i]` is true; `mask` has `a`'s size, `values` are cast to `a`'s dtype.
///
/// ```
/// let a = xp::Array::from_vec(vec![1, 2, 3, 4], [4]).unwrap();
/// let m = a.gt(2).unwrap();
/// xp::putmask(&a, &m, &xp::Array::from_vec(vec![10, 20], [2]).unwrap()).unwrap();
/// assert_eq!(a.to_vec::<i32>().unwrap(), vec![1, 2, 10, 20]);
/// ```
pub fn putmask(a: &Array, mask: &Array, values: &Array) -> Result<()> {
    if mask.size() != a.size() {
        return Err(Error::invalid("putmask", "mask and data must be the same size"));
    }
    let pos = crate::flatnonzero(mask)?;
    if pos.size() == 0 {
        return Ok(());
    }
    if values.size() == 0 {
        return Err(Error::invalid("putmask", "cannot put an empty array of values"));
    }
    let v = values.ravel()?.take_mode(&pos, 0, IndexMode::Wrap)?;
    a.put(&pos, &v, IndexMode::Raise)
}

/// NumPy's keyword arguments of [`unwrap`]; `Default` is NumPy's (`discont=None`: half the
/// period, `axis=-1`, `period=2π`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Unwrap {
    /// the largest jump left as it is (`None`: `period / 2`; values below that act as it)
    pub discont: Option<f64>,
    /// the axis along which to unwrap
    pub axis: isize,
    /// the period of the values
    pub period: f64,
}

impl Default for Unwrap {
    fn default() -> Self {
        Unwrap { discont: None, axis: -1, period: std::f64::consts::TAU }
    }
}

/// NumPy `unwrap(p, discont, axis, period)`: jumps between neighbours larger than `discont`
/// replaced by their complement modulo `period` (phase unwrapping), in float64 for integer input.
///
/// ```
/// use std::f64::consts::PI;
/// let p = xp::Array::from_vec(vec![0.0, 1.5 * PI, 0.2], [3]).unwrap();
/// let u = xp::unwrap(&p, xp::Unwrap::default()).unwrap().to_vec::<f64>().unwrap();
/// assert!((u[1] + 0.5 * PI).abs() < 1e-12 && (u[2] - 0.2).abs() < 1e-12);
/// ```
pub fn unwrap(p: &Array, opts: Unwrap) -> Result<Array> {
    if p.ndim() == 0 {
        return Err(Error::AxisOutOfRange { op: "unwrap", axis: opts.axis, ndim: 0 });
    }
    let ax = normalize_axis("unwrap", opts.axis, p.ndim())?;
    let period = opts.period;
    let discont = opts.discont.unwrap_or(period / 2.0);
    let dd = crate::diff(p, 1, ax as isize)?;
    let dd = if dd.dtype().is_inexact() { dd } else { dd.astype(DType::F64)? };
    let (high, low) = (period / 2.0, -period / 2.0);
    let ddmod = dd.sub(low)?.remainder(period)?.add(low)?;
    let ddmod = where_(&ddmod.eq(low)?.logical_and(&dd.gt(0)?)?, high, &ddmod)?.cast_if(dd.dtype())?;
    let ph = ddmod.sub(&dd)?;
    let ph = where_(&dd.abs()?.lt(discont)?, 0, &ph)?.cast_if(dd.dtype())?;
    let up = p.astype(dd.dtype())?;
    if p.shape()[ax] > 1 {
        let mut idx = vec![SliceElem::FULL; p.ndim()];
        idx[ax] = SliceElem::from(1..);
        let tail = up.slice(&idx[..])?;
        tail.assign(&tail.add(&ph.cumsum(ax as isize)?)?)?;
    }
    Ok(up)
}
