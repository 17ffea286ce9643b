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
                welch(&x[0], fs, win, opt("nperseg"), opt("noverlap"), nfft, det, scaling, axis)
            } else {
                periodogram(&x[0], fs, win, nfft, det, scaling, axis)
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
        "convolve2d" => convolve2d(&x[0], &x[1], mode(p), boundary(p)),
        "correlate2d" => correlate2d(&x[0], &x[1], mode(p), boundary(p)),
        "detrend" => {
            let kind = if p["type"] == "constant" { Detrend::Constant } else { Detrend::Linear };
            detrend(&x[0], p["axis"].as_i64().unwrap() as isize, kind)
        }
        _ => fftconvolve(&x[0], &x[1], mode(p)),
    };
    common::check_layouts(f, dev, &inputs, &want, &what, true, |x| run(x).map(|r| vec![r]));
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
