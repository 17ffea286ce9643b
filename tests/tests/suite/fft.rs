//! numpy.fft against NumPy (tests/data/fft.json, made by scripts/gen_fft_reference.py): every case
//! on every device, each input in every layout variant (contiguous, F-ordered, stepped,
//! negative-step, offset), dtypes, odd, even and prime lengths, every norm, `n`/`s` that cut and
//! pad, any axes (repeated and negative), empty axes, and NumPy's errors. Plus round trips to a
//! stated bound and the plan cache's hits.
use super::common::{self, split_cases};
use serde_json::Value;
use xp::fft::{self, FftNorm};
use xp::{Array, DType, Device, Result};
use xp_testing::{devices, Failures, Tolerance};

fn norm(p: &Value) -> FftNorm {
    match p["norm"].as_str() {
        Some("ortho") => FftNorm::Ortho,
        Some("forward") => FftNorm::Forward,
        _ => FftNorm::Backward,
    }
}

fn list<T>(v: &Value, f: impl Fn(&Value) -> T) -> Option<Vec<T>> {
    v.as_array().map(|a| a.iter().map(f).collect())
}

/// Run case `op` on inputs `x` (none for the frequency helpers).
fn run(op: &str, x: &[Array], p: &Value, dev: Device) -> Result<Array> {
    let n = p["n"].as_u64().map(|v| v as usize);
    let axis = p["axis"].as_i64().unwrap_or(-1) as isize;
    let s = list(&p["s"], |v| v.as_u64().unwrap() as usize);
    let axes = list(&p["axes"], |v| v.as_i64().unwrap() as isize);
    let (s, axes) = (s.as_deref(), axes.as_deref());
    let d = p["d"].as_f64().unwrap_or(1.0);
    match op {
        "fft" => fft::fft(&x[0], n, axis, norm(p)),
        "ifft" => fft::ifft(&x[0], n, axis, norm(p)),
        "rfft" => fft::rfft(&x[0], n, axis, norm(p)),
        "irfft" => fft::irfft(&x[0], n, axis, norm(p)),
        "hfft" => fft::hfft(&x[0], n, axis, norm(p)),
        "ihfft" => fft::ihfft(&x[0], n, axis, norm(p)),
        "fftn" => fft::fftn(&x[0], s, axes, norm(p)),
        "ifftn" => fft::ifftn(&x[0], s, axes, norm(p)),
        "rfftn" => fft::rfftn(&x[0], s, axes, norm(p)),
        "irfftn" => fft::irfftn(&x[0], s, axes, norm(p)),
        "fft2" => fft::fft2(&x[0], s, axes, norm(p)),
        "ifft2" => fft::ifft2(&x[0], s, axes, norm(p)),
        "rfft2" => fft::rfft2(&x[0], s, axes, norm(p)),
        "irfft2" => fft::irfft2(&x[0], s, axes, norm(p)),
        "fftshift" => fft::fftshift(&x[0], axes),
        "ifftshift" => fft::ifftshift(&x[0], axes),
        "fftfreq" => fft::fftfreq(p["n"].as_u64().unwrap() as usize, d, dev),
        "rfftfreq" => fft::rfftfreq(p["n"].as_u64().unwrap() as usize, d, dev),
        _ => panic!("unknown op {op}"),
    }
}

fn reference(f: &mut Failures, dev: Device, case: &Value) {
    let op = case["op"].as_str().unwrap();
    let p = &case["params"];
    let t = &case["tol"];
    let tol = Tolerance { rtol: t[0].as_f64().unwrap(), atol: t[1].as_f64().unwrap() };
    let want = common::expected(case).map(|e| vec![e.with_tol(tol)]);
    let inputs: Vec<_> = case["args"].as_array().unwrap().iter().map(common::array).collect();
    let what = format!("{op} {p}");
    if inputs.is_empty() {
        let got = run(op, &[], p, dev);
        f.add(xp_testing::check(&got, &want.map(|mut w| w.remove(0)), &format!("{what} on {dev}")));
        return;
    }
    common::check_layouts(f, dev, &inputs, &want, &what, true, |x| run(op, x, p, dev).map(|r| vec![r]));
}

split_cases!(reference, "fft");

