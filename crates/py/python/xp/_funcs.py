"""The Array API namespace's functions over xp's native module."""

import builtins
import math
import os
from collections import namedtuple

from . import _xp
from . import _dtypes as dt
from ._array import Array, wrap, native, _SCALARS

_DEFAULT_DEVICE = os.environ.get("XP_DEFAULT_DEVICE", "cpu")


def default_device():
    """The device creation functions use when given none (``XP_DEFAULT_DEVICE``, else the CPU)."""
    return _DEFAULT_DEVICE


def _dev(device):
    return _DEFAULT_DEVICE if device is None else str(device)


def _dtn(dtype):
    d = dt.as_dtype(dtype)
    return None if d is None else d.name


def _shape(shape):
    if isinstance(shape, builtins.int):
        return [shape]
    return [builtins.int(s) for s in shape]


def _axes(axis):
    if axis is None:
        return None
    if isinstance(axis, builtins.int):
        return [axis]
    return list(axis)


def _check(x, name="x"):
    if not isinstance(x, Array):
        raise TypeError(f"{name} must be an xp array, not {type(x).__name__}")
    return x._a


# ---------------------------------------------------------------- creation

def _scan(obj, shape, depth, flat):
    if isinstance(obj, Array):
        if obj.ndim != 0:
            raise ValueError("nested arrays inside a list must be 0-dimensional")
        obj = obj._a.item()
    if isinstance(obj, _SCALARS):
        if len(shape) > depth:
            raise ValueError("ragged nested sequence")
        flat.append(obj)
        return
    if isinstance(obj, (str, bytes)):
        raise TypeError(f"{obj!r} is not a number")
    if hasattr(obj, "__dlpack__") or hasattr(obj, "__array__"):
        import numpy as np
        obj = np.asarray(obj).tolist()
        if isinstance(obj, _SCALARS):
            return _scan(obj, shape, depth, flat)
    try:
        items = list(obj)
    except TypeError:
        raise TypeError(f"{type(obj).__name__} cannot be an array element") from None
    if len(shape) == depth:
        if flat and depth == 0:
            raise ValueError("ragged nested sequence")
        shape.append(len(items))
    elif shape[depth] != len(items):
        raise ValueError("ragged nested sequence")
    for it in items:
        _scan(it, shape, depth + 1, flat)


def _infer(values):
    if not values:
        return dt.float64  # an empty sequence, as NumPy
    kind = "b"
    for v in values:
        if isinstance(v, builtins.bool):
            continue
        if isinstance(v, builtins.int):
            kind = builtins.max(kind, "i", key="bifc".index)
        elif isinstance(v, builtins.float):
            kind = builtins.max(kind, "f", key="bifc".index)
        else:
            kind = "c"
    return {"b": dt.bool, "i": dt.int64, "f": dt.float64, "c": dt.complex128}[kind]


