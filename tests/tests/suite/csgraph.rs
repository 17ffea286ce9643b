//! `xp::sparse::csgraph` against SciPy (tests/data/csgraph.json, made by
//! scripts/gen_csgraph_reference.py): connected components (weak labels exactly SciPy's;
//! strong components the same partition; the GPU's label propagation forced on the CPU too), the
//! Laplacian plain and normed, the dense conversions, traversals and their trees (exactly
//! SciPy's), shortest paths by every method with predecessors (and the GPU's whole-array
//! Bellman–Ford and Floyd–Warshall forced on the CPU too), negative cycles as typed errors,
//! minimum spanning trees, reverse Cuthill–McKee (a permutation whose band is no wider than
//! SciPy's) and maximum matchings (valid, of SciPy's size), on every device.
use super::common::split_cases;
use serde_json::Value;
use xp::sparse::csgraph::{
    bellman_ford, breadth_first_order, breadth_first_tree, connected_components, csgraph_from_dense, csgraph_to_dense,
    depth_first_order, depth_first_tree, dijkstra, dijkstra_min_only, floyd_warshall, johnson, laplacian,
    maximum_bipartite_matching, minimum_spanning_tree, reverse_cuthill_mckee, shortest_path, structural_rank,
    Connection, Method, PathOptions, PermType, ShortestPaths,
};
use xp::sparse::{CooArray, CscArray, CsrArray};
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
        "traversal" => traversal(f, dev, c),
        "paths" => paths(f, dev, c),
        "mst" => {
            let got = minimum_spanning_tree(&matrix(c, dev));
            tree(f, &format!("{name} on {dev}"), got, &c["tree"], dev);
        }
        "rcm" => rcm(f, dev, c),
        "matching" => matching(f, dev, c),
        "to_dense" => to_dense(f, dev, c),
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

/// `csgraph_to_dense` of parts with duplicates (the lightest wins), an explicit zero and a
/// negative weight, as CSR and as CSC, the inputs untouched.
fn to_dense(f: &mut Failures, dev: Device, c: &Value) {
    let (data, indices, indptr) = (load(&c["data"], dev), load(&c["indices"], dev), load(&c["indptr"], dev));
    let csr = CsrArray::new(&data, &indices, &indptr, [3, 3]).unwrap();
    let csc = CscArray::new(&data, &indices, &indptr, [3, 3]).unwrap();
    let runs: [(&str, xp::Result<Array>); 3] = [
        ("zero", csgraph_to_dense(&csr, 0.0)),
        ("inf", csgraph_to_dense(&csr, f64::INFINITY)),
        ("csc_zero", csgraph_to_dense(&csc, 0.0)),
    ];
    for (key, got) in runs {
        let want = load(&c[key], dev).to_vec::<f64>().unwrap();
        match got.and_then(|g| g.to_vec::<f64>()) {
            Ok(g) => add(f, g == want, || format!("to_dense {key} on {dev}: {g:?}, SciPy {want:?}")),
            Err(e) => f.add(Err(format!("to_dense {key} on {dev}: {e}"))),
        }
    }
    add(f, csr.data().to_vec::<f64>().unwrap() == data.to_vec::<f64>().unwrap() && csr.nnz() == 6, || {
        format!("to_dense on {dev}: the input changed")
    });
}

/// The same cases with the GPU's label propagation forced on every device, the CPU included.
fn propagated(f: &mut Failures, dev: Device, c: &Value) {
    super::common::forced_gpu_paths(|| case(f, dev, c));
}
split_cases!(propagated, "csgraph");

/// A tree's dense matrix against SciPy's edges (row, col, data).
fn tree(f: &mut Failures, what: &str, got: xp::Result<CsrArray>, want: &Value, dev: Device) {
    let got = match got {
        Ok(t) => t,
        Err(e) => return f.add(Err(format!("{what}: {e}"))),
    };
    let n = got.shape()[0];
    let want = CooArray::new(&load(&want["data"], dev), &load(&want["row"], dev), &load(&want["col"], dev), [n, n])
        .unwrap()
        .toarray()
        .unwrap();
    add(f, got.device() == dev, || format!("{what}: tree on {}", got.device()));
    let d = max_diff(&got.toarray().unwrap(), &want);
    add(f, d == 0.0, || format!("{what}: tree differs by {d:e}"));
}

