//! Strided iteration: a C-order walk over collapsed layouts in segments (runs along the innermost
//! axis), split into chunks that rayon runs in parallel above a size threshold.
// Index loops here walk several operands' strides in step.
#![allow(clippy::needless_range_loop)]

use std::mem::MaybeUninit;
use xp_core::{collapse, Element, Layout};

/// Below this many elements an op runs on the calling thread: no pool overhead on small arrays.
pub const PAR_THRESHOLD: usize = 1 << 15;

/// Up to this many operands share one walk.
pub const MAX_OPS: usize = 4;

/// The collapsed iteration space of several same-shaped layouts.
pub struct Walk {
    shape: Vec<usize>,
    strides: Vec<Vec<isize>>,
    base: [isize; MAX_OPS],
    nops: usize,
}

impl Walk {
    /// Collapse `layouts` (all of one shape) into a walk.
    pub fn new(layouts: &[&Layout]) -> Walk {
        assert!(layouts.len() <= MAX_OPS);
        let (shape, strides) = collapse(layouts);
        let mut base = [0isize; MAX_OPS];
        for (k, l) in layouts.iter().enumerate() {
            base[k] = l.offset() as isize;
        }
        Walk { shape, strides, base, nops: layouts.len() }
    }
    /// Number of positions.
    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }
    /// True when there is no position.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Stride of operand `k` along the innermost (segment) axis.
    pub fn inner_stride(&self, k: usize) -> isize {
        *self.strides[k].last().unwrap()
    }
    /// Call `f(position, segment_length, offsets)` for each segment of positions `start..end`,
    /// where `offsets[k]` is operand k's buffer offset of the segment's first element.
    pub fn segments(&self, start: usize, end: usize, mut f: impl FnMut(usize, usize, &[isize; MAX_OPS])) {
        if start >= end {
            return;
        }
        let nd = self.shape.len();
        let mut idx = vec![0usize; nd];
        let mut rem = start;
        for d in (0..nd).rev() {
            idx[d] = rem % self.shape[d];
            rem /= self.shape[d];
        }
        let mut off = self.base;
        for k in 0..self.nops {
            for d in 0..nd {
                off[k] += idx[d] as isize * self.strides[k][d];
            }
        }
        let last = nd - 1;
        let mut pos = start;
        while pos < end {
            let len = (self.shape[last] - idx[last]).min(end - pos);
            f(pos, len, &off);
            pos += len;
            idx[last] += len;
            for k in 0..self.nops {
                off[k] += len as isize * self.strides[k][last];
            }
            let mut d = last;
            while idx[d] == self.shape[d] && d > 0 {
                for k in 0..self.nops {
                    off[k] -= self.shape[d] as isize * self.strides[k][d];
                    off[k] += self.strides[k][d - 1];
                }
                idx[d] = 0;
                idx[d - 1] += 1;
                d -= 1;
            }
        }
    }
}

/// The chunk length for `n` elements: one chunk below the threshold, else a few per thread.
pub fn chunk_len(n: usize) -> usize {
    if n < PAR_THRESHOLD {
        n.max(1)
    } else {
        (n / (rayon::current_num_threads() * 4)).max(PAR_THRESHOLD / 2)
    }
}

/// Fill a new contiguous vector of `n` elements chunk by chunk, in parallel when large:
/// `f(first_position, chunk)` must write every element of its chunk.
///
/// The vector starts uninitialised: a zeroed allocation would cost either a memset or page
/// faults on every call, where the allocator can otherwise hand back recently freed memory.
pub fn fill_chunks<O: Element>(n: usize, f: impl Fn(usize, &mut [MaybeUninit<O>]) + Sync) -> Vec<O> {
    fill_chunks_work(n, 1, f)
}

/// [`fill_chunks`] where producing one output costs about `work` element visits (reductions):
/// the parallel split follows the total work, not the output count.
pub fn fill_chunks_work<O: Element>(n: usize, work: usize, f: impl Fn(usize, &mut [MaybeUninit<O>]) + Sync) -> Vec<O> {
    let mut out: Vec<O> = crate::pool::alloc(n);
    // work == 0: the caller is already parallel; stay on this thread.
    let total = if work == 0 { 0 } else { n.saturating_mul(work) };
    let spare = &mut out.spare_capacity_mut()[..n];
    if total < PAR_THRESHOLD || n < 2 {
        f(0, spare);
    } else {
        let c = (n / (rayon::current_num_threads() * 4)).max((PAR_THRESHOLD / work.max(1)).max(1)).min(n);
        crate::par::chunks_mut(spare, c, &|i, ch| f(i * c, ch));
    }
    // SAFETY: every caller's `f` writes each element of the chunk it is given (the chunks tile
    // 0..n), so all n elements are initialised.
    unsafe { out.set_len(n) };
    out
}

