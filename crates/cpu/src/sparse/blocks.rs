//! The block format on the cores: BSR to CSR (each block value copied to its place), CSR to
//! BSR (SciPy's `csr_tobsr`: per block row, the block columns its rows touch, then every value
//! added into its block) and the BSR × dense product (a block row's `R` sums kept together, each
//! block's `C` values of `x` read once). Block rows split into tasks of about equal block counts;
//! one pass over the values each, where the composed forms take a dozen passes and a search.
use super::elem::{each_task, fresh, offsets_of, row_blocks, Dense, Ix, Mac};
use xp_core::{BsrParts, CsrBuilt, CsrParts, DType, Element, Error, HostBuffer, Layout, Result};

use crate::CpuStorage;
use rayon::prelude::*;

/// Values per task below which the work stays on one thread.
const BLOCK: usize = 1 << 16;

/// Tasks for `work` values: one below [`BLOCK`], else a few per core.
fn tasks_for(work: usize) -> usize {
    (work / BLOCK).clamp(1, 4 * rayon::current_num_threads())
}

/// A block grid's typed parts: offsets and block columns of one index type, the blocks' values.
struct Grid<'a, T, I> {
    ptr: &'a [I],
    idx: &'a [I],
    data: &'a [T],
    rows: usize,
    rc: [usize; 2],
}

/// BSR to CSR: row `I·R + i` holds row `i` of each of block row `I`'s blocks, in their order.
fn to_csr<T: Element, I: Ix, O: Ix + Element>(g: &Grid<'_, T, I>) -> (Vec<O>, Vec<O>, Vec<T>) {
    let ([r, c], nnz) = (g.rc, g.data.len());
    let mut ptr = Vec::with_capacity(g.rows * r + 1);
    for bi in 0..g.rows {
        let (s, n) = (g.ptr[bi].at(), g.ptr[bi + 1].at() - g.ptr[bi].at());
        ptr.extend((0..r).map(|i| O::from_usize(s * r * c + i * n * c)));
    }
    ptr.push(O::from_usize(nnz));
    let ((mut idx, di), (mut data, dd)) = (fresh::<O>(nnz), fresh::<T>(nnz));
    let tasks = tasks_for(nnz);
    let bounds = row_blocks(g.ptr, g.rows, tasks);
    each_task(tasks, &|t| {
        for bi in bounds[t]..bounds[t + 1] {
            let (s, e) = (g.ptr[bi].at(), g.ptr[bi + 1].at());
            for i in 0..r {
                let mut at = s * r * c + i * (e - s) * c;
                for b in s..e {
                    let col = g.idx[b].at() * c;
                    let from = &g.data[(b * r + i) * c..(b * r + i + 1) * c];
                    assert!(at + c <= nnz);
                    for (j, &v) in from.iter().enumerate() {
                        // SAFETY: block row bi's places s·R·C .. e·R·C belong to this task, < nnz
                        unsafe {
                            dd.at(at + j).write(v);
                            di.at(at + j).write(O::from_usize(col + j));
                        }
                    }
                    at += c;
                }
            }
        }
    });
    // SAFETY: the block rows tile the blocks; every value of every block was written once
    unsafe {
        idx.set_len(nnz);
        data.set_len(nnz);
    }
    (ptr, idx, data)
}

