# The reference side of `xp-bench --sweep`: NumPy/SciPy on the CPU, CuPy (cupy, cupyx.scipy) on a
# GPU. Run by xp-bench as `python3 -c <this> DEVICE REPS MODE` with the rows as JSON on stdin:
# [{"id", "name", "setup", "call", "out", "cmp"}, ...].
#
# MODE `time`: per row, run `setup`, then time `call` (an expression) as xp-bench times xp: two
# warm-ups, then the median of REPS calls (3 when the first call took more than 1 s), each
# followed by a wait for the stream. Prints one JSON line per row:
#   {"id": i, "name": ..., "status": "ok", "ms": median}
#   {"id": i, "name": ..., "status": "n/a", "detail": why}     (the function is missing)
#   {"id": i, "name": ..., "status": "error", "detail": why}   (any other exception)
# MODE `check:DIR`: per row, call once and compare `out` (an expression of the result `r`) with
# the arrays xp saved as DIR/<id>_<k>.npy; "status" is ok, dtype (values agree, dtypes differ),
# shape or diff, with a "detail".
#
# The row code sees: xp (numpy or cupy), np (numpy), sp (scipy or cupyx.scipy, with signal,
# ndimage, fft and linalg imported), gpu, and the input helpers below, which build the very
# values xp-bench's helpers of the same names build (sweep.rs).
import gc
import json
import os
import sys
import time

import numpy as np

device, reps, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3]
gpu = device.startswith("cuda")
if gpu:
    import cupy as xp
    import cupyx
    import cupyx.scipy as sp
    xp.cuda.Device(int(device.split(":")[1])).use()
    for _m in ("signal", "ndimage", "fft", "linalg", "signal.windows", "special", "sparse"):
        try:
            __import__("cupyx.scipy." + _m)
        except ImportError as e:  # rows using it answer n/a
            print(f"sweep.py: cupyx.scipy.{_m}: {e}", file=sys.stderr)
else:
    import numpy as xp
    import scipy as sp
    import scipy.fft  # noqa: F401
    import scipy.linalg  # noqa: F401
    import scipy.ndimage  # noqa: F401
    import scipy.signal  # noqa: F401
    import scipy.special  # noqa: F401
    import scipy.sparse  # noqa: F401
    cupyx = None

NOT_AVAILABLE = (AttributeError, NotImplementedError, ImportError)


def sync():
    if gpu:
        xp.cuda.get_current_stream().synchronize()


_M1, _M2, _M3 = np.uint64(0x9E3779B97F4A7C15), np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)


def _bits(n, seed):
    """splitmix64's finaliser of (seed << 40) + i, i < n (wrapping uint64 arithmetic)."""
    z = np.arange(n, dtype=np.uint64) + np.uint64(seed << 40)
    z += _M1
    z = (z ^ (z >> np.uint64(30))) * _M2
    z = (z ^ (z >> np.uint64(27))) * _M3
    return z ^ (z >> np.uint64(31))


def _unit(n, seed):
    """(k + 1/2) / 2^23 for the top 23 bits k: float32 in (0, 1), exact."""
    return ((_bits(n, seed) >> np.uint64(41)).astype(np.float32) + np.float32(0.5)) / np.float32(1 << 23)


def _shape(shape):
    return (shape,) if isinstance(shape, int) else tuple(shape)


def uniform(shape, seed=0):
    """float32 values uniform in (0, 1) on the device."""
    shape = _shape(shape)
    return xp.asarray(_unit(int(np.prod(shape)), seed).reshape(shape))


def cuniform(shape, seed=0):
    """complex64 values with real and imaginary parts uniform in (0, 1)."""
    shape = _shape(shape)
    n = int(np.prod(shape))
    c = np.empty(n, dtype=np.complex64)
    c.real, c.imag = _unit(n, seed), _unit(n, seed + 0x8000)
    return xp.asarray(c.reshape(shape))


def ints(shape, hi, seed=0):
    """int64 values in [0, hi)."""
    shape = _shape(shape)
    return xp.asarray((_bits(int(np.prod(shape)), seed) % np.uint64(hi)).astype(np.int64).reshape(shape))


def uniform_as(shape, seed, dtype):
    dtype = np.dtype(dtype)
    return (cuniform if dtype.kind == "c" else uniform)(shape, seed).astype(dtype)


def _stack(batch, n):
    return (n, n) if batch is None else (batch, n, n)


def well(batch, n, dtype="float32"):
    """A well-conditioned stack (or matrix): uniform / n + I."""
    return uniform_as(_stack(batch, n), 0, dtype) / n + xp.eye(n, dtype=dtype)


def hpd(batch, n, dtype="float32"):
    """A Hermitian positive definite stack (or matrix): A A^H / n + I."""
    a = uniform_as(_stack(batch, n), 0, dtype)
    return a @ a.conj().swapaxes(-1, -2) / n + xp.eye(n, dtype=dtype)


def scatter(op, a, i, v):
    """cupyx.scatter_{add,max,min} on the GPU, numpy.{add,maximum,minimum}.at on the CPU."""
    if gpu:
        return getattr(cupyx, "scatter_" + op)(a, i, v)
    return getattr(np, {"add": "add", "max": "maximum", "min": "minimum"}[op]).at(a, i, v)


