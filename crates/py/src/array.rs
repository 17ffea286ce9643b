//! `_Array`: the Python handle on an [`xp::Array`] (the Python `xp.Array` wraps one).
use crate::convert::{self, to_object};
use crate::errors::Raise as _;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use xp::Array;

/// An xp array held by Python: cheap to clone (xp's arrays share their storage).
#[pyclass(name = "_Array", module = "xp._xp", frozen)]
pub struct PyArray {
    /// the array
    pub a: Array,
}

impl PyArray {
    /// A Python object for an xp result.
    pub fn wrap(py: Python<'_>, a: Array) -> PyResult<Py<PyArray>> {
        Py::new(py, PyArray { a })
    }
}

#[pymethods]
impl PyArray {
    #[getter]
    fn shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.a.shape())
    }
    #[getter]
    fn dtype(&self) -> &'static str {
        self.a.dtype().name()
    }
    #[getter]
    fn device(&self) -> String {
        self.a.device().to_string()
    }
    #[getter]
    fn ndim(&self) -> usize {
        self.a.ndim()
    }
    #[getter]
    fn size(&self) -> usize {
        self.a.size()
    }
    /// Strides in elements.
    #[getter]
    fn strides<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.a.strides())
    }
    /// The one element as a Python scalar (an error unless the array has one element).
    fn item(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let s = py.detach(|| self.a.scalar()).py()?;
        to_object(py, s)
    }
    fn to_device(&self, py: Python<'_>, device: &str) -> PyResult<Py<PyArray>> {
        let d = convert::device(Some(device))?;
        let r = py.detach(|| self.a.to_device(d)).py()?;
        PyArray::wrap(py, r)
    }
    fn copy(&self, py: Python<'_>) -> PyResult<Py<PyArray>> {
        let r = py.detach(|| self.a.copy()).py()?;
        PyArray::wrap(py, r)
    }
    fn astype(&self, py: Python<'_>, dtype: &str) -> PyResult<Py<PyArray>> {
        let d = convert::dtype(Some(dtype))?.expect("a name");
        let r = py.detach(|| self.a.astype(d)).py()?;
        PyArray::wrap(py, r)
    }
    /// `self[key]` for a normalised key (a tuple of ints, slices, None, Ellipsis, arrays).
    fn getitem(&self, py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<Py<PyArray>> {
        let k = convert::index(key)?;
        let r = py.detach(|| self.a.get(k)).py()?;
        PyArray::wrap(py, r)
    }
    /// `self[key] = value` (value an array or a Python scalar).
    fn setitem(&self, py: Python<'_>, key: &Bound<'_, PyAny>, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let k = convert::index(key)?;
        match crate::funcs::operand(value)? {
            crate::funcs::Arg::A(v) => py.detach(|| self.a.set(k, &v)).py(),
            crate::funcs::Arg::S(s) => py.detach(|| self.a.set(k, s)).py(),
        }
    }
    fn __repr__(&self) -> String {
        format!("{}", self.a)
    }
}

pub fn register(_m: &Bound<'_, PyModule>) -> PyResult<()> {
    Ok(())
}
