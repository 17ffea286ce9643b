//! The QR iteration that takes an upper Hessenberg matrix to Schur form (faer keeps its own
//! private): Francis's implicit double-shift step for the real form with LAPACK's `lanv2`
//! standardisation of the 2 × 2 blocks (as `lahqr`), and the single-shift step with Givens
//! rotations for the complex form. Unblocked, in float64 and complex128 on row-major
//! `n × n` buffers; the Schur vectors are accumulated into `z`.
use xp_core::Complex64 as C;

/// Iterations allowed per eigenvalue before giving up (LAPACK's `lahqr` allows 30).
const ITERS: usize = 40;

/// The index `l` in `lo..=hi` where the active block of `h` starts: the last subdiagonal entry
/// at or below `hi` that is negligible (set to zero), else `lo`.
fn split<T: Copy>(h: &mut [T], n: usize, lo: usize, hi: usize, abs: impl Fn(T) -> f64, zero: T) -> usize {
    for k in (lo + 1..=hi).rev() {
        let s = abs(h[k * n + k - 1]);
        let mut d = abs(h[(k - 1) * n + k - 1]) + abs(h[k * n + k]);
        if d == 0.0 {
            d = (lo..=hi).map(|i| abs(h[i * n + i])).sum::<f64>();
        }
        if s <= f64::EPSILON * d || s < f64::MIN_POSITIVE {
            h[k * n + k - 1] = zero;
            return k;
        }
    }
    lo
}

/// `a` with the sign of `b` (Fortran's `SIGN`).
fn sign(a: f64, b: f64) -> f64 {
    if b >= 0.0 {
        a.abs()
    } else {
        -a.abs()
    }
}

/// LAPACK's `dlanv2`: the rotation `(cs, sn)` that takes `[[a, b], [c, d]]` to standard form
/// (upper triangular for real eigenvalues, equal diagonal and `b c < 0` for a complex pair),
/// and the new block.
fn lanv2(mut a: f64, mut b: f64, mut c: f64, mut d: f64) -> ([f64; 4], f64, f64) {
    let eps = f64::EPSILON;
    let (mut cs, mut sn);
    if c == 0.0 {
        cs = 1.0;
        sn = 0.0;
    } else if b == 0.0 {
        cs = 0.0;
        sn = 1.0;
        std::mem::swap(&mut a, &mut d);
        b = -c;
        c = 0.0;
    } else if a - d == 0.0 && sign(1.0, b) != sign(1.0, c) {
        cs = 1.0;
        sn = 0.0;
    } else {
        let temp = a - d;
        let p = 0.5 * temp;
        let bcmax = b.abs().max(c.abs());
        let bcmis = b.abs().min(c.abs()) * sign(1.0, b) * sign(1.0, c);
        let scale = p.abs().max(bcmax);
        let z = p / scale * p + bcmax / scale * bcmis;
        if z >= 4.0 * eps {
            // real eigenvalues
            let z = p + sign(scale.sqrt() * z.sqrt(), p);
            a = d + z;
            d -= bcmax / z * bcmis;
            let tau = c.hypot(z);
            cs = z / tau;
            sn = c / tau;
            b -= c;
            c = 0.0;
        } else {
            // complex or nearly equal real eigenvalues: make the diagonal equal
            let sigma = b + c;
            let tau = sigma.hypot(temp);
            cs = (0.5 * (1.0 + sigma.abs() / tau)).sqrt();
            sn = -(p / (tau * cs)) * sign(1.0, sigma);
            let (aa, bb) = (a * cs + b * sn, -a * sn + b * cs);
            let (cc, dd) = (c * cs + d * sn, -c * sn + d * cs);
            a = aa * cs + cc * sn;
            b = bb * cs + dd * sn;
            c = -aa * sn + cc * cs;
            d = -bb * sn + dd * cs;
            let temp = 0.5 * (a + d);
            a = temp;
            d = temp;
            if c != 0.0 {
                if b != 0.0 {
                    if sign(1.0, b) == sign(1.0, c) {
                        // real eigenvalues after all
                        let (sab, sac) = (b.abs().sqrt(), c.abs().sqrt());
                        let p = sign(sab * sac, c);
                        let tau = 1.0 / (b + c).abs().sqrt();
                        a = temp + p;
                        d = temp - p;
                        b -= c;
                        c = 0.0;
                        let (cs1, sn1) = (sab * tau, sac * tau);
                        let t = cs * cs1 - sn * sn1;
                        sn = cs * sn1 + sn * cs1;
                        cs = t;
                    }
                } else {
                    b = -c;
                    c = 0.0;
                    let t = cs;
                    cs = -sn;
                    sn = t;
                }
            }
        }
    }
    ([a, b, c, d], cs, sn)
}

