//! User kernels (`xp::kernel`): the issue's seed scenarios against NumPy
//! (tests/data/kernels.json, made by scripts/gen_kernel_reference.py) in every layout, C's
//! semantics against host loops, and the typed errors, on every device.
use super::common;
use xp::kernel::{ElementwiseKernel, ReductionKernel};
use xp::{Array, DType, Device, Error, Scalar};
use xp_testing::{devices, Failures};

fn leaky() -> ElementwiseKernel {
    ElementwiseKernel::new("T x, T alpha", "T y", "y = x > 0 ? x : alpha * x", "leaky_relu").unwrap()
}

#[test]
fn leaky_relu_equals_numpy_in_every_layout() {
    let k = leaky();
    let mut f = Failures::default();
    for dev in devices() {
        for case in common::load("kernels").iter().filter(|c| c["op"] == "leaky_relu") {
            let x = common::array(&case["args"][0]);
            let alpha = case["params"]["alpha"].as_f64().unwrap();
            let want = common::expected_all(case);
            common::check_layouts(&mut f, dev, &[x], &want, "leaky_relu", false, |a| {
                k.call(&[(&a[0]).into(), alpha.into()])
            });
        }
    }
    f.finish();
}

#[test]
fn l2_norm_reduction_kernel_equals_numpy() {
    let k = ReductionKernel::new("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm").unwrap();
    let mut f = Failures::default();
    for dev in devices() {
        for case in common::load("kernels").iter().filter(|c| c["op"] == "l2norm") {
            let x = common::array(&case["args"][0]);
            let p = &case["params"];
            let axes: Vec<isize> = match &p["axis"] {
                serde_json::Value::Array(a) => a.iter().map(|v| v.as_i64().unwrap() as isize).collect(),
                v => vec![v.as_i64().unwrap() as isize],
            };
            let keep = p["keepdims"].as_bool().unwrap();
            let tol = xp_testing::Tolerance {
                rtol: case["tol"][0].as_f64().unwrap(),
                atol: case["tol"][1].as_f64().unwrap(),
            };
            let want = common::expected_all(case).map(|v| v.into_iter().map(|e| e.with_tol(tol)).collect());
            common::check_layouts(&mut f, dev, &[x], &want, "l2norm", false, |a| {
                if keep {
                    k.call_keepdim(&[(&a[0]).into()], axes.clone())
                } else {
                    k.call(&[(&a[0]).into()], axes.clone())
                }
            });
        }
    }
    f.finish();
}

/// int8/int32 arithmetic with C's promotions, wrapping and truncating division, `if`/`else`,
/// casts, a math function and two outputs of different dtypes, against a host loop.
#[test]
fn c_semantics_match_host_loops() {
    let body = "int t = a * 3 + b / 7;\n\
                if (b % 2 == 0) { c = (signed char)t; } else c = -a;\n\
                d = (b >> 2) | 1;\n\
                e = b > 0 ? sqrt((double)b) : -1.5";
    let k = ElementwiseKernel::new("int8 a, int32 b", "int8 c, int32 d, float64 e", body, "csem").unwrap();
    let av: Vec<i8> = vec![-128, -7, 0, 5, 100, 127];
    let bv: Vec<i32> = vec![-100, -15, -1, 0, 1, 14, 99, 1 << 30];
    let host = |a: i8, b: i32| {
        let t = (a as i32) * 3 + b / 7;
        let c = if b % 2 == 0 { t as i8 } else { (-(a as i32)) as i8 };
        let e = if b > 0 { (b as f64).sqrt() } else { -1.5 };
        (c, (b >> 2) | 1, e)
    };
    for dev in devices() {
        let a = Array::from_vec(av.clone(), [6, 1]).unwrap().to_device(dev).unwrap();
        let b = Array::from_vec(bv.clone(), [1, 8]).unwrap().to_device(dev).unwrap();
        for (bname, bb) in [("b", b.clone()), ("b reversed", b.flip(1).unwrap().copy().unwrap().flip(1).unwrap())] {
            let r = k.call(&[(&a).into(), (&bb).into()]).unwrap();
            assert_eq!(r[0].shape(), &[6, 8]);
            let (c, d, e) =
                (r[0].to_vec::<i8>().unwrap(), r[1].to_vec::<i32>().unwrap(), r[2].to_vec::<f64>().unwrap());
            for (i, &x) in av.iter().enumerate() {
                for (j, &y) in bv.iter().enumerate() {
                    let (hc, hd, he) = host(x, y);
                    let at = i * 8 + j;
                    assert_eq!((c[at], d[at]), (hc, hd), "{dev} {bname} a={x} b={y}");
                    assert!((e[at] - he).abs() <= 1e-15 * he.abs(), "{dev} {bname} a={x} b={y}: {} vs {he}", e[at]);
                }
            }
        }
    }
}

