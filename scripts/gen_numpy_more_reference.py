#!/usr/bin/env python3
"""NumPy reference data for the names of issue 27 that xp composes of its own array operations
(crates/api/src/more/): elementwise functions, shape manipulation and creation, NaN-skipping
reductions and the legacy polynomial functions.

Run from the repository root:  python3 scripts/gen_numpy_more_reference.py
Needs numpy 2.x. Writes tests/data/numpy_more.json: each case is
{"op", "args": [arrays], "params": {...}, "result" | "results" | "error", "tol": [rtol, atol]}.
An "error" case is one where NumPy raises (xp must return an error).
"""
import os
import warnings

import numpy as np

import gen_reference as g

warnings.filterwarnings("ignore")
inf, nan = np.inf, np.nan

TOL = {"float16": [2e-3, 0], "float32": [2e-6, 0], "float64": [1e-13, 0],
       "complex64": [2e-6, 0], "complex128": [1e-13, 0]}


def tol_of(res):
    names = [np.asarray(r).dtype.name for r in (res if isinstance(res, tuple) else (res,))]
    t = [0, 0]
    for n in names:
        r = TOL.get(n, [0, 0])
        t = [max(t[0], r[0]), max(t[1], r[1])]
    return t


CASES = []


def case(op, args, f, tol=None, **params):
    args = [np.asarray(a) for a in args]
    c = {"op": op, "args": [g.arr(a) for a in args], "params": params}
    try:
        res = f(*args)
    except Exception as e:  # NumPy refuses: xp must refuse too
        c["error"] = type(e).__name__ + ": " + str(e)[:100]
        c["tol"] = [0, 0]
        CASES.append(c)
        return
    if isinstance(res, (tuple, list)):
        c["results"] = [g.arr(np.asarray(r)) for r in res]
        res = tuple(np.asarray(r) for r in res)
    else:
        c["result"] = g.arr(np.asarray(res))
    c["tol"] = tol if tol is not None else tol_of(res)
    CASES.append(c)


FLOATS = np.array([-2.5, -1.0, -0.5, -0.0, 0.0, 0.5, 1.0, 3.75, 1e300, -1e-310, nan, inf, -inf])
INTS = np.array([-7, -3, -1, 0, 1, 2, 5, 12, 100])


