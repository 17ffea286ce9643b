//! Measurements over labelled regions (SciPy's `ndimage.sum_labels`, `mean`, `variance`,
//! `standard_deviation`, `minimum`, `maximum`, `center_of_mass`, `median`, `extrema`,
//! `minimum_position`, `maximum_position`, `histogram`, `labeled_comprehension`), written on
//! device-generic array operations (`searchsorted` of the labels asked for, `bincount`,
//! `scatter_min`/`scatter_max`, `lexsort`, `take`), so they run where the input lives; only
//! `labeled_comprehension`, whose function is Rust code, reads the values to the host.
//!
//! As SciPy's: any integer label is a region (negative ones too), the labels asked for may be
//! absent, repeated or in any order, and without `labels` the whole input is one region whatever
//! the index (a 0-d result).
//!
//! ```
//! use xp::ndimage::{label, mean, sum_labels, LabelIndex};
//! let img = xp::Array::from_vec(vec![1.0, 2.0, 0.0, 4.0, 0.0, 0.0, 0.0, 5.0], &[2, 4]).unwrap();
//! let lab = label(&img, None).unwrap().labels; // [[1, 1, 0, 2], [0, 0, 0, 2]]
//! let s = sum_labels(&img, Some(&lab), LabelIndex::Many(&[1, 2])).unwrap();
//! assert_eq!(s.to_vec::<f64>().unwrap(), vec![3.0, 9.0]);
//! let m = mean(&img, Some(&lab), LabelIndex::One(2)).unwrap();
//! assert_eq!(m.item::<f64>().unwrap(), 4.5);
//! ```
use super::measure_host::{self as host, Sums};
use crate::Array;
use xp_core::{DType, Error, Result};

/// Which regions a measurement reports (SciPy's `index`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum LabelIndex<'a> {
    /// every positive label taken together (SciPy's `index=None`); a 0-d result
    #[default]
    Positive,
    /// the region of one label; a 0-d result
    One(i64),
    /// one result per label, in this order (labels absent from `labels` give an empty region)
    Many(&'a [i64]),
}

/// The region of each element as a slot in `0..=k` (the `k` distinct labels asked for are
/// `0..k` in ascending order; slot `k` holds every other element), the slot each result comes
/// from, and whether the result is 0-d.
struct Groups {
    slot: Array,
    bins: usize,
    pick: Array,
    scalar: bool,
}

fn groups(input: &Array, labels: Option<&Array>, index: LabelIndex) -> Result<Groups> {
    let dev = input.device();
    let on = crate::on(dev);
    let (lab, index) = match labels {
        Some(l) => {
            if l.device() != dev {
                return Err(Error::DeviceMismatch { op: "ndimage measurement", lhs: dev, rhs: l.device() });
            }
            if !l.dtype().is_integer() && l.dtype() != DType::Bool {
                return Err(Error::InvalidDType { op: "ndimage measurement", dtype: l.dtype() });
            }
            (l.broadcast_to(input.shape())?.astype(DType::I64)?.ravel()?, index)
        }
        // without labels SciPy measures the whole input, whatever the index
        None => (on.zeros([input.size()], DType::I64)?, LabelIndex::One(0)),
    };
    let scalar = !matches!(index, LabelIndex::Many(_));
    let wanted: Vec<i64> = match index {
        // every positive label: one region, slot 0
        LabelIndex::Positive => {
            let slot = lab.le(0)?.astype(DType::I64)?;
            return Ok(Groups { slot, bins: 2, pick: on.zeros([1], DType::I64)?, scalar });
        }
        LabelIndex::One(i) => vec![i],
        LabelIndex::Many(v) => v.to_vec(),
    };
    let mut uniq = wanted.clone();
    uniq.sort_unstable();
    uniq.dedup();
    let k = uniq.len();
    let pick: Vec<i64> = wanted.iter().map(|w| uniq.binary_search(w).unwrap_or(0) as i64).collect();
    let pick = on.asarray(pick, [wanted.len()])?;
    let slot = match k {
        0 => on.zeros([lab.size()], DType::I64)?,
        1 => lab.not_equal(uniq[0])?.astype(DType::I64)?,
        _ => {
            // any label, negative or large, finds its slot by a binary search of those asked for
            let u = on.asarray(uniq, [k])?;
            let p = crate::searchsorted(&u, &lab, xp_core::Side::Left, None)?.minimum(k as i64 - 1)?;
            let found = u.take(&p, 0)?.equal(&lab)?;
            crate::where_(&found, &p, k as i64)?
        }
    };
    Ok(Groups { slot, bins: k + 1, pick, scalar })
}

