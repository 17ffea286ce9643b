//! Matrices built from the values of their inputs: `toeplitz`, `circulant`, `hankel`, `fiedler`,
//! `leslie`, `companion`, `fiedler_companion`, `convolution_matrix`, `block_diag`, `khatri_rao`.
//! Each is one gather of the input's values (with a zero appended where the matrix has zeros)
//! through an index grid, batched over leading axes.
use super::{grid, pick, vector};
use crate::linalg::with_tail;
use crate::signal::Mode;
use crate::{concatenate, where_, Array, ELLIPSIS};
use xp_core::{broadcast_shapes, promote_types, DType, Error, Result, SliceElem};

/// `a[..., from..]`, a view.
fn tail(a: &Array, from: isize) -> Result<Array> {
    a.slice([ELLIPSIS, SliceElem::from(from..)])
}

/// `a[..., from..to]`, a view.
fn part(a: &Array, from: isize, to: isize) -> Result<Array> {
    a.slice([ELLIPSIS, SliceElem::from(from..to)])
}

/// `(batch + (1,))`-shaped constants `value` of `dtype` on `a`'s device, to append to `a`.
fn pad(a: &Array, batch: &[usize], value: i64, dtype: DType) -> Result<Array> {
    crate::get_array_module(a).full(with_tail(batch, &[1]), value, dtype)
}

/// Two (batches of) vectors broadcast to one batch shape.
fn pair(op: &'static str, a: &Array, b: &Array) -> Result<(Array, Array, Vec<usize>)> {
    let (a, ab, n) = vector(a)?;
    let (b, bb, k) = vector(b)?;
    let batch = broadcast_shapes(op, &ab, &bb)?;
    Ok((a.broadcast_to(with_tail(&batch, &[n]))?, b.broadcast_to(with_tail(&batch, &[k]))?, batch))
}

/// SciPy's `toeplitz(c, r=None)`: the matrix with first column `c` and first row `r` (`r[0]` is
/// ignored; `None`: `conj(c)`, a Hermitian matrix when `c[0]` is real), of shape
/// `(len(c), len(r))` and the promoted dtype of `c` and `r`. Batched over the leading axes of
/// `c` and `r` (broadcast together); a 0-d input is a vector of length 1.
///
/// ```
/// let c = xp::Array::from_vec(vec![1i64, 2, 3], &[3]).unwrap();
/// let r = xp::Array::from_vec(vec![1i64, 4, 5, 6], &[4]).unwrap();
/// let t = xp::linalg::toeplitz(&c, Some(&r)).unwrap();
/// assert_eq!(t.to_vec::<i64>().unwrap(), vec![1, 4, 5, 6, 2, 1, 4, 5, 3, 2, 1, 4]);
/// ```
pub fn toeplitz(c: &Array, r: Option<&Array>) -> Result<Array> {
    let conj;
    let r = match r {
        Some(r) => r,
        None => {
            conj = if c.dtype().is_complex() { c.conj()? } else { c.clone() };
            &conj
        }
    };
    let (c, r, _) = pair("toeplitz", c, r)?;
    let (m, k) = (c.shape()[c.ndim() - 1], r.shape()[r.ndim() - 1]);
    // vals = [c reversed, r[1:]]: element (i, j) is vals[m - 1 - i + j]
    let vals = concatenate(&[&c.flip(-1)?, &tail(&r, 1)?], -1)?;
    let (i, j) = grid(c.device(), m, k)?;
    pick(&vals, &j.sub(&i)?.add(m as i64 - 1)?)
}

/// SciPy's `circulant(c)`: the `n × n` matrix whose first column is `c` and whose columns are
/// its cyclic shifts (element `(i, j)` is `c[(i - j) mod n]`), batched over the leading axes.
///
/// ```
/// let c = xp::Array::from_vec(vec![1i64, 2, 3], &[3]).unwrap();
/// assert_eq!(xp::linalg::circulant(&c).unwrap().to_vec::<i64>().unwrap(), vec![1, 3, 2, 2, 1, 3, 3, 2, 1]);
/// ```
pub fn circulant(c: &Array) -> Result<Array> {
    let (c, _, n) = vector(c)?;
    let (i, j) = grid(c.device(), n, n)?;
    let d = i.sub(&j)?;
    pick(&c, &where_(&d.ge(0)?, &d, &d.add(n as i64)?)?)
}

