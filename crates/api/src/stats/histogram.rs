//! Counting: `histogram`, `histogram2d`, `histogramdd`, `bincount`, `digitize`. A value's bin
//! is found by a binary search of the edges on the device (`searchsorted`, NumPy's rule: bin `i`
//! holds `edges[i] <= x < edges[i + 1]`, the last bin also its right edge), and the bins are
//! summed by the scatter-add kernel (on the GPU, privatised in shared memory where the bins fit).
use crate::{full_on, scatter_add, searchsorted, where_, Array, Side};
use xp_core::{promote_types, DType, Error, Result, SliceElem};

/// NumPy's `bins`: a number of equal bins over the range, or the edges themselves (1-D,
/// non-decreasing).
#[derive(Clone, Copy, Debug)]
pub enum Bins<'a> {
    /// this many equal-width bins
    Count(usize),
    /// these edges
    Edges(&'a Array),
}

impl From<usize> for Bins<'_> {
    fn from(n: usize) -> Self {
        Bins::Count(n)
    }
}
impl<'a> From<&'a Array> for Bins<'a> {
    fn from(e: &'a Array) -> Self {
        Bins::Edges(e)
    }
}

/// The options of the histogram functions (NumPy's keywords; `Histogram::default()` is NumPy's
/// defaults).
#[derive(Clone, Copy, Debug, Default)]
pub struct Histogram<'a> {
    /// the range of equal bins (NumPy's `range`; default: the data's minimum and maximum)
    pub range: Option<(f64, f64)>,
    /// a weight per value (NumPy's `weights`): the bins sum them instead of counting
    pub weights: Option<&'a Array>,
    /// divide by the total and the bin widths, so the histogram integrates to 1
    pub density: bool,
}

fn bad(op: &'static str, param: &'static str, r: &str) -> Error {
    Error::InvalidParameter { op, param, requirement: r.into() }
}

/// Round a float64 to `dtype`'s precision and back (NumPy computing in that dtype).
fn round_to(x: f64, dtype: DType) -> f64 {
    match dtype {
        DType::F32 => x as f32 as f64,
        DType::F16 => xp_core::f16::from_f64(x).to_f64(),
        DType::BF16 => xp_core::bf16::from_f64(x).to_f64(),
        _ => x,
    }
}

/// NumPy's `_get_outer_edges`: the range, checked, widened by ±0.5 when empty; and the dtype
/// NumPy computes the edges in (the data's float dtype for a range taken from the data, which
/// NumPy holds as scalars of that dtype; float64 for a given range or integer data).
fn outer_edges(op: &'static str, a: &Array, range: Option<(f64, f64)>) -> Result<(f64, f64, DType)> {
    let (lo, hi, ct) = match range {
        Some((lo, hi)) => {
            if lo > hi {
                return Err(bad(op, "range", "must have max >= min"));
            }
            (lo, hi, DType::F64)
        }
        None if a.size() == 0 => (0.0, 1.0, DType::F64),
        None => {
            let ct = if a.dtype().is_float() { a.dtype() } else { DType::F64 };
            let (lo, hi) =
                (a.min(..)?.astype(DType::F64)?.item::<f64>()?, a.max(..)?.astype(DType::F64)?.item::<f64>()?);
            (lo, hi, ct)
        }
    };
    if !lo.is_finite() || !hi.is_finite() {
        return Err(bad(op, "range", &format!("must be finite (got [{lo}, {hi}])")));
    }
    Ok(if lo == hi { (round_to(lo - 0.5, ct), round_to(hi + 0.5, ct), ct) } else { (lo, hi, ct) })
}

/// NumPy's `linspace(lo, hi, n + 1)` on the host, each step rounded to `ct` as NumPy computes
/// it in that dtype (`i * step + lo`, the last edge `hi`).
fn equal_edges(lo: f64, hi: f64, n: usize, ct: DType) -> Vec<f64> {
    let step = round_to(round_to(hi - lo, ct) / n as f64, ct);
    let mut e: Vec<f64> = (0..=n).map(|i| round_to(round_to(i as f64 * step, ct) + lo, ct)).collect();
    e[n] = hi;
    e
}

