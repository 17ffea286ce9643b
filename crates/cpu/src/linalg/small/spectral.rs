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
    let w = wide(
        #[inline(always)]
        || {
            let (d, e) = tridiagonal(&mut h, n);
            bisect::eigenvalues(&d, &e, 0, n)
        },
    );
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
    let sv = wide(
        #[inline(always)]
        || {
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
        },
    );
    Some(sv.into_iter().rev().map(|x| T::Re::from_f64((x.into() / s).max(0.0))).collect())
}

#[cfg(test)]
mod tests {
    use super::{eigvalsh, svdvals};
    use faer::Mat;
    use num_complex::Complex;
    use xp_core::linalg::Uplo;

    /// Uniform numbers in [-1, 1) from a fixed seed.
    fn rng(seed: u64) -> impl FnMut() -> f64 {
        let mut k = seed;
        move || {
            k = k.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (k >> 11) as f64 / (1u64 << 52) as f64 - 1.0
        }
    }

    /// The reference: faer in float64 / complex128 on the same matrix.
    fn close(got: &[f64], want: &[f64], eps: f64, n: usize, what: &str) {
        let scale = want.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        for (g, w) in got.iter().zip(want) {
            assert!((g - w).abs() <= 8.0 * n as f64 * eps * scale, "{what}: {g} against {w} (scale {scale})");
        }
    }

    #[test]
    fn eigenvalues_match_float64_at_every_scale() {
        let mut r = rng(3);
        for n in [1usize, 2, 3, 5, 8, 17, 32, 33, 64] {
            for scale in [1e-30f64, 1.0, 1e30] {
                let re = Mat::<f64>::from_fn(n, n, |_, _| r());
                let im = Mat::<f64>::from_fn(n, n, |_, _| r());
                let h = Mat::<Complex<f64>>::from_fn(n, n, |i, j| {
                    Complex::new(re[(i, j)] + re[(j, i)], im[(i, j)] - im[(j, i)]) * scale
                });
                let want: Vec<f64> = h.self_adjoint_eigenvalues(faer::Side::Lower).unwrap();
                let h32 =
                    Mat::<Complex<f32>>::from_fn(n, n, |i, j| Complex::new(h[(i, j)].re as f32, h[(i, j)].im as f32));
                for uplo in [Uplo::Lower, Uplo::Upper] {
                    let got: Vec<f64> = eigvalsh(h32.as_ref(), uplo).unwrap().into_iter().map(f64::from).collect();
                    close(&got, &want, f32::EPSILON as f64, n, &format!("complex64 {n}x{n} at {scale}"));
                    let got = eigvalsh(h.as_ref(), uplo).unwrap();
                    close(&got, &want, f64::EPSILON, n, &format!("complex128 {n}x{n} at {scale}"));
                }
                let hr = Mat::<f64>::from_fn(n, n, |i, j| h[(i, j)].re);
                let want: Vec<f64> = hr.self_adjoint_eigenvalues(faer::Side::Lower).unwrap();
                close(&eigvalsh(hr.as_ref(), Uplo::Lower).unwrap(), &want, f64::EPSILON, n, "float64");
            }
        }
    }

    #[test]
    fn singular_values_match_float64_tall_wide_and_deficient() {
        let mut r = rng(5);
        for (m, n) in [(1usize, 1usize), (2, 2), (8, 8), (9, 4), (4, 9), (31, 32), (33, 1), (64, 64), (64, 17)] {
            for scale in [1e-30f64, 1.0, 1e30] {
                let a = Mat::<f64>::from_fn(m, n, |_, _| r() * scale);
                // rank one less (a repeated column) when there are two or more
                let a = Mat::<f64>::from_fn(m, n, |i, j| if j == 1 { a[(i, 0)] } else { a[(i, j)] });
                let want = a.singular_values().unwrap();
                close(
                    &svdvals(a.as_ref()).unwrap(),
                    &want,
                    f64::EPSILON,
                    m.max(n),
                    &format!("float64 {m}x{n} at {scale}"),
                );
                let a32 = Mat::<f32>::from_fn(m, n, |i, j| a[(i, j)] as f32);
                let got: Vec<f64> = svdvals(a32.as_ref()).unwrap().into_iter().map(f64::from).collect();
                close(&got, &want, f32::EPSILON as f64, m.max(n), &format!("float32 {m}x{n} at {scale}"));
                let c = Mat::<Complex<f64>>::from_fn(m, n, |i, j| Complex::new(a[(i, j)], r() * scale));
                let want = c.singular_values().unwrap();
                close(&svdvals(c.as_ref()).unwrap(), &want, f64::EPSILON, m.max(n), &format!("complex128 {m}x{n}"));
            }
        }
    }

    #[test]
    fn non_finite_input_is_left_to_the_general_path() {
        let mut a = Mat::<f32>::identity(4, 4);
        a[(2, 1)] = f32::NAN;
        assert!(svdvals(a.as_ref()).is_none());
        assert!(eigvalsh(a.as_ref(), Uplo::Lower).is_none());
        a[(2, 1)] = f32::INFINITY;
        assert!(svdvals(a.as_ref()).is_none());
        // the triangle not read may hold anything
        a[(2, 1)] = 0.0;
        a[(1, 2)] = f32::NAN;
        assert_eq!(eigvalsh(a.as_ref(), Uplo::Lower), Some(vec![1.0; 4]));
    }
}
