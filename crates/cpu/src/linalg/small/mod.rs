//! Our own loops for small matrices (order up to [`SMALL`] or [`SPECTRAL`]), where faer's setup
//! or its careful Givens rotations cost more than the arithmetic and stacks of thousands of such
//! matrices are common: Cholesky and Householder QR ([`factor`]), the reductions to tridiagonal
//! and bidiagonal form ([`reduce`]) and eigenvalues or singular values by bisection on Sturm
//! counts, many shifts at once ([`bisect`]).
//!
//! Every loop works on a row-major copy and is written so that its inner loop runs along a row
//! (an `axpy`, no reduction), compiled for AVX-512 or AVX2 when the processor has them
//! ([`wide`]): that is what lets them match LAPACK's speed on one core.
// Without the `linalg` feature only the products use this module; the decompositions' helpers
// stay (generic, so never instantiated) rather than each carrying a cfg.
#![cfg_attr(not(feature = "linalg"), allow(dead_code))]
use num_complex::Complex;
use std::ops::{Add, Mul, Sub};

// (the decompositions, built with the `linalg` feature; the rest serves the products too)
#[cfg(feature = "linalg")]
pub(crate) mod bisect;
#[cfg(feature = "linalg")]
pub(crate) mod factor;
#[cfg(feature = "linalg")]
pub(crate) mod lu;
#[cfg(feature = "linalg")]
pub(crate) mod reduce;
#[cfg(feature = "linalg")]
pub(crate) mod spectral;

#[cfg(feature = "linalg")]
pub(crate) use factor::{cholesky, qr};
#[cfg(feature = "linalg")]
pub(crate) use lu::{lu_rows, panel};
#[cfg(feature = "linalg")]
pub(crate) use spectral::{eigvalsh, svdvals};

/// The largest order Cholesky and QR take here.
pub(crate) const SMALL: usize = 48;
/// The largest order the eigenvalue and singular-value loops take here.
pub(crate) const SPECTRAL: usize = 64;

/// The real arithmetic the loops need (float32, float64).
pub(crate) trait Real:
    Copy + Default + PartialOrd + Into<f64> + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + Send + Sync
{
    /// the machine epsilon (the distance from 1 to the next number)
    const EPS: Self;
    /// the smallest positive normal number
    const TINY: Self;
    /// a binary exponent `e` such that `2^±e` and squares near 1 stay normal
    const EXP: i32;
    /// `x` rounded to this type
    fn from_f64(x: f64) -> Self;
    /// `|self|`
    fn abs(self) -> Self;
    /// `self / y`
    fn div(self, y: Self) -> Self;
}

macro_rules! real {
    ($($t:ident),*) => {$(
        impl Real for $t {
            const EPS: $t = $t::EPSILON;
            const TINY: $t = $t::MIN_POSITIVE;
            const EXP: i32 = $t::MAX_EXP - 4;
            #[inline(always)]
            fn from_f64(x: f64) -> $t { x as $t }
            #[inline(always)]
            fn abs(self) -> $t { $t::abs(self) }
            #[inline(always)]
            fn div(self, y: $t) -> $t { self / y }
        }
    )*};
}
real!(f32, f64);

/// The arithmetic the loops need, for float32, float64, complex64 and complex128.
pub(crate) trait Small:
    Copy + Default + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + Send + Sync
{
    /// the real type
    type Re: Real;
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
    /// the real value `r`
    fn real(r: Self::Re) -> Self;
    /// `self · r`
    fn scale(self, r: f64) -> Self;
    /// `self · r` for `r` of the real type
    fn rmul(self, r: Self::Re) -> Self;
}

macro_rules! small_real {
    ($($t:ty),*) => {$(
        impl Small for $t {
            type Re = $t;
            #[inline(always)]
            fn cj(self) -> Self { self }
            #[inline(always)]
            fn abs2(self) -> $t { self * self }
            #[inline(always)]
            fn re(self) -> $t { self }
            #[inline(always)]
            fn im(self) -> $t { 0.0 }
            #[inline(always)]
            fn of(r: f64, _: f64) -> Self { r as $t }
            #[inline(always)]
            fn real(r: $t) -> Self { r }
            #[inline(always)]
            fn scale(self, r: f64) -> Self { self * r as $t }
            #[inline(always)]
            fn rmul(self, r: $t) -> Self { self * r }
        }
    )*};
}
macro_rules! small_complex {
    ($($t:ty),*) => {$(
        impl Small for Complex<$t> {
            type Re = $t;
            #[inline(always)]
            fn cj(self) -> Self { self.conj() }
            #[inline(always)]
            fn abs2(self) -> $t { self.re * self.re + self.im * self.im }
            #[inline(always)]
            fn re(self) -> $t { self.re }
            #[inline(always)]
            fn im(self) -> $t { self.im }
            #[inline(always)]
            fn of(r: f64, i: f64) -> Self { Complex::new(r as $t, i as $t) }
            #[inline(always)]
            fn real(r: $t) -> Self { Complex::new(r, 0.0) }
            #[inline(always)]
            fn scale(self, r: f64) -> Self { Complex::new(self.re * r as $t, self.im * r as $t) }
            #[inline(always)]
            fn rmul(self, r: $t) -> Self { Complex::new(self.re * r, self.im * r) }
        }
    )*};
}
small_real!(f32, f64);
small_complex!(f32, f64);

