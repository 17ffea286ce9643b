"""``__array_namespace_info__``: what xp supports, by device."""

from . import _xp
from . import _dtypes as dt
from ._funcs import default_device as _default_device

_KIND_NAMES = ("bool", "signed integer", "unsigned integer", "integral", "real floating",
               "complex floating", "numeric")


class Info:
    """The Array API's inspection object."""

    def capabilities(self):
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 32}

    def default_device(self):
        return _default_device()

    def default_dtypes(self, *, device=None):
        return {"real floating": dt.float64, "complex floating": dt.complex128, "integral": dt.int64,
                "indexing": dt.int64}

    def devices(self):
        return tuple(["cpu"] + [f"cuda:{i}" for i in range(_xp.cuda_device_count())])

    def dtypes(self, *, device=None, kind=None):
        ds = dt.STANDARD
        if kind is not None:
            ds = [d for d in ds if dt.isdtype(d, kind)]
        return {d.name: d for d in ds}


def __array_namespace_info__():
    return Info()
