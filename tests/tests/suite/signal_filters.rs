//! xp::signal's filters, resamplers, spectral and peak tools against SciPy
//! (tests/data/signal_filters.json, made by scripts/gen_signal_filters_reference.py), on every device and in
//! every layout of their inputs: `oaconvolve` (several blocks, broadcast axes, `axes`, modes,
//! dtypes, errors); `lfilter` with and without `zi` (broadcast too), FIR and IIR, along each
//! axis, and `lfilter_zi`; `sosfilt`/`sosfilt_zi`; `filtfilt` with every padtype and padlen;
//! `resample` (the Nyquist rules, real and complex, windows); `resample_poly` (ratios,
//! windows, padtypes); `upfirdn`; `stft` with every option; `find_peaks` with each condition and its properties;
//! `detrend` with breakpoints; `wiener`. Failing calls must fail with a typed error and leave
//! their inputs unchanged.
use super::common::{self, split_cases};
use super::signal::mode;
use serde_json::Value;
use xp::signal::{
    detrend_bp, filtfilt, find_peaks, lfilter, lfilter_zi, oaconvolve, resample, resample_poly, sosfilt, sosfilt_zi,
    stft, upfirdn, wiener, Detrend, Mode, PadType, PeakConditions, PolyPad, Range, StftParams, StftScaling, Window,
};
use xp::{Array, Device, Result};
use xp_testing::Failures;

fn window(p: &Value) -> Window {
    match p["window"].as_str().unwrap() {
        "hann" => Window::Hann,
        "hamming" => Window::Hamming,
        "boxcar" => Window::Boxcar,
        "kaiser" => Window::Kaiser { beta: p["beta"].as_f64().unwrap() },
        w => panic!("unknown window {w}"),
    }
}

fn usize_of(v: &Value) -> Option<usize> {
    v.as_u64().map(|v| v as usize)
}

/// A SciPy condition: a number (the minimum) or `[min, max]` with nulls.
fn range(v: &Value) -> Option<Range> {
    match v {
        Value::Null => None,
        Value::Array(a) => Some(Range { min: a[0].as_f64(), max: a[1].as_f64() }),
        v => Some(Range::at_least(v.as_f64().unwrap())),
    }
}

fn peaks(x: &Array, p: &Value) -> Result<Vec<Array>> {
    let c = PeakConditions {
        height: range(&p["height"]),
        threshold: range(&p["threshold"]),
        distance: p["distance"].as_f64(),
        prominence: range(&p["prominence"]),
        width: range(&p["width"]),
        wlen: usize_of(&p["wlen"]),
        rel_height: p["rel_height"].as_f64().unwrap_or(0.5),
        plateau_size: range(&p["plateau_size"]),
    };
    let r = find_peaks(x, &c)?;
    // the generator's order: the peaks, then the properties present in SciPy's PROPS order
    let props = [
        r.plateau_sizes,
        r.left_edges,
        r.right_edges,
        r.peak_heights,
        r.left_thresholds,
        r.right_thresholds,
        r.prominences,
        r.left_bases,
        r.right_bases,
        r.widths,
        r.width_heights,
        r.left_ips,
        r.right_ips,
    ];
    Ok(std::iter::once(r.peaks).chain(props.into_iter().flatten()).collect())
}

fn stft_params(p: &Value) -> StftParams {
    StftParams {
        fs: p["fs"].as_f64().unwrap(),
        window: window(p),
        nperseg: usize_of(&p["nperseg"]),
        noverlap: usize_of(&p["noverlap"]),
        nfft: usize_of(&p["nfft"]),
        detrend: match p["detrend"].as_str() {
            Some("linear") => Some(Detrend::Linear),
            Some(_) => Some(Detrend::Constant),
            None => None,
        },
        return_onesided: p["return_onesided"].as_bool().unwrap(),
        boundary: p["boundary"].is_string(),
        padded: p["padded"].as_bool().unwrap(),
        scaling: if p["scaling"] == "psd" { StftScaling::Psd } else { StftScaling::Spectrum },
    }
}

