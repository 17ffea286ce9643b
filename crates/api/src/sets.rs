//! Unique elements and set operations (NumPy's `unique` and the Array API's `unique_*`, `isin`,
//! `intersect1d`, `union1d`, `setdiff1d`, `setxor1d`), written once on top of the stable sort,
//! compaction and searches, so they run on every backend. Each waits once per compaction for the
//! size of its result.
//!
//! ```
//! let a = xp::Array::from_vec(vec![3i32, 1, 3, 2, 1], &[5]).unwrap();
//! let u = xp::unique_all(&a).unwrap();
//! assert_eq!(u.values.to_vec::<i32>().unwrap(), vec![1, 2, 3]);
//! assert_eq!(u.counts.unwrap().to_vec::<i64>().unwrap(), vec![2, 1, 2]);
//! assert_eq!(u.indices.unwrap().to_vec::<i64>().unwrap(), vec![1, 3, 0]);
//! assert_eq!(u.inverse.unwrap().to_vec::<i64>().unwrap(), vec![2, 0, 2, 1, 0]);
//! ```
use crate::axes::IntoAxes;
use crate::{concatenate, lexsort, searchsorted, Array};
use xp_core::{normalize_axis, DType, IndexMode, Result, Side, SliceElem};

/// What [`unique`] returns besides the values (NumPy's `return_index`, `return_inverse`,
/// `return_counts`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UniqueOptions {
    /// the position of each unique value's first occurrence
    pub index: bool,
    /// for each input element, the position of its value among the unique values
    pub inverse: bool,
    /// how often each unique value occurs
    pub counts: bool,
}

impl UniqueOptions {
    /// Every optional output.
    pub const ALL: UniqueOptions = UniqueOptions { index: true, inverse: true, counts: true };
}

/// The result of [`unique`]: the sorted unique values and the outputs asked for (int64).
#[derive(Clone, Debug)]
pub struct Unique {
    /// the sorted unique values (rows of the axis, with `axis`)
    pub values: Array,
    /// first occurrences
    pub indices: Option<Array>,
    /// positions into `values` that rebuild the input (the input's shape without `axis`)
    pub inverse: Option<Array>,
    /// occurrences of each value
    pub counts: Option<Array>,
}

fn range(a: &Array, r: std::ops::Range<isize>) -> Result<Array> {
    a.slice([SliceElem::from(r)])
}

/// True where a sorted line starts a new value: the first element, and each element unequal to
/// the one before (NaNs count as equal to each other, as NumPy's `equal_nan=True`).
fn starts(sorted: &Array) -> Result<Array> {
    let n = sorted.shape()[0] as isize;
    let (cur, prev) = (range(sorted, 1..n)?, range(sorted, 0..n - 1)?);
    let mut ne = cur.not_equal(&prev)?;
    if sorted.ndim() > 1 {
        ne = ne.any((1..sorted.ndim() as isize).collect::<Vec<_>>())?;
    } else if sorted.dtype().is_float() || sorted.dtype().is_complex() {
        ne = ne.logical_and(&cur.isnan()?.logical_and(&prev.isnan()?)?.logical_not()?)?;
    }
    let one = crate::on(sorted.device()).full([1], true, DType::Bool)?;
    concatenate(&[&one, &ne], 0)
}