/// Edges of one dimension as an array on `a`'s device, in `dtype` (`None`: the dtype NumPy's
/// `linspace` gives the outer edges, as `histogramdd` leaves them); checked non-decreasing.
fn edges(op: &'static str, a: &Array, bins: Bins, range: Option<(f64, f64)>, dtype: Option<DType>) -> Result<Array> {
    match bins {
        Bins::Count(0) => Err(bad(op, "bins", "must be positive")),
        Bins::Count(n) => {
            let (lo, hi, ct) = outer_edges(op, a, range)?;
            let dtype = dtype.unwrap_or(ct);
            let ct = if dtype == DType::F64 { DType::F64 } else { ct };
            Array::from_vec(equal_edges(lo, hi, n, ct), [n + 1])?.to_device(a.device())?.astype(dtype)
        }
        Bins::Edges(e) => {
            if e.ndim() != 1 || e.size() < 2 {
                return Err(bad(op, "bins", "must be 1-D with at least two edges"));
            }
            if e.device() != a.device() {
                return Err(Error::DeviceMismatch { op, lhs: a.device(), rhs: e.device() });
            }
            let (l, r) = (e.slice([SliceElem::from(..e.size() - 1)])?, e.slice([SliceElem::from(1..)])?);
            if l.gt(&r)?.any(..)?.item::<bool>()? {
                return Err(bad(op, "bins", "must increase monotonically"));
            }
            Ok(e.clone())
        }
    }
}

/// The bin of each value of `x` among `edges` (int64), or `-1` outside them (and for NaN).
fn bin_of(x: &Array, edges: &Array) -> Result<Array> {
    let n = edges.size() as i64 - 1;
    let last = edges.slice([SliceElem::Index(-1)])?;
    let first = edges.slice([SliceElem::Index(0)])?;
    let i = searchsorted(edges, x, Side::Right, None)?.sub(1)?;
    // The last edge belongs to the last bin.
    let i = where_(&x.equal(&last)?, n - 1, &i)?;
    let inside = x.ge(&first)?.logical_and(&x.le(&last)?)?;
    where_(&inside, &i, -1)
}

/// Sum `weights` (or count ones) into `bins` bins by `idx` (`-1`: dropped).
fn accumulate(idx: &Array, bins: usize, weights: Option<&Array>) -> Result<Array> {
    let dt = weights.map_or(DType::I64, |w| match w.dtype() {
        DType::Bool => DType::I64,
        d => d,
    });
    // A last bin collects the dropped values.
    let target = full_on(idx.device(), &[bins + 1], 0, dt)?;
    let slot = where_(&idx.lt(0)?, bins as i64, idx)?;
    match weights {
        Some(w) => scatter_add(&target, &slot, &w.astype(dt)?)?,
        None => scatter_add(&target, &slot, 1)?,
    }
    target.slice([SliceElem::from(..bins)])
}

/// The backend's histogram of the contiguous values `x` among the edges `e` (the same float
/// dtype), counting, or summing `w` (cast back to its dtype, as NumPy sums in the weights' dtype).
fn count(x: &Array, e: &Array, w: Option<&Array>) -> Result<Array> {
    use crate::backend::{on_many, Reads};
    let nb = e.size() - 1;
    let wf = w.map(|w| w.astype(DType::F64)?.ascontiguousarray()).transpose()?;
    let mut arrays = vec![x, e];
    arrays.extend(wf.as_ref());
    let reads = Reads::lock(&arrays);
    let h = on_many!(reads.many("histogram")?, v => {
        use xp_core::StatsStorage;
        v[0].histogram(&x.layout, v[1], v.get(2).copied())
    })?;
    let h = Array::from_storage(h, &[nb]);
    match w {
        Some(w) if w.dtype() != DType::Bool => h.astype(w.dtype()),
        Some(_) => h.astype(DType::I64),
        None => Ok(h),
    }
}

fn density(h: &Array, widths: &Array) -> Result<Array> {
    let h = h.astype(DType::F64)?;
    h.div(&h.sum(..)?)?.div(widths)
}

