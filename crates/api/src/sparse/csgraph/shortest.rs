//! Shortest paths (SciPy's `shortest_path`, `dijkstra`, `bellman_ford`, `johnson`,
//! `floyd_warshall`), with the predecessors of each path.
//!
//! Where each runs: Dijkstra (a priority queue, sequential) and Johnson (Bellman–Ford once from a
//! virtual vertex, then Dijkstra) on the host; Bellman–Ford and Floyd–Warshall on the graph's
//! device — on a GPU as whole-array rounds (Bellman–Ford relaxes every edge for every source at
//! once by a scatter minimum until nothing changes; Floyd–Warshall updates the whole distance
//! matrix through each intermediate vertex), on the CPU as SciPy's loops.
//!
//! ```
//! use xp::sparse::csgraph::{shortest_path, Method, PathOptions, NULL_IDX};
//! // 0 → 1 (weight 1), 1 → 2 (2), 0 → 2 (5): the way to 2 is through 1
//! let d = xp::Array::from_vec(vec![0.0, 1.0, 5.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0], &[3, 3]).unwrap();
//! let g = xp::sparse::CsrArray::from_dense(&d).unwrap();
//! let p = shortest_path(&g, Method::Dijkstra, &PathOptions::default()).unwrap();
//! assert_eq!(p.dist.to_vec::<f64>().unwrap()[..3], [0.0, 1.0, 3.0]);
//! assert_eq!(p.predecessors.to_vec::<i32>().unwrap()[..3], [NULL_IDX, 0, 1]);
//! ```
use super::{i32_on, square, vertex, Host, NULL_IDX};
use crate::sparse::arith::Sparse;
use crate::{s, Array};
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use xp_core::{DType, Device, Error, LinAlgKind, Result};

/// The algorithm (SciPy's `method`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Method {
    /// SciPy's choice: Dijkstra (Johnson with a negative weight) when `indices` are given or the
    /// graph has fewer than `N²/4` edges, Floyd–Warshall otherwise
    #[default]
    Auto,
    /// all pairs, `O(N³)` (`'FW'`)
    FloydWarshall,
    /// non-negative weights (`'D'`)
    Dijkstra,
    /// negative weights allowed, `O(N·E)` a source (`'BF'`)
    BellmanFord,
    /// negative weights allowed: Bellman–Ford once, then Dijkstra (`'J'`)
    Johnson,
}

/// The options SciPy's shortest-path functions share.
#[derive(Clone, Debug, PartialEq)]
pub struct PathOptions {
    /// walk edges only along their direction (default); `false` both ways
    pub directed: bool,
    /// every edge of weight 1
    pub unweighted: bool,
    /// the sources (negative from the end); `None`: every vertex
    pub indices: Option<Vec<i64>>,
    /// Dijkstra only: vertices farther than this stay unreached (infinite)
    pub limit: f64,
}

impl Default for PathOptions {
    fn default() -> Self {
        PathOptions { directed: true, unweighted: false, indices: None, limit: f64::INFINITY }
    }
}

/// Distances from each source `(sources, N)` float64, `inf` where unreachable, and each path's
/// last step: `predecessors[i, j]` the vertex before `j` on the path from source `i` (int32,
/// [`NULL_IDX`] where none). On the graph's device.
#[derive(Clone, Debug)]
pub struct ShortestPaths {
    /// `(sources, N)` distances
    pub dist: Array,
    /// `(sources, N)` predecessors
    pub predecessors: Array,
}

/// [`dijkstra_min_only`]'s answer, each `(N,)`: the distance to the nearest source, the vertex
/// before each on that path, and which source it is ([`NULL_IDX`] where none).
#[derive(Clone, Debug)]
pub struct NearestSource {
    /// distance to the nearest source
    pub dist: Array,
    /// the vertex before each on its path
    pub predecessors: Array,
    /// the nearest source of each vertex
    pub sources: Array,
}

/// The graph on the host (weights 1 if unweighted), its transpose for undirected walks, and
/// the sources.
struct Problem {
    n: usize,
    h: Host,
    t: Option<Host>,
    sources: Vec<usize>,
    dev: Device,
}

