#!/usr/bin/env python3
"""Generate the NumPy reference data of xp's indexing, sorting and set tests:
tests/data/indexing.json.

Run from the repository root:  python3 scripts/gen_index_reference.py
Needs numpy (2.x) and ml_dtypes. Uses the encoding of gen_reference.py (floats as repr strings).

Each case: {"op", "args": [arrays], "params": {...}, "result" | "results" | "error"}. Operations
that write into their first argument (setitem, put, place, ufunc.at, ...) give that argument
afterwards as the result. Sorts use kind="stable", the order xp guarantees.
"""
import json
import os
import sys
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from gen_reference import NAMES, OUT, arr, call, dt, idx_json, kind  # noqa: E402

warnings.filterwarnings("ignore")
RNG = np.random.default_rng(20261123)
INDEX_DTYPES = ["int64", "int32", "int16", "uint8", "uint32"]


def rand(shape, name, lo=-4, hi=4, ties=False):
    """Random values of dtype `name`; `ties` draws from few values so that sorts meet ties, and
    puts NaN, -0.0 and +0.0 among floats."""
    d = dt(name)
    if kind(d) == "b":
        return RNG.integers(0, 2, shape).astype(bool)
    if kind(d) in "iu":
        lo = 0 if kind(d) == "u" else lo
        return RNG.integers(lo, hi + 1, shape).astype(d)
    if ties:
        pool = np.array([-1.5, -0.0, 0.0, 0.5, 2.0, np.nan, np.inf, -np.inf])
        x = RNG.choice(pool, shape)
        if kind(d) == "c":
            x = x + 1j * RNG.choice(pool[:5], shape)
            flat = x.reshape(-1)
            if flat.size > 3:
                flat[1] = complex(1.0, np.nan)
                flat[2] = complex(np.nan, -1.0)
        return x.astype(d)
    x = RNG.integers(-8, 9, shape) / 2.0
    if kind(d) == "c":
        x = x + 1j * (RNG.integers(-4, 5, shape) / 2.0)
    return x.astype(d)


def idx(shape, n, name="int64", neg=True):
    lo = -n if neg and kind(np.dtype(name)) == "i" else 0
    return RNG.integers(lo, max(n, 1), shape).astype(name)


def case(op, args, params, fn):
    return {"op": op, "args": [arr(a) for a in args], "params": params, **call(fn)}


def bf16_safe(fn, *xs):
    """ml_dtypes' bfloat16 comparisons do not order NaN and infinities as NumPy's floats do: sort
    and search bfloat16 data as float32 (which holds it exactly) and give floats back as bfloat16."""
    if not any(getattr(x, "dtype", None) == dt("bfloat16") for x in xs):
        return lambda: fn(*xs)
    def back(r):
        r = np.asarray(r)
        return r.astype(dt("bfloat16")) if r.dtype == np.float32 else r
    def run():
        r = fn(*[x.astype(np.float32) if x.dtype == dt("bfloat16") else x for x in xs])
        return tuple(back(v) for v in r) if isinstance(r, tuple) else back(r)
    return run


def index_of(spec, arrays):
    """spec: list of ('a', k) for array k, or a basic element."""
    out, js = [], []
    for e in spec:
        if isinstance(e, tuple) and e[0] == "a":
            out.append(arrays[e[1]])
            js.append({"arr": e[1] + 1})  # the case's argument: the indexed array comes first
        else:
            out.append(e)
            js.append(idx_json(e))
    return tuple(out), js


