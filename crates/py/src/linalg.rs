//! `linalg` and `fft`: the Array API's extensions.
use crate::array::PyArray;
use crate::errors::Raise as _;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use xp::fft::FftNorm;
use xp::linalg::{self as la, NormOrd, QrMode, Uplo};
use xp::Array;

type R = PyResult<Py<PyArray>>;

fn wrap(py: Python<'_>, r: xp::Result<Array>) -> R {
    PyArray::wrap(py, r.py()?)
}

fn pair(py: Python<'_>, a: Array, b: Array) -> PyResult<(Py<PyArray>, Py<PyArray>)> {
    Ok((PyArray::wrap(py, a)?, PyArray::wrap(py, b)?))
}

/// A linear-algebra function of one matrix (stack) by name.
#[pyfunction]
fn linalg1(py: Python<'_>, name: &str, x: PyRef<'_, PyArray>) -> R {
    let x = &x.a;
    let f: fn(&Array) -> xp::Result<Array> = match name {
        "inv" => la::inv,
        "det" => la::det,
        "svdvals" => la::svdvals,
        "eigvalsh" => |x| la::eigvalsh(x, Uplo::Lower),
        "cholesky" => |x| la::cholesky(x, Uplo::Lower),
        "cholesky_upper" => |x| la::cholesky(x, Uplo::Upper),
        "matrix_transpose" => xp::matrix_transpose,
        _ => return Err(PyValueError::new_err(format!("no linalg function {name:?}"))),
    };
    wrap(py, py.detach(|| f(x)))
}

/// A linear-algebra function of two arrays by name.
#[pyfunction]
fn linalg2(py: Python<'_>, name: &str, a: PyRef<'_, PyArray>, b: PyRef<'_, PyArray>) -> R {
    let (a, b) = (&a.a, &b.a);
    let f: fn(&Array, &Array) -> xp::Result<Array> = match name {
        "solve" => la::solve,
        "matmul" => |a, b| xp::matmul(a, b),
        "outer" => xp::outer,
        _ => return Err(PyValueError::new_err(format!("no linalg function {name:?}"))),
    };
    wrap(py, py.detach(|| f(a, b)))
}

#[pyfunction]
fn cross(py: Python<'_>, a: PyRef<'_, PyArray>, b: PyRef<'_, PyArray>, axis: isize) -> R {
    let (a, b) = (&a.a, &b.a);
    wrap(py, py.detach(|| xp::cross_axes(a, b, axis, axis, axis)))
}

#[pyfunction]
fn vecdot(py: Python<'_>, a: PyRef<'_, PyArray>, b: PyRef<'_, PyArray>, axis: isize) -> R {
    let (a, b) = (&a.a, &b.a);
    wrap(py, py.detach(|| xp::vecdot(a, b, axis)))
}

/// `tensordot` over the last `n` axes of `a` and the first of `b` (`n`), or over axis pairs.
#[pyfunction]
#[pyo3(signature = (a, b, n, axes_a, axes_b))]
fn tensordot(
    py: Python<'_>,
    a: PyRef<'_, PyArray>,
    b: PyRef<'_, PyArray>,
    n: Option<usize>,
    axes_a: Vec<isize>,
    axes_b: Vec<isize>,
) -> R {
    let (a, b) = (&a.a, &b.a);
    let axes = match n {
        Some(n) => xp::TensorAxes::Last(n),
        None => xp::TensorAxes::Pairs(axes_a, axes_b),
    };
    wrap(py, py.detach(|| xp::tensordot(a, b, axes)))
}

#[pyfunction]
fn diagonal(py: Python<'_>, x: PyRef<'_, PyArray>, offset: isize, trace: bool) -> R {
    let x = &x.a;
    wrap(py, py.detach(|| if trace { xp::trace(x, offset, -2, -1) } else { xp::diagonal(x, offset, -2, -1) }))
}

#[pyfunction]
fn matrix_power(py: Python<'_>, x: PyRef<'_, PyArray>, n: i64) -> R {
    let x = &x.a;
    wrap(py, py.detach(|| la::matrix_power(x, n)))
}

