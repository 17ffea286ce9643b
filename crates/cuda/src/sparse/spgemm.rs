//! `C = A B` of two CSR matrices on the GPU, row by row (Gustavson) with a hash table per row:
//! 1. `spgemm_bound` counts each row's products (an upper bound of its columns); their maximum
//!    is read back;
//! 2. rows of at most half a warp table's products take a warp each with the table in shared
//!    memory (`spgemm_warp`: every row, where the longest fits); longer rows (listed from the
//!    counts, read back only then) a block each with a table of twice their distinct columns'
//!    bound in global memory (`spgemm_block`), in batches of bounded table memory;
//! 3. a counting pass (mode 0) gives each row's distinct columns, summed on the device into the
//!    offsets (the total read back), and a second pass (mode 1) writes the columns and their
//!    sums there.
//!
//! Memory stays within the result, the bounds and one batch of tables; columns come out in any
//! order, zero sums included (the front end drops them). Every value dtype has a table
//! accumulator with hardware atomics (`spgemm_src.rs`).
use super::spgemm_src::{slot_bytes, source, table_dtype};
use crate::index::read_i64;
use crate::runtime::buffer::CudaStorage;
use crate::runtime::device::driver_err;
use crate::runtime::device::Dev;
use crate::runtime::launch::{Family, Kernel, Key, Source, Work};
use cudarc::driver::LaunchConfig;
use xp_core::{BackendStorage, BinaryOp, CsrBuilt, CsrParts, DType, Error, HostBuffer, Layout, Result};

/// Table slots of one batch of long rows (their keys and values in global memory).
const TABLE_BUDGET: usize = 1 << 25;

/// Slots of a warp's table in shared memory for values of `d` (four warps a block, 48 KiB).
fn warp_slots(d: DType) -> usize {
    let fit = 12 * 1024 / slot_bytes(d);
    1 << (usize::BITS - 1 - fit.leading_zeros())
}

fn host_i64(s: &CudaStorage) -> Result<Vec<i64>> {
    match s.to_host(&Layout::contiguous(&[s.len]))? {
        HostBuffer::I64(v) => Ok(v),
        _ => Err(Error::invalid("csr_spgemm", "expected int64 counts")),
    }
}

fn upload_i64(dev: &std::sync::Arc<Dev>, v: Vec<i64>, dt: DType) -> Result<CudaStorage> {
    let host =
        if dt == DType::I32 { HostBuffer::I32(v.into_iter().map(|x| x as i32).collect()) } else { HostBuffer::I64(v) };
    CudaStorage::upload(dev, &host)
}

fn cfg(blocks: usize, threads: u32) -> LaunchConfig {
    LaunchConfig { grid_dim: (blocks.max(1) as u32, 1, 1), block_dim: (threads, 1, 1), shared_mem_bytes: 0 }
}

/// One batch of long rows: their list, each table's offset and size, and the slots in all.
struct Batch {
    rows: CudaStorage,
    toff: CudaStorage,
    tsz: CudaStorage,
    slots: usize,
}

