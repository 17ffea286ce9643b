//! SciPy's solvers for structured matrices given by their defining entries: `solve_banded`
//! (LAPACK's band storage), `solveh_banded` (Hermitian positive-definite band storage),
//! `solve_circulant` (FFT) and `solve_toeplitz` (first column and row), batched over leading
//! axes. The band solvers expand the matrix and solve it densely (O(n³), not the O(n·b²) of
//! SciPy's LAPACK routines: the results agree, the speed at large n does not yet); the
//! Toeplitz solver is Levinson's recursion on the host, as SciPy's; the circulant one two FFTs.
//!
//! ```
//! use xp::linalg;
//! // tridiagonal [[2, 1, 0], [1, 2, 1], [0, 1, 2]] in band storage (l = u = 1)
//! let ab = xp::Array::from_vec(vec![0.0f64, 1.0, 1.0, 2.0, 2.0, 2.0, 1.0, 1.0, 0.0], &[3, 3]).unwrap();
//! let b = xp::Array::from_vec(vec![3.0f64, 4.0, 3.0], &[3]).unwrap();
//! let x = linalg::solve_banded((1, 1), &ab, &b).unwrap();
//! assert!(xp::allclose(&x, &xp::ones([3], xp::DType::F64).unwrap()).unwrap());
//! let c = xp::Array::from_vec(vec![2.0f64, 1.0, 0.0], &[3]).unwrap();
//! let y = linalg::solve_circulant(&c, &b).unwrap();
//! let dense = linalg::circulant(&c).unwrap();
//! assert!(xp::allclose(&xp::matmul(&dense, &y).unwrap(), &b).unwrap());
//! ```
use super::triangular::{cho_factor, cho_solve};
use super::{compute_dtype, solve};
use crate::Array;
use xp_core::{Complex64, DType, Error, LinAlgKind, Result};

/// The dense matrices `(.., n, n)` of band storage `ab` `(.., rows, n)` whose row `r` holds
/// diagonal `top - r` (`A[i, j] = ab[top + i - j, j]`); entries outside the band are zero and
/// the storage's unused corners are not read.
pub(super) fn dense(ab: &Array, top: usize) -> Result<Array> {
    let nd = ab.ndim();
    let (rows, n) = (ab.shape()[nd - 2], ab.shape()[nd - 1]);
    let dev = crate::on(ab.device());
    let i = dev.arange(0, n as i64, 1, Some(DType::I64))?.reshape([n as isize, 1])?;
    let j = dev.arange(0, n as i64, 1, Some(DType::I64))?.reshape([1, n as isize])?;
    let r = i.sub(&j)?.add(top as i64)?;
    let valid = r.ge(0)?.logical_and(&r.lt(rows as i64)?)?;
    let mut shape = ab.shape()[..nd - 2].to_vec();
    shape.extend([n, n]);
    let idx = r.clip(Some(0i64), Some(rows.saturating_sub(1) as i64))?.broadcast_to(shape.as_slice())?;
    let g = crate::take_along_axis(ab, &idx, -2)?;
    crate::where_(&valid, &g, 0)
}

fn band_input(op: &'static str, ab: &Array) -> Result<Array> {
    if ab.ndim() < 2 {
        return Err(Error::LinAlg { op, kind: LinAlgKind::NotMatrix { ndim: ab.ndim() } });
    }
    ab.cast_if(compute_dtype(op, ab.dtype())?)
}

/// Solve `A x = b` for banded `A` in LAPACK's band storage (SciPy `solve_banded((l, u), ab,
/// b)`): `ab` `(.., l + u + 1, n)` holds `A[i, j]` at `ab[u + i - j, j]`; `b` `(n,)` or
/// `(.., n, k)`. A storage of another number of rows is [`Error::InvalidArgument`]; a singular
/// matrix [`LinAlgKind::Singular`].
pub fn solve_banded((l, u): (usize, usize), ab: &Array, b: &Array) -> Result<Array> {
    let op = "solve_banded";
    let ab = band_input(op, ab)?;
    let rows = ab.shape()[ab.ndim() - 2];
    if rows != l + u + 1 {
        return Err(Error::InvalidArgument {
            op,
            msg: format!("invalid values for the number of lower and upper diagonals: l+u+1 ({}) does not equal ab.shape[-2] ({rows})", l + u + 1),
        });
    }
    solve(&dense(&ab, u)?, b)
}

/// Solve `A x = b` for Hermitian positive-definite banded `A` (SciPy `solveh_banded(ab, b,
/// lower)`): upper form (default) `ab[u + i - j, j] = A[i, j]` for `i ≤ j` with `u` = rows − 1,
/// lower form `ab[i - j, j] = A[i, j]` for `i ≥ j`. Not positive definite:
/// [`LinAlgKind::NotPositiveDefinite`].
pub fn solveh_banded(ab: &Array, b: &Array, lower: bool) -> Result<Array> {
    let ab = band_input("solveh_banded", ab)?;
    let rows = ab.shape()[ab.ndim() - 2];
    // the stored triangle as a dense matrix; the Cholesky factorisation reads only it
    let a = if lower { dense(&ab, 0)? } else { dense(&ab, rows - 1)? };
    cho_solve(&cho_factor(&a, lower)?, b)
}