/// NumPy's `unique(a, return_index, return_inverse, return_counts, axis)`: the sorted unique
/// values of the flattened array (`..`) or the unique slices along `axis`.
pub fn unique(a: &Array, opts: UniqueOptions, axis: impl IntoAxes) -> Result<Unique> {
    let axis = axis.into_axes().single("unique")?;
    let (rows, shape_back) = match axis {
        None => (a.ravel()?, None),
        Some(ax) => {
            let ax = normalize_axis("unique", ax, a.ndim())?;
            let m = a.moveaxis(ax as isize, 0)?;
            let rest: Vec<usize> = m.shape()[1..].to_vec();
            let n = m.shape()[0];
            (m.reshape_exact(&[n, rest.iter().product()])?, Some((ax, rest)))
        }
    };
    let n = rows.shape()[0];
    let need_perm = opts.index || opts.inverse || rows.ndim() > 1;
    let (sorted, perm) = if n == 0 {
        (rows.clone(), Some(crate::on(a.device()).zeros([0], DType::I64)?))
    } else if rows.ndim() > 1 {
        let cols: Vec<Array> = (0..rows.shape()[1] as isize)
            .rev()
            .map(|c| rows.slice([SliceElem::FULL, SliceElem::Index(c)]))
            .collect::<Result<_>>()?;
        let perm = if cols.is_empty() {
            crate::on(a.device()).arange(0, n as i64, 1, None)?
        } else {
            lexsort(&cols.iter().collect::<Vec<_>>())?
        };
        (rows.take(&perm, 0)?, Some(perm))
    } else if need_perm {
        let perm = rows.argsort(0)?;
        (rows.take(&perm, 0)?, Some(perm))
    } else {
        (rows.sort(0)?, None)
    };
    let flags = if n == 0 { crate::on(a.device()).zeros([0], DType::Bool)? } else { starts(&sorted)? };
    let mut values = sorted.compress_at(&sorted.layout.clone(), 0, &flags)?;
    if let Some((ax, rest)) = &shape_back {
        let mut s = vec![values.shape()[0]];
        s.extend_from_slice(rest);
        values = values.reshape_exact(&s)?.moveaxis(0, *ax as isize)?.copy()?;
    }
    // The start of each run, found once for the first indices and the counts (positions that
    // are in range by construction: gathered and scattered without the check's wait).
    let first = if opts.index || opts.counts { Some(crate::flatnonzero(&flags)?) } else { None };
    let indices = match (&perm, &first, opts.index) {
        (Some(p), Some(f), true) => Some(p.take_mode(f, 0, IndexMode::Wrap)?),
        _ => None,
    };
    let inverse = if opts.inverse {
        let p = perm.as_ref().expect("sorted with a permutation");
        let cs = flags.cumsum(0)?.sub(1)?;
        let inv = crate::on(a.device()).zeros([n], DType::I64)?;
        inv.put(p, &cs, IndexMode::Wrap)?;
        Some(if shape_back.is_none() { inv.reshape_exact(a.shape())? } else { inv })
    } else {
        None
    };
    let counts = if let (Some(first), true) = (&first, opts.counts) {
        let end = crate::on(a.device()).full([1], n as i64, DType::I64)?;
        let m = first.size() as isize;
        let next = concatenate(&[&range(first, 1..m)?, &end], 0)?;
        Some(next.sub(first)?)
    } else {
        None
    };
    Ok(Unique { values, indices, inverse, counts })
}

/// The Array API's `unique_values(x)`: the sorted unique values.
pub fn unique_values(a: &Array) -> Result<Array> {
    Ok(unique(a, UniqueOptions::default(), ..)?.values)
}
/// The Array API's `unique_counts(x)`: values and counts.
pub fn unique_counts(a: &Array) -> Result<Unique> {
    unique(a, UniqueOptions { counts: true, ..Default::default() }, ..)
}
/// The Array API's `unique_inverse(x)`: values and the inverse (shaped like `x`).
pub fn unique_inverse(a: &Array) -> Result<Unique> {
    unique(a, UniqueOptions { inverse: true, ..Default::default() }, ..)
}
/// The Array API's `unique_all(x)`: values, first indices, inverse and counts.
pub fn unique_all(a: &Array) -> Result<Unique> {
    unique(a, UniqueOptions::ALL, ..)
}

