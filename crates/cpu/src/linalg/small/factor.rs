//! Cholesky and Householder QR of small matrices without faer: for a 32×32 matrix faer's setup
//! costs more than the arithmetic (QR ~77 µs a matrix, Cholesky ~10 µs, where LAPACK's loops
//! take a third of that). Right-looking loops over a row-major copy whose inner loops run along
//! rows, with LAPACK's conventions (a real Cholesky diagonal; `geqrf`'s reflectors, so `R`'s
//! signs are NumPy's).
use super::{axpy_add, axpy_sub, wide, Small};
use faer::MatRef;
use xp_core::linalg::{QrMode, Uplo};

/// The Cholesky factor of `a` (the triangle `uplo` read, its mirror conjugated) into `out`
/// (C-order `n × n`, zeroed), zeros in the other triangle, or the order of the first leading
/// minor that is not positive definite.
pub(crate) fn cholesky<T: Small>(a: MatRef<'_, T>, uplo: Uplo, out: &mut [T]) -> Result<(), usize> {
    let n = a.nrows();
    // the lower factor, row-major, so that the updates run along rows
    for i in 0..n {
        for j in 0..=i {
            out[i * n + j] = if uplo == Uplo::Lower { a[(i, j)] } else { a[(j, i)].cj() };
        }
    }
    wide(
        #[inline(always)]
        || cholesky_in_place(out, n),
    )?;
    if uplo == Uplo::Upper {
        for i in 0..n {
            out[i * n + i] = out[i * n + i].cj();
            for j in 0..i {
                out[j * n + i] = out[i * n + j].cj();
                out[i * n + j] = T::default();
            }
        }
    }
    Ok(())
}

/// The right-looking factorisation of the lower triangle of `l` (row-major `n × n`): column `j`
/// is scaled by its pivot's square root, then the trailing triangle loses its outer product, a
/// row at a time (`L[i, j+1..=i] -= L[i, j] · conj(L[j+1..=i, j])`).
#[inline(always)]
fn cholesky_in_place<T: Small>(l: &mut [T], n: usize) -> Result<(), usize> {
    let mut c = vec![T::default(); n];
    for j in 0..n {
        let d: f64 = l[j * n + j].re().into();
        if d <= 0.0 {
            return Err(j + 1); // NaN passes through, as in LAPACK
        }
        let ljj = d.sqrt();
        l[j * n + j] = T::of(ljj, 0.0);
        let inv = 1.0 / ljj;
        for i in j + 1..n {
            let x = l[i * n + j].scale(inv);
            l[i * n + j] = x;
            c[i] = x.cj();
        }
        for i in j + 1..n {
            let f = l[i * n + j];
            axpy_sub(&mut l[i * n + j + 1..=i * n + i], f, &c[j + 1..=i]);
        }
    }
    Ok(())
}

/// A Householder reflector `H = I - tau v vᴴ` (`v[0] = 1`) with `Hᴴ x = beta e1`, `beta` real,
/// as LAPACK's `larfg` makes it from `x`: `(tau, beta)`, `x[1..]` replaced by `v[1..]`; `tau =
/// 0` (H = I) when `x[1..]` is zero and `x[0]` real.
#[inline(always)]
fn householder<T: Small>(x0: T, rest: &mut [T]) -> (T, f64) {
    let xn: f64 = rest.iter().map(|&v| v.abs2().into()).sum();
    let (ar, ai): (f64, f64) = (x0.re().into(), x0.im().into());
    if xn == 0.0 && ai == 0.0 {
        return (T::default(), ar);
    }
    let beta = -(ar * ar + ai * ai + xn).sqrt().copysign(ar);
    // v = x / (alpha - beta): 1 / (ar - beta + i ai)
    let (dr, di) = (ar - beta, ai);
    let den = dr * dr + di * di;
    let s = T::of(dr / den, -di / den);
    for v in rest.iter_mut() {
        *v = *v * s;
    }
    (T::of((beta - ar) / beta, -ai / beta), beta)
}

/// `Y ← (I - t v vᴴ) Y` for the rows `r0..` of the row-major `Y` (`cols` wide, columns `c0..`
/// touched), `v` given as `v(i)` for `i > r0` (`v(r0) = 1`), with `w` as scratch: `w = vᴴ Y`
/// accumulated a row at a time, then each row loses `v_i t w`.
#[inline(always)]
fn reflect_rows<T: Small>(y: &mut [T], cols: usize, r0: usize, c0: usize, v: impl Fn(usize) -> T, t: T, w: &mut [T]) {
    let rows = y.len() / cols;
    let w = &mut w[..cols - c0];
    w.copy_from_slice(&y[r0 * cols + c0..(r0 + 1) * cols]);
    for i in r0 + 1..rows {
        axpy_add(w, v(i).cj(), &y[i * cols + c0..(i + 1) * cols]);
    }
    for x in w.iter_mut() {
        *x = *x * t;
    }
    axpy_sub(&mut y[r0 * cols + c0..(r0 + 1) * cols], T::of(1.0, 0.0), w);
    for i in r0 + 1..rows {
        axpy_sub(&mut y[i * cols + c0..(i + 1) * cols], v(i), w);
    }
}

/// `(Q, R)` of `a` (m × n, both at most [`super::SMALL`]) as [`QrMode`] asks, C order, by
/// Householder reflectors as LAPACK's `geqrf` and `orgqr` make them.
pub(crate) fn qr<T: Small>(a: MatRef<'_, T>, mode: QrMode) -> (Option<Vec<T>>, Vec<T>) {
    let (m, n) = (a.nrows(), a.ncols());
    let k = m.min(n);
    // f: row-major m × n; the reflectors' v below the diagonal of column j
    let mut f = vec![T::default(); m * n];
    for i in 0..m {
        for j in 0..n {
            f[i * n + j] = a[(i, j)];
        }
    }
    let qc = if mode == QrMode::Complete { m } else { k };
    let mut tau = vec![T::default(); k];
    let mut q = vec![T::default(); if mode == QrMode::R { 0 } else { m * qc }];
    wide(
        #[inline(always)]
        || {
            let mut w = vec![T::default(); n.max(qc)];
            let mut x = vec![T::default(); m];
            for j in 0..k {
                for i in j + 1..m {
                    x[i] = f[i * n + j];
                }
                let (t, beta) = householder(f[j * n + j], &mut x[j + 1..]);
                tau[j] = t;
                f[j * n + j] = T::of(beta, 0.0);
                for i in j + 1..m {
                    f[i * n + j] = x[i];
                }
                if j + 1 < n && t.abs2() > <T::Re>::default() {
                    reflect_rows(&mut f, n, j, j + 1, |i| x[i], t.cj(), &mut w);
                }
            }
            if mode == QrMode::R {
                return;
            }
            // Q = H_1 ⋯ H_k applied to the first qc columns of the identity
            for c in 0..qc {
                q[c * qc + c] = T::of(1.0, 0.0);
            }
            for j in (0..k).rev() {
                if tau[j].abs2() > <T::Re>::default() && j < qc {
                    reflect_rows(&mut q, qc, j, j, |i| f[i * n + j], tau[j], &mut w);
                }
            }
        },
    );
    let rr = if mode == QrMode::Complete { m } else { k };
    let mut r = vec![T::default(); rr * n];
    for i in 0..k {
        r[i * n + i..(i + 1) * n].copy_from_slice(&f[i * n + i..(i + 1) * n]);
    }
    ((mode != QrMode::R).then_some(q), r)
}
