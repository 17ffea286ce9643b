//! Matrices of a size alone: `hadamard`, `helmert`, `hilbert`, `invhilbert`, `pascal`,
//! `invpascal`, `dft` (each with an `_on` twin that chooses the device; the plain form builds in
//! host memory). Floating-point entries are whole-array expressions of index grids; binomial
//! coefficients in floating point come from one running product (`cumprod`) of
//! `(m - k + 1) / k`, rounded to the nearest integer (exact wherever the coefficient is below
//! 2⁵³). The exact integer tables are computed on the host in 128-bit integers (see the module
//! documentation).
use super::{grid, pick, square};
use crate::{where_, Array};
use xp_core::{DType, Device, Error, Result};

/// SciPy's `hadamard(n, dtype=int)`: Sylvester's `n × n` Hadamard matrix (`n` a power of 2),
/// element `(i, j)` being `(-1)^popcount(i & j)`; `None` gives int64. Unsigned dtypes hold `-1`
/// wrapped, as NumPy's negation leaves it; bool is refused beyond `n = 1` (NumPy cannot negate
/// it).
///
/// ```
/// let h = xp::linalg::hadamard(2, xp::DType::F32).unwrap();
/// assert_eq!(h.to_vec::<f32>().unwrap(), vec![1.0, 1.0, 1.0, -1.0]);
/// ```
pub fn hadamard(n: usize, dtype: impl Into<Option<DType>>) -> Result<Array> {
    hadamard_on(Device::Cpu, n, dtype)
}

/// [`hadamard`] on `device`.
pub fn hadamard_on(device: Device, n: usize, dtype: impl Into<Option<DType>>) -> Result<Array> {
    let op = "hadamard";
    let dtype = dtype.into().unwrap_or(DType::I64);
    if !n.is_power_of_two() {
        return Err(Error::InvalidParameter { op, param: "n", requirement: "must be a positive power of 2".into() });
    }
    if dtype == DType::Bool && n > 1 {
        return Err(Error::InvalidDType { op, dtype });
    }
    square(op, n)?;
    let (i, j) = grid(device, n, n)?;
    let odd = crate::bitwise_count(&i.bitwise_and(&j)?)?.bitwise_and(1u8)?.astype(DType::I64)?;
    crate::subtract(1i64, &odd.mul(2i64)?)?.astype(dtype)
}

/// SciPy's `helmert(n, full=False)`: the Helmert matrix of order `n ≥ 1` (float64), whose rows
/// are orthonormal: row 0 is `1/√n` everywhere, row `i ≥ 1` is `1/√(i(i+1))` before the diagonal
/// and `-i/√(i(i+1))` on it. Without `full` the first row is left out (`(n - 1) × n`).
///
/// ```
/// let h = xp::linalg::helmert(2, true).unwrap();
/// let r = 1.0 / 2f64.sqrt();
/// assert_eq!(h.to_vec::<f64>().unwrap(), vec![r, r, r, -r]);
/// ```
pub fn helmert(n: usize, full: bool) -> Result<Array> {
    helmert_on(Device::Cpu, n, full)
}

/// [`helmert`] on `device`.
pub fn helmert_on(device: Device, n: usize, full: bool) -> Result<Array> {
    let op = "helmert";
    if n == 0 {
        return Err(Error::InvalidParameter { op, param: "n", requirement: "must be at least 1".into() });
    }
    square(op, n)?;
    let (i, j) = grid(device, n, n)?;
    let fi = i.astype(DType::F64)?;
    let below = where_(&j.lt(&i)?, 1.0, &where_(&j.eq(&i)?, &fi.neg()?, 0.0)?)?;
    let num = where_(&i.eq(0)?, 1.0, &below)?;
    let den = where_(&i.eq(0)?, n as f64, &fi.mul(&fi.add(1.0)?)?)?.sqrt()?;
    let h = num.div(&den)?;
    if full {
        Ok(h)
    } else {
        h.slice([xp_core::SliceElem::from(1..)])
    }
}

