//! The minimum spanning tree (SciPy's `minimum_spanning_tree`), by Kruskal's algorithm on the
//! host: the edges sorted by weight (stably, in the canonical CSR's order, as SciPy's), joined
//! by union–find while they connect two trees.
//!
//! ```
//! use xp::sparse::csgraph::minimum_spanning_tree;
//! let d = xp::Array::from_vec(vec![
//!     0.0, 8.0, 0.0, 3.0,
//!     0.0, 0.0, 2.0, 5.0,
//!     0.0, 0.0, 0.0, 6.0,
//!     0.0, 0.0, 0.0, 0.0], &[4, 4]).unwrap();
//! let g = xp::sparse::CsrArray::from_dense(&d).unwrap();
//! let t = minimum_spanning_tree(&g).unwrap().toarray().unwrap();
//! assert_eq!(t.to_vec::<f64>().unwrap(), vec![
//!     0.0, 0.0, 0.0, 3.0,
//!     0.0, 0.0, 2.0, 5.0,
//!     0.0, 0.0, 0.0, 0.0,
//!     0.0, 0.0, 0.0, 0.0]);
//! ```
use super::{square, Host};
use crate::sparse::arith::Sparse;
use crate::sparse::CsrArray;
use xp_core::Result;

/// The minimum spanning tree (a forest where the graph is not connected) of `g` taken as
/// undirected: float64 CSR of the same shape on the graph's device, each kept edge where it is
/// stored in `g` (of `g[i, j]` and `g[j, i]` the lighter, the first in CSR order among equals).
/// Explicit zeros are not edges (SciPy's).
pub fn minimum_spanning_tree(g: &dyn Sparse) -> Result<CsrArray> {
    let n = square(g, "minimum_spanning_tree")?;
    let h = Host::of(g)?;
    let row: Vec<usize> = (0..n).flat_map(|i| h.row(i).map(move |_| i)).collect();
    let mut order: Vec<usize> = (0..h.w.len()).filter(|&k| h.w[k] != 0.0).collect();
    order.sort_by(|&a, &b| h.w[a].total_cmp(&h.w[b]));
    let mut parent: Vec<usize> = (0..n).collect();
    let mut rank = vec![0u8; n];
    fn root(parent: &mut [usize], mut v: usize) -> usize {
        while parent[v] != v {
            parent[v] = parent[parent[v]];
            v = parent[v];
        }
        v
    }
    let mut keep = vec![false; h.w.len()];
    let mut joined = 0;
    for k in order {
        if joined + 1 >= n {
            break;
        }
        let (a, b) = (root(&mut parent, row[k]), root(&mut parent, h.col(k)));
        if a == b {
            continue;
        }
        keep[k] = true;
        joined += 1;
        match rank[a].cmp(&rank[b]) {
            std::cmp::Ordering::Less => parent[a] = b,
            std::cmp::Ordering::Greater => parent[b] = a,
            std::cmp::Ordering::Equal => {
                parent[b] = a;
                rank[a] += 1;
            }
        }
    }
    let mut ptr = vec![0i64; n + 1];
    let (mut idx, mut data) = (Vec::new(), Vec::new());
    for i in 0..n {
        for k in h.row(i).filter(|&k| keep[k]) {
            idx.push(h.col(k) as i64);
            data.push(h.w[k]);
        }
        ptr[i + 1] = idx.len() as i64;
    }
    super::host_csr(ptr, idx, data, n, g.device())
}
