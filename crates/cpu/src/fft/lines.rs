//! Transforming every line of a C-contiguous buffer along one axis, over both cores: lines along
//! the last axis are contiguous and handed over in place; lines along another axis are gathered
//! a tile of neighbouring columns at a time (so that each cache line read serves the whole tile),
//! transformed, and scattered into the output.
use rayon::prelude::*;
use xp_core::Element;

/// Columns gathered together along a strided axis.
const TILE: usize = 16;

#[derive(Clone, Copy)]
struct Ptr<T>(*mut T);
// SAFETY: the tiles of `along` read and write disjoint columns, so no element is shared between
// threads.
unsafe impl<T> Send for Ptr<T> {}
unsafe impl<T> Sync for Ptr<T> {}

impl<T> Ptr<T> {
    /// The pointer to element `k` (through a method, so that closures capture the `Sync`
    /// wrapper, not its field).
    ///
    /// # Safety
    /// `k` lies within the buffer the pointer came from.
    unsafe fn at(&self, k: usize) -> *mut T {
        // SAFETY: the caller keeps `k` in bounds.
        unsafe { self.0.add(k) }
    }
}

/// `f(scratch, line_in, line_out)` on every line of `src` (C-contiguous, `shape`) along `axis`:
/// each line of `shape[axis]` inputs (handed over mutable: the transforms use it as scratch)
/// gives `m` outputs. The result has `shape` with `m` on `axis`. `init` makes one scratch state
/// per task.
pub(super) fn along<I, O, S>(
    src: &mut [I],
    shape: &[usize],
    axis: usize,
    m: usize,
    init: impl Fn() -> S + Sync + Send,
    f: impl Fn(&mut S, &mut [I], &mut [O]) + Sync + Send,
) -> Vec<O>
where
    I: Element + Default,
    O: Element + Default,
{
    let n = shape[axis];
    let outer: usize = shape[..axis].iter().product();
    let inner: usize = shape[axis + 1..].iter().product();
    // from the host pool: a fresh allocation's page faults cost more than a transform pass
    let mut out = crate::pool::alloc::<O>(outer * m * inner);
    out.resize(outer * m * inner, O::default());
    if out.is_empty() || n == 0 {
        return out;
    }
    if inner == 1 {
        // enough lines per task that a task is not dominated by rayon's own cost
        let per = (4096 / n).max(1);
        src.par_chunks_mut(n).zip(out.par_chunks_mut(m)).with_min_len(per).for_each_init(init, |s, (i, o)| f(s, i, o));
        return out;
    }
    let tiles = inner.div_ceil(TILE);
    let (sp, op) = (Ptr(src.as_mut_ptr()), Ptr(out.as_mut_ptr()));
    (0..outer * tiles).into_par_iter().for_each_init(
        || (init(), vec![I::default(); TILE * n], vec![O::default(); TILE * m]),
        |(s, li, lo), item| {
            let (b, c0) = (item / tiles, (item % tiles) * TILE);
            let w = TILE.min(inner - c0);
            let (ib, ob) = (b * n * inner + c0, b * m * inner + c0);
            for j in 0..n {
                // SAFETY: `ib + j * inner + w` <= outer * n * inner = src.len(), and `src` is
                // only read while the tasks run.
                let row = unsafe { std::slice::from_raw_parts(sp.at(ib + j * inner), w) };
                for (c, &v) in row.iter().enumerate() {
                    li[c * n + j] = v;
                }
            }
            for c in 0..w {
                f(s, &mut li[c * n..(c + 1) * n], &mut lo[c * m..(c + 1) * m]);
            }
            for k in 0..m {
                for c in 0..w {
                    // SAFETY: as above, within out's outer * m * inner elements.
                    unsafe { *op.at(ob + k * inner + c) = lo[c * m + k] };
                }
            }
        },
    );
    out
}
