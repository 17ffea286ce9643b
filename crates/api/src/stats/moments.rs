//! Weighted means and covariances: `average`, `cov`, `corrcoef`, as NumPy computes them.
use crate::axes::IntoAxes;
use crate::{concatenate, matmul, where_, Array};
use xp_core::{promote_types, DType, Error, Kind, Result};

/// The float dtype NumPy's `average` and `cov` compute in: at least float64 for `cov`, the
/// float of the inputs (float64 for integers) for `average`.
fn float_of(d: DType) -> DType {
    match d.kind() {
        Kind::Float | Kind::Complex => d,
        _ => DType::F64,
    }
}

/// NumPy's `average(a, axis, weights, returned=True)`: the weighted mean and the sum of the
/// weights (broadcast to the mean's shape). `weights` has `a`'s shape, or is 1-D along the one
/// reduced axis; a zero sum of weights is an error (NumPy's ZeroDivisionError).
pub fn average_returned(a: &Array, axes: impl IntoAxes, weights: Option<&Array>) -> Result<(Array, Array)> {
    let op = "average";
    let axes = axes.into_axes();
    let Some(w) = weights else {
        let m = a.mean(axes.clone())?;
        let n = a.size() / m.size().max(1);
        return Ok((m.clone(), m.full_like(n as f64)?.astype(m.dtype())?));
    };
    let dt = float_of(promote_types(a.dtype(), w.dtype()));
    let w = if w.shape() == a.shape() {
        w.clone()
    } else {
        let ax = axes
            .one(op, a.ndim())
            .map_err(|_| Error::invalid(op, "weights of another shape than a need one axis along which they apply"))?;
        if w.ndim() != 1 || w.size() != a.shape()[ax] {
            return Err(Error::ShapeMismatch { op, lhs: a.shape().to_vec(), rhs: w.shape().to_vec() });
        }
        let mut shape = vec![1; a.ndim()];
        shape[ax] = w.size();
        w.reshape_exact(&shape)?.broadcast_to(a.shape())?
    };
    let scl = w.astype(dt)?.sum(axes.clone())?;
    if scl.equal(0.0)?.any(..)?.item::<bool>()? {
        return Err(Error::InvalidParameter { op, param: "weights", requirement: "must not sum to zero".into() });
    }
    // every axis of real values: Σ a w is one dot product (one pass; the product and its sum
    // are two and a temporary)
    let whole = axes.normalize(op, a.ndim()).is_ok_and(|v| v.len() == a.ndim()) && a.ndim() > 0;
    let avg = if whole && !dt.is_complex() && w.shape() == a.shape() {
        let (x, y) = (a.astype(dt)?.ravel()?, w.astype(dt)?.ravel()?);
        crate::vecdot(&x, &y, 0)?.div(&scl)?
    } else {
        a.astype(dt)?.mul(&w.astype(dt)?)?.sum(axes)?.div(&scl)?
    };
    Ok((avg, scl))
}

/// NumPy's `average(a, axis, weights)`: the (weighted) mean.
pub fn average(a: &Array, axes: impl IntoAxes, weights: Option<&Array>) -> Result<Array> {
    Ok(average_returned(a, axes, weights)?.0)
}

/// The options of [`cov`] (NumPy's keywords; `Cov::default()` is NumPy's defaults).
#[derive(Clone, Copy, Debug)]
pub struct Cov<'a> {
    /// each row is a variable (NumPy's `rowvar`, default true)
    pub rowvar: bool,
    /// normalise by N instead of N - 1 (NumPy's `bias`)
    pub bias: bool,
    /// the delta degrees of freedom, overriding `bias` (NumPy's `ddof`)
    pub ddof: Option<usize>,
    /// integer frequency weights, one per observation (NumPy's `fweights`)
    pub fweights: Option<&'a Array>,
    /// observation weights (NumPy's `aweights`)
    pub aweights: Option<&'a Array>,
}

impl Default for Cov<'_> {
    fn default() -> Self {
        Cov { rowvar: true, bias: false, ddof: None, fweights: None, aweights: None }
    }
}

