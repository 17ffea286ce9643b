//! Singular value decomposition (faer's divide and conquer): `U`, the singular values in
//! non-increasing order and `Vh = Vᴴ`, thin or full.
//!
//! faer alone loses accuracy on matrices whose singular values span many orders of magnitude
//! (rank-deficient ones above all): on `sin(0.37 k)` reshaped to 512 × 64 (rank 2 up to
//! rounding) `|U S Vh - A|` was 2.4e-11 in float64 and 1.0e-2 in float32, where LAPACK gives
//! 1.3e-14 and 5.4e-7. Column-pivoted QR first (`A P = Q R`, then the SVD of `R Pᵀ`, Drmač's
//! preconditioning) brings it to 5e-15. It costs up to 1.3× on square matrices, so it runs only
//! where the fast result shows a smallest singular value below √ε of the largest. With the
//! `lapack` feature, float32 and float64 go to LAPACK's `gesdd` instead.
use super::stack::{c_order, concat, into_chunks, per_matrix, Stack};
use super::Field;
use faer::traits::ext::ComplexFieldExt;
use faer::{Mat, MatRef};
use xp_core::linalg::SvdSpec;
use xp_core::{Layout, LinAlgKind, Result};

/// One matrix's factors: `U`, `s`, `V` (not yet conjugate-transposed); `U`, `V` empty without
/// vectors.
type Factors<T> = (Mat<T>, Vec<<T as faer::traits::ComplexField>::Real>, Mat<T>);

/// `(U, s, Vh)` of every matrix of the stack (`U`, `Vh` absent unless `compute_uv`).
#[allow(clippy::type_complexity)]
pub(crate) fn svd<T: Field>(
    a: &[T],
    al: &Layout,
    spec: SvdSpec,
) -> Result<(Option<Vec<T>>, Vec<T::Real>, Option<Vec<T>>)> {
    let sa = Stack::new(al);
    if !spec.compute_uv && sa.rows.max(sa.cols) <= super::small::SPECTRAL {
        // our loops for the values alone of small matrices (finite ones; faer for the rest)
        let s = into_chunks("svd", sa.len(), sa.rows.min(sa.cols), |i, out| {
            let v = sa.view(a, i);
            let s = match super::small::svdvals(v) {
                Some(s) => s,
                None => direct(v, spec).map_err(|_| LinAlgKind::NoConvergence { index: i })?.1,
            };
            out.copy_from_slice(&s);
            Ok(())
        })?;
        return Ok((None, s, None));
    }
    let fs = per_matrix("svd", sa.len(), |i| {
        let v = sa.view(a, i);
        let nc = |_| LinAlgKind::NoConvergence { index: i };
        let (u, s, vv) = match T::svd(v, spec.full_matrices) {
            Some(f) => f.ok_or(LinAlgKind::NoConvergence { index: i })?,
            None => match direct(v, spec).map_err(nc)? {
                f if wide_range(&f.1) => preconditioned(v, spec).map_err(nc)?,
                f => f,
            },
        };
        if !spec.compute_uv {
            return Ok((Vec::new(), s, Vec::new()));
        }
        Ok((c_order(u.as_ref(), |x| x), s, c_order(vv.transpose(), |x| x.conj())))
    })?;
    let u = spec.compute_uv.then(|| concat(&fs, |f| f.0.as_slice()));
    let vh = spec.compute_uv.then(|| concat(&fs, |f| f.2.as_slice()));
    Ok((u, concat(&fs, |f| f.1.as_slice()), vh))
}

/// Whether the smallest singular value is below √ε times the largest (or zero).
fn wide_range<R: faer::traits::RealField>(s: &[R]) -> bool {
    match (s.first(), s.last()) {
        (Some(big), Some(small)) => *small <= big.mul_real(faer::traits::math_utils::eps::<R>().sqrt()),
        _ => false,
    }
}

/// faer's SVD of `v` as it is.
fn direct<T: Field>(v: MatRef<'_, T>, spec: SvdSpec) -> std::result::Result<Factors<T>, ()> {
    if !spec.compute_uv {
        return Ok((Mat::new(), v.singular_values().map_err(|_| ())?, Mat::new()));
    }
    let f = if spec.full_matrices { v.svd() } else { v.thin_svd() }.map_err(|_| ())?;
    let s = f.S().column_vector();
    Ok((f.U().to_owned(), (0..s.nrows()).map(|j| s[j].real()).collect(), f.V().to_owned()))
}

/// The SVD of `v` through column-pivoted QR of its tall orientation (`v` itself when it has at
/// least as many rows as columns, else `vᴴ`, whose factors are `v`'s with U and V exchanged).
fn preconditioned<T: Field>(v: MatRef<'_, T>, spec: SvdSpec) -> std::result::Result<Factors<T>, ()> {
    if v.nrows() < v.ncols() {
        let adj = Mat::<T>::from_fn(v.ncols(), v.nrows(), |i, j| v[(j, i)].conj());
        let (u, s, vv) = preconditioned(adj.as_ref(), spec)?;
        return Ok((vv, s, u));
    }
    let (m, n) = (v.nrows(), v.ncols());
    let qr = v.col_piv_qr();
    let r = qr.thin_R();
    let (_, inv) = qr.P().arrays();
    let rp = Mat::<T>::from_fn(n, n, |i, j| r[(i, inv[j])]); // R Pᵀ
    let (ub, s, vb) = direct(rp.as_ref(), SvdSpec { full_matrices: false, ..spec })?;
    if !spec.compute_uv {
        return Ok((Mat::new(), s, Mat::new()));
    }
    // U = Q [U_B 0; 0 I]: the first n columns Q₁ U_B, the rest Q's remaining columns.
    let q = if spec.full_matrices { qr.compute_Q() } else { qr.compute_thin_Q() };
    let head = q.get(.., ..n) * &ub;
    let u = Mat::<T>::from_fn(m, q.ncols(), |i, j| if j < n { head[(i, j)] } else { q[(i, j)] });
    Ok((u, s, vb))
}