#[pyfunction]
#[pyo3(signature = (x, rtol, rank))]
fn pinv(py: Python<'_>, x: PyRef<'_, PyArray>, rtol: Option<f64>, rank: bool) -> R {
    let x = &x.a;
    wrap(py, py.detach(|| if rank { la::matrix_rank(x, rtol) } else { la::pinv(x, rtol) }))
}

fn ord(o: &Bound<'_, PyAny>) -> PyResult<Option<NormOrd>> {
    if o.is_none() {
        return Ok(None);
    }
    if let Ok(s) = o.extract::<String>() {
        return match s.as_str() {
            "fro" => Ok(Some(NormOrd::Fro)),
            "nuc" => Ok(Some(NormOrd::Nuc)),
            _ => Err(PyValueError::new_err(format!("unknown norm order {s:?}"))),
        };
    }
    Ok(Some(NormOrd::from(o.extract::<f64>()?)))
}

/// `vector_norm` over `axis` (None: all) or `matrix_norm` over the last two (`matrix`).
#[pyfunction]
#[pyo3(signature = (x, ord_, axis, matrix))]
fn norm(py: Python<'_>, x: PyRef<'_, PyArray>, ord_: &Bound<'_, PyAny>, axis: Option<Vec<isize>>, matrix: bool) -> R {
    let (x, o) = (&x.a, ord(ord_)?);
    wrap(
        py,
        py.detach(|| {
            if matrix {
                la::matrix_norm(x, o)
            } else {
                la::vector_norm(x, o, axis.map_or(xp::Axes::All, xp::Axes::List))
            }
        }),
    )
}

/// `eigh` as (eigenvalues, eigenvectors).
#[pyfunction]
fn eigh(py: Python<'_>, x: PyRef<'_, PyArray>) -> PyResult<(Py<PyArray>, Py<PyArray>)> {
    let x = &x.a;
    let e = py.detach(|| la::eigh(x, Uplo::Lower)).py()?;
    pair(py, e.w, e.v)
}

/// `eig` as (eigenvalues, eigenvectors), complex; `eigvals` alone (`values`).
#[pyfunction]
fn eig(py: Python<'_>, x: PyRef<'_, PyArray>, values: bool) -> PyResult<Vec<Py<PyArray>>> {
    let x = &x.a;
    if values {
        return Ok(vec![PyArray::wrap(py, py.detach(|| la::eigvals(x)).py()?)?]);
    }
    let e = py.detach(|| la::eig(x)).py()?;
    Ok(vec![PyArray::wrap(py, e.w)?, PyArray::wrap(py, e.v)?])
}

/// `slogdet` as (sign, logabsdet).
#[pyfunction]
fn slogdet(py: Python<'_>, x: PyRef<'_, PyArray>) -> PyResult<(Py<PyArray>, Py<PyArray>)> {
    let x = &x.a;
    let s = py.detach(|| la::slogdet(x)).py()?;
    pair(py, s.sign, s.logabsdet)
}

/// `qr` as (Q, R) in mode "reduced" or "complete".
#[pyfunction]
fn qr(py: Python<'_>, x: PyRef<'_, PyArray>, complete: bool) -> PyResult<(Py<PyArray>, Py<PyArray>)> {
    let x = &x.a;
    let mode = if complete { QrMode::Complete } else { QrMode::Reduced };
    let f = py.detach(|| la::qr(x, mode)).py()?;
    let q = f.q.ok_or_else(|| PyValueError::new_err("qr gave no Q"))?;
    pair(py, q, f.r)
}

/// `svd` as (U, S, Vh).
#[pyfunction]
fn svd(
    py: Python<'_>,
    x: PyRef<'_, PyArray>,
    full_matrices: bool,
) -> PyResult<(Py<PyArray>, Py<PyArray>, Py<PyArray>)> {
    let x = &x.a;
    let f = py.detach(|| la::svd(x, full_matrices)).py()?;
    Ok((PyArray::wrap(py, f.u)?, PyArray::wrap(py, f.s)?, PyArray::wrap(py, f.vh)?))
}

fn norm_of(n: &str) -> PyResult<FftNorm> {
    match n {
        "backward" => Ok(FftNorm::Backward),
        "ortho" => Ok(FftNorm::Ortho),
        "forward" => Ok(FftNorm::Forward),
        _ => Err(PyValueError::new_err(format!("unknown FFT norm {n:?}"))),
    }
}

