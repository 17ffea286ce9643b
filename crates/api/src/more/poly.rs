//! NumPy's legacy polynomial functions on coefficient arrays, highest power first: `polyval`,
//! `polyadd`, `polysub`, `polymul`, `polyder`, `polyint`, `polyfit` (a scaled least-squares
//! fit through [`crate::linalg::lstsq`]), `roots` (the eigenvalues of the companion matrix) and
//! `poly` (the coefficients of given roots). Written on xp's array operations, they run on every
//! device.
//!
//! ```
//! let p = xp::Array::from_vec(vec![1.0, -3.0, 2.0], [3]).unwrap(); // x² - 3x + 2
//! let x = xp::Array::from_vec(vec![0.0, 1.0, 3.0], [3]).unwrap();
//! assert_eq!(xp::polyval(&p, &x).unwrap().to_vec::<f64>().unwrap(), vec![2.0, 0.0, 2.0]);
//! let r = xp::roots(&p).unwrap().to_vec::<f64>().unwrap();
//! assert!((r[0] - 2.0).abs() < 1e-12 && (r[1] - 1.0).abs() < 1e-12);
//! ```
use crate::more::shapes::{atleast_1d, vander, Vander};
use crate::{concatenate, Array};
use xp_core::{DType, Error, Result, SliceElem};

fn coeffs(op: &'static str, p: &Array) -> Result<Array> {
    let p = atleast_1d(p)?;
    if p.ndim() != 1 {
        return Err(Error::invalid(op, "the coefficients must be a rank-1 array"));
    }
    Ok(p)
}

/// NumPy's `poly1d` coefficients: 1-D, leading zeros removed (`[0]` when none is left). Reads
/// the first nonzero position back.
fn poly1d(op: &'static str, p: &Array) -> Result<Array> {
    let p = coeffs(op, p)?;
    let nz = crate::flatnonzero(&p)?;
    if nz.size() == 0 {
        return crate::full_on(p.device(), &[1], 0, p.dtype());
    }
    let first = nz.slice([SliceElem::Index(0)])?.to_i64()? as usize;
    range(&p, first, p.size())
}

fn elem(p: &Array, i: usize) -> Result<Array> {
    p.slice([SliceElem::Index(i as isize)])
}

fn range(p: &Array, a: usize, b: usize) -> Result<Array> {
    p.slice([SliceElem::from(a as isize..b as isize)])
}

/// NumPy `polyval(p, x)`: the polynomial with coefficients `p` (highest power first) at `x`, by
/// Horner's scheme; the result's dtype is that of `x` and `p` promoted (zeros like `x` for an
/// empty `p`).
///
/// ```
/// let p = xp::Array::from_vec(vec![3, 0, 1], [3]).unwrap();
/// let x = xp::Array::from_vec(vec![5], [1]).unwrap();
/// assert_eq!(xp::polyval(&p, &x).unwrap().to_vec::<i32>().unwrap(), vec![76]);
/// ```
pub fn polyval(p: &Array, x: &Array) -> Result<Array> {
    if p.ndim() == 0 {
        return Err(Error::invalid("polyval", "the coefficients must have at least one dimension"));
    }
    if p.device() != x.device() {
        return Err(Error::DeviceMismatch { op: "polyval", lhs: p.device(), rhs: x.device() });
    }
    let mut y = crate::zeros_like(x)?;
    for i in 0..p.shape()[0] {
        y = y.mul(x)?.add(&elem(p, i)?)?;
    }
    Ok(y)
}

fn align(op: &'static str, a1: &Array, a2: &Array) -> Result<(Array, Array)> {
    let (a1, a2) = (coeffs(op, a1)?, coeffs(op, a2)?);
    let (n1, n2) = (a1.size(), a2.size());
    let pad = |a: &Array, k: usize| -> Result<Array> {
        if k == 0 {
            return Ok(a.clone());
        }
        concatenate(&[&crate::full_on(a.device(), &[k], 0, a.dtype())?, a], 0)
    };
    Ok((pad(&a1, n2.saturating_sub(n1))?, pad(&a2, n1.saturating_sub(n2))?))
}

/// NumPy `polyadd(a1, a2)`: the sum of two polynomials (the shorter padded with leading zeros).
///
/// ```
/// let a = xp::Array::from_vec(vec![1, 2], [2]).unwrap();
/// let b = xp::Array::from_vec(vec![1, 0, 0], [3]).unwrap();
/// assert_eq!(xp::polyadd(&a, &b).unwrap().to_vec::<i32>().unwrap(), vec![1, 1, 2]);
/// ```
pub fn polyadd(a1: &Array, a2: &Array) -> Result<Array> {
    let (a, b) = align("polyadd", a1, a2)?;
    a.add(&b)
}

/// NumPy `polysub(a1, a2)`: the difference of two polynomials.
///
/// ```
/// let a = xp::Array::from_vec(vec![1.0, 2.0], [2]).unwrap();
/// let b = xp::Array::from_vec(vec![1.0, 0.0, 0.0], [3]).unwrap();
/// assert_eq!(xp::polysub(&a, &b).unwrap().to_vec::<f64>().unwrap(), vec![-1.0, 1.0, 2.0]);
/// ```
pub fn polysub(a1: &Array, a2: &Array) -> Result<Array> {
    let (a, b) = align("polysub", a1, a2)?;
    a.sub(&b)
}

