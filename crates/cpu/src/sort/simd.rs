//! An AVX-512 quicksort of 32-bit unsigned keys (the keys of float32, int32 and uint32), used
//! when the processor has AVX-512 (checked once at run time) — the design of x86-simd-sort, the
//! sort NumPy uses on such processors, with both cores at work:
//!
//! - **partition** out of place, 16 keys per step: a compare gives the mask of keys below the
//!   pivot, two register compresses pack the two sides and two masked stores write them to the
//!   front and the back of the other buffer (a compress straight to memory is microcoded on AMD's
//!   Zen 4). The pass also finds the segment's minimum and maximum, which end a segment of equal
//!   keys at once and rescue a pivot that was its segment's minimum.
//! - **small segments** (up to 256 keys) are sorted in registers by a bitonic network (16 keys per
//!   register, masked loads padding with `u32::MAX`) and written straight to the result buffer,
//!   so the ping-pong between the two buffers costs no copy;
//! - the two sides of a long segment are sorted by two rayon tasks; a recursion deeper than
//!   `2 log2 n` falls back to the standard library's sort (no quadratic input).
//!
//! Without AVX-512 `sort_u32` declines, and the caller radix-sorts.
#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

/// Whether this processor runs the AVX-512 sort (detected once).
#[cfg(target_arch = "x86_64")]
fn available() -> bool {
    static A: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *A.get_or_init(|| std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("popcnt"))
}

/// How 32-bit elements map to their unsigned keys (the maps of `keys.rs`, 16 lanes at a time).
pub(crate) trait Kind: Copy + Send + Sync + 'static {
    /// The key of an element's bits, and the bits of a key's element.
    fn key(b: u32) -> u32;
    fn value(k: u32) -> u32;
    #[cfg(target_arch = "x86_64")]
    unsafe fn keys(b: __m512i) -> __m512i;
    #[cfg(target_arch = "x86_64")]
    unsafe fn values(k: __m512i) -> __m512i;
}

/// uint32: the key is the element.
#[derive(Clone, Copy)]
pub(crate) struct Unsigned;
/// int32: the sign bit flipped.
#[derive(Clone, Copy)]
pub(crate) struct Signed;
/// float32: NaNs last (any NaN becomes the NaN of `f32::NAN`), either zero `+0.0`.
#[derive(Clone, Copy)]
pub(crate) struct Float;

const TOP: u32 = 1 << 31;

