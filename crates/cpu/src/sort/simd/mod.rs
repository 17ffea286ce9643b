//! An AVX-512 quicksort of 32-bit unsigned keys (the keys of float32, int32 and uint32), used
//! when the processor has AVX-512 (checked once at run time) — the design of x86-simd-sort, the
//! sort NumPy uses on such processors, with both cores at work (`quick.rs`):
//!
//! - **partition** out of place, 16 keys per step: a compare gives the mask of keys below the
//!   pivot, two register compresses pack the two sides and two full stores write them at the
//!   front and the back of the other buffer (a compress straight to memory, and masked stores,
//!   are slow on AMD's Zen 4 and 5). The first pass reads the elements and moves their keys, so
//!   no pass of its own converts them. A partition whose pivot was its segment's minimum splits
//!   off the keys equal to it (or ends a segment of one key).
//! - **small segments** (up to 256 keys) are sorted in registers by bitonic networks
//!   (`network.rs`: 16 keys per register; 256 keys as 16 columns sorted by whole-register
//!   min/max, transposed, then merged) and written straight to the result buffer as elements,
//!   so neither the ping-pong between the two buffers nor the keys cost a pass;
//! - the first two levels of a long sort are each split between the two cores, and below them
//!   the two sides of every long segment go to two rayon tasks; a recursion deeper than
//!   `2 log2 n` falls back to the standard library's sort (no quadratic input).
//!
//! The scratch buffer comes from the host pool. Without AVX-512 (or off x86-64) `sort_u32` and
//! `sort_into` decline, and the caller radix-sorts.
#[cfg(target_arch = "x86_64")]
mod network;
#[cfg(target_arch = "x86_64")]
mod quick;
#[cfg(all(test, target_arch = "x86_64"))]
mod tests;

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

mod kinds;
pub(crate) use kinds::{Float, Signed, Unsigned};

/// Sort the 32-bit keys `v` ascending in place with the AVX-512 quicksort (`parallel`: split
/// long segments between rayon tasks); false, with `v` untouched, where the processor has no
/// AVX-512.
pub(crate) fn sort_u32(v: &mut [u32], parallel: bool) -> bool {
    #[cfg(target_arch = "x86_64")]
    if available() {
        let n = v.len();
        // SAFETY: AVX-512F is present (checked above); the buffers have equal lengths; a line
        // longer than SMALL is partitioned into the scratch first (which `with_scratch` needs).
        unsafe {
            if n <= quick::SMALL {
                network::small::<Unsigned, false>(v.as_ptr(), v.as_mut_ptr(), n);
            } else {
                with_scratch(n, |tmp| quick::qs::<Unsigned>(v, tmp, true, depth(n), parallel));
            }
        }
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
        unsafe { quick::sort_keys_of::<K>(x, out, parallel) };
        return true;
    }
    let _ = (x, out, parallel);
    false
}

/// Run `f` with a scratch buffer of `n` keys from the host memory pool (already mapped when an
/// earlier call's is reused: no page faults), which `f` must fill entirely before it reads any
/// of it (every sort here writes each key of its other buffer once in its first partition, or
/// never uses it); the buffer goes back to the pool afterwards.
#[cfg(target_arch = "x86_64")]
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
#[cfg(target_arch = "x86_64")]
fn depth(n: usize) -> u32 {
    2 * (usize::BITS - n.leading_zeros())
}
