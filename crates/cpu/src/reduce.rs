//! Reductions, arg-reductions, scans and take on strided host data.
//!
//! Reductions never transpose-copy: when the fastest-varying axis of the input is reduced, each
//! output folds its own run ("inner" mode, pairwise for additions, parallel over outputs or over
//! the run for full reductions); otherwise whole rows of kept elements are combined into the output
//! ("outer" mode, vectorised along the contiguous kept axis, parallel over kept elements).
// Index loops here walk lanes and operands in step.
#![allow(clippy::needless_range_loop)]

use crate::iter::{chunk_len, fill_chunks_work, Walk, PAR_THRESHOLD};
use crate::scalar::ScalarOps;
use std::mem::MaybeUninit;
use xp_core::{ArgReduceOp, Layout};

/// Write `v(i)` into every element and view the slice as initialised.
fn init_with<T>(o: &mut [MaybeUninit<T>], v: impl Fn(usize) -> T) -> &mut [T] {
    for (i, d) in o.iter_mut().enumerate() {
        d.write(v(i));
    }
    // SAFETY: every element was written just above; MaybeUninit<T> has T's layout.
    unsafe { &mut *(o as *mut [MaybeUninit<T>] as *mut [T]) }
}

/// Leaf size of the pairwise sum (NumPy's is 128 too).
const PW_LEAF: usize = 128;

/// Pairwise fold of `n` values `get(i)` with an associative `f`: the error of a pairwise sum.
#[inline]
fn pairwise<T: Copy>(n: usize, get: &impl Fn(usize) -> T, f: &impl Fn(T, T) -> T) -> T {
    pairwise_from(0, n, get, f)
}

fn pairwise_from<T: Copy>(lo: usize, n: usize, get: &impl Fn(usize) -> T, f: &impl Fn(T, T) -> T) -> T {
    let at = |i: usize| get(lo + i);
    if n <= PW_LEAF {
        if n < 8 {
            let mut acc = at(0);
            for i in 1..n {
                acc = f(acc, at(i));
            }
            return acc;
        }
        let mut acc = [at(0), at(1), at(2), at(3), at(4), at(5), at(6), at(7)];
        let mut i = 8;
        while i + 8 <= n {
            for (j, a) in acc.iter_mut().enumerate() {
                *a = f(*a, at(i + j));
            }
            i += 8;
        }
        let mut r = f(f(f(acc[0], acc[1]), f(acc[2], acc[3])), f(f(acc[4], acc[5]), f(acc[6], acc[7])));
        while i < n {
            r = f(r, at(i));
            i += 1;
        }
        r
    } else {
        let m = (n / 2) & !7;
        f(pairwise_from(lo, m, get, f), pairwise_from(lo + m, n - m, get, f))
    }
}

/// Pairwise fold of a contiguous slice; the leaves run sixteen independent lanes over
/// `chunks_exact`, which the compiler keeps in vector registers.
fn pairwise_slice<T: Copy>(x: &[T], f: &impl Fn(T, T) -> T) -> T {
    const L: usize = 16;
    if x.len() <= 2 * PW_LEAF {
        if x.len() < L {
            return x[1..].iter().fold(x[0], |a, &b| f(a, b));
        }
        let mut acc: [T; L] = std::array::from_fn(|j| x[j]);
        let mut it = x[L..].chunks_exact(L);
        for c in &mut it {
            for j in 0..L {
                acc[j] = f(acc[j], c[j]);
            }
        }
        let mut w = L;
        while w > 1 {
            w /= 2;
            for j in 0..w {
                acc[j] = f(acc[j], acc[j + w]);
            }
        }
        return it.remainder().iter().fold(acc[0], |a, &b| f(a, b));
    }
    let m = (x.len() / 2) & !(L - 1);
    f(pairwise_slice(&x[..m], f), pairwise_slice(&x[m..], f))
}

/// Fold one strided run: pairwise when `pw`, else left to right (non-associative ops).
#[inline]
fn fold_run<T: ScalarOps>(x: &[T], off: isize, len: usize, stride: isize, pw: bool, f: &impl Fn(T, T) -> T) -> T {
    if pw && stride == 1 {
        pairwise_slice(&x[off as usize..off as usize + len], f)
    } else if pw {
        pairwise(len, &|i| x[(off + i as isize * stride) as usize], f)
    } else {
        let mut acc = x[off as usize];
        for i in 1..len {
            acc = f(acc, x[(off + i as isize * stride) as usize]);
        }
        acc
    }
}

