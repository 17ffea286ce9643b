//! Order statistics: `median`, `quantile`, `percentile` and their NaN-ignoring twins, with
//! NumPy's thirteen `method`s. The reduced axes are moved last and sorted (NaNs last); each
//! quantile's positions come from NumPy's virtual-index formulas, computed for every lane from
//! its count of values (all of them, or those that are not NaN), and the values are picked with
//! `take_along_axis` and blended with NumPy's `_lerp`. The median of a whole large float array
//! is selected by radix instead ([`super::select`]).
use crate::axes::IntoAxes;
use crate::{full_on, take_along_axis, where_, Array};
use xp_core::{DType, Error, Kind, Result};

/// NumPy's `method` of `quantile`/`percentile` (Hyndman and Fan's nine and NumPy's four
/// discontinuous ones); `Linear` is the default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum QuantileMethod {
    /// H&F 1: the inverse of the empirical CDF
    InvertedCdf,
    /// H&F 2: as `InvertedCdf`, averaging at discontinuities
    AveragedInvertedCdf,
    /// H&F 3: the nearest even order statistic
    ClosestObservation,
    /// H&F 4: linear interpolation of the empirical CDF
    InterpolatedInvertedCdf,
    /// H&F 5: piecewise linear, knots at the midpoints
    Hazen,
    /// H&F 6: piecewise linear, knots at `k / (n + 1)`
    Weibull,
    /// H&F 7: piecewise linear, knots at `(k - 1) / (n - 1)` (NumPy's default)
    #[default]
    Linear,
    /// H&F 8: approximately median-unbiased
    MedianUnbiased,
    /// H&F 9: approximately unbiased for normal data
    NormalUnbiased,
    /// the lower of the two neighbours of `Linear`'s position
    Lower,
    /// the higher neighbour
    Higher,
    /// the mean of the two neighbours
    Midpoint,
    /// the nearest neighbour (ties to the even position)
    Nearest,
}

impl QuantileMethod {
    /// Whether the method picks one value (and keeps an integer dtype) instead of blending two.
    fn discrete(self) -> bool {
        use QuantileMethod::*;
        matches!(self, InvertedCdf | ClosestObservation | Lower | Higher | Nearest)
    }
}

/// The quantiles asked for: one (the result has the reduced shape) or an array of them (its
/// shape comes first), each in [0, 1] (percentiles in [0, 100]).
pub trait IntoQuantiles {
    /// The values and, for an array, its shape.
    fn into_quantiles(self) -> Result<(Vec<f64>, Option<Vec<usize>>)>;
}
impl IntoQuantiles for f64 {
    fn into_quantiles(self) -> Result<(Vec<f64>, Option<Vec<usize>>)> {
        Ok((vec![self], None))
    }
}
impl IntoQuantiles for &[f64] {
    fn into_quantiles(self) -> Result<(Vec<f64>, Option<Vec<usize>>)> {
        Ok((self.to_vec(), Some(vec![self.len()])))
    }
}
impl<const N: usize> IntoQuantiles for [f64; N] {
    fn into_quantiles(self) -> Result<(Vec<f64>, Option<Vec<usize>>)> {
        Ok((self.to_vec(), Some(vec![N])))
    }
}
impl IntoQuantiles for &Array {
    fn into_quantiles(self) -> Result<(Vec<f64>, Option<Vec<usize>>)> {
        Ok((self.astype(DType::F64)?.to_vec::<f64>()?, Some(self.shape().to_vec())))
    }
}

/// `a` with the axes `axes` moved last and merged into one, sorted along it; and the shape of
/// the other axes.
fn sorted_lanes(op: &'static str, a: &Array, axes: impl IntoAxes) -> Result<(Array, Vec<usize>)> {
    if matches!(a.dtype().kind(), Kind::Complex | Kind::Bool) {
        return Err(Error::InvalidDType { op, dtype: a.dtype() });
    }
    let red = axes.into_axes().normalize(op, a.ndim())?;
    let keep: Vec<usize> = (0..a.ndim()).filter(|i| !red.contains(i)).collect();
    let rest: Vec<usize> = keep.iter().map(|&i| a.shape()[i]).collect();
    let n: usize = red.iter().map(|&i| a.shape()[i]).product();
    let perm: Vec<isize> = keep.iter().chain(&red).map(|&i| i as isize).collect();
    let mut shape = rest.clone();
    shape.push(n);
    let x = a.permute_dims(&perm)?.reshape_exact(&shape)?;
    Ok((x.sort(-1)?, rest))
}

