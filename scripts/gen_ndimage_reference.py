#!/usr/bin/env python3
"""Generate the SciPy reference data of xp's ndimage tests (tests/data/ndimage.json).

Run from the repository root:  python3 scripts/gen_ndimage_reference.py
Needs numpy (2.x), scipy and ml_dtypes. Uses the encoding of gen_reference.py.

Each case: {"op", "args": [input, (weights | footprint | coordinates)], "params", "tol": [rtol,
atol], "result" | "error"}. Modes are SciPy's names; "cval" goes with the constant modes.
Tolerances: float64 results within 1e-12 relative (plus 1e-12 of the input's scale), float32
ones within 2e-5 (xp computes float32 filters in float32 where SciPy uses double); integer and
bool results exact.
"""
import os
import sys

import numpy as np
from scipy import ndimage as nd
from scipy import signal as S

sys.path.insert(0, os.path.dirname(__file__))
from gen_reference import write_cases, arr, call  # noqa: E402

RNG = np.random.default_rng(20261125)
MODES = ["reflect", "constant", "nearest", "mirror", "wrap", "grid-constant", "grid-mirror", "grid-wrap"]
CVAL = 1.5
# for rank filters the grid modes are aliases of reflect/wrap; the linear filters test them
RANK_MODES = [m for m in MODES if m not in ("grid-mirror", "grid-wrap")]


def rand(shape, name):
    if name == "bool":
        return RNG.integers(0, 2, shape).astype(bool)
    if name == "uint8":
        return RNG.integers(0, 200, shape).astype(np.uint8)
    if name.startswith("int"):
        return RNG.integers(-20, 21, shape).astype(name)
    # three decimals keep the data file small
    return np.round(RNG.uniform(-2, 2, shape), 3).astype(name)


def tol(x):
    scale = float(np.abs(x).max()) if x.size and x.dtype != bool else 1.0
    if x.dtype in (np.float32, np.complex64):
        return [2e-5, 2e-5 * max(scale, 1.0)]
    return [1e-12, 1e-12 * max(scale, 1.0)]


# SciPy up to 1.17.1 computes the causal start of its 'reflect' spline prefilter in place and
# reads c[0] back mid-sum (scipy#24615, fixed upstream after 1.17.1): short lines lose up to
# 1e-3. The references for the prefilter under 'reflect'/'grid-mirror'/'nearest' use the fixed
# recursion below (upstream's `apply_filter`), and SciPy's interpolation on its coefficients.
POLES = {2: [np.sqrt(8.0) - 3.0], 3: [np.sqrt(3.0) - 2.0],
         4: [np.sqrt(664.0 - np.sqrt(438976.0)) + np.sqrt(304.0) - 19.0,
             np.sqrt(664.0 + np.sqrt(438976.0)) - np.sqrt(304.0) - 19.0],
         5: [np.sqrt(67.5 - np.sqrt(4436.25)) + np.sqrt(26.25) - 6.5,
             np.sqrt(67.5 + np.sqrt(4436.25)) - np.sqrt(26.25) - 6.5]}
REFLECTING = ("reflect", "grid-mirror", "nearest")


def _line_filter(c, order, mode):
    n = len(c)
    if n <= 1 or order < 2:
        return c
    c = c * np.prod([(1 - z) * (1 - 1 / z) for z in POLES[order]])
    for z in POLES[order]:
        if mode in REFLECTING:
            zn = z ** n
            total = c[0] + zn * c[n - 1]
            zi = z
            for i in range(1, n):
                total += zi * (c[i] + zn * c[n - 1 - i])
                zi *= z
            c[0] += total * z / (1 - zn * zn)
        elif mode == "grid-wrap":
            zi = z
            for i in range(1, n):
                c[0] += zi * c[n - i]
                zi *= z
            c[0] /= 1 - zi
        else:
            zn1 = z ** (n - 1)
            c0 = c[0] + zn1 * c[n - 1]
            zi = z
            for i in range(1, n - 1):
                c0 += zi * (c[i] + zn1 * c[n - 1 - i])
                zi *= z
            c[0] = c0 / (1 - zn1 * zn1)
        for i in range(1, n):
            c[i] += z * c[i - 1]
        if mode in REFLECTING:
            c[n - 1] *= z / (z - 1)
        elif mode == "grid-wrap":
            zi = z
            for i in range(n - 1):
                c[n - 1] += zi * c[i]
                zi *= z
            c[n - 1] *= z / (zi - 1)
        else:
            c[n - 1] = (z * c[n - 2] + c[n - 1]) * z / (z * z - 1)
        for i in range(n - 2, -1, -1):
            c[i] = z * (c[i + 1] - c[i])
    return c


