//! The product of two sparse arrays (SpGEMM): the backend's own (the CPU's Gustavson rows), or,
//! for a backend without one, a composition over xp's gathers, searches and the coordinate sort,
//! in blocks of rows whose products fit a fixed budget (so memory stays bounded whatever the
//! product's size, and a result too large for the device is an out-of-memory error, never wrong
//! values).
use super::compressed::{exact, Compressed};
use super::keys::{cat, expand, offsets, sort_coords, whole};
use super::{generic, index_dtype_for};
use crate::backend::{on_many_map, Reads};
use crate::{get_array_module, Array};
use std::sync::Arc;
use xp_core::{CsrParts, DType, Error, Result, Side, SliceElem};

/// Products per block of the composed path.
const BUDGET: i64 = 1 << 24;

/// `A @ B` of two CSR forms (`a.dims = [m, k]`, `b.dims = [k, n]`): zero sums dropped, columns
/// sorted where the composition made them (the backend's product may leave them in any order).
pub(crate) fn spgemm(a: &Compressed, b: &Compressed) -> Result<Compressed> {
    let op = "matmul";
    let ([m, k], [k2, n]) = (a.dims, b.dims);
    if k != k2 {
        return Err(Error::NotAligned {
            op,
            lhs: vec![m, k],
            rhs: vec![k2, n],
            lhs_size: k,
            lhs_axis: 1,
            rhs_size: k2,
            rhs_axis: 0,
        });
    }
    let dt = xp_core::promote_types(a.data.dtype(), b.data.dtype());
    let ix = index_dtype_for(&[a.indptr.dtype(), b.indptr.dtype()], m.max(n));
    let part = |c: &Compressed| -> Result<[Array; 3]> {
        Ok([exact(&c.indptr.cast_if(ix)?)?, exact(&c.indices.cast_if(ix)?)?, exact(&c.data.cast_if(dt)?)?])
    };
    let ([ap, ai, ad], [bp, bi, bd]) = (part(a)?, part(b)?);
    let built = if generic() {
        Err(Error::Unsupported { op, backend: "" })
    } else {
        let reads = Reads::lock(&[&ap, &ai, &ad, &bp, &bi, &bd]);
        on_many_map!(reads.many(op)?, v => {
            use xp_core::SparseStorage;
            let pa = CsrParts { indptr: v[0], indices: v[1], data: v[2], rows: m, cols: k };
            let pb = CsrParts { indptr: v[3], indices: v[4], data: v[5], rows: k, cols: n };
            SparseStorage::csr_spgemm(&pa, &pb, ix)
        })
    };
    match built {
        Ok(c) => {
            let c = Compressed {
                indptr: whole(c.indptr),
                indices: whole(c.indices),
                data: whole(c.data),
                dims: [m, n],
                // no duplicates, columns unsorted (SciPy's product is not canonical either)
                canonical: false,
                other: Arc::default(),
            };
            // a backend may keep the positions whose sum is zero
            let all_nonzero = c.data.size() == 0 || c.data.ne(0)?.all(..)?.item::<bool>()?;
            if all_nonzero {
                Ok(c)
            } else {
                c.without_zeros()
            }
        }
        Err(Error::Unsupported { .. }) => composed([&ap, &ai, &ad], [&bp, &bi, &bd], [m, n], ix),
        Err(e) => Err(e),
    }
}

/// The product from gathers: each stored `A[i, k]` meets row `k` of `B`; the products of a block
/// of `A`'s rows are listed, sorted and summed.
fn composed(a: [&Array; 3], b: [&Array; 3], [m, n]: [usize; 2], ix: DType) -> Result<Compressed> {
    let [ap, ai, ad] = a;
    let [bp, bi, bd] = b;
    let mods = get_array_module(ad);
    let cut = |x: &Array, r: std::ops::Range<usize>| x.slice([SliceElem::from(r.start as isize..r.end as isize)]);
    let bp64 = bp.cast_if(DType::I64)?;
    let nb = bp64.size() - 1;
    let bstart = cut(&bp64, 0..nb)?;
    let blen = cut(&bp64, 1..nb + 1)?.sub(&bstart)?;
    let ai64 = ai.cast_if(DType::I64)?;
    // products of each stored A value, and their running total at each row start
    let cnt = blen.take(&ai64, 0)?;
    let cum = crate::concatenate(&[&mods.zeros([1], DType::I64)?, &cnt.cumsum(0)?], 0)?;
    let ptr = ap.cast_if(DType::I64)?;
    let at_rows = cum.take(&ptr, 0)?.to_vec::<i64>()?;
    let ptr_host = ptr.to_vec::<i64>()?;
    let rows = expand(ap, ad.size())?;
    let (mut ptrs, mut idx, mut val) = (vec![mods.zeros([1], DType::I64)?], vec![], vec![]);
    // (tests forcing the composed path use a tiny budget, so that they cross many blocks)
    let budget = if generic() { 7 } else { BUDGET };
    let (mut r0, mut done) = (0usize, 0i64);
    while r0 < m {
        // the longest run of rows whose products fit the budget (at least one row)
        let mut r1 = r0 + 1;
        while r1 < m && at_rows[r1 + 1] - at_rows[r0] <= budget {
            r1 += 1;
        }
        let (q0, q1) = (ptr_host[r0] as usize, ptr_host[r1] as usize);
        let tot = at_rows[r1] - at_rows[r0];
        let (maj, min, vals) = if tot == 0 {
            let e = mods.zeros([0], DType::I64)?;
            (e.clone(), e, mods.zeros([0], ad.dtype())?)
        } else {
            let c = cut(&cnt, q0..q1)?;
            let ends = c.cumsum(0)?;
            let p = mods.arange(0i64, tot, 1i64, Some(DType::I64))?;
            let e = crate::searchsorted(&ends, &p, Side::Right, None)?;
            let within = p.sub(&ends.sub(&c)?.take(&e, 0)?)?;
            let kk = cut(&ai64, q0..q1)?.take(&e, 0)?;
            let bpos = bstart.take(&kk, 0)?.add(&within)?;
            let rr = cut(&rows, q0..q1)?.take(&e, 0)?.sub(r0 as i64)?;
            let cc = bi.cast_if(DType::I64)?.take(&bpos, 0)?;
            let vv = cut(ad, q0..q1)?.take(&e, 0)?.mul(&bd.take(&bpos, 0)?)?;
            let s = sort_coords(&rr, &cc, &vv, [r1 - r0, n], true)?;
            let keep = s.data.ne(0)?;
            (
                crate::compress(&keep, &s.major, 0)?,
                crate::compress(&keep, &s.minor, 0)?,
                crate::compress(&keep, &s.data, 0)?,
            )
        };
        let local = offsets(&maj, r1 - r0, DType::I64)?;
        ptrs.push(cut(&local, 1..r1 - r0 + 1)?.add(done)?);
        done += vals.size() as i64;
        idx.push(min);
        val.push(vals);
        r0 = r1;
    }
    let ix = index_dtype_for(&[ix], done as usize);
    let (indices, data) = if idx.is_empty() {
        (mods.zeros([0], ix)?, mods.zeros([0], ad.dtype())?)
    } else {
        (cat(&idx)?.cast_if(ix)?, cat(&val)?)
    };
    Ok(Compressed {
        indptr: cat(&ptrs)?.cast_if(ix)?,
        indices,
        data,
        dims: [m, n],
        canonical: true,
        other: Arc::default(),
    })
}
