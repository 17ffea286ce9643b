//! Each math function a Rust kernel may call, one at a time, in units in the last place: every
//! way a kernel runs (natively on the CPU, its lowered form through the CPU evaluator, each GPU)
//! against the same function run by hand in Rust over a few hundred arguments of its domain.
//!
//! The bound is 1 ulp, except where CUDA's own function is documented to be less accurate than
//! that (the CUDA Math API's table of maximum ulp errors, non-fast-math): there the bound is
//! CUDA's figure plus 1 ulp for the host's rounding (plus 3 for the special functions, which the
//! host computes in float64 with Cephes' accuracy). The table below states each; the test prints
//! what it measured (`-- --nocapture`).
use super::rust_kernels::ways;
use xp::kernel::{math, Float};
use xp::ufunc::Operand;
use xp::{Array, DType, Device};

/// The unary functions, by number (`NAMES`).
#[xp::kernel]
fn unary<T: Float>(x: T, k: i32) -> T {
    match k {
        0 => x.sin(),
        1 => x.cos(),
        2 => x.tan(),
        3 => x.asin(),
        4 => x.acos(),
        5 => x.atan(),
        6 => x.sinh(),
        7 => x.cosh(),
        8 => x.tanh(),
        9 => x.asinh(),
        10 => x.acosh(),
        11 => x.atanh(),
        12 => x.exp(),
        13 => x.exp2(),
        14 => x.exp_m1(),
        15 => x.ln(),
        16 => x.log2(),
        17 => x.log10(),
        18 => x.ln_1p(),
        19 => x.sqrt(),
        20 => x.cbrt(),
        21 => x.floor(),
        22 => x.ceil(),
        23 => x.trunc(),
        24 => x.round(),
        25 => x.round_ties_even(),
        26 => x.fract(),
        27 => x.recip(),
        28 => x.to_degrees(),
        29 => x.to_radians(),
        30 => x.signum(),
        31 => math::erf(x),
        32 => math::erfc(x),
        33 => math::erfinv(x),
        34 => math::erfcinv(x),
        35 => math::erfcx(x),
        36 => math::normcdf(x),
        37 => math::normcdfinv(x),
        38 => math::lgamma(x),
        39 => math::tgamma(x),
        40 => math::j0(x),
        41 => math::j1(x),
        42 => math::y0(x),
        43 => math::y1(x),
        44 => math::i0(x),
        45 => math::i1(x),
        _ => x,
    }
}

/// The binary functions, by number (`NAMES2`).
#[xp::kernel]
fn binary<T: Float>(x: T, y: T, k: i32) -> T {
    match k {
        0 => x.powf(y),
        1 => x.atan2(y),
        2 => x.hypot(y),
        3 => x % y,
        4 => x.mul_add(y, T::lit(0.375)),
        5 => x.log(y),
        6 => x.copysign(y),
        7 => x.max(y),
        8 => x.min(y),
        _ => x,
    }
}

