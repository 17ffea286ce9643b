//! SciPy's matrix functions through the Schur form: `sqrtm`, `logm`, `funm`, `signm`,
//! `fractional_matrix_power`, batched over leading axes. Each matrix is brought to complex Schur
//! form `A = Z T Zᴴ` on the host ([`super::schur`]; real input through its real form and
//! `rsf2csf`, as SciPy), the function of the triangular `T` is formed by a recurrence, and
//! `Z F(T) Zᴴ` is assembled by matrix products. Arrays on a GPU are computed on the host and
//! brought back (CuPy has none of these functions).
//!
//! ```
//! use xp::linalg;
//! let a = xp::Array::from_vec(vec![4.0f64, 1.0, 0.0, 9.0], &[2, 2]).unwrap();
//! let r = linalg::sqrtm(&a).unwrap();                               // r @ r = a
//! assert!(xp::allclose(&xp::matmul(&r, &r).unwrap(), &a).unwrap());
//! let l = linalg::logm(&a).unwrap();                                // expm(logm(a)) = a
//! assert!(xp::allclose(&linalg::expm(&l).unwrap(), &a).unwrap());
//! ```
use super::prepared;
use super::schur::{eps_of, host_c128, schur, split_blocks, SchurOutput};
use crate::{Array, Device};
use xp_core::{Complex64, DType, Result};

type C = Complex64;
const ZERO: C = C::new(0.0, 0.0);
const ONE: C = C::new(1.0, 0.0);

/// Every matrix of a square stack in complex Schur form on the host (complex128, row-major).
pub(crate) struct Forms {
    /// the matrix size
    pub n: usize,
    /// the triangular factors, one `n × n` run per matrix
    pub t: Vec<C>,
    /// the Schur vectors, one `n × n` run per matrix
    pub z: Vec<C>,
    /// real input whose real Schur form had a 2 × 2 block (a complex-conjugate pair), per matrix
    pub blocks: Vec<bool>,
    /// the shape of the stack
    pub shape: Vec<usize>,
    /// the device the input lives on
    pub device: Device,
}

impl Forms {
    /// The forms of `x`, a square stack of a compute dtype (float32 and complex64 are factored
    /// in single precision, as SciPy does).
    pub(crate) fn of(x: &Array) -> Result<Forms> {
        let n = x.shape()[x.ndim() - 1];
        // on the host: the factors are read there (a GPU array is copied once, not back and forth)
        let f = schur(&x.to_host()?, SchurOutput::Real)?;
        let (mut t, mut z) = (host_c128(&f.t)?, host_c128(&f.z)?);
        let count = if n == 0 { 0 } else { t.len() / (n * n) };
        let mut blocks = vec![false; count];
        if !x.dtype().is_complex() {
            for (b, (tm, zm)) in t.chunks_mut(n * n).zip(z.chunks_mut(n * n)).enumerate() {
                blocks[b] = (1..n).any(|i| tm[i * n + i - 1] != ZERO);
                split_blocks(tm, zm, n, eps_of(x.dtype()));
                if blocks[b] && x.dtype() == DType::F32 {
                    // SciPy's rsf2csf of a float32 form is complex64: round as it does (its
                    // rounding is what SciPy's realness tests then see)
                    for v in tm.iter_mut().chain(zm.iter_mut()) {
                        *v = C::new(v.re as f32 as f64, v.im as f32 as f64);
                    }
                }
            }
        }
        Ok(Forms { n, t, z, blocks, shape: x.shape().to_vec(), device: x.device() })
    }
    /// The number of matrices.
    pub(crate) fn count(&self) -> usize {
        self.blocks.len()
    }
    /// Matrix `b`'s triangular factor.
    pub(crate) fn tri(&self, b: usize) -> &[C] {
        &self.t[b * self.n * self.n..(b + 1) * self.n * self.n]
    }
    /// `Z F Zᴴ` for the per-matrix functions `f` of the triangular factors, complex128, on the
    /// host.
    pub(crate) fn assemble(&self, f: Vec<C>) -> Result<Array> {
        let z = Array::from_vec(self.z.clone(), self.shape.as_slice())?;
        let f = Array::from_vec(f, self.shape.as_slice())?;
        let zh = crate::matrix_transpose(&z)?.conj()?;
        crate::matmul(&crate::matmul(&z, &f)?, &zh)
    }
}