/// `raw` parameters read by index (reversal), in any layout of the raw array, into a given
/// output; a given output's values are read by the body; multiple outputs.
#[test]
fn raw_parameters_and_given_outputs() {
    let rev = ElementwiseKernel::new("raw T x, int64 n", "T y", "y = x[n - 1 - i]", "reverse").unwrap();
    let acc = ElementwiseKernel::new("T x", "T s, T c", "s = s + sin(x); c = cos(x)", "sincos_acc").unwrap();
    for dev in devices() {
        let v: Vec<f64> = (0..12).map(|i| i as f64 * 0.7 - 3.0).collect();
        let x = Array::from_vec(v.clone(), [3, 4]).unwrap().to_device(dev).unwrap();
        for (name, view) in [("contiguous", x.clone()), ("transposed", x.t().unwrap())] {
            let flat = view.copy().unwrap().to_vec::<f64>().unwrap();
            let y = xp::on(dev).zeros(view.shape(), DType::F64).unwrap();
            rev.call_out(&[(&view).into(), (view.size() as i64).into()], &[&y]).unwrap();
            let got = y.to_vec::<f64>().unwrap();
            let want: Vec<f64> = flat.iter().rev().copied().collect();
            assert_eq!(got, want, "{dev} {name}");
        }
        let s = xp::on(dev).ones([3, 4], DType::F64).unwrap();
        let c = xp::on(dev).zeros([3, 4], DType::F64).unwrap();
        acc.call_out(&[(&x).into()], &[&s, &c]).unwrap();
        let (sv, cv) = (s.to_vec::<f64>().unwrap(), c.to_vec::<f64>().unwrap());
        for (k, &xv) in v.iter().enumerate() {
            assert!((sv[k] - (1.0 + xv.sin())).abs() < 1e-15 && (cv[k] - xv.cos()).abs() < 1e-15, "{dev} {k}");
        }
        // an index outside the raw array is an error on the CPU (the GPU does not check)
        if dev == Device::Cpu {
            let y = xp::zeros([12], DType::F64).unwrap();
            let e = rev.call_out(&[(&x).into(), 13i64.into()], &[&y]).unwrap_err();
            assert!(matches!(e, Error::IndexOutOfBounds { .. }), "{e}");
            assert_eq!(y.to_vec::<f64>().unwrap(), vec![0.0; 12], "a failed call writes nothing");
        }
    }
}

/// A reduction with a scalar parameter and two outputs, over a transposed view and several
/// axes, against float64 loops; empty reductions with and without identity.
#[test]
fn reduction_kernel_scalars_outputs_and_empty() {
    let k = ReductionKernel::new("T x, T w", "T s, T m", "x * w", "a + b", "s = a; m = a / 2", "0", "wsum").unwrap();
    let maxk = ReductionKernel::new("T x", "T y", "x", "max(a, b)", "y = a", "", "kmax").unwrap();
    for dev in devices() {
        let v: Vec<f32> = (0..24).map(|i| ((i * 7) % 11) as f32 - 4.0).collect();
        let x = Array::from_vec(v.clone(), [2, 3, 4]).unwrap().to_device(dev).unwrap();
        let xt = x.transpose([2, 0, 1]).unwrap(); // (4, 2, 3)
        let r = k.call(&[(&xt).into(), 2.0f32.into()], [0, 2]).unwrap();
        assert_eq!(r[0].shape(), &[2]);
        let (s, m) = (r[0].to_vec::<f32>().unwrap(), r[1].to_vec::<f32>().unwrap());
        for j in 0..2 {
            let want: f32 = (0..12).map(|q| v[j * 12 + q] * 2.0).sum();
            assert_eq!((s[j], m[j]), (want, want / 2.0), "{dev} {j}");
        }
        let mx = maxk.call1_keepdim(&[(&xt).into()], 1).unwrap();
        assert_eq!(mx.shape(), &[4, 1, 3]);
        let mv = mx.to_vec::<f32>().unwrap();
        for a in 0..4 {
            for c in 0..3 {
                let want = (0..2).map(|b| v[b * 12 + c * 4 + a]).fold(f32::MIN, f32::max);
                assert_eq!(mv[a * 3 + c], want, "{dev} max at {a},{c}");
            }
        }
        let empty = xp::on(dev).zeros([3, 0], DType::F32).unwrap();
        let z = k.call(&[(&empty).into(), 1.0f32.into()], 1).unwrap();
        assert_eq!(z[0].to_vec::<f32>().unwrap(), vec![0.0; 3], "{dev}: identity of an empty reduction");
        let e = maxk.call1(&[(&empty).into()], 1).unwrap_err();
        assert!(matches!(e, Error::EmptyReduction { .. }), "{e}");
    }
}