impl Groups {
    fn shape(&self, a: Array) -> Result<Array> {
        if self.scalar {
            a.reshape_exact(&[])
        } else {
            Ok(a)
        }
    }
    /// Σ of `w` (float64, flat) per region.
    fn sums(&self, w: &Array) -> Result<Array> {
        crate::bincount(&self.slot, Some(w), self.bins)?.take(&self.pick, 0)
    }
    /// The number of elements of each slot (int64, all slots).
    fn slot_counts(&self) -> Result<Array> {
        crate::bincount(&self.slot, None, self.bins)
    }
    fn counts(&self) -> Result<Array> {
        self.slot_counts()?.take(&self.pick, 0)?.astype(DType::F64)
    }
    /// SciPy's error for a 0-d result over an empty region (its `min` of no values).
    fn check_nonempty(&self, op: &'static str) -> Result<()> {
        if self.scalar && self.slot_counts()?.take(&self.pick, 0)?.sum(..)?.item::<i64>()? == 0 {
            return Err(Error::EmptyReduction { op });
        }
        Ok(())
    }
}

fn flat_f64(input: &Array) -> Result<Array> {
    if input.dtype().is_complex() {
        return Err(Error::InvalidDType { op: "ndimage measurement", dtype: input.dtype() });
    }
    input.astype(DType::F64)?.ravel()
}

/// The sum of `input` over each region (SciPy's `sum_labels`; `labels` broadcast to `input`,
/// `None` for one region of everything). `Positive` and `One` give NumPy's sum dtype, `Many`
/// float64, as SciPy.
pub fn sum_labels(input: &Array, labels: Option<&Array>, index: LabelIndex) -> Result<Array> {
    if labels.is_some()
        && matches!(index, LabelIndex::Many(_))
        && let Some((s, acc)) = host::slot_sums(input, labels, index, Sums::Moments)?
    {
        return host::result(&s, None, s.pick.iter().map(|&p| acc[2 * p + 1]).collect());
    }
    let g = groups(input, labels, index)?;
    if g.scalar {
        let mask = g.slot.equal(&g.pick.reshape_exact(&[])?)?.reshape_exact(input.shape())?;
        let zero = crate::zeros_like(input)?;
        return crate::where_(&mask, input, &zero)?.sum(..);
    }
    g.sums(&flat_f64(input)?)
}

/// The mean of `input` over each region (SciPy's `mean`; NaN for an empty region), float64.
pub fn mean(input: &Array, labels: Option<&Array>, index: LabelIndex) -> Result<Array> {
    if let Some((s, acc)) = host::slot_sums(input, labels, index, Sums::Moments)? {
        return host::result(&s, None, s.pick.iter().map(|&p| acc[2 * p + 1] / acc[2 * p]).collect());
    }
    let g = groups(input, labels, index)?;
    g.shape(g.sums(&flat_f64(input)?)?.div(&g.counts()?)?)
}

