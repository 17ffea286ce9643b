//! The Array API's functions by family, each taking the operation by NumPy's name where a
//! family shares one signature.
use crate::array::PyArray;
use crate::convert::{self, scalar};
use crate::errors::Raise as _;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use xp::{Array, Axes, BinaryOp, Indexing, Scalar, Side, UnaryOp};

/// An operand: an array or a Python scalar.
pub enum Arg {
    /// an array
    A(Array),
    /// a Python bool, int, float or complex
    S(Scalar),
}

/// An `_Array` or a Python scalar.
pub fn operand(v: &Bound<'_, PyAny>) -> PyResult<Arg> {
    if let Ok(a) = v.cast::<PyArray>() {
        return Ok(Arg::A(a.get().a.clone()));
    }
    match scalar(v)? {
        Some(s) => Ok(Arg::S(s)),
        None => Err(PyTypeError::new_err(format!("expected an array or a Python scalar, got {}", v.get_type()))),
    }
}

type R = PyResult<Py<PyArray>>;

fn wrap(py: Python<'_>, r: xp::Result<Array>) -> R {
    PyArray::wrap(py, r.py()?)
}

fn wrap_all(py: Python<'_>, r: xp::Result<Vec<Array>>) -> PyResult<Vec<Py<PyArray>>> {
    r.py()?.into_iter().map(|a| PyArray::wrap(py, a)).collect()
}

fn axes(a: Option<Vec<isize>>) -> Axes {
    a.map_or(Axes::All, Axes::List)
}

