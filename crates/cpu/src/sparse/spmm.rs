//! `Y = A X` for a CSR matrix `A` and a dense `X` of any strides: rows split into blocks that
//! hold about the same number of stored values (a row-count split leaves one core with the
//! dense rows of a power-law graph), each block on one rayon task writing its own rows of `Y`
//! (a single long row split between the tasks, their sums added).
//! Sums follow NumPy's `matmul`: integers wrap, bool is or-of-ands, float16/bfloat16 accumulate
//! in float32 and round once.
use super::elem::{row_blocks, Dense, Ix, Mac, Out};
use xp_core::{CsrParts, Error, HostBuffer, Layout, Result};

use crate::CpuStorage;

/// Stored values per task below which a product stays on one thread.
const BLOCK_NNZ: usize = 1 << 15;

/// The product over typed slices: `x` is read at `off + j * s0 + c * s1`.
fn product<T: Mac, I: Ix>(
    (indptr, indices, data): (&[I], &[I], &[T]),
    rows: usize,
    x: Dense<'_, T>,
    k: usize,
) -> Vec<T> {
    let Dense { x, off, s0, s1 } = x;
    let nnz = indptr[rows].at();
    let mut out = crate::pool::alloc::<T>(rows * k);
    let tasks =
        if nnz * k.max(1) < 2 * BLOCK_NNZ { 1 } else { (nnz * k / BLOCK_NNZ).min(8 * rayon::current_num_threads()) };
    if rows == 1 && k == 1 && s0 == 1 && tasks > 1 {
        // one long row (a 1-D array's): its values split between the tasks, partial sums added
        let xs = &x[off as usize..];
        let part = |t: usize| {
            let (lo, hi) = (nnz * t / tasks, nnz * (t + 1) / tasks);
            dot(&indices[lo..hi], &data[lo..hi], xs)
        };
        let mut parts = vec![T::ZERO; tasks];
        let dst = Out(parts.as_mut_ptr());
        // SAFETY: task t writes element t of `parts` alone
        crate::par::map(tasks, &|t| unsafe { dst.at(t).write(part(t)) });
        out.push(T::out(parts.into_iter().fold(T::ZERO, T::add)));
        return out;
    }
    let bounds = row_blocks(indptr, rows, tasks);
    let dst = Out(out.spare_capacity_mut().as_mut_ptr().cast::<T>());
    let dense = Dense { x, off, s0, s1 };
    let xat = |j: usize, c: usize| dense.at(j, c);
    let block = |b: usize| {
        if k == 1 && s0 == 1 {
            return rows_times_vector((indptr, indices, data), &x[off as usize..], bounds[b]..bounds[b + 1], &dst);
        }
        let mut acc = vec![T::ZERO; k];
        for r in bounds[b]..bounds[b + 1] {
            let (lo, hi) = (indptr[r].at(), indptr[r + 1].at());
            let (idx, val) = (&indices[lo..hi], &data[lo..hi]);
            if k == 1 {
                let s = strided_dot(idx, val, &xat);
                // SAFETY: row r of the output belongs to this block alone
                unsafe { dst.at(r).write(T::out(s)) };
                continue;
            }
            acc.iter_mut().for_each(|a| *a = T::ZERO);
            for (&j, &v) in idx.iter().zip(val) {
                let j = j.at();
                if s1 == 1 {
                    // a contiguous row of X: one pass the compiler vectorises
                    let start = (off + j as isize * s0) as usize;
                    let xr = &x[start..start + k];
                    acc.iter_mut().zip(xr).for_each(|(a, &xv)| *a = T::mac(*a, v, xv));
                } else {
                    for (c, a) in acc.iter_mut().enumerate() {
                        *a = T::mac(*a, v, xat(j, c));
                    }
                }
            }
            for (c, a) in acc.iter().enumerate() {
                // SAFETY: as above
                unsafe { dst.at(r * k + c).write(T::out(*a)) };
            }
        }
    };
    if tasks == 1 {
        block(0);
    } else {
        crate::par::map(tasks, &|b| block(b));
    }
    // SAFETY: the blocks cover rows 0..rows, and each wrote its k values per row.
    unsafe { out.set_len(rows * k) };
    out
}

/// Rows `rows` times a contiguous `x`, in one pass over their values: two interleaved sums per
/// row (the gathers of one do not wait on the other's additions), and the `x` read of the value
/// PREFETCH ahead asked for with each value (short rows leave the out-of-order core too few
/// independent gathers to hide the cache's latency). No per-row slices: on the 5-point Poisson
/// matrix (5 values a row) the per-row bookkeeping of slicing each row cost as much as the
/// products.
fn rows_times_vector<T: Mac, I: Ix>(parts: (&[I], &[I], &[T]), xs: &[T], rows: std::ops::Range<usize>, dst: &Out<T>) {
    let (indptr, indices, _) = parts;
    let (lo, end) = (indptr[rows.start].at(), indptr[rows.end].at());
    // A block whose first values lie near the diagonal (a stencil's band) reads `x` in order,
    // which the hardware prefetcher follows: asking ahead there only costs (the 5-point Poisson
    // matrix of 10^6 rows on one thread: 11.1 ms with the prefetches, 7.9 without; SciPy 7).
    let local = indices[lo..(lo + 64).min(end)].iter().all(|c| c.at().abs_diff(rows.start) < LOCAL);
    if local {
        rows_times_vector_with::<T, I, false>(parts, xs, rows, dst)
    } else {
        rows_times_vector_with::<T, I, true>(parts, xs, rows, dst)
    }
}