def asarray(obj, /, *, dtype=None, device=None, copy=None):
    """An xp array from an xp array, a DLPack producer (NumPy, PyTorch, CuPy, JAX), a Python
    scalar or a nested sequence of them."""
    d = dt.as_dtype(dtype)
    if isinstance(obj, Array):
        r = obj
        if device is not None and str(device) != obj.device:
            if copy is False:
                raise ValueError("a move to another device needs a copy, and copy=False was given")
            r = r.to_device(device)
            copy = False
        if d is not None and d != r.dtype:
            if copy is False:
                raise ValueError("a dtype change needs a copy, and copy=False was given")
            return wrap(r._a.astype(d.name))
        return wrap(r._a.copy()) if copy else r
    cai = None if hasattr(obj, "__dlpack__") else getattr(obj, "__cuda_array_interface__", None)
    if cai is not None:
        r = _from_cuda_interface(obj, cai, device)
        return r if d is None or d == r.dtype else wrap(r._a.astype(d.name))
    if hasattr(obj, "__dlpack__") and not isinstance(obj, type):
        if copy is False and hasattr(obj, "__dlpack_device__") and obj.__dlpack_device__()[0] == 1:
            raise ValueError("xp copies host memory it imports, and copy=False was given")
        # device memory stays where it is unless a device is named; host memory goes to the
        # default device (the standard infers the device from an array argument)
        host = hasattr(obj, "__dlpack_device__") and obj.__dlpack_device__()[0] == 1
        r = from_dlpack(obj, device=_dev(device) if host or device is not None else None)
        return r if d is None or d == r.dtype else wrap(r._a.astype(d.name))
    if copy is False:
        raise ValueError("a Python object needs a copy to become an array, and copy=False was given")
    if isinstance(obj, _SCALARS):
        if d is None:
            d = _infer([obj])
        return wrap(_xp.full([], obj, d.name, _dev(device)))
    shape, flat = [], []
    if hasattr(obj, "__array__") or hasattr(obj, "__array_interface__") or isinstance(obj, (bytes, memoryview, bytearray)):
        import numpy as np
        return asarray(np.array(obj), dtype=dtype, device=device)
    _scan(obj, shape, 0, flat)
    if d is None:
        d = _infer(flat)
    return wrap(_xp.from_scalars(flat, shape, d.name, _dev(device)))


def _from_cuda_interface(obj, cai, device):
    """An array over the device memory another library describes by ``__cuda_array_interface__``
    (no copy; ``obj`` kept alive while xp uses it; the producer's ``stream`` ordered first)."""
    if cai.get("mask") is not None:
        raise TypeError("masked CUDA arrays are not supported")
    ptr, readonly = cai["data"]
    dev = _DEFAULT_DEVICE if device is None else str(device)
    ordinal = builtins.int(dev.split(":")[1]) if dev.startswith("cuda:") else 0
    stream = cai.get("stream") if cai.get("version", 0) >= 3 else None
    strides = cai.get("strides")
    r = wrap(_xp.from_cuda_interface(ptr, list(cai["shape"]), None if strides is None else list(strides),
                                     cai["typestr"], builtins.bool(readonly), ordinal, stream, obj))
    return r if device is None or str(device) == r.device else r.to_device(device)


def from_dlpack(x, /, *, device=None, copy=None):
    """The array another library exports through DLPack: device memory without a copy (its
    producer's work ordered before xp's current stream), host memory copied."""
    if isinstance(x, Array):
        # xp's own array: the same memory, as a round trip through a capsule would give
        r = x if copy is not True else wrap(x._a.copy())
        return r if device is None or str(device) == r.device else r.to_device(device)
    kind, ordinal = x.__dlpack_device__()
    stream = None
    if kind == 2:
        s = _xp.current_stream(f"cuda:{ordinal}")
        stream = 1 if not s else s
    try:
        cap = x.__dlpack__(stream=stream, max_version=(1, 0), copy=copy)
    except TypeError:
        cap = x.__dlpack__(stream=stream) if stream is not None else x.__dlpack__()
    r = wrap(_xp.from_capsule(cap))
    if device is not None and str(device) != r.device:
        r = r.to_device(device)
    return r


def arange(start, /, stop=None, step=1, *, dtype=None, device=None):
    if stop is None:
        start, stop = 0, start
    d = dt.as_dtype(dtype)
    if d is None and not builtins.any(isinstance(v, builtins.float) for v in (start, stop, step)):
        d = dt.int64
    return wrap(_xp.arange(start, stop, step, _dtn(d), _dev(device)))


def empty(shape, *, dtype=None, device=None):
    return wrap(_xp.full(_shape(shape), None, _dtn(dtype) or "float64", _dev(device)))


def zeros(shape, *, dtype=None, device=None):
    return wrap(_xp.full(_shape(shape), 0, _dtn(dtype) or "float64", _dev(device)))


def ones(shape, *, dtype=None, device=None):
    return wrap(_xp.full(_shape(shape), 1, _dtn(dtype) or "float64", _dev(device)))


