#!/usr/bin/env python3
"""Generate the NumPy reference data that xp's equivalence tests compare against.

Run from the repository root:  python3 scripts/gen_reference.py
Needs numpy (2.x) and ml_dtypes (for bfloat16). Writes tests/data/*.json; the tests themselves
need no Python. Floats are written as strings (repr) so that nan and inf survive JSON.
"""
import json
import sys
import os
import warnings

import ml_dtypes
import numpy as np

warnings.filterwarnings("ignore")
OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "data")
BF16 = np.dtype(ml_dtypes.bfloat16)
NAMES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
         "float16", "bfloat16", "float32", "float64", "complex64", "complex128"]


def dt(name):
    return BF16 if name == "bfloat16" else np.dtype(name)


def kind(d):
    """NumPy's dtype.kind, with bfloat16 (kind 'V' in ml_dtypes) counted as a float."""
    return "f" if d == BF16 else d.kind


def name_of(d):
    return "bfloat16" if d == BF16 else np.dtype(d).name


def enc(v, d):
    """One element as JSON: bools and ints exactly, floats as repr strings, complex as pairs."""
    if kind(d) == "b":
        return bool(v)
    if kind(d) in "iu":
        return int(v)
    if kind(d) == "c":
        return [repr(float(v.real)), repr(float(v.imag))]
    if kind(d) != "f":
        raise TypeError(f"unexpected dtype {d}")
    return repr(float(v))


def arr(a):
    a = np.asarray(a)
    return {"dtype": name_of(a.dtype), "shape": list(a.shape), "data": [enc(v, a.dtype) for v in a.ravel()]}


def coords(c, a):
    """The case dict `c` with the sparse matrix `a` as coordinates: shape, data, row, col (int64)."""
    import scipy.sparse as sp
    a = sp.coo_array(a)
    c.update({"shape": list(a.shape), "data": arr(a.data), "row": arr(a.row.astype(np.int64)), "col": arr(a.col.astype(np.int64))})
    return c


def write_cases(name, cases):
    """tests/data/{name}.json: the cases, compact, with the NumPy version that made them."""
    with open(os.path.join(OUT, f"{name}.json"), "w") as fh:
        json.dump({"generator": "scripts/" + os.path.basename(sys.argv[0]), "numpy": np.__version__, "cases": cases}, fh, separators=(",", ":"))
    print(f"{name}: {len(cases)} cases")


def values(name, n=8, nan=True):
    d = dt(name)
    if kind(d) == "b":
        v = [False, True, True, False, True, False, False, True][:n]
    elif kind(d) == "i":
        info = np.iinfo(d)
        v = [-3, -1, 0, 1, 2, 5, 7, info.max, info.min, 100 if info.max >= 100 else 3][:n]
    elif kind(d) == "u":
        info = np.iinfo(d)
        v = [0, 1, 2, 3, 5, 7, info.max, 100 if info.max >= 100 else 4][:n]
    elif kind(d) == "f":
        v = [-2.5, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 3.75]
        if nan:
            v += [np.nan, np.inf, -np.inf]
    else:
        v = [1 + 2j, -1.5 + 0.5j, 0j, 2 - 3j, 0.5 - 0.25j, -1 - 1j, 3 + 0j, 0.25 + 1.5j]
    return np.array(v, dtype=d)


def call(f):
    try:
        r = f()
        return {"result": arr(r)} if not isinstance(r, (list, tuple)) else {"results": [arr(x) for x in r]}
    except Exception as e:  # NumPy refused: the tests expect an error too
        return {"error": type(e).__name__ + ": " + str(e)}


