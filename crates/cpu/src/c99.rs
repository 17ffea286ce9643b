//! C99 Annex G's special values for the complex elementary functions (what NumPy's npymath
//! and the Array API standard give at infinities, NaNs and signed zeros), where num-complex's
//! formulas would give NaN. Each function answers `None` for finite inputs off its special
//! points, and the caller then uses the ordinary formula. The CUDA prelude mirrors these
//! (`c99_*` in `crates/cuda/src/runtime/prelude.cu`).
use num_complex::Complex;
use num_traits::{Float, FloatConst};

fn c<T>(re: T, im: T) -> Option<Complex<T>> {
    Some(Complex::new(re, im))
}

/// `copysign` that leaves a NaN magnitude alone.
fn sign<T: Float>(m: T, s: T) -> T {
    if m.is_nan() {
        m
    } else {
        m.abs() * if s.is_sign_negative() { -T::one() } else { T::one() }
    }
}

/// `sqrt`.
pub fn sqrt<T: Float>(z: Complex<T>) -> Option<Complex<T>> {
    let (x, y, inf, nan) = (z.re, z.im, T::infinity(), T::nan());
    if y.is_infinite() {
        return c(inf, y);
    }
    if x.is_nan() {
        return c(nan, nan);
    }
    if x.is_infinite() {
        return match (x > T::zero(), y.is_nan()) {
            (true, true) => c(inf, nan),
            (true, false) => c(inf, sign(T::zero(), y)),
            (false, true) => c(nan, inf),
            (false, false) => c(T::zero(), sign(inf, y)),
        };
    }
    if y.is_nan() {
        return c(nan, nan);
    }
    (x == T::zero() && y == T::zero()).then(|| Complex::new(T::zero(), y))
}

/// `sinh`.
pub fn sinh<T: Float>(z: Complex<T>) -> Option<Complex<T>> {
    let (x, y, nan) = (z.re, z.im, T::nan());
    if x.is_finite() && y.is_finite() {
        return (y == T::zero()).then(|| Complex::new(x.sinh(), y));
    }
    if x == T::zero() {
        return c(x, nan);
    }
    if y == T::zero() {
        return c(x, y);
    }
    if x.is_infinite() {
        return if y.is_finite() { c(x * y.cos(), T::infinity() * y.sin()) } else { c(x, nan) };
    }
    c(nan, nan)
}

/// `cosh`.
pub fn cosh<T: Float>(z: Complex<T>) -> Option<Complex<T>> {
    let (x, y, nan, inf) = (z.re, z.im, T::nan(), T::infinity());
    if x.is_finite() && y.is_finite() {
        return None;
    }
    if x == T::zero() {
        return c(nan, sign(T::zero(), if y.is_nan() { x } else { x * y }));
    }
    if y == T::zero() {
        let neg = x.is_sign_negative() != y.is_sign_negative();
        return if x.is_nan() { c(nan, y) } else { c(inf, if neg { -T::zero() } else { T::zero() }) };
    }
    if x.is_infinite() {
        return if y.is_finite() { c(inf * y.cos(), x * y.sin()) } else { c(inf, nan) };
    }
    c(nan, nan)
}

/// `tanh` (also finite arguments too large for the ordinary formula).
pub fn tanh<T: Float>(z: Complex<T>) -> Option<Complex<T>> {
    let (x, y, nan) = (z.re, z.im, T::nan());
    if x.is_nan() {
        return if y == T::zero() { c(nan, y) } else { c(nan, nan) };
    }
    if x.is_infinite() {
        // the Array API's `1 + 0j` for every y > 0 (C99's sign of sin(2y) only differs in a
        // zero's sign); odd in y
        let im = sign(T::zero(), y);
        return c(sign(T::one(), x), im);
    }
    if !y.is_finite() {
        return if x == T::zero() { c(x, nan) } else { c(nan, nan) };
    }
    // |x| large: tanh is ±1 to working precision, and cosh(2x) would overflow
    let big = T::from(if std::mem::size_of::<T>() == 4 { 9.0 } else { 22.0 }).unwrap();
    if x.abs() >= big {
        let e = (-x.abs()).exp();
        let four = T::from(4.0).unwrap();
        return c(sign(T::one(), x), four * y.sin() * y.cos() * e * e);
    }
    None
}