def elementwise():
    for d in ["float64", "float32", "float16", "int8", "int16", "int64", "uint8", "bool"]:
        x = (FLOATS if d.startswith("float") else INTS).astype(d) if d != "bool" else np.array([True, False])
        for op in ["degrees", "radians", "rad2deg", "deg2rad", "signbit", "isposinf", "isneginf", "modf", "frexp",
                   "spacing", "iscomplex", "isreal"]:
            case(op, [x], getattr(np, op))
    x2 = np.arange(6.0).reshape(2, 3) - 2.5
    for op in ["degrees", "signbit", "modf", "frexp", "spacing"]:
        case(op, [x2], getattr(np, op))
        case(op, [np.array(1.5)], getattr(np, op))
        case(op, [np.zeros((0, 3))], getattr(np, op))
    cx = np.array([1 + 0j, 2 + 1e-20j, 0 - 3j, nan + 0j])
    for d in ["complex128", "complex64"]:
        for op in ["iscomplex", "isreal", "degrees", "signbit", "isposinf", "modf", "frexp", "spacing"]:
            case(op, [cx.astype(d)], getattr(np, op))
    # subnormals, powers of two and the float boundaries
    for d in ["float64", "float32", "float16"]:
        fi = np.finfo(d)
        v = np.array([fi.tiny, fi.tiny / 4, fi.smallest_subnormal, fi.max, -fi.max, 2.0, 0.75, 1 / 3, -1024.0], dtype=d)
        for op in ["frexp", "spacing"]:
            case(op, [v], getattr(np, op))
        case("nextafter", [v, np.array([inf], dtype=d)], np.nextafter)
        case("nextafter", [v, np.array([-inf], dtype=d)], np.nextafter)
        case("nextafter", [v, np.array([0], dtype=d)], np.nextafter)
        s = np.array([0.0, -0.0, 1.0, inf, -inf, nan, 2.0], dtype=d)
        t = np.array([1.0, -1.0, 1.0, 0.0, 0.0, 1.0, nan], dtype=d)
        case("nextafter", [s, t], np.nextafter)
        case("nextafter", [s, s], np.nextafter)
    case("nextafter", [np.array([1, 2], dtype=np.int8), np.array([3], dtype=np.int8)], np.nextafter)
    case("nextafter", [np.array([1j]), np.array([3j])], np.nextafter)

    # binary functions: dtype pairs and broadcasting
    a = np.array([[-7.5, -3.0, -1.0, -0.0, 0.0, 2.0, 5.5, 12.0, nan, inf, -inf, 3.0]])
    b = np.array([[2.0], [-2.0], [0.0], [inf], [nan]])
    for d in ["float64", "float32", "float16"]:
        for op in ["fmod", "divmod", "logaddexp2", "heaviside", "float_power", "nextafter"]:
            case(op, [a.astype(d), b.astype(d)], getattr(np, op))
    ai = np.array([[-7, -3, -1, 0, 2, 5, 12, 100]])
    bi = np.array([[3], [-3], [0], [1], [7]])
    for d in ["int8", "int16", "int32", "int64", "uint8", "uint32", "uint64"]:
        x, y = np.abs(ai).astype(d) if d[0] == "u" else ai.astype(d), np.abs(bi).astype(d) if d[0] == "u" else bi.astype(d)
        for op in ["fmod", "divmod", "gcd", "lcm", "logaddexp2", "heaviside", "float_power"]:
            case(op, [x, y], getattr(np, op))
    case("fmod", [np.array([True, False]), np.array([True, True])], np.fmod)
    case("gcd", [np.array([1.0]), np.array([2.0])], np.gcd)
    case("lcm", [np.array([True]), np.array([True])], np.lcm)
    case("gcd", [np.array([12, 18, 0, 0, -48, 2**40, 17]), np.array([[8], [0], [-30]])], np.gcd)
    case("lcm", [np.array([12, 18, 0, 0, -48, 7, 17], dtype=np.int32), np.array([[8], [0], [-30]], dtype=np.int32)], np.lcm)
    case("gcd", [np.array([12, 18], dtype=np.int8), np.array([8, 27], dtype=np.uint8)], np.gcd)
    case("fmod", [np.array([1j]), np.array([1j])], np.fmod)
    case("logaddexp2", [np.array([1 + 1j]), np.array([1j])], np.logaddexp2)
    case("heaviside", [np.array([1j]), np.array([1j])], np.heaviside)
    case("float_power", [np.array([1 + 1j, 2j], dtype=np.complex64), np.array([2.0], dtype=np.float32)], np.float_power)
    case("float_power", [np.array([-8.0, 4.0]), np.array([1 / 3, 0.5])], np.float_power)
    case("logaddexp2", [np.array([1e308, -1e308, 0.0, -inf, inf]), np.array([1e308, -1e308, -1074.0, -inf, -inf])],
         np.logaddexp2)
    case("divmod", [np.array([True, False]), np.array([True, True])], np.divmod)
    # scalar second operands (weak in NumPy 2 as Rust scalars in xp)
    for d in ["float32", "int8", "int64"]:
        x = np.array([-3, -1, 0, 2, 7]).astype(d)
        case("heaviside_half", [x], lambda v: np.heaviside(v, 0.5))
        case("fmod_3", [x], lambda v: np.fmod(v, 3))
        case("float_power_2", [x], lambda v: np.float_power(v, 2))
    # ldexp: an integer exponent array
    m = np.array([0.5, -1.5, 0.0, -0.0, 3.0, 1e-310, 1e300, nan, inf, 1.0, 1.0, 1.0])
    e = np.array([1, 3, 5, -5, -1080, 1100, -2000, 2, 7, 1023, 1024, -1074])
    for d in ["float64", "float32", "float16", "int8", "int64"]:
        for ed in ["int64", "int32", "int8"]:
            ee = np.clip(e, -128, 127) if ed == "int8" else e
            if d.startswith("int"):
                mm = np.array([1, -3, 0, 0, 3, 0, 7, 1, 2, 1, 1, 1], dtype=d)
            else:
                mm = m.astype(d)
            case("ldexp", [mm, ee.astype(ed)], np.ldexp)
    case("ldexp", [np.array([1.0]), np.array([1.5])], np.ldexp)
    case("ldexp", [np.array([1j]), np.array([1])], np.ldexp)
    # real_if_close and isrealobj
    for d in ["complex128", "complex64"]:
        case("real_if_close", [np.array([1 + 1e-15j, 2 - 1e-14j]).astype(d)], np.real_if_close)
        case("real_if_close", [np.array([1 + 1e-3j, 2]).astype(d)], np.real_if_close)
        case("real_if_close_tol", [np.array([1 + 1e-3j, 2]).astype(d)], lambda v: np.real_if_close(v, tol=0.01), tol_param=0.01)
        case("isrealobj", [np.array([1 + 0j]).astype(d)], lambda v: np.array(np.isrealobj(v)))
    case("real_if_close", [np.array([1.5, 2.0])], np.real_if_close)
    case("isrealobj", [np.array([1.5])], lambda v: np.array(np.isrealobj(v)))