/// SciPy's `hilbert(n)`: the `n × n` Hilbert matrix `1 / (i + j + 1)` (float64).
///
/// ```
/// let h = xp::linalg::hilbert(2).unwrap();
/// assert_eq!(h.to_vec::<f64>().unwrap(), vec![1.0, 0.5, 0.5, 1.0 / 3.0]);
/// ```
pub fn hilbert(n: usize) -> Result<Array> {
    hilbert_on(Device::Cpu, n)
}

/// [`hilbert`] on `device`.
pub fn hilbert_on(device: Device, n: usize) -> Result<Array> {
    square("hilbert", n)?;
    let (i, j) = grid(device, n, n)?;
    crate::divide(1.0, &i.add(&j)?.add(1i64)?)
}

/// SciPy's `invhilbert(n, exact=False)`: the inverse of the Hilbert matrix of order `n`, whose
/// entries are the integers `(-1)^(i+j) (i+j+1) C(n+i, n-j-1) C(n+j, n-i-1) C(i+j, i)²`.
/// float64 by default; with `exact`, int64 for `n ≤ 14` and [`Error::InvalidParameter`] beyond
/// (the entries outgrow int64, where SciPy returns Python integers).
///
/// ```
/// let h = xp::linalg::invhilbert(3, true).unwrap();
/// assert_eq!(h.to_vec::<i64>().unwrap(), vec![9, -36, 30, -36, 192, -180, 30, -180, 180]);
/// ```
pub fn invhilbert(n: usize, exact: bool) -> Result<Array> {
    invhilbert_on(Device::Cpu, n, exact)
}

/// [`invhilbert`] on `device`.
pub fn invhilbert_on(device: Device, n: usize, exact: bool) -> Result<Array> {
    let op = "invhilbert";
    square(op, n)?;
    if exact {
        let v = exact_table::<i64>(
            op,
            n,
            14,
            "must be at most 14 with exact: larger inverses do not fit int64",
            |i, j| {
                let (nn, s) = (n as u64, (i + j) as u64);
                let (i, j) = (i as u64, j as u64);
                let c = binom(s, i)?;
                let mag = (s as i128 + 1)
                    .checked_mul(binom(nn + i, nn - j - 1)?)?
                    .checked_mul(binom(nn + j, nn - i - 1)?)?
                    .checked_mul(c.checked_mul(c)?)?;
                Some(if s % 2 == 1 { -mag } else { mag })
            },
        )?;
        return crate::on(device).asarray(v, [n, n]);
    }
    let (i, j) = grid(device, n, n)?;
    let t = binom_table(device, 2 * n, n)?.ravel()?;
    let at = |m: &Array, k: &Array| pick(&t, &m.mul(n as i64)?.add(k)?);
    let (nn, s) = (n as i64, i.add(&j)?);
    let a = at(&i.add(nn)?, &crate::subtract(nn - 1, &j)?)?;
    let b = at(&j.add(nn)?, &crate::subtract(nn - 1, &i)?)?;
    let c = at(&s, &i)?;
    let sign = crate::subtract(1i64, &s.bitwise_and(1i64)?.mul(2i64)?)?;
    sign.mul(&s.add(1i64)?)?.astype(DType::F64)?.mul(&a)?.mul(&b)?.mul(&c.mul(&c)?)
}

/// Which Pascal matrix [`pascal`] and [`invpascal`] make (SciPy's `kind`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PascalKind {
    /// `C(i + j, i)`: the product of the lower and upper ones
    #[default]
    Symmetric,
    /// `C(i, j)`, lower triangular
    Lower,
    /// `C(j, i)`, upper triangular
    Upper,
}

/// The keywords of [`pascal`] and [`invpascal`]; `Default` is SciPy's (`kind="symmetric"`,
/// `exact=True`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pascal {
    /// which matrix
    pub kind: PascalKind,
    /// exact integers (uint64 for `pascal`, int64 for `invpascal`); else float64
    pub exact: bool,
}