#[test]
fn typed_errors() {
    for dev in devices() {
        let x = xp::on(dev).ones([4], DType::F32).unwrap();
        let d = xp::on(dev).ones([4], DType::F64).unwrap();
        // a syntax error: our parser on the CPU, NVRTC's log on the GPU, both with the line
        let bad = ElementwiseKernel::new("T x", "T y", "y = x;\ny = x +;", "bad_syntax").unwrap();
        match (dev, bad.call(&[(&x).into()]).unwrap_err()) {
            (Device::Cpu, Error::KernelSource { kernel, line, .. }) => {
                assert_eq!((kernel.as_str(), line), ("bad_syntax", 2))
            }
            (Device::Cuda(_), Error::KernelCompile { kernel, log }) => {
                assert_eq!(kernel, "bad_syntax");
                assert!(log.contains("bad_syntax(2)"), "{log}");
            }
            (d, e) => panic!("{d}: {e:?}"),
        }
        // argument count, placeholder conflicts, dtypes that cannot be cast
        let e = leaky().call(&[(&x).into()]).unwrap_err();
        assert!(matches!(e, Error::KernelArgs { .. }), "{e}");
        let two = ElementwiseKernel::new("T x, T y", "T z", "z = x + y", "add2").unwrap();
        let e = two.call(&[(&x).into(), (&d).into()]).unwrap_err();
        assert!(matches!(e, Error::KernelArgs { .. }), "{e}");
        let ints = ElementwiseKernel::new("int32 x", "int32 z", "z = x", "ints").unwrap();
        let e = ints.call(&[(&d).into()]).unwrap_err();
        assert!(matches!(e, Error::KernelArgs { .. }), "{e}");
        // a loop is in the CPU subset (it was not, before issue 27): both devices run it
        let looped =
            ElementwiseKernel::new("T x", "T y", "y = 0;\nfor (int k = 0; k < 3; ++k) y += x;", "looped").unwrap();
        assert_eq!(looped.call1(&[(&x).into()]).unwrap().to_vec::<f32>().unwrap(), vec![3.0; 4], "{dev}");
        // a body outside the CPU subset: typed Unsupported on the CPU, runs on the GPU
        let switched =
            ElementwiseKernel::new("T x", "T y", "y = 0;\nswitch (i) { case 0: y = x; }", "switched").unwrap();
        match (dev, switched.call1(&[(&x).into()])) {
            (Device::Cpu, Err(Error::KernelUnsupported { reason, .. })) => {
                assert!(reason.contains("line 2") && reason.contains("switch"), "{reason}")
            }
            (Device::Cuda(_), Ok(y)) => assert_eq!(y.to_vec::<f32>().unwrap(), vec![1.0, 0.0, 0.0, 0.0]),
            (d, r) => panic!("{d}: {r:?}"),
        }
        // signature errors when the kernel is made
        assert!(matches!(ElementwiseKernel::new("T x,", "T y", "y = x", "k"), Err(Error::KernelSource { .. })));
        assert!(matches!(ElementwiseKernel::new("T x", "T x", "x = 1", "k"), Err(Error::KernelSource { .. })));
        // a given output of the wrong shape leaves it untouched
        let out = xp::on(dev).zeros([5], DType::F32).unwrap();
        assert!(leaky().call_out(&[(&x).into(), 0.5f32.into()], &[&out]).is_err());
        assert_eq!(out.to_vec::<f32>().unwrap(), vec![0.0; 5]);
        let _ = Scalar::Int(0);
    }
    // arrays on two devices
    if let Some(&gpu) = devices().iter().find(|d| **d != Device::Cpu) {
        let (a, b) = (xp::ones([3], DType::F32).unwrap(), xp::on(gpu).ones([3], DType::F32).unwrap());
        let two = ElementwiseKernel::new("T x, T y", "T z", "z = x + y", "add2").unwrap();
        let e = two.call(&[(&a).into(), (&b).into()]).unwrap_err();
        assert!(matches!(e, Error::DeviceMismatch { .. }), "{e}");
    }
}