/// NumPy `polymul(a1, a2)`: the product of two polynomials (the full convolution of their
/// coefficients).
///
/// ```
/// let a = xp::Array::from_vec(vec![1.0, 1.0], [2]).unwrap();
/// assert_eq!(xp::polymul(&a, &a).unwrap().to_vec::<f64>().unwrap(), vec![1.0, 2.0, 1.0]);
/// ```
pub fn polymul(a1: &Array, a2: &Array) -> Result<Array> {
    let (a1, a2) = (poly1d("polymul", a1)?, poly1d("polymul", a2)?);
    crate::convolve(&a1, &a2, crate::signal::Mode::Full).map_err(|e| e.in_op("polymul"))
}

/// NumPy `polyder(p, m)`: the `m`-th derivative (`m = 0`: `p` itself); each step multiplies by
/// the int64 powers, so integer coefficients stay integer.
///
/// ```
/// let p = xp::Array::from_vec(vec![1, 1, 1, 1], [4]).unwrap();
/// assert_eq!(xp::polyder(&p, 2).unwrap().to_vec::<i64>().unwrap(), vec![6, 2]);
/// ```
pub fn polyder(p: &Array, m: usize) -> Result<Array> {
    let mut p = coeffs("polyder", p)?;
    for _ in 0..m {
        let n = p.size().saturating_sub(1);
        let pw = crate::on(p.device()).arange(n as i64, 0, -1, None)?;
        p = range(&p, 0, n)?.mul(&pw)?;
    }
    Ok(p)
}

/// NumPy `polyint(p, m, k)`: the `m`-th antiderivative, the integration constants `k` (highest
/// order first) added one per step: empty for zeros, one value for the same constant every
/// step, or at least `m` values; in float64 (complex128 for complex coefficients).
///
/// ```
/// let p = xp::Array::from_vec(vec![3.0, 2.0], [2]).unwrap();
/// assert_eq!(xp::polyint(&p, 1, &[5.0]).unwrap().to_vec::<f64>().unwrap(), vec![1.5, 2.0, 5.0]);
/// ```
pub fn polyint(p: &Array, m: usize, k: &[f64]) -> Result<Array> {
    let mut p = coeffs("polyint", p)?;
    if m == 0 {
        return Ok(p);
    }
    let ks: Vec<f64> = match k.len() {
        0 => vec![0.0; m],
        1 => vec![k[0]; m],
        n if n >= m => k.to_vec(),
        _ => return Err(Error::invalid("polyint", "k must be a scalar or a rank-1 array of length 1 or >m.")),
    };
    for kv in ks.iter().take(m) {
        let n = p.size() as i64;
        let pw = crate::on(p.device()).arange(n, 0, -1, None)?;
        let c = crate::full_on(p.device(), &[1], *kv, DType::F64)?;
        p = concatenate(&[&p.div(&pw)?, &c], 0)?;
    }
    Ok(p)
}

/// NumPy `polyfit(x, y, deg)`: the least-squares polynomial of degree `deg` through the points
/// (`y` one set of values, or one per column), highest power first: the Vandermonde matrix with
/// its columns scaled to unit norm, solved by [`crate::linalg::lstsq`] with NumPy's `rcond =
/// len(x) · eps`.
///
/// ```
/// let x = xp::Array::from_vec(vec![0.0, 1.0, 2.0, 3.0], [4]).unwrap();
/// let y = x.mul(2.0).unwrap().add(1.0).unwrap();
/// let c = xp::polyfit(&x, &y, 1).unwrap().to_vec::<f64>().unwrap();
/// assert!((c[0] - 2.0).abs() < 1e-12 && (c[1] - 1.0).abs() < 1e-12);
/// ```
pub fn polyfit(x: &Array, y: &Array, deg: usize) -> Result<Array> {
    if x.ndim() != 1 {
        return Err(Error::invalid("polyfit", "expected 1D vector for x"));
    }
    if x.size() == 0 {
        return Err(Error::invalid("polyfit", "expected non-empty vector for x"));
    }
    if !(1..=2).contains(&y.ndim()) {
        return Err(Error::invalid("polyfit", "expected 1D or 2D array for y"));
    }
    if x.shape()[0] != y.shape()[0] {
        return Err(Error::invalid("polyfit", "expected x and y to have same length"));
    }
    let x = x.add(0.0)?;
    let y = y.add(0.0)?;
    let order = deg + 1;
    let rcond = x.size() as f64 * f64::EPSILON;
    let lhs = vander(&x, Vander { n: Some(order), increasing: false })?;
    let scale = lhs.mul(&lhs)?.sum(0)?.sqrt()?;
    let lhs = lhs.div(&scale)?;
    let fit = crate::linalg::lstsq(&lhs, &y, Some(rcond)).map_err(|e| e.in_op("polyfit"))?;
    if fit.x.ndim() == 2 {
        fit.x.div(&scale.reshape_exact(&[order, 1])?)
    } else {
        fit.x.div(&scale)
    }
}