/// Rows `i`, `i + 1` of `h` from column `from` on, and columns `i`, `i + 1` of `h` (rows
/// `0..rows`) and of `z`, rotated by `(cs, sn)` as BLAS's `drot`.
#[allow(clippy::too_many_arguments)] // the two rows, where they start, and the rotation
fn rotate(h: &mut [f64], z: &mut [f64], n: usize, i: usize, from: usize, rows: usize, cs: f64, sn: f64) {
    for j in from..n {
        let (x, y) = (h[i * n + j], h[(i + 1) * n + j]);
        h[i * n + j] = cs * x + sn * y;
        h[(i + 1) * n + j] = cs * y - sn * x;
    }
    for (m, rows) in [(&mut *h, rows), (&mut *z, n)] {
        for r in 0..rows {
            let (x, y) = (m[r * n + i], m[r * n + i + 1]);
            m[r * n + i] = cs * x + sn * y;
            m[r * n + i + 1] = cs * y - sn * x;
        }
    }
}

/// The Householder reflector `I − τ v vᵀ` (`v[0] = 1`) that takes `x` to a multiple of `e₀`.
fn reflector<const L: usize>(x: [f64; L]) -> ([f64; L], f64) {
    let alpha = x[0];
    let xnorm = x[1..].iter().map(|v| v * v).sum::<f64>().sqrt();
    let mut v = [0.0; L];
    v[0] = 1.0;
    if xnorm == 0.0 {
        return (v, 0.0);
    }
    let beta = -sign(alpha.hypot(xnorm), alpha);
    let scale = 1.0 / (alpha - beta);
    for t in 1..L {
        v[t] = x[t] * scale;
    }
    (v, (beta - alpha) / beta)
}

/// Apply `I − τ v vᵀ` (rows `k..k + L`) from the left to columns `from..n` of `h`, and from the
/// right to rows `0..rows` of `h` and every row of `z` (fixed `L`: the loops unroll).
#[allow(clippy::too_many_arguments)] // the reflector, where it acts, and how far
fn reflect<const L: usize>(
    h: &mut [f64],
    z: &mut [f64],
    n: usize,
    k: usize,
    v: [f64; L],
    tau: f64,
    from: usize,
    rows: usize,
) {
    if tau == 0.0 {
        return;
    }
    let block = &mut h[k * n..(k + L) * n];
    for j in from..n {
        let mut s = 0.0;
        for t in 0..L {
            s += v[t] * block[t * n + j];
        }
        s *= tau;
        for t in 0..L {
            block[t * n + j] -= s * v[t];
        }
    }
    for (m, rows) in [(&mut *h, rows), (&mut *z, n)] {
        for row in m.chunks_exact_mut(n).take(rows) {
            let seg: &mut [f64; L] = (&mut row[k..k + L]).try_into().expect("L entries");
            let mut s = 0.0;
            for t in 0..L {
                s += v[t] * seg[t];
            }
            s *= tau;
            for t in 0..L {
                seg[t] -= s * v[t];
            }
        }
    }
}