def full(shape, fill_value, *, dtype=None, device=None):
    if isinstance(fill_value, Array):
        fill_value = fill_value._a.item()
    d = dt.as_dtype(dtype) or _infer([fill_value])
    return wrap(_xp.full(_shape(shape), fill_value, d.name, _dev(device)))


def _like(x, dtype, device):
    return (dt.as_dtype(dtype) or x.dtype).name, (x.device if device is None else str(device))


def empty_like(x, /, *, dtype=None, device=None):
    d, dev = _like(x, dtype, device)
    return wrap(_xp.full(list(x.shape), None, d, dev))


def zeros_like(x, /, *, dtype=None, device=None):
    d, dev = _like(x, dtype, device)
    return wrap(_xp.full(list(x.shape), 0, d, dev))


def ones_like(x, /, *, dtype=None, device=None):
    d, dev = _like(x, dtype, device)
    return wrap(_xp.full(list(x.shape), 1, d, dev))


def full_like(x, /, fill_value, *, dtype=None, device=None):
    d, dev = _like(x, dtype, device)
    return wrap(_xp.full(list(x.shape), fill_value, d, dev))


def eye(n_rows, n_cols=None, /, *, k=0, dtype=None, device=None):
    k = builtins.max(builtins.min(k, n_rows if n_cols is None else n_cols), -n_rows)
    return wrap(_xp.eye(n_rows, n_cols, k, _dtn(dtype) or "float64", _dev(device)))


def linspace(start, stop, /, num, *, dtype=None, device=None, endpoint=True):
    d = dt.as_dtype(dtype)
    if isinstance(start, builtins.complex) or isinstance(stop, builtins.complex) or (d is not None and d.kind == "c"):
        d = d or dt.complex128
        re = linspace(builtins.complex(start).real, builtins.complex(stop).real, num, dtype=dt.float64,
                      device=device, endpoint=endpoint)
        im = linspace(builtins.complex(start).imag, builtins.complex(stop).imag, num, dtype=dt.float64,
                      device=device, endpoint=endpoint)
        return astype(re, d) + astype(im, d) * 1j
    return wrap(_xp.linspace(builtins.float(start), builtins.float(stop), num, endpoint, (d or dt.float64).name,
                             _dev(device)))


def meshgrid(*arrays, indexing="xy"):
    if indexing not in ("xy", "ij"):
        raise ValueError(f"indexing is 'xy' or 'ij', not {indexing!r}")
    if not arrays:
        return ()
    return tuple(wrap(a) for a in _xp.meshgrid([_check(a) for a in arrays], indexing))


def tril(x, /, *, k=0):
    return wrap(_xp.tri(_check(x), k, False))


def triu(x, /, *, k=0):
    return wrap(_xp.tri(_check(x), k, True))


# ---------------------------------------------------------------- data types

def astype(x, dtype, /, *, copy=True, device=None):
    d = dt.as_dtype(dtype)
    r = x if device is None else x.to_device(device)
    if d == r.dtype:
        return wrap(r._a.copy()) if copy and r is x else r
    return wrap(r._a.astype(d.name))


# ---------------------------------------------------------------- elementwise

_UNARY = {
    "abs": "absolute", "acos": "arccos", "acosh": "arccosh", "asin": "arcsin", "asinh": "arcsinh",
    "atan": "arctan", "atanh": "arctanh", "bitwise_invert": "invert", "ceil": "ceil", "conj": "conjugate",
    "cos": "cos", "cosh": "cosh", "exp": "exp", "expm1": "expm1", "floor": "floor", "imag": "imag",
    "isfinite": "isfinite", "isinf": "isinf", "isnan": "isnan", "log": "log", "log1p": "log1p",
    "log2": "log2", "log10": "log10", "logical_not": "logical_not", "negative": "negative",
    "positive": "positive", "real": "real", "reciprocal": "reciprocal", "round": "round", "sign": "sign",
    "signbit": "signbit", "sin": "sin", "sinh": "sinh", "square": "square", "sqrt": "sqrt", "tan": "tan",
    "tanh": "tanh", "trunc": "trunc",
}

