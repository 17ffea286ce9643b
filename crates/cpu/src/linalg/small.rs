//! Cholesky and Householder QR of small matrices (order up to [`SMALL`]) without faer: for a 32×32
//! matrix faer's setup costs more than the arithmetic (QR ~77 µs a matrix, Cholesky ~10 µs, where
//! LAPACK's loops take a third of that), and stacks of thousands of such matrices are common.
//! Unblocked loops over a row-major copy, with LAPACK's conventions (a real Cholesky diagonal;
//! `geqrf`'s reflectors, so `R`'s signs are NumPy's).
use faer::MatRef;
use num_complex::Complex;
use std::ops::{Add, Mul, Sub};
use xp_core::linalg::{QrMode, Uplo};

/// The largest order the loops here take.
pub(crate) const SMALL: usize = 48;

/// The arithmetic the loops need, for float32, float64, complex64 and complex128.
pub(crate) trait Small: Copy + Default + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> {
    /// the real type
    type Re: Copy + PartialOrd + Default + Into<f64>;
    /// the complex conjugate
    fn cj(self) -> Self;
    /// `|x|²`
    fn abs2(self) -> Self::Re;
    /// the real part
    fn re(self) -> Self::Re;
    /// the imaginary part (zero for a real type)
    fn im(self) -> Self::Re;
    /// a value of real part `r` and imaginary part `i` (dropped for a real type)
    fn of(r: f64, i: f64) -> Self;
    /// `self · r`
    fn scale(self, r: f64) -> Self;
}

macro_rules! small_real {
    ($($t:ty),*) => {$(
        impl Small for $t {
            type Re = $t;
            fn cj(self) -> Self { self }
            fn abs2(self) -> $t { self * self }
            fn re(self) -> $t { self }
            fn im(self) -> $t { 0.0 }
            fn of(r: f64, _: f64) -> Self { r as $t }
            fn scale(self, r: f64) -> Self { self * r as $t }
        }
    )*};
}
macro_rules! small_complex {
    ($($t:ty),*) => {$(
        impl Small for Complex<$t> {
            type Re = $t;
            fn cj(self) -> Self { self.conj() }
            fn abs2(self) -> $t { self.norm_sqr() }
            fn re(self) -> $t { self.re }
            fn im(self) -> $t { self.im }
            fn of(r: f64, i: f64) -> Self { Complex::new(r as $t, i as $t) }
            fn scale(self, r: f64) -> Self { self * r as $t }
        }
    )*};
}
small_real!(f32, f64);
small_complex!(f32, f64);

/// The Cholesky factor of `a` (the triangle `uplo` read, its mirror conjugated) as a C-order
/// `n × n` with zeros in the other triangle, or the order of the first leading minor that is not
/// positive definite.
pub(crate) fn cholesky<T: Small>(a: MatRef<'_, T>, uplo: Uplo) -> Result<Vec<T>, usize> {
    let n = a.nrows();
    // l: the lower factor, row-major, so that the dot products run along rows
    let mut l = vec![T::default(); n * n];
    for i in 0..n {
        for j in 0..=i {
            l[i * n + j] = if uplo == Uplo::Lower { a[(i, j)] } else { a[(j, i)].cj() };
        }
    }
    for j in 0..n {
        let mut d: f64 = l[j * n + j].re().into();
        for k in 0..j {
            d -= l[j * n + k].abs2().into();
        }
        if d <= 0.0 {
            return Err(j + 1); // NaN passes through, as in LAPACK
        }
        let ljj = d.sqrt();
        l[j * n + j] = T::of(ljj, 0.0);
        let inv = 1.0 / ljj;
        let (head, tail) = l.split_at_mut((j + 1) * n);
        let rj = &head[j * n..j * n + j];
        for ri in tail.chunks_exact_mut(n) {
            ri[j] = (ri[j] - dot_conj(&ri[..j], rj)).scale(inv);
        }
    }
    Ok(match uplo {
        Uplo::Lower => l,
        Uplo::Upper => {
            let mut u = vec![T::default(); n * n];
            for i in 0..n {
                for j in 0..=i {
                    u[j * n + i] = l[i * n + j].cj();
                }
            }
            u
        }
    })
}

