"""The Array API's ``linalg`` extension over xp's linear algebra (faer on the CPU; cuBLAS,
cuSOLVER and xp's kernels on a GPU)."""

import builtins
from collections import namedtuple

from . import _xp
from . import _dtypes as dt
from . import _funcs as _f
from ._array import wrap
from ._funcs import _check, matmul, matrix_transpose, tensordot, vecdot, astype, reshape, sum as _sum
from ._funcs import max as _max, greater as _greater, count_nonzero as _count_nonzero

__all__ = [
    "cholesky", "cross", "det", "diagonal", "eig", "eigvals", "eigh", "eigvalsh", "inv", "matmul", "matrix_norm",
    "matrix_power", "matrix_rank", "matrix_transpose", "outer", "pinv", "qr", "slogdet", "solve", "svd",
    "svdvals", "tensordot", "trace", "vecdot", "vector_norm", "LinAlgError",
]

LinAlgError = _xp.LinAlgError
EigResult = namedtuple("EigResult", ["eigenvalues", "eigenvectors"])
EighResult = namedtuple("EighResult", ["eigenvalues", "eigenvectors"])
QRResult = namedtuple("QRResult", ["Q", "R"])
SlogdetResult = namedtuple("SlogdetResult", ["sign", "logabsdet"])
SVDResult = namedtuple("SVDResult", ["U", "S", "Vh"])


def _matrix(x):
    a = _check(x)
    if x.ndim < 2:
        raise ValueError(f"a matrix (stack) needs at least two dimensions, not shape {x.shape}")
    return a


def cholesky(x, /, *, upper=False):
    return wrap(_xp.linalg1("cholesky_upper" if upper else "cholesky", _matrix(x)))


def cross(x1, x2, /, *, axis=-1):
    if not (-builtins.min(x1.ndim, x2.ndim) <= axis < 0):
        raise ValueError(f"cross's axis is negative and within both arrays' dimensions, not {axis}")
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        raise ValueError("cross needs length 3 along axis")
    return wrap(_xp.cross(_check(x1), _check(x2), axis))


def det(x, /):
    return wrap(_xp.linalg1("det", _matrix(x)))


def diagonal(x, /, *, offset=0):
    return wrap(_xp.diagonal(_matrix(x), offset, False))


def eig(x, /):
    """Eigenvalues and right eigenvectors of a general matrix (stack), complex."""
    w, v = _xp.eig(_matrix(x), False)
    return EigResult(_complex(wrap(w)), _complex(wrap(v)))


def eigvals(x, /):
    """Eigenvalues of a general matrix (stack), complex."""
    (w,) = _xp.eig(_matrix(x), True)
    return _complex(wrap(w))


def _complex(a):
    """NumPy's real results where every eigenvalue is real, as the standard's complex dtype."""
    if a.dtype.kind == "c":
        return a
    return astype(a, dt.complex64 if a.dtype in (dt.float32, dt.float16) else dt.complex128)


def eigh(x, /):
    w, v = _xp.eigh(_matrix(x))
    return EighResult(wrap(w), wrap(v))


def eigvalsh(x, /):
    return wrap(_xp.linalg1("eigvalsh", _matrix(x)))


def inv(x, /):
    return wrap(_xp.linalg1("inv", _matrix(x)))


def _keep(r, x, axes, keepdims):
    if not keepdims:
        return r
    n = x.ndim
    axes = range(n) if axes is None else [a % n for a in axes]
    return reshape(r, [1 if i in axes else s for i, s in enumerate(x.shape)])


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    r = wrap(_xp.norm(_matrix(x), ord, None, True))
    return _keep(r, x, (-2, -1), keepdims)


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    axes = None if axis is None else ([axis] if isinstance(axis, builtins.int) else list(axis))
    r = wrap(_xp.norm(_check(x), ord, axes, False))
    return _keep(r, x, axes, keepdims)


def matrix_power(x, n, /):
    return wrap(_xp.matrix_power(_matrix(x), n))


def svdvals(x, /):
    return wrap(_xp.linalg1("svdvals", _matrix(x)))


def matrix_rank(x, /, *, rtol=None):
    s = svdvals(x)
    m, n = x.shape[-2:]
    if rtol is None:
        rtol = builtins.max(m, n) * dt.finfo(s.dtype).eps
    if not isinstance(rtol, (builtins.int, builtins.float)):
        rtol = rtol[..., None]
    tol = _max(s, axis=-1, keepdims=True) * rtol if s.shape[-1] else s
    return _count_nonzero(_greater(s, tol), axis=-1)


def pinv(x, /, *, rtol=None):
    m, n = x.shape[-2:]
    if rtol is None:
        rtol = builtins.max(m, n) * dt.finfo(x.dtype if x.dtype.kind in "fc" else dt.float64).eps
    if isinstance(rtol, (builtins.int, builtins.float)) and x.size:
        return wrap(_xp.pinv(_matrix(x), builtins.float(rtol), False))
    # a cutoff per matrix of the stack (or an empty stack): V diag(1/s) Uᴴ over the values above it
    if x.size == 0:
        return _f.zeros(x.shape[:-2] + (n, m), dtype=x.dtype, device=x.device)
    u, s, vh = svd(x, full_matrices=False)
    cut = (rtol[..., None] if isinstance(rtol, _f.Array) else rtol) * _max(s, axis=-1, keepdims=True)
    keep = _greater(s, cut)
    sinv = _f.where(keep, 1 / _f.where(keep, s, 1.0), 0.0)
    return matmul(_f.conj(vh).mT * sinv[..., None, :], _f.conj(u).mT)


def outer(x1, x2, /):
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError("outer takes one-dimensional arrays")
    return wrap(_xp.linalg2("outer", _check(x1), _check(x2)))


def qr(x, /, *, mode="reduced"):
    if mode not in ("reduced", "complete"):
        raise ValueError(f"mode is 'reduced' or 'complete', not {mode!r}")
    q, r = _xp.qr(_matrix(x), mode == "complete")
    return QRResult(wrap(q), wrap(r))


def slogdet(x, /):
    s, l = _xp.slogdet(_matrix(x))
    return SlogdetResult(wrap(s), wrap(l))


def solve(x1, x2, /):
    return wrap(_xp.linalg2("solve", _matrix(x1), _check(x2)))


def svd(x, /, *, full_matrices=True):
    u, s, vh = _xp.svd(_matrix(x), full_matrices)
    return SVDResult(wrap(u), wrap(s), wrap(vh))


def trace(x, /, *, offset=0, dtype=None):
    d = dt.as_dtype(dtype)
    r = wrap(_xp.diagonal(_matrix(x), offset, True))
    if d is None and x.dtype.kind in "fc":
        d = x.dtype
    return r if d is None or r.dtype == d else astype(r, d)
