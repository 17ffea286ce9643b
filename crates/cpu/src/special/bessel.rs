//! Modified Bessel functions of the first kind, orders 0 and 1, and their exponentially scaled
//! forms: the power series (every term positive) to |x| = 20, Hankel's asymptotic series beyond
//! (its smallest term there is below 1e-17 of the sum).

/// `Σ_k (x²/4)^k / (k! (k + ν)!)` for ν = 0 or 1.
fn series(x: f64, nu: u32) -> f64 {
    let q = 0.25 * x * x;
    let mut term = 1.0;
    let mut sum = term;
    for k in 1..200 {
        term *= q / (k as f64 * (k + nu) as f64);
        sum += term;
        if term < sum * 1e-17 {
            break;
        }
    }
    sum
}

/// `√(2π|x|) e^{-|x|} I_ν(|x|)` by Hankel's expansion, |x| > 20.
fn hankel(ax: f64, nu: u32) -> f64 {
    let mu = 4.0 * (nu * nu) as f64;
    let (mut term, mut sum) = (1.0, 1.0);
    for k in 1..60 {
        let odd = (2 * k - 1) as f64;
        term *= -(mu - odd * odd) / (k as f64 * 8.0 * ax);
        sum += term;
        if term.abs() < 1e-17 * sum.abs() {
            break;
        }
    }
    sum
}

const LARGE: f64 = 20.0;

/// `e^{-|x|} I_0(x)`.
pub fn i0e(x: f64) -> f64 {
    let ax = x.abs();
    if ax <= LARGE {
        series(x, 0) * (-ax).exp()
    } else if ax.is_infinite() {
        0.0
    } else {
        hankel(ax, 0) / (2.0 * std::f64::consts::PI * ax).sqrt()
    }
}

/// The modified Bessel function of the first kind of order 0.
pub fn i0(x: f64) -> f64 {
    let ax = x.abs();
    if ax <= LARGE {
        return series(x, 0);
    }
    if ax > 713.0 {
        return f64::INFINITY;
    }
    // e^{ax} as a square, so that it overflows no earlier than the result
    let h = (0.5 * ax).exp();
    hankel(ax, 0) / (2.0 * std::f64::consts::PI * ax).sqrt() * h * h
}

/// `e^{-|x|} I_1(x)`.
pub fn i1e(x: f64) -> f64 {
    let ax = x.abs();
    let r = if ax <= LARGE {
        0.5 * ax * series(x, 1) * (-ax).exp()
    } else if ax.is_infinite() {
        0.0
    } else {
        hankel(ax, 1) / (2.0 * std::f64::consts::PI * ax).sqrt()
    };
    r.copysign(x)
}

/// The modified Bessel function of the first kind of order 1.
pub fn i1(x: f64) -> f64 {
    let ax = x.abs();
    let r = if ax <= LARGE {
        0.5 * ax * series(x, 1)
    } else if ax > 713.0 {
        f64::INFINITY
    } else {
        let h = (0.5 * ax).exp();
        hankel(ax, 1) / (2.0 * std::f64::consts::PI * ax).sqrt() * h * h
    };
    if x.is_nan() {
        x
    } else {
        r.copysign(x)
    }
}