def shapes():
    for shape in [(), (3,), (2, 3), (2, 3, 2)]:
        x = np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape)
        for op in ["atleast_1d", "atleast_2d", "atleast_3d", "fliplr", "flipud", "diagflat", "trim_zeros",
                   "diag_indices_from", "tril_indices_from", "triu_indices_from", "resize_2x5", "resize_0"]:
            f = {"resize_2x5": lambda v: np.resize(v, (2, 5)), "resize_0": lambda v: np.resize(v, (0, 3)),
                 "diag_indices_from": lambda v: np.diag_indices_from(v) if v.ndim >= 2 and len(set(v.shape)) == 1
                 else (_ for _ in ()).throw(ValueError("not square")),
                 "trim_zeros": lambda v: np.trim_zeros(v) if v.ndim == 1 else (_ for _ in ()).throw(ValueError("1-D")),
                 }.get(op) or getattr(np, op)
            case(op, [x], f)
    sq = np.arange(27.0).reshape(3, 3, 3)
    case("diag_indices_from", [sq], np.diag_indices_from)
    case("diag_indices_from", [np.zeros((2, 2))], np.diag_indices_from)
    for k in [-1, 0, 2]:
        case("tril_indices_from", [np.zeros((3, 4))], lambda v: np.tril_indices_from(v, k), k=k)
        case("triu_indices_from", [np.zeros((4, 3))], lambda v: np.triu_indices_from(v, k), k=k)
        case("diagflat", [np.array([[1.5, 2], [3, 4]])], lambda v: np.diagflat(v, k), k=k)
    for z in [np.array([0, 0, 1, 0, 2, 0, 0]), np.array([0.0, 0.0]), np.array([], dtype=np.float32),
              np.array([1 + 0j, 0j]), np.array([False, True, False])]:
        for trim in ["fb", "f", "b"]:
            case("trim_zeros", [z], lambda v: np.trim_zeros(v, trim), trim=trim)
    case("resize_2x5", [np.array([], dtype=np.float32)], lambda v: np.resize(v, (2, 5)))
    case("resize_2x5", [np.array([1 + 2j, 3j])], lambda v: np.resize(v, (2, 5)))

    a = np.arange(12.0).reshape(3, 4)
    for ax in [None, 0, 1, -1, 2]:
        case("append", [a, np.arange(4, dtype=np.int8).reshape(1, 4)], lambda u, v: np.append(u, v, axis=ax), axis=ax)
        case("append", [a, np.full((3, 1), 7, dtype=np.float32)], lambda u, v: np.append(u, v, axis=ax), axis=ax)
        for obj in [1, -1, 0, 4, 3, 5, -5, [1], [0, 2, 2], [3, -1, 0], [7]]:
            case("delete", [a], lambda v: np.delete(v, obj, axis=ax), axis=ax, obj=obj)
            for vals in [np.array(9.5), np.array([7, 8, 9]), np.array([[1.0], [2.0], [3.0]]), np.array([5, 6, 7, 8])]:
                case("insert", [a, vals], lambda u, v: np.insert(u, obj, v, axis=ax), axis=ax, obj=obj)
    case("insert", [np.array([1, 2, 3], dtype=np.int16), np.array([7.9])], lambda u, v: np.insert(u, 1, v), axis=None, obj=1)
    case("insert", [np.array(5), np.array([1])], lambda u, v: np.insert(u, 0, v, axis=0), axis=0, obj=0)
    case("delete", [np.array([], dtype=np.int8)], lambda v: np.delete(v, [], axis=0), axis=0, obj=[])
    case("append", [np.array(1.0), np.array([2.0])], lambda u, v: np.append(u, v), axis=None)

    v1, v2 = np.array([1, 2, 3]), np.array([4.5, 5.5, 6.5])
    m1 = np.arange(6).reshape(3, 2)
    case("column_stack", [v1, v2], lambda u, v: np.column_stack((u, v)))
    case("column_stack", [v1, m1], lambda u, v: np.column_stack((u, v)))
    case("column_stack", [np.array(1), np.array(2.0)], lambda u, v: np.column_stack((u, v)))
    case("column_stack", [v1, np.arange(4)], lambda u, v: np.column_stack((u, v)))
    case("dstack", [v1, v2], lambda u, v: np.dstack((u, v)))
    case("dstack", [m1, m1], lambda u, v: np.dstack((u, v)))
    case("dstack", [np.array(1), np.array(2)], lambda u, v: np.dstack((u, v)))
    case("dstack", [np.arange(8).reshape(2, 2, 2), m1[:2]], lambda u, v: np.dstack((u, v)))
    for shape in [(), (6,), (4, 6), (2, 4, 6)]:
        x = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
        for op in ["hsplit", "vsplit", "dsplit"]:
            for sec in [2, 3, [1, 3], [-1]]:
                case(op, [x], lambda v: getattr(np, op)(v, sec), sections=sec)
    r = np.arange(24).reshape(2, 3, 4)
    for k in [-3, -1, 0, 1, 2, 3, 4, 5]:
        for axes in [[0, 1], [1, 0], [0, 2], [-1, 1], [2, -1], [1, 1], [0, 3], [0, -3]]:
            case("rot90", [r], lambda v: np.rot90(v, k, axes), k=k, axes=axes)
        case("rot90", [np.arange(6).reshape(2, 3)], lambda v: np.rot90(v, k), k=k, axes=[0, 1])
    case("rot90", [np.arange(3)], lambda v: np.rot90(v), k=1, axes=[0, 1])

    for n, m, k in [(3, None, 0), (3, 5, 1), (4, 2, -1), (0, 3, 0), (2, 2, -5), (2, 3, 10)]:
        for d in [None, "int32", "bool", "complex64"]:
            case("tri", [], lambda: np.tri(n, m, k, dtype=d or float), n=n, m=m, k=k, dtype=d)
    for x in [np.array([1, 2, 3]), np.array([1.5, -2, 0.5], dtype=np.float32), np.array([2, 3], dtype=np.uint8),
              np.array([True, False]), np.array([1 + 1j, 2], dtype=np.complex64), np.array([], dtype=np.float64),
              np.array(3.0), np.ones((2, 2))]:
        for n in [None, 0, 1, 4]:
            for inc in [False, True]:
                case("vander", [x], lambda v: np.vander(v, n, inc), n=n, increasing=inc)
    for start, stop, num, ep in [(1, 1000, 4, True), (1, 1000, 3, False), (-1, -1000, 4, True), (2, 3, 1, True),
                                 (2, 3, 0, True), (1e-3, 1e5, 9, True), (0, 10, 3, True), (-1, 1, 3, True),
                                 (5, 0.5, 6, True), (8, 8, 3, True)]:
        for d in [None, "float32", "int64", "complex128"]:
            if start * stop < 0 and d in ("int64", "complex128"):
                continue  # NaN cast to int64 is platform-defined; a complex dtype takes NumPy's complex path
            case("geomspace", [], lambda: np.geomspace(start, stop, num, endpoint=ep, dtype=d), start=float(start),
                 stop=float(stop), num=num, endpoint=ep, dtype=d)
    for shape in [(3, 3), (2, 5), (5, 2), (7, 3), (3, 3, 3), (3, 4, 3), (4,), (0, 0)]:
        for d in ["float64", "int32"]:
            for val in [np.array(9), np.array([1.5, 2.5])]:
                for wrap in [False, True]:
                    def fd(v, w=val, wr=wrap, sh=shape, dd=d):
                        a = np.zeros(sh, dtype=dd)
                        np.fill_diagonal(a, w, wrap=wr)
                        return a
                    case("fill_diagonal", [val], fd, shape=list(shape), dtype=d, wrap=wrap)
    for shapes in [[[3, 1], [4]], [[2, 1, 3], [5, 1], []], [[0, 1], [1, 4]], [[3], [4]], [[2, 3], [3, 1, 1]], []]:
        try:
            res = np.array(np.broadcast_shapes(*[tuple(s) for s in shapes]), dtype=np.int64)
            CASES.append({"op": "broadcast_shapes", "args": [], "params": {"shapes": shapes}, "result": g.arr(res),
                          "tol": [0, 0]})
        except ValueError as e:
            CASES.append({"op": "broadcast_shapes", "args": [], "params": {"shapes": shapes}, "error": str(e),
                          "tol": [0, 0]})


