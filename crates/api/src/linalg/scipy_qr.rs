//! SciPy's QR family and least squares: `qr_with` (`mode`, `pivoting`), `rq`, `qr_multiply`
//! and `lstsq_with` (`cond`, `lapack_driver`), batched over leading axes. Pivoted QR runs on
//! the host (cuSOLVER has no `geqp3`); the rest on the device of the input.
//!
//! ```
//! use xp::linalg::{self, QrOut, QrSpec};
//! let a = xp::Array::from_vec(vec![1.0f64, 9.0, 2.0, 8.0, 3.0, 7.0], &[3, 2]).unwrap();
//! let f = linalg::qr_with(&a, QrSpec { mode: QrOut::Economic, pivoting: true }).unwrap();
//! let p = f.p.unwrap();                                   // a[:, p] = q r
//! assert_eq!(p.to_vec::<i32>().unwrap(), vec![1, 0]);     // the larger column first
//! let qr = xp::matmul(&f.q.unwrap(), &f.r).unwrap();
//! assert!(xp::allclose(&qr, &a.take(&p, 1).unwrap()).unwrap());
//! ```
use super::schur::on_host;
use super::{batch, common_dtype, prepared, svd, with_tail};
use crate::backend::on_storage_map;
use crate::Array;
use xp_core::linalg::QrMode;
use xp_core::{DType, Error, LinalgStorage, Result};

/// SciPy's `qr(mode=)` (`"raw"`, LAPACK's packed reflectors, is not offered: xp's
/// factorisations do not keep LAPACK's reflector layout).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum QrOut {
    /// `Q` `(m, m)` and `R` `(m, n)`
    #[default]
    Full,
    /// `Q` `(m, k)` and `R` `(k, n)`, `k = min(m, n)`
    Economic,
    /// `R` `(m, n)` only
    R,
}

impl std::str::FromStr for QrOut {
    type Err = Error;
    /// SciPy's names: `"full"`, `"economic"`, `"r"`.
    fn from_str(s: &str) -> Result<QrOut> {
        match s {
            "full" => Ok(QrOut::Full),
            "economic" => Ok(QrOut::Economic),
            "r" => Ok(QrOut::R),
            _ => Err(Error::InvalidArgument {
                op: "qr",
                msg: format!("Mode argument should be one of ['full', 'r', 'economic'], got {s:?}"),
            }),
        }
    }
}

/// SciPy's `qr` arguments.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct QrSpec {
    /// which factors, of which shapes
    pub mode: QrOut,
    /// column pivoting (LAPACK's `geqp3`): `A[:, p] = Q R`
    pub pivoting: bool,
}

/// The factors of [`qr_with`].
#[derive(Clone, Debug)]
pub struct QrPivoted {
    /// the unitary factor (absent for [`QrOut::R`])
    pub q: Option<Array>,
    /// the upper-triangular (trapezoidal) factor
    pub r: Array,
    /// the column permutation (int32 `(.., n)`), with pivoting
    pub p: Option<Array>,
}