def getitem_cases():
    cases = []
    a = np.arange(60).reshape(3, 4, 5)
    specs = [
        # (index spec, index arrays)
        ([("a", 0)], [np.array([2, 0, -1])]),
        ([("a", 0), ("a", 1)], [np.array([0, 2, 2]), np.array([1, -1, 0])]),
        ([slice(None), ("a", 0)], [np.array([[0, 3], [1, 1]])]),
        ([("a", 0), slice(None), ("a", 1)], [np.array([0, 2]), np.array([4, 1])]),  # separated
        ([1, slice(None), ("a", 0)], [np.array([0, 4, 4])]),  # integer + array, separated
        ([slice(None), 1, ("a", 0)], [np.array([0, 3])]),  # adjacent through the integer
        ([Ellipsis, ("a", 0)], [np.array([4, 0])]),
        ([("a", 0), None, slice(1, 3)], [np.array([1, 0])]),
        ([slice(None, None, -1), ("a", 0), ("a", 1)], [np.array([[0], [3]]), np.array([1, 2, 4])]),  # broadcast
        ([("a", 0)], [np.zeros((0,), np.int64)]),
        ([("a", 0)], [np.array(2)]),  # 0-d index array
        ([("a", 0)], [np.array([5])]),  # out of bounds
        ([slice(None), ("a", 0)], [np.array([-5])]),  # out of bounds, negative
        ([("a", 0)], [np.array([True, False, True])]),
        ([("a", 0)], [a % 3 == 0]),  # full mask
        ([1, ("a", 0)], [np.array([[True, False, True, False, True]] * 4)]),
        ([("a", 0), ("a", 1)], [np.array([True, False, True]), np.array([0, 4])]),
        ([slice(None), ("a", 0)], [np.array([True, False, True, False, True])]),  # wrong length: error
        ([("a", 0)], [np.array([0.0, 1.0])]),  # float index: error
        ([("a", 0), 0, 0, 0], [np.array([0])]),  # too many indices: error
    ]
    for spec, arrays in specs:
        for name in (["float32", "int64", "complex128", "bool", "float16"] if len(cases) < 3 else ["float64"]):
            x = rand(a.shape, name)
            for idt in (["int64", "int32", "uint8"] if arrays[0].dtype.kind in "iu" and arrays[0].min(initial=0) >= 0 and len(cases) < 12 else [None]):
                arrs = [v.astype(idt) if idt and v.dtype.kind in "iu" else v for v in arrays]
                ix, js = index_of(spec, arrs)
                cases.append(case("getitem", [x] + arrs, {"index": js}, lambda x=x, ix=ix: x[ix]))
                # assignment through the same index: values broadcast from a row, duplicates keep
                # the last
                def setter(x=x, ix=ix):
                    y = x.copy()
                    sel = y[ix]
                    v = rand(sel.shape[-1:] if sel.ndim else (), x.dtype.name if x.dtype != dt("bfloat16") else "bfloat16")
                    y[ix] = v
                    return y, v
                try:
                    y, v = setter()
                    cases.append(case("setitem", [x] + arrs + [v], {"index": js}, lambda y=y: y))
                except Exception as e:  # noqa: BLE001
                    cases.append({"op": "setitem", "args": [arr(x)] + [arr(v) for v in arrs] + [arr(np.zeros(1, x.dtype))],
                                  "params": {"index": js}, "error": str(e)})
    # duplicates in assignment: the last value wins
    x = np.zeros(6, np.float64)
    i = np.array([1, 3, 1, 1, 5, 3])
    v = np.arange(6, dtype=np.float64) + 10
    y = x.copy()
    y[i] = v
    cases.append(case("setitem", [x, i, v], {"index": [{"arr": 1}]}, lambda: y))
    # scalar through a mask
    x = rand((4, 5), "float32")
    y = x.copy()
    y[y > 0] = 0
    cases.append(case("setitem", [x, x > 0, np.array(0, np.float32)], {"index": [{"arr": 1}]}, lambda: y))
    return cases


