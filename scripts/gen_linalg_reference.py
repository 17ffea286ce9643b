#!/usr/bin/env python3
"""Generate the NumPy reference data of xp's linear-algebra tests: products (matmul, dot, einsum,
...) in tests/data/products.json and numpy.linalg in tests/data/linalg.json.

Run from the repository root:  python3 scripts/gen_linalg_reference.py
Needs numpy (2.x) and ml_dtypes. Uses the encoding of gen_reference.py (floats as repr strings).

Each case: {"op", "args": [arrays], "params": {...}, "result" | "results" | "error", "tol"}.
"tol" is [rtol, atol] for the values: the dtype's rounding scaled by the problem (the length of a
dot product, the condition number of a solve), so that a correct result always passes and a wrong
one (a transposed operand, a missed conjugate, a wrong sign) never does.
"""
import json
import os
import sys
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from gen_reference import BF16, NAMES, OUT, arr, call, dt, kind  # noqa: E402

warnings.filterwarnings("ignore")
RNG = np.random.default_rng(20261122)
EPS = {"float16": 1e-3, "bfloat16": 8e-3, "float32": 1.2e-7, "complex64": 1.2e-7}


def eps_of(name):
    return EPS.get(name, 2.3e-16)


def rand(shape, name, lo=-3, hi=3):
    """Random values of dtype `name`: small integers (no overflow unless asked), floats in
    [-1, 1), complex with both parts random."""
    d = dt(name)
    if kind(d) == "b":
        return RNG.integers(0, 2, shape).astype(bool)
    if kind(d) == "u":
        return RNG.integers(0, hi + 1, shape).astype(d)
    if kind(d) == "i":
        return RNG.integers(lo, hi + 1, shape).astype(d)
    x = RNG.uniform(-1, 1, shape)
    if kind(d) == "c":
        x = x + 1j * RNG.uniform(-1, 1, shape)
    return x.astype(d)


def f32ref(f, *xs):
    """float16/bfloat16 products as NumPy computes them: in float32, rounded once."""
    out_dt = xs[0].dtype
    return np.asarray(f(*[x.astype(np.float32) for x in xs])).astype(out_dt)


def product_tol(name, k, scale):
    """Rounding bound of a sum of k products of magnitude `scale`."""
    e = eps_of(name)
    if name in ("bool",) or kind(dt(name)) in "iu":
        return [0.0, 0.0]
    return [4 * e, 4 * e * max(k, 1) * scale]


def case(op, args, params, fn, tol=None):
    c = {"op": op, "args": [arr(a) for a in args], "params": params, **call(fn)}
    if tol is not None:
        c["tol"] = tol
    return c


