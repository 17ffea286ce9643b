//! Compaction: the positions where a mask (or an array) is nonzero, in C order, counted per chunk
//! in parallel and written at each chunk's offset.
use super::gather::fill_rows;
use super::offsets;
use crate::iter::{map1, PAR_THRESHOLD};
use rayon::prelude::*;
use xp_core::{Element, Layout};

/// The C-order positions of the true elements of a contiguous mask.
fn positions(m: &[bool]) -> Vec<usize> {
    if m.len() < PAR_THRESHOLD {
        return m.iter().enumerate().filter(|(_, &x)| x).map(|(i, _)| i).collect();
    }
    let c = (m.len() / (rayon::current_num_threads() * 4)).max(PAR_THRESHOLD);
    let parts: Vec<Vec<usize>> = m
        .par_chunks(c)
        .enumerate()
        .map(|(ci, ch)| ch.iter().enumerate().filter(|(_, &x)| x).map(|(i, _)| ci * c + i).collect())
        .collect();
    parts.concat()
}

/// The nonzero elements' coordinates, `(count, ndim)` in C order (int64).
pub(crate) fn nonzero<T: Element>(x: &[T], l: &Layout) -> Vec<i64> {
    let zero = T::default();
    let m = map1(x, l, |v| v != zero);
    let pos = positions(&m);
    let shape = l.shape();
    let nd = shape.len();
    fill_rows::<i64>(pos.len(), nd, |r0, ch| {
        for (row, &p) in ch.chunks_mut(nd.max(1)).zip(&pos[r0..]) {
            let mut r = p;
            for d in (0..nd).rev() {
                row[d].write((r % shape[d]) as i64);
                r /= shape[d];
            }
        }
    })
}

/// `x[..., mask, ...]` with the mask over axes `axis .. axis + ml.ndim()`: shape `P × [count] × Q`.
pub(crate) fn compress<T: Element>(x: &[T], l: &Layout, axis: usize, m: &[bool], ml: &Layout) -> Vec<T> {
    let k = ml.ndim();
    let base = l.offset() as isize;
    if axis == 0 && k == l.ndim() && l.is_contiguous() && ml.is_contiguous() {
        // The whole array under one mask, both contiguous (`a[a > 0.5]`): per chunk, count then copy.
        let (xs, ms) = (&x[l.offset()..l.offset() + l.numel()], &m[ml.offset()..ml.offset() + ml.numel()]);
        return compress_flat(xs, ms);
    }
    let mc = map1(m, ml, |v| v);
    let pos = positions(&mc);
    let k_offs = offsets(l, axis..axis + k);
    let (p_offs, q_offs) = (offsets(l, 0..axis), offsets(l, axis + k..l.ndim()));
    let (nc, nq) = (pos.len(), q_offs.len());
    fill_rows::<T>(p_offs.len() * nc, nq, |r0, ch| {
        for (r, row) in (r0..).zip(ch.chunks_mut(nq.max(1))) {
            let at = base + p_offs[r / nc] + k_offs[pos[r % nc]];
            for (o, &q) in row.iter_mut().zip(&q_offs) {
                o.write(x[(at + q) as usize]);
            }
        }
    })
}

fn compress_flat<T: Element>(x: &[T], m: &[bool]) -> Vec<T> {
    let c = if x.len() < PAR_THRESHOLD {
        x.len().max(1)
    } else {
        (x.len() / (rayon::current_num_threads() * 4)).max(PAR_THRESHOLD)
    };
    let counts: Vec<usize> = m.par_chunks(c).map(|ch| ch.iter().filter(|&&b| b).count()).collect();
    let total: usize = counts.iter().sum();
    let mut out: Vec<T> = crate::pool::alloc(total);
    let mut spare = &mut out.spare_capacity_mut()[..total];
    let mut parts = Vec::with_capacity(counts.len());
    for &n in &counts {
        let (a, b) = spare.split_at_mut(n);
        parts.push(a);
        spare = b;
    }
    parts.into_par_iter().zip(x.par_chunks(c).zip(m.par_chunks(c))).for_each(|(dst, (xs, ms))| {
        let mut w = 0;
        for (&v, &b) in xs.iter().zip(ms) {
            if b {
                dst[w].write(v);
                w += 1;
            }
        }
    });
    // SAFETY: chunk i writes exactly counts[i] elements into its part, and the parts tile 0..total.
    unsafe { out.set_len(total) };
    out
}
