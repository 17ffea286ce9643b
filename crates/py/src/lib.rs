//! `xp._xp`: the native half of xp's Python module.
//!
//! The Python package `xp` (`crates/py/python/xp`) is the Array API namespace; it keeps
//! argument parsing, defaults and Python's protocols, and calls this module for every
//! computation: one `_Array` class that owns an [`xp::Array`], and functions that take the
//! operation by NumPy's name (`unary("sin", x)`, `reduce("sum", x, axes, keepdims)`) so that the
//! binding stays one line per family rather than one per function. Errors come back as the
//! Python exceptions the standard expects (`errors.rs`).
mod array;
mod cai;
mod convert;
mod dlpack;
mod errors;
mod funcs;
mod linalg;

use pyo3::prelude::*;

#[pymodule]
fn _xp(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<array::PyArray>()?;
    m.add("AxisError", errors::axis_error(m.py())?)?;
    array::register(m)?;
    dlpack::register(m)?;
    cai::register(m)?;
    funcs::register(m)?;
    linalg::register(m)?;
    Ok(())
}
