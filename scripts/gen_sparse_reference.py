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


def values(n, d, rng=RNG):
    d = np.dtype(d)
    if d.kind == "b":
        return rng.integers(0, 2, n).astype(bool)
    if d.kind in "iu":
        v = rng.integers(0 if d.kind == "u" else -5, 6, n).astype(d)
    elif d.kind == "f":
        v = rng.standard_normal(n).astype(d)
    else:
        v = (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(d)
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


UFUNCS = ["abs", "sin", "sinh", "tan", "tanh", "arcsin", "arcsinh", "arctan", "arctanh", "sqrt", "expm1",
          "log1p", "floor", "ceil", "trunc", "rint", "sign", "deg2rad", "rad2deg"]
BINOPS = {"add": lambda a, b: a + b, "subtract": lambda a, b: a - b, "multiply": lambda a, b: a.multiply(b),
          "maximum": lambda a, b: a.maximum(b), "minimum": lambda a, b: a.minimum(b)}


def coo_of(shape, n, d, dups=True):
    """A COO array of n random coordinates (repeats included when dups) in dtype d."""
    m, k = shape
    row, col = RNG.integers(0, m, n), RNG.integers(0, k, n)
    if not dups:
        keys = np.unique(row * k + col)
        row, col = keys // k, keys % k
    return sp.coo_array((values(len(row), d), (row, col)), shape=shape)


def ops_cases():
    """Arithmetic of two sparse arrays (each format on the left), with dense arrays, and the
    zero-preserving functions: each result as its format and canonical CSR parts."""
    cases = []
    for shape, n in [((4, 5), 9), ((23, 17), 60), ((1, 1), 1)]:
        for d in ["bool", "int8", "int32", "uint16", "float32", "float64", "complex128"]:
            a, b = coo_of(shape, n, d), coo_of(shape, n, d)
            # a shared position whose sum is zero, so that dropping zeros is tested
            if np.dtype(d).kind in "ifc":
                a = sp.coo_array((np.append(a.data, 1).astype(d), (np.append(a.row, 0), np.append(a.col, 0))), shape=shape)
                b = sp.coo_array((np.append(b.data, -1).astype(d), (np.append(b.row, 0), np.append(b.col, 0))), shape=shape)
            dense = values(shape[0] * shape[1], d).reshape(shape)
            c = {"name": f"{shape[0]}x{shape[1]}_{d}", "shape": list(shape), "tol": TOL.get(d, [0, 0]),
                 "a": [arr(a.data), arr(a.row), arr(a.col)], "b": [arr(b.data), arr(b.row), arr(b.col)],
                 "dense": arr(dense), "ops": {}}
            for op, f in BINOPS.items():
                for fmt in ["csr", "csc", "coo"]:
                    key = f"{op}_{fmt}"
                    try:
                        r = f(a.asformat(fmt), b)
                        c["ops"][key] = {"format": r.format, "csr": [arr(r.tocsr().data), arr(r.tocsr().indices), arr(r.tocsr().indptr)]}
                    except Exception as e:  # SciPy refuses (bool subtraction): xp must too
                        c["ops"][key] = {"error": type(e).__name__ + ": " + str(e)}
            csr, bcsr = a.tocsr(), b.tocsr()
            c["diagonal"] = {str(k): arr(csr.diagonal(k)) for k in (-1, 0, 1, 2)}
            c["trace"] = arr(np.asarray(csr.trace()))
            c["tril"] = {str(k): arr(sp.tril(csr, k).toarray()) for k in (-1, 0)}
            c["triu"] = {str(k): arr(sp.triu(csr, k).toarray()) for k in (0, 1)}
            c["find"] = [arr(x) for x in sp.find(csr)]
            c["hstack"] = {f: [sp.hstack([csr.asformat(f), bcsr.asformat(f)]).format,
                               arr(sp.hstack([csr.asformat(f), bcsr.asformat(f)]).toarray())] for f in ("csr", "csc", "coo")}
            c["vstack"] = {f: [sp.vstack([csr.asformat(f), bcsr.asformat(f)]).format,
                               arr(sp.vstack([csr.asformat(f), bcsr.asformat(f)]).toarray())] for f in ("csr", "csc", "coo")}
            c["block_diag"] = arr(sp.block_diag([csr, bcsr]).toarray())
            if shape[0] * shape[1] <= 25:
                c["kron"] = arr(sp.kron(csr, bcsr).toarray())
            red = {}
            for fn in (["max", "min"] if np.dtype(d).kind != "c" else []) + ["mean"]:
                for ax in (None, 0, 1):
                    r = getattr(csr, fn)(axis=ax)
                    red[f"{fn}_{ax}"] = arr(np.asarray(r.toarray() if sp.issparse(r) else r))
                    if fn != "mean":
                        r = getattr(csr, fn)(axis=ax, explicit=True)
                        red[f"{fn}_{ax}_explicit"] = arr(np.asarray(r.toarray() if sp.issparse(r) else r))
            c["reduce"] = red
            prod = (a.tocsr() @ b.T.tocsr()).tocsr()
            prod.sort_indices()
            c["spgemm"] = [arr(prod.data), arr(prod.indices), arr(prod.indptr)]
            c["add_dense"] = arr(a.tocsr() + dense)
            c["multiply_dense"] = arr(a.tocsr().multiply(dense).toarray())
            more(c, a, b, dense, d)
            if np.dtype(d).kind == "f":
                csr = a.tocsr()
                c["ufuncs"] = {u: arr(getattr(csr, u)().data if u != "abs" else abs(csr).data) for u in UFUNCS}
                c["power2"] = arr(csr.power(2).data)
            cases.append(c)
    return cases


CMP = {"eq": "__eq__", "ne": "__ne__", "lt": "__lt__", "le": "__le__", "gt": "__gt__", "ge": "__ge__"}


def more(c, a, b, dense, d):
    """Comparisons (sparse bool results), block_array grids, kronsum and spdiags of case c."""
    import warnings
    warnings.simplefilter("ignore", sp.SparseEfficiencyWarning)
    csr, bcsr = a.tocsr(), b.tocsr()
    ops = ["eq", "ne"] if np.dtype(d).kind == "c" else list(CMP)
    c["compare"] = {}
    for op in ops:
        for fmt in ["csr", "csc", "coo"]:
            r = getattr(a.asformat(fmt), CMP[op])(bcsr)
            c["compare"][f"{op}_{fmt}"] = [r.format, arr(r.toarray()), int(r.nnz)]
        for s in [0, 1, -1]:
            r = getattr(csr, CMP[op])(s)
            c["compare"][f"{op}_scalar_{s}"] = [r.format, arr(r.toarray()), int(r.nnz)]
    blocks = {"a": csr, "b": bcsr}
    grids = [([["a", None], [None, "b"]], "csr"), ([["a"], ["b"]], "csr"), ([["a", "b"]], "csc"),
             ([["a", "b"], ["b", "a"]], "csr"), ([["a", None]], "coo")]
    c["block_array"] = []
    for g, fmt in grids:
        r = sp.block_array([[None if x is None else blocks[x].asformat(fmt) for x in row] for row in g])
        c["block_array"].append({"grid": g, "format": fmt, "result_format": r.format, "dense": arr(r.toarray())})
    k, j = min(csr.shape), min(min(bcsr.shape), 3)
    r = sp.kronsum(csr[:k, :k], bcsr[:j, :j])
    c["kronsum"] = {"k": k, "j": j, "format": r.format, "dense": arr(r.toarray())}
    c["argext"] = {}
    if np.dtype(d).kind != "c":
        dn = csr.toarray()
        csc = csr.tocsc()
        for fn in ("argmax", "argmin"):
            pick = getattr(np, fn)
            for ax in (None, 0, 1):
                # NumPy's answer on the dense array (SciPy's differs where a zero ties)
                c["argext"][f"{fn}_{ax}"] = arr(np.asarray(pick(dn, axis=ax)).astype(np.int64))
                # explicit: among the stored values of the canonical form, written out here
                # (SciPy 1.17 answers the position in `data` over everything)
                if ax is None:
                    if csr.nnz:
                        coo = csr.tocoo()
                        i = pick(coo.data)
                        c["argext"][f"{fn}_{ax}_explicit"] = arr(np.asarray(coo.row[i] * csr.shape[1] + coo.col[i], dtype=np.int64))
                else:
                    mat = csc if ax == 0 else csr
                    out = np.zeros(mat.indptr.size - 1, dtype=np.int64)
                    for k in range(out.size):
                        p, q = mat.indptr[k], mat.indptr[k + 1]
                        if q > p:
                            out[k] = mat.indices[p + pick(mat.data[p:q])]
                    c["argext"][f"{fn}_{ax}_explicit"] = arr(out)
    c["setdiag"] = []
    for k in (0, 1, -2):
        for vals in (dense[0, :2].copy(), np.asarray(dense[0, 0])):
            r = csr.copy()
            try:
                r.setdiag(vals, k)
            except ValueError as e:  # k past the array: xp refuses too
                c["setdiag"].append({"k": k, "values": arr(np.asarray(vals)), "error": str(e)})
                continue
            c["setdiag"].append({"k": k, "values": arr(np.asarray(vals)), "dense": arr(r.toarray()), "nnz": int(r.nnz)})
    with np.errstate(divide="ignore", invalid="ignore"):
        by_scalar = csr / 3
        by_row = csr / dense[0]
        by_sparse = csr / bcsr
    c["divide"] = {"scalar": [by_scalar.format, arr(by_scalar.toarray()), str(by_scalar.dtype)],
                   "dense": [by_row.format, arr(by_row.toarray())]}
    if np.dtype(d).kind != "c":
        # (complex x / 0 differs between NumPy's division and xp's, dense arrays alike: not a
        # sparse question)
        c["divide"]["sparse"] = arr(np.asarray(by_sparse))
    dia = csr.todia()
    c["dia"] = {"data": arr(dia.data), "offsets": arr(dia.offsets), "nnz": int(dia.nnz), "dense": arr(dia.toarray()),
                "coo_nnz": int(dia.tocoo().nnz)}
    m, n = csr.shape
    c["assign"] = []
    zero = np.zeros(1, dtype=dense.dtype)[0]
    for rows, cols, vals in [
        (np.array([0, 0, -1]), np.array([1 % n, 1 % n, 0]), np.array([dense[0, 0], dense[0, -1], zero])),
        (np.array([0, m - 1]), np.array([n - 1, 0]), np.asarray(dense[0, 0])),
    ]:
        r = csr.copy()
        r[rows, cols] = vals
        c["assign"].append({"rows": arr(rows.astype(np.int64)), "cols": arr(cols.astype(np.int64)), "values": arr(np.asarray(vals)),
                            "dense": arr(r.toarray()), "nnz": int(r.nnz)})
    data = dense[: min(2, m)].copy()
    offsets = [0, -1][: data.shape[0]]
    c["spdiags"] = {"data": arr(data), "offsets": offsets, "dense": arr(sp.spdiags(data, offsets, m, n).toarray()),
                    "nnz": int(sp.spdiags(data, offsets, m, n).tocsr().nnz)}


def files():
    """Files written by SciPy's save_npz (tests/data/sparse/), with what they hold."""
    d = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "sparse")
    os.makedirs(d, exist_ok=True)
    out = []
    for name, fmt, dtype, compressed in [("csr_int64", "csr", "int64", True), ("csc_float32", "csc", "float32", False),
                                         ("coo_complex128", "coo", "complex128", True), ("csr_bool", "csr", "bool", False)]:
        a = coo_of((7, 5), 12, dtype).asformat(fmt)
        sp.save_npz(os.path.join(d, name + ".npz"), a, compressed=compressed)
        index = a.indices if fmt != "coo" else a.row
        out.append({"file": name + ".npz", "format": fmt, "compressed": compressed, "nnz": int(a.nnz),
                    "index_dtype": str(index.dtype), "dense": arr(a.toarray())})
    # a banded matrix in the diagonal format (its own generator: the files above stay as they were)
    rng = np.random.default_rng(29)
    a = sp.dia_array((rng.standard_normal((3, 6)), [-1, 0, 2]), shape=(6, 5))
    sp.save_npz(os.path.join(d, "dia_float64.npz"), a, compressed=True)
    out.append({"file": "dia_float64.npz", "format": "dia", "compressed": True, "nnz": int(a.nnz),
                "index_dtype": str(a.offsets.dtype), "dense": arr(a.toarray())})
    # blocks, as SciPy's tobsr orders them (not always by block column)
    rng = np.random.default_rng(2912)
    a = sp.coo_array((rng.standard_normal(9), (rng.integers(0, 6, 9), rng.integers(0, 4, 9))), shape=(6, 4))
    a = a.tocsr().tobsr((2, 2))
    sp.save_npz(os.path.join(d, "bsr_float64.npz"), a, compressed=False)
    out.append({"file": "bsr_float64.npz", "format": "bsr", "compressed": False, "nnz": int(a.nnz),
                "index_dtype": str(a.indices.dtype), "dense": arr(a.toarray())})
    return out


