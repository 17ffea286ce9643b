//! `ndimage`'s measurements over labelled regions against SciPy (`tests/data/measure.json`, made
//! by `scripts/gen_special_reference.py`): float64, int32 and float32 inputs, 2-D and 3-D labels,
//! `index` as None, one label, and lists with absent, negative and background labels, in every
//! layout, on every device. `tests/data/measure_objects.json` (`scripts/gen_ndimage_transforms_reference.py`):
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

split_cases!(reference2, "measure_objects");

/// Whether a label lies in a region.
type Region<'a> = Box<dyn Fn(i64) -> bool + 'a>;

/// The measurements on arrays split over the cores, in several layouts, against sums written
/// here (float64, so within summation-order rounding): labels strided, transposed and
/// broadcast, asked for as a short range with absent and negative labels (a table on the host)
/// and spread over int64 (a binary search), unsigned and bool labels, one label, the positive
/// ones, and no labels.
#[test]
fn measurements_on_large_views() {
    use xp::DType;
    let (r, c) = (300, 517);
    let base: Vec<f64> = (0..2 * r * c).map(|i| ((i * 7919) % 1000) as f64 * 0.01 - 3.0).collect();
    let labs: Vec<i64> = (0..2 * r * c).map(|i| ((i * 31 + i / c * 7) % 23) as i64 - 3).collect();
    let close = |a: f64, b: f64| (a.is_nan() && b.is_nan()) || (a - b).abs() <= 1e-9 * (1.0 + a.abs().max(b.abs()));
    for dev in xp_testing::devices() {
        let on = |v: Vec<f64>, s: &[usize]| Array::from_vec(v, s).unwrap().to_device(dev).unwrap();
        let xs = on(base.clone(), &[2 * r, c]);
        let ls = Array::from_vec(labs.clone(), [2 * r, c]).unwrap().to_device(dev).unwrap();
        let huge = ls.mul(1_000_000_007i64).unwrap();
        let inputs = [
            ("contiguous f64", xs.slice(xp::s![..r as isize]).unwrap()),
            ("strided f32", xs.slice(xp::s![..;2]).unwrap().astype(DType::F32).unwrap()),
            ("transposed", on(base[..r * c].to_vec(), &[c, r]).t().unwrap()),
            (
                "reversed int32",
                xs.slice(xp::s![(2 * r - 1) as isize..(r - 1) as isize;-1, ..;-1])
                    .unwrap()
                    .mul(100.0)
                    .unwrap()
                    .astype(DType::I32)
                    .unwrap(),
            ),
        ];
        let row: Vec<i64> = (0..c as i64).map(|j| j % 9).collect();
        let labelings = [
            ("strided", Some(ls.slice(xp::s![1..;2]).unwrap())),
            ("transposed", Some(ls.slice(xp::s![..c as isize, ..r as isize]).unwrap().copy().unwrap().t().unwrap())),
            ("broadcast", Some(Array::from_vec(row, [c]).unwrap().to_device(dev).unwrap())),
            ("uint16", Some(ls.slice(xp::s![..r as isize]).unwrap().add(3).unwrap().astype(DType::U16).unwrap())),
            ("bool", Some(ls.slice(xp::s![..r as isize]).unwrap().gt(5).unwrap())),
            ("spread", Some(huge.slice(xp::s![..r as isize]).unwrap())),
            ("none", None),
        ];
        let many: Vec<i64> = vec![0, 1, 2, 5, 19, 40, -3, 1, 3];
        let spread: Vec<i64> = many.iter().map(|l| l * 1_000_000_007).collect();
        for (xn, x) in &inputs {
            let xv = x.astype(DType::F64).unwrap().to_vec::<f64>().unwrap();
            for (ln, lab) in &labelings {
                let lv: Vec<i64> = match lab {
                    Some(l) => l.broadcast_to([r, c]).unwrap().astype(DType::I64).unwrap().to_vec::<i64>().unwrap(),
                    None => vec![0; r * c],
                };
                let idx: &[i64] = if *ln == "spread" { &spread } else { &many };
                let what = format!("{dev} input {xn}, labels {ln}");
                // (region test, index) pairs: Many per label, One, Positive
                let mut regions: Vec<(Region<'_>, LabelIndex)> =
                    idx.iter().map(|&k| (Box::new(move |l| l == k) as Region<'_>, LabelIndex::Many(idx))).collect();
                regions.push((Box::new(move |l| l == idx[3]), LabelIndex::One(idx[3])));
                regions.push((Box::new(|l| l > 0), LabelIndex::Positive));
                let mut at_many = 0;
                for (inside, index) in &regions {
                    let inside = |l: i64| lab.is_none() || inside(l);
                    let pts: Vec<(usize, f64)> = xv
                        .iter()
                        .zip(&lv)
                        .enumerate()
                        .filter(|(_, (_, &l))| inside(l))
                        .map(|(i, (&v, _))| (i, v))
                        .collect();
                    let n = pts.len() as f64;
                    let sum: f64 = pts.iter().map(|p| p.1).sum();
                    let mean = sum / n;
                    let var = pts.iter().map(|p| (p.1 - mean) * (p.1 - mean)).sum::<f64>() / n;
                    let com = [
                        pts.iter().map(|p| p.1 * (p.0 / c) as f64).sum::<f64>() / sum,
                        pts.iter().map(|p| p.1 * (p.0 % c) as f64).sum::<f64>() / sum,
                    ];
                    let get = |a: Array| -> Vec<f64> { a.astype(DType::F64).unwrap().to_vec::<f64>().unwrap() };
                    let (k, one) = match index {
                        LabelIndex::Many(_) if lab.is_some() => (at_many, false),
                        _ => (0, true),
                    };
                    let m = get(ndi::mean(x, lab.as_ref(), *index).unwrap());
                    let v = get(ndi::variance(x, lab.as_ref(), *index).unwrap());
                    let sd = get(ndi::standard_deviation(x, lab.as_ref(), *index).unwrap());
                    let cm = get(ndi::center_of_mass(x, lab.as_ref(), *index).unwrap());
                    let s = get(ndi::sum_labels(x, lab.as_ref(), *index).unwrap());
                    assert_eq!(m.len(), if one { 1 } else { idx.len() }, "{what}");
                    // a 0-d sum_labels keeps NumPy's sum dtype (float32 here)
                    let sum_ok = if one && xn.contains("f32") {
                        (s[k] - sum).abs() <= 1e-5 * sum.abs()
                    } else {
                        close(s[k], sum)
                    };
                    assert!(close(m[k], mean) && sum_ok, "{what} {index:?} mean {} {mean} sum {} {sum}", m[k], s[k]);
                    assert!(close(v[k], var) && close(sd[k], var.sqrt()), "{what} {index:?} variance {} {var}", v[k]);
                    assert!(close(cm[2 * k], com[0]) && close(cm[2 * k + 1], com[1]), "{what} {index:?} center {cm:?}");
                    if matches!(index, LabelIndex::Many(_)) {
                        at_many += 1;
                    }
                }
            }
        }
    }
}