def reductions():
    x = np.array([[1.0, nan, 3.0, -2.0], [nan, nan, nan, nan], [4.0, 0.5, nan, 7.0]])
    y = np.array([[1.0, nan, 3.0], [2.0, 5.0, nan], [-1.0, 4.0, 0.0]])
    c = np.array([[1 + 2j, nan + 0j, 3 - 1j], [2j, 5, 1]])
    for d in ["float64", "float32", "float16"]:
        for axis in [None, 0, 1, -1, -2]:
            for arr in [x, y]:
                a = arr.astype(d)
                case("nanprod", [a], lambda v: np.nanprod(v, axis=axis), axis=axis)
                for ddof in [0, 1, 3]:
                    for kd in [False, True]:
                        case("nanvar", [a], lambda v: np.nanvar(v, axis=axis, ddof=ddof, keepdims=kd), axis=axis,
                             ddof=ddof, keepdims=kd, tol=[2e-3, 1e-3] if d == "float16" else None)
                        case("nanstd", [a], lambda v: np.nanstd(v, axis=axis, ddof=ddof, keepdims=kd), axis=axis,
                             ddof=ddof, keepdims=kd, tol=[2e-3, 1e-3] if d == "float16" else None)
                for kd in [False, True]:
                    case("nanargmax", [a], lambda v: np.nanargmax(v, axis=axis, keepdims=kd), axis=axis, keepdims=kd)
                    case("nanargmin", [a], lambda v: np.nanargmin(v, axis=axis, keepdims=kd), axis=axis, keepdims=kd)
    for axis in [None, 0, 1]:
        case("nanprod", [np.arange(1, 7, dtype=np.int8).reshape(2, 3)], lambda v: np.nanprod(v, axis=axis), axis=axis)
        case("nanvar", [np.arange(6, dtype=np.int32).reshape(2, 3)], lambda v: np.nanvar(v, axis=axis), axis=axis,
             ddof=0, keepdims=False)
        case("nanargmax", [np.array([[1, 5, 5], [7, 0, 7]], dtype=np.uint8)], lambda v: np.nanargmax(v, axis=axis),
             axis=axis, keepdims=False)
        case("nanvar", [c], lambda v: np.nanvar(v, axis=axis), axis=axis, ddof=0, keepdims=False)
        case("nanstd", [c.astype(np.complex64)], lambda v: np.nanstd(v, axis=axis), axis=axis, ddof=0, keepdims=False)
        case("nanprod", [c], lambda v: np.nanprod(v, axis=axis), axis=axis)
    for axis in [None, 0, 1, 2, -3]:
        e = np.zeros((0, 3))
        case("nanargmax", [e], lambda v: np.nanargmax(v, axis=axis), axis=axis, keepdims=False)
        case("nanprod", [e], lambda v: np.nanprod(v, axis=axis), axis=axis)
        case("nanvar", [e], lambda v: np.nanvar(v, axis=axis), axis=axis, ddof=0, keepdims=False)
    for op in ["nanargmax", "nanargmin", "nanprod", "nanvar", "nanstd"]:
        case(op, [np.array(nan)], lambda v: getattr(np, op)(v), axis=None, ddof=0, keepdims=False)
        case(op, [np.array(2.5)], lambda v: getattr(np, op)(v), axis=None, ddof=0, keepdims=False)