/// `out` (complex128, on the host) as `dtype`'s real or complex kind and back on `dev`.
fn finish(out: Array, real: bool, dtype: DType, dev: Device) -> Result<Array> {
    let out = if real { out.real()?.astype(dtype.to_real())? } else { out.astype(dtype.to_complex())? };
    out.to_device(dev)
}

/// The largest |imaginary part| of a complex128 host array.
fn max_imag(a: &Array) -> Result<f64> {
    Ok(a.to_vec::<C>()?.iter().fold(0.0f64, |m, z| m.max(z.im.abs())))
}

/// The principal square root of upper-triangular `t` (`n × n`, row-major) by the
/// Björck–Hammarling recurrence, column by column (a zero over a zero, from a singular `t`, is
/// taken as zero).
pub(crate) fn sqrt_tri(t: &[C], n: usize) -> Vec<C> {
    let mut r = vec![ZERO; n * n];
    for j in 0..n {
        r[j * n + j] = t[j * n + j].sqrt();
        for i in (0..j).rev() {
            let s: C = (i + 1..j).map(|k| r[i * n + k] * r[k * n + j]).sum();
            let (num, den) = (t[i * n + j] - s, r[i * n + i] + r[j * n + j]);
            r[i * n + j] = if num == ZERO { ZERO } else { num / den };
        }
    }
    r
}

/// `(I + c X)⁻¹ X` for upper-triangular `x` (back substitution, column by column).
fn resolvent(x: &[C], c: f64, n: usize) -> Vec<C> {
    let mut y = vec![ZERO; n * n];
    for col in 0..n {
        for i in (0..=col).rev() {
            let s: C = (i + 1..=col).map(|k| x[i * n + k] * c * y[k * n + col]).sum();
            y[i * n + col] = (x[i * n + col] - s) / (ONE + x[i * n + i] * c);
        }
    }
    y
}

/// Gauss–Legendre nodes and weights on [0, 1] (8 points): `log(I + X) = Σ wⱼ X (I + xⱼ X)⁻¹`
/// is the [8/8] Padé approximant, accurate to double precision for ‖X‖ ≤ 0.34.
const GAUSS8: [(f64, f64); 8] = [
    (0.019855071751231912, 0.05061426814518853),
    (0.10166676129318664, 0.11119051722668721),
    (0.2372337950418355, 0.15685332293894344),
    (0.4082826787521751, 0.18134189168918083),
    (0.5917173212478248, 0.18134189168918083),
    (0.7627662049581645, 0.15685332293894344),
    (0.8983332387068134, 0.11119051722668721),
    (0.9801449282487681, 0.05061426814518853),
];

/// The principal logarithm of upper-triangular `t` by inverse scaling and squaring (Higham,
/// *Functions of Matrices*, alg. 11.10): square roots until ‖T^(1/2^s) − I‖₁ ≤ 1/4, the [8/8]
/// Padé approximant, times 2^s; the diagonal is then set to the logarithms of `t`'s own.
pub(crate) fn log_tri(t: &[C], n: usize) -> Vec<C> {
    let mut x = t.to_vec();
    let mut s = 0i32;
    while s < 64 {
        let norm = (0..n)
            .map(|j| (0..=j).map(|i| (x[i * n + j] - if i == j { ONE } else { ZERO }).norm()).sum::<f64>())
            .fold(0.0, f64::max);
        if norm <= 0.25 || !norm.is_finite() {
            break;
        }
        x = sqrt_tri(&x, n);
        s += 1;
    }
    for i in 0..n {
        x[i * n + i] -= ONE;
    }
    let mut l = vec![ZERO; n * n];
    for (node, w) in GAUSS8 {
        for (li, yi) in l.iter_mut().zip(resolvent(&x, node, n)) {
            *li += yi * w;
        }
    }
    let scale = 2f64.powi(s);
    for v in l.iter_mut() {
        *v *= scale;
    }
    for i in 0..n {
        l[i * n + i] = t[i * n + i].ln();
    }
    l
}

