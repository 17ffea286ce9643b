//! Decompositions: `cholesky`, `qr`, `svd` / `svdvals`, `eigh` / `eigvalsh`, `eig` / `eigvals`,
//! batched over leading axes. Empty matrices are answered here, as NumPy answers them (identity
//! factors where a complete basis of an empty matrix is asked for), so that backends only see
//! matrices with elements.
use super::{batch, prepared, with_tail};
use crate::backend::on_storage_map;
use crate::Array;
use xp_core::linalg::{EighSpec, QrMode, SvdSpec, Uplo};
use xp_core::{DType, LinalgStorage, Result};

/// `shape`-stacked identity matrices (rows × cols), or zeros when either is 0.
pub(crate) fn eye_stack(like: &Array, stack: &[usize], rows: usize, cols: usize, dtype: DType) -> Result<Array> {
    let e = crate::on(like.device()).eye(rows, Some(cols), 0, dtype)?;
    e.broadcast_to(with_tail(stack, &[rows, cols]))?.copy()
}

fn zeros(like: &Array, shape: &[usize], dtype: DType) -> Result<Array> {
    crate::on(like.device()).zeros(shape, dtype)
}

/// The Cholesky factor of Hermitian positive-definite matrices, reading and returning the
/// triangle `uplo` names (NumPy `cholesky(a, upper=uplo == Upper)`): `A = L Lᴴ` or `A = Uᴴ U`.
/// A matrix that is not positive definite is [`xp_core::LinAlgKind::NotPositiveDefinite`].
pub fn cholesky(a: &Array, uplo: Uplo) -> Result<Array> {
    let (x, _, _) = prepared("cholesky", a, true)?;
    if x.size() == 0 {
        return zeros(&x, x.shape(), x.dtype());
    }
    let s = crate::backend::on_storage!(&*x.read(), s => s.cholesky(&x.layout, uplo))?;
    Ok(Array::from_storage(s, x.shape()))
}

/// The factors of [`qr`]: `q` absent for [`QrMode::R`].
#[derive(Clone, Debug)]
pub struct Qr {
    /// orthonormal columns: (.., m, k) reduced, (.., m, m) complete
    pub q: Option<Array>,
    /// upper triangular: (.., k, n) reduced and r-only, (.., m, n) complete
    pub r: Array,
}

/// QR decomposition (NumPy `qr(a, mode)`, Householder; `R`'s diagonal may be negative, as
/// LAPACK's).
pub fn qr(a: &Array, mode: QrMode) -> Result<Qr> {
    let (x, m, n) = prepared("qr", a, false)?;
    let k = m.min(n);
    let bs = batch(&x).to_vec();
    let (qcols, rrows) = match mode {
        QrMode::Reduced => (k, k),
        QrMode::Complete => (m, m),
        QrMode::R => (0, k),
    };
    if x.size() == 0 {
        let q = (mode != QrMode::R).then(|| eye_stack(&x, &bs, m, qcols, x.dtype())).transpose()?;
        return Ok(Qr { q, r: zeros(&x, &with_tail(&bs, &[rrows, n]), x.dtype())? });
    }
    let f = on_storage_map!(&*x.read(), s => s.qr(&x.layout, mode))?;
    Ok(Qr {
        q: f.q.map(|s| Array::from_storage(s, &with_tail(&bs, &[m, qcols]))),
        r: Array::from_storage(f.r, &with_tail(&bs, &[rrows, n])),
    })
}

/// The factors of [`svd`]: `A = U diag(s) Vh`.
#[derive(Clone, Debug)]
pub struct Svd {
    /// left singular vectors as columns: (.., m, m) full, (.., m, k) reduced
    pub u: Array,
    /// singular values, non-increasing, of the real dtype: (.., k)
    pub s: Array,
    /// right singular vectors as rows: (.., n, n) full, (.., k, n) reduced
    pub vh: Array,
}

/// Singular value decomposition (NumPy `svd(a, full_matrices)`).
pub fn svd(a: &Array, full_matrices: bool) -> Result<Svd> {
    let f = svd_with(a, SvdSpec { full_matrices, compute_uv: true })?;
    Ok(Svd { u: f.u.expect("computed"), s: f.s, vh: f.vh.expect("computed") })
}

/// The singular values alone (NumPy `svd(a, compute_uv=False)`, Array API `svdvals`).
pub fn svdvals(a: &Array) -> Result<Array> {
    Ok(svd_with(a, SvdSpec { full_matrices: false, compute_uv: false })?.s)
}