/// QR decomposition as SciPy's `qr(a, mode, pivoting)` (Householder; `R`'s diagonal may be
/// negative, as LAPACK's). With pivoting the column order is chosen on the host (the largest
/// remaining norm first, as `geqp3`), one small copy each way on a GPU. A 1-D input is
/// [`xp_core::LinAlgKind::NotMatrix`].
pub fn qr_with(a: &Array, spec: QrSpec) -> Result<QrPivoted> {
    let (x, m, n) = prepared("qr", a, false)?;
    let mode = match spec.mode {
        QrOut::Full => QrMode::Complete,
        QrOut::Economic => QrMode::Reduced,
        QrOut::R => QrMode::R,
    };
    let bs = batch(&x).to_vec();
    let (q, r, p) = if spec.pivoting && x.size() > 0 && !x.dtype().is_complex() {
        // real input: the host's pivoted factorisation whole (its reflectors' signs are LAPACK's)
        let (k, qc) = (m.min(n), if mode == QrMode::Complete { m } else { m.min(n) });
        let rr = if mode == QrMode::Complete { m } else { k };
        let [q, r, p] = on_host(&x, |h| {
            let f = on_storage_map!(&*h.read(), s => s.qr_pivoted(&h.layout, mode))?;
            let r = Array::from_storage(f.qr.r, &with_tail(&bs, &[rr, n]));
            let q = f.qr.q.map(|q| Array::from_storage(q, &with_tail(&bs, &[m, qc]))).unwrap_or_else(|| r.clone());
            Ok([q, r, Array::from_storage(f.p, &with_tail(&bs, &[n]))])
        })?;
        ((mode != QrMode::R).then_some(q), r, Some(p))
    } else {
        let p = if spec.pivoting && x.size() > 0 {
            // complex input: the column order from the host's pivoted factorisation (geqp3's
            // order), then the plain QR of the permuted columns on the input's device, whose
            // reflectors keep LAPACK's phases, as SciPy's results (and `qr_multiply`'s products)
            let [p] = on_host(&x, |h| {
                let f = on_storage_map!(&*h.read(), s => s.qr_pivoted(&h.layout, QrMode::R))?;
                Ok([Array::from_storage(f.p, &with_tail(&bs, &[n]))])
            })?;
            Some(p)
        } else if spec.pivoting {
            Some(crate::on(x.device()).zeros(with_tail(&bs, &[n]), DType::I32)?)
        } else {
            None
        };
        let xp = match &p {
            Some(p) if x.size() > 0 => {
                let idx = p.expand_dims(-2)?.broadcast_to(with_tail(&bs, &[m, n]))?;
                crate::take_along_axis(&x, &idx, -1)?
            }
            _ => x.clone(),
        };
        let f = super::qr(&xp, mode)?;
        (f.q, f.r, p)
    };
    // SciPy's mode="r" is the R of the full factorisation: (m, n), zero below row k
    let r = if spec.mode == QrOut::R && m > n {
        let zeros = crate::on(r.device()).zeros(with_tail(batch(&r), &[m - n, n]), r.dtype())?;
        crate::concatenate(&[&r, &zeros], -2)?
    } else {
        r
    };
    Ok(QrPivoted { q, r, p })
}

/// The factors of [`rq`]: `A = R Q`.
#[derive(Clone, Debug)]
pub struct Rq {
    /// upper trapezoidal: `(m, n)` full, `(m, k)` economic
    pub r: Array,
    /// unitary rows: `(n, n)` full, `(k, n)` economic; absent for [`QrOut::R`]
    pub q: Option<Array>,
}

/// RQ decomposition (SciPy `rq(a, mode)`): `A = R Q` with `R` upper trapezoidal (its last
/// `k = min(m, n)` columns triangular) and `Q` with orthonormal rows, from the QR decomposition
/// of the reversed conjugate transpose: with `J` the reversal, `(J A)ᴴ = Q₁ R₁` gives
/// `R = J R₁ᴴ J`, `Q = J Q₁ᴴ`.
pub fn rq(a: &Array, mode: QrOut) -> Result<Rq> {
    let (x, _, _) = prepared("rq", a, false)?;
    let b = crate::matrix_transpose(&x.flip(-2)?)?.conj()?;
    let qm = if mode == QrOut::Economic { QrMode::Reduced } else { QrMode::Complete };
    let f = super::qr(&b, qm)?;
    let r = crate::matrix_transpose(&f.r)?.conj()?.flip(-2)?.flip(-1)?.copy()?;
    let q = f.q.map(|q| crate::matrix_transpose(&q)?.conj()?.flip(-2)?.copy()).transpose()?;
    Ok(Rq { r, q: if mode == QrOut::R { None } else { q } })
}

