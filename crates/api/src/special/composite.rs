//! Special functions composed of others: `polygamma`, `comb`, `sinc`, and the log-space
//! reductions `logsumexp`, `softmax`, `log_softmax`.
use crate::axes::IntoAxes;
use crate::ufunc::Operand;
use crate::Array;
use xp_core::{default_dtype, DType, Kind, Result};

/// The polygamma function `ψ⁽ⁿ⁾(x)`: `digamma` for `n == 0`, else `(-1)^{n+1} n! ζ(n+1, x)`
/// (SciPy's `polygamma(n, x)`; `n` a non-negative integer, broadcast against `x`).
pub fn polygamma<'a>(n: impl Into<Operand<'a>>, x: &Array) -> Result<Array> {
    let n = to_array(n.into(), x)?;
    let nf = n.astype(if x.dtype() == DType::F32 && n.dtype() == DType::F32 { DType::F32 } else { DType::F64 })?;
    let n1 = nf.add(1.0)?;
    let sign = crate::where_(&nf.remainder(2.0)?.equal(0.0)?, -1.0, 1.0)?;
    let rest = sign.mul(&super::gamma(&n1)?)?.mul(&super::zeta(&n1, Some(x))?)?;
    crate::where_(&nf.equal(0.0)?, &super::digamma(x)?, &rest)
}

/// The number of combinations `N choose k` as a float (SciPy's `comb(N, k, exact=False)`): 0
/// where `k > N`, `N < 0` or `k < 0`, else [`super::binom`].
pub fn comb<'a, 'b>(n: impl Into<Operand<'a>>, k: impl Into<Operand<'b>>) -> Result<Array> {
    let (n, k) = (n.into(), k.into());
    let b = super::binom(n, k)?;
    let (na, ka) = (to_array(n, &b)?, to_array(k, &b)?);
    let ok = ka.le(&na)?.logical_and(&na.ge(0)?)?.logical_and(&ka.ge(0)?)?;
    crate::where_(&ok, &b, 0.0)?.astype(b.dtype())
}

/// The normalised sinc `sin(πx)/(πx)`, 1 at 0 (NumPy's and SciPy's `sinc`, computed as NumPy
/// does: `y = πx`, zeros replaced by the dtype's epsilon; integers give float64, float16 stays
/// float16).
pub fn sinc(x: &Array) -> Result<Array> {
    let y = x.mul(std::f64::consts::PI)?;
    let eps = match y.dtype() {
        DType::F16 => 9.765625e-4,
        DType::BF16 => 7.8125e-3,
        DType::F32 => f32::EPSILON as f64,
        DType::F64 => f64::EPSILON,
        _ => 1e-20,
    };
    let y = crate::where_(&y.not_equal(0)?, &y, eps)?.astype(y.dtype())?;
    y.sin()?.div(&y)
}

fn lse(a: &Array, axes: crate::Axes, keepdims: bool) -> Result<Array> {
    let m = a.max_keepdim(&axes)?;
    let m = crate::where_(&m.isfinite()?, &m, 0)?.astype(m.dtype())?;
    let s = a.sub(&m)?.exp()?.sum_keepdim(&axes)?.log()?.add(&m)?;
    if keepdims {
        return Ok(s);
    }
    let shape: Vec<usize> = {
        let red = axes.normalize("logsumexp", a.ndim())?;
        a.shape().iter().enumerate().filter(|(i, _)| !red.contains(i)).map(|(_, &n)| n).collect()
    };
    s.reshape_exact(&shape)
}

/// `log(Σ exp(a))` over `axis` without overflow (SciPy's `logsumexp(a, axis)`): the maximum is
/// taken out first, so `logsumexp([1000, 1000])` is `1000 + log 2`.
pub fn logsumexp(a: &Array, axis: impl IntoAxes) -> Result<Array> {
    let a = float_of(a)?;
    lse(&a, axis.into_axes(), false)
}

/// [`logsumexp`] keeping the reduced axes with length 1 (`keepdims=True`).
pub fn logsumexp_keepdim(a: &Array, axis: impl IntoAxes) -> Result<Array> {
    let a = float_of(a)?;
    lse(&a, axis.into_axes(), true)
}

/// `exp(x - logsumexp(x, axis))`: the softmax along `axis` (SciPy's `softmax`).
pub fn softmax(x: &Array, axis: impl IntoAxes) -> Result<Array> {
    log_softmax(x, axis)?.exp()
}

/// `x - logsumexp(x, axis)`: the log of the softmax, without its underflow (SciPy's `log_softmax`).
pub fn log_softmax(x: &Array, axis: impl IntoAxes) -> Result<Array> {
    let x = float_of(x)?;
    x.sub(&lse(&x, axis.into_axes(), true)?)
}

/// Integers and booleans as float64, as `exp` would make them.
fn float_of(a: &Array) -> Result<Array> {
    match a.dtype().kind() {
        Kind::Bool | Kind::Int | Kind::Uint => a.astype(DType::F64),
        _ => Ok(a.clone()),
    }
}

/// An operand as an array on `like`'s device (a scalar in its own default dtype).
fn to_array(o: Operand, like: &Array) -> Result<Array> {
    match o {
        Operand::Array(a) => Ok(a.clone()),
        Operand::Scalar(s) => Array::scalar_on(s, default_dtype(&s), like.device()),
    }
}
