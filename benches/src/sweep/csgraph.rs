//! Sweep rows of `xp::sparse::csgraph` against `scipy.sparse.csgraph` (CuPy has no csgraph
//! beyond `connected_components`, which needs RAPIDS): every row's reference is SciPy on the
//! host, in the same run, whatever the device.
use super::{one, uniform, Row};
use xp::sparse::csgraph::{
    bellman_ford, breadth_first_order, connected_components, depth_first_order, dijkstra, floyd_warshall, johnson,
    maximum_bipartite_matching, minimum_spanning_tree, reverse_cuthill_mckee, Connection, PathOptions, PermType,
};
use xp::sparse::CsrArray;
use xp::{Array, DType, Device, Result};

/// A random graph of `n` vertices and `m` edges (duplicates summed), weights uniform in
/// [0.1, 1.1): the Python setup making `G` from the same draws, and the graph on `d`.
fn random_graph(n: usize, m: usize, seed: u64) -> (String, impl Fn(Device) -> Result<CsrArray>) {
    let setup = format!(
        "import scipy.sparse as SS, scipy.sparse.csgraph as CG\n\
         host = lambda x: x.get() if hasattr(x, 'get') else x\n\
         N, M = {n}, {m}; R = (host(uniform(M, {s0})).astype(np.float64) * N).astype(np.int64); \
         C = (host(uniform(M, {s1})).astype(np.float64) * N).astype(np.int64); W = host(uniform(M, {s2})).astype(np.float64) + 0.1\n\
         G = SS.coo_array((W, (R, C)), shape=(N, N)).tocsr()\n",
        s0 = seed,
        s1 = seed + 1,
        s2 = seed + 2
    );
    let make = move |d: Device| {
        let draw = |s: u64| -> Result<Array> { uniform(&[m], s, Device::Cpu)?.astype(DType::F64) };
        let idx = |s: u64| -> Result<Array> { draw(s)?.mul(n as f64)?.astype(DType::I64)?.to_device(d) };
        let w = draw(seed + 2)?.add(0.1)?.to_device(d)?;
        xp::sparse::CooArray::new(&w, &idx(seed)?, &idx(seed + 1)?, [n, n])?.tocsr()
    };
    (setup, make)
}

/// A row for `f(graph)` against SciPy's `call` on `G`.
fn graph_row(
    name: &str,
    what: &str,
    (n, m, seed): (usize, usize, u64),
    call: &str,
    f: impl Fn(&CsrArray) -> Result<Array> + Clone + 'static,
) -> Row {
    let (setup, make) = random_graph(n, m, seed);
    Row::new(&format!("sparse.csgraph.{name}"), format!("{what} (ref: SciPy)"), setup, call, move |d| {
        let g = make(d)?;
        let f = f.clone();
        one(move || f(&g))
    })
}

pub(super) fn rows(r: &mut Vec<Row>) {
    r.push(graph_row(
        "connected_components",
        "10^7 edges, 5·10^6 vertices",
        (5_000_000, 10_000_000, 21),
        "CG.connected_components(G, directed=False)[1]",
        |g| Ok(connected_components(g, false, Connection::Weak)?.1),
    ));
    let sources = || PathOptions { indices: Some((0..16).collect()), ..Default::default() };
    r.push(graph_row(
        "dijkstra",
        "10^5 vertices, 10^6 edges, 16 sources",
        (100_000, 1_000_000, 31),
        "CG.dijkstra(G, indices=np.arange(16), return_predecessors=True)[0]",
        move |g| Ok(dijkstra(g, &sources())?.dist),
    ));
    r.push(graph_row(
        "johnson",
        "2000 vertices, 2·10^4 edges, 16 sources",
        (2_000, 20_000, 41),
        "CG.johnson(G, indices=np.arange(16), return_predecessors=True)[0]",
        move |g| Ok(johnson(g, &sources())?.dist),
    ));
    r.push(graph_row(
        "bellman_ford",
        "2000 vertices, 2·10^4 edges, 16 sources",
        (2_000, 20_000, 41),
        "CG.bellman_ford(G, indices=np.arange(16), return_predecessors=True)[0]",
        move |g| Ok(bellman_ford(g, &sources())?.dist),
    ));
    r.push(graph_row(
        "floyd_warshall",
        "1000 vertices, 2·10^4 edges",
        (1000, 20_000, 51),
        "CG.floyd_warshall(G, return_predecessors=True)[0]",
        |g| Ok(floyd_warshall(g, &PathOptions::default())?.dist),
    ));
    let big = (1_000_000, 10_000_000, 61);
    r.push(graph_row(
        "breadth_first_order",
        "10^6 vertices, 10^7 edges, undirected",
        big,
        "CG.breadth_first_order(G, 0, directed=False)[0]",
        |g| Ok(breadth_first_order(g, 0, false)?.order),
    ));
    r.push(graph_row(
        "depth_first_order",
        "10^6 vertices, 10^7 edges, undirected",
        big,
        "CG.depth_first_order(G, 0, directed=False)[0]",
        |g| Ok(depth_first_order(g, 0, false)?.order),
    ));
    let mid = (100_000, 1_000_000, 71);
    r.push(
        graph_row("minimum_spanning_tree", "10^5 vertices, 10^6 edges", mid, "CG.minimum_spanning_tree(G)", |g| {
            Ok(minimum_spanning_tree(g)?.data().clone())
        })
        .out("[r.data]"),
    );
    r.push(graph_row("reverse_cuthill_mckee", "10^5 vertices, 10^6 edges", mid, "CG.reverse_cuthill_mckee(G)", |g| {
        reverse_cuthill_mckee(g, false)
    }));
    r.push(graph_row(
        "maximum_bipartite_matching",
        "10^5 × 10^5, 10^6 edges",
        mid,
        "CG.maximum_bipartite_matching(G)",
        |g| maximum_bipartite_matching(g, PermType::Row),
    ));
}
