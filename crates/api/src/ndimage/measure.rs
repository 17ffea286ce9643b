//! Measurements over labelled regions (SciPy's `ndimage.sum_labels`, `mean`, `variance`,
//! `standard_deviation`, `minimum`, `maximum`, `center_of_mass`), written on device-generic
//! array operations (`bincount`, `scatter_min`/`scatter_max`, `take`), so they run where the
//! input lives.
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

/// The region of each element as a slot in `0..m + 2` (the labels asked for are `0..m`; slot `m`
/// holds every other element, slot `m + 1` stays empty for negative labels asked for), the slots
/// the results come from, and whether the result is 0-d.
struct Groups {
    slot: Array,
    bins: usize,
    pick: Array,
    scalar: bool,
}

fn groups(input: &Array, labels: Option<&Array>, index: LabelIndex) -> Result<Groups> {
    let dev = input.device();
    let lab = match labels {
        Some(l) => {
            if l.device() != dev {
                return Err(Error::DeviceMismatch { op: "ndimage measurement", lhs: dev, rhs: l.device() });
            }
            if !l.dtype().is_integer() && l.dtype() != DType::Bool {
                return Err(Error::InvalidDType { op: "ndimage measurement", dtype: l.dtype() });
            }
            l.broadcast_to(input.shape())?.astype(DType::I64)?.ravel()?
        }
        None => crate::on(dev).ones(&[input.size()], DType::I64)?,
    };
    let (wanted, scalar): (Vec<i64>, bool) = match index {
        LabelIndex::Positive => (vec![1], true),
        LabelIndex::One(i) => (vec![i], true),
        LabelIndex::Many(v) => (v.to_vec(), false),
    };
    let lab = if index == LabelIndex::Positive { lab.gt(0)?.astype(DType::I64)? } else { lab };
    let m = wanted.iter().copied().max().unwrap_or(-1).max(-1) + 1;
    let m = m as usize;
    // labels outside 0..m (negative, or not asked for) fall into the extra slot m
    let inside = lab.ge(0)?.logical_and(&lab.lt(m as i64)?)?;
    let slot = crate::where_(&inside, &lab, m as i64)?.astype(DType::I64)?;
    // a negative label asked for reports slot m + 1, which stays empty
    let pick: Vec<i64> = wanted.iter().map(|&w| if w >= 0 { w } else { m as i64 + 1 }).collect();
    let pick = crate::on(dev).asarray(pick, &[wanted.len()])?;
    Ok(Groups { slot, bins: m + 2, pick, scalar })
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
    fn counts(&self) -> Result<Array> {
        crate::bincount(&self.slot, None, self.bins)?.take(&self.pick, 0)?.astype(DType::F64)
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
    let g = groups(input, labels, index)?;
    g.shape(g.sums(&flat_f64(input)?)?.div(&g.counts()?)?)
}

/// The population variance of `input` over each region (SciPy's `variance`), float64; two
/// passes (the region's mean first), as SciPy.
pub fn variance(input: &Array, labels: Option<&Array>, index: LabelIndex) -> Result<Array> {
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
    let acc = crate::full_like(&crate::on(input.device()).zeros(&[g.bins], DType::F64)?, start)?;
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