/// As CuPy: `call_out` broadcasts the inputs to the given outputs (CuPy's `monte_carlo.py` passes
/// (n, 1) columns with an (n, m) output), outputs are never broadcast, and a CUDA-only body
/// (CuPy's `_ind` indexer, a `curandState`) is named as outside the CPU subset.
#[test]
fn call_out_broadcasts_inputs_to_the_outputs() {
    for dev in devices() {
        let m = xp::on(dev);
        let col = m.asarray(vec![1.0f64, 2.0, 3.0], [3, 1]).unwrap();
        let row = m.asarray(vec![10.0f64, 20.0], [1, 2]).unwrap();
        let k = ElementwiseKernel::new("T s, T x", "T y", "y = s * 100 + x", "bcast_out").unwrap();
        let out = m.zeros([3, 2], DType::F64).unwrap();
        k.call_out(&[(&col).into(), 5.0f64.into()], &[&out]).unwrap();
        assert_eq!(out.to_vec::<f64>().unwrap(), vec![105.0, 105.0, 205.0, 205.0, 305.0, 305.0], "{dev}");
        k.call_out(&[(&col).into(), (&row).into()], &[&out]).unwrap();
        assert_eq!(out.to_vec::<f64>().unwrap(), vec![110.0, 120.0, 210.0, 220.0, 310.0, 320.0], "{dev}");
        // an output smaller than the inputs' shape is refused, and left as it was
        let small = m.zeros([3, 1], DType::F64).unwrap();
        match k.call_out(&[(&col).into(), (&row).into()], &[&small]) {
            Err(Error::KernelArgs { msg, .. }) => assert!(msg.contains("outputs are not broadcast"), "{msg}"),
            other => panic!("{dev}: {other:?}"),
        }
        assert_eq!(small.to_vec::<f64>().unwrap(), vec![0.0; 3]);
        if dev == Device::Cpu {
            let body = "uint64_t rand_state[] = {_ind.get()[0] ^ seed, 1};\ny = s;";
            let mc = ElementwiseKernel::new("T s, int32 seed", "T y", body, "monte_carlo").unwrap();
            match mc.call_out(&[(&col).into(), 7i32.into()], &[&out]) {
                Err(Error::KernelUnsupported { reason, .. }) => assert!(reason.contains("member access"), "{reason}"),
                other => panic!("{other:?}"),
            }
            let odd = ElementwiseKernel::new("T s", "T y", "curandState st;\ny = s;", "curand").unwrap();
            match odd.call(&[(&col).into()]) {
                Err(Error::KernelUnsupported { reason, .. }) => assert!(reason.contains("curandState"), "{reason}"),
                other => panic!("{other:?}"),
            }
        }
    }
}

/// CuPy's `examples/finance/monte_carlo.py` kernel, as it is written there: the example's own
/// text, so that the test checks what the example runs.
#[allow(dead_code)]
#[path = "../../../examples/monte_carlo.rs"]
mod monte_carlo;
use monte_carlo::MONTE_CARLO_PREAMBLE as MC_PREAMBLE;

fn monte_carlo_kernel() -> ElementwiseKernel {
    monte_carlo::monte_carlo_kernel().unwrap()
}