/// The SVD with every NumPy option spelled out.
pub fn svd_with(a: &Array, spec: SvdSpec) -> Result<xp_core::linalg::SvdFactors<Array>> {
    let (x, m, n) = prepared("svd", a, false)?;
    let k = m.min(n);
    let bs = batch(&x).to_vec();
    let (uc, vr) = if spec.full_matrices { (m, n) } else { (k, k) };
    if x.size() == 0 {
        let uv = |r, c| spec.compute_uv.then(|| eye_stack(&x, &bs, r, c, x.dtype())).transpose();
        let s = zeros(&x, &with_tail(&bs, &[k]), x.dtype().to_real())?;
        return Ok(xp_core::linalg::SvdFactors { u: uv(m, uc)?, s, vh: uv(vr, n)? });
    }
    let f = on_storage_map!(&*x.read(), s => s.svd(&x.layout, spec))?;
    Ok(xp_core::linalg::SvdFactors {
        u: f.u.map(|s| Array::from_storage(s, &with_tail(&bs, &[m, uc]))),
        s: Array::from_storage(f.s, &with_tail(&bs, &[k])),
        vh: f.vh.map(|s| Array::from_storage(s, &with_tail(&bs, &[vr, n]))),
    })
}

/// Eigenvalues and eigenvectors of [`eigh`] and [`eig`].
#[derive(Clone, Debug)]
pub struct Eig {
    /// eigenvalues: (.., n)
    pub w: Array,
    /// eigenvectors as columns, unit norm: (.., n, n)
    pub v: Array,
}

fn eigh_with(op: &'static str, a: &Array, spec: EighSpec) -> Result<(Array, Option<Array>)> {
    let (x, n, _) = prepared(op, a, true)?;
    let bs = batch(&x).to_vec();
    if x.size() == 0 {
        let v = spec.vectors.then(|| zeros(&x, x.shape(), x.dtype())).transpose()?;
        return Ok((zeros(&x, &with_tail(&bs, &[n]), x.dtype().to_real())?, v));
    }
    let f = on_storage_map!(&*x.read(), s => s.eigh(&x.layout, spec)).map_err(|e| e.in_op(op))?;
    Ok((Array::from_storage(f.w, &with_tail(&bs, &[n])), f.v.map(|s| Array::from_storage(s, x.shape()))))
}

/// Eigenvalues (ascending, real) and eigenvectors of Hermitian matrices, reading the triangle
/// `uplo` (NumPy `eigh(a, UPLO)`).
pub fn eigh(a: &Array, uplo: Uplo) -> Result<Eig> {
    let (w, v) = eigh_with("eigh", a, EighSpec { uplo, vectors: true })?;
    Ok(Eig { w, v: v.expect("computed") })
}

/// Eigenvalues (ascending, real) of Hermitian matrices (NumPy `eigvalsh(a, UPLO)`).
pub fn eigvalsh(a: &Array, uplo: Uplo) -> Result<Array> {
    Ok(eigh_with("eigvalsh", a, EighSpec { uplo, vectors: false })?.0)
}

fn eig_with(op: &'static str, a: &Array, vectors: bool) -> Result<(Array, Option<Array>)> {
    let (x, n, _) = prepared(op, a, true)?;
    let bs = batch(&x).to_vec();
    let real_input = !x.dtype().is_complex();
    if x.size() == 0 {
        let v = vectors.then(|| zeros(&x, x.shape(), x.dtype())).transpose()?;
        return Ok((zeros(&x, &with_tail(&bs, &[n]), x.dtype())?, v));
    }
    let f = on_storage_map!(&*x.read(), s => s.eig(&x.layout, vectors)).map_err(|e| e.in_op(op))?;
    let w = Array::from_storage(f.w, &with_tail(&bs, &[n]));
    let v = f.v.map(|s| Array::from_storage(s, x.shape()));
    // NumPy returns real arrays for real input whose eigenvalues are all real (one host read).
    if real_input && !w.imag()?.any(..)?.item::<bool>()? {
        let real = |c: Array| c.real()?.copy();
        return Ok((real(w)?, v.map(real).transpose()?));
    }
    Ok((w, v))
}

/// Eigenvalues and right eigenvectors of general square matrices (NumPy `eig`): complex, or real
/// when the input is real and every eigenvalue is real, as NumPy.
pub fn eig(a: &Array) -> Result<Eig> {
    let (w, v) = eig_with("eig", a, true)?;
    Ok(Eig { w, v: v.expect("computed") })
}

/// Eigenvalues of general square matrices (NumPy `eigvals`; dtype as [`eig`]).
pub fn eigvals(a: &Array) -> Result<Array> {
    Ok(eig_with("eigvals", a, false)?.0)
}