impl Default for Pascal {
    fn default() -> Self {
        Pascal { kind: PascalKind::Symmetric, exact: true }
    }
}

/// SciPy's `pascal(n, kind, exact)`: the `n × n` Pascal matrix of binomial coefficients. With
/// `exact` (the default) uint64, as SciPy gives for `n < 35`; where an entry would not fit (`n >
/// 34` symmetric, `n > 68` triangular) [`Error::InvalidParameter`] (SciPy returns Python
/// integers). Without `exact`, float64.
///
/// ```
/// let p = xp::linalg::pascal(3, Default::default()).unwrap();
/// assert_eq!(p.to_vec::<u64>().unwrap(), vec![1, 1, 1, 1, 2, 3, 1, 3, 6]);
/// ```
pub fn pascal(n: usize, opts: Pascal) -> Result<Array> {
    pascal_on(Device::Cpu, n, opts)
}

/// [`pascal`] on `device`.
pub fn pascal_on(device: Device, n: usize, opts: Pascal) -> Result<Array> {
    let op = "pascal";
    square(op, n)?;
    if opts.exact {
        let kind = opts.kind;
        let v = exact_table::<u64>(op, n, 68, "is too large for exact uint64 entries", |i, j| {
            let (i, j) = (i as u64, j as u64);
            match kind {
                PascalKind::Symmetric => binom(i + j, i),
                PascalKind::Lower => binom(i, j),
                PascalKind::Upper => binom(j, i),
            }
        })?;
        return crate::on(device).asarray(v, [n, n]);
    }
    let l = binom_table(device, n, n)?;
    match opts.kind {
        PascalKind::Lower => Ok(l),
        PascalKind::Upper => l.t()?.copy(),
        PascalKind::Symmetric => crate::matmul(&l, &l.t()?),
    }
}

/// SciPy's `invpascal(n, kind, exact)`: the inverse of [`pascal`]'s matrix, whose entries are
/// integers: int64 with `exact` (the default; [`Error::InvalidParameter`] where an entry would not
/// fit, beyond `n = 35` symmetric or `n = 67` triangular), else float64.
///
/// ```
/// let p = xp::linalg::invpascal(3, Default::default()).unwrap();
/// assert_eq!(p.to_vec::<i64>().unwrap(), vec![3, -3, 1, -3, 5, -2, 1, -2, 1]);
/// ```
pub fn invpascal(n: usize, opts: Pascal) -> Result<Array> {
    invpascal_on(Device::Cpu, n, opts)
}

/// [`invpascal`] on `device`.
pub fn invpascal_on(device: Device, n: usize, opts: Pascal) -> Result<Array> {
    let op = "invpascal";
    square(op, n)?;
    // The lower factor's inverse is D L D (D = diag((-1)^i)), so the symmetric one's is
    // D Lᵀ L D: element (i, j) is (-1)^(i+j) Σ_k C(k, i) C(k, j).
    if opts.exact {
        let kind = opts.kind;
        let v = exact_table::<i64>(op, n, 67, "is too large for exact int64 entries", |i, j| {
            let mag = match kind {
                PascalKind::Lower => binom(i as u64, j as u64)?,
                PascalKind::Upper => binom(j as u64, i as u64)?,
                PascalKind::Symmetric => (i.max(j)..n).try_fold(0i128, |acc, k| {
                    acc.checked_add(binom(k as u64, i as u64)?.checked_mul(binom(k as u64, j as u64)?)?)
                })?,
            };
            Some(if (i + j) % 2 == 1 { -mag } else { mag })
        })?;
        return crate::on(device).asarray(v, [n, n]);
    }
    let l = binom_table(device, n, n)?;
    let (i, j) = grid(device, n, n)?;
    let sign = crate::subtract(1i64, &i.add(&j)?.bitwise_and(1i64)?.mul(2i64)?)?;
    let m = match opts.kind {
        PascalKind::Lower => l,
        PascalKind::Upper => l.t()?.copy()?,
        PascalKind::Symmetric => crate::matmul(&l.t()?, &l)?,
    };
    m.mul(&sign)
}

