//! Assignment into a sparse array (SciPy's `A[rows, cols] = values`), as a new array of the same
//! format: every target position takes its value (the last one where a position repeats, as
//! NumPy's assignment), stored even where it is zero (as SciPy stores it); the other stored
//! values stay. Composed from sorts and searches, so it runs on every device.
//!
//! ```
//! use xp::sparse::{CsrArray, Sparse};
//! let a = CsrArray::from_dense(&xp::Array::from_vec(vec![1.0f64, 0.0, 2.0, 0.0, 0.0, 3.0], &[2, 3]).unwrap()).unwrap();
//! let rows = xp::Array::from_vec(vec![0i64, 0, -1], &[3]).unwrap();
//! let cols = xp::Array::from_vec(vec![1i64, 1, 0], &[3]).unwrap();
//! let vals = xp::Array::from_vec(vec![5.0f64, 6.0, 7.0], &[3]).unwrap();
//! let b = a.assign(&rows, &cols, &vals).unwrap();
//! assert_eq!(b.nnz(), 5);
//! assert_eq!(b.toarray().unwrap().to_vec::<f64>().unwrap(), vec![1.0, 6.0, 2.0, 7.0, 0.0, 3.0]);
//! ```
use super::index::checked;
use super::keys::cat;
use super::{index_dtype_for, CooArray, Format, Sparse, SparseArray};
use crate::Array;
use xp_core::{DType, Error, Result, Side, SliceElem};

/// The targets' length: `rows` and `cols` (1-D) and `values` (0-d or 1-D) broadcast together.
fn target_len(rows: &Array, cols: &Array, values: &Array) -> Result<usize> {
    let op = "assign";
    if rows.ndim() != 1 || cols.ndim() != 1 || values.ndim() > 1 {
        return Err(Error::invalid(op, "rows and cols must be 1-D, values 0-D or 1-D"));
    }
    let lens = [rows.size(), cols.size(), if values.ndim() == 0 { 1 } else { values.size() }];
    let n = *lens.iter().max().unwrap_or(&0);
    if lens.iter().any(|&l| l != n && l != 1) {
        return Err(Error::invalid(op, format!("rows, cols and values of lengths {lens:?} do not broadcast")));
    }
    Ok(n)
}

pub(crate) fn assign(a: &dyn Sparse, rows: &Array, cols: &Array, values: &Array) -> Result<SparseArray> {
    if a.format() == Format::Dia {
        // (SciPy's dia_array does not support item assignment either)
        return Err(Error::invalid("assign", "a DIA array takes no assignment: convert it (tocsr) first"));
    }
    let shape = a.shape();
    let len = target_len(rows, cols, values)?;
    let spread = |x: &Array| {
        if x.size() == len && x.ndim() == 1 {
            Ok(x.clone())
        } else {
            x.reshape(&[x.size()][..])?.broadcast_to(&[len][..])
        }
    };
    let (r, c) = (checked(&spread(rows)?, shape[0], 0)?, checked(&spread(cols)?, shape[1], 1)?);
    let v = spread(values)?.astype(a.dtype())?;
    let csr = a.canonical_csr()?;
    if len == 0 {
        return Ok(SparseArray::Csr(csr)).and_then(|s| s.asformat(a.format()));
    }
    let n = shape[1] as i64;
    // the targets by position, the last of each repeated position kept (a stable sort)
    let keys = r.mul(n)?.add(&c)?;
    let order = crate::argsort(&keys, 0)?;
    let (sk, sv) = (keys.take(&order, 0)?, v.take(&order, 0)?);
    let last = if len > 1 {
        let next = sk.slice([SliceElem::from(1..)])?;
        let body = sk.slice([SliceElem::from(..len as isize - 1)])?.ne(&next)?;
        crate::concatenate(&[&body, &crate::get_array_module(&sk).ones([1], DType::Bool)?], 0)?
    } else {
        crate::get_array_module(&sk).ones([1], DType::Bool)?
    };
    let (tk, tv) = (crate::compress(&last, &sk, 0)?, crate::compress(&last, &sv, 0)?);
    // the stored values at no target position stay
    let coo = csr.tocoo()?;
    let (ar, ac) = (coo.row().cast_if(DType::I64)?, coo.col().cast_if(DType::I64)?);
    let ak = ar.mul(n)?.add(&ac)?;
    let at = crate::searchsorted(&tk, &ak, Side::Left, None)?;
    let top = xp_core::Scalar::Int(tk.size() as i64 - 1);
    let found = tk.take(&at.clip(Some(xp_core::Scalar::Int(0)), Some(top))?, 0)?.eq(&ak)?;
    let stay = found.logical_not()?;
    let keep = |x: &Array| crate::compress(&stay, x, 0);
    let rows = cat(&[keep(&ar)?, tk.floor_divide(n)?])?;
    let cols = cat(&[keep(&ac)?, tk.remainder(n)?])?;
    let ix = index_dtype_for(&[coo.row().dtype()], shape[0].max(shape[1]));
    let out = CooArray::from_parts(cat(&[keep(coo.data())?, tv])?, rows, cols, shape, false, ix)?;
    Ok(match a.format() {
        Format::Csr => SparseArray::Csr(out.tocsr()?),
        Format::Csc => SparseArray::Csc(out.tocsc()?),
        Format::Bsr => super::arith::like(a, out.tocsr()?)?,
        Format::Coo | Format::Dia => SparseArray::Coo(out.sum_duplicates()?),
    })
}
