//! Singular value decomposition (faer's divide and conquer): `U`, the singular values in
//! non-increasing order and `Vh = Vᴴ`, thin or full.
//!
//! faer alone loses accuracy on matrices whose singular values span many orders of magnitude
//! (rank-deficient ones above all): on `sin(0.37 k)` reshaped to 512 × 64 (rank 2 up to
//! rounding) `|U S Vh - A|` was 2.4e-11 in float64 and 1.0e-2 in float32, where LAPACK gives
//! 1.3e-14 and 5.4e-7. Column-pivoted QR first (`A P = Q R`, then the SVD of `R Pᵀ`, Drmač's
//! preconditioning) brings it to 5e-15. It costs up to 1.3× on square matrices, so it runs only
//! on the elongated shapes where faer's own QR-first path loses the accuracy, and only where the
//! fast result shows a smallest singular value below √ε of the largest. With the
//! `lapack` feature, float32 and float64 go to LAPACK's `gesdd` instead.
use super::small::Small;
use super::stack::{first_error, into_chunks, seq_in_stack, zeroed, Stack};
use super::Field;
use faer::dyn_stack::{MemBuffer, MemStack};
use faer::traits::ext::ComplexFieldExt;
use faer::{Mat, MatRef, Par};
use rayon::prelude::*;
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
    let par = seq_in_stack(sa.len());
    let (m, n) = (sa.rows, sa.cols);
    let k = m.min(n);
    let (uc, vr) = if spec.full_matrices { (m, n) } else { (k, k) };
    let one = |i: usize| -> std::result::Result<Factors<T>, LinAlgKind> {
        scaled(sa.view(a, i), spec, par).map_err(|_| LinAlgKind::NoConvergence { index: i })
    };
    if !spec.compute_uv {
        // the values alone of small finite matrices by our loops, the rest as above
        let small = m.max(n) <= super::small::SPECTRAL;
        let s = into_chunks("svd", sa.len(), k, |i, out| {
            match small.then(|| super::small::svdvals(sa.view(a, i))).flatten() {
                Some(s) => out.copy_from_slice(&s),
                None => out.copy_from_slice(&one(i)?.1),
            }
            Ok(())
        })?;
        return Ok((None, s, None));
    }
    // the three factors written in place, a matrix per task
    let (mut u, mut s, mut vh) =
        (zeroed::<T>(sa.len() * m * uc), zeroed::<T::Real>(sa.len() * k), zeroed::<T>(sa.len() * vr * n));
    let status: Vec<_> = u
        .par_chunks_mut(m * uc)
        .zip(s.par_chunks_mut(k))
        .zip(vh.par_chunks_mut(vr * n))
        .enumerate()
        .map(|(i, ((uo, so), vo))| {
            let (fu, fs, fv) = one(i)?;
            for r in 0..m {
                for c in 0..uc {
                    uo[r * uc + c] = fu[(r, c)];
                }
            }
            so.copy_from_slice(&fs);
            // Vh = Vᴴ: row r of Vh is column r of V, conjugated
            for r in 0..vr {
                for c in 0..n {
                    vo[r * n + c] = fv[(c, r)].conj();
                }
            }
            Ok(())
        })
        .collect();
    first_error("svd", status)?;
    Ok((Some(u), s, Some(vh)))
}

/// The factors of `v`, through `2^p v` (exact in binary; the singular values scaled back) where
/// its largest entry is so large or so small that squares of entries over- or underflow, which
/// faer's sweeps do not guard against (a complex64 entry of 1.8e19 gave no convergence).
fn scaled<T: Field>(v: MatRef<'_, T>, spec: SvdSpec, par: Par) -> std::result::Result<Factors<T>, ()> {
    let all: Vec<T> = (0..v.ncols()).flat_map(|c| (0..v.nrows()).map(move |r| v[(r, c)])).collect();
    let mx = super::small::reduce::max_abs(&all);
    let big = if size_of::<T::Real>() == 4 { 2f64.powi(50) } else { 2f64.powi(400) };
    if !(mx.is_finite() && mx > 0.0 && (mx > big || mx < 1.0 / big)) {
        return factors(v, spec, par);
    }
    let p = -(mx.log2().floor() as i32);
    let w = Mat::<T>::from_fn(v.nrows(), v.ncols(), |r, c| Small::scale(v[(r, c)], 2f64.powi(p)));
    let (u, s, vv) = factors(w.as_ref(), spec, par)?;
    let back = 2f64.powi(-p);
    Ok((u, s.into_iter().map(|x| Small::re(Small::scale(<T as Small>::real(x), back))).collect(), vv))
}

