#!/usr/bin/env python3
"""Generate the SciPy reference data of xp's second set of signal tests (tests/data/signal_filters.json):
oaconvolve, lfilter / lfilter_zi, sosfilt / sosfilt_zi, filtfilt, resample, resample_poly, stft,
find_peaks, detrend with breakpoints and wiener.

Run from the repository root:  python3 scripts/gen_signal_filters_reference.py
Needs numpy (2.x) and scipy. Uses the encoding of gen_reference.py. Each case:
{"op", "args": [arrays], "params", "result" | "results" | "error", "tol": [rtol, atol]}.
"""
import os
import sys
import warnings

import numpy as np
from scipy import signal as S

sys.path.insert(0, os.path.dirname(__file__))
from gen_reference import write_cases, arr, call  # noqa: E402
from gen_signal_reference import rand  # noqa: E402  (integers in [-4, 4], uniform floats in [-1, 1))

warnings.filterwarnings("ignore")
RNG = np.random.default_rng(20261126)
F32, F64 = 1.2e-7, 2.3e-16


def eps_of(*names):
    return F32 if all(n in ("float32", "complex64") for n in names) else F64


def case(op, args, params, f, tol):
    return {"op": op, "args": [arr(a) for a in args], "params": params, **call(f), "tol": tol}


def oaconvolves():
    """oaconvolve: long signals with short kernels (several blocks), the kernel first (blocks of
    the second operand), 2-D and 3-D with broadcast axes, `axes`, equal shapes, every mode,
    dtypes, and SciPy's errors."""
    cases = []
    shapes = [((120,), (7,), None), ((9,), (100,), None), ((13,), (13,), None), ((30, 24), (3, 4), None),
              ((90, 2), (9, 2), [0]), ((20, 2, 16), (3, 1, 4), None), ((20, 2, 16), (3, 1, 4), [0, 2]),
              ((1,), (40,), None), ((50, 2), (5, 1), [-2]), ((6, 4), (3, 2), [0]), ((4,), (2, 2), None),
              ((20, 6), (4, 9), None)]
    for n1, n2 in [("float64", "float64"), ("float32", "float32"), ("complex128", "float64"), ("int32", "int32"),
                   ("complex64", "complex64")]:
        for s1, s2, axes in (shapes if n1 == "float64" else shapes[:3] + shapes[4:5] + shapes[7:]
                             if n1 != "complex64" else shapes[:2]):
            a, b = rand(s1, n1), rand(s2, n2)
            eps = eps_of(n1, n2)
            big = float(np.abs(a).sum() * np.abs(b).max())
            for mode in ["full", "same", "valid"]:
                cases.append(case("oaconvolve", [a, b], {"mode": mode, "axes": axes},
                                  lambda a=a, b=b, mode=mode, axes=axes: S.oaconvolve(a, b, mode, axes),
                                  [50 * eps, 50 * eps * max(big, 1.0)]))
    return cases


FILTERS = [([0.2, 0.3, 0.1], [1.0, -0.5, 0.2]), ([0.25, 0.5, 0.25], [1.0]), ([0.5], [2.0, -0.9, 0.3, 0.1]),
           ([1.0, -1.0, 0.5, 0.25], [1.5, 0.4])]


