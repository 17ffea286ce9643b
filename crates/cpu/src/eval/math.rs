//! Math functions and NumPy ufuncs over register blocks.
use super::col::{class, with_lane, with_num, Col, Lane, Reg};
use crate::scalar::ScalarOps;
use crate::special::as241;
use xp_core::kernel::MathFn;
use xp_core::{BinaryOp, DType, Error, OutRule, Result, UnaryOp};

/// True for the two-argument functions.
pub(crate) fn binary(f: MathFn) -> bool {
    use MathFn::*;
    matches!(f, Pow | Atan2 | Hypot | Fmin | Fmax | Fmod | Copysign | Min | Max)
}

macro_rules! float_fns {
    ($t:ty, $unary:ident, $binary:ident) => {
        fn $unary(f: MathFn) -> fn($t) -> $t {
            use MathFn::*;
            match f {
                Sin => <$t>::sin,
                Cos => <$t>::cos,
                Tan => <$t>::tan,
                Asin => <$t>::asin,
                Acos => <$t>::acos,
                Atan => <$t>::atan,
                Sinh => <$t>::sinh,
                Cosh => <$t>::cosh,
                Tanh => <$t>::tanh,
                Asinh => <$t>::asinh,
                Acosh => <$t>::acosh,
                Atanh => |x| libm::atanh(x as f64) as $t, // (as the ufunc: musl's, on |x|)
                Exp => <$t>::exp,
                Exp2 => <$t>::exp2,
                Expm1 => <$t>::exp_m1,
                Log => <$t>::ln,
                Log2 => <$t>::log2,
                Log10 => <$t>::log10,
                Log1p => <$t>::ln_1p,
                Sqrt => <$t>::sqrt,
                Rsqrt => |x| 1.0 / x.sqrt(),
                Cbrt => <$t>::cbrt,
                Floor => <$t>::floor,
                Ceil => <$t>::ceil,
                Trunc => <$t>::trunc,
                Round => <$t>::round,
                Rint => <$t>::round_ties_even,
                Fabs | Abs => <$t>::abs,
                Erf => |x| libm::erf(x as f64) as $t,
                Erfc => |x| libm::erfc(x as f64) as $t,
                Erfinv => |x| crate::special::erfinv(x as f64) as $t,
                Erfcinv => |x| crate::special::erfcinv(x as f64) as $t,
                Erfcx => |x| crate::special::erfcx(x as f64) as $t,
                Normcdf => |x| crate::special::ndtr(x as f64) as $t,
                Normcdfinv => |x| crate::special::ndtri(x as f64) as $t,
                Lgamma => |x| crate::special::gammaln(x as f64) as $t,
                Tgamma => |x| crate::special::gamma(x as f64) as $t,
                J0 => |x| crate::special::j0(x as f64) as $t,
                J1 => |x| crate::special::j1(x as f64) as $t,
                Y0 => |x| crate::special::y0(x as f64) as $t,
                Y1 => |x| crate::special::y1(x as f64) as $t,
                I0 => |x| crate::special::i0(x as f64) as $t,
                I1 => |x| crate::special::i1(x as f64) as $t,
                Pow | Atan2 | Hypot | Fmin | Fmax | Fmod | Copysign | Fma | IsNan | IsInf | IsFinite | Signbit
                | Min | Max => unreachable!("{f:?} is not a unary function of floats"),
            }
        }
        fn $binary(f: MathFn) -> fn($t, $t) -> $t {
            use MathFn::*;
            match f {
                Pow => <$t>::powf,
                Atan2 => <$t>::atan2,
                Hypot => <$t>::hypot,
                Fmin => <$t>::min,
                Fmax => <$t>::max,
                Fmod => |a, b| a % b,
                Copysign => <$t>::copysign,
                // CUDA's min/max on floats: fminf/fmaxf (NaN-ignoring)
                Min => <$t>::min,
                _ => <$t>::max,
            }
        }
    };
}
float_fns!(f32, f32_unary, f32_binary);
float_fns!(f64, f64_unary, f64_binary);

/// `erfcinv` of a block, bit for bit `crate::special::erfcinv`: the central region of every
/// element in one vectorised loop (two polynomials and a division, no branch), then the
/// elements outside it (the tails, 15% of uniform inputs, NaN and out-of-range) through the
/// scalar function.
fn erfcinv_block(a: &[f64], o: &mut [f64]) {
    #[inline(always)]
    fn horner(c: &[f64; 8], r: f64) -> f64 {
        c.iter().fold(0.0, |acc, &k| acc * r + k)
    }
    super::col::wide(|| {
        for (o, &z) in o.iter_mut().zip(a) {
            let q = 0.5 * (1.0 - z);
            let r = 0.180625 - q * q;
            *o = q * horner(&as241::CENTRAL_NUM, r) / horner(&as241::CENTRAL_DEN, r) * std::f64::consts::FRAC_1_SQRT_2;
        }
    });
    for (o, &z) in o.iter_mut().zip(a) {
        // NaN is outside the central region too: to the scalar function
        let q = (0.5 * (1.0 - z)).abs();
        if q > 0.425 || q.is_nan() {
            *o = crate::special::erfcinv(z);
        }
    }
}

