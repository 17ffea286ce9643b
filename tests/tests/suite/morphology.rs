//! `ndimage`'s morphology against SciPy (`tests/data/morphology.json`, made by
//! `scripts/gen_special_reference.py`): binary erosion, dilation, opening and closing with
//! default, full, asymmetric and even-sized structures, iterations, border values and origins;
//! hole filling; iterated structures; grey operations with boxes (odd and even) and footprints
//! under several modes, on float64 and int32; in every layout, on every device.
use crate::common::{self, split_cases};
use serde_json::Value;
use xp::ndimage::{self as nd, Filter, Mode, Morphology, Window};
use xp::{Array, Device, Result};
use xp_testing::Failures;

fn ints(v: &Value) -> Vec<isize> {
    v.as_array().unwrap().iter().map(|x| x.as_i64().unwrap() as isize).collect()
}

fn array_on(v: &Value, dev: Device) -> Option<Array> {
    (!v.is_null()).then(|| {
        let (b, s) = common::array(v);
        Array::from_buffer(b, &s, dev).unwrap()
    })
}

fn run(case: &Value, dev: Device, x: &[Array]) -> Result<Array> {
    let op = case["op"].as_str().unwrap();
    let st = array_on(&case["structure"], dev);
    let origin = if case["origin"].is_null() { vec![0] } else { ints(&case["origin"]) };
    let m = Morphology {
        structure: st.as_ref(),
        iterations: case["iterations"].as_u64().unwrap_or(1) as usize,
        border_value: case["border_value"].as_bool().unwrap_or(false),
        origin: &origin,
    };
    let mode = || {
        let c = case["cval"].as_f64().unwrap_or(0.0);
        match case["mode"].as_str().unwrap() {
            "reflect" => Mode::Reflect,
            "constant" => Mode::Constant(c),
            "nearest" => Mode::Nearest,
            m => panic!("unknown mode {m}"),
        }
    };
    let size: Vec<usize> =
        case["size"].as_array().map(|v| v.iter().map(|x| x.as_u64().unwrap() as usize).collect()).unwrap_or_default();
    let fp = array_on(&case["footprint"], dev);
    let window = || match &fp {
        Some(f) => Window::Footprint(f),
        None => Window::Size(&size),
    };
    match op {
        "binary_erosion" => nd::binary_erosion(&x[0], m),
        "binary_dilation" => nd::binary_dilation(&x[0], m),
        "binary_opening" => nd::binary_opening(&x[0], m),
        "binary_closing" => nd::binary_closing(&x[0], m),
        "binary_fill_holes" => nd::binary_fill_holes(&x[0], st.as_ref()),
        "iterate_structure" => nd::iterate_structure(&x[0], m.iterations),
        "grey_erosion" => nd::grey_erosion(&x[0], window(), Filter { mode: mode(), origin: &origin }),
        "grey_dilation" => nd::grey_dilation(&x[0], window(), Filter { mode: mode(), origin: &origin }),
        "grey_opening" => nd::grey_opening(&x[0], window(), Filter { mode: mode(), origin: &origin }),
        "grey_closing" => nd::grey_closing(&x[0], window(), Filter { mode: mode(), origin: &origin }),
        "morphological_gradient" => {
            nd::morphological_gradient(&x[0], window(), Filter { mode: mode(), origin: &origin })
        }
        _ => panic!("unknown op {op}"),
    }
}

fn reference(f: &mut Failures, dev: Device, case: &Value) {
    let want = common::expected(case).map(|e| vec![e]);
    let inputs: Vec<common::Input> = case["args"].as_array().unwrap().iter().map(common::array).collect();
    let what = format!("{} {}", case["op"], case.get("size").or(case.get("iterations")).unwrap_or(&Value::Null));
    common::check_layouts(f, dev, &inputs, &want, &what, true, |x| run(case, dev, x).map(|r| vec![r]));
}

split_cases!(reference, "morphology");
