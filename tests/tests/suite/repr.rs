//! `Display` against NumPy's `repr` for a set of arrays covering the formatting rules.
use super::common;

#[test]
fn display_matches_numpy_repr() {
    let mut bad = vec![];
    for case in common::load("repr") {
        let (buf, shape) = common::array(&case["input"]);
        let a = xp::Array::from_buffer(buf, &shape, xp::Device::Cpu).unwrap();
        let want = case["repr"].as_str().unwrap();
        let got = a.repr();
        if got != want {
            bad.push(format!("want:\n{want}\ngot:\n{got}\n"));
        }
    }
    assert!(bad.is_empty(), "{} of the reprs differ:\n{}", bad.len(), bad.join("\n"));
}
