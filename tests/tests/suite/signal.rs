//! xp::signal against SciPy and NumPy (tests/data/signal.json, made by
//! scripts/gen_signal_reference.py), on every device: every window at lengths 0, 1, even and
//! odd, symmetric and periodic, across its parameter's range, and NumPy's window functions;
//! `fftconvolve` in 1-D to 3-D, every mode, dtypes and layouts, and SciPy's errors; NumPy's
//! `convolve`/`correlate` with exact integers, conjugation, both operand orders and its errors;
//! `detrend` along each axis; SciPy's `convolve`/`correlate` (direct and fft, 1-D to 3-D) and
//! `convolve2d`/`correlate2d` with every boundary; `periodogram` and `welch`.
use super::common::{self, split_cases};
use serde_json::Value;
use xp::signal::{
    convolve, convolve2d, correlate, correlate2d, detrend, fftconvolve, get_window, periodogram, welch, Boundary,
    Detrend, Method, Mode, Scaling, Window,
};
use xp::{Array, Device, Result};
use xp_testing::{Failures, Tolerance};

fn window(p: &Value) -> Window {
    let f = |k: &str| p[k].as_f64().unwrap();
    match p["window"].as_str().unwrap() {
        "boxcar" => Window::Boxcar,
        "hann" => Window::Hann,
        "hamming" => Window::Hamming,
        "blackman" => Window::Blackman,
        "bartlett" => Window::Bartlett,
        "kaiser" => Window::Kaiser { beta: f("beta") },
        "gaussian" => Window::Gaussian { std: f("std") },
        "tukey" => Window::Tukey { alpha: f("alpha") },
        w => panic!("unknown window {w}"),
    }
}

fn run(op: &str, p: &Value, dev: Device) -> Result<Array> {
    let m = p["m"].as_u64().unwrap() as usize;
    let on = xp::on(dev);
    match op {
        // SciPy's `sym` is get_window's `not fftbins`
        "window" => get_window(window(p), m, !p["sym"].as_bool().unwrap(), dev),
        "hanning" => on.hanning(m),
        "hamming" => on.hamming(m),
        "blackman" => on.blackman(m),
        "bartlett" => on.bartlett(m),
        "kaiser" => on.kaiser(m, p["beta"].as_f64().unwrap()),
        _ => panic!("unknown op {op}"),
    }
}

pub(super) fn mode(p: &Value) -> Mode {
    match p["mode"].as_str().unwrap() {
        "same" => Mode::Same,
        "valid" => Mode::Valid,
        _ => Mode::Full,
    }
}

fn method(p: &Value) -> Method {
    if p["method"] == "fft" {
        Method::Fft
    } else {
        Method::Direct
    }
}

fn boundary(p: &Value) -> Boundary {
    match p["boundary"].as_str().unwrap() {
        "wrap" => Boundary::Wrap,
        "symm" => Boundary::Symm,
        _ => Boundary::Fill(xp::Scalar::Int(p["fillvalue"].as_i64().unwrap())),
    }
}

