//! Breadth- and depth-first traversals (SciPy's `breadth_first_order`, `depth_first_order`,
//! `breadth_first_tree`, `depth_first_tree`, `reconstruct_path`), on the host: a traversal is a
//! sequential walk, so a graph on a GPU is copied to the host and the answers copied back.
//!
//! Neighbours are visited in the order of the canonical CSR (columns ascending); undirected, a
//! vertex's out-edges first and then its in-edges, as SciPy's, so the orders equal SciPy's.
//!
//! ```
//! use xp::sparse::csgraph::{breadth_first_order, depth_first_order, NULL_IDX};
//! let d = xp::Array::from_vec(vec![
//!     0.0, 1.0, 2.0, 0.0,
//!     0.0, 0.0, 0.0, 1.0,
//!     2.0, 0.0, 0.0, 3.0,
//!     0.0, 0.0, 0.0, 0.0], &[4, 4]).unwrap();
//! let g = xp::sparse::CsrArray::from_dense(&d).unwrap();
//! let t = breadth_first_order(&g, 0, true).unwrap();
//! assert_eq!(t.order.to_vec::<i32>().unwrap(), vec![0, 1, 2, 3]);
//! assert_eq!(t.predecessors.to_vec::<i32>().unwrap(), vec![NULL_IDX, 0, 0, 1]);
//! assert_eq!(depth_first_order(&g, 0, true).unwrap().order.to_vec::<i32>().unwrap(), vec![0, 1, 3, 2]);
//! ```
use super::{i32_on, square, vertex, Host, NULL_IDX};
use crate::sparse::arith::Sparse;
use crate::sparse::CsrArray;
use crate::Array;
use xp_core::{DType, Error, Result};

/// A traversal's answer: the vertices reached, in the order reached (int32), and each vertex's
/// predecessor in the traversal's tree (int32, [`NULL_IDX`] for the start and the vertices not
/// reached), both on the graph's device.
#[derive(Clone, Debug)]
pub struct Traversal {
    /// the vertices reached, first the start
    pub order: Array,
    /// each vertex's parent in the tree, [`NULL_IDX`] where none
    pub predecessors: Array,
}

/// The graph's pattern and, undirected, its transpose's (the in-edges walked after the
/// out-edges).
fn graphs(g: &dyn Sparse, directed: bool) -> Result<[Option<Host>; 2]> {
    let h = Host::pattern(g)?;
    let t = (!directed).then(|| h.transpose());
    Ok([Some(h), t])
}

/// The neighbours of `v` in visiting order: `(out, in)` slices.
#[inline]
fn neighbours(parts: &[Option<Host>; 2], v: usize) -> [&[u32]; 2] {
    fn list(p: &Option<Host>, v: usize) -> &[u32] {
        p.as_ref().map_or(&[][..], |h| &h.idx[h.row(v)])
    }
    [list(&parts[0], v), list(&parts[1], v)]
}

fn answer(order: Vec<i32>, pred: Vec<i32>, n: usize, dev: xp_core::Device) -> Result<Traversal> {
    let k = order.len();
    Ok(Traversal { order: i32_on(order, &[k], dev)?, predecessors: i32_on(pred, &[n], dev)? })
}

/// The vertices reachable from `i_start` in breadth-first order, with the breadth-first tree's
/// predecessors (SciPy's `breadth_first_order(..., return_predecessors=True)`). `directed =
/// false` walks the edges both ways. `i_start` may count from the end (negative).
pub fn breadth_first_order(g: &dyn Sparse, i_start: i64, directed: bool) -> Result<Traversal> {
    let op = "breadth_first_order";
    let n = square(g, op)?;
    let s = vertex(op, i_start, n)?;
    let parts = graphs(g, directed)?;
    let mut pred = vec![NULL_IDX; n];
    let mut order: Vec<i32> = Vec::with_capacity(n);
    order.push(s as i32);
    let mut head = 0;
    while head < order.len() {
        let v = order[head] as usize;
        head += 1;
        for part in neighbours(&parts, v) {
            for &w in part {
                let w = w as usize;
                if w != s && pred[w] == NULL_IDX {
                    pred[w] = v as i32;
                    order.push(w as i32);
                }
            }
        }
    }
    answer(order, pred, n, g.device())
}

