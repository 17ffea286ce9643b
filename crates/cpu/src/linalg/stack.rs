//! A stack of matrices in a strided buffer: where each matrix starts, its size and its strides,
//! and the parallel loop over the stack that every routine of the family shares.
use faer::MatRef;
use rayon::prelude::*;
use xp_core::{Error, Layout, LinAlgKind, Result};

/// The matrices of a layout whose last two axes are the matrix and whose leading axes are the
/// batch: the buffer position of each matrix's `[0, 0]` element (C order over the batch), and the
/// shared shape and strides.
#[derive(Clone, Debug)]
pub(crate) struct Stack {
    pub(crate) offsets: Vec<usize>,
    pub(crate) rows: usize,
    pub(crate) cols: usize,
    pub(crate) rs: isize,
    pub(crate) cs: isize,
}

impl Stack {
    /// The stack of `l` (at least two dimensions).
    pub(crate) fn new(l: &Layout) -> Stack {
        let nd = l.ndim();
        debug_assert!(nd >= 2, "a stack of matrices has at least two dimensions");
        let (bshape, bstrides) = (&l.shape()[..nd - 2], &l.strides()[..nd - 2]);
        let count: usize = bshape.iter().product();
        let mut offsets = Vec::with_capacity(count);
        let mut idx = vec![0usize; bshape.len()];
        for _ in 0..count {
            let off = l.offset() as isize + idx.iter().zip(bstrides).map(|(&i, &s)| i as isize * s).sum::<isize>();
            offsets.push(off as usize);
            for d in (0..idx.len()).rev() {
                idx[d] += 1;
                if idx[d] < bshape[d] {
                    break;
                }
                idx[d] = 0;
            }
        }
        Stack {
            offsets,
            rows: l.shape()[nd - 2],
            cols: l.shape()[nd - 1],
            rs: l.strides()[nd - 2],
            cs: l.strides()[nd - 1],
        }
    }
    /// Number of matrices.
    pub(crate) fn len(&self) -> usize {
        self.offsets.len()
    }
    /// Matrix `b` of the stack as a faer view into `data`.
    pub(crate) fn view<'a, T>(&self, data: &'a [T], b: usize) -> MatRef<'a, T> {
        assert!(b < self.len());
        // SAFETY: the layout the stack was made from was validated against `data` by the front
        // end: every element `offsets[b] + i * rs + j * cs` (i < rows, j < cols) lies inside it,
        // and the view only reads.
        unsafe { MatRef::from_raw_parts(data.as_ptr().add(self.offsets[b]), self.rows, self.cols, self.rs, self.cs) }
    }
}

/// A faer matrix as a C-order vector, each element converted by `f`.
pub(crate) fn c_order<T: Copy, U>(m: MatRef<'_, T>, f: impl Fn(T) -> U) -> Vec<U> {
    let (r, c) = (m.nrows(), m.ncols());
    let mut out = Vec::with_capacity(r * c);
    for i in 0..r {
        for j in 0..c {
            out.push(f(m[(i, j)]));
        }
    }
    out
}

/// `f(b)` for every matrix `b` of a stack of `count`, in parallel, results in stack order; the
/// first failing matrix (in stack order) decides the error.
pub(crate) fn per_matrix<R: Send>(
    op: &'static str,
    count: usize,
    f: impl Fn(usize) -> std::result::Result<R, LinAlgKind> + Sync + Send,
) -> Result<Vec<R>> {
    let results: Vec<std::result::Result<R, LinAlgKind>> = (0..count).into_par_iter().map(f).collect();
    results.into_iter().map(|r| r.map_err(|kind| Error::LinAlg { op, kind })).collect()
}

/// The per-matrix parts `part(r)` of every result, one after the other.
pub(crate) fn concat<R, T: Copy>(results: &[R], part: impl Fn(&R) -> &[T]) -> Vec<T> {
    let mut out = Vec::with_capacity(results.iter().map(|r| part(r).len()).sum());
    for r in results {
        out.extend_from_slice(part(r));
    }
    out
}
