#!/usr/bin/env python3
"""Generate the NumPy reference data of xp's FFT tests (tests/data/fft.json).

Run from the repository root:  python3 scripts/gen_fft_reference.py
Needs numpy (2.x) and ml_dtypes. Uses the encoding of gen_reference.py (floats as repr strings).

Each case: {"op", "args": [arrays], "params": {...}, "result" | "error", "tol"}. "tol" is
[rtol, atol]: the transform's rounding, a few eps of its precision times log2 of the length, times
the size of the values (a wrong sign, twiddle, scale or axis is off by far more).
"""
import math
import os
import sys
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from gen_reference import write_cases, arr, call, dt, kind  # noqa: E402

warnings.filterwarnings("ignore")
RNG = np.random.default_rng(20261125)
SINGLE = {"float16", "float32", "complex64"}


def rand(shape, name):
    d = dt(name)
    if kind(d) == "b":
        return RNG.integers(0, 2, shape).astype(bool)
    if kind(d) in "iu":
        return RNG.integers(0, 6, shape).astype(d)
    x = RNG.uniform(-1, 1, shape)
    if kind(d) == "c":
        x = x + 1j * RNG.uniform(-1, 1, shape)
    return x.astype(d)


def tol(name, x, n):
    eps = 1e-3 if name == "float16" else (1.2e-7 if name in SINGLE else 2.3e-16)
    scale = float(np.max(np.abs(x.astype(np.complex128)))) if x.size else 1.0
    # |X_k| <= n max|x| before scaling; the scaled result is at most max(1, n) times the input
    grow = max(1.0, math.sqrt(n))
    return [8 * eps, 8 * eps * (math.log2(n + 1) + 1) * max(scale, 1.0) * grow]


def norm_of(p):
    return None if p == "backward" else p


def case(op, x, params, f, n):
    c = {"op": op, "args": [arr(x)], "params": params, **call(f)}
    name = x.dtype.name if x.dtype.name != "bool" else "float64"
    c["tol"] = tol(name if name in SINGLE else "float64", x, n)
    return c


ONE = {"fft": np.fft.fft, "ifft": np.fft.ifft, "rfft": np.fft.rfft, "irfft": np.fft.irfft,
       "hfft": np.fft.hfft, "ihfft": np.fft.ihfft}
ND = {"fftn": np.fft.fftn, "ifftn": np.fft.ifftn, "rfftn": np.fft.rfftn, "irfftn": np.fft.irfftn,
      "fft2": np.fft.fft2, "ifft2": np.fft.ifft2, "rfft2": np.fft.rfft2, "irfft2": np.fft.irfft2}
REAL_IN = {"rfft", "ihfft", "rfftn", "rfft2"}


def one_d():
    cases = []
    for op, f in ONE.items():
        names = ["float32", "float64", "int32", "bool"] if op in REAL_IN else ["complex64", "complex128", "float64", "float16"]
        for name in names:
            for length in [1, 2, 5, 8, 12, 17, 31, 64, 97]:
                if op in ("irfft", "hfft") and length == 1 and name != "complex128":
                    continue
                x = rand((length,), name)
                # every norm and length change on a few lengths, the default on the others
                variants = [(norm, n) for norm in ["backward", "ortho", "forward"] for n in [None, max(1, length // 2), length + 3]] \
                    if length in (8, 17) else [("backward", None)]
                for norm, n in variants:
                    p = {"n": n, "axis": -1, "norm": norm}
                    cases.append(case(op, x, p, lambda x=x, n=n, norm=norm: f(x, n=n, norm=norm_of(norm)), max(n or length, length) * 2))
        # along each axis of a 3-D array, single and double precision
        for name in (["float32", "float64"] if op in REAL_IN else ["complex64", "complex128"]):
            x = rand((3, 6, 5), name)
            for axis in [0, 1, 2, -2]:
                p = {"n": None, "axis": axis, "norm": "backward"}
                cases.append(case(op, x, p, lambda x=x, axis=axis: f(x, axis=axis), 12))
        # an empty axis that is not transformed; the transformed axis empty; bad n, bad axis
        x = rand((2, 0, 3), "complex128" if op not in REAL_IN else "float64")
        for axis, n in [(2, None), (1, None), (1, 4), (0, 0), (3, None), (-4, None)]:
            p = {"n": n, "axis": axis, "norm": "backward"}
            cases.append(case(op, x, p, lambda x=x, axis=axis, n=n: f(x, n=n, axis=axis), 8))
    x = rand((5,), "complex128")
    cases.append(case("rfft", x, {"n": None, "axis": -1, "norm": "backward"}, lambda: np.fft.rfft(x), 5))
    return cases


def n_d():
    cases = []
    for op, g in ND.items():
        # the 2-D functions' default axes are the last two, which xp spells `None`
        def f(x, s=None, axes=None, norm=None, g=g, two=op.endswith("2")):
            return g(x, s=s, norm=norm) if two and axes is None else g(x, s=s, axes=axes, norm=norm)

        name = "float64" if op in REAL_IN else "complex128"
        single = "float32" if op in REAL_IN else "complex64"
        for nm in [name, single]:
            x = rand((3, 4, 5), nm)
            combos = [(None, None), ((3, 8), None), (None, (0, 2)), ((5, 4), (2, 0)), (None, (-1,)),
                      ((2, 3, 4), None), ((6,), (1,))]
            if not op.endswith("2"):
                combos += [(None, (1, 1)), (None, (0, 0, 2))]
            if op in ("fftn", "ifftn"):
                combos += [(None, ())]
            for s, axes in combos:
                for norm in ["backward", "ortho"]:
                    p = {"s": s, "axes": axes, "norm": norm}
                    n = int(np.prod(s)) if s else x.size
                    cases.append(case(op, x, p, lambda x=x, s=s, axes=axes, norm=norm: f(x, s=s, axes=axes, norm=norm_of(norm)), n * 2))
        x = rand((3, 4), name)
        for s, axes in [((3,), (0, 1)), ((0, 4), None), (None, (0, 2)), ((1, 2, 3), None)]:
            p = {"s": s, "axes": axes, "norm": "backward"}
            cases.append(case(op, x, p, lambda x=x, s=s, axes=axes: f(x, s=s, axes=axes), 12))
    return cases


def helpers():
    cases = []
    for n in [1, 2, 5, 8, 9]:
        for d in [1.0, 0.25]:
            for op, f in [("fftfreq", np.fft.fftfreq), ("rfftfreq", np.fft.rfftfreq)]:
                c = {"op": op, "args": [], "params": {"n": n, "d": d}, **call(lambda f=f, n=n, d=d: f(n, d))}
                c["tol"] = [1e-15, 1e-15]
                cases.append(c)
    for shape in [(5,), (4,), (3, 4), (2, 5, 3)]:
        x = rand(shape, "int32")
        for axes in [None, (0,), (-1,), (0, -1)]:
            if axes and max(a if a >= 0 else len(shape) + a for a in axes) >= len(shape):
                continue
            for op, f in [("fftshift", np.fft.fftshift), ("ifftshift", np.fft.ifftshift)]:
                c = {"op": op, "args": [arr(x)], "params": {"axes": axes}, **call(lambda f=f, x=x, axes=axes: f(x, axes=axes))}
                c["tol"] = [0, 0]
                cases.append(c)
    return cases


def main():
    write_cases("fft", one_d() + n_d() + helpers())


if __name__ == "__main__":
    main()