/// `arcsinh`.
pub fn asinh<T: Float + FloatConst>(z: Complex<T>) -> Option<Complex<T>> {
    let (x, y, nan, inf) = (z.re, z.im, T::nan(), T::infinity());
    if x.is_finite() && y.is_finite() {
        return None;
    }
    let (ax, ay) = (x.abs(), y.abs());
    let (re, im) = if x.is_nan() {
        if ay == T::zero() {
            (nan, T::zero())
        } else if ay.is_infinite() {
            (inf, nan)
        } else {
            (nan, nan)
        }
    } else if y.is_nan() {
        if ax.is_infinite() {
            (inf, nan)
        } else {
            (nan, nan)
        }
    } else if ax.is_infinite() && ay.is_infinite() {
        (inf, T::FRAC_PI_4())
    } else if ax.is_infinite() {
        (inf, T::zero())
    } else {
        (inf, T::FRAC_PI_2())
    };
    c(sign(re, x), sign(im, y))
}

/// `arccos`.
pub fn acos<T: Float + FloatConst>(z: Complex<T>) -> Option<Complex<T>> {
    let (x, y, nan, inf) = (z.re, z.im, T::nan(), T::infinity());
    if x.is_finite() && y.is_finite() {
        return (x == T::zero() && y == T::zero()).then(|| Complex::new(T::FRAC_PI_2(), -y));
    }
    let ay = y.abs();
    let (re, im) = if x.is_nan() {
        if ay.is_infinite() {
            (nan, inf)
        } else {
            (nan, nan)
        }
    } else if y.is_nan() {
        if x.is_infinite() {
            (nan, inf)
        } else if x == T::zero() {
            (T::FRAC_PI_2(), nan)
        } else {
            (nan, nan)
        }
    } else if x.is_infinite() && ay.is_infinite() {
        (if x < T::zero() { T::PI() - T::FRAC_PI_4() } else { T::FRAC_PI_4() }, inf)
    } else if x.is_infinite() {
        (if x < T::zero() { T::PI() } else { T::zero() }, inf)
    } else {
        (T::FRAC_PI_2(), inf)
    };
    c(re, sign(im, -y))
}

/// `arccosh`.
pub fn acosh<T: Float + FloatConst>(z: Complex<T>) -> Option<Complex<T>> {
    let (x, y, nan, inf) = (z.re, z.im, T::nan(), T::infinity());
    if x.is_finite() && y.is_finite() {
        return (x == T::zero() && y == T::zero()).then(|| Complex::new(T::zero(), sign(T::FRAC_PI_2(), y)));
    }
    let ay = y.abs();
    let (re, im) = if x.is_nan() {
        if ay.is_infinite() {
            (inf, nan)
        } else {
            (nan, nan)
        }
    } else if y.is_nan() {
        if x.is_infinite() {
            (inf, nan)
        } else if x == T::zero() {
            (nan, T::FRAC_PI_2())
        } else {
            (nan, nan)
        }
    } else if x.is_infinite() && ay.is_infinite() {
        (inf, if x < T::zero() { T::PI() - T::FRAC_PI_4() } else { T::FRAC_PI_4() })
    } else if x.is_infinite() {
        (inf, if x < T::zero() { T::PI() } else { T::zero() })
    } else {
        (inf, T::FRAC_PI_2())
    };
    c(re, sign(im, y))
}

/// `arctanh`.
pub fn atanh<T: Float + FloatConst>(z: Complex<T>) -> Option<Complex<T>> {
    let (x, y, nan) = (z.re, z.im, T::nan());
    if x.is_finite() && y.is_finite() {
        if y == T::zero() && x.abs() == T::one() {
            return c(sign(T::infinity(), x), y);
        }
        return (x == T::zero() && y == T::zero()).then_some(z);
    }
    let (ax, ay) = (x.abs(), y.abs());
    let (re, im) = if x.is_nan() {
        if ay.is_infinite() {
            (T::zero(), T::FRAC_PI_2())
        } else {
            (nan, nan)
        }
    } else if y.is_nan() {
        if ax.is_infinite() || x == T::zero() {
            (T::zero(), nan)
        } else {
            (nan, nan)
        }
    } else {
        (T::zero(), T::FRAC_PI_2())
    };
    c(sign(re, x), sign(im, y))
}
