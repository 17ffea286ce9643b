#!/usr/bin/env python3
"""Reference data for the rest of scipy.ndimage that issue 27 asks for.

Run from the repository root:  python3 scripts/gen_ndimage_transforms_reference.py
Needs numpy 2.x and scipy (1.17). Writes
  tests/data/measure_objects.json  find_objects, median, extrema, minimum/maximum_position, histogram,
                            labeled_comprehension, and the older measurements with negative labels
                            and without labels
  tests/data/ndimage_transforms.json  distance_transform_edt, affine_transform, generic_filter

Where SciPy's answer for a region that is absent is an artefact of its implementation, the case
holds xp's documented answer instead and says so (`median`: NaN where SciPy reads another region's
value; `histogram`: a row of zeros where SciPy's object array holds None).
"""
import json
import sys
import os
import warnings

import numpy as np
import scipy
import scipy.ndimage as ndi

import gen_reference as g
from gen_ndimage_reference import fixed_spline_filter

warnings.filterwarnings("ignore")
ROOT = os.path.join(os.path.dirname(__file__), "..")


def lab_args(inp, lab):
    return [g.arr(inp)] if lab is None else [g.arr(inp), g.arr(lab)]


def positions(p, ndim, scalar):
    p = np.asarray(p, dtype=np.int64)
    return p.reshape(ndim) if scalar else p.reshape(-1, ndim)


# the labeled_comprehension functions, by the name the Rust test knows them
FUNCS = {
    "ptp": lambda v: float(np.ptp(v)) if len(v) else 0.0,
    "sumsq": lambda v: float(np.sum(np.asarray(v, np.float64) ** 2)),
    "count": lambda v: float(len(v)),
    # depends on the order of the values (C order)
    "first_minus_last": lambda v: float(v[0] - v[-1]) if len(v) else -7.0,
}


