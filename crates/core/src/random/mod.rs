//! The random streams of xp, specified once so that every backend draws the same bits: a draw
//! of `n` values from a [`Stream`] is a pure function of (key, draw number, position), computed
//! with the counter-based generator Philox4x32-10 (Salmon et al., SC'11), one Philox block per
//! four 32-bit words:
//!
//! - block `b` of draw `d` under key `k` is `philox([b_lo, b_hi, d_lo, d_hi], k)`, where
//!   `d_hi` holds the draw number's bits 32..48 and, from bit 16 up, the attempt (0 here);
//! - a value that needs one 32-bit word (`random` float32, `integers` spans below 2^32) is value
//!   `i` ← word `i % 4` of block `i / 4`; one that needs 64 bits (float64, wider spans) is value
//!   `i` ← words `2(i % 2)` (low) and `2(i % 2) + 1` (high) of block `i / 2`;
//! - `standard_normal` pairs its values (Box–Muller): float32 values `4k .. 4k+3` come from block
//!   `k` (words 0, 1 give values `4k`, `4k+1`; words 2, 3 the next two), float64 values `2k`,
//!   `2k+1` from block `k` (words 0–1 and 2–3);
//! - a value that rejects and tries again (`integers`, for spans that are not powers of two)
//!   takes its attempt `j ≥ 1` from the block `philox([i_lo, i_hi, d_lo, d_hi | j << 16], k)` of
//!   its own position `i`, word 0 (and word 1 for 64 bits): no value's retries move another's.
//!
//! - `standard_exponential` takes its words as `random` does (`-ln(1 - u)`);
//! - the distributions that reject (gamma, Poisson, binomial) read, for value `i`, the blocks of
//!   its own position for attempts `j = 0, 1, …` in turn ([`sample::Words`]).
//!
//! Uniform and integer values are therefore bit-identical on every device; normal values go
//! through `ln`, `sqrt`, `sin` and `cos`, whose last bits differ between the host's and the
//! GPU's math libraries (the test suite states the bound it checks).
//!
//! ```
//! use xp_core::random::{philox, Stream};
//! // Random123's known answer for a zero counter and key.
//! assert_eq!(philox([0; 4], [0; 2]), [0x6627_e8d5, 0xe169_c58d, 0xbc57_ac4c, 0x9b00_dbd8]);
//! let s = Stream::new(42, 0);
//! assert_eq!(s.block(7), philox([7, 0, 0, 0], s.key));
//! ```

mod math;
pub mod sample;

pub use math::{ln_f32, sincos_turn};

/// The multipliers and key increments of Philox4x32.
pub const PHILOX_M: [u32; 2] = [0xD251_1F53, 0xCD9E_8D57];
/// The key schedule's increments (the golden ratio and √3 − 1).
pub const PHILOX_W: [u32; 2] = [0x9E37_79B9, 0xBB67_AE85];

/// Philox4x32 with 10 rounds: the four words of counter `ctr` under key `key`.
pub fn philox(ctr: [u32; 4], key: [u32; 2]) -> [u32; 4] {
    round_keys(key).into_iter().fold(ctr, philox_round)
}

/// The keys of Philox's ten rounds: round `r` adds `r` times [`PHILOX_W`] to the key (a GPU
/// kernel takes them precomputed, so that its rounds add nothing).
pub fn round_keys(key: [u32; 2]) -> [[u32; 2]; 10] {
    std::array::from_fn(|r| {
        let r = r as u32;
        [key[0].wrapping_add(r.wrapping_mul(PHILOX_W[0])), key[1].wrapping_add(r.wrapping_mul(PHILOX_W[1]))]
    })
}

/// One Philox4x32 round of counter `c` under round key `k`.
#[inline(always)]
pub fn philox_round(c: [u32; 4], k: [u32; 2]) -> [u32; 4] {
    let p0 = PHILOX_M[0] as u64 * c[0] as u64;
    let p1 = PHILOX_M[1] as u64 * c[2] as u64;
    [(p1 >> 32) as u32 ^ c[1] ^ k[0], p1 as u32, (p0 >> 32) as u32 ^ c[3] ^ k[1], p0 as u32]
}

/// One draw's stream: the generator's key and the number of the draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Stream {
    /// the Philox key (the seed's two halves)
    pub key: [u32; 2],
    /// which draw of the generator this is (below 2^48)
    pub draw: u64,
    /// the position in the draw of the first value asked for, a multiple of 4 (0 for a whole
    /// draw): a piece of a draw starting at `first` holds the values that the whole draw holds
    /// at positions `first..` (the shards of a distributed array draw their own blocks)
    pub first: u64,
}