/// [`xp_core::SparseStorage::csr_spgemm`] on the GPU (the module's plan).
pub(super) fn spgemm(
    a: &CsrParts<'_, CudaStorage>,
    b: &CsrParts<'_, CudaStorage>,
    ox: DType,
) -> Result<CsrBuilt<CudaStorage>> {
    let op = "csr_spgemm";
    let (d, ix) = (a.data.dtype, a.indptr.dtype);
    let same = [a.indices.dtype, b.indptr.dtype, b.indices.dtype].iter().all(|&t| t == ix);
    if b.data.dtype != d || !same || !matches!(ix, DType::I32 | DType::I64) || !matches!(ox, DType::I32 | DType::I64) {
        return Err(Error::invalid(op, "operands of one value dtype and one index dtype (int32 or int64)"));
    }
    if b.cols >= i32::MAX as usize {
        // the tables hold 32-bit columns
        return Err(Error::Unsupported { op, backend: CudaStorage::NAME });
    }
    let dev = &a.data.dev;
    let m = a.rows;
    if m == 0 || a.data.len == 0 || b.data.len == 0 {
        return Ok(CsrBuilt {
            indptr: upload_i64(dev, vec![0; m + 1], ox)?,
            indices: CudaStorage::alloc(dev, ox, 0)?,
            data: CudaStorage::alloc(dev, d, 0)?,
        });
    }
    let ws = warp_slots(d);
    let key = Key::new(Family::SparseMatmul).dtype(d).flag(ix == DType::I64).bits(2, 2 + (ox == DType::I64) as u64);
    let spec = format!("{}_{}_{}", d.name(), ix.name(), ox.name());
    let [bound, ptr, warp, block] =
        dev.kernels(key, ["spgemm_bound", "spgemm_ptr", "spgemm_warp", "spgemm_block"], || {
            Source::new(spec, source(d, ix, ox, ws))
        })?;
    let ins = [a.indptr, a.indices, a.data, b.indptr, b.indices, b.data];
    let p = [a.indptr.ptr(0), a.indices.ptr(0), a.data.ptr(0), b.indptr.ptr(0), b.indices.ptr(0), b.data.ptr(0)];
    let whole = Layout::contiguous(&[m]);

    // 1. products per row, and the most in one row
    let ub = CudaStorage::alloc(dev, DType::I64, m)?;
    {
        let wk = dev.work(&[&ins[..], &[&ub]].concat())?;
        let (mm, pu) = (m as i64, ub.ptr(0));
        // SAFETY: ap holds m + 1 offsets into ai, whose entries are rows of B (checked by the
        // front end), bp holds b.rows + 1 offsets; ub holds m int64.
        unsafe { wk.launch(&bound, cfg(m.div_ceil(256).min(1 << 16), 256), &[&p[0], &p[1], &p[3], &mm, &pu]) }?;
        wk.done()?;
    }
    let most = read_i64(&ub.reduce(&whole, BinaryOp::Max, &[0])?, 0)?;
    // 2. rows by table: a warp for every row where the longest fits (no list), else lists
    let (small, batches) = if most as usize <= ws / 2 {
        (None, Vec::new())
    } else {
        let (small, batches) = plan(&host_i64(&ub)?, ws, b.cols, dev)?;
        (Some(small), batches)
    };
    // 3. count, offsets, write
    let counts = CudaStorage::alloc(dev, DType::I64, m)?;
    {
        let wk = dev.work(&[&counts])?;
        dev.bind()?;
        // SAFETY: counts holds m int64; the fill is ordered on the work's stream.
        unsafe { cudarc::driver::result::memset_d8_async(counts.ptr(0), 0, m * 8, wk.stream().cu_stream()) }
            .map_err(driver_err)?;
        wk.done()?;
    }
    let pass = |mode: i32, inc: &CudaStorage, oi: &CudaStorage, od: &CudaStorage| -> Result<()> {
        let o = [counts.ptr(0), inc.ptr(0), oi.ptr(0), od.ptr(0)];
        let (list, n) = match &small {
            Some(s) => (Some(s), s.len),
            None => (None, m),
        };
        let mut bufs: Vec<&CudaStorage> = [&ins[..], &[&ub, &counts, inc, oi, od]].concat();
        bufs.extend(list);
        if n > 0 {
            let wk = dev.work(&bufs)?;
            let (pr, nn, pu) = (list.map_or(0, |s| s.ptr(0)), n as i64, ub.ptr(0));
            // SAFETY: the rows taken (listed, or all) are rows of A whose products fit a warp's
            // table (at most half its slots); in mode 1 inc holds the inclusive sums of the
            // counts, the offsets into oi and od, which hold every row's counted columns.
            unsafe {
                wk.launch(
                    &warp,
                    cfg(n.div_ceil(4).min(1 << 16), 128),
                    &[&p[0], &p[1], &p[2], &p[3], &p[4], &p[5], &pr, &nn, &pu, &mode, &o[0], &o[1], &o[2], &o[3]],
                )
            }?;
            wk.done()?;
        }
        for bt in &batches {
            run_batch(dev, &block, bt, d, p, mode, o, &bufs)?;
        }
        Ok(())
    };
    let none = CudaStorage::alloc(dev, DType::I64, 0)?;
    pass(0, &none, &none, &none)?;
    let inc = counts.scan(&whole, BinaryOp::Add, 0)?;
    let total = read_i64(&inc, m - 1)? as usize;
    let indptr = CudaStorage::alloc(dev, ox, m + 1)?;
    {
        let wk = dev.work(&[&inc, &indptr])?;
        let (pi, mm, pp) = (inc.ptr(0), m as i64, indptr.ptr(0));
        // SAFETY: inc holds m int64, indptr m + 1 elements of ox.
        unsafe { wk.launch(&ptr, cfg((m + 1).div_ceil(256).min(1 << 16), 256), &[&pi, &mm, &pp]) }?;
        wk.done()?;
    }
    let (oi, od) = (CudaStorage::alloc(dev, ox, total)?, CudaStorage::alloc(dev, d, total)?);
    pass(1, &inc, &oi, &od)?;
    Ok(CsrBuilt { indptr, indices: oi, data: od })
}

