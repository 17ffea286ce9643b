//! SciPy's sparse matrix functions: `norm`, `onenormest`, `inv`, `expm` (Padé with scaling and
//! squaring, Al-Mohy & Higham 2009), `expm_multiply` (the truncated Taylor series of Al-Mohy &
//! Higham 2011) and `matrix_power`, over xp's sparse operations on the matrix's device (`inv`
//! and the Padé quotient of `expm` solve through [`super::splu`] on the host).
//!
//! ```
//! use xp::sparse::linalg::{expm_multiply, matrix_power};
//! use xp::sparse::{CsrArray, Sparse};
//! // the nilpotent shift: exp(N) e_2 = (1/2, 1, 1)
//! let n = CsrArray::from_dense(&xp::Array::from_vec(vec![0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0], &[3, 3]).unwrap()).unwrap();
//! let e2 = xp::Array::from_vec(vec![0.0, 0.0, 1.0], &[3]).unwrap();
//! let y = expm_multiply(&n, &e2).unwrap().to_vec::<f64>().unwrap();
//! assert!((y[0] - 0.5).abs() < 1e-14 && (y[1] - 1.0).abs() < 1e-14 && (y[2] - 1.0).abs() < 1e-14);
//! assert_eq!(matrix_power(&n, 3).unwrap().nnz(), 0);
//! ```
use super::super::arith::Sparse;
use super::super::{CsrArray, Format, SparseArray};
use super::direct::{fp_type, splu, square, Trans};
use crate::linalg::matfuncs::pade;
use crate::linalg::NormOrd;
use crate::Array;
use xp_core::{DType, Error, Result};

/// `f(values)` of the canonical CSR form of `a`, the structure shared (not checked again).
fn with_values(a: &CsrArray, f: impl Fn(&Array) -> Result<Array>) -> Result<CsrArray> {
    let mut c = a.0.clone();
    c.data = f(&c.data)?;
    Ok(CsrArray(c))
}

/// `|A|` as canonical CSR.
fn abs_csr(a: &dyn Sparse) -> Result<CsrArray> {
    with_values(&a.canonical_csr()?, |d| d.abs())
}

/// The norm of a sparse matrix (SciPy's `scipy.sparse.linalg.norm`): with `axis` `None` the
/// matrix norm `ord` (Frobenius by default; `Inf`/`NegInf` the largest/smallest row sum of
/// `|A|`, `P(1)`/`P(-1)` column sums, `P(2)` the largest singular value by [`super::svds`]; a 0-d
/// array), else the vector norm `ord` of each column (`axis = 0`) or row (`axis = 1`): `P(2)`
/// by default, `Inf`, `NegInf`, `P(0)` (nonzeros), any other `P(p)`.
pub fn norm(x: &dyn Sparse, ord: Option<NormOrd>, axis: Option<usize>) -> Result<Array> {
    let op = "norm";
    let real =
        if matches!(x.dtype(), DType::C64 | DType::F32 | DType::F16 | DType::BF16) { DType::F32 } else { DType::F64 };
    let real = if x.dtype().is_complex() || x.dtype().is_float() { real } else { DType::F64 };
    let bad = |what: &str| {
        Err(Error::invalid(
            op,
            format!("invalid norm order {what} for {}", if axis.is_some() { "vectors" } else { "matrices" }),
        ))
    };
    let Some(ax) = axis else {
        // the sums of |A| over `axis` as a product with a vector of ones (the sparse `sum`
        // measured 16× SciPy's time at 256²)
        let sums = |axis: usize| -> Result<Array> {
            let a = abs_csr(x)?;
            let ones = crate::creation::full_on(a.device(), &[x.shape()[1 - axis]], 1, a.dtype())?;
            if axis == 0 {
                a.transpose().matmul(&ones)
            } else {
                a.matmul(&ones)
            }
        };
        return match ord {
            None | Some(NormOrd::Fro) => {
                let d = x.canonical_csr()?.data().clone();
                let d = if d.dtype().is_complex() || d.dtype() == real { d } else { d.astype(real)? };
                crate::vdot(&d, &d)?.real()?.astype(real)?.sqrt()
            }
            Some(NormOrd::Inf) => sums(1)?.max(..),
            Some(NormOrd::NegInf) => sums(1)?.min(..),
            Some(NormOrd::P(1.0)) => sums(0)?.max(..),
            Some(NormOrd::P(-1.0)) => sums(0)?.min(..),
            Some(NormOrd::P(2.0)) => {
                let [m, n] = x.shape();
                if m.min(n) < 2 {
                    return crate::linalg::norm(&x.canonical_csr()?.toarray()?, NormOrd::P(2.0), ..);
                }
                let s = super::svds(&x.canonical_csr()?, 1, Default::default())?.s;
                s.reshape(Vec::<isize>::new())
            }
            Some(o) => bad(&format!("{o:?}")),
        };
    };
    if ax > 1 {
        return Err(Error::invalid(op, format!("axis {ax} is out of bounds for a 2-D array")));
    }
    let absf = with_values(&abs_csr(x)?, |d| d.astype(real))?;
    let with = |f: &dyn Fn(&Array) -> Result<Array>| -> Result<CsrArray> { with_values(&absf, f) };
    match ord {
        None => with(&|d| d.square())?.sum(Some(ax))?.sqrt(),
        Some(NormOrd::P(2.0)) => with(&|d| d.square())?.sum(Some(ax))?.sqrt(),
        Some(NormOrd::P(1.0)) => absf.sum(Some(ax)),
        Some(NormOrd::P(0.0)) => with(&|d| d.ne(0.0)?.astype(real))?.sum(Some(ax)),
        Some(NormOrd::Inf) => absf.max(Some(ax), false),
        Some(NormOrd::NegInf) => absf.min(Some(ax), false),
        Some(NormOrd::P(p)) => with(&|d| d.pow(p))?.sum(Some(ax))?.pow(1.0 / p),
        Some(o) => bad(&format!("{o:?}")),
    }
}

