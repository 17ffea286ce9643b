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

/// `arctanh` of negative arguments near -1 against mpmath's values (40 digits, then rounded) on
/// every device and in both float dtypes, within an ulp: Rust's own `atanh` (a formula on the
/// signed argument) is 11–12 ulps off there, NumPy's and CUDA's are not.
#[test]
fn arctanh_near_minus_one_within_an_ulp() {
    let x64 = [-0.9562324293288257, -0.99, -0.999999, -0.5, -0.75];
    let w64: [f64; 5] =
        [-1.899941262458245, -2.6466524123622457, -7.254328619247669, -0.5493061443340549, -0.9729550745276566];
    let x32 = [-0.99f32, -0.999, -0.9, -0.6];
    let w32 = [-2.646653f32, -3.8002076, -1.4722193, -0.69314724];
    for dev in xp_testing::devices() {
        let a = xp::Array::from_vec(x64.to_vec(), [x64.len()]).unwrap().to_device(dev).unwrap();
        let got = xp::arctanh(&a).unwrap().to_vec::<f64>().unwrap();
        for ((x, g), w) in x64.iter().zip(&got).zip(&w64) {
            let ulps = (g.to_bits() as i64 - w.to_bits() as i64).abs();
            assert!(ulps <= 1, "arctanh({x}) f64 on {dev}: {g:e}, want {w:e} ({ulps} ulps)");
        }
        let a = xp::Array::from_vec(x32.to_vec(), [x32.len()]).unwrap().to_device(dev).unwrap();
        let got = xp::arctanh(&a).unwrap().to_vec::<f32>().unwrap();
        for ((x, g), w) in x32.iter().zip(&got).zip(&w32) {
            let ulps = (g.to_bits() as i64 - w.to_bits() as i64).abs();
            assert!(ulps <= 1, "arctanh({x}) f32 on {dev}: {g:e}, want {w:e} ({ulps} ulps)");
        }
    }
}
