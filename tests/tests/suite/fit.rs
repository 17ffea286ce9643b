//! Goodness-of-fit statistics for the random tests: Kolmogorov–Smirnov against an exact CDF and
//! chi-squared over counts, with limits a correct sampler exceeds less than once in 10^6 runs.

/// KS statistic times √n above which a correct sampler fails less than once in 10^6 runs
/// (the Kolmogorov distribution's 1 − 10^-6 quantile is 2.693).
pub const KS_LIMIT: f64 = 2.70;

pub fn ks(mut x: Vec<f64>, cdf: impl Fn(f64) -> f64) -> f64 {
    x.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let n = x.len() as f64;
    let d = x.iter().enumerate().fold(0.0f64, |d, (i, &v)| {
        let f = cdf(v);
        d.max((f - i as f64 / n).abs()).max(((i + 1) as f64 / n - f).abs())
    });
    d * n.sqrt()
}

/// The standard normal CDF through erfc (W. J. Cody's rational approximations are not in std;
/// this continued-fraction-free form, Numerical Recipes' erfc with |error| < 1.2e-7, is ample
/// next to the KS resolution of ~2.6e-3 at n = 2^20).
pub fn phi(x: f64) -> f64 {
    let z = x.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.5 * z);
    let p = [
        -1.26551223,
        1.00002368,
        0.37409196,
        0.09678418,
        -0.18628806,
        0.27886807,
        -1.13520398,
        1.48851587,
        -0.82215223,
        0.17087277,
    ];
    let poly = p.iter().rev().fold(0.0, |acc, c| acc * t + c);
    let erfc = t * (-z * z + poly).exp();
    if x >= 0.0 {
        1.0 - 0.5 * erfc
    } else {
        0.5 * erfc
    }
}

/// The chi-squared statistic of observed counts against expected ones, cells merged from the
/// left until each expects at least 5, and its degrees of freedom.
pub fn chi2(observed: &[f64], expected: &[f64]) -> (f64, usize) {
    let (mut stat, mut cells, mut o, mut e) = (0.0, 0usize, 0.0, 0.0);
    for (a, b) in observed.iter().zip(expected) {
        o += a;
        e += b;
        if e >= 5.0 {
            stat += (o - e) * (o - e) / e;
            cells += 1;
            o = 0.0;
            e = 0.0;
        }
    }
    if e > 0.0 {
        stat += (o - e) * (o - e) / e.max(1e-300);
        cells += 1;
    }
    (stat, cells.saturating_sub(1).max(1))
}

/// An upper bound of the chi-squared distribution's 1 − 10^-6 quantile with `df` degrees of
/// freedom (Wilson–Hilferty with the normal quantile 4.753, plus 10%: above the exact quantile
/// for every df ≥ 1).
pub fn chi2_limit(df: usize) -> f64 {
    let k = df as f64;
    let h = 2.0 / (9.0 * k);
    1.1 * k * (1.0 - h + 4.753 * h.sqrt()).powi(3) + 5.0
}
