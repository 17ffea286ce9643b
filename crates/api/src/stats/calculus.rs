//! Differences, gradients, integrals and interpolation: `diff`, `ediff1d`, `gradient`,
//! `trapezoid`, `interp`, and the NaN-ignoring scans `nancumsum`, `nancumprod`.
use crate::axes::IntoAxes;
use crate::{concatenate, searchsorted, where_, Array, Side};
use xp_core::{normalize_axis, DType, Error, Result, SliceElem};

/// `a` sliced to `range` along `axis`.
fn along(a: &Array, axis: usize, range: impl Into<SliceElem>) -> Result<Array> {
    let mut idx = vec![SliceElem::FULL; a.ndim()];
    idx[axis] = range.into();
    a.slice(idx)
}

/// `b - a`, for booleans `a != b` (NumPy's `diff` of booleans).
fn minus(b: &Array, a: &Array) -> Result<Array> {
    if a.dtype() == DType::Bool {
        b.not_equal(a)
    } else {
        b.sub(a)
    }
}

/// NumPy's `diff(a, n, axis)`: the `n`-th forward difference along `axis`.
pub fn diff(a: &Array, n: usize, axis: isize) -> Result<Array> {
    diff_with(a, n, axis, None, None)
}

/// NumPy's `diff(a, n, axis, prepend, append)`: the values are joined to `a` along `axis` first
/// (each broadcast to `a`'s shape with length 1 along the axis when it is 0-d).
pub fn diff_with(a: &Array, n: usize, axis: isize, prepend: Option<&Array>, append: Option<&Array>) -> Result<Array> {
    if a.ndim() == 0 {
        return Err(Error::invalid("diff", "needs at least one dimension"));
    }
    let ax = normalize_axis("diff", axis, a.ndim())?;
    let edge = |v: &Array| -> Result<Array> {
        if v.ndim() == 0 {
            let mut shape = a.shape().to_vec();
            shape[ax] = 1;
            v.broadcast_to(&shape)
        } else {
            Ok(v.clone())
        }
    };
    let mut parts = Vec::new();
    if let Some(p) = prepend {
        parts.push(edge(p)?);
    }
    parts.push(a.clone());
    if let Some(p) = append {
        parts.push(edge(p)?);
    }
    let mut x = if parts.len() > 1 { concatenate(&parts.iter().collect::<Vec<_>>(), ax as isize)? } else { a.clone() };
    for _ in 0..n {
        let len = x.shape()[ax];
        if len == 0 {
            break;
        }
        x = minus(&along(&x, ax, 1..)?, &along(&x, ax, ..len - 1)?)?;
    }
    Ok(x)
}

/// NumPy's `ediff1d(ary, to_end, to_begin)`: the differences of the flattened array, with values
/// put before and after (cast to its dtype).
pub fn ediff1d(a: &Array, to_end: Option<&Array>, to_begin: Option<&Array>) -> Result<Array> {
    let x = a.ravel()?;
    let d = if x.size() == 0 { x.clone() } else { diff(&x, 1, 0)? };
    if to_begin.is_none() && to_end.is_none() {
        // the differences alone: no concatenation (a second pass over them)
        return Ok(d);
    }
    let mut parts = Vec::new();
    for v in to_begin.into_iter().chain([&d]).chain(to_end) {
        parts.push(v.ravel()?.astype(d.dtype())?);
    }
    concatenate(&parts.iter().collect::<Vec<_>>(), 0)
}

/// The sample spacing of [`gradient`] along one axis: a uniform step, or the coordinates.
#[derive(Clone, Copy, Debug)]
pub enum Spacing<'a> {
    /// a uniform distance between samples
    Step(f64),
    /// the 1-D coordinates of the samples along the axis
    Coords(&'a Array),
}