/// The population variance of `input` over each region (SciPy's `variance`), float64; two
/// passes (the region's mean first), as SciPy.
pub fn variance(input: &Array, labels: Option<&Array>, index: LabelIndex) -> Result<Array> {
    if let Some((s, acc)) = host::slot_sums(input, labels, index, Sums::Moments)? {
        let means: Vec<f64> = (0..s.bins).map(|b| acc[2 * b + 1] / acc[2 * b]).collect();
        if let Some((_, sq)) = host::slot_sums(input, labels, index, Sums::Centered(&means))? {
            return host::result(&s, None, s.pick.iter().map(|&p| sq[p] / acc[2 * p]).collect());
        }
    }
    let g = groups(input, labels, index)?;
    let x = flat_f64(input)?;
    let all = Groups {
        slot: g.slot.clone(),
        bins: g.bins,
        pick: crate::on(input.device()).arange(0, g.bins as i64, 1, None)?,
        scalar: false,
    };
    let means = all.sums(&x)?.div(&all.counts()?)?;
    let dev = x.sub(&means.take(&g.slot, 0)?)?;
    g.shape(g.sums(&dev.mul(&dev)?)?.div(&g.counts()?)?)
}

/// The population standard deviation over each region (SciPy's `standard_deviation`).
pub fn standard_deviation(input: &Array, labels: Option<&Array>, index: LabelIndex) -> Result<Array> {
    variance(input, labels, index)?.sqrt()
}

fn extreme(input: &Array, labels: Option<&Array>, index: LabelIndex, max: bool) -> Result<Array> {
    let g = groups(input, labels, index)?;
    let x = flat_f64(input)?;
    let start = if max { f64::NEG_INFINITY } else { f64::INFINITY };
    let acc = crate::full_like(&crate::on(input.device()).zeros([g.bins], DType::F64)?, start)?;
    if max {
        crate::scatter_max(&acc, &g.slot, &x)?;
    } else {
        crate::scatter_min(&acc, &g.slot, &x)?;
    }
    let v = acc.take(&g.pick, 0)?;
    // an empty region reports 0, as SciPy
    let v = crate::where_(&v.isinf()?.logical_and(&v.equal(start)?)?, 0.0, &v)?;
    g.shape(v.astype(input.dtype())?)
}

/// The smallest value of `input` in each region (SciPy's `minimum`; 0 for an empty region), in
/// `input`'s dtype.
pub fn minimum(input: &Array, labels: Option<&Array>, index: LabelIndex) -> Result<Array> {
    extreme(input, labels, index, false)
}

/// The largest value of `input` in each region (SciPy's `maximum`; 0 for an empty region).
pub fn maximum(input: &Array, labels: Option<&Array>, index: LabelIndex) -> Result<Array> {
    extreme(input, labels, index, true)
}

/// The centre of mass of `input` over each region (SciPy's `center_of_mass`): float64 of shape
/// `(ndim,)` for `Positive`/`One`, `(len(index), ndim)` for `Many`.
pub fn center_of_mass(input: &Array, labels: Option<&Array>, index: LabelIndex) -> Result<Array> {
    if let Some((s, acc)) = host::slot_sums(input, labels, index, Sums::Coordinates)? {
        let (nd, w) = (input.ndim(), input.ndim() + 2);
        let c =
            s.pick.iter().flat_map(|&p| (0..nd).map(move |a| (p, a))).map(|(p, a)| acc[w * p + 2 + a] / acc[w * p + 1]);
        return host::result(&s, Some(nd), c.collect());
    }
    let g = groups(input, labels, index)?;
    let x = flat_f64(input)?;
    let total = g.sums(&x)?;
    let grid = crate::on(input.device()).indices(input.shape(), DType::F64)?;
    let per_axis = (0..input.ndim())
        .map(|a| g.sums(&x.mul(&grid.slice(crate::s![a as isize])?.ravel()?)?)?.div(&total))
        .collect::<Result<Vec<_>>>()?;
    let c = crate::stack(&per_axis.iter().collect::<Vec<_>>(), -1)?;
    if g.scalar {
        c.reshape_exact(&[input.ndim()])
    } else {
        Ok(c)
    }
}