UNARY = {
    "negative": np.negative, "positive": np.positive, "absolute": np.absolute, "sign": np.sign,
    "reciprocal": np.reciprocal, "exp": np.exp, "exp2": np.exp2, "expm1": np.expm1, "log": np.log,
    "log2": np.log2, "log10": np.log10, "log1p": np.log1p, "sqrt": np.sqrt, "cbrt": np.cbrt,
    "square": np.square, "sin": np.sin, "cos": np.cos, "tan": np.tan, "arcsin": np.arcsin,
    "arccos": np.arccos, "arctan": np.arctan, "sinh": np.sinh, "cosh": np.cosh, "tanh": np.tanh,
    "arcsinh": np.arcsinh, "arccosh": np.arccosh, "arctanh": np.arctanh, "floor": np.floor,
    "ceil": np.ceil, "trunc": np.trunc, "rint": np.rint, "isnan": np.isnan, "isinf": np.isinf,
    "isfinite": np.isfinite, "logical_not": np.logical_not, "invert": np.invert,
    "conjugate": np.conjugate, "real": np.real, "imag": np.imag, "angle": np.angle,
}
BINARY = ["add", "subtract", "multiply", "divide", "floor_divide", "remainder", "power", "maximum",
          "minimum", "fmax", "fmin", "arctan2", "hypot", "logaddexp", "copysign", "equal", "not_equal",
          "less", "less_equal", "greater", "greater_equal", "logical_and", "logical_or", "logical_xor",
          "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift"]


def second(name, op):
    """The right operand: small nonnegative exponents/shifts, zeros included for division."""
    d = dt(name)
    a = values(name)
    if op in ("power", "left_shift", "right_shift") and kind(d) in "iu":
        return np.array([0, 1, 2, 3, 1, 2, 0, 1][: len(a)], dtype=d)
    if kind(d) == "b":
        return np.array([True, True, False, False, True, True, False, False][: len(a)])
    return a[::-1].copy()


def unary_cases():
    cases = []
    for op, f in UNARY.items():
        for n in NAMES:
            a = values(n)
            cases.append({"op": op, "inputs": [arr(a)], **call(lambda: f(a))})
    return cases


def binary_cases():
    cases = []
    pairs = [(n, n) for n in NAMES] + [("int8", "uint8"), ("int32", "float32"), ("float16", "int16"),
                                        ("bool", "int8"), ("complex64", "float64"), ("uint64", "int64"),
                                        ("uint8", "float16"), ("int16", "bfloat16")]
    for op in BINARY:
        f = getattr(np, op)
        for x, y in pairs:
            a, b = values(x), second(y, op)
            n = min(len(a), len(b))
            a, b = a[:n], b[:n]
            if "bfloat16" in (x, y) and x != y:
                continue  # ml_dtypes defines no mixed bfloat16 loops for most ops
            cases.append({"op": op, "inputs": [arr(a), arr(b)], **call(lambda: f(a, b))})
        # broadcasting: (3,1) with (4,)
        a = values("float32")[:3].reshape(3, 1)
        b = values("float32")[:4]
        cases.append({"op": op, "inputs": [arr(a), arr(b)], **call(lambda: f(a, b))})
    return cases


SCALARS = {"bool": True, "int": 3, "negint": -1, "bigint": 300, "float": 1.5, "complex": 1 + 2j}


def scalar_json(s):
    if isinstance(s, bool):
        return {"bool": s}
    if isinstance(s, int):
        return {"int": s}
    if isinstance(s, float):
        return {"float": repr(s)}
    return {"complex": [repr(s.real), repr(s.imag)]}


def weak_cases():
    cases = []
    for n in NAMES:
        a = values(n, nan=False)
        for k, s in SCALARS.items():
            for op in ("add", "multiply", "less"):
                f = getattr(np, op)
                cases.append({"op": op, "inputs": [arr(a)], "scalar": scalar_json(s), **call(lambda: f(a, s))})
    # `array ** scalar` as the operator computes it: NumPy's fast paths (square for 2, reciprocal
    # for -1, sqrt for 0.5 on float and complex arrays; sqrt differs from power at -0 and -inf)
    for n in NAMES:
        a = values(n)
        if kind(a.dtype) == "f":
            a = np.append(a, np.array(-0.0, dtype=a.dtype))
        for s in (2, -1, 0.5, 2.0, 3):
            with np.errstate(all="ignore"):
                cases.append({"op": "power", "inputs": [arr(a)], "scalar": scalar_json(s), **call(lambda: a ** s)})
    return cases