/// Convolutions: every layout variant of both operands.
fn convolution(f: &mut Failures, dev: Device, case: &Value) {
    let p = &case["params"];
    let (want, inputs) = common::tolerant_case(case);
    let op = case["op"].as_str().unwrap();
    if op == "periodogram" || op == "welch" {
        let win = match p["window"].as_str().unwrap() {
            "hann" => Window::Hann,
            "hamming" => Window::Hamming,
            "kaiser" => Window::Kaiser { beta: p["beta"].as_f64().unwrap() },
            _ => Window::Boxcar,
        };
        let det = match p["detrend"].as_str() {
            Some("linear") => Some(Detrend::Linear),
            Some(_) => Some(Detrend::Constant),
            None => None,
        };
        let scaling = if p["scaling"] == "spectrum" { Scaling::Spectrum } else { Scaling::Density };
        let nfft = p["nfft"].as_u64().map(|v| v as usize);
        let axis = p["axis"].as_i64().unwrap() as isize;
        let what = format!("{op} {p}");
        let fs = p["fs"].as_f64().unwrap();
        let opt = |k: &str| p[k].as_u64().map(|v| v as usize);
        return common::check_layouts(f, dev, &inputs, &want, &what, true, |x| {
            let r = if op == "welch" {
                welch(
                    &x[0],
                    xp::signal::Welch {
                        fs,
                        window: win,
                        nperseg: opt("nperseg"),
                        noverlap: opt("noverlap"),
                        nfft,
                        detrend: det,
                        scaling,
                        axis,
                    },
                )
            } else {
                periodogram(&x[0], xp::signal::Periodogram { fs, window: win, nfft, detrend: det, scaling, axis })
            };
            r.map(|(a, b)| vec![a, b])
        });
    }
    let what = format!("{op} {p}");
    let run = |x: &[Array]| match op {
        "convolve" => xp::convolve(&x[0], &x[1], mode(p)),
        "correlate" => xp::correlate(&x[0], &x[1], mode(p)),
        "sconvolve" => convolve(&x[0], &x[1], mode(p), method(p)),
        "scorrelate" => correlate(&x[0], &x[1], mode(p), method(p)),
        "convolve2d" => convolve2d(
            &x[0],
            &x[1],
            xp::signal::Conv2d { mode: mode(p), boundary: boundary(p), method: Method::Direct },
        ),
        "correlate2d" => correlate2d(
            &x[0],
            &x[1],
            xp::signal::Conv2d { mode: mode(p), boundary: boundary(p), method: Method::Direct },
        ),
        "detrend" => {
            let kind = if p["type"] == "constant" { Detrend::Constant } else { Detrend::Linear };
            detrend(&x[0], p["axis"].as_i64().unwrap() as isize, kind)
        }
        _ => fftconvolve(&x[0], &x[1], mode(p)),
    };
    common::check_layouts(f, dev, &inputs, &want, &what, true, |x| run(x).map(|r| vec![r]));
    // xp's FFT method of the 2-D convolutions (SciPy computes them directly only), float
    // operands, to the FFT's accuracy: its error scales with the largest value, not each one's
    let float = inputs.iter().all(|(a, _)| a.dtype().is_float() || a.dtype().is_complex());
    if float && (op == "convolve2d" || op == "correlate2d") && want.is_ok() {
        let single = inputs.iter().all(|(a, _)| matches!(a.dtype(), xp::DType::F32 | xp::DType::C64 | xp::DType::F16));
        let eps = if single { 1e-5 } else { 1e-11 };
        let l1 = |(b, s): &(xp::HostBuffer, Vec<usize>)| {
            let a = Array::from_buffer(b.clone(), s, Device::Cpu).unwrap();
            a.abs().unwrap().astype(xp::DType::F64).unwrap().sum(..).unwrap().to_vec::<f64>().unwrap()[0]
        };
        let scale: f64 = inputs.iter().map(l1).product();
        let tol = Tolerance { rtol: 0.0, atol: eps * scale.max(1.0) };
        let want = common::expected_all(case).map(|v| v.into_iter().map(|e| e.with_tol(tol)).collect());
        let what = format!("{what} by FFT");
        common::check_layouts(f, dev, &inputs, &want, &what, true, |x| {
            let r = if op == "convolve2d" {
                convolve2d(
                    &x[0],
                    &x[1],
                    xp::signal::Conv2d { mode: mode(p), boundary: boundary(p), method: Method::Fft },
                )
            } else {
                correlate2d(
                    &x[0],
                    &x[1],
                    xp::signal::Conv2d { mode: mode(p), boundary: boundary(p), method: Method::Fft },
                )
            };
            r.map(|r| vec![r])
        });
    }
}