fn run(op: &str, p: &Value, x: &[Array]) -> Result<Vec<Array>> {
    let axis = p["axis"].as_i64().unwrap_or(-1) as isize;
    let filtered = |r: xp::signal::Filtered| std::iter::once(r.y).chain(r.zf).collect();
    Ok(match op {
        "oaconvolve" => {
            let axes: Option<Vec<isize>> =
                p["axes"].as_array().map(|a| a.iter().map(|v| v.as_i64().unwrap() as isize).collect());
            vec![oaconvolve(&x[0], &x[1], mode(p), axes.as_deref())?]
        }
        "lfilter" => filtered(lfilter(&x[0], &x[1], &x[2], xp::signal::Iir { axis, zi: x.get(3) })?),
        "lfilter_zi" => vec![lfilter_zi(&x[0], &x[1])?],
        "sosfilt" => filtered(sosfilt(&x[0], &x[1], xp::signal::Iir { axis, zi: x.get(2) })?),
        "sosfilt_zi" => vec![sosfilt_zi(&x[0])?],
        "filtfilt" => {
            let padtype = match p["padtype"].as_str() {
                Some("odd") => Some(PadType::Odd),
                Some("even") => Some(PadType::Even),
                Some(_) => Some(PadType::Constant),
                None => None,
            };
            vec![filtfilt(&x[0], &x[1], &x[2], xp::signal::Filtfilt { axis, padtype, padlen: usize_of(&p["padlen"]) })?]
        }
        "resample" => {
            let w = if p["window"].is_string() { Some(window(p)) } else { None };
            vec![resample(&x[0], usize_of(&p["num"]).unwrap(), axis, w)?]
        }
        "resample_poly" => {
            let pad = match p["padtype"].as_str().unwrap() {
                "mean" => PolyPad::Mean,
                "median" => PolyPad::Median,
                "minimum" => PolyPad::Minimum,
                "maximum" => PolyPad::Maximum,
                _ => PolyPad::Zeros,
            };
            let (up, down) = (usize_of(&p["up"]).unwrap(), usize_of(&p["down"]).unwrap());
            vec![resample_poly(&x[0], up, down, xp::signal::ResamplePoly { axis, window: window(p), padtype: pad })?]
        }
        "upfirdn" => {
            let (up, down) = (usize_of(&p["up"]).unwrap(), usize_of(&p["down"]).unwrap());
            vec![upfirdn(&x[0], &x[1], xp::signal::Upfirdn { up, down, axis })?]
        }
        "stft" => {
            let (f, t, z) = stft(&x[0], axis, &stft_params(p))?;
            vec![f, t, z]
        }
        "find_peaks" => peaks(&x[0], p)?,
        "detrend_bp" => {
            let bp: Vec<usize> = p["bp"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap() as usize).collect();
            vec![detrend_bp(&x[0], axis, &bp)?]
        }
        "wiener" => {
            let size: Option<Vec<usize>> = match &p["mysize"] {
                Value::Null => None,
                Value::Array(a) => Some(a.iter().map(|v| v.as_u64().unwrap() as usize).collect()),
                v => Some(vec![v.as_u64().unwrap() as usize]),
            };
            vec![wiener(&x[0], size.as_deref(), p["noise"].as_f64())?]
        }
        _ => panic!("unknown op {op}"),
    })
}

fn reference(f: &mut Failures, dev: Device, case: &Value) {
    let p = &case["params"];
    let (want, inputs) = common::tolerant_case(case);
    let op = case["op"].as_str().unwrap();
    let what = format!("{op} {p}");
    common::check_layouts(f, dev, &inputs, &want, &what, true, |x| run(op, p, x));
}

split_cases!(reference, "signal_filters");

