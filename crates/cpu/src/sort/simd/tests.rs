//! The AVX-512 sort against the standard library's, for every length class and distribution.
use super::network::transpose16;
use super::*;
use std::arch::x86_64::*;

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

/// A xorshift64 stream from `s`.
fn xorshift(mut s: u64) -> impl FnMut() -> u64 {
    move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    }
}

#[test]
fn sorts_floats_and_signed_integers_through_their_keys() {
    let mut next = xorshift(0x2545_F491_4F6C_DD1Du64);
    let special = [f32::NAN, -f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 0.0, -0.0, f32::MIN_POSITIVE, -1.5];
    for n in [0, 1, 15, 16, 17, 255, 256, 257, 1000, 70_000, 300_001] {
        let f: Vec<u32> = (0..n)
            .map(|_| {
                let r = next();
                if r.is_multiple_of(7) {
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
    // Long inputs through the split first levels: one key, two keys, a side of one key.
    check_into::<Unsigned>(vec![7; 300_000]);
    check_into::<Unsigned>((0..300_000).map(|i| (i % 2) as u32).collect());
    check_into::<Unsigned>((0..300_000).map(|i| if i % 4 == 0 { i as u32 } else { 5 }).collect());
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
fn transposes_16_registers() {
    if !available() {
        return;
    }
    // SAFETY: AVX-512 is present (checked above).
    unsafe {
        let mut r: [__m512i; 16] = std::array::from_fn(|i| {
            let v: [u32; 16] = std::array::from_fn(|j| (i * 16 + j) as u32);
            _mm512_loadu_si512(v.as_ptr() as *const _)
        });
        transpose16(&mut r);
        for (i, x) in r.iter().enumerate() {
            let mut v = [0u32; 16];
            _mm512_storeu_si512(v.as_mut_ptr() as *mut _, *x);
            let want: [u32; 16] = std::array::from_fn(|j| (j * 16 + i) as u32);
            assert_eq!(v, want, "register {i}");
        }
    }
}

#[test]
fn sorts_every_length_and_distribution() {
    let mut next = xorshift(0x9E37_79B9_7F4A_7C15u64);
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
