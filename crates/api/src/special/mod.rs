//! SciPy's special functions (`scipy.special`) on every device: elementwise, broadcasting, with
//! SciPy's result dtypes (float32 stays float32; other inputs run in float64, except where SciPy's
//! own loop order keeps small integers in float32, as for `erfinv` and `entr`). Complex arguments
//! are refused with a typed error (SciPy's complex `erf`/`gamma` loops are not implemented).
//!
//! On the CPU every function computes in float64 (float32 rounds once); on the GPU CUDA's math
//! library supplies `erf erfc erfcx erfinv erfcinv ndtr ndtri gammaln i0 i1 j0 j1 y0 y1` (in
//! float for float32, as CuPy does) and xp's own device code the rest, ported from the CPU's. The
//! methods and their accuracy are listed in `xp_cpu::special`.
//!
//! ```
//! use xp::special;
//! let x = xp::Array::from_vec(vec![-1.0, 0.0, 1.96], &[3]).unwrap();
//! let p = special::ndtr(&x).unwrap();
//! assert!((p.to_vec::<f64>().unwrap()[2] - 0.9750021048517795).abs() < 1e-15);
//! let back = special::ndtri(&p).unwrap().to_vec::<f64>().unwrap();
//! assert!((back[0] + 1.0).abs() < 1e-15);
//! // reductions in log space
//! let l = special::logsumexp(&x, ..).unwrap().item::<f64>().unwrap();
//! assert!((l - (1f64.exp().recip() + 1.0 + 1.96f64.exp()).ln()).abs() < 1e-15);
//! ```
mod betainc;
mod composite;

pub use betainc::betainc;
pub use composite::{comb, log_softmax, logsumexp, logsumexp_keepdim, polygamma, sinc, softmax};

use crate::ufunc::{binary, unary, Operand};
use crate::Array;
use xp_core::{BinaryOp, Result, UnaryOp};

macro_rules! unary_special {
    ($($(#[$m:meta])* $name:ident => $op:ident;)*) => {$(
        $(#[$m])*
        pub fn $name(x: &Array) -> Result<Array> {
            unary(UnaryOp::$op, x)
        }
    )*};
}

macro_rules! binary_special {
    ($($(#[$m:meta])* $name:ident($a:ident, $b:ident) => $op:ident;)*) => {$(
        $(#[$m])*
        pub fn $name<'a, 'b>($a: impl Into<Operand<'a>>, $b: impl Into<Operand<'b>>) -> Result<Array> {
            binary(BinaryOp::$op, $a, $b)
        }
    )*};
}

unary_special! {
    /// The error function `2/√π ∫₀ˣ e^{-t²} dt`.
    erf => Erf;
    /// The complementary error function `1 - erf(x)`, accurate where `erf(x)` is near 1.
    erfc => Erfc;
    /// The scaled complementary error function `exp(x²)·erfc(x)`.
    erfcx => Erfcx;
    /// The inverse of `erf` on [-1, 1] (±inf at ±1, NaN outside).
    erfinv => Erfinv;
    /// The inverse of `erfc` on [0, 2] (+inf at 0, -inf at 2, NaN outside).
    erfcinv => Erfcinv;
    /// The standard normal distribution function `Φ(x)`.
    ndtr => Ndtr;
    /// The standard normal quantile `Φ⁻¹(p)` (∓inf at 0 and 1, NaN outside [0, 1]).
    ndtri => Ndtri;
    /// `log Φ(x)`, accurate far into the lower tail.
    log_ndtr => LogNdtr;
    /// The gamma function (±inf at ±0, NaN at the negative integers, as SciPy).
    gamma => Gamma;
    /// `log|Γ(x)|`.
    gammaln => Gammaln;
    /// The digamma function `ψ(x) = Γ'(x)/Γ(x)` (SciPy's `digamma`, also named `psi`).
    digamma => Digamma;
    /// [`digamma`] under SciPy's other name.
    psi => Digamma;
    /// The logistic sigmoid `1/(1 + e^{-x})`.
    expit => Expit;
    /// The log-odds `log(p/(1 - p))`, the inverse of [`expit`].
    logit => Logit;
    /// `log(expit(x))` without overflow.
    log_expit => LogExpit;
    /// The modified Bessel function of the first kind of order 0.
    i0 => I0;
    /// `e^{-|x|}·I₀(x)`.
    i0e => I0e;
    /// The modified Bessel function of the first kind of order 1.
    i1 => I1;
    /// `e^{-|x|}·I₁(x)`.
    i1e => I1e;
    /// The Bessel function of the first kind of order 0.
    j0 => J0;
    /// The Bessel function of the first kind of order 1.
    j1 => J1;
    /// The Bessel function of the second kind of order 0.
    y0 => Y0;
    /// The Bessel function of the second kind of order 1.
    y1 => Y1;
    /// The entropy term `-x·log(x)` (0 at 0, -inf below 0).
    entr => Entr;
}

binary_special! {
    /// `x·log(y)`, 0 where `x == 0` (unless `y` is NaN).
    xlogy(x, y) => Xlogy;
    /// `x·log1p(y)`, 0 where `x == 0` (unless `y` is NaN).
    xlog1py(x, y) => Xlog1py;
    /// The beta function `Γ(a)Γ(b)/Γ(a+b)`.
    beta(a, b) => Beta;
    /// `log|B(a, b)|`.
    betaln(a, b) => Betaln;
    /// The regularised lower incomplete gamma function `P(a, x)`.
    gammainc(a, x) => Gammainc;
    /// The regularised upper incomplete gamma function `Q(a, x) = 1 - P(a, x)`.
    gammaincc(a, x) => Gammaincc;
    /// The relative-entropy term `x·log(x/y)` (0 at `x == 0, y ≥ 0`; inf outside the domain).
    rel_entr(x, y) => RelEntr;
    /// The Kullback–Leibler term `x·log(x/y) - x + y`.
    kl_div(x, y) => KlDiv;
    /// The binomial coefficient for real arguments (SciPy's `binom`).
    binom(n, k) => Binom;
}

/// The Hurwitz zeta function `ζ(x, q) = Σₖ (k + q)^{-x}` (x > 1), or Riemann's `ζ(x)` for every
/// real `x` when `q` is `None` (SciPy's `zeta(x, q=None)`).
pub fn zeta<'a>(x: &Array, q: Option<impl Into<Operand<'a>>>) -> Result<Array> {
    match q {
        Some(q) => binary(BinaryOp::Zeta, x, q),
        None => unary(UnaryOp::RiemannZeta, x),
    }
}
