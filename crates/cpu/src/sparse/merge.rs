//! `op` of two canonical CSR matrices over the union of their positions (SciPy's
//! `csr_binop_csr`): each row's two sorted index runs merged, zeros of the result left out.
//! Rows split into tasks of about equal value counts (the one row of a 1-D array into pieces
//! cut at column values); each task merges its rows once into buffers of its own, which are
//! then copied to their places (a single task's are the result).
use super::elem::{fresh, offsets_of, row_blocks, Ix};
use crate::scalar::ScalarOps;
use crate::CpuStorage;
use rayon::prelude::*;
use xp_core::{BinaryOp, CsrBuilt, CsrParts, DType, Element, Error, HostBuffer, Result};

/// One CSR operand's typed parts.
type Parts<'a, T, I> = (&'a [I], &'a [I], &'a [T]);

/// Row `r` of `a op b`: `emit(column, value)` for each nonzero result, in column order.
#[inline(always)]
fn row<T: ScalarOps + Element, I: Ix>(
    a: Parts<'_, T, I>,
    b: Parts<'_, T, I>,
    r: usize,
    f: fn(T, T) -> T,
    emit: impl FnMut(usize, T),
) {
    run(a, b, (a.0[r].at(), a.0[r + 1].at()), (b.0[r].at(), b.0[r + 1].at()), f, emit)
}

/// `a op b` over the values `pa` of `a` and `pb` of `b` (sorted runs of one row).
#[inline(always)]
fn run<T: ScalarOps + Element, I: Ix>(
    a: Parts<'_, T, I>,
    b: Parts<'_, T, I>,
    (mut p, pe): (usize, usize),
    (mut q, qe): (usize, usize),
    f: fn(T, T) -> T,
    mut emit: impl FnMut(usize, T),
) {
    let z = T::default();
    let mut put = |j: usize, v: T| {
        if v != z {
            emit(j, v)
        }
    };
    while p < pe && q < qe {
        let (ja, jb) = (a.1[p].at(), b.1[q].at());
        if ja == jb {
            put(ja, f(a.2[p], b.2[q]));
            p += 1;
            q += 1;
        } else if ja < jb {
            put(ja, f(a.2[p], z));
            p += 1;
        } else {
            put(jb, f(z, b.2[q]));
            q += 1;
        }
    }
    for k in p..pe {
        put(a.1[k].at(), f(a.2[k], z));
    }
    for k in q..qe {
        put(b.1[k].at(), f(z, b.2[k]));
    }
}

fn merge<T: ScalarOps + Element, I: Ix, O: Ix + Element>(
    a: Parts<'_, T, I>,
    b: Parts<'_, T, I>,
    rows: usize,
    f: fn(T, T) -> T,
) -> CsrBuilt<CpuStorage>
where
    Vec<O>: Into<HostBuffer>,
    Vec<T>: Into<HostBuffer>,
{
    let both: Vec<usize> = (0..=rows).map(|r| a.0[r].at() + b.0[r].at()).collect();
    let tasks = (both[rows] >> 16).clamp(1, 8 * rayon::current_num_threads());
    if rows == 1 {
        // (one piece per core: the pieces are alike, and every extra one costs a copy's wait)
        let pieces = if both[1] < 1 << 15 { 1 } else { rayon::current_num_threads() };
        return merge_one::<T, I, O>(a, b, pieces, f);
    }
    let bounds = row_blocks(&both, rows, tasks);
    // one merge per row (its branches are the cost), each task's results into buffers of its
    // own that its two operands' counts bound
    let parts: Vec<(Vec<usize>, Vec<O>, Vec<T>)> = (0..tasks)
        .into_par_iter()
        .map(|t| {
            let (r0, r1) = (bounds[t], bounds[t + 1]);
            let (mut idx, mut val) = buffers(both[r1] - both[r0]);
            let mut counts = Vec::with_capacity(r1 - r0);
            for r in r0..r1 {
                let before = idx.len();
                row(a, b, r, f, |j, v| {
                    idx.push(O::from_usize(j));
                    val.push(v);
                });
                counts.push(idx.len() - before);
            }
            (counts, idx, val)
        })
        .collect();
    let ptr = offsets_of(parts.iter().flat_map(|p| p.0.iter().copied()));
    let starts: Vec<usize> = bounds[..tasks].iter().map(|&r| ptr[r]).collect();
    let (idx, data) = concat(parts.into_iter().map(|(_, i, v)| (i, v)).collect(), &starts, ptr[rows]);
    built(ptr, idx, data)
}