fn split(layout: &Layout, axes: &[usize]) -> (Layout, Layout) {
    let nd = layout.ndim();
    let kept: Vec<usize> = (0..nd).filter(|a| !axes.contains(a)).collect();
    let part = |ax: &[usize], off: usize| {
        Layout::new(
            ax.iter().map(|&a| layout.shape()[a]).collect(),
            ax.iter().map(|&a| layout.strides()[a]).collect(),
            off,
        )
    };
    (part(&kept, layout.offset()), part(axes, 0))
}

/// Reduce `axes` of `x` with `f` (pairwise when `pw`: associative ops). At least one element is
/// reduced per output; the output is C-contiguous over the kept axes.
pub fn reduce<T: ScalarOps>(
    x: &[T],
    layout: &Layout,
    axes: &[usize],
    pw: bool,
    f: impl Fn(T, T) -> T + Sync,
) -> Vec<T> {
    let (kl, rl) = split(layout, axes);
    let (nk, nr) = (kl.numel(), rl.numel());
    let rw = Walk::new(&[&rl]);
    // Which axis moves fastest in memory decides the mode.
    let inner = (0..layout.ndim())
        .filter(|&a| layout.shape()[a] > 1)
        .min_by_key(|&a| layout.strides()[a].unsigned_abs())
        .is_none_or(|a| axes.contains(&a));
    let fold_from = |base: isize, start: usize, end: usize| -> T {
        let mut acc: Option<T> = None;
        rw.segments(start, end, |_, len, off| {
            let v = fold_run(x, base + off[0], len, rw.inner_stride(0), pw, &f);
            acc = Some(match acc {
                None => v,
                Some(a) => f(a, v),
            });
        });
        acc.expect("reduce over at least one element")
    };
    if inner || nk == 1 {
        if nk == 1 && nr >= PAR_THRESHOLD && pw {
            let base = kl.offset() as isize;
            let c = chunk_len(nr);
            let parts: Vec<T> = crate::par::map(nr.div_ceil(c), &|i| fold_from(base, i * c, ((i + 1) * c).min(nr)));
            return vec![parts.into_iter().reduce(&f).unwrap()];
        }
        let kw = Walk::new(&[&kl]);
        // one reduced axis: its run folded directly (the walk over the reduced positions cost
        // more than the sum of a short axis: `sum(1)` of (10^6, 2))
        let single = (rl.ndim() == 1).then(|| rl.strides()[0]);
        return fill_chunks_work(nk, nr, |start, out| {
            kw.segments(start, start + out.len(), |pos, len, off| {
                let s = kw.inner_stride(0);
                for i in 0..len {
                    let base = off[0] + i as isize * s;
                    out[pos - start + i].write(match single {
                        Some(rs) => fold_run(x, base, nr, rs, pw, &f),
                        None => fold_from(base, 0, nr),
                    });
                }
            })
        });
    }
    // Outer mode: offsets of every reduced position, then rows of kept elements combined in order.
    let mut roff = Vec::with_capacity(nr);
    rw.segments(0, nr, |_, len, off| {
        for i in 0..len {
            roff.push(off[0] + i as isize * rw.inner_stride(0));
        }
    });
    let kw = Walk::new(&[&kl]);
    let ks = kw.inner_stride(0);
    let threads = rayon::current_num_threads();
    if pw && threads > 1 && nk <= 1 << 16 && nr >= 8 * threads && nk * nr >= PAR_THRESHOLD {
        // Few kept elements, many rows: each thread streams its own contiguous band of rows
        // into a private partial row, and the partials are combined in order.
        let band = nr.div_ceil(threads);
        let parts: Vec<Vec<T>> =
            crate::par::chunks_map(&roff, band, &|rows| outer_rows(x, &kw, ks, nk, rows, true, false, &f));
        let mut it = parts.into_iter();
        let mut acc = it.next().expect("at least one band");
        for p in it {
            for (a, b) in acc.iter_mut().zip(p) {
                *a = f(*a, b);
            }
        }
        return acc;
    }
    outer_rows(x, &kw, ks, nk, &roff, pw, true, &f)
}