/// NumPy's `cov(m, y, rowvar, bias, ddof, fweights, aweights)`: the covariance matrix of the
/// variables (rows of `m`, and of `y` if given, unless `rowvar` is false), float64 at least; a
/// single variable gives a 0-d array. With no degrees of freedom left the entries are inf/NaN,
/// as NumPy's (which warns).
pub fn cov(m: &Array, y: Option<&Array>, opts: Cov) -> Result<Array> {
    let op = "cov";
    if m.ndim() > 2 || y.is_some_and(|y| y.ndim() > 2) {
        return Err(Error::invalid(op, "m and y have at most 2 dimensions"));
    }
    let dt = y.map_or(m.dtype(), |y| promote_types(m.dtype(), y.dtype()));
    let dt = if dt.kind() == Kind::Complex { promote_types(dt, DType::C128) } else { DType::F64 };
    let rows = |a: &Array| -> Result<Array> {
        let a = if a.ndim() < 2 { a.reshape_exact(&[1, a.size()])? } else { a.clone() };
        let a = if !opts.rowvar && a.shape()[0] != 1 { a.t()? } else { a };
        a.astype(dt)
    };
    let mut x = rows(m)?;
    if let Some(y) = y {
        x = concatenate(&[&x, &rows(y)?], 0)?;
    }
    let nobs = x.shape()[1];
    let check = |w: &Array, name: &'static str| -> Result<Array> {
        if w.ndim() != 1 || w.size() != nobs {
            return Err(Error::InvalidParameter {
                op,
                param: name,
                requirement: format!("must be 1-D of length {nobs}"),
            });
        }
        if w.lt(0)?.any(..)?.item::<bool>()? {
            return Err(Error::InvalidParameter { op, param: name, requirement: "must be non-negative".into() });
        }
        w.astype(DType::F64)
    };
    let f = opts.fweights.map(|f| {
        if f.dtype().is_float() && f.not_equal(&f.trunc()?)?.any(..)?.item::<bool>()? {
            return Err(Error::InvalidParameter { op, param: "fweights", requirement: "must be integers".into() });
        }
        check(f, "fweights")
    });
    let f = f.transpose()?;
    let aw = opts.aweights.map(|a| check(a, "aweights")).transpose()?;
    let w = match (&f, &aw) {
        (Some(f), Some(a)) => Some(f.mul(a)?),
        (Some(w), None) | (None, Some(w)) => Some(w.clone()),
        (None, None) => None,
    };
    let ddof = opts.ddof.unwrap_or(if opts.bias { 0 } else { 1 }) as f64;
    let (avg, fact) = match &w {
        None => (x.mean_keepdim(1)?, nobs as f64 - ddof),
        Some(w) => {
            let (avg, wsum) = average_returned(&x, 1, Some(w))?;
            let wsum = wsum.max(..)?.item::<f64>()?;
            let fact = match &aw {
                _ if ddof == 0.0 => wsum,
                None => wsum - ddof,
                Some(a) => wsum - ddof * w.mul(a)?.sum(..)?.item::<f64>()? / wsum,
            };
            (avg.expand_dims(1)?, fact)
        }
    };
    let fact = fact.max(0.0);
    let xc = x.sub(&avg)?;
    let xt = match &w {
        None => xc.t()?,
        Some(w) => xc.mul(w)?.t()?,
    };
    let c = matmul(&xc, &xt.conj()?)?.div(fact)?;
    if c.shape() == [1, 1] {
        c.reshape_exact(&[])
    } else {
        Ok(c)
    }
}

/// The options of [`corrcoef`]: NumPy's `rowvar` keyword, named (`Corrcoef::default()` is
/// NumPy's default, each row a variable).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Corrcoef {
    /// each row is a variable (NumPy's `rowvar`, default true); false: each column
    pub rowvar: bool,
}

impl Default for Corrcoef {
    fn default() -> Self {
        Corrcoef { rowvar: true }
    }
}

/// NumPy's `corrcoef(x, y, rowvar)`: Pearson correlation coefficients, `cov` divided by the
/// outer product of the standard deviations, real parts clipped to [-1, 1].
///
/// ```
/// use xp::Corrcoef;
/// let x = xp::Array::from_vec(vec![1.0, 2.0, 2.0, 4.0, 3.0, 7.0], [3, 2]).unwrap();
/// let c = xp::corrcoef(&x, None, Corrcoef { rowvar: false }).unwrap(); // columns are variables
/// assert_eq!(c.shape(), &[2, 2]);
/// assert!((c.slice(xp::s![0, 1]).unwrap().item::<f64>().unwrap() - 0.9933992677987828).abs() < 1e-12);
/// ```
pub fn corrcoef(x: &Array, y: Option<&Array>, opts: Corrcoef) -> Result<Array> {
    let c = cov(x, y, Cov { rowvar: opts.rowvar, ..Cov::default() })?;
    if c.ndim() == 0 {
        return c.div(&c);
    }
    let d = crate::diagonal(&c, 0, 0, 1)?.real()?.sqrt()?;
    let c = c.div(&d.expand_dims(1)?)?.div(&d.expand_dims(0)?)?;
    if c.dtype().is_complex() {
        return Ok(c);
    }
    let clipped = c.clip(Some(-1.0), Some(1.0))?;
    // NaN stays NaN (clip's maximum/minimum propagate it).
    where_(&c.isnan()?, f64::NAN, &clipped)
}