def sorted_roots(v):
    """np.roots in a canonical order: by the real part rounded to 6 decimals, then the imaginary
    part (the tests order xp's roots the same way: eigenvalue order is the solver's own)."""
    r = np.roots(v)
    return r[np.lexsort((r.imag, np.round(r.real, 6)))]


def polys():
    ps = [np.array([1.0, -3.0, 2.0]), np.array([2, 0, -1, 5]), np.array([3.5], dtype=np.float32), np.array([], dtype=float),
          np.array([1 + 1j, 2]), np.array([0, 0, 1.0, 0, 0]), np.array([0.0, 0.0]), np.array([1, 2], dtype=np.int8)]
    xs = [np.array([0.0, 1.5, -2.0, nan]), np.array([[1, 2], [3, -4]]), np.array(2.0, dtype=np.float32),
          np.array([1j, 2])]
    for p in ps:
        for x in xs:
            case("polyval", [p, x], np.polyval)
        for q in ps:
            case("polyadd", [p, q], np.polyadd)
            case("polysub", [p, q], np.polysub)
            case("polymul", [p, q], np.polymul)
        for m in [0, 1, 2, 5]:
            case("polyder", [p], lambda v: np.polyder(v, m), m=m)
            for k in [[], [2.0], [1.0, -1.0, 0.5, 3.0, 4.0, 5.0]]:
                case("polyint", [p], lambda v: np.polyint(v, m, k if k else None), m=m, k=k)
        case("roots", [p], sorted_roots, tol=[1e-6, 1e-6])
        case("poly", [p], np.poly, tol=[1e-12, 1e-12])
    case("polyint", [np.array([1.0, 2.0])], lambda v: np.polyint(v, 3, [1.0, 2.0]), m=3, k=[1.0, 2.0])
    case("polyval", [np.ones((2, 2)), np.array([1.0])], np.polyval)
    case("roots", [np.ones((2, 2))], np.roots)
    case("roots", [np.array([1.0, inf, 2.0])], np.roots)
    for r in [np.array([1, 2, 3]), np.array([1 + 2j, 1 - 2j, 3]), np.array([1j, 2]), np.array([0.5, -0.25], dtype=np.float32),
              np.array([[1.0, 2.0], [3.0, 4.0]]), np.ones((2, 3)), np.array([[[1.0]]]), np.array(2.0)]:
        case("poly", [r], np.poly, tol=[1e-12, 1e-12])
    rng = np.random.default_rng(27)
    for deg in [0, 1, 2, 3, 5]:
        for n in [1, 6, 20]:
            x = np.linspace(-2, 3, n)
            y = 1.5 * x**3 - x + 0.3 + 0.1 * rng.standard_normal(n)
            case("polyfit", [x, y], lambda u, v: np.polyfit(u, v, deg), deg=deg, tol=[1e-8, 1e-9])
            case("polyfit", [x, np.stack([y, 2 * y + 1], axis=1)], lambda u, v: np.polyfit(u, v, deg), deg=deg,
                 tol=[1e-8, 1e-9])
    case("polyfit", [np.arange(5, dtype=np.int32), np.arange(5, dtype=np.int32) ** 2], lambda u, v: np.polyfit(u, v, 2),
         deg=2, tol=[1e-8, 1e-9])
    case("polyfit", [np.ones((2, 2)), np.ones(2)], lambda u, v: np.polyfit(u, v, 1), deg=1)
    case("polyfit", [np.array([]), np.array([])], lambda u, v: np.polyfit(u, v, 1), deg=1)
    case("polyfit", [np.arange(3.0), np.arange(4.0)], lambda u, v: np.polyfit(u, v, 1), deg=1)
    case("polyfit", [np.arange(3.0), np.ones((3, 2, 2))], lambda u, v: np.polyfit(u, v, 1), deg=1)


