//! Bitonic sorting networks in AVX-512 registers: one register of 16 keys, and up to 16
//! registers as one sequence (see the module docs of `simd`).
use super::quick::first;
use super::Kind;
use std::arch::x86_64::*;

/// Lane permutations: partner `i ^ x` of every lane.
#[inline(always)]
unsafe fn partner(x: i32) -> __m512i {
    let lane = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    _mm512_xor_si512(lane, _mm512_set1_epi32(x))
}

/// One compare-exchange stage in a register: lane `i` meets lane `i ^ x`; the lower lane keeps
/// the minimum (the lanes with bit `top` set, `top` being `x`'s highest bit, take the maximum).
#[inline(always)]
unsafe fn stage(v: __m512i, x: i32) -> __m512i {
    // In-lane and 128-bit shuffles where they reach the partner (cheaper than a full permute).
    let p = match x {
        1 => _mm512_shuffle_epi32::<0b10_11_00_01>(v),
        2 => _mm512_shuffle_epi32::<0b01_00_11_10>(v),
        3 => _mm512_shuffle_epi32::<0b00_01_10_11>(v),
        4 => _mm512_shuffle_i64x2::<0b10_11_00_01>(v, v),
        8 => _mm512_shuffle_i64x2::<0b01_00_11_10>(v, v),
        _ => _mm512_permutexvar_epi32(partner(x), v),
    };
    let (mn, mx) = (_mm512_min_epu32(v, p), _mm512_max_epu32(v, p));
    let top = 1u32 << (31 - (x as u32).leading_zeros());
    let hi = (0..16u32).filter(|i| i & top != 0).fold(0u16, |m, i| m | (1 << i));
    _mm512_mask_mov_epi32(mn, hi, mx)
}

/// The half-cleaners 8, 4, 2, 1 in a register: a bitonic register becomes sorted.
#[inline(always)]
unsafe fn clean(v: __m512i) -> __m512i {
    stage(stage(stage(stage(v, 8), 4), 2), 1)
}

/// Sort one register (a bitonic network: flips of 2, 4, 8, 16 lanes, each followed by
/// half-cleaners).
#[inline(always)]
pub(super) unsafe fn sort16(v: __m512i) -> __m512i {
    let v = stage(v, 1);
    let v = stage(stage(v, 3), 1);
    let v = stage(stage(stage(v, 7), 2), 1);
    clean(stage(v, 15))
}

/// Reverse the lanes.
#[inline(always)]
unsafe fn rev(v: __m512i) -> __m512i {
    _mm512_permutexvar_epi32(partner(15), v)
}

/// Minimum into `a`, maximum into `b`.
#[inline(always)]
unsafe fn minmax(a: &mut __m512i, b: &mut __m512i) {
    let (mn, mx) = (_mm512_min_epu32(*a, *b), _mm512_max_epu32(*a, *b));
    (*a, *b) = (mn, mx);
}

/// What a bitonic network over registers does at its leaves: each register is one run of 16
/// keys ([`Full`]: sorted first; [`Merged`]: sorted already), or each lane is a separate sequence
/// with one key per register ([`Columns`]: the network sorts the 16 columns at once).
trait Leaf {
    /// A single register made sorted, and a bitonic register made sorted.
    unsafe fn sort1(v: __m512i) -> __m512i;
    unsafe fn clean1(v: __m512i) -> __m512i;
    /// The flip between register `a` of the lower run and its mirror `b` in the upper run.
    unsafe fn flip(a: &mut __m512i, b: &mut __m512i);
}

struct Full;
struct Merged;
struct Columns;

impl Leaf for Full {
    #[inline(always)]
    unsafe fn sort1(v: __m512i) -> __m512i {
        sort16(v)
    }
    #[inline(always)]
    unsafe fn clean1(v: __m512i) -> __m512i {
        clean(v)
    }
    #[inline(always)]
    unsafe fn flip(a: &mut __m512i, b: &mut __m512i) {
        let mut t = rev(*b);
        minmax(a, &mut t);
        *b = rev(t);
    }
}

impl Leaf for Merged {
    #[inline(always)]
    unsafe fn sort1(v: __m512i) -> __m512i {
        v
    }
    #[inline(always)]
    unsafe fn clean1(v: __m512i) -> __m512i {
        clean(v)
    }
    #[inline(always)]
    unsafe fn flip(a: &mut __m512i, b: &mut __m512i) {
        Full::flip(a, b)
    }
}

impl Leaf for Columns {
    #[inline(always)]
    unsafe fn sort1(v: __m512i) -> __m512i {
        v
    }
    #[inline(always)]
    unsafe fn clean1(v: __m512i) -> __m512i {
        v
    }
    #[inline(always)]
    unsafe fn flip(a: &mut __m512i, b: &mut __m512i) {
        minmax(a, b)
    }
}

/// R registers (R a power of two) sorted by a bitonic network written as recursion over the
/// array sizes, so that every loop has a constant trip count and the whole network unrolls into
/// registers.
trait Regs {
    /// Sort the sequence.
    unsafe fn sort<L: Leaf>(&mut self);
    /// Sort a bitonic sequence (half-cleaners across registers, then within each).
    unsafe fn clean<L: Leaf>(&mut self);
}

impl Regs for [__m512i; 1] {
    #[inline(always)]
    unsafe fn sort<L: Leaf>(&mut self) {
        self[0] = L::sort1(self[0]);
    }
    #[inline(always)]
    unsafe fn clean<L: Leaf>(&mut self) {
        self[0] = L::clean1(self[0]);
    }
}

