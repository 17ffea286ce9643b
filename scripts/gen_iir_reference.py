#!/usr/bin/env python3
"""Generate tests/data/iir.json: SciPy's lfilter and sosfilt of orders 1 to 8 (and one 20-tap FIR,
past the GPU kernels' 16 state values) over long lines, many short lines and every axis of a 3-D
array, with and without an initial state, in float32, float64, complex64 and complex128 (issue 26).

Run from the repository root:  python3 scripts/gen_iir_reference.py   (needs numpy, scipy)

Inputs are formulas of the flat C-order index i, so that the data stay small and the tests make
the same arrays: x[i] = sin(0.0137 i) + 0.3 cos(0.61 i + 0.3) (+ 1j cos(0.0291 i) when complex),
zi[i] = 0.1 cos(0.7 i). The coefficients are cast to the real dtype of the case's precision, as
the test does, so the case's dtype is the working one. Each case stores SciPy's output at every
`step`-th flat index and its final state at every `zstep`-th (with zi), and a tolerance: 8 times SciPy's own distance
from the same filter run in long double (how far rounding alone moves this filter's output: far
for a high-order direct form) plus 1e-6 (single) or 1e-12 (double) of the output's largest
magnitude.
"""
import json
import os
import sys

import numpy as np
from scipy import signal

sys.path.insert(0, os.path.dirname(__file__))
from gen_reference import OUT, arr  # noqa: E402

STEP = 389
ZSTEP = 13


def x_of(shape, cplx):
    i = np.arange(int(np.prod(shape)), dtype=np.float64)
    x = np.sin(0.0137 * i) + 0.3 * np.cos(0.61 * i + 0.3)
    if cplx:
        x = x + 1j * np.cos(0.0291 * i)
    return x.reshape(shape)


def zi_of(shape):
    i = np.arange(int(np.prod(shape)), dtype=np.float64)
    return (0.1 * np.cos(0.7 * i)).reshape(shape)


def filters():
    out = []
    for order in range(1, 9):
        b, a = signal.butter(order, 0.2) if order % 2 else signal.cheby1(order, 1.0, 0.3)
        out.append(("lfilter", order, {"b": b, "a": a}))
    out.append(("lfilter", 20, {"b": signal.firwin(21, 0.3), "a": np.array([1.0])}))
    for order in [2, 4, 6, 8]:
        out.append(("sosfilt", order, {"sos": signal.butter(order, 0.15, output="sos")}))
    return out


LAYOUTS = [((2, 1 << 15), -1), ((1 << 14, 2), 0), ((300, 40), -1), ((8, 9, 500), 0), ((8, 9, 500), 1), ((8, 9, 500), 2)]
DTYPES = ["float32", "float64", "complex64", "complex128"]


def run(op, coef, x, axis, zi):
    if op == "lfilter":
        return signal.lfilter(coef["b"], coef["a"], x, axis=axis, zi=zi)
    return signal.sosfilt(coef["sos"], x, axis=axis, zi=zi)


def state_shape(op, coef, shape, axis):
    s = list(shape)
    if op == "lfilter":
        s[axis] = max(len(coef["a"]), len(coef["b"])) - 1
        return s
    s[axis] = 2
    return [coef["sos"].shape[0]] + s


def main():
    cases = []
    for op, order, coef in filters():
        for k, (shape, axis) in enumerate(LAYOUTS):
            for dname in DTYPES:
                # not every filter in every layout and dtype: each filter sees every layout once and
                # every dtype once, the long lines in every dtype
                if k >= 2 and DTYPES.index(dname) != (order + k) % 4:
                    continue
                for with_zi in [False, True]:
                    d = np.dtype(dname)
                    real = np.float32 if d in (np.float32, np.complex64) else np.float64
                    c = {key: v.astype(real) for key, v in coef.items()}
                    x = x_of(shape, d.kind == "c")
                    zi = zi_of(state_shape(op, c, shape, axis)) if with_zi else None
                    got = run(op, c, x.astype(d), axis, None if zi is None else zi.astype(d))
                    ld = np.clongdouble if d.kind == "c" else np.longdouble
                    exact = run(op, {key: v.astype(np.longdouble) for key, v in c.items()}, x.astype(ld), axis, None if zi is None else zi.astype(ld))
                    y, yx = (got[0], exact[0]) if with_zi else (got, exact)
                    floor = float((1e-6 if real == np.float32 else 1e-12) * np.abs(yx).max())
                    tol = float(8 * np.abs(y - yx).max() + floor)
                    case = {"op": op, "order": order, "coef": {key: arr(v.astype(np.float64)) for key, v in c.items()},
                            "shape": list(shape), "axis": axis, "dtype": dname, "zi": with_zi, "step": STEP,
                            "y": arr(y.ravel()[::STEP]), "atol": float(tol)}
                    if with_zi:
                        case["zf"] = arr(got[1].ravel()[::ZSTEP])
                        case["zstep"] = ZSTEP
                        case["zf_atol"] = float(8 * np.abs(got[1] - exact[1]).max() + (1e-6 if real == np.float32 else 1e-12) * max(1.0, float(np.abs(exact[1]).max())))
                    cases.append(case)
    path = os.path.join(OUT, "iir.json")
    with open(path, "w") as f:
        json.dump({"generator": "scripts/" + os.path.basename(sys.argv[0]), "scipy_version": signal.__name__ and __import__("scipy").__version__, "cases": cases}, f, separators=(",", ":"))
    print("iir", len(cases), os.path.getsize(path))


if __name__ == "__main__":
    main()