/// NumPy `roots(p)`: the roots of the polynomial with coefficients `p` (highest power first),
/// as the eigenvalues of its companion matrix ([`crate::linalg::eigvals`]: real when all are
/// real, complex otherwise), trailing zero coefficients giving zero roots. Reads the nonzero
/// positions back; non-finite coefficients are a [`Error::LinAlg`] error as in NumPy.
///
/// ```
/// let p = xp::Array::from_vec(vec![1.0, 0.0, -4.0, 0.0], [4]).unwrap(); // x³ - 4x
/// let mut r = xp::roots(&p).unwrap().to_vec::<f64>().unwrap();
/// r.sort_by(f64::total_cmp);
/// assert!((r[0] + 2.0).abs() < 1e-12 && r[1].abs() < 1e-12 && (r[2] - 2.0).abs() < 1e-12);
/// ```
pub fn roots(p: &Array) -> Result<Array> {
    let p = atleast_1d(p)?;
    if p.ndim() != 1 {
        return Err(Error::invalid("roots", "Input must be a rank-1 array."));
    }
    let nz = crate::flatnonzero(&p)?.to_vec::<i64>()?;
    let (Some(&first), Some(&last)) = (nz.first(), nz.last()) else {
        return crate::on(p.device()).zeros([0], DType::F64);
    };
    if last == first {
        // a constant: no roots but the trailing zeros (float64, as NumPy's empty array)
        return crate::on(p.device()).zeros([p.size() - last as usize - 1], DType::F64);
    }
    let trailing = p.size() - last as usize - 1;
    let mut p = range(&p, first as usize, last as usize + 1)?;
    if !p.dtype().is_inexact() {
        p = p.astype(DType::F64)?;
    }
    let n = p.size();
    let r = if n > 1 {
        if !p.isfinite()?.all(..)?.to_bool()? {
            return Err(Error::LinAlg { op: "roots", kind: xp_core::LinAlgKind::NoConvergence { index: 0 } });
        }
        let a = if n > 2 {
            crate::on(p.device()).ones([n - 2], p.dtype())?.diag(-1)?.copy()?
        } else {
            crate::full_on(p.device(), &[1, 1], 0, p.dtype())?
        };
        let row = range(&p, 1, n)?.neg()?.div(&elem(&p, 0)?)?;
        a.slice([SliceElem::Index(0)])?.assign(&row)?;
        crate::linalg::eigvals(&a).map_err(|e| e.in_op("roots"))?
    } else {
        crate::on(p.device()).zeros([0], p.dtype())?
    };
    if trailing == 0 {
        return Ok(r);
    }
    concatenate(&[&r, &crate::full_on(r.device(), &[trailing], 0, r.dtype())?], 0)
}

/// NumPy `poly(seq_of_zeros)`: the coefficients (highest power first, leading 1) of the
/// polynomial whose roots are `seq_of_zeros`, or of the characteristic polynomial of a square
/// matrix; integers in float64, float32/complex64 kept; complex roots in conjugate pairs give
/// real coefficients. No roots give the 0-d 1.0. Anything but 1-D or non-empty square 2-D is
/// refused.
///
/// ```
/// let z = xp::Array::from_vec(vec![1, 2], [2]).unwrap();
/// assert_eq!(xp::poly(&z).unwrap().to_vec::<f64>().unwrap(), vec![1.0, -3.0, 2.0]);
/// ```
pub fn poly(seq_of_zeros: &Array) -> Result<Array> {
    if seq_of_zeros.ndim() == 0 {
        return Err(Error::invalid("poly", "input must be 1d or non-empty square 2d array."));
    }
    let z = seq_of_zeros.clone();
    let sh = z.shape().to_vec();
    let z = if sh.len() == 2 && sh[0] == sh[1] && sh[0] != 0 {
        crate::linalg::eigvals(&z).map_err(|e| e.in_op("poly"))?
    } else if sh.len() == 1 {
        match z.dtype() {
            DType::F32 | DType::F64 | DType::C64 | DType::C128 => z,
            _ => z.astype(DType::F64)?,
        }
    } else {
        return Err(Error::invalid("poly", "input must be 1d or non-empty square 2d array."));
    };
    let dt = z.dtype();
    if z.size() == 0 {
        return crate::full_on(z.device(), &[], 1.0, DType::F64);
    }
    let zero = crate::full_on(z.device(), &[1], 0, dt)?;
    let mut a = crate::full_on(z.device(), &[1], 1, dt)?;
    for i in 0..z.size() {
        let r = elem(&z, i)?;
        a = concatenate(&[&a, &zero], 0)?.sub(&concatenate(&[&zero, &a], 0)?.mul(&r)?)?;
    }
    if dt.is_complex() {
        let roots = z.astype(DType::C128)?;
        let s = crate::sort(&roots, -1)?;
        let c = crate::sort(&roots.conj()?, -1)?;
        if s.eq(&c)?.all(..)?.to_bool()? {
            return a.real()?.copy();
        }
    }
    Ok(a)
}
