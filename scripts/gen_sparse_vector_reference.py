#!/usr/bin/env python3
"""Generate the SciPy reference data of xp's 1-D sparse-array tests: tests/data/sparse_vector.json,
and two 1-D arrays written by SciPy's save_npz (tests/data/sparse/coo1d_float64.npz,
csr1d_int32.npz).

Run from the repository root:  python3 scripts/gen_sparse_vector_reference.py
Needs numpy, scipy >= 1.15 (1-D coo_array and csr_array; versions in scripts/requirements.txt).
Uses the encoding of gen_reference.py.

Each case is one vector given as coordinates (duplicates, unsorted order and explicit zeros on
purpose; int32 or int64 coordinates), in one value dtype, with a second vector of the same length
and what SciPy's 1-D sparse arrays make of them: the CSR parts, arithmetic and comparisons of the
two (result format, dense form, stored count), products with dense and sparse operands from
both sides, reductions, indexing, and the rows, columns and `max(axis)` of a 2-D array as 1-D
arrays. A result SciPy refuses is recorded as null and not tested.
"""
import os
import sys
import warnings

import numpy as np
import scipy
import scipy.sparse as sp

sys.path.insert(0, os.path.dirname(__file__))
from gen_reference import arr, write_cases  # noqa: E402
from gen_sparse_reference import DTYPES, TOL, values  # noqa: E402

RNG = np.random.default_rng(2911)
warnings.simplefilter("ignore")


def vectors():
    """(name, length, coordinates) sets."""
    yield "empty", 5, []
    yield "zero_length", 0, []
    yield "one", 1, [0]
    yield "dups_unsorted", 7, [5, 0, 3, 0, 5, 1, 6]
    yield "random", 40, list(RNG.integers(0, 40, 25))


def sparse_result(r):
    """[format, dense, nnz] of a sparse result, or the dense result itself."""
    if sp.issparse(r):
        return [r.format, arr(r.toarray()), int(r.nnz)]
    return arr(np.asarray(r))


def attempt(f):
    try:
        return sparse_result(f())
    except Exception:  # SciPy refuses it: not tested
        return None


