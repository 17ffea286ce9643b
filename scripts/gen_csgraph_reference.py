#!/usr/bin/env python3
"""Generate the SciPy reference data of xp's csgraph tests: tests/data/csgraph.json.

Run from the repository root:  python3 scripts/gen_csgraph_reference.py
Needs numpy, scipy (versions in scripts/requirements.txt). Uses the encoding of gen_reference.py.

Cases ("group"): "components" — random directed graphs (sparse enough to have many components,
with self-loops and isolated vertices) with SciPy's connected_components for (directed, weak),
(directed, strong) and undirected; "laplacian" — weighted directed and symmetric graphs with
SciPy's laplacian, plain and normed; "dense" — a dense matrix with zeros, inf and NaN and
csgraph_from_dense's answers.
"""
import os
import sys

import numpy as np
import scipy
import scipy.sparse as sp
import scipy.sparse.csgraph as cg

sys.path.insert(0, os.path.dirname(__file__))
from gen_reference import arr, coords, write_cases  # noqa: E402

RNG = np.random.default_rng(20261202)


def cases():
    out = []
    for n, density in [(200, 0.004), (300, 0.01), (50, 0.05)]:
        a = sp.random_array((n, n), density=density, rng=RNG) + sp.diags_array([(RNG.random(n) < 0.05) * 1.0], offsets=[0])
        a = sp.csr_array(a)
        a.eliminate_zeros()
        c = coords({"name": f"components_{n}", "group": "components"}, a)
        for key, directed, conn in [("weak", True, "weak"), ("strong", True, "strong"), ("undirected", False, "weak")]:
            k, labels = cg.connected_components(a, directed=directed, connection=conn)
            c[key] = {"n": int(k), "labels": arr(labels.astype(np.int32))}
        out.append(c)
    for d, sym in [("float64", False), ("float64", True), ("float32", True)]:
        n = 30
        a = sp.random_array((n, n), density=0.15, rng=RNG)
        if sym:
            a = a + a.T
        a = sp.csr_array(a.astype(d))
        c = coords({"name": f"laplacian_{'sym' if sym else 'directed'}_{d}", "group": "laplacian", "dtype": d}, a)
        c["plain"] = arr(cg.laplacian(a).toarray())
        c["normed"] = arr(cg.laplacian(a, normed=True).toarray())
        out.append(c)
    m = RNG.random((6, 6))
    m[m < 0.5] = 0
    m[1, 2], m[3, 4] = np.inf, np.nan
    c = {"name": "from_dense", "group": "dense", "dense": arr(m)}
    for key, kw in [("default", {}), ("inf_edges", {"null_value": 0, "nan_null": True, "infinity_null": False})]:
        g = cg.csgraph_from_dense(m, **kw)
        c[key] = arr(cg.csgraph_to_dense(g))
    out.append(c)
    return out


if __name__ == "__main__":
    print("scipy", scipy.__version__)
    write_cases("csgraph", cases())