/// The dtype the extremes are found in (the input's, with bool as uint8 and the half floats as
/// float32, all exact), and the accumulator's start for a minimum or maximum.
fn extreme_dtype(op: &'static str, input: &Array, max: bool) -> Result<(DType, xp_core::Scalar)> {
    use xp_core::Scalar;
    let d = match input.dtype() {
        DType::Bool => DType::U8,
        DType::F16 | DType::BF16 => DType::F32,
        d if d.is_complex() => return Err(Error::InvalidDType { op, dtype: d }),
        d => d,
    };
    let start = if d.is_float() {
        Scalar::Float(if max { f64::NEG_INFINITY } else { f64::INFINITY })
    } else {
        let (lo, hi) = xp_core::int_range(d).expect("an integer dtype");
        match d {
            DType::U64 => Scalar::Uint(if max { 0 } else { u64::MAX }),
            _ => Scalar::Int(if max { lo as i64 } else { hi as i64 }),
        }
    };
    Ok((d, start))
}

/// The extreme of each slot (in the input's dtype, 0 for an empty slot as SciPy) and the flat
/// position of its first occurrence in C order (0 for an empty slot), both over all slots.
fn slot_extremes(op: &'static str, input: &Array, g: &Groups, max: bool) -> Result<(Array, Array)> {
    let (d, start) = extreme_dtype(op, input, max)?;
    let on = crate::on(input.device());
    let x = input.astype(d)?.ravel()?;
    let acc = on.full([g.bins], start, d)?;
    if max {
        crate::scatter_max(&acc, &g.slot, &x)?;
    } else {
        crate::scatter_min(&acc, &g.slot, &x)?;
    }
    let n = x.size() as i64;
    let hit = x.equal(&acc.take(&g.slot, 0)?)?;
    let at = crate::where_(&hit, &on.arange(0, n, 1, None)?, n)?;
    let pos = on.full([g.bins], n, DType::I64)?;
    crate::scatter_min(&pos, &g.slot, &at)?;
    let empty = pos.equal(n)?;
    let value = crate::where_(&empty, 0, &acc)?.astype(input.dtype())?;
    Ok((value, crate::where_(&empty, 0, &pos)?))
}

/// Flat C-order positions (int64, any shape `S`) as coordinates: shape `S + (ndim,)`.
fn unravel(flat: &Array, shape: &[usize]) -> Result<Array> {
    let mut coords = Vec::with_capacity(shape.len());
    let mut stride: usize = shape.iter().product::<usize>().max(1);
    for &n in shape {
        stride /= n.max(1);
        coords.push(flat.floor_divide(stride as i64)?.remainder(n.max(1) as i64)?);
    }
    if coords.is_empty() {
        let mut s = flat.shape().to_vec();
        s.push(0);
        return crate::on(flat.device()).zeros(&s, DType::I64);
    }
    crate::stack(&coords.iter().collect::<Vec<_>>(), -1)
}

fn position(op: &'static str, input: &Array, labels: Option<&Array>, index: LabelIndex, max: bool) -> Result<Array> {
    let g = groups(input, labels, index)?;
    g.check_nonempty(op)?;
    let (_, pos) = slot_extremes(op, input, &g, max)?;
    let p = unravel(&pos.take(&g.pick, 0)?, input.shape())?;
    if g.scalar {
        p.reshape_exact(&[input.ndim()])
    } else {
        Ok(p)
    }
}