/// SciPy's `hankel(c, r=None)`: the matrix with first column `c` and last row `r` (`r[0]` is
/// ignored: the anti-diagonals stay constant; `None`: zeros), shape `(len(c), len(r))`, the
/// promoted dtype. Batched over leading axes as SciPy will from 1.19 (SciPy 1.17 flattens N-D
/// input, with a warning).
///
/// ```
/// let c = xp::Array::from_vec(vec![1i64, 17, 99], &[3]).unwrap();
/// let h = xp::linalg::hankel(&c, None).unwrap();
/// assert_eq!(h.to_vec::<i64>().unwrap(), vec![1, 17, 99, 17, 99, 0, 99, 0, 0]);
/// ```
pub fn hankel(c: &Array, r: Option<&Array>) -> Result<Array> {
    let zeros;
    let r = match r {
        Some(r) => r,
        None => {
            zeros = vector(c)?.0.zeros_like()?;
            &zeros
        }
    };
    let (c, r, _) = pair("hankel", c, r)?;
    let (m, k) = (c.shape()[c.ndim() - 1], r.shape()[r.ndim() - 1]);
    let vals = concatenate(&[&c, &tail(&r, 1)?], -1)?;
    let (i, j) = grid(c.device(), m, k)?;
    pick(&vals, &i.add(&j)?)
}

/// SciPy's `fiedler(a)`: the symmetric matrix `|a[i] - a[j]|`, batched over the leading axes
/// (the magnitude's dtype: real for complex input; bool is refused, as NumPy refuses its
/// subtraction). As in SciPy, an input with no element gives a float64 array of shape `(0,)` and
/// one with a single element the float64 matrix `[[0.0]]`.
///
/// ```
/// let a = xp::Array::from_vec(vec![1.0, 4.0, 12.0], &[3]).unwrap();
/// let f = xp::linalg::fiedler(&a).unwrap();
/// assert_eq!(f.to_vec::<f64>().unwrap(), vec![0.0, 3.0, 11.0, 3.0, 0.0, 8.0, 11.0, 8.0, 0.0]);
/// ```
pub fn fiedler(a: &Array) -> Result<Array> {
    let m = crate::get_array_module(a);
    match a.size() {
        0 => m.zeros([0], DType::F64),
        1 => m.zeros([1, 1], DType::F64),
        _ => {
            let (a, _, _) = vector(a)?;
            a.expand_dims(-1)?.sub(&a.expand_dims(-2)?)?.abs()
        }
    }
}

/// SciPy's `leslie(f, s)`: the Leslie matrix of fecundities `f` (length `n`, the first row) and
/// survival rates `s` (length `n - 1 ≥ 1`, the first sub-diagonal), zero elsewhere, of the
/// promoted dtype of `f` and `s`. Batched over their leading axes (broadcast together).
///
/// ```
/// let f = xp::Array::from_vec(vec![0.1, 2.0, 1.0, 0.1], &[4]).unwrap();
/// let s = xp::Array::from_vec(vec![0.2, 0.8, 0.7], &[3]).unwrap();
/// let l = xp::linalg::leslie(&f, &s).unwrap();
/// assert_eq!(l.to_vec::<f64>().unwrap()[4..8], [0.2, 0.0, 0.0, 0.0]);
/// ```
pub fn leslie(f: &Array, s: &Array) -> Result<Array> {
    let op = "leslie";
    let (n, k) = (vector(f)?.2, vector(s)?.2);
    if n != k + 1 {
        return Err(Error::invalid(
            op,
            format!("s must be one shorter than f along the last axis (lengths {n} and {k})"),
        ));
    }
    if k == 0 {
        return Err(Error::invalid(op, "the length of s must be at least 1"));
    }
    let (f, s, batch) = pair(op, f, s)?;
    let zero = pad(&f, &batch, 0, promote_types(f.dtype(), s.dtype()))?;
    // vals = [f, s, 0]: row 0 is f, element (i, i - 1) is s[i - 1], the rest the zero
    let vals = concatenate(&[&f, &s, &zero], -1)?;
    let (i, j) = grid(f.device(), n, n)?;
    let sub = where_(&i.eq(&j.add(1)?)?, &j.add(n as i64)?, (2 * n - 1) as i64)?;
    pick(&vals, &where_(&i.eq(0)?, &j, &sub)?)
}

