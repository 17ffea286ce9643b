#!/usr/bin/env python3
"""Generate the NumPy reference data of xp's user-kernel tests: tests/data/kernels.json.

Run from the repository root:  python3 scripts/gen_kernel_reference.py
Needs numpy (2.x). Uses the encoding of gen_reference.py (floats as repr strings).

Cases are the issue's seed scenarios, computed the NumPy way:
  leaky_relu  y = x > 0 ? x : alpha * x   ->  np.where(x > 0, x, T(alpha) * x)   (exact)
  l2norm      ReductionKernel x*x, a + b, y = sqrt(a)  ->  np.linalg.norm(x, axis, keepdims)
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

path = os.path.join(OUT, "kernels.json")
with open(path, "w") as f:
    json.dump({"numpy": np.__version__, "cases": cases}, f, indent=0)
print(f"wrote {len(cases)} cases to {path}")