/// CuPy's Monte Carlo kernel as written (preamble functions, a local `uint64_t` array passed as
/// a pointer, a loop whose `i` shadows the element index, xorshift128+, `erfcinv`), called as
/// `compute_option_prices` calls it ((n, 1) columns against an (n, m) output), on every device,
/// against NumPy/SciPy's vectorised computation of the same samples.
#[test]
fn monte_carlo_kernel_as_cupy_writes_it() {
    let k = monte_carlo_kernel();
    let case = common::load("kernels").into_iter().find(|c| c["op"] == "monte_carlo").expect("a monte_carlo case");
    let p = &case["params"];
    let (r, v) = (p["r"].as_f64().unwrap(), p["v"].as_f64().unwrap());
    let (threads, samples, seed) =
        (p["n_threads"].as_u64().unwrap() as usize, p["n_samples"].as_i64().unwrap(), p["seed"].as_i64().unwrap());
    let col = |j: usize| {
        let (b, shape) = common::array(&case["args"][j]);
        Array::from_buffer(b, [shape[0], 1], Device::Cpu).unwrap()
    };
    let (want, _) = common::array(&case["result"]);
    let want: Vec<f64> = Array::from_buffer(want, [24], Device::Cpu).unwrap().to_vec::<f64>().unwrap();
    for dev in devices() {
        let (s, x, t) =
            (col(0).to_device(dev).unwrap(), col(1).to_device(dev).unwrap(), col(2).to_device(dev).unwrap());
        let call = xp::on(dev).zeros([s.shape()[0], threads], DType::F64).unwrap();
        let args =
            [(&s).into(), (&x).into(), (&t).into(), r.into(), v.into(), (samples as i32).into(), (seed as i32).into()];
        k.call_out(&args, &[&call]).unwrap();
        let got = call.to_vec::<f64>().unwrap();
        // CUDA's exp and erfcinv are not the CPU's: within a few ulp per sample
        let rtol = if dev == Device::Cpu { 1e-12 } else { 1e-10 };
        for (j, (g, w)) in got.iter().zip(&want).enumerate() {
            assert!((g - w).abs() <= rtol * w.abs().max(1.0), "{dev} element {j}: {g} vs NumPy {w}");
        }
    }
}

/// The Monte Carlo preamble's generator, stepped by a loop in the body, is xorshift128+ bit for
/// bit: against the stream computed in plain Rust, for every element's seed.
#[test]
fn xorshift128plus_stream_bit_exact() {
    let body = "uint64_t st[2];\ninit_state(st, i, seed);\nuint64_t r = 0;\n\
                for (int k = 0; k < n; ++k) r = xorshift128plus(st);\nout = r; u = sample_uniform(st);";
    let k =
        ElementwiseKernel::with_preamble("int32 n, int32 seed", "uint64 out, T u", body, "xs", MC_PREAMBLE).unwrap();
    let step = |x: &mut [u64; 2]| {
        let (mut s1, s0) = (x[0], x[1]);
        x[0] = s0;
        s1 ^= s1 << 23;
        s1 ^= s1 >> 17;
        s1 ^= s0;
        s1 ^= s0 >> 26;
        x[1] = s1;
        s0.wrapping_add(s1)
    };
    for dev in devices() {
        for (n, seed) in [(1i32, 0i32), (37, -5), (1000, 1 << 30)] {
            let out = xp::on(dev).zeros([50], DType::U64).unwrap();
            let u = xp::on(dev).zeros([50], DType::F64).unwrap();
            k.call_out(&[n.into(), seed.into()], &[&out, &u]).unwrap();
            let (got, gu) = (out.to_vec::<u64>().unwrap(), u.to_vec::<f64>().unwrap());
            for i in 0..50 {
                let mut st = [(i as i32 + 1) as u64, (0x5c72_1fd8_08f6_16b6i64 + seed as i64) as u64];
                let mut r = 0;
                for _ in 0..n {
                    r = step(&mut st);
                }
                assert_eq!(got[i], r, "{dev} n={n} seed={seed} element {i}");
                assert_eq!(gu[i], step(&mut st) as f64 / u64::MAX as f64, "{dev} uniform {i}");
            }
        }
    }
}

