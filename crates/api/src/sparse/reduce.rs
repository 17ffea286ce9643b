//! `max`, `min` and `mean` of a sparse array over everything or along an axis, absent entries
//! counting as zeros (SciPy's default, `explicit=False`). Along an axis the result is a dense 1-D
//! array (SciPy's sparse arrays give a 1-D COO array there; xp has no 1-D sparse array yet).
use super::compressed::Compressed;
use super::keys::expand;
use super::Sparse;
use crate::ufunc::BinaryUfunc;
use crate::{get_array_module, Array};
use xp_core::{BinaryOp, DType, Error, Result, SliceElem};

/// Which extreme.
#[derive(Clone, Copy)]
pub(crate) enum Extreme {
    Max,
    Min,
}

/// Each major line's first offset and stored count (int64).
struct Lines {
    starts: Array,
    counts: Array,
}

fn lines(c: &Compressed) -> Result<Lines> {
    let ptr = c.indptr.cast_if(DType::I64)?;
    let cut = |r: std::ops::Range<isize>| ptr.slice([SliceElem::from(r)]);
    let starts = cut(0..c.dims[0] as isize)?;
    let counts = cut(1..c.dims[0] as isize + 1)?.sub(&starts)?;
    Ok(Lines { starts, counts })
}

/// The extreme of each major line's stored values (zero for an empty line); `c` holds some.
fn stored_extreme(c: &Compressed, l: &Lines, e: Extreme) -> Result<Array> {
    let op = match e {
        Extreme::Max => xp_core::BinaryOp::Max,
        Extreme::Min => xp_core::BinaryOp::Min,
    };
    if let Some(r) = super::seam::reduce_lines(c, op)? {
        return Ok(r);
    }
    let zero = get_array_module(&c.data).zeros([c.dims[0]], c.data.dtype())?;
    // start from each line's first stored value (zero for an empty line), then fold in the rest
    let first = xp_core::Scalar::Int(c.data.size() as i64 - 1);
    let init = crate::where_(&l.counts.gt(0)?, &c.data.take(&l.starts.clip(Some(0), Some(first))?, 0)?, &zero)?
        .cast_if(c.data.dtype())?;
    let rows = expand(&c.indptr, c.data.size())?;
    match e {
        Extreme::Max => crate::scatter_max(&init, &rows, &c.data)?,
        Extreme::Min => crate::scatter_min(&init, &rows, &c.data)?,
    }
    Ok(init)
}

/// The extreme of each major line of `c` (zeros counted where a line has fewer stored values
/// than its length, unless `explicit`; an empty line gives zero).
fn line_extreme(c: &Compressed, e: Extreme, explicit: bool) -> Result<Array> {
    let [lines_n, len] = c.dims;
    let zero = get_array_module(&c.data).zeros([lines_n], c.data.dtype())?;
    if c.data.size() == 0 {
        return Ok(zero);
    }
    let l = lines(c)?;
    let init = stored_extreme(c, &l, e)?;
    if explicit {
        return Ok(init);
    }
    let counts = l.counts;
    let with_zero = match e {
        Extreme::Max => init.maximum(&zero)?,
        Extreme::Min => init.minimum(&zero)?,
    };
    crate::where_(&counts.lt(len as i64)?, &with_zero, &init)?.cast_if(c.data.dtype())
}

/// `f` over the lines `axis` names of `a`'s canonical form: the whole array as one line of its
/// flat (row-major) positions (`None`; the result made 0-d), its rows (`Some(1)`) or its columns
/// (`Some(0)`). An empty array, or an axis of length zero, is an error (SciPy's too).
fn along<A: Sparse + ?Sized>(
    a: &A,
    axis: Option<usize>,
    op: &'static str,
    f: impl Fn(&Compressed) -> Result<Array>,
) -> Result<Array> {
    let [m, n] = a.shape();
    match axis {
        Some(ax) if ax > 1 => return Err(Error::AxisOutOfRange { op, axis: ax as isize, ndim: 2 }),
        Some(ax) if a.shape()[ax] == 0 => return Err(Error::EmptyReduction { op }),
        None if m * n == 0 => return Err(Error::EmptyReduction { op }),
        _ => {}
    }
    let csr = a.canonical_csr()?;
    match axis {
        None => {
            let coo = csr.tocoo()?;
            let keys = coo.row().cast_if(DType::I64)?.mul(n as i64)?.add(&coo.col().cast_if(DType::I64)?)?;
            let indptr = Array::from_vec(vec![0i64, keys.size() as i64], [2])?.to_device(csr.device())?;
            f(&Compressed { dims: [1, m * n], indices: keys, indptr, ..csr.0.clone() })?.reshape([0usize; 0])
        }
        Some(1) => f(&csr.0),
        _ => f(&csr.tocsc()?.0),
    }
}

