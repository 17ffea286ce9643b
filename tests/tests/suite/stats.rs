//! Statistics against NumPy (tests/data/stats.json, made by scripts/gen_stats_reference.py):
//! every case on every device, the first input in every layout (contiguous, transposed,
//! stepped, reversed, offset), dtype, shape and values compared with the case's tolerance,
//! typed errors where NumPy raises, and the inputs unchanged afterwards.
use super::common;
use serde_json::Value;
use xp::{Array, Bins, Cov, Device, Histogram, QuantileMethod, Result, Spacing};
use xp_testing::{layouts, Failures, Tolerance};

fn method(v: &Value) -> QuantileMethod {
    use QuantileMethod::*;
    match v.as_str().unwrap_or("linear") {
        "inverted_cdf" => InvertedCdf,
        "averaged_inverted_cdf" => AveragedInvertedCdf,
        "closest_observation" => ClosestObservation,
        "interpolated_inverted_cdf" => InterpolatedInvertedCdf,
        "hazen" => Hazen,
        "weibull" => Weibull,
        "linear" => Linear,
        "median_unbiased" => MedianUnbiased,
        "normal_unbiased" => NormalUnbiased,
        "lower" => Lower,
        "higher" => Higher,
        "midpoint" => Midpoint,
        "nearest" => Nearest,
        m => panic!("unknown method {m}"),
    }
}

fn axes(v: &Value) -> Option<Vec<isize>> {
    match v {
        Value::Null => None,
        Value::Array(a) => Some(a.iter().map(|x| x.as_i64().unwrap() as isize).collect()),
        n => Some(vec![n.as_i64().unwrap() as isize]),
    }
}

fn pair(v: &Value) -> (f64, f64) {
    (v[0].as_f64().unwrap(), v[1].as_f64().unwrap())
}

