#!/usr/bin/env python3
"""Generate the NumPy reference data of xp's statistics tests: tests/data/stats.json.

Run from the repository root:  python3 scripts/gen_stats_reference.py
Needs numpy (2.x) and ml_dtypes. Uses the encoding of gen_reference.py (floats as repr strings).

Each case: {"op", "args": [arrays], "params": {...}, "result" | "results" | "error", "tol"}.
"tol" is [rtol, atol]: exact for picked values and counts, a few ulp of the dtype where NumPy
computes (interpolation, means, covariances), so that a wrong index or formula never passes.
"""
import json
import os
import sys
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from gen_reference import OUT, arr, call  # noqa: E402

warnings.filterwarnings("ignore")
RNG = np.random.default_rng(20261124)
METHODS = ["inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf",
           "hazen", "weibull", "linear", "median_unbiased", "normal_unbiased", "lower", "higher",
           "midpoint", "nearest"]
TOL = {"float32": [4e-7, 1e-6], "float64": [1e-14, 1e-14], "float16": [2e-3, 1e-3]}
cases = []


def tol_of(x, scale=1.0):
    n = np.asarray(x).dtype.name
    r, a = TOL.get(n, [1e-14, 1e-14])
    return [r * scale, a * scale]


def case(op, args, params, f, tol=None):
    c = {"op": op, "args": [arr(a) for a in args], "params": params}
    c.update(call(f))
    c["tol"] = tol if tol is not None else [1e-14, 1e-14]
    cases.append(c)


def data(shape, dtype, nan=0):
    if np.dtype(dtype).kind in "iu":
        x = RNG.integers(-20 if np.dtype(dtype).kind == "i" else 0, 40, shape).astype(dtype)
    else:
        x = RNG.standard_normal(shape).astype(dtype)
        # Ties, so that positions between equal values are exercised.
        x.flat[::5] = x.flat[0]
        if nan:
            x.flat[RNG.choice(x.size, nan, replace=False)] = np.nan
    return x


# Quantiles: every method, several q, axes, dtypes, NaN lanes.
for dt in ["float64", "float32", "int32"]:
    a = data((5, 8), dt)
    for m in METHODS:
        q = [0.0, 0.1, 0.25, 0.5, 0.77, 1.0]
        case("quantile", [a], {"q": q, "axis": 1, "method": m},
             lambda a=a, q=q, m=m: np.quantile(a, q, axis=1, method=m), tol_of(np.quantile(a, 0.5)))
        case("percentile", [a], {"q": 37.5, "axis": None, "method": m},
             lambda a=a, m=m: np.percentile(a, 37.5, method=m), tol_of(np.quantile(a, 0.5)))
    case("quantile", [a], {"q": 0.3, "axis": [0, 1], "method": "linear"},
         lambda a=a: np.quantile(a, 0.3, axis=(0, 1)), tol_of(np.quantile(a, 0.5)))
    case("median", [a], {"axis": 0}, lambda a=a: np.median(a, axis=0), tol_of(np.median(a)))
    case("median", [a], {"axis": None}, lambda a=a: np.median(a), tol_of(np.median(a)))
    case("median", [a[:, :7]], {"axis": 1}, lambda a=a: np.median(a[:, :7], axis=1), tol_of(np.median(a)))
for dt in ["float64", "float32"]:
    a = data((4, 9), dt, nan=5)
    a[2] = np.nan  # a lane of NaNs
    for m in ["linear", "lower", "higher", "nearest", "midpoint", "hazen", "inverted_cdf"]:
        case("nanquantile", [a], {"q": [0.2, 0.5, 0.9], "axis": 1, "method": m},
             lambda a=a, m=m: np.nanquantile(a, [0.2, 0.5, 0.9], axis=1, method=m), tol_of(a))
        case("quantile", [a], {"q": 0.4, "axis": 1, "method": m},
             lambda a=a, m=m: np.quantile(a, 0.4, axis=1, method=m), tol_of(a))
    case("nanpercentile", [a], {"q": [10.0, 90.0], "axis": 0, "method": "linear"},
         lambda a=a: np.nanpercentile(a, [10, 90], axis=0), tol_of(a))
    case("nanmedian", [a], {"axis": 1}, lambda a=a: np.nanmedian(a, axis=1), tol_of(a))
    case("nanmedian", [a], {"axis": None}, lambda a=a: np.nanmedian(a), tol_of(a))
    case("median", [a], {"axis": 1}, lambda a=a: np.median(a, axis=1), tol_of(a))