fn reference(f: &mut Failures, dev: Device, case: &Value) {
    let op = case["op"].as_str().unwrap();
    let p = &case["params"];
    if case["args"].as_array().is_some_and(|a| !a.is_empty()) {
        return convolution(f, dev, case);
    }
    // a few ulps of the cosines and of the Bessel series
    let want = common::expected(case).map(|e| e.with_tol(Tolerance { rtol: 1e-13, atol: 1e-14 }));
    f.add(xp_testing::check(&run(op, p, dev), &want, &format!("{op} {p} on {dev}")));
}

split_cases!(reference, "signal");

/// Parameters that make no window are typed errors naming the window.
#[test]
fn bad_window_parameters_are_typed_errors() {
    for dev in xp_testing::devices() {
        for w in [Window::Gaussian { std: 0.0 }, Window::Kaiser { beta: f64::NAN }, Window::Tukey { alpha: f64::NAN }] {
            match get_window(w, 8, true, dev) {
                Err(xp::Error::InvalidArgument { .. }) => {}
                r => panic!("{w:?} on {dev}: {r:?}"),
            }
        }
    }
}

/// The float kernels of the direct method (the CPU's row passes, the GPU's shared-memory tiles)
/// against the exact integer path on the CPU on integer-valued data, where every float sum is
/// exact too: several tiles each way, a batch of images, a non-contiguous input, a long 1-D
/// signal and a kernel whose tile needs more than 48 KiB of shared memory.
#[test]
fn direct_float_kernels_match_exact_integers() {
    let ints = |shape: &[usize], seed: u64| {
        let n: usize = shape.iter().product();
        let v: Vec<i64> = (0..n as u64).map(|i| ((i * 2654435761 + seed * 97) % 7) as i64 - 3).collect();
        Array::from_vec(v, shape).unwrap()
    };
    let cases: [(&[usize], &[usize], bool); 5] = [
        (&[70, 100], &[31, 31], false),
        (&[3, 40, 45], &[1, 5, 7], false),
        (&[45, 70], &[4, 9], true),
        (&[5000], &[101], false),
        (&[100, 120], &[61, 61], false),
    ];
    for (i, &(s1, s2, transposed)) in cases.iter().enumerate() {
        let (a, k) = (ints(s1, i as u64), ints(s2, 11 + i as u64));
        // the exact path makes one pass per weight: the large kernels take one mode
        let modes: &[Mode] = if k.size() > 500 { &[Mode::Same] } else { &[Mode::Full, Mode::Same, Mode::Valid] };
        for &mode in modes {
            let want = convolve(&a, &k, mode, Method::Direct).unwrap().to_vec::<i64>().unwrap();
            let want2d = (s1.len() == 2).then(|| {
                convolve2d(&a, &k, xp::signal::Conv2d { mode, boundary: Boundary::Wrap, method: Method::Direct })
                    .unwrap()
                    .to_vec::<i64>()
                    .unwrap()
            });
            for dev in xp_testing::devices() {
                let a = a.to_device(dev).unwrap();
                let a = if transposed { a.t().unwrap().copy().unwrap().t().unwrap() } else { a };
                for d in [xp::DType::F64, xp::DType::F32] {
                    let (af, kf) = (a.astype(d).unwrap(), k.to_device(dev).unwrap().astype(d).unwrap());
                    let got = convolve(&af, &kf, mode, Method::Direct).unwrap();
                    let got = got.astype(xp::DType::I64).unwrap().to_vec::<i64>().unwrap();
                    assert_eq!(got, want, "{s1:?} * {s2:?} {mode:?} {d} on {dev}");
                    if let Some(w) = &want2d {
                        let g = convolve2d(
                            &af,
                            &kf,
                            xp::signal::Conv2d { mode, boundary: Boundary::Wrap, method: Method::Direct },
                        )
                        .unwrap();
                        assert_eq!(
                            &g.astype(xp::DType::I64).unwrap().to_vec::<i64>().unwrap(),
                            w,
                            "{mode:?} {d} on {dev}"
                        );
                    }
                }
            }
        }
    }
}

