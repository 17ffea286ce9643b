//! Device memory: what xp's arrays hold, a settable limit, and the driver's stream-ordered pool
//! (`cuMemAllocAsync`) behind it, fronted by a cache of small blocks per stream (as CuPy's pool:
//! an op on small arrays then makes no allocation call to the driver). A request over the limit
//! fails with `Error::OutOfMemory`; a driver out-of-memory first returns the cached blocks to the
//! driver and retries once.
use super::device::{driver_err, Dev};
use super::launch::KeyHasher;
use cudarc::driver::{result, sys, CudaStream};
use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use xp_core::{Device, Error, Result};

/// Blocks up to this size are cached per stream when freed, in classes of [`CLASS`] bytes.
const SMALL: usize = 1 << 20;
const CLASS: usize = 512;
/// The most bytes the small-block cache of one device keeps.
const CACHE_LIMIT: usize = 256 << 20;

/// A device allocation: its address, its size, and the stream its uses are ordered on.
#[derive(Clone)]
pub(crate) struct Block {
    pub(crate) ptr: u64,
    pub(crate) bytes: usize,
    pub(crate) stream: Arc<CudaStream>,
}

/// Free blocks of one size on one stream (the stream is held so that its handle stays unique).
type Bin = (Arc<CudaStream>, Vec<u64>);

/// Freed small blocks, by (stream handle, size): reusable on that stream without any
/// synchronisation.
#[derive(Default)]
pub(crate) struct Cache {
    free: HashMap<(usize, usize), Bin, std::hash::BuildHasherDefault<KeyHasher>>,
    bytes: usize,
}

fn class(bytes: usize) -> usize {
    if bytes <= SMALL {
        bytes.max(1).next_multiple_of(CLASS)
    } else {
        bytes
    }
}

/// A block of at least `bytes` on `d`'s current stream: from the cache, else from the driver.
pub(crate) fn alloc(d: &Dev, bytes: usize) -> Result<Block> {
    let bytes = class(bytes);
    if crate::runtime::graph::capturing(d.ordinal) {
        // During a capture: from the pool on the default stream, outside the graph, so that the
        // memory stays valid between replays (see `graph`).
        let stream = d.stream.clone();
        let ptr = reserve(d, bytes, || {
            d.ctx.bind_to_thread()?;
            // SAFETY: allocates on the device's live default stream.
            unsafe { result::malloc_async(stream.cu_stream(), bytes) }
        })?;
        return Ok(Block { ptr, bytes, stream });
    }
    let stream = d.current();
    let ptr = reserve(d, bytes, || {
        if bytes <= SMALL {
            let mut c = d.cache.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(p) = c.free.get_mut(&(stream.cu_stream() as usize, bytes)).and_then(|e| e.1.pop()) {
                c.bytes -= bytes;
                return Ok(p);
            }
        }
        d.ctx.bind_to_thread()?;
        // SAFETY: allocates on a live stream of this (bound) context.
        unsafe { result::malloc_async(stream.cu_stream(), bytes) }
    })?;
    Ok(Block { ptr, bytes, stream })
}

/// Give a block back: small ones to the cache of their stream (later uses on that stream are
/// ordered after everything queued before), large ones to the driver, on their stream.
pub(crate) fn release(d: &Dev, b: &Block) {
    if crate::runtime::graph::adopt(d, b) {
        return; // a graph uses it: freed when the graph goes
    }
    d.used.fetch_sub(b.bytes, Ordering::Relaxed);
    let mut c = d.cache.lock().unwrap_or_else(|e| e.into_inner());
    if abandoned(d, &c, &b.stream, 1) {
        // the last block of a stream nobody holds: its cached blocks and this one go back to the
        // driver, and the stream is destroyed when this block's handle drops
        c.forget(d, &b.stream, Some(b.ptr));
        return;
    }
    if b.bytes <= SMALL && c.bytes + b.bytes <= CACHE_LIMIT {
        c.bytes += b.bytes;
        let e = c.free.entry((b.stream.cu_stream() as usize, b.bytes)).or_insert_with(|| (b.stream.clone(), vec![]));
        e.1.push(b.ptr);
        return;
    }
    drop(c);
    d.ctx.record_err(d.ctx.bind_to_thread());
    // SAFETY: the block is no longer referenced by any array; the free is ordered on its stream.
    d.ctx.record_err(unsafe { result::free_async(b.ptr, b.stream.cu_stream()) });
}