/// The number of values each lane counts (float64, the lanes' shape): all, or the non-NaN ones.
fn counts(sorted: &Array, rest: &[usize], skip_nan: bool) -> Result<Array> {
    let n = *sorted.shape().last().expect("a lane axis");
    if skip_nan && sorted.dtype().is_float() {
        sorted.isnan()?.logical_not()?.sum(-1)?.astype(DType::F64)
    } else {
        full_on(sorted.device(), rest, n as f64, DType::F64)
    }
}

/// The value at position `idx` (float64 positions, the lanes' shape) of each lane.
fn pick(sorted: &Array, idx: &Array) -> Result<Array> {
    let i = idx.astype(DType::I64)?.expand_dims(-1)?;
    take_along_axis(sorted, &i, -1)?.squeeze(-1)
}

/// NumPy's `_lerp`: `a + (b - a) t`, or `b - (b - a)(1 - t)` where `t >= 0.5`.
fn lerp(a: &Array, b: &Array, t: &Array) -> Result<Array> {
    let d = b.sub(a)?;
    let low = a.add(&d.mul(t)?)?;
    let high = b.sub(&d.mul(&t.neg()?.add(1.0)?)?)?;
    where_(&t.ge(0.5)?, &high, &low)
}

/// How a method turns the fractional part `g` of a position `v` into the blend of its two
/// neighbours (`None`: the method picks one value).
type FixGamma = Option<fn(&Array, &Array) -> Result<Array>>;

/// The values at float64 positions (the lanes' shape) of each sorted lane.
type Pick<'a> = dyn Fn(&Array) -> Result<Array> + 'a;

/// One quantile `q` of every lane with `n` values (float64 array): NumPy's `_quantile`, the
/// values at the positions it needs given by `pick`.
fn one(pick: &Pick, n: &Array, q: f64, method: QuantileMethod, ft: DType) -> Result<Array> {
    use QuantileMethod::*;
    let last = n.sub(1.0)?.maximum(0.0)?;
    let clip = |i: Array| i.maximum(0.0)?.minimum(&last);
    // H&F's continuous family: n q + alpha + q (1 - alpha - beta) - 1.
    let hf = |alpha: f64, beta: f64| n.mul(q)?.add(alpha + q * (1.0 - alpha - beta) - 1.0);
    // NumPy's `_discrete_interpolation_to_boundaries`: floor, or the next position unless the
    // condition holds.
    let boundaries = |v: Array, odd_only: bool| -> Result<Array> {
        let prev = v.floor()?;
        let mut at_prev = v.sub(&prev)?.equal(0.0)?;
        if odd_only {
            at_prev = at_prev.logical_and(&prev.remainder(2.0)?.equal(1.0)?)?;
        }
        clip(where_(&at_prev, &prev, &prev.add(1.0)?)?)
    };
    let linear = last.mul(q)?;
    let (v, fix): (Array, FixGamma) = match method {
        InvertedCdf => (boundaries(n.mul(q)?.sub(1.0)?, false)?, None),
        ClosestObservation => (boundaries(n.mul(q)?.sub(1.5)?, true)?, None),
        Lower => (linear.floor()?, None),
        Higher => (linear.ceil()?, None),
        Nearest => (linear.rint()?, None),
        AveragedInvertedCdf => (n.mul(q)?.sub(1.0)?, Some(|g, _| where_(&g.equal(0.0)?, 0.5, 1.0))),
        Midpoint => (
            linear.floor()?.add(&linear.ceil()?)?.mul(0.5)?,
            Some(|g, v| where_(&v.remainder(1.0)?.equal(0.0)?, 0.0, &g.full_like(0.5)?)),
        ),
        InterpolatedInvertedCdf => (hf(0.0, 1.0)?, Some(|g, _| Ok(g.clone()))),
        Hazen => (hf(0.5, 0.5)?, Some(|g, _| Ok(g.clone()))),
        Weibull => (hf(0.0, 0.0)?, Some(|g, _| Ok(g.clone()))),
        Linear => (linear, Some(|g, _| Ok(g.clone()))),
        MedianUnbiased => (hf(1.0 / 3.0, 1.0 / 3.0)?, Some(|g, _| Ok(g.clone()))),
        NormalUnbiased => (hf(3.0 / 8.0, 3.0 / 8.0)?, Some(|g, _| Ok(g.clone()))),
    };
    let Some(fix) = fix else {
        return pick(&clip(v)?);
    };
    // NumPy's `_get_indexes`: past the last position both neighbours are the last, before the
    // first both are the first.
    let prev = v.floor()?;
    let above = v.ge(&last)?;
    let below = v.lt(0.0)?;
    let lo = where_(&above, &last, &where_(&below, 0.0, &prev)?)?;
    let hi = where_(&above, &last, &where_(&below, 0.0, &prev.add(1.0)?)?)?;
    let gamma = fix(&v.sub(&prev)?, &v)?;
    let (a, b) = (pick(&clip(lo)?)?.astype(ft)?, pick(&clip(hi)?)?.astype(ft)?);
    lerp(&a, &b, &gamma.astype(ft)?)
}

