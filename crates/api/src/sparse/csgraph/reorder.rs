//! The reverse Cuthill–McKee ordering (SciPy's `reverse_cuthill_mckee`), on the host: a
//! breadth-first walk from a vertex of lowest degree in each component, each vertex's new
//! neighbours taken in increasing degree, the whole order reversed. It narrows a symmetric
//! matrix's band, which makes banded and skyline factorisations cheap.
//!
//! ```
//! use xp::sparse::csgraph::reverse_cuthill_mckee;
//! let d = xp::Array::from_vec(vec![
//!     0.0, 1.0, 2.0, 0.0,
//!     0.0, 0.0, 0.0, 1.0,
//!     2.0, 0.0, 0.0, 3.0,
//!     0.0, 0.0, 0.0, 0.0], &[4, 4]).unwrap();
//! let g = xp::sparse::CsrArray::from_dense(&d).unwrap();
//! let perm = reverse_cuthill_mckee(&g, false).unwrap();
//! assert_eq!(perm.to_vec::<i32>().unwrap(), vec![3, 2, 1, 0]);
//! ```
use super::{i32_on, square, Host};
use crate::sparse::arith::Sparse;
use crate::Array;
use xp_core::Result;

/// The reverse Cuthill–McKee permutation of the rows and columns of `g` (int32, on the graph's
/// device): `A[perm][:, perm]` has a narrow band. With `symmetric_mode = false` (SciPy's
/// default) the pattern of `A + Aᵀ` is used; `true` trusts `A`'s pattern to be symmetric.
/// Degrees count a stored diagonal twice (SciPy's); among vertices of equal degree the smaller
/// number comes first (SciPy's argsort leaves that order unspecified).
pub fn reverse_cuthill_mckee(g: &dyn Sparse, symmetric_mode: bool) -> Result<Array> {
    let n = square(g, "reverse_cuthill_mckee")?;
    let h = Host::pattern(g)?;
    let adj: Vec<Vec<usize>> = if symmetric_mode {
        (0..n).map(|i| h.row(i).map(|k| h.col(k)).collect()).collect()
    } else {
        // the union of the patterns of A and Aᵀ, columns ascending
        let t = h.transpose();
        (0..n)
            .map(|i| {
                let mut r: Vec<usize> = h.row(i).map(|k| h.col(k)).chain(t.row(i).map(|k| t.col(k))).collect();
                r.sort_unstable();
                r.dedup();
                r
            })
            .collect()
    };
    let degree: Vec<usize> =
        adj.iter().enumerate().map(|(i, r)| r.len() + usize::from(r.binary_search(&i).is_ok())).collect();
    let mut seeds: Vec<usize> = (0..n).collect();
    seeds.sort_by_key(|&i| degree[i]);
    let mut seen = vec![false; n];
    let mut order = Vec::with_capacity(n);
    for &seed in &seeds {
        if seen[seed] {
            continue;
        }
        seen[seed] = true;
        order.push(seed);
        let mut head = order.len() - 1;
        while head < order.len() {
            let v = order[head];
            head += 1;
            let first = order.len();
            for &w in &adj[v] {
                if !seen[w] {
                    seen[w] = true;
                    order.push(w);
                }
            }
            // the new neighbours by increasing degree, stably
            order[first..].sort_by_key(|&w| degree[w]);
        }
        if order.len() == n {
            break;
        }
    }
    let perm: Vec<i32> = order.into_iter().rev().map(|v| v as i32).collect();
    i32_on(perm, &[n], g.device())
}
