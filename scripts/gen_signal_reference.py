#!/usr/bin/env python3
"""Generate the SciPy/NumPy reference data of xp's signal tests (tests/data/signal.json).

Run from the repository root:  python3 scripts/gen_signal_reference.py
Needs numpy (2.x), scipy and ml_dtypes. Uses the encoding of gen_reference.py.

Window cases: {"op": "window", "params": {"window", "m", "sym", and its parameter}, "result" |
"error"}; NumPy's own functions as {"op": "hanning" | ..., "params": {"m", "beta"}}.
"""
import os
import sys

import numpy as np
from scipy import signal as S
from scipy.signal import detrend, fftconvolve
from scipy.signal import windows as W

sys.path.insert(0, os.path.dirname(__file__))
from gen_reference import write_cases, arr, call  # noqa: E402

RNG = np.random.default_rng(20261125)
SINGLE = {"float32", "complex64"}

SCIPY = {"boxcar": (W.boxcar, None), "hann": (W.hann, None), "hamming": (W.hamming, None),
         "blackman": (W.blackman, None), "bartlett": (W.bartlett, None),
         "kaiser": (W.kaiser, "beta"), "gaussian": (W.gaussian, "std"), "tukey": (W.tukey, "alpha")}
PARAMS = {"beta": [0.0, 5.0, 14.0, 38.0], "std": [0.5, 3.0, 7.0], "alpha": [-0.5, 0.0, 0.25, 0.5, 0.9, 1.0, 1.5]}
NUMPY = {"hanning": np.hanning, "hamming": np.hamming, "blackman": np.blackman, "bartlett": np.bartlett,
         "kaiser": np.kaiser}


def windows():
    cases = []
    for name, (f, param) in SCIPY.items():
        for m in [0, 1, 2, 3, 8, 9, 31, 64]:
            for sym in [True, False]:
                for v in PARAMS[param] if param else [None]:
                    p = {"window": name, "m": m, "sym": sym}
                    if param:
                        p[param] = v
                    args = (m, v) if param else (m,)
                    cases.append({"op": "window", "args": [], "params": p,
                                  **call(lambda f=f, args=args, sym=sym: f(*args, sym=sym))})
    for name, f in NUMPY.items():
        for m in [0, 1, 2, 5, 12, 31]:
            for beta in ([0.0, 8.6, 14.0] if name == "kaiser" else [None]):
                p = {"m": m, "beta": beta}
                args = (m, beta) if name == "kaiser" else (m,)
                cases.append({"op": name, "args": [], "params": p, **call(lambda f=f, args=args: f(*args))})
    return cases


def rand(shape, name):
    if name.startswith("int"):
        return RNG.integers(-4, 5, shape).astype(name)
    x = RNG.uniform(-1, 1, shape)
    if name.startswith("complex"):
        x = x + 1j * RNG.uniform(-1, 1, shape)
    return x.astype(name)


def convolutions():
    """fftconvolve: 1-D to 3-D, odd/even/prime sizes, every mode, the operand order that 'valid'
    swaps, empty operands and SciPy's errors. The tolerance: the FFT's rounding, a few eps of the
    precision times the largest possible output (sum |a| times max |b|)."""
    cases = []
    shapes = [((7,), (3,)), ((3,), (8,)), ((13,), (13,)), ((1,), (5,)), ((17, 9), (4, 3)), ((6, 5), (3, 7)),
              ((5, 4, 6), (2, 3, 2)), ((0,), (3,)), ((4,), (2, 2)), ((2, 3), (3, 2))]
    for names in [("float64", "float64"), ("float32", "float32"), ("complex128", "float64"), ("int32", "int32"),
                  ("float32", "float64"), ("complex64", "complex64")]:
        for s1, s2 in shapes:
            a, b = rand(s1, names[0]), rand(s2, names[1])
            # SciPy transforms a float32 operand in single precision even beside a float64 one
            eps = 1.2e-7 if set(names) & SINGLE else 2.3e-16
            big = float(np.abs(a).sum() * np.abs(b).max()) if a.size and b.size else 1.0
            for mode in ["full", "same", "valid"]:
                c = {"op": "fftconvolve", "args": [arr(a), arr(b)], "params": {"mode": mode},
                     **call(lambda a=a, b=b, mode=mode: fftconvolve(a, b, mode))}
                c["tol"] = [20 * eps, 20 * eps * max(big, 1.0)]
                cases.append(c)
    return cases


