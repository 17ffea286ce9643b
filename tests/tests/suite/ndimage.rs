//! xp::ndimage (and SciPy's `medfilt`/`medfilt2d`) against SciPy (tests/data/ndimage.json, made
//! by scripts/gen_ndimage_reference.py), on every device and in every layout of the inputs:
//! `correlate1d`/`convolve1d`/`correlate`/`convolve` with every mode and a nonzero `cval`, odd and
//! even weights, extreme origins; Gaussian (orders 0-3, per-axis sigma, truncate, radius) and
//! uniform filters; minimum/maximum/median/rank/percentile filters by size and footprint (float, int, uint8,
//! bool); `sobel`, `prewitt`, `laplace`, `gaussian_laplace`; `zoom` (both grids), `shift`,
//! `rotate` and `map_coordinates` at orders 0, 1 and 3 (and 2, 4, 5) in every mode; the spline
//! filters; complex input (parts apart) and bool input; 1-D to 3-D inputs with length-1 and empty axes; SciPy's errors. Then typed errors
//! that leave the input unchanged.
use super::common::{self, split_cases};
use serde_json::Value;
use xp::ndimage::{
    self as nd, Filter, Filter1d, Gaussian, Gaussian1d, Interpolation, Mode, Reshape, Rotate, Spline, Window, ZoomGrid,
};
use xp::{Array, Device, Result};
use xp_testing::Failures;

fn mode(p: &Value) -> Mode {
    let c = p["cval"].as_f64().unwrap_or(0.0);
    match p["mode"].as_str().unwrap() {
        "reflect" => Mode::Reflect,
        "constant" => Mode::Constant(c),
        "nearest" => Mode::Nearest,
        "mirror" => Mode::Mirror,
        "wrap" => Mode::Wrap,
        "grid-constant" => Mode::GridConstant(c),
        "grid-mirror" => Mode::GridMirror,
        "grid-wrap" => Mode::GridWrap,
        m => panic!("unknown mode {m}"),
    }
}

fn f64s(v: &Value) -> Vec<f64> {
    match v.as_array() {
        Some(a) => a.iter().map(|x| x.as_f64().unwrap()).collect(),
        None => vec![v.as_f64().unwrap()],
    }
}

fn ints(v: &Value) -> Vec<isize> {
    match v.as_array() {
        Some(a) => a.iter().map(|x| x.as_i64().unwrap() as isize).collect(),
        None => vec![v.as_i64().unwrap() as isize],
    }
}

fn sizes(v: &Value) -> Vec<usize> {
    ints(v).into_iter().map(|x| x as usize).collect()
}

fn interp(p: &Value) -> Interpolation {
    Interpolation {
        order: p["order"].as_u64().unwrap() as usize,
        mode: mode(p),
        prefilter: p["prefilter"].as_bool().unwrap_or(true),
    }
}

