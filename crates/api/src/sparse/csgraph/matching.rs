//! Maximum bipartite matching (SciPy's `maximum_bipartite_matching`, by Hopcroft–Karp) and the
//! structural rank built on it (SciPy's `structural_rank`), on the host. Rows are one side of
//! the bipartite graph, columns the other; every stored entry is an edge (explicit zeros too).
//!
//! ```
//! use xp::sparse::csgraph::{maximum_bipartite_matching, structural_rank, PermType};
//! let d = xp::Array::from_vec(vec![
//!     1.0, 1.0, 0.0,
//!     1.0, 0.0, 0.0,
//!     0.0, 0.0, 0.0], &[3, 3]).unwrap();
//! let g = xp::sparse::CsrArray::from_dense(&d).unwrap();
//! // row 1 can only take column 0, so row 0 takes column 1; nothing is left for row 2
//! let cols = maximum_bipartite_matching(&g, PermType::Column).unwrap();
//! assert_eq!(cols.to_vec::<i32>().unwrap(), vec![1, 0, -1]);
//! assert_eq!(structural_rank(&g).unwrap(), 2);
//! ```
use super::{i32_on, Host};
use crate::sparse::arith::Sparse;
use crate::Array;
use xp_core::Result;

/// Which side the matching is reported for (SciPy's `perm_type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PermType {
    /// for each column, the row matched to it (length: the number of columns)
    #[default]
    Row,
    /// for each row, the column matched to it (length: the number of rows)
    Column,
}

const FREE: usize = usize::MAX;

/// A maximum matching: `(column of each row, row of each column)`, [`FREE`] where unmatched.
fn hopcroft_karp(h: &Host) -> (Vec<usize>, Vec<usize>) {
    let (m, n) = (h.rows, h.cols);
    let (mut col_of, mut row_of) = (vec![FREE; m], vec![FREE; n]);
    // a greedy start: each row takes its first free column (most rows of a sparse graph), so
    // the phases below only repair what it missed
    for (i, c) in col_of.iter_mut().enumerate() {
        if let Some(v) = h.row(i).map(|k| h.col(k)).find(|&v| row_of[v] == FREE) {
            *c = v;
            row_of[v] = i;
        }
    }
    let mut level = vec![usize::MAX; m];
    loop {
        // layers of rows from the free rows along alternating paths, up to the first layer
        // that reaches a free column
        let mut queue: Vec<usize> = (0..m).filter(|&i| col_of[i] == FREE).collect();
        level.iter_mut().for_each(|l| *l = usize::MAX);
        queue.iter().for_each(|&i| level[i] = 0);
        let (mut head, mut found, mut limit) = (0, false, usize::MAX);
        while head < queue.len() {
            let u = queue[head];
            head += 1;
            if level[u] >= limit {
                break;
            }
            for v in h.row(u).map(|k| h.col(k)) {
                match row_of[v] {
                    FREE => {
                        found = true;
                        limit = level[u] + 1;
                    }
                    w if level[w] == usize::MAX => {
                        level[w] = level[u] + 1;
                        queue.push(w);
                    }
                    _ => {}
                }
            }
        }
        if !found {
            return (col_of, row_of);
        }
        // vertex-disjoint shortest augmenting paths, by an explicit depth-first walk: `at[u]`
        // is the position of the column row `u` tries next
        let mut at: Vec<usize> = (0..m).map(|i| h.ptr[i]).collect();
        for root in 0..m {
            if col_of[root] != FREE {
                continue;
            }
            let mut path = vec![root];
            while let Some(&u) = path.last() {
                if at[u] == h.ptr[u + 1] {
                    // a dead end: no path through `u` this phase
                    level[u] = usize::MAX;
                    path.pop();
                    if let Some(&p) = path.last() {
                        at[p] += 1;
                    }
                    continue;
                }
                let v = h.col(at[u]);
                match row_of[v] {
                    FREE => {
                        for &r in &path {
                            let c = h.col(at[r]);
                            col_of[r] = c;
                            row_of[c] = r;
                        }
                        break;
                    }
                    w if level[w] == level[u] + 1 => path.push(w),
                    _ => at[u] += 1,
                }
            }
        }
    }
}

/// A maximum matching of the bipartite graph of rows and columns of `g` (any shape): int32 on
/// the graph's device, `-1` where unmatched; see [`PermType`]. Which maximum matching is
/// returned may differ from SciPy's (several exist); its size is the same.
pub fn maximum_bipartite_matching(g: &dyn Sparse, perm_type: PermType) -> Result<Array> {
    let h = Host::pattern(g)?;
    let (col_of, row_of) = hopcroft_karp(&h);
    let side = if perm_type == PermType::Row { row_of } else { col_of };
    let k = side.len();
    let v: Vec<i32> = side.into_iter().map(|x| if x == FREE { -1 } else { x as i32 }).collect();
    i32_on(v, &[k], g.device())
}

/// The structural rank of `g` (SciPy's `structural_rank`): the size of a maximum matching of
/// its rows to its columns — the largest rank any matrix of this sparsity pattern can have.
pub fn structural_rank(g: &dyn Sparse) -> Result<usize> {
    let (col_of, _) = hopcroft_karp(&Host::pattern(g)?);
    Ok(col_of.iter().filter(|&&c| c != FREE).count())
}