_BINARY = {
    "add": "add", "atan2": "arctan2", "bitwise_and": "bitwise_and", "bitwise_left_shift": "left_shift",
    "bitwise_or": "bitwise_or", "bitwise_right_shift": "right_shift", "bitwise_xor": "bitwise_xor",
    "copysign": "copysign", "divide": "divide", "equal": "equal", "floor_divide": "floor_divide",
    "greater": "greater", "greater_equal": "greater_equal", "hypot": "hypot", "less": "less",
    "less_equal": "less_equal", "logaddexp": "logaddexp", "logical_and": "logical_and",
    "logical_or": "logical_or", "logical_xor": "logical_xor", "maximum": "maximum", "minimum": "minimum",
    "multiply": "multiply", "nextafter": "nextafter", "not_equal": "not_equal", "pow": "power",
    "remainder": "remainder", "subtract": "subtract",
}


def _make_unary(api, np_name):
    def f(x, /):
        return wrap(_xp.unary(np_name, _check(x)))
    f.__name__ = f.__qualname__ = api
    f.__doc__ = f"The Array API's ``{api}`` (NumPy's ``{np_name}``), elementwise."
    return f


def _operand(x, name):
    n = native(x)
    if n is None:
        raise TypeError(f"{name} must be an xp array or a Python scalar, not {type(x).__name__}")
    return n


def _make_binary(api, np_name):
    def f(x1, x2, /):
        a, b = _operand(x1, "x1"), _operand(x2, "x2")
        if not isinstance(x1, Array) and not isinstance(x2, Array):
            raise TypeError(f"{api} needs at least one array")
        return wrap(_xp.binary(np_name, a, b))
    f.__name__ = f.__qualname__ = api
    f.__doc__ = f"The Array API's ``{api}`` (NumPy's ``{np_name}``), elementwise with broadcasting."
    return f


for _api, _np in _UNARY.items():
    globals()[_api] = _make_unary(_api, _np)
for _api, _np in _BINARY.items():
    globals()[_api] = _make_binary(_api, _np)


def clip(x, /, min=None, max=None):
    """``x`` limited to ``[min, max]`` (arrays or Python scalars), in ``x``'s dtype."""
    r = x
    if min is not None:
        m = _operand(min, "min")
        r = wrap(_xp.where_(_xp.binary("less", r._a, m), m, r._a))
    if max is not None:
        m = _operand(max, "max")
        r = wrap(_xp.where_(_xp.binary("greater", r._a, m), m, r._a))
    if r.dtype != x.dtype:
        r = astype(r, x.dtype)
    return wrap(r._a.copy()) if r is x else r


# ---------------------------------------------------------------- manipulation

def broadcast_arrays(*arrays):
    return tuple(wrap(a) for a in _xp.broadcast_arrays([_check(a) for a in arrays]))


def broadcast_shapes(*shapes):
    """The shape NumPy's broadcasting gives the shapes (a ``ValueError`` where they clash)."""
    n = builtins.max((len(s) for s in shapes), default=0)
    out = [1] * n
    for s in shapes:
        for i, d in enumerate(s, n - len(s)):
            if d is None or out[i] is None:
                out[i] = None
            elif d != 1:
                if out[i] not in (1, d):
                    raise ValueError(f"shapes {shapes} do not broadcast")
                out[i] = d
    return tuple(out)


def broadcast_to(x, /, shape):
    return wrap(_xp.broadcast_to(_check(x), _shape(shape)))


def concat(arrays, /, *, axis=0):
    xs = [_check(a) for a in arrays]
    if axis is None:
        xs = [_xp.reshape(a, [-1]) for a in xs]
        axis = 0
    return wrap(_xp.concat(xs, axis))


def stack(arrays, /, *, axis=0):
    return wrap(_xp.stack([_check(a) for a in arrays], axis))


