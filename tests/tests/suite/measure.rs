//! `ndimage`'s measurements over labelled regions against SciPy (`tests/data/measure.json`, made
//! by `scripts/gen_special_reference.py`): float64, int32 and float32 inputs, 2-D and 3-D labels,
//! `index` as None, one label, and lists with absent, negative and background labels, in every
//! layout, on every device. `tests/data/measure2.json` (`scripts/gen_measure2_reference.py`):
//! `find_objects`, `median`, `extrema`, the positions, `histogram`, `labeled_comprehension`, and
//! the older measurements over negative labels and without labels; all-background labels, empty
//! and repeated indices, and SciPy's errors.
use crate::common::{self, split_cases};
use serde_json::Value;
use xp::ndimage::{self as ndi, LabelIndex};
use xp::{Array, Device, Result};
use xp_testing::Failures;

fn index_of<'a>(case: &Value, many: &'a mut Vec<i64>) -> LabelIndex<'a> {
    *many = case["index"].as_array().map(|v| v.iter().map(|i| i.as_i64().unwrap()).collect()).unwrap_or_default();
    match &case["index"] {
        Value::Null => LabelIndex::Positive,
        Value::Number(n) => LabelIndex::One(n.as_i64().unwrap()),
        _ => LabelIndex::Many(many),
    }
}

fn run(case: &Value, x: &[Array]) -> Result<Array> {
    let mut many = vec![];
    let index = index_of(case, &mut many);
    let labels = x.get(1);
    match case["op"].as_str().unwrap() {
        "sum_labels" => ndi::sum_labels(&x[0], labels, index),
        "mean" => ndi::mean(&x[0], labels, index),
        "variance" => ndi::variance(&x[0], labels, index),
        "standard_deviation" => ndi::standard_deviation(&x[0], labels, index),
        "minimum" => ndi::minimum(&x[0], labels, index),
        "maximum" => ndi::maximum(&x[0], labels, index),
        "center_of_mass" => ndi::center_of_mass(&x[0], labels, index),
        op => panic!("unknown op {op}"),
    }
}

fn reference(f: &mut Failures, dev: Device, case: &Value) {
    let (want, inputs) = common::tolerant_case(case);
    let what = format!("{} index {}", case["op"], case["index"]);
    common::check_layouts(f, dev, &inputs, &want, &what, true, |x| run(case, x).map(|r| vec![r]));
}

split_cases!(reference, "measure");

/// `find_objects` as `(max_label, 1 + 2 * ndim)` int64 rows `[present, start0, stop0, …]`.
fn boxes(labels: &Array, max_label: Option<usize>) -> Result<Array> {
    let b = ndi::find_objects(labels, max_label)?;
    let w = 1 + 2 * labels.ndim();
    let mut rows = vec![0i64; b.len() * w];
    for (k, r) in b.iter().enumerate() {
        if let Some(r) = r {
            rows[k * w] = 1;
            for (a, span) in r.iter().enumerate() {
                rows[k * w + 1 + 2 * a] = span.start as i64;
                rows[k * w + 2 + 2 * a] = span.end as i64;
            }
        }
    }
    Array::from_vec(rows, [b.len(), w])
}

fn comprehension(name: &str) -> fn(&[f64]) -> f64 {
    match name {
        "ptp" => |v| {
            if v.is_empty() {
                return 0.0;
            }
            v.iter().cloned().fold(f64::MIN, f64::max) - v.iter().cloned().fold(f64::MAX, f64::min)
        },
        "sumsq" => |v| v.iter().map(|a| a * a).sum(),
        "count" => |v| v.len() as f64,
        "first_minus_last" => |v| if v.is_empty() { -7.0 } else { v[0] - v[v.len() - 1] },
        f => panic!("unknown function {f}"),
    }
}

fn run2(case: &Value, x: &[Array]) -> Result<Vec<Array>> {
    let mut many = vec![];
    let index = index_of(case, &mut many);
    let labels = x.get(1);
    let one = |r: Result<Array>| r.map(|a| vec![a]);
    match case["op"].as_str().unwrap() {
        "find_objects" => one(boxes(&x[0], case["max_label"].as_u64().map(|m| m as usize))),
        "median" => one(ndi::median(&x[0], labels, index)),
        "minimum_position" => one(ndi::minimum_position(&x[0], labels, index)),
        "maximum_position" => one(ndi::maximum_position(&x[0], labels, index)),
        "extrema" => {
            let e = ndi::extrema(&x[0], labels, index)?;
            Ok(vec![e.min, e.max, e.min_position, e.max_position])
        }
        "histogram" => {
            let (lo, hi) = (case["min"].as_f64().unwrap(), case["max"].as_f64().unwrap());
            one(ndi::histogram(&x[0], lo, hi, case["bins"].as_u64().unwrap() as usize, labels, index))
        }
        "labeled_comprehension" => {
            let f = comprehension(case["func"].as_str().unwrap());
            one(ndi::labeled_comprehension(&x[0], labels, index, f, case["default"].as_f64().unwrap()))
        }
        _ => one(run(case, x)),
    }
}

fn reference2(f: &mut Failures, dev: Device, case: &Value) {
    let (want, inputs) = common::tolerant_case(case);
    let what = format!("{} index {}", case["op"], case["index"]);
    common::check_layouts(f, dev, &inputs, &want, &what, true, |x| run2(case, x));
}

split_cases!(reference2, "measure2");