/// How [`dft`] scales its matrix (SciPy's `scale`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DftScale {
    /// not scaled (SciPy's `None`): the Vandermonde matrix of the roots of unity
    #[default]
    Unscaled,
    /// divided by `√n` (`"sqrtn"`): a unitary matrix
    SqrtN,
    /// divided by `n` (`"n"`)
    N,
}

/// SciPy's `dft(n, scale)`: the `n × n` discrete Fourier transform matrix (complex128), element
/// `(i, j)` being `ω^(i j)` with `ω = exp(-2πi/n)`, computed from the exact exponent
/// `i j mod n`; `m @ x` is `fft(x)` (scaled by `scale`).
///
/// ```
/// let m = xp::linalg::dft(2, Default::default()).unwrap();
/// let v: Vec<xp::Complex64> = m.to_vec().unwrap();
/// assert!((v[3] - xp::Complex64::new(-1.0, 0.0)).norm() < 1e-15);
/// ```
pub fn dft(n: usize, scale: DftScale) -> Result<Array> {
    dft_on(Device::Cpu, n, scale)
}

/// [`dft`] on `device`.
pub fn dft_on(device: Device, n: usize, scale: DftScale) -> Result<Array> {
    square("dft", n)?;
    if n == 0 {
        return crate::on(device).zeros([0, 0], DType::C128);
    }
    let (i, j) = grid(device, n, n)?;
    let angle = i.mul(&j)?.remainder(n as i64)?.astype(DType::F64)?.mul(-2.0 * std::f64::consts::PI)?.div(n as f64)?;
    let m = angle.mul(xp_core::Complex64::new(0.0, 1.0))?.exp()?;
    match scale {
        DftScale::Unscaled => Ok(m),
        DftScale::SqrtN => m.div((n as f64).sqrt()),
        DftScale::N => m.div(n as f64),
    }
}

/// `C(n, k)` exactly (0 for `k > n`), or `None` where it outgrows 128 bits.
fn binom(n: u64, k: u64) -> Option<i128> {
    if k > n {
        return Some(0);
    }
    let k = k.min(n - k);
    (0..k).try_fold(1i128, |r, t| Some(r.checked_mul((n - t) as i128)? / (t as i128 + 1)))
}

/// The `n × n` table `f(i, j)` in `T`, computed on the host in 128-bit integers; an error where
/// `n > max` or an entry does not fit `T`.
fn exact_table<T: TryFrom<i128>>(
    op: &'static str,
    n: usize,
    max: usize,
    too_large: &str,
    f: impl Fn(usize, usize) -> Option<i128>,
) -> Result<Vec<T>> {
    let err = || Error::InvalidParameter { op, param: "n", requirement: too_large.to_string() };
    if n > max {
        return Err(err());
    }
    (0..n * n).map(|p| f(p / n, p % n).and_then(|v| T::try_from(v).ok()).ok_or_else(err)).collect()
}

/// `C(m, k)` for `m < rows`, `k < cols` in float64 on `device` (0 for `k > m`): a running
/// product of `(m - k + 1) / k` along `k`, rounded to the nearest integer.
fn binom_table(device: Device, rows: usize, cols: usize) -> Result<Array> {
    let (m, k) = grid(device, rows, cols)?;
    let num = m.sub(&k)?.add(1i64)?.maximum(0i64)?.astype(DType::F64)?;
    let ratio = where_(&k.eq(0)?, 1.0, &num.div(&k.maximum(1i64)?)?)?;
    where_(&k.le(&m)?, &ratio.cumprod(-1)?.rint()?, 0.0)
}