/// `for`, `while` and `do` loops with `break` and `continue`, nested loops, trip counts that
/// differ per element (a Collatz walk), against host loops.
#[test]
fn loops_with_break_and_continue() {
    let body = r#"
        a = 0;
        for (int k = 0; k < 100; k++) {
            if (k % 3 == 0) continue;
            if (k > n) break;
            a += k;
        }
        int j = n, steps = 0;
        while (j > 1 && steps < 1000) { j = (j % 2 == 0) ? j / 2 : 3 * j + 1; ++steps; }
        do { steps -= 2; } while (steps > 10);
        int c = 0;
        for (int p = 0; p < 6; ++p) {
            for (int q = 0; ; ++q) { if (q > p) break; if ((p + q) % 2) continue; c++; }
            if (p == n) break;
        }
        b = steps + 0.5;
        a += c * 1000;
        for (;;) { if (a > 0) break; a--; break; }
    "#;
    let k = ElementwiseKernel::new("int32 n", "int32 a, float64 b", body, "loops").unwrap();
    let host = |n: i32| {
        let mut a = 0;
        for k in 0..100 {
            if k % 3 == 0 {
                continue;
            }
            if k > n {
                break;
            }
            a += k;
        }
        let (mut j, mut steps) = (n, 0);
        while j > 1 && steps < 1000 {
            j = if j % 2 == 0 { j / 2 } else { 3 * j + 1 };
            steps += 1;
        }
        loop {
            steps -= 2;
            if steps <= 10 {
                break;
            }
        }
        let mut c = 0;
        for p in 0..6 {
            for q in 0.. {
                if q > p {
                    break;
                }
                if (p + q) % 2 != 0 {
                    continue;
                }
                c += 1;
            }
            if p == n {
                break;
            }
        }
        a += c * 1000;
        if a <= 0 {
            a -= 1;
        }
        (a, steps as f64 + 0.5)
    };
    for dev in devices() {
        let nv: Vec<i32> = (-3..60).chain([97, 703, 871]).collect();
        let n = Array::from_vec(nv.clone(), [nv.len()]).unwrap().to_device(dev).unwrap();
        let r = k.call(&[(&n).into()]).unwrap();
        let (a, b) = (r[0].to_vec::<i32>().unwrap(), r[1].to_vec::<f64>().unwrap());
        for (j, &x) in nv.iter().enumerate() {
            assert_eq!((a[j], b[j]), host(x), "{dev} n={x}");
        }
    }
}

const ARRAY_PREAMBLE: &str = r#"
    typedef double real;
    // bubble sort of three values, in place
    __device__ void sort3(real* v) {
        for (int a = 0; a < 2; ++a)
            for (int b = 0; b < 2 - a; ++b)
                if (v[b] > v[b + 1]) { real t = v[b]; v[b] = v[b + 1]; v[b + 1] = t; }
    }
    // the first position holding at least x, or -1 (a return inside a loop)
    __device__ int find(const real* v, int n, real x) {
        for (int k = 0; k < n; ++k) {
            if (v[k] >= x) return k;
        }
        return -1;
    }
    __device__ void minmax(real a, real b, real& lo, real* hi) {
        lo = a < b ? a : b;
        *hi = a < b ? b : a;
    }
    __device__ inline real twice(real v) { return 2 * v; }
"#;

/// Local arrays indexed by run-time values, preamble functions with pointer (to an array and to
/// `&variable`), reference and value parameters, an early `return` in a loop, typedefs in the
/// preamble and the body, calls nested in expressions, against host loops.
#[test]
fn local_arrays_and_preamble_functions() {
    let body = r#"
        typedef int idx_t;
        real v[3] = {x, y, x * y};
        sort3(v);
        lo = v[0]; mid = v[1]; hi = v[2];
        pos = find(v, 3, 0.0);
        real l, h;
        minmax(x, y, l, &h);
        span = twice(h - l) / 2;
        idx_t w[4];
        for (idx_t k = 0; k < 4; ++k) w[(k + pos + 4) % 4] = k * 10;
        wsum = w[0] + 2 * w[1] + (pos >= 0 ? w[pos] : -1);
    "#;
    let k = ElementwiseKernel::with_preamble(
        "float64 x, float64 y",
        "float64 lo, float64 mid, float64 hi, int32 pos, float64 span, int32 wsum",
        body,
        "arrays",
        ARRAY_PREAMBLE,
    )
    .unwrap();
    let xv: [f64; 5] = [-2.0, -0.5, 0.0, 1.5, 3.0];
    let yv: [f64; 4] = [-1.0, 0.25, 2.0, -4.0];
    for dev in devices() {
        let x = Array::from_vec(xv.to_vec(), [5, 1]).unwrap().to_device(dev).unwrap();
        let y = Array::from_vec(yv.to_vec(), [1, 4]).unwrap().to_device(dev).unwrap();
        let r = k.call(&[(&x).into(), (&y).into()]).unwrap();
        let f = |k: usize| r[k].to_vec::<f64>().unwrap();
        let g = |k: usize| r[k].to_vec::<i32>().unwrap();
        let (lo, mid, hi, pos, span, wsum) = (f(0), f(1), f(2), g(3), f(4), g(5));
        for (a, &xa) in xv.iter().enumerate() {
            for (b, &yb) in yv.iter().enumerate() {
                let e = a * 4 + b;
                let mut v = [xa, yb, xa * yb];
                v.sort_by(|p, q| p.partial_cmp(q).unwrap());
                let p = v.iter().position(|&z| z >= 0.0).map_or(-1, |p| p as i32);
                let mut w = [0; 4];
                for k in 0..4 {
                    w[((k + p + 4) % 4) as usize] = k * 10;
                }
                let ws = w[0] + 2 * w[1] + if p >= 0 { w[p as usize] } else { -1 };
                let got = (lo[e], mid[e], hi[e], pos[e], span[e], wsum[e]);
                assert_eq!(got, (v[0], v[1], v[2], p, (xa - yb).abs(), ws), "{dev} x={xa} y={yb}");
            }
        }
    }
}