/// The leading coefficients `a[..., 0:1]`; an error where one is zero (one read of a flag).
fn leading(op: &'static str, a: &Array, msg: &str) -> Result<Array> {
    let a0 = part(a, 0, 1)?;
    if a0.eq(0)?.any(..)?.item::<bool>()? {
        return Err(Error::invalid(op, msg.to_string()));
    }
    Ok(a0)
}

/// SciPy's `companion(a)`: the companion matrix of the polynomial with coefficients `a`
/// (highest power first, length `n ≥ 2`, `a[0] ≠ 0`): first row `-a[1:] / a[0]`, ones on the
/// first sub-diagonal, `(n - 1) × (n - 1)`, in the dtype of `1.0 * a[0]` (float64 for integers;
/// bool is refused, as NumPy refuses its negation). Batched over the leading axes; checking the
/// leading coefficients reads one flag back from the device.
///
/// ```
/// let a = xp::Array::from_vec(vec![1i64, -10, 31, -30], &[4]).unwrap();
/// let c = xp::linalg::companion(&a).unwrap();
/// assert_eq!(c.to_vec::<f64>().unwrap(), vec![10.0, -31.0, 30.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]);
/// ```
pub fn companion(a: &Array) -> Result<Array> {
    let op = "companion";
    let (a, batch, n) = vector(a)?;
    if n < 2 {
        return Err(Error::invalid(op, "the length of a along the last axis must be at least 2"));
    }
    let a0 = leading(op, &a, "the first coefficients (a[..., 0]) must not be zero")?;
    let first = tail(&a, 1)?.neg()?.div(&a0.mul(1.0)?)?;
    let m = n - 1;
    let (one, zero) = (pad(&a, &batch, 1, first.dtype())?, pad(&a, &batch, 0, first.dtype())?);
    let vals = concatenate(&[&first, &one, &zero], -1)?;
    let (i, j) = grid(a.device(), m, m)?;
    let sub = where_(&i.eq(&j.add(1)?)?, m as i64, (m + 1) as i64)?;
    pick(&vals, &where_(&i.eq(0)?, &j, &sub)?)
}