/// Whether `s` (a stream other than the device's default one) is held by nothing but `own`
/// handles of the caller and the cache's bins of its blocks: no user handle, no scope, no other
/// live block. Then its cached blocks must go, or they would keep it alive: a program that makes
/// streams in a loop (CuPy's map-reduce example makes eleven a call) kept every one, and with
/// hundreds alive each device-wide synchronisation took 0.7 ms instead of 0.02 (H200).
fn abandoned(d: &Dev, c: &Cache, s: &Arc<CudaStream>, own: usize) -> bool {
    if s.cu_stream() == d.stream.cu_stream() {
        return false;
    }
    let held = Arc::strong_count(s);
    // (no scan of the bins while more hold it than there are bins at all)
    held <= own + c.free.len() && held <= own + c.free.keys().filter(|k| k.0 == s.cu_stream() as usize).count()
}

impl Cache {
    /// Free `s`'s cached blocks (and `also`) on `s`, in stream order, and drop its bins.
    fn forget(&mut self, d: &Dev, s: &CudaStream, also: Option<u64>) {
        let key = s.cu_stream() as usize;
        let (mut ptrs, mut bytes): (Vec<u64>, usize) = (also.into_iter().collect(), 0);
        self.free.retain(|k, bin| {
            if k.0 != key {
                return true;
            }
            bytes += k.1 * bin.1.len();
            ptrs.append(&mut bin.1);
            false
        });
        self.bytes -= bytes;
        d.ctx.record_err(d.ctx.bind_to_thread());
        for p in ptrs {
            // SAFETY: cached blocks (and a released one) are referenced by nothing; the free is
            // ordered after the work queued on their stream.
            d.ctx.record_err(unsafe { result::free_async(p, s.cu_stream()) });
        }
    }
}

/// Whether the caller's one handle of `s` and the cache's bins are all that hold stream `s`.
pub(crate) fn unheld(d: &Dev, s: &Arc<CudaStream>) -> bool {
    abandoned(d, &d.cache.lock().unwrap_or_else(|e| e.into_inner()), s, 1)
}

/// A user's handle of stream `s` is going (the caller holds it): if nothing else holds the
/// stream but the cache, give its cached blocks back so that the stream is destroyed.
pub(crate) fn stream_dropped(d: &Dev, s: &Arc<CudaStream>) {
    let mut c = d.cache.lock().unwrap_or_else(|e| e.into_inner());
    if abandoned(d, &c, s, 1) {
        c.forget(d, s, None);
    }
}

/// Return every cached small block to the driver (each freed on its own stream).
fn drain(d: &Dev) -> Result<()> {
    let free = std::mem::take(&mut *d.cache.lock().unwrap_or_else(|e| e.into_inner()));
    d.ctx.bind_to_thread().map_err(driver_err)?;
    for (_, (s, ptrs)) in free.free {
        for p in ptrs {
            // SAFETY: cached blocks are referenced by nothing.
            unsafe { result::free_async(p, s.cu_stream()) }.map_err(driver_err)?;
        }
    }
    Ok(())
}

/// Bytes held by xp arrays on device `ordinal` now.
pub fn used_bytes(ordinal: usize) -> Result<usize> {
    Ok(crate::runtime::device::get(ordinal)?.used.load(Ordering::Relaxed))
}

