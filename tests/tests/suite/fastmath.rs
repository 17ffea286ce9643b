//! The CPU's branch-free `exp`, `log` and `tanh` kernels (float32 and float64, with `sin` and
//! `cos` in float32 and `expm1`, `log1p`, `sinh` and `cosh` in float64) through the public API: within a stated distance of glibc's results on every
//! layout, the same values whatever the layout, and exactly glibc's results for the special
//! inputs (NaN, ±inf, ±0, subnormals, overflow and underflow, negative logarithms), which the
//! kernels leave to libm a block of 256 elements at a time.
use xp::{Array, DType, Device, HostBuffer, UnaryOp};
use xp_testing::layouts;

/// Distance in units in the last place between two finite float64 of the same sign.
fn ulps64(a: f64, b: f64) -> u64 {
    if a.is_sign_negative() != b.is_sign_negative() && a != 0.0 && b != 0.0 {
        return u64::MAX;
    }
    (a.abs().to_bits() as i64 - b.abs().to_bits() as i64).unsigned_abs()
}

/// Inputs from a fixed xorshift stream, uniform in [lo, hi).
fn uniform(n: usize, lo: f64, hi: f64, seed: u64) -> Vec<f64> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            lo + (hi - lo) * ((s >> 11) as f64 / (1u64 << 53) as f64)
        })
        .collect()
}

/// A function, glibc's, its inputs and the largest distance in ulps from glibc allowed.
type Case = (UnaryOp, fn(f64) -> f64, Vec<f64>, u64);

/// The float64 functions with kernels, glibc's function, the inputs they are tried on (each
/// inside the kernel's range) and the largest distance from glibc allowed: exp, log and log1p
/// are within 1 ulp of the exact value and glibc's within 0.52 (0.8 for log1p), so they differ by
/// at most 1 ulp; expm1, tanh, sinh and cosh are within 1.5, 1.3, 1.6 and 1.3 ulps and glibc's
/// within 0.8, 2, 1.8 and 1, allowed 2, 2, 3 and 2.
fn float64_cases() -> Vec<Case> {
    let n = 96 * 160;
    vec![
        (UnaryOp::Exp, f64::exp, uniform(n, -708.0, 709.0, 11), 1),
        (UnaryOp::Log, f64::ln, uniform(n, -700.0, 700.0, 12).into_iter().map(f64::exp).collect(), 1),
        (UnaryOp::Tanh, f64::tanh, uniform(n, -25.0, 25.0, 13), 2),
        (UnaryOp::Expm1, f64::exp_m1, uniform(n, -3.0, 3.0, 16).into_iter().map(|v| v * v * v).collect(), 2),
        (UnaryOp::Log1p, f64::ln_1p, uniform(n, -0.999_999, 5.0, 17).into_iter().map(|v| v * v.abs()).collect(), 1),
        (UnaryOp::Sinh, f64::sinh, uniform(n, -3.0, 3.0, 18).into_iter().map(|v| v * v * v).collect(), 3),
        (UnaryOp::Cosh, f64::cosh, uniform(n, -8.0, 8.0, 19).into_iter().map(|v| v * v * v).collect(), 2),
    ]
}

/// float64 exp, log, tanh, expm1, log1p, sinh and cosh of a (96, 160) array, contiguous, transposed, stepped, reversed
/// and offset: every element within the stated distance of glibc's value, and each layout's
/// result the same bits as the contiguous one's.
#[test]
fn float64_kernels_on_every_layout() {
    for (op, libm, x, bound) in float64_cases() {
        let want: Vec<f64> = x.iter().map(|&v| libm(v)).collect();
        let mut first: Option<Vec<f64>> = None;
        for (lname, a) in layouts(&HostBuffer::F64(x.clone()), &[96, 160], Device::Cpu).unwrap() {
            let got = xp::ufunc::unary(op, &a).unwrap();
            assert_eq!(got.dtype(), DType::F64);
            let got = got.to_vec::<f64>().unwrap();
            for ((&g, &w), &v) in got.iter().zip(&want).zip(&x) {
                let d = ulps64(g, w);
                assert!(d <= bound, "{}({v:e}) = {g:e} on {lname}, glibc's {w:e}: {d} ulps", op.name());
            }
            match &first {
                None => first = Some(got),
                Some(c) => assert!(
                    c.iter().zip(&got).all(|(a, b)| a.to_bits() == b.to_bits()),
                    "{} on {lname} differs from the contiguous result",
                    op.name()
                ),
            }
        }
    }
}

