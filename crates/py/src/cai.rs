//! `__cuda_array_interface__` (version 3) both ways. Out: the device pointer, byte strides and
//! dtype of a CUDA array (xp's work on it finished first, so no `stream` is given). In: another
//! library's description becomes a DLPack tensor whose deleter releases a reference to the
//! exporting object, so that [`Array::from_dlpack_after`] adopts it without a copy, its first use
//! ordered after the producer's `stream`, and the exporter lives until xp's last use.
use crate::array::PyArray;
use crate::errors::Raise as _;
use pyo3::exceptions::{PyAttributeError, PyBufferError, PyTypeError};
use pyo3::prelude::*;
use xp::dlpack::ffi::{
    DLDataType, DLDataTypeCode, DLDevice, DLDeviceType, DLManagedTensorVersioned, DLPackVersion, DLTensor,
};
use xp::dlpack::{Dlpack, DlpackFlags, ToDlpack};
use xp::{Array, DType, Device, Kind};

/// NumPy's type string of a dtype (`<f4`, `|b1`); bfloat16 has none.
fn typestr(d: DType) -> Option<String> {
    let kind = match d.kind() {
        _ if d == DType::BF16 => return None,
        Kind::Bool => 'b',
        Kind::Int => 'i',
        Kind::Uint => 'u',
        Kind::Float => 'f',
        Kind::Complex => 'c',
    };
    let order = if d.size() == 1 { '|' } else { '<' };
    Some(format!("{order}{kind}{}", d.size()))
}

/// `(pointer, byte strides, type string)` of a CUDA array, for `__cuda_array_interface__`.
#[pyfunction]
pub fn cuda_interface(py: Python<'_>, x: PyRef<'_, PyArray>) -> PyResult<(u64, Vec<i64>, String)> {
    let a = &x.a;
    if a.device() == Device::Cpu {
        return Err(PyAttributeError::new_err("__cuda_array_interface__ is for arrays on a CUDA device"));
    }
    let ts = typestr(a.dtype()).ok_or_else(|| PyAttributeError::new_err("bfloat16 has no type string"))?;
    // the tensor borrows the array (never a copy: a view with negative strides is refused) and
    // the host waits for xp's work on it; the memory stays alive through `x`, which the consumer
    // holds
    let opts = ToDlpack { legacy: false, copy: Some(false), stream: None };
    let t = py.detach(|| a.to_dlpack(&opts)).map_err(|e| PyBufferError::new_err(e.to_string()))?;
    let tt = t.tensor();
    let ptr = tt.data as u64 + tt.byte_offset;
    let size = a.dtype().size() as i64;
    Ok((ptr, t.strides().iter().map(|s| s * size).collect(), ts))
}

/// What a tensor made from a CUDA array interface keeps: its shape and strides, and the exporter.
struct Ctx {
    managed: DLManagedTensorVersioned,
    _shape: Vec<i64>,
    _strides: Vec<i64>,
    _owner: Py<PyAny>,
}

unsafe extern "C" fn delete(p: *mut DLManagedTensorVersioned) {
    if !p.is_null() {
        // SAFETY: `manager_ctx` is the `Box<Ctx>` made in `from_cuda_interface`, freed once, here
        // (the exporter's reference is released under the GIL, or queued by pyo3 without it).
        drop(unsafe { Box::from_raw((*p).manager_ctx as *mut Ctx) });
    }
}

fn dl_dtype(typestr: &str) -> PyResult<DLDataType> {
    let bad = || PyTypeError::new_err(format!("type string {typestr:?} is not one xp reads"));
    let b = typestr.as_bytes();
    if b.len() < 3 || b[0] == b'>' {
        return Err(bad());
    }
    let bytes: u8 = typestr[2..].parse().map_err(|_| bad())?;
    let code = match b[1] {
        b'b' => DLDataTypeCode::BOOL,
        b'i' => DLDataTypeCode::INT,
        b'u' => DLDataTypeCode::UINT,
        b'f' => DLDataTypeCode::FLOAT,
        b'c' => DLDataTypeCode::COMPLEX,
        _ => return Err(bad()),
    };
    Ok(DLDataType { code, bits: bytes * 8, lanes: 1 })
}

/// The array another library describes by `__cuda_array_interface__` (`ptr`, `shape`, byte
/// `strides` or None, `typestr`, `readonly`), on device `ordinal`, adopted without a copy (a
/// read-only one is copied), `owner` kept alive until xp's last use, the first use after the
/// producer's `stream` (None: no ordering; 1 and 2 are CUDA's legacy and per-thread streams).
#[pyfunction]
#[pyo3(signature = (ptr, shape, strides, typestr, readonly, ordinal, stream, owner))]
#[allow(clippy::too_many_arguments)]
pub fn from_cuda_interface(
    py: Python<'_>,
    ptr: u64,
    shape: Vec<i64>,
    strides: Option<Vec<i64>>,
    typestr: &str,
    readonly: bool,
    ordinal: i32,
    stream: Option<u64>,
    owner: Py<PyAny>,
) -> PyResult<Py<PyArray>> {
    let dtype = dl_dtype(typestr)?;
    let size = (dtype.bits / 8) as i64;
    let strides = match strides {
        Some(s) => {
            if s.len() != shape.len() || s.iter().any(|b| b % size != 0) {
                return Err(PyTypeError::new_err(format!("byte strides {s:?} do not fit shape {shape:?}")));
            }
            s.iter().map(|b| b / size).collect()
        }
        None => {
            let mut s = vec![1i64; shape.len()];
            for i in (0..shape.len().saturating_sub(1)).rev() {
                s[i] = s[i + 1] * shape[i + 1].max(1);
            }
            s
        }
    };
    let mut ctx = Box::new(Ctx {
        managed: DLManagedTensorVersioned {
            version: DLPackVersion { major: 1, minor: 0 },
            manager_ctx: std::ptr::null_mut(),
            deleter: Some(delete),
            flags: if readonly { DlpackFlags::READ_ONLY } else { DlpackFlags::empty() },
            dl_tensor: DLTensor {
                data: ptr as *mut std::ffi::c_void,
                device: DLDevice { device_type: DLDeviceType::CUDA, device_id: ordinal },
                ndim: shape.len() as i32,
                dtype,
                shape: std::ptr::null_mut(),
                strides: std::ptr::null_mut(),
                byte_offset: 0,
            },
        },
        _shape: shape,
        _strides: strides,
        _owner: owner,
    });
    ctx.managed.dl_tensor.shape = ctx._shape.as_mut_ptr();
    ctx.managed.dl_tensor.strides = ctx._strides.as_mut_ptr();
    let raw = Box::into_raw(ctx);
    // SAFETY: `raw` is live; the managed structure is its first field, and the deleter frees the box.
    let t = unsafe {
        (*raw).managed.manager_ctx = raw.cast();
        Dlpack::from_raw(std::ptr::addr_of_mut!((*raw).managed))
    }
    .py()?;
    let a = py.detach(move || Array::from_dlpack_after(t, stream)).py()?;
    PyArray::wrap(py, a)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(cuda_interface, m)?)?;
    m.add_function(wrap_pyfunction!(from_cuda_interface, m)?)?;
    Ok(())
}