fn run(op: &str, p: &Value, x: &[Array]) -> Result<Array> {
    let axis = || p["axis"].as_i64().unwrap() as isize;
    let origin1 = || p["origin"].as_i64().unwrap() as isize;
    match op {
        "correlate1d" => {
            nd::correlate1d(&x[0], &f64s(&p["weights"]), Filter1d { axis: axis(), mode: mode(p), origin: origin1() })
        }
        "convolve1d" => {
            nd::convolve1d(&x[0], &f64s(&p["weights"]), Filter1d { axis: axis(), mode: mode(p), origin: origin1() })
        }
        "correlate" => nd::correlate(&x[0], &x[1], Filter { mode: mode(p), origin: &ints(&p["origin"]) }),
        "convolve" => nd::convolve(&x[0], &x[1], Filter { mode: mode(p), origin: &ints(&p["origin"]) }),
        "gaussian_filter1d" => nd::gaussian_filter1d(
            &x[0],
            p["sigma"].as_f64().unwrap(),
            Gaussian1d {
                axis: axis(),
                order: p["order"].as_u64().unwrap() as usize,
                mode: mode(p),
                truncate: p["truncate"].as_f64().unwrap(),
                radius: p["radius"].as_u64().map(|r| r as usize),
            },
        ),
        "gaussian_filter" => {
            let radius = p["radius"].as_u64().map(|r| vec![r as usize]);
            nd::gaussian_filter(
                &x[0],
                &f64s(&p["sigma"]),
                Gaussian {
                    order: &sizes(&p["order"]),
                    mode: mode(p),
                    truncate: p["truncate"].as_f64().unwrap(),
                    radius: radius.as_deref(),
                },
            )
        }
        "uniform_filter1d" => nd::uniform_filter1d(
            &x[0],
            p["size"].as_u64().unwrap() as usize,
            Filter1d { axis: axis(), mode: mode(p), origin: origin1() },
        ),
        "uniform_filter" => {
            nd::uniform_filter(&x[0], &sizes(&p["size"]), Filter { mode: mode(p), origin: &ints(&p["origin"]) })
        }
        "minimum_filter1d" => nd::minimum_filter1d(
            &x[0],
            p["size"].as_u64().unwrap() as usize,
            Filter1d { axis: axis(), mode: mode(p), origin: origin1() },
        ),
        "maximum_filter1d" => nd::maximum_filter1d(
            &x[0],
            p["size"].as_u64().unwrap() as usize,
            Filter1d { axis: axis(), mode: mode(p), origin: origin1() },
        ),
        "minimum_filter" | "maximum_filter" | "median_filter" | "rank_filter" | "percentile_filter" => {
            let s = p.get("size").map(sizes).unwrap_or_default();
            let w = if x.len() > 1 { Window::Footprint(&x[1]) } else { Window::Size(&s) };
            let o = ints(&p["origin"]);
            match op {
                "minimum_filter" => nd::minimum_filter(&x[0], w, Filter { mode: mode(p), origin: &o }),
                "maximum_filter" => nd::maximum_filter(&x[0], w, Filter { mode: mode(p), origin: &o }),
                "median_filter" => nd::median_filter(&x[0], w, Filter { mode: mode(p), origin: &o }),
                "percentile_filter" => nd::percentile_filter(
                    &x[0],
                    p["percentile"].as_f64().unwrap(),
                    w,
                    Filter { mode: mode(p), origin: &o },
                ),
                _ => nd::rank_filter(
                    &x[0],
                    p["rank"].as_i64().unwrap() as isize,
                    w,
                    Filter { mode: mode(p), origin: &o },
                ),
            }
        }
        "medfilt" => xp::signal::medfilt(&x[0], &sizes(&p["kernel_size"])),
        "medfilt2d" => xp::signal::medfilt2d(&x[0], &sizes(&p["kernel_size"])),
        "sobel" => nd::sobel(&x[0], axis(), mode(p)),
        "prewitt" => nd::prewitt(&x[0], axis(), mode(p)),
        "laplace" => nd::laplace(&x[0], mode(p)),
        "gaussian_laplace" => nd::gaussian_laplace(
            &x[0],
            &f64s(&p["sigma"]),
            Gaussian { mode: mode(p), truncate: p["truncate"].as_f64().unwrap(), ..Default::default() },
        ),
        "zoom" => {
            let grid = if p["grid_mode"].as_bool().unwrap() { ZoomGrid::Pixels } else { ZoomGrid::Samples };
            nd::zoom(&x[0], &f64s(&p["zoom"]), interp(p), grid)
        }
        "shift" => nd::shift(&x[0], &f64s(&p["shift"]), interp(p)),
        "rotate" => {
            let a = ints(&p["axes"]);
            let reshape = if p["reshape"].as_bool().unwrap() { Reshape::Fit } else { Reshape::Keep };
            nd::rotate(&x[0], p["angle"].as_f64().unwrap(), Rotate { axes: [a[0], a[1]], reshape }, interp(p))
        }
        "map_coordinates" => nd::map_coordinates(&x[0], &x[1], interp(p)),
        "spline_filter1d" => {
            nd::spline_filter1d(&x[0], axis(), Spline { order: p["order"].as_u64().unwrap() as usize, mode: mode(p) })
        }
        "spline_filter" => {
            nd::spline_filter(&x[0], Spline { order: p["order"].as_u64().unwrap() as usize, mode: mode(p) })
        }
        _ => panic!("unknown op {op}"),
    }
}

fn reference(f: &mut Failures, dev: Device, case: &Value) {
    let op = case["op"].as_str().unwrap();
    let p = &case["params"];
    let tol = common::case_tolerance(case);
    let want = common::expected_all(case).map(|v| v.into_iter().map(|e| e.with_tol(tol)).collect());
    let inputs: Vec<_> = case["args"].as_array().unwrap().iter().map(common::array).collect();
    let what = format!("{op} {p}");
    common::check_layouts(f, dev, &inputs, &want, &what, true, |x| run(op, p, x).map(|r| vec![r]));
}

split_cases!(reference, "ndimage");

fn input(dev: Device) -> Array {
    xp::on(dev).asarray((0..20).map(|v| v as f64 * 0.5).collect::<Vec<_>>(), [4, 5]).unwrap()
}