/// The 1-norm of a sparse matrix as a host number.
fn one_norm(a: &dyn Sparse) -> Result<f64> {
    norm(a, Some(NormOrd::P(1.0)), None)?.to_f64()
}

/// The inverse of a square sparse `a` (SciPy's `inv`): sparse, in `a`'s format for CSC (CSR
/// otherwise), by `splu` and solves of blocks of 256 columns of the identity, each block's
/// zeros dropped. Singular: `Err(LinAlg { SingularColumn })`.
pub fn inv(a: &dyn Sparse) -> Result<SparseArray> {
    let n = square(a).map_err(|e| e.in_op("inv"))?;
    let lu = splu(a).map_err(|e| e.in_op("inv"))?;
    let out = solve_columns(&lu, n, a.device(), |lo, hi| {
        let eye = crate::eye(n, Some(hi - lo), -(lo as isize), lu.dtype())?;
        eye.to_device(a.device())
    })?;
    in_format(out, a.format())
}

/// `lu⁻¹ B` for `B` made in blocks of columns by `block(lo, hi)`, as CSC (zeros dropped).
fn solve_columns(
    lu: &super::SuperLu,
    n: usize,
    device: xp_core::Device,
    block: impl Fn(usize, usize) -> Result<Array>,
) -> Result<SparseArray> {
    let mut parts = Vec::new();
    let mut lo = 0;
    while lo < n || (n == 0 && parts.is_empty()) {
        let hi = (lo + 256).min(n);
        let x = lu.solve(&block(lo, hi)?, Trans::N)?;
        let x = if x.ndim() == 1 { x.reshape([-1, 1])? } else { x };
        parts.push(SparseArray::Csc(super::super::CscArray::from_dense(&x.to_device(device)?)?));
        lo = hi;
        if n == 0 {
            break;
        }
    }
    let refs: Vec<&dyn Sparse> = parts.iter().map(|p| p as &dyn Sparse).collect();
    crate::sparse::hstack(&refs)?.asformat(Format::Csc)
}

fn in_format(a: SparseArray, f: Format) -> Result<SparseArray> {
    a.asformat(if f == Format::Csc { Format::Csc } else { Format::Csr })
}

/// `Aⁿ` for a square sparse `a` and `power ≥ 0` (SciPy's `matrix_power`; `A⁰` is the identity),
/// by repeated squaring of sparse products, in CSR (CSC for CSC).
pub fn matrix_power(a: &dyn Sparse, power: u32) -> Result<SparseArray> {
    let n = square(a).map_err(|e| e.in_op("matrix_power"))?;
    let mut result = crate::sparse::identity(n, a.dtype(), Format::Csr, a.device())?;
    let mut base = SparseArray::Csr(a.canonical_csr()?);
    let mut p = power;
    while p > 0 {
        if p & 1 == 1 {
            result = result.matmul_sparse(&base)?;
        }
        p >>= 1;
        if p > 0 {
            base = base.matmul_sparse(&base)?;
        }
    }
    in_format(result, a.format())
}