def promotion_table():
    rows = []
    for x in NAMES:
        for y in NAMES:
            try:
                r = name_of(np.promote_types(dt(x), dt(y)))
                src = "numpy"
            except Exception:
                r, src = None, "none"  # ml_dtypes has no common dtype: xp's documented extension applies
            rows.append({"a": x, "b": y, "result": r, "source": src})
    return rows


def reduction_cases():
    cases = []
    ops = {
        "sum": lambda a, ax, kd: np.sum(a, axis=ax, keepdims=kd),
        "prod": lambda a, ax, kd: np.prod(a, axis=ax, keepdims=kd),
        "mean": lambda a, ax, kd: np.mean(a, axis=ax, keepdims=kd),
        "var0": lambda a, ax, kd: np.var(a, axis=ax, keepdims=kd),
        "std1": lambda a, ax, kd: np.std(a, axis=ax, keepdims=kd, ddof=1),
        "min": lambda a, ax, kd: np.min(a, axis=ax, keepdims=kd),
        "max": lambda a, ax, kd: np.max(a, axis=ax, keepdims=kd),
        "ptp": lambda a, ax, kd: np.ptp(a, axis=ax, keepdims=kd),
        "all": lambda a, ax, kd: np.all(a, axis=ax, keepdims=kd),
        "any": lambda a, ax, kd: np.any(a, axis=ax, keepdims=kd),
        "count_nonzero": lambda a, ax, kd: np.count_nonzero(a, axis=ax, keepdims=kd),
        "nansum": lambda a, ax, kd: np.nansum(a, axis=ax, keepdims=kd),
        "nanmean": lambda a, ax, kd: np.nanmean(a, axis=ax, keepdims=kd),
        "nanmax": lambda a, ax, kd: np.nanmax(a, axis=ax, keepdims=kd),
        "nanmin": lambda a, ax, kd: np.nanmin(a, axis=ax, keepdims=kd),
    }
    rng = np.random.default_rng(7)
    for n in NAMES:
        d = dt(n)
        if kind(d) == "b":
            base = rng.random((3, 4, 5)) > 0.4
        elif kind(d) in "iu":
            base = rng.integers(0 if kind(d) == "u" else -4, 5, (3, 4, 5)).astype(d)
        elif kind(d) == "f":
            base = (rng.integers(-8, 9, (3, 4, 5)) / 4).astype(d)
        else:
            base = (rng.integers(-8, 9, (3, 4, 5)) / 4 + 1j * rng.integers(-8, 9, (3, 4, 5)) / 4).astype(d)
        small = base[:, :2, :3]  # products that stay exact
        for op, f in ops.items():
            if op.startswith("nan") and kind(d) == "f":
                a = base.copy()
                a[0, 1, 2] = np.nan
                a[2, :, 4] = np.nan
            else:
                a = small if op == "prod" else base
            for ax, kd in [(None, False), (0, False), (1, True), (-1, False), ((0, 2), False), ((0, 1, 2), True)]:
                if d == BF16 and op in ("var0", "std1", "nanmean", "mean", "ptp"):
                    continue
                if d == BF16 and op.startswith("nan"):
                    # ml_dtypes' bfloat16 has kind 'V', so NumPy's nan-functions do not see a float:
                    # compute through float32 and round back.
                    g = lambda: f(a.astype(np.float32), ax, kd).astype(BF16)
                else:
                    g = lambda: f(a, ax, kd)
                cases.append({"op": op, "axis": ax if not isinstance(ax, tuple) else list(ax), "keepdims": kd,
                              "inputs": [arr(a)], **call(g)})
        for op in ("argmax", "argmin"):
            a = base.copy()
            for ax in (None, 0, 1, -1):
                cases.append({"op": op, "axis": ax, "keepdims": False, "inputs": [arr(a)],
                              **call(lambda: getattr(np, op)(a, axis=ax))})
        for op in ("cumsum", "cumprod"):
            a = small
            for ax in (None, 0, 2):
                cases.append({"op": op, "axis": ax, "keepdims": False, "inputs": [arr(a)],
                              **call(lambda: getattr(np, op)(a, axis=ax))})
    return cases