/// The coordinates of the smallest value of `input` in each region (SciPy's
/// `minimum_position`): int64 of shape `(ndim,)` for `Positive`/`One`, `(len(index), ndim)` for
/// `Many` (`(0, …, 0)` for an empty region). Of equal values the first in C order is taken (SciPy
/// takes it for a 0-d result; for `Many` its unstable sort may pick another). A 0-d result of an
/// empty region is an error, as SciPy's.
///
/// ```
/// use xp::ndimage::{minimum_position, LabelIndex};
/// let x = xp::Array::from_vec(vec![5.0, 1.0, 7.0, 3.0, 0.5, 9.0], &[2, 3]).unwrap();
/// let lab = xp::Array::from_vec(vec![1, 1, 2, 2, 0, 2], &[2, 3]).unwrap();
/// let p = minimum_position(&x, Some(&lab), LabelIndex::Many(&[1, 2])).unwrap();
/// assert_eq!(p.to_vec::<i64>().unwrap(), vec![0, 1, 1, 0]);
/// ```
pub fn minimum_position(input: &Array, labels: Option<&Array>, index: LabelIndex) -> Result<Array> {
    position("minimum_position", input, labels, index, false)
}

/// The coordinates of the largest value of `input` in each region (SciPy's `maximum_position`),
/// shaped as [`minimum_position`]'s.
///
/// ```
/// use xp::ndimage::{maximum_position, LabelIndex};
/// let x = xp::Array::from_vec(vec![5.0, 1.0, 7.0, 3.0, 0.5, 9.0], &[2, 3]).unwrap();
/// let p = maximum_position(&x, None, LabelIndex::Positive).unwrap();
/// assert_eq!(p.to_vec::<i64>().unwrap(), vec![1, 2]);
/// ```
pub fn maximum_position(input: &Array, labels: Option<&Array>, index: LabelIndex) -> Result<Array> {
    position("maximum_position", input, labels, index, true)
}

/// The result of [`extrema`]: SciPy's `(minimums, maximums, min_positions, max_positions)`.
///
/// ```
/// use xp::ndimage::{extrema, LabelIndex};
/// let x = xp::Array::from_vec(vec![2.0, -1.0, 4.0], &[3]).unwrap();
/// let xp::ndimage::Extrema { min, max, min_position, max_position } = extrema(&x, None, LabelIndex::Positive).unwrap();
/// assert_eq!((min.item::<f64>().unwrap(), max.item::<f64>().unwrap()), (-1.0, 4.0));
/// assert_eq!((min_position.to_vec::<i64>().unwrap(), max_position.to_vec::<i64>().unwrap()), (vec![1], vec![2]));
/// ```
#[derive(Clone, Debug)]
pub struct Extrema {
    /// the smallest value of each region, in the input's dtype (0-d, or one per label)
    pub min: Array,
    /// the largest value of each region
    pub max: Array,
    /// the coordinates of `min` (int64: `(ndim,)`, or `(len(index), ndim)`)
    pub min_position: Array,
    /// the coordinates of `max`
    pub max_position: Array,
}

/// The smallest and largest values of `input` in each region and their coordinates (SciPy's
/// `extrema`), as [`super::minimum`], [`super::maximum`], [`minimum_position`] and
/// [`maximum_position`] give them (an empty region of `Many`: 0 and `(0, …, 0)`; of a 0-d
/// result: an error).
///
/// ```
/// use xp::ndimage::{extrema, LabelIndex};
/// let x = xp::Array::from_vec(vec![5, 1, 7, 3, 0, 9], &[2, 3]).unwrap();
/// let lab = xp::Array::from_vec(vec![1, 1, 2, 2, 0, 2], &[2, 3]).unwrap();
/// let e = extrema(&x, Some(&lab), LabelIndex::One(2)).unwrap();
/// assert_eq!((e.min.item::<i32>().unwrap(), e.max.item::<i32>().unwrap()), (3, 9));
/// assert_eq!(e.min_position.to_vec::<i64>().unwrap(), vec![1, 0]);
/// assert_eq!(e.max_position.to_vec::<i64>().unwrap(), vec![1, 2]);
/// ```
pub fn extrema(input: &Array, labels: Option<&Array>, index: LabelIndex) -> Result<Extrema> {
    let op = "extrema";
    let g = groups(input, labels, index)?;
    g.check_nonempty(op)?;
    let (lo, lo_at) = slot_extremes(op, input, &g, false)?;
    let (hi, hi_at) = slot_extremes(op, input, &g, true)?;
    let at = |p: &Array| -> Result<Array> {
        let c = unravel(&p.take(&g.pick, 0)?, input.shape())?;
        if g.scalar {
            c.reshape_exact(&[input.ndim()])
        } else {
            Ok(c)
        }
    };
    Ok(Extrema {
        min: g.shape(lo.take(&g.pick, 0)?)?,
        max: g.shape(hi.take(&g.pick, 0)?)?,
        min_position: at(&lo_at)?,
        max_position: at(&hi_at)?,
    })
}

