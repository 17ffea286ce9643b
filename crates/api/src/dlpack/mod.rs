//! DLPack: arrays shared with PyTorch, CuPy, JAX, NumPy and C/C++ libraries without a copy
//! (the DLPack 1.x ABI, `DLManagedTensorVersioned`, and the legacy `DLManagedTensor` on request).
//!
//! [`Array::to_dlpack`](crate::Array::to_dlpack) hands an array's memory out: the tensor keeps
//! the array alive until its consumer calls the deleter. [`Array::from_dlpack`](crate::Array::from_dlpack)
//! takes one in: device memory is adopted as it is (xp's pool never takes it; the producer's
//! deleter runs when the last xp array using it goes, after xp's last use on any stream); host
//! memory is copied into xp's own buffer. [`Dlpack`] owns a tensor in flight and calls its
//! deleter if nobody consumed it.
//!
//! ```
//! use xp::{Array, DType};
//! let a = Array::from_vec(vec![1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], [2, 3])?;
//! let t = a.t()?.to_dlpack(&xp::dlpack::ToDlpack::default())?; // a view: strides travel
//! assert_eq!(t.shape(), &[3, 2]);
//! assert_eq!(t.strides(), &[1, 3]);
//! let b = Array::from_dlpack(t)?;
//! assert_eq!(b.to_vec::<f32>()?, a.t()?.to_vec::<f32>()?);
//! # Ok::<(), xp::Error>(())
//! ```
mod capi;
mod export;
mod import;

pub use capi::{xp_array_free, xp_dlpack_export, xp_dlpack_import, xp_last_error, XpArray};
pub use dlpark::ffi;
pub use dlpark::DlpackFlags;

use dlpark::ffi::{
    DLDataType, DLDataTypeCode, DLDevice, DLDeviceType, DLManagedTensor, DLManagedTensorVersioned, DLTensor,
};
use std::ptr::NonNull;
use xp_core::{DType, Device, Error, Result};

/// How [`Array::to_dlpack`](crate::Array::to_dlpack) hands an array out (the arguments of the
/// Array API's `__dlpack__`).
#[derive(Clone, Debug, Default)]
pub struct ToDlpack {
    /// the legacy unversioned `DLManagedTensor` instead of `DLManagedTensorVersioned`
    pub legacy: bool,
    /// `Some(true)`: always a copy; `Some(false)`: never (an error where one is needed);
    /// `None`: a copy only where needed (negative strides)
    pub copy: Option<bool>,
    /// on a CUDA device, the consumer's stream (a raw `CUstream`; 0 the legacy default
    /// stream), which waits for xp's work on the array through an event; `None` waits on the
    /// host before the tensor is returned
    pub stream: Option<u64>,
}

/// A DLPack tensor in flight, owned: dropping it calls its deleter (the producer frees or
/// releases the memory); [`Array::from_dlpack`](crate::Array::from_dlpack) or
/// [`Dlpack::into_raw`] pass the duty on.
pub struct Dlpack {
    raw: Raw,
}

#[derive(Clone, Copy)]
enum Raw {
    Versioned(NonNull<DLManagedTensorVersioned>),
    Legacy(NonNull<DLManagedTensor>),
}

// SAFETY: a managed tensor is a plain C structure whose deleter DLPack allows to be called from
// any thread.
unsafe impl Send for Dlpack {}

impl Dlpack {
    /// Takes ownership of a versioned tensor (DLPack 1.x).
    ///
    /// # Safety
    /// `p` must point to a live `DLManagedTensorVersioned` that nobody else will use or delete.
    pub unsafe fn from_raw(p: *mut DLManagedTensorVersioned) -> Result<Dlpack> {
        let p = NonNull::new(p).ok_or_else(|| Error::invalid("from_dlpack", "a null tensor"))?;
        let t = Dlpack { raw: Raw::Versioned(p) };
        // SAFETY: live, as the caller vouches.
        let major = unsafe { p.as_ref() }.version.major;
        if major != ffi::DLPACK_MAJOR_VERSION {
            // the layout past the version may differ: only the deleter may be used (on drop)
            return Err(Error::invalid("from_dlpack", format!("DLPack major version {major}; xp reads version 1")));
        }
        Ok(t)
    }

    /// Takes ownership of a legacy (unversioned) tensor.
    ///
    /// # Safety
    /// `p` must point to a live `DLManagedTensor` that nobody else will use or delete.
    pub unsafe fn from_raw_legacy(p: *mut DLManagedTensor) -> Result<Dlpack> {
        let p = NonNull::new(p).ok_or_else(|| Error::invalid("from_dlpack", "a null tensor"))?;
        Ok(Dlpack { raw: Raw::Legacy(p) })
    }

    /// The versioned tensor, for a consumer that will call its deleter (`Err` for a legacy one,
    /// which is then dropped).
    pub fn into_raw(self) -> Result<*mut DLManagedTensorVersioned> {
        match self.raw {
            Raw::Versioned(p) => {
                std::mem::forget(self);
                Ok(p.as_ptr())
            }
            Raw::Legacy(_) => Err(Error::invalid("into_raw", "a legacy tensor: use into_raw_legacy")),
        }
    }

    /// The legacy tensor, for a consumer that will call its deleter (`Err` for a versioned one).
    pub fn into_raw_legacy(self) -> Result<*mut DLManagedTensor> {
        match self.raw {
            Raw::Legacy(p) => {
                std::mem::forget(self);
                Ok(p.as_ptr())
            }
            Raw::Versioned(_) => Err(Error::invalid("into_raw_legacy", "a versioned tensor: use into_raw")),
        }
    }

