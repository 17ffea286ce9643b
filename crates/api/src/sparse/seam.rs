//! The optional backend loops of the front end's conversions and arithmetic (the block
//! format's `bsr_to_csr`, `csr_to_bsr`, `bsr_matmul`; `csr_binop` of two canonical CSR arrays, `csr_reduce_rows` along the major axis,
//! `csr_take_minor` for a selection of minor lines):
//! each answers `None` where the backend has no such loop (or [`super::force_generic`] is on),
//! and the caller composes the same instead.
use super::compressed::{exact, Compressed};
use super::keys::whole;
use crate::backend::{on_many, on_many_map, Reads};
use crate::Array;
use xp_core::{BinaryOp, BsrParts, CsrBuilt, CsrParts, DType, Error, Result};

/// `Some` of a backend's answer, `None` where it has no such loop.
fn answered<T>(r: Result<T>) -> Result<Option<T>> {
    match r {
        Ok(v) => Ok(Some(v)),
        Err(Error::Unsupported { .. }) => Ok(None),
        Err(e) => Err(e),
    }
}

/// The parts of a BSR array as whole buffers: offsets, block columns (the offsets' dtype) and
/// blocks.
fn grid_parts(indptr: &Array, indices: &Array, data: &Array) -> Result<[Array; 3]> {
    Ok([exact(indptr)?, exact(&indices.cast_if(indptr.dtype())?)?, exact(data)?])
}

/// The CSR parts of the BSR array of `parts` (`[block rows, block columns]` grid, blocks `rc`),
/// indices of dtype `ix`.
pub(super) fn to_csr(
    parts: [&Array; 3],
    grid: [usize; 2],
    rc: [usize; 2],
    ix: DType,
) -> Result<Option<CsrBuilt<Array>>> {
    if super::generic() {
        return Ok(None);
    }
    let [p, i, d] = grid_parts(parts[0], parts[1], parts[2])?;
    let reads = Reads::lock(&[&p, &i, &d]);
    let r = on_many_map!(reads.many("tocsr")?, v => {
        use xp_core::SparseStorage;
        let g = CsrParts { indptr: v[0], indices: v[1], data: v[2], rows: grid[0], cols: grid[1] };
        SparseStorage::bsr_to_csr(&BsrParts { grid: g, block: rc }, ix)
    });
    answered(r.map(|b| b.map(whole)))
}

/// The BSR parts (offsets, block columns, blocks end to end) of the CSR form `a` in blocks `rc`,
/// indices of dtype `ix`.
pub(super) fn from_csr(a: &Compressed, rc: [usize; 2], ix: DType) -> Result<Option<CsrBuilt<Array>>> {
    if super::generic() {
        return Ok(None);
    }
    let [p, i, d] = grid_parts(&a.indptr, &a.indices, &a.data)?;
    let reads = Reads::lock(&[&p, &i, &d]);
    let r = on_many_map!(reads.many("tobsr")?, v => {
        use xp_core::SparseStorage;
        let parts = CsrParts { indptr: v[0], indices: v[1], data: v[2], rows: a.dims[0], cols: a.dims[1] };
        SparseStorage::csr_to_bsr(&parts, rc, ix)
    });
    answered(r.map(|b| b.map(whole)))
}

/// `A @ x` for the BSR array of `parts` and a dense `x` already checked against its shape, in
/// NumPy's promoted dtype.
pub(super) fn matmul(parts: [&Array; 3], grid: [usize; 2], rc: [usize; 2], x: &Array) -> Result<Option<Array>> {
    if super::generic() {
        return Ok(None);
    }
    let dt = xp_core::promote_types(parts[2].dtype(), x.dtype());
    let [p, i, d] = grid_parts(parts[0], parts[1], &parts[2].cast_if(dt)?)?;
    let x = x.cast_if(dt)?;
    let reads = Reads::lock(&[&p, &i, &d, &x]);
    let r = on_many!(reads.many("matmul")?, v => {
        use xp_core::SparseStorage;
        let g = CsrParts { indptr: v[0], indices: v[1], data: v[2], rows: grid[0], cols: grid[1] };
        SparseStorage::bsr_matmul(&BsrParts { grid: g, block: rc }, v[3], &x.layout)
    });
    let mut shape = vec![grid[0] * rc[0]];
    shape.extend_from_slice(&x.shape()[1..]);
    answered(r.map(|s| Array::from_storage(s, &shape)))
}

