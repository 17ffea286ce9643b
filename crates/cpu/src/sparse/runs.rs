//! Runs of a compressed array's indices and values copied end to end (the lines a selection
//! picks): blocks of runs holding about the same number of values, one rayon task each, every
//! run one slice copy — where the composed gathers read an index array per value.
use super::elem::{row_blocks, Out};
use xp_core::{DType, Error, HostBuffer, Result};

use crate::CpuStorage;

/// Values per task below which the copy stays on one thread.
const BLOCK: usize = 1 << 16;

/// Copies run `q` of `src` (`starts[q]`, `ptr[q + 1] - ptr[q]` long) to `ptr[q]` of a new vector,
/// each value through `f`.
fn copy_runs<S: Copy + Send + Sync, D: xp_core::Element>(
    src: &[S],
    starts: &[i64],
    ptr: &[i64],
    f: impl Fn(S) -> D + Sync,
) -> Vec<D> {
    let lines = starts.len();
    let total = ptr[lines] as usize;
    let mut out = crate::pool::alloc::<D>(total);
    let tasks = (total / BLOCK).clamp(1, 8 * rayon::current_num_threads());
    let bounds = row_blocks(ptr, lines, tasks);
    let dst = Out(out.spare_capacity_mut().as_mut_ptr().cast::<D>());
    let block = |b: usize| {
        for q in bounds[b]..bounds[b + 1] {
            let (to, len, from) = (ptr[q] as usize, (ptr[q + 1] - ptr[q]) as usize, starts[q] as usize);
            for (k, &v) in src[from..from + len].iter().enumerate() {
                // SAFETY: run q's places to .. to + len belong to this block alone, all < total
                unsafe { dst.at(to + k).write(f(v)) };
            }
        }
    };
    if tasks == 1 {
        block(0);
    } else {
        crate::par::map(tasks, &|b| block(b));
    }
    // SAFETY: the runs cover 0..total, each place written once
    unsafe { out.set_len(total) };
    out
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
    let idx = match (&indices.0, ix) {
        (HostBuffer::I32(i), DType::I32) => HostBuffer::I32(copy_runs(i, st, p, |v| v)),
        (HostBuffer::I64(i), DType::I64) => HostBuffer::I64(copy_runs(i, st, p, |v| v)),
        (HostBuffer::I32(i), DType::I64) => HostBuffer::I64(copy_runs(i, st, p, i64::from)),
        (HostBuffer::I64(i), DType::I32) => HostBuffer::I32(copy_runs(i, st, p, |v| v as i32)),
        (b, _) => return Err(Error::InvalidDType { op, dtype: b.dtype() }),
    };
    macro_rules! typed {
        ($($v:ident),*) => {
            match &data.0 {
                $(HostBuffer::$v(d) => HostBuffer::$v(copy_runs(d, st, p, |v| v)),)*
            }
        };
    }
    let vals = typed!(Bool, I8, I16, I32, I64, U8, U16, U32, U64, F16, BF16, F32, F64, C64, C128);
    Ok((idx, vals))
}