fn ints(a: &Array) -> Vec<i32> {
    a.to_vec::<i32>().unwrap()
}

fn traversal(f: &mut Failures, dev: Device, c: &Value) {
    let g = matrix(c, dev);
    for run in c["runs"].as_array().unwrap() {
        let (start, directed) = (run["start"].as_i64().unwrap(), run["directed"].as_bool().unwrap());
        let what = format!("{} from {start} directed={directed} on {dev}", c["name"]);
        for (key, got) in
            [("bfs", breadth_first_order(&g, start, directed)), ("dfs", depth_first_order(&g, start, directed))]
        {
            match got {
                Ok(t) => {
                    let want_o = ints(&load(&run[format!("{key}_order")], Device::Cpu));
                    let want_p = ints(&load(&run[format!("{key}_pred")], Device::Cpu));
                    add(f, t.order.device() == dev && t.order.dtype() == DType::I32, || {
                        format!("{what} {key}: dtype/device")
                    });
                    add(f, ints(&t.order) == want_o, || {
                        format!("{what} {key}: order {:?} != {want_o:?}", ints(&t.order))
                    });
                    add(f, ints(&t.predecessors) == want_p, || format!("{what} {key}: predecessors differ"));
                }
                Err(e) => f.add(Err(format!("{what} {key}: {e}"))),
            }
        }
        tree(f, &format!("{what} bfs"), breadth_first_tree(&g, start, directed), &run["bfs_tree"], dev);
        tree(f, &format!("{what} dfs"), depth_first_tree(&g, start, directed), &run["dfs_tree"], dev);
    }
}

/// Distances (relative 1e-12, inf where inf) and predecessors (exact) against SciPy's.
fn check_paths(f: &mut Failures, what: &str, got: xp::Result<ShortestPaths>, want: &Value, dev: Device) {
    let p = match got {
        Ok(p) => p,
        Err(e) => return f.add(Err(format!("{what}: {e}"))),
    };
    add(f, p.dist.device() == dev && p.predecessors.dtype() == DType::I32, || format!("{what}: dtype/device"));
    let (dist, wd) = (p.dist.to_vec::<f64>().unwrap(), load(&want["dist"], Device::Cpu).to_vec::<f64>().unwrap());
    let close = dist.len() == wd.len()
        && dist.iter().zip(&wd).all(|(a, b)| a == b || (a - b).abs() <= 1e-12 * b.abs().max(1.0));
    add(f, close, || format!("{what}: distances differ"));
    add(f, ints(&p.predecessors) == ints(&load(&want["pred"], Device::Cpu)), || format!("{what}: predecessors differ"));
}