def numpy_convolutions():
    """np.convolve / np.correlate: every mode, both operand orders, dtype pairs (integers exact,
    int8 wrapping, bool), complex conjugation, empty and 2-D operands (NumPy's errors)."""
    cases = []
    pairs = [("float64", "float64"), ("int32", "int32"), ("int8", "int8"), ("complex128", "complex128"),
             ("float32", "float32"), ("int16", "float64"), ("bool", "bool"), ("complex64", "float32")]
    for n1, n2 in pairs:
        for l1, l2 in [(7, 3), (3, 7), (4, 4), (1, 5), (6, 1), (8, 5)]:
            if n1 == "int8":
                a = RNG.integers(-100, 100, l1).astype(np.int8)
                b = RNG.integers(-100, 100, l2).astype(np.int8)
            elif n1 == "bool":
                a, b = RNG.integers(0, 2, l1).astype(bool), RNG.integers(0, 2, l2).astype(bool)
            else:
                a, b = rand((l1,), n1), rand((l2,), n2)
            eps = 1.2e-7 if (set((n1, n2)) & SINGLE) else 2.3e-16
            for op, f in [("convolve", np.convolve), ("correlate", np.correlate)]:
                for mode in ["full", "same", "valid"]:
                    c = {"op": op, "args": [arr(a), arr(b)], "params": {"mode": mode},
                         **call(lambda f=f, a=a, b=b, mode=mode: f(a, b, mode))}
                    c["tol"] = [8 * eps, 8 * eps * 8]
                    cases.append(c)
    for a, b in [(np.zeros(0), np.ones(3)), (np.ones(3), np.zeros(0)), (np.ones((2, 2)), np.ones(2))]:
        for op, f in [("convolve", np.convolve), ("correlate", np.correlate)]:
            c = {"op": op, "args": [arr(a), arr(b)], "params": {"mode": "full"}, **call(lambda f=f, a=a, b=b: f(a, b, "full"))}
            c["tol"] = [0, 0]
            cases.append(c)
    return cases


def detrends():
    """detrend: linear and constant, along each axis, dtypes kept or taken to float64, lines of
    one and two points."""
    cases = []
    for name in ["float64", "float32", "int32", "complex128"]:
        for shape, axes in [((9,), [-1]), ((5, 6), [0, 1, -1]), ((3, 1, 4), [1, 2]), ((2,), [0])]:
            x = rand(shape, name)
            for axis in axes:
                for kind in ["linear", "constant"]:
                    eps = 1.2e-7 if name == "float32" else 2.3e-16
                    c = {"op": "detrend", "args": [arr(x)], "params": {"axis": axis, "type": kind},
                         **call(lambda x=x, axis=axis, kind=kind: detrend(x, axis=axis, type=kind))}
                    c["tol"] = [64 * eps, 64 * eps * 8]
                    cases.append(c)
    return cases


