#!/usr/bin/env python3
"""Generate the SciPy reference data of xp's sparse direct-solve tests: tests/data/sparse_direct.json.

Run from the repository root:  python3 scripts/gen_sparse_direct_reference.py
Needs numpy, scipy (versions in scripts/requirements.txt). Uses the encoding of gen_reference.py.

Cases ("group"):
- "solve": a square A (as coordinates; Hermitian positive definite, non-symmetric, complex,
  integer) with b of shape (n,) and B of shape (n, 3): SciPy's spsolve(A, b), spsolve(A, B), and
  splu(A).solve(b, trans) for trans N, T, H.
- "triangular": the lower and upper triangles of a matrix with spsolve_triangular's answers,
  with and without unit_diagonal.
- "singular": matrices SciPy's splu refuses ("Factor is exactly singular"), with the column that
  has no pivot (an empty column; a column equal to another).
"""
import os
import sys

import numpy as np
import scipy
import scipy.sparse as sp
import scipy.sparse.linalg as sla

sys.path.insert(0, os.path.dirname(__file__))
from gen_reference import arr, coords, write_cases  # noqa: E402

RNG = np.random.default_rng(20261129)


def poisson(k):
    t = sp.diags_array([-1.0, 2.0, -1.0], offsets=[-1, 0, 1], shape=(k, k))
    return sp.kronsum(t, t).tocsr()


def matrix(kind, d):
    n = 49
    p = poisson(7)
    cplx = np.dtype(d).kind == "c"
    if kind == "spd":
        g = sp.random_array((n, n), density=0.05, rng=RNG)
        a = p + 0.2 * (g @ g.T)
        if cplx:
            s = sp.random_array((n, n), density=0.05, rng=RNG)
            a = a + 0.3j * (s - s.T)
    elif kind == "nonsym":
        r = sp.random_array((n, n), density=0.08, rng=RNG)
        a = p + sp.diags_array([-0.6, 0.6], offsets=[-1, 1], shape=(n, n)) + 0.5 * r
        if cplx:
            a = a + 0.4j * sp.random_array((n, n), density=0.05, rng=RNG)
    elif kind == "int":  # integer values: spsolve works in float64
        a = (p * 2 + sp.diags_array([1.0], offsets=[3], shape=(n, n))).astype(np.int64)
    else:  # needs pivoting: a zero diagonal
        q = sp.random_array((n, n), density=0.1, rng=RNG) + sp.eye_array(n, k=1) * 3 + sp.eye_array(n, k=-1) * 2
        a = q.tolil()
        a.setdiag(0)
        a = a.tocsr()
    return a.astype(d) if kind != "int" else a


def rhs(shape, d):
    b = RNG.standard_normal(shape)
    if np.dtype(d).kind == "c":
        b = b + 1j * RNG.standard_normal(shape)
    return b.astype(d)


def solve_cases():
    cases = []
    for kind, dtypes in [("spd", ["float32", "float64", "complex64", "complex128"]),
                         ("nonsym", ["float32", "float64", "complex64", "complex128"]),
                         ("pivot", ["float64"]), ("int", ["int64"])]:
        for d in dtypes:
            a = matrix(kind, d)
            n = a.shape[0]
            bd = "float64" if d == "int64" else d
            b, bb = rhs(n, bd), rhs((n, 3), bd)
            c = coords({"name": f"solve_{kind}_{d}", "group": "solve", "scipy": scipy.__version__, "dtype": d, "kind": kind}, a)
            c["b"], c["B"] = arr(b), arr(bb)
            c["x"], c["X"] = arr(sla.spsolve(a.tocsc(), b)), arr(sla.spsolve(a.tocsc(), bb))
            lu = sla.splu(sp.csc_array(a, dtype=np.result_type(a.dtype, np.float32) if d != "int64" else np.float64))
            for t in "NTH":
                c["lu_" + t] = arr(lu.solve(b.astype(lu.L.dtype), trans=t))
            cases.append(c)
    return cases


def triangular_cases():
    cases = []
    for d in ["float32", "float64", "complex64", "complex128"]:
        a = matrix("nonsym", d) + 4 * sp.eye_array(49, dtype=d)
        for lower in [True, False]:
            t = sp.tril(a) if lower else sp.triu(a)
            for unit in [False, True]:
                b = rhs((49, 2), d)
                c = coords({"name": f"tri_{'lower' if lower else 'upper'}_{'unit' if unit else 'diag'}_{d}", "group": "triangular",
                            "scipy": scipy.__version__, "dtype": d, "lower": lower, "unit": unit}, t)
                c["b"] = arr(b)
                c["x"] = arr(sla.spsolve_triangular(sp.csr_array(t), b, lower=lower, unit_diagonal=unit))
                cases.append(c)
    return cases


def singular_cases():
    cases = []
    p = poisson(5).tolil()
    empty = p.copy()
    empty[:, 7] = 0
    twin = p.copy().astype(np.float64)
    twin[:, 11] = p[:, 10].toarray()  # column 11 equal to column 10
    for name, a in [("empty_column", empty), ("equal_columns", twin)]:
        a = sp.csc_array(a)
        a.eliminate_zeros()
        try:
            sla.splu(a)
            raise SystemExit(f"{name}: SciPy factored it")
        except RuntimeError as e:
            msg = str(e)
        c = coords({"name": f"singular_{name}", "group": "singular", "scipy": scipy.__version__, "dtype": "float64",
                    "scipy_error": msg, "columns": [7] if name == "empty_column" else [10, 11]}, a)
        cases.append(c)
    return cases


if __name__ == "__main__":
    write_cases("sparse_direct", solve_cases() + triangular_cases() + singular_cases())
