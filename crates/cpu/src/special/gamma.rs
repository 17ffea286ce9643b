//! The gamma family: gamma, log-gamma, digamma, beta, binomial coefficients and the regularised
//! incomplete gamma functions.
#![allow(clippy::excessive_precision)] // constants as published, to their last digit
use std::f64::consts::PI;

/// Γ(x); ±inf at 0 (signed as the zero) and NaN at the negative integers, as SciPy.
pub fn gamma(x: f64) -> f64 {
    if x == 0.0 {
        return f64::INFINITY.copysign(x);
    }
    if x < 0.0 && x == x.floor() {
        return f64::NAN;
    }
    libm::tgamma(x)
}

/// `log|Γ(x)|`; +inf at 0 and the negative integers.
pub fn gammaln(x: f64) -> f64 {
    libm::lgamma(x)
}

/// ψ(x) = Γ'(x)/Γ(x); -inf at 0, NaN at the negative integers (SciPy's `psi(-0.0)` is +inf).
pub fn digamma(x: f64) -> f64 {
    if x.is_nan() || x == f64::INFINITY {
        return x;
    }
    if x == 0.0 {
        return f64::NEG_INFINITY.copysign(-x);
    }
    if x < 0.0 {
        if x == x.floor() {
            return f64::NAN;
        }
        // ψ(x) = ψ(1 - x) - π / tan(πx), with tan(πx) from the fractional part
        let r = x - x.floor();
        return digamma(1.0 - x) - PI / (PI * r).tan();
    }
    if (x - POSROOT).abs() < 0.3 {
        return digamma_near_root(x - POSROOT);
    }
    let mut acc = 0.0;
    let mut x = x;
    while x < 10.0 {
        acc -= 1.0 / x;
        x += 1.0;
    }
    // ln x - 1/(2x) - Σ B_2k / (2k x^2k)
    let z = 1.0 / (x * x);
    let series = z
        * (1.0 / 12.0
            - z * (1.0 / 120.0
                - z * (1.0 / 252.0 - z * (1.0 / 240.0 - z * (1.0 / 132.0 - z * (691.0 / 32760.0 - z / 12.0))))));
    acc + x.ln() - 0.5 / x - series
}

/// ψ's positive zero and ψ there, in double precision.
const POSROOT: f64 = 1.4616321449683623;
const POSROOTVAL: f64 = -9.2412655217294275e-17;

/// ψ(x0 + h) by its Taylor series at the zero x0: ψ⁽ⁿ⁾(x0)/n! = (-1)^(n+1) ζ(n+1, x0).
fn digamma_near_root(h: f64) -> f64 {
    let mut res = POSROOTVAL;
    let mut p = -1.0;
    for n in 1..100 {
        p *= -h;
        let term = p * super::zeta(n as f64 + 1.0, POSROOT);
        res += term;
        if term.abs() < f64::EPSILON * 1e-3 * h.abs().max(f64::MIN_POSITIVE) {
            break;
        }
    }
    res
}

/// Stirling's remainder `lgamma(x) - ((x - 1/2) ln x - x + ln √(2π))` for x ≥ 10.
fn stirling_rest(x: f64) -> f64 {
    let z = 1.0 / (x * x);
    (1.0 / 12.0 - z * (1.0 / 360.0 - z * (1.0 / 1260.0 - z * (1.0 / 1680.0 - z * (1.0 / 1188.0))))) / x
}

/// `lgamma(a) - lgamma(a + b)` for a ≥ 100 and b > 0, without the cancellation of the difference.
fn lgamma_ratio(a: f64, b: f64) -> f64 {
    -b * a.ln() - (a + b - 0.5) * (b / a).ln_1p() + b + stirling_rest(a) - stirling_rest(a + b)
}

/// `log|B(a, b)|`.
pub fn betaln(a: f64, b: f64) -> f64 {
    let (big, small) = if a >= b { (a, b) } else { (b, a) };
    if small > 0.0 && big >= 100.0 {
        return libm::lgamma(small) + lgamma_ratio(big, small);
    }
    libm::lgamma(a) + libm::lgamma(b) - libm::lgamma(a + b)
}

/// The beta function `B(a, b) = Γ(a)Γ(b)/Γ(a+b)`.
pub fn beta(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        return f64::NAN;
    }
    let direct = gamma(a) * (gamma(b) / gamma(a + b));
    if direct.is_finite() && direct != 0.0 && a.abs() < 150.0 && b.abs() < 150.0 {
        return direct;
    }
    if a > 0.0 && b > 0.0 {
        return betaln(a, b).exp();
    }
    let (la, sa) = libm::lgamma_r(a);
    let (lb, sb) = libm::lgamma_r(b);
    let (lab, sab) = libm::lgamma_r(a + b);
    (sa * sb * sab) as f64 * (la + lb - lab).exp()
}

