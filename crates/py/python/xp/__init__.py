"""xp for Python: NumPy's semantics on the CPU or a CUDA GPU, as an Array API namespace.

>>> import xp
>>> x = xp.asarray([[1.0, 2.0], [3.0, 4.0]])
>>> float(xp.sum(x * x))
30.0
>>> xp.linalg.inv(x).shape
(2, 2)

Arrays move to and from PyTorch, CuPy, JAX and NumPy through DLPack (``xp.from_dlpack``,
``x.__dlpack__``); ``XP_DEFAULT_DEVICE=cuda:0`` makes a GPU the default device.
"""

__array_api_version__ = "2025.12"

from ._dtypes import (  # noqa: F401
    DType, bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, bfloat16, float32,
    float64, complex64, complex128, result_type, can_cast, finfo, iinfo, isdtype,
)
from ._array import Array  # noqa: F401
from ._funcs import *  # noqa: F401,F403
from ._funcs import _UNARY, _BINARY
from ._info import __array_namespace_info__  # noqa: F401
from . import linalg, fft  # noqa: F401
import math as _math

e, pi, inf, nan = _math.e, _math.pi, _math.inf, _math.nan
newaxis = None