impl Stream {
    /// The stream of draw `draw` of the generator seeded with `seed`.
    pub fn new(seed: u64, draw: u64) -> Stream {
        Stream { key: [seed as u32, (seed >> 32) as u32], draw: draw & ((1 << 48) - 1), first: 0 }
    }
    /// The piece of this draw whose first value is at position `first` (rounded down to a
    /// multiple of 4, the values of a block of the narrowest kind).
    pub fn from(self, first: u64) -> Stream {
        Stream { first: first & !3, ..self }
    }
    /// The position in the whole draw of the first block of a piece whose blocks hold `per`
    /// values each.
    pub fn first_block(&self, per: u64) -> u64 {
        self.first / per
    }
    /// The counter words 2 and 3 of attempt `j`.
    fn high(&self, j: u32) -> [u32; 2] {
        [self.draw as u32, (self.draw >> 32) as u32 | (j << 16)]
    }
    /// Block `b` of this draw.
    pub fn block(&self, b: u64) -> [u32; 4] {
        let [h0, h1] = self.high(0);
        philox([b as u32, (b >> 32) as u32, h0, h1], self.key)
    }
    /// The block of attempt `j ≥ 1` of value `i`.
    pub fn retry(&self, i: u64, j: u32) -> [u32; 4] {
        let [h0, h1] = self.high(j);
        philox([i as u32, (i >> 32) as u32, h0, h1], self.key)
    }
}

/// A float32 in [0, 1) from the top 24 bits of a word.
#[inline(always)]
pub fn unit_f32(w: u32) -> f32 {
    // Through i32 (exact below 2^24), which converts in one vector instruction.
    ((w >> 8) as i32) as f32 * (1.0 / 16_777_216.0)
}

/// A float64 in [0, 1) from the top 53 bits of two words (`lo`, `hi`).
pub fn unit_f64(lo: u32, hi: u32) -> f64 {
    ((((hi as u64) << 32) | lo as u64) >> 11) as f64 * (1.0 / 9_007_199_254_740_992.0)
}

/// Two standard normal float32 values from two words (Box–Muller: `u1` in (0, 1], the radius
/// `sqrt(-2 ln u1)` in float32 from `ln u1` rounded from float64 ([`ln_f32`]), the cosine and
/// sine of `2π u2` rounded from float64 ([`sincos_turn`]) — a GPU computes them as `logf` and
/// `sincospif(2 u2)`, within an ulp of these).
#[inline(always)]
pub fn normal_pair_f32(w0: u32, w1: u32) -> [f32; 2] {
    let u1 = (((w0 >> 8) + 1) as i32) as f32 * (1.0 / 16_777_216.0);
    let u2 = unit_f32(w1);
    let r = (-2.0 * ln_f32(u1) as f32).sqrt();
    let [c, s] = sincos_turn(u2 as f64);
    [r * c as f32, r * s as f32]
}

/// A float64 uniform in (0, 1] from two words (`lo`, `hi`): Box–Muller's radius draw, whose
/// logarithm must stay finite.
#[inline(always)]
pub fn open_unit_f64(lo: u32, hi: u32) -> f64 {
    (((((hi as u64) << 32) | lo as u64) >> 11) + 1) as f64 * (1.0 / 9_007_199_254_740_992.0)
}

/// Two standard normal float64 values from a block (Box–Muller: `u1` from words 0–1, in (0, 1]).
pub fn normal_pair_f64(w: [u32; 4]) -> [f64; 2] {
    let u1 = open_unit_f64(w[0], w[1]);
    let u2 = unit_f64(w[2], w[3]);
    let r = (-2.0 * u1.ln()).sqrt();
    let t = std::f64::consts::TAU * u2;
    [r * t.cos(), r * t.sin()]
}

/// A standard exponential float32 from a word: `-ln(1 - u)`, `u` as in [`unit_f32`] (so at most
/// `24 ln 2`; the float64 form reaches `53 ln 2`).
pub fn exponential_f32(w: u32) -> f32 {
    -(1.0 - unit_f32(w)).ln()
}

/// A standard exponential float64 from two words (`lo`, `hi`): `-ln(1 - u)`.
pub fn exponential_f64(lo: u32, hi: u32) -> f64 {
    -(1.0 - unit_f64(lo, hi)).ln()
}