def scipy_convolutions():
    """signal.convolve / correlate (direct and fft, 1-D to 3-D) and convolve2d / correlate2d
    with every boundary, odd and even kernels, kernels larger than the image, both 'valid'
    orders and SciPy's errors."""
    cases = []
    shapes = [((7,), (3,)), ((3,), (8,)), ((6, 5), (3, 2)), ((3, 2), (4, 5)), ((5, 4, 3), (2, 3, 2)),
              ((6, 5), (2, 7))]
    for n1, n2 in [("float64", "float64"), ("int32", "int16"), ("complex128", "complex128"), ("float32", "float32")]:
        eps = 1.2e-7 if n1 == "float32" else 2.3e-16
        for s1, s2 in shapes:
            a, b = rand(s1, n1), rand(s2, n2)
            big = float(np.abs(a).sum() * np.abs(b).max())
            for op, f in [("sconvolve", S.convolve), ("scorrelate", S.correlate)]:
                for method in ["direct", "fft"]:
                    if method == "fft" and n1 == "int32":
                        continue
                    for mode in ["full", "same", "valid"]:
                        c = {"op": op, "args": [arr(a), arr(b)], "params": {"mode": mode, "method": method},
                             **call(lambda f=f, a=a, b=b, mode=mode, method=method: f(a, b, mode, method))}
                        c["tol"] = [20 * eps, 20 * eps * max(big, 1.0)]
                        cases.append(c)
    for n1 in ["float64", "int32", "complex128"]:
        for s1, s2 in [((6, 7), (3, 3)), ((6, 7), (4, 2)), ((3, 4), (5, 6)), ((2, 3), (3, 2)), ((5, 5), (7, 9))]:
            a, b = rand(s1, n1), rand(s2, n1)
            big = float(np.abs(a).sum() * np.abs(b).max())
            for op, f in [("convolve2d", S.convolve2d), ("correlate2d", S.correlate2d)]:
                for boundary, fill in [("fill", 0), ("fill", 2), ("wrap", 0), ("symm", 0)]:
                    for mode in ["full", "same", "valid"]:
                        c = {"op": op, "args": [arr(a), arr(b)],
                             "params": {"mode": mode, "boundary": boundary, "fillvalue": fill},
                             **call(lambda f=f, a=a, b=b, mode=mode, boundary=boundary, fill=fill:
                                    f(a, b, mode, boundary, fill))}
                        c["tol"] = [20 * 2.3e-16, 20 * 2.3e-16 * max(big, 1.0) * 3]
                        cases.append(c)
    return cases


def periodograms():
    """periodogram: windows, nfft that cuts and pads, both detrends and none, both scalings,
    axes, float32 kept, even and odd lengths."""
    cases = []
    for name in ["float64", "float32", "int32"]:
        for shape, axis in [((16,), -1), ((15,), 0), ((3, 10), 1), ((9, 2), 0)]:
            x = rand(shape, name)
            for window, param in [("boxcar", None), ("hann", None), ("kaiser", 6.0)]:
                for nfft in [None, 8, 21]:
                    for det in ["constant", "linear", False]:
                        for scaling in ["density", "spectrum"]:
                            if (window, nfft) != ("hann", None) and (det, scaling) != ("constant", "density"):
                                continue
                            win = (window, param) if param else window
                            p = {"fs": 2.5, "window": window, "beta": param, "nfft": nfft, "detrend": det,
                                 "scaling": scaling, "axis": axis}
                            c = {"op": "periodogram", "args": [arr(x)], "params": p,
                                 **call(lambda x=x, win=win, nfft=nfft, det=det, scaling=scaling, axis=axis:
                                        S.periodogram(x, 2.5, win, nfft, det, True, scaling, axis))}
                            eps = 1.2e-7 if name == "float32" else 2.3e-16
                            c["tol"] = [64 * eps, 64 * eps * 16]
                            cases.append(c)
    return cases


def welches():
    """welch: segment lengths that divide the signal and not, overlaps, nfft padding, windows,
    detrends, scalings, axes, float32 kept, a segment longer than the signal."""
    cases = []
    for name in ["float64", "float32"]:
        for shape, axis in [((100,), -1), ((3, 37), 1), ((41, 2), 0)]:
            x = rand(shape, name)
            for nperseg, noverlap, nfft, window, det, scaling in [
                    (16, None, None, "hann", "constant", "density"), (10, 3, None, "boxcar", "linear", "spectrum"),
                    (12, 0, 20, "hamming", False, "density"), (256, None, None, "hann", "constant", "density")]:
                p = {"fs": 3.0, "window": window, "nperseg": nperseg, "noverlap": noverlap, "nfft": nfft,
                     "detrend": det, "scaling": scaling, "axis": axis}
                c = {"op": "welch", "args": [arr(x)], "params": p,
                     **call(lambda x=x, nperseg=nperseg, noverlap=noverlap, nfft=nfft, window=window, det=det,
                            scaling=scaling, axis=axis:
                            S.welch(x, 3.0, window, nperseg, noverlap, nfft, det, True, scaling, axis))}
                eps = 1.2e-7 if name == "float32" else 2.3e-16
                c["tol"] = [64 * eps, 64 * eps * 16]
                cases.append(c)
    return cases


def main():
    write_cases("signal", windows() + convolutions() + numpy_convolutions() + detrends() + scipy_convolutions() + periodograms() + welches())


if __name__ == "__main__":
    main()