/// Columns this close to a block's first row count as near the diagonal.
const LOCAL: usize = 1 << 16;

/// [`rows_times_vector`] with or without asking for `x` ahead.
fn rows_times_vector_with<T: Mac, I: Ix, const AHEAD: bool>(
    (indptr, indices, data): (&[I], &[I], &[T]),
    xs: &[T],
    rows: std::ops::Range<usize>,
    dst: &Out<T>,
) {
    let end = indptr[rows.end].at();
    let (indices, data) = (&indices[..end], &data[..end]);
    let ahead = |j: usize| {
        if AHEAD {
            if let Some(p) = indices.get(j + PREFETCH) {
                prefetch(xs.as_ptr().wrapping_add(p.at()));
            }
        }
    };
    let mut j = indptr[rows.start].at();
    for r in rows {
        let hi = indptr[r + 1].at().min(end);
        let (mut s0, mut s1) = (T::ZERO, T::ZERO);
        while j + 2 <= hi {
            ahead(j);
            ahead(j + 1);
            s0 = T::mac(s0, data[j], xs[indices[j].at()]);
            s1 = T::mac(s1, data[j + 1], xs[indices[j + 1].at()]);
            j += 2;
        }
        if j < hi {
            ahead(j);
            s0 = T::mac(s0, data[j], xs[indices[j].at()]);
            j += 1;
        }
        // SAFETY: row r of the output belongs to this block alone
        unsafe { dst.at(r).write(T::out(T::add(s0, s1))) };
    }
}

/// How many stored values ahead the vector product asks for `x`.
const PREFETCH: usize = 64;

/// A hint to bring `p`'s cache line in (nothing where the target has no such instruction).
#[inline(always)]
pub(super) fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults, whatever the address
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p.cast::<i8>())
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// One row times a contiguous `x`, in two interleaved sums (the gathers of one do not wait on the
/// other's additions).
#[inline(always)]
fn dot<T: Mac, I: Ix>(idx: &[I], val: &[T], x: &[T]) -> T::A {
    let (mut s0, mut s1) = (T::ZERO, T::ZERO);
    let (ip, vp) = (idx.chunks_exact(2), val.chunks_exact(2));
    let (it, vt) = (ip.remainder(), vp.remainder());
    for (i, v) in ip.zip(vp) {
        s0 = T::mac(s0, v[0], x[i[0].at()]);
        s1 = T::mac(s1, v[1], x[i[1].at()]);
    }
    if let (Some(i), Some(v)) = (it.first(), vt.first()) {
        s0 = T::mac(s0, *v, x[i.at()]);
    }
    T::add(s0, s1)
}

/// One row times a strided `x`.
#[inline(always)]
fn strided_dot<T: Mac, I: Ix>(idx: &[I], val: &[T], xat: &impl Fn(usize, usize) -> T) -> T::A {
    idx.iter().zip(val).fold(T::ZERO, |s, (&j, &v)| T::mac(s, v, xat(j.at(), 0)))
}

/// The typed call of the product (`A X`, or `Aᵀ X` when `transposed`) for the index and value
/// dtypes of its operands.
pub(super) fn dispatch(
    a: &CsrParts<'_, CpuStorage>,
    x: &CpuStorage,
    xl: &Layout,
    op: &'static str,
    transposed: bool,
) -> Result<HostBuffer> {
    let k = xl.shape().get(1).copied().unwrap_or(1);
    let st = xl.strides();
    let (off, s0, s1) = (xl.offset() as isize, st[0], st.get(1).copied().unwrap_or(0));
    macro_rules! typed {
        ($p:expr, $i:expr, $($v:ident),*) => {
            match (&a.data.0, &x.0) {
                $((HostBuffer::$v(d), HostBuffer::$v(xv)) => {
                    let x = Dense { x: xv, off, s0, s1 };
                    HostBuffer::$v(if transposed {
                        super::spmm_t::product_t(($p, $i, d), [a.rows, a.cols], x, k)
                    } else {
                        product(($p, $i, d), a.rows, x, k)
                    })
                },)*
                _ => return Err(Error::InvalidDType { op, dtype: x.0.dtype() }),
            }
        };
    }
    macro_rules! go {
        ($ix:ident) => {{
            let (HostBuffer::$ix(p), HostBuffer::$ix(i)) = (&a.indptr.0, &a.indices.0) else {
                return Err(Error::invalid(op, "indptr and indices must share one index dtype"));
            };
            Ok(typed!(p, i, Bool, I8, I16, I32, I64, U8, U16, U32, U64, F16, BF16, F32, F64, C64, C128))
        }};
    }
    match &a.indptr.0 {
        HostBuffer::I32(_) => go!(I32),
        HostBuffer::I64(_) => go!(I64),
        b => Err(Error::InvalidDType { op, dtype: b.dtype() }),
    }
}