/// `e^A` of a square sparse `a` (SciPy's `expm`): the Padé approximant of degree 3, 5, 7, 9 or 13
/// chosen by `‖A‖₁` with scaling and squaring (Al-Mohy & Higham 2009 without the refinements of
/// the norm estimates), sparse products on `a`'s device and the quotient `Q⁻¹P` by `splu`;
/// in `a`'s format for CSC (CSR otherwise). Integer input works in float64.
pub fn expm(a: &dyn Sparse) -> Result<SparseArray> {
    let op = "expm";
    let n = square(a).map_err(|e| e.in_op(op))?;
    let dt = fp_type(a.dtype());
    let c = a.canonical_csr()?;
    let a0 = SparseArray::Csr(CsrArray::new(&c.data().astype(dt)?, c.indices(), c.indptr(), c.shape())?);
    let nrm = one_norm(&a0)?;
    let theta =
        [(3, 1.495585217958292e-2), (5, 2.539_398_330_063_23e-1), (7, 9.504178996162932e-1), (9, 2.097847961257068e0)];
    let (m, s) = match theta.iter().find(|t| nrm <= t.1) {
        Some(&(m, _)) => (m, 0),
        None => (13, (nrm / 5.371_920_351_148_152).log2().ceil().max(0.0) as i32),
    };
    let a1 = if s > 0 { a0.mul_scalar(0.5f64.powi(s))? } else { a0 };
    let b = pade(m);
    let eye = crate::sparse::identity(n, dt, Format::Csr, a.device())?;
    let a2 = a1.matmul_sparse(&a1)?;
    // U = A Σ b_{2j+1} A^{2j}, V = Σ b_{2j} A^{2j}
    let mut powers = vec![eye.clone(), a2.clone()];
    let half = if m == 13 { 3 } else { m / 2 };
    while powers.len() <= half {
        let next = powers.last().expect("nonempty").matmul_sparse(&a2)?;
        powers.push(next);
    }
    let (u_inner, v) = if m == 13 {
        // U = A [A6 (b13 A6 + b11 A4 + b9 A2) + b7 A6 + b5 A4 + b3 A2 + b1 I], V likewise
        let (i, p2, p4, p6) = (&powers[0], &powers[1], &powers[2], &powers[3]);
        let lin = |c: [f64; 4], with_a6: bool| -> Result<SparseArray> {
            let mut s = p2.mul_scalar(c[1])?.add(&p4.mul_scalar(c[2])?)?;
            if with_a6 {
                s = s.add(&p6.mul_scalar(c[3])?)?;
            }
            if c[0] != 0.0 {
                s = s.add(&i.mul_scalar(c[0])?)?;
            }
            Ok(s)
        };
        let u_hi = p6.matmul_sparse(&lin([0.0, b[9], b[11], b[13]], true)?)?;
        let u = u_hi.add(&lin([b[1], b[3], b[5], b[7]], true)?)?;
        let v_hi = p6.matmul_sparse(&lin([0.0, b[8], b[10], b[12]], true)?)?;
        let v = v_hi.add(&lin([b[0], b[2], b[4], b[6]], true)?)?;
        (u, v)
    } else {
        let mut u = powers[0].mul_scalar(b[1])?;
        let mut v = powers[0].mul_scalar(b[0])?;
        for j in 1..=half {
            u = u.add(&powers[j].mul_scalar(b[2 * j + 1])?)?;
            v = v.add(&powers[j].mul_scalar(b[2 * j])?)?;
        }
        (u, v)
    };
    let u = a1.matmul_sparse(&u_inner)?;
    let p = v.add(&u)?;
    let q = v.sub(&u)?;
    let lu = splu(&q).map_err(|e| e.in_op(op))?;
    let pd = p.toarray()?;
    let mut r = solve_columns(&lu, n, a.device(), |lo, hi| pd.slice(crate::s![.., lo as isize..hi as isize]))?;
    for _ in 0..s {
        r = r.matmul_sparse(&r)?;
    }
    in_format(r, a.format())
}