impl Kind for Unsigned {
    fn key(b: u32) -> u32 {
        b
    }
    fn value(k: u32) -> u32 {
        k
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn keys(b: __m512i) -> __m512i {
        b
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn values(k: __m512i) -> __m512i {
        k
    }
}

impl Kind for Signed {
    fn key(b: u32) -> u32 {
        b ^ TOP
    }
    fn value(k: u32) -> u32 {
        k ^ TOP
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn keys(b: __m512i) -> __m512i {
        _mm512_xor_si512(b, _mm512_set1_epi32(TOP as i32))
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn values(k: __m512i) -> __m512i {
        Self::keys(k)
    }
}

impl Kind for Float {
    fn key(b: u32) -> u32 {
        <f32 as super::keys::Sortable>::key(f32::from_bits(b))
    }
    fn value(k: u32) -> u32 {
        <f32 as super::keys::Sortable>::from_key(k).to_bits()
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn keys(b: __m512i) -> __m512i {
        // Negative: all bits flipped; positive: the sign bit set; then zeros and NaNs.
        let flip = _mm512_or_si512(_mm512_srai_epi32::<31>(b), _mm512_set1_epi32(TOP as i32));
        let k = _mm512_xor_si512(b, flip);
        let abs = _mm512_and_si512(b, _mm512_set1_epi32(!TOP as i32));
        let zero = _mm512_cmpeq_epu32_mask(abs, _mm512_setzero_si512());
        let nan = _mm512_cmpgt_epu32_mask(abs, _mm512_set1_epi32(0x7f80_0000));
        let k = _mm512_mask_mov_epi32(k, zero, _mm512_set1_epi32(TOP as i32));
        _mm512_mask_mov_epi32(k, nan, _mm512_set1_epi32(-1))
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn values(k: __m512i) -> __m512i {
        // Sign bit set: it is cleared; clear: all bits flipped; the largest key is the NaN.
        let flip = _mm512_or_si512(
            _mm512_xor_si512(_mm512_srai_epi32::<31>(k), _mm512_set1_epi32(-1)),
            _mm512_set1_epi32(TOP as i32),
        );
        let b = _mm512_xor_si512(k, flip);
        let nan = _mm512_cmpeq_epu32_mask(k, _mm512_set1_epi32(-1));
        _mm512_mask_mov_epi32(b, nan, _mm512_set1_epi32(f32::NAN.to_bits() as i32))
    }
}

/// Sort the 32-bit keys `v` ascending in place with the AVX-512 quicksort (`parallel`: split
/// long segments between rayon tasks); false, with `v` untouched, where the processor has no
/// AVX-512.
pub(crate) fn sort_u32(v: &mut [u32], parallel: bool) -> bool {
    #[cfg(target_arch = "x86_64")]
    if available() {
        // SAFETY: AVX-512F is present (checked above); the buffers have equal lengths.
        with_scratch(v.len(), |tmp| unsafe { qs::<Unsigned>(v, tmp, true, depth(v.len()), parallel) });
        return true;
    }
    let _ = (v, parallel);
    false
}

/// Sort the elements whose bits are `x` (of kind `K`) into `out` (as long): the keys are made
/// by the first partition pass and turned back by the stores of the small sorts, so no pass of
/// its own converts them. False, with `out` untouched, where the processor has no AVX-512.
pub(crate) fn sort_into<K: Kind>(x: &[u32], out: &mut [u32], parallel: bool) -> bool {
    #[cfg(target_arch = "x86_64")]
    if available() {
        assert_eq!(x.len(), out.len(), "sort_into: buffers of unequal length");
        // SAFETY: AVX-512F is present (checked above); the buffers have equal lengths.
        unsafe { sort_keys_of::<K>(x, out, parallel) };
        return true;
    }
    let _ = (x, out, parallel);
    false
}

/// Run `f` with a scratch buffer of `n` keys from the host memory pool (already mapped when an
/// earlier call's is reused: no page faults), which `f` must fill entirely before it reads any
/// of it (every sort here writes each key of its other buffer once in its first partition, or
/// never uses it); the buffer goes back to the pool afterwards.
fn with_scratch(n: usize, f: impl FnOnce(&mut [u32])) {
    let mut tmp = crate::pool::alloc::<u32>(n);
    // SAFETY: the block has room for n keys; `f` writes each before reading it (see above), so
    // no uninitialised key is read, and after it all n are initialised.
    unsafe {
        f(std::slice::from_raw_parts_mut(tmp.as_mut_ptr(), n));
        tmp.set_len(n);
    }
    crate::pool::give(xp_core::HostBuffer::U32(tmp));
}

/// The recursion limit for `n` keys.
fn depth(n: usize) -> u32 {
    2 * (usize::BITS - n.leading_zeros())
}

/// Segments up to this many keys are sorted in registers.
#[cfg(target_arch = "x86_64")]
const SMALL: usize = 256;
/// Segments longer than this are split between two tasks.
#[cfg(target_arch = "x86_64")]
const SPLIT: usize = 1 << 16;

/// `sort_into` on a processor with AVX-512.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,popcnt")]
unsafe fn sort_keys_of<K: Kind>(x: &[u32], out: &mut [u32], parallel: bool) {
    let n = x.len();
    if n <= SMALL {
        small::<K, true>(x.as_ptr(), out.as_mut_ptr(), n);
        return;
    }
    with_scratch(n, |tmp| {
        let l = partition::<K, true>(x, tmp, pivot::<K>(x));
        if l == 0 {
            // The pivot was the minimum: the general recursion handles it from the keys.
            qs::<K>(tmp, out, false, depth(n), parallel);
        } else {
            halves::<K>(tmp, out, l, true, depth(n), parallel);
        }
    });
}

/// Sort the two sides of a partition, now in `dst` (`l` keys below the pivot): `dst` is the
/// source of both halves and `src` the other buffer; the result goes to `src` if `home_src`.
#[cfg(target_arch = "x86_64")]
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
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,popcnt")]
unsafe fn qs<K: Kind>(src: &mut [u32], dst: &mut [u32], home_src: bool, depth: u32, parallel: bool) {
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
    let l = partition::<K, false>(src, dst, pivot::<Unsigned>(src));
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

/// The median of the keys of 16 elements spread over `v` (at least 16 long), `v` of kind `K`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,popcnt")]
unsafe fn pivot<K: Kind>(v: &[u32]) -> u32 {
    let step = v.len() / 16;
    let s: [u32; 16] = std::array::from_fn(|i| K::key(v[i * step + step / 2]));
    let mut out = [0u32; 16];
    _mm512_storeu_si512(out.as_mut_ptr() as *mut _, sort16(_mm512_loadu_si512(s.as_ptr() as *const _)));
    out[8]
}

/// The first `k` lanes (k ≤ 16).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn first(k: usize) -> u16 {
    ((1u32 << k) - 1) as u16
}

/// Move the keys of `src` below `p` to the front of `dst` and the others to its back; returns the
/// number below `p`. `CONVERT`: `src` holds elements of kind `K`, whose keys are moved.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,popcnt")]
unsafe fn partition<K: Kind, const CONVERT: bool>(src: &[u32], dst: &mut [u32], p: u32) -> usize {
    let n = src.len();
    debug_assert_eq!(n, dst.len());
    let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
    let load = |i: usize| {
        let x = _mm512_loadu_si512(s.add(i) as *const _);
        if CONVERT {
            K::keys(x)
        } else {
            x
        }
    };
    let pv = _mm512_set1_epi32(p as i32);
    let (mut l, mut r, mut i) = (0usize, n, 0usize);
    // While at least 32 keys are unread, the gap between the sides is at least 32 wide: full
    // stores may write past a side's new keys into it (the right side's keys moved to the top
    // lanes first).
    while i + 32 <= n {
        let x = load(i);
        let m = _mm512_cmplt_epu32_mask(x, pv);
        let c = m.count_ones() as usize;
        _mm512_storeu_si512(d.add(l) as *mut _, _mm512_maskz_compress_epi32(m, x));
        let top = _mm512_maskz_expand_epi32(!first(c), _mm512_maskz_compress_epi32(!m, x));
        _mm512_storeu_si512(d.add(r - 16) as *mut _, top);
        r -= 16 - c;
        l += c;
        i += 16;
    }
    while i + 16 <= n {
        let x = load(i);
        let m = _mm512_cmplt_epu32_mask(x, pv);
        let c = m.count_ones() as usize;
        _mm512_mask_storeu_epi32(d.add(l) as *mut _, first(c), _mm512_maskz_compress_epi32(m, x));
        r -= 16 - c;
        _mm512_mask_storeu_epi32(d.add(r) as *mut _, first(16 - c), _mm512_maskz_compress_epi32(!m, x));
        l += c;
        i += 16;
    }
    for &x in &src[i..] {
        let x = if CONVERT { K::key(x) } else { x };
        if x < p {
            *d.add(l) = x;
            l += 1;
        } else {
            r -= 1;
            *d.add(r) = x;
        }
    }
    debug_assert_eq!(l, r);
    l
}

/// Lane permutations: partner `i ^ x` of every lane.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn partner(x: i32) -> __m512i {
    let lane = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    _mm512_xor_si512(lane, _mm512_set1_epi32(x))
}

/// One compare-exchange stage in a register: lane `i` meets lane `i ^ x`; the lower lane keeps
/// the minimum (the lanes with bit `top` set, `top` being `x`'s highest bit, take the maximum).
#[cfg(target_arch = "x86_64")]
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
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn clean(v: __m512i) -> __m512i {
    stage(stage(stage(stage(v, 8), 4), 2), 1)
}

/// Sort one register (a bitonic network: flips of 2, 4, 8, 16 lanes, each followed by
/// half-cleaners).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn sort16(v: __m512i) -> __m512i {
    let v = stage(v, 1);
    let v = stage(stage(v, 3), 1);
    let v = stage(stage(stage(v, 7), 2), 1);
    clean(stage(v, 15))
}

/// Reverse the lanes.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn rev(v: __m512i) -> __m512i {
    _mm512_permutexvar_epi32(partner(15), v)
}

/// Minimum into `a`, maximum into `b`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn minmax(a: &mut __m512i, b: &mut __m512i) {
    let (mn, mx) = (_mm512_min_epu32(*a, *b), _mm512_max_epu32(*a, *b));
    (*a, *b) = (mn, mx);
}

/// R registers holding 16·R keys as one sequence (R a power of two), sorted by a bitonic network
/// written as recursion over the array sizes, so that every loop has a constant trip count and
/// the whole network unrolls into registers.
#[cfg(target_arch = "x86_64")]
trait Regs {
    /// Sort the sequence.
    unsafe fn sort(&mut self);
    /// Sort a bitonic sequence (half-cleaners across registers, then within each).
    unsafe fn clean(&mut self);
}

#[cfg(target_arch = "x86_64")]
impl Regs for [__m512i; 1] {
    #[inline(always)]
    unsafe fn sort(&mut self) {
        self[0] = sort16(self[0]);
    }
    #[inline(always)]
    unsafe fn clean(&mut self) {
        self[0] = clean(self[0]);
    }
}

/// `[__m512i; $n]` from two halves of `$h`: sort each half, flip across them (key `i` meets key
/// `16·n − 1 − i`), then clean each half.
#[cfg(target_arch = "x86_64")]
macro_rules! regs {
    ($n:literal, $h:literal) => {
        impl Regs for [__m512i; $n] {
            #[inline(always)]
            unsafe fn sort(&mut self) {
                let (a, b) = self.split_at_mut($h);
                let (a, b): (&mut [__m512i; $h], &mut [__m512i; $h]) = (a.try_into().unwrap(), b.try_into().unwrap());
                a.sort();
                b.sort();
                for j in 0..$h {
                    let mut t = rev(b[$h - 1 - j]);
                    minmax(&mut a[j], &mut t);
                    b[$h - 1 - j] = rev(t);
                }
                a.clean();
                b.clean();
            }
            #[inline(always)]
            unsafe fn clean(&mut self) {
                let (a, b) = self.split_at_mut($h);
                let (a, b): (&mut [__m512i; $h], &mut [__m512i; $h]) = (a.try_into().unwrap(), b.try_into().unwrap());
                for j in 0..$h {
                    minmax(&mut a[j], &mut b[j]);
                }
                a.clean();
                b.clean();
            }
        }
    };
}
#[cfg(target_arch = "x86_64")]
regs!(2, 1);
#[cfg(target_arch = "x86_64")]
regs!(4, 2);
#[cfg(target_arch = "x86_64")]
regs!(8, 4);
#[cfg(target_arch = "x86_64")]
regs!(16, 8);

/// Sort `n` ≤ 16·R keys from `src` into `dst` in R registers, storing elements of kind `K`
/// (`CONVERT`: `src` holds elements of kind `K` too, not keys).
#[cfg(target_arch = "x86_64")]
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
            // Padding lanes become some key; they sort wherever and are never stored.
            *x = _mm512_mask_mov_epi32(pad, m, K::keys(*x));
        }
    }
    r.sort();
    for (k, x) in r.iter().enumerate() {
        let m = first(n.saturating_sub(16 * k).min(16));
        _mm512_mask_storeu_epi32(dst.add(16 * k) as *mut _, m, K::values(*x));
    }
}

