//! Eigenvalues of a small Hermitian matrix and singular values of a small matrix: the reduction
//! to a real tridiagonal or bidiagonal ([`super::reduce`]), then bisection ([`super::bisect`]);
//! the singular values of a bidiagonal `B` are the non-negative eigenvalues of its Golub–Kahan
//! form, the `2n × 2n` tridiagonal with a zero diagonal and `B`'s entries interleaved on the
//! off-diagonal. The input is scaled by a power of two so that squares stay in range.
use super::reduce::{bidiagonal, max_abs, tridiagonal};
use super::{bisect, unit_scale, wide, Real, Small};
use faer::MatRef;
use xp_core::linalg::Uplo;

/// The eigenvalues (ascending) of the Hermitian matrix the `uplo` triangle of `a` gives (its
/// diagonal's imaginary part ignored), or `None` when an entry is not finite.
pub(crate) fn eigvalsh<T: Small>(a: MatRef<'_, T>, uplo: Uplo) -> Option<Vec<T::Re>> {
    let n = a.nrows();
    let mut h = vec![T::default(); n * n];
    for i in 0..n {
        for j in 0..=i {
            let x = if uplo == Uplo::Lower { a[(i, j)] } else { a[(j, i)].cj() };
            h[i * n + j] = if i == j { T::real(x.re()) } else { x };
            h[j * n + i] = h[i * n + j].cj();
        }
    }
    let mx = max_abs(&h);
    if !mx.is_finite() {
        return None;
    }
    let s = unit_scale::<T::Re>(mx);
    for x in &mut h {
        *x = x.scale(s);
    }
    let w = wide(#[inline(always)] || {
        let (d, e) = tridiagonal(&mut h, n);
        bisect::eigenvalues(&d, &e, 0, n)
    });
    Some(w.into_iter().map(|x| T::Re::from_f64(x.into() / s)).collect())
}

/// The singular values (non-increasing) of `a`, or `None` when an entry is not finite.
pub(crate) fn svdvals<T: Small>(a: MatRef<'_, T>) -> Option<Vec<T::Re>> {
    // the tall orientation: `a` or its adjoint, row-major
    let (m, n) = (a.nrows().max(a.ncols()), a.nrows().min(a.ncols()));
    let tall = a.nrows() >= a.ncols();
    let mut b = vec![T::default(); m * n];
    for i in 0..m {
        for j in 0..n {
            b[i * n + j] = if tall { a[(i, j)] } else { a[(j, i)].cj() };
        }
    }
    let mx = max_abs(&b);
    if !mx.is_finite() {
        return None;
    }
    if n == 0 {
        return Some(Vec::new());
    }
    let s = unit_scale::<T::Re>(mx);
    for x in &mut b {
        *x = x.scale(s);
    }
    let sv = wide(#[inline(always)] || {
        let (d, e) = bidiagonal(&mut b, m, n);
        let mut off = Vec::with_capacity(2 * n - 1);
        for j in 0..n {
            off.push(d[j]);
            if j + 1 < n {
                off.push(e[j]);
            }
        }
        // the n largest of the ±σ
        bisect::eigenvalues(&vec![T::Re::default(); 2 * n], &off, n, n)
    });
    Some(sv.into_iter().rev().map(|x| T::Re::from_f64((x.into() / s).max(0.0))).collect())
}