/// Parlett's recurrence for `f(T)` of upper-triangular `t` with `f` on its diagonal given (SciPy's
/// `funm` loops, unblocked): also the smallest |tⱼⱼ − tᵢᵢ| met (starting from |t₀₀|).
pub(crate) fn parlett(t: &[C], n: usize, diag: &[C]) -> (Vec<C>, f64) {
    let mut f = vec![ZERO; n * n];
    for i in 0..n {
        f[i * n + i] = diag[i];
    }
    let mut minden = if n > 0 { t[0].norm() } else { 0.0 };
    for p in 1..n {
        for i in 0..n - p {
            let j = i + p;
            let mut s = t[i * n + j] * (f[j * n + j] - f[i * n + i]);
            s += (i + 1..j).map(|k| t[i * n + k] * f[k * n + j] - f[i * n + k] * t[k * n + j]).sum::<C>();
            let den = t[j * n + j] - t[i * n + i];
            if den != ZERO {
                s /= den;
            }
            f[i * n + j] = s;
            minden = minden.min(den.norm());
        }
    }
    (f, minden)
}

/// The principal square root (SciPy `sqrtm(a)`): `X` with `X @ X = A`, of the input's dtype
/// (integers as float64); real input gives a real root unless an eigenvalue lies on the
/// negative real axis (then the complex dtype of its precision). Not square is
/// [`xp_core::LinAlgKind::NotSquare`].
pub fn sqrtm(a: &Array) -> Result<Array> {
    let (x, n, _) = prepared("sqrtm", a, true)?;
    if x.size() == 0 {
        return x.copy();
    }
    let f = Forms::of(&x)?;
    let mut out = Vec::with_capacity(f.t.len());
    let mut negative = false;
    for b in 0..f.count() {
        let t = f.tri(b);
        negative |= (0..n).any(|i| t[i * n + i].im == 0.0 && t[i * n + i].re < 0.0);
        out.extend(sqrt_tri(t, n));
    }
    let real = !x.dtype().is_complex() && !negative;
    finish(f.assemble(out)?, real, x.dtype(), f.device)
}

/// The principal logarithm (SciPy `logm(a)`): `X` with `expm(X) = A`, float64 or complex128
/// whatever the input (as SciPy's). Real input gives a real result where the imaginary parts
/// left are below 10⁶ ε (SciPy's `_maybe_real`): a real logarithm exists when no eigenvalue is
/// on the closed negative real axis. Float32 input is factored in single precision, as SciPy
/// does, so a float32 matrix with complex eigenvalues keeps imaginary parts of its rounding and
/// comes back complex, as there. A singular matrix gives infinities.
pub fn logm(a: &Array) -> Result<Array> {
    let (x, n, _) = prepared("logm", a, true)?;
    let dt = if x.dtype().is_complex() { DType::C128 } else { DType::F64 };
    if x.size() == 0 {
        return x.astype(dt);
    }
    let f = Forms::of(&x)?;
    let out: Vec<C> = (0..f.count()).flat_map(|b| log_tri(f.tri(b), n)).collect();
    let full = f.assemble(out)?;
    let real = !x.dtype().is_complex() && max_imag(&full)? <= 1e6 * f64::EPSILON;
    finish(full, real, dt, f.device)
}

/// A matrix function by the Schur–Parlett recurrence (SciPy `funm(a, func)`): `func` is
/// applied to the eigenvalues (the diagonal of the complex Schur form) and the rest follows
/// from Parlett's recurrence, which loses accuracy where eigenvalues are close. The result has
/// the input's precision; real input gives a real result where the imaginary parts left are
/// negligible (below 10³ ε of float32, 10⁶ ε of float64, SciPy's `_maybe_real`).
pub fn funm(a: &Array, func: impl Fn(Complex64) -> Complex64) -> Result<Array> {
    funm_err(a, func).map(|(f, _)| f)
}