/// Sort `n` ≤ 256 keys (`CONVERT`: elements) from `src` into `dst` (which may be `src`) as
/// elements of kind `K`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,popcnt")]
unsafe fn small<K: Kind, const CONVERT: bool>(src: *const u32, dst: *mut u32, n: usize) {
    match n.div_ceil(16) {
        0 => {}
        1 => small_regs::<K, CONVERT, 1>(src, dst, n),
        2 => small_regs::<K, CONVERT, 2>(src, dst, n),
        3 | 4 => small_regs::<K, CONVERT, 4>(src, dst, n),
        5..=8 => small_regs::<K, CONVERT, 8>(src, dst, n),
        _ => small_regs::<K, CONVERT, 16>(src, dst, n),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(v: Vec<u32>) {
        let mut want = v.clone();
        want.sort_unstable();
        for parallel in [false, true] {
            let mut got = v.clone();
            if !sort_u32(&mut got, parallel) {
                eprintln!("no AVX-512 here: the SIMD sort is not tested");
                return;
            }
            assert_eq!(got, want, "n = {}, parallel {parallel}", v.len());
        }
    }

    /// `sort_into` of elements of kind `K` against their keys sorted by the standard library.
    fn check_into<K: Kind>(x: Vec<u32>) {
        let mut keys: Vec<u32> = x.iter().map(|&b| K::key(b)).collect();
        keys.sort_unstable();
        let want: Vec<u32> = keys.into_iter().map(K::value).collect();
        for parallel in [false, true] {
            let mut got = vec![0u32; x.len()];
            if !sort_into::<K>(&x, &mut got, parallel) {
                return;
            }
            assert_eq!(got, want, "n = {}, parallel {parallel}", x.len());
        }
    }

    #[test]
    fn sorts_floats_and_signed_integers_through_their_keys() {
        let mut s = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let special = [f32::NAN, -f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 0.0, -0.0, f32::MIN_POSITIVE, -1.5];
        for n in [0, 1, 15, 16, 17, 255, 256, 257, 1000, 70_000, 300_001] {
            let f: Vec<u32> = (0..n)
                .map(|_| {
                    let r = next();
                    if r % 7 == 0 {
                        special[(r >> 8) as usize % special.len()].to_bits()
                    } else {
                        ((r >> 11) as f32 / 1e6 - 4e6).to_bits()
                    }
                })
                .collect();
            check_into::<Float>(f);
            check_into::<Signed>((0..n).map(|_| next() as u32).collect());
            check_into::<Unsigned>((0..n).map(|_| (next() % 5) as u32).collect());
        }
        // Only zeros and NaNs, and a segment whose pivot is its minimum.
        check_into::<Float>((0..5000).map(|i| [0.0f32, -0.0, f32::NAN][i % 3].to_bits()).collect());
        check_into::<Signed>((0..5000).map(|i| if i % 50 == 0 { 9 } else { (-3i32) as u32 }).collect());
    }

    #[test]
    fn a_constant_tail_does_not_end_a_segment_early() {
        // The keys below the pivot are few and the last ones all equal.
        let mut v: Vec<u32> = (0..3000).map(|i| (i * 7919) % 1000).collect();
        v.extend(std::iter::repeat_n(0, 100));
        check(v.clone());
        check_into::<Unsigned>(v);
    }

    #[test]
    fn sorts_every_length_and_distribution() {
        let mut s = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        for n in (0..600).chain([1000, 4097, 65_537, 200_003, 1 << 20]) {
            check((0..n).map(|_| next() as u32).collect());
        }
        for n in [100, 5000, 300_000] {
            check((0..n).map(|_| (next() % 3) as u32).collect()); // few distinct keys
            check(vec![7; n]); // one key
            check((0..n as u32).collect()); // sorted
            check((0..n as u32).rev().collect()); // reversed
            check((0..n).map(|i| if i % 2 == 0 { 0 } else { u32::MAX }).collect()); // extremes
            check((0..n as u32).map(|i| i % 17).collect()); // sawtooth
        }
    }
}
#[cfg(test)]
mod scratch {
    #[test]
    #[ignore]
    fn time_it() {
        use rdst::RadixSort;
        let n = 1 << 22;
        let mut s = 0x9E37_79B9_7F4A_7C15u64;
        let v: Vec<u32> = (0..n)
            .map(|_| {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                (s >> 20) as u32
            })
            .collect();
        let f: Vec<u32> = v.iter().map(|&x| (x as f32 / 7.0).to_bits()).collect();
        for name in ["into2", "into2", "into2", "into2", "into2", "into2"] {
            let mut ts = vec![];
            for _ in 0..7 {
                let mut w = v.clone();
                let t = std::time::Instant::now();
                match name {
                    "simd1" => {
                        super::sort_u32(&mut w, false);
                    }
                    "simd2" => {
                        super::sort_u32(&mut w, true);
                    }
                    "into2" => {
                        let mut o = vec![0u32; n];
                        super::sort_into::<super::Float>(&f, &mut o, true);
                        w = o;
                    }
                    "std" => w.sort_unstable(),
                    _ => w.radix_sort_unstable(),
                }
                ts.push(t.elapsed().as_secs_f64() * 1e3);
                if name != "into2" {
                    assert!(w.windows(2).all(|p| p[0] <= p[1]));
                }
            }
            ts.sort_by(|a, b| a.partial_cmp(b).unwrap());
            println!("{name}: {:.2} ms", ts[3]);
        }
    }
}
#[cfg(test)]
mod scratch2 {
    #[test]
    #[ignore]
    fn time_partition() {
        let n = 1 << 22;
        let mut s = 0x9E37_79B9_7F4A_7C15u64;
        let v: Vec<u32> = (0..n)
            .map(|_| {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                (s >> 20) as u32
            })
            .collect();
        let mut d = vec![0u32; n];
        for seg in [1usize << 22, 1 << 18, 1 << 14, 1 << 10] {
            let t = std::time::Instant::now();
            for _ in 0..5 {
                for (a, b) in v.chunks(seg).zip(d.chunks_mut(seg)) {
                    unsafe { super::partition::<super::Unsigned, false>(a, b, 1 << 31) };
                }
            }
            println!("partition in segments of {seg}: {:.3} ms per 2^22", t.elapsed().as_secs_f64() * 1e3 / 5.0);
        }
        let t = std::time::Instant::now();
        for _ in 0..5 {
            for (a, b) in v.chunks(256).zip(d.chunks_mut(256)) {
                unsafe { super::small::<super::Unsigned, false>(a.as_ptr(), b.as_mut_ptr(), 256) };
            }
        }
        println!("small sorts of 256: {:.3} ms per 2^22", t.elapsed().as_secs_f64() * 1e3 / 5.0);
        let t = std::time::Instant::now();
        for _ in 0..5 {
            for (a, b) in v.chunks(256).zip(d.chunks_mut(256)) {
                unsafe { super::small::<super::Unsigned, false>(a.as_ptr(), b.as_mut_ptr(), 200) };
            }
        }
        println!("small sorts of 200: {:.3} ms per 2^22", t.elapsed().as_secs_f64() * 1e3 / 5.0);
    }
}