/// The factors of `v`: LAPACK's where the `lapack` feature has them, else faer's, through
/// column-pivoted QR first where faer alone loses accuracy.
fn factors<T: Field>(v: MatRef<'_, T>, spec: SvdSpec, par: Par) -> std::result::Result<Factors<T>, ()> {
    Ok(match T::svd(v, spec.full_matrices) {
        Some(f) => f.ok_or(())?,
        None => match direct(v, spec, par)? {
            f if elongated(v) && wide_range(&f.1) => preconditioned(v, spec, par)?,
            f => f,
        },
    })
}

/// Whether faer reduces `v` by a QR factorisation first (one side more than 11/6 of the other,
/// its `qr_ratio_threshold`): the only shapes where its accuracy was seen to fail. On square and
/// nearly square matrices, rank-deficient or not, faer 0.24 reconstructs within 3 ε of the
/// largest singular value (sin(0.37 k) as 64×64, 65×64, 110×60, in float32, float64, complex64;
/// random 8×8 to 64×64 whose singular values span more than √ε), where 512×64 gave 1200 ε in
/// float64 and 200×33 72 ε in complex64.
fn elongated<T>(v: MatRef<'_, T>) -> bool {
    let (big, small) = (v.nrows().max(v.ncols()) as f64, v.nrows().min(v.ncols()) as f64);
    big * 6.0 > small * 11.0
}

/// Whether the smallest singular value is below √ε times the largest (or zero), the largest
/// being nonzero.
fn wide_range<R: faer::traits::RealField>(s: &[R]) -> bool {
    match (s.first(), s.last()) {
        // a zero matrix has its exact factors already (and its QR would divide by a zero norm)
        (Some(big), Some(small)) => {
            *big > R::zero_impl() && *small <= big.mul_real(faer::traits::math_utils::eps::<R>().sqrt())
        }
        _ => false,
    }
}

/// faer's SVD of `v` as it is, with the parallelism `par` ([`faer::Par::Seq`] inside a stack's
/// per-matrix tasks: faer's own rayon dispatch made a 64×64 SVD 1.5× slower even on one thread).
fn direct<T: Field>(v: MatRef<'_, T>, spec: SvdSpec, par: Par) -> std::result::Result<Factors<T>, ()> {
    use faer::linalg::svd::{svd, svd_scratch, ComputeSvdVectors};
    let (m, n) = v.shape();
    let k = m.min(n);
    let (want, uc, vc) = match (spec.compute_uv, spec.full_matrices) {
        (false, _) => (ComputeSvdVectors::No, 0, 0),
        (true, true) => (ComputeSvdVectors::Full, m, n),
        (true, false) => (ComputeSvdVectors::Thin, k, k),
    };
    let mut buf = MemBuffer::new(svd_scratch::<T>(m, n, want, want, par, Default::default()));
    let mut s = faer::diag::Diag::<T>::zeros(k);
    let (mut u, mut vv) = (Mat::<T>::zeros(m, uc), Mat::<T>::zeros(n, vc));
    let (uo, vo) = if spec.compute_uv { (Some(u.as_mut()), Some(vv.as_mut())) } else { (None, None) };
    svd(v, s.as_mut(), uo, vo, par, MemStack::new(&mut buf), Default::default()).map_err(|_| ())?;
    let s = s.column_vector();
    Ok((u, (0..k).map(|j| s[j].real()).collect(), vv))
}

/// The SVD of `v` through column-pivoted QR of its tall orientation (`v` itself when it has at
/// least as many rows as columns, else `vᴴ`, whose factors are `v`'s with U and V exchanged).
fn preconditioned<T: Field>(v: MatRef<'_, T>, spec: SvdSpec, par: Par) -> std::result::Result<Factors<T>, ()> {
    if v.nrows() < v.ncols() {
        let adj = Mat::<T>::from_fn(v.ncols(), v.nrows(), |i, j| v[(j, i)].conj());
        let (u, s, vv) = preconditioned(adj.as_ref(), spec, par)?;
        return Ok((vv, s, u));
    }
    let (m, n) = (v.nrows(), v.ncols());
    let qr = v.col_piv_qr();
    let r = qr.thin_R();
    let (_, inv) = qr.P().arrays();
    let rp = Mat::<T>::from_fn(n, n, |i, j| r[(i, inv[j])]); // R Pᵀ
    let (ub, s, vb) = direct(rp.as_ref(), SvdSpec { full_matrices: false, ..spec }, par)?;
    if !spec.compute_uv {
        return Ok((Mat::new(), s, Mat::new()));
    }
    // U = Q [U_B 0; 0 I]: the first n columns Q₁ U_B, the rest Q's remaining columns.
    let q = if spec.full_matrices { qr.compute_Q() } else { qr.compute_thin_Q() };
    let head = q.get(.., ..n) * &ub;
    let u = Mat::<T>::from_fn(m, q.ncols(), |i, j| if j < n { head[(i, j)] } else { q[(i, j)] });
    Ok((u, s, vb))
}