/// Name, domain (lo, hi), bound in ulps for float32 and float64 (CUDA's documented maximum
/// error + 1 where CUDA's exceeds 1 ulp).
type Row = (&'static str, (f64, f64), u64, u64);

const NAMES: [Row; 46] = [
    ("sin", (-100.0, 100.0), 3, 3),
    ("cos", (-100.0, 100.0), 3, 3),
    ("tan", (-1.5, 1.5), 5, 3),
    ("asin", (-1.0, 1.0), 3, 3),
    ("acos", (-1.0, 1.0), 3, 3),
    ("atan", (-50.0, 50.0), 3, 3),
    ("sinh", (-20.0, 20.0), 4, 3),
    ("cosh", (-20.0, 20.0), 3, 2),
    // (the CPU evaluator's vectorised tanh is within 4 float32 ulps: crates/cpu/src/fastmath.rs)
    ("tanh", (-10.0, 10.0), 4, 2),
    ("asinh", (-1e3, 1e3), 4, 4),
    ("acosh", (1.0, 1e3), 5, 4),
    ("atanh", (-0.99, 0.99), 4, 3),
    ("exp", (-80.0, 80.0), 3, 2),
    ("exp2", (-120.0, 120.0), 3, 2),
    ("exp_m1", (-20.0, 20.0), 2, 2),
    ("ln", (1e-6, 1e6), 2, 2),
    ("log2", (1e-6, 1e6), 2, 2),
    ("log10", (1e-6, 1e6), 3, 2),
    ("ln_1p", (-0.9, 1e3), 2, 2),
    ("sqrt", (0.0, 1e6), 1, 1),
    ("cbrt", (-1e6, 1e6), 2, 2),
    ("floor", (-100.0, 100.0), 0, 0),
    ("ceil", (-100.0, 100.0), 0, 0),
    ("trunc", (-100.0, 100.0), 0, 0),
    ("round", (-100.0, 100.0), 0, 0),
    ("round_ties_even", (-100.0, 100.0), 0, 0),
    ("fract", (-100.0, 100.0), 0, 0),
    ("recip", (-100.0, 100.0), 0, 0),
    ("to_degrees", (-100.0, 100.0), 0, 0),
    ("to_radians", (-100.0, 100.0), 0, 0),
    ("signum", (-100.0, 100.0), 0, 0),
    ("erf", (-5.0, 5.0), 5, 5),
    ("erfc", (-5.0, 10.0), 7, 8),
    ("erfinv", (-0.999, 0.999), 5, 8),
    ("erfcinv", (0.001, 1.999), 7, 9),
    ("erfcx", (-5.0, 50.0), 7, 7),
    ("normcdf", (-10.0, 10.0), 8, 8),
    ("normcdfinv", (0.001, 0.999), 8, 11),
    ("lgamma", (2.5, 50.0), 9, 7),
    ("tgamma", (0.1, 30.0), 8, 13),
    ("j0", (0.1, 2.0), 12, 10),
    ("j1", (0.1, 3.5), 12, 10),
    ("y0", (0.1, 0.8), 12, 10),
    ("y1", (0.1, 2.0), 12, 10),
    // (float64: the host's power series loses up to 10 ulps near |x| = 12, where CUDA's and
    // SciPy's are within 1)
    ("i0", (-20.0, 20.0), 9, 12),
    ("i1", (-20.0, 20.0), 9, 12),
];

/// Name, domain of x, domain of y, bounds.
type Row2 = (&'static str, (f64, f64), (f64, f64), u64, u64);

const NAMES2: [Row2; 9] = [
    ("powf", (1e-3, 10.0), (-10.0, 10.0), 5, 3),
    ("atan2", (-10.0, 10.0), (-10.0, 10.0), 4, 3),
    ("hypot", (-1e3, 1e3), (-1e3, 1e3), 4, 3),
    ("rem", (-100.0, 100.0), (0.5, 7.0), 0, 0),
    ("mul_add", (-100.0, 100.0), (-100.0, 100.0), 0, 0),
    // ln(x) / ln(y), as Rust's `log`: each an ulp apart, then divided
    ("log", (1e-3, 1e3), (1.5, 20.0), 4, 4),
    ("copysign", (-100.0, 100.0), (-1.0, 1.0), 0, 0),
    ("max", (-100.0, 100.0), (-100.0, 100.0), 0, 0),
    ("min", (-100.0, 100.0), (-100.0, 100.0), 0, 0),
];

/// `n` arguments spread over `[lo, hi]`: both ends, a uniform grid, and a log-spaced set of each
/// sign where the domain spans orders of magnitude.
fn domain(lo: f64, hi: f64, n: usize, seed: u64) -> Vec<f64> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut v = vec![lo, hi];
    while v.len() < n {
        let u = next();
        let x = if v.len() % 2 == 0 || lo.abs().max(hi.abs()) < 10.0 {
            lo + (hi - lo) * u
        } else {
            // log-spaced magnitude within the domain
            let m = lo.abs().max(hi.abs());
            let x = m * (1e-6f64).powf(u);
            if next() < 0.5 && lo < -x {
                -x
            } else {
                x
            }
        };
        if x >= lo && x <= hi {
            v.push(x);
        }
    }
    v
}

/// The distance in representable values; 0 for two NaNs, infinite for a NaN and a number.
fn ulps(a: f64, b: f64, f32: bool) -> u64 {
    if a.is_nan() || b.is_nan() {
        return if a.is_nan() && b.is_nan() { 0 } else { u64::MAX };
    }
    let ord = |v: f64| -> i128 {
        if f32 {
            let b = (v as f32).to_bits();
            let m = (b & 0x7fff_ffff) as i128;
            if b >> 31 == 1 {
                -m
            } else {
                m
            }
        } else {
            let b = v.to_bits();
            let m = (b & 0x7fff_ffff_ffff_ffff) as i128;
            if b >> 63 == 1 {
                -m
            } else {
                m
            }
        }
    };
    (ord(a) - ord(b)).unsigned_abs().min(u64::MAX as u128) as u64
}

/// The results of `k` over arrays `xs` (and a scalar function number) in one way, as f64.
fn run(k: &xp::kernel::RustKernel, dev: Device, xs: &[Vec<f64>], dt: DType, fnum: i32) -> Vec<f64> {
    let arrays: Vec<Array> = xs
        .iter()
        .map(|x| Array::from_vec(x.clone(), [x.len()]).unwrap().astype(dt).unwrap().to_device(dev).unwrap())
        .collect();
    let mut ops: Vec<Operand> = arrays.iter().map(Operand::Array).collect();
    ops.push(Operand::Scalar(xp::Scalar::Int(fnum as i64)));
    let got = k.call(&ops).unwrap_or_else(|e| panic!("function {fnum} {dt}: {e}"));
    got[0].astype(DType::F64).unwrap().to_device(Device::Cpu).unwrap().to_vec::<f64>().unwrap()
}

/// Check one function in every way and both float dtypes; the measured maxima go to `table`.
fn measure(
    name: &str,
    k: &xp::kernel::RustKernel,
    xs: &[Vec<f64>],
    host: &dyn Fn(usize, bool) -> f64,
    bounds: (u64, u64),
    fnum: i32,
    (table, fails): (&mut Vec<String>, &mut Vec<String>),
) {
    for (way, dev, lowered) in ways() {
        let kk = if lowered { k.lowered() } else { k.clone() };
        let mut row = format!("{name:<16} {way:<12}");
        for (dt, bound) in [(DType::F32, bounds.0), (DType::F64, bounds.1)] {
            let got = run(&kk, dev, xs, dt, fnum);
            let (mut worst, mut at) = (0u64, 0usize);
            for (i, g) in got.iter().enumerate() {
                let u = ulps(*g, host(i, dt == DType::F32), dt == DType::F32);
                if u > worst {
                    (worst, at) = (u, i);
                }
            }
            row += &format!(" {dt} {worst:>3} ulp (bound {bound})");
            if worst > bound {
                let args: Vec<f64> = xs.iter().map(|x| x[at]).collect();
                fails.push(format!(
                    "{name} {dt} on {way}: {worst} ulps at {args:?}: got {} want {}",
                    got[at],
                    host(at, dt == DType::F32)
                ));
            }
        }
        table.push(row);
    }
}

#[test]
fn each_math_function_within_its_stated_ulps() {
    let (mut table, mut fails) = (Vec::new(), Vec::new());
    for (k, &(name, (lo, hi), b32, b64)) in NAMES.iter().enumerate() {
        let x = domain(lo, hi, 400, k as u64 + 1);
        let host = |i: usize, f32: bool| {
            if f32 {
                unary(x[i] as f32, k as i32) as f64
            } else {
                unary(x[i], k as i32)
            }
        };
        measure(name, unary::kernel(), std::slice::from_ref(&x), &host, (b32, b64), k as i32, (&mut table, &mut fails));
    }
    for (k, &(name, (xl, xh), (yl, yh), b32, b64)) in NAMES2.iter().enumerate() {
        let (x, y) = (domain(xl, xh, 400, 100 + k as u64), domain(yl, yh, 400, 200 + k as u64));
        let host = |i: usize, f32: bool| {
            if f32 {
                binary(x[i] as f32, y[i] as f32, k as i32) as f64
            } else {
                binary(x[i], y[i], k as i32)
            }
        };
        measure(name, binary::kernel(), &[x.clone(), y.clone()], &host, (b32, b64), k as i32, (&mut table, &mut fails));
    }
    println!("measured maximum ulps against Rust's own functions:\n{}", table.join("\n"));
    assert!(fails.is_empty(), "beyond the stated bounds:\n{}", fails.join("\n"));
}
