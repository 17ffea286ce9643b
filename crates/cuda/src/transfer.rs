//! Transfers: device→device on one GPU (the driver's copy engine for contiguous data), between
//! GPUs (peer copies, no host round trip), and host↔device through page-locked host memory
//! ([`Pinned`]), asynchronous on the current stream.
use crate::runtime::buffer::CudaStorage;
use crate::runtime::device::driver_err;
use cudarc::driver::{result, CudaEvent, PinnedHostSlice};
use std::marker::PhantomData;
use xp_core::{BackendStorage, Element, Error, Layout, Result};

/// A buffer in C order: the storage itself, or a contiguous copy of a view of it.
pub(crate) enum Dense<'a> {
    Same(&'a CudaStorage),
    Copy(CudaStorage),
}

impl std::ops::Deref for Dense<'_> {
    type Target = CudaStorage;
    fn deref(&self) -> &CudaStorage {
        match self {
            Dense::Same(s) => s,
            Dense::Copy(s) => s,
        }
    }
}

impl CudaStorage {
    /// The bytes of `l` when it is a contiguous run of this buffer.
    fn run_bytes(&self, l: &Layout) -> Option<std::ops::Range<usize>> {
        let sz = self.dtype.size();
        (l.is_contiguous() && l.numel() > 0).then(|| l.offset() * sz..(l.offset() + l.numel()) * sz)
    }
    /// Self when `l` covers the whole buffer in order, else a contiguous copy.
    pub(crate) fn dense(&self, l: &Layout) -> Result<Dense<'_>> {
        if l.is_contiguous() && l.offset() == 0 && l.numel() == self.len {
            return Ok(Dense::Same(self));
        }
        Ok(Dense::Copy(self.contiguous_copy(l)?))
    }
    /// A C-contiguous copy of `l` on this device: the dense copy kernel (16-byte accesses) for a
    /// contiguous run, the strided kernel otherwise. (A 256 MB `copy()` through
    /// `cuMemcpyDtoDAsync` measured 5.6-8.7 ms on an H100 in the issue 9 runs, against 0.19 ms
    /// for the copy kernel.)
    pub(crate) fn contiguous_copy(&self, l: &Layout) -> Result<CudaStorage> {
        if l.is_contiguous() {
            return self.map(&[(self, l)], self.dtype, crate::storage::Expr::Cast);
        }
        let mut out = CudaStorage::alloc(&self.dev, self.dtype, l.numel())?;
        self.copy_into(l, &mut out, &Layout::contiguous(l.shape()))?;
        Ok(out)
    }
    /// Copy contiguous `l` into contiguous `dl` of the same shape and dtype with the copy engine.
    /// Returns false (nothing done) when either is not a contiguous run.
    pub(crate) fn copy_run(&self, l: &Layout, dst: &mut CudaStorage, dl: &Layout) -> Result<bool> {
        let (Some(src), Some(to)) = (self.run_bytes(l), dst.run_bytes(dl)) else {
            return Ok(false);
        };
        if self.dtype != dst.dtype || l.shape() != dl.shape() {
            return Ok(false);
        }
        let wk = self.dev.work(&[self, &*dst])?;
        let s = wk.stream();
        self.dev.bind()?;
        // SAFETY: both ranges lie inside their blocks (contiguous runs of validated layouts); the
        // copy is ordered on `s` after both buffers' earlier work.
        unsafe {
            result::memcpy_dtod_async(
                dst.buf.ptr + to.start as u64,
                self.buf.ptr + src.start as u64,
                src.len(),
                s.cu_stream(),
            )
        }
        .map_err(driver_err)?;
        wk.done()?;
        Ok(true)
    }

    /// A contiguous copy of `l` on CUDA device `ordinal`: a peer copy between GPUs (the driver
    /// routes it over NVLink/PCIe, or through the host where peers cannot reach each other),
    /// ordered after the source's queued work; the source is freed only after the copy.
    pub fn to_device(&self, l: &Layout, ordinal: usize) -> Result<CudaStorage> {
        let target = crate::CudaDevice::new(ordinal)?.dev;
        if ordinal == self.dev.ordinal {
            return self.contiguous_copy(l);
        }
        let out = CudaStorage::alloc(&target, self.dtype, l.numel())?;
        let src = self.dense(l)?;
        let bytes = l.numel() * self.dtype.size();
        if bytes == 0 {
            return Ok(out);
        }
        let wk = self.dev.work(&[&src])?;
        let (ss, ds) = (wk.stream().clone(), target.current());
        ds.join(&ss).map_err(driver_err)?;
        target.bind()?;
        // SAFETY: both pointers are live allocations of at least `bytes` bytes in their contexts;
        // the destination stream waits for the source's work, and the source stream waits for the
        // copy (below) before anything later there can free or overwrite the source.
        unsafe {
            result::memcpy_peer_async(
                target.ctx.cu_ctx(),
                out.buf.ptr,
                self.dev.ctx.cu_ctx(),
                src.buf.ptr,
                bytes,
                ds.cu_stream(),
            )
        }
        .map_err(driver_err)?;
        ss.join(&ds).map_err(driver_err)?;
        wk.done()?;
        Ok(out)
    }

    /// An asynchronous download of `l` into a pinned host buffer of exactly `l.numel()` elements;
    /// reading the buffer ([`Pinned::as_slice`]) waits for the copy.
    pub fn download_pinned<T: Element>(&self, l: &Layout, dst: &mut Pinned<T>) -> Result<()> {
        if T::DTYPE != self.dtype || dst.len != l.numel() {
            return Err(Error::invalid(
                "to_pinned",
                format!("array of {} x {} into a pinned buffer of {} x {}", l.numel(), self.dtype, dst.len, T::DTYPE),
            ));
        }
        if dst.len == 0 {
            return Ok(());
        }
        let src = self.dense(l)?;
        let wk = self.dev.work(&[&src])?;
        let s = wk.stream();
        let bytes = l.numel() * self.dtype.size();
        s.wait(&dst.done).map_err(driver_err)?;
        let p = dst.buf.as_mut_ptr().map_err(driver_err)?;
        self.dev.bind()?;
        // SAFETY: the pinned buffer holds `bytes` bytes and stays alive until `done` has
        // completed (its drop and host access wait for it).
        unsafe { result::memcpy_dtoh_async(std::slice::from_raw_parts_mut(p, bytes), src.buf.ptr, s.cu_stream()) }
            .map_err(driver_err)?;
        dst.done.record(s).map_err(driver_err)?;
        wk.done()
    }
}

