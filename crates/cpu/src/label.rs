//! Connected-component labelling (SciPy's `ndimage.label`) by union–find over C-order indices:
//! each union links the larger root under the smaller, so a component's root is its first element
//! in C order, and numbering the roots in C order gives SciPy's labels.
//!
//! The leading axis is cut into one slab per thread: each slab unites the neighbours that lie
//! inside it, touching only its own part of the parent array; the neighbours across slab borders
//! are united after, on one thread, and a last C-order pass numbers the roots.
use rayon::prelude::*;
use xp_core::{HostBuffer, Layout, Result};

/// Union–find parents as indices of type `Self` (u32 below 2^31 elements, else u64).
trait Ix: Copy + Send + Sync + PartialEq {
    const NONE: Self;
    fn of(i: usize) -> Self;
    fn get(self) -> usize;
}
macro_rules! ix {
    ($($t:ty),*) => {$(
        impl Ix for $t {
            const NONE: $t = <$t>::MAX;
            fn of(i: usize) -> $t {
                i as $t
            }
            fn get(self) -> usize {
                self as usize
            }
        }
    )*};
}
ix!(u32, u64);

/// The root of `x` (`parent` holds the indices from `base` on), halving the path on the way.
fn find<I: Ix>(parent: &mut [I], base: usize, mut x: usize) -> usize {
    loop {
        let p = parent[x - base].get();
        if p == x {
            return x;
        }
        let gp = parent[p - base].get();
        parent[x - base] = I::of(gp);
        x = gp;
    }
}

/// One C-order pass over the rows `[lo, hi)` of the leading axis (at least two axes): every foreground element is
/// united with its foreground neighbours at the backward offsets, the neighbours' entries still in
/// cache. Pairs whose neighbour lies before row `from` are skipped (another slab's).
#[allow(clippy::too_many_arguments)]
fn unite_rows<I: Ix>(
    fg: &[bool],
    shape: &[usize],
    offsets: &[Vec<i8>],
    parent: &mut [I],
    base: usize,
    lo: usize,
    hi: usize,
    from: usize,
    fresh: bool,
) {
    let nd = shape.len();
    let w = shape[nd - 1];
    let mut strides = vec![1usize; nd];
    for k in (0..nd - 1).rev() {
        strides[k] = strides[k + 1] * shape[k + 1];
    }
    let rows_per_lead = strides[0] / w.max(1);
    let left_first = offsets.first().is_some_and(|o| o[nd - 1] == -1 && o[..nd - 1].iter().all(|&s| s == 0));
    // per offset: the index step and the last axis's step
    let steps: Vec<(isize, i8)> = offsets
        .iter()
        .map(|o| (o.iter().zip(&strides).map(|(&s, &st)| s as isize * st as isize).sum(), o[nd - 1]))
        .collect();
    // An offset is covered by an earlier one when the two neighbours are themselves neighbours:
    // both before `i`, they were united when the later of them was visited.
    let adjacent = |a: &[i8], b: &[i8]| -> bool {
        let d: Vec<i8> = a.iter().zip(b).map(|(x, y)| x - y).collect();
        offsets.iter().any(|o| *o == d || o.iter().zip(&d).all(|(x, y)| *x == -y))
    };
    let covered: Vec<u64> = (0..offsets.len())
        .map(|k| (0..k.min(64)).filter(|&e| adjacent(&offsets[e], &offsets[k])).fold(0u64, |m, e| m | 1 << e))
        .collect();
    let mut active: Vec<(isize, usize, usize, usize, u64)> = Vec::with_capacity(offsets.len());
    let mut c = vec![0usize; nd - 1];
    for lead in lo..hi {
        for r in 0..rows_per_lead {
            // the coordinates of this row on the axes before the last
            let mut rem = r;
            c[0] = lead;
            for k in (1..nd - 1).rev() {
                c[k] = rem % shape[k];
                rem /= shape[k];
            }
            active.clear();
            for (k, (o, &(delta, last))) in offsets.iter().zip(&steps).enumerate() {
                let inside = (0..nd - 1).all(|k| {
                    let v = c[k] as isize + o[k] as isize;
                    v >= 0 && (v as usize) < shape[k] && (k != 0 || v as usize >= from)
                });
                if inside {
                    let (a, b) = match last {
                        -1 => (1, w),
                        1 => (0, w.saturating_sub(1)),
                        _ => (0, w),
                    };
                    active.push((delta, a, b, k.min(63), covered[k]));
                }
            }
            let row0 = lead * strides[0] + r * w;
            let mut left = usize::MAX;
            for col in 0..w {
                let i = row0 + col;
                if !fg[i] {
                    continue;
                }
                // within a slab `i` is still its own root here; across slabs it may not be
                let mut root = if fresh { i } else { find(parent, base, i) };
                let mut seen = 0u64;
                for &(delta, a, b, k, covered) in &active {
                    if col < a || col >= b || seen & covered != 0 {
                        continue;
                    }
                    let j = (i as isize + delta) as usize;
                    if !fg[j] {
                        continue;
                    }
                    seen |= 1 << k;
                    // the left neighbour (first in `offsets`) is still the root it ended with
                    let rj = if k == 0 && left_first && fresh { left } else { find(parent, base, j) };
                    if rj < root {
                        parent[root - base] = I::of(rj);
                        root = rj;
                    } else if rj > root {
                        parent[rj - base] = I::of(root);
                    }
                }
                left = root;
            }
        }
    }
}