def lfilters():
    """lfilter with and without zi (broadcast too), along each axis of 1-D to 3-D inputs, FIR
    (SciPy's len(a) == 1 path) and IIR, dtypes and their promotion, and SciPy's errors;
    lfilter_zi."""
    cases = []
    for bl, al in FILTERS:
        for xn, cn in [("float64", "float64"), ("float32", "float32"), ("int32", "float64"),
                       ("complex128", "float64"), ("complex64", "float32"), ("float32", "float64"),
                       ("float64", "complex128")]:
            b, a = np.array(bl, cn), np.array(al, cn)
            if cn.startswith("complex"):
                b = b * np.exp(0.3j * np.arange(len(b)))
            shapes = [((17,), [-1]), ((1,), [0]), ((7, 4), [0, 1]), ((2, 3, 5), [0, 2])]
            for shape, axes in shapes if cn == xn else shapes[:2]:
                x = rand(shape, xn)
                tol = [1e-4, 1e-5] if eps_of(xn, cn) == F32 else [1e-11, 1e-12]
                for axis in axes:
                    p = {"axis": axis}
                    cases.append(case("lfilter", [b, a, x], p, lambda b=b, a=a, x=x, axis=axis:
                                      S.lfilter(b, a, x, axis), tol))
                    zs = list(shape)
                    zs[axis] = max(len(a), len(b)) - 1
                    zi = rand(tuple(zs), cn)
                    cases.append(case("lfilter", [b, a, x, zi], p, lambda b=b, a=a, x=x, axis=axis, zi=zi:
                                      S.lfilter(b, a, x, axis, zi), tol))
                    if len(shape) > 1:  # zi with a broadcast axis
                        zb = list(zs)
                        zb[(axis + 1) % len(shape)] = 1
                        zi = rand(tuple(zb), cn)
                        cases.append(case("lfilter", [b, a, x, zi], p, lambda b=b, a=a, x=x, axis=axis, zi=zi:
                                          S.lfilter(b, a, x, axis, zi), tol))
    x = rand((9,), "float64")
    for b, a, zi in [([1.0, 1.0], [0.0, 2.0], None), (np.zeros(0), [1.0, 2.0], None), ([1.0], np.zeros(0), None),
                     ([1.0, 2.0, 3.0], [1.0, 2.0], np.zeros(1)), ([1.0, 2.0, 3.0], [1.0, 2.0], np.zeros((2, 1))),
                     (np.array([1, 2]), np.array([1, 3]), None)]:
        b, a = np.asarray(b), np.asarray(a)
        xs = x.astype(np.int64) if b.dtype.kind == "i" else x
        args = [b, a, xs] + ([zi] if zi is not None else [])
        cases.append(case("lfilter", args, {"axis": -1}, lambda b=b, a=a, xs=xs, zi=zi: S.lfilter(b, a, xs, -1, zi),
                          [0, 0]))
    for bl, al in FILTERS + [([1.0, 2.0], [0.0, 0.0, 2.0, 1.0]), ([1.0, 1.0], [0.0, 0.0]), ([1.0, 1.0], [1.0, -1.0])]:
        for cn in ["float64", "float32", "int64", "complex128"]:
            b, a = np.array(bl).astype(cn), np.array(al).astype(cn)
            tol = [1e-5, 1e-6] if cn == "float32" else [1e-12, 1e-13]
            cases.append(case("lfilter_zi", [b, a], {}, lambda b=b, a=a: S.lfilter_zi(b, a), tol))
    return cases


SOS = [S.butter(4, 0.2, output="sos"), S.cheby1(3, 1.0, [0.1, 0.4], btype="band", output="sos"),
       np.array([[0.5, 0.2, 0.1, 1.0, -0.3, 0.1]])]


def sosfilts():
    """sosfilt with and without zi along each axis, dtypes, SciPy's errors; sosfilt_zi."""
    cases = []
    for sos in SOS:
        for xn, cn in [("float64", "float64"), ("float32", "float32"), ("int32", "float64"),
                       ("complex128", "float64"), ("float32", "float64")]:
            s = sos.astype(cn)
            shapes = [((23,), [0]), ((6, 7), [0, -1]), ((3, 5, 4), [1])]
            for shape, axes in shapes if (xn, cn) == ("float64", "float64") else shapes[:2]:
                x = rand(shape, xn)
                tol = [1e-4, 1e-5] if eps_of(xn, cn) == F32 else [1e-10, 1e-12]
                for axis in axes:
                    cases.append(case("sosfilt", [s, x], {"axis": axis},
                                      lambda s=s, x=x, axis=axis: S.sosfilt(s, x, axis), tol))
                    zs = [len(s)] + list(shape)
                    zs[(axis % len(shape)) + 1] = 2
                    zi = rand(tuple(zs), cn)
                    cases.append(case("sosfilt", [s, x, zi], {"axis": axis},
                                      lambda s=s, x=x, axis=axis, zi=zi: S.sosfilt(s, x, axis, zi), tol))
        for cn in ["float64", "float32", "complex128"]:
            s = sos.astype(cn)
            tol = [1e-4, 1e-5] if cn == "float32" else [1e-10, 1e-12]
            cases.append(case("sosfilt_zi", [s], {}, lambda s=s: S.sosfilt_zi(s), tol))
    x = rand((9,), "float64")
    good = SOS[2]
    bad_a0 = good.copy()
    bad_a0[0, 3] = 2.0
    for s, zi in [(good[:, :5], None), (bad_a0, None), (good, np.zeros((1, 1))), (good.astype(np.int64), None)]:
        xs = x.astype(np.int64) if s.dtype.kind == "i" else x
        args = [s, xs] + ([zi] if zi is not None else [])
        cases.append(case("sosfilt", args, {"axis": -1}, lambda s=s, xs=xs, zi=zi: S.sosfilt(s, xs, -1, zi), [0, 0]))
    cases.append(case("sosfilt_zi", [good[:, :4]], {}, lambda: S.sosfilt_zi(good[:, :4]), [0, 0]))
    return cases