def measure_cases():
    rng = np.random.default_rng(2027)
    cases = []
    x = rng.standard_normal((9, 11)) * 3
    lab, _ = ndi.label(rng.random((9, 11)) > 0.5)
    # distinct integers, so that the positions of the extremes are unique (SciPy's unstable sort
    # picks among equal values at random)
    xi = (rng.permutation(99) - 40).astype(np.int32).reshape(9, 11)
    x3 = rng.random((4, 5, 6)).astype(np.float32)
    lab3 = rng.integers(-1, 4, (4, 5, 6)).astype(np.int32)  # negative labels too
    zeros = np.zeros((9, 11), np.int64)
    inputs = [(x, lab), (xi, lab), (x3, lab3)]
    indices = [None, 2, [1, 2, 3, 50], [3, 1, -1, 0], [], [2, 2, 1]]

    def present(lb, idx):
        return np.isin(np.asarray(idx), lb)

    # median
    for inp, lb in inputs + [(x, zeros)]:
        for idx in indices + [50]:
            r = np.asarray(ndi.median(inp, lb, idx))
            if isinstance(idx, list) and len(idx):
                r = np.where(present(lb, idx), r, np.nan).astype(r.dtype)  # SciPy: another region's value
            cases.append({"op": "median", "index": idx, "args": lab_args(inp, lb), "result": g.arr(r),
                          "tol": [1e-12, 0]})
    cases.append({"op": "median", "index": [1, 2], "args": [g.arr(x)], "result": g.arr(np.asarray(ndi.median(x))),
                  "tol": [1e-12, 0]})
    # extrema and the positions
    for inp, lb in inputs + [(x, zeros)]:
        nd = inp.ndim
        for idx in indices + [50]:
            scalar = not isinstance(idx, list)
            c = {"index": idx, "args": lab_args(inp, lb), "tol": [0, 0]}
            try:
                mn, mx, pmn, pmx = ndi.extrema(inp, lb, idx)
            except ValueError as e:
                for op in ["extrema", "minimum_position", "maximum_position"]:
                    cases.append({**c, "op": op, "error": str(e)})
                continue
            mn = np.asarray(mn, dtype=inp.dtype)
            mx = np.asarray(mx, dtype=inp.dtype)
            pmn, pmx = positions(pmn, nd, scalar), positions(pmx, nd, scalar)
            cases.append({**c, "op": "extrema", "results": [g.arr(mn), g.arr(mx), g.arr(pmn), g.arr(pmx)]})
            mp = positions(ndi.minimum_position(inp, lb, idx), nd, scalar)
            xp_ = positions(ndi.maximum_position(inp, lb, idx), nd, scalar)
            cases.append({**c, "op": "minimum_position", "result": g.arr(mp)})
            cases.append({**c, "op": "maximum_position", "result": g.arr(xp_)})
    cases.append({"op": "extrema", "index": [1, 2], "args": [g.arr(x)], "tol": [0, 0],
                  "results": [g.arr(np.asarray(v)) for v in ndi.extrema(x)[:2]]
                  + [g.arr(positions(v, 2, True)) for v in ndi.extrema(x)[2:]]})
    # histogram
    for inp, lb, lo, hi, bins in [(x, lab, -4.0, 4.0, 8), (xi, lab, -40.0, 58.0, 7), (x3, lab3, 0.1, 0.9, 5),
                                  (x, zeros, -1.0, 1.0, 3)]:
        for idx in indices:
            if isinstance(idx, list) and len(idx) == 0:
                r = np.zeros((0, bins), np.int64)  # SciPy: an error (the min of an empty index)
            else:
                r = ndi.histogram(inp, lo, hi, bins, lb, idx)
                if r is None:
                    r = np.zeros(bins, np.int64)  # SciPy: None for an absent label
                elif isinstance(idx, list):
                    r = np.array([np.zeros(bins, np.int64) if v is None else v for v in r], dtype=np.int64)
            cases.append({"op": "histogram", "index": idx, "min": lo, "max": hi, "bins": bins,
                          "args": lab_args(inp, lb), "result": g.arr(np.asarray(r, dtype=np.int64)), "tol": [0, 0]})
    cases.append({"op": "histogram", "index": None, "min": 0.0, "max": 1.0, "bins": 1, "args": [g.arr(x3)],
                  "result": g.arr(np.asarray(ndi.histogram(x3, 0.0, 1.0, 1), dtype=np.int64)), "tol": [0, 0]})
    # labeled_comprehension
    for name, f in FUNCS.items():
        for inp, lb in inputs:
            # SciPy sorts the labels asked for by an unstable sort: the order of the values is C
            # order only for index None
            some = [2, 50, [1, 2, 3, 50], [3, 1, -1, 0]] if name != "first_minus_last" else []
            for idx in [None] + some:
                r = ndi.labeled_comprehension(inp, lb, idx, f, np.float64, -1.5)
                cases.append({"op": "labeled_comprehension", "func": name, "default": -1.5, "index": idx,
                              "args": lab_args(inp, lb), "result": g.arr(np.asarray(r, np.float64)),
                              "tol": [1e-6 if inp.dtype == np.float32 else 1e-12, 1e-12]})
    # the older measurements: negative labels are regions too, and without labels the index is
    # ignored
    for name in ["sum_labels", "mean", "variance", "minimum", "maximum", "center_of_mass"]:
        f = getattr(ndi, name)
        for idx in [[-1, 2, 7], [2, -1]]:
            r = np.asarray(f(x3, lab3, idx))
            cases.append({"op": name, "index": idx, "args": lab_args(x3, lab3), "result": g.arr(r),
                          "tol": [2e-6, 1e-6]})
        cases.append({"op": name, "index": [1, 2], "args": [g.arr(x)], "result": g.arr(np.asarray(f(x, None, [1, 2]))),
                      "tol": [1e-12, 1e-12]})
    # find_objects: encoded as (max_label, 1 + 2 * ndim) int64 rows [present, start0, stop0, ...]
    b = rng.random((6, 7, 5)) > 0.6
    lab3d, _ = ndi.label(b)
    for lb, ml in [(lab, None), (lab, 2), (lab, 40), (lab3d, None), (lab3, None), (lab3, 6),
                   (zeros, None), (np.array(3), None), (np.zeros((0, 3), np.int32), 2)]:
        boxes = ndi.find_objects(lb, max_label=0 if ml is None else ml)
        enc = np.zeros((len(boxes), 1 + 2 * lb.ndim), np.int64)
        for k, bx in enumerate(boxes):
            if bx is not None:
                enc[k] = [1] + [v for s_ in bx for v in (s_.start, s_.stop)]
        cases.append({"op": "find_objects", "max_label": ml, "args": [g.arr(lb)], "result": g.arr(enc),
                      "tol": [0, 0]})
    for lb in [np.zeros((0, 3), np.int32), np.ones((2, 2)), np.array([[True, False], [False, True]])]:
        try:
            ndi.find_objects(lb)
            raise AssertionError("expected an error")
        except (ValueError, TypeError) as e:
            cases.append({"op": "find_objects", "max_label": None, "args": [g.arr(lb)], "error": str(e),
                          "tol": [0, 0]})
    return cases


