//! Matrix–vector products (`A x`: n = 1; `x A`: m = 1) without packing: matrixmultiply copies
//! the matrix into panels first and faer refuses the zero stride that a 1-D operand's added axis
//! carries, so a 2000² float64 `dot(A, p)` took 2.5× NumPy's time. Here the matrix is read once,
//! along whichever of its axes is contiguous: dot products along its rows (`A x` with A in C
//! order, `x A` with A in Fortran order) or axpys along them (the other two), the output split
//! over the cores when the product is the only one of its call. The vector is copied to a dense
//! one first when it is strided (k elements, against the m·k the matrix costs).
use super::matmul::Job;
use super::small::{axpy_add, dot, wide, Small};
use rayon::prelude::*;

/// Products at least this many multiply-adds large are split over the cores.
const PAR_MIN: usize = 1 << 16;

/// The vector of `k` elements at `p` with stride `s`, as a slice (dense already, or copied).
///
/// # Safety
/// `p + i·s` for i < k must lie inside one live buffer.
unsafe fn vector<T: Copy>(p: *const T, s: isize, k: usize, copy: &mut Vec<T>) -> &[T] {
    if s == 1 || k == 1 {
        return std::slice::from_raw_parts(p, k);
    }
    *copy = (0..k).map(|i| *p.offset(i as isize * s)).collect();
    copy
}

/// A read-only pointer that rayon's tasks may share.
#[derive(Clone, Copy)]
struct At<T>(*const T);
// SAFETY: the buffers behind it outlive the product and are only read.
unsafe impl<T> Send for At<T> {}
unsafe impl<T> Sync for At<T> {}

impl<T> At<T> {
    /// `len` elements from `off` on, contiguous.
    ///
    /// # Safety
    /// They must lie inside the buffer.
    unsafe fn run<'a>(self, off: isize, len: usize) -> &'a [T] {
        std::slice::from_raw_parts(self.0.offset(off), len)
    }
}

/// `y[i] = Σ_p M[i, p] v[p]` where row i of M starts at `m + i·rs` and is contiguous (a dot
/// product per output).
unsafe fn rows_dot<T: Small>(y: &mut [T], m: At<T>, rs: isize, v: &[T], par: bool) {
    let k = v.len();
    let one = |i0: usize, ys: &mut [T]| {
        wide(
            #[inline(always)]
            || {
                for (i, yi) in ys.iter_mut().enumerate() {
                    *yi = dot::<T, 32>(m.run((i0 + i) as isize * rs, k), v);
                }
            },
        )
    };
    if par {
        let rows = (PAR_MIN / k).max(1);
        y.par_chunks_mut(rows).enumerate().for_each(|(c, ys)| one(c * rows, ys));
    } else {
        one(0, y);
    }
}

/// `y[j] = Σ_p v[p] M[p, j]` where row p of M starts at `m + p·rs` and is contiguous (an axpy
/// per row of M into the output). Over the cores, each task streams a block of M's rows into a
/// partial sum of the whole output (one sequential read per core; column blocks made every row
/// a separate short stream: 2.5× NumPy's time), and the partial sums are added in order; with
/// fewer rows than that needs, column blocks.
unsafe fn rows_axpy<T: Small>(y: &mut [T], m: At<T>, rs: isize, v: &[T], par: bool) {
    let (n, k) = (y.len(), v.len());
    let axpys = |ys: &mut [T], j0: usize, rows: std::ops::Range<usize>| {
        wide(
            #[inline(always)]
            || {
                for p in rows {
                    axpy_add(ys, v[p], m.run(p as isize * rs + j0 as isize, ys.len()));
                }
            },
        )
    };
    y.fill(T::default());
    let threads = rayon::current_num_threads();
    if !par || threads == 1 {
        axpys(y, 0, 0..k);
    } else if k >= 4 * threads {
        let rows = k.div_ceil(threads);
        let parts: Vec<Vec<T>> = (0..threads)
            .into_par_iter()
            .map(|t| {
                let mut ys = vec![T::default(); n];
                axpys(&mut ys, 0, t * rows..((t + 1) * rows).min(k));
                ys
            })
            .collect();
        for part in parts {
            axpys_add(y, &part);
        }
    } else {
        let cols = n.div_ceil(4 * threads).max(256);
        y.par_chunks_mut(cols).enumerate().for_each(|(c, ys)| axpys(ys, c * cols, 0..k));
    }
}

/// `y += x`.
fn axpys_add<T: Small>(y: &mut [T], x: &[T]) {
    for (a, &b) in y.iter_mut().zip(x) {
        *a = *a + b;
    }
}

/// The product of `j` when it is a matrix–vector product; false: not taken.
///
/// # Safety
/// As for every kernel of [`Job`]: the operands lie inside their buffers, C holds m·n elements.
pub(super) unsafe fn gemv<T: Small>(j: &Job<T>) -> bool {
    let (m, k, n) = (j.m, j.k, j.n);
    if m != 1 && n != 1 {
        return false;
    }
    let par = j.par && m * k * n >= PAR_MIN;
    // C arrives unwritten (pool memory): zero bytes are a valid value of every type here
    std::ptr::write_bytes(j.c, 0, m * n);
    // `x A` is `Aᵀ x`: one product, the matrix read through swapped strides
    let (mat, (rs, cs), (v, vs), len) =
        if n == 1 { (j.a, j.sa, (j.b, j.sb.0), m) } else { (j.b, (j.sb.1, j.sb.0), (j.a, j.sa.1), n) };
    let y = std::slice::from_raw_parts_mut(j.c, len);
    let mut copy = Vec::new();
    let x = vector(v, vs, k, &mut copy);
    match (rs, cs) {
        (rs, 1) => rows_dot(y, At(mat), rs, x, par),
        (1, cs) => rows_axpy(y, At(mat), cs, x, par),
        _ => return false,
    }
    true
}