/// [`funm`] and SciPy's estimate of its relative error (per matrix, the largest).
fn funm_err(a: &Array, func: impl Fn(Complex64) -> Complex64) -> Result<(Array, f64)> {
    let (x, _, _) = prepared("funm", a, true)?;
    if x.size() == 0 {
        return Ok((x.copy()?, 0.0));
    }
    funm_forms(&x, &Forms::of(&x)?, func)
}

/// [`funm_err`] of `x` (a prepared square stack, not empty) whose Schur forms `f` are known.
fn funm_forms(x: &Array, f: &Forms, func: impl Fn(Complex64) -> Complex64) -> Result<(Array, f64)> {
    let n = f.n;
    let eps = eps_of(x.dtype());
    let (mut out, mut err) = (Vec::with_capacity(f.t.len()), 0.0f64);
    for b in 0..f.count() {
        let t = f.tri(b);
        let diag: Vec<C> = (0..n).map(|i| func(t[i * n + i])).collect();
        let (fb, minden) = parlett(t, n, &diag);
        let minden = if minden == 0.0 { eps } else { minden };
        let upper = (0..n).map(|j| (0..j).map(|i| t[i * n + j].norm()).sum::<f64>()).fold(0.0, f64::max);
        let e = if fb.iter().any(|z| !z.is_finite()) { f64::INFINITY } else { 1f64.min(eps.max(eps / minden * upper)) };
        err = err.max(e);
        out.extend(fb);
    }
    let full = f.assemble(out)?;
    let tol = if eps < 1e-10 { 1e6 * eps } else { 1e3 * eps };
    let real = !x.dtype().is_complex() && max_imag(&full)? <= tol;
    Ok((finish(full, real, x.dtype(), f.device)?, err))
}

/// The matrix sign function (SciPy `signm(a)`): `sign(Re λ)` on the eigenvalues through
/// [`funm`] (eigenvalues within 10³ ε of the imaginary axis, relative to the largest, count as
/// zero), and where SciPy's error estimate of that is above 10³ ε, the scaled Newton iteration
/// `S ← (S + S⁻¹)/2` from `A + I/(2σ₁)` as SciPy runs it. The input's precision.
pub fn signm(a: &Array) -> Result<Array> {
    let (x, _, _) = prepared("signm", a, true)?;
    let eps = eps_of(x.dtype());
    let mut out = vec![];
    let stack: Vec<Array> = unstack(&x)?;
    for m in &stack {
        let f = Forms::of(m)?;
        let n = f.n;
        let t = f.tri(0);
        // SciPy's rounded_sign: np.amax over complex eigenvalues orders them lexicographically
        let top = (0..n).map(|i| t[i * n + i]).fold(None, |b: Option<C>, z| match b {
            Some(b) if (b.re, b.im) >= (z.re, z.im) => Some(b),
            _ => Some(z),
        });
        let c = top.unwrap_or(ZERO) * (1e3 * eps);
        let sign = move |z: C| {
            let r = z.re.abs();
            let above = r > c.re || (r == c.re && 0.0 > c.im);
            C::new(if above { z.re.signum() } else { 0.0 }, 0.0)
        };
        let (s, err) = funm_forms(m, &f, sign)?;
        out.push(if err < 1e3 * eps { s } else { newton_sign(m, 1e3 * eps)? });
    }
    restack(out, x.shape(), x.device())
}

/// SciPy's fall-back for `signm`: Newton's iteration for the sign of one matrix.
fn newton_sign(a: &Array, errtol: f64) -> Result<Array> {
    let n = a.shape()[0];
    let max_sv = super::svdvals(a)?.max(..)?.to_f64()?;
    let eye = crate::on(a.device()).eye(n, None, 0, a.dtype())?;
    let mut s = a.add(&eye.mul(0.5 / max_sv)?)?;
    let mut prev = f64::NAN;
    for _ in 0..100 {
        s = s.add(&super::inv(&s)?)?.mul(0.5)?;
        let pp = crate::matmul(&s, &s)?.add(&s)?.mul(0.5)?;
        let e = super::matrix_norm(&crate::matmul(&pp, &pp)?.sub(&pp)?, super::NormOrd::P(1.0))?.to_f64()?;
        if e < errtol || e == prev {
            break;
        }
        prev = e;
    }
    Ok(s)
}

