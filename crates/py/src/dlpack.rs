//! DLPack capsules: `__dlpack__` out of an `_Array`, and `from_dlpack` of another library's
//! capsule (the names and the renaming on use are the Python DLPack protocol's).
use crate::array::PyArray;
use crate::errors::Raise as _;
use pyo3::exceptions::{PyBufferError, PyTypeError};
use pyo3::ffi;
use pyo3::prelude::*;
use std::ffi::CStr;
use xp::dlpack::{Dlpack, ToDlpack};
use xp::Array;

const VERSIONED: &CStr = c"dltensor_versioned";
const LEGACY: &CStr = c"dltensor";
const USED_VERSIONED: &CStr = c"used_dltensor_versioned";
const USED_LEGACY: &CStr = c"used_dltensor";

/// A capsule nobody consumed calls the tensor's deleter when Python frees it.
unsafe extern "C" fn drop_capsule(cap: *mut ffi::PyObject) {
    // SAFETY: Python calls this with the capsule being freed; a consumed capsule was renamed.
    unsafe {
        if ffi::PyCapsule_IsValid(cap, VERSIONED.as_ptr()) == 1 {
            let p = ffi::PyCapsule_GetPointer(cap, VERSIONED.as_ptr());
            drop(Dlpack::from_raw(p.cast()));
        } else if ffi::PyCapsule_IsValid(cap, LEGACY.as_ptr()) == 1 {
            let p = ffi::PyCapsule_GetPointer(cap, LEGACY.as_ptr());
            drop(Dlpack::from_raw_legacy(p.cast()));
        }
    }
}

/// `x.__dlpack__(stream=, max_version=, copy=)`: `legacy` for a consumer that asked for no
/// version 1; `stream` the consumer's CUDA stream as the standard numbers them (None or 1 the
/// legacy default stream, 2 the per-thread one, -1 no ordering, else a handle).
#[pyfunction]
#[pyo3(signature = (x, stream, legacy, copy))]
fn to_dlpack(
    py: Python<'_>,
    x: PyRef<'_, PyArray>,
    stream: Option<i64>,
    legacy: bool,
    copy: Option<bool>,
) -> PyResult<Py<PyAny>> {
    let a = &x.a;
    let stream = match (a.device(), stream) {
        (xp::Device::Cpu, _) => None,
        (_, None | Some(1) | Some(0)) => Some(0),
        (_, Some(-1)) => None,
        (_, Some(s)) if s > 0 => Some(s as u64),
        (_, Some(s)) => return Err(PyBufferError::new_err(format!("stream {s} is not a CUDA stream"))),
    };
    let opts = ToDlpack { legacy, copy, stream };
    let t = py.detach(|| a.to_dlpack(&opts)).map_err(|e| PyBufferError::new_err(e.to_string()))?;
    let (p, name) = if legacy {
        (t.into_raw_legacy().py()?.cast::<std::ffi::c_void>(), LEGACY)
    } else {
        (t.into_raw().py()?.cast::<std::ffi::c_void>(), VERSIONED)
    };
    // SAFETY: `p` is a live tensor whose ownership the capsule takes; `name` is 'static.
    unsafe {
        let cap = ffi::PyCapsule_New(p, name.as_ptr(), Some(drop_capsule));
        if cap.is_null() {
            drop_capsule_ptr(p, legacy);
            return Err(PyErr::fetch(py));
        }
        Ok(Py::from_owned_ptr(py, cap))
    }
}

unsafe fn drop_capsule_ptr(p: *mut std::ffi::c_void, legacy: bool) {
    // SAFETY: the caller owns the live tensor `p`.
    unsafe {
        if legacy {
            drop(Dlpack::from_raw_legacy(p.cast()));
        } else {
            drop(Dlpack::from_raw(p.cast()));
        }
    }
}

/// The array in a producer's capsule (the capsule is marked used; device memory is adopted
/// without a copy, host memory copied).
#[pyfunction]
fn from_capsule(py: Python<'_>, capsule: &Bound<'_, PyAny>) -> PyResult<Py<PyArray>> {
    let cap = capsule.as_ptr();
    // SAFETY: the capsule API checks the object's type and name itself.
    let t = unsafe {
        if ffi::PyCapsule_IsValid(cap, VERSIONED.as_ptr()) == 1 {
            let p = ffi::PyCapsule_GetPointer(cap, VERSIONED.as_ptr());
            ffi::PyCapsule_SetName(cap, USED_VERSIONED.as_ptr());
            Dlpack::from_raw(p.cast())
        } else if ffi::PyCapsule_IsValid(cap, LEGACY.as_ptr()) == 1 {
            let p = ffi::PyCapsule_GetPointer(cap, LEGACY.as_ptr());
            ffi::PyCapsule_SetName(cap, USED_LEGACY.as_ptr());
            Dlpack::from_raw_legacy(p.cast())
        } else {
            return Err(PyTypeError::new_err("not a DLPack capsule (or one already used)"));
        }
    }
    .py()?;
    let a = py.detach(move || Array::from_dlpack(t)).py()?;
    PyArray::wrap(py, a)
}

/// The raw handle of xp's current stream on `device` (None on the CPU), for a producer's
/// `__dlpack__(stream=...)`.
#[pyfunction]
fn current_stream(device: &str) -> PyResult<Option<u64>> {
    let d = crate::convert::device(Some(device))?;
    Ok(xp::Stream::current(d).py()?.handle())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(to_dlpack, m)?)?;
    m.add_function(wrap_pyfunction!(from_capsule, m)?)?;
    m.add_function(wrap_pyfunction!(current_stream, m)?)?;
    Ok(())
}