/// `f()` compiled for AVX-512 (or AVX2) when the processor has it, so that the loops inlined
/// into it vectorise at that width; elsewhere as built. `f` itself (a closure marked
/// `#[inline(always)]`) and everything it calls that should widen must be inlined into it.
#[inline(always)]
pub(crate) fn wide<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    {
        #[target_feature(enable = "avx512f,avx512vl,avx2,fma")]
        fn on_avx512<R>(f: impl FnOnce() -> R) -> R {
            f()
        }
        #[target_feature(enable = "avx2,fma")]
        fn on_avx2<R>(f: impl FnOnce() -> R) -> R {
            f()
        }
        if std::arch::is_x86_feature_detected!("avx512f") && std::arch::is_x86_feature_detected!("avx512vl") {
            // SAFETY: the processor has the features the function is compiled for.
            return unsafe { on_avx512(f) };
        }
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma") {
            // SAFETY: as above.
            return unsafe { on_avx2(f) };
        }
    }
    f()
}

/// `y[i] -= a · x[i]`: the inner loop of every update here.
#[inline(always)]
pub(crate) fn axpy_sub<T: Small>(y: &mut [T], a: T, x: &[T]) {
    for (yi, &xi) in y.iter_mut().zip(x) {
        *yi = *yi - a * xi;
    }
}

/// `y[i] += a · x[i]`.
#[inline(always)]
pub(crate) fn axpy_add<T: Small>(y: &mut [T], a: T, x: &[T]) {
    for (yi, &xi) in y.iter_mut().zip(x) {
        *yi = *yi + a * xi;
    }
}

/// Ask for the cache lines that follow `block`, one block ahead of a streaming loop (GEMV's four
/// rows: the 2000² float64 `A x` went from 0.825 to 0.770 ms on the 2-core EPYC VM, median of
/// 1200 calls, where OpenBLAS's `dgemv` took 0.876 alone). A prefetch past the buffer's end does
/// not fault.
#[inline(always)]
pub(crate) fn prefetch_next<T>(block: &[T]) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let bytes = std::mem::size_of_val(block);
        let next = block.as_ptr().wrapping_add(block.len()) as *const i8;
        let mut off = 0;
        while off < bytes {
            // SAFETY: a prefetch is a hint; it reads nothing and never faults.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(next.wrapping_add(off)) };
            off += 64;
        }
    }
}

/// `Σ x[k] y[k]` in `W` interleaved sums (independent chains, so that the loop pipelines and
/// vectorises).
#[inline(always)]
pub(crate) fn dot<T: Small, const W: usize>(x: &[T], y: &[T]) -> T {
    let mut acc = [T::default(); W];
    let (xc, yc) = (x.chunks_exact(W), y.chunks_exact(W));
    let (xr, yr) = (xc.remainder(), yc.remainder());
    for (a, b) in xc.zip(yc) {
        let (a, b): (&[T; W], &[T; W]) = (a.try_into().expect("W"), b.try_into().expect("W"));
        for t in 0..W {
            acc[t] = acc[t] + a[t] * b[t];
        }
    }
    // the chains in order (a pairwise tree here, a loop over halving widths, made LLVM keep the
    // chains above in 128-bit registers: 1.4× slower when the data stream from memory)
    let mut s = acc.iter().fold(T::default(), |s, &v| s + v);
    for (&a, &b) in xr.iter().zip(yr) {
        s = s + a * b;
    }
    s
}

/// A power of two `2^-e` that brings `mx` (a largest magnitude, finite and positive) near 1, so
/// that squares neither overflow nor underflow; exact to apply and to undo.
pub(crate) fn unit_scale<R: Real>(mx: f64) -> f64 {
    if mx > 0.0 && mx.is_finite() {
        2f64.powi(-(mx.log2().round() as i32).clamp(-R::EXP, R::EXP))
    } else {
        1.0
    }
}
