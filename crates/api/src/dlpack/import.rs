//! [`Array::from_dlpack`]: a DLPack tensor taken in, device memory adopted as it is, host memory
//! copied.
use super::{xp_device, xp_dtype, Dlpack};
use crate::backend::{CudaStorage, Storage};
use crate::Array;
use dlpark::DlpackFlags;
use std::sync::Mutex;
use xp_core::{with_dtype, DType, Device, Element, Error, HostBuffer, Layout, Result};
use xp_cpu::CpuStorage;

impl Array {
    /// The array a DLPack tensor describes (the Array API's `from_dlpack`, given the tensor).
    /// On a CUDA device the memory is used in place (zero-copy) and stays the producer's: xp
    /// never frees it, and the tensor's deleter runs when the last xp array using it goes, after
    /// xp's last use of it on any stream. A read-only tensor, and host memory, are copied into
    /// xp's own memory (then the deleter runs at once). The producer must have ordered its work
    /// before the consumer's (the DLPack stream protocol); [`Array::from_dlpack_after`] waits for
    /// a stream of the producer instead.
    pub fn from_dlpack(t: Dlpack) -> Result<Array> {
        Array::from_dlpack_after(t, None)
    }

    /// [`Array::from_dlpack`], xp's first use of device memory waiting (through an event, not
    /// on the host) for the work queued so far on `producer`, a raw `CUstream` of the tensor's
    /// device.
    pub fn from_dlpack_after(t: Dlpack, producer: Option<u64>) -> Result<Array> {
        let op = "from_dlpack";
        let tt = *t.tensor();
        let (dtype, device) = (xp_dtype(tt.dtype)?, xp_device(tt.device)?);
        if tt.ndim < 0 || (tt.ndim > 0 && tt.shape.is_null()) {
            return Err(Error::invalid(op, format!("a tensor of {} dimensions without a shape", tt.ndim)));
        }
        let shape = t
            .shape()
            .iter()
            .map(|&s| {
                usize::try_from(s).map_err(|_| Error::invalid(op, format!("a negative extent in {:?}", t.shape())))
            })
            .collect::<Result<Vec<_>>>()?;
        let strides: Vec<isize> = if tt.strides.is_null() {
            Layout::contiguous(&shape).strides().to_vec()
        } else {
            t.strides().iter().map(|&s| s as isize).collect()
        };
        let size = dtype.size();
        if !tt.byte_offset.is_multiple_of(size as u64) {
            return Err(Error::invalid(op, format!("a byte offset of {} in a tensor of {dtype}", tt.byte_offset)));
        }
        let n: usize = shape.iter().product();
        if n == 0 {
            return crate::on(device).empty(shape, dtype);
        }
        if tt.data.is_null() {
            return Err(Error::invalid(op, "a tensor with elements and a null data pointer"));
        }
        // the elements span [lo, hi] around the first one
        let (mut lo, mut hi) = (0isize, 0isize);
        for (&e, &s) in shape.iter().zip(&strides) {
            let reach = (e as isize - 1) * s;
            if s < 0 {
                lo += reach;
            } else {
                hi += reach;
            }
        }
        let len = (hi - lo + 1) as usize;
        let first = tt.data as usize + tt.byte_offset as usize - lo.unsigned_abs() * size;
        let layout = Layout::new(shape.clone(), strides, lo.unsigned_abs());
        let read_only = DlpackFlags::from_bits_truncate(t.flags()).contains(DlpackFlags::READ_ONLY);
        let whole = |s: Storage| Array::from_storage(s, &[len]).with_layout(layout.clone());
        match device {
            Device::Cpu => {
                // SAFETY: the producer vouches that the tensor's elements, the span computed
                // above, are readable host memory while the tensor lives (it does until `t` drops).
                let buf = unsafe { host_copy(first as *const u8, len, dtype) };
                let a = whole(Storage::Cpu(CpuStorage(buf)));
                if a.is_contiguous() && layout.offset() == 0 && len == n {
                    Ok(a)
                } else {
                    a.copy()
                }
            }
            Device::Cuda(i) => {
                let keep = Mutex::new(Some(t));
                let release: Box<dyn FnOnce() + Send + Sync> = Box::new(move || {
                    drop(keep.lock().unwrap_or_else(|e| e.into_inner()).take());
                });
                // SAFETY: the tensor's elements lie in the span computed above, on device `i`,
                // valid until its deleter runs, which `release` (run by the storage's drop) does.
                let s = unsafe { CudaStorage::adopt(i, first as u64, dtype, len, producer, release) }?;
                let a = whole(Storage::Cuda(s));
                if read_only {
                    a.copy()
                } else {
                    Ok(a)
                }
            }
        }
    }
}

/// `len` elements of `dtype` read from host memory at `p` (bool from bytes, any nonzero true).
///
/// # Safety
/// `p` must address `len · dtype.size()` readable bytes.
unsafe fn host_copy(p: *const u8, len: usize, dtype: DType) -> HostBuffer {
    // SAFETY: as the caller vouches.
    let bytes = unsafe { std::slice::from_raw_parts(p, len * dtype.size()) };
    if dtype == DType::Bool {
        return HostBuffer::Bool(bytes.iter().map(|&b| b != 0).collect());
    }
    with_dtype!(dtype, T => {
        let mut v: Vec<T> = Vec::with_capacity(len);
        // SAFETY: every dtype but bool is plain data valid for any bits; the vector has room
        // for `len` elements, all written by the copy.
        unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), v.as_mut_ptr().cast::<u8>(), bytes.len());
            v.set_len(len);
        }
        T::into_buffer(v)
    })
}