/// The median of `input` over each region (SciPy's `median`): the middle value, or the mean of
/// the two middle values of an even count. float64 (float32 for float32 input, as SciPy); NaN for
/// an empty region (SciPy gives NaN for a 0-d result and, for `Many`, a value of another region).
/// The elements are sorted by region and value on the device (`lexsort`).
///
/// ```
/// use xp::ndimage::{median, LabelIndex};
/// let x = xp::Array::from_vec(vec![4.0, 1.0, 3.0, 8.0, 6.0, 2.0], &[2, 3]).unwrap();
/// let lab = xp::Array::from_vec(vec![1, 1, 1, 2, 2, 0], &[2, 3]).unwrap();
/// let m = median(&x, Some(&lab), LabelIndex::Many(&[1, 2, 5])).unwrap();
/// let v = m.to_vec::<f64>().unwrap();
/// assert_eq!(&v[..2], &[3.0, 7.0]);
/// assert!(v[2].is_nan());
/// ```
pub fn median(input: &Array, labels: Option<&Array>, index: LabelIndex) -> Result<Array> {
    let op = "median";
    let g = groups(input, labels, index)?;
    let d = match input.dtype() {
        d if d.is_complex() => return Err(Error::InvalidDType { op, dtype: d }),
        d if d.is_float() => d,
        _ => DType::F64,
    };
    let x = input.ravel()?;
    let order = crate::lexsort(&[&x, &g.slot])?;
    let sorted = x.take(&order, 0)?;
    let counts = g.slot_counts()?;
    let starts = counts.cumsum(..)?.sub(&counts)?;
    let (n, start) = (counts.take(&g.pick, 0)?, starts.take(&g.pick, 0)?);
    let last = (x.size() as i64 - 1).max(0);
    let lo = start.add(&n.sub(1)?.floor_divide(2)?)?.clip(Some(0), Some(last))?;
    let hi = start.add(&n.floor_divide(2)?)?.clip(Some(0), Some(last))?;
    let m = if x.size() == 0 {
        crate::on(x.device()).zeros(lo.shape(), d)?
    } else {
        let (a, b) = (sorted.take(&lo, 0)?.astype(d)?, sorted.take(&hi, 0)?.astype(d)?);
        a.add(&b)?.div(2.0)?
    };
    let m = crate::where_(&n.equal(0)?, f64::NAN, &m)?.astype(d)?;
    g.shape(m)
}

