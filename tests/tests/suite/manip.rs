//! Views, joins, creation, casts and the ufunc methods against NumPy, on every device, with every
//! input in every layout variant.
use super::common;
use serde_json::Value;
use xp::{Array, ArrayModule, BinaryUfunc, DType, PadMode, Result, Scalar, Sections, SliceElem};
use xp_testing::Failures;

fn isz(v: &Value) -> isize {
    v.as_i64().expect("integer argument") as isize
}
fn opt_axes(v: &Value) -> Option<Vec<isize>> {
    v.as_array().map(|a| a.iter().map(isz).collect())
}
fn usizes(v: &Value) -> Vec<usize> {
    v.as_array().unwrap().iter().map(|x| x.as_u64().unwrap() as usize).collect()
}
fn num(v: &Value) -> Scalar {
    if let Some(i) = v.as_i64() {
        Scalar::Int(i)
    } else {
        Scalar::Float(v.as_f64().unwrap())
    }
}
fn index(v: &Value) -> Vec<SliceElem> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|e| {
            if e.get("new").is_some() {
                SliceElem::NewAxis
            } else if e.get("ell").is_some() {
                SliceElem::Ellipsis
            } else if let Some(i) = e.get("i") {
                SliceElem::Index(isz(i))
            } else {
                let s = &e["s"];
                let o = |k: usize| s[k].as_i64().map(|x| x as isize);
                SliceElem::Slice { start: o(0), stop: o(1), step: o(2).unwrap_or(1) }
            }
        })
        .collect()
}

fn run(op: &str, x: &[Array], a: &Value, mods: &ArrayModule) -> Result<Vec<Array>> {
    let one = |r: Result<Array>| r.map(|v| vec![v]);
    let refs: Vec<&Array> = x.iter().collect();
    match op {
        "reshape" => one(x[0].reshape(opt_axes(&a["shape"]).unwrap())),
        "ravel" => one(x[0].ravel()),
        "transpose" => one(x[0].transpose(opt_axes(&a["axes"]).as_deref())),
        "swapaxes" => one(x[0].swapaxes(isz(&a["a"]), isz(&a["b"]))),
        "moveaxis" => one(x[0].moveaxis(isz(&a["a"]), isz(&a["b"]))),
        "expand_dims" => one(x[0].expand_dims(isz(&a["axis"]))),
        "squeeze" => one(x[0].squeeze(opt_axes(&a["axes"]).as_deref())),
        "broadcast_to" => one(x[0].broadcast_to(usizes(&a["shape"]))),
        "slice" => one(x[0].slice(index(&a["index"]))),
        "flip" => one(x[0].flip(opt_axes(&a["axes"]).as_deref())),
        "roll" => one(x[0].roll(isz(&a["shift"]), a["axis"].as_i64().map(|v| v as isize))),
        "tile" => one(x[0].tile(&usizes(&a["reps"]))),
        "repeat" => one(x[0].repeat(a["repeats"].as_u64().unwrap() as usize, a["axis"].as_i64().map(|v| v as isize))),
        "repeat_counts" => one(x[0].repeat_counts(&usizes(&a["counts"]), isz(&a["axis"]))),
        "pad" => {
            let w: Vec<(usize, usize)> = a["widths"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| (p[0].as_u64().unwrap() as usize, p[1].as_u64().unwrap() as usize))
                .collect();
            let mode = match a["mode"].as_str().unwrap() {
                "constant" => PadMode::Constant(Scalar::Int(0)),
                "edge" => PadMode::Edge,
                "wrap" => PadMode::Wrap,
                "reflect" => PadMode::Reflect,
                _ => PadMode::Symmetric,
            };
            one(x[0].pad(&w, mode))
        }
        "take" => {
            let ix: Vec<i64> = opt_axes(&a["indices"]).unwrap().iter().map(|&i| i as i64).collect();
            let n = ix.len();
            one(x[0].take(&mods.asarray(ix, [n])?, isz(&a["axis"])))
        }
        "concatenate" => one(xp::concatenate(&refs, isz(&a["axis"]))),
        "stack" => one(xp::stack(&refs, isz(&a["axis"]))),
        "hstack" => one(xp::hstack(&refs)),
        "vstack" => one(xp::vstack(&refs)),
        "split" | "array_split" => {
            let s = match &a["sections"] {
                Value::Array(v) => Sections::Indices(v.iter().map(isz).collect()),
                v => Sections::Count(v.as_u64().unwrap() as usize),
            };
            if op == "split" {
                xp::split(&x[0], s, isz(&a["axis"]))
            } else {
                xp::array_split(&x[0], s, isz(&a["axis"]))
            }
        }
        "diag" => one(x[0].diag(isz(&a["k"]))),
        "tril" => one(x[0].tril(isz(&a["k"]))),
        "triu" => one(x[0].triu(isz(&a["k"]))),
        "arange" => {
            let v = a["args"].as_array().unwrap();
            one(mods.arange(num(&v[0]), num(&v[1]), num(&v[2]), None))
        }
        "linspace" | "logspace" => {
            let (st, sp) = (a["start"].as_f64().unwrap(), a["stop"].as_f64().unwrap());
            let (n, ep) = (a["num"].as_u64().unwrap() as usize, a["endpoint"].as_bool().unwrap());
            one(if op == "linspace" {
                mods.linspace(st, sp, n, xp::Linspace { endpoint: ep, dtype: None })
            } else {
                mods.logspace(st, sp, n, xp::Logspace { endpoint: ep, base: 10.0, dtype: None })
            })
        }
        "eye" => one(mods.eye(
            a["n"].as_u64().unwrap() as usize,
            a["m"].as_u64().map(|v| v as usize),
            isz(&a["k"]),
            DType::F64,
        )),
        "meshgrid" => {
            let ind = if a["indexing"] == "xy" { xp::Indexing::Xy } else { xp::Indexing::Ij };
            xp::meshgrid(&refs, ind)
        }
        "clip" => one(x[0].clip(a["lo"].as_f64(), a["hi"].as_f64())),
        "where" => one(xp::where_(&x[0], &x[1], &x[2])),
        "reduce" | "accumulate" | "outer" => {
            let name = a["ufunc"].as_str().unwrap();
            let u = common::binary_op(name);
            one(match op {
                "reduce" => u.reduce(&x[0], isz(&a["axis"])),
                "accumulate" => u.accumulate(&x[0], isz(&a["axis"])),
                _ => u.outer(&x[0], &x[1]),
            })
        }
        "astype" => one(x[0].astype(DType::from_name(a["dtype"].as_str().unwrap()).unwrap())),
        _ => panic!("unknown op {op}"),
    }
}

common::split_cases!(manipulation_creation_and_casts_match_numpy, "manip");

fn manipulation_creation_and_casts_match_numpy(f: &mut Failures, dev: xp::Device, case: &serde_json::Value) {
    let mods = xp::on(dev);
    let op = case["op"].as_str().unwrap();
    let inputs: Vec<_> = case["inputs"].as_array().unwrap().iter().map(common::array).collect();
    let what = format!("{op} {}", case["args"]);
    common::check_layouts(f, dev, &inputs, &common::expected_all(case), &what, false, |x| {
        run(op, x, &case["args"], &mods)
    });
}