def extra():
    for u, v in [([1.0, -3.0, 2.0], [1.0, -1.0]), ([3, 5, 2], [2, 1]), ([1.0], [2.0, 1.0]), ([1 + 1j, 2, 3], [1j, 1]),
                 ([1.0, 2.0, 3.0, 4.0, 5.0], [1.0, 0.5, 0.25]), ([2.0, 4.0], [0.0, 1.0]), ([], [1.0])]:
        case("polydiv", [np.array(u), np.array(v)], np.polydiv, tol=[1e-12, 1e-12])
    for a in [np.array([3, 1, 2], dtype=np.int8), np.array([[2.5, nan, -1.0], [0, 1, 3]], dtype=np.float32),
              np.array([1 + 2j, 1 - 2j, 0.5 + 0j, nan]), np.array([True, False]), np.array([7, 1], dtype=np.uint64),
              np.array([], dtype=np.int16)]:
        case("sort_complex", [a], np.sort_complex)
    x = np.arange(24).reshape(2, 3, 4)
    for ax in [0, 1, 2, -1, 3]:
        case("unstack", [x], lambda v: np.unstack(v, axis=ax), axis=ax)
    case("unstack", [np.array(1.0)], lambda v: np.unstack(v), axis=0)
    rng = np.random.default_rng(5)
    m = rng.standard_normal((2, 3, 4))
    vec = rng.standard_normal((4,))
    case("matvec", [m, vec], np.matvec)
    case("matvec", [m.astype(np.float32), np.arange(8).reshape(2, 1, 4)], np.matvec)
    case("matvec", [m, np.ones(3)], np.matvec)
    cm = m + 1j * rng.standard_normal((2, 3, 4))
    cv = rng.standard_normal(3) + 1j * rng.standard_normal(3)
    case("vecmat", [cv, cm], np.vecmat)
    case("vecmat", [np.arange(3), m], np.vecmat)
    case("vecmat", [np.ones(4), m], np.vecmat)
    for a in [np.array([1.0, 2.0]), np.array([1.0, nan]), np.array([inf]), np.array([1, 2]), np.array([1 + 1j, inf])]:
        case("asarray_chkfinite", [a], np.asarray_chkfinite)
    base = np.arange(12.0).reshape(3, 4)
    for mask, vals in [(base % 3 == 0, np.array([-1.0, -2.0])), (base > 100, np.array([1.0])),
                       (base > 4, np.array([7, 8, 9], dtype=np.int64)), (np.ones(12, bool), np.array([0.5]))]:
        def pm(a, mk, vl):
            a = a.copy()
            np.putmask(a, mk, vl)
            return a
        case("putmask", [base, mask, vals], pm)
    ph = np.cumsum(rng.uniform(-4, 4, size=(3, 7)), axis=1)
    for ax in [-1, 0, 1]:
        for discont in [None, 1.0, 5.0]:
            for period in [2 * np.pi, 360.0, 6.0]:
                case("unwrap", [ph], lambda v: np.unwrap(v, discont, ax, period=period), axis=ax, discont=discont,
                     period=period)
    case("unwrap", [np.array([0, 5, 1, 9], dtype=np.int32)], lambda v: np.unwrap(v), axis=-1, discont=None,
         period=2 * np.pi)
    case("unwrap", [np.array([0.0, 3.14159, -3.14159, 0.0, np.pi, 2 * np.pi + 0.1])], lambda v: np.unwrap(v), axis=-1,
         discont=None, period=2 * np.pi)


