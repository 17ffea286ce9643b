//! Branch-free float32 kernels for `sin`, `cos`, `exp` and `tanh` that the compiler vectorises:
//! Cody–Waite range reduction and the Cephes minimax polynomials (about 2 ulp). They run on
//! blocks of 256 elements; a block holding any input outside the kernels' range (|x| > 8192 for
//! sin and cos, outside [-87, 88] for exp, NaN or infinite anywhere) is computed by libm instead,
//! so edge cases are exactly libm's.
// The polynomial coefficients are Cephes's published values, kept digit for digit.
#![allow(clippy::excessive_precision)]

use crate::iter::map1_blocks;
use std::mem::MaybeUninit;
use xp_core::{Layout, UnaryOp};

const MAGIC: f32 = 12_582_912.0; // 1.5 * 2^23: adding and subtracting it rounds to an integer
const FRAC_2_PI: f32 = std::f32::consts::FRAC_2_PI;
// π/2 in three parts; k * P1 is exact for |k| < 2^16.
const P1: f32 = 1.570_312_5;
const P2: f32 = 4.837_513e-4;
const P3: f32 = 7.549_79e-8;

/// `x` rounded to an integer (|x| < 2^22), and that integer in the low bits of the second value
/// (the bits of `x + MAGIC` are `0x4B40_0000 + round(x)`). Reading the integer from the bits
/// instead of with `as i32` keeps the loops vectorised: Rust's saturating float-to-int cast
/// compiled to a scalar conversion and two compares per lane (measured: most of the time of
/// `exp` and `tanh`).
#[inline(always)]
fn round_bits(x: f32) -> (f32, i32) {
    let m = x + MAGIC;
    (m - MAGIC, (m.to_bits() as i32).wrapping_sub(0x4B40_0000))
}

/// `a * b + c`: one fused multiply-add where the code is compiled for a processor that has it
/// (`F`), else a multiply and an add (`mul_add` without the instruction is a slow libm call).
#[inline(always)]
fn fma<const F: bool>(a: f32, b: f32, c: f32) -> f32 {
    if F {
        a.mul_add(b, c)
    } else {
        a * b + c
    }
}

/// sin (quadrant offset 0) or cos (offset 1) for |x| <= 8192.
#[inline(always)]
fn sincos<const F: bool>(x: f32, offset: i32) -> f32 {
    let (k, ki) = round_bits(x * FRAC_2_PI);
    let q = ki.wrapping_add(offset) & 3;
    let r = fma::<F>(-k, P3, fma::<F>(-k, P2, fma::<F>(-k, P1, x)));
    let z = r * r;
    let ps = fma::<F>(z, fma::<F>(z, -1.951_529_6e-4, 8.332_161e-3), -1.666_665_5e-1);
    let s = fma::<F>(r * z, ps, r);
    let pc = fma::<F>(z, fma::<F>(z, 2.443_315_7e-5, -1.388_731_6e-3), 4.166_664_6e-2);
    let c = fma::<F>(z * z, pc, fma::<F>(-0.5, z, 1.0));
    let v = if q & 1 == 0 { s } else { c };
    if q & 2 == 0 {
        v
    } else {
        -v
    }
}

/// e^x for x in [-87, 88].
#[inline(always)]
fn exp<const F: bool>(x: f32) -> f32 {
    let (n, ni) = round_bits(x * std::f32::consts::LOG2_E);
    let r = fma::<F>(-n, -2.121_944_4e-4, fma::<F>(-n, 0.693_359_4, x));
    let p = [1.398_2e-3, 8.333_452e-3, 4.166_579_6e-2, 1.666_666_5e-1, 5.000_000_1e-1]
        .into_iter()
        .fold(1.987_569_1e-4, |p, c| fma::<F>(p, r, c));
    let e = fma::<F>(r * r, p, r) + 1.0;
    e * f32::from_bits((ni.wrapping_add(127) << 23) as u32)
}

/// tanh for finite x.
#[inline(always)]
fn tanh<const F: bool>(x: f32) -> f32 {
    let a = x.abs().min(9.0);
    let z = x * x;
    let p = [2.063_908_9e-2, -5.373_971_6e-2, 1.333_144_2e-1, -3.333_328_2e-1]
        .into_iter()
        .fold(-5.704_988_7e-3, |p, c| fma::<F>(p, z, c));
    let small = fma::<F>(p * z, x, x);
    let e = exp::<F>(2.0 * a);
    let big = (1.0 - 2.0 / (e + 1.0)).copysign(x);
    if a < 0.625 {
        small
    } else {
        big
    }
}

#[inline(always)]
fn block(
    x: &[f32],
    out: &mut [MaybeUninit<f32>],
    ok: impl Fn(f32) -> bool,
    fast: impl Fn(f32) -> f32,
    slow: fn(f32) -> f32,
) {
    if x.iter().fold(true, |acc, &v| acc & ok(v)) {
        for (o, &v) in out.iter_mut().zip(x) {
            o.write(fast(v));
        }
    } else {
        for (o, &v) in out.iter_mut().zip(x) {
            o.write(slow(v));
        }
    }
}