/// The failures SciPy reports are typed: dtypes SciPy refuses are `InvalidDType`, bad
/// coefficients, states and lengths `InvalidArgument`; the inputs are left as they were.
#[test]
fn filter_errors_are_typed() {
    use xp::Error;
    for dev in xp_testing::devices() {
        let on = xp::on(dev);
        let f = |v: Vec<f64>| on.asarray(v.clone(), [v.len()]).unwrap();
        let x = f(vec![1.0, 2.0, 3.0, 4.0, 5.0]);
        let before = x.to_vec::<f64>().unwrap();
        let ints = x.astype(xp::DType::I64).unwrap();
        let (b, a) = (f(vec![1.0, 2.0]), f(vec![1.0, 0.5]));
        let cases: Vec<(&str, Result<Array>, bool)> = vec![
            ("int lfilter", lfilter(&ints.clone(), &ints.clone(), &ints, Default::default()).map(|r| r.y), true),
            ("a0 = 0", lfilter(&b, &f(vec![0.0, 1.0]), &x, Default::default()).map(|r| r.y), false),
            ("empty b", lfilter(&f(vec![]), &a, &x, Default::default()).map(|r| r.y), false),
            (
                "zi shape",
                lfilter(&b, &a, &x, xp::signal::Iir { axis: -1, zi: Some(&f(vec![0.0, 0.0])) }).map(|r| r.y),
                false,
            ),
            ("axis", lfilter(&b, &a, &x, xp::signal::Iir::axis(1)).map(|r| r.y), false),
            (
                "sos shape",
                sosfilt(&on.zeros([1, 5], xp::DType::F64).unwrap(), &x, Default::default()).map(|r| r.y),
                false,
            ),
            (
                "padlen",
                filtfilt(&b, &a, &x, xp::signal::Filtfilt { axis: -1, padtype: Some(PadType::Odd), padlen: Some(5) }),
                false,
            ),
            ("pole at 1", lfilter_zi(&b, &f(vec![1.0, -1.0])), false),
            ("resample 0", resample(&x, 0, -1, None), false),
            (
                "up 0",
                resample_poly(
                    &x,
                    0,
                    1,
                    xp::signal::ResamplePoly { axis: -1, window: Window::Hann, padtype: PolyPad::Zeros },
                ),
                false,
            ),
            (
                "2-D peaks",
                find_peaks(&on.zeros([2, 2], xp::DType::F64).unwrap(), &Default::default()).map(|r| r.peaks),
                false,
            ),
            ("bp", detrend_bp(&x, -1, &[9]), false),
            ("wiener size", wiener(&x, Some(&[3, 3]), None), false),
        ];
        for (what, r, dtype) in cases {
            match r {
                Err(Error::InvalidDType { .. }) if dtype => {}
                Err(Error::InvalidArgument { .. } | Error::AxisOutOfRange { .. }) if !dtype => {}
                r => panic!("{what} on {dev}: {r:?}"),
            }
        }
        assert_eq!(x.to_vec::<f64>().unwrap(), before, "inputs untouched on {dev}");
    }
}

/// `oaconvolve` and `fftconvolve` agree where overlap-add cuts the signal into many blocks.
#[test]
fn oaconvolve_matches_fftconvolve() {
    for dev in xp_testing::devices() {
        let on = xp::on(dev);
        let a = on.asarray((0..500).map(|i| ((i * 37 % 101) as f64).sin()).collect::<Vec<_>>(), [500]).unwrap();
        let k = on.asarray((0..11).map(|i| i as f64 - 5.0).collect::<Vec<_>>(), [11]).unwrap();
        for m in [Mode::Full, Mode::Same, Mode::Valid] {
            let o = oaconvolve(&a, &k, m, None).unwrap().to_vec::<f64>().unwrap();
            let f = xp::signal::fftconvolve(&a, &k, m).unwrap().to_vec::<f64>().unwrap();
            assert_eq!(o.len(), f.len());
            assert!(o.iter().zip(&f).all(|(x, y)| (x - y).abs() < 1e-10), "{m:?} on {dev}");
        }
    }
}
