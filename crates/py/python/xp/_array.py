"""``xp.Array``: the Array API's array object over an xp array on the CPU or a CUDA device."""

import builtins
import operator

from . import _xp
from . import _dtypes as dt

_SCALARS = (builtins.bool, builtins.int, builtins.float, builtins.complex)
_DL_CPU, _DL_CUDA = 1, 2


def wrap(a):
    """An ``Array`` around a native ``_Array``."""
    r = Array.__new__(Array)
    r._a = a
    return r


def native(x):
    """The native operand for ``x``: an ``_Array`` or a Python scalar (``None`` otherwise)."""
    if isinstance(x, Array):
        return x._a
    if isinstance(x, _SCALARS):
        return x
    return None


def _index_item(k):
    if isinstance(k, Array):
        return k._a
    if k is None or k is Ellipsis or isinstance(k, slice):
        return k
    if isinstance(k, builtins.bool):
        from ._funcs import asarray
        return asarray(k)._a
    if isinstance(k, builtins.int):
        return k
    if hasattr(k, "__index__"):
        return operator.index(k)
    raise IndexError(f"{k!r} is not an index (integers, slices, None, Ellipsis and arrays are)")


def _bool_scalar(key):
    """The value of a key that is one 0-d boolean (a Python bool or a 0-d bool array), else None."""
    if isinstance(key, tuple) and len(key) == 1:
        key = key[0]
    if isinstance(key, builtins.bool):
        return key
    if isinstance(key, Array) and key.ndim == 0 and key._a.dtype == "bool":
        return builtins.bool(key._a.item())
    return None


def _empty_mask(x, key):
    """Whether ``key`` is a boolean mask with an axis of length 0 that NumPy accepts for ``x``."""
    return (isinstance(key, Array) and key._a.dtype == "bool" and 0 in key.shape and key.ndim <= x.ndim
            and builtins.all(k in (s, 0) for s, k in zip(x.shape, key.shape)))


def _key(key):
    if not isinstance(key, tuple):
        key = (key,)
    return tuple(_index_item(k) for k in key)


def _binop(name, swap=False):
    def f(self, other):
        o = native(other)
        if o is None:
            return NotImplemented
        return wrap(_xp.binary(name, o, self._a) if swap else _xp.binary(name, self._a, o))
    f.__name__ = name
    return f


def _inplace(name):
    def f(self, other):
        o = native(other)
        if o is None:
            return NotImplemented
        r = _xp.binary(name, self._a, o)
        if r.dtype != self._a.dtype:
            raise TypeError(f"in-place {name} would change the dtype {self._a.dtype} to {r.dtype}")
        if r.shape != self._a.shape:
            raise ValueError(f"in-place {name} would change the shape {self._a.shape} to {r.shape}")
        self._a.setitem((Ellipsis,), r)
        return self
    f.__name__ = name
    return f


