//! Device memory: what xp's arrays hold, a settable limit, and the driver's stream-ordered pool
//! (`cuMemAllocAsync`) behind it. A request over the limit fails with `Error::OutOfMemory`; a
//! driver out-of-memory first returns the pool's cached blocks to the driver and retries once.
use crate::device::{driver_err, Dev};
use cudarc::driver::sys;
use std::sync::atomic::Ordering;
use xp_core::{Device, Error, Result};

/// Bytes held by xp arrays on device `ordinal` now.
pub fn used_bytes(ordinal: usize) -> Result<usize> {
    Ok(crate::device::get(ordinal)?.used.load(Ordering::Relaxed))
}

/// Bytes the driver's pool has reserved from the device (held by arrays or cached for reuse).
pub fn total_bytes(ordinal: usize) -> Result<usize> {
    let d = crate::device::get(ordinal)?;
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

/// Set the most bytes xp arrays may hold on device `ordinal` (`usize::MAX`: no limit).
pub fn set_limit(ordinal: usize, bytes: usize) -> Result<()> {
    crate::device::get(ordinal)?.limit.store(bytes, Ordering::Relaxed);
    Ok(())
}

/// The limit set by [`set_limit`].
pub fn limit(ordinal: usize) -> Result<usize> {
    Ok(crate::device::get(ordinal)?.limit.load(Ordering::Relaxed))
}

/// Return the pool's cached (unused) blocks of device `ordinal` to the driver.
pub fn free_all_blocks(ordinal: usize) -> Result<()> {
    trim(&*crate::device::get(ordinal)?)
}

fn default_pool(d: &Dev) -> Result<sys::CUmemoryPool> {
    let mut pool: sys::CUmemoryPool = std::ptr::null_mut();
    // SAFETY: writes one pool handle for a valid device.
    unsafe { sys::cuDeviceGetDefaultMemPool(&mut pool, d.ctx.cu_device()) }.result().map_err(driver_err)?;
    Ok(pool)
}

fn trim(d: &Dev) -> Result<()> {
    d.ctx.synchronize().map_err(driver_err)?;
    // SAFETY: trimming only releases blocks no allocation holds.
    unsafe { sys::cuMemPoolTrimTo(default_pool(d)?, 0) }.result().map_err(driver_err)
}

/// Account for `bytes` more on `d`, allocating with `alloc`; over the limit, or out of device
/// memory after a trim and a retry, a typed error with what is free.
pub(crate) fn reserve<T>(
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
