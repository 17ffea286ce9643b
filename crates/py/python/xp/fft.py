"""The Array API's ``fft`` extension over xp's FFTs (rustfft on the CPU, cuFFT on a GPU)."""

from . import _xp
from ._array import wrap
from ._funcs import _check, _dev, _dtn, astype
from . import _dtypes as dt

__all__ = ["fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft",
           "fftfreq", "rfftfreq", "fftshift", "ifftshift"]


def _norm(norm):
    if norm not in ("backward", "ortho", "forward"):
        raise ValueError(f"norm is 'backward', 'ortho' or 'forward', not {norm!r}")
    return norm


def _one(name):
    def f(x, /, *, n=None, axis=-1, norm="backward"):
        return wrap(_xp.fft1(name, _check(x), n, axis, _norm(norm)))
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"The Array API's ``fft.{name}`` along one axis."
    return f


def _many(name):
    def f(x, /, *, s=None, axes=None, norm="backward"):
        return wrap(_xp.fftn(name, _check(x), None if s is None else list(s),
                             None if axes is None else list(axes), _norm(norm)))
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"The Array API's ``fft.{name}`` over several axes."
    return f


fft, ifft, rfft, irfft, hfft, ihfft = (_one(n) for n in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft"))
fftn, ifftn, rfftn, irfftn = (_many(n) for n in ("fftn", "ifftn", "rfftn", "irfftn"))


def fftfreq(n, /, *, d=1.0, dtype=None, device=None):
    r = wrap(_xp.fftfreq(n, d, False, _dev(device)))
    return r if dtype is None or dt.as_dtype(dtype) == r.dtype else astype(r, dtype)


def rfftfreq(n, /, *, d=1.0, dtype=None, device=None):
    r = wrap(_xp.fftfreq(n, d, True, _dev(device)))
    return r if dtype is None or dt.as_dtype(dtype) == r.dtype else astype(r, dtype)


def _axes(axes):
    return None if axes is None else ([axes] if isinstance(axes, int) else list(axes))


def fftshift(x, /, *, axes=None):
    return wrap(_xp.fftshift(_check(x), _axes(axes), False))


def ifftshift(x, /, *, axes=None):
    return wrap(_xp.fftshift(_check(x), _axes(axes), True))
