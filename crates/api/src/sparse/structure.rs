//! Structure: diagonals and traces, triangles, `find`, and new arrays from blocks (`hstack`,
//! `vstack`, `block_diag`) and products of structure (`kron`), all over the coordinates of the
//! operands' canonical forms, so they run on every device.
//!
//! ```
//! use xp::sparse::{self, CsrArray, Sparse};
//! let a = CsrArray::from_dense(&xp::Array::from_vec(vec![1.0f64, 2.0, 0.0, 3.0], &[2, 2]).unwrap()).unwrap();
//! assert_eq!(a.diagonal(0).unwrap().to_vec::<f64>().unwrap(), vec![1.0, 3.0]);
//! assert_eq!(a.trace(0).unwrap().item::<f64>().unwrap(), 4.0);
//! let s = sparse::vstack(&[&a, &a]).unwrap();
//! assert_eq!((s.format(), s.shape()), (sparse::Format::Csr, [4, 2]));
//! assert_eq!(sparse::tril(&a, -1).unwrap().nnz(), 0);
//! ```
use super::keys::{cat, diag_span};
use super::{index_dtype_for, shape_error, CooArray, Format, Sparse, SparseArray};
use crate::{get_array_module, Array};
use xp_core::{DType, Error, Result};

/// Coordinates (int64) and values of the canonical form.
fn coords(a: &dyn Sparse) -> Result<(Array, Array, Array, DType)> {
    let coo = a.canonical_csr()?.tocoo()?;
    let ix = coo.row().dtype();
    Ok((coo.row().cast_if(DType::I64)?, coo.col().cast_if(DType::I64)?, coo.data().clone(), ix))
}

/// The entries of `a` for which `keep(row, col)` holds, as a COO array.
fn select(a: &dyn Sparse, keep: impl Fn(&Array, &Array) -> Result<Array>) -> Result<CooArray> {
    let (r, c, d, ix) = coords(a)?;
    let m = keep(&r, &c)?;
    let pick = |x: &Array| crate::compress(&m, x, 0);
    CooArray::from_parts(pick(&d)?, pick(&r)?, pick(&c)?, a.shape(), true, ix)
}

/// SciPy's `tril(A, k)`: the entries on and below diagonal `k`, as a COO array.
pub fn tril(a: &dyn Sparse, k: isize) -> Result<CooArray> {
    select(a, |r, c| c.sub(r)?.le(k as i64))
}

/// SciPy's `triu(A, k)`: the entries on and above diagonal `k`, as a COO array.
pub fn triu(a: &dyn Sparse, k: isize) -> Result<CooArray> {
    select(a, |r, c| c.sub(r)?.ge(k as i64))
}

/// SciPy's `find(A)`: rows, columns and values of the nonzero entries (duplicates summed, in
/// row-major order).
pub fn find(a: &dyn Sparse) -> Result<(Array, Array, Array)> {
    let (r, c, d, ix) = coords(a)?;
    let m = d.ne(0)?;
    let pick = |x: &Array| crate::compress(&m, x, 0);
    Ok((pick(&r)?.cast_if(ix)?, pick(&c)?.cast_if(ix)?, pick(&d)?))
}

/// The values of diagonal `k` (a dense 1-D array, duplicates summed), as NumPy's `diagonal`.
pub(crate) fn diagonal(a: &dyn Sparse, k: isize) -> Result<Array> {
    let [m, n] = a.shape();
    let (r0, _, len) = diag_span(k, [m, n]);
    let (r, c, d, _) = coords(a)?;
    let out = get_array_module(&d).zeros([len], d.dtype())?;
    let on = c.sub(&r)?.eq(k as i64)?;
    let (pos, vals) = (crate::compress(&on, &r, 0)?.sub(r0 as i64)?, crate::compress(&on, &d, 0)?);
    if pos.size() > 0 {
        crate::scatter_add(&out, &pos, &vals)?;
    }
    Ok(out)
}

/// Blocks side by side (`axis` 1) or on top of each other (`axis` 0).
fn stack(blocks: &[&dyn Sparse], axis: usize) -> Result<SparseArray> {
    let op = if axis == 1 { "hstack" } else { "vstack" };
    let first = blocks.first().ok_or_else(|| Error::invalid(op, "blocks must not be empty"))?;
    let other = 1 - axis;
    let mut shape = first.shape();
    shape[axis] = 0;
    let (mut rows, mut cols, mut data, mut ixs) = (vec![], vec![], vec![], vec![]);
    for b in blocks {
        if b.shape()[other] != first.shape()[other] {
            return Err(shape_error(op, &first.shape(), &b.shape()));
        }
        let (r, c, d, ix) = coords(*b)?;
        let at = shape[axis] as i64;
        let (r, c) = if axis == 0 { (r.add(at)?, c) } else { (r, c.add(at)?) };
        rows.push(r);
        cols.push(c);
        data.push(d);
        ixs.push(ix);
        shape[axis] += b.shape()[axis];
    }
    let ix = index_dtype_for(&ixs, shape[0].max(shape[1]));
    let coo = CooArray::from_parts(cat(&data)?, cat(&rows)?, cat(&cols)?, shape, false, ix)?;
    let formats: Vec<Format> = blocks.iter().map(|b| b.format()).collect();
    let all = |f: Format| formats.iter().all(|&g| g == f);
    Ok(if all(Format::Csr) {
        SparseArray::Csr(coo.tocsr()?)
    } else if all(Format::Csc) {
        SparseArray::Csc(coo.tocsc()?)
    } else {
        SparseArray::Coo(coo)
    })
}