/// Outer-mode reduction of the rows at offsets `roff` for every kept element (parallel over
/// kept elements when there is enough work).
#[allow(clippy::too_many_arguments)]
fn outer_rows<T: ScalarOps>(
    x: &[T],
    kw: &Walk,
    ks: isize,
    nk: usize,
    roff: &[isize],
    pw: bool,
    parallel: bool,
    f: &(impl Fn(T, T) -> T + Sync),
) -> Vec<T> {
    let nr = roff.len();
    // Inside a band the walk stays on this thread: whole rows stream through one partial row.
    fill_chunks_work(nk, if parallel { nr } else { 0 }, |start, out| {
        kw.segments(start, start + out.len(), |pos, len, off| {
            let row = |r: isize, i: usize| x[(off[0] + r + i as isize * ks) as usize];
            let o = init_with(&mut out[pos - start..pos - start + len], |i| row(roff[0], i));
            // Blocks of PW_LEAF rows are summed apart and then added: pairwise-level error growth.
            let mut tmp: Vec<T> = Vec::new();
            for (b, block) in roff.chunks(if pw { PW_LEAF } else { usize::MAX }).enumerate() {
                let dst: &mut [T] = if b == 0 {
                    &mut *o
                } else {
                    tmp.clear();
                    tmp.extend((0..len).map(|i| row(block[0], i)));
                    &mut tmp
                };
                let rest = &block[1..];
                // Contiguous rows, four at a time in a reorderable fold: a quarter of the
                // partial-row traffic.
                let quads = if ks == 1 && pw { rest.len() / 4 * 4 } else { 0 };
                for q in rest[..quads].chunks_exact(4) {
                    let r = |k: usize| &x[(off[0] + q[k]) as usize..(off[0] + q[k]) as usize + len];
                    let (r0, r1, r2, r3) = (r(0), r(1), r(2), r(3));
                    for i in 0..len {
                        dst[i] = f(dst[i], f(f(r0[i], r1[i]), f(r2[i], r3[i])));
                    }
                }
                for &r in &rest[quads..] {
                    if ks == 1 {
                        let s = &x[(off[0] + r) as usize..(off[0] + r) as usize + len];
                        for (d, &v) in dst.iter_mut().zip(s) {
                            *d = f(*d, v);
                        }
                    } else {
                        for (i, d) in dst.iter_mut().enumerate() {
                            *d = f(*d, row(r, i));
                        }
                    }
                }
                if b > 0 {
                    for (d, &t) in o.iter_mut().zip(&tmp) {
                        *d = f(*d, t);
                    }
                }
            }
        })
    })
}

/// Index of the first maximum/minimum (first NaN wins) along `axis`, as int64.
pub fn arg_reduce<T: ScalarOps>(x: &[T], layout: &Layout, op: ArgReduceOp, axis: usize) -> Vec<i64> {
    match op {
        ArgReduceOp::ArgMax => arg_reduce_by(x, layout, axis, T::gt),
        ArgReduceOp::ArgMin => arg_reduce_by(x, layout, axis, T::lt),
    }
}

fn arg_reduce_by<T: ScalarOps>(
    x: &[T],
    layout: &Layout,
    axis: usize,
    better: impl Fn(T, T) -> bool + Sync + Copy,
) -> Vec<i64> {
    let (kl, _) = split(layout, &[axis]);
    let (n, s) = (layout.shape()[axis], layout.strides()[axis]);
    // (index, value) of the winner among positions lo..hi from base.
    let scan = |base: isize, lo: usize, hi: usize| -> (usize, T) {
        // a short run by the plain loop below (the wide dispatch costs more than two compares)
        if s == 1 && hi - lo > 16 {
            let run = &x[(base as usize + lo)..(base as usize + hi)];
            // compiled for the widest SIMD the processor has (as NumPy's argmax is)
            let (i, v) = crate::eval::col::wide(|| arg_extreme_contiguous(run, better));
            return (lo + i, v);
        }
        let mut best = (lo, x[(base + lo as isize * s) as usize]);
        if best.1.is_nan() {
            return best;
        }
        for i in lo + 1..hi {
            let v = x[(base + i as isize * s) as usize];
            if v.is_nan() {
                return (i, v);
            }
            if better(v, best.1) {
                best = (i, v);
            }
        }
        best
    };
    if kl.numel() == 1 && n >= PAR_THRESHOLD {
        let c = chunk_len(n);
        let base = kl.offset() as isize;
        let parts: Vec<(usize, T)> = crate::par::map(n.div_ceil(c), &|i| scan(base, i * c, ((i + 1) * c).min(n)));
        let mut best = parts[0];
        for &p in &parts[1..] {
            if best.1.is_nan() {
                break;
            }
            if p.1.is_nan() || better(p.1, best.1) {
                best = p;
            }
        }
        return vec![best.0 as i64];
    }
    let kw = Walk::new(&[&kl]);
    fill_chunks_work(kl.numel(), n, |start, out| {
        kw.segments(start, start + out.len(), |pos, len, off| {
            for i in 0..len {
                out[pos - start + i].write(scan(off[0] + i as isize * kw.inner_stride(0), 0, n).0 as i64);
            }
        })
    })
}