fn problem(op: &'static str, g: &dyn Sparse, o: &PathOptions) -> Result<Problem> {
    let n = square(g, op)?;
    if o.limit.is_nan() || o.limit < 0.0 {
        return Err(Error::invalid(op, format!("limit must be >= 0, got {}", o.limit)));
    }
    let sources = match &o.indices {
        None => (0..n).collect(),
        Some(v) => v.iter().map(|&i| vertex(op, i, n)).collect::<Result<Vec<_>>>()?,
    };
    let mut h = Host::of(g)?;
    if o.unweighted {
        h.w.iter_mut().for_each(|w| *w = 1.0);
    }
    let t = (!o.directed).then(|| h.transpose());
    Ok(Problem { n, h, t, sources, dev: g.device() })
}

fn negative_cycle(op: &'static str, vertex: usize) -> Error {
    Error::LinAlg { op, kind: LinAlgKind::NegativeCycle { vertex } }
}

fn answer(dist: Vec<f64>, pred: Vec<i32>, rows: usize, n: usize, dev: Device) -> Result<ShortestPaths> {
    Ok(ShortestPaths {
        dist: Array::from_vec(dist, [rows, n])?.to_device(dev)?,
        predecessors: i32_on(pred, &[rows, n], dev)?,
    })
}

/// Shortest paths by `method` (SciPy's `shortest_path(..., return_predecessors=True)`); see
/// the functions of each method. A negative cycle is `Err(LinAlg { NegativeCycle })`.
pub fn shortest_path(g: &dyn Sparse, method: Method, o: &PathOptions) -> Result<ShortestPaths> {
    let method = match method {
        Method::Auto => {
            let n = square(g, "shortest_path")?;
            let c = g.canonical_csr()?;
            if o.indices.is_some() || (c.nnz() as f64) < (n * n) as f64 / 4.0 {
                let negative = c.data().astype(DType::F64)?.lt(0.0)?.any(..)?.to_bool()?;
                if negative && !o.unweighted {
                    Method::Johnson
                } else {
                    Method::Dijkstra
                }
            } else {
                Method::FloydWarshall
            }
        }
        m => m,
    };
    match method {
        Method::FloydWarshall => floyd_warshall(g, o),
        Method::BellmanFord => bellman_ford(g, o),
        Method::Johnson => johnson(g, o),
        _ => dijkstra(g, o),
    }
}

/// A heap entry ordered as SciPy's `priority_queue` of `(-distance, vertex)`: nearest first,
/// the larger vertex first among equals.
#[derive(PartialEq)]
struct Entry(f64, usize);
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        other.0.total_cmp(&self.0).then(self.1.cmp(&other.1))
    }
}

/// Dijkstra from `sources` at once into one row (`dist`, `pred`, `src`), as SciPy's: a vertex
/// is scanned when popped at its current distance; an edge relaxes when it shortens a distance
/// and stays within `limit`.
fn dijkstra_row(p: &Problem, sources: &[usize], limit: f64, dist: &mut [f64], pred: &mut [i32], src: &mut [i32]) {
    let mut heap = BinaryHeap::new();
    for &s in sources {
        dist[s] = 0.0;
        src[s] = s as i32;
        heap.push(Entry(0.0, s));
    }
    while let Some(Entry(d, v)) = heap.pop() {
        if dist[v] < d {
            continue;
        }
        for h in std::iter::once(&p.h).chain(p.t.as_ref()) {
            for k in h.row(v) {
                let (w, next) = (h.col(k), d + h.w[k]);
                if next <= limit && dist[w] > next {
                    dist[w] = next;
                    pred[w] = v as i32;
                    src[w] = src[v];
                    heap.push(Entry(next, w));
                }
            }
        }
    }
}

/// Dijkstra's algorithm from each source (SciPy's `dijkstra(..., return_predecessors=True)`):
/// non-negative weights (a negative one gives what SciPy's gives: no warning, no guarantee). On
/// the host.
pub fn dijkstra(g: &dyn Sparse, o: &PathOptions) -> Result<ShortestPaths> {
    let p = problem("dijkstra", g, o)?;
    from_each_source(&p, o.limit, |_, _| {})
}

/// Dijkstra from each source separately, the sources in parallel; `finish(source, row)`
/// adjusts each row of distances after its search.
fn from_each_source(p: &Problem, limit: f64, finish: impl Fn(usize, &mut [f64]) + Sync) -> Result<ShortestPaths> {
    use rayon::prelude::*;
    let (rows, n) = (p.sources.len(), p.n);
    let (mut dist, mut pred) = (vec![f64::INFINITY; rows * n], vec![NULL_IDX; rows * n]);
    if n > 0 {
        dist.par_chunks_mut(n).zip(pred.par_chunks_mut(n)).enumerate().for_each(|(i, (d, pr))| {
            let mut src = vec![NULL_IDX; n];
            let s = p.sources[i];
            dijkstra_row(p, &[s], limit, d, pr, &mut src);
            finish(s, d);
        });
    }
    answer(dist, pred, rows, n, p.dev)
}