/// The rank kernels (the CPU's per-window select, the GPU's register selection) against a
/// brute-force median of each zero-padded window on the host: windows of 9, 25 and 63 values,
/// several tiles each way, ties, infinities and NaN (ordered last, as `total_cmp` orders it).
#[test]
fn median_kernels_match_a_brute_force_median() {
    let (h, w) = (45usize, 70usize);
    let mut v: Vec<f64> = (0..h * w).map(|i| ((i as u64 * 2654435761) % 13) as f64 - 6.0).collect();
    v[7] = f64::INFINITY;
    v[300] = f64::NEG_INFINITY;
    v[1000] = f64::NAN;
    v[2000] = -f64::NAN; // a NaN with its sign bit set sorts last too, as NumPy's sort puts it
    for (kh, kw) in [(3usize, 3usize), (5, 5), (7, 9)] {
        let mut want = vec![0.0; h * w];
        for r in 0..h {
            for c in 0..w {
                let mut win: Vec<f64> = Vec::new();
                for p in 0..kh {
                    for q in 0..kw {
                        let (y, x) =
                            (r as isize + p as isize - (kh / 2) as isize, c as isize + q as isize - (kw / 2) as isize);
                        let inside = y >= 0 && x >= 0 && (y as usize) < h && (x as usize) < w;
                        win.push(if inside { v[y as usize * w + x as usize] } else { 0.0 });
                    }
                }
                // NaN last whatever its sign
                win.sort_by(|a, b| a.is_nan().cmp(&b.is_nan()).then(a.total_cmp(b)));
                want[r * w + c] = win[win.len() / 2];
            }
        }
        for dev in xp_testing::devices() {
            for d in [xp::DType::F64, xp::DType::F32] {
                let a = Array::from_vec(v.clone(), [h, w]).unwrap().astype(d).unwrap().to_device(dev).unwrap();
                let got = xp::signal::medfilt2d(&a, &[kh, kw])
                    .unwrap()
                    .astype(xp::DType::F64)
                    .unwrap()
                    .to_vec::<f64>()
                    .unwrap();
                for (i, (g, e)) in got.iter().zip(&want).enumerate() {
                    assert!(g == e || (g.is_nan() && e.is_nan()), "{kh}x{kw} {d} on {dev} at {i}: {g} != {e}");
                }
            }
        }
    }
}

/// SciPy's `convolve(method="fft")` gives the operands' result type back, integers rounded:
/// the same values as the exact direct sum.
#[test]
fn fft_method_gives_integers_back_rounded() {
    for dev in xp_testing::devices() {
        let a = Array::from_vec((0..40i32).map(|i| (i * 7) % 11 - 5).collect(), [40]).unwrap().to_device(dev).unwrap();
        let k = Array::from_vec(vec![3i32, -1, 2, 5, -4], [5]).unwrap().to_device(dev).unwrap();
        for mode in [Mode::Full, Mode::Same, Mode::Valid] {
            let f = convolve(&a, &k, mode, Method::Fft).unwrap();
            assert_eq!(f.dtype(), xp::DType::I32);
            let d = convolve(&a, &k, mode, Method::Direct).unwrap();
            assert_eq!(f.to_vec::<i32>().unwrap(), d.to_vec::<i32>().unwrap(), "{mode:?} on {dev}");
            // xp's FFT method of the 2-D convolutions keeps the result type too
            let (a2, k2) = (a.reshape([5, 8]).unwrap(), k.reshape([1, 5]).unwrap());
            for boundary in [Boundary::Wrap, Boundary::Symm, Boundary::default()] {
                let f = convolve2d(&a2, &k2, xp::signal::Conv2d { mode, boundary, method: Method::Fft }).unwrap();
                let d = convolve2d(&a2, &k2, xp::signal::Conv2d { mode, boundary, method: Method::Direct }).unwrap();
                assert_eq!(f.dtype(), xp::DType::I32);
                assert_eq!(f.to_vec::<i32>().unwrap(), d.to_vec::<i32>().unwrap(), "{mode:?} {boundary:?} on {dev}");
            }
        }
    }
}

