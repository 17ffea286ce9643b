#!/usr/bin/env python3
"""Generate tests/data/stacks.json: stacks of small matrices for xp's batched decompositions
(issue 26), with NumPy's singular values, eigenvalues and |diag R| of each in every float dtype.

Run from the repository root:  python3 scripts/gen_stack_reference.py
Needs numpy (2.x) and ml_dtypes (for gen_reference's encoding).

Each stack holds three matrices: a random one (uniform in [-1, 1), complex parts too), a
rank-deficient one (rank max(1, k // 2)) and one with repeated singular values (Q diag(d) Wᴴ,
d = 1 + i // 3; Hermitian positive definite when square, so its eigenvalues repeat too). Values
are rounded to 7 significant digits so that the data stay small; the tests make the Hermitian
input of eigh as (A + Aᴴ) / 2 and the positive-definite input of Cholesky as A Aᴴ / n + I
themselves, in float64, then cast to the case's dtype, as this script does.

{"inputs": {name: array}, "cases": [{"op", "input", "dtype", "values" | null}]}
  op "svd":  values = NumPy's singular values of the input cast to dtype
  op "eigh": values = NumPy's eigenvalues of (A + Aᴴ) / 2 cast to dtype
  op "qr":   values = NumPy's |diag R| of the input cast to dtype (rank-deficient member zeroed: its
             trailing diagonal is rounding noise, not compared)
"""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from gen_reference import OUT, arr  # noqa: E402

RNG = np.random.default_rng(20261125)
SQUARE = [1, 2, 8, 31, 32, 33, 64, 65]
RECT = [(65, 33), (33, 65), (40, 8), (8, 40), (3, 1), (1, 3)]
DTYPES = {"real": ["float32", "float64"], "complex": ["complex64", "complex128"]}


def r7(a):
    """Round every value to 7 significant digits (both parts of a complex)."""
    f = np.vectorize(lambda v: float(f"{v:.7g}"))
    if np.iscomplexobj(a):
        return f(a.real) + 1j * f(a.imag)
    return f(a)


def uniform(shape, cplx):
    x = RNG.uniform(-1, 1, shape)
    return x + 1j * RNG.uniform(-1, 1, shape) if cplx else x


def unitary(n, cplx):
    q, r = np.linalg.qr(uniform((n, n), cplx))
    return q * (np.diag(r) / np.abs(np.diag(r)))


def stack(m, n, cplx):
    k = min(m, n)
    rank = max(1, k // 2)
    a0 = uniform((m, n), cplx)
    a1 = uniform((m, rank), cplx) @ uniform((rank, n), cplx)
    d = 1.0 + np.arange(k) // 3
    q, w = unitary(m, cplx), unitary(n, cplx)
    if m == n:
        w = q  # Hermitian positive definite: repeated eigenvalues as well
    a2 = (q[:, :k] * d) @ np.conj(w[:, :k]).T
    return r7(np.stack([a0, a1, a2]))


def main():
    inputs, cases = {}, []
    for kind, cplx in [("real", False), ("complex", True)]:
        for m, n in [(s, s) for s in SQUARE] + RECT:
            name = f"{kind}_{m}x{n}"
            a = stack(m, n, cplx)
            inputs[name] = arr(a)
            for dname in DTYPES[kind]:
                x = a.astype(dname)
                cases.append({"op": "svd", "input": name, "dtype": dname, "values": arr(np.linalg.svd(x, compute_uv=False))})
                r = np.linalg.qr(x, mode="r")
                diag = np.abs(np.diagonal(r, axis1=-2, axis2=-1)).copy()
                diag[1] = 0
                cases.append({"op": "qr", "input": name, "dtype": dname, "values": arr(diag)})
                if m == n:
                    h = ((a + np.conj(np.swapaxes(a, -1, -2))) / 2).astype(dname)
                    cases.append({"op": "eigh", "input": name, "dtype": dname, "values": arr(np.linalg.eigvalsh(h))})
                    cases.append({"op": "cholesky", "input": name, "dtype": dname, "values": None})
    os.makedirs(OUT, exist_ok=True)
    path = os.path.join(OUT, "stacks.json")
    with open(path, "w") as f:
        json.dump({"generator": "scripts/" + os.path.basename(sys.argv[0]), "numpy_version": np.__version__, "inputs": inputs, "cases": cases}, f, separators=(",", ":"))
    print("stacks", len(cases), os.path.getsize(path))


if __name__ == "__main__":
    main()
