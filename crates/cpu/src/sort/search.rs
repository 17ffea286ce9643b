//! Binary search in a sorted 1-D array (NumPy's `searchsorted`), by the sort's own order.
use super::keys::{cmp_c128, Sortable};
use crate::iter::map1_blocks;
use std::cmp::Ordering;
use xp_core::{Element, Error, HostBuffer, Layout, Result, Side};

/// Each query's position; queries in nondecreasing runs (the offsets and expansions of sparse
/// formats, merges) start their search from the previous answer and gallop, so a sorted run of
/// `q` queries costs `O(q log(n / q))` instead of `O(q log n)`; the rest search the whole array.
fn search<T: Element>(
    a: &[T],
    l: &Layout,
    v: &[T],
    vl: &Layout,
    side: Side,
    cmp: impl Fn(&T, &T) -> Ordering + Sync,
) -> Vec<i64> {
    let (n, s, o) = (l.shape()[0], l.strides()[0], l.offset() as isize);
    let at = |i: usize| &a[(o + i as isize * s) as usize];
    // whether position `i` lies before x's answer: (left) its element is before x / (right) not after x
    let before = |i: usize, x: &T| match side {
        Side::Left => cmp(at(i), x) == Ordering::Less,
        Side::Right => cmp(at(i), x) != Ordering::Greater,
    };
    map1_blocks(v, vl, |xs, out| {
        let mut prev: Option<(T, usize)> = None;
        for (x, o) in xs.iter().zip(out.iter_mut()) {
            let (mut lo, mut hi) = (0usize, n);
            if let Some((_, at_p)) = prev.filter(|(p, _)| cmp(x, p) != Ordering::Less) {
                // x's answer is at or past p's: gallop from it to bound the search
                lo = at_p;
                let mut step = 1usize;
                loop {
                    let probe = lo + step - 1;
                    if probe >= n {
                        break;
                    }
                    if before(probe, x) {
                        lo = probe + 1;
                        step *= 2;
                    } else {
                        hi = probe;
                        break;
                    }
                }
            }
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                if before(mid, x) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            prev = Some((*x, lo));
            o.write(lo as i64);
        }
    })
}

fn by_key<T: Sortable>(a: &T, b: &T) -> Ordering {
    a.key().cmp(&b.key())
}

pub(crate) fn searchsorted(a: &HostBuffer, l: &Layout, v: &HostBuffer, vl: &Layout, side: Side) -> Result<Vec<i64>> {
    use HostBuffer::*;
    Ok(match (a, v) {
        (Bool(a), Bool(v)) => search(a, l, v, vl, side, by_key),
        (I8(a), I8(v)) => search(a, l, v, vl, side, by_key),
        (I16(a), I16(v)) => search(a, l, v, vl, side, by_key),
        (I32(a), I32(v)) => search(a, l, v, vl, side, by_key),
        (I64(a), I64(v)) => search(a, l, v, vl, side, by_key),
        (U8(a), U8(v)) => search(a, l, v, vl, side, by_key),
        (U16(a), U16(v)) => search(a, l, v, vl, side, by_key),
        (U32(a), U32(v)) => search(a, l, v, vl, side, by_key),
        (U64(a), U64(v)) => search(a, l, v, vl, side, by_key),
        (F16(a), F16(v)) => search(a, l, v, vl, side, by_key),
        (BF16(a), BF16(v)) => search(a, l, v, vl, side, by_key),
        (F32(a), F32(v)) => search(a, l, v, vl, side, by_key),
        (F64(a), F64(v)) => search(a, l, v, vl, side, by_key),
        (C64(a), C64(v)) => search(a, l, v, vl, side, by_key),
        (C128(a), C128(v)) => search(a, l, v, vl, side, cmp_c128),
        (_, v) => return Err(Error::InvalidDType { op: "searchsorted", dtype: v.dtype() }),
    })
}
