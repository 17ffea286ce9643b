//! The rest of `ndimage` that issue 27 asks for, against SciPy (`tests/data/ndimage_transforms.json`, made
//! by `scripts/gen_ndimage_transforms_reference.py`), in every layout, on every device:
//! - `distance_transform_edt`: 1-D to 3-D, sampling, bool/float64/int32 inputs, equidistant
//!   features (SciPy's choice among them), lines without background, no background at all, all
//!   background, 0-d and empty inputs, and SciPy's errors;
//! - `affine_transform`: orders 0–5 in every mode, int32 (rounding), float32 3-D, complex, every
//!   form of the matrix (diagonal, linear, with offset column, homogeneous, another output rank),
//!   output shapes, no prefilter, and SciPy's errors;
//! - `generic_filter` in its three forms (reduction kernel, elementwise kernel of the taps, Rust
//!   function) over boxes, footprints and origins in five modes, float64/int32/float32, 2-D and
//!   3-D, an all-false footprint, and errors.
use crate::common::{self, split_cases};
use serde_json::Value;
use xp::kernel::{ElementwiseKernel, ReductionKernel};
use xp::ndimage::{self as nd, Filter, FilterFunction, Interpolation, Mode, Window};
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

fn usizes(v: &Value) -> Option<Vec<usize>> {
    v.as_array().map(|a| a.iter().map(|x| x.as_u64().unwrap() as usize).collect())
}

fn array_on(v: &Value, dev: Device) -> Option<Array> {
    (!v.is_null()).then(|| {
        let (b, s) = common::array(v);
        Array::from_buffer(b, &s, dev).unwrap()
    })
}

fn edt(case: &Value, x: &[Array]) -> Result<Vec<Array>> {
    let sampling: Option<Vec<f64>> =
        case["sampling"].as_array().map(|a| a.iter().map(|v| v.as_f64().unwrap()).collect());
    let (d, i) = (case["distances"].as_bool().unwrap(), case["indices"].as_bool().unwrap());
    let r = nd::distance_transform_edt(&x[0], sampling.as_deref(), d, i)?;
    Ok(r.distances.into_iter().chain(r.indices).collect())
}

fn affine(case: &Value, dev: Device, x: &[Array]) -> Result<Array> {
    let matrix = array_on(&case["matrix"], dev).unwrap();
    let offset: Vec<f64> =
        case["offset"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().parse().unwrap()).collect();
    let shape = usizes(&case["output_shape"]);
    let it = Interpolation {
        order: case["order"].as_u64().unwrap() as usize,
        mode: mode(case),
        prefilter: case["prefilter"].as_bool().unwrap(),
    };
    nd::affine_transform(&x[0], &matrix, &offset, shape.as_deref(), it)
}

/// The Rust forms of the generator's Python functions.
fn host(name: &str) -> fn(&[f64]) -> f64 {
    match name {
        "sumsq" => |v| v.iter().map(|a| a * a).sum(),
        "weighted" => |v| v.iter().enumerate().map(|(j, a)| (j + 1) as f64 * a).sum(),
        "ptp" => |v| v.iter().cloned().fold(f64::MIN, f64::max) - v.iter().cloned().fold(f64::MAX, f64::min),
        "median" => |v| {
            let mut s = v.to_vec();
            s.sort_by(f64::total_cmp);
            let n = s.len();
            if n % 2 == 1 {
                s[n / 2]
            } else {
                (s[n / 2 - 1] + s[n / 2]) / 2.0
            }
        },
        f => panic!("unknown function {f}"),
    }
}

fn generic(case: &Value, dev: Device, x: &[Array]) -> Result<Array> {
    let fp = array_on(&case["footprint"], dev);
    let size = usizes(&case["size"]).unwrap_or_default();
    let window = match &fp {
        Some(f) => Window::Footprint(f),
        None => Window::Size(&size),
    };
    let origin: Vec<isize> = case["origin"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap() as isize).collect();
    let f = Filter { mode: mode(case), origin: &origin };
    let name = case["func"].as_str().unwrap();
    match case["form"].as_str().unwrap() {
        "reduction" => {
            let map = match name {
                "sumsq" => "x * x",
                "positive" => "x > 0 ? 1 : 0",
                n => panic!("no reduction kernel {n}"),
            };
            let k = ReductionKernel::new("T x", "T y", map, "a + b", "y = a", "0", name).unwrap();
            nd::generic_filter(&x[0], FilterFunction::Reduction(&k), window, f)
        }
        "elementwise" => {
            assert_eq!(name, "weighted");
            let taps = match &fp {
                Some(a) => a.to_vec::<bool>().unwrap().iter().filter(|&&t| t).count(),
                None => size.iter().product::<usize>().pow(if size.len() == 1 { x[0].ndim() as u32 } else { 1 }),
            };
            let ins: Vec<String> = (0..taps).map(|j| format!("T a{j}")).collect();
            let body: Vec<String> = (0..taps).map(|j| format!("a{j} * {}", j + 1)).collect();
            let k = ElementwiseKernel::new(&ins.join(", "), "T y", &format!("y = {}", body.join(" + ")), "weighted")
                .unwrap();
            nd::generic_filter(&x[0], FilterFunction::Elementwise(&k), window, f)
        }
        _ => nd::generic_filter(&x[0], FilterFunction::Host(&host(name)), window, f),
    }
}

fn reference(f: &mut Failures, dev: Device, case: &Value) {
    let (want, inputs) = common::tolerant_case(case);
    let op = case["op"].as_str().unwrap();
    let what = match op {
        "generic_filter" => format!("generic_filter {} {} mode {}", case["form"], case["func"], case["mode"]),
        "affine_transform" => format!("affine_transform order {} mode {}", case["order"], case["mode"]),
        _ => format!("{op} sampling {}", case["sampling"]),
    };
    common::check_layouts(f, dev, &inputs, &want, &what, true, |x| match op {
        "distance_transform_edt" => edt(case, x),
        "affine_transform" => affine(case, dev, x).map(|a| vec![a]),
        "generic_filter" => generic(case, dev, x).map(|a| vec![a]),
        o => panic!("unknown op {o}"),
    });
}

split_cases!(reference, "ndimage_transforms");