/// `A @ X` for BSR `A` and a dense `X` of `k` columns.
fn product<T: Mac, I: Ix>(g: &Grid<'_, T, I>, x: Dense<'_, T>, k: usize) -> Vec<T> {
    let [r, c] = g.rc;
    let n = g.rows * r * k;
    let (mut out, dst) = fresh::<T>(n);
    let tasks = tasks_for(g.data.len() * k);
    let bounds = row_blocks(g.ptr, g.rows, tasks);
    let contiguous = (k == 1 && x.s0 == 1).then(|| &x.x[x.off as usize..]);
    each_task(tasks, &|t| {
        let mut acc = vec![T::ZERO; r * k];
        for bi in bounds[t]..bounds[t + 1] {
            acc.iter_mut().for_each(|a| *a = T::ZERO);
            for b in g.ptr[bi].at()..g.ptr[bi + 1].at() {
                let col = g.idx[b].at() * c;
                let block = &g.data[b * r * c..(b + 1) * r * c];
                if let Some(xs) = contiguous.and_then(|xv| xv.get(col..col + c)) {
                    // one column of contiguous x: the block's C values of x read once
                    for (a, row) in acc.iter_mut().zip(block.chunks_exact(c)) {
                        *a = row.iter().zip(xs).fold(*a, |s, (&v, &xv)| T::mac(s, v, xv));
                    }
                    continue;
                }
                for (i, row) in block.chunks_exact(c).enumerate() {
                    for (j, &v) in row.iter().enumerate() {
                        for (q, a) in acc[i * k..(i + 1) * k].iter_mut().enumerate() {
                            *a = T::mac(*a, v, x.at(col + j, q));
                        }
                    }
                }
            }
            assert!((bi + 1) * r * k <= n);
            for (q, a) in acc.iter().enumerate() {
                // SAFETY: block row bi's output rows belong to this task alone, < n
                unsafe { dst.at(bi * r * k + q).write(T::out(*a)) };
            }
        }
    });
    // SAFETY: the tasks cover every block row, each writing its R·k outputs
    unsafe { out.set_len(n) };
    out
}

/// Block rows of at most this many rows whose rows hold sorted columns are walked by merging
/// their rows (no scratch over the block columns, whose random reads dominate otherwise).
const MERGE_ROWS: usize = 8;

/// Visits the values of rows `first .. first + r` in increasing column, ties in row order, as
/// `(i, k)` (row `first + i`, value `k`), where `r <= MERGE_ROWS` and every row's columns are
/// nondecreasing; else visits nothing and answers `false`.
fn merged<I: Ix>(ptr: &[I], idx: &[I], first: usize, r: usize, mut visit: impl FnMut(usize, usize)) -> bool {
    if r > MERGE_ROWS {
        return false;
    }
    let (mut at, mut end) = ([0usize; MERGE_ROWS], [0usize; MERGE_ROWS]);
    for i in 0..r {
        (at[i], end[i]) = (ptr[first + i].at(), ptr[first + i + 1].at());
        if idx[at[i]..end[i]].windows(2).any(|w| w[0].at() > w[1].at()) {
            return false;
        }
    }
    loop {
        let (mut best, mut pick) = (usize::MAX, r);
        for i in 0..r {
            if at[i] < end[i] && idx[at[i]].at() < best {
                (best, pick) = (idx[at[i]].at(), i);
            }
        }
        if pick == r {
            return true;
        }
        visit(pick, at[pick]);
        at[pick] += 1;
    }
}