def product_cases():
    cases = []
    # matmul: every dtype, the 1-D promotions, broadcast batches, empty k / m, tile edges.
    shapes = [((2, 3), (3, 4)), ((3,), (3, 4)), ((2, 3), (3,)), ((4,), (4,)), ((2, 1, 3, 4), (5, 4, 2)),
              ((3, 0), (0, 4)), ((0, 3), (3, 2)), ((2, 3), (2, 3)), ((), (3,))]
    for name in NAMES:
        for sa, sb in shapes:
            a, b = rand(sa, name), rand(sb, name)
            k = sa[-1] if sa else 1
            f = (lambda a=a, b=b: f32ref(np.matmul, a, b)) if name == "bfloat16" else (lambda a=a, b=b: np.matmul(a, b))
            cases.append(case("matmul", [a, b], {}, f, product_tol(name, k, 1.0)))
    # (Sizes around the GPU kernels' tile edges are tested in tests/suite/linalg_props.rs against
    # exact integer products, for every dtype and layout, without reference data.)
    for (m, k, n) in [(1, 1, 1), (15, 16, 17)]:
        for name in ["bool", "int8", "int32", "uint16", "float16", "float32", "float64", "complex64", "complex128"]:
            a, b = rand((m, k), name), rand((k, n), name)
            f = (lambda a=a, b=b: np.matmul(a, b))
            cases.append(case("matmul", [a, b], {}, f, product_tol(name, k, 1.0)))
    big = RNG.integers(-100, 100, (3, 8)).astype(np.int8)  # wraps, as NumPy does
    cases.append(case("matmul", [big, big.T.copy()], {}, lambda: np.matmul(big, big.T)))
    mixed = [rand((2, 3), "int8"), rand((3, 2), "float32")]
    cases.append(case("matmul", mixed, {}, lambda: np.matmul(*mixed), product_tol("float32", 3, 3.0)))
    # dot, vdot, inner, outer
    for name in ["int32", "float32", "float64", "complex128", "bool"]:
        for sa, sb in [((3,), (3,)), ((2, 3), (3,)), ((2, 3, 4), (4,)), ((2, 3, 4), (5, 4, 2)), ((), (3,)), ((2, 3), (2, 3))]:
            a, b = rand(sa, name), rand(sb, name)
            cases.append(case("dot", [a, b], {}, lambda a=a, b=b: np.dot(a, b), product_tol(name, 4, 1.0)))
        for sa, sb in [((4,), (4,)), ((2, 2), (4,)), ((3,), (4,))]:
            a, b = rand(sa, name), rand(sb, name)
            cases.append(case("vdot", [a, b], {}, lambda a=a, b=b: np.vdot(a, b), product_tol(name, 4, 1.0)))
        for sa, sb in [((2, 3), (4, 3)), ((3,), (3,)), ((), (2, 2)), ((2, 3), (3, 2))]:
            a, b = rand(sa, name), rand(sb, name)
            cases.append(case("inner", [a, b], {}, lambda a=a, b=b: np.inner(a, b), product_tol(name, 3, 1.0)))
        a, b = rand((2, 2), name), rand((3,), name)
        cases.append(case("outer", [a, b], {}, lambda a=a, b=b: np.outer(a, b), product_tol(name, 1, 1.0)))
    # tensordot
    for name in ["int64", "float64", "complex64"]:
        a, b = rand((2, 3, 4), name), rand((3, 4, 5), name)
        for axes in [2, 0, 1, [[1, 2], [0, 1]], [[2, 1], [1, 0]]]:
            bb = b if axes != 1 else rand((4, 3), name)
            cases.append(case("tensordot", [a, bb], {"axes": axes}, lambda a=a, bb=bb, axes=axes: np.tensordot(a, bb, axes), product_tol(name, 12, 1.0)))
        cases.append(case("tensordot", [a, b], {"axes": [[0], [0]]}, lambda a=a, b=b: np.tensordot(a, b, [[0], [0]])))
    # kron
    for name in ["int16", "float32", "complex128", "bool"]:
        for sa, sb in [((2, 2), (2, 3)), ((3,), (2,)), ((2, 1, 3), (2, 2)), ((), (2,))]:
            a, b = rand(sa, name), rand(sb, name)
            cases.append(case("kron", [a, b], {}, lambda a=a, b=b: np.kron(a, b), product_tol(name, 1, 1.0)))
    # trace, diagonal, matrix_transpose
    for name in ["int8", "uint8", "float32", "complex64", "bool"]:
        a = rand((3, 4), name)
        for off in [-2, -1, 0, 1, 3, 5]:
            cases.append(case("diagonal", [a], {"offset": off, "axis1": 0, "axis2": 1}, lambda a=a, off=off: np.diagonal(a, off)))
            cases.append(case("trace", [a], {"offset": off, "axis1": 0, "axis2": 1}, lambda a=a, off=off: np.trace(a, off), product_tol(name, 4, 1.0)))
        b = rand((2, 3, 4), name)
        for ax in [(0, 2), (2, 1), (-1, 0)]:
            cases.append(case("diagonal", [b], {"offset": 1, "axis1": ax[0], "axis2": ax[1]}, lambda b=b, ax=ax: np.diagonal(b, 1, *ax)))
            cases.append(case("trace", [b], {"offset": 0, "axis1": ax[0], "axis2": ax[1]}, lambda b=b, ax=ax: np.trace(b, 0, *ax), product_tol(name, 4, 1.0)))
        cases.append(case("diagonal", [b], {"offset": 0, "axis1": 1, "axis2": 1}, lambda b=b: np.diagonal(b, 0, 1, 1)))
        cases.append(case("matrix_transpose", [b], {}, lambda b=b: np.matrix_transpose(b)))
        cases.append(case("matrix_transpose", [rand((3,), name)], {}, lambda: np.matrix_transpose(np.zeros(3))))
    # cross
    for name in ["int32", "float64", "complex64", "bool"]:
        for sa, sb, ax in [((3,), (3,), None), ((4, 3), (3,), None), ((2,), (2,), None), ((2,), (3,), None),
                           ((3,), (2,), None), ((5, 2), (5, 3), None), ((3, 4), (4, 3), (0, -1, 0)), ((4,), (3,), None)]:
            a, b = rand(sa, name), rand(sb, name)
            axa, axb, axc = ax or (-1, -1, -1)
            cases.append(case("cross", [a, b], {"axisa": axa, "axisb": axb, "axisc": axc},
                              lambda a=a, b=b, axa=axa, axb=axb, axc=axc: np.cross(a, b, axisa=axa, axisb=axb, axisc=axc),
                              product_tol(name, 2, 1.0)))
    # vecdot
    for name in ["int32", "float32", "complex128", "bool"]:
        for sa, sb, ax in [((3, 4), (4,), -1), ((2, 3), (2, 3), 0), ((2, 1, 3), (4, 3), -1), ((3,), (4,), -1)]:
            a, b = rand(sa, name), rand(sb, name)
            cases.append(case("vecdot", [a, b], {"axis": ax}, lambda a=a, b=b, ax=ax: np.vecdot(a, b, axis=ax), product_tol(name, 4, 1.0)))
    # multi_dot
    for name in ["float64", "complex64", "int64"]:
        for shapes_ in [[(3, 4), (4, 5), (5, 2)], [(4,), (4, 6), (6, 2), (2,)], [(10, 2), (2, 30), (30, 3), (3, 1)],
                        [(2, 3), (3, 2)], [(2, 3), (4, 2)]]:
            ms = [rand(s, name) for s in shapes_]
            cases.append(case("multi_dot", ms, {}, lambda ms=ms: np.linalg.multi_dot(ms), product_tol(name, 30, 30.0)))
    # matrix_power
    for name in ["int64", "float64", "complex128", "float32"]:
        a = rand((3, 3), name) + (3 * np.eye(3, dtype=dt(name)) if kind(dt(name)) != "i" else 0)
        st = rand((2, 2, 2), name) + (2 * np.eye(2, dtype=dt(name)) if kind(dt(name)) != "i" else 0)
        for n in [0, 1, 2, 3, 5, -1, -2]:
            for m in [a, st]:
                cases.append(case("matrix_power", [m], {"n": n}, lambda m=m, n=n: np.linalg.matrix_power(m, n), [1e-4 if name == "float32" else 1e-10, 1e-4 if name == "float32" else 1e-10]))
        cases.append(case("matrix_power", [rand((2, 3), name)], {"n": 2}, lambda: np.linalg.matrix_power(np.zeros((2, 3)), 2)))
    # einsum
    A, B, C = rand((3, 4), "float64"), rand((4, 5), "float64"), rand((5, 2), "float64")
    S, T = rand((4, 4), "float64"), rand((2, 3, 4), "float64")
    v, w = rand((4,), "float64"), rand((3,), "float64")
    I8 = rand((3, 3), "int8", -100, 100)
    for subs, ops in [("ij,jk->ik", [A, B]), ("ij,jk", [A, B]), ("ij,jk,kl->il", [A, B, C]), ("ij,jk,kl", [A, B, C]),
                      ("ii", [S]), ("ii->i", [S]), ("ij->ji", [A]), ("ij->", [A]), ("ij", [A]), ("ji", [A]),
                      ("i,i", [v, v]), ("i,j->ij", [v, w]), ("...j,j", [T, v]), ("...ij,...jk->...ik", [T, rand((2, 4, 3), "float64")]),
                      ("bij,bjk->bik", [T, rand((2, 4, 5), "float64")]), ("ijk->kji", [T]), ("ijk,k->ij", [T, v]),
                      ("iij->j", [rand((3, 3, 2), "float64")]), ("i...->...", [T]), ("Ba", [A]), ("ab,ab->", [A, A]),
                      ("ij,ij->ij", [A, A]), ("ij,kl->ijkl", [rand((2, 2), "float64"), rand((2, 2), "float64")]),
                      ("ij->", [I8]), ("ij,jk->ik", [rand((2, 3), "complex128"), rand((3, 2), "complex128")]),
                      ("ij,jk->ik", [rand((2, 1), "float64"), rand((3, 4), "float64")]),
                      ("ij,jk->iz", [A, B]), ("ij,jk", [A]), ("i...->i", [T]), ("ij->ii", [A]), ("i#", [v]),
                      ("ij,jk->ik", [A, A]), ("i,i", [v, w]), ("...i->i", [T])]:
        cases.append(case("einsum", ops, {"subscripts": subs}, lambda subs=subs, ops=ops: np.einsum(subs, *ops), [1e-12, 1e-12]))
    ij = [rand((2, 3), "int8"), rand((3, 2), "int16")]
    cases.append(case("einsum", ij, {"subscripts": "ij,jk"}, lambda: np.einsum("ij,jk", *ij)))
    bb = [rand((3, 3), "bool"), rand((3, 3), "bool")]
    cases.append(case("einsum", bb, {"subscripts": "ij,jk->ik"}, lambda: np.einsum("ij,jk->ik", *bb)))
    return cases