def edt_cases():
    rng = np.random.default_rng(2028)
    cases = []

    def add(inp, sampling=None, dist=True, ind=True):
        c = {"op": "distance_transform_edt", "sampling": sampling, "distances": dist, "indices": ind,
             "args": [g.arr(inp)], "tol": [1e-13, 1e-13]}
        # xp's one value for every axis is SciPy's scalar
        sp_sampling = sampling[0] if sampling is not None and len(sampling) == 1 else sampling
        try:
            r = ndi.distance_transform_edt(inp, sampling=sp_sampling, return_distances=dist, return_indices=ind)
        except RuntimeError as e:
            cases.append({**c, "error": str(e)})
            return
        r = list(r) if isinstance(r, tuple) else [r]
        cases.append({**c, "results": [g.arr(v) for v in r]})

    b2 = rng.random((12, 15)) > 0.3
    add(b2)
    add(b2, [1.5, 0.7])
    add(b2, [2.0])
    add(b2.astype(np.float64), None, True, False)
    add(b2.astype(np.int32), [0.3, 1.0], False, True)
    add(b2, None, False, False)
    b3 = rng.random((5, 6, 7)) > 0.2
    add(b3)
    add(b3, [1.0, 2.0, 0.5])
    add(rng.random(20) > 0.25)
    # sparse background: many equidistant features, chosen as SciPy chooses them
    sp = np.ones((9, 9), bool)
    sp[0, 0] = sp[0, 8] = sp[8, 0] = sp[8, 8] = sp[4, 4] = False
    add(sp)
    add(sp, [1.0, 1.0])
    sp3 = np.ones((7, 7, 7), bool)
    sp3[0, 0, 0] = sp3[6, 6, 6] = sp3[0, 6, 3] = False
    add(sp3)
    # one line without background along the first axis (the next passes fill it)
    ln = np.ones((6, 5), bool)
    ln[2, 0] = False
    add(ln)
    add(np.ones((4, 5), bool))  # no background: SciPy's -1 features
    add(np.zeros((3, 4), np.uint8))
    add(np.array(1.0))
    add(np.zeros((0, 3), bool))
    return cases


