//! The sort family on the CPU: each line's elements become order-preserving unsigned keys
//! (`keys.rs`), radix-sorted (rdst: parallel for one long line, one line per rayon task
//! otherwise); an argsort sorts keys joined with positions, which makes them unique, so the
//! result is the stable one. complex128 sorts with a comparator (its key would not fit).
mod keys;
mod search;
mod simd;

use crate::iter::{map1, PAR_THRESHOLD};
use crate::CpuStorage;
use keys::{cmp_c128, Key, Sortable};
use rayon::prelude::*;
use rdst::RadixSort;
use xp_core::{Element, HostBuffer, Layout, Result, Side, SortOutput, SortStorage};

/// Sort one line of keys in place (in parallel when it is long and the only one): 32-bit keys by
/// the AVX-512 quicksort where the processor has it (`simd.rs`), the others by a radix sort.
fn sort_keys<K: rdst::RadixKey + Ord + Copy + Send + Sync + 'static>(v: &mut [K], alone: bool) {
    if std::any::TypeId::of::<K>() == std::any::TypeId::of::<u32>() && v.len() > 16 {
        // SAFETY: K is u32 (same type id), so the slice is a slice of u32.
        let u = unsafe { std::slice::from_raw_parts_mut(v.as_mut_ptr() as *mut u32, v.len()) };
        if simd::sort_u32(u, alone && v.len() >= PAR_THRESHOLD) {
            return;
        }
    }
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
    if alone {
        // One long line: read it in parallel pieces, then sort it (in parallel itself).
        let o = base + outer.first().copied().unwrap_or(0);
        crate::par::chunks_mut(&mut out, PAR_THRESHOLD, &|c, dst| {
            for (k, d) in dst.iter_mut().enumerate() {
                let i = c * PAR_THRESHOLD + k;
                *d = read(x[(o + i as isize * s) as usize], i);
            }
        });
        f(&mut out, true);
        return out;
    }
    if n == 0 {
        return out;
    }
    // `per` lines to a task (through `par`'s `&dyn` loop: rayon is not instantiated per dtype)
    let per = (PAR_THRESHOLD / n).max(1);
    crate::par::chunks_mut(&mut out, n * per, &|c, lines| {
        for (dst, &o) in lines.chunks_mut(n).zip(&outer[c * per..]) {
            for (i, d) in dst.iter_mut().enumerate() {
                *d = read(x[(base + o + i as isize * s) as usize], i);
            }
            f(dst, false);
        }
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

/// The values of one contiguous line of 32-bit elements sorted by the AVX-512 quicksort, which
/// makes the keys in its first pass and the elements again in its last stores; None where the
/// line is not one contiguous run of float32, int32 or uint32, or the processor has no AVX-512.
fn sort_line_simd<T: Sortable>(x: &[T], l: &Layout, axis: usize) -> Option<HostBuffer> {
    use std::any::TypeId;
    let (outer, n, s) = lines(l, axis);
    if outer.len() != 1 || (s != 1 && n > 1) || size_of::<T>() != 4 {
        return None;
    }
    let start = (l.offset() as isize + outer[0]) as usize;
    // SAFETY: T is 4 bytes (checked above) and every bit pattern is a u32; the line lies inside `x`.
    let bits = unsafe { std::slice::from_raw_parts(x.as_ptr().add(start) as *const u32, n) };
    let mut out = crate::pool::alloc::<T>(n);
    // SAFETY: the block has room for n elements of 4 bytes; the sort writes each of the n
    // output elements (and reads none before writing it), after which all n are initialised.
    let o = unsafe { std::slice::from_raw_parts_mut(out.as_mut_ptr() as *mut u32, n) };
    let t = TypeId::of::<T>();
    let done = if t == TypeId::of::<f32>() {
        simd::sort_into::<simd::Float>(bits, o, true)
    } else if t == TypeId::of::<i32>() {
        simd::sort_into::<simd::Signed>(bits, o, true)
    } else if t == TypeId::of::<u32>() {
        simd::sort_into::<simd::Unsigned>(bits, o, true)
    } else {
        false
    };
    if !done {
        return None;
    }
    // SAFETY: as said above.
    unsafe { out.set_len(n) };
    Some(T::into_buffer(out))
}

fn sort_t<T: Sortable>(x: &[T], l: &Layout, axis: usize, out: SortOutput) -> HostBuffer {
    match out {
        SortOutput::Values => {
            if let Some(b) = sort_line_simd(x, l, axis) {
                return b;
            }
            let k = sort_lines(x, l, axis, |line: &mut [T::K], alone| sort_keys(line, alone), |v, _| v.key());
            T::into_buffer(axis_back(from_keys(&k, T::from_key), l, axis))
        }
        SortOutput::Indices if l.shape()[axis] <= u32::MAX as usize => {
            let w = sort_lines(
                x,
                l,
                axis,
                |line: &mut [<T::K as Key>::Wide], alone| sort_keys(line, alone),
                |v, i| v.key().wide(i as u32),
            );
            HostBuffer::I64(axis_back(from_keys(&w, |w| <T::K as Key>::position(w) as i64), l, axis))
        }
        SortOutput::Indices => sort_cmp(x, l, axis, out, |a: &T, b: &T| a.key().cmp(&b.key())),
    }
}

/// `f` of every sorted key, in parallel chunks (a loop per chunk that the compiler inlines `f`
/// into: a `&dyn` call per element cost a 2048 × 2048 float32 sort 15%).
fn from_keys<K: Copy + Sync, O: Element>(k: &[K], f: impl Fn(K) -> O + Sync) -> Vec<O> {
    crate::iter::fill_chunks(k.len(), |start, out| {
        for (o, &x) in out.iter_mut().zip(&k[start..]) {
            o.write(f(x));
        }
    })
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