def repr_cases():
    arrays = [
        np.array([1, 2, 3]), np.array([1, 2, 3], dtype=np.int8), np.array([0.1, 1 / 3]),
        np.array([1.0, 2.5], dtype=np.float32), np.array([-1.0, 2.0]), np.array([1e-5, 1.0]),
        np.array([1e10, 1.0]), np.array([np.nan, 1.5]), np.array([np.nan, 10.5, -np.inf]),
        np.array([True, False]), np.array([1 + 2j, 3 - 4j]), np.array([[1.0, 2.0], [3.0, 4.0]]),
        np.arange(24).reshape(2, 3, 4), np.array([], dtype=np.float32), np.array(1.5),
        np.array(3, dtype=np.int8), np.arange(2000.0), np.array([0.1, 0.2], dtype=np.float16),
        np.linspace(0, 1, 30), np.array([[0.5, -1.25], [100.0, 3.0]], dtype=np.float32),
        np.array([1.0, 2.0], dtype=np.complex64), np.array([1e-10, 1.0, 1e3]),
    ]
    return [{"input": arr(a), "repr": repr(a)} for a in arrays]


def idx_json(e):
    if e is None:
        return {"new": True}
    if e is Ellipsis:
        return {"ell": True}
    if isinstance(e, slice):
        return {"s": [e.start, e.stop, e.step]}
    return {"i": e}


