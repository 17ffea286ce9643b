//! The Hurwitz zeta function ζ(s, q) = Σ_k (k + q)^-s by Euler–Maclaurin summation (Cephes' scheme:
//! at least nine terms and q + N > 9, then twelve Bernoulli corrections), and Riemann's ζ(s)
//! through it, with the functional equation below 0.
#![allow(clippy::excessive_precision)] // constants as published, to their last digit
use std::f64::consts::PI;

/// `(2j)! / B_2j` for j = 1..=12, the Euler–Maclaurin divisors.
const A: [f64; 12] = [
    12.0,
    -720.0,
    30240.0,
    -1209600.0,
    47900160.0,
    -1.8924375803183791606e9,
    7.47242496e10,
    -2.950130727918164224e12,
    1.1646782814350067249e14,
    -4.5979787224074726105e15,
    1.8152105401943546773e17,
    -7.1661652561756670113e18,
];

/// ζ(s, q) for s > 1 and q > 0 (inf at s = 1, NaN for s < 1 as SciPy; q ≤ 0 integral gives inf).
pub fn zeta(s: f64, q: f64) -> f64 {
    if s.is_nan() || q.is_nan() {
        return f64::NAN;
    }
    if s == 1.0 {
        return f64::INFINITY;
    }
    if s < 1.0 {
        return f64::NAN;
    }
    if q <= 0.0 {
        if q == q.floor() {
            return f64::INFINITY;
        }
        if s != s.floor() {
            // q^-s is not real for a negative q and a non-integral s
            return f64::NAN;
        }
    }
    if s == f64::INFINITY {
        return if q == 1.0 {
            1.0
        } else if q < 1.0 {
            f64::INFINITY
        } else {
            0.0
        };
    }
    euler_maclaurin(s, q)
}

fn euler_maclaurin(s: f64, q: f64) -> f64 {
    let mut sum = q.powf(-s);
    let mut a = q;
    let mut i = 0;
    let mut b = 0.0;
    while i < 9 || a <= 9.0 {
        i += 1;
        a += 1.0;
        b = a.powf(-s);
        sum += b;
        if (b / sum).abs() < f64::EPSILON {
            return sum;
        }
    }
    let w = a;
    sum += b * w / (s - 1.0);
    sum -= 0.5 * b;
    let mut fac = 1.0;
    let mut k = 0.0;
    for &ak in &A {
        fac *= s + k;
        b /= w;
        let t = fac * b / ak;
        sum += t;
        if (t / sum).abs() < f64::EPSILON {
            break;
        }
        k += 1.0;
        fac *= s + k;
        b /= w;
        k += 1.0;
    }
    sum
}

/// Riemann's ζ(s) for every real s (a pole at 1; the trivial zeros at the negative even
/// integers).
pub fn riemann_zeta(s: f64) -> f64 {
    if s.is_nan() {
        return s;
    }
    if s == 1.0 {
        return f64::INFINITY;
    }
    if s == f64::NEG_INFINITY {
        return f64::NAN;
    }
    if s >= 0.0 {
        if s == 0.0 {
            return -0.5;
        }
        if s > 1.0 {
            return zeta(s, 1.0);
        }
        // 0 < s < 1: ζ(s) = η(s) / (1 - 2^{1-s}) is well conditioned; Euler–Maclaurin converges
        // for any s ≠ 1 with q = 1.
        return euler_maclaurin(s, 1.0);
    }
    if s == (s * 0.5).floor() * 2.0 {
        return 0.0; // the trivial zeros
    }
    // ζ(s) = 2^s π^(s-1) sin(πs/2) Γ(1-s) ζ(1-s)
    let t = 1.0 - s;
    if t > 171.0 {
        // Γ(1-s) overflows: the sign alternates, the magnitude is infinite
        let sgn = (PI * s * 0.5).sin().signum();
        return f64::INFINITY * sgn;
    }
    let half = s * 0.5;
    let sin = (PI * (half - 2.0 * (half * 0.5).floor())).sin();
    2f64.powf(s) * PI.powf(s - 1.0) * sin * super::gamma(t) * zeta(t, 1.0)
}