/// The one row of two `1 × n` arrays (a 1-D array's values), merged in `tasks` pieces whose
/// columns are cut at values of the longer run, so that a column's values meet in one piece.
fn merge_one<T: ScalarOps + Element, I: Ix, O: Ix + Element>(
    a: Parts<'_, T, I>,
    b: Parts<'_, T, I>,
    tasks: usize,
    f: fn(T, T) -> T,
) -> CsrBuilt<CpuStorage>
where
    Vec<O>: Into<HostBuffer>,
    Vec<T>: Into<HostBuffer>,
{
    let (ra, rb) = ((a.0[0].at(), a.0[1].at()), (b.0[0].at(), b.0[1].at()));
    let (la, lb) = (ra.1 - ra.0, rb.1 - rb.0);
    let cut = |k: usize| -> (usize, usize) {
        let c = if la >= lb { a.1[ra.0 + k * la / tasks].at() } else { b.1[rb.0 + k * lb / tasks].at() };
        let at = |x: &[I], (s, e): (usize, usize)| s + x[s..e].partition_point(|j| j.at() < c);
        (at(a.1, ra), at(b.1, rb))
    };
    let cuts: Vec<(usize, usize)> =
        std::iter::once((ra.0, rb.0)).chain((1..tasks).map(cut)).chain(std::iter::once((ra.1, rb.1))).collect();
    let parts: Vec<(Vec<O>, Vec<T>)> = (0..tasks)
        .into_par_iter()
        .map(|t| {
            let ((p, q), (pe, qe)) = (cuts[t], cuts[t + 1]);
            let (mut idx, mut val) = buffers((pe - p) + (qe - q));
            run(a, b, (p, pe), (q, qe), f, |j, v| {
                idx.push(O::from_usize(j));
                val.push(v);
            });
            (idx, val)
        })
        .collect();
    let starts = offsets_of(parts.iter().map(|p| p.0.len()));
    let nnz = starts[tasks];
    let (idx, data) = concat(parts, &starts[..tasks], nnz);
    built(vec![0, nnz], idx, data)
}

/// Empty index and value buffers for up to `cap` results.
fn buffers<O: Element, T: Element>(cap: usize) -> (Vec<O>, Vec<T>) {
    (crate::pool::alloc::<O>(cap), crate::pool::alloc::<T>(cap))
}

/// The pieces' results, piece `t` from `starts[t]`, as one pair of buffers of `nnz` (a single
/// piece's own).
fn concat<O: Element, T: Element>(mut parts: Vec<(Vec<O>, Vec<T>)>, starts: &[usize], nnz: usize) -> (Vec<O>, Vec<T>) {
    if parts.len() == 1 {
        return parts.pop().expect("one piece");
    }
    let ((mut idx, di), (mut data, dd)) = (fresh::<O>(nnz), fresh::<T>(nnz));
    parts.par_iter().zip(starts).for_each(|((i, v), &at)| {
        assert!(at + i.len() <= nnz && i.len() == v.len());
        // SAFETY: each piece fills its own places from `at`, apart from the others', below nnz
        unsafe {
            std::ptr::copy_nonoverlapping(i.as_ptr(), di.at(at), i.len());
            std::ptr::copy_nonoverlapping(v.as_ptr(), dd.at(at), v.len());
        }
    });
    // SAFETY: the pieces tile 0..nnz
    unsafe {
        idx.set_len(nnz);
        data.set_len(nnz);
    }
    (idx, data)
}

/// The result's parts.
fn built<O: Ix + Element, T: Element>(ptr: Vec<usize>, idx: Vec<O>, data: Vec<T>) -> CsrBuilt<CpuStorage>
where
    Vec<O>: Into<HostBuffer>,
    Vec<T>: Into<HostBuffer>,
{
    let ptr: Vec<O> = ptr.into_iter().map(O::from_usize).collect();
    CsrBuilt { indptr: CpuStorage(ptr.into()), indices: CpuStorage(idx.into()), data: CpuStorage(data.into()) }
}

/// [`xp_core::SparseStorage::csr_binop`] on host buffers.
pub(super) fn csr_binop(
    a: &CsrParts<'_, CpuStorage>,
    b: &CsrParts<'_, CpuStorage>,
    op: BinaryOp,
    ix: DType,
) -> Result<CsrBuilt<CpuStorage>> {
    let name = "csr_binop";
    if !matches!(op, BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Max | BinaryOp::Min) {
        return Err(Error::Unsupported { op: name, backend: "cpu" });
    }
    macro_rules! values {
        ($pa:ident, $ia:ident, $pb:ident, $ib:ident; $($v:ident),*) => {
            match (&a.data.0, &b.data.0) {
                $((HostBuffer::$v(da), HostBuffer::$v(db)) => {
                    let Some(f) = ScalarOps::binary_fn(op) else {
                        return Err(Error::Unsupported { op: name, backend: "cpu" });
                    };
                    let (pa, pb) = (($pa.as_slice(), $ia.as_slice(), da.as_slice()), ($pb.as_slice(), $ib.as_slice(), db.as_slice()));
                    Ok(match ix {
                        DType::I32 => merge::<_, _, i32>(pa, pb, a.rows, f),
                        _ => merge::<_, _, i64>(pa, pb, a.rows, f),
                    })
                })*
                _ => Err(Error::invalid(name, "both operands' values must have one dtype")),
            }
        };
    }
    match (&a.indptr.0, &a.indices.0, &b.indptr.0, &b.indices.0) {
        (HostBuffer::I32(pa), HostBuffer::I32(ia), HostBuffer::I32(pb), HostBuffer::I32(ib)) => {
            values!(pa, ia, pb, ib; Bool, I8, I16, I32, I64, U8, U16, U32, U64, F16, BF16, F32, F64, C64, C128)
        }
        (HostBuffer::I64(pa), HostBuffer::I64(ia), HostBuffer::I64(pb), HostBuffer::I64(ib)) => {
            values!(pa, ia, pb, ib; Bool, I8, I16, I32, I64, U8, U16, U32, U64, F16, BF16, F32, F64, C64, C128)
        }
        _ => Err(Error::invalid(name, "offsets and indices of both operands must share one index dtype")),
    }
}