/// NumPy's `gradient(f, *varargs, axis, edge_order)` along `axes` (one [`Spacing`] for all or
/// one per axis): second-order central differences inside, first- or second-order
/// (`edge_order` 1 or 2) one-sided differences at the ends; one array per axis.
pub fn gradient(f: &Array, spacing: &[Spacing], axes: impl IntoAxes, edge_order: usize) -> Result<Vec<Array>> {
    let op = "gradient";
    let axes = axes.into_axes().normalize(op, f.ndim())?;
    if !(1..=2).contains(&edge_order) {
        return Err(Error::InvalidParameter { op, param: "edge_order", requirement: "must be 1 or 2".into() });
    }
    if spacing.len() > 1 && spacing.len() != axes.len() {
        return Err(Error::invalid(op, "give one spacing, or one per axis"));
    }
    let ft = if f.dtype().is_float() || f.dtype().is_complex() { f.dtype() } else { DType::F64 };
    let f = f.astype(ft)?;
    let mut out = Vec::with_capacity(axes.len());
    for (k, &ax) in axes.iter().enumerate() {
        let n = f.shape()[ax];
        if n < edge_order + 1 {
            return Err(Error::invalid(op, format!("needs at least {} samples along each axis", edge_order + 1)));
        }
        let sp = spacing.get(if spacing.len() == 1 { 0 } else { k }).copied().unwrap_or(Spacing::Step(1.0));
        let shape_of = |v: Array| -> Result<Array> {
            let mut s = vec![1; f.ndim()];
            s[ax] = v.size();
            v.reshape_exact(&s)
        };
        let s = |r: std::ops::Range<usize>| along(&f, ax, r);
        let g = match sp {
            Spacing::Step(h) => {
                let mid = s(2..n)?.sub(&s(0..n - 2)?)?.div(2.0 * h)?;
                let (first, last) = if edge_order == 1 {
                    (s(1..2)?.sub(&s(0..1)?)?.div(h)?, s(n - 1..n)?.sub(&s(n - 2..n - 1)?)?.div(h)?)
                } else {
                    let a = s(0..1)?.mul(-1.5)?.add(&s(1..2)?.mul(2.0)?)?.sub(&s(2..3)?.mul(0.5)?)?.div(h)?;
                    let b = s(n - 3..n - 2)?
                        .mul(0.5)?
                        .sub(&s(n - 2..n - 1)?.mul(2.0)?)?
                        .add(&s(n - 1..n)?.mul(1.5)?)?
                        .div(h)?;
                    (a, b)
                };
                concatenate(&[&first, &mid, &last], ax as isize)?
            }
            Spacing::Coords(x) => {
                if x.ndim() != 1 || x.size() != n {
                    return Err(Error::invalid(op, "coordinates must be 1-D with one per sample"));
                }
                let x = x.astype(DType::F64)?;
                let dx = x.slice([SliceElem::from(1..)])?.sub(&x.slice([SliceElem::from(..n - 1)])?)?;
                let d = |r: std::ops::Range<usize>| shape_of(dx.slice([SliceElem::from(r)])?);
                // NumPy's non-uniform central difference.
                let (d1, d2) = (d(0..n - 2)?, d(1..n - 1)?);
                let a = d2.neg()?.div(&d1.mul(&d1.add(&d2)?)?)?;
                let b = d2.sub(&d1)?.div(&d1.mul(&d2)?)?;
                let c = d1.div(&d2.mul(&d1.add(&d2)?)?)?;
                let mid = s(0..n - 2)?.mul(&a)?.add(&s(1..n - 1)?.mul(&b)?)?.add(&s(2..n)?.mul(&c)?)?;
                let (first, last) = if edge_order == 1 {
                    (
                        s(1..2)?.sub(&s(0..1)?)?.div(&d(0..1)?)?,
                        s(n - 1..n)?.sub(&s(n - 2..n - 1)?)?.div(&d(n - 2..n - 1)?)?,
                    )
                } else {
                    let (h1, h2) = (d(0..1)?, d(1..2)?);
                    let a = h1.mul(2.0)?.add(&h2)?.neg()?.div(&h1.mul(&h1.add(&h2)?)?)?;
                    let b = h1.add(&h2)?.div(&h1.mul(&h2)?)?;
                    let c = h1.neg()?.div(&h2.mul(&h1.add(&h2)?)?)?;
                    let first = s(0..1)?.mul(&a)?.add(&s(1..2)?.mul(&b)?)?.add(&s(2..3)?.mul(&c)?)?;
                    let (h1, h2) = (d(n - 3..n - 2)?, d(n - 2..n - 1)?);
                    let a = h2.div(&h1.mul(&h1.add(&h2)?)?)?;
                    let b = h2.add(&h1)?.neg()?.div(&h1.mul(&h2)?)?;
                    let c = h2.mul(2.0)?.add(&h1)?.div(&h2.mul(&h1.add(&h2)?)?)?;
                    let last =
                        s(n - 3..n - 2)?.mul(&a)?.add(&s(n - 2..n - 1)?.mul(&b)?)?.add(&s(n - 1..n)?.mul(&c)?)?;
                    (first, last)
                };
                concatenate(&[&first, &mid, &last], ax as isize)?
            }
        };
        out.push(g.astype(ft)?);
    }
    Ok(out)
}

