//! Advanced indexing and scatters against NumPy (`tests/data/indexing.json`, made by
//! `scripts/gen_index_reference.py`), on every device, with every input (index arrays included)
//! in every layout variant. The same file's sort and set cases are checked by `sort.rs` and
//! `sets.rs` through [`check_case`].
use super::common;
use serde_json::Value;
use xp::{Array, BinaryUfunc, IndexItem, IndexMode, Result, Side, SliceElem, UniqueOptions};
use xp_testing::Failures;

fn isz(v: &Value) -> isize {
    v.as_i64().expect("integer argument") as isize
}
fn usizes(v: &Value) -> Vec<usize> {
    v.as_array().unwrap().iter().map(|x| x.as_u64().unwrap() as usize).collect()
}
fn mode(v: &Value) -> IndexMode {
    match v.as_str().unwrap() {
        "raise" => IndexMode::Raise,
        "wrap" => IndexMode::Wrap,
        _ => IndexMode::Clip,
    }
}
fn index(v: &Value, x: &[Array]) -> Vec<IndexItem> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|e| {
            if let Some(k) = e.get("arr") {
                IndexItem::Array(x[k.as_u64().unwrap() as usize].clone())
            } else if e.get("new").is_some() {
                IndexItem::Basic(SliceElem::NewAxis)
            } else if e.get("ell").is_some() {
                IndexItem::Basic(SliceElem::Ellipsis)
            } else if let Some(i) = e.get("i") {
                IndexItem::Basic(SliceElem::Index(isz(i)))
            } else {
                let s = &e["s"];
                let o = |k: usize| s[k].as_i64().map(|x| x as isize);
                IndexItem::Basic(SliceElem::Slice { start: o(0), stop: o(1), step: o(2).unwrap_or(1) })
            }
        })
        .collect()
}

/// Run `op`; in-place operations return their first argument afterwards.
pub(super) fn run(op: &str, x: &[Array], p: &Value, dev: xp::Device) -> Result<Vec<Array>> {
    let one = |r: Result<Array>| r.map(|v| vec![v]);
    let after = |r: Result<()>| r.map(|_| vec![x[0].clone()]);
    let axis = |v: &Value| v.as_i64().map(|a| a as isize);
    let refs: Vec<&Array> = x.iter().collect();
    match op {
        "getitem" => one(x[0].get(index(&p["index"], x))),
        "setitem" => after(x[0].set(index(&p["index"], x), x.last().unwrap())),
        "take" => one(x[0].take_mode(&x[1], axis(&p["axis"]), mode(&p["mode"]))),
        "put" => after(x[0].put(&x[1], &x[2], mode(&p["mode"]))),
        "take_along_axis" => one(xp::take_along_axis(&x[0], &x[1], isz(&p["axis"]))),
        "put_along_axis" => after(xp::put_along_axis(&x[0], &x[1], &x[2], isz(&p["axis"]))),
        "compress" => one(xp::compress(&x[0], &x[1], axis(&p["axis"]))),
        "extract" => one(xp::extract(&x[0], &x[1])),
        "place" => after(xp::place(&x[0], &x[1], &x[2])),
        "choose" => one(xp::choose(&x[0], &refs[1..], mode(&p["mode"]))),
        "select" => one(xp::select(&refs[..2], &refs[2..], p["default"].as_f64().unwrap())),
        "nonzero" => xp::nonzero(&x[0]),
        "argwhere" => one(xp::argwhere(&x[0])),
        "flatnonzero" => one(xp::flatnonzero(&x[0])),
        "ix_" => xp::ix_(&refs),
        "unravel_index" => xp::unravel_index(&x[0], &usizes(&p["shape"])),
        "ravel_multi_index" => one(xp::ravel_multi_index(&refs, &usizes(&p["dims"]), mode(&p["mode"]))),
        "tril_indices" | "triu_indices" => {
            let (n, k, m) = (p["n"].as_u64().unwrap() as usize, isz(&p["k"]), p["m"].as_u64().map(|m| m as usize));
            let f = if op == "tril_indices" { xp::tril_indices } else { xp::triu_indices };
            f(n, k, m, dev).map(|(r, c)| vec![r, c])
        }
        "diag_indices" => {
            xp::diag_indices(p["n"].as_u64().unwrap() as usize, p["ndim"].as_u64().unwrap() as usize, dev)
        }
        "ufunc_at" => after(common::binary_op(p["ufunc"].as_str().unwrap()).at(&x[0], &x[1], &x[2])),
        "sort" => one(x[0].sort(axis(&p["axis"]))),
        "argsort" => one(x[0].argsort(axis(&p["axis"]))),
        "lexsort" => one(xp::lexsort(&refs)),
        "searchsorted" => {
            let side = if p["side"] == "left" { Side::Left } else { Side::Right };
            one(xp::searchsorted(&x[0], &x[1], side, x.get(2)))
        }
        "unique" => {
            let u = xp::unique(&x[0], UniqueOptions::ALL, axis(&p["axis"]))?;
            Ok(vec![u.values, u.indices.unwrap(), u.inverse.unwrap(), u.counts.unwrap()])
        }
        "isin" => one(xp::isin(&x[0], &x[1])),
        "intersect1d" => one(xp::intersect1d(&x[0], &x[1])),
        "union1d" => one(xp::union1d(&x[0], &x[1])),
        "setdiff1d" => one(xp::setdiff1d(&x[0], &x[1])),
        "setxor1d" => one(xp::setxor1d(&x[0], &x[1])),
        _ => panic!("unknown op {op}"),
    }
}

/// The ops of `tests/data/indexing.json` that `sort.rs` and `sets.rs` check.
pub(super) const SORT_OPS: [&str; 4] = ["sort", "argsort", "lexsort", "searchsorted"];
pub(super) const SET_OPS: [&str; 6] = ["unique", "isin", "intersect1d", "union1d", "setdiff1d", "setxor1d"];

/// Check `case` of `tests/data/indexing.json` (made by `scripts/gen_index_reference.py`) when its
/// op is one of `ops` (all but the sort and set ops when `ops` is empty).
pub(super) fn check_case(f: &mut Failures, dev: xp::Device, case: &Value, ops: &[&str]) {
    let op = case["op"].as_str().unwrap();
    let mine = if ops.is_empty() { !SORT_OPS.contains(&op) && !SET_OPS.contains(&op) } else { ops.contains(&op) };
    if !mine {
        return;
    }
    let inputs: Vec<_> = case["args"].as_array().unwrap().iter().map(common::array).collect();
    let what = format!("{op} {}", case["params"]);
    common::check_layouts(f, dev, &inputs, &common::expected_all(case), &what, true, |x| {
        run(op, x, &case["params"], dev)
    });
}

common::split_cases!(indexing_matches_numpy, "indexing");

fn indexing_matches_numpy(f: &mut Failures, dev: xp::Device, case: &Value) {
    check_case(f, dev, case, &[]);
}
