//! The samplers that reject and try again (gamma, Poisson, binomial): value `i` reads the words
//! of its own subsequence ([`Words`]), blocks `philox([i_lo, i_hi, d_lo, d_hi | j << 16], key)`
//! for `j = 0, 1, …`, four words each, in order. No value's rejections move another's, so a draw
//! is one parallel pass and every device computes the same values (up to the last bits of `ln`,
//! `exp`, `lgamma`, which may flip an acceptance test with a probability near 2^-50 per value).
//!
//! The GPU kernels (`xp_cuda::random`) are line-for-line translations of these functions.
//!
//! ```
//! use xp_core::random::{sample::{poisson, Words}, Stream};
//! let s = Stream::new(1, 0);
//! let k: Vec<i64> = (0..1000).map(|i| poisson(&mut Words::new(&s, i), 3.0)).collect();
//! let mean = k.iter().sum::<i64>() as f64 / 1000.0;
//! assert!((mean - 3.0).abs() < 0.25);
//! ```
use super::{unit_f64, Stream};

/// The words of one value's own subsequence, taken in order.
#[derive(Clone, Debug)]
pub struct Words {
    s: Stream,
    i: u64,
    j: u32,
    w: [u32; 4],
    at: usize,
}

impl Words {
    /// The subsequence of value `i` of stream `s`.
    pub fn new(s: &Stream, i: u64) -> Words {
        Words { s: *s, i, j: 0, w: s.retry(i, 0), at: 0 }
    }
    /// The next word (block `j` has 16 bits: past 2^16 blocks, 2^18 words, the blocks repeat).
    pub fn next_word(&mut self) -> u32 {
        if self.at == 4 {
            self.j = (self.j + 1) & 0xffff;
            self.w = self.s.retry(self.i, self.j);
            self.at = 0;
        }
        self.at += 1;
        self.w[self.at - 1]
    }
    /// A float64 uniform in [0, 1) from the next two words (low, high).
    pub fn unit(&mut self) -> f64 {
        let lo = self.next_word();
        unit_f64(lo, self.next_word())
    }
    /// A standard normal float64 from the next four words (Box–Muller's cosine branch:
    /// `sqrt(-2 ln(1 - u1)) cos(2π u2)`).
    pub fn normal(&mut self) -> f64 {
        let u1 = 1.0 - self.unit();
        let u2 = self.unit();
        (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
    }
}

/// A standard gamma variate of shape `a ≥ 0` (Marsaglia and Tsang's squeeze for `a ≥ 1`; for
/// `a < 1`, `gamma(a + 1) u^(1/a)`, the uniform `u` taken first).
pub fn standard_gamma(w: &mut Words, a: f64) -> f64 {
    if a <= 0.0 {
        return 0.0;
    }
    if a < 1.0 {
        let u = w.unit();
        return marsaglia_tsang(w, a + 1.0) * u.powf(1.0 / a);
    }
    marsaglia_tsang(w, a)
}

fn marsaglia_tsang(w: &mut Words, a: f64) -> f64 {
    let d = a - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        let (x, v) = loop {
            let x = w.normal();
            let v = 1.0 + c * x;
            if v > 0.0 {
                break (x, v * v * v);
            }
        };
        let u = w.unit();
        let x2 = x * x;
        if u < 1.0 - 0.0331 * x2 * x2 || u.ln() < 0.5 * x2 + d * (1.0 - v + v.ln()) {
            return d * v;
        }
    }
}

/// A Poisson variate of mean `lam ≥ 0`: multiplication of uniforms below 10 (as NumPy), Hörmann's
/// transformed rejection with squeeze (PTRS) from 10 up.
pub fn poisson(w: &mut Words, lam: f64) -> i64 {
    if lam <= 0.0 {
        return 0;
    }
    if lam < 10.0 {
        let limit = (-lam).exp();
        let (mut k, mut prod) = (0i64, 1.0f64);
        loop {
            prod *= w.unit();
            if prod <= limit {
                return k;
            }
            k += 1;
        }
    }
    let (slam, loglam) = (lam.sqrt(), lam.ln());
    let b = 0.931 + 2.53 * slam;
    let a = -0.059 + 0.02483 * b;
    let invalpha = 1.1239 + 1.1328 / (b - 3.4);
    let vr = 0.9277 - 3.6224 / (b - 2.0);
    loop {
        let u = w.unit() - 0.5;
        let v = w.unit();
        let us = 0.5 - u.abs();
        let k = ((2.0 * a / us + b) * u + lam + 0.43).floor();
        if us >= 0.07 && v <= vr {
            return k as i64;
        }
        if k < 0.0 || (us < 0.013 && v > us) {
            continue;
        }
        if v.ln() + invalpha.ln() - (a / (us * us) + b).ln() <= -lam + k * loglam - lgamma(k + 1.0) {
            return k as i64;
        }
    }
}