fn label_with<I: Ix>(fg: &[bool], shape: &[usize], offsets: &[Vec<i8>]) -> (Vec<I>, usize) {
    if shape.len() == 1 {
        // a line as a column: its elements are the rows the slabs split
        let col: Vec<Vec<i8>> = offsets.iter().map(|o| vec![o[0], 0]).collect();
        return label_with(fg, &[shape[0], 1], &col);
    }
    // the left neighbour first: its root is known without a search (see `unite_rows`)
    let nd = shape.len();
    let mut offsets = offsets.to_vec();
    if let Some(k) = offsets.iter().position(|o| o[nd - 1] == -1 && o[..nd - 1].iter().all(|&s| s == 0)) {
        let left = offsets.remove(k);
        offsets.insert(0, left);
    }
    let offsets = &offsets[..];
    let n = fg.len();
    let mut parent: Vec<I> = fg.par_iter().enumerate().map(|(i, &f)| if f { I::of(i) } else { I::NONE }).collect();
    let rows = shape[0];
    let row = n / rows;
    let slabs = rayon::current_num_threads().clamp(1, rows);
    let per = rows.div_ceil(slabs);
    // within each slab: both ends of a pair inside it
    parent.par_chunks_mut(per * row).enumerate().for_each(|(s, part)| {
        let (lo, hi) = (s * per, ((s + 1) * per).min(rows));
        unite_rows(fg, shape, offsets, part, lo * row, lo, hi, lo, true);
    });
    // across the slab borders: the first row of each slab with its predecessor
    let across: Vec<Vec<i8>> = offsets.iter().filter(|o| o[0] == -1).cloned().collect();
    for s in 1..slabs {
        let lo = s * per;
        if lo < rows {
            unite_rows(fg, shape, &across, &mut parent, 0, lo, lo + 1, 0, false);
        }
    }
    // Number the roots in C order. Every parent precedes its child in C order (unions link under
    // the smaller root, path halving only shortcuts to ancestors), so by the time `i` is reached
    // its parent's entry already holds the number of their common root.
    // Branch-free: a random mask would mispredict every other element.
    let mut count = 0usize;
    for i in 0..n {
        let f = fg[i] as usize;
        let j = parent[i].get().min(i); // the background's NONE reads its own entry
        let root = (j == i) as usize & f;
        count += root;
        let inherited = parent[j].get();
        parent[i] = I::of(root * count + (1 - root) * f * inherited);
    }
    (parent, count)
}

/// Labels of the contiguous bool input `x` at `l` (see `FilterStorage::label`).
pub(crate) fn label(x: &[bool], l: &Layout, offsets: &[Vec<i8>]) -> Result<(HostBuffer, usize)> {
    let fg = &x[l.offset()..l.offset() + l.numel()];
    if fg.is_empty() {
        return Ok((if l.numel() < 1 << 31 { HostBuffer::I32(vec![]) } else { HostBuffer::I64(vec![]) }, 0));
    }
    if l.numel() < 1 << 31 {
        let (p, count) = label_with::<u32>(fg, l.shape(), offsets);
        let out: Vec<i32> = p.into_iter().map(|v| v as i32).collect();
        Ok((HostBuffer::I32(out), count))
    } else {
        let (p, count) = label_with::<u64>(fg, l.shape(), offsets);
        let out: Vec<i64> = p.into_iter().map(|v| v as i64).collect();
        Ok((HostBuffer::I64(out), count))
    }
}