/// `Σ x[k] conj(y[k])` in four interleaved sums (independent chains, so that the loop pipelines).
fn dot_conj<T: Small>(x: &[T], y: &[T]) -> T {
    let mut acc = [T::default(); 4];
    let (xc, yc) = (x.chunks_exact(4), y.chunks_exact(4));
    let (xr, yr) = (xc.remainder(), yc.remainder());
    for (a, b) in xc.zip(yc) {
        for t in 0..4 {
            acc[t] = acc[t] + a[t] * b[t].cj();
        }
    }
    let mut s = (acc[0] + acc[1]) + (acc[2] + acc[3]);
    for (&a, &b) in xr.iter().zip(yr) {
        s = s + a * b.cj();
    }
    s
}

/// `y ← (I - t v vᴴ) y` for the reflector `v = (1, x[j+1..])` acting on rows `j..`.
fn reflect<T: Small>(x: &[T], y: &mut [T], j: usize, t: T) {
    let d = (y[j] + dot_conj(&y[j + 1..], &x[j + 1..])) * t;
    y[j] = y[j] - d;
    for (yi, &xi) in y[j + 1..].iter_mut().zip(&x[j + 1..]) {
        *yi = *yi - xi * d;
    }
}

/// `(Q, R)` of `a` (m × n, both at most [`SMALL`]) as [`QrMode`] asks, C order, by Householder
/// reflectors as LAPACK's `geqrf` and `orgqr` make them.
pub(crate) fn qr<T: Small>(a: MatRef<'_, T>, mode: QrMode) -> (Option<Vec<T>>, Vec<T>) {
    let (m, n) = (a.nrows(), a.ncols());
    let k = m.min(n);
    // f: column-major m × n (columns are what the reflectors work on)
    let mut f = vec![T::default(); m * n];
    for j in 0..n {
        for i in 0..m {
            f[j * m + i] = a[(i, j)];
        }
    }
    let mut tau = vec![T::default(); k];
    for j in 0..k {
        let (left, right) = f.split_at_mut((j + 1) * m);
        let x = &mut left[j * m..];
        let xn: f64 = x[j + 1..].iter().map(|&v| v.abs2().into()).sum();
        let (ar, ai): (f64, f64) = (x[j].re().into(), x[j].im().into());
        if xn == 0.0 && ai == 0.0 {
            continue; // H = I
        }
        let beta = -(ar * ar + ai * ai + xn).sqrt().copysign(ar);
        tau[j] = T::of((beta - ar) / beta, -ai / beta);
        // v = x / (alpha - beta): 1 / (ar - beta + i ai)
        let (dr, di) = (ar - beta, ai);
        let den = dr * dr + di * di;
        let s = T::of(dr / den, -di / den);
        for v in &mut x[j + 1..] {
            *v = *v * s;
        }
        x[j] = T::of(beta, 0.0);
        // the trailing columns: (I - conj(tau) v vᴴ) y
        let tj = tau[j].cj();
        for y in right.chunks_exact_mut(m) {
            reflect(x, y, j, tj);
        }
    }
    let rr = if mode == QrMode::Complete { m } else { k };
    let mut r = vec![T::default(); rr * n];
    for i in 0..k {
        for j in i..n {
            r[i * n + j] = f[j * m + i];
        }
    }
    if mode == QrMode::R {
        return (None, r);
    }
    let qc = if mode == QrMode::Complete { m } else { k };
    // Q = H_1 ⋯ H_k applied to the first qc columns of the identity, column-major
    let mut q = vec![T::default(); m * qc];
    for c in 0..qc {
        q[c * m + c] = T::of(1.0, 0.0);
    }
    for j in (0..k).rev() {
        let x = &f[j * m..(j + 1) * m];
        for y in q.chunks_exact_mut(m).skip(j) {
            reflect(x, y, j, tau[j]);
        }
    }
    let mut qo = vec![T::default(); m * qc];
    for i in 0..m {
        for c in 0..qc {
            qo[i * qc + c] = q[c * m + i];
        }
    }
    (Some(qo), r)
}