/// A kernel larger than the image in `same` and `full` mode, with every boundary (SciPy's
/// values, from `scipy.signal.convolve2d`/`correlate2d` with `fillvalue=1.5`), by both methods.
#[test]
fn kernels_larger_than_the_image_match_scipy() {
    let cases: Vec<(&str, &str, &str, Vec<f64>)> = vec![
        ("convolve2d", "fill", "same", vec![31.75, 34.75, 37.75, 46.75, 49.75, 52.75]),
        ("correlate2d", "fill", "same", vec![79.25, 76.25, 73.25, 64.25, 61.25, 58.25]),
        (
            "convolve2d",
            "fill",
            "full",
            vec![
                57.0, 57.75, 55.25, 54.5, 53.75, 52.25, 52.0, 48.75, 41.5, 31.75, 34.75, 37.75, 44.5, 49.75, 48.75,
                46.5, 46.75, 49.75, 52.75, 59.5, 59.75, 48.75, 51.5, 61.75, 64.75, 67.75, 74.5, 69.75, 59.25, 71.25,
                89.0, 92.75, 96.5, 89.75, 75.25,
            ],
        ),
        (
            "correlate2d",
            "fill",
            "full",
            vec![
                42.75, 40.25, 44.5, 45.25, 46.0, 52.75, 54.75, 56.25, 70.5, 94.25, 91.25, 88.25, 81.5, 69.25, 56.25,
                65.5, 79.25, 76.25, 73.25, 66.5, 59.25, 56.25, 60.5, 64.25, 61.25, 58.25, 51.5, 49.25, 51.0, 47.75,
                42.25, 38.5, 34.75, 36.25, 42.0,
            ],
        ),
        ("convolve2d", "wrap", "same", vec![55.0, 54.0, 41.0, 130.0, 129.0, 116.0]),
        ("correlate2d", "wrap", "same", vec![59.0, 46.0, 45.0, 134.0, 121.0, 120.0]),
        (
            "convolve2d",
            "wrap",
            "full",
            vec![
                129.0, 116.0, 130.0, 129.0, 116.0, 130.0, 129.0, 54.0, 41.0, 55.0, 54.0, 41.0, 55.0, 54.0, 129.0,
                116.0, 130.0, 129.0, 116.0, 130.0, 129.0, 54.0, 41.0, 55.0, 54.0, 41.0, 55.0, 54.0, 129.0, 116.0,
                130.0, 129.0, 116.0, 130.0, 129.0,
            ],
        ),
        (
            "correlate2d",
            "wrap",
            "full",
            vec![
                46.0, 45.0, 59.0, 46.0, 45.0, 59.0, 46.0, 121.0, 120.0, 134.0, 121.0, 120.0, 134.0, 121.0, 46.0, 45.0,
                59.0, 46.0, 45.0, 59.0, 46.0, 121.0, 120.0, 134.0, 121.0, 120.0, 134.0, 121.0, 46.0, 45.0, 59.0, 46.0,
                45.0, 59.0, 46.0,
            ],
        ),
        ("convolve2d", "symm", "same", vec![74.5, 75.5, 88.5, -0.5, 0.5, 13.5]),
        ("correlate2d", "symm", "same", vec![161.5, 174.5, 175.5, 86.5, 99.5, 100.5]),
        (
            "convolve2d",
            "symm",
            "full",
            vec![
                174.5, 161.5, 149.5, 150.5, 163.5, 175.5, 174.5, 99.5, 86.5, 74.5, 75.5, 88.5, 100.5, 99.5, 24.5, 11.5,
                -0.5, 0.5, 13.5, 25.5, 24.5, 99.5, 86.5, 74.5, 75.5, 88.5, 100.5, 99.5, 174.5, 161.5, 149.5, 150.5,
                163.5, 175.5, 174.5,
            ],
        ),
        (
            "correlate2d",
            "symm",
            "full",
            vec![
                0.5, -0.5, 11.5, 24.5, 25.5, 13.5, 0.5, 75.5, 74.5, 86.5, 99.5, 100.5, 88.5, 75.5, 150.5, 149.5, 161.5,
                174.5, 175.5, 163.5, 150.5, 75.5, 74.5, 86.5, 99.5, 100.5, 88.5, 75.5, 0.5, -0.5, 11.5, 24.5, 25.5,
                13.5, 0.5,
            ],
        ),
    ];
    for dev in xp_testing::devices() {
        let a = Array::from_vec((0..6).map(|i| i as f64).collect(), [2, 3]).unwrap().to_device(dev).unwrap();
        let k =
            Array::from_vec((0..20).map(|i| i as f64 * 0.5 - 3.0).collect(), [4, 5]).unwrap().to_device(dev).unwrap();
        for (op, b, m, want) in &cases {
            let boundary = match *b {
                "wrap" => Boundary::Wrap,
                "symm" => Boundary::Symm,
                _ => Boundary::Fill(xp::Scalar::Float(1.5)),
            };
            let mode = if *m == "same" { Mode::Same } else { Mode::Full };
            for method in [Method::Direct, Method::Fft] {
                let r = if *op == "convolve2d" {
                    convolve2d(&a, &k, xp::signal::Conv2d { mode, boundary, method })
                } else {
                    correlate2d(&a, &k, xp::signal::Conv2d { mode, boundary, method })
                };
                let got = r.unwrap().to_vec::<f64>().unwrap();
                let ok = got.len() == want.len()
                    && got.iter().zip(want).all(|(g, w)| (g - w).abs() < 1e-9 * (1.0 + w.abs()));
                assert!(ok, "{op} {b} {m} {method:?} on {dev}: {got:?} != {want:?}");
            }
        }
    }
}