/// NumPy's `isin(element, test_elements)`: for each element, whether it occurs among the test
/// elements (shape of `element`; NaN is never found, as NumPy).
pub fn isin(element: &Array, test: &Array) -> Result<Array> {
    let dtype = xp_core::promote_types(element.dtype(), test.dtype());
    if test.size() == 0 {
        return crate::on(element.device()).zeros(element.shape(), DType::Bool);
    }
    if dtype.is_integer()
        && dtype != DType::U64
        && let Some(r) = isin_table(&element.cast_if(dtype)?, &test.ravel()?.cast_if(dtype)?)?
    {
        return Ok(r);
    }
    let t = test.ravel()?.cast_if(dtype)?.sort(0)?;
    let e = element.cast_if(dtype)?;
    let pos = searchsorted(&t, &e, Side::Left, None)?.clip(None::<i64>, Some(t.size() as i64 - 1))?;
    t.take(&pos, 0)?.equal(&e)
}

/// NumPy's table method of `isin` for integers whose test values span a small range (NumPy's
/// rule: at most six times the two sizes): a boolean table over `min(test) ..= max(test)`, marked
/// by a scatter and read by a gather (the sort and search of the general path cost ten times
/// NumPy's time on the host). None when the range is too wide.
fn isin_table(e: &Array, t: &Array) -> Result<Option<Array>> {
    let ends = crate::stack(&[&t.min(..)?, &t.max(..)?], 0)?.astype(DType::I64)?.to_vec::<i64>()?;
    let (lo, hi) = (ends[0], ends[1]);
    let range = hi as i128 - lo as i128;
    if range > 6 * (e.size() + t.size()) as i128 {
        return Ok(None);
    }
    let table = crate::on(e.device()).zeros([range as usize + 1], DType::Bool)?;
    table.put(&t.astype(DType::I64)?.sub(lo)?, 1, xp_core::IndexMode::Wrap)?;
    // values outside the range wrap in the subtraction or are clipped; the range mask drops them
    let idx = e.astype(DType::I64)?.sub(lo)?.clip(Some(0), Some(range as i64))?;
    let inside = e.ge(lo)?.logical_and(&e.le(hi)?)?;
    table.take(&idx, ..)?.logical_and(&inside).map(Some)
}

/// NumPy's `intersect1d(a, b)`: the sorted unique values in both.
pub fn intersect1d(a: &Array, b: &Array) -> Result<Array> {
    let aux = concatenate(&[&unique_values(a)?, &unique_values(b)?], 0)?.sort(0)?;
    let n = aux.size() as isize;
    if n < 2 {
        return range(&aux, 0..0);
    }
    let (head, tail) = (range(&aux, 0..n - 1)?, range(&aux, 1..n)?);
    let m = tail.equal(&head)?;
    head.compress_at(&head.layout.clone(), 0, &m)
}

/// NumPy's `union1d(a, b)`: the sorted unique values in either.
pub fn union1d(a: &Array, b: &Array) -> Result<Array> {
    unique_values(&concatenate(&[&a.ravel()?, &b.ravel()?], 0)?)
}

/// NumPy's `setdiff1d(a, b)`: the sorted unique values of `a` not in `b`.
pub fn setdiff1d(a: &Array, b: &Array) -> Result<Array> {
    let ua = unique_values(a)?;
    let keep = isin(&ua, b)?.logical_not()?;
    ua.compress_at(&ua.layout.clone(), 0, &keep)
}

/// NumPy's `setxor1d(a, b)`: the sorted unique values in exactly one of them.
pub fn setxor1d(a: &Array, b: &Array) -> Result<Array> {
    let aux = concatenate(&[&unique_values(a)?, &unique_values(b)?], 0)?.sort(0)?;
    let n = aux.size() as isize;
    if n == 0 {
        return Ok(aux);
    }
    let t = crate::on(a.device()).full([1], true, DType::Bool)?;
    let ne = range(&aux, 1..n)?.not_equal(&range(&aux, 0..n - 1)?)?;
    let flag = concatenate(&[&t, &ne, &t], 0)?;
    let keep = range(&flag, 0..n)?.logical_and(&range(&flag, 1..n + 1)?)?;
    aux.compress_at(&aux.layout.clone(), 0, &keep)
}
