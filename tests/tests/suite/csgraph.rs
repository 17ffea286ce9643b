//! `xp::sparse::csgraph` against SciPy (tests/data/csgraph.json, made by
//! scripts/gen_csgraph_reference.py): connected components (weak labels exactly SciPy's;
//! strong components the same partition; the GPU's label propagation forced on the CPU too), the Laplacian plain and normed, and the dense
//! conversions, on every device.
use super::common::split_cases;
use serde_json::Value;
use xp::sparse::csgraph::{connected_components, csgraph_from_dense, csgraph_to_dense, laplacian, Connection};
use xp::sparse::CsrArray;
use xp::{Array, DType, Device};
use xp_testing::Failures;

fn load(v: &Value, dev: Device) -> Array {
    super::common::load_on(v, dev)
}

fn matrix(c: &Value, dev: Device) -> CsrArray {
    super::common::coo_case(c, dev)
}

fn add(f: &mut Failures, ok: bool, msg: impl FnOnce() -> String) {
    f.add(if ok { Ok(()) } else { Err(msg()) });
}

/// Whether two labelings define the same partition.
fn same_partition(a: &[i32], b: &[i32]) -> bool {
    let mut ab = std::collections::HashMap::new();
    let mut ba = std::collections::HashMap::new();
    a.iter().zip(b).all(|(x, y)| *ab.entry(*x).or_insert(*y) == *y && *ba.entry(*y).or_insert(*x) == *x)
}

fn max_diff(a: &Array, b: &Array) -> f64 {
    a.astype(DType::F64)
        .unwrap()
        .sub(&b.astype(DType::F64).unwrap())
        .unwrap()
        .abs()
        .unwrap()
        .max(..)
        .unwrap()
        .to_f64()
        .unwrap()
}

fn case(f: &mut Failures, dev: Device, c: &Value) {
    let name = c["name"].as_str().unwrap();
    match c["group"].as_str().unwrap() {
        "components" => {
            let g = matrix(c, dev);
            for (key, directed, conn) in [
                ("weak", true, Connection::Weak),
                ("strong", true, Connection::Strong),
                ("undirected", false, Connection::Weak),
            ] {
                let want_n = c[key]["n"].as_u64().unwrap() as usize;
                let want = load(&c[key]["labels"], Device::Cpu).to_vec::<i32>().unwrap();
                match connected_components(&g, directed, conn) {
                    Ok((n, labels)) => {
                        add(f, labels.device() == dev && labels.dtype() == DType::I32, || {
                            format!("{name} {key}: {} on {}", labels.dtype(), labels.device())
                        });
                        let got = labels.to_vec::<i32>().unwrap();
                        let ok = n == want_n && if key == "strong" { same_partition(&got, &want) } else { got == want };
                        add(f, ok, || format!("{name} {key} on {dev}: {n} components (SciPy {want_n}), labels differ"));
                    }
                    Err(e) => f.add(Err(format!("{name} {key} on {dev}: {e}"))),
                }
            }
        }
        "laplacian" => {
            let g = matrix(c, dev);
            let tol = if c["dtype"] == "float32" { 1e-5 } else { 1e-12 };
            for (key, normed) in [("plain", false), ("normed", true)] {
                match laplacian(&g, normed) {
                    Ok(l) => {
                        let d = max_diff(&l.toarray().unwrap(), &load(&c[key], dev));
                        add(f, d <= tol, || format!("{name} {key} on {dev}: off by {d:e}"));
                    }
                    Err(e) => f.add(Err(format!("{name} {key} on {dev}: {e}"))),
                }
            }
        }
        _ => {
            let m = load(&c["dense"], dev);
            // SciPy's defaults (NaN and inf are non-edges), then inf kept as an edge
            for (key, inf_null) in [("default", true), ("inf_edges", false)] {
                match csgraph_from_dense(&m, 0.0, true, inf_null).and_then(|g| csgraph_to_dense(&g, 0.0)) {
                    Ok(back) => {
                        let want = load(&c[key], dev);
                        // inf compares as inf: both sides' inf positions and the finite rest
                        let same_inf = back
                            .isinf()
                            .unwrap()
                            .eq(&want.isinf().unwrap())
                            .unwrap()
                            .all(..)
                            .unwrap()
                            .to_bool()
                            .unwrap();
                        let fin = |a: &Array| xp::where_(&a.isinf().unwrap(), 0.0, a).unwrap();
                        add(f, same_inf && max_diff(&fin(&back), &fin(&want)) == 0.0, || {
                            format!("{name} {key} on {dev}: differs")
                        });
                    }
                    Err(e) => f.add(Err(format!("{name} {key} on {dev}: {e}"))),
                }
            }
        }
    }
}
split_cases!(case, "csgraph");

/// The same cases with the GPU's label propagation forced on every device, the CPU included.
fn propagated(f: &mut Failures, dev: Device, c: &Value) {
    super::common::forced_gpu_paths(|| case(f, dev, c));
}
split_cases!(propagated, "csgraph");