/// Solve `C x = b` for the circulant matrix `C` of first column `c` (SciPy
/// `solve_circulant(c, b)`, leading axes of `c` and `b` a batch): `x = ifft(fft(b) / fft(c))`.
/// A (near-)singular `C`, an eigenvalue `|fft(c)|` at most `n · eps · max|fft(c)|`, is
/// [`LinAlgKind::Singular`] (SciPy's `singular='raise'`).
pub fn solve_circulant(c: &Array, b: &Array) -> Result<Array> {
    let op = "solve_circulant";
    if c.ndim() < 1 {
        return Err(Error::LinAlg { op, kind: LinAlgKind::NotMatrix { ndim: c.ndim() } });
    }
    let n = c.shape()[c.ndim() - 1];
    let vector = b.ndim() == c.ndim();
    let bm = if vector { b.expand_dims(-1)? } else { b.clone() };
    if bm.ndim() < 2 || bm.shape()[bm.ndim() - 2] != n {
        return Err(Error::InvalidArgument {
            op,
            msg: format!("shapes of c {:?} and b {:?} are incompatible", c.shape(), b.shape()),
        });
    }
    let dtype = super::common_dtype(op, &[c.dtype(), b.dtype()])?;
    let fc = crate::fft::fft(&c.cast_if(dtype)?, None, -1, Default::default())?;
    let mag = fc.abs()?;
    let eps = if dtype.to_real() == DType::F32 { f32::EPSILON as f64 } else { f64::EPSILON };
    let tol = mag.max_keepdim(-1)?.mul(n as f64 * eps)?;
    let near = mag.le(&tol)?.any(-1)?;
    let flags = near.reshape([-1])?.to_vec::<bool>()?;
    if let Some(index) = flags.iter().position(|&s| s) {
        return Err(Error::LinAlg { op, kind: LinAlgKind::Singular { index } });
    }
    let fb = crate::fft::fft(&bm.cast_if(dtype)?, None, -2, Default::default())?;
    let x = crate::fft::ifft(&fb.div(&fc.expand_dims(-1)?)?, None, -2, Default::default())?;
    let x = if dtype.is_complex() { x } else { x.real()? };
    let x = x.astype(dtype)?;
    if vector {
        x.squeeze(-1)
    } else {
        Ok(x)
    }
}

/// Solve `T x = b` for the Toeplitz matrix `T` of first column `c` and first row `r` (SciPy
/// `solve_toeplitz((c, r), b)`; `r = None` for the Hermitian `T` of `c`, `r = conj(c)`) by
/// Levinson's recursion, O(n²), on the host (as SciPy's); the result is float64 or complex128
/// as SciPy's, on the inputs' device. `r[0]` is ignored (`T[0, 0] = c[0]`). Leading axes of
/// `c`, `r` and a stacked `b` `(.., n, k)` are a batch. A leading principal minor that is
/// exactly singular stops the recursion ([`LinAlgKind::Singular`], SciPy's "Singular principal
/// minor"), even where `T` itself is not singular.
pub fn solve_toeplitz(c: &Array, r: Option<&Array>, b: &Array) -> Result<Array> {
    let op = "solve_toeplitz";
    let complex = c.dtype().is_complex() || b.dtype().is_complex() || r.is_some_and(|r| r.dtype().is_complex());
    let dt = if complex { DType::C128 } else { DType::F64 };
    let c = c.cast_if(dt)?;
    let r = match r {
        Some(r) => r.cast_if(dt)?,
        None => c.conj()?,
    };
    if c.ndim() < 1 || r.shape() != c.shape() {
        return Err(Error::InvalidArgument {
            op,
            msg: format!("c {:?} and r {:?} must be vectors of one shape", c.shape(), r.shape()),
        });
    }
    let n = c.shape()[c.ndim() - 1];
    let vector = b.ndim() == 1;
    let bm = if vector { b.expand_dims(-1)? } else { b.clone() };
    if bm.ndim() < 2 || bm.shape()[bm.ndim() - 2] != n {
        return Err(Error::InvalidArgument { op, msg: "Incompatible dimensions.".into() });
    }
    let k = bm.shape()[bm.ndim() - 1];
    let batch = xp_core::broadcast_shapes(op, &c.shape()[..c.ndim() - 1], &bm.shape()[..bm.ndim() - 2])?;
    let with = |tail: &[usize]| batch.iter().chain(tail).copied().collect::<Vec<usize>>();
    let (c, r, bm) =
        (c.broadcast_to(with(&[n]))?, r.broadcast_to(with(&[n]))?, bm.cast_if(dt)?.broadcast_to(with(&[n, k]))?);
    let out = if complex { on_host::<Complex64>(&c, &r, &bm, n, k)? } else { on_host::<f64>(&c, &r, &bm, n, k)? };
    let out = out.to_device(c.device())?;
    if vector {
        out.squeeze(-1)
    } else {
        Ok(out)
    }
}