/// An integer uniform in `0 ..= span` without bias (Lemire's multiply-and-reject): the first
/// attempt's word(s) `first`, later attempts from [`Stream::retry`] of value `i`.
pub fn bounded(s: &Stream, i: u64, span: u64, first: u64) -> u64 {
    if span == u64::MAX {
        return first;
    }
    let r = span + 1;
    // Lemire's nearly divisionless form: the threshold t = 2^w mod r (a division) is needed only
    // when the low word falls below r, since t < r.
    if r <= 1 << 32 {
        let (mut w, mut j, mut t) = (first as u32, 0u32, None);
        loop {
            let m = w as u64 * r;
            let l = m as u32 as u64;
            if l >= r || l >= *t.get_or_insert_with(|| ((1u64 << 32) - r) % r) {
                return m >> 32;
            }
            j += 1;
            w = s.retry(i, j)[0];
        }
    }
    let (mut w, mut j, mut t) = (first, 0u32, None);
    loop {
        let m = w as u128 * r as u128;
        let l = m as u64;
        if l >= r || l >= *t.get_or_insert_with(|| r.wrapping_neg() % r) {
            return (m >> 64) as u64;
        }
        j += 1;
        let b = s.retry(i, j);
        w = ((b[1] as u64) << 32) | b[0] as u64;
    }
}

/// Value `i`'s integer in `0 ..= span`, from `b`, the block holding its first word(s) (block
/// `i / 4`, or `i / 2` for a [`wide`] span), retrying through [`bounded`].
pub fn integer(s: &Stream, i: u64, span: u64, b: &[u32; 4]) -> u64 {
    let first = if wide(span) {
        let h = 2 * (i % 2) as usize;
        ((b[h + 1] as u64) << 32) | b[h] as u64
    } else {
        b[(i % 4) as usize] as u64
    };
    bounded(s, i, span, first)
}

/// Whether values of `span` take 64-bit words (spans of 2^32 and more).
pub fn wide(span: u64) -> bool {
    span >= 1 << 32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn philox_gives_random123s_known_answers() {
        // Random123's kat_vectors, the three `philox4x32 10` lines.
        assert_eq!(philox([0; 4], [0; 2]), [0x6627_e8d5, 0xe169_c58d, 0xbc57_ac4c, 0x9b00_dbd8]);
        assert_eq!(philox([u32::MAX; 4], [u32::MAX; 2]), [0x408f_276d, 0x41c8_3b0e, 0xa20b_c7c6, 0x6d54_51fd]);
        assert_eq!(
            philox([0x243f_6a88, 0x85a3_08d3, 0x1319_8a2e, 0x0370_7344], [0xa409_3822, 0x299f_31d0]),
            [0xd16c_fe09, 0x94fd_cceb, 0x5001_e420, 0x2412_6ea1]
        );
    }

    #[test]
    fn bounded_integers_are_unbiased_and_in_range() {
        let s = Stream::new(7, 3);
        // A span of 2^31 + 2^30 values rejects a quarter of the words: counts over 3 equal thirds.
        let span = (1u64 << 31) + (1 << 30) - 1;
        let mut thirds = [0u32; 3];
        for i in 0..30_000u64 {
            let x = bounded(&s, i, span, s.block(i / 4)[(i % 4) as usize] as u64);
            assert!(x <= span);
            thirds[(x / ((span + 1) / 3)) as usize] += 1;
        }
        // Each third expects 10000 (σ ≈ 82); a plain modulo would give 15000/7500/7500.
        assert!(thirds.iter().all(|&c| (9_500..10_500).contains(&c)), "{thirds:?}");
        // 64-bit spans, and the full range.
        let big = (1u64 << 40) + 12_345;
        assert!((0..1000u64).all(|i| bounded(&s, i, big, i.wrapping_mul(0x9E37_79B9_7F4A_7C15)) <= big));
        assert_eq!(bounded(&s, 0, u64::MAX, 17), 17);
    }

    #[test]
    fn units_and_normals_stay_in_their_ranges() {
        assert_eq!(unit_f32(0), 0.0);
        assert!(unit_f32(u32::MAX) < 1.0);
        assert!(unit_f64(u32::MAX, u32::MAX) < 1.0);
        let z = normal_pair_f32(u32::MAX, 0);
        assert_eq!(z, [0.0, 0.0]); // u1 = 1: radius 0
        let z = normal_pair_f32(0, 0);
        assert!(z[0] > 5.0 && z[0].is_finite()); // u1 = 2^-24: the largest radius, finite
    }
}