/// `op` of the canonical CSR forms `a` and `b` (one shape) over the union of their positions, in
/// NumPy's promoted dtype, positions whose result is zero left out: the parts of a canonical
/// CSR array, indices of dtype `ix`.
pub(super) fn binop(a: &Compressed, b: &Compressed, op: BinaryOp, ix: DType) -> Result<Option<CsrBuilt<Array>>> {
    if super::generic() {
        return Ok(None);
    }
    let dt = xp_core::promote_types(a.data.dtype(), b.data.dtype());
    let [ap, ai, ad] = grid_parts(&a.indptr, &a.indices, &a.data.cast_if(dt)?)?;
    let [bp, bi, bd] = grid_parts(&b.indptr.cast_if(a.indptr.dtype())?, &b.indices, &b.data.cast_if(dt)?)?;
    let reads = Reads::lock(&[&ap, &ai, &ad, &bp, &bi, &bd]);
    let [m, n] = a.dims;
    let r = on_many_map!(reads.many("binop")?, v => {
        use xp_core::SparseStorage;
        let pa = CsrParts { indptr: v[0], indices: v[1], data: v[2], rows: m, cols: n };
        let pb = CsrParts { indptr: v[3], indices: v[4], data: v[5], rows: m, cols: n };
        SparseStorage::csr_binop(&pa, &pb, op, ix)
    });
    answered(r.map(|b| b.map(whole)))
}

/// Each major line's stored values of `c` folded by `op` (zero for an empty line), in the
/// values' dtype.
pub(super) fn reduce_lines(c: &Compressed, op: BinaryOp) -> Result<Option<Array>> {
    if super::generic() {
        return Ok(None);
    }
    let [p, i, d] = grid_parts(&c.indptr, &c.indices, &c.data)?;
    let reads = Reads::lock(&[&p, &i, &d]);
    let r = on_many!(reads.many("reduce")?, v => {
        use xp_core::SparseStorage;
        let parts = CsrParts { indptr: v[0], indices: v[1], data: v[2], rows: c.dims[0], cols: c.dims[1] };
        SparseStorage::csr_reduce_rows(&parts, op)
    });
    answered(r.map(|s| Array::from_storage(s, &[c.dims[0]])))
}

/// The minor lines of `c` that a selection picks, given per minor line as `counts`, `starts`
/// and `order` (see `xp_core::SparseStorage::csr_take_minor`): the compressed parts, offsets
/// int64, indices of dtype `ix`.
pub(super) fn take_minor(c: &Compressed, pick: [&Array; 3], ix: DType) -> Result<Option<CsrBuilt<Array>>> {
    if super::generic() {
        return Ok(None);
    }
    let [p, i, d] = grid_parts(&c.indptr, &c.indices, &c.data)?;
    let [n, s, o] = [exact(pick[0])?, exact(pick[1])?, exact(pick[2])?];
    let reads = Reads::lock(&[&p, &i, &d, &n, &s, &o]);
    let r = on_many_map!(reads.many("take")?, v => {
        use xp_core::SparseStorage;
        let parts = CsrParts { indptr: v[0], indices: v[1], data: v[2], rows: c.dims[0], cols: c.dims[1] };
        SparseStorage::csr_take_minor(&parts, v[3], v[4], v[5], ix)
    });
    answered(r.map(|b| b.map(whole)))
}