/// NumPy's `histogram(a, bins, range, weights, density)` of the flattened `a`: the counts (int64,
/// or the weights' dtype, or float64 densities) and the edges (float, of `a`'s dtype when it is a
/// float).
pub fn histogram<'a>(a: &Array, bins: impl Into<Bins<'a>>, opts: Histogram) -> Result<(Array, Array)> {
    let op = "histogram";
    let x = a.ravel()?;
    if x.dtype().is_complex() {
        return Err(Error::InvalidDType { op, dtype: x.dtype() });
    }
    let w = opts.weights.map(|w| -> Result<Array> {
        if w.shape() != a.shape() {
            return Err(Error::ShapeMismatch { op, lhs: a.shape().to_vec(), rhs: w.shape().to_vec() });
        }
        w.ravel()
    });
    let w = w.transpose()?;
    let et = if x.dtype().is_float() { x.dtype() } else { DType::F64 };
    let e = edges(op, &x, bins.into(), opts.range, Some(et))?;
    let nb = e.size() - 1;
    // Compare in the promoted dtype of the values and the edges, as NumPy does (float16 and
    // bfloat16 widened to float32, which orders them the same).
    let ct = match promote_types(x.dtype(), e.dtype()) {
        DType::F16 | DType::BF16 => DType::F32,
        d => d,
    };
    let h = count(&x.cast_if(ct)?.ascontiguousarray()?, &e.cast_if(ct)?.ascontiguousarray()?, w.as_ref())?;
    if opts.density {
        let widths = e.slice([SliceElem::from(1..)])?.sub(&e.slice([SliceElem::from(..nb)])?)?;
        return Ok((density(&h, &widths.astype(DType::F64)?)?, e));
    }
    Ok((h, e))
}

/// NumPy's `histogramdd(sample, bins, range, weights, density)`: `sample` is `(N, D)`; `bins`
/// one per dimension (or one for all); the counts `(n_0, …, n_{D-1})` and float64 edges per
/// dimension.
pub fn histogramdd(
    sample: &Array,
    bins: &[Bins],
    range: Option<&[(f64, f64)]>,
    weights: Option<&Array>,
    density_: bool,
) -> Result<(Array, Vec<Array>)> {
    let op = "histogramdd";
    let s = if sample.ndim() == 1 { sample.reshape_exact(&[sample.size(), 1])? } else { sample.clone() };
    if s.ndim() != 2 || s.dtype().is_complex() {
        return Err(Error::invalid(op, "sample must be (N, D) real"));
    }
    let (n, d) = (s.shape()[0], s.shape()[1]);
    if bins.len() != d && bins.len() != 1 {
        return Err(bad(op, "bins", &format!("must give one entry or one per dimension ({d})")));
    }
    if range.is_some_and(|r| r.len() != d) {
        return Err(bad(op, "range", &format!("must give one pair per dimension ({d})")));
    }
    if let Some(w) = weights
        && w.shape() != [n]
    {
        return Err(Error::ShapeMismatch { op, lhs: vec![n], rhs: w.shape().to_vec() });
    }
    let (mut flat, mut all_edges, mut counts) = (None::<Array>, Vec::new(), Vec::new());
    for k in 0..d {
        // NumPy's edges here are a `linspace` of the extremes in the sample's own float dtype
        // (float64 for a given range or integers), and `searchsorted` compares in the promoted
        // dtype of the two.
        let col = s.slice([SliceElem::FULL, SliceElem::Index(k as isize)])?;
        let e = edges(op, &col, bins[if bins.len() == 1 { 0 } else { k }], range.map(|r| r[k]), None)?;
        let ct = match promote_types(col.dtype(), e.dtype()) {
            DType::F16 | DType::BF16 => DType::F32,
            d => d,
        };
        let nb = e.size() - 1;
        let i = bin_of(&col.cast_if(ct)?, &e.cast_if(ct)?)?;
        flat = Some(match flat {
            None => i,
            // Row-major flat bin; a value outside any dimension drops the sample.
            Some(f) => where_(&f.lt(0)?.logical_or(&i.lt(0)?)?, -1, &f.mul(nb as i64)?.add(&i)?)?,
        });
        all_edges.push(e);
        counts.push(nb);
    }
    let total: usize = counts.iter().product();
    let flat = match flat {
        Some(f) => f,
        None => return Err(Error::invalid(op, "sample has no dimensions")),
    };
    // NumPy's histogramdd counts in float64.
    let mut h = accumulate(&flat, total, weights)?.reshape_exact(&counts)?.astype(DType::F64)?;
    if density_ {
        // Divide by the total and by each dimension's widths in turn.
        h = h.div(&h.sum(..)?)?;
        for (k, e) in all_edges.iter().enumerate() {
            let nb = counts[k];
            let w = e.slice([SliceElem::from(1..)])?.sub(&e.slice([SliceElem::from(..nb)])?)?;
            let mut shape = vec![1; d];
            shape[k] = nb;
            h = h.div(&w.reshape_exact(&shape)?)?;
        }
    }
    Ok((h, all_edges))
}