def affine_cases():
    rng = np.random.default_rng(2029)
    cases = []
    x = rng.standard_normal((8, 9))
    xi = rng.integers(-50, 50, (8, 9)).astype(np.int32)
    x3 = rng.standard_normal((5, 6, 4)).astype(np.float32)
    th = 0.4
    rot = np.array([[np.cos(th), -np.sin(th)], [np.sin(th), np.cos(th)]]) * [[1.1], [0.9]]
    modes = [("constant", 0.0), ("constant", 1.5), ("nearest", 0.0), ("reflect", 0.0), ("mirror", 0.0),
             ("wrap", 0.0), ("grid-wrap", 0.0), ("grid-constant", 0.5), ("grid-mirror", 0.0)]

    def add(inp, matrix, offset=0.0, output_shape=None, order=3, mode="constant", cval=0.0, prefilter=True, tol=None):
        matrix = np.asarray(matrix, np.float64)
        off = list(np.atleast_1d(np.asarray(offset, np.float64)))
        c = {"op": "affine_transform", "matrix": g.arr(matrix), "offset": [repr(float(v)) for v in off],
             "output_shape": output_shape, "order": order, "mode": mode, "cval": cval, "prefilter": prefilter,
             "args": [g.arr(inp)], "tol": tol or ([2e-6, 2e-6] if inp.dtype == np.float32 else [1e-12, 1e-12])}
        kw = dict(offset=offset, output_shape=output_shape, order=order, mode=mode, cval=cval, prefilter=prefilter)
        try:
            if order > 1 and mode in ("reflect", "grid-mirror") and prefilter:
                # SciPy 1.17.1's reflect prefilter is off on short lines (scipy#24615): the fixed
                # recursion of gen_ndimage_reference.py, then SciPy's interpolation
                kw = dict(kw, prefilter=False, output=inp.dtype)
                r = ndi.affine_transform(fixed_spline_filter(inp, order, mode), matrix, **kw)
            else:
                r = ndi.affine_transform(inp, matrix, **kw)
        except (RuntimeError, ValueError) as e:
            cases.append({**c, "error": str(e)})
            return
        cases.append({**c, "result": g.arr(r)})

    for order in range(6):
        for mode, cval in modes:
            add(x, rot, [1.5, -0.5], None, order, mode, cval)
    for mode, cval in [("constant", 0.0), ("nearest", 0.0), ("mirror", 0.0)]:
        add(xi, rot, [0.7, 1.2], None, 3, mode, cval)
        add(xi, rot, [0.7, 1.2], None, 1, mode, cval)
    add(x, rot, [1.5, -0.5], [11, 6])
    add(x, rot, [1.5, -0.5], None, 3, "constant", 0.0, False)
    # the forms of the matrix
    hom = np.eye(3)
    hom[:2, :2] = rot
    hom[:2, 2] = [0.25, -1.0]
    add(x, hom, 0.0, None, 3, "nearest")
    add(x, hom[:2], 0.0, [7, 10], 2, "reflect")
    add(x, [0.8, 1.3], [0.5, -1.0], [10, 7], 3, "nearest")
    add(x, [0.8, 1.3], 0.25, None, 1, "constant", 2.0)
    add(x, [[0.5], [0.7]], [1.0, 0.5], [12], 3, "mirror")  # a 1-D output of a 2-D input
    # (ndim, ndim + 1) is the map and its offset, so a 2-D input cannot have a 3-D output
    add(x, [[0.3, 0.4, 0.5], [0.1, 0.6, -0.2]], [0.0, 1.0], [3, 4, 2], 1, "nearest")
    add(rng.standard_normal(9), [[0.5, 1.0, -0.3]], [1.0], [3, 4, 2], 3, "reflect")  # a 3-D output of a 1-D input
    m3 = np.array([[0.9, 0.1, 0.0], [-0.1, 1.0, 0.2], [0.05, 0.0, 1.1]])
    add(x3, m3, [0.5, -0.25, 0.1], None, 3, "constant")
    add(x3, m3, [0.5, -0.25, 0.1], [4, 7, 3], 2, "wrap")
    add(rng.standard_normal((4, 5)) + 1j * rng.standard_normal((4, 5)), rot, 0.5, None, 3, "nearest")
    add(rng.standard_normal(10), [[1.5]], [-2.0], [8], 3, "grid-constant", 1.0)
    # SciPy's errors
    bad = hom.copy()
    bad[2, 0] = 0.5
    add(x, bad)
    add(x, np.ones((3, 2)))
    add(x, np.ones((2, 4)))
    add(x, np.ones((2, 2, 2)))
    add(x, rot, 0.0, None, 6)
    return cases


# generic_filter's functions: SciPy's Python form, by the name the Rust test knows them
GENERIC = {
    "sumsq": lambda v: np.sum(v * v),
    "positive": lambda v: np.sum(v > 0),
    "weighted": lambda v: np.sum(v * np.arange(1, len(v) + 1)),  # depends on the order of the taps
    "ptp": np.ptp,
    "median": np.median,
}