/// The real Schur form of upper Hessenberg `h` (overwritten by `T`), `z` updated to `Z·Q`;
/// `false` when an eigenvalue did not converge.
pub(crate) fn real_schur(h: &mut [f64], z: &mut [f64], n: usize) -> bool {
    let at = |i: usize, j: usize| i * n + j;
    let mut hi = n;
    let mut its = 0;
    while hi > 0 {
        let q = hi - 1;
        let l = split(h, n, 0, q, f64::abs, 0.0);
        if l == q {
            // a 1 × 1 block
            hi -= 1;
            its = 0;
            continue;
        }
        if l + 1 == q {
            // a 2 × 2 block: standardise it
            let (blk, cs, sn) = lanv2(h[at(l, l)], h[at(l, q)], h[at(q, l)], h[at(q, q)]);
            [h[at(l, l)], h[at(l, q)], h[at(q, l)], h[at(q, q)]] = blk;
            rotate(h, z, n, l, q + 1, l, cs, sn);
            hi -= 2;
            its = 0;
            continue;
        }
        its += 1;
        if its > ITERS * (q - l + 1) {
            return false;
        }
        // the double shift: eigenvalues of the trailing 2 × 2 (exceptional shifts now and then)
        let (mut s, mut t) =
            (h[at(q - 1, q - 1)] + h[at(q, q)], h[at(q - 1, q - 1)] * h[at(q, q)] - h[at(q - 1, q)] * h[at(q, q - 1)]);
        if its % 11 == 10 {
            // LAPACK's exceptional shift, from the last two subdiagonal entries
            let w = h[at(q, q - 1)].abs() + h[at(q - 1, q - 2)].abs();
            let e = 0.75 * w + h[at(q, q)];
            s = 2.0 * e;
            t = e * e + 0.4375 * w * w;
        }
        let mut x = h[at(l, l)] * h[at(l, l)] + h[at(l, l + 1)] * h[at(l + 1, l)] - s * h[at(l, l)] + t;
        let mut y = h[at(l + 1, l)] * (h[at(l, l)] + h[at(l + 1, l + 1)] - s);
        let mut w = h[at(l + 1, l)] * h[at(l + 2, l + 1)];
        for k in l..q - 1 {
            let (v, tau) = reflector([x, y, w]);
            let from = if k > l { k - 1 } else { l };
            let rows = (k + 4).min(q + 1);
            reflect(h, z, n, k, v, tau, from, rows);
            if k > l {
                h[at(k + 1, k - 1)] = 0.0;
                h[at(k + 2, k - 1)] = 0.0;
            }
            x = h[at(k + 1, k)];
            y = h[at(k + 2, k)];
            if k + 3 <= q {
                w = h[at(k + 3, k)];
            }
        }
        let (v, tau) = reflector([x, y]);
        reflect(h, z, n, q - 1, v, tau, q - 2, q + 1);
        h[at(q, q - 2)] = 0.0;
    }
    true
}