/// Al-Mohy & Higham's θ_m for double precision (SciPy's table).
const THETA: [(usize, f64); 35] = [
    (1, 2.29e-16),
    (2, 2.58e-8),
    (3, 1.39e-5),
    (4, 3.4e-4),
    (5, 2.4e-3),
    (6, 9.07e-3),
    (7, 2.38e-2),
    (8, 5.0e-2),
    (9, 8.96e-2),
    (10, 1.44e-1),
    (11, 2.14e-1),
    (12, 3.0e-1),
    (13, 4.0e-1),
    (14, 5.14e-1),
    (15, 6.41e-1),
    (16, 7.81e-1),
    (17, 9.31e-1),
    (18, 1.09),
    (19, 1.26),
    (20, 1.44),
    (21, 1.62),
    (22, 1.82),
    (23, 2.01),
    (24, 2.22),
    (25, 2.43),
    (26, 2.64),
    (27, 2.86),
    (28, 3.08),
    (29, 3.31),
    (30, 3.54),
    (35, 4.7),
    (40, 6.0),
    (45, 7.2),
    (50, 8.5),
    (55, 9.9),
];

/// `e^A B` without forming `e^A` (SciPy's `expm_multiply` at one time point): `B` of shape
/// `(n,)` or `(n, k)`; the trace shift `μ = tr(A)/n`, then `s` steps of a Taylor polynomial of
/// degree `m` chosen by `‖A − μI‖₁` (Al-Mohy & Higham 2011, Algorithm 3.2, with the 1-norm in
/// place of the estimates of `‖Aᵖ‖^(1/p)`), stopping each step's series at the working
/// precision. Only sparse products and vector updates: it runs on the device of `a` and `b`.
pub fn expm_multiply(a: &dyn Sparse, b: &Array) -> Result<Array> {
    let op = "expm_multiply";
    let n = square(a).map_err(|e| e.in_op(op))?;
    if b.ndim() == 0 || b.ndim() > 2 || b.shape()[0] != n {
        return Err(Error::invalid(op, format!("shapes of A {:?} and B {:?} are incompatible", [n, n], b.shape())));
    }
    let dt = fp_type(xp_core::promote_types(fp_type(a.dtype()), b.dtype()));
    let c = a.canonical_csr()?;
    let data = c.data().astype(dt)?;
    let a0 = CsrArray::new(&data, c.indices(), c.indptr(), c.shape())?;
    let mut bb = b.astype(dt)?;
    if n == 0 {
        return Ok(bb);
    }
    // A − μI (μ the real part of the mean eigenvalue, trace / n) is never formed (a sparse sum
    // that measured two thirds of the whole call): its product is `A x − μ x`, its 1-norm the
    // column sums of |A| off the diagonal plus |a_jj − μ|
    let (rows, cols) = c.0.coords()?;
    let on_diag = rows.eq(&cols)?;
    let diag = crate::creation::full_on(a.device(), &[n], 0, dt)?;
    crate::scatter_add(&diag, &cols, &crate::where_(&on_diag, &data, 0)?.cast_if(dt)?)?;
    let mu = diag.sum(..)?.astype(DType::C128)?.scalar()?.to_c128().re / n as f64;
    let sums = crate::creation::full_on(a.device(), &[n], 0, DType::F64)?;
    crate::scatter_add(&sums, &cols, &crate::where_(&on_diag, 0.0, &data.abs()?.astype(DType::F64)?)?)?;
    let nrm = sums.add(&diag.sub(mu)?.abs()?.astype(DType::F64)?)?.max(..)?.to_f64()?;
    let tol = if matches!(dt, DType::F32 | DType::C64) { 2f64.powi(-24) } else { 2f64.powi(-53) };
    if nrm == 0.0 {
        return bb.mul(mu.exp());
    }
    // m* and s minimising m · s with s = ceil(‖A‖₁ / θ_m)
    let (m, s) = THETA
        .iter()
        .map(|&(m, th)| (m, (nrm / th).ceil().max(1.0) as usize))
        .min_by_key(|&(m, s)| (m * s, m))
        .expect("table");
    let inf_norm = |x: &Array| -> Result<f64> { x.abs()?.max(..)?.astype(DType::F64)?.to_f64() };
    let eta = (mu / s as f64).exp();
    let mut f = bb.clone();
    for _ in 0..s {
        let mut c1 = inf_norm(&bb)?;
        for j in 1..=m {
            bb = a0.matmul(&bb)?.sub(&bb.mul(mu)?)?.mul(1.0 / (s * j) as f64)?;
            let c2 = inf_norm(&bb)?;
            f = f.add(&bb)?;
            if c1 + c2 <= tol * inf_norm(&f)? {
                break;
            }
            c1 = c2;
        }
        f = f.mul(eta)?;
        bb = f.clone();
    }
    Ok(f)
}

