//! `ndimage.label` against SciPy (`tests/data/label.json`, made by
//! `scripts/gen_special_reference.py`): ranks 1–4 with every connectivity, integer and float
//! inputs, empty, all-background, all-foreground and a spiral whose union–find trees are deep,
//! in every layout, on every device; then the structure checks.
use crate::common::{self, split_cases};
use serde_json::Value;
use xp::ndimage::{generate_binary_structure, label};
use xp::{Array, Device, Result};
use xp_testing::Failures;

fn run(case: &Value, dev: Device, x: &[Array]) -> Result<Vec<Array>> {
    let st = case["connectivity"].as_u64().map(|c| generate_binary_structure(x[0].ndim(), c as usize).unwrap());
    let r = label(&x[0], st.as_ref())?;
    Ok(vec![r.labels, xp::on(dev).asarray(vec![r.num_features as i64], [])?])
}

fn reference(f: &mut Failures, dev: Device, case: &Value) {
    let want = common::expected_all(case);
    let inputs: Vec<common::Input> = case["args"].as_array().unwrap().iter().map(common::array).collect();
    let what = format!("label connectivity {}", case["connectivity"]);
    common::check_layouts(f, dev, &inputs, &want, &what, true, |x| run(case, dev, x));
}

split_cases!(reference, "label");

/// SciPy's structure rules: 3 along every axis of the input, symmetric about the centre; complex
/// input refused; a 0-d input is one component or none; the structures themselves as SciPy's.
#[test]
fn structures_are_checked_and_generated_as_scipy() {
    let cross = generate_binary_structure(2, 1).unwrap().to_vec::<bool>().unwrap();
    assert_eq!(cross, vec![false, true, false, true, true, true, false, true, false]);
    let full3 = generate_binary_structure(3, 3).unwrap();
    assert!(full3.to_vec::<bool>().unwrap().iter().all(|&b| b));
    let face3 = generate_binary_structure(3, 1).unwrap().to_vec::<bool>().unwrap();
    assert_eq!(face3.iter().filter(|&&b| b).count(), 7);
    for dev in xp_testing::devices() {
        let x = xp::on(dev).ones([4, 4], xp::DType::Bool).unwrap();
        let wrong = xp::on(dev).ones([3, 3, 3], xp::DType::Bool).unwrap();
        assert!(matches!(label(&x, Some(&wrong)), Err(xp::Error::InvalidArgument { .. })), "{dev}");
        let lopsided =
            Array::from_vec(vec![true, true, false, true, true, false, false, false, false], [3, 3]).unwrap();
        assert!(matches!(label(&x, Some(&lopsided)), Err(xp::Error::InvalidArgument { .. })), "{dev}");
        let z = xp::on(dev).zeros([3], xp::DType::C64).unwrap();
        assert!(matches!(label(&z, None), Err(xp::Error::InvalidDType { .. })), "{dev}");
        let one = label(&Array::scalar_on(2.5, xp::DType::F64, dev).unwrap(), None).unwrap();
        assert_eq!((one.labels.shape(), one.labels.item::<i32>().unwrap(), one.num_features), (&[][..], 1, 1));
    }
}
