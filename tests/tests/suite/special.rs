//! `xp::special` against SciPy (`tests/data/special.json`, made by
//! `scripts/gen_special_reference.py`): every function on float64, float32 and integer inputs
//! (SciPy's result dtypes), domain edges, NaN and infinities, broadcasting, every layout, on every
//! device; the tolerance of each case is in the data.
use crate::common::{self, split_cases};
use serde_json::Value;
use xp::special as sp;
use xp::{Array, Device, Result};
use xp_testing::Failures;

fn axis(case: &Value) -> Option<isize> {
    case["axis"].as_i64().map(|a| a as isize)
}

fn run(op: &str, case: &Value, x: &[Array]) -> Result<Array> {
    let unary: Option<fn(&Array) -> Result<Array>> = match op {
        "erf" => Some(sp::erf),
        "erfc" => Some(sp::erfc),
        "erfcx" => Some(sp::erfcx),
        "erfinv" => Some(sp::erfinv),
        "erfcinv" => Some(sp::erfcinv),
        "ndtr" => Some(sp::ndtr),
        "ndtri" => Some(sp::ndtri),
        "log_ndtr" => Some(sp::log_ndtr),
        "gamma" => Some(sp::gamma),
        "gammaln" => Some(sp::gammaln),
        "digamma" => Some(sp::digamma),
        "expit" => Some(sp::expit),
        "logit" => Some(sp::logit),
        "log_expit" => Some(sp::log_expit),
        "i0" => Some(sp::i0),
        "i0e" => Some(sp::i0e),
        "i1" => Some(sp::i1),
        "i1e" => Some(sp::i1e),
        "j0" => Some(sp::j0),
        "j1" => Some(sp::j1),
        "y0" => Some(sp::y0),
        "y1" => Some(sp::y1),
        "entr" => Some(sp::entr),
        "sinc" => Some(sp::sinc),
        "riemann_zeta" => Some(|x| sp::zeta(x, None::<&Array>)),
        _ => None,
    };
    if let Some(f) = unary {
        return f(&x[0]);
    }
    let (a, b) = (&x[0], x.get(1));
    match op {
        "xlogy" => sp::xlogy(a, b.unwrap()),
        "xlog1py" => sp::xlog1py(a, b.unwrap()),
        "beta" => sp::beta(a, b.unwrap()),
        "betaln" => sp::betaln(a, b.unwrap()),
        "gammainc" => sp::gammainc(a, b.unwrap()),
        "gammaincc" => sp::gammaincc(a, b.unwrap()),
        "zeta" => sp::zeta(a, Some(b.unwrap())),
        "rel_entr" => sp::rel_entr(a, b.unwrap()),
        "kl_div" => sp::kl_div(a, b.unwrap()),
        "binom" => sp::binom(a, b.unwrap()),
        "polygamma" => sp::polygamma(a, b.unwrap()),
        "comb" => sp::comb(a, b.unwrap()),
        "betainc" => sp::betainc(a, b.unwrap(), &x[2]),
        "logsumexp" => sp::logsumexp(a, axis(case)),
        "softmax" => sp::softmax(a, axis(case)),
        "log_softmax" => sp::log_softmax(a, axis(case)),
        _ => panic!("unknown op {op}"),
    }
}

fn reference(f: &mut Failures, dev: Device, case: &Value) {
    let (want, inputs) = common::tolerant_case(case);
    let op = case["op"].as_str().unwrap();
    let what = format!("special::{op}");
    common::check_layouts(f, dev, &inputs, &want, &what, true, |x| run(op, case, x).map(|r| vec![r]));
}

split_cases!(reference, "special");

/// `betainc(a, b, x)` against SciPy (`tests/data/betainc.json`, made by
/// `scripts/gen_betainc_reference.py`): broadcast grids, float32 and integer arguments, the
/// domain's edges.
fn reference_betainc(f: &mut Failures, dev: Device, case: &Value) {
    reference(f, dev, case)
}

split_cases!(reference_betainc, "betainc");

/// Complex arguments are a typed error naming the function (SciPy's complex loops are not
/// implemented), and a keepdims log-sum-exp keeps the axis.
#[test]
fn complex_is_refused_and_keepdims_keeps() {
    for dev in xp_testing::devices() {
        let z = xp::on(dev).asarray(vec![xp::Complex64::new(1.0, 1.0)], [1]).unwrap();
        match sp::erf(&z) {
            Err(xp::Error::InvalidDType { op: "erf", .. }) => {}
            other => panic!("{dev}: erf of complex gave {other:?}"),
        }
        let a = xp::on(dev).asarray(vec![1.0f64, 2.0, 3.0, 4.0], [2, 2]).unwrap();
        let k = sp::logsumexp_keepdim(&a, 1).unwrap();
        assert_eq!(k.shape(), &[2, 1]);
        let want = [(1f64.exp() + 2f64.exp()).ln(), (3f64.exp() + 4f64.exp()).ln()];
        for (g, w) in k.to_vec::<f64>().unwrap().iter().zip(want) {
            assert!((g - w).abs() < 1e-15, "{dev}: {g} vs {w}");
        }
    }
}
