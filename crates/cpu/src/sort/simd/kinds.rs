//! The three kinds of 32-bit elements and their keys, one element at a time and 16 at a time.
use super::Kind;
#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

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
        <f32 as crate::sort::keys::Sortable>::key(f32::from_bits(b))
    }
    fn value(k: u32) -> u32 {
        <f32 as crate::sort::keys::Sortable>::from_key(k).to_bits()
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