e = np.zeros((3, 0))
case("median", [e], {"axis": 1}, lambda: np.median(e, axis=1))
case("nanmedian", [e], {"axis": 1}, lambda: np.nanmedian(e, axis=1))
case("quantile", [np.arange(4.0)], {"q": 1.5, "axis": None, "method": "linear"}, lambda: np.quantile(np.arange(4.0), 1.5))

# Weighted means, covariances, correlations.
for dt in ["float64", "float32", "int64"]:
    a = data((4, 6), dt)
    w = RNG.uniform(0.1, 2, 6)
    case("average", [a], {"axis": None}, lambda a=a: np.average(a), tol_of(np.average(a), 8))
    case("average", [a, w], {"axis": 1, "returned": True}, lambda a=a, w=w: np.average(a, axis=1, weights=w, returned=True),
         tol_of(np.average(a, axis=1, weights=w), 8))
    w2 = RNG.uniform(0.1, 2, (4, 6))
    case("average", [a, w2], {"axis": 0, "returned": False}, lambda a=a, w2=w2: np.average(a, axis=0, weights=w2),
         tol_of(np.average(a, axis=0, weights=w2), 8))
    case("cov", [a], {"rowvar": True}, lambda a=a: np.cov(a), [1e-12, 1e-12])
    case("cov", [a], {"rowvar": False, "ddof": 0}, lambda a=a: np.cov(a, rowvar=False, ddof=0), [1e-12, 1e-12])
    fw = RNG.integers(1, 4, 6)
    aw = RNG.uniform(0.5, 1.5, 6)
    case("cov", [a, fw, aw], {"rowvar": True}, lambda a=a, fw=fw, aw=aw: np.cov(a, fweights=fw, aweights=aw), [1e-12, 1e-12])
    case("corrcoef", [a], {"rowvar": True}, lambda a=a: np.corrcoef(a), [1e-12, 1e-12])
    case("cov_xy", [a[0], a[1]], {}, lambda a=a: np.cov(a[0], a[1]), [1e-12, 1e-12])
case("cov", [np.arange(5.0)], {"rowvar": True}, lambda: np.cov(np.arange(5.0)))
case("average", [np.ones(3), np.zeros(3)], {"axis": None, "returned": False}, lambda: np.average(np.ones(3), weights=np.zeros(3)))

# Histograms.
for dt in ["float64", "float32", "int32"]:
    a = data((500,), dt) if dt != "int32" else RNG.integers(-7, 30, 500).astype(dt)
    for bins in [1, 7, 64]:
        case("histogram", [a], {"bins": bins}, lambda a=a, bins=bins: np.histogram(a, bins), [0, 0])
    case("histogram", [a], {"bins": 10, "range": [-1.0, 2.5]}, lambda a=a: np.histogram(a, 10, range=(-1, 2.5)), [0, 0])
    edges = np.array([-3.0, -1.0, -0.5, 0.0, 0.0, 0.7, 2.0, 50.0])
    case("histogram", [a, edges], {"bins": "edges"}, lambda a=a: np.histogram(a, edges), [0, 0])
    w = RNG.uniform(0, 1, 500)
    case("histogram", [a, w], {"bins": 9, "weights": True}, lambda a=a, w=w: np.histogram(a, 9, weights=w), [1e-13, 1e-13])
    case("histogram", [a], {"bins": 12, "density": True}, lambda a=a: np.histogram(a, 12, density=True), [1e-12, 1e-12])