def fixed_spline_filter(x, order, mode, axes=None):
    c = np.asarray(x, dtype=np.float64).copy()
    for ax in (range(c.ndim) if axes is None else axes):
        c = np.apply_along_axis(_line_filter, ax, c, order, mode)
    return c


def interp_ref(f, x, order, mode, axes=None, **kw):
    """SciPy's interpolation `f(x, ..., order, mode)`, its prefilter fixed where scipy#24615 bites."""
    if order > 1 and mode in ("reflect", "grid-mirror") and kw.get("prefilter", True):
        kw = dict(kw, prefilter=False, output=x.dtype)
        return f(fixed_spline_filter(x, order, mode, axes), order=order, mode=mode, **kw)
    return f(x, order=order, mode=mode, **kw)


def case(op, args, params, f, t=None):
    c = {"op": op, "args": [arr(a) for a in args], "params": params, **call(f)}
    c["tol"] = t if t is not None else tol(args[0])
    return c


SHAPES = [(7,), (8,), (1,), (6, 5), (3, 1, 4)]


def linear():
    cases = []
    for name in ["float64", "float32", "int32"]:
        for shape in SHAPES if name != "float32" else [(7,), (6, 5), (3, 1, 4)]:
            x = rand(shape, name)
            for mode in MODES:
                for w in ([0.5, -1.25, 2.0], [1.0, 3.0], [0.25, 0.5, -0.75, 1.0, 0.125]):
                    if mode not in ("reflect", "constant") and len(w) != 3:
                        continue
                    if name != "float64" and len(w) == 5:
                        continue
                    if name != "float64" and len(shape) == 1 and shape[0] in (8, 13) and mode != "constant":
                        continue
                    for origin in sorted({0, -(len(w) // 2), (len(w) - 1) // 2}):
                        for axis in sorted({0, -1}):
                            p = {"weights": w, "axis": axis, "mode": mode, "cval": CVAL, "origin": origin}
                            for op, f in [("correlate1d", nd.correlate1d), ("convolve1d", nd.convolve1d)]:
                                if (mode not in ("reflect", "constant")) and (op, origin, axis) != ("correlate1d", 0, -1):
                                    continue
                                cases.append(case(op, [x], p, lambda f=f, x=x, w=w, axis=axis, mode=mode, origin=origin:
                                                  f(x, w, axis, mode=mode, cval=CVAL, origin=origin)))
            # N-D correlate/convolve with zeros among the weights and per-axis origins
            for wshape in [tuple(min(3, s + 1) for s in shape), tuple(2 for _ in shape)][: 1 if name == "int32" else 2]:
                w = RNG.uniform(-1, 1, wshape)
                w.flat[0] = 0.0
                for mode in ["reflect", "constant", "wrap", "mirror"]:
                    for origin in [[0] * len(shape), [-(m // 2) for m in wshape]][: 2 if mode == "constant" else 1]:
                        p = {"mode": mode, "cval": CVAL, "origin": origin}
                        for op, f in [("correlate", nd.correlate), ("convolve", nd.convolve)]:
                            cases.append(case(op, [x, w], p, lambda f=f, x=x, w=w, mode=mode, origin=origin:
                                              f(x, w, mode=mode, cval=CVAL, origin=origin)))
    # empty axes, bad origins, a weights array of the wrong rank
    for x in [np.zeros((0,)), np.zeros((3, 0))]:
        cases.append(case("correlate1d", [x], {"weights": [1.0, 2.0], "axis": -1, "mode": "reflect", "cval": 0.0,
                                               "origin": 0}, lambda x=x: nd.correlate1d(x, [1.0, 2.0])))
    x = rand((6,), "float64")
    for origin in [2, -2, 1]:
        cases.append(case("correlate1d", [x], {"weights": [1.0, 2.0, 3.0], "axis": -1, "mode": "reflect", "cval": 0.0,
                                               "origin": origin},
                          lambda origin=origin: nd.correlate1d(x, [1.0, 2.0, 3.0], origin=origin)))
    cases.append(case("correlate", [x, np.ones((2, 2))], {"mode": "reflect", "cval": 0.0, "origin": [0]},
                      lambda: nd.correlate(x, np.ones((2, 2)))))
    return cases


def smoothing():
    cases = []
    for name in ["float64", "float32", "int32"]:
        for shape in [(7,), (8,), (1,), (6, 5), (3, 1, 4), (5, 0)]:
            x = rand(shape, name)
            for mode in MODES:
                for sigma, order, truncate, radius in [(1.0, 0, 4.0, None), (0.7, 1, 4.0, None),
                                                       (1.5, 2, 2.0, None), (2.5, 3, 4.0, None),
                                                       (1.2, 0, 4.0, 2), (0.0, 0, 4.0, None)]:
                    if mode not in ("reflect", "constant") and (order, radius) != (0, None):
                        continue
                    p = {"sigma": sigma, "order": order, "truncate": truncate, "radius": radius, "axis": -1,
                         "mode": mode, "cval": CVAL}
                    if sigma > 0:
                        cases.append(case("gaussian_filter1d", [x], p, lambda x=x, p=p: nd.gaussian_filter1d(
                            x, p["sigma"], -1, p["order"], mode=p["mode"], cval=CVAL, truncate=p["truncate"],
                            radius=p["radius"])))
                    if len(shape) == 1 and (order, radius) != (0, None):
                        continue  # the 1-D cases above cover it
                    sig = [sigma] + [0.6 * (k + 1) for k in range(len(shape) - 1)]
                    orders = [order] + [k % 2 for k in range(len(shape) - 1)]
                    p = dict(p, sigma=sig, order=orders)
                    cases.append(case("gaussian_filter", [x], p, lambda x=x, p=p: nd.gaussian_filter(
                        x, p["sigma"], p["order"], mode=p["mode"], cval=CVAL, truncate=p["truncate"],
                        radius=p["radius"])))
                for size, origin in [(1, 0), (2, 0), (4, -2), (4, 1), (3, 1)]:
                    if mode not in ("reflect", "constant") and size != 4:
                        continue
                    if name == "float32" and size != 4:
                        continue
                    if name == "int32" and size % 2 == 1 and size > 1:
                        continue  # SciPy's running sum rounds exact integer means down at times
                    p = {"size": size, "origin": origin, "axis": 0, "mode": mode, "cval": CVAL}
                    cases.append(case("uniform_filter1d", [x], p, lambda x=x, p=p: nd.uniform_filter1d(
                        x, p["size"], 0, mode=p["mode"], cval=CVAL, origin=p["origin"])))
                    sizes = [size] + [2] * (len(shape) - 1)
                    p = dict(p, size=sizes, origin=[origin] + [0] * (len(shape) - 1))
                    cases.append(case("uniform_filter", [x], p, lambda x=x, p=p: nd.uniform_filter(
                        x, p["size"], mode=p["mode"], cval=CVAL, origin=p["origin"])))
    x = rand((6, 5), "float64")
    for sigma in [[1.0, 2.0, 3.0], [-1.0]]:
        p = {"sigma": sigma, "order": [0], "truncate": 4.0, "radius": None, "mode": "reflect", "cval": 0.0}
        cases.append(case("gaussian_filter", [x], p, lambda sigma=sigma: nd.gaussian_filter(x, sigma) if sigma[0] >= 0
                          else (_ for _ in ()).throw(ValueError("sigma < 0"))))
    return cases


def rank():
    cases = []
    for name in ["float64", "float32", "int32", "uint8", "bool"]:
        for shape in (SHAPES + [(4, 0)]) if name == "float64" else [(8,), (6, 5), (1,)] if name == "int32" else [(8,), (6, 5)]:
            x = rand(shape, name)
            nd_ = len(shape)
            for mode in RANK_MODES:
                for size, origin in [(3, 0), (2, 0), (4, -2), (5, 2), (1, 0)]:
                    if mode not in ("reflect", "constant") and size != 4:
                        continue
                    if name != "float64" and size in (1, 5):
                        continue
                    if shape == (1,) and origin > 0:
                        continue  # SciPy's 1-D median returns garbage here (uninitialised memory)
                    p = {"size": size, "axis": -1, "origin": origin, "mode": mode, "cval": CVAL}
                    for op, f in [("minimum_filter1d", nd.minimum_filter1d), ("maximum_filter1d", nd.maximum_filter1d)]:
                        cases.append(case(op, [x], p, lambda f=f, x=x, p=p: f(x, p["size"], -1, mode=p["mode"],
                                                                               cval=CVAL, origin=p["origin"])))
                    sizes = [size] + [3] * (nd_ - 1)
                    origins = [origin] + [0] * (nd_ - 1)
                    p = {"size": sizes, "origin": origins, "mode": mode, "cval": CVAL}
                    for op, f in [("minimum_filter", nd.minimum_filter), ("maximum_filter", nd.maximum_filter),
                                  ("median_filter", nd.median_filter)]:
                        cases.append(case(op, [x], p, lambda f=f, x=x, p=p: f(
                            x, size=p["size"], mode=p["mode"], cval=CVAL, origin=p["origin"])))
                # a footprint that is not a full box
                fp = RNG.integers(0, 2, tuple(3 for _ in shape)).astype(bool)
                fp.flat[0] = True
                fp.flat[-1] = False
                p = {"origin": [0] * nd_, "mode": mode, "cval": CVAL}
                for op, f in [("minimum_filter", nd.minimum_filter), ("maximum_filter", nd.maximum_filter),
                              ("median_filter", nd.median_filter)]:
                    cases.append(case(op, [x, fp], p, lambda f=f, x=x, fp=fp: f(x, footprint=fp, mode=mode, cval=CVAL)))
                if mode == "reflect" and len(shape) < 3:
                    for r in [1, -2]:
                        p = {"size": [3], "rank": r, "origin": [0], "mode": mode, "cval": CVAL}
                        cases.append(case("rank_filter", [x], p, lambda x=x, r=r: nd.rank_filter(x, r, size=3)))
                    for pc in [30.0, -20.0, 100.0] if name == "float64" else [30.0]:
                        p = {"size": [3], "percentile": pc, "origin": [0], "mode": mode, "cval": CVAL}
                        cases.append(case("percentile_filter", [x], p, lambda x=x, pc=pc: nd.percentile_filter(
                            x, pc, size=3)))
    x = rand((5, 4), "float64")
    cases.append(case("median_filter", [x, np.zeros((3, 3), bool)], {"origin": [0], "mode": "reflect", "cval": 0.0},
                      lambda: nd.median_filter(x, footprint=np.zeros((3, 3), bool))))
    cases.append(case("median_filter", [x], {"size": [3], "origin": [2], "mode": "reflect", "cval": 0.0},
                      lambda: nd.median_filter(x, size=3, origin=2)))
    # SciPy's medfilt / medfilt2d
    for name in ["float64", "float32", "int32", "uint8", "bool"]:
        for shape, k in [((9,), [3]), ((10,), [5]), ((6, 7), [3]), ((6, 7), [3, 5]), ((5, 4, 3), [3, 1, 3]), ((4,), [2]),
                         ((3,), [5])]:
            if name == "bool" and shape != (9,):
                continue  # one refusal is enough
            x = rand(shape, name)
            p = {"kernel_size": k}
            cases.append(case("medfilt", [x], p, lambda x=x, k=k: S.medfilt(x, k if len(k) > 1 else k[0])))
            if len(shape) == 2:
                cases.append(case("medfilt2d", [x], p, lambda x=x, k=k: S.medfilt2d(x, k if len(k) > 1 else k[0])))
    return cases


def derivatives():
    cases = []
    for name in ["float64", "float32", "int32", "uint8"]:
        for shape in [(7,), (6, 5), (2, 3, 4), (1, 6)] if name == "float64" else [(7,), (6, 5)]:
            x = rand(shape, name)
            for mode in RANK_MODES:
                p = {"mode": mode, "cval": CVAL}
                for axis in sorted({0, -1}):
                    for op, f in [("sobel", nd.sobel), ("prewitt", nd.prewitt)]:
                        cases.append(case(op, [x], dict(p, axis=axis), lambda f=f, x=x, axis=axis, mode=mode:
                                          f(x, axis, mode=mode, cval=CVAL)))
                cases.append(case("laplace", [x], p, lambda x=x, mode=mode: nd.laplace(x, mode=mode, cval=CVAL)))
                if name != "uint8":
                    sig = [1.0] if mode != "reflect" else [0.8 + 0.3 * k for k in range(len(shape))]
                    q = dict(p, sigma=sig, truncate=3.0)
                    cases.append(case("gaussian_laplace", [x], q, lambda x=x, sig=sig, mode=mode: nd.gaussian_laplace(
                        x, sig if len(sig) > 1 else sig[0], mode=mode, cval=CVAL, truncate=3.0)))
    return cases


def interp_tol(x):
    if x.dtype.kind in "iub":
        return [0, 0]
    single = x.dtype in (np.float32, np.complex64)
    return [2e-6, 2e-6 * 4] if single else [1e-10, 1e-10 * max(float(np.abs(x).max()), 1.0)]


def interpolation():
    cases = []
    for name in ["float64", "float32", "int32"]:
        for shape in [(7,), (8,), (1,), (6, 5), (2, 3, 4)] if name == "float64" else [(7,), (6, 5)]:
            x = rand(shape, name)
            for mode in MODES:
                for order in [0, 1, 3]:
                    base = {"order": order, "mode": mode, "cval": CVAL, "prefilter": True}
                    for z in [[1.6], [0.6], [1.7] + [0.5] * (len(shape) - 1)][: 3 if mode in ("reflect", "constant") else 1]:
                        if len(shape) == 3 and (mode, z) != ("constant", [1.7, 0.5, 0.5]) and order != 1:
                            continue
                        for grid in ([False, True] if mode in ("reflect", "grid-constant") else [False]):
                            p = dict(base, zoom=z, grid_mode=grid)
                            c = case("zoom", [x], p, lambda x=x, p=p: interp_ref(
                                lambda y, **k: nd.zoom(y, p["zoom"] if len(p["zoom"]) > 1 else p["zoom"][0], **k),
                                x, p["order"], p["mode"], cval=CVAL, grid_mode=p["grid_mode"]), interp_tol(x))
                            cases.append(c)
                    for sh in [[1.3], [-2.6] + [0.7] * (len(shape) - 1)][: 2 if name == "float64" else 1]:
                        p = dict(base, shift=sh)
                        cases.append(case("shift", [x], p, lambda x=x, p=p: interp_ref(
                            lambda y, **k: nd.shift(y, p["shift"] if len(p["shift"]) > 1 else p["shift"][0], **k),
                            x, p["order"], p["mode"], cval=CVAL), interp_tol(x)))
                    # coordinates inside, near and well outside the input
                    n_pts = 5
                    coords = np.stack([RNG.uniform(-3, s + 2, (n_pts,)) for s in shape])
                    coords[:, 0] = 0.0
                    coords[:, 1] = [s - 1 for s in shape]
                    cases.append(case("map_coordinates", [x, coords], base, lambda x=x, coords=coords, base=base: interp_ref(
                                          lambda y, **k: nd.map_coordinates(y, coords, **k), x, base["order"],
                                          base["mode"], cval=CVAL),
                                      interp_tol(x)))
                    if len(shape) >= 2:
                        for angle, reshape, axes in [(30.0, True, [1, 0]), (90.0, False, [0, 1]), (-47.0, True, [-1, 0])][
                                : 3 if mode == "constant" else 1]:
                            p = dict(base, angle=angle, reshape=reshape, axes=axes)
                            cases.append(case("rotate", [x], p, lambda x=x, p=p: interp_ref(
                                lambda y, **k: nd.rotate(y, p["angle"], p["axes"], reshape=p["reshape"], **k),
                                x, p["order"], p["mode"], sorted(a % x.ndim for a in p["axes"]), cval=CVAL), interp_tol(x)))
            # the other orders, prefilter off, and the spline filters themselves
            for order in [2, 4, 5]:
                p = {"order": order, "mode": "mirror", "cval": CVAL, "prefilter": True, "shift": [0.4]}
                cases.append(case("shift", [x], p, lambda x=x, order=order: nd.shift(x, 0.4, order=order, mode="mirror"),
                                  interp_tol(x)))
                # a constant border (the one-kernel path) at every order, points leaving the input
                p = {"order": order, "mode": "constant", "cval": CVAL, "prefilter": True, "shift": [1.3]}
                cases.append(case("shift", [x], p, lambda x=x, order=order: nd.shift(x, 1.3, order=order, mode="constant",
                                                                                    cval=CVAL), interp_tol(x)))
                # and at points given one by one (the host's and the GPU's per-point loops)
                pts = np.stack([np.linspace(-1.2, n + 0.3, 9) for n in x.shape])
                p = {"order": order, "mode": "constant", "cval": CVAL, "prefilter": True}
                cases.append(case("map_coordinates", [x, pts], p, lambda x=x, pts=pts, order=order: nd.map_coordinates(
                    x, pts, order=order, mode="constant", cval=CVAL), interp_tol(x)))
            p = {"order": 3, "mode": "nearest", "cval": CVAL, "prefilter": False, "shift": [0.4]}
            cases.append(case("shift", [x], p, lambda x=x: nd.shift(x, 0.4, order=3, mode="nearest", prefilter=False),
                              interp_tol(x)))
            for order in [0, 2, 3, 4, 5]:
                for mode in MODES if order == 3 and len(shape) < 3 else ["mirror", "reflect", "grid-wrap"]:
                    p = {"order": order, "mode": mode, "axis": -1}
                    cases.append(case("spline_filter1d", [x], p, lambda x=x, order=order, mode=mode: nd.spline_filter1d(x, order, -1, mode=mode)
                        if mode not in REFLECTING or order < 2 else fixed_spline_filter(x, order, mode, [x.ndim - 1]), [1e-11, 1e-11 * 40]))
                    if order >= 2 and mode in ("mirror", "reflect", "grid-wrap") and name == "float64":
                        cases.append(case("spline_filter", [x], p, lambda x=x, order=order, mode=mode: nd.spline_filter(x, order, mode=mode)
                            if mode not in REFLECTING else fixed_spline_filter(x, order, mode), [1e-11, 1e-11 * 40]))
    x = rand((5, 6), "uint8")
    for order in [0, 1, 3]:
        p = {"order": order, "mode": "reflect", "cval": 0.0, "prefilter": True, "angle": 33.0, "reshape": True,
             "axes": [1, 0]}
        cases.append(case("rotate", [x], p, lambda order=order: interp_ref(lambda y, **k: nd.rotate(y, 33.0, **k), x, order, "reflect"), [0, 0]))
        p = {"order": order, "mode": "constant", "cval": 0.0, "prefilter": True, "zoom": [1.5], "grid_mode": False}
        cases.append(case("zoom", [x], p, lambda order=order: nd.zoom(x, 1.5, order=order), [0, 0]))
    # SciPy's refusals: a sixth order, coordinates of the wrong rank, a 1-D rotation
    x = rand((4, 5), "float64")
    cases.append(case("shift", [x], {"order": 6, "mode": "constant", "cval": 0.0, "prefilter": True, "shift": [1.0]},
                      lambda: nd.shift(x, 1.0, order=6)))
    cases.append(case("map_coordinates", [x, np.zeros((3, 2))], {"order": 1, "mode": "constant", "cval": 0.0,
                                                                 "prefilter": True},
                      lambda: nd.map_coordinates(x, np.zeros((3, 2)), order=1)))
    y = rand((5,), "float64")
    cases.append(case("rotate", [y], {"order": 1, "mode": "constant", "cval": 0.0, "prefilter": True, "angle": 10.0,
                                      "reshape": True, "axes": [1, 0]}, lambda: nd.rotate(y, 10.0)))
    return cases


def other_dtypes():
    """Complex input (SciPy filters and interpolates the real and imaginary parts apart; its rank
    filters refuse it) and bool input (stored as the truncated value's truth)."""
    cases = []
    for name in ["complex128", "complex64"]:
        for shape in [(7,), (6, 5)] if name == "complex128" else [(7,)]:
            x = (rand(shape, "float64") + 1j * rand(shape, "float64")).astype(name)
            for mode in ["reflect", "constant"]:
                p = {"mode": mode, "cval": CVAL}
                cases.append(case("correlate1d", [x], dict(p, weights=[0.5, -1.0, 2.0], axis=-1, origin=0),
                                  lambda x=x, mode=mode: nd.correlate1d(x, [0.5, -1.0, 2.0], mode=mode, cval=CVAL)))
                w = RNG.uniform(-1, 1, tuple(2 for _ in shape))
                cases.append(case("convolve", [x, w], dict(p, origin=[0] * len(shape)),
                                  lambda x=x, w=w, mode=mode: nd.convolve(x, w, mode=mode, cval=CVAL)))
                q = dict(p, sigma=[1.2], order=[1], truncate=4.0, radius=None)
                cases.append(case("gaussian_filter", [x], q, lambda x=x, mode=mode: nd.gaussian_filter(
                    x, 1.2, 1, mode=mode, cval=CVAL)))
                cases.append(case("uniform_filter", [x], dict(p, size=[3], origin=[0]),
                                  lambda x=x, mode=mode: nd.uniform_filter(x, 3, mode=mode, cval=CVAL)))
                cases.append(case("sobel", [x], dict(p, axis=0), lambda x=x, mode=mode: nd.sobel(x, 0, mode=mode,
                                                                                                   cval=CVAL)))
                cases.append(case("gaussian_laplace", [x], dict(p, sigma=[1.0], truncate=4.0),
                                  lambda x=x, mode=mode: nd.gaussian_laplace(x, 1.0, mode=mode, cval=CVAL)))
                cases.append(case("median_filter", [x], dict(p, size=[3], origin=[0]),
                                  lambda x=x, mode=mode: nd.median_filter(x, 3, mode=mode, cval=CVAL)))
            for mode in ["constant", "grid-wrap", "reflect"]:
                base = {"order": 3, "mode": mode, "cval": CVAL, "prefilter": True}
                cases.append(case("zoom", [x], dict(base, zoom=[1.6], grid_mode=False), lambda x=x, mode=mode: interp_ref(
                    lambda y, **k: nd.zoom(y, 1.6, **k), x.real, 3, mode, cval=CVAL) + 1j * interp_ref(
                    lambda y, **k: nd.zoom(y, 1.6, **k), x.imag, 3, mode, cval=0.0), interp_tol(x)))
                cases.append(case("shift", [x], dict(base, shift=[0.7]), lambda x=x, mode=mode: interp_ref(
                    lambda y, **k: nd.shift(y, 0.7, **k), x.real, 3, mode, cval=CVAL) + 1j * interp_ref(
                    lambda y, **k: nd.shift(y, 0.7, **k), x.imag, 3, mode, cval=0.0), interp_tol(x)))
            cases.append(case("spline_filter1d", [x], {"order": 3, "mode": "mirror", "axis": -1},
                              lambda x=x: nd.spline_filter1d(x, 3, -1, mode="mirror"), [1e-11, 1e-11 * 40]))
    for shape in [(7,), (6, 5)]:
        x = rand(shape, "bool")
        for mode in ["reflect", "constant"]:
            p = {"mode": mode, "cval": CVAL}
            cases.append(case("correlate1d", [x], dict(p, weights=[0.5, 0.25, 2.0], axis=0, origin=0),
                              lambda x=x, mode=mode: nd.correlate1d(x, [0.5, 0.25, 2.0], 0, mode=mode, cval=CVAL)))
            cases.append(case("gaussian_filter", [x], dict(p, sigma=[0.8], order=[0], truncate=4.0, radius=None),
                              lambda x=x, mode=mode: nd.gaussian_filter(x, 0.8, mode=mode, cval=CVAL)))
            cases.append(case("uniform_filter", [x], dict(p, size=[2], origin=[0]),
                              lambda x=x, mode=mode: nd.uniform_filter(x, 2, mode=mode, cval=CVAL)))
            cases.append(case("zoom", [x], {"order": 1, "mode": mode, "cval": CVAL, "prefilter": True, "zoom": [1.6],
                                            "grid_mode": False},
                              lambda x=x, mode=mode: nd.zoom(x, 1.6, order=1, mode=mode, cval=CVAL), [0, 0]))
    return cases


def main():
    write_cases("ndimage", linear() + smoothing() + rank() + derivatives() + interpolation() + other_dtypes())


if __name__ == "__main__":
    main()