/// Inputs taller than a GPU grid's 65535 blocks high: the tiled kernels loop over the tile rows
/// they are not given blocks for. Integer-valued data, so every device's float sums are exact and
/// equal the CPU's; the median against the CPU's selection.
#[test]
fn tall_inputs_are_filtered_whole() {
    let n = 600_001usize;
    let col: Vec<f32> = (0..n).map(|i| ((i * 37) % 11) as f32 - 5.0).collect();
    let x = Array::from_vec(col, [n, 1]).unwrap();
    let k = Array::from_vec(vec![1.0f32, -2.0, 3.0], [3, 1]).unwrap();
    let want_c = convolve(&x, &k, Mode::Same, Method::Direct).unwrap().to_vec::<f32>().unwrap();
    let want_m = xp::signal::medfilt2d(&x, &[3, 1]).unwrap().to_vec::<f32>().unwrap();
    // the CPU's own answers at a few places, by hand
    // (a convolution: out[1] = k[0] x[2] + k[1] x[1] + k[2] x[0])
    assert_eq!(want_c[1], 1.0 * ((74 % 11) as f32 - 5.0) - 2.0 * ((37 % 11) as f32 - 5.0) + 3.0 * -5.0);
    for dev in xp_testing::devices() {
        let (xd, kd) = (x.to_device(dev).unwrap(), k.to_device(dev).unwrap());
        let c = convolve(&xd, &kd, Mode::Same, Method::Direct).unwrap().to_vec::<f32>().unwrap();
        assert!(c == want_c, "convolve of a tall column on {dev}");
        let m = xp::signal::medfilt2d(&xd, &[3, 1]).unwrap().to_vec::<f32>().unwrap();
        assert!(m == want_m, "medfilt2d of a tall column on {dev}");
    }
}