/// A lower bound of `‖A‖₁` (SciPy's `onenormest`) by the block algorithm of Higham & Tisseur
/// (2000) with `t` columns (SciPy's default 2) and at most `itmax` iterations (5), from
/// `A X` and `Aᴴ Y` products only; exact (the column sums) when `t ≥ n`. The starting columns
/// are ±1 from a fixed pseudo-random sequence (SciPy draws them from NumPy's generator).
pub fn onenormest(a: &dyn super::LinearOperator, t: usize, itmax: usize) -> Result<f64> {
    let op = "onenormest";
    a.validate()?;
    let [rows, n] = a.shape();
    if rows != n {
        return Err(Error::LinAlg { op, kind: xp_core::LinAlgKind::NotSquare { rows, cols: n } });
    }
    if t == 0 || itmax < 2 {
        return Err(Error::invalid(op, format!("t = {t} must be at least 1 and itmax = {itmax} at least 2")));
    }
    let dt = match a.dtype() {
        d if d.is_complex() => DType::C128,
        _ => DType::F64,
    };
    let device = match a.to_csr() {
        Some(c) => c?.device(),
        None => xp_core::Device::Cpu,
    };
    let col_norms = |y: &Array| -> Result<Vec<f64>> { y.abs()?.sum(0)?.astype(DType::F64)?.to_vec::<f64>() };
    if t >= n {
        // exact: A I
        let y = a.matmat(&crate::eye(n, None, 0, dt)?.to_device(device)?)?;
        return Ok(col_norms(&y)?.into_iter().fold(0.0, f64::max));
    }
    // X: first column ones, the others ±1, all scaled by 1/n
    let mut s: u64 = 0x9E3779B97F4A7C15;
    let mut x = vec![1.0f64; n * t];
    for i in 0..n {
        for j in 1..t {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            x[i * t + j] = if s >> 63 == 0 { 1.0 } else { -1.0 };
        }
    }
    let mut xa =
        Array::from_vec(x.iter().map(|v| v / n as f64).collect::<Vec<f64>>(), [n, t])?.astype(dt)?.to_device(device)?;
    let mut est_old = 0.0;
    let mut est = 0.0;
    let mut hist = vec![false; n];
    // the rows whose unit vectors are X's columns (from the second iteration)
    let mut ind: Vec<usize> = Vec::new();
    let mut ind_best = usize::MAX;
    for k in 1..=itmax {
        let y = a.matmat(&xa)?.astype(dt)?;
        let norms = col_norms(&y)?;
        let (best, &e) = norms
            .iter()
            .enumerate()
            .max_by(|p, q| p.1.partial_cmp(q.1).unwrap_or(std::cmp::Ordering::Equal))
            .expect("t >= 1");
        est = e;
        if k >= 2 && est <= est_old {
            est = est_old;
            break;
        }
        if k >= 2 {
            ind_best = ind[best];
        }
        est_old = est;
        if k == itmax {
            break;
        }
        // S = sign(Y) (y/|y| for complex, 1 at zeros), Z = Aᴴ S, h_i = max_j |Z_ij|
        let sgn = if dt.is_complex() {
            let zero = y.abs()?.eq(0.0)?.astype(dt)?;
            y.add(&zero)?.div(&y.abs()?.astype(dt)?.add(&zero)?)?
        } else {
            y.ge(0.0)?.astype(dt)?.mul(2.0)?.sub(1.0)?
        };
        let z = a.rmatmat(&sgn)?;
        let h: Vec<f64> = z.abs()?.max(1)?.astype(DType::F64)?.to_vec::<f64>()?;
        let hmax = h.iter().copied().fold(0.0, f64::max);
        if k >= 2 && ind_best < n && h[ind_best] >= hmax {
            break;
        }
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&p, &q| h[q].partial_cmp(&h[p]).unwrap_or(std::cmp::Ordering::Equal));
        if order[..t].iter().all(|&i| hist[i]) {
            break;
        }
        ind = order.into_iter().filter(|&i| !hist[i]).take(t).collect();
        let mut e = vec![0.0f64; n * t];
        for (j, &i) in ind.iter().enumerate() {
            hist[i] = true;
            e[i * t + j] = 1.0;
        }
        // fewer than t fresh rows: repeat the last
        for j in ind.len()..t {
            e[ind[ind.len() - 1] * t + j] = 1.0;
        }
        while ind.len() < t {
            ind.push(ind[ind.len() - 1]);
        }
        xa = Array::from_vec(e, [n, t])?.astype(dt)?.to_device(device)?;
    }
    Ok(est)
}