/// A one-axis FFT by name (`fft`, `ifft`, `rfft`, `irfft`, `hfft`, `ihfft`).
#[pyfunction]
#[pyo3(signature = (name, x, n, axis, norm))]
fn fft1(py: Python<'_>, name: &str, x: PyRef<'_, PyArray>, n: Option<usize>, axis: isize, norm: &str) -> R {
    let (x, nm) = (&x.a, norm_of(norm)?);
    let f: fn(&Array, Option<usize>, isize, FftNorm) -> xp::Result<Array> = match name {
        "fft" => xp::fft::fft,
        "ifft" => xp::fft::ifft,
        "rfft" => xp::fft::rfft,
        "irfft" => xp::fft::irfft,
        "hfft" => xp::fft::hfft,
        "ihfft" => xp::fft::ihfft,
        _ => return Err(PyValueError::new_err(format!("no FFT {name:?}"))),
    };
    wrap(py, py.detach(|| f(x, n, axis, nm)))
}

/// An n-axis FFT by name (`fftn`, `ifftn`, `rfftn`, `irfftn`).
#[pyfunction]
#[pyo3(signature = (name, x, s, axes, norm))]
fn fftn(
    py: Python<'_>,
    name: &str,
    x: PyRef<'_, PyArray>,
    s: Option<Vec<usize>>,
    axes: Option<Vec<isize>>,
    norm: &str,
) -> R {
    let (x, nm) = (&x.a, norm_of(norm)?);
    type F = fn(&Array, Option<&[usize]>, Option<&[isize]>, FftNorm) -> xp::Result<Array>;
    let f: F = match name {
        "fftn" => xp::fft::fftn,
        "ifftn" => xp::fft::ifftn,
        "rfftn" => xp::fft::rfftn,
        "irfftn" => xp::fft::irfftn,
        _ => return Err(PyValueError::new_err(format!("no FFT {name:?}"))),
    };
    wrap(py, py.detach(|| f(x, s.as_deref(), axes.as_deref(), nm)))
}

#[pyfunction]
#[pyo3(signature = (n, d, real, device))]
fn fftfreq(py: Python<'_>, n: usize, d: f64, real: bool, device: Option<&str>) -> R {
    let dev = crate::convert::device(device)?;
    wrap(py, py.detach(|| if real { xp::fft::rfftfreq(n, d, dev) } else { xp::fft::fftfreq(n, d, dev) }))
}

#[pyfunction]
#[pyo3(signature = (x, axes, inverse))]
fn fftshift(py: Python<'_>, x: PyRef<'_, PyArray>, axes: Option<Vec<isize>>, inverse: bool) -> R {
    let x = &x.a;
    let ax = axes.as_deref();
    wrap(py, py.detach(|| if inverse { xp::fft::ifftshift(x, ax) } else { xp::fft::fftshift(x, ax) }))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(linalg1, m)?)?;
    m.add_function(wrap_pyfunction!(linalg2, m)?)?;
    m.add_function(wrap_pyfunction!(cross, m)?)?;
    m.add_function(wrap_pyfunction!(vecdot, m)?)?;
    m.add_function(wrap_pyfunction!(tensordot, m)?)?;
    m.add_function(wrap_pyfunction!(diagonal, m)?)?;
    m.add_function(wrap_pyfunction!(matrix_power, m)?)?;
    m.add_function(wrap_pyfunction!(pinv, m)?)?;
    m.add_function(wrap_pyfunction!(norm, m)?)?;
    m.add_function(wrap_pyfunction!(eigh, m)?)?;
    m.add_function(wrap_pyfunction!(slogdet, m)?)?;
    m.add_function(wrap_pyfunction!(eig, m)?)?;
    m.add_function(wrap_pyfunction!(qr, m)?)?;
    m.add_function(wrap_pyfunction!(svd, m)?)?;
    m.add_function(wrap_pyfunction!(fft1, m)?)?;
    m.add_function(wrap_pyfunction!(fftn, m)?)?;
    m.add_function(wrap_pyfunction!(fftfreq, m)?)?;
    m.add_function(wrap_pyfunction!(fftshift, m)?)?;
    m.add("LinAlgError", m.py().get_type::<crate::errors::LinAlgError>())?;
    Ok(())
}