def expand_dims(x, /, axis=0):
    """``x`` with new axes of length 1 at ``axis`` (an int, or a tuple of positions in the result)."""
    if isinstance(axis, builtins.int):
        return wrap(_xp.expand_dims(_check(x), axis))
    n = x.ndim + len(axis)
    pos = [a + n if a < 0 else a for a in axis]
    if any_bad(pos, n):
        raise IndexError(f"axis {axis} is out of range or repeated for {n} dimensions")
    r = x
    for p in sorted(pos):
        r = wrap(_xp.expand_dims(r._a, p))
    return r


def any_bad(pos, n):
    return len(set(pos)) != len(pos) or builtins.any(p < 0 or p >= n for p in pos)


def flip(x, /, *, axis=None):
    return wrap(_xp.flip(_check(x), _axes(axis)))


def permute_dims(x, /, axes):
    return wrap(_xp.permute_dims(_check(x), list(axes)))


def moveaxis(x, source, destination, /):
    n = x.ndim
    src = [s % n if -n <= s < n else _bad_axis(s, n) for s in _axes(source)]
    dst = [s % n if -n <= s < n else _bad_axis(s, n) for s in _axes(destination)]
    if len(src) != len(dst) or len(set(src)) != len(src) or len(set(dst)) != len(dst):
        raise ValueError("moveaxis needs as many distinct source as destination axes")
    order = [i for i in range(n) if i not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return permute_dims(x, order)


def _bad_axis(a, n):
    raise ValueError(f"axis {a} is out of range for {n} dimensions")


def reshape(x, /, shape, *, copy=None):
    r = wrap(_xp.reshape(_check(x), _shape(shape)))
    if copy:
        return wrap(r._a.copy())
    return r


def roll(x, /, shift, *, axis=None):
    if axis is None:
        return wrap(_xp.roll(_check(x), builtins.int(shift), None))
    if isinstance(shift, builtins.int) and isinstance(axis, builtins.int):
        return wrap(_xp.roll(_check(x), shift, [axis]))
    shifts = [shift] * len(axis) if isinstance(shift, builtins.int) else list(shift)
    axes = [axis] * len(shifts) if isinstance(axis, builtins.int) else list(axis)
    if len(shifts) != len(axes):
        raise ValueError("roll needs one shift per axis")
    r = x
    for s, a in zip(shifts, axes):
        r = wrap(_xp.roll(r._a, s, [a]))
    return r


def squeeze(x, /, axis):
    return wrap(_xp.squeeze(_check(x), _axes(axis)))


def tile(x, repetitions, /):
    reps = list(repetitions)
    if len(reps) < x.ndim:
        reps = [1] * (x.ndim - len(reps)) + reps
    return wrap(_xp.tile(_check(x), reps))


def repeat(x, repeats, /, *, axis=None):
    if isinstance(repeats, Array):
        counts = [builtins.int(v) for v in repeats.tolist()] if repeats.ndim else [builtins.int(repeats)]
    else:
        counts = [builtins.int(repeats)]
    return wrap(_xp.repeat(_check(x), counts, axis))


def unstack(x, /, *, axis=0):
    n = x.ndim
    if not -n <= axis < n:
        _bad_axis(axis, n)
    key = [slice(None)] * n
    out = []
    for i in range(x.shape[axis]):
        key[axis] = i
        out.append(x[tuple(key)])
    return tuple(out)


# ---------------------------------------------------------------- statistics and reductions

def _reduce(name, x, axis, keepdims):
    return wrap(_xp.reduce(name, _check(x), _axes(axis), keepdims))


def _acc_dtype(x, dtype):
    d = dt.as_dtype(dtype)
    if d is not None:
        return d
    if x.dtype.kind in "bi":
        return dt.int64
    if x.dtype.kind == "u":
        return dt.uint64
    return x.dtype


def sum(x, /, *, axis=None, dtype=None, keepdims=False):
    d = _acc_dtype(x, dtype)
    r = _reduce("sum", astype(x, d) if d.kind in "fc" and x.dtype != d else x, axis, keepdims)
    return r if r.dtype == d else astype(r, d)


def prod(x, /, *, axis=None, dtype=None, keepdims=False):
    d = _acc_dtype(x, dtype)
    r = _reduce("prod", astype(x, d) if d.kind in "fc" and x.dtype != d else x, axis, keepdims)
    return r if r.dtype == d else astype(r, d)


def mean(x, /, *, axis=None, keepdims=False):
    return _reduce("mean", x, axis, keepdims)


def max(x, /, *, axis=None, keepdims=False):
    return _reduce("max", x, axis, keepdims)


def min(x, /, *, axis=None, keepdims=False):
    return _reduce("min", x, axis, keepdims)


def all(x, /, *, axis=None, keepdims=False):
    return _reduce("all", x, axis, keepdims)


def any(x, /, *, axis=None, keepdims=False):
    return _reduce("any", x, axis, keepdims)


def count_nonzero(x, /, *, axis=None, keepdims=False):
    return _reduce("count_nonzero", x, axis, keepdims)


def _count(x, axis):
    if axis is None:
        return x.size
    n = 1
    for a in _axes(axis):
        n *= x.shape[a]
    return n


def _var(x, axis, correction, keepdims, std):
    r = wrap(_xp.var(_check(x), _axes(axis), 0, keepdims, False))
    if correction:
        n = _count(x, axis)
        r = r * (n / (n - correction)) if n - correction > 0 else r * builtins.float("nan")
        r = astype(r, r.dtype) if r.dtype == x.dtype or x.dtype.kind not in "fc" else r
    if std:
        r = sqrt(r)
    return r


def var(x, /, *, axis=None, correction=0.0, keepdims=False):
    return _var(x, axis, correction, keepdims, False)


def std(x, /, *, axis=None, correction=0.0, keepdims=False):
    return _var(x, axis, correction, keepdims, True)


def _arg(name, x, axis, keepdims):
    if axis is None:
        r = wrap(_xp.reduce(name, _check(x), None, False))
        return reshape(r, [1] * x.ndim) if keepdims else r
    return wrap(_xp.reduce(name, _check(x), [axis], keepdims))


def argmax(x, /, *, axis=None, keepdims=False):
    return _arg("argmax", x, axis, keepdims)


def argmin(x, /, *, axis=None, keepdims=False):
    return _arg("argmin", x, axis, keepdims)


def _cumulative(name, x, axis, dtype, include_initial):
    if axis is None:
        if x.ndim > 1:
            raise ValueError(f"{name} needs an axis for arrays of more than one dimension")
        if x.ndim == 0:
            raise ValueError(f"{name} needs at least one dimension")
        axis = 0
    d = _acc_dtype(x, dtype)
    src = astype(x, d) if d.kind in "fc" and x.dtype != d else x
    r = wrap(_xp.cumulative("cumsum" if name == "cumulative_sum" else "cumprod", src._a, axis))
    if r.dtype != d:
        r = astype(r, d)
    if include_initial:
        shape = list(r.shape)
        shape[axis] = 1
        first = full(shape, 0 if name == "cumulative_sum" else 1, dtype=d, device=x.device)
        r = concat([first, r], axis=axis)
    return r


def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
    return _cumulative("cumulative_sum", x, axis, dtype, include_initial)


def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False):
    return _cumulative("cumulative_prod", x, axis, dtype, include_initial)