/// Which side `c` multiplies `Q` from in [`qr_multiply`] (SciPy's `mode`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum QrSide {
    /// `c @ Q` (SciPy's default, `"right"`)
    #[default]
    Right,
    /// `Q @ c` (`"left"`)
    Left,
}

/// The results of [`qr_multiply`].
#[derive(Clone, Debug)]
pub struct QrMultiply {
    /// `Q @ c` or `c @ Q` (`Q` the economic factor, conjugated with `conjugate`)
    pub cq: Array,
    /// the economic `R` `(k, n)`
    pub r: Array,
    /// the column permutation, with pivoting
    pub p: Option<Array>,
}

/// SciPy's `qr_multiply(a, c, mode, pivoting, conjugate)`: the economic QR of `a` `(.., m, n)`
/// and its `Q` `(m, k)` applied to `c`: `Q c` for `c` `(.., k, j)` or `(k,)` (left), `c Q` for
/// `c` `(.., j, m)` or `(m,)` (right). A `c` of the wrong size is
/// [`xp_core::Error::InvalidArgument`].
pub fn qr_multiply(a: &Array, c: &Array, side: QrSide, pivoting: bool, conjugate: bool) -> Result<QrMultiply> {
    let (_, m, n) = prepared("qr_multiply", a, false)?;
    let k = m.min(n);
    let (want, axis) = match side {
        QrSide::Left => (k, if c.ndim() == 1 { 0 } else { c.ndim() - 2 }),
        QrSide::Right => (m, c.ndim().saturating_sub(1)),
    };
    if c.ndim() == 0 || c.shape()[axis] != want {
        return Err(Error::InvalidArgument {
            op: "qr_multiply",
            msg: format!(
                "Array shapes are not compatible for {side:?} multiplication: a {:?}, c {:?}",
                a.shape(),
                c.shape()
            ),
        });
    }
    let dt = common_dtype("qr_multiply", &[a.dtype(), c.dtype()])?;
    let f = qr_with(&a.cast_if(dt)?, QrSpec { mode: QrOut::Economic, pivoting })?;
    let q = f.q.expect("economic mode has Q");
    let q = if conjugate { q.conj()? } else { q };
    let c = c.cast_if(dt)?;
    let cq = match side {
        QrSide::Left if c.ndim() == 1 => crate::matmul(&q, &c.expand_dims(-1)?)?.squeeze(-1)?,
        QrSide::Left => crate::matmul(&q, &c)?,
        QrSide::Right => crate::matmul(&c, &q)?,
    };
    Ok(QrMultiply { cq, r: f.r, p: f.p })
}

/// SciPy's `lapack_driver` for [`lstsq_with`]. All three give the minimum-norm solution (xp
/// computes it from the SVD); they differ in what comes back, as SciPy's: `gelsy` gives no
/// singular values and no residues.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum LstsqDriver {
    /// divide-and-conquer SVD (SciPy's default)
    #[default]
    Gelsd,
    /// complete orthogonal factorisation
    Gelsy,
    /// plain SVD
    Gelss,
}

impl std::str::FromStr for LstsqDriver {
    type Err = Error;
    /// SciPy's names.
    fn from_str(s: &str) -> Result<LstsqDriver> {
        match s {
            "gelsd" => Ok(LstsqDriver::Gelsd),
            "gelsy" => Ok(LstsqDriver::Gelsy),
            "gelss" => Ok(LstsqDriver::Gelss),
            _ => Err(Error::InvalidArgument { op: "lstsq", msg: format!("LAPACK driver {s:?} is not found") }),
        }
    }
}

/// SciPy's `lstsq` arguments.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LstsqSpec {
    /// singular values below `cond · s₀` count as zero (default: machine epsilon)
    pub cond: Option<f64>,
    /// which LAPACK driver's results to give
    pub driver: LstsqDriver,
}

