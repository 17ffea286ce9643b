//! `op` of two canonical CSR matrices over the union of their positions (SciPy's
//! `csr_binop_csr`): each row's two sorted index runs merged, zeros of the result left out.
//! Rows split into tasks of about equal value counts; one pass counts each row's results, a
//! second writes them to their places.
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
    mut emit: impl FnMut(usize, T),
) {
    let z = T::default();
    let (mut p, pe) = (a.0[r].at(), a.0[r + 1].at());
    let (mut q, qe) = (b.0[r].at(), b.0[r + 1].at());
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
    let bounds = row_blocks(&both, rows, tasks);
    let counts: Vec<Vec<usize>> = (0..tasks)
        .into_par_iter()
        .map(|t| {
            (bounds[t]..bounds[t + 1])
                .map(|r| {
                    let mut n = 0;
                    row(a, b, r, f, |_, _| n += 1);
                    n
                })
                .collect()
        })
        .collect();
    let ptr = offsets_of(counts.iter().flatten().copied());
    let nnz = ptr[rows];
    let ((mut idx, di), (mut data, dd)) = (fresh::<O>(nnz), fresh::<T>(nnz));
    (0..tasks).into_par_iter().for_each(|t| {
        for r in bounds[t]..bounds[t + 1] {
            let (mut at, end) = (ptr[r], ptr[r + 1]);
            row(a, b, r, f, |j, v| {
                // the same merge as the count: row r's results fill ptr[r]..ptr[r + 1] exactly
                assert!(at < end);
                // SAFETY: places ptr[r]..ptr[r + 1] belong to row r alone, all < nnz
                unsafe {
                    di.at(at).write(O::from_usize(j));
                    dd.at(at).write(v);
                }
                at += 1;
            });
            assert_eq!(at, end);
        }
    });
    // SAFETY: every row wrote its counted results, and the rows tile 0..nnz
    unsafe {
        idx.set_len(nnz);
        data.set_len(nnz);
    }
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