/// `ifft(fft(x)) ≈ x` and `irfftn(rfftn(x), s) ≈ x` for lengths with large prime factors (which
/// go through Rader's and Bluestein's algorithms), in both precisions: within 16 eps of the
/// precision times log2(n) times max |x|.
#[test]
fn round_trips_are_within_a_stated_bound() {
    let mut f = Failures::default();
    for dev in devices() {
        for (n, seed) in [(1usize, 1u64), (2, 2), (127, 3), (1000, 4), (1009, 5), (4096, 6), (2 * 3 * 5 * 7 * 11, 7)] {
            let v: Vec<f64> = common::xorshift(n, seed).map(|w| (w >> 11) as f64 / (1u64 << 53) as f64 - 0.5).collect();
            for d in [DType::F32, DType::F64] {
                let x = xp::on(dev).asarray(v.clone(), [n]).unwrap().astype(d).unwrap();
                let eps = if d == DType::F32 { 1.2e-7 } else { 2.3e-16 };
                let bound = 16.0 * eps * ((n as f64).log2() + 1.0);
                let c =
                    fft::ifft(&fft::fft(&x, None, 0, FftNorm::Backward).unwrap(), None, 0, FftNorm::Backward).unwrap();
                let r =
                    fft::irfft(&fft::rfft(&x, None, 0, FftNorm::Ortho).unwrap(), Some(n), 0, FftNorm::Ortho).unwrap();
                for (name, y) in [("ifft(fft)", c.real().unwrap()), ("irfft(rfft)", r)] {
                    let err = y.astype(DType::F64).unwrap().sub(&x.astype(DType::F64).unwrap()).unwrap().abs().unwrap();
                    let err = err.max(..).unwrap().item::<f64>().unwrap();
                    if err > bound {
                        f.add(Err(format!("{name} of {n} {d} on {dev}: max error {err:e} > {bound:e}")));
                    }
                }
            }
        }
    }
    f.finish();
}

/// Repeated transforms of one length, kind and precision hit the device's plan cache. The cache
/// is shared with every test running beside this one, which may evict the plan between two calls
/// (16 other new plans in between): a pair of calls is tried again until no other miss came
/// between them, and then the second must have hit.
#[test]
fn the_plan_cache_hits_on_repeated_calls() {
    for dev in devices() {
        // a length no other test uses, so that parallel tests do not make it a hit first
        let x = xp::on(dev).ones([4, 9973], DType::C64).unwrap();
        let before = fft::plan_cache(dev).unwrap();
        fft::fft(&x, None, -1, FftNorm::Backward).unwrap();
        let after_one = fft::plan_cache(dev).unwrap();
        assert!(after_one.misses > before.misses, "first call on {dev} made a plan: {before:?} -> {after_one:?}");
        let mut pair = None;
        for _ in 0..50 {
            let first = fft::plan_cache(dev).unwrap();
            fft::fft(&x, None, -1, FftNorm::Backward).unwrap();
            let second = fft::plan_cache(dev).unwrap();
            if second.misses == first.misses {
                pair = Some((first, second));
                break;
            }
        }
        let (first, second) = pair.unwrap_or_else(|| panic!("no call on {dev} ran without another miss beside it"));
        assert!(second.hits > first.hits, "second call on {dev} hit: {first:?} -> {second:?}");
        assert!(second.size >= 1 && second.size <= second.capacity, "{second:?}");
    }
}

/// Bad input gives typed errors that say what was wrong, and leaves the input as it was.
#[test]
fn bad_input_gives_typed_errors() {
    for dev in devices() {
        let x = xp::on(dev).ones([3, 4], DType::F64).unwrap();
        let c = x.astype(DType::C128).unwrap();
        let e = fft::fft(&x, Some(0), -1, FftNorm::Backward).unwrap_err();
        assert!(e.to_string().contains("invalid number of FFT data points (0)"), "{e}");
        assert!(matches!(fft::fft(&x, None, 2, FftNorm::Backward), Err(xp::Error::AxisOutOfRange { op: "fft", .. })));
        assert!(matches!(fft::rfft(&c, None, -1, FftNorm::Backward), Err(xp::Error::InvalidDType { op: "rfft", .. })));
        let e = fft::fftn(&x, Some(&[3]), Some(&[0, 1]), FftNorm::Backward).unwrap_err();
        assert!(e.to_string().contains("1 lengths given for 2 axes"), "{e}");
        assert!(fft::fftn(&x, Some(&[1, 2, 3]), None, FftNorm::Backward).is_err());
        assert_eq!(x.to_vec::<f64>().unwrap(), vec![1.0; 12], "inputs untouched on {dev}");
    }
}

/// The inverse real transforms leave their input as it was (cuFFT's C2R overwrites its input,
/// so the GPU transforms a copy), in C order and as a transposed view.
#[test]
fn inverse_real_transforms_leave_their_input_untouched() {
    for dev in devices() {
        let v: Vec<f64> = (0..72).map(|i| (i as f64 * 0.37).sin()).collect();
        let x = Array::from_vec(v, [6, 12]).unwrap().to_device(dev).unwrap();
        let c = fft::rfftn(&x, None, None, FftNorm::Backward).unwrap();
        for input in [c.clone(), c.t().unwrap()] {
            let before = input.to_vec::<xp::Complex64>().unwrap();
            let back = fft::irfftn(&input, None, None, FftNorm::Backward).unwrap();
            fft::irfft(&input, None, -1, FftNorm::Ortho).unwrap();
            fft::hfft(&input, None, 0, FftNorm::Forward).unwrap();
            assert_eq!(input.to_vec::<xp::Complex64>().unwrap(), before, "input changed on {dev}");
            if input.shape() == c.shape() {
                assert!(
                    xp::allclose_with(&back, &x, xp::Tolerance { rtol: 1e-12, atol: 1e-12, ..Default::default() })
                        .unwrap(),
                    "irfftn(rfftn(x)) != x on {dev}"
                );
            }
        }
    }
}
