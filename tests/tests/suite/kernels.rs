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
        // a body outside the CPU subset: typed Unsupported on the CPU, runs on the GPU
        let looped =
            ElementwiseKernel::new("T x", "T y", "y = 0;\nfor (int k = 0; k < 3; ++k) y += x;", "looped").unwrap();
        match (dev, looped.call1(&[(&x).into()])) {
            (Device::Cpu, Err(Error::KernelUnsupported { reason, .. })) => {
                assert!(reason.contains("line 2"), "{reason}")
            }
            (Device::Cuda(_), Ok(y)) => assert_eq!(y.to_vec::<f32>().unwrap(), vec![3.0; 4]),
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
/// (n, 1) columns with an (n, m) output), outputs are never broadcast, and a CUDA-only body (the
/// Monte Carlo kernel's local array of `uint64_t`) is named as outside the CPU subset.
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
                Err(Error::KernelUnsupported { reason, .. }) => assert!(reason.contains("local arrays"), "{reason}"),
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