def filtfilts():
    """filtfilt ("pad"): every padtype, default and given padlen, no padding, along each axis,
    dtypes, and the error for a signal not longer than padlen."""
    cases = []
    b3, a3 = S.butter(3, 0.3)
    for bl, al in [(b3, a3), ([0.25, 0.5, 0.25], [1.0]), (FILTERS[0][0], FILTERS[0][1])]:
        for xn, cn in [("float64", "float64"), ("float32", "float32"), ("int32", "float64"), ("complex128", "float64")]:
            b, a = np.array(bl, cn), np.array(al, cn)
            for shape, axis in [((30,), -1), ((25, 2), 0), ((2, 2, 23), 2)]:
                x = rand(shape, xn)
                tol = [1e-4, 1e-5] if eps_of(xn, cn) == F32 else [1e-10, 1e-12]
                pads = [("odd", None), ("even", None), ("constant", None), (None, None), ("odd", 5), ("even", 0),
                        ("constant", 7)]
                for padtype, padlen in pads if xn == "float64" else pads[:1]:
                    p = {"axis": axis, "padtype": padtype, "padlen": padlen}
                    cases.append(case("filtfilt", [b, a, x], p, lambda b=b, a=a, x=x, axis=axis, pt=padtype, pl=padlen:
                                      S.filtfilt(b, a, x, axis, pt, pl), tol))
    b, a = np.array(b3), np.array(a3)
    for n, padlen in [(12, None), (5, 5), (6, 5), (0, None)]:
        x = rand((n,), "float64")
        p = {"axis": -1, "padtype": "odd", "padlen": padlen}
        cases.append(case("filtfilt", [b, a, x], p, lambda x=x, pl=padlen: S.filtfilt(b, a, x, -1, "odd", pl),
                          [1e-10, 1e-12]))
    return cases


def resamples():
    """resample: down and up, even and odd kept bins (the Nyquist rules), equal length, real,
    integer and complex input, along each axis."""
    cases = []
    for name in ["float64", "float32", "int32", "complex128", "complex64"]:
        for n, nums in [(8, [5, 12, 4, 8, 1]), (9, [4, 14, 3, 9]), (16, [6, 7, 32]), (7, [3, 10, 2])]:
            x = rand((n,), name)
            eps = eps_of(name)
            for num in nums:
                cases.append(case("resample", [x], {"num": num, "axis": 0},
                                  lambda x=x, num=num: S.resample(x, num), [200 * eps, 200 * eps]))
        for shape, axis, num in [((10, 3), 0, 6), ((10, 3), 0, 15), ((2, 11), 1, 4), ((2, 3, 12), -1, 18)]:
            x = rand(shape, name)
            eps = eps_of(name)
            cases.append(case("resample", [x], {"num": num, "axis": axis},
                              lambda x=x, num=num, axis=axis: S.resample(x, num, axis=axis), [200 * eps, 200 * eps]))
        for n, num, w in [(8, 5, "hann"), (9, 14, ("kaiser", 3.0)), (10, 10, "hamming"), (7, 3, "boxcar")]:
            x = rand((2, n), name)
            eps = eps_of(name)
            p = {"num": num, "axis": 1, "window": w if isinstance(w, str) else w[0],
                 "beta": None if isinstance(w, str) else w[1]}
            cases.append(case("resample", [x], p, lambda x=x, num=num, w=w: S.resample(x, num, axis=1, window=w),
                              [200 * eps, 200 * eps]))
    return cases


def resample_polys():
    """resample_poly: ratios that reduce by their gcd, up only, down only, 1/1; the default
    Kaiser window and others; zero padding and the background padtypes; dtypes; axes."""
    cases = []
    for name in ["float64", "float32", "int32", "complex128"]:
        for shape, axis in [((20,), 0), ((29,), -1), ((19, 2), 0), ((2, 23), 1), ((1,), 0)]:
            x = rand(shape, name)
            eps = eps_of(name)
            ratios = [(3, 2, None, "constant"), (1, 4, None, "mean"), (6, 4, "hamming", "minimum"),
                      (2, 3, None, "constant"), (5, 1, ("kaiser", 8.0), "constant"), (4, 4, None, "constant"),
                      (7, 3, "hann", "maximum"), (3, 5, None, "median")]
            for up, down, window, padtype in ratios if name == "float64" else ratios[:4]:
                w = window if window is not None else ("kaiser", 5.0)
                p = {"up": up, "down": down, "axis": axis, "padtype": padtype,
                     "window": w if isinstance(w, str) else w[0], "beta": None if isinstance(w, str) else w[1]}
                cases.append(case("resample_poly", [x], p, lambda x=x, up=up, down=down, axis=axis, w=w, pt=padtype:
                                  S.resample_poly(x, up, down, axis=axis, window=w, padtype=pt),
                                  [500 * eps, 500 * eps]))
    return cases


