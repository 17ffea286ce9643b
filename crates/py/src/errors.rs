//! xp's typed errors as the Python exceptions the Array API standard and NumPy raise.
use pyo3::exceptions::{
    PyIndexError, PyMemoryError, PyNotImplementedError, PyOverflowError, PyRuntimeError, PyTypeError, PyValueError,
};
use pyo3::PyErr;
use xp::Error;

pyo3::create_exception!(_xp, LinAlgError, PyValueError, "A linear-algebra failure (singular, not positive definite, no convergence).");

/// The Python exception for an xp error (the message is xp's own).
pub fn to_py(e: Error) -> PyErr {
    let msg = e.to_string();
    match e {
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
pub trait Py<T> {
    /// The result with xp's error as a Python exception.
    fn py(self) -> pyo3::PyResult<T>;
}

impl<T> Py<T> for xp::Result<T> {
    fn py(self) -> pyo3::PyResult<T> {
        self.map_err(to_py)
    }
}