def well(n, name, batch=()):
    """A well-conditioned square matrix (stack): random plus n on the diagonal."""
    a = rand(batch + (n, n), name)
    if kind(dt(name)) in "fc":
        a = a + n * np.eye(n, dtype=dt(name))
    return a


def hpd(n, name, batch=()):
    """A Hermitian positive-definite matrix (stack)."""
    a = rand(batch + (n, n), name)
    h = a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n)
    return h.astype(dt(name))


def solve_tol(name):
    e = eps_of(name)
    return [1e3 * e, 1e3 * e]


def linalg_cases():
    cases = []
    L = np.linalg
    floats = ["float32", "float64", "complex64", "complex128"]
    # solve: vector and matrix right-hand sides, stacks, broadcast batches, mixed dtypes
    for name in floats + ["int64"]:
        t = solve_tol("float64" if name == "int64" else name)
        for an, bn in [((4, 4), (4,)), ((4, 4), (4, 2)), ((2, 3, 3), (2, 3, 1)), ((2, 1, 3, 3), (3, 3, 2)), ((2, 3, 3), (3,)),
                       ((0, 0), (0,)), ((3, 3), (3, 0)), ((0, 2, 2), (0, 2, 1))]:
            a = well(an[-1], name, an[:-2]) if kind(dt(name)) != "i" else rand(an, name) + 10 * np.eye(an[-1], dtype=dt(name))
            b = rand(bn, name)
            cases.append(case("solve", [a, b], {}, lambda a=a, b=b: L.solve(a, b), t))
    a32, b64 = well(3, "float32"), rand((3,), "float64")
    cases.append(case("solve", [a32, b64], {}, lambda: L.solve(a32, b64), solve_tol("float32")))
    sing = np.array([[1.0, 2.0], [2.0, 4.0]])
    cases.append(case("solve", [sing, rand((2,), "float64")], {}, lambda: L.solve(sing, np.ones(2))))
    cases.append(case("solve", [rand((3, 4), "float64"), rand((3,), "float64")], {}, lambda: L.solve(np.ones((3, 4)), np.ones(3))))
    cases.append(case("solve", [well(3, "float64"), rand((4,), "float64")], {}, lambda: L.solve(np.eye(3), np.ones(4))))
    cases.append(case("solve", [well(2, "float16"), rand((2,), "float16")], {}, lambda: L.solve(np.eye(2, dtype=np.float16), np.ones(2, np.float16))))
    # inv
    for name in floats + ["int32", "bool"]:
        for sh in [(1, 1), (3, 3), (2, 4, 4), (0, 0), (2, 0, 0)]:
            a = well(sh[-1], name, sh[:-2]) if kind(dt(name)) in "fc" else (rand(sh, name) + 5 * np.eye(sh[-1], dtype=dt(name)) if name != "bool" else np.eye(sh[-1], dtype=bool) * np.ones(sh, bool))
            cases.append(case("inv", [a], {}, lambda a=a: L.inv(a), solve_tol("float64" if kind(dt(name)) in "biu" else name)))
    stack = well(3, "float64", (3,))
    stack[1] = [[1, 2, 3], [2, 4, 6], [0, 1, 1]]
    cases.append(case("inv", [stack], {}, lambda: L.inv(stack)))
    cases[-1]["error_index"] = 1
    cases.append(case("inv", [rand((2, 3), "float64")], {}, lambda: L.inv(np.ones((2, 3)))))
    cases.append(case("inv", [rand((3,), "float64")], {}, lambda: L.inv(np.ones(3))))
    cases.append(case("inv", [well(2, "float16")], {}, lambda: L.inv(np.eye(2, dtype=np.float16))))
    # det, slogdet
    for name in floats + ["int64"]:
        for sh in [(1, 1), (2, 2), (4, 4), (2, 3, 3), (0, 0), (3, 0, 0)]:
            a = rand(sh, name) if sh[-1] else np.zeros(sh, dt(name))
            t = solve_tol("float64" if name == "int64" else name)
            cases.append(case("det", [a], {}, lambda a=a: L.det(a), t))
            cases.append(case("slogdet", [a], {}, lambda a=a: L.slogdet(a), t))
        z = np.array([[1, 2], [2, 4]], dtype=dt(name))
        cases.append(case("det", [z], {}, lambda z=z: L.det(z)))
        cases.append(case("slogdet", [z], {}, lambda z=z: L.slogdet(z)))
    # cholesky: lower and upper, real and complex, stacks; only the named triangle is read
    for name in floats:
        for sh in [(1, 1), (3, 3), (2, 4, 4), (0, 0)]:
            h = hpd(sh[-1], name, sh[:-2])
            for upper in [False, True]:
                g = h.copy()
                n = sh[-1]
                if n > 1:  # poison the triangle that must not be read
                    iu = np.triu_indices(n, 1) if not upper else np.tril_indices(n, -1)
                    g[(..., *iu)] = 99
                cases.append(case("cholesky", [g], {"upper": upper}, lambda g=g, upper=upper: L.cholesky(g, upper=upper), solve_tol(name)))
    notpd = np.stack([hpd(3, "float64"), -np.eye(3)])
    cases.append(case("cholesky", [notpd], {"upper": False}, lambda: L.cholesky(notpd)))
    cases[-1]["error_index"] = 1
    # qr
    for name in floats + ["int32"]:
        for sh in [(4, 3), (3, 4), (3, 3), (2, 4, 3), (0, 3), (3, 0)]:
            a = rand(sh, name)
            for mode in ["reduced", "complete", "r"]:
                cases.append(case("qr", [a], {"mode": mode}, lambda a=a, mode=mode: L.qr(a, mode=mode), solve_tol("float64" if name == "int32" else name)))
    # svd
    for name in floats + ["int16"]:
        for sh in [(4, 3), (3, 4), (5, 5), (2, 3, 2), (0, 3), (3, 0), (1, 1)]:
            a = rand(sh, name)
            t = solve_tol("float64" if name == "int16" else name)
            for full in [True, False]:
                cases.append(case("svd", [a], {"full_matrices": full, "compute_uv": True}, lambda a=a, full=full: L.svd(a, full_matrices=full), t))
            cases.append(case("svd", [a], {"full_matrices": True, "compute_uv": False}, lambda a=a: L.svd(a, compute_uv=False), t))
            cases.append(case("svdvals", [a], {}, lambda a=a: L.svdvals(a), t))
    # eigh, eigvalsh: UPLO, the other triangle poisoned
    for name in floats + ["int32"]:
        for sh in [(1, 1), (4, 4), (2, 3, 3), (0, 0)]:
            h = hpd(sh[-1], "float64" if name == "int32" else name, sh[:-2])
            if name == "int32":
                h = np.round(h * 3).astype(np.int32)
            for uplo in ["L", "U"]:
                g = h.copy()
                n = sh[-1]
                if n > 1:
                    iu = np.triu_indices(n, 1) if uplo == "L" else np.tril_indices(n, -1)
                    g[(..., *iu)] = 7
                t = solve_tol("float64" if name == "int32" else name)
                cases.append(case("eigh", [g], {"uplo": uplo}, lambda g=g, uplo=uplo: L.eigh(g, UPLO=uplo), t))
                cases.append(case("eigvalsh", [g], {"uplo": uplo}, lambda g=g, uplo=uplo: L.eigvalsh(g, UPLO=uplo), t))
    # eig, eigvals: real with real eigenvalues (real result), with complex ones, complex input
    rot = np.array([[0.0, -1.0], [1.0, 0.0]])
    tri = np.array([[2.0, 1.0, 0.5], [0.0, -1.0, 3.0], [0.0, 0.0, 0.5]])
    for name in floats:
        for a in [rand((4, 4), name), rand((2, 3, 3), name), hpd(3, name), rot.astype(dt(name)) if kind(dt(name)) != "c" else rand((2, 2), name),
                  tri.astype(dt(name)), np.zeros((0, 0), dt(name))]:
            t = solve_tol(name)
            cases.append(case("eig", [a], {}, lambda a=a: L.eig(a), t))
            cases.append(case("eigvals", [a], {}, lambda a=a: L.eigvals(a), t))
    cases.append(case("eig", [np.array([[1, 2], [3, 4]], np.int64)], {}, lambda: L.eig(np.array([[1, 2], [3, 4]])), solve_tol("float64")))
    # lstsq
    for name in ["float64", "float32", "complex128"]:
        for sa, sb, rc in [((6, 3), (6,), None), ((6, 3), (6, 2), None), ((3, 5), (3,), None), ((4, 4), (4, 1), 1e-3), ((5, 0), (5,), None)]:
            a, b = rand(sa, name), rand(sb, name)
            t = solve_tol(name)
            cases.append(case("lstsq", [a, b], {"rcond": rc}, lambda a=a, b=b, rc=rc: L.lstsq(a, b, rcond=rc), t))
        a = rand((5, 3), name)
        a[:, 2] = a[:, 0] + a[:, 1]  # rank 2
        b = rand((5,), name)
        # rcond well above rounding, so that the rank (2) is not decided by noise.
        cases.append(case("lstsq", [a, b], {"rcond": 1e-6}, lambda a=a, b=b: L.lstsq(a, b, rcond=1e-6), [1e3 * eps_of(name) * 10, 1e3 * eps_of(name) * 10]))
    # pinv, matrix_rank
    for name in ["float64", "float32", "complex64", "int32"]:
        t = solve_tol("float64" if name == "int32" else name)
        for sh in [(3, 4), (4, 3), (2, 3, 3), (0, 3)]:
            a = rand(sh, name)
            cases.append(case("pinv", [a], {"rcond": None}, lambda a=a: L.pinv(a), t))
            cases.append(case("matrix_rank", [a], {"tol": None}, lambda a=a: L.matrix_rank(a)))
        d = rand((4, 4), name)
        d[3] = d[0] + d[1]
        cases.append(case("pinv", [d], {"rcond": 1e-6}, lambda d=d: L.pinv(d, rcond=1e-6), [1e6 * eps_of(name), 1e6 * eps_of(name)]))
        cases.append(case("matrix_rank", [d], {"tol": None}, lambda d=d: L.matrix_rank(d)))
        cases.append(case("matrix_rank", [d], {"tol": 0.5}, lambda d=d: L.matrix_rank(d, tol=0.5)))
        v = rand((4,), name)
        cases.append(case("matrix_rank", [v], {"tol": None}, lambda v=v: L.matrix_rank(v)))
    # norm
    vec_ords = [None, 0, 1, -1, 2, -2, "inf", "-inf", 3, 0.5, "fro"]
    mat_ords = [None, "fro", "nuc", 1, -1, 2, -2, "inf", "-inf", 3]
    parse = {"inf": np.inf, "-inf": -np.inf}
    for name in ["float64", "float32", "complex128", "int32", "float16"]:
        x = rand((3, 4), name)
        for o in vec_ords:
            oo = parse.get(o, o)
            for ax in [0, -1]:
                for kd in [False, True]:
                    cases.append(case("norm", [x], {"ord": o, "axis": [ax], "keepdims": kd}, lambda x=x, oo=oo, ax=ax, kd=kd: L.norm(x, oo, ax, kd), [10 * eps_of(name), 10 * eps_of(name)]))
        for o in mat_ords:
            oo = parse.get(o, o)
            for ax in [None, [0, 1], [1, 0]]:
                cases.append(case("norm", [x], {"ord": o, "axis": ax, "keepdims": False}, lambda x=x, oo=oo, ax=ax: L.norm(x, oo, None if ax is None else tuple(ax)), [100 * eps_of(name), 100 * eps_of(name)]))
        y = rand((2, 3, 4), name)
        cases.append(case("norm", [y], {"ord": None, "axis": None, "keepdims": True}, lambda y=y: L.norm(y, keepdims=True), [10 * eps_of(name), 10 * eps_of(name)]))
        cases.append(case("norm", [y], {"ord": "fro", "axis": None, "keepdims": False}, lambda y=y: L.norm(y, "fro")))
        cases.append(case("norm", [y], {"ord": 2, "axis": [2, 0], "keepdims": True}, lambda y=y: L.norm(y, 2, (2, 0), True), [100 * eps_of(name), 100 * eps_of(name)]))
    # cond
    for name in ["float64", "float32", "complex128"]:
        a = well(3, name)
        s = np.array([[1.0, 2.0], [2.0, 4.0]]).astype(dt(name))
        st = np.stack([well(2, name), s])
        for p in [None, 2, -2, 1, -1, "inf", "-inf", "fro", "nuc"]:
            pp = parse.get(p, p)
            # The 2-norm condition number of an exactly singular matrix is rounding noise
            # (1/eps or inf): only the orders that give inf, or 0 for -2, are compared on it.
            # NumPy's 'nuc' on a singular matrix raises "SVD did not converge" (the SVD of the
            # NaN-filled inverse); xp answers inf there, as for every other order.
            for m in [a, s, st] if p not in (None, 2, "nuc") else [a]:
                cases.append(case("cond", [m], {"p": p}, lambda m=m, pp=pp: L.cond(m, pp), [1e4 * eps_of(name), 1e4 * eps_of(name)]))
    # tensorsolve, tensorinv
    a = well(6, "float64").reshape(2, 3, 6).reshape(6, 2, 3)
    b = rand((6,), "float64")
    cases.append(case("tensorsolve", [a, b], {"axes": None}, lambda: L.tensorsolve(a, b), solve_tol("float64")))
    a4 = well(6, "float64").reshape(2, 3, 2, 3)
    b2 = rand((2, 3), "float64")
    cases.append(case("tensorsolve", [a4, b2], {"axes": None}, lambda: L.tensorsolve(a4, b2), solve_tol("float64")))
    cases.append(case("tensorsolve", [a4, b2], {"axes": [0]}, lambda: L.tensorsolve(a4, b2, axes=(0,)), solve_tol("float64")))
    t4 = well(12, "float64").reshape(4, 3, 2, 6)
    for ind in [1, 2, 3]:
        tt = well(4, "float64").reshape(4, 2, 2) if ind == 1 else t4
        cases.append(case("tensorinv", [tt], {"ind": ind}, lambda tt=tt, ind=ind: L.tensorinv(tt, ind), solve_tol("float64")))
    # float16 is refused by every decomposition
    h = np.eye(3, dtype=np.float16)
    for op, f in [("cholesky", lambda: L.cholesky(h)), ("qr", lambda: L.qr(h)), ("svd", lambda: L.svd(h)), ("eigh", lambda: L.eigh(h)),
                  ("eig", lambda: L.eig(h)), ("det", lambda: L.det(h)), ("pinv", lambda: L.pinv(h))]:
        cases.append({"op": op, "args": [arr(h)], "params": {"upper": False, "mode": "reduced", "full_matrices": True, "compute_uv": True, "uplo": "L", "rcond": None}, **call(f)})
    # not square, not a matrix
    for op in ["det", "eigh", "eig", "cholesky", "inv"]:
        for bad in [np.ones((2, 3)), np.ones(3)]:
            cases.append({"op": op, "args": [arr(bad)], "params": {"upper": False, "uplo": "L"}, **call(lambda op=op, bad=bad: getattr(L, op)(bad))})
    return cases


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, cases in [("products", product_cases()), ("linalg", linalg_cases())]:
        cases = [c for c in cases if "op" in c]
        with open(os.path.join(OUT, f"{name}.json"), "w") as f:
            json.dump({"generator": "scripts/" + os.path.basename(sys.argv[0]), "numpy_version": np.__version__, "cases": cases}, f, separators=(",", ":"))
        print(name, len(cases), os.path.getsize(os.path.join(OUT, f"{name}.json")))


if __name__ == "__main__":
    main()
