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

/// The extreme of each major line of `c` (zeros counted where a line has fewer stored values
/// than its length).
fn line_extreme(c: &Compressed, e: Extreme) -> Result<Array> {
    let [lines, len] = c.dims;
    let mods = get_array_module(&c.data);
    let nnz = c.data.size();
    let ptr = c.indptr.cast_if(DType::I64)?;
    let cut = |r: std::ops::Range<isize>| ptr.slice([SliceElem::from(r)]);
    let starts = cut(0..lines as isize)?;
    let counts = cut(1..lines as isize + 1)?.sub(&starts)?;
    let zero = mods.zeros([lines], c.data.dtype())?;
    if nnz == 0 {
        return Ok(zero);
    }
    // start from each line's first stored value (zero for an empty line), then fold in the rest
    let first = xp_core::Scalar::Int(nnz as i64 - 1);
    let init = crate::where_(&counts.gt(0)?, &c.data.take(&starts.clip(Some(0), Some(first))?, 0)?, &zero)?
        .cast_if(c.data.dtype())?;
    let rows = expand(&c.indptr, nnz)?;
    match e {
        Extreme::Max => crate::scatter_max(&init, &rows, &c.data)?,
        Extreme::Min => crate::scatter_min(&init, &rows, &c.data)?,
    }
    let with_zero = match e {
        Extreme::Max => init.maximum(&zero)?,
        Extreme::Min => init.minimum(&zero)?,
    };
    crate::where_(&counts.lt(len as i64)?, &with_zero, &init)?.cast_if(c.data.dtype())
}

/// [`Sparse::max`] and [`Sparse::min`].
pub(crate) fn extreme<A: Sparse + ?Sized>(a: &A, axis: Option<usize>, e: Extreme, op: &'static str) -> Result<Array> {
    let [m, n] = a.shape();
    let csr = a.canonical_csr()?;
    match axis {
        None => {
            if m * n == 0 {
                return Err(Error::EmptyReduction { op });
            }
            let whole = Compressed { dims: [1, m * n], ..flat(&csr.0)? };
            line_extreme(&whole, e)?.reshape([0usize; 0])
        }
        Some(1) => line_extreme(&csr.0, e),
        Some(0) => line_extreme(&csr.tocsc()?.0, e),
        Some(ax) => Err(Error::AxisOutOfRange { op, axis: ax as isize, ndim: 2 }),
    }
}

/// The array as one line of `m · n` values (offsets of one line; column indices made flat).
fn flat(c: &Compressed) -> Result<Compressed> {
    let nnz = c.data.size() as i64;
    let indptr = Array::from_vec(vec![0i64, nnz], [2])?.to_device(c.data.device())?;
    Ok(Compressed { indptr, ..c.clone() })
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