/// The vertices reachable from `i_start` in depth-first (pre-)order, with the depth-first
/// tree's predecessors (SciPy's `depth_first_order(..., return_predecessors=True)`).
pub fn depth_first_order(g: &dyn Sparse, i_start: i64, directed: bool) -> Result<Traversal> {
    let op = "depth_first_order";
    let n = square(g, op)?;
    let s = vertex(op, i_start, n)?;
    let parts = graphs(g, directed)?;
    let mut pred = vec![NULL_IDX; n];
    let mut seen = vec![false; n];
    seen[s] = true;
    let mut order = vec![s as i32];
    // the path from the start: each vertex with how far its neighbour lists (out, then in) have
    // been walked; a vertex's first unseen neighbour is taken, and the walk resumes after it
    let mut path: Vec<(usize, usize)> = vec![(s, 0)];
    while let Some(&mut (v, ref mut at)) = path.last_mut() {
        let [out, inward] = neighbours(&parts, v);
        let unseen =
            |list: &[u32], from: usize| list.iter().skip(from).position(|&w| !seen[w as usize]).map(|k| k + from);
        let next = match unseen(out, *at) {
            Some(k) => Some((k, out[k] as usize)),
            None => unseen(inward, at.saturating_sub(out.len())).map(|k| (k + out.len(), inward[k] as usize)),
        };
        match next {
            Some((k, w)) => {
                *at = k + 1;
                seen[w] = true;
                pred[w] = v as i32;
                order.push(w as i32);
                path.push((w, 0));
            }
            None => {
                path.pop();
            }
        }
    }
    answer(order, pred, n, g.device())
}

/// The breadth-first tree from `i_start` as a sparse graph (SciPy's `breadth_first_tree`): the
/// edge `predecessor → vertex` of each vertex reached, weighted as in `g`.
pub fn breadth_first_tree(g: &dyn Sparse, i_start: i64, directed: bool) -> Result<CsrArray> {
    reconstruct_path(g, &breadth_first_order(g, i_start, directed)?.predecessors, directed)
}

/// The depth-first tree from `i_start` as a sparse graph (SciPy's `depth_first_tree`).
pub fn depth_first_tree(g: &dyn Sparse, i_start: i64, directed: bool) -> Result<CsrArray> {
    reconstruct_path(g, &depth_first_order(g, i_start, directed)?.predecessors, directed)
}

/// The tree of a predecessor list as a sparse graph (SciPy's `reconstruct_path`): an edge
/// `predecessors[j] → j` for each `j` that has one (negative predecessors are none), weighted
/// `g[p, j]`; undirected, the smaller of `g[p, j]` and `g[j, p]` (a missing or zero one
/// ignored). float64 CSR on the graph's device.
pub fn reconstruct_path(g: &dyn Sparse, predecessors: &Array, directed: bool) -> Result<CsrArray> {
    let op = "reconstruct_path";
    let n = square(g, op)?;
    if predecessors.ndim() != 1 || predecessors.size() != n || !predecessors.dtype().is_integer() {
        return Err(Error::invalid(
            op,
            format!(
                "predecessors must be a 1-D integer array of {n} entries, got {} of shape {:?}",
                predecessors.dtype(),
                predecessors.shape()
            ),
        ));
    }
    let pred = predecessors.astype(DType::I64)?.to_vec::<i64>()?;
    if let Some(&p) = pred.iter().find(|&&p| p >= n as i64) {
        return Err(Error::invalid(op, format!("predecessor {p} out of range for a graph of {n} vertices")));
    }
    let h = Host::of(g)?;
    // rows in order of predecessor, vertices ascending within a row (SciPy's argsort order)
    let mut edges: Vec<(usize, usize)> =
        pred.iter().enumerate().filter(|&(_, &p)| p >= 0).map(|(j, &p)| (p as usize, j)).collect();
    edges.sort_unstable();
    let mut ptr = vec![0i64; n + 1];
    let (mut idx, mut data) = (Vec::with_capacity(edges.len()), Vec::with_capacity(edges.len()));
    for &(p, j) in &edges {
        ptr[p + 1] += 1;
        idx.push(j as i64);
        let w = if directed {
            h.weight(p, j).unwrap_or(0.0)
        } else {
            let as_edge = |w: Option<f64>| w.filter(|&w| w != 0.0).unwrap_or(f64::INFINITY);
            as_edge(h.weight(p, j)).min(as_edge(h.weight(j, p)))
        };
        data.push(w);
    }
    for i in 0..n {
        ptr[i + 1] += ptr[i];
    }
    super::host_csr(ptr, idx, data, n, g.device())
}
