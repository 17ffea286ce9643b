//! [`Array::to_dlpack`]: an array's memory handed out, the array kept alive by the tensor.
use super::{dl_device, dl_dtype, Dlpack, Raw, ToDlpack};
use crate::backend::Storage;
use crate::Array;
use dlpark::ffi::{DLManagedTensor, DLManagedTensorVersioned, DLPackVersion, DLTensor};
use dlpark::DlpackFlags;
use std::ffi::c_void;
use std::ptr::NonNull;
use xp_core::{with_buffer, Error, Result};

/// What a tensor xp made keeps: the array (so its memory stays), the shape and strides the
/// tensor points into, and the managed structure itself (one allocation, freed by the deleter).
struct Ctx<M> {
    managed: M,
    _array: Array,
    shape: Vec<i64>,
    strides: Vec<i64>,
}

unsafe extern "C" fn delete_versioned(p: *mut DLManagedTensorVersioned) {
    if !p.is_null() {
        // SAFETY: `manager_ctx` is the `Box<Ctx>` made in `to_dlpack`, freed once, here.
        drop(unsafe { Box::from_raw((*p).manager_ctx as *mut Ctx<DLManagedTensorVersioned>) });
    }
}

unsafe extern "C" fn delete_legacy(p: *mut DLManagedTensor) {
    if !p.is_null() {
        // SAFETY: as above.
        drop(unsafe { Box::from_raw((*p).manager_ctx as *mut Ctx<DLManagedTensor>) });
    }
}

impl Array {
    /// This array as a DLPack tensor (the Array API's `__dlpack__`): the same memory, with its
    /// shape, strides and offset, on its device, without a copy unless `opts.copy` asks for one
    /// or the layout needs one (negative strides, which DLPack consumers do not all accept). The
    /// tensor keeps the array's memory alive until its deleter is called. On a CUDA device the
    /// consumer's stream (`opts.stream`) is ordered after xp's work on the array.
    pub fn to_dlpack(&self, opts: &ToDlpack) -> Result<Dlpack> {
        let op = "to_dlpack";
        let negative = self.layout.strides().iter().any(|&s| s < 0);
        let copy = match opts.copy {
            Some(false) if negative => {
                return Err(Error::invalid(op, "negative strides need a copy, and copy=false was asked"));
            }
            Some(c) => c,
            None => negative,
        };
        let a = if copy { self.copy()? } else { self.clone() };
        let data: *mut c_void = match &*a.read() {
            Storage::Cpu(c) => with_buffer!(&c.0, v => v.as_ptr() as *mut c_void),
            Storage::Cuda(c) => {
                c.hand_over(opts.stream)?;
                c.device_ptr() as *mut c_void
            }
        };
        let shape: Vec<i64> = a.shape().iter().map(|&s| s as i64).collect();
        let strides: Vec<i64> = a.layout.strides().iter().map(|&s| s as i64).collect();
        let tensor = DLTensor {
            data,
            device: dl_device(a.device()),
            ndim: a.ndim() as i32,
            dtype: dl_dtype(a.dtype()),
            shape: std::ptr::null_mut(),
            strides: std::ptr::null_mut(),
            byte_offset: (a.layout.offset() * a.dtype().size()) as u64,
        };
        let flags = if copy { DlpackFlags::IS_COPIED } else { DlpackFlags::empty() };
        Ok(if opts.legacy {
            let m =
                DLManagedTensor { dl_tensor: tensor, manager_ctx: std::ptr::null_mut(), deleter: Some(delete_legacy) };
            Dlpack { raw: Raw::Legacy(managed(m, a, shape, strides, |m| &mut m.dl_tensor, |m, c| m.manager_ctx = c)) }
        } else {
            let m = DLManagedTensorVersioned {
                version: DLPackVersion {
                    major: dlpark::ffi::DLPACK_MAJOR_VERSION,
                    minor: dlpark::ffi::DLPACK_MINOR_VERSION,
                },
                manager_ctx: std::ptr::null_mut(),
                deleter: Some(delete_versioned),
                flags,
                dl_tensor: tensor,
            };
            Dlpack {
                raw: Raw::Versioned(managed(m, a, shape, strides, |m| &mut m.dl_tensor, |m, c| m.manager_ctx = c)),
            }
        })
    }
}

/// The context boxed, the tensor's shape and strides pointed into it, the context pointer set:
/// the managed structure's address (inside the box).
fn managed<M>(
    m: M,
    array: Array,
    shape: Vec<i64>,
    strides: Vec<i64>,
    tensor: impl Fn(&mut M) -> &mut DLTensor,
    set_ctx: impl Fn(&mut M, *mut c_void),
) -> NonNull<M> {
    let ctx = Box::into_raw(Box::new(Ctx { managed: m, _array: array, shape, strides }));
    // SAFETY: just made, not yet shared; the vectors' buffers stay put while the box lives.
    unsafe {
        let c = &mut *ctx;
        let nd = c.shape.len();
        let t = tensor(&mut c.managed);
        if nd > 0 {
            t.shape = c.shape.as_mut_ptr();
            t.strides = c.strides.as_mut_ptr();
        }
        set_ctx(&mut c.managed, ctx as *mut c_void);
        NonNull::from(&mut c.managed)
    }
}