/// The methods (`a.exp()`, `a.log()`, ...) on a float64 view with a negative stride: within
/// the bound of glibc's values.
#[test]
fn float64_methods_on_a_reversed_view() {
    let x = uniform(4096, 0.5, 1.5, 14);
    let a = Array::from_buffer(HostBuffer::F64(x.clone()), [64, 64], Device::Cpu).unwrap();
    let v = a.flip(1).unwrap();
    let reversed: Vec<f64> = x.chunks(64).flat_map(|r| r.iter().rev().copied()).collect();
    let results = [v.exp(), v.log(), v.tanh(), v.expm1(), v.log1p(), v.sinh(), v.cosh()];
    for (got, (op, libm, _, bound)) in results.into_iter().zip(float64_cases()) {
        let got = got.unwrap().to_vec::<f64>().unwrap();
        for (&g, &x) in got.iter().zip(&reversed) {
            let d = ulps64(g, libm(x));
            assert!(d <= bound, "{}({x:e}) = {g:e}: {d} ulps from glibc's", op.name());
        }
    }
}

/// Special float64 inputs of each function, glibc's result being the answer.
fn specials64(op: UnaryOp) -> Vec<f64> {
    let sub = [5e-324, 2.2e-308, f64::MIN_POSITIVE / 3.0];
    let mut v = vec![f64::NAN, -f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 0.0, -0.0, 1.0, -1.0, f64::MAX, f64::MIN];
    v.extend(sub.iter().flat_map(|&s| [s, -s]));
    v.extend(match op {
        // the ends of the kernel's range, overflow (709.79), the subnormal results (below
        // -708.4) and underflow to 0 (below -745.1)
        UnaryOp::Exp => vec![-708.0, 709.0, 709.7, 709.78, 709.79, 710.0, -708.4, -708.5, -720.0, -745.0, -745.2, -1e4],
        // below the normal range, the largest, around 1
        UnaryOp::Log => {
            vec![f64::MIN_POSITIVE, -f64::MIN_POSITIVE, 1.0 + f64::EPSILON, 1.0 - f64::EPSILON / 2.0, -1e-300]
        }
        // tiny (tanh x = x), around the switch between forms, saturation
        UnaryOp::Tanh => vec![1e-300, -1e-300, 0.625, -0.625, 19.0, 22.0, -22.0, 1e300],
        // the range ends, overflow, -1 reached
        UnaryOp::Expm1 => vec![-708.0, 709.0, 709.78, 709.79, 710.0, -40.0, -709.0, -1e4, 1e-300, -1e-300],
        // -1 (-inf), below (NaN), just above, tiny, huge
        UnaryOp::Log1p => vec![-1.5, -1.0 + f64::EPSILON / 2.0, 1e-300, -1e-300, 1e300, -1e300],
        // the range ends and overflow (sinh and cosh of 710 are finite, of 710.5 infinite)
        _ => vec![709.0, -709.0, 709.5, 710.0, -710.0, 710.5, -710.5, 1e-300, -1e-300, 1e300],
    });
    v
}

/// Whether `op(v) = w` is one of glibc's results that the kernels must give exactly: NaN, ±inf,
/// zero or subnormal input or result (overflow, underflow, the logarithm of zero or of a
/// negative number). Blocks holding such an input go to libm; a zero input of exp or tanh stays
/// in the kernel, which gives 1 and ±0 exactly.
fn exact(v: f64, w: f64) -> bool {
    !v.is_normal() || !w.is_normal()
}

/// Special values among ordinary ones: exactly glibc's float64 results (NaN where it gives NaN)
/// where [`exact`] says so, else within the bound; in a long array (one special value in each of
/// several blocks), in each layout, in a short one and in a strided view.
#[test]
fn float64_special_values_are_libms() {
    for (op, libm, ordinary, bound) in float64_cases() {
        let sp = specials64(op);
        let mut x: Vec<f64> = ordinary[..4096].to_vec();
        // one special value in each of the blocks 3, 5, 7, ..., 15, 4, 6, ...
        let at: Vec<usize> = (0..sp.len()).map(|i| 256 * (3 + 2 * i % 13) + 17 * i % 256).collect();
        for (&i, &s) in at.iter().zip(&sp) {
            x[i] = s;
        }
        let check = |got: &[f64], x: &[f64], lname: &str| {
            for (&g, &v) in got.iter().zip(x) {
                let w = libm(v);
                if exact(v, w) {
                    let same = g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan());
                    assert!(same, "{}({v:e}) = {g:e} on {lname}, glibc's {w:e}", op.name());
                } else {
                    let d = ulps64(g, w);
                    assert!(d <= bound, "{}({v:e}) = {g:e} on {lname}, glibc's {w:e}: {d} ulps", op.name());
                }
            }
        };
        for (lname, a) in layouts(&HostBuffer::F64(x.clone()), &[4096], Device::Cpu).unwrap() {
            check(&xp::ufunc::unary(op, &a).unwrap().to_vec::<f64>().unwrap(), &x, lname);
        }
        // the special values alone, and every other one of them
        let a = Array::from_buffer(HostBuffer::F64(sp.clone()), [sp.len()], Device::Cpu).unwrap();
        check(&xp::ufunc::unary(op, &a).unwrap().to_vec::<f64>().unwrap(), &sp, "short");
        let every2: Vec<f64> = sp.iter().step_by(2).copied().collect();
        let a = a.slice(xp::s![..;2]).unwrap();
        check(&xp::ufunc::unary(op, &a).unwrap().to_vec::<f64>().unwrap(), &every2, "short stepped");
    }
}