/// The scalars Levinson's recursion runs in (float64, complex128).
trait Lev:
    xp_core::Element
    + Copy
    + PartialEq
    + From<f64>
    + std::ops::Add<Output = Self>
    + std::ops::Sub<Output = Self>
    + std::ops::Mul<Output = Self>
    + std::ops::Div<Output = Self>
    + std::ops::AddAssign
    + std::iter::Sum
{
}
impl Lev for f64 {}
impl Lev for Complex64 {}

/// Every system of the batch on the host in `T`; the solutions `(.., n, k)` in host memory.
fn on_host<T: Lev>(c: &Array, r: &Array, b: &Array, n: usize, k: usize) -> Result<Array> {
    let (cv, rv, bv) = (c.to_vec::<T>()?, r.to_vec::<T>()?, b.to_vec::<T>()?);
    let count: usize = b.shape()[..b.ndim() - 2].iter().product();
    let mut x = Vec::with_capacity(count * n * k);
    for z in 0..count {
        let (cz, rz) = (&cv[z * n..(z + 1) * n], &rv[z * n..(z + 1) * n]);
        let sol = levinson(cz, rz, k, &bv[z * n * k..(z + 1) * n * k])
            .ok_or(Error::LinAlg { op: "solve_toeplitz", kind: LinAlgKind::Singular { index: z } })?;
        x.extend(sol);
    }
    Array::from_vec(x, b.shape())
}

/// `Σ a[i] b[i]` over two slices of one length, in four interleaved sums (so that the loop
/// vectorises).
#[inline]
fn dot<T: Lev>(a: &[T], b: &[T]) -> T {
    let zero = T::from(0.0);
    let mut acc = [zero; 4];
    let (ca, cb) = (a.chunks_exact(4), b.chunks_exact(4));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for l in 0..4 {
            acc[l] += x[l] * y[l];
        }
    }
    let tail: T = ra.iter().zip(rb).map(|(&x, &y)| x * y).sum();
    (acc[0] + acc[1]) + (acc[2] + acc[3]) + tail
}

/// Levinson's recursion for `T x = b` with first column `c` and first row `r` (`r[0]` unused),
/// `b` row-major `n × k`; `None` at an exactly singular leading principal minor.
fn levinson<T: Lev>(c: &[T], r: &[T], k: usize, b: &[T]) -> Option<Vec<T>> {
    let n = c.len();
    let (zero, one) = (T::from(0.0), T::from(1.0));
    if n == 0 {
        return Some(vec![]);
    }
    if c[0] == zero {
        return None;
    }
    // f: T_m f = e_first, g: T_m g = e_last; x column by column (T_m x = b[..m])
    let (mut f, mut g, mut f2, mut g2) = (vec![zero; n], vec![zero; n], vec![zero; n], vec![zero; n]);
    // c reversed: c[m - j] for j < m is crev[n - 1 - m + j], a forward slice
    let crev: Vec<T> = c.iter().rev().copied().collect();
    let back = |m: usize| &crev[n - 1 - m..n - 1];
    f[0] = one / c[0];
    g[0] = one / c[0];
    let mut x = vec![zero; n * k];
    for j in 0..k {
        x[j * n] = b[j] / c[0];
    }
    for m in 1..n {
        let ef = dot(back(m), &f[..m]);
        let eg = dot(&r[1..=m], &g[..m]);
        let den = one - ef * eg;
        if den == zero {
            return None;
        }
        let inv = one / den;
        f2[0] = f[0] * inv;
        g2[0] = (zero - eg * f[0]) * inv;
        for i in 1..m {
            let (fi, gi) = (f[i], g[i - 1]);
            f2[i] = (fi - ef * gi) * inv;
            g2[i] = (gi - eg * fi) * inv;
        }
        f2[m] = (zero - ef * g[m - 1]) * inv;
        g2[m] = g[m - 1] * inv;
        std::mem::swap(&mut f, &mut f2);
        std::mem::swap(&mut g, &mut g2);
        for j in 0..k {
            let col = &mut x[j * n..(j + 1) * n];
            let e = b[m * k + j] - dot(back(m), &col[..m]);
            for (xi, &gi) in col[..=m].iter_mut().zip(&g[..=m]) {
                *xi += e * gi;
            }
        }
    }
    // column-major to row-major
    Some((0..n * k).map(|p| x[(p % k) * n + p / k]).collect())
}