/// The results of [`lstsq_with`], as SciPy's.
#[derive(Clone, Debug)]
pub struct LstsqResult {
    /// the minimum-norm least-squares solution: `(.., n)` or `(.., n, k)`
    pub x: Array,
    /// the squared residual norm per column (`(..)` for a vector `b`), when every matrix has
    /// full column rank and more rows than columns (and not for `gelsy`), real; else `(.., 0)` of
    /// the solution's dtype (complex for complex input), as SciPy's
    pub residues: Array,
    /// the effective rank per matrix (int64)
    pub rank: Array,
    /// the singular values (`(.., 0)` for `gelsy`)
    pub s: Array,
}

/// Least squares as SciPy's `lstsq(a, b, cond, lapack_driver)`, batched: `a` `(.., m, n)`,
/// `b` `(m,)` or `(.., m, k)` (batches broadcast). Rows of `a` and `b` that differ are
/// [`xp_core::Error::InvalidArgument`].
pub fn lstsq_with(a: &Array, b: &Array, spec: LstsqSpec) -> Result<LstsqResult> {
    let (_, m, n) = prepared("lstsq", a, false)?;
    let vector = b.ndim() == 1;
    let rows = if vector {
        b.shape()[0]
    } else if b.ndim() >= 2 {
        b.shape()[b.ndim() - 2]
    } else {
        usize::MAX
    };
    if rows != m {
        return Err(Error::InvalidArgument {
            op: "lstsq",
            msg: format!("Shape mismatch: a and b should have the same number of rows ({m} != {rows})"),
        });
    }
    let dt = common_dtype("lstsq", &[a.dtype(), b.dtype()])?;
    let (x, y) = (a.cast_if(dt)?, b.cast_if(dt)?);
    let y = if vector { y.expand_dims(-1)? } else { y };
    let k = y.shape()[y.ndim() - 1];
    let bshape = xp_core::broadcast_shapes("lstsq", batch(&x), batch(&y))?;
    let (x, y) = (x.broadcast_to(with_tail(&bshape, &[m, n]))?, y.broadcast_to(with_tail(&bshape, &[m, k]))?);
    let eps = if dt.to_real() == DType::F32 { f32::EPSILON as f64 } else { f64::EPSILON };
    let cond = spec.cond.unwrap_or(eps);
    let f = svd(&x, false)?;
    let dev = crate::on(x.device());
    let real = dt.to_real();
    let top = if f.s.shape()[f.s.ndim() - 1] == 0 {
        dev.zeros(with_tail(&bshape, &[1]), real)?
    } else {
        f.s.max_keepdim(-1)?
    };
    let large = f.s.gt(&top.mul(cond)?)?;
    let rank = large.astype(DType::I64)?.sum(-1)?;
    let one = dev.ones([], real)?;
    let sinv = crate::where_(&large, &one.div(&f.s)?, 0.0)?.cast_if(dt)?;
    let uhb = crate::matmul(&crate::matrix_transpose(&f.u)?.conj()?, &y)?;
    let sol = crate::matmul(&crate::matrix_transpose(&f.vh)?.conj()?, &uhb.mul(&sinv.expand_dims(-1)?)?)?;
    let full = m > n && rank.size() > 0 && rank.min(..)?.item::<i64>()? == n as i64;
    let residues = if full && spec.driver != LstsqDriver::Gelsy {
        let r = y.sub(&crate::matmul(&x, &sol)?)?.abs()?.square()?.sum(-2)?.astype(real)?;
        if vector {
            r.squeeze(-1)?
        } else {
            r
        }
    } else {
        dev.zeros(with_tail(&bshape, &[0]), dt)?
    };
    let s = if spec.driver == LstsqDriver::Gelsy { dev.zeros(with_tail(&bshape, &[0]), real)? } else { f.s };
    let x = if vector { sol.squeeze(-1)? } else { sol };
    Ok(LstsqResult { x, residues, rank, s })
}