/// NumPy's `trapezoid(y, x, dx, axis)`: the integral of `y` along `axis` by the trapezoidal rule,
/// at sample points `x` (1-D along the axis, or `y`'s shape) or spaced `dx` apart.
pub fn trapezoid(y: &Array, x: Option<&Array>, dx: f64, axis: isize) -> Result<Array> {
    let ax = normalize_axis("trapezoid", axis, y.ndim())?;
    let n = y.shape()[ax];
    if n == 0 {
        return along(y, ax, 0..0)?.astype(DType::F64)?.sum(ax as isize);
    }
    let avg = along(y, ax, 1..n)?.add(&along(y, ax, 0..n - 1)?)?;
    let d = match x {
        None => return avg.mul(dx / 2.0)?.sum(ax as isize),
        Some(x) if x.ndim() == 1 => {
            let d = diff(x, 1, 0)?;
            let mut s = vec![1; y.ndim()];
            s[ax] = d.size();
            d.reshape_exact(&s)?
        }
        Some(x) => diff(x, 1, ax as isize)?,
    };
    d.mul(&avg)?.div(2.0)?.sum(ax as isize)
}

/// NumPy's `interp(x, xp, fp, left, right)`: piecewise-linear interpolation of the points
/// (`xp` increasing, `fp` real) at `x`, `left`/`right` (default `fp[0]`, `fp[-1]`) outside;
/// float64.
pub fn interp(x: &Array, xp: &Array, fp: &Array, left: Option<f64>, right: Option<f64>) -> Result<Array> {
    let op = "interp";
    if xp.ndim() != 1 || fp.ndim() != 1 || xp.size() != fp.size() {
        return Err(Error::invalid(op, "xp and fp must be 1-D of the same length"));
    }
    if xp.size() == 0 {
        return Err(Error::invalid(op, "xp must not be empty"));
    }
    if fp.dtype().is_complex() {
        return Err(Error::InvalidDType { op, dtype: fp.dtype() });
    }
    let (xd, xpd, fpd) = (x.astype(DType::F64)?, xp.astype(DType::F64)?, fp.astype(DType::F64)?);
    let n = xp.size() as i64;
    if matches!(x.device(), xp_core::Device::Cuda(_)) {
        return interp_kernel(&xd, &xpd, &fpd, left, right);
    }
    let at = |a: &Array, i: isize| a.slice([SliceElem::Index(i)]);
    let (x0, xn, f0, fnn) = (at(&xpd, 0)?, at(&xpd, -1)?, at(&fpd, 0)?, at(&fpd, -1)?);
    let inner = if n == 1 {
        xd.full_like(0.0)?.add(&f0)?
    } else {
        let j = searchsorted(&xpd, &xd, Side::Right, None)?.sub(1)?.clip(Some(0), Some(n - 2))?;
        let (xa, xb) = (xpd.take(&j, 0)?, xpd.take(&j.add(1)?, 0)?);
        let (ya, yb) = (fpd.take(&j, 0)?, fpd.take(&j.add(1)?, 0)?);
        let slope = yb.sub(&ya)?.div(&xb.sub(&xa)?)?;
        let r = slope.mul(&xd.sub(&xa)?)?.add(&ya)?;
        // NumPy's fallbacks when the first form is NaN (infinite slopes, equal values).
        let r2 = slope.mul(&xd.sub(&xb)?)?.add(&yb)?;
        let r2 = where_(&r2.isnan()?.logical_and(&ya.equal(&yb)?)?, &ya, &r2)?;
        where_(&r.isnan()?, &r2, &r)?
    };
    let r = where_(&xd.equal(&xn)?, &fnn, &inner)?;
    let lv = match left {
        Some(v) => Array::scalar_on(v, DType::F64, x.device())?,
        None => f0,
    };
    let rv = match right {
        Some(v) => Array::scalar_on(v, DType::F64, x.device())?,
        None => fnn,
    };
    let r = where_(&xd.lt(&x0)?, &lv, &r)?;
    let r = where_(&xd.gt(&xn)?, &rv, &r)?;
    where_(&xd.isnan()?, f64::NAN, &r)
}

