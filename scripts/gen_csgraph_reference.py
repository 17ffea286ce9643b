#!/usr/bin/env python3
"""Generate the SciPy reference data of xp's csgraph tests: tests/data/csgraph.json.

Run from the repository root:  python3 scripts/gen_csgraph_reference.py
Needs numpy, scipy (versions in scripts/requirements.txt). Uses the encoding of gen_reference.py.

Cases ("group"): "components" — random directed graphs (sparse enough to have many components,
with self-loops and isolated vertices) with SciPy's connected_components for (directed, weak),
(directed, strong) and undirected; "laplacian" — weighted directed and symmetric graphs with
SciPy's laplacian, plain and normed; "dense" — a dense matrix with zeros, inf and NaN and
csgraph_from_dense's answers; "traversal" — breadth- and depth-first orders, predecessors and
trees from several starts, directed and not; "paths" — shortest paths by every method (positive,
undirected, negative-weight and negative-cycle graphs, sources, unweighted, Dijkstra's limit and
min_only); "mst" — minimum spanning trees; "rcm" — reverse Cuthill–McKee orders with their
bandwidths; "matching" — maximum bipartite matchings' sizes and structural ranks.
Trees are stored as coordinates (row, col, data) of their edges.
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
    # a CSR array with duplicate entries (the lightest is the edge), an explicit zero (an edge of
    # weight 0) and a negative weight; its parts read as CSC give the transpose
    data, indices, indptr = np.array([2.0, 3.0, 0.0, -1.0, 4.0, 1.5]), np.array([1, 1, 0, 2, 2, 2]), np.array([0, 2, 4, 6])
    g = sp.csr_array((data, indices, indptr), shape=(3, 3))
    out.append({"name": "to_dense_duplicates", "group": "to_dense", "data": arr(data),
                "indices": arr(indices.astype(np.int32)), "indptr": arr(indptr.astype(np.int32)),
                "zero": arr(cg.csgraph_to_dense(g)), "inf": arr(cg.csgraph_to_dense(g, null_value=np.inf)),
                "csc_zero": arr(cg.csgraph_to_dense(sp.csc_array((data, indices, indptr), shape=(3, 3))))})
    out += traversal() + paths() + spanning() + rcm() + matching()
    return out


def canonical(a):
    a = sp.csr_array(a)
    a.sum_duplicates()
    a.sort_indices()
    a.eliminate_zeros()
    return a


def edges(t):
    t = sp.coo_array(t)
    return {"row": arr(t.row.astype(np.int64)), "col": arr(t.col.astype(np.int64)), "data": arr(t.data)}


def traversal():
    out = []
    for n, density in [(40, 0.06), (30, 0.04)]:
        a = canonical(sp.random_array((n, n), density=density, rng=RNG))
        runs = []
        for start in [0, n // 2, n - 1]:
            for directed in [True, False]:
                bo, bp = cg.breadth_first_order(a, start, directed)
                do, dp = cg.depth_first_order(a, start, directed)
                runs.append({"start": start, "directed": directed, "bfs_order": arr(bo), "bfs_pred": arr(bp),
                             "dfs_order": arr(do), "dfs_pred": arr(dp),
                             "bfs_tree": edges(cg.breadth_first_tree(a, start, directed)),
                             "dfs_tree": edges(cg.depth_first_tree(a, start, directed))})
        out.append(coords({"name": f"traversal_{n}", "group": "traversal", "runs": runs}, a))
    return out


def all_methods(a, directed, methods, **kw):
    """The methods' answers, checked to agree (unique shortest paths: random weights)."""
    res = [cg.shortest_path(a, method=m, directed=directed, return_predecessors=True, **kw) for m in methods]
    for d, p in res[1:]:
        assert np.allclose(d, res[0][0], rtol=1e-12, atol=1e-12) and (p == res[0][1]).all()
    return {"dist": arr(res[0][0]), "pred": arr(res[0][1])}


