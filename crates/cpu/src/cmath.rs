//! The complex elementary functions, evaluated in double precision for both complex types:
//! complex64's float32 formulas lost every digit where NumPy's keep them (`arccos` of a
//! complex64 near 1e4 had an imaginary part of 7.8 for 9.9), so complex64 widens, computes here
//! and rounds once. C99 Annex G's special values come first (`c99.rs`), then num-complex's
//! formulas, with C99's branch cuts where num-complex loses a zero's sign.
use crate::c99;
use num_complex::{Complex32, Complex64 as C};
use std::f64::consts::{FRAC_PI_2, PI};

/// A complex type computed through [`Complex64`](num_complex::Complex64).
pub trait Wide: Copy {
    /// The value in double precision.
    fn wide(self) -> C;
    /// A double-precision result rounded to this type.
    fn narrow(z: C) -> Self;
}

impl Wide for Complex32 {
    #[inline(always)]
    fn wide(self) -> C {
        C::new(self.re as f64, self.im as f64)
    }
    #[inline(always)]
    fn narrow(z: C) -> Self {
        Complex32::new(z.re as f32, z.im as f32)
    }
}

impl Wide for C {
    #[inline(always)]
    fn wide(self) -> C {
        self
    }
    #[inline(always)]
    fn narrow(z: C) -> Self {
        z
    }
}

/// `i z`
fn mul_i(z: C) -> C {
    C::new(-z.im, z.re)
}

/// `-i z`
fn mul_mi(z: C) -> C {
    C::new(z.im, -z.re)
}

pub fn sqrt(z: C) -> C {
    c99::sqrt(z).unwrap_or_else(|| z.sqrt())
}

pub fn sinh(z: C) -> C {
    c99::sinh(z).unwrap_or_else(|| z.sinh())
}

pub fn cosh(z: C) -> C {
    c99::cosh(z).unwrap_or_else(|| z.cosh())
}

pub fn tanh(z: C) -> C {
    c99::tanh(z).unwrap_or_else(|| z.tanh())
}

/// `sin z = -i sinh(i z)`
pub fn sin(z: C) -> C {
    mul_mi(sinh(mul_i(z)))
}

/// `cos z = cosh(i z)`
pub fn cos(z: C) -> C {
    cosh(mul_i(z))
}

/// `tan z = -i tanh(i z)` (tanh guards the large imaginary parts where sin/cos overflow)
pub fn tan(z: C) -> C {
    mul_mi(tanh(mul_i(z)))
}

/// `(asin β, acos β, ln(α + √(α² − 1)))` for `x, y ≥ 0`, finite: Hull, Fairgrieve and Tang's
/// algorithm (ACM TOMS 23, 1997), with α = (|z + 1| + |z − 1|) / 2 and β = x / α, each part by
/// the formula that keeps its relative accuracy (no square of z, so no overflow before 1e308).
fn hull(x: f64, y: f64) -> (f64, f64, f64) {
    let (r, s) = ((x + 1.0).hypot(y), (x - 1.0).hypot(y));
    let a = 0.5 * (r + s);
    let b = x / a;
    let yy = y * y;
    let im = if a > 1e8 {
        std::f64::consts::LN_2 + a.ln()
    } else if a < 1.5 {
        let am1 = if x < 1.0 {
            0.5 * (yy / (r + (x + 1.0)) + yy / (s + (1.0 - x)))
        } else {
            0.5 * (yy / (r + (x + 1.0)) + (s + (x - 1.0)))
        };
        (am1 + (am1 * (a + 1.0)).sqrt()).ln_1p()
    } else {
        (a + (a * a - 1.0).sqrt()).ln()
    };
    let (re_asin, re_acos) = if b <= 0.6417 {
        (b.asin(), b.acos())
    } else if x <= 1.0 {
        let d = (0.5 * (a + x) * (yy / (r + (x + 1.0)) + (s + (1.0 - x)))).sqrt();
        (x.atan2(d), d.atan2(x))
    } else {
        let d = y * (0.5 * ((a + x) / (r + (x + 1.0)) + (a + x) / (s + (x - 1.0)))).sqrt();
        (x.atan2(d), d.atan2(x))
    };
    (re_asin, re_acos, im)
}

/// `asin`, with C99's cut on the real axis beyond ±1 (the sign of the imaginary zero picks the
/// side).
pub fn asin(z: C) -> C {
    if !(z.re.is_finite() && z.im.is_finite()) {
        return mul_mi(asinh(mul_i(z)));
    }
    let (re, _, im) = hull(z.re.abs(), z.im.abs());
    C::new(re.copysign(z.re), im.copysign(z.im))
}

pub fn acos(z: C) -> C {
    if let Some(w) = c99::acos(z) {
        return w;
    }
    let (_, re, im) = hull(z.re.abs(), z.im.abs());
    C::new(if z.re.is_sign_negative() { PI - re } else { re }, -im.copysign(z.im))
}

/// `asinh z = -i asin(i z)`
pub fn asinh(z: C) -> C {
    c99::asinh(z).unwrap_or_else(|| mul_mi(asin(mul_i(z))))
}

/// `acosh z = ±i acos z`, the sign giving a non-negative real part.
pub fn acosh(z: C) -> C {
    c99::acosh(z).unwrap_or_else(|| {
        let w = acos(z);
        C::new(w.im.abs(), w.re.copysign(z.im))
    })
}

/// `atanh` by Kahan's formulas: `¼ log1p(4x / ((1 − x)² + y²))` and
/// `½ atan2(2y, (1 − x)(1 + x) − y²)`, accurate near zero (where the logarithms of `1 ± z`
/// cancel) and on the cut beyond ±1; `1/z ± iπ/2` where the squares would overflow.
pub fn atanh(z: C) -> C {
    if let Some(w) = c99::atanh(z) {
        return w;
    }
    let (x, y) = (z.re, z.im);
    if x.abs() > 1e150 || y.abs() > 1e150 {
        let w = z.inv();
        return C::new(w.re, FRAC_PI_2.copysign(y));
    }
    let re = 0.25 * (4.0 * x / ((1.0 - x) * (1.0 - x) + y * y)).ln_1p();
    let im = 0.5 * (2.0 * y).atan2((1.0 - x) * (1.0 + x) - y * y);
    C::new(re, im)
}

/// `atan z = -i atanh(i z)`
pub fn atan(z: C) -> C {
    mul_mi(atanh(mul_i(z)))
}
