//! Reductions, arg-reductions, scans and take on strided host data.
//!
//! Reductions never transpose-copy: when the fastest-varying axis of the input is reduced, each
//! output folds its own run ("inner" mode, pairwise for additions, parallel over outputs or over
//! the run for full reductions); otherwise whole rows of kept elements are combined into the output
//! ("outer" mode, vectorised along the contiguous kept axis, parallel over kept elements).
use crate::iter::{chunk_len, fill_chunks, Walk, PAR_THRESHOLD};
use crate::kernel::Kernel;
use rayon::prelude::*;
use xp_core::{ArgReduceOp, Layout};

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

/// Fold one strided run: pairwise when `pw`, else left to right (non-associative ops).
#[inline]
fn fold_run<T: Kernel>(x: &[T], off: isize, len: usize, stride: isize, pw: bool, f: &impl Fn(T, T) -> T) -> T {
    if pw && stride == 1 {
        let s = &x[off as usize..off as usize + len];
        pairwise(len, &|i| s[i], f)
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
pub fn reduce<T: Kernel>(x: &[T], layout: &Layout, axes: &[usize], pw: bool, f: impl Fn(T, T) -> T + Sync) -> Vec<T> {
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
            let parts: Vec<T> =
                (0..nr.div_ceil(c)).into_par_iter().map(|i| fold_from(base, i * c, ((i + 1) * c).min(nr))).collect();
            return vec![parts.into_iter().reduce(&f).unwrap()];
        }
        let kw = Walk::new(&[&kl]);
        return fill_chunks(nk, |start, out| {
            kw.segments(start, start + out.len(), |pos, len, off| {
                let s = kw.inner_stride(0);
                for i in 0..len {
                    out[pos - start + i] = fold_from(off[0] + i as isize * s, 0, nr);
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
    fill_chunks(nk, |start, out| {
        kw.segments(start, start + out.len(), |pos, len, off| {
            let o = &mut out[pos - start..pos - start + len];
            let row = |r: isize, i: usize| x[(off[0] + r + i as isize * ks) as usize];
            // Blocks of PW_LEAF rows are summed apart and then added: pairwise-level error growth.
            let mut tmp: Vec<T> = Vec::new();
            for (b, block) in roff.chunks(if pw { PW_LEAF } else { usize::MAX }).enumerate() {
                let dst: &mut [T] = if b == 0 {
                    o
                } else {
                    tmp.clear();
                    tmp.resize(len, T::default());
                    &mut tmp
                };
                for (i, d) in dst.iter_mut().enumerate() {
                    *d = row(block[0], i);
                }
                for &r in &block[1..] {
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
pub fn arg_reduce<T: Kernel>(x: &[T], layout: &Layout, op: ArgReduceOp, axis: usize) -> Vec<i64> {
    let (kl, _) = split(layout, &[axis]);
    let (n, s) = (layout.shape()[axis], layout.strides()[axis]);
    let better = |a: T, b: T| match op {
        ArgReduceOp::ArgMax => T::gt(a, b),
        ArgReduceOp::ArgMin => T::lt(a, b),
    };
    // (index, value) of the winner among positions lo..hi from base.
    let scan = |base: isize, lo: usize, hi: usize| -> (usize, T) {
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
        let parts: Vec<(usize, T)> =
            (0..n.div_ceil(c)).into_par_iter().map(|i| scan(base, i * c, ((i + 1) * c).min(n))).collect();
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
    fill_chunks(kl.numel(), |start, out| {
        kw.segments(start, start + out.len(), |pos, len, off| {
            for i in 0..len {
                out[pos - start + i] = scan(off[0] + i as isize * kw.inner_stride(0), 0, n).0 as i64;
            }
        })
    })
}

/// Inclusive scan of `f` along `axis`; the output is C-contiguous with the input's shape.
pub fn scan<T: Kernel>(x: &[T], layout: &Layout, axis: usize, f: impl Fn(T, T) -> T + Sync) -> Vec<T> {
    let n = layout.numel();
    let (len, s) = (layout.shape()[axis], layout.strides()[axis]);
    let out_l = Layout::contiguous(layout.shape());
    let os = out_l.strides()[axis];
    let mut out = vec![T::default(); n];
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
        let totals: Vec<T> = (0..len.div_ceil(c))
            .into_par_iter()
            .map(|i| fold_run(x, base + (i * c) as isize * s, ((i + 1) * c).min(len) - i * c, s, false, &f))
            .collect();
        let mut starts = vec![None; totals.len()];
        for i in 1..totals.len() {
            starts[i] = Some(match starts[i - 1] {
                None => totals[i - 1],
                Some(a) => f(a, totals[i - 1]),
            });
        }
        out.par_chunks_mut(c).enumerate().for_each(|(i, ch)| {
            let lo = i * c;
            line(ch, base + lo as isize * s, -(lo as isize), lo, lo + ch.len(), starts[i]);
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

/// NumPy's `take` along `axis`; the output is C-contiguous.
pub fn take<T: Kernel>(x: &[T], layout: &Layout, axis: usize, idx: &[usize]) -> Vec<T> {
    let sh = layout.shape();
    let offsets = |axes: std::ops::Range<usize>| {
        let l = Layout::new(sh[axes.clone()].to_vec(), layout.strides()[axes].to_vec(), 0);
        let w = Walk::new(&[&l]);
        let mut v = Vec::with_capacity(l.numel());
        w.segments(0, l.numel(), |_, len, off| v.extend((0..len as isize).map(|i| off[0] + i * w.inner_stride(0))));
        v
    };
    let (outer, inner) = (offsets(0..axis), offsets(axis + 1..sh.len()));
    let s = layout.strides()[axis];
    let mut out = Vec::with_capacity(outer.len() * idx.len() * inner.len());
    for &o in &outer {
        for &j in idx {
            let b = layout.offset() as isize + o + j as isize * s;
            out.extend(inner.iter().map(|&i| x[(b + i) as usize]));
        }
    }
    out
}
