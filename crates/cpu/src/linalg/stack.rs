//! A stack of matrices in a strided buffer: where each matrix starts, its size and its strides,
//! and the parallel loop over the stack that every routine of the family shares.
// Without the `linalg` feature only the products use this module; the decompositions' helpers
// stay (generic, so never instantiated) rather than each carrying a cfg.
#![cfg_attr(not(feature = "linalg"), allow(dead_code))]
#[cfg(feature = "linalg")]
use faer::MatRef;
use xp_core::{Element, Error, Layout, LinAlgKind, Result};

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
    #[cfg(feature = "linalg")]
    pub(crate) fn view<'a, T>(&self, data: &'a [T], b: usize) -> MatRef<'a, T> {
        assert!(b < self.len());
        // SAFETY: the layout the stack was made from was validated against `data` by the front
        // end: every element `offsets[b] + i * rs + j * cs` (i < rows, j < cols) lies inside it,
        // and the view only reads.
        unsafe { MatRef::from_raw_parts(data.as_ptr().add(self.offsets[b]), self.rows, self.cols, self.rs, self.cs) }
    }
}

#[cfg(feature = "linalg")]
/// A faer matrix as a C-order vector, each element converted by `f`.
pub(crate) fn c_order<T: Copy, U>(m: MatRef<'_, T>, f: impl Fn(T) -> U) -> Vec<U> {
    let (r, c) = (m.nrows(), m.ncols());
    let mut out = Vec::with_capacity(r * c);
    if m.col_stride() == 1 && c > 0 {
        // rows are contiguous: one vectorisable pass per row (element indexing cost a 1024² copy
        // 1.9 ms, 8% of the LU it fed)
        for i in 0..r {
            // SAFETY: with unit column stride row i's c elements are contiguous inside m's storage
            let row = unsafe { std::slice::from_raw_parts(m.ptr_at(i, 0), c) };
            out.extend(row.iter().map(|&x| f(x)));
        }
        return out;
    }
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
    let results: Vec<std::result::Result<R, LinAlgKind>> = crate::par::map(count, &f);
    results.into_iter().map(|r| r.map_err(|kind| Error::LinAlg { op, kind })).collect()
}

#[cfg(feature = "linalg")]
/// faer's parallelism for one matrix of a stack of `count`: sequential when the stack's matrices
/// already run in parallel (faer's own rayon dispatch cost a 64×64 SVD a third of its time even
/// on one thread), the global setting for a single matrix.
pub(crate) fn seq_in_stack(count: usize) -> faer::Par {
    if count > 1 {
        faer::Par::Seq
    } else {
        faer::get_global_parallelism()
    }
}

/// `f(b, out_b)` for every matrix `b` of a stack of `count`, in parallel, where `out_b` is the
/// `b`-th run of `len` elements (zeroed) of one output buffer from the host pool: results are
/// written in place, with no per-matrix vector and no copy. The first failing matrix (in stack
/// order) decides the error.
pub(crate) fn into_chunks<T: Element + Default>(
    op: &'static str,
    count: usize,
    len: usize,
    f: impl Fn(usize, &mut [T]) -> std::result::Result<(), LinAlgKind> + Sync + Send,
) -> Result<Vec<T>> {
    let mut out: Vec<T> = crate::pool::alloc(count * len);
    let status: Vec<std::result::Result<(), LinAlgKind>> = if len == 0 {
        crate::par::map(count, &|b| f(b, &mut []))
    } else {
        crate::par::chunks_mut_map(&mut out.spare_capacity_mut()[..count * len], len, &|b, chunk| {
            for x in chunk.iter_mut() {
                x.write(T::default());
            }
            // SAFETY: every element of the chunk was just written.
            let chunk = unsafe { &mut *(chunk as *mut [std::mem::MaybeUninit<T>] as *mut [T]) };
            f(b, chunk)
        })
    };
    // SAFETY: every one of the `count * len` elements was written above.
    unsafe { out.set_len(count * len) };
    first_error(op, status)?;
    Ok(out)
}

/// A zeroed buffer of `n` elements from the host pool.
pub(crate) fn zeroed<T: Element + Default>(n: usize) -> Vec<T> {
    let mut v = crate::pool::alloc(n);
    v.resize(n, T::default());
    v
}

/// The first failure of a stack's per-matrix statuses (in stack order) as the op's error.
pub(crate) fn first_error(op: &'static str, status: Vec<std::result::Result<(), LinAlgKind>>) -> Result<()> {
    status.into_iter().try_for_each(|r| r.map_err(|kind| Error::LinAlg { op, kind }))
}

/// The per-matrix parts `part(r)` of every result, one after the other, in a buffer from the
/// host pool (a fresh multi-megabyte one costs more in page faults than the factorisations of a
/// stack of small matrices).
pub(crate) fn concat<R, T: Element>(results: &[R], part: impl Fn(&R) -> &[T]) -> Vec<T> {
    let mut out = crate::pool::alloc(results.iter().map(|r| part(r).len()).sum());
    for r in results {
        out.extend_from_slice(part(r));
    }
    out
}
