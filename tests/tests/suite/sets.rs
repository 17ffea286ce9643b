//! Set routines against NumPy (`tests/data/indexing.json`, made by
//! `scripts/gen_index_reference.py`): `unique` with every output, `isin`, `intersect1d`, `union1d`,
//! `setdiff1d` and `setxor1d`, on every device and in every layout.
use super::common;
use serde_json::Value;
use xp_testing::Failures;

common::split_cases!(sets_match_numpy, "indexing");

fn sets_match_numpy(f: &mut Failures, dev: xp::Device, case: &Value) {
    super::indexing::check_case(f, dev, case, &super::indexing::SET_OPS);
}