/// The histogram of `input` over each region (SciPy's `ndimage.histogram`): `bins` equal bins
/// between `min` and `max` (NumPy's `histogram` with `linspace(min, max, bins + 1)` as edges: the
/// last bin holds `max`, values outside are not counted). int64 of shape `(bins,)`, or
/// `(len(index), bins)` for `Many`, where an empty region counts zeros (SciPy's object array holds
/// `None` there).
///
/// ```
/// use xp::ndimage::{histogram, LabelIndex};
/// let x = xp::Array::from_vec(vec![0.5, 1.5, 2.5, 3.0, 9.0, 1.0], &[6]).unwrap();
/// let h = histogram(&x, 0.0, 3.0, 3, None, LabelIndex::Positive).unwrap();
/// assert_eq!(h.to_vec::<i64>().unwrap(), vec![1, 2, 2]);
/// ```
pub fn histogram(
    input: &Array,
    min: f64,
    max: f64,
    bins: usize,
    labels: Option<&Array>,
    index: LabelIndex,
) -> Result<Array> {
    let op = "histogram";
    if bins == 0 {
        return Err(Error::invalid(op, "`bins` must be positive"));
    }
    if min > max || min.is_nan() || max.is_nan() {
        return Err(Error::invalid(op, "bins must increase monotonically: `min` must not exceed `max`"));
    }
    let g = groups(input, labels, index)?;
    let on = crate::on(input.device());
    let x = flat_f64(input)?;
    let edges = on.linspace(min, max, bins + 1, Default::default())?;
    // bin i holds edges[i] <= x < edges[i + 1]; the last also x == max
    let bin = crate::searchsorted(&edges, &x, xp_core::Side::Right, None)?.sub(1)?.minimum(bins as i64 - 1)?;
    let inside = x.ge(min)?.logical_and(&x.le(max)?)?;
    let total = g.bins * bins;
    let key = crate::where_(&inside, &g.slot.mul(bins as i64)?.add(&bin)?, total as i64)?;
    let h =
        crate::bincount(&key, None, total + 1)?.slice(crate::s![..total as isize])?.reshape_exact(&[g.bins, bins])?;
    let h = h.take(&g.pick, 0)?;
    if g.scalar {
        h.reshape_exact(&[bins])
    } else {
        Ok(h)
    }
}

/// `func` of the values of each region (SciPy's `labeled_comprehension` with `pass_positions`
/// off and a float64 result): `func` is Rust code, so the values are read to the host and the
/// float64 result comes back to the input's device. `Positive` calls `func` even on no values;
/// `One` and `Many` give `default` for an empty region, as SciPy. The values come in C order (for
/// `One` and `Many` SciPy's unstable sort of the labels may give them in another).
///
/// ```
/// use xp::ndimage::{labeled_comprehension, LabelIndex};
/// let x = xp::Array::from_vec(vec![4.0, 1.0, 3.0, 8.0, 6.0, 2.0], &[2, 3]).unwrap();
/// let lab = xp::Array::from_vec(vec![1, 1, 1, 2, 2, 0], &[2, 3]).unwrap();
/// let range = |v: &[f64]| v.iter().cloned().fold(f64::MIN, f64::max) - v.iter().cloned().fold(f64::MAX, f64::min);
/// let r = labeled_comprehension(&x, Some(&lab), LabelIndex::Many(&[1, 2, 3]), range, -1.0).unwrap();
/// assert_eq!(r.to_vec::<f64>().unwrap(), vec![3.0, 2.0, -1.0]);
/// ```
pub fn labeled_comprehension(
    input: &Array,
    labels: Option<&Array>,
    index: LabelIndex,
    mut func: impl FnMut(&[f64]) -> f64,
    default: f64,
) -> Result<Array> {
    let g = groups(input, labels, index)?;
    let x = flat_f64(input)?.to_vec::<f64>()?;
    let slot = g.slot.to_vec::<i64>()?;
    let pick = g.pick.to_vec::<i64>()?;
    let mut by_slot: Vec<Vec<f64>> = vec![vec![]; g.bins];
    for (v, s) in x.iter().zip(&slot) {
        by_slot[*s as usize].push(*v);
    }
    let on = crate::on(input.device());
    let positive = labels.is_none() || index == LabelIndex::Positive;
    let r: Vec<f64> = pick
        .iter()
        .map(|&p| match &by_slot[p as usize] {
            v if v.is_empty() && !positive => default,
            v => func(v),
        })
        .collect();
    if g.scalar {
        on.asarray(r, &[] as &[usize])
    } else {
        on.asarray(r, [pick.len()])
    }
}