/// Shared by the quantile functions: `q` checked, each quantile of each lane, stacked.
fn quantiles(
    op: &'static str,
    a: &Array,
    q: impl IntoQuantiles,
    scale: f64,
    axes: impl IntoAxes,
    method: QuantileMethod,
    skip_nan: bool,
) -> Result<Array> {
    let (qs, qshape) = q.into_quantiles()?;
    let param = if scale == 1.0 { "q (quantile)" } else { "q (percentile)" };
    if qs.iter().any(|&x| !(0.0..=scale).contains(&x)) {
        return Err(Error::InvalidParameter { op, param, requirement: format!("must lie in [0, {scale}]") });
    }
    let (sorted, rest) = sorted_lanes(op, a, axes)?;
    let n_all = *sorted.shape().last().expect("a lane axis");
    if n_all == 0 && !skip_nan {
        return Err(Error::invalid(op, "cannot take a quantile of an empty array (NumPy raises IndexError)"));
    }
    let ft = result_dtype(a.dtype(), method, qshape.is_some());
    if rest.is_empty() && n_all > 0 {
        return whole(&sorted, &qs, qshape, scale, method, ft, skip_nan);
    }
    let n = counts(&sorted, &rest, skip_nan)?;
    let nan_lanes = if sorted.dtype().is_float() && n_all > 0 {
        let tail = sorted.slice([xp_core::SliceElem::Ellipsis, xp_core::SliceElem::Index(-1)])?;
        Some(if skip_nan { n.equal(0.0)? } else { tail.isnan()? })
    } else {
        None
    };
    let mut out = Vec::with_capacity(qs.len());
    for &x in &qs {
        let r = if n_all == 0 {
            full_on(a.device(), &rest, f64::NAN, ft)?
        } else {
            one(&|i| pick(&sorted, i), &n, x / scale, method, ft)?
        };
        // A lane with a NaN (or, skipping NaNs, with nothing else) gives NaN.
        let r = match &nan_lanes {
            Some(m) => where_(m, f64::NAN, &r)?,
            None => r,
        };
        out.push(r);
    }
    shaped(out, qshape, &rest)
}

/// The quantiles stacked first as `q`'s shape, or the one quantile.
fn shaped(mut out: Vec<Array>, qshape: Option<Vec<usize>>, rest: &[usize]) -> Result<Array> {
    match qshape {
        None => Ok(out.pop().expect("one quantile")),
        Some(s) => {
            let st = crate::stack(&out.iter().collect::<Vec<_>>(), 0)?;
            let mut shape = s;
            shape.extend_from_slice(rest);
            st.reshape_exact(&shape)
        }
    }
}

/// The quantiles of one sorted lane (the whole array): NumPy's formulas on host scalars, the
/// values at the positions they need gathered from the device in one read, the result sent back
/// (on the GPU a chain of small array operations per quantile cost four times the sort).
fn whole(
    sorted: &Array,
    qs: &[f64],
    qshape: Option<Vec<usize>>,
    scale: f64,
    method: QuantileMethod,
    ft: DType,
    skip_nan: bool,
) -> Result<Array> {
    use std::cell::RefCell;
    let host = xp_core::Device::Cpu;
    let n_all = sorted.size();
    // NaNs sort last: the last value says whether there are any, a count how many.
    let tail = sorted.slice([xp_core::SliceElem::Index(-1)])?.to_device(host)?;
    let any_nan = sorted.dtype().is_float() && tail.isnan()?.item::<bool>()?;
    let n = if any_nan && skip_nan { sorted.isnan()?.logical_not()?.sum(..)?.item::<i64>()? as usize } else { n_all };
    if any_nan && (!skip_nan || n == 0) {
        // NumPy's `nanquantile` of nothing but NaNs returns NaNs of the input's dtype
        let dt = if skip_nan { sorted.dtype() } else { ft };
        return full_on(sorted.device(), &qshape.unwrap_or_default(), f64::NAN, dt);
    }
    let n = full_on(host, &[], n as f64, DType::F64)?;
    // First the positions each quantile asks for (the values do not steer them), then the
    // values at all of them at once.
    let wanted = RefCell::new(Vec::<i64>::new());
    let record = |i: &Array| -> Result<Array> {
        wanted.borrow_mut().push(i.item::<f64>()? as i64);
        full_on(host, &[], 0, sorted.dtype())
    };
    for &x in qs {
        one(&record, &n, x / scale, method, ft)?;
    }
    let wanted = wanted.take();
    let n_pos = wanted.len();
    let pos = Array::from_vec(wanted, [n_pos])?;
    let vals = sorted.take(&pos.to_device(sorted.device())?, 0)?.to_device(host)?;
    let next = std::cell::Cell::new(0isize);
    let replay = |_: &Array| -> Result<Array> {
        let k = next.get();
        next.set(k + 1);
        vals.slice([xp_core::SliceElem::Index(k)])
    };
    let out = qs.iter().map(|&x| one(&replay, &n, x / scale, method, ft)).collect::<Result<Vec<_>>>()?;
    shaped(out, qshape, &[])?.to_device(sorted.device())
}

