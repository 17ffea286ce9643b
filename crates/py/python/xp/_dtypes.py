"""The Array API's data types, promotion rules and dtype functions for xp."""

import builtins

__all__ = [
    "DType", "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "bfloat16", "float32", "float64", "complex64", "complex128",
    "result_type", "can_cast", "finfo", "iinfo", "isdtype",
]


class DType:
    """An xp data type (compare with ``==``; ``str()`` gives NumPy's name)."""

    __slots__ = ("name", "kind", "bits")

    def __init__(self, name, kind, bits):
        self.name, self.kind, self.bits = name, kind, bits

    def __repr__(self):
        return f"xp.{self.name}"

    __str__ = lambda self: self.name  # noqa: E731

    def __eq__(self, other):
        return isinstance(other, DType) and other.name == self.name

    def __hash__(self):
        return hash(("xp.dtype", self.name))

    def __reduce__(self):
        return (dtype, (self.name,))


bool = DType("bool", "b", 8)
int8, int16, int32, int64 = (DType(f"int{b}", "i", b) for b in (8, 16, 32, 64))
uint8, uint16, uint32, uint64 = (DType(f"uint{b}", "u", b) for b in (8, 16, 32, 64))
float16, float32, float64 = (DType(f"float{b}", "f", b) for b in (16, 32, 64))
bfloat16 = DType("bfloat16", "f", 16)
complex64, complex128 = DType("complex64", "c", 64), DType("complex128", "c", 128)

ALL = [bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, bfloat16,
       float32, float64, complex64, complex128]
BY_NAME = {d.name: d for d in ALL}
STANDARD = [d for d in ALL if d not in (float16, bfloat16)]


def dtype(name):
    """The xp dtype named ``name`` (NumPy's names)."""
    return BY_NAME[name]


def as_dtype(d):
    """An xp dtype from an xp dtype, a name, or anything with a NumPy-style ``name``."""
    if d is None or isinstance(d, DType):
        return d
    name = d if isinstance(d, str) else getattr(d, "name", None) or getattr(d, "__name__", None)
    if name in BY_NAME:
        return BY_NAME[name]
    if d is builtins.float:
        return float64
    if d is builtins.int:
        return int64
    if d is builtins.complex:
        return complex128
    if d is builtins.bool:
        return bool
    raise TypeError(f"{d!r} is not an xp dtype")


def _promote2(a, b):
    if a == b:
        return a
    ka, kb = a.kind, b.kind
    if ka == "b" or kb == "b":
        if ka == kb:
            return a
        raise TypeError(f"{a} and {b} have no common dtype in the Array API")
    if ka in "iu" and kb in "iu":
        if ka == kb:
            return a if a.bits >= b.bits else b
        s, u = (a, b) if ka == "i" else (b, a)
        if s.bits > u.bits:
            return s
        if u.bits == 64:
            raise TypeError(f"{a} and {b} have no common integer dtype")
        return BY_NAME[f"int{u.bits * 2}"]
    if ka in "iu" or kb in "iu":
        raise TypeError(f"{a} and {b} mix integer and floating kinds (the Array API leaves this out)")
    # floating and complex
    def real_bits(d):
        return d.bits // 2 if d.kind == "c" else d.bits
    if bfloat16 in (a, b) and float16 in (a, b):
        bits = 32
    else:
        bits = max(real_bits(a), real_bits(b))
    if ka == "c" or kb == "c":
        return complex64 if bits <= 32 else complex128
    if bits == 16:
        return a if a.bits == 16 and a == b else float16
    return BY_NAME[f"float{bits}"]


def result_type(*arrays_and_dtypes):
    """The dtype the Array API's promotion gives (Python scalars take the other operands' kind)."""
    dts, scalars = [], []
    for x in arrays_and_dtypes:
        if isinstance(x, (builtins.bool, builtins.int, builtins.float, builtins.complex)):
            scalars.append(x)
        else:
            dts.append(x.dtype if hasattr(x, "dtype") and not isinstance(x, DType) else as_dtype(x))
    if not dts:
        if not scalars:
            raise ValueError("result_type needs at least one array or dtype")
        raise ValueError("result_type needs at least one array or dtype besides Python scalars")
    r = dts[0]
    for d in dts[1:]:
        r = _promote2(r, d)
    for s in scalars:
        r = _promote_scalar(r, s)
    return r


