//! Compaction: the positions where a mask (or an array) is nonzero, in C order, counted per chunk
//! in parallel and written at each chunk's offset.
use super::gather::fill_rows;
use super::offsets;
use crate::iter::{map1, PAR_THRESHOLD};
use rayon::prelude::*;
use xp_core::{Element, Layout};

/// `f(i)` for the positions `i` where `m` is true, in order, into `alloc(count)`: counted per
/// chunk in parallel, then each chunk written at its offset without a branch on the mask (every
/// position is written where the cursor stands, and the cursor moves by the mask: a random mask
/// mispredicted half the branches of a filtering loop).
fn compact<U: Send>(m: &[bool], alloc: impl FnOnce(usize) -> Vec<U>, f: impl Fn(usize) -> U + Sync) -> Vec<U> {
    let c = if m.len() < PAR_THRESHOLD {
        m.len().max(1)
    } else {
        (m.len() / (rayon::current_num_threads() * 4)).max(PAR_THRESHOLD)
    };
    let counts: Vec<usize> = crate::par::chunks_map(m, c, &|ch| ch.iter().map(|&b| b as usize).sum());
    let total: usize = counts.iter().sum();
    let mut out = alloc(total);
    let mut spare = &mut out.spare_capacity_mut()[..total];
    let mut parts = Vec::with_capacity(counts.len());
    for &n in &counts {
        let (a, b) = spare.split_at_mut(n);
        parts.push(a);
        spare = b;
    }
    parts.into_par_iter().zip(m.par_chunks(c).enumerate()).for_each(|(dst, (ci, ms))| {
        let (n, base) = (dst.len(), ci * c);
        let mut w = 0;
        for (i, &b) in ms.iter().enumerate() {
            if w < n {
                dst[w].write(f(base + i));
            }
            w += b as usize;
        }
    });
    // SAFETY: chunk i writes exactly counts[i] elements into its part (its cursor passes each of
    // its true positions once, writing before it moves), and the parts tile 0..total.
    unsafe { out.set_len(total) };
    out
}

/// The C-order positions of the true elements of a contiguous mask.
fn positions(m: &[bool]) -> Vec<usize> {
    compact(m, Vec::with_capacity, |i| i)
}

/// The nonzero elements' coordinates, `(count, ndim)` in C order (int64).
pub(crate) fn nonzero<T: Element>(x: &[T], l: &Layout) -> Vec<i64> {
    let zero = T::default();
    let m = map1(x, l, |v| v != zero);
    let shape = l.shape();
    let nd = shape.len();
    if nd == 1 {
        // the positions are the coordinates
        return compact(&m, crate::pool::alloc::<i64>, |i| i as i64);
    }
    let pos = positions(&m);
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
    compact(m, crate::pool::alloc::<T>, |i| x[i])
}