/// Elementwise map of one strided operand into a new contiguous vector.
pub fn map1<A: Copy + Sync, O: Element>(a: &[A], la: &Layout, f: impl Fn(A) -> O + Sync) -> Vec<O> {
    let w = Walk::new(&[la]);
    let contiguous = w.inner_stride(0) == 1;
    fill_chunks(w.len(), |start, out| {
        w.segments(start, start + out.len(), |pos, len, off| {
            let o = &mut out[pos - start..pos - start + len];
            if contiguous {
                let s = &a[off[0] as usize..off[0] as usize + len];
                for (o, &x) in o.iter_mut().zip(s) {
                    o.write(f(x));
                }
            } else {
                let st = w.inner_stride(0);
                for (i, o) in o.iter_mut().enumerate() {
                    o.write(f(a[(off[0] + i as isize * st) as usize]));
                }
            }
        })
    })
}

/// Elementwise map of two strided operands of one shape into a new contiguous vector.
pub fn map2<A: Copy + Sync, B: Copy + Sync, O: Element>(
    a: &[A],
    la: &Layout,
    b: &[B],
    lb: &Layout,
    f: impl Fn(A, B) -> O + Sync,
) -> Vec<O> {
    let w = Walk::new(&[la, lb]);
    let (sa, sb) = (w.inner_stride(0), w.inner_stride(1));
    fill_chunks(w.len(), |start, out| {
        w.segments(start, start + out.len(), |pos, len, off| {
            let o = &mut out[pos - start..pos - start + len];
            let (oa, ob) = (off[0], off[1]);
            match (sa, sb) {
                (1, 1) => {
                    let (x, y) = (&a[oa as usize..oa as usize + len], &b[ob as usize..ob as usize + len]);
                    for ((o, &x), &y) in o.iter_mut().zip(x).zip(y) {
                        o.write(f(x, y));
                    }
                }
                (1, 0) => {
                    let (x, y) = (&a[oa as usize..oa as usize + len], b[ob as usize]);
                    for (o, &x) in o.iter_mut().zip(x) {
                        o.write(f(x, y));
                    }
                }
                (0, 1) => {
                    let (x, y) = (a[oa as usize], &b[ob as usize..ob as usize + len]);
                    for (o, &y) in o.iter_mut().zip(y) {
                        o.write(f(x, y));
                    }
                }
                _ => {
                    for (i, o) in o.iter_mut().enumerate() {
                        let i = i as isize;
                        o.write(f(a[(oa + i * sa) as usize], b[(ob + i * sb) as usize]));
                    }
                }
            }
        })
    })
}

/// Elementwise map of three strided operands of one shape into a new contiguous vector.
pub fn map3<A: Copy + Sync, B: Copy + Sync, C: Copy + Sync, O: Element>(
    (a, la): (&[A], &Layout),
    (b, lb): (&[B], &Layout),
    (c, lc): (&[C], &Layout),
    f: impl Fn(A, B, C) -> O + Sync,
) -> Vec<O> {
    let w = Walk::new(&[la, lb, lc]);
    let s = [w.inner_stride(0), w.inner_stride(1), w.inner_stride(2)];
    fill_chunks(w.len(), |start, out| {
        w.segments(start, start + out.len(), |pos, len, off| {
            for (i, o) in out[pos - start..pos - start + len].iter_mut().enumerate() {
                let i = i as isize;
                o.write(f(
                    a[(off[0] + i * s[0]) as usize],
                    b[(off[1] + i * s[1]) as usize],
                    c[(off[2] + i * s[2]) as usize],
                ));
            }
        })
    })
}

/// Elementwise map that hands blocks of at most 256 elements to `f` (gathered into a buffer when
/// the input is strided), for kernels that decide per block.
pub fn map1_blocks<A: Copy + Sync + Default, O: Element>(
    a: &[A],
    la: &Layout,
    f: impl Fn(&[A], &mut [MaybeUninit<O>]) + Sync,
) -> Vec<O> {
    const B: usize = 256;
    let w = Walk::new(&[la]);
    let st = w.inner_stride(0);
    fill_chunks(w.len(), |start, out| {
        let mut buf = [A::default(); B];
        w.segments(start, start + out.len(), |pos, len, off| {
            let mut i = 0;
            while i < len {
                let n = B.min(len - i);
                let o = &mut out[pos - start + i..pos - start + i + n];
                let base = off[0] + i as isize * st;
                if st == 1 {
                    f(&a[base as usize..base as usize + n], o);
                } else {
                    for (k, b) in buf[..n].iter_mut().enumerate() {
                        *b = a[(base + k as isize * st) as usize];
                    }
                    f(&buf[..n], o);
                }
                i += n;
            }
        })
    })
}
