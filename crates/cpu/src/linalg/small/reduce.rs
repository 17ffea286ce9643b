//! Reductions of a small matrix to a real tridiagonal (Hermitian input) or bidiagonal (any
//! input) with the same eigenvalues or singular values, by Householder reflectors on a row-major
//! copy. Only the magnitudes of the off-diagonal entries are kept: a diagonal unitary similarity
//! (or pair of diagonal unitary factors) makes every entry real and non-negative without
//! changing the spectrum, so the reflectors need not make them real as LAPACK's do.
use super::{axpy_add, axpy_sub, dot, Real, Small};

/// A reflector `I - tau v vᴴ` taking `x` (overwritten by `v`) to a multiple of `e1`:
/// `v = x + ph |x| e1` with `ph = x0 / |x0|`; returns `(tau, |x|)`, `tau = 0` when `x[1..]` is
/// zero (the column is already reduced; its magnitude is `|x0|`).
#[inline(always)]
fn reflector<T: Small>(x: &mut [T]) -> (T::Re, T::Re) {
    let tail: f64 = x[1..].iter().map(|&v| v.abs2().into()).sum();
    let a2: f64 = x[0].abs2().into();
    let a0 = a2.sqrt();
    if tail == 0.0 {
        return (T::Re::default(), T::Re::from_f64(a0));
    }
    let nx = (a2 + tail).sqrt();
    x[0] = if a0 > 0.0 { x[0].scale(1.0 + nx / a0) } else { T::of(nx, 0.0) };
    let v2 = tail + <T::Re as Into<f64>>::into(x[0].abs2());
    (T::Re::from_f64(2.0 / v2), T::Re::from_f64(nx))
}

/// The tridiagonal `(d, e)` (`e[i]` joins `i` and `i + 1`, `e` one shorter) of the Hermitian
/// `h` (row-major `n × n`, both triangles filled, destroyed).
#[inline(always)]
pub(crate) fn tridiagonal<T: Small>(h: &mut [T], n: usize) -> (Vec<T::Re>, Vec<T::Re>) {
    let mut d = vec![T::Re::default(); n];
    let mut e = vec![T::Re::default(); n.saturating_sub(1)];
    let (mut v, mut p, mut cv, mut cw) =
        (vec![T::default(); n], vec![T::default(); n], vec![T::default(); n], vec![T::default(); n]);
    for k in 0..n.saturating_sub(1) {
        d[k] = h[k * n + k].re();
        let m = n - k - 1;
        let (v, p, cv, cw) = (&mut v[..m], &mut p[..m], &mut cv[..m], &mut cw[..m]);
        // the column below the diagonal is the conjugate of the row right of it
        for (vi, &x) in v.iter_mut().zip(&h[k * n + k + 1..(k + 1) * n]) {
            *vi = x.cj();
        }
        let (tau, nx) = reflector(v);
        e[k] = nx;
        if tau == T::Re::default() {
            continue;
        }
        // r = vᴴ H22 (a row at a time), p = tau H22 v = tau conj(r)
        p.fill(T::default());
        for (j, &vj) in v.iter().enumerate() {
            let row = (k + 1 + j) * n + k + 1;
            axpy_add(p, vj.cj(), &h[row..row + m]);
        }
        for x in p.iter_mut() {
            *x = x.cj().rmul(tau);
        }
        // w = p - (tau / 2) re(vᴴ p) v, kept in p
        let kk: f64 = <T::Re as Into<f64>>::into(tau) * 0.5 * <T::Re as Into<f64>>::into(vdot(v, p).re());
        for (x, &vi) in p.iter_mut().zip(v.iter()) {
            *x = *x - vi.scale(kk);
        }
        // H22 -= v wᴴ + w vᴴ
        for j in 0..m {
            cv[j] = v[j].cj();
            cw[j] = p[j].cj();
        }
        for i in 0..m {
            let row = (k + 1 + i) * n + k + 1;
            axpy_sub(&mut h[row..row + m], v[i], cw);
            axpy_sub(&mut h[row..row + m], p[i], cv);
        }
    }
    if n > 0 {
        d[n - 1] = h[n * n - 1].re();
    }
    (d, e)
}

/// `vᴴ p`.
#[inline(always)]
fn vdot<T: Small>(v: &[T], p: &[T]) -> T {
    v.iter().zip(p).fold(T::default(), |s, (&a, &b)| s + a.cj() * b)
}

/// The upper bidiagonal `(d, e)` (`d` of length `n`, `e` of `n - 1`) of the row-major `m × n`
/// `a` with `m ≥ n` (destroyed): a reflector from the left clears each column below the
/// diagonal, one from the right each row right of the superdiagonal.
#[inline(always)]
pub(crate) fn bidiagonal<T: Small>(a: &mut [T], m: usize, n: usize) -> (Vec<T::Re>, Vec<T::Re>) {
    debug_assert!(m >= n);
    let mut d = vec![T::Re::default(); n];
    let mut e = vec![T::Re::default(); n.saturating_sub(1)];
    let (mut x, mut w, mut uc) = (vec![T::default(); m.max(n)], vec![T::default(); m.max(n)], vec![T::default(); n]);
    for j in 0..n {
        // from the left: rows j.., column j
        let x = &mut x[..m - j];
        for (i, xi) in x.iter_mut().enumerate() {
            *xi = a[(j + i) * n + j];
        }
        let (tau, nx) = reflector(x);
        d[j] = nx;
        if tau != T::Re::default() && j + 1 < n {
            // w = vᴴ A[j.., j+1..] a row at a time, then A -= tau v w
            let c = n - j - 1;
            let w = &mut w[..c];
            w.fill(T::default());
            for (i, &xi) in x.iter().enumerate() {
                let row = (j + i) * n + j + 1;
                axpy_add(w, xi.cj(), &a[row..row + c]);
            }
            for (i, &xi) in x.iter().enumerate() {
                let row = (j + i) * n + j + 1;
                axpy_sub(&mut a[row..row + c], xi.rmul(tau), w);
            }
        }
        if j + 1 >= n {
            continue;
        }
        // from the right: row j, columns j+1..; the reflector of its conjugate
        let c = n - j - 1;
        let y = &mut w[..c];
        for (yi, &v) in y.iter_mut().zip(&a[j * n + j + 1..(j + 1) * n]) {
            *yi = v.cj();
        }
        let (tau, ny) = reflector(y);
        e[j] = ny;
        if tau == T::Re::default() {
            continue;
        }
        // rows j+1..: A[i, j+1..] -= tau (A[i, j+1..] · u) uᴴ
        let uc = &mut uc[..c];
        for (ui, &u) in uc.iter_mut().zip(y.iter()) {
            *ui = u.cj();
        }
        for i in j + 1..m {
            let row = i * n + j + 1;
            let s = dot::<T, 8>(&a[row..row + c], y).rmul(tau);
            axpy_sub(&mut a[row..row + c], s, uc);
        }
    }
    (d, e)
}

/// The largest magnitude of a real or imaginary part in `x`, as `f64` (NaN if any is NaN or
/// infinite): within √2 of the largest magnitude, all a power-of-two scaling needs, without a
/// square (a float32 square over- or underflows at the scales this guards) or a `hypot`.
pub(crate) fn max_abs<T: Small>(x: &[T]) -> f64 {
    let mut mx = 0.0f64;
    for &v in x {
        let (r, i): (f64, f64) = (v.re().into(), v.im().into());
        mx = mx.max(r.abs()).max(i.abs());
        if !(r.is_finite() && i.is_finite()) {
            return f64::NAN;
        }
    }
    mx
}
