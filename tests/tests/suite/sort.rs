//! Sorting and searching against NumPy (`tests/data/indexing.json`, made by
//! `scripts/gen_index_reference.py`): `sort`, `argsort` (stable, NaNs last, both zeros), `lexsort`
//! and `searchsorted` on every device and in every layout; the multi-block sizes are in
//! `indexing_props.rs`.
use super::common;
use serde_json::Value;
use xp_testing::Failures;

common::split_cases!(sorting_matches_numpy, "indexing");

fn sorting_matches_numpy(f: &mut Failures, dev: xp::Device, case: &Value) {
    super::indexing::check_case(f, dev, case, &super::indexing::SORT_OPS);
}
