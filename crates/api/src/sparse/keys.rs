//! The device-side steps every format shares, written over xp's sorting, searching and scatter
//! families so that they run wherever the arrays live: putting coordinates in (major, minor)
//! order and summing duplicates, and turning sorted major coordinates into offsets and back.
use crate::{get_array_module, Array};
use xp_core::{DType, Error, Result, Side, SliceElem};

/// Coordinates and values in one compressed order: `major` ascending, `minor` ascending within a
/// major line.
pub(crate) struct Sorted {
    pub(crate) major: Array,
    pub(crate) minor: Array,
    pub(crate) data: Array,
}

/// The span of the combined int64 key `major · minor_len + minor` of a `major_len × minor_len`
/// array, or a typed error where the key would not fit in int64.
pub(crate) fn key_span(op: &'static str, major_len: usize, minor_len: usize) -> Result<i64> {
    let span = minor_len.max(1);
    match (major_len as u128).checked_mul(span as u128) {
        Some(t) if t <= i64::MAX as u128 => Ok(span as i64),
        _ => Err(Error::invalid(op, format!("a {major_len} x {minor_len} array has more positions than int64 counts"))),
    }
}

/// `(major, minor, data)` put in (major, minor) order; with `sum`, entries at one position are
/// added into one (SciPy's `sum_duplicates`: the sum keeps an explicit zero). Index arrays come
/// back as int64.
pub(crate) fn sort_coords(major: &Array, minor: &Array, data: &Array, dims: [usize; 2], sum: bool) -> Result<Sorted> {
    let op = "sparse";
    let n = data.size();
    let (ma, mi) = (major.cast_if(DType::I64)?, minor.cast_if(DType::I64)?);
    if n == 0 {
        return Ok(Sorted { major: ma, minor: mi, data: data.copy()? });
    }
    // one int64 key per position: major · minor_len + minor
    let span = key_span(op, dims[0], dims[1])?;
    let key = ma.mul(span)?.add(&mi)?;
    let perm = key.argsort(0)?;
    // the coordinates gathered through the permutation (cheaper than dividing the keys back)
    let (key, data) = (key.take(&perm, 0)?, data.take(&perm, 0)?);
    let (ma, mi) = (ma.take(&perm, 0)?, mi.take(&perm, 0)?);
    if !sum {
        return Ok(Sorted { major: ma, minor: mi, data });
    }
    // the first of each run of equal keys starts a group; values are added into their group
    let head = get_array_module(&key).full([1], true, DType::Bool)?;
    let first = if n == 1 {
        head
    } else {
        let step = key.slice([SliceElem::from(1..)])?.ne(&key.slice([SliceElem::from(..n as isize - 1)])?)?;
        crate::concatenate(&[&head, &step], 0)?
    };
    let (ma, mi) = (crate::compress(&first, &ma, 0)?, crate::compress(&first, &mi, 0)?);
    let m = ma.size();
    if m == n {
        return Ok(Sorted { major: ma, minor: mi, data });
    }
    let group = first.cast_if(DType::I64)?.cumsum(0)?.sub(1)?;
    let sums = get_array_module(&data).zeros([m], data.dtype())?;
    crate::scatter_add(&sums, &group, &data)?;
    Ok(Sorted { major: ma, minor: mi, data: sums })
}

/// The offsets (`len + 1`, dtype `ix`) of the sorted major coordinates `major` (int64).
pub(crate) fn offsets(major: &Array, len: usize, ix: DType) -> Result<Array> {
    let mods = get_array_module(major);
    let bounds = mods.arange(0i64, len as i64 + 1, 1i64, Some(DType::I64))?;
    if major.size() == 0 {
        return mods.zeros([len + 1], ix);
    }
    crate::searchsorted(major, &bounds, Side::Left, None)?.cast_if(ix)
}

/// The major coordinate (int64) of each of the `nnz` stored values of offsets `ptr`.
pub(crate) fn expand(ptr: &Array, nnz: usize) -> Result<Array> {
    let mods = get_array_module(ptr);
    if nnz == 0 {
        return mods.zeros([0], DType::I64);
    }
    let pos = mods.arange(0i64, nnz as i64, 1i64, Some(DType::I64))?;
    let ends = ptr.slice([SliceElem::from(1..)])?.cast_if(DType::I64)?;
    crate::searchsorted(&ends, &pos, Side::Right, None)
}

/// A backend's whole new storage as a 1-D array.
pub(crate) fn whole(s: crate::backend::Storage) -> Array {
    let n = s.len();
    Array::from_storage(s, &[n])
}

/// The arrays joined end to end (at least one).
pub(crate) fn cat(parts: &[Array]) -> Result<Array> {
    crate::concatenate(&parts.iter().collect::<Vec<_>>(), 0)
}

/// Where diagonal `k` of an `m × n` array starts (row, column) and how long it is.
pub(crate) fn diag_span(k: isize, [m, n]: [usize; 2]) -> (usize, usize, usize) {
    let (r0, c0) = if k >= 0 { (0, k as usize) } else { (k.unsigned_abs(), 0) };
    let len = if r0 >= m || c0 >= n { 0 } else { (m - r0).min(n - c0) };
    (r0, c0, len)
}
