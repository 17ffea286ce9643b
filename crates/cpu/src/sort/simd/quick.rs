//! The quicksort's recursion and its partitions (see the module docs of `simd`).
use super::network::small;
use super::{depth, with_scratch, Kind, Unsigned};
use std::arch::x86_64::*;

/// Segments up to this many keys are sorted in registers.
pub(super) const SMALL: usize = 256;
/// Segments longer than this are split between two tasks.
const SPLIT: usize = 1 << 16;

/// `sort_into` on a processor with AVX-512.
#[target_feature(enable = "avx512f,popcnt")]
pub(super) unsafe fn sort_keys_of<K: Kind>(x: &[u32], out: &mut [u32], parallel: bool) {
    let n = x.len();
    if n <= SMALL {
        small::<K, true>(x.as_ptr(), out.as_mut_ptr(), n);
        return;
    }
    with_scratch(n, |tmp| {
        if parallel && n >= 4 * SPLIT {
            return split_top::<K>(x, tmp, out, depth(n));
        }
        let l = partition::<K, true>(x, tmp, pivot::<K>(&[x]));
        if l == 0 {
            // The pivot was the minimum: the general recursion handles it from the keys.
            qs::<K>(tmp, out, false, depth(n), parallel);
        } else {
            halves::<K>(tmp, out, l, true, depth(n), parallel);
        }
    });
}

/// The first two levels of a long parallel sort, each split between two tasks, so that no core
/// waits while the other reads the whole input: each half of `x` is partitioned (around one
/// pivot) into its half of `tmp`; then the two sides, each in two pieces, are partitioned into
/// their places in `out` (around a pivot each); then the four parts are sorted there.
#[target_feature(enable = "avx512f,popcnt")]
unsafe fn split_top<K: Kind>(x: &[u32], tmp: &mut [u32], out: &mut [u32], depth: u32) {
    let (n, h) = (x.len(), x.len() / 2);
    let p = pivot::<K>(&[x]);
    let (xa, xb) = x.split_at(h);
    let (ta, tb) = tmp.split_at_mut(h);
    // SAFETY (both closures here and below): AVX-512 is present (the caller's feature); the
    // pieces are disjoint.
    let (la, lb) =
        rayon::join(|| unsafe { partition::<K, true>(xa, ta, p) }, || unsafe { partition::<K, true>(xb, tb, p) });
    let l = la + lb;
    if l == 0 || l == n {
        // The pivot was the minimum (or one key throughout): the general recursion handles it.
        return qs::<K>(tmp, out, false, depth, true);
    }
    let (ta, tb) = tmp.split_at(h);
    let left = [&ta[..la], &tb[..lb]];
    let right = [&ta[la..], &tb[lb..]];
    let (ol, or) = out.split_at_mut(l);
    let (ll, lr) = rayon::join(
        || unsafe { partition_pieces::<K, false>(&left, ol, pivot::<Unsigned>(&left)) },
        || unsafe { partition_pieces::<K, false>(&right, or, pivot::<Unsigned>(&right)) },
    );
    // The keys are in `out` now, `tmp` is free: sort each side's two parts there (a part of
    // length 0 or the whole side means its pivot was its minimum: the side is sorted whole).
    let (tl, tr) = tmp.split_at_mut(l);
    rayon::join(|| unsafe { parts::<K>(ol, tl, ll, depth - 2) }, || unsafe { parts::<K>(or, tr, lr, depth - 2) });
}

/// Sort the keys of `o` (in place: home) split after `l` by a partition, `t` the other buffer.
#[target_feature(enable = "avx512f,popcnt")]
unsafe fn parts<K: Kind>(o: &mut [u32], t: &mut [u32], l: usize, depth: u32) {
    if l == 0 || l == o.len() {
        return qs::<K>(o, t, true, depth, true);
    }
    let (o1, o2) = o.split_at_mut(l);
    let (t1, t2) = t.split_at_mut(l);
    rayon::join(
        // SAFETY: as for this call; the parts are disjoint.
        || unsafe { qs::<K>(o1, t1, true, depth, true) },
        || unsafe { qs::<K>(o2, t2, true, depth, true) },
    );
}

/// Sort the two sides of a partition, now in `dst` (`l` keys below the pivot): `dst` is the
/// source of both halves and `src` the other buffer; the result goes to `src` if `home_src`.
#[target_feature(enable = "avx512f,popcnt")]
unsafe fn halves<K: Kind>(dst: &mut [u32], src: &mut [u32], l: usize, home_src: bool, depth: u32, parallel: bool) {
    let n = dst.len();
    let (dl, dr) = dst.split_at_mut(l);
    let (sl, sr) = src.split_at_mut(l);
    if parallel && n > SPLIT {
        rayon::join(
            // SAFETY: as for this call; the halves are disjoint.
            || unsafe { qs::<K>(dl, sl, !home_src, depth - 1, true) },
            || unsafe { qs::<K>(dr, sr, !home_src, depth - 1, true) },
        );
    } else {
        qs::<K>(dl, sl, !home_src, depth - 1, parallel);
        qs::<K>(dr, sr, !home_src, depth - 1, parallel);
    }
}