def mtx_files():
    """Matrix Market files written by SciPy's mmwrite (tests/data/sparse/), with their arrays."""
    import scipy.io
    d = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "sparse")
    out = []
    sym = coo_of((6, 6), 9, "float64", dups=False)
    sym = (sym + sym.T).tocoo()
    herm = coo_of((5, 5), 7, "complex128", dups=False)
    herm = (herm + herm.conj().T).tocoo()
    skew = coo_of((5, 5), 7, "float64", dups=False)
    skew = (skew - skew.T).tocoo()
    ints = coo_of((4, 7), 8, "int64", dups=False)
    for name, a, kw in [("general_real", coo_of((7, 4), 10, "float64", dups=False), {}),
                        ("symmetric_real", sym, {"symmetry": "symmetric"}),
                        ("hermitian_complex", herm, {"symmetry": "hermitian"}),
                        ("skew_real", skew, {"symmetry": "skew-symmetric"}),
                        ("general_integer", ints, {}),
                        ("pattern", ints, {"field": "pattern"})]:
        path = os.path.join(d, name + ".mtx")
        scipy.io.mmwrite(path, a, **kw)
        back = scipy.io.mmread(path)
        out.append({"file": name + ".mtx", "dense": arr(back.toarray())})
    return out


def bsr_cases():
    """The block format (its own generator, so the data above stays as it was): SciPy's tobsr of
    a CSR array with duplicates and explicit zeros in several block sizes, its parts as SciPy
    orders them (and sorted), what it converts to, its product, transpose and arithmetic; the
    block size SciPy estimates; kron's choice of format."""
    rng = np.random.default_rng(2911)

    def vals(n, d):
        return values(n, d, rng)

    def coo(shape, n, d):
        return sp.coo_array((vals(n, d), (rng.integers(0, shape[0], n), rng.integers(0, shape[1], n))), shape=shape)

    cases = []
    for shape, n, sizes in [((6, 8), 14, [(2, 2), (2, 4), (3, 1), (1, 1)]), ((4, 6), 0, [(2, 3)]),
                            ((0, 4), 0, [(1, 2)]), ((9, 9), 30, [(3, 3)])]:
        for d in ["bool", "int8", "int64", "uint16", "float32", "float64", "complex128"]:
            a, b = coo(shape, n, d).tocsr(), coo(shape, n, d).tocsr()
            xd = np.dtype("float64") if d == "bool" else np.dtype(d)
            x = vals(shape[1], xd) if shape[1] else np.zeros(0, xd)
            for bs in sizes:
                r = a.tobsr(bs)
                s_ = r.copy()
                s_.sort_indices()
                t = r.T
                c = {"name": f"bsr_{shape[0]}x{shape[1]}_{bs[0]}x{bs[1]}_{d}", "shape": list(shape), "blocksize": list(bs),
                     "csr": [arr(a.data), arr(a.indices), arr(a.indptr)],
                     "scipy": [arr(r.data), arr(r.indices), arr(r.indptr)],
                     "sorted": [arr(s_.data), arr(s_.indices), arr(s_.indptr)],
                     "dense": arr(r.toarray()), "nnz": int(r.nnz),
                     "tocsr": [arr(s_.tocsr().data), arr(s_.tocsr().indices), arr(s_.tocsr().indptr)],
                     "coo_nnz": int(r.tocoo().nnz),
                     "x": arr(x), "matvec": arr(r @ x), "tol": TOL.get(str(xd), [0, 0]),
                     "transpose": [list(t.blocksize), arr(t.toarray())]}
                if d != "bool":
                    rb = b.tobsr(bs)
                    s2 = rb + r
                    c["other"] = [arr(b.data), arr(b.indices), arr(b.indptr)]
                    c["add"] = [s2.format, arr(s2.toarray())]
                    if np.dtype(d).kind != "c":
                        mx = r.maximum(rb)
                        c["maximum"] = [mx.format, arr(mx.toarray())]
                    prod = r @ rb.T
                    c["matmul"] = [prod.format, list(prod.blocksize), arr(prod.toarray())]
                ez = r.copy()
                ez.eliminate_zeros()
                c["eliminated_nnz"] = int(ez.nnz)
                cases.append(c)
    est = []
    base = coo((6, 6), 10, "float64").tocsr()
    for name, m in [("random", base), ("ones2", sp.kron(base, np.ones((2, 2)), format="csr")),
                    ("ones3", sp.kron(base, np.ones((3, 3)), format="csr")),
                    ("ones4", sp.kron(base, np.ones((4, 4)), format="csr")),
                    ("ones6", sp.kron(base, np.ones((6, 6)), format="csr")), ("eye", sp.eye_array(12, format="csr"))]:
        est.append({"name": name, "csr": [arr(m.data), arr(m.indices), arr(m.indptr)], "shape": list(m.shape),
                    "blocksize": list(m.tobsr().blocksize)})
    kr = []
    small = coo((3, 4), 5, "float64").tocsr()
    for name, b in [("dense_b", sp.csr_array(np.array([[1.0, 2.0], [0.0, 3.0]]))),
                    ("sparse_b", sp.csr_array(np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 3.0]]))),
                    ("empty_a", sp.csr_array((3, 2)))]:
        a_ = small if name != "empty_a" else sp.csr_array((3, 4))
        b_ = b if name != "empty_a" else sp.csr_array(np.ones((2, 2)))
        k = sp.kron(a_, b_)
        kr.append({"name": name, "a": [arr(a_.data), arr(a_.indices), arr(a_.indptr)], "a_shape": list(a_.shape),
                   "b": arr(b_.toarray()), "format": k.format,
                   "blocksize": list(k.blocksize) if k.format == "bsr" else None, "dense": arr(k.toarray())})
    return [{"cases": cases, "estimate": est, "kron": kr}]


def main():
    cases = [case(name, shape, row, col, d) for name, shape, row, col in matrices() for d in DTYPES]
    write_cases("sparse", cases)
    write_cases("sparse_ops", ops_cases())
    write_cases("sparse_files", files())
    write_cases("sparse_mtx", mtx_files())
    write_cases("sparse_bsr", bsr_cases())
    print("scipy", scipy.__version__)


if __name__ == "__main__":
    main()