/// SciPy's `fiedler_companion(a)`: Fiedler's pentadiagonal companion matrix of the polynomial
/// with coefficients `a` (highest power first, `a[0] ≠ 0`), whose eigenvalues are the roots;
/// `(n - 1) × (n - 1)` in the dtype of `a / a[0]`. Batched over the leading axes. As in SciPy, a
/// length of 0 or 1 gives an empty array of `a`'s dtype (shape `batch + (0,)`) and a length of 2
/// the `1 × 1` matrix `-a[1] / a[0]` without the zero check.
///
/// ```
/// let a = xp::Array::from_vec(vec![1.0, -6.0, 11.0, -6.0], &[3 + 1]).unwrap();
/// let c = xp::linalg::fiedler_companion(&a).unwrap();
/// assert_eq!(c.to_vec::<f64>().unwrap(), vec![6.0, -11.0, 1.0, 1.0, 0.0, 0.0, 0.0, 6.0, 0.0]);
/// ```
pub fn fiedler_companion(a: &Array) -> Result<Array> {
    let op = "fiedler_companion";
    let (a, batch, n) = vector(a)?;
    if n <= 1 {
        return crate::get_array_module(&a).zeros(with_tail(&batch, &[0]), a.dtype());
    }
    if n == 2 {
        return part(&a, 1, 2)?.div(&part(&a, 0, 1)?)?.neg()?.reshape_exact(&with_tail(&batch, &[1, 1]));
    }
    let a0 = leading(op, &a, "the leading coefficient is zero")?;
    let neg = tail(&a.div(&a0)?, 1)?.neg()?; // v[k] = -a[k + 1] / a[0]
    let m = n - 1;
    let (one, zero) = (pad(&a, &batch, 1, neg.dtype())?, pad(&a, &batch, 0, neg.dtype())?);
    let vals = concatenate(&[&neg, &one, &zero], -1)?;
    let (one, zero) = (m as i64, m as i64 + 1);
    let (i, j) = grid(a.device(), m, m)?;
    let d = j.sub(&i)?;
    let even = i.remainder(2)?.eq(0)?;
    let (odd, at) = (even.logical_not()?, |k: i64| d.eq(k));
    // (disjoint) positions and the entries of vals they take; the rest take the zero
    let rules: [(Array, Array); 6] = [
        (odd.logical_and(&i.ge(3)?)?.logical_and(&at(-2)?)?, crate::full_like(&i, one)?),
        (even.logical_and(&i.ge(2)?)?.logical_and(&at(-1)?)?, i.clone()),
        (even.logical_and(&at(2)?)?, crate::full_like(&i, one)?),
        (even.logical_and(&at(1)?)?, i.add(1)?),
        (i.eq(1)?.logical_and(&j.eq(0)?)?, crate::full_like(&i, one)?),
        (i.eq(0)?.logical_and(&j.eq(0)?)?, crate::zeros_like(&i)?),
    ];
    let mut idx = crate::on(a.device()).full([m, m], zero, DType::I64)?;
    for (cond, val) in &rules {
        idx = where_(cond, val, &idx)?;
    }
    pick(&vals, &idx)
}

/// SciPy's `convolution_matrix(a, n, mode)`: the matrix `A` with `A @ v` equal to
/// `convolve(a, v, mode)` for every `v` of length `n ≥ 1` (a Toeplitz matrix of `a`'s dtype;
/// `len(a) + n - 1`, `max(len(a), n)` or `max - min + 1` rows for [`Mode::Full`],
/// [`Mode::Same`], [`Mode::Valid`]). Batched over the leading axes of `a`.
///
/// ```
/// use xp::signal::Mode;
/// let a = xp::Array::from_vec(vec![1i64, 2], &[2]).unwrap();
/// let m = xp::linalg::convolution_matrix(&a, 3, Mode::Full).unwrap();
/// assert_eq!((m.shape(), m.to_vec::<i64>().unwrap()), (&[4, 3][..], vec![1, 0, 0, 2, 1, 0, 0, 2, 1, 0, 0, 2]));
/// ```
pub fn convolution_matrix(a: &Array, n: usize, mode: Mode) -> Result<Array> {
    let op = "convolution_matrix";
    if n == 0 {
        return Err(Error::InvalidParameter { op, param: "n", requirement: "must be a positive integer".into() });
    }
    if a.ndim() == 0 {
        return Err(Error::invalid(op, "a must have at least one dimension"));
    }
    if a.size() == 0 {
        return Err(Error::invalid(op, "len(a) must be at least 1"));
    }
    let (batch, m) = (&a.shape()[..a.ndim() - 1], a.shape()[a.ndim() - 1]);
    let (lo, hi) = (m.min(n), m.max(n));
    // rows, and the offset: element (i, j) is a[i + off - j] where that is inside a, else 0
    let (rows, off) = match mode {
        Mode::Full => (m + n - 1, 0),
        Mode::Same => (hi, (lo - 1) / 2),
        Mode::Valid => (hi - lo + 1, lo - 1),
    };
    let vals = concatenate(&[a, &pad(a, batch, 0, a.dtype())?], -1)?;
    let (i, j) = grid(a.device(), rows, n)?;
    let k = i.sub(&j)?.add(off as i64)?;
    let inside = k.ge(0)?.logical_and(&k.lt(m as i64)?)?;
    pick(&vals, &where_(&inside, &k, m as i64)?)
}