/// The minor index of each major line's first extreme (int64) in the canonical `c`: among the
/// stored values only (`explicit`, 0 for an empty line), or counting the absent ones as zeros.
fn line_argextreme(c: &Compressed, e: Extreme, explicit: bool) -> Result<Array> {
    let [n, len] = c.dims;
    let mods = get_array_module(&c.data);
    if c.data.size() == 0 {
        return mods.zeros([n], DType::I64);
    }
    let l = lines(c)?;
    let ext = stored_extreme(c, &l, e)?;
    let rows = expand(&c.indptr, c.data.size())?;
    let minor = c.indices.cast_if(DType::I64)?;
    let len_i = len as i64;
    // the first stored position holding the line's extreme (NaN: the first NaN, as NumPy's)
    let at = ext.take(&rows, 0)?;
    let hit = c.data.eq(&at)?.logical_or(&c.data.isnan()?.logical_and(&at.isnan()?)?)?;
    let first_hit = mods.full([n], len_i, DType::I64)?;
    crate::scatter_min(&first_hit, &rows, &crate::where_(&hit, &minor, len_i)?)?;
    let empty = l.counts.eq(0)?;
    if explicit {
        return crate::where_(&empty, 0i64, &first_hit);
    }
    // the first absent position: where a stored index leaves its place in 0, 1, 2, …, or the
    // end of the run of stored values
    let place = mods.arange(0i64, c.data.size() as i64, 1i64, Some(DType::I64))?.sub(&l.starts.take(&rows, 0)?)?;
    let missing = l.counts.copy()?;
    crate::scatter_min(&missing, &rows, &crate::where_(&minor.ne(&place)?, &place, len_i)?)?;
    let beats_zero = match e {
        Extreme::Max => ext.gt(0)?,
        Extreme::Min => ext.lt(0)?,
    };
    let stored_wins = beats_zero.logical_or(&l.counts.eq(len_i)?)?.logical_or(&ext.isnan()?)?;
    let tie = crate::where_(&ext.eq(0)?, &missing.minimum(&first_hit)?, &missing)?;
    let r = crate::where_(&stored_wins, &first_hit, &tie)?;
    crate::where_(&empty, 0i64, &r)
}

/// [`Sparse::max`] and [`Sparse::min`], or with `arg` [`Sparse::argmax`] and
/// [`Sparse::argmin`].
pub(crate) fn extreme<A: Sparse + ?Sized>(
    a: &A,
    axis: Option<usize>,
    e: Extreme,
    explicit: bool,
    arg: bool,
    op: &'static str,
) -> Result<Array> {
    along(a, axis, op, |c| {
        if !arg {
            return line_extreme(c, e, explicit);
        }
        if explicit && axis.is_none() && c.data.size() == 0 {
            return Err(Error::invalid(op, "cannot take it over a zero array when explicit is set"));
        }
        line_argextreme(c, e, explicit)
    })
}

/// [`Sparse::mean`].
pub(crate) fn mean<A: Sparse + ?Sized>(a: &A, axis: Option<usize>) -> Result<Array> {
    let [m, n] = a.shape();
    let csr = a.canonical_csr()?;
    let s = match axis {
        None | Some(0) | Some(1) => csr.sum(axis)?,
        Some(ax) => return Err(Error::AxisOutOfRange { op: "mean", axis: ax as isize, ndim: 2 }),
    };
    let count = match axis {
        None => m * n,
        Some(0) => m,
        _ => n,
    };
    let s = if matches!(s.dtype().kind(), xp_core::Kind::Bool | xp_core::Kind::Int | xp_core::Kind::Uint) {
        s.astype(DType::F64)?
    } else {
        s
    };
    BinaryOp::Div.call(&s, count as f64)
}