/// `o = f(args)`; `ty` is the arguments' type.
pub(crate) fn math(f: MathFn, ty: DType, args: &[&Col; 3], o: &mut Col, n: usize) {
    use MathFn::*;
    if f.is_predicate() {
        let o = &mut bool::get_mut(o)[..n];
        macro_rules! pred {
            ($t:ty) => {{
                let a = &<$t>::get(args[0])[..n];
                let p: fn($t) -> bool = match f {
                    IsNan => <$t>::is_nan,
                    IsInf => <$t>::is_infinite,
                    IsFinite => <$t>::is_finite,
                    _ => <$t>::is_sign_negative,
                };
                o.iter_mut().zip(a).for_each(|(o, &x)| *o = p(x));
            }};
        }
        if class(ty) == DType::F32 {
            pred!(f32)
        } else {
            pred!(f64)
        }
        return;
    }
    macro_rules! float {
        ($t:ty, $unary:ident, $binary:ident, $fast:expr) => {{
            let o = &mut <$t>::get_mut(o)[..n];
            let a = &<$t>::get(args[0])[..n];
            if f == Fma {
                let (b, c) = (&<$t>::get(args[1])[..n], &<$t>::get(args[2])[..n]);
                for (((o, &x), &y), &z) in o.iter_mut().zip(a).zip(b).zip(c) {
                    *o = x.mul_add(y, z);
                }
            } else if binary(f) {
                let g = $binary(f);
                o.iter_mut().zip(a).zip(&<$t>::get(args[1])[..n]).for_each(|((o, &x), &y)| *o = g(x, y));
            } else if !$fast(a, &mut *o) {
                let g = $unary(f);
                o.iter_mut().zip(a).for_each(|(o, &x)| *o = g(x));
            }
        }};
    }
    match class(ty) {
        DType::F32 => float!(f32, f32_unary, f32_binary, |a, o| crate::fastmath::wide_f32(f, a, o)),
        DType::F64 => float!(f64, f64_unary, f64_binary, |a: &[f64], o: &mut [f64]| {
            if f == Erfcinv {
                erfcinv_block(a, o);
                return true;
            }
            wide_f64(f, a, o)
        }),
        _ => with_num!(ty, T => {
            // integer abs, min, max
            let o = &mut T::get_mut(o)[..n];
            let a = &T::get(args[0])[..n];
            match f {
                Abs => o.iter_mut().zip(a).for_each(|(o, &x)| *o = if x < T::default() { <T as super::col::Arith>::neg(x) } else { x }),
                Min => o.iter_mut().zip(a).zip(&T::get(args[1])[..n]).for_each(|((o, &x), &y)| *o = if y < x { y } else { x }),
                _ => o.iter_mut().zip(a).zip(&T::get(args[1])[..n]).for_each(|((o, &x), &y)| *o = if y > x { y } else { x }),
            }
        }),
    }
}

fn no_loop(op: &'static str, d: DType) -> Error {
    Error::InvalidDType { op, dtype: d }
}

/// float64 `exp`, `log` and `tanh` through the vectorised kernels the ufuncs use (so that a
/// fused chain computes what the unfused one does); false for other functions.
fn wide_f64(f: MathFn, a: &[f64], o: &mut [f64]) -> bool {
    let op = match f {
        MathFn::Exp => UnaryOp::Exp,
        MathFn::Log => UnaryOp::Log,
        MathFn::Tanh => UnaryOp::Tanh,
        _ => return false,
    };
    match crate::fastmath::unary_f64(a, &xp_core::Layout::contiguous(&[a.len()]), op) {
        Some(v) => {
            o.copy_from_slice(&v);
            true
        }
        None => false,
    }
}