def _promote_scalar(d, s):
    if isinstance(s, builtins.bool):
        if d.kind == "b":
            return d
        return d
    if isinstance(s, builtins.int):
        if d.kind == "b":
            raise TypeError("a Python int with a bool array has no Array API dtype")
        return d
    if isinstance(s, builtins.float):
        if d.kind in "biu":
            raise TypeError(f"a Python float with {d} has no Array API dtype")
        return d
    if d.kind in "biu":
        raise TypeError(f"a Python complex with {d} has no Array API dtype")
    if d.kind == "f":
        return complex64 if d.bits <= 32 else complex128
    return d


def can_cast(from_, to, /):
    """True when the Array API's promotion rules allow ``from_`` to be cast to ``to``."""
    f = from_.dtype if hasattr(from_, "dtype") and not isinstance(from_, DType) else as_dtype(from_)
    t = as_dtype(to)
    try:
        return _promote2(f, t) == t
    except TypeError:
        return False


class finfo_object:
    """Machine limits of a floating dtype (the Array API's ``finfo``)."""

    def __init__(self, bits, eps, max, min, smallest_normal, dtype):
        self.bits, self.eps, self.max, self.min = bits, eps, max, min
        self.smallest_normal, self.dtype = smallest_normal, dtype

    def __repr__(self):
        return f"finfo(dtype={self.dtype.name}, bits={self.bits}, eps={self.eps}, max={self.max})"


class iinfo_object:
    """Limits of an integer dtype (the Array API's ``iinfo``)."""

    def __init__(self, bits, max, min, dtype):
        self.bits, self.max, self.min, self.dtype = bits, max, min, dtype

    def __repr__(self):
        return f"iinfo(dtype={self.dtype.name}, min={self.min}, max={self.max})"


_FLOAT = {
    16: (2.0 ** -10, 65504.0, 2.0 ** -14),
    32: (2.0 ** -23, 3.4028234663852886e38, 2.0 ** -126),
    64: (2.220446049250313e-16, 1.7976931348623157e308, 2.2250738585072014e-308),
}


def finfo(type, /):
    """Limits of a real or complex floating dtype (complex: of its real part)."""
    d = type.dtype if hasattr(type, "dtype") and not isinstance(type, DType) else as_dtype(type)
    if d.kind not in "fc":
        raise ValueError(f"finfo takes a floating dtype, not {d}")
    if d == bfloat16:
        eps, mx, tiny = 2.0 ** -7, 3.3895313892515355e38, 2.0 ** -126
        return finfo_object(16, eps, mx, -mx, tiny, d)
    bits = d.bits // 2 if d.kind == "c" else d.bits
    eps, mx, tiny = _FLOAT[bits]
    real = BY_NAME[f"float{bits}"]
    return finfo_object(bits, eps, mx, -mx, tiny, real)


def iinfo(type, /):
    """Limits of an integer dtype."""
    d = type.dtype if hasattr(type, "dtype") and not isinstance(type, DType) else as_dtype(type)
    if d.kind == "i":
        return iinfo_object(d.bits, 2 ** (d.bits - 1) - 1, -(2 ** (d.bits - 1)), d)
    if d.kind == "u":
        return iinfo_object(d.bits, 2 ** d.bits - 1, 0, d)
    raise ValueError(f"iinfo takes an integer dtype, not {d}")


_KINDS = {
    "bool": "b",
    "signed integer": "i",
    "unsigned integer": "u",
    "integral": "iu",
    "real floating": "f",
    "complex floating": "c",
    "numeric": "iufc",
}


def isdtype(dtype, kind):
    """True when ``dtype`` is of ``kind`` (a dtype, a kind name, or a tuple of them)."""
    if not isinstance(dtype, DType):
        raise TypeError(f"isdtype takes an xp dtype, not {dtype!r}")
    if isinstance(kind, tuple):
        return any(isdtype(dtype, k) for k in kind)
    if isinstance(kind, DType):
        return dtype == kind
    if isinstance(kind, str):
        if kind not in _KINDS:
            raise ValueError(f"unknown dtype kind {kind!r}")
        return dtype.kind in _KINDS[kind]
    raise TypeError(f"isdtype's kind is a dtype, a kind name or a tuple, not {kind!r}")
