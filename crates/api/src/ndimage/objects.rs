//! SciPy's `ndimage.find_objects`: the bounding box of every label, found on the device (one
//! `scatter_min`/`scatter_max` of the coordinates per axis, a `bincount` for the labels present)
//! and read back as host ranges.
//!
//! ```
//! use xp::ndimage::{find_objects, label};
//! let img = xp::Array::from_vec(vec![1, 1, 0, 0, 0, 0, 0, 1, 1], &[3, 3]).unwrap();
//! let lab = label(&img, None).unwrap().labels; // [[1, 1, 0], [0, 0, 0], [0, 2, 2]]
//! let boxes = find_objects(&lab, None).unwrap();
//! assert_eq!(boxes, vec![Some(vec![0..1, 0..2]), Some(vec![2..3, 1..3])]);
//! ```
use crate::Array;
use std::ops::Range;
use xp_core::{DType, Error, Result, Scalar};

/// SciPy's `find_objects(input, max_label)`: for each label `1..=max_label`, the ranges along
/// every axis of the smallest box holding all its elements (SciPy's tuple of slices), `None` for
/// a label absent from `input`. `labels` is integer (SciPy refuses floats and bool); labels below 1 or above
/// `max_label` are ignored. `max_label` `None` (or `Some(0)`, as SciPy's `0`) is the largest
/// label of `labels`, and then an empty `labels` is an error as SciPy's `max` of no values.
///
/// ```
/// use xp::ndimage::find_objects;
/// let lab = xp::Array::from_vec(vec![0, 2, 2, 0, 0, 2, 0, 0, 0], &[3, 3]).unwrap();
/// // label 1 is absent, label 3 beyond the largest
/// let boxes = find_objects(&lab, Some(3)).unwrap();
/// assert_eq!(boxes, vec![None, Some(vec![0..2, 1..3]), None]);
/// ```
pub fn find_objects(labels: &Array, max_label: Option<usize>) -> Result<Vec<Option<Vec<Range<usize>>>>> {
    let op = "find_objects";
    if !labels.dtype().is_integer() {
        return Err(Error::InvalidDType { op, dtype: labels.dtype() });
    }
    let lab = labels.astype(DType::I64)?.ravel()?;
    let m = match max_label {
        Some(m) if m > 0 => m,
        _ => {
            if lab.size() == 0 {
                return Err(Error::EmptyReduction { op });
            }
            lab.max(..)?.item::<i64>()?.max(0) as usize
        }
    };
    if m == 0 {
        return Ok(vec![]);
    }
    let on = crate::on(labels.device());
    // labels 1..=m in slots 0..m, everything else in slot m
    let inside = lab.ge(1)?.logical_and(&lab.le(m as i64)?)?;
    let slot = crate::where_(&inside, &lab.sub(1)?, m as i64)?;
    let mut parts = vec![crate::bincount(&slot, None, m + 1)?];
    let shape = labels.shape();
    let big = Scalar::Int(i64::MAX);
    for (a, &n) in shape.iter().enumerate() {
        let mut s = vec![1; shape.len()];
        s[a] = n;
        let c = on.arange(0, n as i64, 1, None)?.reshape_exact(&s)?.broadcast_to(shape)?.ravel()?;
        let lo = on.full([m + 1], big, DType::I64)?;
        let hi = on.full([m + 1], -1, DType::I64)?;
        crate::scatter_min(&lo, &slot, &c)?;
        crate::scatter_max(&hi, &slot, &c)?;
        parts.push(lo);
        parts.push(hi);
    }
    let all = crate::stack(&parts.iter().collect::<Vec<_>>(), 0)?.to_vec::<i64>()?;
    let at = |row: usize, k: usize| all[row * (m + 1) + k];
    Ok((0..m)
        .map(|k| {
            (at(0, k) > 0)
                .then(|| (0..shape.len()).map(|a| at(1 + 2 * a, k) as usize..at(2 + 2 * a, k) as usize + 1).collect())
        })
        .collect())
}