class Array:
    """An n-dimensional array in host memory or on a CUDA device (xp's ``Array``)."""

    __slots__ = ("_a",)
    __hash__ = None

    def __init__(self, *args, **kwargs):
        raise TypeError("create arrays with xp.asarray, xp.zeros, ... (Array has no public constructor)")

    # attributes
    @property
    def dtype(self):
        return dt.BY_NAME[self._a.dtype]

    @property
    def device(self):
        return self._a.device

    @property
    def shape(self):
        return self._a.shape

    @property
    def ndim(self):
        return self._a.ndim

    @property
    def size(self):
        return self._a.size

    @property
    def mT(self):
        if self.ndim < 2:
            raise ValueError("mT needs at least two dimensions")
        return wrap(_xp.linalg1("matrix_transpose", self._a))

    @property
    def T(self):
        if self.ndim != 2:
            raise ValueError("T is for two-dimensional arrays (use mT or permute_dims)")
        return wrap(_xp.permute_dims(self._a, [1, 0]))

    def to_device(self, device, /, *, stream=None):
        if device == self.device:
            return self
        return wrap(self._a.to_device(str(device)))

    def __array_namespace__(self, /, *, api_version=None):
        if api_version not in (None, "2021.12", "2022.12", "2023.12", "2024.12", "2025.12"):
            raise ValueError(f"xp does not implement Array API version {api_version!r}")
        import xp
        return xp

    # Python scalars
    def _scalar(self, what):
        if self.ndim != 0:
            raise TypeError(f"only 0-dimensional arrays convert to {what}, not shape {self.shape}")
        return self._a.item()

    def __bool__(self):
        return builtins.bool(self._scalar("bool"))

    def __int__(self):
        v = self._scalar("int")
        if isinstance(v, builtins.complex):
            raise TypeError("a complex array does not convert to int")
        return builtins.int(v)

    def __float__(self):
        v = self._scalar("float")
        if isinstance(v, builtins.complex):
            raise TypeError("a complex array does not convert to float")
        return builtins.float(v)

    def __complex__(self):
        return builtins.complex(self._scalar("complex"))

    def __index__(self):
        if self.dtype.kind not in "iu":
            raise TypeError(f"only integer arrays are indices, not {self.dtype}")
        return builtins.int(self._scalar("an index"))

    # indexing
    def __getitem__(self, key):
        flag = _bool_scalar(key)
        if flag is not None:
            # a 0-d boolean index: a new axis of length 1 (True) or 0 (False), as NumPy
            r = self._a.getitem((None,))
            return wrap(r if flag else r.getitem((slice(0, 0),)))
        if _empty_mask(self, key):
            # NumPy lets a mask axis of length 0 stand for any axis: nothing is selected
            from ._funcs import empty
            return empty((0,) + self.shape[key.ndim:], dtype=self.dtype, device=self.device)
        return wrap(self._a.getitem(_key(key)))

    def __setitem__(self, key, value):
        v = native(value)
        if v is None:
            raise TypeError(f"cannot assign {type(value).__name__} to an xp array")
        flag = _bool_scalar(key)
        if flag is not None:
            if flag:
                self._a.getitem((None,)).setitem((Ellipsis,), v)
            return
        if _empty_mask(self, key):
            return
        self._a.setitem(_key(key), v)

    # unary operators
    def __neg__(self):
        return wrap(_xp.unary("negative", self._a))

    def __pos__(self):
        return wrap(_xp.unary("positive", self._a))

    def __abs__(self):
        return wrap(_xp.unary("absolute", self._a))

    def __invert__(self):
        name = "logical_not" if self._a.dtype == "bool" else "invert"
        return wrap(_xp.unary(name, self._a))

    __add__, __radd__, __iadd__ = _binop("add"), _binop("add", True), _inplace("add")
    __sub__, __rsub__, __isub__ = _binop("subtract"), _binop("subtract", True), _inplace("subtract")
    __mul__, __rmul__, __imul__ = _binop("multiply"), _binop("multiply", True), _inplace("multiply")
    __truediv__, __rtruediv__, __itruediv__ = _binop("divide"), _binop("divide", True), _inplace("divide")
    __floordiv__, __rfloordiv__, __ifloordiv__ = (
        _binop("floor_divide"), _binop("floor_divide", True), _inplace("floor_divide"))
    __mod__, __rmod__, __imod__ = _binop("remainder"), _binop("remainder", True), _inplace("remainder")
    __pow__, __rpow__, __ipow__ = _binop("power"), _binop("power", True), _inplace("power")
    __and__, __rand__, __iand__ = _binop("bitwise_and"), _binop("bitwise_and", True), _inplace("bitwise_and")
    __or__, __ror__, __ior__ = _binop("bitwise_or"), _binop("bitwise_or", True), _inplace("bitwise_or")
    __xor__, __rxor__, __ixor__ = _binop("bitwise_xor"), _binop("bitwise_xor", True), _inplace("bitwise_xor")
    __lshift__, __rlshift__, __ilshift__ = (
        _binop("left_shift"), _binop("left_shift", True), _inplace("left_shift"))
    __rshift__, __rrshift__, __irshift__ = (
        _binop("right_shift"), _binop("right_shift", True), _inplace("right_shift"))
    __eq__, __ne__ = _binop("equal"), _binop("not_equal")
    __lt__, __le__ = _binop("less"), _binop("less_equal")
    __gt__, __ge__ = _binop("greater"), _binop("greater_equal")

    def __matmul__(self, other):
        if not isinstance(other, Array):
            return NotImplemented
        return wrap(_xp.linalg2("matmul", self._a, other._a))

    def __rmatmul__(self, other):
        if not isinstance(other, Array):
            return NotImplemented
        return wrap(_xp.linalg2("matmul", other._a, self._a))

    def __imatmul__(self, other):
        r = self.__matmul__(other)
        if r is NotImplemented:
            return r
        if r.shape != self.shape:
            raise ValueError(f"in-place matmul would change the shape {self.shape} to {r.shape}")
        self._a.setitem((Ellipsis,), r._a)
        return self

    # exchange
    def __dlpack__(self, /, *, stream=None, max_version=None, dl_device=None, copy=None):
        src = self
        if dl_device is not None and tuple(dl_device) != self.__dlpack_device__():
            if tuple(dl_device)[0] != _DL_CPU:
                raise BufferError(f"xp cannot export to DLPack device {dl_device}")
            if copy is False:
                raise BufferError("export to the CPU needs a copy, and copy=False was given")
            src, copy = self.to_device("cpu"), None
        legacy = max_version is None or max_version[0] < 1
        return _xp.to_dlpack(src._a, stream, legacy, copy)

    @property
    def __cuda_array_interface__(self):
        """Version 3 of Numba's and CuPy's interface, for arrays on a CUDA device (xp's work on
        the array has finished when it is read, so no stream is named)."""
        ptr, strides, typestr = _xp.cuda_interface(self._a)
        return {"shape": self.shape, "typestr": typestr, "data": (ptr, False), "version": 3,
                "strides": tuple(strides), "stream": None}

    def __dlpack_device__(self):
        d = self.device
        if d == "cpu":
            return (_DL_CPU, 0)
        return (_DL_CUDA, builtins.int(d.split(":")[1]))

    def __array__(self, dtype=None, copy=None):
        import numpy as np
        host = self if self.device == "cpu" else self.to_device("cpu")
        r = np.from_dlpack(host)
        if dtype is not None:
            r = r.astype(dtype, copy=False)
        return r.copy() if copy else r

    def tolist(self):
        """The array as nested Python lists of Python scalars."""
        if self.ndim == 0:
            return self._a.item()
        return [self[i].tolist() for i in range(self.shape[0])]

    def __len__(self):
        if self.ndim == 0:
            raise TypeError("len() of a 0-dimensional array")
        return self.shape[0]

    def __iter__(self):
        if self.ndim == 0:
            raise TypeError("iteration over a 0-dimensional array")
        return (self[i] for i in range(self.shape[0]))

    def __repr__(self):
        return f"xp.Array({self._a!r}, dtype={self.dtype.name}, device={self.device!r})"

    __str__ = __repr__
