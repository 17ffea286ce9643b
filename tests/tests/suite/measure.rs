//! `ndimage`'s measurements over labelled regions against SciPy (`tests/data/measure.json`, made
//! by `scripts/gen_special_reference.py`): float64, int32 and float32 inputs, 2-D and 3-D labels,
//! `index` as None, one label, and lists with absent, negative and background labels, in every
//! layout, on every device.
use crate::common::{self, split_cases};
use serde_json::Value;
use xp::ndimage::{self as ndi, LabelIndex};
use xp::{Array, Device, Result};
use xp_testing::Failures;

fn run(case: &Value, x: &[Array]) -> Result<Array> {
    let many: Vec<i64> =
        case["index"].as_array().map(|v| v.iter().map(|i| i.as_i64().unwrap()).collect()).unwrap_or_default();
    let index = match &case["index"] {
        Value::Null => LabelIndex::Positive,
        Value::Number(n) => LabelIndex::One(n.as_i64().unwrap()),
        _ => LabelIndex::Many(&many),
    };
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
