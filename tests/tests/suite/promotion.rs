//! The 15×15 promotion table against NumPy 2 (bfloat16 against ml_dtypes; where ml_dtypes has no
//! common dtype, xp's documented extension: bfloat16 with float16 or 16-bit integers gives float32).
use super::common;
use xp::{promote_types, DType};

#[test]
fn promotion_table_matches_numpy() {
    let rows = common::load("promotion");
    assert_eq!(rows.len(), 225);
    for r in rows {
        let a = DType::from_name(r["a"].as_str().unwrap()).unwrap();
        let b = DType::from_name(r["b"].as_str().unwrap()).unwrap();
        let got = promote_types(a, b);
        match r["result"].as_str() {
            Some(want) => assert_eq!(got.name(), want, "promote_types({a}, {b})"),
            None => {
                // xp's extension: the smallest float (or complex) that holds both exactly.
                assert!(xp::can_cast_safe(a, got) && xp::can_cast_safe(b, got), "{a}+{b} -> {got}");
                assert_eq!(got, promote_types(b, a), "symmetric");
                assert!(got.is_inexact(), "{a}+{b} -> {got}");
            }
        }
    }
}
