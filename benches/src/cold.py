# CuPy's side of `xp-bench --cold` (see cold.rs): the same workload in a fresh process with an
# empty CUPY_CACHE_DIR (set by the caller). Prints "seconds kernels median_seconds": the time from
# the first device operation to the result (`import cupy` excluded), the number of NVRTC
# compilations and their median duration.
import statistics
import sys
import time

import cupy as cp
import cupy.cuda.compiler as compiler

times = []
# NVRTC's compile call as CuPy's compiler module makes it (a module attribute, looked up per call)
_orig = compiler.nvrtc.compileProgram


_major, _minor = compiler.nvrtc.getVersion()
_no_cache = (_major, _minor) >= (12, 9)


def _timed(prog, options, *a, **k):
    # NVRTC 12.9+ keeps a cache of its own across processes: off, so that every run is cold (xp
    # turns it off too; its own cache holds its cubins)
    if _no_cache:
        options = tuple(options) + ("--no-cache",)
    t = time.perf_counter()
    r = _orig(prog, options, *a, **k)
    times.append(time.perf_counter() - t)
    return r


compiler.nvrtc.compileProgram = _timed

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint32", "uint64", "float16", "float32", "float64"]
AXES = [None, 0, 1, 2, (0, 2)]


def grid():
    last = None
    for d in DTYPES:
        a = cp.ones((8, 16, 32), dtype=d)
        for ax in AXES:
            for keep in (False, True):
                for f in ("sum", "prod", "mean", "var", "std", "max", "min"):
                    last = getattr(a, f)(axis=ax, keepdims=keep)
    x = cp.ones((64, 1000), dtype="float32")
    e = cp.exp(x - x.max(axis=-1, keepdims=True))
    s = e / e.sum(axis=-1, keepdims=True)
    float(s.sum())
    last.get()


t0 = time.perf_counter()
{"grid": grid}[sys.argv[1] if len(sys.argv) > 1 else "grid"]()
cp.cuda.Device().synchronize()
seconds = time.perf_counter() - t0
print(seconds, len(times), statistics.median(times) if times else 0.0)