/// Sort the keys of `src`, using `dst` (as long) as the other buffer; the result (as elements of
/// kind `K`) goes to `src` if `home_src`, else to `dst`.
#[target_feature(enable = "avx512f,popcnt")]
pub(super) unsafe fn qs<K: Kind>(src: &mut [u32], dst: &mut [u32], home_src: bool, depth: u32, parallel: bool) {
    let n = src.len();
    if n <= SMALL {
        let out = if home_src { src.as_mut_ptr() } else { dst.as_mut_ptr() };
        small::<K, false>(src.as_ptr(), out, n);
        return;
    }
    if depth == 0 {
        src.sort_unstable();
        if home_src {
            src.iter_mut().for_each(|k| *k = K::value(*k));
        } else {
            dst.iter_mut().zip(src.iter()).for_each(|(h, &k)| *h = K::value(k));
        }
        return;
    }
    let l = partition::<K, false>(src, dst, pivot::<Unsigned>(&[src]));
    if l > 0 {
        halves::<K>(dst, src, l, home_src, depth, parallel);
        return;
    }
    // Every key is at least the pivot, which is one of them: the pivot is the minimum.
    let (lo, hi) = dst.iter().fold((u32::MAX, 0), |(a, b), &k| (a.min(k), b.max(k)));
    if lo == hi {
        // One key throughout: sorted as it stands.
        (if home_src { src } else { dst }).fill(K::value(lo));
        return;
    }
    // Split off the keys equal to the minimum, which need no sorting; the others are in `src`.
    let l = partition::<K, false>(dst, src, lo + 1);
    (if home_src { &mut src[..l] } else { &mut dst[..l] }).fill(K::value(lo));
    qs::<K>(&mut src[l..], &mut dst[l..], home_src, depth - 1, parallel);
}

/// The median of the keys of a sample spread evenly over the concatenation of `pieces` (at
/// least 16 elements of kind `K`): 64 keys for long segments (the closer to the true median, the
/// fewer levels), 16 otherwise, sorted in registers.
#[target_feature(enable = "avx512f,popcnt")]
unsafe fn pivot<K: Kind>(pieces: &[&[u32]]) -> u32 {
    let n: usize = pieces.iter().map(|p| p.len()).sum();
    let m = if n >= BIG_SAMPLE { 64 } else { 16 };
    let step = n / m;
    let at = |mut i: usize| {
        for p in pieces {
            if i < p.len() {
                return K::key(p[i]);
            }
            i -= p.len();
        }
        unreachable!("a position inside the pieces")
    };
    let s: [u32; 64] = std::array::from_fn(|i| if i < m { at(i * step + step / 2) } else { 0 });
    let mut out = [0u32; 64];
    small::<Unsigned, false>(s.as_ptr(), out.as_mut_ptr(), m);
    out[m / 2]
}

/// Segments from this length on take their pivot from 64 keys.
const BIG_SAMPLE: usize = 4096;

/// The first `k` lanes (k ≤ 16).
#[inline(always)]
pub(super) fn first(k: usize) -> u16 {
    ((1u32 << k) - 1) as u16
}

/// Move the keys of `src` below `p` to the front of `dst` and the others to its back; returns the
/// number below `p`. `CONVERT`: `src` holds elements of kind `K`, whose keys are moved.
#[target_feature(enable = "avx512f,popcnt")]
unsafe fn partition<K: Kind, const CONVERT: bool>(src: &[u32], dst: &mut [u32], p: u32) -> usize {
    partition_pieces::<K, CONVERT>(&[src], dst, p)
}

/// `partition` of the keys of several pieces (as long together as `dst`), one after the other.
#[target_feature(enable = "avx512f,popcnt")]
unsafe fn partition_pieces<K: Kind, const CONVERT: bool>(src: &[&[u32]], dst: &mut [u32], p: u32) -> usize {
    debug_assert_eq!(src.iter().map(|s| s.len()).sum::<usize>(), dst.len());
    let d = dst.as_mut_ptr();
    let pv = _mm512_set1_epi32(p as i32);
    let (mut l, mut r) = (0usize, dst.len());
    for piece in src {
        let (s, n) = (piece.as_ptr(), piece.len());
        let mut i = 0;
        while i + 16 <= n {
            let x = _mm512_loadu_si512(s.add(i) as *const _);
            let x = if CONVERT { K::keys(x) } else { x };
            let m = _mm512_cmplt_epu32_mask(x, pv);
            let c = m.count_ones() as usize;
            if r - l >= 32 {
                // At least 32 keys unread: the gap between the sides is as wide, so full stores
                // may write past a side's new keys into it (the right side's keys moved to the
                // top lanes first).
                _mm512_storeu_si512(d.add(l) as *mut _, _mm512_maskz_compress_epi32(m, x));
                let top = _mm512_maskz_expand_epi32(!first(c), _mm512_maskz_compress_epi32(!m, x));
                _mm512_storeu_si512(d.add(r - 16) as *mut _, top);
            } else {
                _mm512_mask_storeu_epi32(d.add(l) as *mut _, first(c), _mm512_maskz_compress_epi32(m, x));
                let right = _mm512_maskz_compress_epi32(!m, x);
                _mm512_mask_storeu_epi32(d.add(r - (16 - c)) as *mut _, first(16 - c), right);
            }
            r -= 16 - c;
            l += c;
            i += 16;
        }
        for &x in &piece[i..] {
            let x = if CONVERT { K::key(x) } else { x };
            if x < p {
                *d.add(l) = x;
                l += 1;
            } else {
                r -= 1;
                *d.add(r) = x;
            }
        }
    }
    debug_assert_eq!(l, r);
    l
}