/// The body of [`interp`] on the GPU: the cases of the array path below, in its order of
/// precedence, each rounded as it rounds (no fused multiply-add).
const INTERP_BODY: &str = "if (isnan(x)) {
  y = x;
} else if (x > xp[n - 1]) {
  y = dr ? fp[n - 1] : rv;
} else if (x < xp[0]) {
  y = dl ? fp[0] : lv;
} else if (x == xp[n - 1]) {
  y = fp[n - 1];
} else if (n == 1) {
  y = fp[0];
} else {
  const long long k = j < 1 ? 0 : (j - 1 > n - 2 ? n - 2 : j - 1);
  const double xa = xp[k], xb = xp[k + 1], ya = fp[k], yb = fp[k + 1];
  const double slope = (yb - ya) / (xb - xa);
  double r = __dadd_rn(__dmul_rn(slope, x - xa), ya);
  if (isnan(r)) {
    r = __dadd_rn(__dmul_rn(slope, x - xb), yb);
    if (isnan(r) && ya == yb) r = ya;
  }
  y = r;
}";

/// [`interp`] as the search for each point's interval and one kernel (the array path is some
/// twenty passes over the points: 0.13x CuPy's kernel).
fn interp_kernel(x: &Array, xp: &Array, fp: &Array, left: Option<f64>, right: Option<f64>) -> Result<Array> {
    use crate::kernel::ElementwiseKernel;
    static K: std::sync::OnceLock<ElementwiseKernel> = std::sync::OnceLock::new();
    let k = crate::kernel::once(&K, || {
        let sig =
            "float64 x, int64 j, raw float64 xp, raw float64 fp, int64 n, float64 lv, float64 rv, int32 dl, int32 dr";
        ElementwiseKernel::new(sig, "float64 y", INTERP_BODY, "xp_interp")
    })?;
    let n = xp.size() as i64;
    // `j` is the count of knots at or below the point; the interval starts one before
    let j = searchsorted(xp, x, Side::Right, None)?;
    // `dl`/`dr`: the ends default to fp[0] and fp[-1], which the kernel reads
    let (lv, dl) = (left.unwrap_or(0.0), left.is_none() as i32);
    let (rv, dr) = (right.unwrap_or(0.0), right.is_none() as i32);
    let args = [x.into(), (&j).into(), xp.into(), fp.into(), n.into(), lv.into(), rv.into(), dl.into(), dr.into()];
    k.call1(&args)
}

impl Array {
    /// NumPy's `nancumsum(a, axis)`: the cumulative sum with NaN counted as zero (`..`: of the
    /// flattened array).
    pub fn nancumsum(&self, axis: impl IntoAxes) -> Result<Array> {
        self.nan_as(0.0)?.cumsum(axis)
    }
    /// NumPy's `nancumprod(a, axis)`: the cumulative product with NaN counted as one.
    pub fn nancumprod(&self, axis: impl IntoAxes) -> Result<Array> {
        self.nan_as(1.0)?.cumprod(axis)
    }
    fn nan_as(&self, v: f64) -> Result<Array> {
        if self.dtype().is_float() || self.dtype().is_complex() {
            where_(&self.isnan()?, v, self)
        } else {
            Ok(self.clone())
        }
    }
}