def diff(x, /, *, axis=-1, n=1, prepend=None, append=None):
    parts = [p for p in (prepend, x, append) if p is not None]
    src = concat(parts, axis=axis) if len(parts) > 1 else x
    return wrap(_xp.diff(src._a, n, axis))


# ---------------------------------------------------------------- searching, sorting, sets

def nonzero(x, /):
    if x.ndim == 0:
        raise ValueError("nonzero of a 0-dimensional array")
    return tuple(wrap(a) for a in _xp.nonzero(_check(x)))


def where(condition, x1, x2, /):
    return wrap(_xp.where_(_check(condition, "condition"), _operand(x1, "x1"), _operand(x2, "x2")))


def searchsorted(x1, x2, /, *, side="left", sorter=None):
    if side not in ("left", "right"):
        raise ValueError(f"side is 'left' or 'right', not {side!r}")
    return wrap(_xp.searchsorted(_check(x1), _operand(x2, "x2"), side == "right",
                                 None if sorter is None else _check(sorter)))


def argsort(x, /, *, axis=-1, descending=False, stable=True):
    if not descending:
        return wrap(_xp.sort(_check(x), axis, True))
    n = x.shape[axis]
    i = wrap(_xp.sort(_xp.flip(_check(x), [axis]), axis, True))
    return (n - 1) - flip(i, axis=axis)