def generic_cases():
    rng = np.random.default_rng(2030)
    cases = []
    x = rng.standard_normal((7, 9)) * 4
    xi = rng.integers(-9, 10, (7, 9)).astype(np.int32)
    x3 = rng.standard_normal((4, 5, 6)).astype(np.float32)
    cross = ndi.generate_binary_structure(2, 1)
    odd = np.array([[1, 1, 0], [0, 1, 1]], bool)
    windows = [({"size": [3, 3]}, None), ({"size": [2, 4]}, None), ({"footprint": cross}, None),
               ({"footprint": odd}, [-1, 1]), ({"size": [3, 1]}, [1, 0])]
    modes = [("reflect", 0.0), ("constant", 2.0), ("nearest", 0.0), ("mirror", 0.0), ("wrap", 0.0)]
    for form, names in [("reduction", ["sumsq", "positive"]), ("elementwise", ["weighted"]),
                        ("host", ["weighted", "ptp", "median"])]:
        for fname in names:
            for inp in [x, xi]:
                for (win, origin), (mode, cval) in zip(windows * 2, modes + modes[::-1]):
                    kw = dict(win, mode=mode, cval=cval, origin=origin if origin is not None else 0)
                    r = ndi.generic_filter(inp, GENERIC[fname], **kw)
                    c = {"op": "generic_filter", "form": form, "func": fname, "mode": mode, "cval": cval,
                         "origin": origin if origin is not None else [0], "args": [g.arr(inp)], "result": g.arr(r),
                         "tol": [1e-12, 1e-12]}
                    if "size" in win:
                        c["size"] = win["size"]
                    else:
                        c["footprint"] = g.arr(win["footprint"])
                    cases.append(c)
    # 3-D float32: the kernels sum in float32, SciPy in float64
    for form, fname in [("reduction", "sumsq"), ("host", "ptp"), ("host", "median")]:
        r = ndi.generic_filter(x3, GENERIC[fname], size=3, mode="nearest")
        cases.append({"op": "generic_filter", "form": form, "func": fname, "mode": "nearest", "cval": 0.0,
                      "origin": [0], "size": [3], "args": [g.arr(x3)], "result": g.arr(r), "tol": [2e-6, 1e-5]})
    # a constant border with a fractional cval: SciPy's function sees it in float64
    r = ndi.generic_filter(xi, GENERIC["weighted"], size=[3, 3], mode="constant", cval=1.5)
    cases.append({"op": "generic_filter", "form": "host", "func": "weighted", "mode": "constant", "cval": 1.5,
                  "origin": [0], "size": [3, 3], "args": [g.arr(xi)], "result": g.arr(r), "tol": [0, 0]})
    # an all-false footprint: SciPy calls the function with no values
    for form in ["host", "reduction"]:
        r = ndi.generic_filter(x, GENERIC["sumsq"], footprint=np.zeros((3, 3), bool))
        cases.append({"op": "generic_filter", "form": form, "func": "sumsq", "mode": "reflect", "cval": 0.0,
                      "origin": [0], "footprint": g.arr(np.zeros((3, 3), bool)), "args": [g.arr(x)],
                      "result": g.arr(r), "tol": [0, 0]})
    # errors: an origin outside the window, a footprint of another rank
    for kw in [{"size": [3, 3], "origin": [2, 0]}, {"footprint": np.ones(3, bool)}]:
        try:
            ndi.generic_filter(x, np.sum, **kw)
            raise AssertionError("expected an error")
        except (ValueError, RuntimeError) as e:
            c = {"op": "generic_filter", "form": "host", "func": "ptp", "mode": "reflect", "cval": 0.0,
                 "origin": kw.get("origin", [0]), "args": [g.arr(x)], "error": str(e), "tol": [0, 0]}
            if "size" in kw:
                c["size"] = kw["size"]
            else:
                c["footprint"] = g.arr(kw["footprint"])
            cases.append(c)
    return cases


def main():
    meta = {"numpy": np.__version__, "scipy": scipy.__version__}
    for name, cases in [("measure_objects", measure_cases()),
                        ("ndimage_transforms", edt_cases() + affine_cases() + generic_cases())]:
        with open(os.path.join(ROOT, "tests", "data", f"{name}.json"), "w") as fh:
            json.dump({"generator": "scripts/" + os.path.basename(sys.argv[0]), **meta, "cases": cases}, fh, separators=(",", ":"))
        print(name, len(cases))


if __name__ == "__main__":
    main()