#[allow(clippy::needless_range_loop)] // (block rows index several arrays)
/// CSR to BSR of blocks `[r, c]`: each block row's blocks in increasing block column, values at
/// one place added in their order (NumPy's addition of the dtype). A block row of sorted rows
/// is a merge of its rows; others mark the block columns they touch in a scratch array.
fn to_bsr<T: Mac, I: Ix, O: Ix + Element>(a: &Grid<'_, T, I>, cols: usize) -> (Vec<O>, Vec<O>, Vec<T>) {
    let [r, c] = a.rc;
    let (nbr, ncb, rc) = (a.rows / r, cols / c, r * c);
    // the offsets of block rows in the CSR values, to split the work by values
    let bptr: Vec<usize> = (0..=nbr).map(|bi| a.ptr[bi * r].at()).collect();
    // one task per core: each needs marks over every block column
    let tasks = if a.data.len() < BLOCK { 1 } else { rayon::current_num_threads() };
    let bounds = row_blocks(&bptr, nbr, tasks);
    // the sorted block columns a block row touches, through `seen` (the last block row that
    // marked each block column, plus one) and `list`; scratch per worker, not per task, made
    // on first use
    let columns = |bi: usize, seen: &mut Vec<usize>, list: &mut Vec<usize>, sort: bool| {
        list.clear();
        seen.resize(ncb, 0);
        for &j in &a.idx[bptr[bi]..bptr[bi + 1]] {
            let jb = j.at() / c;
            if seen[jb] != bi + 1 {
                seen[jb] = bi + 1;
                list.push(jb);
            }
        }
        if sort {
            list.sort_unstable();
        }
    };
    let counts: Vec<Vec<usize>> = (0..tasks)
        .into_par_iter()
        .map_init(
            || (Vec::new(), Vec::new()),
            |(seen, list), t| {
                (bounds[t]..bounds[t + 1])
                    .map(|bi| {
                        let (mut n, mut last) = (0, usize::MAX);
                        let walked = merged(a.ptr, a.idx, bi * r, r, |_, k| {
                            let jb = a.idx[k].at() / c;
                            n += usize::from(jb != last);
                            last = jb;
                        });
                        if walked {
                            return n;
                        }
                        columns(bi, seen, list, false);
                        list.len()
                    })
                    .collect()
            },
        )
        .collect();
    let ptr = offsets_of(counts.iter().flatten().copied());
    let nb = ptr[nbr];
    let ((mut idx, di), (mut data, dd)) = (fresh::<O>(nb), fresh::<T>(nb * rc));
    // block q of a block row starting at `first`: its column written, its values zeroed
    let open = |first: usize, q: usize, jb: usize, end: usize| {
        assert!(first + q < end);
        // SAFETY: block row bi's blocks first .. end belong to this task, end <= nb
        unsafe { di.at(first + q).write(O::from_usize(jb)) };
        for v in 0..rc {
            // SAFETY: as above, the block's rc values
            unsafe { dd.at((first + q) * rc + v).write(T::default()) };
        }
    };
    // value k of row i of the block row added into its block's place `q`
    let add = |q: usize, i: usize, k: usize| {
        let j = a.idx[k].at();
        // SAFETY: block q was opened above, in this task's range
        unsafe {
            let p = dd.at(q * rc + i * c + j % c);
            p.write(T::plus(*p, a.data[k]));
        }
    };
    let scratch = || (Vec::new(), Vec::new(), Vec::new());
    (0..tasks).into_par_iter().for_each_init(scratch, |(seen, list, slot), t| {
        for bi in bounds[t]..bounds[t + 1] {
            let (first, end) = (ptr[bi], ptr[bi + 1]);
            let (mut q, mut last) = (0usize, usize::MAX);
            let walked = merged(a.ptr, a.idx, bi * r, r, |i, k| {
                let jb = a.idx[k].at() / c;
                if jb != last {
                    open(first, q, jb, end);
                    (q, last) = (q + 1, jb);
                }
                add(first + q - 1, i, k);
            });
            if walked {
                continue;
            }
            columns(bi, seen, list, true);
            slot.resize(ncb, 0);
            for (q, &jb) in list.iter().enumerate() {
                slot[jb] = first + q;
                open(first, q, jb, end);
            }
            for i in 0..r {
                let row = bi * r + i;
                for k in a.ptr[row].at()..a.ptr[row + 1].at() {
                    add(slot[a.idx[k].at() / c], i, k);
                }
            }
        }
    });
    // SAFETY: every block of every block row was written (zeroed, then added into)
    unsafe {
        idx.set_len(nb);
        data.set_len(nb * rc);
    }
    (ptr.into_iter().map(O::from_usize).collect(), idx, data)
}

/// `$body` with `$d` the typed values of `$data`.
macro_rules! by_values {
    ($data:expr, |$d:ident| $body:expr; $($v:ident),*) => {
        match $data {
            $(HostBuffer::$v($d) => $body,)*
        }
    };
}

