//! Matrix–vector products (`A x`: n = 1; `x A`: m = 1) without packing: matrixmultiply copies
//! the matrix into panels first and faer refuses the zero stride that a 1-D operand's added axis
//! carries, so a 2000² float64 `dot(A, p)` took 2.5× NumPy's time. Here the matrix is read once,
//! along whichever of its axes is contiguous: dot products along its rows (`A x` with A in C
//! order, `x A` with A in Fortran order) or axpys along them (the other two), the output split
//! over the cores when the product is the only one of its call. The vector is copied to a dense
//! one first when it is strided (k elements, against the m·k the matrix costs).
use super::matmul::Job;
use super::small::{axpy_add, dot, prefetch_next, wide, Small};
use rayon::prelude::*;

/// Products at least this many multiply-adds large are split over the cores.
const PAR_MIN: usize = 1 << 16;
/// The block of a row that one task takes when the rows are fewer than the cores.
const SPLIT: usize = 1 << 14;

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

/// The dot products of four rows with `x`, in `W` interleaved sums each: the vector's block is
/// loaded once for the four, and four streams from memory are in flight at once (one row at a
/// time read the matrix 20% slower than OpenBLAS's four-column kernel, measured on the 2-core
/// EPYC VM; this one matches it).
#[inline(always)]
fn dot4<T: Small, const W: usize>(r: [&[T]; 4], x: &[T]) -> [T; 4] {
    // four separate arrays of sums: one array of four rows was kept on the stack
    let (mut s0, mut s1, mut s2, mut s3) = ([T::default(); W], [T::default(); W], [T::default(); W], [T::default(); W]);
    let k = x.len();
    let m = k / W * W;
    let rows = r[0][..m].chunks_exact(W).zip(r[1][..m].chunks_exact(W));
    let rows = rows.zip(r[2][..m].chunks_exact(W)).zip(r[3][..m].chunks_exact(W));
    for (xv, (((a0, a1), a2), a3)) in x[..m].chunks_exact(W).zip(rows) {
        for a in [a0, a1, a2, a3] {
            prefetch_next(a);
        }
        let xv: &[T; W] = xv.try_into().expect("W");
        let [a0, a1, a2, a3]: [&[T; W]; 4] = [a0, a1, a2, a3].map(|a| a.try_into().expect("W"));
        for t in 0..W {
            s0[t] = s0[t] + a0[t] * xv[t];
            s1[t] = s1[t] + a1[t] * xv[t];
            s2[t] = s2[t] + a2[t] * xv[t];
            s3[t] = s3[t] + a3[t] * xv[t];
        }
    }
    let fold = |s: [T; W], r: &[T]| (m..k).fold(s.into_iter().fold(T::default(), |a, v| a + v), |a, q| a + r[q] * x[q]);
    [fold(s0, r[0]), fold(s1, r[1]), fold(s2, r[2]), fold(s3, r[3])]
}

/// `y[i] = Σ_p M[i, p] v[p]` where row i of M starts at `m + i·rs` and is contiguous (a dot
/// product per output, four rows at a time).
unsafe fn rows_dot<T: Small>(y: &mut [T], m: At<T>, rs: isize, v: &[T], par: bool) {
    let k = v.len();
    let one = |i0: usize, ys: &mut [T]| {
        wide(
            #[inline(always)]
            || {
                let done = ys.len() / 4 * 4;
                let mut quads = ys.chunks_exact_mut(4);
                for (q, yq) in (&mut quads).enumerate() {
                    let r = |j: usize| m.run((i0 + 4 * q + j) as isize * rs, k);
                    yq.copy_from_slice(&dot4::<T, 16>([r(0), r(1), r(2), r(3)], v));
                }
                for (i, yi) in quads.into_remainder().iter_mut().enumerate() {
                    *yi = dot::<T, 32>(m.run((i0 + done + i) as isize * rs, k), v);
                }
            },
        )
    };
    let threads = rayon::current_num_threads();
    if par && threads > 1 && y.len() < threads && k >= 4 * SPLIT {
        // fewer rows than cores (a single dot product, `(1, k) @ (k, 1)`): each row split into
        // fixed blocks over the cores, their sums added in order (one core read a 2^20 float64
        // row in 0.41-0.56 ms; now 0.10-0.28, NumPy's threaded OpenBLAS 0.09-0.11: the host's
        // noise, and the wake-up of the pool's threads at this size)
        for (i, yi) in y.iter_mut().enumerate() {
            let (row, blocks) = (m.run(i as isize * rs, k), k.div_ceil(SPLIT));
            let mut parts = vec![T::default(); blocks];
            let per = blocks.div_ceil(threads);
            on_every_core(&mut parts, per, |t, share| {
                wide(
                    #[inline(always)]
                    || {
                        for (q, part) in share.iter_mut().enumerate() {
                            let r = (t * per + q) * SPLIT..((t * per + q + 1) * SPLIT).min(k);
                            *part = dot::<T, 32>(&row[r.clone()], &v[r]);
                        }
                    },
                )
            });
            *yi = parts.into_iter().fold(T::default(), |s, p| s + p);
        }
    } else if par && threads > 1 {
        let rows = y.len().div_ceil(threads).next_multiple_of(4);
        on_every_core(y, rows, |t, ys| one(t * rows, ys));
    } else {
        one(0, y);
    }
}