/// The binomial coefficient for real arguments, as SciPy's `binom`: an exact product for a
/// small integral `k`, else `1 / ((n + 1) B(n - k + 1, k + 1))`.
pub fn binom(n: f64, k: f64) -> f64 {
    if n < 0.0 && n == n.floor() {
        return f64::NAN;
    }
    let mut kx = k.floor();
    if n >= 0.0 && n == n.floor() && k == kx && (k < 0.0 || k > n) {
        return 0.0; // exactly, where SciPy's asymptotic form leaves a rounding residue
    }
    if k == kx && (n.abs() > 1e-8 || n == 0.0) {
        // an integral k: the product (with the symmetry for integral n)
        let nx = n.floor();
        if nx == n && kx > nx / 2.0 && nx > 0.0 {
            kx = nx - kx;
        }
        if (0.0..20.0).contains(&kx) {
            let (mut num, mut den) = (1.0, 1.0);
            for i in 1..=(kx as i32) {
                num *= i as f64 + n - kx;
                den *= i as f64;
                if num.abs() > 1e50 {
                    num /= den;
                    den = 1.0;
                }
            }
            return num / den;
        }
    }
    if n >= 1e10 * k && k > 0.0 {
        // avoid under/overflow in the intermediate terms
        return (-betaln(1.0 + n - k, 1.0 + k) - (n + 1.0).ln()).exp();
    }
    if k > 1e8 * n.abs() {
        // the asymptotic form for large k
        let num = gamma(1.0 + n) / k.abs() + gamma(1.0 + n) * n / (2.0 * k * k);
        let num = num / (PI * k.abs().powf(n));
        let kx = k.floor();
        if k < 0.0 {
            return if kx == k { 0.0 } else { num * (PI * k).sin() };
        }
        let sgn = if kx % 2.0 == 0.0 { 1.0 } else { -1.0 };
        return num * (PI * (k - kx - n)).sin() * sgn;
    }
    1.0 / (n + 1.0) / beta(1.0 + n - k, 1.0 + k)
}

/// `x^a e^-x / Γ(a)`, through logarithms.
fn power_factor(a: f64, x: f64) -> f64 {
    (a * x.ln() - x - libm::lgamma(a)).exp()
}

/// P(a, x) by its power series (x < a + 1).
fn p_series(a: f64, x: f64) -> f64 {
    let (mut term, mut sum, mut ap) = (1.0 / a, 1.0 / a, a);
    for _ in 0..10_000 {
        ap += 1.0;
        term *= x / ap;
        sum += term;
        if term.abs() < sum.abs() * 1e-17 {
            break;
        }
    }
    sum * power_factor(a, x)
}

/// Q(a, x) by Lentz's continued fraction (x ≥ a + 1).
fn q_fraction(a: f64, x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let mut b = x + 1.0 - a;
    let mut c = 1.0 / TINY;
    let mut d = 1.0 / b;
    let mut h = d;
    for i in 1..10_000 {
        let an = -(i as f64) * (i as f64 - a);
        b += 2.0;
        d = an * d + b;
        if d.abs() < TINY {
            d = TINY;
        }
        c = b + an / c;
        if c.abs() < TINY {
            c = TINY;
        }
        d = 1.0 / d;
        let delta = d * c;
        h *= delta;
        if (delta - 1.0).abs() < 1e-16 {
            break;
        }
    }
    h * power_factor(a, x)
}

/// P(a, x) (`upper`: Q(a, x)) with SciPy's edge values: NaN outside a ≥ 0, x ≥ 0.
fn incomplete(a: f64, x: f64, upper: bool) -> f64 {
    let pick = |p: f64, q: f64| if upper { q } else { p };
    if a.is_nan() || x.is_nan() || a < 0.0 || x < 0.0 {
        return f64::NAN;
    }
    if a == 0.0 {
        return if x > 0.0 { pick(1.0, 0.0) } else { f64::NAN };
    }
    if x == 0.0 {
        return pick(0.0, 1.0);
    }
    if x.is_infinite() {
        return if a.is_infinite() { f64::NAN } else { pick(1.0, 0.0) };
    }
    if a.is_infinite() {
        return pick(0.0, 1.0);
    }
    if x < a + 1.0 {
        let p = p_series(a, x);
        pick(p, 1.0 - p)
    } else {
        let q = q_fraction(a, x);
        pick(1.0 - q, q)
    }
}

/// The regularised lower incomplete gamma function P(a, x) (a ≥ 0, x ≥ 0; NaN elsewhere).
pub fn gammainc(a: f64, x: f64) -> f64 {
    incomplete(a, x, false)
}

/// The regularised upper incomplete gamma function Q(a, x) = 1 - P(a, x).
pub fn gammaincc(a: f64, x: f64) -> f64 {
    incomplete(a, x, true)
}
