#!/usr/bin/env python3
"""Generate the NumPy reference data of xp's user-kernel tests: tests/data/kernels.json.

Run from the repository root:  python3 scripts/gen_kernel_reference.py
Needs numpy (2.x). Uses the encoding of gen_reference.py (floats as repr strings).

Cases are the issue's seed scenarios, computed the NumPy way:
  leaky_relu  y = x > 0 ? x : alpha * x   ->  np.where(x > 0, x, T(alpha) * x)   (exact)
  l2norm      ReductionKernel x*x, a + b, y = sqrt(a)  ->  np.linalg.norm(x, axis, keepdims)
  monte_carlo CuPy's examples/finance/monte_carlo.py kernel (xorshift128+ per element seeded by
              its index, normal samples through erfcinv, the discounted mean call value), computed
              vectorised over the elements with NumPy's uint64 arithmetic and SciPy's erfcinv
              (needs scipy)
"""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from gen_reference import OUT, arr  # noqa: E402

RNG = np.random.default_rng(20261124)
cases = []

for name in ["float32", "float64", "float16"]:
    d = np.dtype(name)
    x = (RNG.standard_normal((4, 6)) * 3).astype(d)
    x.flat[0] = 0.0
    x.flat[1] = -0.0
    x.flat[2] = d.type(np.finfo(d).max)
    x.flat[3] = -d.type(np.finfo(d).max)
    alpha = 0.1
    y = np.where(x > 0, x, d.type(alpha) * x)
    cases.append({"op": "leaky_relu", "args": [arr(x)], "params": {"alpha": alpha}, "result": arr(y), "tol": [0, 0]})

for name, tol in [("float32", [2e-6, 1e-6]), ("float64", [1e-14, 1e-14])]:
    d = np.dtype(name)
    x = RNG.standard_normal((5, 7)).astype(d)
    for axis, keep in [(1, False), (0, False), ((0, 1), False), (0, True), (1, True)]:
        y = np.linalg.norm(x, axis=axis, keepdims=keep).astype(d)
        ax = list(axis) if isinstance(axis, tuple) else axis
        cases.append({"op": "l2norm", "args": [arr(x)], "params": {"axis": ax, "keepdims": keep},
                      "result": arr(y), "tol": tol})



def monte_carlo(s, x, t, r, v, n_threads, n_samples, seed):
    """The call prices of CuPy's Monte Carlo kernel, shape (len(s), n_threads): element i (C
    order) draws from xorshift128+ seeded with (i + 1, 0x5c721fd808f616b6 + seed)."""
    from scipy.special import erfcinv

    n = len(s) * n_threads
    with np.errstate(over="ignore"):
        st0 = np.arange(n, dtype=np.int64).astype(np.int32).astype(np.int64) + 1
        st0 = st0.astype(np.uint64)
        st1 = np.full(n, np.int64(0x5C721FD808F616B6) + np.int64(seed)).astype(np.uint64)
        s_, x_, t_ = (np.repeat(a, n_threads) for a in (s, x, t))
        v_by_sqrt_t = v * np.sqrt(t_)
        mu_by_t = (r - v * v / 2) * t_
        call_sum = np.zeros(n)
        for _ in range(n_samples):
            s1, s0 = st0, st1
            st0 = s0
            s1 = s1 ^ (s1 << np.uint64(23))
            s1 = s1 ^ (s1 >> np.uint64(17))
            s1 = s1 ^ s0
            s1 = s1 ^ (s0 >> np.uint64(26))
            st1 = s1
            u = (s0 + s1).astype(np.float64) / np.float64(18446744073709551615)
            sign = np.where(u > 0.5, 1.4142135623730951, -1.4142135623730951)
            u = np.where(u > 0.5, 1 - u, u)
            p = sign * erfcinv(2 * (u + 0.5))
            cv = s_ * np.exp(mu_by_t + v_by_sqrt_t * p) - x_
            call_sum += np.where(cv > 0, cv, 0)
    return (np.exp(-r * t_) * call_sum / n_samples).reshape(len(s), n_threads)


s = RNG.uniform(5, 30, 6)
x = RNG.uniform(1, 100, 6)
x[:2] = [1.0, 4.0]  # deep in the money: every sample pays
t = RNG.uniform(0.25, 10, 6)
params = {"r": 0.02, "v": 0.3, "n_threads": 4, "n_samples": 200, "seed": 3}
call = monte_carlo(s, x, t, **params)
cases.append({"op": "monte_carlo", "args": [arr(s), arr(x), arr(t)], "params": params, "result": arr(call),
              "tol": [1e-12, 1e-12]})

path = os.path.join(OUT, "kernels.json")
with open(path, "w") as f:
    json.dump({"generator": "scripts/" + os.path.basename(sys.argv[0]), "numpy": np.__version__, "cases": cases}, f, indent=0)
print(f"wrote {len(cases)} cases to {path}")
