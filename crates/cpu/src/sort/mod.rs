//! The sort family on the CPU: each line's elements become order-preserving unsigned keys
//! (`keys.rs`), radix-sorted (rdst: parallel for one long line, one line per rayon task
//! otherwise); an argsort sorts keys joined with positions, which makes them unique, so the
//! result is the stable one. complex128 sorts with a comparator (its key would not fit).
mod keys;
mod search;

use crate::iter::{map1, PAR_THRESHOLD};
use crate::CpuStorage;
use keys::{cmp_c128, Key, Sortable};
use rayon::prelude::*;
use rdst::RadixSort;
use xp_core::{Element, HostBuffer, Layout, Result, Side, SortOutput, SortStorage};

/// Sort one line of keys in place (in parallel when it is long and the only one).
fn sort_keys<K: rdst::RadixKey + Ord + Copy + Send + Sync>(v: &mut [K], alone: bool) {
    if v.len() < 256 {
        v.sort_unstable();
    } else if alone && v.len() >= PAR_THRESHOLD {
        v.radix_sort_unstable();
    } else {
        v.radix_sort_builder().with_parallel(false).sort();
    }
}

/// The lines of `l` along `axis` with that axis last: (outer offsets, length, stride).
fn lines(l: &Layout, axis: usize) -> (Vec<isize>, usize, isize) {
    let mut perm: Vec<usize> = (0..l.ndim()).filter(|&a| a != axis).collect();
    perm.push(axis);
    let moved = l.permute(&perm).expect("a permutation");
    (crate::index::offsets(&moved, 0..l.ndim() - 1), l.shape()[axis], l.strides()[axis])
}

/// Every line of `l` along `axis`, read through `read(element, position)` and sorted by `f`, in a
/// buffer with the axis last.
fn sort_lines<T: Element, O: Copy + Default + Send + Sync>(
    x: &[T],
    l: &Layout,
    axis: usize,
    f: impl Fn(&mut [O], bool) + Sync,
    read: impl Fn(T, usize) -> O + Sync,
) -> Vec<O> {
    let (outer, n, s) = lines(l, axis);
    let base = l.offset() as isize;
    let alone = outer.len() == 1;
    let mut out: Vec<O> = vec![O::default(); outer.len() * n];
    let per = (PAR_THRESHOLD / n.max(1)).max(1);
    out.par_chunks_mut(n.max(1)).zip(outer.par_iter()).with_min_len(per).for_each(|(dst, &o)| {
        for (i, d) in dst.iter_mut().enumerate() {
            *d = read(x[(base + o + i as isize * s) as usize], i);
        }
        f(dst, alone);
    });
    out
}

/// A buffer of `l`'s shape with `axis` moved last, in C order with `l`'s axis order.
fn axis_back<E: Element>(v: Vec<E>, l: &Layout, axis: usize) -> Vec<E> {
    if axis + 1 == l.ndim() {
        return v;
    }
    let mut shape: Vec<usize> = (0..l.ndim()).filter(|&a| a != axis).map(|a| l.shape()[a]).collect();
    shape.push(l.shape()[axis]);
    let mut perm: Vec<usize> = (0..l.ndim() - 1).collect();
    perm.insert(axis, l.ndim() - 1);
    map1(&v, &Layout::contiguous(&shape).permute(&perm).expect("a permutation"), |x| x)
}

fn sort_t<T: Sortable>(x: &[T], l: &Layout, axis: usize, out: SortOutput) -> HostBuffer {
    match out {
        SortOutput::Values => {
            let k = sort_lines(x, l, axis, |line: &mut [T::K], alone| sort_keys(line, alone), |v, _| v.key());
            T::into_buffer(axis_back(k.into_par_iter().map(T::from_key).collect(), l, axis))
        }
        SortOutput::Indices if l.shape()[axis] <= u32::MAX as usize => {
            let w = sort_lines(
                x,
                l,
                axis,
                |line: &mut [<T::K as Key>::Wide], alone| sort_keys(line, alone),
                |v, i| v.key().wide(i as u32),
            );
            HostBuffer::I64(axis_back(w.into_par_iter().map(|w| <T::K as Key>::position(w) as i64).collect(), l, axis))
        }
        SortOutput::Indices => sort_cmp(x, l, axis, out, |a: &T, b: &T| a.key().cmp(&b.key())),
    }
}

/// A stable comparison sort of every line (complex128, or lines beyond 2^32 elements).
fn sort_cmp<T: Element>(
    x: &[T],
    l: &Layout,
    axis: usize,
    out: SortOutput,
    cmp: impl Fn(&T, &T) -> std::cmp::Ordering + Sync,
) -> HostBuffer {
    let pairs = sort_lines(
        x,
        l,
        axis,
        |line: &mut [(T, i64)], alone| {
            if alone {
                line.par_sort_by(|a, b| cmp(&a.0, &b.0));
            } else {
                line.sort_by(|a, b| cmp(&a.0, &b.0));
            }
        },
        |v, i| (v, i as i64),
    );
    match out {
        SortOutput::Values => T::into_buffer(axis_back(pairs.into_iter().map(|p| p.0).collect(), l, axis)),
        SortOutput::Indices => HostBuffer::I64(axis_back(pairs.into_iter().map(|p| p.1).collect(), l, axis)),
    }
}

impl SortStorage for CpuStorage {
    fn sort(&self, l: &Layout, axis: usize, out: SortOutput) -> Result<Self> {
        use HostBuffer::*;
        Ok(CpuStorage(match &self.0 {
            Bool(v) => sort_t(v, l, axis, out),
            I8(v) => sort_t(v, l, axis, out),
            I16(v) => sort_t(v, l, axis, out),
            I32(v) => sort_t(v, l, axis, out),
            I64(v) => sort_t(v, l, axis, out),
            U8(v) => sort_t(v, l, axis, out),
            U16(v) => sort_t(v, l, axis, out),
            U32(v) => sort_t(v, l, axis, out),
            U64(v) => sort_t(v, l, axis, out),
            F16(v) => sort_t(v, l, axis, out),
            BF16(v) => sort_t(v, l, axis, out),
            F32(v) => sort_t(v, l, axis, out),
            F64(v) => sort_t(v, l, axis, out),
            C64(v) => sort_t(v, l, axis, out),
            C128(v) => sort_cmp(v, l, axis, out, cmp_c128),
        }))
    }
    fn searchsorted(&self, l: &Layout, v: &Self, vl: &Layout, side: Side) -> Result<Self> {
        search::searchsorted(&self.0, l, &v.0, vl, side).map(|r| CpuStorage(HostBuffer::I64(r)))
    }
}