BASE = dict(xp=xp, np=np, sp=sp, gpu=gpu, cupyx=cupyx, uniform=uniform, cuniform=cuniform, ints=ints,
            uniform_as=uniform_as, well=well, hpd=hpd, scatter=scatter)


def host(a):
    if gpu and hasattr(a, "get"):
        a = a.get()
    return np.asarray(a)


def outputs(r):
    return [host(a) for a in r] if isinstance(r, (list, tuple)) else [host(r)]


def compare(xs, ys, cmp):
    """(verdict, detail) of xp's outputs xs against the reference's ys."""
    if len(xs) != len(ys):
        return "diff", f"xp gave {len(xs)} outputs, the reference {len(ys)}"
    notes, worst = [], 0.0
    for k, (x, y) in enumerate(zip(xs, ys)):
        if x.shape != y.shape:
            return "shape", f"out{k}: xp {x.shape} vs ref {y.shape}"
        if x.dtype != y.dtype:
            notes.append(f"out{k} dtype xp {x.dtype} ref {y.dtype}")
        if cmp == "sorted" and x.ndim:
            x, y = np.sort(x, axis=-1), np.sort(y, axis=-1)
        if cmp == "abs":
            x, y = np.abs(x), np.abs(y)
        if x.dtype.kind in "biu" and y.dtype.kind in "biu":
            if not np.array_equal(x, y):
                return "diff", f"out{k}: {int(np.count_nonzero(x != y))} of {x.size} integers differ"
            continue
        wide = np.complex128 if "c" in (x.dtype.kind, y.dtype.kind) else np.float64
        xf, yf = x.astype(wide), y.astype(wide)
        if not np.array_equal(np.isnan(xf), np.isnan(yf)):
            return "diff", f"out{k}: NaN at different positions"
        fx, fy = np.isfinite(xf), np.isfinite(yf)
        if not np.array_equal(fx, fy) or not np.array_equal(xf[np.isinf(xf)], yf[np.isinf(yf)]):
            return "diff", f"out{k}: infinities differ"
        if not fx.any():
            continue
        scale = max(float(np.abs(yf[fy]).max()), 1e-30)
        err = float(np.abs(xf[fx] - yf[fy]).max()) / scale
        single = any(d.itemsize <= 4 or (d.kind == "c" and d.itemsize <= 8) for d in (x.dtype, y.dtype))
        tol = 2e-3 if single or cmp == "loose" else 1e-6
        worst = max(worst, err)
        if err > tol:
            return "diff", f"out{k}: max error {err:.2e} of the largest magnitude (tolerance {tol:g})"
    return ("dtype" if notes else "ok"), "; ".join(notes + [f"max rel err {worst:.1e}"])


def emit(row, **kw):
    print(json.dumps(dict(id=row["id"], name=row["name"], **kw)), flush=True)


def run_time(row, ns, f):
    t = time.perf_counter()
    f()
    sync()
    first = time.perf_counter() - t
    f()
    sync()
    n = 3 if first > 1.0 else max(reps, 1)
    ts = []
    for _ in range(n):
        t = time.perf_counter()
        f()
        sync()
        ts.append((time.perf_counter() - t) * 1e3)
    ts.sort()
    ms = ts[len(ts) // 2]
    emit(row, status="ok", ms=ms)
    print(f"{'ref ' + row['name']:<51} {ms:>10.4g} ms", file=sys.stderr)


def run_check(row, ns, f, d):
    r = f()
    ys = outputs(eval(row["out"], dict(ns, r=r)))
    xs = []
    while os.path.exists(os.path.join(d, f"{row['id']}_{len(xs)}.npy")):
        xs.append(np.load(os.path.join(d, f"{row['id']}_{len(xs)}.npy")))
    if not xs:
        emit(row, status="error", detail="xp saved no output")
        return
    verdict, detail = compare(xs, ys, row["cmp"])
    emit(row, status=verdict, detail=detail)
    print(f"check {row['name']:<48} {verdict} {detail}", file=sys.stderr)


def main():
    rows = json.load(sys.stdin)
    check_dir = mode[len("check:"):] if mode.startswith("check:") else None
    for row in rows:
        ns = dict(BASE)
        try:
            exec(row["setup"], ns)
            sync()
            f = eval("lambda: " + row["call"], ns)
            if check_dir is None:
                run_time(row, ns, f)
            else:
                run_check(row, ns, f, check_dir)
        except NOT_AVAILABLE as e:
            emit(row, status="n/a", detail=f"{type(e).__name__}: {e}")
            print(f"ref {row['name']}: n/a ({type(e).__name__}: {e})", file=sys.stderr)
        except Exception as e:  # noqa: BLE001 — report it in the row, go on with the sweep
            emit(row, status="error", detail=f"{type(e).__name__}: {e}")
            print(f"ref {row['name']}: error ({type(e).__name__}: {e})", file=sys.stderr)
        del ns
        gc.collect()
        if gpu:
            xp.get_default_memory_pool().free_all_blocks()


main()