/// What the CPU subset still leaves out gives the typed error naming the construct, on the CPU
/// (the GPU compiles these bodies with NVRTC).
#[test]
fn outside_the_cpu_subset() {
    let x = xp::ones([4], DType::F64).unwrap();
    let cases = [
        ("y = 0; int k = 0;\nswitch (k) { default: y = x; }", "", "switch"),
        ("T a[2] = {x, x};\ny = *(a + 1);", "", "pointer"),
        ("y = f(x);", "__device__ T f(T v) { return v > 1 ? f(v - 1) : v; }", "recursion"),
        ("y = sq(x);", "#define SQ(v) ((v) * (v))\n__device__ T sq(T v) { return SQ(v); }", "macro"),
        ("y = x * N;", "#define N 3", "macro"),
        ("y = g(x);", "template <class U> __device__ U g(U v) { return v; }", "template"),
        ("curandState st;\ny = x;", "", "curandState"),
        ("y = _ind.size();", "", "member access"),
        ("y = x;\nreturn;", "", "return"),
        ("y = __shfl_sync(0xffffffff, x, 0);", "", "__shfl_sync"),
        ("T* q = &y;\ny = x;", "", "pointer"),
    ];
    for (body, pre, what) in cases {
        let k = ElementwiseKernel::with_preamble("T x", "T y", body, "outside", pre).unwrap();
        match k.call1(&[(&x).into()]) {
            Err(Error::KernelUnsupported { reason, backend, .. }) => {
                assert_eq!(backend, "cpu");
                assert!(reason.contains(what), "{body}: {reason}");
            }
            other => panic!("{body}: {other:?}"),
        }
    }
    // `&input` as a pointer argument is read through it; a write through it is C's error
    let read = ElementwiseKernel::with_preamble(
        "T x",
        "T y",
        "y = h(&x);",
        "addr",
        "__device__ T h(const T* p) { return *p + 1; }",
    )
    .unwrap();
    assert_eq!(read.call1(&[(&x).into()]).unwrap().to_vec::<f64>().unwrap(), vec![2.0; 4]);
    let write = ElementwiseKernel::with_preamble(
        "T x",
        "T y",
        "y = h(&x);",
        "addr",
        "__device__ T h(T* p) { p[0] = 1; return 0; }",
    )
    .unwrap();
    let e = write.call1(&[(&x).into()]).unwrap_err();
    assert!(matches!(&e, Error::KernelSource { msg, .. } if msg.contains("input")), "{e}");
    // a preamble item outside the subset that the body does not use is no error
    let k = ElementwiseKernel::with_preamble("T x", "T y", "y = 2 * x", "unused", "struct S { int a; };\n#define M 2")
        .unwrap();
    assert_eq!(k.call1(&[(&x).into()]).unwrap().to_vec::<f64>().unwrap(), vec![2.0; 4]);
}

const SAXPY: &str = r#"extern "C" __global__ void saxpy(float a, const float* x, const float* y, float* z, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = a * x[i] + y[i];
}"#;