def case(name, n, coords, d, k):
    ix = np.int64 if k % 2 else np.int32
    data = values(len(coords), d)
    cv = np.array(coords, dtype=ix)
    wc = RNG.integers(0, n, max(n // 2, 1)) if n else np.zeros(0, np.int64)
    wd = values(len(wc), d)

    # SciPy 1.17.1's 1-D COO `tocsr` (and so `v + w`, ...) adds duplicates into `data` in place,
    # so that the array afterwards reads differently: every use gets arrays of its own
    def V():
        return sp.coo_array((data.copy(), (cv.copy(),)), shape=(n,))

    def W():
        return sp.coo_array((wd.copy(), (wc.copy(),)), shape=(n,))

    v, w = V(), W()
    xd = np.dtype(d)
    x = values(n, xd) if n else np.zeros(0, xd)
    xnz = np.where(x == 0, np.ones(1, xd), x) if xd.kind != "b" else np.ones(n, xd)
    xm = np.stack([values(n, xd) for _ in range(3)], axis=1) if n else np.zeros((0, 3), xd)
    ym = np.stack([values(n, xd) for _ in range(4)], axis=0) if n else np.zeros((4, 0), xd)
    bmat = sp.random_array((n, 5), density=0.5, rng=RNG, dtype=np.float64).astype(d).tocsr()
    amat = sp.random_array((6, n), density=0.5, rng=RNG, dtype=np.float64).astype(d).tocsr()
    csr = V().tocsr()
    dense = V().toarray()
    c = {
        "name": f"{name}_{d}_{np.dtype(ix).name}",
        "len": n,
        "data": arr(data), "coords": arr(np.array(coords, dtype=ix)),
        "w": [arr(wd), arr(wc)],
        "dense": arr(dense),
        "csr": [arr(csr.data), arr(csr.indices), arr(csr.indptr)],
        "count_nonzero": int(v.count_nonzero()),
        "nonzero": arr(v.nonzero()[0].astype(np.int64)),
        "tol": TOL.get(d, [0, 0]),
        "x": arr(x), "xnz": arr(xnz), "xm": arr(xm), "ym": arr(ym),
        "bmat": [arr(bmat.data), arr(bmat.indices), arr(bmat.indptr), list(bmat.shape)],
        "amat": [arr(amat.data), arr(amat.indices), arr(amat.indptr), list(amat.shape)],
    }
    ops = {
        "add": lambda: V() + W(), "sub": lambda: V() - W(), "multiply": lambda: V().multiply(W()),
        "maximum": lambda: V().maximum(W()), "minimum": lambda: V().minimum(W()),
        "ne": lambda: V() != W(), "lt": lambda: V() < W(), "gt": lambda: V() > W(), "eq": lambda: V() == W(),
        "le": lambda: V() <= W(), "ge": lambda: V() >= W(),
        "gt_scalar": lambda: V() > 0, "ne_scalar": lambda: V() != 0, "lt_scalar": lambda: V() < 1,
        "multiply_dense": lambda: V().multiply(x), "add_dense": lambda: V() + x, "divide_dense": lambda: V() / xnz,
        # (SciPy divides a bool array's duplicates apart, so that a duplicated True reads 1.0
        # where `toarray() / 2` reads 0.5: the canonical form's, as NumPy's dense answer)
        "divide_scalar": lambda: (V().tocsr().tocoo() if xd.kind == "b" else V()) / 2.0, "mul_scalar": lambda: V() * 3, "power": lambda: V().power(2),
        "abs": lambda: abs(V()), "neg": lambda: -V(),
        "matvec": lambda: V() @ x, "matmat": lambda: V() @ xm, "rmatmat": lambda: ym @ V(), "rmatvec": lambda: x @ V(),
        # (SciPy 1.17.1's `v @ w` of two sparse vectors answers uninitialised memory where the
        # product stores nothing, e.g. 2147483647 for [0] @ [4]: NumPy's product of the dense ones)
        "dot_sparse": lambda: np.asarray(V().toarray() @ W().toarray()), "matmul_sparse": lambda: V() @ bmat, "matrix_vector": lambda: amat @ V(),
        # (SciPy's `mean` of a bool array counts a duplicated True twice where its `sum` and
        # `toarray` count it once: the mean of the canonical form, which agrees with NumPy's)
        "sum": lambda: V().sum(), "mean": lambda: V().tocsr().mean(),
        "max": lambda: V().max(), "min": lambda: V().min(),
        "max_explicit": lambda: V().max(explicit=True), "min_explicit": lambda: V().min(explicit=True),
        # NumPy's argmax of the dense array (SciPy's answers a position in `data` at times)
        "argmax": lambda: np.int64(np.argmax(dense)), "argmin": lambda: np.int64(np.argmin(dense)),
    }
    if n:
        ops.update({
            "get_0": lambda: V().tocsr()[0], "get_last": lambda: V().tocsr()[-1], "get_mid": lambda: V().tocsr()[n // 2],
            "slice_1_none_2": lambda: V().tocsr()[1::2], "slice_reversed": lambda: V().tocsr()[::-1],
            "slice_last3": lambda: V().tocsr()[-3:],
            "take": lambda: V().tocsr()[np.array([n - 1, 0, 0, -1])],
            "mask": lambda: V().tocsr()[np.arange(n) % 2 == 0],
        })
    if n and n % 2 == 0:
        ops["reshape"] = lambda: V().reshape((2, n // 2))
    if xd.kind != "c":
        # (complex x / 0 differs between NumPy's division and xp's, dense arrays alike: not a
        # sparse question)
        ops["divide"] = lambda: V() / W()
    c["ops"] = {k_: attempt(f) for k_, f in ops.items()}
    # rows, columns and extremes along an axis of a 2-D array, as 1-D arrays
    if n:
        m2 = sp.coo_array((values(3 * n, d), (RNG.integers(0, 5, 3 * n), RNG.integers(0, n, 3 * n))), shape=(5, n))
        m2 = m2.tocsr()
        c["matrix"] = [arr(m2.data), arr(m2.indices), arr(m2.indptr), list(m2.shape)]
        lines = {"row_1": lambda: m2[1], "row_last": lambda: m2[-1], "col_0": lambda: m2[:, 0],
                 "col_last": lambda: m2[:, -1], "csc_col_0": lambda: m2.tocsc()[:, 0]}
        for ax in (0, 1):
            lines[f"max_{ax}"] = (lambda ax=ax: m2.max(axis=ax))
            lines[f"min_{ax}"] = (lambda ax=ax: m2.min(axis=ax))
        c["lines"] = {k_: attempt(f) for k_, f in lines.items()}
    return c


def files():
    """1-D arrays written by SciPy's save_npz (tests/data/sparse/), with what they hold."""
    d = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "sparse")
    os.makedirs(d, exist_ok=True)
    rng = np.random.default_rng(291)
    out = []
    v = sp.coo_array((rng.standard_normal(6), (np.array([9, 2, 4, 2, 0, 7]),)), shape=(11,))
    sp.save_npz(os.path.join(d, "coo1d_float64.npz"), v, compressed=True)
    out.append({"file": "coo1d_float64.npz", "format": "coo", "nnz": int(v.nnz), "dense": arr(v.toarray())})
    c = sp.csr_array(rng.integers(-3, 4, 13).astype(np.int32))
    sp.save_npz(os.path.join(d, "csr1d_int32.npz"), c, compressed=False)
    out.append({"file": "csr1d_int32.npz", "format": "csr", "nnz": int(c.nnz), "dense": arr(c.toarray())})
    return out


def main():
    cases = [case(name, n, coords, d, k) for name, n, coords in vectors() for k, d in enumerate(DTYPES)]
    write_cases("sparse_vector", cases)
    write_cases("sparse_vector_files", files())
    print("scipy", scipy.__version__)


if __name__ == "__main__":
    main()