/// The rows whose products fit a warp's table of `ws` slots (listed), and the others in batches
/// of bounded table memory, from each row's products `ub`.
fn plan(ub: &[i64], ws: usize, cols: usize, dev: &std::sync::Arc<Dev>) -> Result<(CudaStorage, Vec<Batch>)> {
    let (mut small, mut long) = (Vec::new(), Vec::new());
    for (r, &u) in ub.iter().enumerate() {
        if u > 0 && u as usize <= ws / 2 {
            small.push(r as i64);
        } else if u > 0 {
            let distinct = (u as usize).min(cols).max(16);
            long.push((r as i64, (2 * distinct).next_power_of_two()));
        }
    }
    let mut batches = Vec::new();
    let mut at = 0;
    while at < long.len() {
        let (mut end, mut slots) = (at, 0usize);
        while end < long.len() && (end == at || slots + long[end].1 <= TABLE_BUDGET) {
            slots += long[end].1;
            end += 1;
        }
        let part = &long[at..end];
        let mut off = 0i64;
        let toff: Vec<i64> = part
            .iter()
            .map(|&(_, s)| {
                let o = off;
                off += s as i64;
                o
            })
            .collect();
        batches.push(Batch {
            rows: upload_i64(dev, part.iter().map(|p| p.0).collect(), DType::I64)?,
            toff: upload_i64(dev, toff, DType::I64)?,
            tsz: upload_i64(dev, part.iter().map(|p| p.1 as i64).collect(), DType::I64)?,
            slots,
        });
        at = end;
    }
    Ok((upload_i64(dev, small, DType::I64)?, batches))
}

/// One launch of `spgemm_block` over a batch of long rows, with its tables.
#[allow(clippy::too_many_arguments)]
fn run_batch(
    dev: &std::sync::Arc<Dev>,
    block: &Kernel,
    bt: &Batch,
    d: DType,
    [ap, ai, ad, bp, bi, bd]: [u64; 6],
    mode: i32,
    [pc, po, poi, pod]: [u64; 4],
    bufs: &[&CudaStorage],
) -> Result<()> {
    let (vt, parts) = table_dtype(d);
    let keys = CudaStorage::alloc(dev, DType::I32, bt.slots)?;
    let vals = CudaStorage::alloc(dev, vt, parts * bt.slots)?;
    let all: Vec<&CudaStorage> = [bufs, &[&bt.rows, &bt.toff, &bt.tsz, &keys, &vals]].concat();
    let wk: Work<'_> = dev.work(&all)?;
    let (pr, pt, ps, pk, pv) = (bt.rows.ptr(0), bt.toff.ptr(0), bt.tsz.ptr(0), keys.ptr(0), vals.ptr(0));
    // SAFETY: each listed row's table lies at its offset within keys (slots) and vals (parts per
    // slot), sized a power of two above twice the row's distinct columns; the rest as the warp
    // kernel's.
    unsafe {
        wk.launch(
            block,
            cfg(bt.rows.len, 256),
            &[&ap, &ai, &ad, &bp, &bi, &bd, &pr, &pt, &ps, &pk, &pv, &mode, &pc, &po, &poi, &pod],
        )
    }?;
    wk.done()
}