/// NumPy's `histogram2d(x, y, bins, range, weights, density)`: [`histogramdd`] of the pairs.
pub fn histogram2d(
    x: &Array,
    y: &Array,
    bins: [Bins; 2],
    range: Option<[(f64, f64); 2]>,
    weights: Option<&Array>,
    density: bool,
) -> Result<(Array, Array, Array)> {
    if x.shape() != y.shape() || x.ndim() != 1 {
        return Err(Error::ShapeMismatch { op: "histogram2d", lhs: x.shape().to_vec(), rhs: y.shape().to_vec() });
    }
    let s = crate::stack(&[x, y], 1)?;
    let (h, mut e) = histogramdd(&s, &bins, range.as_ref().map(|r| &r[..]), weights, density)?;
    let ye = e.pop().expect("two edges");
    Ok((h, e.pop().expect("two edges"), ye))
}

/// NumPy's `bincount(x, weights, minlength)`: how often each value of the non-negative integer
/// 1-D `x` occurs (int64; with weights, their float64 sums), at least `minlength` bins.
pub fn bincount(x: &Array, weights: Option<&Array>, minlength: usize) -> Result<Array> {
    let op = "bincount";
    if x.ndim() != 1 || !(x.dtype().is_integer() || x.dtype() == DType::Bool) {
        return Err(Error::InvalidDType { op, dtype: x.dtype() });
    }
    let x = x.astype(DType::I64)?;
    let len = if x.size() == 0 {
        minlength
    } else {
        if x.lt(0)?.any(..)?.item::<bool>()? {
            return Err(bad(op, "x", "must be non-negative"));
        }
        (x.max(..)?.item::<i64>()? as usize + 1).max(minlength)
    };
    let w = weights
        .map(|w| {
            if w.shape() != x.shape() {
                return Err(Error::ShapeMismatch { op, lhs: x.shape().to_vec(), rhs: w.shape().to_vec() });
            }
            w.astype(DType::F64)
        })
        .transpose()?;
    accumulate(&x, len, w.as_ref())
}

/// NumPy's `digitize(x, bins, right)`: the index of each value's bin among the monotonic `bins`
/// (increasing: `bins[i-1] <= x < bins[i]`, or `<`/`<=` with `right`; decreasing mirrored).
pub fn digitize(x: &Array, bins: &Array, right: bool) -> Result<Array> {
    let op = "digitize";
    if bins.ndim() != 1 {
        return Err(bad(op, "bins", "must be 1-dimensional"));
    }
    let side = if right { Side::Left } else { Side::Right };
    if bins.size() < 2 {
        return searchsorted(bins, x, side, None);
    }
    let n = bins.size();
    // the order of the edges checked on the host (one read of a small array, where the
    // device's comparisons and reductions were three launches and a wait)
    let hb = if n <= 1 << 16 { bins.to_device(xp_core::Device::Cpu)? } else { bins.clone() };
    let (l, r) = (hb.slice([SliceElem::from(..n - 1)])?, hb.slice([SliceElem::from(1..)])?);
    if l.le(&r)?.all(..)?.item::<bool>()? {
        searchsorted(bins, x, side, None)
    } else if l.ge(&r)?.all(..)?.item::<bool>()? {
        let rev = bins.flip(0)?;
        searchsorted(&rev, x, side, None)?.neg()?.add(n as i64)
    } else {
        Err(bad(op, "bins", "must be monotonically increasing or decreasing"))
    }
}