/// Each call's user error is a typed `InvalidArgument`/`InvalidDType`/`DeviceMismatch`, and the
/// input is unchanged afterwards.
#[test]
fn user_errors_are_typed_and_leave_the_input_unchanged() {
    for dev in xp_testing::devices() {
        let x = input(dev);
        let before = x.to_vec::<f64>().unwrap();
        let m = Mode::Reflect;
        let fp = xp::on(dev).zeros([3, 3], xp::DType::Bool).unwrap();
        let fp3 = xp::on(dev).ones([3], xp::DType::Bool).unwrap();
        let w3 = xp::on(dev).ones([3], xp::DType::F64).unwrap();
        let coords = xp::on(dev).zeros([3, 2], xp::DType::F64).unwrap();
        let c = xp::on(dev).asarray(vec![1.0f64; 4], [2, 2]).unwrap().astype(xp::DType::C128).unwrap();
        let it = Interpolation::default();
        let calls: Vec<(&str, Result<Array>)> = vec![
            (
                "sigma < 0",
                nd::gaussian_filter(&x, &[-1.0], Gaussian { order: &[0], mode: m, truncate: 4.0, radius: None }),
            ),
            (
                "sigma per axis of the wrong length",
                nd::gaussian_filter(
                    &x,
                    &[1.0, 1.0, 1.0],
                    Gaussian { order: &[0], mode: m, truncate: 4.0, radius: None },
                ),
            ),
            (
                "order 4",
                nd::gaussian_filter1d(&x, 1.0, Gaussian1d { axis: 0, order: 4, mode: m, truncate: 4.0, radius: None }),
            ),
            (
                "negative truncate",
                nd::gaussian_filter1d(&x, 1.0, Gaussian1d { axis: 0, order: 0, mode: m, truncate: -2.0, radius: None }),
            ),
            ("origin too large", nd::correlate1d(&x, &[1.0, 2.0, 3.0], Filter1d { axis: 0, mode: m, origin: 2 })),
            ("origin too small", nd::uniform_filter1d(&x, 4, Filter1d { axis: 0, mode: m, origin: -3 })),
            ("origin per axis", nd::uniform_filter(&x, &[3], Filter { mode: m, origin: &[0, 0, 0] })),
            ("empty weights", nd::correlate1d(&x, &[], Filter1d { axis: 0, mode: m, origin: 0 })),
            ("axis out of range", nd::sobel(&x, 2, m)),
            ("size 0", nd::minimum_filter1d(&x, 0, Filter1d { axis: 0, mode: m, origin: 0 })),
            ("weights of another rank", nd::correlate(&x, &w3, Filter { mode: m, origin: &[0] })),
            ("all-zero footprint", nd::median_filter(&x, Window::Footprint(&fp), Filter { mode: m, origin: &[0] })),
            (
                "footprint of another rank",
                nd::maximum_filter(&x, Window::Footprint(&fp3), Filter { mode: m, origin: &[0] }),
            ),
            ("rank outside the window", nd::rank_filter(&x, 9, Window::Size(&[3]), Filter { mode: m, origin: &[0] })),
            (
                "percentile above 100",
                nd::percentile_filter(&x, 120.0, Window::Size(&[3]), Filter { mode: m, origin: &[0] }),
            ),
            ("complex input", nd::median_filter(&c, Window::Size(&[3]), Filter { mode: m, origin: &[0] })),
            (
                "float16 input",
                nd::uniform_filter(&x.astype(xp::DType::F16).unwrap(), &[3], Filter { mode: m, origin: &[0] }),
            ),
            ("spline order 6", nd::shift(&x, &[1.0], Interpolation { order: 6, ..it })),
            ("spline_filter order 1", nd::spline_filter(&x, Spline { order: 1, mode: Mode::Mirror })),
            ("coordinates of the wrong rank", nd::map_coordinates(&x, &coords, it)),
            ("zoom of the wrong length", nd::zoom(&x, &[1.0, 2.0, 3.0], it, ZoomGrid::Samples)),
            ("rotation in one axis", nd::rotate(&x, 10.0, Rotate { axes: [0, 0], reshape: Reshape::Fit }, it)),
            ("even medfilt kernel", xp::signal::medfilt(&x, &[2])),
            ("medfilt2d of 1-D", xp::signal::medfilt2d(&x.ravel().unwrap(), &[3])),
        ];
        for (what, r) in calls {
            match r {
                Err(
                    xp::Error::InvalidArgument { .. }
                    | xp::Error::InvalidDType { .. }
                    | xp::Error::AxisOutOfRange { .. },
                ) => {}
                r => panic!("{what} on {dev}: expected a typed error, got {r:?}"),
            }
        }
        assert_eq!(x.to_vec::<f64>().unwrap(), before, "a failed call changed its input on {dev}");
    }
}

/// Operands on two devices are refused with `DeviceMismatch` (only where a GPU is present).
#[test]
fn mixed_devices_are_refused() {
    let devs = xp_testing::devices();
    let Some(&gpu) = devs.iter().find(|d| **d != Device::Cpu) else { return };
    let x = input(Device::Cpu);
    let w = xp::on(gpu).ones([3, 3], xp::DType::F64).unwrap();
    let fp = xp::on(gpu).ones([3, 3], xp::DType::Bool).unwrap();
    let coords = xp::on(gpu).zeros([2, 3], xp::DType::F64).unwrap();
    for r in [
        nd::correlate(&x, &w, Filter { mode: Mode::Reflect, origin: &[0] }),
        nd::median_filter(&x, Window::Footprint(&fp), Filter { mode: Mode::Reflect, origin: &[0] }),
        nd::map_coordinates(&x, &coords, Interpolation::default()),
    ] {
        assert!(matches!(r, Err(xp::Error::DeviceMismatch { .. })), "{r:?}");
    }
}