case("histogram", [np.full(5, 3.0)], {"bins": 4}, lambda: np.histogram(np.full(5, 3.0), 4))
case("histogram", [np.zeros(0)], {"bins": 3}, lambda: np.histogram(np.zeros(0), 3))
case("histogram", [np.array([1.0, np.nan])], {"bins": 3}, lambda: np.histogram(np.array([1.0, np.nan]), 3))
x, y = RNG.standard_normal(300), RNG.standard_normal(300)
case("histogram2d", [x, y], {"bins": [5, 3]}, lambda: np.histogram2d(x, y, [5, 3]), [1e-15, 1e-15])
case("histogram2d", [x, y], {"bins": [4, 4], "range": [[-1, 1], [-2, 0.5]], "density": True},
     lambda: np.histogram2d(x, y, 4, range=[[-1, 1], [-2, 0.5]], density=True), [1e-12, 1e-12])
s = RNG.standard_normal((200, 3))
case("histogramdd", [s], {"bins": [3, 4, 2]}, lambda: (lambda r: [r[0], *r[1]])(np.histogramdd(s, [3, 4, 2])), [1e-15, 1e-15])
xi = RNG.integers(0, 12, 100)
case("bincount", [xi], {"minlength": 0}, lambda: np.bincount(xi))
wi = RNG.uniform(0, 1, 100)
case("bincount", [xi, wi], {"minlength": 20}, lambda: np.bincount(xi, wi, 20), [1e-14, 1e-14])
case("bincount", [np.array([1, -1])], {"minlength": 0}, lambda: np.bincount(np.array([1, -1])))
xd = RNG.uniform(-2, 12, 50)
for b in [np.array([0.0, 1.0, 1.0, 5.0, 10.0]), np.array([10.0, 5.0, 1.0, 0.0])]:
    for right in [False, True]:
        case("digitize", [xd, b], {"right": right}, lambda b=b, right=right: np.digitize(xd, b, right=right))
case("digitize", [xd, np.array([0.0, 3.0, 1.0])], {"right": False}, lambda: np.digitize(xd, np.array([0.0, 3.0, 1.0])))

# Differences, gradients, integrals, interpolation, NaN scans.
for dt in ["float64", "float32", "int16", "bool"]:
    a = data((4, 7), dt) if dt != "bool" else RNG.integers(0, 2, (4, 7)).astype(bool)
    case("diff", [a], {"n": 1, "axis": -1}, lambda a=a: np.diff(a), [0, 0])
    case("diff", [a], {"n": 2, "axis": 0}, lambda a=a: np.diff(a, 2, axis=0), [0, 0])
    if dt != "bool":
        case("gradient", [a], {"axis": None, "edge_order": 1}, lambda a=a: np.gradient(a), tol_of(np.gradient(a), 4))
        case("gradient", [a], {"axis": 1, "edge_order": 2, "dx": 0.5}, lambda a=a: np.gradient(a, 0.5, axis=1, edge_order=2),
             tol_of(np.gradient(a, axis=1), 8))
        xs = np.cumsum(RNG.uniform(0.1, 1, 7))
        case("gradient_x", [a, xs], {"axis": 1, "edge_order": 2}, lambda a=a, xs=xs: np.gradient(a, xs, axis=1, edge_order=2),
             tol_of(np.gradient(a, axis=1), 64))
        case("gradient_x", [a, xs], {"axis": 1, "edge_order": 1}, lambda a=a, xs=xs: np.gradient(a, xs, axis=1, edge_order=1),
             tol_of(np.gradient(a, axis=1), 64))
        case("trapezoid", [a], {"dx": 0.25, "axis": 1}, lambda a=a: np.trapezoid(a, dx=0.25, axis=1), tol_of(np.trapezoid(a), 8))
        case("trapezoid_x", [a, xs], {"axis": 1}, lambda a=a, xs=xs: np.trapezoid(a, xs, axis=1), tol_of(np.trapezoid(a), 8))
        case("ediff1d", [a], {}, lambda a=a: np.ediff1d(a, to_begin=[9], to_end=[7, 8]), [0, 0])
        case("ediff1d", [a], {"plain": True}, lambda a=a: np.ediff1d(a), [0, 0])
f = data((3, 6), "float64", nan=4)
case("nancumsum", [f], {"axis": 1}, lambda: np.nancumsum(f, axis=1), [1e-14, 1e-14])
case("nancumprod", [f], {"axis": None}, lambda: np.nancumprod(f), [1e-13, 1e-300])
case("diff_pa", [f, np.array(0.5), np.array([[1.0], [2.0], [3.0]])], {"axis": 1},
     lambda: np.diff(f, axis=1, prepend=0.5, append=np.array([[1.0], [2.0], [3.0]])), [0, 0])
