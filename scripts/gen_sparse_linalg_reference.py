#!/usr/bin/env python3
"""Generate the SciPy reference data of xp's sparse linear-algebra tests: tests/data/sparse_linalg.json.

Run from the repository root:  python3 scripts/gen_sparse_linalg_reference.py
Needs numpy, scipy (versions in scripts/requirements.txt). Uses the encoding of gen_reference.py.

Each case is one system A x = b (A as coordinates) in one dtype: Hermitian positive definite (a 2-D
Poisson matrix plus a random sparse Gram part), non-symmetric (convection-diffusion) and
symmetric indefinite (a shifted Poisson matrix), complex where SciPy solves complex systems, and
rectangular systems for the least-squares solvers. For every solver that applies SciPy's answers
at its defaults ("full": x, info, the iterations counted by a callback) and after a few iterations
only ("short": rtol 0 so that the iteration limit stops it: the iterate shows whether the
recurrence is SciPy's step for step), with and without a Jacobi preconditioner.
"""
import os
import sys

import numpy as np
import scipy
import scipy.sparse as sp
import scipy.sparse.linalg as sla

sys.path.insert(0, os.path.dirname(__file__))
from gen_reference import arr, write_cases  # noqa: E402

RNG = np.random.default_rng(20261128)
SQUARE = ["cg", "cgs", "bicg", "bicgstab", "gmres", "qmr", "tfqmr", "minres", "lgmres", "gcrotmk"]
# which solvers apply to which kind of matrix
APPLIES = {
    "spd": SQUARE,
    "nonsym": ["cgs", "bicg", "bicgstab", "gmres", "qmr", "tfqmr", "lgmres", "gcrotmk"],
    "indefinite": ["minres", "gmres"],
}
SHORT = 3  # iterations of the "short" runs (restart cycles of 4 for gmres/lgmres/gcrotmk)


def poisson(k):
    t = sp.diags_array([-1.0, 2.0, -1.0], offsets=[-1, 0, 1], shape=(k, k))
    return sp.kronsum(t, t).tocsr()


def matrix(kind, d):
    k = 6
    n = k * k
    p = poisson(k)
    cplx = np.dtype(d).kind == "c"
    if kind == "spd":
        g = sp.random_array((n, n), density=0.05, rng=RNG)
        a = p + 0.2 * (g @ g.T)
        if cplx:  # Hermitian: add i·S with S skew-symmetric
            s = sp.random_array((n, n), density=0.05, rng=RNG)
            a = a + 0.3j * (s - s.T)
    elif kind == "nonsym":
        conv = sp.diags_array([-0.6, 0.6], offsets=[-1, 1], shape=(n, n))
        a = p + conv + 0.5 * sp.eye_array(n)
        if cplx:
            a = a + 0.4j * sp.eye_array(n)
    else:  # indefinite: eigenvalues of both signs
        a = p - 3.0 * sp.eye_array(n)
    return sp.coo_array(a.astype(d))


def rhs(n, d):
    b = RNG.standard_normal(n)
    if np.dtype(d).kind == "c":
        b = b + 1j * RNG.standard_normal(n)
    return b.astype(d)


def run(solver, a, b, m, short):
    f = getattr(sla, solver)
    it = [0]

    def cb(*_):
        it[0] += 1
    kw = {}
    if solver in ("gmres",):
        kw["callback_type"] = "x"
        kw["restart"] = 4 if short else 20
    if solver == "lgmres":
        kw["inner_m"] = 4 if short else 30
    if solver == "gcrotmk":
        kw["m"] = 4 if short else 20
    if short:
        kw["maxiter"] = SHORT
        kw["rtol"] = 0.0
        if solver != "minres":
            kw["atol"] = 0.0
    if m is not None:
        if solver == "qmr":
            kw["M1"] = sla.aslinearoperator(m)
            kw["M2"] = sla.aslinearoperator(sp.eye_array(m.shape[0], dtype=m.dtype))
        else:
            kw["M"] = m
    try:
        x, info = f(a, b, callback=cb, **kw)
    except ValueError as e:  # SciPy 1.17's minres takes complex Hermitian A for non-symmetric
        return {"error": str(e)}
    return {"x": arr(x), "info": int(info), "iters": it[0]}


def square_cases():
    cases = []
    for kind in ["spd", "nonsym", "indefinite"]:
        for d in ["float32", "float64", "complex64", "complex128"]:
            if kind == "indefinite" and np.dtype(d).kind == "c":
                continue
            a = matrix(kind, d).tocsr()
            n = a.shape[0]
            b = rhs(n, d)
            jac = sp.diags_array(1.0 / a.diagonal()).astype(d).tocsr()
            c = {"name": f"{kind}_{d}", "group": "square", "scipy": scipy.__version__, "kind": kind, "dtype": d, "shape": [n, n],
                 "data": arr(a.tocoo().data), "row": arr(a.tocoo().row.astype(np.int64)),
                 "col": arr(a.tocoo().col.astype(np.int64)), "b": arr(b),
                 "jacobi": arr(jac.diagonal()), "solvers": {}}
            for s in APPLIES[kind]:
                r = {"full": run(s, a, b, None, False), "short": run(s, a, b, None, True)}
                if kind != "indefinite":
                    r["precond"] = run(s, a, b, jac, False)
                c["solvers"][s] = r
            cases.append(c)
    return cases


def lsq_cases():
    cases = []
    for name, (m, n), density in [("over", (50, 20), 0.2), ("under", (15, 30), 0.3), ("square", (25, 25), 0.25)]:
        for d in ["float32", "float64", "complex128"]:
            a = sp.random_array((m, n), density=density, rng=RNG, dtype=np.float64)
            if np.dtype(d).kind == "c":
                a = a + 1j * sp.random_array((m, n), density=density, rng=RNG)
            a = (a + 2.0 * sp.eye_array(m, n)).astype(d).tocoo()  # singular values away from 0
            b = rhs(m, d)
            c = {"name": f"lsq_{name}_{d}", "group": "lsq", "scipy": scipy.__version__, "dtype": d, "shape": [m, n], "data": arr(a.data),
                 "row": arr(a.row.astype(np.int64)), "col": arr(a.col.astype(np.int64)), "b": arr(b), "solvers": {}}
            for damp in [0.0, 0.5]:
                for s in ["lsqr", "lsmr"]:
                    kw = {"damp": damp, "atol": 1e-10, "btol": 1e-10}
                    r = getattr(sla, s)(a, b, **kw)
                    short = getattr(sla, s)(a, b, damp=damp, atol=0, btol=0, conlim=0,
                                            **({"iter_lim": SHORT} if s == "lsqr" else {"maxiter": SHORT}))
                    c["solvers"][f"{s}_{damp}"] = {"x": arr(r[0]), "istop": int(r[1]), "itn": int(r[2]),
                                                   "normr": float(r[3]),
                                                   "short": arr(short[0]), "short_istop": int(short[1])}
            cases.append(c)
    return cases


if __name__ == "__main__":
    write_cases("sparse_linalg", square_cases() + lsq_cases())