/// A binomial variate of `n ≥ 0` trials with probability `p` in [0, 1]: for `p > 1/2`, `n` less
/// the variate of `1 - p`; below a mean of 10, the count of geometric waiting times that fit in
/// `n` trials; from 10 up, Hörmann's BTRS.
pub fn binomial(w: &mut Words, n: i64, p: f64) -> i64 {
    if n <= 0 || p <= 0.0 {
        return 0;
    }
    if p >= 1.0 {
        return n;
    }
    if p > 0.5 {
        return n - binomial(w, n, 1.0 - p);
    }
    let nf = n as f64;
    if nf * p < 10.0 {
        let lq = (-p).ln_1p();
        let (mut sum, mut k) = (0.0f64, 0i64);
        loop {
            sum += ((1.0 - w.unit()).ln() / lq).ceil();
            if sum > nf {
                return k;
            }
            k += 1;
        }
    }
    let q = 1.0 - p;
    let spq = (nf * p * q).sqrt();
    let b = 1.15 + 2.53 * spq;
    let a = -0.0873 + 0.0248 * b + 0.01 * p;
    let c = nf * p + 0.5;
    let alpha = (2.83 + 5.1 / b) * spq;
    let vr = 0.92 - 4.2 / b;
    let m = ((nf + 1.0) * p).floor();
    let lr = (p / q).ln();
    let h = lgamma(m + 1.0) + lgamma(nf - m + 1.0);
    loop {
        let u = w.unit() - 0.5;
        let v = w.unit();
        let us = 0.5 - u.abs();
        let k = ((2.0 * a / us + b) * u + c).floor();
        if k < 0.0 || k > nf {
            continue;
        }
        if us >= 0.07 && v <= vr {
            return k as i64;
        }
        let v = (v * alpha / (a / (us * us) + b)).ln();
        if v <= h - lgamma(k + 1.0) - lgamma(nf - k + 1.0) + (k - m) * lr {
            return k as i64;
        }
    }
}

/// `ln Γ(x)` (the host's; the GPU uses CUDA's `lgamma`).
pub fn lgamma(x: f64) -> f64 {
    libm::lgamma(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mean_var(xs: &[f64]) -> (f64, f64) {
        let n = xs.len() as f64;
        let m = xs.iter().sum::<f64>() / n;
        (m, xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1.0))
    }

    /// Mean and variance within 5 standard errors of the exact ones (the variance's standard
    /// error taken from the fourth moment `k4 + 3σ^4`, given per case).
    fn moments(name: &str, xs: &[f64], mean: f64, var: f64, m4: f64) {
        let n = xs.len() as f64;
        let (m, v) = mean_var(xs);
        assert!((m - mean).abs() < 5.0 * (var / n).sqrt(), "{name}: mean {m} vs {mean}");
        assert!((v - var).abs() < 5.0 * ((m4 - var * var) / n).sqrt(), "{name}: var {v} vs {var}");
    }

    #[test]
    fn samplers_have_their_distributions_moments() {
        let s = Stream::new(11, 5);
        let n = 40_000u64;
        for a in [0.3, 1.0, 2.5, 40.0] {
            let xs: Vec<f64> = (0..n).map(|i| standard_gamma(&mut Words::new(&s, i), a)).collect();
            moments("gamma", &xs, a, a, 3.0 * a * a + 6.0 * a);
        }
        for lam in [0.5, 4.0, 12.0, 1e4] {
            let xs: Vec<f64> = (0..n).map(|i| poisson(&mut Words::new(&s, i), lam) as f64).collect();
            moments("poisson", &xs, lam, lam, lam + 3.0 * lam * lam);
        }
        for (t, p) in [(10i64, 0.3), (200, 0.2), (1000, 0.7), (5, 0.99)] {
            let xs: Vec<f64> = (0..n).map(|i| binomial(&mut Words::new(&s, i), t, p) as f64).collect();
            let (nf, q) = (t as f64, 1.0 - p);
            let var = nf * p * q;
            let m4 = var * (1.0 + 3.0 * (nf - 2.0) * p * q);
            moments("binomial", &xs, nf * p, var, m4);
            assert!(xs.iter().all(|&x| (0.0..=nf).contains(&x)));
        }
    }

    #[test]
    fn a_value_s_words_do_not_depend_on_its_neighbours() {
        let s = Stream::new(3, 1);
        let a = poisson(&mut Words::new(&s, 9), 30.0);
        let _ = poisson(&mut Words::new(&s, 8), 1e6);
        assert_eq!(poisson(&mut Words::new(&s, 9), 30.0), a);
        let mut w = Words::new(&s, 2);
        let first: Vec<u32> = (0..9).map(|_| w.next_word()).collect();
        assert_eq!(&first[..4], &s.retry(2, 0));
        assert_eq!(&first[4..8], &s.retry(2, 1));
        assert_eq!(first[8], s.retry(2, 2)[0]);
    }
}
