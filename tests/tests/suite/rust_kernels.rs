//! Kernels written in Rust (`#[xp::kernel]`, `#[xp::device]`): every construct of the subset,
//! every dtype a bound admits, every layout, on every way a kernel runs — natively on the CPU,
//! its lowered form through the CPU evaluator (what a GPU compiles), and on each GPU — against
//! the same function run by hand over host values (exact for integers, casts and arithmetic;
//! within a few ulps where a GPU's math functions differ from Rust's), plus the typed errors.
use xp::kernel::{math, Float, Index, Int, Num, Raw, RustKernel};
use xp::ufunc::Operand;
use xp::{Array, DType, Device, Error, Scalar};
use xp_testing::{compare, layouts, widen, Expected, Failures, Tolerance, EXACT};

#[path = "../../../examples/common/course_kernels.rs"]
#[allow(dead_code)] // (the elementwise saxpy is a bench row; the suite tests the raw one)
mod course;
use course::{black_scholes, l2norm, leaky_relu};

/// `let` and shadowing, `if` as a value, `while`, `loop`/`break`, compound assignment, an
/// early `return`, literal inference (`k` is an i32 from `n`).
#[xp::kernel]
fn flow<T: Float>(x: T, n: i32) -> T {
    if x.is_nan() {
        return T::ZERO;
    }
    let mut acc = T::ZERO;
    let mut k = 0;
    while k < n {
        acc += x * T::lit(k as f64);
        k += 1;
    }
    let y = if acc > T::lit(10.0) { acc - T::lit(10.0) } else { acc };
    let y = y * T::lit(0.5);
    let mut m = T::ONE;
    loop {
        m *= T::lit(2.0);
        if m > y.abs() + T::ONE {
            break;
        }
    }
    y + m
}

/// `for` over `..`, `..=`, `.rev()`, `.step_by()`, `continue`, a local array, `match` with
/// or-patterns, ranges and a guard, two results.
#[xp::kernel]
fn loops(n: i32) -> (i64, i32) {
    let mut a = [0i64; 8];
    for k in 0..8 {
        a[k] = (k as i64) * (k as i64);
    }
    let mut s = 0i64;
    for k in (0..=n).rev() {
        if k % 3 == 0 {
            continue;
        }
        s += k as i64;
        if s > 1000 {
            break;
        }
    }
    for k in (0..n).step_by(2) {
        s += a[(k as usize) % 8];
    }
    let c = match n {
        0 => 10,
        1 | 2 => 20,
        3..=5 => 30,
        _ if n < 0 => -1,
        _ => 40,
    };
    (s, c)
}

/// Integer arithmetic that wraps, shifts, bit operations.
#[xp::kernel]
fn bits<T: Int>(a: T, b: T) -> T {
    let s = a.wrapping_mul(b).wrapping_add(a) ^ (b << 3);
    (s >> 1) | (a & !b)
}

/// Rust's `as`: float to integer saturates and NaN gives 0; integers truncate.
#[xp::kernel]
fn casts(x: f64) -> (u8, i8, i32, u64, f32) {
    (x as u8, x as i8, x as i32, x as u64, x as f32)
}

#[xp::kernel]
fn int_casts(x: i64) -> (u8, i16, u32, f64) {
    (x as u8, x as i16, x as u32, x as f64)
}

/// The float methods and `xp::kernel::math`.
#[xp::kernel]
fn methods<T: Float>(x: T, y: T) -> T {
    let one = T::ONE;
    let a = x.sin() + x.cos() * y.exp().ln_1p() + x.abs().sqrt() + x.atan2(y) + x.hypot(y) + x.max(y) - x.min(y);
    let b = x.mul_add(y, one)
        + x.copysign(y)
        + x.floor()
        + x.ceil()
        + x.round()
        + x.trunc()
        + x.fract()
        + x.signum()
        + x.clamp(-one, one)
        + x.to_degrees().to_radians()
        + x.abs().cbrt()
        + x.tanh()
        + x.exp_m1();
    let c = (x * x + one).log(T::lit(3.0))
        + x.abs().powf(y.abs())
        + x.powi(3)
        + (x.abs() + one).log2()
        + (x.abs() + one).log10()
        + x.exp2().recip()
        + (x / (one + x.abs())).asin()
        + (y / (one + y.abs())).acos()
        + x.atan()
        + x.sinh()
        + x.cosh().acosh()
        + x.asinh()
        + (x / (T::lit(2.0) + x.abs())).atanh()
        + (x * T::lit(0.1)).tan();
    a + b + c + math::erf(x) + math::normcdf(y) + x.round_ties_even()
}

/// The float predicates.
#[xp::kernel]
fn preds<T: Float>(x: T) -> (bool, bool, bool, bool) {
    (x.is_nan(), x.is_infinite(), x.is_finite() && !x.is_sign_positive(), x.is_sign_negative())
}