/// `fftconvolve` broadcasts axes where either operand has length 1, as SciPy does: they take no
/// part in `valid`'s size check and keep their broadcast length (SciPy's values).
#[test]
fn fftconvolve_broadcasts_length_one_axes() {
    for dev in xp_testing::devices() {
        let a = Array::from_vec((0..5).map(|i| i as f64).collect(), [1, 5]).unwrap().to_device(dev).unwrap();
        let k = Array::from_vec(vec![1.0, 2.0, 3.0, -1.0, 0.5, 2.0], [3, 2]).unwrap().to_device(dev).unwrap();
        let valid = [1.0, 4.0, 7.0, 10.0, 3.0, 5.0, 7.0, 9.0, 0.5, 3.0, 5.5, 8.0];
        for (x, y, mode, want) in [
            (&a, &k, Mode::Valid, &valid[..]),
            (&k, &a, Mode::Valid, &valid[..]),
            (&a, &k, Mode::Same, &[0.0, 3.0, 5.0, 7.0, 9.0][..]),
        ] {
            let r = fftconvolve(x, y, mode).unwrap();
            let got = r.to_vec::<f64>().unwrap();
            assert!(
                got.len() == want.len() && got.iter().zip(want).all(|(g, w)| (g - w).abs() < 1e-12),
                "{mode:?} on {dev}: {got:?}"
            );
        }
    }
}

/// A long 1-D correlation (the GPU folds it into overlapping rows for its tiled kernel) equals a
/// float64 host sum at sampled positions, every mode, both float dtypes, on every device; the
/// median filter (folded the same way) equals the CPU's exactly.
#[test]
fn long_one_dimensional_correlations_are_folded_correctly() {
    let n = 70_001;
    let xs: Vec<f64> = (0..n).map(|i| ((i as f64) * 0.37).sin() + 0.1 * ((i * 7 % 13) as f64)).collect();
    let ks: Vec<f64> = (0..33).map(|i| 1.0 / (1.0 + i as f64)).collect();
    let x = Array::from_vec(xs.clone(), [n]).unwrap();
    let k = Array::from_vec(ks.clone(), [ks.len()]).unwrap();
    for dev in xp_testing::devices() {
        for dt in [xp::DType::F32, xp::DType::F64] {
            let (xd, kd) =
                (x.astype(dt).unwrap().to_device(dev).unwrap(), k.astype(dt).unwrap().to_device(dev).unwrap());
            for (mode, start) in
                [(xp::signal::Mode::Valid, 32usize), (xp::signal::Mode::Same, 16), (xp::signal::Mode::Full, 0)]
            {
                let got =
                    xp::correlate(&xd, &kd, mode).unwrap().astype(xp::DType::F64).unwrap().to_vec::<f64>().unwrap();
                // full-mode position p pairs x[p - 32 + j] with k[j]
                let want = |p: usize| -> f64 {
                    (0..ks.len())
                        .filter_map(|j| (p + j).checked_sub(32).filter(|&i| i < n).map(|i| xs[i] * ks[j]))
                        .sum()
                };
                let tol = if dt == xp::DType::F32 { 1e-4 } else { 1e-12 };
                // the median filter of the same signal: a selection, so every device gives the
                // CPU's values exactly
                if mode == xp::signal::Mode::Same {
                    let med = xp::signal::medfilt(&xd, &[7]).unwrap().to_device(xp::Device::Cpu).unwrap();
                    let cpu = xp::signal::medfilt(&xd.to_device(xp::Device::Cpu).unwrap(), &[7]).unwrap();
                    let host = |a: &Array| a.astype(xp::DType::F64).unwrap().to_vec::<f64>().unwrap();
                    assert!(host(&med) == host(&cpu), "medfilt {dt} on {dev}");
                }
                for i in (0..got.len()).step_by(997).chain([got.len() - 1]) {
                    let w = want(i + start);
                    assert!(
                        (got[i] - w).abs() <= tol * (1.0 + w.abs()),
                        "{mode:?} {dt} on {dev} at {i}: {} vs {w}",
                        got[i]
                    );
                }
            }
        }
    }
}