/// float32 sin, cos, exp, log, tanh, expm1, log1p, sinh and cosh on the special values (one
/// block holding them all goes to libm): exactly glibc's float32 results.
#[test]
fn float32_special_values_are_libms() {
    let sp = [
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        0.0,
        -0.0,
        1e-45,
        -1e-45,
        f32::MIN_POSITIVE / 3.0,
        f32::MIN_POSITIVE,
        f32::MAX,
        f32::MIN,
        88.8,
        89.0,
        -87.5,
        -104.0,
        -110.0,
        8193.0,
        1e30,
        -1.0,
        -1.5,
        89.5,
        -89.5,
        1e-30,
    ];
    let fns = [
        (UnaryOp::Sin, f32::sin as fn(f32) -> f32),
        (UnaryOp::Cos, f32::cos),
        (UnaryOp::Exp, f32::exp),
        (UnaryOp::Log, f32::ln),
        (UnaryOp::Tanh, f32::tanh),
        (UnaryOp::Expm1, f32::exp_m1),
        (UnaryOp::Log1p, f32::ln_1p),
        (UnaryOp::Sinh, f32::sinh),
        (UnaryOp::Cosh, f32::cosh),
    ];
    let mut x: Vec<f32> = uniform(1024, 0.5, 1.5, 15).into_iter().map(|v| v as f32).collect();
    x[300..300 + sp.len()].copy_from_slice(&sp);
    for (op, libm) in fns {
        for (lname, a) in layouts(&HostBuffer::F32(x.clone()), &[1024], Device::Cpu).unwrap() {
            let got = xp::ufunc::unary(op, &a).unwrap().to_vec::<f32>().unwrap();
            for (&g, &v) in got[300..300 + sp.len()].iter().zip(&sp) {
                let w = libm(v);
                let same = g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan());
                assert!(same, "{}({v:e}) = {g:e} on {lname} (float32), glibc's {w:e}", op.name());
            }
        }
    }
}

/// float32 expm1, log1p, sinh and cosh, computed through the float64 kernels, on a (64, 96)
/// array in every layout: within 1 float32 ulp of glibc's float64 result rounded to float32
/// (the kernels' float64 error is far below a float32 ulp, so only a near-tie can differ).
#[test]
fn float32_through_the_float64_kernels_on_every_layout() {
    let n = 64 * 96;
    // cubes of uniform values: dense near 0, reaching ±4.4³ ≈ ±85
    let cubes = |seed| -> Vec<f32> { uniform(n, -4.4, 4.4, seed).into_iter().map(|v| (v * v * v) as f32).collect() };
    let log1p_x: Vec<f32> = uniform(n, -0.999, 6.0, 42).into_iter().map(|v| (v * v.abs()) as f32).collect();
    let cases = [
        (UnaryOp::Expm1, f64::exp_m1 as fn(f64) -> f64, cubes(41)),
        (UnaryOp::Log1p, f64::ln_1p, log1p_x),
        (UnaryOp::Sinh, f64::sinh, cubes(43)),
        (UnaryOp::Cosh, f64::cosh, cubes(44)),
    ];
    for (op, libm, x) in cases {
        for (lname, a) in layouts(&HostBuffer::F32(x.clone()), &[64, 96], Device::Cpu).unwrap() {
            let got = xp::ufunc::unary(op, &a).unwrap();
            assert_eq!(got.dtype(), DType::F32);
            for (&g, &v) in got.to_vec::<f32>().unwrap().iter().zip(&x) {
                let w = libm(v as f64) as f32;
                let d = (g.abs().to_bits() as i64 - w.abs().to_bits() as i64).unsigned_abs();
                let same_sign = g.is_sign_negative() == w.is_sign_negative() || g == 0.0 || w == 0.0;
                assert!(same_sign && d <= 1, "{}({v:e}) = {g:e} on {lname} (float32), glibc's {w:e}", op.name());
            }
        }
    }
}