impl crate::CudaDevice {
    /// An asynchronous upload of a pinned host buffer on this device's current stream; writing to `src` from the host waits for it.
    pub fn upload_pinned<T: Element>(&self, src: &Pinned<T>) -> Result<CudaStorage> {
        let out = CudaStorage::alloc(&self.dev, T::DTYPE, src.len)?;
        if src.len > 0 {
            let s = self.dev.current();
            // After earlier copies into the buffer (possibly on other streams); later host writes
            // and the free wait for this one.
            s.wait(&src.done).map_err(driver_err)?;
            let p = src.buf.as_ptr().map_err(driver_err)?;
            let bytes = src.len * std::mem::size_of::<T>();
            self.dev.bind()?;
            // SAFETY: as for the download: the pinned memory outlives the copy (`done`).
            unsafe { result::memcpy_htod_async(out.buf.ptr, std::slice::from_raw_parts(p, bytes), s.cu_stream()) }
                .map_err(driver_err)?;
            src.done.record(&s).map_err(driver_err)?;
        }
        Ok(out)
    }
}

/// Page-locked ("pinned") host memory of `T`: transfers from and to it run at full PCIe/NVLink
/// speed and asynchronously ([`xp`'s `Array::from_pinned` / `Array::to_pinned`]). Reading or
/// writing it from the host waits for the copies queued on it.
///
/// ```no_run
/// # fn main() -> xp_core::Result<()> {
/// let mut p = xp_cuda::Pinned::<f32>::from_slice(&[1.0, 2.0, 3.0])?;
/// p.as_mut_slice()?[0] = 5.0;
/// assert_eq!(p.as_slice()?, &[5.0, 2.0, 3.0]);
/// # Ok(()) }
/// ```
pub struct Pinned<T: Element> {
    buf: PinnedHostSlice<u8>,
    /// recorded after every copy queued on the buffer: host access and the free wait for it
    /// (cudarc records its own only under its event tracking, which xp turns off)
    done: CudaEvent,
    len: usize,
    _t: PhantomData<T>,
}

