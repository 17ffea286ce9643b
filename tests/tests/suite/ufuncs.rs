//! Every ufunc against NumPy, every dtype NumPy accepts it for (and the refusals where it does
//! not), every device, every layout variant.
use super::common;
use common::{binary_op, unary_op};
use xp_testing::{check, layouts, Failures};

common::split_cases!(unary_ufuncs_match_numpy, "unary");

fn unary_ufuncs_match_numpy(f: &mut Failures, dev: xp::Device, case: &serde_json::Value) {
    let op = unary_op(case["op"].as_str().unwrap());
    let (buf, shape) = common::array(&case["inputs"][0]);
    let want = common::expected(case);
    for (lname, a) in layouts(&buf, &shape, dev).unwrap() {
        let ctx = format!("{}({}) on {dev}, {lname}", op.name(), buf.dtype());
        f.add(check(&xp::ufunc::unary(op, &a), &want, &ctx));
    }
}

common::split_cases!(binary_ufuncs_match_numpy, "binary");

fn binary_ufuncs_match_numpy(f: &mut Failures, dev: xp::Device, case: &serde_json::Value) {
    let op = binary_op(case["op"].as_str().unwrap());
    let (ba, sa) = common::array(&case["inputs"][0]);
    let (bb, sb) = common::array(&case["inputs"][1]);
    let want = common::expected(case);
    let la = layouts(&ba, &sa, dev).unwrap();
    let lb = layouts(&bb, &sb, dev).unwrap();
    for ((na, a), (nb, b)) in la.iter().zip(lb.iter().cycle()) {
        let ctx = format!("{}({}, {}) on {dev}, {na}/{nb}", op.name(), ba.dtype(), bb.dtype());
        f.add(check(&xp::ufunc::binary(op, a, b), &want, &ctx));
    }
}

common::split_cases!(weak_scalars_match_numpy, "weak");

fn weak_scalars_match_numpy(f: &mut Failures, dev: xp::Device, case: &serde_json::Value) {
    let op = binary_op(case["op"].as_str().unwrap());
    let (ba, sa) = common::array(&case["inputs"][0]);
    let s = common::weak_scalar(&case["scalar"]);
    let mut want = common::expected(case);
    // ml_dtypes does not implement NEP 50 for bfloat16 with a Python float or complex (it
    // gives float32); xp applies NumPy 2's rule as it does for float16: the array's kind
    // wins, so the result stays bfloat16 (complex64 for a complex scalar).
    if ba.dtype() == xp::DType::BF16 && matches!(s, xp::Scalar::Float(_) | xp::Scalar::Complex(_)) {
        if let Ok(e) =
            want.as_mut().map_err(|_| ()).and_then(|e| if e.dtype == xp::DType::Bool { Err(()) } else { Ok(e) })
        {
            e.dtype = if matches!(s, xp::Scalar::Float(_)) { xp::DType::BF16 } else { xp::DType::C64 };
            e.tol = xp_testing::tolerance(xp::DType::BF16);
        }
    }
    let a = xp::Array::from_buffer(ba.clone(), &sa, dev).unwrap();
    let ctx = format!("{}({} array, {s:?}) on {dev}", op.name(), ba.dtype());
    f.add(check(&xp::ufunc::binary(op, &a, s), &want, &ctx));
}
