#!/usr/bin/env python3
"""Generate the SciPy reference data of xp's sparse matrix-function tests: tests/data/sparse_matfuncs.json.

Run from the repository root:  python3 scripts/gen_sparse_matfuncs_reference.py
Needs numpy, scipy (versions in scripts/requirements.txt). Uses the encoding of gen_reference.py.

Each case is one sparse matrix (coordinates) in one dtype with SciPy's answers: "norms" (the matrix
norms fro, inf, -inf, 1, -1, 2 and the vector norms along each axis for ord None, inf, -inf, 0, 1,
3), "inv", "expm" (a small norm: a low Padé degree; a large one: degree 13 with squaring),
"expm_multiply" (b of shape (n,) and (n, 3)), "matrix_power" (0, 1, 2, 5) and "onenormest" (the
exact 1-norm the estimate may not exceed).
"""
import os
import sys

import numpy as np
import scipy
import scipy.sparse as sp
import scipy.sparse.linalg as sla

sys.path.insert(0, os.path.dirname(__file__))
from gen_reference import arr, coords, write_cases  # noqa: E402

RNG = np.random.default_rng(20261201)


def rand(n, d, density=0.15, scale=1.0, diag=0.0):
    a = sp.random_array((n, n), density=density, rng=RNG) - sp.random_array((n, n), density=density / 2, rng=RNG)
    if np.dtype(d).kind == "c":
        a = a + 1j * sp.random_array((n, n), density=density / 2, rng=RNG)
    a = scale * a + diag * sp.eye_array(n)
    return sp.csr_array(a.astype(d))


def cases():
    out = []
    for d in ["float32", "float64", "complex128"]:
        a = rand(20, d)
        c = coords({"name": f"norms_{d}", "group": "norms", "dtype": d}, a)
        c["matrix"] = {o: float(sla.norm(a, ord=o)) for o in ["fro", "inf", "-inf", "1", "-1", "2"] for o in [o]} if False else {}
        for key, o in [("fro", "fro"), ("inf", np.inf), ("-inf", -np.inf), ("1", 1), ("-1", -1), ("2", 2)]:
            c["matrix"][key] = float(sla.norm(a, ord=o))
        c["vector"] = {}
        for ax in [0, 1]:
            for key, o in [("None", None), ("inf", np.inf), ("-inf", -np.inf), ("0", 0), ("1", 1), ("3", 3)]:
                c["vector"][f"{ax}_{key}"] = arr(np.asarray(sla.norm(a, ord=o, axis=ax), dtype=np.float64))
        out.append(c)
        b = rand(25, d, diag=3.0)
        c = coords({"name": f"inv_{d}", "group": "inv", "dtype": d}, b)
        c["inv"] = arr(np.linalg.inv(b.toarray().astype(np.complex128 if np.dtype(d).kind == "c" else np.float64)))
        out.append(c)
        for tag, scale in [("small", 0.02), ("large", 1.5)]:
            e = rand(30, d, scale=scale)
            c = coords({"name": f"expm_{tag}_{d}", "group": "expm", "dtype": d, "norm1": float(sla.norm(e, 1))}, e)
            c["expm"] = arr(sla.expm(sp.csc_array(e)).toarray())
            out.append(c)
        m = rand(50, d, scale=2.0, diag=-1.0)
        c = coords({"name": f"expm_multiply_{d}", "group": "expm_multiply", "dtype": d}, m)
        b1 = RNG.standard_normal(50).astype(d)
        b3 = RNG.standard_normal((50, 3)).astype(d)
        c["b"], c["B"] = arr(b1), arr(b3)
        c["y"], c["Y"] = arr(sla.expm_multiply(m, b1)), arr(sla.expm_multiply(m, b3))
        out.append(c)
        g = rand(40, d, density=0.1)
        c = coords({"name": f"onenormest_{d}", "group": "onenormest", "dtype": d, "exact": float(sla.norm(g, 1)), "scipy": float(sla.onenormest(g))}, g)
        out.append(c)
    for d in ["int64", "float64"]:
        p = sp.csr_array((RNG.integers(-2, 3, (12, 12)) * (RNG.random((12, 12)) < 0.2)).astype(d))
        c = coords({"name": f"matrix_power_{d}", "group": "matrix_power", "dtype": d}, p)
        c["powers"] = {str(k): arr(sla.matrix_power(p, k).toarray()) for k in [0, 1, 2, 5]}
        out.append(c)
    return out


if __name__ == "__main__":
    print("scipy", scipy.__version__)
    write_cases("sparse_matfuncs", cases())
