//! `out[p, b, q] = src[p, i_0[b], …, q]`, in parallel over rows `(p, b)` of the output; the index
//! checks run inside the gather (one pass over the indices), the first violation in C order is
//! reported.
use super::{offsets, out_of_bounds, resolve};
use crate::iter::PAR_THRESHOLD;
use crate::CpuStorage;
use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicUsize, Ordering};
use xp_core::{Element, HostBuffer, IndexSet, Layout, Result};

/// A new vector of `rows * row_len` elements, filled in parallel by whole rows:
/// `f(first_row, chunk)` writes every element of its chunk.
pub(crate) fn fill_rows<O: Element>(
    rows: usize,
    row_len: usize,
    f: impl Fn(usize, &mut [MaybeUninit<O>]) + Sync,
) -> Vec<O> {
    let n = rows * row_len;
    let mut out: Vec<O> = crate::pool::alloc(n);
    let spare = &mut out.spare_capacity_mut()[..n];
    if n < PAR_THRESHOLD || rows < 2 {
        f(0, spare);
    } else {
        let per = (rows / (rayon::current_num_threads() * 8)).max(PAR_THRESHOLD / 4 / row_len).max(1);
        crate::par::chunks_mut(spare, per * row_len, &|i, ch| f(i * per, ch));
    }
    // SAFETY: every `f` writes each element of the chunk it is given and the chunks tile 0..n.
    unsafe { out.set_len(n) };
    out
}

pub(crate) fn gather<T: Element>(
    src: &[T],
    l: &Layout,
    set: &IndexSet<'_, CpuStorage>,
    idx: &[&[i64]],
) -> Result<HostBuffer> {
    let k = idx.len();
    let (p_offs, q_offs) = (offsets(l, 0..set.axis), offsets(l, set.axis + k..l.ndim()));
    let run = super::is_run(&q_offs);
    let (nb, nq) = (set.len(), q_offs.len());
    let axes: Vec<(usize, isize)> = (0..k).map(|j| (l.shape()[set.axis + j], l.strides()[set.axis + j])).collect();
    if p_offs.len() * nb * nq == 0 {
        // Nothing to copy, but NumPy still checks the indices.
        return match super::validate(l, set, idx) {
            Ok(()) => Ok(T::into_buffer(Vec::new())),
            Err(bad) => Err(out_of_bounds(l, set, idx, bad)),
        };
    }
    let bad = AtomicUsize::new(usize::MAX);
    let base = l.offset() as isize;
    let out = if k == 1 && nq == 1 && p_offs.len() == 1 {
        // One index array picking single elements (`take` of a 1-D array): the hot loop.
        let (n, s, ix) = (axes[0].0, axes[0].1, idx[0]);
        let at = base + p_offs[0] + q_offs[0];
        fill_rows::<T>(nb, 1, |b0, ch| {
            // Blocks of indices small enough to stay in L1: checked in one pass, then gathered by
            // a loop with nothing but the loads in it (many cache misses in flight at once); a
            // block with an index out of 0..n takes the per-element path with `resolve`.
            for (k, blk) in ch.chunks_mut(2048).enumerate() {
                let first = b0 + k * 2048;
                let ixs = &ix[first..first + blk.len()];
                if ixs.iter().fold(true, |ok, &i| ok & ((i as u64) < n as u64)) {
                    if s == 1 {
                        let line = &src[at as usize..at as usize + n];
                        for (o, &i) in blk.iter_mut().zip(ixs) {
                            // SAFETY: 0 <= i < n = line.len(), checked just above.
                            o.write(unsafe { *line.get_unchecked(i as usize) });
                        }
                    } else {
                        for (o, &i) in blk.iter_mut().zip(ixs) {
                            o.write(src[(at + i as isize * s) as usize]);
                        }
                    }
                    continue;
                }
                for (b, (o, &i)) in (first..).zip(blk.iter_mut().zip(ixs)) {
                    o.write(match resolve(i, n, set.mode) {
                        Some(i) => src[(at + i as isize * s) as usize],
                        None => {
                            bad.fetch_min(b, Ordering::Relaxed);
                            T::default()
                        }
                    });
                }
            }
        })
    } else {
        fill_rows::<T>(p_offs.len() * nb, nq, |r0, ch| {
            let (mut p, mut b) = (r0 / nb, r0 % nb);
            for row in ch.chunks_mut(nq.max(1)) {
                let mut at = base + p_offs[p];
                let mut ok = true;
                for (j, &(n, s)) in axes.iter().enumerate() {
                    match resolve(idx[j][b], n, set.mode) {
                        Some(i) => at += i as isize * s,
                        None => {
                            bad.fetch_min(j * nb + b, Ordering::Relaxed);
                            ok = false;
                        }
                    }
                }
                if !ok {
                    row.iter_mut().for_each(|o| {
                        o.write(T::default());
                    });
                } else if run {
                    let a = at as usize;
                    for (o, &x) in row.iter_mut().zip(&src[a..a + nq]) {
                        o.write(x);
                    }
                } else {
                    for (o, &q) in row.iter_mut().zip(&q_offs) {
                        o.write(src[(at + q) as usize]);
                    }
                }
                b += 1;
                if b == nb {
                    (b, p) = (0, p + 1);
                }
            }
        })
    };
    match bad.into_inner() {
        usize::MAX => Ok(T::into_buffer(out)),
        b => Err(out_of_bounds(l, set, idx, b)),
    }
}