/// SciPy's `hstack(blocks)`: CSR if every block is CSR, CSC if every block is CSC, COO otherwise.
pub fn hstack(blocks: &[&dyn Sparse]) -> Result<SparseArray> {
    stack(blocks, 1)
}

/// SciPy's `vstack(blocks)`: formats as [`hstack`]'s.
pub fn vstack(blocks: &[&dyn Sparse]) -> Result<SparseArray> {
    stack(blocks, 0)
}

/// SciPy's `block_diag(mats)`: the matrices along the diagonal of a COO array.
pub fn block_diag(mats: &[&dyn Sparse]) -> Result<CooArray> {
    let op = "block_diag";
    if mats.is_empty() {
        return Err(Error::invalid(op, "mats must not be empty"));
    }
    let (mut rows, mut cols, mut data, mut ixs) = (vec![], vec![], vec![], vec![]);
    let mut shape = [0usize, 0];
    for m in mats {
        let (r, c, d, ix) = coords(*m)?;
        rows.push(r.add(shape[0] as i64)?);
        cols.push(c.add(shape[1] as i64)?);
        data.push(d);
        ixs.push(ix);
        shape = [shape[0] + m.shape()[0], shape[1] + m.shape()[1]];
    }
    let ix = index_dtype_for(&ixs, shape[0].max(shape[1]));
    CooArray::from_parts(cat(&data)?, cat(&rows)?, cat(&cols)?, shape, false, ix)
}

/// SciPy's `A.setdiag(values, k)` as a new array of `a`'s format: diagonal `k` set to `values`
/// (a 0-d array fills the whole diagonal; a 1-D one sets as many of its first positions as it
/// has values, the rest of it past the diagonal's end left out), cast to `a`'s dtype; values of
/// zero are stored (as SciPy stores them). Duplicates are summed first.
pub(crate) fn setdiag(a: &dyn Sparse, values: &Array, k: isize) -> Result<SparseArray> {
    let op = "setdiag";
    let shape = a.shape();
    if k >= shape[1] as isize || -k >= shape[0] as isize {
        return Err(Error::invalid(op, format!("k = {k} exceeds the array's dimensions {shape:?}")));
    }
    let (r0, c0, full) = diag_span(k, shape);
    let x = match values.ndim() {
        0 => values.broadcast_to(&[full][..])?,
        1 => values.slice([xp_core::SliceElem::from(0..values.size().min(full) as isize)])?,
        d => return Err(Error::invalid(op, format!("values must be 0-D or 1-D, got {d}-D"))),
    }
    .astype(a.dtype())?;
    let len = x.size() as i64;
    let (r, c, d, ix) = coords(a)?;
    // the stored entries at the positions being set give way
    let set = c.sub(&r)?.eq(k as i64)?.logical_and(&r.sub(r0 as i64)?.lt(len)?)?;
    let keep = set.logical_not()?;
    let pick = |v: &Array| crate::compress(&keep, v, 0);
    let i: Array = get_array_module(&d).arange(0i64, len, 1i64, Some(DType::I64))?;
    let rows = cat(&[pick(&r)?, i.add(r0 as i64)?])?;
    let cols = cat(&[pick(&c)?, i.add(c0 as i64)?])?;
    let ix = index_dtype_for(&[ix], shape[0].max(shape[1]));
    let coo = CooArray::from_parts(cat(&[pick(&d)?, x])?, rows, cols, shape, false, ix)?;
    Ok(match a.format() {
        Format::Csr => SparseArray::Csr(coo.tocsr()?),
        Format::Csc => SparseArray::Csc(coo.tocsc()?),
        Format::Coo => SparseArray::Coo(coo.sum_duplicates()?),
        Format::Dia => SparseArray::Dia(coo.todia()?),
        Format::Bsr => super::arith::like(a, coo.tocsr()?)?,
    })
}

/// SciPy's `kron(A, B, format)`: the Kronecker product. Without a `format`, as SciPy chooses:
/// BSR of `B`'s shape where `B` stores at least half its positions and neither factor is empty
/// (one block `a[i, j] · B` per stored value of `A`), COO otherwise; a `format` converts to it.
pub fn kron(a: &dyn Sparse, b: &dyn Sparse, format: Option<Format>) -> Result<SparseArray> {
    let ([ma, na], [mb, nb]) = (a.shape(), b.shape());
    let shape = [ma * mb, na * nb];
    let cb = b.canonical_csr()?;
    if matches!(format, None | Some(Format::Bsr)) && 2 * cb.nnz() >= mb * nb {
        let ca = a.canonical_csr()?;
        if ca.nnz() > 0 && cb.nnz() > 0 {
            return Ok(SparseArray::Bsr(super::bsr::kron_blocks(&ca, &cb.toarray()?)?));
        }
    }
    let (ra, ca, da, ia) = coords(a)?;
    let (rb, cb, db, ib) = coords(&cb)?;
    let (p, q) = (da.size(), db.size());
    let col = |x: &Array| x.reshape(&[p, 1][..]);
    let row = |x: &Array| x.reshape(&[1, q][..]);
    let r = col(&ra)?.mul(mb as i64)?.add(&row(&rb)?)?.ravel()?;
    let c = col(&ca)?.mul(nb as i64)?.add(&row(&cb)?)?.ravel()?;
    let d = col(&da)?.mul(&row(&db)?)?.ravel()?;
    let ix = index_dtype_for(&[ia, ib], shape[0].max(shape[1]).max(p * q));
    SparseArray::Coo(CooArray::from_parts(d, r, c, shape, false, ix)?).asformat(format.unwrap_or(Format::Coo))
}