/// Neighbour reads through a `Raw` parameter and the element index.
#[xp::kernel]
fn central_diff<T: Float>(_like: T, x: Raw<T>, i: Index) -> T {
    if i > 0 && i < x.len() - 1 {
        (x.at(i + 1) - x.at(i - 1)) * T::lit(0.5)
    } else {
        x.at(i)
    }
}

/// A `Num` bound: integers and floats alike.
#[xp::kernel]
fn clip<T: Num>(x: T, lo: T, hi: T) -> T {
    x.max(lo).min(hi)
}

/// A fixed-dtype scalar next to a generic array.
#[xp::kernel]
fn axpy<T: Float>(a: f32, x: T, y: T) -> T {
    T::lit(a as f64) * x + y
}

/// An argument of a kernel call in the tests.
enum Arg {
    A(Array),
    S(Scalar),
}

/// Every way a kernel runs: (label, device, the kernel's lowered form on the CPU).
pub(super) fn ways() -> Vec<(String, Device, bool)> {
    let mut w = vec![("cpu native".to_string(), Device::Cpu, false), ("cpu lowered".to_string(), Device::Cpu, true)];
    for d in xp_testing::devices().into_iter().filter(|d| *d != Device::Cpu) {
        w.push((d.to_string(), d, false));
    }
    w
}