def manip_cases():
    """Views, joins, creation and casts: {op, inputs, args} -> result(s) or error."""
    cases = []
    a = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    f = np.linspace(-2, 3, 12).reshape(3, 4)

    def add(op, inputs, args, fn):
        cases.append({"op": op, "inputs": [arr(x) for x in inputs], "args": args, **call(fn)})

    for shape in ([6, 4], [4, -1], [-1], [2, 12], [5, 5], [-1, -1]):
        add("reshape", [a], {"shape": shape}, lambda: a.reshape(shape))
        add("reshape", [a.transpose(2, 0, 1)], {"shape": shape}, lambda: a.transpose(2, 0, 1).reshape(shape))
    add("ravel", [a], {}, lambda: a.ravel())
    for axes in (None, [2, 0, 1], [0, 0, 1], [-1, 1, 0]):
        add("transpose", [a], {"axes": axes}, lambda: np.transpose(a, axes))
    for x, y in ((0, 2), (-1, 1), (0, 3)):
        add("swapaxes", [a], {"a": x, "b": y}, lambda: np.swapaxes(a, x, y))
        add("moveaxis", [a], {"a": x, "b": y}, lambda: np.moveaxis(a, x, y))
    for ax in (0, 3, -1, -4, 4):
        add("expand_dims", [a], {"axis": ax}, lambda: np.expand_dims(a, ax))
    b = a.reshape(2, 1, 3, 1, 4)
    for axes in (None, [1], [1, 3], [-2], [0]):
        add("squeeze", [b], {"axes": axes}, lambda: np.squeeze(b, axis=None if axes is None else tuple(axes)))
    for shape in ([4, 2, 3, 4], [2, 3, 4], [3, 3, 4], [1, 4]):
        add("broadcast_to", [a], {"shape": shape}, lambda: np.broadcast_to(a, shape))
    for ix in [(1,), (-1, slice(None, None, -1)), (slice(1, None), slice(None, None, 2), -2),
               (Ellipsis, 1), (None, 0, Ellipsis, None), (slice(-2, -5, -1),), (slice(5, 1),),
               (0, 0, 0), (2,), (0, 5), (slice(None), slice(None), slice(None), 0), (0, Ellipsis, Ellipsis),
               (slice(None, None, -3), slice(2, 0, -1), slice(-10, 10, 3))]:
        add("slice", [a], {"index": [idx_json(e) for e in ix]}, lambda: a[ix])
    for axes in (None, [0], [1, 2], [-1]):
        add("flip", [a], {"axes": axes}, lambda: np.flip(a, axis=None if axes is None else tuple(axes)))
    for sh, ax in ((1, 0), (-2, 1), (5, -1), (7, None), (0, 2)):
        add("roll", [a], {"shift": sh, "axis": ax}, lambda: np.roll(a, sh, axis=ax))
    for reps in ([2], [2, 1], [1, 2, 2], [2, 1, 1, 1], [0, 1]):
        add("tile", [f], {"reps": reps}, lambda: np.tile(f, reps))
    for r, ax in ((2, None), (3, 0), (2, -1), (0, 1)):
        add("repeat", [f], {"repeats": r, "axis": ax}, lambda: np.repeat(f, r, axis=ax))
    add("repeat_counts", [f], {"counts": [1, 0, 2], "axis": 0}, lambda: np.repeat(f, [1, 0, 2], axis=0))
    add("repeat_counts", [f], {"counts": [1, 2], "axis": 0}, lambda: np.repeat(f, [1, 2], axis=0))
    for widths in ([[1, 2]], [[0, 1], [2, 0]], [[3, 3], [1, 4]]):
        for mode in ("constant", "edge", "wrap", "reflect", "symmetric"):
            add("pad", [f], {"widths": widths, "mode": mode},
                lambda: np.pad(f, [tuple(w) for w in widths] if len(widths) > 1 else tuple(widths[0]), mode=mode))
    for ix, ax in (([0, 2, -1], 1), ([1, 1, 0], 0), ([3], 0), ([], 1)):
        add("take", [f], {"indices": ix, "axis": ax}, lambda: np.take(f, ix, axis=ax))
    g = np.arange(8, dtype=np.float32).reshape(2, 4)
    h = np.arange(12, dtype=np.int16).reshape(3, 4)
    for ax in (0, -2, 1):
        add("concatenate", [g, h], {"axis": ax}, lambda: np.concatenate([g, h], axis=ax))
    for ax in (0, 1, 2, -1, 3):
        add("stack", [g, g * 2], {"axis": ax}, lambda: np.stack([g, g * 2], axis=ax))
    add("stack", [g, h], {"axis": 0}, lambda: np.stack([g, h]))
    add("hstack", [g, g], {}, lambda: np.hstack([g, g]))
    add("hstack", [g[0], h[0]], {}, lambda: np.hstack([g[0], h[0]]))
    add("vstack", [g, h], {}, lambda: np.vstack([g, h]))
    add("vstack", [g[0], h[1]], {}, lambda: np.vstack([g[0], h[1]]))
    for sec, ax in ((2, 1), (3, 1), ([1, 3], 1), ([-1, 10], 1), (2, 0)):
        add("split", [g], {"sections": sec, "axis": ax}, lambda: np.split(g, sec, axis=ax))
        add("array_split", [g], {"sections": sec, "axis": ax}, lambda: np.array_split(g, sec, axis=ax))
    v = np.array([1.5, -2.0, 3.0])
    for k in (0, 1, -2):
        add("diag", [v], {"k": k}, lambda: np.diag(v, k))
        add("diag", [f], {"k": k}, lambda: np.diag(f, k))
        add("tril", [f], {"k": k}, lambda: np.tril(f, k))
        add("triu", [a], {"k": k}, lambda: np.triu(a, k))
    for args in ((0, 10, 1), (2, 11, 3), (10, 0, -2), (0.5, 3.0, 0.5), (0, -3, 1), (1, 2, 0.1)):
        add("arange", [], {"args": list(args)}, lambda: np.arange(*args))
    for st, sp, n, ep in ((0.0, 1.0, 5, True), (-1.0, 2.0, 4, False), (1.0, 1.0, 1, True), (0.0, 10.0, 0, True)):
        add("linspace", [], {"start": st, "stop": sp, "num": n, "endpoint": ep}, lambda: np.linspace(st, sp, n, endpoint=ep))
        add("logspace", [], {"start": st, "stop": sp, "num": n, "endpoint": ep}, lambda: np.logspace(st, sp, n, endpoint=ep))
    for n, m, k in ((3, None, 0), (3, 5, 1), (4, 2, -1), (2, 3, 5)):
        add("eye", [], {"n": n, "m": m, "k": k}, lambda: np.eye(n, m, k))
    x, y = np.arange(3.0), np.arange(4, dtype=np.int8)
    for ind in ("xy", "ij"):
        add("meshgrid", [x, y], {"indexing": ind}, lambda: np.meshgrid(x, y, indexing=ind))
    for lo, hi in ((-1.0, 1.5), (None, 0.0), (0.5, None)):
        add("clip", [f], {"lo": lo, "hi": hi}, lambda: np.clip(f, lo, hi))
    c = f > 0
    add("where", [c, f, h], {}, lambda: np.where(c, f, h))
    add("where", [c[0], g, h], {}, lambda: np.where(c[0], g, h))
    ints = np.array([[3, -1, 4, 1], [5, 9, -2, 6], [5, 3, 5, -8]], dtype=np.int32)
    flt = np.array([[0.5, -1.5, 2.0, 4.0], [1.0, 3.0, -0.25, 8.0], [2.0, 2.0, 0.5, -1.0]])
    for op in BINARY:
        for m in (ints, flt, ints > 0):
            for ax in (0, -1):
                add("reduce", [m], {"ufunc": op, "axis": ax}, lambda: getattr(np, op).reduce(m, axis=ax))
                add("accumulate", [m], {"ufunc": op, "axis": ax}, lambda: getattr(np, op).accumulate(m, axis=ax))
            add("outer", [m[0], m[1]], {"ufunc": op}, lambda: getattr(np, op).outer(m[0], m[1]))
    src = np.array([-3.5, -1.0, 0.0, 0.5, 1.75, 100.0, 127.0, 2.5])
    for fr in NAMES:
        x = src.astype(dt(fr)) if fr != "bool" else src != 0
        for to in NAMES:
            if kind(dt(fr)) == "f" and kind(dt(to)) == "u":
                x2 = np.abs(x)  # negative floats to unsigned are undefined in C
            else:
                x2 = x
            add("astype", [x2], {"dtype": to}, lambda: x2.astype(dt(to)))
    return cases