/// `f(t, share t)` on every core's thread `t` of the pool, `y` cut into shares of `per`
/// elements (a thread past the last share does nothing): the same block of the matrix on the same
/// thread every call. A 2000² float64 matrix is 30.5 MiB: read in halves that stay with their
/// core, each half stays in that core's share of the last-level cache between products (CG reads
/// the same matrix twice a step); blocks handed out as cores came free went wherever a core was
/// free and came from memory every time (CG 0.6-0.9x NumPy's OpenBLAS, which splits the same
/// fixed way; 0.9-1.06x this way, on the 2-core EPYC VM).
fn on_every_core<T: Send>(y: &mut [T], per: usize, f: impl Fn(usize, &mut [T]) + Sync) {
    let shares: Vec<std::sync::Mutex<&mut [T]>> = y.chunks_mut(per.max(1)).map(std::sync::Mutex::new).collect();
    rayon::broadcast(|ctx| {
        if let Some(share) = shares.get(ctx.index()) {
            f(ctx.index(), &mut share.lock().unwrap_or_else(|e| e.into_inner()));
        }
    });
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
                let len = ys.len();
                let row = |p: usize| m.run(p as isize * rs + j0 as isize, len);
                let mut p = rows.start;
                while p + 8 <= rows.end {
                    axpy8_add(ys, std::array::from_fn(|q| v[p + q]), std::array::from_fn(|q| row(p + q)));
                    p += 8;
                }
                while p + 4 <= rows.end {
                    axpy4_add(ys, [v[p], v[p + 1], v[p + 2], v[p + 3]], [row(p), row(p + 1), row(p + 2), row(p + 3)]);
                    p += 4;
                }
                for (q, &vq) in v[p..rows.end].iter().enumerate() {
                    axpy_add(ys, vq, row(p + q));
                }
            },
        )
    };
    y.fill(T::default());
    let threads = rayon::current_num_threads();
    if !par || threads == 1 {
        axpys(y, 0, 0..k);
    } else if k >= 4 * threads {
        // a block of rows per core, fixed (see `on_every_core`), the partial sums added in order:
        // the same bits every run
        let rows = k.div_ceil(threads);
        let mut parts: Vec<Vec<T>> = vec![Vec::new(); threads];
        on_every_core(&mut parts, 1, |t, part| {
            let mut ys = vec![T::default(); n];
            axpys(&mut ys, 0, (t * rows).min(k)..((t + 1) * rows).min(k));
            part[0] = ys;
        });
        for part in parts {
            axpys_add(y, &part);
        }
    } else {
        let cols = n.div_ceil(4 * threads).max(256);
        y.par_chunks_mut(cols).enumerate().for_each(|(c, ys)| axpys(ys, c * cols, 0..k));
    }
}

/// `y[j] += Σ_r a[r] x[r][j]`: four rows of the matrix per pass over the output (one row per
/// pass loaded and stored the output once for every row, as OpenBLAS's four-column kernel does
/// not).
#[inline(always)]
fn axpy4_add<T: Small>(y: &mut [T], a: [T; 4], x: [&[T]; 4]) {
    let n = y.len();
    let [x0, x1, x2, x3] = x.map(|x| &x[..n]);
    for j in 0..n {
        y[j] = y[j] + a[0] * x0[j] + a[1] * x1[j] + a[2] * x2[j] + a[3] * x3[j];
    }
}

/// [`axpy4_add`] with eight rows (half the output traffic again: p @ A went from 0.92 to
/// 1.1x OpenBLAS on one core).
#[inline(always)]
fn axpy8_add<T: Small>(y: &mut [T], a: [T; 8], x: [&[T]; 8]) {
    let n = y.len();
    let [x0, x1, x2, x3, x4, x5, x6, x7] = x.map(|x| &x[..n]);
    for j in 0..n {
        y[j] = y[j]
            + a[0] * x0[j]
            + a[1] * x1[j]
            + a[2] * x2[j]
            + a[3] * x3[j]
            + a[4] * x4[j]
            + a[5] * x5[j]
            + a[6] * x6[j]
            + a[7] * x7[j];
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