/// Run `k` over `args` in every way and layout; compare output `o` with `want[o]` (host).
fn check(f: &mut Failures, name: &str, k: &RustKernel, args: &[Arg], want: &[Array], tol: &dyn Fn(DType) -> Tolerance) {
    for (way, dev, lowered) in ways() {
        let kk = if lowered { k.lowered() } else { k.clone() };
        // the arrays in each layout (the same kind of layout for every array of a call)
        let lay: Vec<Vec<(&'static str, Array)>> = args
            .iter()
            .map(|a| match a {
                Arg::A(a) => layouts(&a.to_buffer().unwrap(), a.shape(), dev).unwrap(),
                Arg::S(_) => vec![],
            })
            .collect();
        let nl = lay.iter().filter(|l| !l.is_empty()).map(Vec::len).min().unwrap_or(1);
        for j in 0..nl {
            let ops: Vec<Operand> = args
                .iter()
                .zip(&lay)
                .map(|(a, l)| match a {
                    Arg::A(_) => Operand::Array(&l[j].1),
                    Arg::S(s) => Operand::Scalar(*s),
                })
                .collect();
            let lname = lay.iter().find(|l| !l.is_empty()).map_or("", |l| l[j].0);
            let ctx = format!("{name} ({way}, {lname})");
            match kk.call(&ops) {
                Err(e) => f.add(Err(format!("{ctx}: {e}"))),
                Ok(got) => {
                    for (o, (g, w)) in got.iter().zip(want).enumerate() {
                        let e = Expected::new(w.dtype(), w.shape(), widen(&w.to_buffer().unwrap()))
                            .with_tol(tol(w.dtype()));
                        f.add(compare(g, &e).map_err(|m| format!("{ctx} output {o}: {m}")));
                    }
                }
            }
        }
    }
}

fn exact(_: DType) -> Tolerance {
    EXACT
}

fn host<T: xp::Element>(v: Vec<T>, shape: &[usize]) -> Array {
    Array::from_vec(v, shape).unwrap()
}

/// Test values of a float type: signs, zeros, fractions, halves, large and small magnitudes.
fn floats() -> Vec<f64> {
    vec![-3.75, -2.5, -1.0, -0.5, -0.0, 0.0, 0.25, 0.5, 1.5, 2.5, 3.0, 7.25, -11.0, 0.1, 42.0]
}

#[test]
fn leaky_relu_every_float_dtype_and_layout() {
    let mut f = Failures::default();
    let xs = floats();
    let want32: Vec<f32> = xs.iter().map(|&x| leaky_relu(x as f32, 0.1)).collect();
    let want64: Vec<f64> = xs.iter().map(|&x| leaky_relu(x, 0.1)).collect();
    let x64 = host(xs.clone(), &[3, 5]);
    check(
        &mut f,
        "leaky_relu f64",
        leaky_relu::kernel(),
        &[Arg::A(x64.clone()), Arg::S(0.1.into())],
        &[host(want64, &[3, 5])],
        &exact,
    );
    let x32 = x64.astype(DType::F32).unwrap();
    check(
        &mut f,
        "leaky_relu f32",
        leaky_relu::kernel(),
        &[Arg::A(x32), Arg::S(0.1.into())],
        &[host(want32.clone(), &[3, 5])],
        &exact,
    );
    // float16 computes in float32 and rounds once
    let x16 = x64.astype(DType::F16).unwrap();
    let w16 = host(want32, &[3, 5]).astype(DType::F16).unwrap();
    check(&mut f, "leaky_relu f16", leaky_relu::kernel(), &[Arg::A(x16), Arg::S(0.1.into())], &[w16], &exact);
    // broadcasting: a row of alphas against a column of xs
    let col = host(vec![-1.0f64, 2.0, -3.0], &[3, 1]);
    let alphas = host(vec![0.5f64, 0.25], &[1, 2]);
    let want = host(vec![-0.5, -0.25, 2.0, 2.0, -1.5, -0.75], &[3, 2]);
    check(&mut f, "leaky_relu broadcast", leaky_relu::kernel(), &[Arg::A(col), Arg::A(alphas)], &[want], &exact);
    f.finish();
}

#[test]
fn control_flow_and_loops() {
    let mut f = Failures::default();
    let xs = floats();
    for (n, d) in [(3, DType::F64), (7, DType::F32)] {
        let x = host(xs.clone(), &[5, 3]).astype(d).unwrap();
        let want = if d == DType::F64 {
            host(xs.iter().map(|&v| flow(v, n)).collect::<Vec<f64>>(), &[5, 3])
        } else {
            host(xs.iter().map(|&v| flow(v as f32, n)).collect::<Vec<f32>>(), &[5, 3])
        };
        check(&mut f, &format!("flow n={n}"), flow::kernel(), &[Arg::A(x), Arg::S(n.into())], &[want], &exact);
    }
    let ns: Vec<i32> = vec![-4, -1, 0, 1, 2, 3, 4, 5, 6, 9, 17, 30, 100, 2, 0, 8, 11, 64];
    let (s, c): (Vec<i64>, Vec<i32>) = ns.iter().map(|&n| loops(n)).unzip();
    check(
        &mut f,
        "loops",
        loops::kernel(),
        &[Arg::A(host(ns, &[3, 6]))],
        &[host(s, &[3, 6]), host(c, &[3, 6])],
        &exact,
    );
    f.finish();
}

#[test]
fn integer_wrapping_and_bits_every_int_dtype() {
    let mut f = Failures::default();
    let a: Vec<i64> = vec![0, 1, -1, 127, -128, 100, -77, 255, 3, 64, 99, -5];
    let b: Vec<i64> = vec![3, -1, 127, 2, -128, 100, 55, 1, -2, 64, 7, 0];
    macro_rules! each {
        ($($t:ty => $d:ident),*) => {$(
            let (x, y): (Vec<$t>, Vec<$t>) = (a.iter().map(|&v| v as $t).collect(), b.iter().map(|&v| v as $t).collect());
            let want: Vec<$t> = x.iter().zip(&y).map(|(&p, &q)| bits(p, q)).collect();
            check(&mut f, concat!("bits ", stringify!($t)), bits::kernel(),
                &[Arg::A(host(x, &[3, 4])), Arg::A(host(y, &[3, 4]))], &[host(want, &[3, 4])], &exact);
        )*};
    }
    each!(i8 => I8, i16 => I16, i32 => I32, i64 => I64, u8 => U8, u16 => U16, u32 => U32, u64 => U64);
    f.finish();
}

#[test]
fn casts_follow_rust_as() {
    let mut f = Failures::default();
    let xs: Vec<f64> = vec![
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        300.0,
        -1.0,
        -0.9,
        255.9,
        127.5,
        -128.7,
        -129.0,
        3e9,
        -3e9,
        1e20,
        0.5,
        2.0f64.powi(63),
        -2.0f64.powi(63),
        2.0f64.powi(64),
        1e-300,
    ];
    let r: Vec<(u8, i8, i32, u64, f32)> = xs.iter().map(|&x| casts(x)).collect();
    let want = [
        host(r.iter().map(|v| v.0).collect(), &[3, 6]),
        host(r.iter().map(|v| v.1).collect(), &[3, 6]),
        host(r.iter().map(|v| v.2).collect(), &[3, 6]),
        host(r.iter().map(|v| v.3).collect(), &[3, 6]),
        host(r.iter().map(|v| v.4).collect(), &[3, 6]),
    ];
    check(&mut f, "casts", casts::kernel(), &[Arg::A(host(xs, &[3, 6]))], &want, &exact);
    let is: Vec<i64> = vec![0, -1, 255, 256, -129, 65535, 70000, i64::MAX, i64::MIN, 1 << 40, -(1 << 33), 42];
    let r: Vec<(u8, i16, u32, f64)> = is.iter().map(|&x| int_casts(x)).collect();
    let want = [
        host(r.iter().map(|v| v.0).collect(), &[2, 6]),
        host(r.iter().map(|v| v.1).collect(), &[2, 6]),
        host(r.iter().map(|v| v.2).collect(), &[2, 6]),
        host(r.iter().map(|v| v.3).collect(), &[2, 6]),
    ];
    check(&mut f, "int_casts", int_casts::kernel(), &[Arg::A(host(is, &[2, 6]))], &want, &exact);
    f.finish();
}

#[test]
fn float_methods_and_math_functions() {
    let mut f = Failures::default();
    let xs = floats();
    let ys: Vec<f64> = xs.iter().rev().map(|v| v * 0.3 + 0.2).collect();
    // transcendental functions: CUDA's and Rust's libm differ by ulps (stated: ≤ 1e-5 relative
    // in float32, 1e-12 in float64 after the sums here)
    let tol = |d: DType| {
        if d == DType::F32 {
            Tolerance { rtol: 2e-5, atol: 2e-5 }
        } else {
            Tolerance { rtol: 1e-12, atol: 1e-12 }
        }
    };
    let want64: Vec<f64> = xs.iter().zip(&ys).map(|(&x, &y)| methods(x, y)).collect();
    check(
        &mut f,
        "methods f64",
        methods::kernel(),
        &[Arg::A(host(xs.clone(), &[3, 5])), Arg::A(host(ys.clone(), &[3, 5]))],
        &[host(want64, &[3, 5])],
        &tol,
    );
    let (x32, y32): (Vec<f32>, Vec<f32>) =
        (xs.iter().map(|&v| v as f32).collect(), ys.iter().map(|&v| v as f32).collect());
    let want32: Vec<f32> = x32.iter().zip(&y32).map(|(&x, &y)| methods(x, y)).collect();
    check(
        &mut f,
        "methods f32",
        methods::kernel(),
        &[Arg::A(host(x32, &[3, 5])), Arg::A(host(y32, &[3, 5]))],
        &[host(want32, &[3, 5])],
        &tol,
    );
    let ps = vec![f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.0, 0.0, -1.5];
    let r: Vec<(bool, bool, bool, bool)> = ps.iter().map(|&x| preds(x)).collect();
    let want = [
        host(r.iter().map(|v| v.0).collect(), &[2, 3]),
        host(r.iter().map(|v| v.1).collect(), &[2, 3]),
        host(r.iter().map(|v| v.2).collect(), &[2, 3]),
        host(r.iter().map(|v| v.3).collect(), &[2, 3]),
    ];
    check(&mut f, "preds", preds::kernel(), &[Arg::A(host(ps, &[2, 3]))], &want, &exact);
    f.finish();
}

#[test]
fn raw_neighbours_index_num_bound_fixed_scalars_and_device_functions() {
    let mut f = Failures::default();
    let xs: Vec<f64> = (0..12).map(|k| (k * k) as f64 * 0.5).collect();
    let raw = Raw::new(&xs);
    let want: Vec<f64> = (0..12).map(|i| central_diff(0.0, raw, i)).collect();
    let x = host(xs.clone(), &[12]);
    check(
        &mut f,
        "central_diff",
        central_diff::kernel(),
        &[Arg::A(x.clone()), Arg::A(x.clone())],
        &[host(want, &[12])],
        &exact,
    );
    // a non-contiguous raw array
    let y = host(xs.iter().flat_map(|&v| [v, -1.0]).collect::<Vec<f64>>(), &[24]);
    let stepped = y.slice([xp::SliceElem::FULL.step(2)]).unwrap();
    let want: Vec<f64> = (0..12).map(|i| central_diff(0.0, raw, i)).collect();
    check(
        &mut f,
        "central_diff stepped raw",
        central_diff::kernel(),
        &[Arg::A(x.clone()), Arg::A(stepped)],
        &[host(want, &[12])],
        &exact,
    );
    // Num: int16 and float32
    let v: Vec<i16> = vec![-300, -5, 0, 5, 300, 12];
    let want: Vec<i16> = v.iter().map(|&a| clip(a, -10, 10)).collect();
    check(
        &mut f,
        "clip i16",
        clip::kernel(),
        &[Arg::A(host(v, &[2, 3])), Arg::S((-10).into()), Arg::S(10.into())],
        &[host(want, &[2, 3])],
        &exact,
    );
    let v: Vec<f32> = vec![-3.5, f32::NAN, 0.0, 0.5, 2.5, -0.25];
    let want: Vec<f32> = v.iter().map(|&a| clip(a, -1.0, 1.0)).collect();
    check(
        &mut f,
        "clip f32",
        clip::kernel(),
        &[Arg::A(host(v, &[2, 3])), Arg::S((-1.0).into()), Arg::S(1.0.into())],
        &[host(want, &[2, 3])],
        &exact,
    );
    let xs = floats();
    let want: Vec<f64> = xs.iter().map(|&x| axpy(2.5, x, 1.0)).collect();
    check(
        &mut f,
        "axpy",
        axpy::kernel(),
        &[Arg::S(2.5.into()), Arg::A(host(xs, &[3, 5])), Arg::S(1.0.into())],
        &[host(want, &[3, 5])],
        &exact,
    );
    // Black–Scholes through a device function (transcendentals: ulps apart on a GPU)
    let s: Vec<f64> = (0..10).map(|k| 5.0 + 2.5 * k as f64).collect();
    let x: Vec<f64> = (0..10).map(|k| 1.0 + 9.0 * k as f64).collect();
    let t: Vec<f64> = (0..10).map(|k| 0.25 + k as f64).collect();
    let (c, p): (Vec<f64>, Vec<f64>) = (0..10).map(|k| black_scholes(s[k], x[k], t[k], 0.02, 0.3)).unzip();
    let tol = |_: DType| Tolerance { rtol: 1e-12, atol: 1e-12 };
    let args = [
        Arg::A(host(s, &[2, 5])),
        Arg::A(host(x, &[2, 5])),
        Arg::A(host(t, &[2, 5])),
        Arg::S(0.02.into()),
        Arg::S(0.3.into()),
    ];
    check(&mut f, "black_scholes", black_scholes::kernel(), &args, &[host(c, &[2, 5]), host(p, &[2, 5])], &tol);
    f.finish();
}

#[test]
fn typed_errors() {
    for dev in xp_testing::devices() {
        let on = xp::on(dev);
        let ints = on.arange(0.0, 6.0, 1.0, Some(DType::I32)).unwrap();
        let u8s = ints.astype(DType::U8).unwrap();
        let fl = ints.astype(DType::F32).unwrap();
        // a bound violated: int32 into T: Float
        let e = leaky_relu::call(&ints, 0.5).unwrap_err();
        assert!(matches!(&e, Error::KernelArgs { msg, .. } if msg.contains("Float")), "{dev}: {e}");
        // NumPy 2's rule for scalars: a float into an integer type, an integer out of range
        assert!(matches!(bits::call(&ints, 2.5), Err(Error::KernelArgs { .. })), "{dev}");
        assert!(matches!(bits::call(&u8s, 300), Err(Error::KernelArgs { .. })), "{dev}");
        assert!(bits::call(&u8s, 255).is_ok(), "{dev}");
        // placeholders bound twice differently
        assert!(
            matches!(leaky_relu::call(&fl, &fl.astype(DType::F64).unwrap()), Err(Error::KernelArgs { .. })),
            "{dev}"
        );
        // no array argument: no device
        assert!(matches!(leaky_relu::call(1.0, 2.0), Err(Error::KernelArgs { .. })), "{dev}");
        // the wrong output dtype
        let out = on.zeros([6], DType::F64).unwrap();
        assert!(matches!(leaky_relu::call_out(&fl, 0.5, &out), Err(Error::KernelArgs { .. })), "{dev}");
        let out = on.zeros([6], DType::F32).unwrap();
        leaky_relu::call_out(&fl, 0.5, &out).unwrap();
        assert_eq!(out.to_vec::<f32>().unwrap(), vec![0.0, 1.0, 2.0, 3.0, 4.0, 5.0]);
        if dev != Device::Cpu {
            let cpu = Array::from_vec(vec![1.0f32; 6], [6]).unwrap();
            assert!(matches!(leaky_relu::call(&fl, &cpu), Err(Error::DeviceMismatch { .. })), "{dev}");
        }
    }
    // a Raw read out of bounds on the CPU is an error, natively and lowered
    let x = Array::from_vec(vec![1.0f64, 2.0, 3.0], [3]).unwrap();
    let short = Array::from_vec(vec![1.0f64, 2.0], [2]).unwrap();
    for k in [central_diff::kernel().clone(), central_diff::kernel().lowered()] {
        let e = k.call(&[(&x).into(), (&short).into()]).unwrap_err();
        assert!(matches!(e, Error::IndexOutOfBounds { .. }), "{e}");
    }
}

/// No identity (an empty reduction is an error), an integer bound, a scalar argument of the
/// map, two outputs from `finish`.
#[xp::reduction]
mod max_abs_scaled {
    use xp::kernel::Int;
    fn map<T: Int>(x: T, k: T) -> T {
        let v = x.wrapping_mul(k);
        if v < T::ZERO {
            T::ZERO.wrapping_sub(v)
        } else {
            v
        }
    }
    fn combine<T: Int>(a: T, b: T) -> T {
        if a > b {
            a
        } else {
            b
        }
    }
    fn finish<T: Int>(a: T) -> (T, f64) {
        (a, a.to_f64() * 0.5)
    }
}

#[test]
fn l2_norm_reduction_equals_numpy() {
    let mut f = Failures::default();
    for dev in xp_testing::devices() {
        for case in super::common::load("kernels").iter().filter(|c| c["op"] == "l2norm") {
            let x = super::common::array(&case["args"][0]);
            let p = &case["params"];
            let axes: Vec<isize> = match &p["axis"] {
                serde_json::Value::Array(a) => a.iter().map(|v| v.as_i64().unwrap() as isize).collect(),
                v => vec![v.as_i64().unwrap() as isize],
            };
            let keep = p["keepdims"].as_bool().unwrap();
            let tol = Tolerance { rtol: case["tol"][0].as_f64().unwrap(), atol: case["tol"][1].as_f64().unwrap() };
            let want = super::common::expected_all(case).map(|v| v.into_iter().map(|e| e.with_tol(tol)).collect());
            super::common::check_layouts(&mut f, dev, &[x], &want, "rust l2norm", false, |a| {
                let r =
                    if keep { l2norm::call_keepdim(&a[0], axes.clone()) } else { l2norm::call(&a[0], axes.clone()) };
                r.map(|r| vec![r])
            });
        }
    }
    f.finish();
}

#[test]
fn reductions_every_axis_form_identity_and_outputs() {
    let mut f = Failures::default();
    let v: Vec<i32> = vec![3, -7, 2, 9, -1, 0, 5, -12, 4, 8, -3, 6, 1, 2, -9, 7, 0, 11, -2, 3, 5, -6, 10, 4];
    let host3 = host(v.clone(), &[2, 3, 4]);
    let at = |i: usize, j: usize, k: usize| v[i * 12 + j * 4 + k];
    for dev in xp_testing::devices() {
        for (name, x) in layouts(&host3.to_buffer().unwrap(), &[2, 3, 4], dev).unwrap() {
            // over axis 1, scalar k = -3: max |x * k|
            let (a, b) = {
                let r = max_abs_scaled::kernel().call_all(&[(&x).into(), (-3).into()], 1).unwrap();
                (r[0].clone(), r[1].clone())
            };
            let want: Vec<i32> = (0..2)
                .flat_map(|i| (0..4).map(move |k| (0..3).map(|j| (at(i, j, k) * -3).abs()).max().unwrap()))
                .collect();
            let e = Expected::new(DType::I32, &[2, 4], widen(&host(want.clone(), &[8]).to_buffer().unwrap()));
            f.add(compare(&a, &e).map_err(|m| format!("max_abs {name} {dev}: {m}")));
            let half: Vec<f64> = want.iter().map(|&w| w as f64 * 0.5).collect();
            let e = Expected::new(DType::F64, &[2, 4], widen(&host(half, &[8]).to_buffer().unwrap()));
            f.add(compare(&b, &e).map_err(|m| format!("max_abs half {name} {dev}: {m}")));
            // all axes, keepdims; several axes
            let all = max_abs_scaled::call_keepdim(&x, 1, (0..3).collect::<Vec<isize>>()).unwrap();
            let e = Expected::new(DType::I32, &[1, 1, 1], widen(&host(vec![12i32], &[1]).to_buffer().unwrap()));
            f.add(compare(&all, &e).map_err(|m| format!("max_abs all {name} {dev}: {m}")));
            let two = max_abs_scaled::call(&x, 1, vec![0isize, 2]).unwrap();
            let want: Vec<i32> =
                (0..3).map(|j| (0..2).flat_map(|i| (0..4).map(move |k| at(i, j, k).abs())).max().unwrap()).collect();
            let e = Expected::new(DType::I32, &[3], widen(&host(want, &[3]).to_buffer().unwrap()));
            f.add(compare(&two, &e).map_err(|m| format!("max_abs axes (0, 2) {name} {dev}: {m}")));
        }
        // empty: the identity where there is one, an error where there is none
        let empty = xp::on(dev).zeros([0, 3], DType::F32).unwrap();
        let z = l2norm::call(&empty, 0).unwrap();
        assert_eq!(z.to_vec::<f32>().unwrap(), vec![0.0; 3], "{dev}");
        let ei = empty.astype(DType::I16).unwrap();
        assert!(matches!(max_abs_scaled::call(&ei, 1, 0), Err(Error::EmptyReduction { .. })), "{dev}");
        // the bound: float into an Int reduction
        assert!(matches!(max_abs_scaled::call(&empty, 1, 0), Err(Error::KernelArgs { .. })), "{dev}");
    }
    f.finish();
}

/// `#[xp::kernel]` functions inside `xp::fuse`: inlined into the fused kernel (f32, f16 with
/// its rounding, two outputs picked), against the same fused function run op by op; a kernel
/// with a `Raw` parameter makes the fused function run op by op, with the same result.
#[test]
fn kernels_inside_fuse() {
    use xp::fuse::Sym;
    let relu_sq = xp::fuse(|x: &Sym| leaky_relu::sym(x, 0.25)?.mul(x)?.add(1.0));
    let bs_put = xp::fuse(|s: &Sym, x: &Sym, t: &Sym| {
        let (c, p) = black_scholes::sym(s, x, t, 0.02, 0.3)?;
        p.sub(&c)
    });
    let norm = xp::fuse(|x: &Sym| leaky_relu::sym(x, 0.5)?.square()?.sum(None, false));
    let with_raw = xp::fuse(|x: &Sym| central_diff::sym(x, x)?.mul(2.0));
    let mut f = Failures::default();
    for dev in xp_testing::devices() {
        let x = host(floats(), &[3, 5]).to_device(dev).unwrap();
        for d in [DType::F32, DType::F64, DType::F16] {
            let xd = x.astype(d).unwrap();
            let got = relu_sq.call(&[&xd]).unwrap();
            let want = relu_sq.call_unfused(&[&xd]).unwrap();
            let e = Expected::new(d, &[3, 5], widen(&want.to_buffer().unwrap()))
                .with_tol(Tolerance { rtol: 1e-6, atol: 1e-6 });
            f.add(compare(&got, &e).map_err(|m| format!("fused leaky {d} {dev}: {m}")));
            let got = norm.call(&[&xd]).unwrap();
            let want = norm.call_unfused(&[&xd]).unwrap();
            let e = Expected::new(got.dtype(), &[], widen(&want.to_buffer().unwrap()))
                .with_tol(Tolerance { rtol: 1e-3, atol: 1e-3 });
            f.add(compare(&got, &e).map_err(|m| format!("fused norm {d} {dev}: {m}")));
        }
        let s = host((0..10).map(|k| 5.0 + 2.5 * k as f64).collect::<Vec<f64>>(), &[10]).to_device(dev).unwrap();
        let k = host((0..10).map(|k| 1.0 + 9.0 * k as f64).collect::<Vec<f64>>(), &[10]).to_device(dev).unwrap();
        let t = host((0..10).map(|k| 0.25 + k as f64).collect::<Vec<f64>>(), &[10]).to_device(dev).unwrap();
        let got = bs_put.call(&[&s, &k, &t]).unwrap();
        let want: Vec<f64> = (0..10)
            .map(|j| {
                let (c, p) = black_scholes(5.0 + 2.5 * j as f64, 1.0 + 9.0 * j as f64, 0.25 + j as f64, 0.02, 0.3);
                p - c
            })
            .collect();
        let e = Expected::new(DType::F64, &[10], widen(&host(want, &[10]).to_buffer().unwrap()))
            .with_tol(Tolerance { rtol: 1e-12, atol: 1e-12 });
        f.add(compare(&got, &e).map_err(|m| format!("fused black_scholes {dev}: {m}")));
        let v = host((0..12).map(|k| (k * k) as f64).collect::<Vec<f64>>(), &[12]).to_device(dev).unwrap();
        let got = with_raw.call(&[&v]).unwrap();
        let want = with_raw.call_unfused(&[&v]).unwrap();
        let e = Expected::new(DType::F64, &[12], widen(&want.to_buffer().unwrap()));
        f.add(compare(&got, &e).map_err(|m| format!("fused raw {dev}: {m}")));
        let first: Vec<f64> = want.to_vec().unwrap();
        f.add(if first[3] == 2.0 * 0.5 * (16.0 - 4.0) { Ok(()) } else { Err(format!("fused raw {dev}: {first:?}")) });
    }
    f.finish();
}

mod raw {
    //! `#[xp::raw_kernel]`: GPU kernels written in Rust, launched on a grid and a block.
    use xp::kernel::gpu::*;
    use xp::kernel::{Float, Raw};

    /// A grid-stride saxpy (`cupyx.jit`'s example).
    #[xp::raw_kernel]
    pub fn saxpy<T: Float>(a: T, x: Raw<T>, y: Raw<T>, out: RawMut<T>, n: i64) {
        let mut i = (block_idx().x * block_dim().x + thread_idx().x) as i64;
        let step = (grid_dim().x * block_dim().x) as i64;
        while i < n {
            out.set(i, a * x.at(i) + y.at(i));
            i += step;
        }
    }

    /// A block's sum by a tree in shared memory with barriers, added atomically.
    #[xp::raw_kernel]
    pub fn block_sum(x: Raw<f32>, out: RawMut<f32>, n: i64) {
        let mut s = shared::<f32, 256>();
        let t = thread_idx().x;
        let i = (block_idx().x * 256 + t) as i64;
        s[t as usize] = if i < n { x.at(i) } else { 0.0 };
        sync_threads();
        let mut w = 128u32;
        while w > 0 {
            if t < w {
                s[t as usize] += s[(t + w) as usize];
            }
            sync_threads();
            w /= 2;
        }
        if t == 0 {
            out.atomic_add(0, s[0]);
        }
    }

    /// A histogram with integer and float atomics, and an early return.
    #[xp::raw_kernel]
    pub fn histogram(x: Raw<i32>, counts: RawMut<i32>, weights: RawMut<f32>, n: i64, bins: i32) {
        let i = (block_idx().x * block_dim().x + thread_idx().x) as i64;
        if i >= n {
            return;
        }
        let b = ((x.at(i) % bins) + bins) % bins;
        counts.atomic_add(b as i64, 1);
        weights.atomic_add(b as i64, 0.5);
        counts.atomic_max((bins + 1) as i64, x.at(i));
    }

    /// Warp sums by shuffles: lane 0 of each warp writes its warp's sum.
    #[xp::raw_kernel]
    pub fn warp_sums(x: Raw<f64>, out: RawMut<f64>) {
        let i = (block_idx().x * block_dim().x + thread_idx().x) as i64;
        let mut v = x.at(i);
        let mut d = warp_size() / 2;
        while d > 0 {
            v += shfl_down(v, d);
            d /= 2;
        }
        if lane_id() == 0 {
            out.set(i / 32, v);
        }
    }
}

/// Raw kernels on every GPU against host loops; on the CPU a typed `KernelUnsupported`; a
/// `RawMut` of another dtype refused.
#[test]
fn raw_kernels_on_the_gpu() {
    let n = 10_000usize;
    let xs: Vec<f32> = (0..n).map(|k| ((k * 7919) % 1000) as f32 * 0.01 - 3.0).collect();
    let ys: Vec<f32> = (0..n).map(|k| (k % 13) as f32).collect();
    for dev in xp_testing::devices() {
        let on = xp::on(dev);
        let x = host(xs.clone(), &[n]).to_device(dev).unwrap();
        let y = host(ys.clone(), &[n]).to_device(dev).unwrap();
        let out = on.zeros([n], DType::F32).unwrap();
        let r = raw::saxpy::launch(8u32, 128u32, 2.0f32, &x, &y, &out, n as i64);
        if dev == Device::Cpu {
            assert!(matches!(r, Err(Error::KernelUnsupported { .. })), "{r:?}");
            let wrong = on.zeros([n], DType::F64).unwrap();
            assert!(matches!(
                raw::saxpy::launch(1u32, 32u32, 2.0f32, &x, &y, &wrong, 1i64),
                Err(Error::KernelArgs { .. })
            ));
            continue;
        }
        r.unwrap();
        let got: Vec<f32> = out.to_vec().unwrap();
        for k in 0..n {
            assert!(
                (got[k] - (2.0 * xs[k] + ys[k])).abs() <= 1e-6 * (2.0 * xs[k] + ys[k]).abs().max(1.0),
                "saxpy [{k}] on {dev}"
            );
        }
        // shared memory and barriers
        let total = on.zeros([1], DType::F32).unwrap();
        raw::block_sum::launch(n.div_ceil(256) as u32, 256u32, &x, &total, n as i64).unwrap();
        let want: f64 = xs.iter().map(|&v| v as f64).sum();
        let got = total.to_vec::<f32>().unwrap()[0] as f64;
        assert!((got - want).abs() <= 1e-3 * want.abs().max(1.0), "block_sum on {dev}: {got} vs {want}");
        // atomics
        let ints: Vec<i32> = (0..n as i32).map(|k| (k * 37) % 101 - 50).collect();
        let xi = host(ints.clone(), &[n]).to_device(dev).unwrap();
        let bins = 16;
        let counts = on.zeros([bins + 2], DType::I32).unwrap();
        let weights = on.zeros([bins], DType::F32).unwrap();
        raw::histogram::launch(n.div_ceil(128) as u32, 128u32, &xi, &counts, &weights, n as i64, bins as i32).unwrap();
        let mut wc = vec![0i32; bins + 2];
        let mut ww = vec![0f32; bins];
        for &v in &ints {
            let b = v.rem_euclid(bins as i32) as usize;
            wc[b] += 1;
            ww[b] += 0.5;
        }
        wc[bins + 1] = *ints.iter().max().unwrap();
        assert_eq!(counts.to_vec::<i32>().unwrap(), wc, "histogram counts on {dev}");
        assert_eq!(weights.to_vec::<f32>().unwrap(), ww, "histogram weights on {dev}");
        // warp shuffles
        let m = 32 * 64;
        let v: Vec<f64> = (0..m).map(|k| (k % 97) as f64 * 0.25).collect();
        let xv = host(v.clone(), &[m]).to_device(dev).unwrap();
        let sums = on.zeros([m / 32], DType::F64).unwrap();
        raw::warp_sums::launch((m / 128) as u32, 128u32, &xv, &sums).unwrap();
        let want: Vec<f64> = v.chunks(32).map(|c| c.iter().sum()).collect();
        assert_eq!(sums.to_vec::<f64>().unwrap(), want, "warp sums on {dev}");
        // a written array must have the parameter's dtype
        let wrong = on.zeros([n], DType::F64).unwrap();
        assert!(matches!(raw::saxpy::launch(1u32, 32u32, 2.0f32, &x, &y, &wrong, 1i64), Err(Error::KernelArgs { .. })));
    }
}