/// `o = f(x)` through the fast kernels, for the functions that have one (false otherwise):
/// blocks of float32 `sin`, `cos`, `exp`, `tanh`, written into possibly uninitialised memory.
#[inline(always)]
fn slice_uninit<const F: bool>(f: xp_core::kernel::MathFn, x: &[f32], o: &mut [MaybeUninit<f32>]) -> bool {
    use xp_core::kernel::MathFn::*;
    for (x, o) in x.chunks(256).zip(o.chunks_mut(256)) {
        match f {
            Sin => block(x, o, |v| v.abs() <= 8192.0, |v| sincos::<F>(v, 0), f32::sin),
            Cos => block(x, o, |v| v.abs() <= 8192.0, |v| sincos::<F>(v, 1), f32::cos),
            Exp => block(x, o, |v| (-87.0..=88.0).contains(&v), exp::<F>, f32::exp),
            Tanh => block(x, o, |v| v.abs() <= 1e30, tanh::<F>, f32::tanh),
            _ => return false,
        }
    }
    true
}

/// [`slice_uninit`] compiled for the widest SIMD the processor has (pulp's runtime dispatch).
fn wide_uninit(f: xp_core::kernel::MathFn, x: &[f32], o: &mut [MaybeUninit<f32>]) -> bool {
    struct Fast<'a>(xp_core::kernel::MathFn, &'a [f32], &'a mut [MaybeUninit<f32>]);
    impl pulp::WithSimd for Fast<'_> {
        type Output = bool;
        #[inline(always)]
        fn with_simd<S: pulp::Simd>(self, _: S) -> bool {
            // pulp's AVX2 (V3) and AVX-512 (V4) levels both include FMA
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            {
                use std::any::TypeId;
                let t = TypeId::of::<S>();
                if t == TypeId::of::<pulp::x86::V3>() || t == TypeId::of::<pulp::x86::V4>() {
                    return slice_uninit::<true>(self.0, self.1, self.2);
                }
            }
            slice_uninit::<false>(self.0, self.1, self.2)
        }
    }
    pulp::Arch::new().dispatch(Fast(f, x, o))
}

/// `o = f(x)` through the fast kernels at the machine's full SIMD width, for the functions that
/// have one (false otherwise, `o` untouched): the kernel evaluator's float32 blocks.
pub(crate) fn wide_f32(f: xp_core::kernel::MathFn, x: &[f32], o: &mut [f32]) -> bool {
    // SAFETY: viewing initialised floats as possibly-uninitialised ones is always sound.
    wide_uninit(f, x, unsafe { &mut *(o as *mut [f32] as *mut [MaybeUninit<f32>]) })
}

/// The fast kernel of `op` on float32, if there is one.
pub fn unary_f32(x: &[f32], l: &Layout, op: UnaryOp) -> Option<Vec<f32>> {
    use xp_core::kernel::MathFn;
    let f = match op {
        UnaryOp::Sin => MathFn::Sin,
        UnaryOp::Cos => MathFn::Cos,
        UnaryOp::Exp => MathFn::Exp,
        UnaryOp::Tanh => MathFn::Tanh,
        _ => return None,
    };
    // Each block compiled for the widest SIMD the processor has (as the kernel evaluator's).
    Some(map1_blocks(x, l, |x, o| {
        wide_uninit(f, x, o);
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against f64 libm over a dense sweep: within a few float32 ulps.
    #[test]
    fn kernels_match_f64_libm() {
        let mut worst = [0f64; 8];
        let mut x = -100.0f32;
        while x < 100.0 {
            let checks = [
                (sincos::<false>(x, 0) as f64, (x as f64).sin()),
                (sincos::<false>(x, 1) as f64, (x as f64).cos()),
                (exp::<false>(x.clamp(-80.0, 80.0)) as f64, (x.clamp(-80.0, 80.0) as f64).exp()),
                (tanh::<false>(x) as f64, (x as f64).tanh()),
                (sincos::<true>(x, 0) as f64, (x as f64).sin()),
                (sincos::<true>(x, 1) as f64, (x as f64).cos()),
                (exp::<true>(x.clamp(-80.0, 80.0)) as f64, (x.clamp(-80.0, 80.0) as f64).exp()),
                (tanh::<true>(x) as f64, (x as f64).tanh()),
            ];
            for (k, (got, want)) in checks.into_iter().enumerate() {
                let err = (got - want).abs() / want.abs().max(1e-30);
                // sin/cos near their zeros: judge by absolute error
                let err = if k % 4 < 2 { err.min((got - want).abs() / f32::EPSILON as f64) } else { err };
                worst[k] = worst[k].max(err);
            }
            x += 0.000_913;
        }
        for (k, w) in worst.iter().enumerate() {
            assert!(*w < 4.0 * f32::EPSILON as f64, "kernel {k}: worst relative error {w:e}");
        }
    }
}
