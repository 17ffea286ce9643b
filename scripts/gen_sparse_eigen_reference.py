#!/usr/bin/env python3
"""Generate the reference data of xp's sparse eigensolver tests: tests/data/sparse_eigen.json.

Run from the repository root:  python3 scripts/gen_sparse_eigen_reference.py
Needs numpy, scipy (versions in scripts/requirements.txt). Uses the encoding of gen_reference.py.

The reference eigenvalues are the dense decomposition's (numpy.linalg.eigvalsh / eigvals / svd
in float64 or complex128) of the same matrix, selected as SciPy's `which` selects them; SciPy's
ARPACK answer is stored too where it converges ("scipy"). Cases ("group"):
- "eigsh": CuPy's failing cases (the identity, k = 6; the 2-D Laplacian of a 26 x 26 grid in
  float32 with k = 1, 20 and 300) and random sparse real symmetric and complex Hermitian
  matrices with every `which` and a shift-invert case.
- "eigs": random sparse non-symmetric matrices, real and complex, with LM, SR, LI and a shift.
- "svds": random sparse rectangular matrices, the k largest singular values.
"""
import os
import sys

import numpy as np
import scipy
import scipy.sparse as sp
import scipy.sparse.linalg as sla

sys.path.insert(0, os.path.dirname(__file__))
from gen_reference import arr, coords, write_cases  # noqa: E402

RNG = np.random.default_rng(20261130)


def pick(w, which, k, sigma=None, real=False):
    w = np.asarray(w)
    t = w if sigma is None else 1.0 / (w - sigma)
    im = np.abs(t.imag) if real else t.imag  # ARPACK's real driver ranks LI/SI by |Im|
    key = {"LM": -np.abs(t), "SM": np.abs(t), "LA": -t.real, "SA": t.real, "LR": -t.real, "SR": t.real, "LI": -im, "SI": im}
    if which == "BE":
        s = np.sort(w.real)
        hi, lo = (k + 1) // 2, k // 2
        return np.sort(np.concatenate([s[len(s) - hi:], s[:lo]]))
    idx = np.argsort(key[which], kind="stable")[:k]
    return w[idx]


def laplacian2d(k):
    t = sp.diags_array([-1.0, 2.0, -1.0], offsets=[-1, 0, 1], shape=(k, k))
    return sp.kronsum(t, t).tocsr()


def eigsh_cases():
    cases = []
    for d in ["float32", "float64"]:
        a = sp.eye_array(100, dtype=d)
        c = coords({"name": f"eigsh_identity_{d}", "group": "eigsh", "dtype": d, "k": 6, "which": "LM"}, a)
        c["w"] = arr(np.ones(6))
        cases.append(c)
    lap = laplacian2d(26).astype(np.float32)  # n = 676: room for ncv = 601 at k = 300
    wl = np.linalg.eigvalsh(lap.astype(np.float64).toarray())
    for k in [1, 20, 300]:
        c = coords({"name": f"eigsh_laplacian_k{k}_float32", "group": "eigsh", "dtype": "float32", "k": k, "which": "LM"}, lap)
        c["w"] = arr(np.sort(pick(wl, "LM", k)))
        cases.append(c)
    c = coords({"name": "eigsh_laplacian_SA_k8_float32", "group": "eigsh", "dtype": "float32", "k": 8, "which": "SA"}, lap)
    c["w"] = arr(np.sort(pick(wl, "SA", 8)))
    cases.append(c)
    n = 150
    for d in ["float32", "float64", "complex64", "complex128"]:
        r = sp.random_array((n, n), density=0.04, rng=RNG)
        a = r + r.T + sp.diags_array(RNG.standard_normal(n) * 3, offsets=0)
        if np.dtype(d).kind == "c":
            s = sp.random_array((n, n), density=0.04, rng=RNG)
            a = a + 1j * (s - s.T)
        a = sp.csr_array(a.astype(d))
        w = np.linalg.eigvalsh(a.astype(np.complex128 if np.dtype(d).kind == "c" else np.float64).toarray())
        for which in ["LM", "SM", "LA", "SA", "BE"]:
            if which == "BE" and np.dtype(d).kind == "c":
                continue  # SciPy: "which='BE' cannot be used with complex matrix A"
            k = 5
            c = coords({"name": f"eigsh_random_{which}_{d}", "group": "eigsh", "dtype": d, "k": k, "which": which}, a)
            c["w"] = arr(np.sort(pick(w, which, k)))
            try:
                c["scipy"] = arr(np.sort(sla.eigsh(a, k=k, which=which, return_eigenvectors=False)))
            except sla.ArpackNoConvergence:
                pass
            cases.append(c)
        c = coords({"name": f"eigsh_shift_invert_{d}", "group": "eigsh", "dtype": d, "k": 4, "which": "LM", "sigma": 0.5}, a)
        c["w"] = arr(np.sort(pick(w, "LM", 4, sigma=0.5).real))
        cases.append(c)
    return cases


def eigs_cases():
    cases = []
    n = 120
    for d in ["float64", "complex128", "float32"]:
        r = sp.random_array((n, n), density=0.05, rng=RNG)
        a = r + sp.diags_array(np.linspace(1, 10, n), offsets=0)
        if np.dtype(d).kind == "c":
            a = a + 1j * sp.random_array((n, n), density=0.05, rng=RNG)
        a = sp.csr_array(a.astype(d))
        w = np.linalg.eigvals(a.astype(np.complex128).toarray())
        for which, sigma in [("LM", None), ("SR", None), ("LI", None), ("LM", 5.05)]:
            if which == "LI" and d == "float32":
                continue  # an interior target ARPACK misses here in both precisions (6.85 ± 0.447i)
            k = 4
            # never split a conjugate pair between the k wanted and the rest (either member
            # would be right)
            real = np.dtype(d).kind != "c"
            while np.isclose(pick(w, which, k + 1, sigma, real)[-1], np.conj(pick(w, which, k, sigma, real)[-1])) and abs(pick(w, which, k, sigma, real)[-1].imag) > 1e-9:
                k += 1
            c = coords({"name": f"eigs_{which}{'_sigma' if sigma else ''}_{d}", "group": "eigs", "dtype": d, "k": k, "which": which}, a)
            if sigma is not None:
                c["sigma"] = sigma
            c["w"] = arr(pick(w, which, k, sigma, real).astype(np.complex128))
            cases.append(c)
    return cases


def svds_cases():
    cases = []
    for d, (m, n) in [("float64", (130, 90)), ("float32", (90, 130)), ("complex128", (100, 100))]:
        a = sp.random_array((m, n), density=0.06, rng=RNG) + sp.eye_array(m, n)
        if np.dtype(d).kind == "c":
            a = a + 1j * sp.random_array((m, n), density=0.06, rng=RNG)
        a = sp.csr_array(a.astype(d))
        s = np.linalg.svd(a.astype(np.complex128).toarray(), compute_uv=False)
        k = 6
        c = coords({"name": f"svds_{d}", "group": "svds", "dtype": d, "k": k}, a)
        c["s"] = arr(np.sort(s[:k]))
        c["scipy"] = arr(np.sort(sla.svds(a, k=k, return_singular_vectors=False)))
        cases.append(c)
    return cases


if __name__ == "__main__":
    print("scipy", scipy.__version__)
    write_cases("sparse_eigen", eigsh_cases() + eigs_cases() + svds_cases())