/// Run case `op` on inputs `x`; every output in NumPy's order.
fn run(op: &str, x: &[Array], p: &Value) -> Result<Vec<Array>> {
    let one = |r: Result<Array>| r.map(|v| vec![v]);
    let q = |x: &Array| -> Result<Array> {
        let m = method(&p["method"]);
        let (ax, name) = (axes(&p["axis"]), op);
        match (&p["q"], name) {
            (Value::Array(v), _) => {
                let qs: Vec<f64> = v.iter().map(|x| x.as_f64().unwrap()).collect();
                match name {
                    "quantile" => xp::quantile(x, &qs[..], ax, m),
                    "percentile" => xp::percentile(x, &qs[..], ax, m),
                    "nanquantile" => xp::nanquantile(x, &qs[..], ax, m),
                    _ => xp::nanpercentile(x, &qs[..], ax, m),
                }
            }
            (v, _) => {
                let qv = v.as_f64().unwrap();
                match name {
                    "quantile" => xp::quantile(x, qv, ax, m),
                    "percentile" => xp::percentile(x, qv, ax, m),
                    "nanquantile" => xp::nanquantile(x, qv, ax, m),
                    _ => xp::nanpercentile(x, qv, ax, m),
                }
            }
        }
    };
    fn bins<'a>(v: &Value, e: Option<&'a Array>) -> Bins<'a> {
        match (v, e) {
            (Value::String(_), Some(e)) => Bins::Edges(e),
            (v, _) => Bins::Count(v.as_u64().unwrap() as usize),
        }
    }
    match op {
        "quantile" | "percentile" | "nanquantile" | "nanpercentile" => one(q(&x[0])),
        "median" => one(xp::median(&x[0], axes(&p["axis"]))),
        "nanmedian" => one(xp::nanmedian(&x[0], axes(&p["axis"]))),
        "average" if p["returned"] == true => {
            xp::average_returned(&x[0], axes(&p["axis"]), x.get(1)).map(|(a, b)| vec![a, b])
        }
        "average" => one(xp::average(&x[0], axes(&p["axis"]), x.get(1))),
        "cov" => {
            let opts = Cov {
                rowvar: p["rowvar"] != false,
                ddof: p["ddof"].as_u64().map(|d| d as usize),
                fweights: x.get(1),
                aweights: x.get(2),
                ..Cov::default()
            };
            one(xp::cov(&x[0], None, opts))
        }
        "cov_xy" => one(xp::cov(&x[0], Some(&x[1]), Cov::default())),
        "corrcoef" => one(xp::corrcoef(&x[0], None, xp::Corrcoef { rowvar: p["rowvar"] != false })),
        "histogram" => {
            let e = (p["bins"] == "edges").then(|| &x[1]);
            let opts = Histogram {
                range: (!p["range"].is_null()).then(|| pair(&p["range"])),
                weights: if p["weights"] == true { x.get(1) } else { None },
                density: p["density"] == true,
            };
            xp::histogram(&x[0], bins(&p["bins"], e), opts).map(|(h, e)| vec![h, e])
        }
        "histogram2d" => {
            let b = &p["bins"];
            let r = (!p["range"].is_null()).then(|| [pair(&p["range"][0]), pair(&p["range"][1])]);
            let bb = [bins(&b[0], None), bins(&b[1], None)];
            xp::histogram2d(&x[0], &x[1], bb, r, None, p["density"] == true).map(|(h, a, b)| vec![h, a, b])
        }
        "histogramdd" => {
            let bb: Vec<Bins> = p["bins"].as_array().unwrap().iter().map(|v| bins(v, None)).collect();
            xp::histogramdd(&x[0], &bb, None, None, false).map(|(h, e)| [vec![h], e].concat())
        }
        "bincount" => one(xp::bincount(&x[0], x.get(1), p["minlength"].as_u64().unwrap() as usize)),
        "digitize" => one(xp::digitize(&x[0], &x[1], p["right"] == true)),
        "diff" => one(xp::diff(&x[0], p["n"].as_u64().unwrap() as usize, p["axis"].as_i64().unwrap() as isize)),
        "diff_pa" => one(xp::diff_with(&x[0], 1, 1, Some(&x[1]), Some(&x[2]))),
        "ediff1d" if p["plain"] == true => one(xp::ediff1d(&x[0], None, None)),
        "ediff1d" => {
            let (b, e) = (Array::from_vec(vec![9i64], [1])?, Array::from_vec(vec![7i64, 8], [2])?);
            let dev = x[0].device();
            one(xp::ediff1d(&x[0], Some(&e.to_device(dev)?), Some(&b.to_device(dev)?)))
        }
        "gradient" => {
            let dx = p["dx"].as_f64().unwrap_or(1.0);
            xp::gradient(&x[0], &[Spacing::Step(dx)], axes(&p["axis"]), p["edge_order"].as_u64().unwrap() as usize)
        }
        "gradient_x" => {
            xp::gradient(&x[0], &[Spacing::Coords(&x[1])], axes(&p["axis"]), p["edge_order"].as_u64().unwrap() as usize)
        }
        "trapezoid" => one(xp::trapezoid(&x[0], None, p["dx"].as_f64().unwrap(), p["axis"].as_i64().unwrap() as isize)),
        "trapezoid_x" => one(xp::trapezoid(&x[0], Some(&x[1]), 1.0, p["axis"].as_i64().unwrap() as isize)),
        "interp" => one(xp::interp(&x[0], &x[1], &x[2], p["left"].as_f64(), p["right"].as_f64())),
        "nancumsum" => one(x[0].nancumsum(axes(&p["axis"]))),
        "nancumprod" => one(x[0].nancumprod(axes(&p["axis"]))),
        _ => panic!("unknown op {op}"),
    }
}

fn check_case(f: &mut Failures, dev: Device, case: &Value) {
    let op = case["op"].as_str().unwrap();
    let p = &case["params"];
    let tol = Tolerance { rtol: case["tol"][0].as_f64().unwrap(), atol: case["tol"][1].as_f64().unwrap() };
    let inputs: Vec<_> = case["args"].as_array().unwrap().iter().map(common::array).collect();
    let want = common::expected_all(case);
    let (buf0, shape0) = &inputs[0];
    for (layout, first) in layouts(buf0, shape0, dev).unwrap() {
        let mut x = vec![first.clone()];
        for (b, s) in &inputs[1..] {
            x.push(Array::from_buffer(b.clone(), s, dev).unwrap());
        }
        let ctx = format!("{op} {p} on {dev} ({layout}, {})", buf0.dtype());
        let got = run(op, &x, p);
        match (&got, &want) {
            (Ok(g), Ok(w)) => {
                if g.len() != w.len() {
                    f.add(Err(format!("{ctx}: {} results, NumPy has {}", g.len(), w.len())));
                    continue;
                }
                for (k, (a, e)) in g.iter().zip(w).enumerate() {
                    let e = e.clone().with_tol(tol);
                    f.add(xp_testing::compare(a, &e).map_err(|m| format!("{ctx}: result {k}: {m}")));
                }
            }
            (Err(_), Err(_)) => {}
            (Ok(_), Err(e)) => f.add(Err(format!("{ctx}: NumPy raises ({e}), xp returned values"))),
            (Err(e), Ok(_)) => f.add(Err(format!("{ctx}: xp failed: {e}"))),
        }
        // The inputs are untouched.
        let bits = |b: &xp::HostBuffer| -> Vec<(u64, u64)> {
            xp_testing::widen(b).iter().map(|c| (c.re.to_bits(), c.im.to_bits())).collect()
        };
        let same = bits(&first.to_buffer().unwrap()) == bits(buf0);
        f.add(if same { Ok(()) } else { Err(format!("{ctx}: the input changed")) });
    }
}