/// `$body` with `$p`, `$i` (offsets and indices of one index type) and `$d` (the values) typed.
macro_rules! typed_parts {
    ($op:expr, $ptr:expr, $idx:expr, $data:expr, |$p:ident, $i:ident, $d:ident| $body:expr) => {
        match ($ptr, $idx) {
            (HostBuffer::I32($p), HostBuffer::I32($i)) => {
                by_values!($data, |$d| $body; Bool, I8, I16, I32, I64, U8, U16, U32, U64, F16, BF16, F32, F64, C64, C128)
            }
            (HostBuffer::I64($p), HostBuffer::I64($i)) => {
                by_values!($data, |$d| $body; Bool, I8, I16, I32, I64, U8, U16, U32, U64, F16, BF16, F32, F64, C64, C128)
            }
            _ => return Err(Error::invalid($op, "indptr and indices must share one index dtype (int32 or int64)")),
        }
    };
}

/// `b`'s values as the element type of `_like` (the caller checked the dtypes agree).
fn same<'a, T: Element>(_like: &[T], b: &'a HostBuffer) -> &'a [T] {
    T::slice_of(b).expect("dtype checked")
}

/// The CSR parts of `(ptr, idx, data)` as storages, indices of dtype `ix`.
fn built<T: Element, O: Element>((p, i, d): (Vec<O>, Vec<O>, Vec<T>)) -> CsrBuilt<CpuStorage>
where
    Vec<O>: Into<HostBuffer>,
    Vec<T>: Into<HostBuffer>,
{
    CsrBuilt { indptr: CpuStorage(p.into()), indices: CpuStorage(i.into()), data: CpuStorage(d.into()) }
}

/// [`xp_core::SparseStorage::bsr_to_csr`] on host buffers.
pub(super) fn bsr_to_csr(a: &BsrParts<'_, CpuStorage>, ix: DType) -> Result<CsrBuilt<CpuStorage>> {
    let g = &a.grid;
    typed_parts!("bsr_to_csr", &g.indptr.0, &g.indices.0, &g.data.0, |p, i, d| {
        let grid = Grid { ptr: p, idx: i, data: d, rows: g.rows, rc: a.block };
        Ok(match ix {
            DType::I32 => built(to_csr::<_, _, i32>(&grid)),
            _ => built(to_csr::<_, _, i64>(&grid)),
        })
    })
}

/// [`xp_core::SparseStorage::csr_to_bsr`] on host buffers.
pub(super) fn csr_to_bsr(a: &CsrParts<'_, CpuStorage>, block: [usize; 2], ix: DType) -> Result<CsrBuilt<CpuStorage>> {
    typed_parts!("csr_to_bsr", &a.indptr.0, &a.indices.0, &a.data.0, |p, i, d| {
        let grid = Grid { ptr: p, idx: i, data: d, rows: a.rows, rc: block };
        Ok(match ix {
            DType::I32 => built(to_bsr::<_, _, i32>(&grid, a.cols)),
            _ => built(to_bsr::<_, _, i64>(&grid, a.cols)),
        })
    })
}

/// [`xp_core::SparseStorage::bsr_matmul`] on host buffers.
pub(super) fn bsr_matmul(a: &BsrParts<'_, CpuStorage>, x: &CpuStorage, xl: &Layout) -> Result<HostBuffer> {
    let g = &a.grid;
    let k = xl.shape().get(1).copied().unwrap_or(1);
    let st = xl.strides();
    let (off, s0, s1) = (xl.offset() as isize, st[0], st.get(1).copied().unwrap_or(0));
    if x.0.dtype() != g.data.0.dtype() {
        return Err(Error::InvalidDType { op: "bsr_matmul", dtype: x.0.dtype() });
    }
    typed_parts!("bsr_matmul", &g.indptr.0, &g.indices.0, &g.data.0, |p, i, d| {
        let grid = Grid { ptr: p, idx: i, data: d, rows: g.rows, rc: a.block };
        let xv = same(d, &x.0);
        Ok(product(&grid, Dense { x: xv, off, s0, s1 }, k).into())
    })
}
