//! Reductions and cumulative ops against NumPy: every dtype, axis None / int / negative / tuple,
//! keepdims, every device, every layout variant.
use super::common;
use xp::{Array, Result};
use xp_testing::{check, layouts, tolerance, Failures, Tolerance};

fn run(op: &str, a: &Array, axes: Option<&[isize]>, keepdims: bool) -> Result<Array> {
    let one = axes.map(|a| a[0]);
    // `name` or `name_keepdim`, as the case asks.
    macro_rules! kd {
        ($m:ident, $k:ident $(, $extra:expr)?) => {
            if keepdims { a.$k(axes $(, $extra)?) } else { a.$m(axes $(, $extra)?) }
        };
    }
    match op {
        "sum" => kd!(sum, sum_keepdim),
        "prod" => kd!(prod, prod_keepdim),
        "mean" => kd!(mean, mean_keepdim),
        "var0" => kd!(var, var_keepdim),
        "std1" => a.std_with(axes, xp::Var { ddof: 1, keepdims }),
        "min" => kd!(min, min_keepdim),
        "max" => kd!(max, max_keepdim),
        "ptp" => kd!(ptp, ptp_keepdim),
        "all" => kd!(all, all_keepdim),
        "any" => kd!(any, any_keepdim),
        "count_nonzero" => kd!(count_nonzero, count_nonzero_keepdim),
        "nansum" => kd!(nansum, nansum_keepdim),
        "nanmean" => kd!(nanmean, nanmean_keepdim),
        "nanmax" => kd!(nanmax, nanmax_keepdim),
        "nanmin" => kd!(nanmin, nanmin_keepdim),
        "argmax" if keepdims => a.argmax_keepdim(one),
        "argmax" => a.argmax(one),
        "argmin" if keepdims => a.argmin_keepdim(one),
        "argmin" => a.argmin(one),
        "cumsum" => a.cumsum(one),
        "cumprod" => a.cumprod(one),
        _ => panic!("unknown reduction {op}"),
    }
}

common::split_cases!(reductions_match_numpy, "reductions");

/// One reduction case on one device, in every layout variant.
fn reductions_match_numpy(f: &mut Failures, dev: xp::Device, case: &serde_json::Value) {
    let op = case["op"].as_str().unwrap();
    let axes: Option<Vec<isize>> = match &case["axis"] {
        serde_json::Value::Null => None,
        serde_json::Value::Array(v) => Some(v.iter().map(|x| x.as_i64().unwrap() as isize).collect()),
        v => Some(vec![v.as_i64().unwrap() as isize]),
    };
    let keepdims = case["keepdims"].as_bool().unwrap();
    let (buf, shape) = common::array(&case["inputs"][0]);
    let mut want = common::expected(case);
    // Sums of float16 round once at the end in xp (float32 accumulation), and NumPy's
    // float16 var/std go through other intermediate roundings: allow a few ulps.
    if let Ok(e) = &mut want {
        if buf.dtype() == xp::DType::F16 && e.dtype == xp::DType::F16 {
            e.tol = Tolerance { rtol: 4e-3, atol: 2e-3 };
        } else if e.dtype.is_inexact() {
            let t = tolerance(e.dtype);
            e.tol = Tolerance { rtol: t.rtol * 10.0, atol: t.atol * 10.0 };
        }
    }
    for (lname, a) in layouts(&buf, &shape, dev).unwrap() {
        let ctx = format!("{op}({} {shape:?}, axis={axes:?}, keepdims={keepdims}) on {dev}, {lname}", buf.dtype());
        f.add(check(&run(op, &a, axes.as_deref(), keepdims), &want, &ctx));
    }
}