/// NumPy's result dtype: the input's for the methods that pick one value; otherwise its float
/// dtype (float64 for integers), and float64 when the quantiles are an array (NumPy blends with
/// a float64 array of weights then).
fn result_dtype(d: DType, method: QuantileMethod, q_array: bool) -> DType {
    match (method.discrete(), d.is_float() && !q_array) {
        (true, _) | (false, true) => d,
        _ => DType::F64,
    }
}

/// NumPy's `quantile(a, q, axis, method)`: `q` in [0, 1]; a lane holding a NaN gives NaN.
pub fn quantile(a: &Array, q: impl IntoQuantiles, axes: impl IntoAxes, method: QuantileMethod) -> Result<Array> {
    quantiles("quantile", a, q, 1.0, axes, method, false)
}

/// NumPy's `percentile(a, q, axis, method)`: `q` in [0, 100].
pub fn percentile(a: &Array, q: impl IntoQuantiles, axes: impl IntoAxes, method: QuantileMethod) -> Result<Array> {
    quantiles("percentile", a, q, 100.0, axes, method, false)
}

/// NumPy's `nanquantile`: the quantile of the values that are not NaN (NaN for a lane of NaNs
/// or an empty lane).
pub fn nanquantile(a: &Array, q: impl IntoQuantiles, axes: impl IntoAxes, method: QuantileMethod) -> Result<Array> {
    quantiles("nanquantile", a, q, 1.0, axes, method, true)
}

/// NumPy's `nanpercentile`.
pub fn nanpercentile(a: &Array, q: impl IntoQuantiles, axes: impl IntoAxes, method: QuantileMethod) -> Result<Array> {
    quantiles("nanpercentile", a, q, 100.0, axes, method, true)
}

fn median_impl(op: &'static str, a: &Array, axes: impl IntoAxes, skip_nan: bool) -> Result<Array> {
    let axes = axes.into_axes();
    if axes.normalize(op, a.ndim())?.len() == a.ndim()
        && let Some(m) = super::select::whole_median(a, skip_nan)?
    {
        return Ok(m);
    }
    let (sorted, rest) = sorted_lanes(op, a, axes)?;
    let ft = if a.dtype().is_float() { a.dtype() } else { DType::F64 };
    if sorted.shape().last() == Some(&0) {
        return full_on(a.device(), &rest, f64::NAN, ft);
    }
    let n = counts(&sorted, &rest, skip_nan)?;
    let last = n.sub(1.0)?.maximum(0.0)?;
    let (lo, hi) = (last.mul(0.5)?.floor()?, n.mul(0.5)?.floor()?.minimum(&last)?);
    let (x, y) = (pick(&sorted, &lo)?.astype(ft)?, pick(&sorted, &hi)?.astype(ft)?);
    // The mean of the two middle values, as NumPy's `mean` of them (one value: itself).
    let m = where_(&lo.equal(&hi)?, &x, &x.add(&y)?.div(2.0)?)?;
    if !a.dtype().is_float() {
        return Ok(m);
    }
    let tail = sorted.slice([xp_core::SliceElem::Ellipsis, xp_core::SliceElem::Index(-1)])?;
    let nan = if skip_nan { n.equal(0.0)? } else { tail.isnan()? };
    where_(&nan, f64::NAN, &m)
}

/// NumPy's `median(a, axis)`: the middle value, or the mean of the two middle values (float64
/// for integers; NaN for an empty lane or one holding a NaN).
pub fn median(a: &Array, axes: impl IntoAxes) -> Result<Array> {
    median_impl("median", a, axes, false)
}

/// NumPy's `nanmedian(a, axis)`: the median of the values that are not NaN.
pub fn nanmedian(a: &Array, axes: impl IntoAxes) -> Result<Array> {
    median_impl("nanmedian", a, axes, true)
}