def routine_cases():
    cases = []
    for name in NAMES:
        a = rand((3, 5), name)
        i = idx((2, 3), 5)
        cases.append(case("take", [a, i], {"axis": 1, "mode": "raise"}, lambda a=a, i=i: np.take(a, i, axis=1)))
        cases.append(case("take", [a, i], {"axis": None, "mode": "raise"}, lambda a=a, i=i: np.take(a, i)))
    a = rand((4, 6), "float32")
    for mode in ["raise", "wrap", "clip"]:
        i = np.array([[0, 7, -9], [3, -1, 25]])
        cases.append(case("take", [a, i], {"axis": 1, "mode": mode}, lambda a=a, i=i, m=mode: np.take(a, i, axis=1, mode=m)))
        for idt in INDEX_DTYPES[:2]:
            y = a.copy()
            ii = i.astype(idt)
            v = np.array([1.5, -2.0, 3.0], np.float32)
            def put(y=y, ii=ii, v=v, m=mode):
                np.put(y, ii, v, mode=m)
                return y
            cases.append(case("put", [a, ii, v], {"mode": mode}, put))
    cases.append(case("take", [np.zeros((0, 3)), np.array([1])], {"axis": 0, "mode": "raise"}, lambda: np.take(np.zeros((0, 3)), [1], axis=0)))
    for name in ["float64", "int32", "complex64", "bool"]:
        a = rand((3, 4, 5), name)
        for ax in [0, 1, -1]:
            sh = list(a.shape)
            sh[ax] = 2
            i = idx(tuple(sh), a.shape[ax])
            cases.append(case("take_along_axis", [a, i], {"axis": ax}, lambda a=a, i=i, ax=ax: np.take_along_axis(a, i, axis=ax)))
            v = rand(tuple(sh), name)
            def pal(a=a, i=i, v=v, ax=ax):
                y = a.copy()
                np.put_along_axis(y, i, v, axis=ax)
                return y
            cases.append(case("put_along_axis", [a, i, v], {"axis": ax}, pal))
        i = np.argsort(a, axis=1, kind="stable")
        cases.append(case("take_along_axis", [a, i], {"axis": 1}, lambda a=a, i=i: np.take_along_axis(a, i, axis=1)))
    # broadcasting: indices against the array's other axes and the array against the indices';
    # negative indices; duplicates in put_along_axis (the last wins)
    ab = np.arange(60.0).reshape(3, 4, 5)
    ib = np.array([[[3, -1, 0, -4, 2], [1, 1, -2, 0, 3]]])  # (1, 2, 5)
    cases.append(case("take_along_axis", [ab, ib], {"axis": 1}, lambda: np.take_along_axis(ab, ib, axis=1)))
    a1 = np.arange(20.0).reshape(1, 4, 5)
    i3 = np.array([[[0, 3, -1, 2, 1]], [[3, 3, 0, -4, 2]], [[1, 0, 0, 0, -1]]])  # (3, 1, 5)
    cases.append(case("take_along_axis", [a1, i3], {"axis": 1}, lambda: np.take_along_axis(a1, i3, axis=1)))
    ic = np.array([[[4], [0], [-5], [2]]] * 3)  # (3, 4, 1) along the last axis
    cases.append(case("take_along_axis", [ab, ic], {"axis": 2}, lambda: np.take_along_axis(ab, ic, axis=2)))
    vb = -np.arange(10.0).reshape(1, 2, 5)
    def pal_b():
        y = ab.copy()
        np.put_along_axis(y, ib, vb, axis=1)
        return y
    cases.append(case("put_along_axis", [ab, ib, vb], {"axis": 1}, pal_b))
    a = rand((3, 4), "float32")
    cases.append(case("take_along_axis", [a, np.array([[0], [4], [1]])], {"axis": 1},
                      lambda a=a: np.take_along_axis(a, np.array([[0], [4], [1]]), axis=1)))
    for ax in [0, 1, None]:
        c = np.array([True, False, True])
        cases.append(case("compress", [c, a], {"axis": ax}, lambda c=c, ax=ax: np.compress(c, a, axis=ax)))
    cases.append(case("compress", [np.array([1, 0, 1, 1, 1]), a], {"axis": 0}, lambda: np.compress([1, 0, 1, 1, 1], a, axis=0)))
    cases.append(case("extract", [a > 0, a], {}, lambda: np.extract(a > 0, a)))
    def place(a=a):
        y = a.copy()
        np.place(y, y > 0, np.array([7.0, 8.0], np.float32))
        return y
    cases.append(case("place", [a, a > 0, np.array([7.0, 8.0], np.float32)], {}, place))
    # place: values cast, more values than places, a mask of another shape and the same size,
    # no values (allowed only where nothing is masked)
    pi = np.arange(20, dtype=np.int32).reshape(4, 5) - 7
    # (NumPy casts the values safely: float64 values into int32 are an error)
    for m, v in [(pi % 3 == 0, np.array([1.9, -2.5])), (pi % 3 == 0, np.arange(9, dtype=np.int16) * 3),
                 ((np.arange(20) % 4 == 1).astype(np.int64), np.array([-1, -2, -3], np.int32)),
                 (np.zeros((4, 5), bool), np.zeros(0, np.int32)), (pi > 10, np.zeros(0, np.int32))]:
        def place2(m=m, v=v):
            y = pi.copy()
            np.place(y, m, v)
            return y
        cases.append(case("place", [pi, m, v], {}, place2))
    for mode in ["raise", "wrap", "clip"]:
        i = np.array([[0, 1, 2], [2, 5, -1]])
        cs = [rand((2, 3), "int32"), rand((3,), "int32"), rand((2, 3), "int32")]
        cases.append(case("choose", [i] + cs, {"mode": mode}, lambda i=i, cs=cs, m=mode: np.choose(i, cs, mode=m)))
    x0, x1 = rand((3, 4), "float64"), rand((3, 4), "float64")
    cases.append(case("select", [x0 > 0, x1 > 0, x0, x1], {"default": -9.0},
                      lambda: np.select([x0 > 0, x1 > 0], [x0, x1], -9.0)))
    for name in ["float32", "int8", "bool", "complex128"]:
        a = rand((3, 4, 2), name)
        cases.append(case("nonzero", [a], {}, lambda a=a: np.nonzero(a)))
        cases.append(case("argwhere", [a], {}, lambda a=a: np.argwhere(a)))
        cases.append(case("flatnonzero", [a], {}, lambda a=a: np.flatnonzero(a)))
    cases.append(case("nonzero", [np.zeros((2, 0))], {}, lambda: np.nonzero(np.zeros((2, 0)))))
    cases.append(case("nonzero", [np.array(1.0)], {}, lambda: np.nonzero(np.array(1.0))))
    cases.append(case("ix_", [np.array([0, 2]), np.array([True, False, True, True])], {},
                      lambda: np.ix_(np.array([0, 2]), np.array([True, False, True, True]))))
    i = np.array([[3, 17], [0, 23]])
    cases.append(case("unravel_index", [i], {"shape": [2, 3, 4]}, lambda: np.unravel_index(i, (2, 3, 4))))
    cases.append(case("unravel_index", [np.array([24])], {"shape": [2, 3, 4]}, lambda: np.unravel_index([24], (2, 3, 4))))
    for mode in ["raise", "wrap", "clip"]:
        r, c = np.array([[0, 2], [1, 3]]), np.array([[4, 0], [-1, 2]])
        cases.append(case("ravel_multi_index", [r, c], {"dims": [3, 4], "mode": mode},
                          lambda r=r, c=c, m=mode: np.ravel_multi_index((r, c), (3, 4), mode=m)))
    for n, k, m in [(4, 0, None), (4, 1, 5), (3, -1, 2), (0, 0, None)]:
        mm = n if m is None else m
        cases.append(case("tril_indices", [], {"n": n, "k": k, "m": m}, lambda n=n, k=k, mm=mm: np.tril_indices(n, k, mm)))
        cases.append(case("triu_indices", [], {"n": n, "k": k, "m": m}, lambda n=n, k=k, mm=mm: np.triu_indices(n, k, mm)))
    cases.append(case("diag_indices", [], {"n": 4, "ndim": 3}, lambda: np.diag_indices(4, 3)))
    return cases


