#!/usr/bin/env python3
"""Reference data for the rest of scipy.ndimage that issue 27 asks for.

Run from the repository root:  python3 scripts/gen_measure2_reference.py
Needs numpy 2.x and scipy (1.17). Writes
  tests/data/measure2.json  find_objects, median, extrema, minimum/maximum_position, histogram,
                            labeled_comprehension, and the older measurements with negative labels
                            and without labels
  tests/data/ndimage2.json  distance_transform_edt, affine_transform, generic_filter

Where SciPy's answer for a region that is absent is an artefact of its implementation, the case
holds xp's documented answer instead and says so (`median`: NaN where SciPy reads another region's
value; `histogram`: a row of zeros where SciPy's object array holds None).
"""
import json
import os
import warnings

import numpy as np
import scipy
import scipy.ndimage as ndi

import gen_reference as g

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


def main():
    meta = {"numpy": np.__version__, "scipy": scipy.__version__}
    for name, cases in [("measure2", measure_cases())]:
        with open(os.path.join(ROOT, "tests", "data", f"{name}.json"), "w") as fh:
            json.dump({**meta, "cases": cases}, fh, separators=(",", ":"))
        print(name, len(cases))


if __name__ == "__main__":
    main()