/// Dijkstra from all `indices` at once (SciPy's `dijkstra(..., min_only=True,
/// return_predecessors=True)`): each vertex's distance to the nearest source.
pub fn dijkstra_min_only(g: &dyn Sparse, o: &PathOptions) -> Result<NearestSource> {
    let p = problem("dijkstra", g, o)?;
    let n = p.n;
    let (mut dist, mut pred, mut src) = (vec![f64::INFINITY; n], vec![NULL_IDX; n], vec![NULL_IDX; n]);
    dijkstra_row(&p, &p.sources, o.limit, &mut dist, &mut pred, &mut src);
    Ok(NearestSource {
        dist: Array::from_vec(dist, [n])?.to_device(p.dev)?,
        predecessors: i32_on(pred, &[n], p.dev)?,
        sources: i32_on(src, &[n], p.dev)?,
    })
}

fn no_limit(op: &'static str, o: &PathOptions) -> Result<()> {
    if o.limit != f64::INFINITY {
        return Err(Error::invalid(op, "limit applies to dijkstra only"));
    }
    Ok(())
}

/// Bellman–Ford from each source (SciPy's `bellman_ford(..., return_predecessors=True)`):
/// negative weights allowed; a negative cycle reachable from a source is `Err(LinAlg {
/// NegativeCycle { vertex: source } })` (undirected, any negative edge is one). On a GPU every
/// source and edge relax at once each round.
pub fn bellman_ford(g: &dyn Sparse, o: &PathOptions) -> Result<ShortestPaths> {
    let op = "bellman_ford";
    no_limit(op, o)?;
    let p = problem(op, g, o)?;
    if p.dev != Device::Cpu || super::super::linalg::fused_forced() {
        return bellman_ford_rounds(op, &p);
    }
    let (rows, n) = (p.sources.len(), p.n);
    let (mut dist, mut pred) = (vec![f64::INFINITY; rows * n], vec![NULL_IDX; rows * n]);
    for (i, &s) in p.sources.iter().enumerate() {
        let (d, pr) = (&mut dist[i * n..(i + 1) * n], &mut pred[i * n..(i + 1) * n]);
        d[s] = 0.0;
        if relax_rounds(&p.h, p.t.is_some(), d, Some(pr)).is_some() {
            return Err(negative_cycle(op, s));
        }
    }
    answer(dist, pred, rows, n, p.dev)
}