UFUNCS_AT = ["add", "subtract", "multiply", "maximum", "minimum", "bitwise_and", "bitwise_or", "bitwise_xor",
             "divide", "power", "floor_divide", "remainder", "arctan2", "fmax", "logaddexp", "left_shift",
             "logical_and", "copysign"]


def at_cases():
    cases = []
    for uname in UFUNCS_AT:
        u = getattr(np, uname)
        for name in ["int32", "int64", "uint8", "float32", "float64", "complex128", "bool", "int8", "float16"]:
            probe = rand((1,), name, lo=1, hi=2)
            try:
                if u(probe, probe).dtype != probe.dtype:
                    continue  # NumPy computes in another dtype and casts back; xp refuses (tested)
            except TypeError:
                pass
            a = rand((6,), name, lo=1, hi=4) if kind(dt(name)) not in "iu" else rand((6,), name, lo=1, hi=4)
            i = np.array([0, 2, 2, 5, 2, 0, 4])
            v = rand((7,), name, lo=1, hi=3)
            def at(a=a, i=i, v=v, u=u):
                y = a.copy()
                u.at(y, i, v)
                return y
            cases.append(case("ufunc_at", [a, i, v], {"ufunc": uname}, at))
        if uname.startswith("logical"):
            continue
        a = rand((3, 4), "float64")
        i = np.array([2, 0, 2])
        v = rand((3, 4), "float64")
        def at2(a=a, i=i, v=v, u=u):
            y = a.copy()
            u.at(y, i, v)
            return y
        cases.append(case("ufunc_at", [a, i, v], {"ufunc": uname}, at2))
    a = np.zeros(4, np.int64)
    cases.append(case("ufunc_at", [a, np.array([0, 9]), np.array([1, 1])], {"ufunc": "add"},
                      lambda: np.add.at(np.zeros(4, np.int64), np.array([0, 9]), 1)))
    return cases