/// The complex Schur form of upper Hessenberg `h` (overwritten by `T`), `z` updated to `Z·Q`;
/// `false` when an eigenvalue did not converge.
pub(crate) fn complex_schur(h: &mut [C], z: &mut [C], n: usize) -> bool {
    let at = |i: usize, j: usize| i * n + j;
    let zero = C::new(0.0, 0.0);
    let mut hi = n;
    let mut its = 0;
    while hi > 0 {
        let q = hi - 1;
        let l = split(h, n, 0, q, |x: C| x.re.abs() + x.im.abs(), zero);
        if l == q {
            hi -= 1;
            its = 0;
            continue;
        }
        its += 1;
        if its > ITERS * (q - l + 1) {
            return false;
        }
        // Wilkinson's shift: the eigenvalue of the trailing 2 × 2 nearer its last entry
        let (a, b, c, d) = (h[at(q - 1, q - 1)], h[at(q - 1, q)], h[at(q, q - 1)], h[at(q, q)]);
        let mu = if its % 11 == 10 {
            d + C::new(0.75 * c.norm(), 0.0)
        } else {
            let half = (a - d) * 0.5;
            let disc = (half * half + b * c).sqrt();
            let (m1, m2) = ((a + d) * 0.5 + disc, (a + d) * 0.5 - disc);
            if (m1 - d).norm() <= (m2 - d).norm() {
                m1
            } else {
                m2
            }
        };
        let (mut x, mut y) = (h[at(l, l)] - mu, h[at(l + 1, l)]);
        for k in l..q {
            let r = (x.norm_sqr() + y.norm_sqr()).sqrt();
            let (cs, sn) = if r == 0.0 {
                (1.0, zero)
            } else if x.norm() == 0.0 {
                (0.0, y.conj() / y.norm() * C::new(y.norm() / r, 0.0))
            } else {
                (x.norm() / r, (x / x.norm()) * y.conj() / r)
            };
            // rows k, k + 1 (from column k - 1 on): G = [[c, s], [-s̄, c]]
            for j in k.saturating_sub(1).max(l)..n {
                let (u, v) = (h[at(k, j)], h[at(k + 1, j)]);
                h[at(k, j)] = u * cs + sn * v;
                h[at(k + 1, j)] = -sn.conj() * u + v * cs;
            }
            // columns k, k + 1 by Gᴴ (rows up to k + 2 of the block, all above it)
            let rows = (k + 3).min(q + 1);
            for (m, rows) in [(&mut *h, rows), (&mut *z, n)] {
                for i in 0..rows {
                    let (u, v) = (m[at(i, k)], m[at(i, k + 1)]);
                    m[at(i, k)] = u * cs + sn.conj() * v;
                    m[at(i, k + 1)] = -sn * u + v * cs;
                }
            }
            if k + 1 < q {
                x = h[at(k + 1, k)];
                y = h[at(k + 2, k)];
            }
        }
        // clear what rounding left below the subdiagonal
        for k in l..q.saturating_sub(1) {
            h[at(k + 2, k)] = zero;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hess(n: usize, seed: u64) -> Vec<f64> {
        let mut s = seed;
        let mut v = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..n {
                s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                if i <= j + 1 {
                    v[i * n + j] = ((s >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0;
                }
            }
        }
        v
    }

    fn eye(n: usize) -> Vec<f64> {
        (0..n * n).map(|k| if k / n == k % n { 1.0 } else { 0.0 }).collect()
    }

    /// `Z T Zᵀ` of row-major buffers.
    fn back(t: &[f64], z: &[f64], n: usize) -> Vec<f64> {
        let mut out = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..n {
                out[i * n + j] = (0..n)
                    .flat_map(|k| (0..n).map(move |m| (k, m)))
                    .map(|(k, m)| z[i * n + k] * t[k * n + m] * z[j * n + m])
                    .sum();
            }
        }
        out
    }

    #[test]
    fn real_schur_reconstructs_and_is_quasi_triangular() {
        for n in [1, 2, 3, 5, 8, 13] {
            for seed in 0..4 {
                let a = hess(n, seed);
                let (mut t, mut z) = (a.clone(), eye(n));
                assert!(real_schur(&mut t, &mut z, n), "n {n} seed {seed}: no convergence");
                let r = back(&t, &z, n);
                let err = r.iter().zip(&a).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max);
                assert!(err < 1e-13 * n as f64, "n {n} seed {seed}: |Z T Zᵀ - A| = {err}");
                for i in 0..n {
                    for j in 0..i.saturating_sub(1) {
                        assert_eq!(t[i * n + j], 0.0, "n {n}: below the subdiagonal");
                    }
                    if i > 0 && t[i * n + i - 1] != 0.0 {
                        // a standardised 2 × 2 block: equal diagonal, b c < 0, not part of another
                        assert_eq!(t[(i - 1) * n + i - 1], t[i * n + i]);
                        assert!(t[(i - 1) * n + i] * t[i * n + i - 1] < 0.0);
                        assert!(i < 2 || t[(i - 1) * n + i - 2] == 0.0);
                    }
                }
            }
        }
    }

    #[test]
    fn complex_schur_reconstructs_and_is_triangular() {
        for n in [1, 2, 3, 6, 11] {
            for seed in 0..4 {
                let a: Vec<C> = hess(n, seed).iter().zip(hess(n, seed + 9)).map(|(&x, y)| C::new(x, y)).collect();
                let mut t = a.clone();
                let mut z: Vec<C> = eye(n).into_iter().map(|x| C::new(x, 0.0)).collect();
                assert!(complex_schur(&mut t, &mut z, n));
                for i in 0..n {
                    for j in 0..i {
                        assert_eq!(t[i * n + j], C::new(0.0, 0.0), "n {n}: below the diagonal");
                    }
                }
                let mut err = 0.0f64;
                for i in 0..n {
                    for j in 0..n {
                        let mut s = C::new(0.0, 0.0);
                        for k in 0..n {
                            for m in 0..n {
                                s += z[i * n + k] * t[k * n + m] * z[j * n + m].conj();
                            }
                        }
                        err = err.max((s - a[i * n + j]).norm());
                    }
                }
                assert!(err < 1e-13 * n as f64, "n {n} seed {seed}: |Z T Zᴴ - A| = {err}");
            }
        }
    }
}