/// Bytes the driver's pool has reserved from the device (held by arrays or cached for reuse).
pub fn total_bytes(ordinal: usize) -> Result<usize> {
    let d = crate::runtime::device::get(ordinal)?;
    let mut v: u64 = 0;
    let pool = default_pool(&d)?;
    // SAFETY: reads one u64 attribute of a valid pool.
    let r = unsafe {
        sys::cuMemPoolGetAttribute(
            pool,
            sys::CUmemPool_attribute::CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT,
            &mut v as *mut u64 as *mut std::ffi::c_void,
        )
    };
    r.result().map_err(driver_err)?;
    Ok(v as usize)
}

/// Keep memory freed to the driver's pool in the pool (as CuPy keeps its blocks) instead of
/// returning it to the OS at every synchronisation; [`free_all_blocks`] trims it.
pub(crate) fn keep_freed_memory(d: &Dev) -> Result<()> {
    let keep = u64::MAX;
    // SAFETY: sets one u64 attribute of the device's valid default pool.
    unsafe {
        sys::cuMemPoolSetAttribute(
            default_pool(d)?,
            sys::CUmemPool_attribute::CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
            &keep as *const u64 as *mut std::ffi::c_void,
        )
    }
    .result()
    .map_err(driver_err)
}

/// Set the most bytes xp arrays may hold on device `ordinal` (`usize::MAX`: no limit).
pub fn set_limit(ordinal: usize, bytes: usize) -> Result<()> {
    crate::runtime::device::get(ordinal)?.limit.store(bytes, Ordering::Relaxed);
    Ok(())
}

/// The limit set by [`set_limit`].
pub fn limit(ordinal: usize) -> Result<usize> {
    Ok(crate::runtime::device::get(ordinal)?.limit.load(Ordering::Relaxed))
}

/// Return xp's and the driver pool's cached (unused) blocks of device `ordinal` to the driver.
pub fn free_all_blocks(ordinal: usize) -> Result<()> {
    trim(&*crate::runtime::device::get(ordinal)?)
}

fn default_pool(d: &Dev) -> Result<sys::CUmemoryPool> {
    let mut pool: sys::CUmemoryPool = std::ptr::null_mut();
    // SAFETY: writes one pool handle for a valid device.
    unsafe { sys::cuDeviceGetDefaultMemPool(&mut pool, d.ctx.cu_device()) }.result().map_err(driver_err)?;
    Ok(pool)
}

fn trim(d: &Dev) -> Result<()> {
    drain(d)?;
    d.ctx.synchronize().map_err(driver_err)?;
    // SAFETY: trimming only releases blocks no allocation holds.
    unsafe { sys::cuMemPoolTrimTo(default_pool(d)?, 0) }.result().map_err(driver_err)
}

/// Account for `bytes` more on `d`, allocating with `alloc`; over the limit, or out of device
/// memory after a trim and a retry, a typed error with what is free.
fn reserve<T>(
    d: &Dev,
    bytes: usize,
    mut alloc: impl FnMut() -> std::result::Result<T, cudarc::driver::DriverError>,
) -> Result<T> {
    let used = d.used.fetch_add(bytes, Ordering::Relaxed);
    let limit = d.limit.load(Ordering::Relaxed);
    let oom = |free: usize| Error::OutOfMemory { device: Device::Cuda(d.ordinal), requested: bytes, free };
    if used.saturating_add(bytes) > limit {
        d.used.fetch_sub(bytes, Ordering::Relaxed);
        return Err(oom(limit.saturating_sub(used)));
    }
    let is_oom = |e: &cudarc::driver::DriverError| e.0 == sys::CUresult::CUDA_ERROR_OUT_OF_MEMORY;
    let r = match alloc() {
        Err(e) if is_oom(&e) => {
            trim(d)?;
            alloc()
        }
        r => r,
    };
    r.map_err(|e| {
        d.used.fetch_sub(bytes, Ordering::Relaxed);
        if is_oom(&e) {
            oom(d.ctx.mem_get_info().map(|(f, _)| f).unwrap_or(0))
        } else {
            driver_err(e)
        }
    })
}
