//! Selection by radix: the `k`-th smallest of `n` values found from a few histograms of their
//! bits instead of a sort. Each value maps to an unsigned key whose order is the values' order
//! (NaN last, as NumPy sorts); a pass counts the keys that share the digits found so far by
//! their next [`DIGIT`]-bit digit, and the digit holding rank `k` is the next one found. A
//! float32 takes three passes over the values, a float64 six; a backend only counts
//! ([`crate::StatsStorage::radix_counts`]), the search lives here, once.
//!
//! ```
//! use xp_core::select::{radix_select, RadixKey, RadixPass};
//! let v = [3.5f32, -1.0, f32::NAN, 0.0, 2.0];
//! let count = |p: RadixPass| -> xp_core::Result<Vec<u64>> {
//!     let mut h = vec![0u64; 1 << p.bits];
//!     for x in v.iter().map(|x| x.key()).filter(|k| k & p.mask == p.prefix) {
//!         h[((x >> p.shift) & ((1 << p.bits) - 1)) as usize] += 1;
//!     }
//!     Ok(h)
//! };
//! let keys = radix_select(f32::KEY_BITS, &[0, 2, 4], count).unwrap();
//! let got: Vec<f32> = keys.iter().map(|&k| f32::from_key(k)).collect();
//! assert_eq!(&got[..2], &[-1.0, 2.0]);
//! assert!(got[2].is_nan());
//! ```
use crate::{Error, Result};
use std::collections::hash_map::{Entry, HashMap};

/// Bits per pass: 2048 bins, small enough for a GPU block's shared memory.
pub const DIGIT: u32 = 11;

/// One counting pass: among the keys with `key & mask == prefix`, how many have each value of
/// the `bits`-bit digit `(key >> shift) & (2^bits - 1)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RadixPass {
    /// the digit's lowest bit
    pub shift: u32,
    /// the digit's width (at most [`DIGIT`])
    pub bits: u32,
    /// the bits already found
    pub mask: u64,
    /// their values
    pub prefix: u64,
}

/// A value with an order-preserving unsigned key (NaN after everything, every NaN one key).
pub trait RadixKey: Copy {
    /// The key's width.
    const KEY_BITS: u32;
    /// The key of `self`.
    fn key(self) -> u64;
    /// The value of a key (a NaN for the NaN key).
    fn from_key(k: u64) -> Self;
}

macro_rules! float_key {
    ($t:ty, $u:ty) => {
        impl RadixKey for $t {
            const KEY_BITS: u32 = <$u>::BITS;
            fn key(self) -> u64 {
                let top: $u = 1 << (<$u>::BITS - 1);
                let u = self.to_bits();
                let k = if self.is_nan() {
                    <$u>::MAX
                } else if u & top != 0 {
                    !u
                } else {
                    u | top
                };
                k as u64
            }
            fn from_key(k: u64) -> Self {
                let top: $u = 1 << (<$u>::BITS - 1);
                let k = k as $u;
                <$t>::from_bits(if k & top != 0 { k & !top } else { !k })
            }
        }
    };
}
float_key!(f32, u32);
float_key!(f64, u64);

/// The keys of ranks `ks` (0-based, each below the number of values) among keys of `bits` bits,
/// from the histograms `count` gives for the passes asked (each pass asked once, however many
/// ranks share it).
pub fn radix_select(bits: u32, ks: &[u64], mut count: impl FnMut(RadixPass) -> Result<Vec<u64>>) -> Result<Vec<u64>> {
    let mut seen: HashMap<RadixPass, Vec<u64>> = HashMap::new();
    let mut out = Vec::with_capacity(ks.len());
    for &k0 in ks {
        let (mut k, mut mask, mut prefix, mut left) = (k0, 0u64, 0u64, bits);
        while left > 0 {
            let b = DIGIT.min(left);
            let shift = left - b;
            let pass = RadixPass { shift, bits: b, mask, prefix };
            let h = match seen.entry(pass) {
                Entry::Occupied(e) => e.into_mut(),
                Entry::Vacant(e) => e.insert(count(pass)?),
            };
            let mut d = 0;
            while d < h.len() && k >= h[d] {
                k -= h[d];
                d += 1;
            }
            if d == h.len() {
                return Err(Error::invalid("select", format!("rank {k0} is past the values counted")));
            }
            prefix |= (d as u64) << shift;
            mask |= ((1u64 << b) - 1) << shift;
            left = shift;
        }
        out.push(prefix);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn select<T: RadixKey>(v: &[T], ks: &[u64]) -> Vec<T> {
        let count = |p: RadixPass| -> Result<Vec<u64>> {
            let mut h = vec![0u64; 1 << p.bits];
            for x in v.iter().map(|x| x.key()).filter(|k| k & p.mask == p.prefix) {
                h[((x >> p.shift) & ((1 << p.bits) - 1)) as usize] += 1;
            }
            Ok(h)
        };
        radix_select(T::KEY_BITS, ks, count).unwrap().into_iter().map(T::from_key).collect()
    }

    #[test]
    fn ranks_match_a_sort() {
        let mut s = 12345u64;
        let v: Vec<f64> = (0..5000)
            .map(|i| {
                s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let x = ((s >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * 1e3;
                if i % 7 == 0 {
                    x.round()
                } else {
                    x
                }
            })
            .collect();
        let mut sorted = v.clone();
        sorted.sort_by(f64::total_cmp);
        let ks: Vec<u64> = vec![0, 1, 2499, 2500, 4999, 1234];
        assert_eq!(select(&v, &ks), ks.iter().map(|&k| sorted[k as usize]).collect::<Vec<_>>());
        let v32: Vec<f32> = v.iter().map(|&x| x as f32).collect();
        let mut s32 = v32.clone();
        s32.sort_by(f32::total_cmp);
        assert_eq!(select(&v32, &ks), ks.iter().map(|&k| s32[k as usize]).collect::<Vec<_>>());
    }

    #[test]
    fn keys_order_signs_infinities_and_nan() {
        let v = [f32::NEG_INFINITY, -2.0, -0.0, 0.0, 1e-40, 3.0, f32::INFINITY, f32::NAN];
        let k: Vec<u64> = v.iter().map(|x| x.key()).collect();
        assert!(k.windows(2).all(|w| w[0] < w[1]), "{k:x?}");
        assert_eq!((-f32::NAN).key(), f32::NAN.key());
        assert!(v[..7].iter().all(|&x| f32::from_key(x.key()).to_bits() == x.to_bits()));
        // A rank past the values counted is an error, not a panic.
        assert!(radix_select(32, &[3], |p| Ok(vec![1; 1 << p.bits])).is_ok());
        assert!(radix_select(32, &[3], |p| Ok(vec![0; 1 << p.bits])).is_err());
    }
}