fn refs(xs: &[PyRef<'_, PyArray>]) -> Vec<Array> {
    xs.iter().map(|x| x.a.clone()).collect()
}

fn unknown(kind: &str, name: &str) -> PyErr {
    PyValueError::new_err(format!("no {kind} named {name:?}"))
}

/// An elementwise function of one array by NumPy's name.
#[pyfunction]
fn unary(py: Python<'_>, name: &str, x: PyRef<'_, PyArray>) -> R {
    let x = &x.a;
    let r = match name {
        "round" => py.detach(|| x.round(0)),
        "signbit" => py.detach(|| xp::signbit(x)),
        _ => {
            let op = UnaryOp::ALL.iter().find(|o| o.name() == name).ok_or_else(|| unknown("unary op", name))?;
            py.detach(|| xp::unary(*op, x))
        }
    };
    wrap(py, r)
}

/// An elementwise function of two operands (arrays or Python scalars) by NumPy's name.
#[pyfunction]
fn binary(py: Python<'_>, name: &str, a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> R {
    let (a, b) = (operand(a)?, operand(b)?);
    let r = if name == "nextafter" {
        py.detach(|| match (&a, &b) {
            (Arg::A(x), Arg::A(y)) => xp::nextafter(x, y),
            (Arg::A(x), Arg::S(y)) => xp::nextafter(x, *y),
            (Arg::S(x), Arg::A(y)) => xp::nextafter(*x, y),
            (Arg::S(x), Arg::S(y)) => xp::nextafter(*x, *y),
        })
    } else {
        let op = *BinaryOp::ALL.iter().find(|o| o.name() == name).ok_or_else(|| unknown("binary op", name))?;
        py.detach(|| match (&a, &b) {
            (Arg::A(x), Arg::A(y)) => xp::binary(op, x, y),
            (Arg::A(x), Arg::S(y)) => xp::binary(op, x, *y),
            (Arg::S(x), Arg::A(y)) => xp::binary(op, *x, y),
            (Arg::S(x), Arg::S(y)) => xp::binary(op, *x, *y),
        })
    };
    wrap(py, r)
}

/// `where(cond, x, y)` with arrays or Python scalars for `x` and `y`.
#[pyfunction]
fn where_(py: Python<'_>, cond: PyRef<'_, PyArray>, x: &Bound<'_, PyAny>, y: &Bound<'_, PyAny>) -> R {
    let (x, y, c) = (operand(x)?, operand(y)?, &cond.a);
    wrap(
        py,
        py.detach(|| match (&x, &y) {
            (Arg::A(x), Arg::A(y)) => xp::where_(c, x, y),
            (Arg::A(x), Arg::S(y)) => xp::where_(c, x, *y),
            (Arg::S(x), Arg::A(y)) => xp::where_(c, *x, y),
            (Arg::S(x), Arg::S(y)) => xp::where_(c, *x, *y),
        }),
    )
}

/// A reduction by name (`sum`, `prod`, `mean`, `max`, `min`, `all`, `any`, `count_nonzero`).
#[pyfunction]
#[pyo3(signature = (name, x, axis, keepdims))]
fn reduce(py: Python<'_>, name: &str, x: PyRef<'_, PyArray>, axis: Option<Vec<isize>>, keepdims: bool) -> R {
    let (x, ax) = (&x.a, axes(axis));
    let f: fn(&Array, Axes) -> xp::Result<Array> = match (name, keepdims) {
        ("sum", false) => |x, a| x.sum(a),
        ("sum", true) => |x, a| x.sum_keepdim(a),
        ("prod", false) => |x, a| x.prod(a),
        ("prod", true) => |x, a| x.prod_keepdim(a),
        ("mean", false) => |x, a| x.mean(a),
        ("mean", true) => |x, a| x.mean_keepdim(a),
        ("max", false) => |x, a| x.max(a),
        ("max", true) => |x, a| x.max_keepdim(a),
        ("min", false) => |x, a| x.min(a),
        ("min", true) => |x, a| x.min_keepdim(a),
        ("all", false) => |x, a| x.all(a),
        ("all", true) => |x, a| x.all_keepdim(a),
        ("any", false) => |x, a| x.any(a),
        ("any", true) => |x, a| x.any_keepdim(a),
        ("count_nonzero", false) => |x, a| x.count_nonzero(a),
        ("count_nonzero", true) => |x, a| x.count_nonzero_keepdim(a),
        ("argmax", false) => |x, a| x.argmax(a),
        ("argmax", true) => |x, a| x.argmax_keepdim(a),
        ("argmin", false) => |x, a| x.argmin(a),
        ("argmin", true) => |x, a| x.argmin_keepdim(a),
        _ => return Err(unknown("reduction", name)),
    };
    wrap(py, py.detach(|| f(x, ax)))
}

/// `var` or `std` (`std=True`) with NumPy's `ddof`.
#[pyfunction]
fn var(py: Python<'_>, x: PyRef<'_, PyArray>, axis: Option<Vec<isize>>, ddof: usize, keepdims: bool, std: bool) -> R {
    let opts = xp::Var { ddof, keepdims };
    let (x, ax) = (&x.a, axes(axis));
    wrap(py, py.detach(|| if std { x.std_with(ax, opts) } else { x.var_with(ax, opts) }))
}

/// `cumsum` or `cumprod` along one axis.
#[pyfunction]
fn cumulative(py: Python<'_>, name: &str, x: PyRef<'_, PyArray>, axis: isize) -> R {
    let x = &x.a;
    match name {
        "cumsum" => wrap(py, py.detach(|| x.cumsum(axis))),
        "cumprod" => wrap(py, py.detach(|| x.cumprod(axis))),
        _ => Err(unknown("scan", name)),
    }
}

#[pyfunction]
fn reshape(py: Python<'_>, x: PyRef<'_, PyArray>, shape: Vec<isize>) -> R {
    wrap(py, x.a.reshape(shape))
}

#[pyfunction]
fn permute_dims(py: Python<'_>, x: PyRef<'_, PyArray>, axes: Vec<isize>) -> R {
    wrap(py, x.a.permute_dims(&axes))
}

#[pyfunction]
fn expand_dims(py: Python<'_>, x: PyRef<'_, PyArray>, axis: isize) -> R {
    wrap(py, x.a.expand_dims(axis))
}

#[pyfunction]
fn squeeze(py: Python<'_>, x: PyRef<'_, PyArray>, axis: Vec<isize>) -> R {
    wrap(py, x.a.squeeze(axis))
}

#[pyfunction]
fn broadcast_to(py: Python<'_>, x: PyRef<'_, PyArray>, shape: Vec<usize>) -> R {
    wrap(py, x.a.broadcast_to(shape))
}

#[pyfunction]
#[pyo3(signature = (x, axis))]
fn flip(py: Python<'_>, x: PyRef<'_, PyArray>, axis: Option<Vec<isize>>) -> R {
    wrap(py, x.a.flip(axes(axis)))
}

#[pyfunction]
#[pyo3(signature = (x, shift, axis))]
fn roll(py: Python<'_>, x: PyRef<'_, PyArray>, shift: isize, axis: Option<Vec<isize>>) -> R {
    let x = &x.a;
    wrap(py, py.detach(|| x.roll(shift, axes(axis))))
}

#[pyfunction]
fn tile(py: Python<'_>, x: PyRef<'_, PyArray>, reps: Vec<usize>) -> R {
    let x = &x.a;
    wrap(py, py.detach(|| x.tile(&reps)))
}

/// `repeat` with one count (`axis` None: flattened) or a list of counts along `axis`.
#[pyfunction]
#[pyo3(signature = (x, counts, axis))]
fn repeat(py: Python<'_>, x: PyRef<'_, PyArray>, counts: Vec<usize>, axis: Option<isize>) -> R {
    let x = &x.a;
    wrap(
        py,
        py.detach(|| match (counts.as_slice(), axis) {
            ([n], a) => x.repeat(*n, a),
            (c, Some(a)) => x.repeat_counts(c, a),
            (c, None) => x.ravel().and_then(|f| f.repeat_counts(c, 0)),
        }),
    )
}

#[pyfunction]
fn concat(py: Python<'_>, xs: Vec<PyRef<'_, PyArray>>, axis: isize) -> R {
    let xs = refs(&xs);
    let r: Vec<&Array> = xs.iter().collect();
    wrap(py, py.detach(|| xp::concatenate(&r, axis)))
}

#[pyfunction]
fn stack(py: Python<'_>, xs: Vec<PyRef<'_, PyArray>>, axis: isize) -> R {
    let xs = refs(&xs);
    let r: Vec<&Array> = xs.iter().collect();
    wrap(py, py.detach(|| xp::stack(&r, axis)))
}

#[pyfunction]
fn broadcast_arrays(py: Python<'_>, xs: Vec<PyRef<'_, PyArray>>) -> PyResult<Vec<Py<PyArray>>> {
    let xs = refs(&xs);
    let r: Vec<&Array> = xs.iter().collect();
    wrap_all(py, xp::broadcast_arrays(&r))
}

#[pyfunction]
fn meshgrid(py: Python<'_>, xs: Vec<PyRef<'_, PyArray>>, indexing: &str) -> PyResult<Vec<Py<PyArray>>> {
    let xs = refs(&xs);
    let r: Vec<&Array> = xs.iter().collect();
    let ix = if indexing == "ij" { Indexing::Ij } else { Indexing::Xy };
    wrap_all(py, py.detach(|| xp::meshgrid(&r, ix)))
}

#[pyfunction]
fn nonzero(py: Python<'_>, x: PyRef<'_, PyArray>) -> PyResult<Vec<Py<PyArray>>> {
    let x = &x.a;
    wrap_all(py, py.detach(|| xp::nonzero(x)))
}

/// A filled array: `value` a Python scalar (`None`: uninitialised).
#[pyfunction]
#[pyo3(signature = (shape, value, dtype, device))]
fn full(py: Python<'_>, shape: Vec<usize>, value: &Bound<'_, PyAny>, dtype: Option<&str>, device: Option<&str>) -> R {
    let (dt, dev) = (convert::dtype(dtype)?, convert::device(device)?);
    let m = xp::on(dev);
    if value.is_none() {
        return wrap(py, m.empty(shape, dt));
    }
    let v = scalar(value)?.ok_or_else(|| PyTypeError::new_err("fill value must be a Python scalar"))?;
    wrap(py, py.detach(|| m.full(shape, v, dt)))
}

#[pyfunction]
#[pyo3(signature = (start, stop, step, dtype, device))]
fn arange(
    py: Python<'_>,
    start: &Bound<'_, PyAny>,
    stop: &Bound<'_, PyAny>,
    step: &Bound<'_, PyAny>,
    dtype: Option<&str>,
    device: Option<&str>,
) -> R {
    let s = |v: &Bound<'_, PyAny>| scalar(v)?.ok_or_else(|| PyTypeError::new_err("arange takes Python numbers"));
    let (a, b, c) = (s(start)?, s(stop)?, s(step)?);
    let (dt, dev) = (convert::dtype(dtype)?, convert::device(device)?);
    wrap(py, py.detach(|| xp::on(dev).arange(a, b, c, dt)))
}

#[pyfunction]
#[pyo3(signature = (start, stop, num, endpoint, dtype, device))]
fn linspace(
    py: Python<'_>,
    start: f64,
    stop: f64,
    num: usize,
    endpoint: bool,
    dtype: Option<&str>,
    device: Option<&str>,
) -> R {
    let opts = xp::Linspace { endpoint, dtype: convert::dtype(dtype)? };
    let dev = convert::device(device)?;
    wrap(py, py.detach(|| xp::on(dev).linspace(start, stop, num, opts)))
}

#[pyfunction]
#[pyo3(signature = (n, m, k, dtype, device))]
fn eye(py: Python<'_>, n: usize, m: Option<usize>, k: isize, dtype: Option<&str>, device: Option<&str>) -> R {
    let (dt, dev) = (convert::dtype(dtype)?, convert::device(device)?);
    wrap(py, py.detach(|| xp::on(dev).eye(n, m, k, dt)))
}

#[pyfunction]
fn tri(py: Python<'_>, x: PyRef<'_, PyArray>, k: isize, upper: bool) -> R {
    let x = &x.a;
    wrap(py, py.detach(|| if upper { x.triu(k) } else { x.tril(k) }))
}

/// An array of `shape` from a flat list of Python scalars, converted once to `dtype`.
#[pyfunction]
fn from_scalars(py: Python<'_>, values: Vec<Bound<'_, PyAny>>, shape: Vec<usize>, dtype: &str, device: &str) -> R {
    let vals = values
        .iter()
        .map(|v| scalar(v)?.ok_or_else(|| PyTypeError::new_err(format!("{v} is not a Python scalar"))))
        .collect::<PyResult<Vec<Scalar>>>()?;
    let dt = convert::dtype(Some(dtype))?.expect("a name");
    let dev = convert::device(Some(device))?;
    let any = |f: fn(&Scalar) -> bool| vals.iter().any(f);
    let host = if any(|s| matches!(s, Scalar::Complex(_))) {
        Array::from_vec(
            vals.iter()
                .map(|s| match s {
                    Scalar::Complex(c) => *c,
                    s => xp::Complex64::new(s.to_f64(), 0.0),
                })
                .collect(),
            &shape,
        )
    } else if any(|s| matches!(s, Scalar::Float(_))) {
        Array::from_vec(vals.iter().map(|s| s.to_f64()).collect(), &shape)
    } else if any(|s| matches!(s, Scalar::Uint(_))) {
        Array::from_vec(
            vals.iter()
                .map(|s| match s {
                    Scalar::Uint(u) => *u,
                    s => s.to_f64() as u64,
                })
                .collect(),
            &shape,
        )
    } else if any(|s| matches!(s, Scalar::Int(_))) {
        Array::from_vec(
            vals.iter()
                .map(|s| match s {
                    Scalar::Int(i) => *i,
                    s => s.to_f64() as i64,
                })
                .collect(),
            &shape,
        )
    } else {
        Array::from_vec(vals.iter().map(|s| matches!(s, Scalar::Bool(true))).collect(), &shape)
    };
    wrap(
        py,
        py.detach(|| {
            host.and_then(|h| h.astype(dt)).and_then(|a| if dev == xp::Device::Cpu { Ok(a) } else { a.to_device(dev) })
        }),
    )
}

/// Number of CUDA devices (0 without a driver).
#[pyfunction]
fn cuda_device_count() -> usize {
    xp::cuda::device_count()
}

/// A stable ascending `sort`/`argsort` along `axis`.
#[pyfunction]
fn sort(py: Python<'_>, x: PyRef<'_, PyArray>, axis: isize, arg: bool) -> R {
    let x = &x.a;
    wrap(py, py.detach(|| if arg { x.argsort(axis) } else { x.sort(axis) }))
}

#[pyfunction]
#[pyo3(signature = (x1, x2, right, sorter))]
fn searchsorted(
    py: Python<'_>,
    x1: PyRef<'_, PyArray>,
    x2: &Bound<'_, PyAny>,
    right: bool,
    sorter: Option<PyRef<'_, PyArray>>,
) -> R {
    let side = if right { Side::Right } else { Side::Left };
    let (x1, sorter) = (&x1.a, sorter.map(|s| s.a.clone()));
    let v = operand(x2)?;
    wrap(
        py,
        py.detach(|| match &v {
            Arg::A(v) => xp::searchsorted(x1, v, side, sorter.as_ref()),
            Arg::S(s) => xp::searchsorted(x1, *s, side, sorter.as_ref()),
        }),
    )
}

/// `unique_all` as (values, indices, inverse, counts); the others select from it.
#[pyfunction]
fn unique(py: Python<'_>, x: PyRef<'_, PyArray>, which: &str) -> PyResult<Vec<Py<PyArray>>> {
    let x = &x.a;
    let u = py
        .detach(|| match which {
            "values" => {
                xp::unique_values(x).map(|v| xp::Unique { values: v, indices: None, inverse: None, counts: None })
            }
            "counts" => xp::unique_counts(x),
            "inverse" => xp::unique_inverse(x),
            _ => xp::unique_all(x),
        })
        .py()?;
    [Some(u.values), u.indices, u.inverse, u.counts].into_iter().flatten().map(|a| PyArray::wrap(py, a)).collect()
}

/// `isin(x1, x2)` (`invert`: its negation).
#[pyfunction]
fn isin(py: Python<'_>, x1: PyRef<'_, PyArray>, x2: PyRef<'_, PyArray>, invert: bool) -> R {
    let (a, b) = (&x1.a, &x2.a);
    wrap(py, py.detach(|| xp::isin(a, b).and_then(|r| if invert { r.logical_not() } else { Ok(r) })))
}

#[pyfunction]
fn take(py: Python<'_>, x: PyRef<'_, PyArray>, indices: PyRef<'_, PyArray>, axis: Option<isize>) -> R {
    let (x, i) = (&x.a, &indices.a);
    wrap(
        py,
        py.detach(|| match axis {
            Some(a) => x.take(i, a),
            None => x.take(i, Axes::All),
        }),
    )
}

#[pyfunction]
fn take_along_axis(py: Python<'_>, x: PyRef<'_, PyArray>, indices: PyRef<'_, PyArray>, axis: isize) -> R {
    let (x, i) = (&x.a, &indices.a);
    wrap(py, py.detach(|| xp::take_along_axis(x, i, axis)))
}

#[pyfunction]
fn diff(py: Python<'_>, x: PyRef<'_, PyArray>, n: usize, axis: isize) -> R {
    let x = &x.a;
    wrap(py, py.detach(|| xp::diff(x, n, axis)))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(unary, m)?)?;
    m.add_function(wrap_pyfunction!(binary, m)?)?;
    m.add_function(wrap_pyfunction!(where_, m)?)?;
    m.add_function(wrap_pyfunction!(reduce, m)?)?;
    m.add_function(wrap_pyfunction!(var, m)?)?;
    m.add_function(wrap_pyfunction!(cumulative, m)?)?;
    m.add_function(wrap_pyfunction!(reshape, m)?)?;
    m.add_function(wrap_pyfunction!(permute_dims, m)?)?;
    m.add_function(wrap_pyfunction!(expand_dims, m)?)?;
    m.add_function(wrap_pyfunction!(squeeze, m)?)?;
    m.add_function(wrap_pyfunction!(broadcast_to, m)?)?;
    m.add_function(wrap_pyfunction!(flip, m)?)?;
    m.add_function(wrap_pyfunction!(roll, m)?)?;
    m.add_function(wrap_pyfunction!(tile, m)?)?;
    m.add_function(wrap_pyfunction!(repeat, m)?)?;
    m.add_function(wrap_pyfunction!(concat, m)?)?;
    m.add_function(wrap_pyfunction!(stack, m)?)?;
    m.add_function(wrap_pyfunction!(broadcast_arrays, m)?)?;
    m.add_function(wrap_pyfunction!(meshgrid, m)?)?;
    m.add_function(wrap_pyfunction!(nonzero, m)?)?;
    m.add_function(wrap_pyfunction!(full, m)?)?;
    m.add_function(wrap_pyfunction!(arange, m)?)?;
    m.add_function(wrap_pyfunction!(linspace, m)?)?;
    m.add_function(wrap_pyfunction!(eye, m)?)?;
    m.add_function(wrap_pyfunction!(tri, m)?)?;
    m.add_function(wrap_pyfunction!(sort, m)?)?;
    m.add_function(wrap_pyfunction!(searchsorted, m)?)?;
    m.add_function(wrap_pyfunction!(unique, m)?)?;
    m.add_function(wrap_pyfunction!(take, m)?)?;
    m.add_function(wrap_pyfunction!(isin, m)?)?;
    m.add_function(wrap_pyfunction!(take_along_axis, m)?)?;
    m.add_function(wrap_pyfunction!(diff, m)?)?;
    m.add_function(wrap_pyfunction!(from_scalars, m)?)?;
    m.add_function(wrap_pyfunction!(cuda_device_count, m)?)?;
    Ok(())
}