def upfirdns():
    """upfirdn: up, down, both, neither; filters shorter and longer than the ratio; dtypes and
    their float32 floor; along each axis; an empty signal; SciPy's errors."""
    cases = []
    for xn, hn in [("float64", "float64"), ("float32", "float32"), ("int32", "int32"), ("int16", "float32"),
                   ("complex128", "float64"), ("float32", "float64")]:
        shapes = [((17,), -1), ((0,), 0), ((9, 2), 0), ((2, 3, 8), 2)]
        for shape, axis in shapes if xn == "float64" else shapes[:2]:
            x = rand(shape, xn)
            for hl, up, down in [(5, 3, 2), (2, 1, 3), (11, 4, 1), (1, 1, 1), (30, 2, 5)]:
                h = rand((hl,), hn)
                eps = eps_of(xn, hn) if xn != "int16" else F32
                big = float(np.abs(h).sum() * max(np.abs(x).max(initial=0), 1))
                cases.append(case("upfirdn", [h, x], {"up": up, "down": down, "axis": axis},
                                  lambda h=h, x=x, up=up, down=down, axis=axis: S.upfirdn(h, x, up, down, axis),
                                  [50 * eps, 50 * eps * big]))
    x = rand((6,), "float64")
    for h, up, down in [(np.zeros(0), 1, 1), (np.ones((2, 2)), 1, 1), (np.ones(3), 0, 1)]:
        cases.append(case("upfirdn", [h, x], {"up": up, "down": down, "axis": -1},
                          lambda h=h, up=up, down=down: S.upfirdn(h, x, up, down), [0, 0]))
    return cases


def stfts():
    """stft: segment lengths odd and even, overlaps, nfft padding, detrends, one- and two-sided,
    boundary zeros and none, padded or not, both scalings, windows, along each axis of 1-D to
    3-D input, float32 kept, complex input (always two-sided), SciPy's errors."""
    cases = []
    configs = [dict(nperseg=16), dict(nperseg=15, noverlap=4, nfft=20, detrend="linear"),
               dict(nperseg=7, window="boxcar", boundary=None, padded=False, scaling="psd"),
               dict(nperseg=8, noverlap=0, window=("kaiser", 4.0), return_onesided=False, detrend="constant"),
               dict(nperseg=10, window="hamming", padded=False), dict(nperseg=300),
               dict(nperseg=12, noverlap=11, boundary=None, scaling="psd")]
    for name in ["float64", "float32", "int32", "complex128"]:
        shapes = [((48,), -1), ((41,), 0), ((2, 30), 1), ((21, 2), 0), ((2, 2, 17), -1)]
        for shape, axis in shapes if name == "float64" else shapes[:3]:
            x = rand(shape, name)
            eps = eps_of(name)
            for cfg in configs if name == "float64" else configs[:3] + configs[5:6]:
                kw = dict(fs=2.0, window="hann", noverlap=None, nfft=None, detrend=False, return_onesided=True,
                          boundary="zeros", padded=True, scaling="spectrum")
                kw.update(cfg)
                w = kw["window"]
                p = dict(kw, window=w if isinstance(w, str) else w[0], beta=None if isinstance(w, str) else w[1],
                         axis=axis)
                cases.append(case("stft", [x], p, lambda x=x, kw=kw, axis=axis: S.stft(x, axis=axis, **kw),
                                  [100 * eps, 100 * eps]))
    x = rand((32,), "float64")
    for cfg in [dict(nperseg=8, noverlap=8), dict(nperseg=8, nfft=4)]:
        kw = dict(fs=1.0, window="hann", noverlap=None, nfft=None, detrend=False, return_onesided=True,
                  boundary="zeros", padded=True, scaling="spectrum")
        kw.update(cfg)
        p = dict(kw, beta=None, axis=-1)
        cases.append(case("stft", [x], p, lambda kw=kw: S.stft(x, **kw), [0, 0]))
    return cases


PROPS = ["plateau_sizes", "left_edges", "right_edges", "peak_heights", "left_thresholds", "right_thresholds",
         "prominences", "left_bases", "right_bases", "widths", "width_heights", "left_ips", "right_ips"]