/// `[__m512i; $n]` from two halves of `$h`: sort each half, flip across them (a key meets its
/// mirror in the other half), then clean each half.
macro_rules! regs {
    ($n:literal, $h:literal) => {
        impl Regs for [__m512i; $n] {
            #[inline(always)]
            unsafe fn sort<L: Leaf>(&mut self) {
                let (a, b) = self.split_at_mut($h);
                let (a, b): (&mut [__m512i; $h], &mut [__m512i; $h]) = (a.try_into().unwrap(), b.try_into().unwrap());
                a.sort::<L>();
                b.sort::<L>();
                for j in 0..$h {
                    L::flip(&mut a[j], &mut b[$h - 1 - j]);
                }
                a.clean::<L>();
                b.clean::<L>();
            }
            #[inline(always)]
            unsafe fn clean<L: Leaf>(&mut self) {
                let (a, b) = self.split_at_mut($h);
                let (a, b): (&mut [__m512i; $h], &mut [__m512i; $h]) = (a.try_into().unwrap(), b.try_into().unwrap());
                for j in 0..$h {
                    minmax(&mut a[j], &mut b[j]);
                }
                a.clean::<L>();
                b.clean::<L>();
            }
        }
    };
}
regs!(2, 1);
regs!(4, 2);
regs!(8, 4);
regs!(16, 8);

/// Transpose 16 registers as a 16 × 16 matrix of keys (register `i`, lane `j` ↔ register `j`,
/// lane `i`): interleaves of 32-bit, 64-bit, then 128-bit and 256-bit parts.
#[inline(always)]
pub(super) unsafe fn transpose16(r: &mut [__m512i; 16]) {
    let mut t = [_mm512_setzero_si512(); 16];
    for i in 0..8 {
        t[2 * i] = _mm512_unpacklo_epi32(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = _mm512_unpackhi_epi32(r[2 * i], r[2 * i + 1]);
    }
    for i in 0..4 {
        r[4 * i] = _mm512_unpacklo_epi64(t[4 * i], t[4 * i + 2]);
        r[4 * i + 1] = _mm512_unpackhi_epi64(t[4 * i], t[4 * i + 2]);
        r[4 * i + 2] = _mm512_unpacklo_epi64(t[4 * i + 1], t[4 * i + 3]);
        r[4 * i + 3] = _mm512_unpackhi_epi64(t[4 * i + 1], t[4 * i + 3]);
    }
    for i in 0..2 {
        for j in 0..4 {
            t[8 * i + j] = _mm512_shuffle_i32x4::<0x88>(r[8 * i + j], r[8 * i + j + 4]);
            t[8 * i + j + 4] = _mm512_shuffle_i32x4::<0xdd>(r[8 * i + j], r[8 * i + j + 4]);
        }
    }
    for j in 0..8 {
        r[j] = _mm512_shuffle_i32x4::<0x88>(t[j], t[j + 8]);
        r[j + 8] = _mm512_shuffle_i32x4::<0xdd>(t[j], t[j + 8]);
    }
}

/// Sort `n` ≤ 16·R keys from `src` into `dst` in R registers, storing elements of kind `K`
/// (`CONVERT`: `src` holds elements of kind `K` too, not keys).
#[target_feature(enable = "avx512f,popcnt")]
unsafe fn small_regs<K: Kind, const CONVERT: bool, const R: usize>(src: *const u32, dst: *mut u32, n: usize)
where
    [__m512i; R]: Regs,
{
    let pad = _mm512_set1_epi32(-1);
    let mut r = [pad; R];
    for (k, x) in r.iter_mut().enumerate() {
        let m = first(n.saturating_sub(16 * k).min(16));
        *x = _mm512_mask_loadu_epi32(pad, m, src.add(16 * k) as *const _);
        if CONVERT {
            // Padding lanes keep the largest key: they sort last and are never stored.
            *x = _mm512_mask_mov_epi32(pad, m, K::keys(*x));
        }
    }
    if R == 16 {
        // Columns sorted by min/max of whole registers, then transposed: sorted registers,
        // merged (the per-register networks, the dearest part of a full sort, are skipped).
        let r16 = &mut *(r.as_mut_ptr() as *mut [__m512i; 16]);
        r16.sort::<Columns>();
        transpose16(r16);
        r16.sort::<Merged>();
    } else {
        r.sort::<Full>();
    }
    for (k, x) in r.iter().enumerate() {
        let m = first(n.saturating_sub(16 * k).min(16));
        _mm512_mask_storeu_epi32(dst.add(16 * k) as *mut _, m, K::values(*x));
    }
}

/// Sort `n` ≤ 256 keys (`CONVERT`: elements) from `src` into `dst` (which may be `src`) as
/// elements of kind `K`.
#[target_feature(enable = "avx512f,popcnt")]
pub(super) unsafe fn small<K: Kind, const CONVERT: bool>(src: *const u32, dst: *mut u32, n: usize) {
    match n.div_ceil(16) {
        0 => {}
        1 => small_regs::<K, CONVERT, 1>(src, dst, n),
        2 => small_regs::<K, CONVERT, 2>(src, dst, n),
        3 | 4 => small_regs::<K, CONVERT, 4>(src, dst, n),
        5..=8 => small_regs::<K, CONVERT, 8>(src, dst, n),
        _ => small_regs::<K, CONVERT, 16>(src, dst, n),
    }
}