xp_ = np.array([0.0, 1.0, 1.5, 4.0, 10.0])
fp = np.array([3.0, -1.0, 2.0, 2.0, 0.5])
xq = np.concatenate([RNG.uniform(-2, 12, 40), xp_, [np.nan, -np.inf, np.inf]])
case("interp", [xq, xp_, fp], {}, lambda: np.interp(xq, xp_, fp), [1e-15, 1e-15])
case("interp", [xq, xp_, fp], {"left": -9.0, "right": 99.0}, lambda: np.interp(xq, xp_, fp, left=-9, right=99), [1e-15, 1e-15])

# Narrow samples: NumPy computes histogramdd's edges in the sample's dtype (a float32 linspace of
# float32 extremes) and bins by searchsorted against them; samples equal to those edges and just
# beside them land where a float64 edge would put them otherwise.
R2 = np.random.default_rng(20261126)
for dt in ["float32", "int32"]:
    if dt == "float32":
        x2 = R2.uniform(-1, 1, 3000).astype(dt)
        y2 = R2.uniform(0, 3, 3000).astype(dt)
        ex = np.linspace(x2.min(), x2.max(), 8, dtype=dt)
        ey = np.linspace(y2.min(), y2.max(), 6, dtype=dt)
        x2[:16] = np.concatenate([ex, np.nextafter(ex, np.float32(-2))])
        y2[:12] = np.concatenate([ey, np.nextafter(ey, np.float32(9))])
    else:
        x2, y2 = R2.integers(-9, 30, 3000).astype(dt), R2.integers(0, 7, 3000).astype(dt)
    case("histogram2d", [x2, y2], {"bins": [7, 5]}, lambda x2=x2, y2=y2: np.histogram2d(x2, y2, [7, 5]), [0, 0])
    s2 = np.stack([x2, y2, x2 * 2], axis=1)
    case("histogramdd", [s2], {"bins": [7, 5, 3]},
         lambda s2=s2: (lambda r: [r[0], *r[1]])(np.histogramdd(s2, [7, 5, 3])), [0, 0])

# Quantiles of a whole array (one lane: positions computed on the host): NaNs present, skipped,
# or everywhere; an array of q; integers.
for dt in ["float64", "float32"]:
    w = R2.standard_normal(257).astype(dt)
    w[::7] = w[3]
    wn = w.copy()
    wn[R2.choice(257, 9, replace=False)] = np.nan
    for m in ["linear", "weibull", "nearest", "inverted_cdf", "closest_observation", "midpoint"]:
        case("quantile", [w], {"q": [0.0, 0.01, 0.5, 0.77, 1.0], "axis": None, "method": m},
             lambda w=w, m=m: np.quantile(w, [0.0, 0.01, 0.5, 0.77, 1.0], method=m), tol_of(w))
        case("nanquantile", [wn], {"q": [0.1, 0.5, 0.9], "axis": None, "method": m},
             lambda wn=wn, m=m: np.nanquantile(wn, [0.1, 0.5, 0.9], method=m), tol_of(w))
    case("quantile", [wn], {"q": 0.5, "axis": None, "method": "linear"}, lambda wn=wn: np.quantile(wn, 0.5), tol_of(w))
    allnan = np.full(5, np.nan, dt)
    case("nanquantile", [allnan], {"q": [0.5, 0.7], "axis": None, "method": "linear"},
         lambda allnan=allnan: np.nanquantile(allnan, [0.5, 0.7]), tol_of(w))
wi = R2.integers(-50, 50, 101).astype("int32")
case("nanquantile", [wi], {"q": 0.35, "axis": None, "method": "hazen"}, lambda: np.nanquantile(wi, 0.35, method="hazen"))

with open(os.path.join(OUT, "stats.json"), "w") as fh:
    json.dump({"generator": "scripts/" + os.path.basename(sys.argv[0]), "numpy": np.__version__, "cases": cases}, fh, separators=(",", ":"))
print(len(cases), "cases")