/// NumPy's ufunc `op` on loop dtype `dt`, as xp's CPU kernels compute it.
pub(crate) fn ufunc1(op: UnaryOp, dt: DType, a: &Col, o: &mut Col, n: usize) -> Result<()> {
    if dt == DType::F64 && op.out_rule() == OutRule::Same {
        let f = match op {
            UnaryOp::Exp => Some(MathFn::Exp),
            UnaryOp::Tanh => Some(MathFn::Tanh),
            UnaryOp::Log => Some(MathFn::Log),
            _ => None,
        };
        if f.is_some_and(|f| wide_f64(f, &f64::get(a)[..n], &mut f64::get_mut(o)[..n])) {
            return Ok(());
        }
    }
    if dt == DType::F32 && op.out_rule() == OutRule::Same {
        let f = match op {
            UnaryOp::Sin => Some(MathFn::Sin),
            UnaryOp::Cos => Some(MathFn::Cos),
            UnaryOp::Exp => Some(MathFn::Exp),
            UnaryOp::Tanh => Some(MathFn::Tanh),
            UnaryOp::Log => Some(MathFn::Log),
            _ => None,
        };
        if f.is_some_and(|f| crate::fastmath::wide_f32(f, &f32::get(a)[..n], &mut f32::get_mut(o)[..n])) {
            return Ok(());
        }
    }
    // The cheap float ops inline (a function pointer per element costs more than the op).
    macro_rules! cheap {
        ($t:ty) => {{
            let (x, y) = (&<$t>::get(a)[..n], &mut <$t>::get_mut(o)[..n]);
            let f: Option<fn(&mut [$t], &[$t])> = match op {
                UnaryOp::Neg => Some(|y, x| y.iter_mut().zip(x).for_each(|(y, &v)| *y = -v)),
                UnaryOp::Abs => Some(|y, x| y.iter_mut().zip(x).for_each(|(y, &v)| *y = v.abs())),
                UnaryOp::Square => Some(|y, x| y.iter_mut().zip(x).for_each(|(y, &v)| *y = v * v)),
                UnaryOp::Reciprocal => Some(|y, x| y.iter_mut().zip(x).for_each(|(y, &v)| *y = 1.0 / v)),
                UnaryOp::Sqrt => Some(|y, x| y.iter_mut().zip(x).for_each(|(y, &v)| *y = v.sqrt())),
                _ => None,
            };
            if let Some(f) = f {
                f(y, x);
                return Ok(());
            }
        }};
    }
    match dt {
        DType::F32 => cheap!(f32),
        DType::F64 => cheap!(f64),
        _ => {}
    }
    with_lane!(dt, T => {
        let x = &<<T as Lane>::R as Reg>::get(a)[..n];
        match op.out_rule() {
            OutRule::Bool => {
                let f = T::pred_fn(op).ok_or_else(|| no_loop(op.name(), dt))?;
                bool::get_mut(o)[..n].iter_mut().zip(x).for_each(|(o, &v)| *o = f(T::down(v)));
            }
            _ => {
                let f = T::unary_fn(op).ok_or_else(|| no_loop(op.name(), dt))?;
                <<T as Lane>::R as Reg>::get_mut(o)[..n].iter_mut().zip(x).for_each(|(o, &v)| *o = f(T::down(v)).up());
            }
        }
        Ok(())
    }, Err(no_loop(op.name(), dt)))
}

/// NumPy's ufunc `op` on loop dtype `dt`.
pub(crate) fn ufunc2(op: BinaryOp, dt: DType, a: &Col, b: &Col, o: &mut Col, n: usize) -> Result<()> {
    with_lane!(dt, T => {
        let (ra, rb) = (&<<T as Lane>::R as Reg>::get(a)[..n], &<<T as Lane>::R as Reg>::get(b)[..n]);
        if op.out_rule() == OutRule::Bool {
            let f = T::cmp_fn(op).ok_or_else(|| no_loop(op.name(), dt))?;
            for ((o, &x), &y) in bool::get_mut(o)[..n].iter_mut().zip(ra).zip(rb) {
                *o = f(T::down(x), T::down(y));
            }
            return Ok(());
        }
        let o = &mut <<T as Lane>::R as Reg>::get_mut(o)[..n];
        macro_rules! inline {
            ($f:path) => {
                super::col::wide(|| {
                    for ((o, &x), &y) in o.iter_mut().zip(ra).zip(rb) {
                        *o = $f(T::down(x), T::down(y)).up();
                    }
                })
            };
        }
        match op {
            BinaryOp::Add => inline!(T::add),
            BinaryOp::Sub => inline!(T::sub),
            BinaryOp::Mul => inline!(T::mul),
            BinaryOp::Div => inline!(T::div),
            _ => {
                let f = T::binary_fn(op).ok_or_else(|| no_loop(op.name(), dt))?;
                inline!(f)
            }
        }
        Ok(())
    }, Err(no_loop(op.name(), dt)))
}

#[cfg(test)]
mod tests {
    /// The block `erfcinv` is the scalar one, bit for bit, across [0, 2], its ends, beyond
    /// them and NaN.
    #[test]
    fn erfcinv_block_is_the_scalar_function() {
        let mut z: Vec<f64> = (0..=200_000).map(|k| k as f64 * 1e-5).collect();
        z.extend([-0.0, -1e-300, 2.0 + 1e-15, f64::NAN, f64::INFINITY, 0.15, 1.85, 0.15 - 1e-16, 1.85 + 2e-16]);
        z.extend((1..60).map(|k| 2f64.powi(-k)));
        let mut o = vec![0.0; z.len()];
        for (a, o) in z.chunks(512).zip(o.chunks_mut(512)) {
            super::erfcinv_block(a, o);
        }
        for (&x, &y) in z.iter().zip(&o) {
            let want = crate::special::erfcinv(x);
            assert!(y.to_bits() == want.to_bits() || (y.is_nan() && want.is_nan()), "erfcinv({x:e}) {y:e} vs {want:e}");
        }
    }
}