def sort_cases():
    cases = []
    for name in NAMES:
        for shape, ties in [((17,), True), ((4, 9), True), ((3, 2, 5), False), ((0,), False), ((1,), False), ((5, 0), True)]:
            a = rand(shape, name, ties=ties)
            for ax in ([-1, 0, None] if len(shape) > 1 else [-1, None]):
                cases.append(case("sort", [a], {"axis": ax}, bf16_safe(lambda a, ax=ax: np.sort(a, axis=ax, kind="stable"), a)))
                cases.append(case("argsort", [a], {"axis": ax}, bf16_safe(lambda a, ax=ax: np.argsort(a, axis=ax, kind="stable"), a)))
    cases.append(case("sort", [np.array(3.0)], {"axis": -1}, lambda: np.sort(np.array(3.0), axis=-1)))
    for name in ["int32", "float64", "bool"]:
        k0, k1 = rand((12,), name, ties=True), rand((12,), "int8", lo=0, hi=2)
        cases.append(case("lexsort", [k0, k1], {}, lambda k0=k0, k1=k1: np.lexsort((k0, k1))))
    for name in NAMES:
        a = rand((11,), name, ties=True)
        a = bf16_safe(lambda a: np.sort(a, kind="stable"), a)()
        v = rand((2, 3), name, ties=True)
        for side in ["left", "right"]:
            cases.append(case("searchsorted", [a, v], {"side": side}, bf16_safe(lambda a, v, s=side: np.searchsorted(a, v, side=s), a, v)))
    a = rand((9,), "float32", ties=True)
    s = np.argsort(a, kind="stable")
    v = rand((4,), "float32", ties=True)
    cases.append(case("searchsorted", [a, v, s], {"side": "left"}, lambda: np.searchsorted(a, v, sorter=s)))
    return cases


def set_cases():
    cases = []
    for name in NAMES:
        a = rand((4, 6), name, ties=True)
        cases.append(case("unique", [a], {"axis": None},
                          bf16_safe(lambda a: np.unique(a, return_index=True, return_inverse=True, return_counts=True), a)))
    for name in ["int32", "float64", "bool"]:
        a = rand((7, 3), name, lo=0, hi=1)
        cases.append(case("unique", [a], {"axis": 0},
                          lambda a=a: np.unique(a, return_index=True, return_inverse=True, return_counts=True, axis=0)))
        cases.append(case("unique", [a.T.copy()], {"axis": 1},
                          lambda a=a: np.unique(a.T, return_index=True, return_inverse=True, return_counts=True, axis=1)))
    cases.append(case("unique", [np.zeros((0,), np.float32)], {"axis": None},
                      lambda: np.unique(np.zeros((0,), np.float32), return_index=True, return_inverse=True, return_counts=True)))
    for name in ["int64", "float32", "uint16", "complex64"]:
        a, b = rand((3, 5), name, ties=True), rand((7,), name, ties=True)
        for op in ["isin", "intersect1d", "union1d", "setdiff1d", "setxor1d"]:
            cases.append(case(op, [a, b], {}, lambda a=a, b=b, f=getattr(np, op): f(a, b)))
    # isin of integers: a test range small enough for NumPy's table (duplicates, negatives,
    # elements outside the range and at the type's ends), a wide one, mixed widths
    e1 = np.array([[-9, -3, 0, 4, 4, 11], [12, 100, -128, 127, 5, -4]], np.int8)
    t1 = np.array([-4, 4, 4, 11, -3, 5, 6], np.int8)
    e2 = np.array([0, 255, 3, 7, 200, 201], np.uint8)
    t2 = np.array([201, 3, 255, 199], np.uint8)
    e3 = np.array([-2**31, 2**31 - 1, 0, 17, -17], np.int32)
    t3 = np.array([2**31 - 1, 17, -2**31], np.int32)
    t4 = np.array([300, -200, 5, 11], np.int64)
    for a, b in [(e1, t1), (e2, t2), (e3, t3), (e1, t4), (e1.T.copy(), t1[:1])]:
        cases.append(case("isin", [a, b], {}, lambda a=a, b=b: np.isin(a, b)))
    return cases


def main():
    cases = getitem_cases() + routine_cases() + at_cases() + sort_cases() + set_cases()
    with open(os.path.join(OUT, "indexing.json"), "w") as f:
        json.dump({"generator": "scripts/" + os.path.basename(sys.argv[0]), "numpy_version": np.__version__, "cases": cases}, f, separators=(",", ":"))
    print("indexing", len(cases))


if __name__ == "__main__":
    main()