def peaks():
    """find_peaks: each condition alone (min, max, both), several together, plateaus, wlen,
    rel_height, integer and float32 input (read as float64), no peaks, SciPy's errors. The
    results are the peaks then the properties in PROPS order."""
    cases = []
    t = np.linspace(0, 6 * np.pi, 90)
    smooth = np.sin(t) + 0.5 * np.sin(3.1 * t) + 0.2 * RNG.standard_normal(90)
    plateau = np.round(smooth * 3) / 3  # flat tops
    ints = RNG.integers(0, 6, 50).astype(np.int32)
    conds = [dict(), dict(height=0.5), dict(height=(None, 0.8)), dict(height=(-0.2, 0.9)), dict(threshold=0.1),
             dict(threshold=(None, 0.3)), dict(distance=5), dict(distance=2.5), dict(prominence=0.5),
             dict(prominence=(0.2, 1.0), wlen=15), dict(width=3), dict(width=(1, 6), rel_height=0.8),
             dict(plateau_size=2), dict(plateau_size=(1, 1)), dict(height=0, distance=4, prominence=0.3, width=2),
             dict(prominence=0.1, wlen=6, width=(None, 10), rel_height=1.0),
             dict(plateau_size=(2, None), threshold=0, height=(0.1, None), distance=3), dict(height=5.0)]
    for x in [smooth, plateau, ints, smooth.astype(np.float32), np.array([1.0]), np.array([0.0, 1.0, 0.0])]:
        heights = x[S.find_peaks(x)[0]]
        for cond in conds:
            if "distance" in cond and len(np.unique(heights)) < len(heights):
                # SciPy orders tied heights with NumPy's unstable argsort (SIMD on some CPUs)
                continue
            def f(x=x, cond=cond):
                pk, props = S.find_peaks(x, **cond)
                return [pk.astype(np.int64)] + [np.asarray(props[k]) for k in PROPS if k in props]
            p = {k: (list(v) if isinstance(v, tuple) else v) for k, v in cond.items()}
            p["props"] = [k for k in PROPS if k in S.find_peaks(x, **cond)[1]] if len(x) else []
            cases.append(case("find_peaks", [x], p, f, [1e-12, 1e-12]))
    for x, cond in [(np.ones((3, 4)), {}), (smooth, dict(distance=0.5)), (smooth, dict(wlen=1, prominence=0.1)),
                    (smooth, dict(width=1, rel_height=-1.0))]:
        p = {k: (list(v) if isinstance(v, tuple) else v) for k, v in cond.items()}
        p["props"] = []
        cases.append(case("find_peaks", [x], p, lambda x=x, cond=cond: S.find_peaks(x, **cond)[0], [0, 0]))
    return cases


def detrend_bps():
    """detrend with breakpoints along each axis: one and several, unsorted and repeated,
    at 0 and at the end, pieces of one point; beyond the end is an error."""
    cases = []
    for name in ["float64", "float32", "int32", "complex128"]:
        for shape, axis in [((20,), -1), ((12, 3), 0), ((2, 15), 1), ((3, 11, 2), 1)]:
            x = rand(shape, name)
            n = shape[axis]
            eps = eps_of(name)
            for bp in [[3], [7, 2, 7], [0, n], [1, n - 1]]:
                cases.append(case("detrend_bp", [x], {"axis": axis, "bp": bp},
                                  lambda x=x, axis=axis, bp=bp: S.detrend(x, axis=axis, bp=bp), [64 * eps, 64 * eps * 8]))
    x = rand((10,), "float64")
    cases.append(case("detrend_bp", [x], {"axis": 0, "bp": [11]}, lambda: S.detrend(x, bp=[11]), [0, 0]))
    return cases


def wieners():
    """wiener: default and given window sizes (one for all axes, one per axis), estimated and
    given noise, 1-D to 3-D, dtypes."""
    cases = []
    for name in ["float64", "float32", "int32"]:
        for shape in [(30,), (7, 6), (4, 5, 3)]:
            x = rand(shape, name) + (2 if name == "int32" else 0)
            for mysize in [None, 5, [3] * (len(shape) - 1) + [1], [1] + [4] * (len(shape) - 1)]:
                for noise in [None, 0.05]:
                    cases.append(case("wiener", [x], {"mysize": mysize, "noise": noise},
                                      lambda x=x, m=mysize, nz=noise: S.wiener(x, m, nz), [1e-9, 1e-10]))
    return cases


def main():
    write_cases("signal_filters", oaconvolves() + lfilters() + sosfilts() + filtfilts() + resamples() + resample_polys()
                + upfirdns() + stfts() + peaks() + detrend_bps() + wieners())


if __name__ == "__main__":
    main()