    /// Whether it is a versioned (DLPack 1.x) tensor.
    pub fn is_versioned(&self) -> bool {
        matches!(self.raw, Raw::Versioned(_))
    }

    /// The described tensor.
    pub fn tensor(&self) -> &DLTensor {
        // SAFETY: owned and live until drop.
        unsafe {
            match self.raw {
                Raw::Versioned(p) => &p.as_ref().dl_tensor,
                Raw::Legacy(p) => &p.as_ref().dl_tensor,
            }
        }
    }

    /// The flags (`READ_ONLY`, `IS_COPIED`; always empty for a legacy tensor).
    pub fn flags(&self) -> u64 {
        match self.raw {
            // SAFETY: as in `tensor`.
            Raw::Versioned(p) => unsafe { p.as_ref() }.flags.bits(),
            Raw::Legacy(_) => 0,
        }
    }

    /// The shape.
    pub fn shape(&self) -> &[i64] {
        parts(self.tensor(), self.tensor().shape)
    }

    /// The strides in elements (C order when the producer gave none).
    pub fn strides(&self) -> &[i64] {
        parts(self.tensor(), self.tensor().strides)
    }
}

/// `ndim` values at `p` (empty for a 0-d tensor or a null pointer).
fn parts(t: &DLTensor, p: *mut i64) -> &[i64] {
    if t.ndim <= 0 || p.is_null() {
        &[]
    } else {
        // SAFETY: a live tensor's shape and strides hold ndim values each.
        unsafe { std::slice::from_raw_parts(p, t.ndim as usize) }
    }
}

impl Drop for Dlpack {
    fn drop(&mut self) {
        // SAFETY: owned; the deleter frees the tensor itself too.
        unsafe {
            match self.raw {
                Raw::Versioned(p) => {
                    if let Some(d) = p.as_ref().deleter {
                        d(p.as_ptr())
                    }
                }
                Raw::Legacy(p) => {
                    if let Some(d) = p.as_ref().deleter {
                        d(p.as_ptr())
                    }
                }
            }
        }
    }
}

impl std::fmt::Debug for Dlpack {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let t = self.tensor();
        write!(f, "Dlpack({:?}, {:?}, shape {:?}, strides {:?})", t.device, t.dtype, self.shape(), self.strides())
    }
}

/// DLPack's type of `d`.
pub(crate) fn dl_dtype(d: DType) -> DLDataType {
    let code = match d {
        DType::Bool => DLDataTypeCode::BOOL,
        DType::I8 | DType::I16 | DType::I32 | DType::I64 => DLDataTypeCode::INT,
        DType::U8 | DType::U16 | DType::U32 | DType::U64 => DLDataTypeCode::UINT,
        DType::F16 | DType::F32 | DType::F64 => DLDataTypeCode::FLOAT,
        DType::BF16 => DLDataTypeCode::BFLOAT,
        DType::C64 | DType::C128 => DLDataTypeCode::COMPLEX,
    };
    DLDataType { code, bits: (8 * d.size()) as u8, lanes: 1 }
}

/// xp's dtype of DLPack's `t` (a typed error for those xp has not: float8, vectors, opaque).
pub(crate) fn xp_dtype(t: DLDataType) -> Result<DType> {
    let d = match (t.code, t.bits, t.lanes) {
        (DLDataTypeCode::BOOL, 8, 1) => DType::Bool,
        (DLDataTypeCode::INT, 8, 1) => DType::I8,
        (DLDataTypeCode::INT, 16, 1) => DType::I16,
        (DLDataTypeCode::INT, 32, 1) => DType::I32,
        (DLDataTypeCode::INT, 64, 1) => DType::I64,
        (DLDataTypeCode::UINT, 8, 1) => DType::U8,
        (DLDataTypeCode::UINT, 16, 1) => DType::U16,
        (DLDataTypeCode::UINT, 32, 1) => DType::U32,
        (DLDataTypeCode::UINT, 64, 1) => DType::U64,
        (DLDataTypeCode::FLOAT, 16, 1) => DType::F16,
        (DLDataTypeCode::FLOAT, 32, 1) => DType::F32,
        (DLDataTypeCode::FLOAT, 64, 1) => DType::F64,
        (DLDataTypeCode::BFLOAT, 16, 1) => DType::BF16,
        (DLDataTypeCode::COMPLEX, 64, 1) => DType::C64,
        (DLDataTypeCode::COMPLEX, 128, 1) => DType::C128,
        _ => {
            return Err(Error::invalid(
                "from_dlpack",
                format!("DLPack type code {} of {} bits and {} lanes has no xp dtype", t.code.0, t.bits, t.lanes),
            ))
        }
    };
    Ok(d)
}

/// DLPack's device of `d`.
pub(crate) fn dl_device(d: Device) -> DLDevice {
    match d {
        Device::Cpu => DLDevice { device_type: DLDeviceType::CPU, device_id: 0 },
        Device::Cuda(i) => DLDevice { device_type: DLDeviceType::CUDA, device_id: i as i32 },
    }
}

/// xp's device of DLPack's `d` (pinned host memory is host memory; managed memory is used on
/// its device).
pub(crate) fn xp_device(d: DLDevice) -> Result<Device> {
    match d.device_type {
        DLDeviceType::CPU | DLDeviceType::CUDAHOST => Ok(Device::Cpu),
        DLDeviceType::CUDA | DLDeviceType::CUDAMANAGED if d.device_id >= 0 => Ok(Device::Cuda(d.device_id as usize)),
        t => Err(Error::invalid(
            "from_dlpack",
            format!("DLPack device type {} (id {}) is not one xp has", t.0, d.device_id),
        )),
    }
}
