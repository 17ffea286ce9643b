//! Runs of a compressed array's indices and values copied end to end (the lines a selection
//! picks): blocks of runs holding about the same number of values, one rayon task each, every
//! run one slice copy — where the composed gathers read an index array per value.
use super::elem::{each_task, fresh, row_blocks};
use xp_core::{DType, Error, HostBuffer, Result};

use crate::CpuStorage;

/// Values per task below which the copy stays on one thread.
const BLOCK: usize = 1 << 16;

/// Runs ahead whose first index and value the copy asks the cache for.
const AHEAD: usize = 8;

/// Copies run `q` of `idx` and `val` (`starts[q]`, `ptr[q + 1] - ptr[q]` long) to `ptr[q]` of two
/// new vectors, each index through `f`: both arrays in one pass, the runs `AHEAD` on prefetched
/// (a selection's runs start at random places: the misses of several overlap).
fn copy_runs<I: Copy + Send + Sync, J: xp_core::Element, V: xp_core::Element>(
    idx: &[I],
    val: &[V],
    starts: &[i64],
    ptr: &[i64],
    f: impl Fn(I) -> J + Sync,
) -> (Vec<J>, Vec<V>) {
    let lines = starts.len();
    let total = ptr[lines] as usize;
    let ((mut oi, di), (mut ov, dv)) = (fresh::<J>(total), fresh::<V>(total));
    let tasks = (total / BLOCK).clamp(1, 8 * rayon::current_num_threads());
    let bounds = row_blocks(ptr, lines, tasks);
    let block = |b: usize| {
        for q in bounds[b]..bounds[b + 1] {
            if let Some(&s) = starts.get(q + AHEAD).filter(|_| q + AHEAD < bounds[b + 1]) {
                super::spmm::prefetch(idx.as_ptr().wrapping_add(s as usize));
                super::spmm::prefetch(val.as_ptr().wrapping_add(s as usize));
            }
            let (to, len, from) = (ptr[q] as usize, (ptr[q + 1] - ptr[q]) as usize, starts[q] as usize);
            for (k, (&i, &v)) in idx[from..from + len].iter().zip(&val[from..from + len]).enumerate() {
                // SAFETY: run q's places to .. to + len belong to this block alone, all < total
                unsafe {
                    di.at(to + k).write(f(i));
                    dv.at(to + k).write(v);
                }
            }
        }
    };
    each_task(tasks, &block);
    // SAFETY: the runs cover 0..total, each place written once
    unsafe {
        oi.set_len(total);
        ov.set_len(total);
    }
    (oi, ov)
}

/// Both copies as host buffers.
fn both<J, V>((i, v): (Vec<J>, Vec<V>)) -> (HostBuffer, HostBuffer)
where
    Vec<J>: Into<HostBuffer>,
    Vec<V>: Into<HostBuffer>,
{
    (i.into(), v.into())
}

/// [`xp_core::SparseStorage::gather_runs`] on host buffers.
pub(super) fn gather_runs(
    indices: &CpuStorage,
    data: &CpuStorage,
    starts: &CpuStorage,
    ptr: &CpuStorage,
    ix: DType,
) -> Result<(HostBuffer, HostBuffer)> {
    let op = "gather_runs";
    let (HostBuffer::I64(st), HostBuffer::I64(p)) = (&starts.0, &ptr.0) else {
        return Err(Error::invalid(op, "run starts and offsets must be int64"));
    };
    if p.len() != st.len() + 1 {
        return Err(Error::invalid(op, "one offset more than runs"));
    }
    macro_rules! typed {
        ($($v:ident),*) => {
            match &data.0 {
                $(HostBuffer::$v(d) => {
                    match (&indices.0, ix) {
                        (HostBuffer::I32(i), DType::I32) => both(copy_runs(i, d, st, p, |v| v)),
                        (HostBuffer::I64(i), DType::I64) => both(copy_runs(i, d, st, p, |v| v)),
                        (HostBuffer::I32(i), DType::I64) => both(copy_runs(i, d, st, p, i64::from)),
                        (HostBuffer::I64(i), DType::I32) => both(copy_runs(i, d, st, p, |v| v as i32)),
                        (b, _) => return Err(Error::InvalidDType { op, dtype: b.dtype() }),
                    }
                },)*
            }
        };
    }
    let (idx, vals) = typed!(Bool, I8, I16, I32, I64, U8, U16, U32, U64, F16, BF16, F32, F64, C64, C128);
    Ok((idx, vals))
}