fn paths(f: &mut Failures, dev: Device, c: &Value) {
    let name = c["name"].as_str().unwrap();
    let g = matrix(c, dev);
    let graph = c["graph"].as_str().unwrap();
    let directed = graph != "undirected";
    let o = PathOptions { directed, ..Default::default() };
    type Solver = fn(&dyn xp::sparse::Sparse, &PathOptions) -> xp::Result<ShortestPaths>;
    let all: [(&str, Solver); 4] = [("D", dijkstra), ("BF", bellman_ford), ("J", johnson), ("FW", floyd_warshall)];
    if graph == "cycle" {
        for (m, solve) in &all[1..] {
            let r = solve(&g, &o);
            let typed = matches!(r, Err(xp::Error::LinAlg { kind: xp::LinAlgKind::NegativeCycle { .. }, .. }));
            add(f, typed, || format!("{name} {m} on {dev}: {:?}, not a NegativeCycle", r.map(|_| ())));
        }
        // undirected, the negative edge walked there and back is a cycle
        let r = bellman_ford(&g, &PathOptions { directed: false, ..Default::default() });
        add(f, r.is_err(), || format!("{name} undirected BF on {dev}: no error"));
        return;
    }
    let skip_d = graph == "negative";
    for (m, solve) in all {
        if !(skip_d && m == "D") {
            check_paths(f, &format!("{name} {m} on {dev}"), solve(&g, &o), &c["all"], dev);
        }
    }
    check_paths(f, &format!("{name} auto on {dev}"), shortest_path(&g, Method::Auto, &o), &c["all"], dev);
    if graph != "positive" {
        return;
    }
    let sources: Vec<i64> = c["sources"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect();
    let os = PathOptions { indices: Some(sources), ..Default::default() };
    for (m, solve) in &all[..3] {
        check_paths(f, &format!("{name} {m} sources on {dev}"), solve(&g, &os), &c["from_sources"], dev);
    }
    let dists = |r: xp::Result<Array>, want: &Value, what: &str, f: &mut Failures| match r {
        Ok(d) => {
            let w = load(want, dev);
            let same_inf = d.isinf().unwrap().eq(&w.isinf().unwrap()).unwrap().all(..).unwrap().to_bool().unwrap();
            let fin = |a: &Array| xp::where_(&a.isinf().unwrap(), 0.0, a).unwrap();
            let diff = max_diff(&fin(&d), &fin(&w));
            add(f, same_inf && diff <= 1e-12, || format!("{name} {what} on {dev}: off by {diff:e}"));
        }
        Err(e) => f.add(Err(format!("{name} {what} on {dev}: {e}"))),
    };
    let unweighted = PathOptions { unweighted: true, ..Default::default() };
    dists(shortest_path(&g, Method::Dijkstra, &unweighted).map(|p| p.dist), &c["unweighted"], "unweighted", f);
    dists(bellman_ford(&g, &unweighted).map(|p| p.dist), &c["unweighted"], "unweighted BF", f);
    let limited = PathOptions { limit: c["limit"].as_f64().unwrap(), ..Default::default() };
    dists(dijkstra(&g, &limited).map(|p| p.dist), &c["limited"], "limit", f);
    let mo = &c["min_only"];
    let srcs: Vec<i64> = mo["sources"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect();
    match dijkstra_min_only(&g, &PathOptions { indices: Some(srcs), ..Default::default() }) {
        Ok(r) => {
            dists(Ok(r.dist), &mo["dist"], "min_only", f);
            add(f, ints(&r.predecessors) == ints(&load(&mo["pred"], Device::Cpu)), || format!("{name} min_only pred"));
            add(f, ints(&r.sources) == ints(&load(&mo["source"], Device::Cpu)), || format!("{name} min_only sources"));
        }
        Err(e) => f.add(Err(format!("{name} min_only on {dev}: {e}"))),
    }
    // bad input: a source out of range, Floyd–Warshall with sources, a negative limit
    let bad = PathOptions { indices: Some(vec![24]), ..Default::default() };
    add(f, dijkstra(&g, &bad).is_err() && floyd_warshall(&g, &os).is_err(), || format!("{name}: bad sources accepted"));
    add(f, dijkstra(&g, &PathOptions { limit: -1.0, ..Default::default() }).is_err(), || format!("{name}: limit -1"));
}

/// The widest distance from the diagonal of the pattern of `A + Aᵀ` permuted by `perm`.
fn bandwidth(c: &Value, perm: &[i32]) -> i64 {
    let mut at = vec![0i64; perm.len()];
    for (k, &v) in perm.iter().enumerate() {
        at[v as usize] = k as i64;
    }
    let rows = load(&c["row"], Device::Cpu).to_vec::<i64>().unwrap();
    let cols = load(&c["col"], Device::Cpu).to_vec::<i64>().unwrap();
    rows.iter().zip(&cols).map(|(&i, &j)| (at[i as usize] - at[j as usize]).abs()).max().unwrap_or(0)
}

fn rcm(f: &mut Failures, dev: Device, c: &Value) {
    let name = c["name"].as_str().unwrap();
    match reverse_cuthill_mckee(&matrix(c, dev), c["symmetric"].as_bool().unwrap()) {
        Ok(p) => {
            let perm = ints(&p);
            let mut sorted = perm.clone();
            sorted.sort_unstable();
            add(f, sorted == (0..perm.len() as i32).collect::<Vec<_>>(), || {
                format!("{name} on {dev}: not a permutation")
            });
            let (got, want) = (bandwidth(c, &perm), c["bandwidth"].as_i64().unwrap());
            add(f, got <= want, || format!("{name} on {dev}: bandwidth {got}, SciPy's {want}"));
        }
        Err(e) => f.add(Err(format!("{name} on {dev}: {e}"))),
    }
}

fn matching(f: &mut Failures, dev: Device, c: &Value) {
    let name = c["name"].as_str().unwrap();
    let g = matrix(c, dev);
    let dense = g.toarray().unwrap().to_vec::<f64>().unwrap();
    let [m, n] = g.shape();
    for (key, perm) in [("rows", PermType::Row), ("columns", PermType::Column)] {
        let got = ints(&maximum_bipartite_matching(&g, perm).unwrap());
        // a valid matching: each matched pair an edge, no vertex matched twice
        let pairs: Vec<(usize, usize)> = got
            .iter()
            .enumerate()
            .filter(|&(_, &x)| x >= 0)
            .map(|(k, &x)| if perm == PermType::Row { (x as usize, k) } else { (k, x as usize) })
            .collect();
        let edges = pairs.iter().all(|&(i, j)| dense[i * n + j] != 0.0);
        let mut rows: Vec<usize> = pairs.iter().map(|p| p.0).collect();
        rows.sort_unstable();
        rows.dedup();
        let len = if perm == PermType::Row { n } else { m };
        let ok =
            got.len() == len && edges && rows.len() == pairs.len() && pairs.len() as u64 == c[key].as_u64().unwrap();
        add(f, ok, || format!("{name} {key} on {dev}: {} pairs (SciPy {}), valid {edges}", pairs.len(), c[key]));
    }
    let r = structural_rank(&g).unwrap();
    add(f, r as u64 == c["rank"].as_u64().unwrap(), || {
        format!("{name} on {dev}: structural rank {r}, SciPy {}", c["rank"])
    });
}

/// Bad input gives typed errors and leaves the graph untouched: a non-square graph, a start
/// vertex out of range, predecessors of the wrong length.
#[test]
fn bad_input() {
    for dev in xp_testing::devices() {
        let d = Array::from_vec(vec![0.0, 1.0, 2.0, 0.0, 0.0, 3.0], [2, 3]).unwrap().to_device(dev).unwrap();
        let wide = CsrArray::from_dense(&d).unwrap();
        let invalid = |r: xp::Result<()>| matches!(r, Err(xp::Error::InvalidArgument { .. }));
        assert!(invalid(breadth_first_order(&wide, 0, true).map(|_| ())), "on {dev}");
        assert!(invalid(depth_first_order(&wide, 0, false).map(|_| ())));
        assert!(invalid(minimum_spanning_tree(&wide).map(|_| ())));
        assert!(invalid(reverse_cuthill_mckee(&wide, false).map(|_| ())));
        assert!(invalid(dijkstra(&wide, &PathOptions::default()).map(|_| ())));
        // a rectangular graph is a fine bipartite graph
        assert_eq!(structural_rank(&wide).unwrap(), 2);
        let sq =
            CsrArray::from_dense(&Array::from_vec(vec![0.0, 1.0, 1.0, 0.0], [2, 2]).unwrap().to_device(dev).unwrap())
                .unwrap();
        assert!(invalid(breadth_first_order(&sq, 2, true).map(|_| ())));
        assert!(invalid(depth_first_order(&sq, -3, true).map(|_| ())));
        // a negative start counts from the end
        assert_eq!(ints(&breadth_first_order(&sq, -1, true).unwrap().order), vec![1, 0]);
        let three = Array::from_vec(vec![0i32, 0, 0], [3]).unwrap().to_device(dev).unwrap();
        assert!(invalid(xp::sparse::csgraph::reconstruct_path(&sq, &three, true).map(|_| ())));
        assert_eq!(sq.toarray().unwrap().to_vec::<f64>().unwrap(), vec![0.0, 1.0, 1.0, 0.0]);
    }
}
