//! Each row's stored values folded by one operation (the extremes along an axis of a compressed
//! array): rows split over the cores, one read of the values.
use super::elem::Ix;
use crate::scalar::ScalarOps;
use crate::CpuStorage;
use xp_core::{BinaryOp, CsrParts, Element, Error, HostBuffer, Result};

fn fold<T: ScalarOps + Element, I: Ix>(ptr: &[I], data: &[T], rows: usize, f: fn(T, T) -> T) -> Vec<T>
where
    Vec<T>: Into<HostBuffer>,
{
    let nnz = ptr[rows].at();
    // (the split follows the values per row on average)
    crate::iter::fill_chunks_work(rows, nnz / rows.max(1) + 1, |start, out| {
        for (r, o) in (start..start + out.len()).zip(out.iter_mut()) {
            let line = &data[ptr[r].at()..ptr[r + 1].at()];
            o.write(match line.split_first() {
                Some((&first, rest)) => rest.iter().fold(first, |acc, &v| f(acc, v)),
                None => T::default(),
            });
        }
    })
}

/// [`xp_core::SparseStorage::csr_reduce_rows`] on host buffers.
pub(super) fn csr_reduce_rows(a: &CsrParts<'_, CpuStorage>, op: BinaryOp) -> Result<HostBuffer> {
    let name = "csr_reduce_rows";
    macro_rules! values {
        ($p:ident; $($v:ident),*) => {
            match &a.data.0 {
                $(HostBuffer::$v(d) => match ScalarOps::binary_fn(op) {
                    Some(f) => Ok(fold($p.as_slice(), d, a.rows, f).into()),
                    None => Err(Error::Unsupported { op: name, backend: "cpu" }),
                },)*
            }
        };
    }
    match &a.indptr.0 {
        HostBuffer::I32(p) => values!(p; Bool, I8, I16, I32, I64, U8, U16, U32, U64, F16, BF16, F32, F64, C64, C128),
        HostBuffer::I64(p) => values!(p; Bool, I8, I16, I32, I64, U8, U16, U32, U64, F16, BF16, F32, F64, C64, C128),
        b => Err(Error::InvalidDType { op: name, dtype: b.dtype() }),
    }
}