def edge_cases():
    """0-d, empty and size-1 operands through ufuncs, reductions and cumulative ops."""
    cases = []
    shapes = [(), (0,), (0, 3), (3, 0), (1,), (1, 1)]
    for n in ["bool", "int8", "uint16", "int64", "float16", "float32", "float64", "complex128"]:
        d = dt(n)
        for sh in shapes:
            size = int(np.prod(sh)) if sh else 1
            a = values(n, nan=False)[:1].repeat(size).reshape(sh) if size else np.zeros(sh, dtype=d)
            for op in ("negative", "sqrt", "isnan", "absolute"):
                cases.append({"kind": "unary", "op": op, "inputs": [arr(a)], **call(lambda: UNARY[op](a))})
            for op in ("add", "maximum", "less", "floor_divide"):
                cases.append({"kind": "binary", "op": op, "inputs": [arr(a), arr(a)], **call(lambda: getattr(np, op)(a, a))})
            b = values(n, nan=False)[:3]
            cases.append({"kind": "binary", "op": "multiply", "inputs": [arr(a), arr(b)], **call(lambda: np.multiply(a, b))})
            for op in ("sum", "prod", "max", "min", "mean", "all", "any", "argmax", "cumsum"):
                for ax in [None] + list(range(len(sh))):
                    f = getattr(np, op)
                    cases.append({"kind": "reduce", "op": op, "axis": ax, "inputs": [arr(a)], **call(lambda: f(a, axis=ax))})
    return cases


def main():
    os.makedirs(OUT, exist_ok=True)
    data = {
        "numpy_version": np.__version__,
        "promotion": promotion_table(),
        "unary": unary_cases(),
        "binary": binary_cases(),
        "weak": weak_cases(),
        "reductions": reduction_cases(),
        "repr": repr_cases(),
        "manip": manip_cases(),
        "edge": edge_cases(),
    }
    for k, v in data.items():
        if k == "numpy_version":
            continue
        with open(os.path.join(OUT, f"{k}.json"), "w") as f:
            json.dump({"generator": "scripts/" + os.path.basename(sys.argv[0]), "numpy_version": np.__version__, "cases": v}, f, separators=(",", ":"))
        print(k, len(v))


if __name__ == "__main__":
    main()
