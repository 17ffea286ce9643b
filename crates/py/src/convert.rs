//! Python values to xp's arguments: dtypes and devices by name, Python scalars, index keys.
use crate::array::PyArray;
use pyo3::exceptions::{PyIndexError, PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyComplex, PyEllipsis, PyFloat, PyInt, PySlice};
use xp::{Complex64, DType, Device, IndexItem, Scalar, SliceElem};

/// A dtype from NumPy's name (`"float32"`); `None` stays `None`.
pub fn dtype(name: Option<&str>) -> PyResult<Option<DType>> {
    name.map(|n| DType::from_name(n).ok_or_else(|| PyTypeError::new_err(format!("unknown dtype {n:?}")))).transpose()
}

/// A device from its name (`"cpu"`, `"cuda:0"`); `None` is the CPU.
pub fn device(name: Option<&str>) -> PyResult<Device> {
    match name {
        None => Ok(Device::Cpu),
        Some(n) => n.parse().map_err(|_| PyValueError::new_err(format!("unknown device {n:?}"))),
    }
}

/// A Python bool, int, float or complex as an xp scalar (`None` for anything else).
pub fn scalar(v: &Bound<'_, PyAny>) -> PyResult<Option<Scalar>> {
    if v.is_instance_of::<PyBool>() {
        return Ok(Some(Scalar::Bool(v.extract()?)));
    }
    if v.is_instance_of::<PyInt>() {
        if let Ok(i) = v.extract::<i64>() {
            return Ok(Some(Scalar::Int(i)));
        }
        return match v.extract::<u64>() {
            Ok(u) => Ok(Some(Scalar::Uint(u))),
            Err(_) => Err(PyOverflowError::new_err(format!("Python integer {v} out of bounds for int64 and uint64"))),
        };
    }
    if v.is_instance_of::<PyFloat>() {
        return Ok(Some(Scalar::Float(v.extract()?)));
    }
    if let Ok(c) = v.cast::<PyComplex>() {
        return Ok(Some(Scalar::Complex(Complex64::new(c.real(), c.imag()))));
    }
    Ok(None)
}

/// A Python scalar for an xp scalar.
pub fn to_object(py: Python<'_>, s: Scalar) -> PyResult<Py<PyAny>> {
    Ok(match s {
        Scalar::Bool(b) => PyBool::new(py, b).to_owned().into_any().unbind(),
        Scalar::Int(i) => i.into_pyobject(py)?.into_any().unbind(),
        Scalar::Uint(u) => u.into_pyobject(py)?.into_any().unbind(),
        Scalar::Float(f) => f.into_pyobject(py)?.into_any().unbind(),
        Scalar::Complex(c) => PyComplex::from_doubles(py, c.re, c.im).into_any().unbind(),
    })
}

fn opt_isize(v: Bound<'_, PyAny>) -> PyResult<Option<isize>> {
    if v.is_none() {
        Ok(None)
    } else {
        v.extract().map(Some)
    }
}

/// One element of an index key: int, slice, `None`, `...`, or an array (integer or boolean).
fn item(k: &Bound<'_, PyAny>) -> PyResult<IndexItem> {
    if k.is_none() {
        return Ok(IndexItem::Basic(SliceElem::NewAxis));
    }
    if k.is_instance_of::<PyEllipsis>() {
        return Ok(IndexItem::Basic(SliceElem::Ellipsis));
    }
    if let Ok(s) = k.cast::<PySlice>() {
        let step = opt_isize(s.getattr("step")?)?.unwrap_or(1);
        if step == 0 {
            return Err(PyValueError::new_err("slice step cannot be zero"));
        }
        let start = opt_isize(s.getattr("start")?)?;
        let stop = opt_isize(s.getattr("stop")?)?;
        return Ok(IndexItem::Basic(SliceElem::Slice { start, stop, step }));
    }
    if let Ok(a) = k.cast::<PyArray>() {
        return Ok(IndexItem::Array(a.get().a.clone()));
    }
    if k.is_instance_of::<PyBool>() {
        return Err(PyIndexError::new_err("a Python bool is not an index here (use an array)"));
    }
    if let Ok(i) = k.extract::<isize>() {
        return Ok(IndexItem::Basic(SliceElem::Index(i)));
    }
    Err(PyIndexError::new_err(format!("only integers, slices, None, Ellipsis and arrays are indices, not {k}")))
}

/// An index key (a tuple of items, as the Python side normalises it).
pub fn index(key: &Bound<'_, PyAny>) -> PyResult<Vec<IndexItem>> {
    key.try_iter()?.map(|k| item(&k?)).collect()
}
