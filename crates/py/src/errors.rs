//! xp's typed errors as the Python exceptions the Array API standard and NumPy raise.
use pyo3::exceptions::{
    PyIndexError, PyMemoryError, PyNotImplementedError, PyOverflowError, PyRuntimeError, PyTypeError, PyValueError,
};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyType};
use xp::Error;

pyo3::create_exception!(
    _xp,
    LinAlgError,
    PyValueError,
    "A linear-algebra failure (singular, not positive definite, no convergence)."
);

static AXIS_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// NumPy's `AxisError`: both a `ValueError` and an `IndexError`, so that either handler (the
/// Array API's tests expect `IndexError`) catches an axis out of range.
pub fn axis_error(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    Ok(AXIS_ERROR
        .get_or_try_init(py, || -> PyResult<Py<PyType>> {
            let bases = (py.get_type::<PyValueError>(), py.get_type::<PyIndexError>());
            let t = py.get_type::<PyType>().call1(("AxisError", bases, PyDict::new(py)))?;
            Ok(t.cast_into::<PyType>()?.unbind())
        })?
        .bind(py))
}

/// The Python exception for an xp error (the message is xp's own).
pub fn to_py(e: Error) -> PyErr {
    let msg = e.to_string();
    match e {
        Error::AxisOutOfRange { .. } | Error::RepeatedAxis { .. } => Python::attach(|py| match axis_error(py) {
            Ok(t) => PyErr::from_type(t.clone(), msg),
            Err(e) => e,
        }),
        Error::IndexOutOfBounds { .. } | Error::TooManyIndices { .. } | Error::BoolIndexMismatch { .. } => {
            PyIndexError::new_err(msg)
        }
        Error::IndexDType { .. } | Error::InvalidDType { .. } => PyTypeError::new_err(msg),
        Error::ScalarOverflow { .. } => PyOverflowError::new_err(msg),
        Error::OutOfMemory { .. } => PyMemoryError::new_err(msg),
        Error::LinAlg { .. } => LinAlgError::new_err(msg),
        Error::Unsupported { .. } | Error::FeatureDisabled { .. } | Error::CudaNotCompiled => {
            PyNotImplementedError::new_err(msg)
        }
        Error::NoCuda(_) | Error::Cuda(_) | Error::Launch { .. } | Error::Io { .. } => PyRuntimeError::new_err(msg),
        _ => PyValueError::new_err(msg),
    }
}

/// `?` on an xp result in a Python-facing function.
pub trait Raise<T> {
    /// The result with xp's error as a Python exception.
    fn py(self) -> pyo3::PyResult<T>;
}

impl<T> Raise<T> for xp::Result<T> {
    fn py(self) -> pyo3::PyResult<T> {
        self.map_err(to_py)
    }
}