/// RawKernel saxpy and a RawModule of two kernels (one a template through a name expression,
/// one reading a `__constant__` global) launched in turn, against host loops; the typed errors
/// of raw launches.
#[test]
fn raw_kernels_and_modules() {
    use xp::kernel::{RawKernel, RawModule};
    let saxpy = RawKernel::new(SAXPY, "saxpy", &[]);
    // a CPU array is refused on every machine
    let c = xp::ones([4], DType::F32).unwrap();
    let e =
        saxpy.launch(1u32, 32u32, &[2.0f32.into(), (&c).into(), (&c).into(), (&c).into(), 4i32.into()]).unwrap_err();
    assert!(matches!(e, Error::DeviceMismatch { .. } | Error::CudaNotCompiled | Error::NoCuda(_)), "{e}");
    let module = RawModule::new(
        r#"__constant__ float scale[2];
           extern "C" __global__ void affine(float* x, int n) {
               int i = blockIdx.x * blockDim.x + threadIdx.x;
               if (i < n) x[i] = x[i] * scale[0] + scale[1];
           }
           template <class T> __global__ void square(T* x, int n) {
               int i = blockIdx.x * blockDim.x + threadIdx.x;
               if (i < n) x[i] = x[i] * x[i];
           }"#,
        &["-DUNUSED=1"],
        &["square<float>", "square<double>"],
    );
    for dev in devices().into_iter().filter(|d| *d != Device::Cpu) {
        let g = xp::on(dev);
        let n = 1000usize;
        let xv: Vec<f32> = (0..n).map(|i| i as f32 * 0.5 - 100.0).collect();
        let x = Array::from_vec(xv.clone(), [n]).unwrap().to_device(dev).unwrap();
        let y = g.full([n], 3.0, DType::F32).unwrap();
        let z = g.zeros([n], DType::F32).unwrap();
        saxpy.launch(4u32, 256u32, &[2.5f32.into(), (&x).into(), (&y).into(), (&z).into(), (n as i32).into()]).unwrap();
        let zv = z.to_vec::<f32>().unwrap();
        for i in 0..n {
            // NVRTC may contract a * x + y into one fused multiply-add
            let (fused, apart) = (2.5f32.mul_add(xv[i], 3.0), 2.5 * xv[i] + 3.0);
            assert!(zv[i] == fused || zv[i] == apart, "saxpy {i}: {}", zv[i]);
        }
        // the module: scale by the constant, then square (template instantiation)
        let s = Array::from_vec(vec![2.0f32, -1.0], [2]).unwrap().to_device(dev).unwrap();
        module.set_global("scale", &s).unwrap();
        let w = x.copy().unwrap();
        module.get_function("affine").launch(4u32, 256u32, &[(&w).into(), (n as i32).into()]).unwrap();
        module.get_function("square<float>").launch((4u32, 1u32), 256u32, &[(&w).into(), (n as i32).into()]).unwrap();
        let wv = w.to_vec::<f32>().unwrap();
        for i in 0..n {
            let a = xv[i] * 2.0 - 1.0;
            assert_eq!(wv[i], a * a, "module {i}");
        }
        let (_, bytes) = module.get_global(dev, "scale").unwrap();
        assert_eq!(bytes, 8);
        // errors: unknown kernel, refused launch configuration, compile failure with its log
        let e = module.get_function("nope").launch(1u32, 32u32, &[(&w).into(), 1i32.into()]).unwrap_err();
        assert!(matches!(e, Error::KernelArgs { .. }), "{e}");
        let e = saxpy
            .launch(1u32, 2048u32, &[1.0f32.into(), (&x).into(), (&y).into(), (&z).into(), 1i32.into()])
            .unwrap_err();
        assert!(matches!(e, Error::Launch { .. }), "{e}");
        let broken = RawKernel::new("extern \"C\" __global__ void k(float* x) { x[0] = undefined_name; }", "k", &[]);
        match broken.launch(1u32, 1u32, &[(&w).into()]).unwrap_err() {
            Error::KernelCompile { log, .. } => assert!(log.contains("undefined_name"), "{log}"),
            e => panic!("{e}"),
        }
        assert_eq!(z.to_vec::<f32>().unwrap(), zv, "failed launches leave arrays untouched");
    }
}