/// The matrices of a stack, each `n × n`.
fn unstack(x: &Array) -> Result<Vec<Array>> {
    let n = x.shape()[x.ndim() - 1];
    let flat = x.reshape([x.size() / (n * n).max(1), n, n])?;
    (0..flat.shape()[0]).map(|i| flat.slice(crate::s![i as isize])).collect()
}

/// The matrices `ms` stacked back to `shape` on `dev`, in their common dtype.
fn restack(ms: Vec<Array>, shape: &[usize], dev: Device) -> Result<Array> {
    if ms.is_empty() {
        return crate::on(dev).zeros(shape, DType::F64);
    }
    let refs: Vec<&Array> = ms.iter().collect();
    crate::stack(&refs, 0)?.reshape(shape)?.to_device(dev)
}

/// A fractional power of a matrix (SciPy `fractional_matrix_power(a, t)`). An integer `t` is
/// [`super::matrix_power`] (the input's dtype); otherwise, as SciPy, `A^t = A^k A^(t−k)` with
/// `k` the floor or ceiling of `t` chosen by the condition number, `A^(t−k)` through the Schur
/// form as `exp((t−k) log T)`, float64 or complex128: complex where a real matrix has complex
/// or negative eigenvalues. A singular matrix with negative `t` gives NaN; with positive `t`
/// the Schur–Parlett recurrence of `z^(t−k)`.
pub fn fractional_matrix_power(a: &Array, t: f64) -> Result<Array> {
    let (x, n, _) = prepared("fractional_matrix_power", a, true)?;
    if t == t.trunc() && t.abs() < i64::MAX as f64 {
        return super::matrix_power(&x, t as i64);
    }
    let wide = if x.dtype().is_complex() { DType::C128 } else { DType::F64 };
    if x.size() == 0 {
        return x.astype(wide);
    }
    let mut out = vec![];
    let mut real = !x.dtype().is_complex();
    for m in unstack(&x)? {
        let s = super::svdvals(&m)?.astype(DType::F64)?.to_vec::<f64>()?;
        let f = Forms::of(&m)?;
        let tri = f.tri(0);
        real &= !f.blocks[0] && (0..n).all(|i| tri[i * n + i].re >= 0.0);
        let (lo, hi) = (s[0], s[n - 1]);
        let r = if hi == 0.0 {
            if t < 0.0 {
                let nan = crate::on(Device::Cpu).full([n, n], f64::NAN, DType::F64)?;
                out.push(nan.astype(DType::C128)?);
                continue;
            }
            let b = t - t.floor();
            let diag: Vec<C> = (0..n).map(|i| tri[i * n + i].powf(b)).collect();
            let q = super::matrix_power(&m.astype(wide)?, t.floor() as i64)?;
            (parlett(tri, n, &diag).0, q)
        } else {
            let k2 = lo / hi;
            let (p1, p2) = (t - t.floor(), t - t.ceil());
            let (k, b) = if p1 * k2.powf(1.0 - p1) <= -p2 * k2 { (t.floor(), p1) } else { (t.ceil(), p2) };
            let l = Array::from_vec(log_tri(tri, n), [n, n])?.mul(b)?;
            let rb = super::expm(&l)?.to_vec::<C>()?;
            (rb, super::matrix_power(&m.astype(wide)?, k as i64)?)
        };
        let (rb, q) = r;
        let pw = f.assemble(rb)?;
        out.push(crate::matmul(&q.to_host()?.astype(DType::C128)?, &pw)?);
    }
    let dev = x.device();
    let full = restack(out, x.shape(), Device::Cpu)?;
    finish(full, real, wide, dev)
}