impl<T: Element> Drop for Pinned<T> {
    fn drop(&mut self) {
        // The memory is freed (when `buf` drops) only once no copy uses it.
        let _ = self.done.synchronize();
    }
}

impl<T: Element> std::fmt::Debug for Pinned<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Pinned<{}>({} elements)", T::DTYPE, self.len)
    }
}

impl<T: Element> Pinned<T> {
    /// `len` zeros in page-locked memory (usable with every device; needs a CUDA driver).
    pub fn zeros(len: usize) -> Result<Pinned<T>> {
        let dev = crate::CudaDevice::new(0)?.dev;
        let bytes = len
            .checked_mul(std::mem::size_of::<T>())
            .filter(|&b| b < isize::MAX as usize)
            .ok_or_else(|| Error::invalid("pinned", format!("{len} elements of {} do not fit in memory", T::DTYPE)))?;
        // SAFETY: the memory is zeroed below before anything reads it; zero bits are a valid value
        // of every xp element type.
        let mut buf = unsafe {
            dev.ctx.alloc_pinned_with_flags::<u8>(bytes.max(1), cudarc::driver::sys::CU_MEMHOSTALLOC_PORTABLE)
        }
        .map_err(|e| match e.0 {
            cudarc::driver::sys::CUresult::CUDA_ERROR_OUT_OF_MEMORY => {
                Error::OutOfMemory { device: xp_core::Device::Cpu, requested: bytes, free: 0 }
            }
            _ => driver_err(e),
        })?;
        buf.as_mut_slice().map_err(driver_err)?.fill(0);
        let done = dev.ctx.new_event(None).map_err(driver_err)?;
        Ok(Pinned { buf, done, len, _t: PhantomData })
    }
    /// A pinned copy of `data`.
    pub fn from_slice(data: &[T]) -> Result<Pinned<T>> {
        let mut p = Pinned::zeros(data.len())?;
        p.as_mut_slice()?.copy_from_slice(data);
        Ok(p)
    }
    /// Number of elements.
    pub fn len(&self) -> usize {
        self.len
    }
    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// The elements, once the copies queued on the buffer have finished.
    pub fn as_slice(&self) -> Result<&[T]> {
        self.done.synchronize().map_err(driver_err)?;
        let b = self.buf.as_slice().map_err(driver_err)?;
        // SAFETY: page-aligned memory of `len * size_of::<T>()` initialised bytes, written only
        // with valid values of `T` (zeros, host writes of `T`, or device data of dtype `T`).
        Ok(unsafe { std::slice::from_raw_parts(b.as_ptr() as *const T, self.len) })
    }
    /// The elements for writing, once the copies queued on the buffer have finished.
    pub fn as_mut_slice(&mut self) -> Result<&mut [T]> {
        let len = self.len;
        self.done.synchronize().map_err(driver_err)?;
        let b = self.buf.as_mut_slice().map_err(driver_err)?;
        // SAFETY: as for `as_slice`; the borrow of `self` is exclusive.
        Ok(unsafe { std::slice::from_raw_parts_mut(b.as_mut_ptr() as *mut T, len) })
    }
}