/// SciPy's `block_diag(A, B, C, ...)`: the arrays on the diagonal of a matrix of zeros, in their
/// promoted dtype. A 0-d array is a `1 × 1` block and a 1-D array of length `n` a `1 × n` block;
/// blocks with no rows or columns still move the next block (SciPy's rule). Batched: leading
/// axes broadcast together. With no arrays the result is SciPy's `(1, 0)` float64 array, in host
/// memory; otherwise all arrays must be on one device, where the result is made.
///
/// ```
/// let a = xp::Array::from_vec(vec![1i64, 0, 0, 1], &[2, 2]).unwrap();
/// let b = xp::Array::from_vec(vec![7i64], &[1]).unwrap();
/// let d = xp::linalg::block_diag(&[&a, &b]).unwrap();
/// assert_eq!(d.to_vec::<i64>().unwrap(), vec![1, 0, 0, 0, 1, 0, 0, 0, 7]);
/// ```
pub fn block_diag(arrays: &[&Array]) -> Result<Array> {
    let op = "block_diag";
    let Some(first) = arrays.first() else {
        return crate::zeros([1, 0], DType::F64);
    };
    let blocks = arrays.iter().map(|a| crate::atleast_2d(a)).collect::<Result<Vec<_>>>()?;
    let (mut batch, mut dtype, mut rows, mut cols) = (vec![], first.dtype(), 0, 0);
    for b in &blocks {
        if b.device() != first.device() {
            return Err(Error::DeviceMismatch { op, lhs: first.device(), rhs: b.device() });
        }
        batch = broadcast_shapes(op, &batch, &b.shape()[..b.ndim() - 2])?;
        dtype = promote_types(dtype, b.dtype());
        rows += b.shape()[b.ndim() - 2];
        cols += b.shape()[b.ndim() - 1];
    }
    let out = crate::get_array_module(*first).zeros(with_tail(&batch, &[rows, cols]), dtype)?;
    let (mut r, mut c) = (0isize, 0isize);
    for b in &blocks {
        let (rr, cc) = (b.shape()[b.ndim() - 2] as isize, b.shape()[b.ndim() - 1] as isize);
        out.slice([ELLIPSIS, SliceElem::from(r..r + rr), SliceElem::from(c..c + cc)])?.assign(b)?;
        r += rr;
        c += cc;
    }
    Ok(out)
}

/// SciPy's `khatri_rao(a, b)`: the column-wise Kronecker product of `a` (`m × k`) and `b`
/// (`p × k`), an `(m p) × k` matrix of the promoted dtype. Batched over leading axes (broadcast
/// together). As in SciPy, an empty operand gives zeros in `a`'s dtype.
///
/// ```
/// let a = xp::Array::from_vec(vec![1i64, 2, 3, 4, 5, 6], &[2, 3]).unwrap();
/// let b = xp::Array::from_vec(vec![3i64, 4, 5, 6, 7, 8, 2, 3, 9], &[3, 3]).unwrap();
/// let k = xp::linalg::khatri_rao(&a, &b).unwrap();
/// assert_eq!(k.to_vec::<i64>().unwrap()[..6], [3, 8, 15, 6, 14, 24]);
/// ```
pub fn khatri_rao(a: &Array, b: &Array) -> Result<Array> {
    let op = "khatri_rao";
    if a.ndim() < 2 || b.ndim() < 2 {
        return Err(Error::invalid(op, "a and b must be (stacks of) 2-D arrays"));
    }
    let (m, k, p, kb) =
        (a.shape()[a.ndim() - 2], a.shape()[a.ndim() - 1], b.shape()[b.ndim() - 2], b.shape()[b.ndim() - 1]);
    if k != kb {
        return Err(Error::invalid(op, format!("a and b must have the same number of columns ({k} and {kb})")));
    }
    let batch = broadcast_shapes(op, &a.shape()[..a.ndim() - 2], &b.shape()[..b.ndim() - 2])?;
    let shape = with_tail(&batch, &[m * p, k]);
    if a.size() == 0 || b.size() == 0 {
        return crate::get_array_module(a).zeros(shape, a.dtype());
    }
    a.expand_dims(-2)?.mul(&b.expand_dims(-3)?)?.reshape_exact(&shape)
}