common::split_cases!(check_case, "stats");

/// The exact median of `v` by a host sort (NaN: any NaN, or none left when skipping them).
fn host_median(v: &[f64], skip_nan: bool, round: fn(f64) -> f64) -> f64 {
    let mut s: Vec<f64> = v.iter().copied().filter(|x| !x.is_nan()).collect();
    if s.is_empty() || (!skip_nan && s.len() < v.len()) {
        return f64::NAN;
    }
    s.sort_by(f64::total_cmp);
    let m = s.len();
    if m % 2 == 1 {
        s[m / 2]
    } else {
        round(s[m / 2 - 1] + s[m / 2]) / 2.0
    }
}

/// Medians of whole large arrays take the radix-selection path: against a host sort, for float32
/// and float64, odd and even counts, ties, signed zeros and infinities, NaNs (median and
/// nanmedian), contiguous and stepped, on every device.
#[test]
fn median_of_large_arrays_selects_as_a_sort_would() {
    let mut f = Failures::default();
    for dev in xp_testing::devices() {
        for (n, kind) in [(40_001usize, "spread"), (40_000, "ties"), (65_536, "nan"), (50_000, "signs")] {
            let raw: Vec<u64> = common::xorshift(n, n as u64).collect();
            let v: Vec<f64> = raw
                .iter()
                .enumerate()
                .map(|(i, &w)| {
                    let u = (w >> 11) as f64 / (1u64 << 53) as f64;
                    match kind {
                        "spread" => (u - 0.3) * 1e6,
                        "ties" => (u * 7.0).floor() - 3.0,
                        "nan" if i % 1000 == 7 => f64::NAN,
                        "signs" if i % 3 == 0 => [0.0, -0.0, f64::INFINITY, f64::NEG_INFINITY][i % 4],
                        _ => u - 0.5,
                    }
                })
                .collect();
            for dtype in [xp::DType::F32, xp::DType::F64] {
                let round: fn(f64) -> f64 = if dtype == xp::DType::F32 { |x| x as f32 as f64 } else { |x| x };
                let vr: Vec<f64> = v.iter().map(|&x| round(x)).collect();
                let base = Array::from_buffer(xp::HostBuffer::F64(vr.clone()), [n], dev)
                    .and_then(|a| a.astype(dtype))
                    .unwrap();
                // A stepped view of the same values (every other element of a doubled buffer).
                let doubled: Vec<f64> = vr.iter().flat_map(|&x| [x, 0.25]).collect();
                let stepped = Array::from_buffer(xp::HostBuffer::F64(doubled), [2 * n], dev)
                    .and_then(|a| a.astype(dtype))
                    .and_then(|a| a.slice([xp::SliceElem::Slice { start: None, stop: None, step: 2 }]))
                    .unwrap();
                for (layout, a) in [("contiguous", &base), ("stepped", &stepped)] {
                    for skip in [false, true] {
                        let got = if skip { xp::nanmedian(a, ..) } else { xp::median(a, ..) };
                        let got = got.and_then(|g| g.astype(xp::DType::F64)).and_then(|g| g.item::<f64>());
                        let want = host_median(&vr, skip, round);
                        let ok = matches!(got, Ok(g) if g == want || (g.is_nan() && want.is_nan()));
                        f.add(if ok {
                            Ok(())
                        } else {
                            Err(format!(
                                "median {kind} n={n} {dtype:?} {layout} skip_nan={skip} on {dev}: {got:?}, want {want}"
                            ))
                        });
                    }
                }
            }
        }
    }
    f.finish();
}