def info():
    for d in ["float16", "float32", "float64", "complex64", "complex128", "int8"]:
        try:
            f = np.finfo(d)
            res = np.array([f.eps, f.epsneg, f.max, f.min, f.tiny, f.smallest_subnormal, f.resolution, f.precision,
                            f.bits, f.nmant, f.nexp, f.maxexp, f.minexp], dtype=np.float64)
            CASES.append({"op": "finfo", "args": [], "params": {"dtype": d}, "result": g.arr(res), "tol": [0, 0]})
        except ValueError as e:
            CASES.append({"op": "finfo", "args": [], "params": {"dtype": d}, "error": str(e), "tol": [0, 0]})
    for d in ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bool", "float32"]:
        try:
            i = np.iinfo(d)
            res = [np.array([i.min], dtype=np.int64), np.array([i.max], dtype=np.uint64), np.array([i.bits])]
            CASES.append({"op": "iinfo", "args": [], "params": {"dtype": d}, "results": [g.arr(r) for r in res],
                          "tol": [0, 0]})
        except ValueError as e:
            CASES.append({"op": "iinfo", "args": [], "params": {"dtype": d}, "error": str(e), "tol": [0, 0]})
    groups = [["int8", "float16"], ["float32"], ["float32", "complex64"], ["float64", "complex64"], ["uint8"],
              ["float16"], ["bool"], ["int64", "float32"]]
    for grp in groups:
        arrs = [np.zeros(1, dtype=d) for d in grp]
        case("common_type", arrs, lambda *a: np.zeros(1, dtype=np.common_type(*a)))
    for d in ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]:
        info = np.iinfo(d)
        x = np.array([0, 1, 2, 3, 7, 100, info.max, info.min, info.max // 3, info.min + 1] if d[0] == "i" else
                     [0, 1, 2, 3, 7, 100, info.max, info.max // 3, info.max - 1], dtype=d)
        case("bitwise_count", [x], np.bitwise_count)
    case("bitwise_count", [np.array([True, False])], np.bitwise_count)
    case("bitwise_count", [np.array([1.0])], np.bitwise_count)
    for n in [0, 1, 4]:
        for k in [-1, 0, 2]:
            case("mask_indices_triu", [], lambda: np.mask_indices(n, np.triu, k), n=n, k=k)
            case("mask_indices_tril", [], lambda: np.mask_indices(n, np.tril, k), n=n, k=k)
    data = np.array([[1.0, 2.5, -3.0], [7.0, 0.0, 4.0]])
    for bins in [1, 4, 10]:
        for rng_ in [None, (0.0, 5.0), (-1.0, 1.0)]:
            for d in ["float64", "float32", "int32"]:
                case("histogram_bin_edges", [data.astype(d)],
                     lambda v: np.histogram_bin_edges(v, bins, range=rng_), bins=bins, range=rng_)
    case("histogram_bin_edges", [np.array([2.0, 2.0])], lambda v: np.histogram_bin_edges(v, 2), bins=2, range=None)
    case("histogram_bin_edges", [np.array([], dtype=float)], lambda v: np.histogram_bin_edges(v, 3), bins=3,
         range=None)
    case("histogram_bin_edges", [np.array([1.0])], lambda v: np.histogram_bin_edges(v, 3, range=(2.0, 1.0)), bins=3,
         range=(2.0, 1.0))


def apply():
    funcs = {"sum": np.sum, "cumsum": np.cumsum, "outer": lambda v: np.outer(v, v), "first2": lambda v: v[:2]}
    x = np.arange(24.0).reshape(2, 3, 4) - 5
    for name, f in funcs.items():
        for ax in [0, 1, 2, -1, 3]:
            case("apply_along_axis", [x], lambda v: np.apply_along_axis(f, ax, v), func=name, axis=ax)
        case("apply_along_axis", [np.arange(5, dtype=np.int32)], lambda v: np.apply_along_axis(f, 0, v), func=name,
             axis=0)
    case("apply_along_axis", [np.zeros((0, 3))], lambda v: np.apply_along_axis(np.sum, 1, v), func="sum", axis=1)
    for axes in [[0], [0, 2], [-1], [1, 1], [3]]:
        case("apply_over_axes", [x], lambda v: np.apply_over_axes(np.sum, v, axes), axes=axes)
    xs = np.array([-3.0, -1.0, 0.0, 1.5, 2.0, 4.0])
    for d in ["float64", "int32"]:
        v = xs.astype(d)
        case("piecewise_values", [v], lambda u: np.piecewise(u, [u < 0, u > 1], [-1.0, 1.0]))
        case("piecewise_otherwise", [v], lambda u: np.piecewise(u, [u < 0, u > 1], [lambda t: -t, 7.0, lambda t: t * t]))
        case("piecewise_overlap", [v], lambda u: np.piecewise(u, [u < 2, u > -2], [lambda t: t + 10, lambda t: t * 0 + 3]))
    a = np.arange(4).reshape(2, 2)
    case("block", [a, np.array([[9], [8]]), np.array([7.5, 6.5]), np.array([1.0])],
         lambda p, q, r, t: np.block([[p, q], [r[None, :], t[None, :]]]))
    case("block", [np.ones((2, 2, 2)), np.zeros((2, 2, 1)), np.arange(6).reshape(2, 1, 3), np.ones((1, 3))],
         lambda p, q, r, t: np.block([[p, q], [r, t]]))
    case("block", [a, np.ones((3, 3)), a, a], lambda p, q, r, t: np.block([[p, q], [r, t]]))


def main():
    elementwise()
    shapes()
    reductions()
    polys()
    extra()
    info()
    apply()
    g.write_cases("numpy_more", CASES)


if __name__ == "__main__":
    main()