def paths():
    out = []
    n = 24
    pos = canonical(sp.random_array((n, n), density=0.15, rng=RNG, data_sampler=lambda size: RNG.random(size) + 0.1))
    upper = canonical(sp.triu(pos, k=1))
    neg = canonical(sp.triu(sp.random_array((n, n), density=0.2, rng=RNG, data_sampler=lambda size: RNG.random(size) * 1.5 - 0.5), k=1))
    c = coords({"name": "paths_positive", "group": "paths", "graph": "positive"}, pos)
    c["all"] = all_methods(pos, True, ["D", "BF", "J", "FW"])
    c["sources"] = [0, 7, -1]
    c["from_sources"] = all_methods(pos, True, ["D", "BF", "J"], indices=c["sources"])
    c["unweighted"] = arr(cg.shortest_path(pos, method="D", unweighted=True))
    c["limit"] = 0.8
    c["limited"] = arr(cg.dijkstra(pos, limit=0.8))
    d, p, srcs = cg.dijkstra(pos, indices=[0, 5, 11], min_only=True, return_predecessors=True)
    c["min_only"] = {"sources": [0, 5, 11], "dist": arr(d), "pred": arr(p), "source": arr(srcs)}
    out.append(c)
    c = coords({"name": "paths_undirected", "group": "paths", "graph": "undirected"}, upper)
    c["all"] = all_methods(upper, False, ["D", "BF", "J", "FW"])
    out.append(c)
    c = coords({"name": "paths_negative", "group": "paths", "graph": "negative"}, neg)
    c["all"] = all_methods(neg, True, ["BF", "J", "FW"])
    out.append(c)
    # a negative cycle 0 -> 1 -> 2 -> 0 (total -1), with a tail 2 -> 3
    cyc = canonical(sp.csr_array(([1.0, 1.0, -3.0, 2.0], ([0, 1, 2, 2], [1, 2, 0, 3])), shape=(4, 4)))
    for m in ["BF", "J", "FW"]:
        try:
            cg.shortest_path(cyc, method=m)
            raise AssertionError("no negative cycle found")
        except cg.NegativeCycleError:
            pass
    out.append(coords({"name": "paths_negative_cycle", "group": "paths", "graph": "cycle"}, cyc))
    return out


def spanning():
    out = []
    for n, density, sym in [(40, 0.1, False), (25, 0.2, True)]:
        a = sp.random_array((n, n), density=density, rng=RNG)
        a = canonical(a + a.T if sym else a)
        out.append(coords({"name": f"mst_{n}", "group": "mst", "tree": edges(cg.minimum_spanning_tree(a))}, a))
    return out


def bandwidth(a, perm):
    b = sp.coo_array(a[perm][:, perm])
    return int(np.abs(b.row - b.col).max())


def rcm():
    out = []
    for n, density, sym in [(60, 0.04, True), (50, 0.05, False)]:
        a = sp.random_array((n, n), density=density, rng=RNG)
        a = canonical(a + a.T if sym else a)
        perm = cg.reverse_cuthill_mckee(a, symmetric_mode=sym)
        c = coords({"name": f"rcm_{n}", "group": "rcm", "symmetric": sym, "perm": arr(perm),
                    "bandwidth": bandwidth(a + a.T, perm), "original": bandwidth(a + a.T, np.arange(n))}, a)
        out.append(c)
    return out


def matching():
    out = []
    for m, n, density in [(30, 40, 0.04), (40, 30, 0.04), (50, 50, 0.03)]:
        a = canonical(sp.random_array((m, n), density=density, rng=RNG))
        c = coords({"name": f"matching_{m}x{n}", "group": "matching"}, a)
        c["rows"] = int((cg.maximum_bipartite_matching(a, perm_type="row") >= 0).sum())
        c["columns"] = int((cg.maximum_bipartite_matching(a, perm_type="column") >= 0).sum())
        c["rank"] = int(cg.structural_rank(a))
        out.append(c)
    return out


if __name__ == "__main__":
    print("scipy", scipy.__version__)
    write_cases("csgraph", cases())
