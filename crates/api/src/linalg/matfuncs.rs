//! SciPy's matrix functions, batched over leading axes and composed from the seam (products and
//! solves), so that they run on every device: `expm` and the trigonometric and hyperbolic
//! functions built on it (`cosm sinm tanm coshm sinhm tanhm`).
//!
//! ```
//! use xp::linalg;
//! // exp of a rotation generator is the rotation
//! let t = 0.5f64;
//! let a = xp::Array::from_vec(vec![0.0, -t, t, 0.0], &[2, 2]).unwrap();
//! let r = linalg::expm(&a).unwrap().to_vec::<f64>().unwrap();
//! assert!((r[0] - t.cos()).abs() < 1e-15 && (r[2] - t.sin()).abs() < 1e-15);
//! ```
use super::{prepared, solve, NormOrd};
use crate::Array;
use xp_core::Result;

/// The 1-norm up to which the [13/13] approximant is accurate to double precision unscaled.
const THETA13: f64 = 5.371920351148152;

/// The lower degrees and the 1-norm up to which each approximant is accurate to double
/// precision unscaled (Higham 2005).
const LOW: [(usize, f64); 4] =
    [(3, 1.495585217958292e-2), (5, 2.53939833006323e-1), (7, 9.504178996162932e-1), (9, 2.097847961257068)];

/// Padé coefficients b_0..b_m of degree m (Higham 2005).
pub(crate) fn pade(m: usize) -> &'static [f64] {
    match m {
        3 => &[120.0, 60.0, 12.0, 1.0],
        5 => &[30240.0, 15120.0, 3360.0, 420.0, 30.0, 1.0],
        7 => &[17297280.0, 8648640.0, 1995840.0, 277200.0, 25200.0, 1512.0, 56.0, 1.0],
        9 => &[
            17643225600.0,
            8821612800.0,
            2075673600.0,
            302702400.0,
            30270240.0,
            2162160.0,
            110880.0,
            3960.0,
            90.0,
            1.0,
        ],
        _ => &[
            64764752532480000.0,
            32382376266240000.0,
            7771770303897600.0,
            1187353796428800.0,
            129060195264000.0,
            10559470521600.0,
            670442572800.0,
            33522128640.0,
            1323241920.0,
            40840800.0,
            960960.0,
            16380.0,
            182.0,
            1.0,
        ],
    }
}

/// The matrix exponential (SciPy `expm(a)`), Higham's scaling and squaring: the Padé
/// approximant of the lowest degree (3, 5, 7, 9) accurate at the stack's largest 1-norm, or of
/// degree 13 with each matrix scaled by its own power of two (`2^-s`, `s = ⌈log2(‖A‖₁ /
/// θ₁₃)⌉`) and squared back `s` times. Float32 and complex64 stay in single precision;
/// integers are computed in float64, as SciPy's. One read of the largest norm (a wait on a GPU).
pub fn expm(a: &Array) -> Result<Array> {
    let (x, n, _) = prepared("expm", a, true)?;
    if x.size() == 0 {
        return x.copy();
    }
    let norm = super::matrix_norm(&x, NormOrd::P(1.0))?;
    let top = if norm.ndim() == 0 { norm.item::<f64>()? } else { norm.max(..)?.item::<f64>()? };
    if let Some(&(m, _)) = LOW.iter().find(|l| top <= l.1) {
        return pade_eval(&x, n, m);
    }
    // s per matrix (0 for a small or zero norm: log2(0) = -inf is clipped)
    let s = norm.div(THETA13)?.log2()?.ceil()?.clip(Some(0.0), None::<f64>)?;
    let squarings = (top / THETA13).log2().ceil().max(0.0);
    let squarings = if squarings.is_finite() { squarings as usize } else { 0 };
    let s3 = s.expand_dims(-1)?.expand_dims(-1)?;
    let a = x.mul(&s3.neg()?.exp2()?)?;
    let mut r = pade_eval(&a, n, 13)?;
    for k in 0..squarings {
        let sq = crate::matmul(&r, &r)?;
        r = if s.ndim() == 0 { sq } else { crate::where_(&s3.gt(k as f64)?, &sq, &r)? };
    }
    Ok(r)
}

/// `r_m(A)` of the checked square stack `a` (`n × n` matrices): the backend's one-pass
/// evaluation where it has one (the CPU), else composed of products, sums and a solve.
fn pade_eval(a: &Array, n: usize, m: usize) -> Result<Array> {
    let b = pade(m);
    use xp_core::LinalgStorage;
    match crate::backend::on_storage!(&*a.read(), s => s.expm_pade(&a.layout, b)) {
        Ok(st) => return Ok(Array::from_storage(st, a.shape())),
        Err(xp_core::Error::Unsupported { .. }) => {}
        Err(e) => return Err(e),
    }
    let eye = crate::on(a.device()).eye(n, None, 0, a.dtype())?;
    let a2 = crate::matmul(a, a)?;
    let (u, v) = if m == 13 {
        let a4 = crate::matmul(&a2, &a2)?;
        let a6 = crate::matmul(&a4, &a2)?;
        // Σ_j c[2j] A^(2j+2) + d I over A², A⁴, A⁶
        let comb = |c: &[f64], d: f64| -> Result<Array> {
            let p = a6.mul(c[4])?.add(&a4.mul(c[2])?)?.add(&a2.mul(c[0])?)?;
            if d == 0.0 {
                Ok(p)
            } else {
                p.add(&eye.mul(d)?)
            }
        };
        let u = crate::matmul(&a6, &comb(&b[9..], 0.0)?)?.add(&comb(&b[3..], b[1])?)?;
        let v = crate::matmul(&a6, &comb(&b[8..], 0.0)?)?.add(&comb(&b[2..], b[0])?)?;
        (u, v)
    } else {
        // U = A Σ b[odd k] A^(k-1), V = Σ b[even k] A^k
        let (mut pw, mut u, mut v) = (eye.clone(), eye.mul(b[1])?, eye.mul(b[0])?);
        for k in (2..b.len()).step_by(2) {
            pw = crate::matmul(&pw, &a2)?;
            v = v.add(&pw.mul(b[k])?)?;
            if k + 1 < b.len() {
                u = u.add(&pw.mul(b[k + 1])?)?;
            }
        }
        (u, v)
    };
    let u = crate::matmul(a, &u)?;
    solve(&v.sub(&u)?, &v.add(&u)?)
}