def sort(x, /, *, axis=-1, descending=False, stable=True):
    r = wrap(_xp.sort(_check(x), axis, False))
    return flip(r, axis=axis) if descending else r


UniqueAllResult = namedtuple("UniqueAllResult", ["values", "indices", "inverse_indices", "counts"])
UniqueCountsResult = namedtuple("UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = namedtuple("UniqueInverseResult", ["values", "inverse_indices"])


def unique_all(x, /):
    v, i, inv, c = (wrap(a) for a in _xp.unique(_check(x), "all"))
    return UniqueAllResult(v, i, reshape(inv, x.shape), c)


def unique_counts(x, /):
    v, c = (wrap(a) for a in _xp.unique(_check(x), "counts"))
    return UniqueCountsResult(v, c)


def unique_inverse(x, /):
    v, inv = (wrap(a) for a in _xp.unique(_check(x), "inverse"))
    return UniqueInverseResult(v, reshape(inv, x.shape))


def unique_values(x, /):
    (v,) = _xp.unique(_check(x), "values")
    return wrap(v)


# ---------------------------------------------------------------- indexing

def isin(x1, x2, /, *, invert=False):
    """Whether each element of ``x1`` is in ``x2`` (either may be a Python scalar)."""
    a = x1 if isinstance(x1, Array) else asarray(x1, dtype=x2.dtype, device=x2.device)
    b = x2 if isinstance(x2, Array) else asarray(x2, dtype=x1.dtype, device=x1.device)
    return wrap(_xp.isin(a._a, b._a, invert))


def take(x, indices, /, *, axis=None):
    if axis is None and x.ndim != 1:
        raise ValueError("take needs an axis for arrays of more than one dimension")
    return wrap(_xp.take(_check(x), _check(indices, "indices"), 0 if axis is None else axis))


def take_along_axis(x, indices, /, *, axis=-1):
    return wrap(_xp.take_along_axis(_check(x), _check(indices, "indices"), axis))


# ---------------------------------------------------------------- products

def matmul(x1, x2, /):
    return wrap(_xp.linalg2("matmul", _check(x1, "x1"), _check(x2, "x2")))


def matrix_transpose(x, /):
    if x.ndim < 2:
        raise ValueError("matrix_transpose needs at least two dimensions")
    return wrap(_xp.linalg1("matrix_transpose", _check(x)))


def tensordot(x1, x2, /, *, axes=2):
    if isinstance(axes, builtins.int):
        return wrap(_xp.tensordot(_check(x1), _check(x2), axes, [], []))
    a, b = axes
    return wrap(_xp.tensordot(_check(x1), _check(x2), None, list(a), list(b)))


def vecdot(x1, x2, /, *, axis=-1):
    return wrap(_xp.vecdot(_check(x1, "x1"), _check(x2, "x2"), axis))


_EXCLUDE = {"namedtuple", "wrap", "native", "default_device", "any_bad"}
__all__ = [n for n, v in list(globals().items())
           if not n.startswith("_") and callable(v) and not isinstance(v, type) and n not in _EXCLUDE]