/// First index of the extreme of a contiguous run (first NaN wins), in blocks: a vectorisable
/// pass finds each block's extreme and whether it holds a NaN, and only a block that improves on
/// the best so far is searched for the index.
#[inline(always)]
fn arg_extreme_contiguous<T: ScalarOps>(x: &[T], better: impl Fn(T, T) -> bool + Copy) -> (usize, T) {
    const B: usize = 2048;
    let mut best = (0usize, x[0]);
    for (bi, blk) in x.chunks(B).enumerate() {
        // Eight independent lanes, so that the compiler keeps them in vector registers.
        let mut lanes = [blk[0]; 8];
        let mut nan = [false; 8];
        let mut it = blk.chunks_exact(8);
        for c in &mut it {
            for j in 0..8 {
                nan[j] |= c[j].is_nan();
                lanes[j] = if better(c[j], lanes[j]) { c[j] } else { lanes[j] };
            }
        }
        let mut m = lanes[0];
        let mut nan = nan.iter().any(|&b| b);
        for &v in lanes[1..].iter().chain(it.remainder()) {
            nan |= v.is_nan();
            if better(v, m) {
                m = v;
            }
        }
        if nan {
            let i = blk.iter().position(|v| v.is_nan()).expect("block has a NaN");
            return (bi * B + i, blk[i]);
        }
        if bi == 0 || better(m, best.1) {
            let i = blk.iter().position(|&v| v == m).unwrap_or(0);
            best = (bi * B + i, m);
        }
    }
    best
}

/// Inclusive scan of `f` along `axis`; the output is C-contiguous with the input's shape.
pub fn scan<T: ScalarOps>(x: &[T], layout: &Layout, axis: usize, f: impl Fn(T, T) -> T + Sync) -> Vec<T> {
    let n = layout.numel();
    let (len, s) = (layout.shape()[axis], layout.strides()[axis]);
    let out_l = Layout::contiguous(layout.shape());
    let os = out_l.strides()[axis];
    let mut out = crate::pool::alloc::<T>(n);
    out.resize(n, T::default());
    if n == 0 {
        return out;
    }
    let (kl, _) = split(layout, &[axis]);
    let (okl, _) = split(&out_l, &[axis]);
    let line = |out: &mut [T], ib: isize, ob: isize, lo: usize, hi: usize, init: Option<T>| {
        let mut acc = init;
        for i in lo..hi {
            let v = x[(ib + i as isize * s) as usize];
            let a = match acc {
                None => v,
                Some(a) => f(a, v),
            };
            out[(ob + i as isize * os) as usize] = a;
            acc = Some(a);
        }
    };
    if kl.numel() == 1 && len >= PAR_THRESHOLD {
        // One long line: chunk totals first, then each chunk scans from the sum of those before it.
        let c = chunk_len(len);
        let base = kl.offset() as isize;
        let totals: Vec<T> = crate::par::map(len.div_ceil(c), &|i| {
            fold_run(x, base + (i * c) as isize * s, ((i + 1) * c).min(len) - i * c, s, false, &f)
        });
        let mut starts = vec![None; totals.len()];
        for i in 1..totals.len() {
            starts[i] = Some(match starts[i - 1] {
                None => totals[i - 1],
                Some(a) => f(a, totals[i - 1]),
            });
        }
        crate::par::chunks_mut(&mut out, c, &|i, ch| {
            let lo = i * c;
            line(ch, base, -(lo as isize), lo, lo + ch.len(), starts[i]);
        });
        return out;
    }
    let w = Walk::new(&[&kl, &okl]);
    w.segments(0, kl.numel(), |_, cnt, off| {
        for j in 0..cnt as isize {
            line(&mut out, off[0] + j * w.inner_stride(0), off[1] + j * w.inner_stride(1), 0, len, None);
        }
    });
    out
}
