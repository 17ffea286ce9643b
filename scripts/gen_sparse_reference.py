#!/usr/bin/env python3
"""Generate the SciPy reference data of xp's sparse-array tests: tests/data/sparse.json.

Run from the repository root:  python3 scripts/gen_sparse_reference.py
Needs numpy, scipy (versions in scripts/requirements.txt). Uses the encoding of gen_reference.py.

Each case is one matrix given as coordinates (duplicates, unsorted order and explicit zeros on
purpose), in one value dtype, with what SciPy's sparse *arrays* make of it: the CSR and CSC parts
(`tocsr`/`tocsc` sum duplicates and sort), the dense array, products with dense vectors and
matrices from both sides, sums over all, rows and columns, the parts after `eliminate_zeros`,
and the transpose. "tol" is [rtol, atol] for the products and sums (exact for integers and bool).
"""
import os
import sys

import numpy as np
import scipy
import scipy.sparse as sp

sys.path.insert(0, os.path.dirname(__file__))
from gen_reference import arr, write_cases  # noqa: E402

RNG = np.random.default_rng(20261127)
# SciPy's sparse arrays take every NumPy dtype but float16 (and have no bfloat16)
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64", "complex64", "complex128"]
TOL = {"float32": [2e-6, 1e-6], "complex64": [2e-6, 1e-6], "float64": [1e-13, 1e-13], "complex128": [1e-13, 1e-13]}


def values(n, d):
    d = np.dtype(d)
    if d.kind == "b":
        return RNG.integers(0, 2, n).astype(bool)
    if d.kind in "iu":
        v = RNG.integers(0 if d.kind == "u" else -5, 6, n).astype(d)
    elif d.kind == "f":
        v = RNG.standard_normal(n).astype(d)
    else:
        v = (RNG.standard_normal(n) + 1j * RNG.standard_normal(n)).astype(d)
    if n > 3:
        v[3] = 0  # an explicit zero
    return v


def matrices():
    """(name, shape, row, col) coordinate sets."""
    yield "empty", (4, 5), [], []
    yield "zero_rows", (0, 3), [], []
    yield "one", (1, 1), [0], [0]
    yield "dups_unsorted", (4, 5), [3, 0, 2, 0, 3, 1, 0], [4, 2, 1, 2, 0, 3, 2]
    yield "empty_rows_and_cols", (6, 7), [5, 0, 5, 2], [6, 0, 1, 6]
    n = 60
    yield "random", (23, 17), list(RNG.integers(0, 23, n)), list(RNG.integers(0, 17, n))
    yield "wide", (3, 40), list(RNG.integers(0, 3, 50)), list(RNG.integers(0, 40, 50))


def case(name, shape, row, col, d):
    data = values(len(row), d)
    row, col = np.array(row, dtype=np.int64), np.array(col, dtype=np.int64)
    coo = sp.coo_array((data, (row, col)), shape=shape)
    csr, csc = coo.tocsr(), coo.tocsc()
    m, n = shape
    # dense operands in the value dtype (float64 for bool values, so products are not just or/and)
    xd = np.dtype(d)
    x = values(n, xd) if n else np.zeros(0, xd)
    xm = np.stack([values(n, xd) for _ in range(3)], axis=1) if n else np.zeros((0, 3), xd)
    y = values(m, xd) if m else np.zeros(0, xd)
    c = {
        "name": f"{name}_{d}",
        "shape": list(shape),
        "data": arr(data), "row": arr(row), "col": arr(col),
        "csr": [arr(csr.data), arr(csr.indices), arr(csr.indptr)],
        "csc": [arr(csc.data), arr(csc.indices), arr(csc.indptr)],
        "dense": arr(coo.toarray()),
        "x": arr(x), "matvec": arr(csr @ x),
        "xm": arr(xm), "matmat": arr(csr @ xm),
        "y": arr(y), "rmatvec": arr(y @ csr),
        "sum": arr(np.asarray(csr.sum())), "sum0": arr(csr.sum(axis=0)), "sum1": arr(csr.sum(axis=1)),
        "tol": TOL.get(d, [0, 0]),
    }
    ez = csr.copy()
    ez.eliminate_zeros()
    c["eliminated"] = [arr(ez.data), arr(ez.indices), arr(ez.indptr)]
    return c


def main():
    cases = [case(name, shape, row, col, d) for name, shape, row, col in matrices() for d in DTYPES]
    write_cases("sparse", cases)
    print("scipy", scipy.__version__)


if __name__ == "__main__":
    main()