/// SciPy's Bellman–Ford passes over the stored edges of `h` (undirected: each edge relaxed both
/// ways) from the distances `d`, until a pass changes nothing (at most `N − 1` passes); then
/// its negative-cycle check. `Some(vertex)` where a cycle is found.
fn relax_rounds(h: &Host, undirected: bool, d: &mut [f64], mut pred: Option<&mut [i32]>) -> Option<usize> {
    let n = h.rows;
    for _ in 0..n.saturating_sub(1) {
        let mut changed = false;
        for j in 0..n {
            for k in h.row(j) {
                let (c, w) = (h.col(k), h.w[k]);
                if d[j] + w < d[c] {
                    d[c] = d[j] + w;
                    if let Some(p) = pred.as_deref_mut() {
                        p[c] = j as i32;
                    }
                    changed = true;
                }
                if undirected && d[c] + w < d[j] {
                    d[j] = d[c] + w;
                    if let Some(p) = pred.as_deref_mut() {
                        p[j] = c as i32;
                    }
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    const EPS: f64 = 1e-15;
    (0..n).find(|&j| {
        h.row(j).any(|k| {
            let (c, w) = (h.col(k), h.w[k]);
            if undirected {
                (d[c] - d[j]).abs() > w + EPS
            } else {
                d[j] + w + EPS < d[c]
            }
        })
    })
}

/// Bellman–Ford as whole-array rounds on the graph's device: each round every edge of every
/// source offers `dist[s, from] + w` to `dist[s, to]` by a scatter minimum, until a round changes
/// nothing; still changing after `N` rounds is a negative cycle. The predecessor of `to` is the
/// `from` of an edge whose offer equals the final distance (the smallest such vertex).
fn bellman_ford_rounds(op: &'static str, p: &Problem) -> Result<ShortestPaths> {
    let (rows, n, dev) = (p.sources.len(), p.n, p.dev);
    let edge_list = |h: &Host| {
        let from: Vec<i64> = (0..h.rows).flat_map(|i| h.row(i).map(move |_| i as i64)).collect();
        let to: Vec<i64> = h.idx.iter().map(|&j| j as i64).collect();
        (from, to, h.w.clone())
    };
    let (mut from, mut to, mut w) = edge_list(&p.h);
    if p.t.is_some() {
        let (f2, t2, w2) = (to.clone(), from.clone(), w.clone());
        from.extend(f2);
        to.extend(t2);
        w.extend(w2);
    }
    let e = from.len();
    let from_a = Array::from_vec(from, [e])?.to_device(dev)?;
    let w_a = Array::from_vec(w, [1, e])?.to_device(dev)?;
    let base: Vec<i64> = (0..rows as i64).map(|s| s * n as i64).collect();
    let base = Array::from_vec(base, [rows, 1])?.to_device(dev)?;
    let target = base.add(&Array::from_vec(to, [1, e])?.to_device(dev)?)?.reshape([-1])?;
    let mut init = vec![f64::INFINITY; rows * n];
    for (i, &s) in p.sources.iter().enumerate() {
        init[i * n + s] = 0.0;
    }
    let mut dist = Array::from_vec(init, [rows, n])?.to_device(dev)?;
    let offers = |dist: &Array| dist.take(&from_a, Some(1))?.add(&w_a)?.reshape([-1]);
    let mut settled = false;
    for _ in 0..=n {
        let next = dist.reshape([-1])?.copy()?;
        if e > 0 {
            crate::scatter_min(&next, &target, &offers(&dist)?)?;
        }
        let next = next.reshape([rows as isize, n as isize])?;
        let same = next.eq(&dist)?.all(..)?.to_bool()?;
        dist = next;
        if same {
            settled = true;
            break;
        }
    }
    if !settled {
        // name the first source that reaches a negative cycle, as SciPy's
        let s = p.sources.iter().copied().find(|&s| {
            let mut d = vec![f64::INFINITY; n];
            d[s] = 0.0;
            relax_rounds(&p.h, p.t.is_some(), &mut d, None).is_some()
        });
        return Err(negative_cycle(op, s.unwrap_or(p.sources[0])));
    }
    // predecessors: the smallest `from` whose offer is the final distance
    let never = i32::MAX as i64;
    let pred = crate::creation::full_on(dev, &[rows * n], never as f64, DType::I64)?;
    if e > 0 {
        let offered = offers(&dist)?;
        let hit = offered.eq(&dist.reshape([-1])?.take(&target, Some(0))?)?.logical_and(&offered.isfinite()?)?;
        let cand =
            crate::where_(&hit, &from_a.reshape([1, e as isize])?.broadcast_to([rows, e])?.reshape([-1])?, never)?;
        crate::scatter_min(&pred, &target, &cand)?;
    }
    let pred = crate::where_(&pred.eq(never)?, NULL_IDX as i64, &pred)?.astype(DType::I32)?;
    let pred = pred.reshape([rows as isize, n as isize])?;
    // a source has no predecessor (a zero-weight cycle back to it offers one)
    for (i, &s) in p.sources.iter().enumerate() {
        pred.slice(s![i as isize, s as isize])?.assign(NULL_IDX)?;
    }
    Ok(ShortestPaths { dist, predecessors: pred })
}

/// Johnson's algorithm (SciPy's `johnson(..., return_predecessors=True)`): Bellman–Ford once
/// from a virtual vertex joined to every vertex by weight 0 gives potentials `h` that make every
/// weight `w + h[i] − h[j]` non-negative; Dijkstra on those; distances corrected back. A
/// negative cycle is `Err(LinAlg { NegativeCycle })`. On the host.
pub fn johnson(g: &dyn Sparse, o: &PathOptions) -> Result<ShortestPaths> {
    let op = "johnson";
    no_limit(op, o)?;
    if o.unweighted {
        return dijkstra(g, o);
    }
    let mut p = problem(op, g, o)?;
    let n = p.n;
    // potentials: from the virtual vertex every distance starts at 0
    let mut pot = vec![0.0; n];
    if let Some(v) = relax_rounds(&p.h, p.t.is_some(), &mut pot, None) {
        return Err(negative_cycle(op, v));
    }
    if p.t.is_some() && p.h.w.iter().any(|&w| w < 0.0) {
        // undirected, a negative edge walked there and back is a negative cycle
        let v = (0..n).find(|&i| p.h.row(i).any(|k| p.h.w[k] < 0.0)).unwrap_or(0);
        return Err(negative_cycle(op, v));
    }
    let reweight = |h: &mut Host| {
        for i in 0..h.rows {
            for k in h.row(i) {
                h.w[k] += pot[i] - pot[h.col(k)];
            }
        }
    };
    reweight(&mut p.h);
    if let Some(t) = p.t.as_mut() {
        reweight(t);
    }
    from_each_source(&p, f64::INFINITY, |s, d| {
        for (j, x) in d.iter_mut().enumerate() {
            *x += pot[j] - pot[s];
        }
    })
}

/// The Floyd–Warshall algorithm over all pairs (SciPy's `floyd_warshall(...,
/// return_predecessors=True)`): `(N, N)`. The diagonal starts at 0 (self-loops ignored, as
/// SciPy's); undirected, each pair takes the smaller of its two directions. A negative cycle is
/// `Err(LinAlg { NegativeCycle { vertex } })`, the first vertex with a negative distance to
/// itself. On a GPU each intermediate vertex is one whole-matrix update.
pub fn floyd_warshall(g: &dyn Sparse, o: &PathOptions) -> Result<ShortestPaths> {
    let op = "floyd_warshall";
    no_limit(op, o)?;
    if o.indices.is_some() {
        return Err(Error::invalid(op, "indices cannot be given to Floyd–Warshall (it finds every pair)"));
    }
    let p = problem(op, g, &PathOptions { indices: Some(vec![]), ..o.clone() })?;
    let n = p.n;
    let mut d = vec![f64::INFINITY; n * n];
    for i in 0..n {
        for k in p.h.row(i) {
            d[i * n + p.h.col(k)] = p.h.w[k];
        }
    }
    for i in 0..n {
        d[i * n + i] = 0.0;
        if !o.directed {
            for j in i + 1..n {
                let m = d[i * n + j].min(d[j * n + i]);
                d[i * n + j] = m;
                d[j * n + i] = m;
            }
        }
    }
    let mut pred: Vec<i32> =
        (0..n * n).map(|x| if d[x].is_finite() && x / n != x % n { (x / n) as i32 } else { NULL_IDX }).collect();
    let (dist, pred) = if p.dev != Device::Cpu || super::super::linalg::fused_forced() {
        floyd_warshall_rounds(d, pred, n, p.dev)?
    } else {
        floyd_warshall_loops(&mut d, &mut pred, n);
        (Array::from_vec(d, [n, n])?, i32_on(pred, &[n, n], Device::Cpu)?)
    };
    let diag = dist.diagonal(0, 0, 1)?.to_vec::<f64>()?;
    if let Some(v) = diag.iter().position(|&x| x < 0.0) {
        return Err(negative_cycle(op, v));
    }
    Ok(ShortestPaths { dist, predecessors: pred })
}

/// SciPy's loops, the rows of each round in parallel (row `k` does not change in round `k`
/// unless there is a negative cycle, so it is read from a copy).
fn floyd_warshall_loops(d: &mut [f64], pred: &mut [i32], n: usize) {
    use rayon::prelude::*;
    for k in 0..n {
        let (dk, pk) = (d[k * n..(k + 1) * n].to_vec(), pred[k * n..(k + 1) * n].to_vec());
        d.par_chunks_mut(n).zip(pred.par_chunks_mut(n)).for_each(|(di, pi)| {
            let dik = di[k];
            if dik == f64::INFINITY {
                return;
            }
            for j in 0..n {
                let c = dik + dk[j];
                if c < di[j] {
                    di[j] = c;
                    pi[j] = pk[j];
                }
            }
        });
    }
}

/// Floyd–Warshall on a device: through each intermediate vertex `k`, `D = min(D, D[:, k] +
/// D[k, :])` with the predecessors of row `k` where that is shorter.
fn floyd_warshall_rounds(d: Vec<f64>, pred: Vec<i32>, n: usize, dev: Device) -> Result<(Array, Array)> {
    let mut dist = Array::from_vec(d, [n, n])?.to_device(dev)?;
    let mut pred = i32_on(pred, &[n, n], dev)?;
    for k in 0..n as isize {
        let through = dist.slice(s![.., k..k + 1])?.add(&dist.slice(s![k..k + 1, ..])?)?;
        let shorter = through.lt(&dist)?;
        dist = crate::where_(&shorter, &through, &dist)?;
        pred = crate::where_(&shorter, &pred.slice(s![k..k + 1, ..])?, &pred)?;
    }
    Ok((dist, pred))
}