/// `expm(i·A)` in the complex dtype of `a`'s precision (`a` a checked square stack).
fn expm_i(a: &Array, sign: f64) -> Result<Array> {
    let (x, _, _) = prepared("expm", a, true)?;
    let c = x.astype(x.dtype().to_complex())?;
    expm(&c.mul(xp_core::Complex64::new(0.0, sign))?)
}

/// The matrix cosine (SciPy `cosm`): `Re expm(iA)` for real `A`, `(expm(iA) + expm(-iA)) / 2`
/// otherwise.
pub fn cosm(a: &Array) -> Result<Array> {
    let e = expm_i(a, 1.0)?;
    if compute_complex(a)? {
        e.add(&expm_i(a, -1.0)?)?.mul(0.5)
    } else {
        e.real()
    }
}

/// The matrix sine (SciPy `sinm`): `Im expm(iA)` for real `A`, `(expm(iA) - expm(-iA)) / 2i`
/// otherwise.
pub fn sinm(a: &Array) -> Result<Array> {
    let e = expm_i(a, 1.0)?;
    if compute_complex(a)? {
        e.sub(&expm_i(a, -1.0)?)?.mul(xp_core::Complex64::new(0.0, -0.5))
    } else {
        e.imag()
    }
}

/// The matrix tangent (SciPy `tanm`): `cosm(A)⁻¹ sinm(A)`.
pub fn tanm(a: &Array) -> Result<Array> {
    solve(&cosm(a)?, &sinm(a)?)
}

/// The matrix hyperbolic cosine (SciPy `coshm`): `(expm(A) + expm(-A)) / 2`.
pub fn coshm(a: &Array) -> Result<Array> {
    expm(a)?.add(&expm(&a.neg()?)?)?.mul(0.5)
}

/// The matrix hyperbolic sine (SciPy `sinhm`): `(expm(A) - expm(-A)) / 2`.
pub fn sinhm(a: &Array) -> Result<Array> {
    expm(a)?.sub(&expm(&a.neg()?)?)?.mul(0.5)
}

/// The matrix hyperbolic tangent (SciPy `tanhm`): `coshm(A)⁻¹ sinhm(A)`.
pub fn tanhm(a: &Array) -> Result<Array> {
    solve(&coshm(a)?, &sinhm(a)?)
}

/// Whether `a` computes in a complex dtype (its checks as `expm`'s).
fn compute_complex(a: &Array) -> Result<bool> {
    Ok(super::compute_dtype("expm", a.dtype())?.is_complex())
}

/// `expm(A)` and the Fréchet derivative of the exponential at `A` in the direction `E`
/// (SciPy `expm_frechet(A, E)`), as the two blocks of the exponential of the block-triangular
/// `[[A, E], [0, A]]` (Higham, *Functions of Matrices*, thm. 3.6), batched; float64 or
/// complex128 whatever the input precision (as SciPy's). `A` and `E` of different shapes are
/// [`xp_core::Error::InvalidArgument`].
pub fn expm_frechet(a: &Array, e: &Array) -> Result<(Array, Array)> {
    let (x, n, _) = prepared("expm_frechet", a, true)?;
    let (y, _, _) = prepared("expm_frechet", e, true)?;
    if x.shape() != y.shape() {
        return Err(xp_core::Error::InvalidArgument {
            op: "expm_frechet",
            msg: format!("expected A and E to be the same shape, got {:?} and {:?}", a.shape(), e.shape()),
        });
    }
    let dt = if x.dtype().is_complex() || y.dtype().is_complex() { xp_core::DType::C128 } else { xp_core::DType::F64 };
    let (x, y) = (x.astype(dt)?, y.astype(dt)?);
    let zero = crate::on(x.device()).zeros(x.shape(), dt)?;
    let top = crate::concatenate(&[&x, &y], -1)?;
    let bottom = crate::concatenate(&[&zero, &x], -1)?;
    let m = expm(&crate::concatenate(&[&top, &bottom], -2)?)?;
    use xp_core::SliceElem as S;
    let (lo, hi) = (S::from(0..n as isize), S::from(n as isize..2 * n as isize));
    let ea = m.slice([S::Ellipsis, lo, lo])?.copy()?;
    let l = m.slice([S::Ellipsis, lo, hi])?.copy()?;
    Ok((ea, l))
}
