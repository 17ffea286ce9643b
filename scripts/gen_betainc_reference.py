#!/usr/bin/env python3
"""Reference data for xp::special::betainc (issue 27).

Run from the repository root:  python3 scripts/gen_betainc_reference.py
Needs numpy 2.x and scipy. Writes tests/data/betainc.json: scipy.special.betainc(a, b, x) on
float64 grids (broadcast a column of `a`, a row of `b` and a plane of `x`), float32 and integer
arguments, and the domain edges (a or b zero or infinite, x at 0 and 1, outside [0, 1], NaN).
"""
import json
import sys
import os
import warnings

import numpy as np
import scipy
import scipy.special as sp

import gen_reference as g

warnings.filterwarnings("ignore")
ROOT = os.path.join(os.path.dirname(__file__), "..")


def case(a, b, x, tol):
    return {"op": "betainc", "args": [g.arr(a), g.arr(b), g.arr(x)], "result": g.arr(sp.betainc(a, b, x)), "tol": tol}


def main():
    a = np.array([0.1, 0.5, 1.0, 2.5, 10.0, 55.0]).reshape(6, 1, 1)
    b = np.array([0.2, 1.0, 3.0, 20.0, 150.0]).reshape(1, 5, 1)
    x = np.array([1e-10, 0.01, 0.2, 0.5, 0.77, 0.99, 1 - 1e-9])
    cases = [case(a, b, x, [1e-11, 1e-300])]
    # symmetric and near the switch point (a + 1) / (a + b + 2)
    s = np.array([0.5, 3.0, 40.0])
    cases.append(case(s, s, np.array([0.5, 0.5, 0.5]), [1e-12, 0]))
    cases.append(case(np.float32(2.5), np.float32(4.0), np.linspace(0, 1, 9, dtype=np.float32), [2e-6, 1e-30]))
    cases.append(case(np.array([1, 2, 3]), np.array([4, 5, 6]), np.array([0.25, 0.5, 0.75]), [1e-12, 0]))
    nan, inf = np.nan, np.inf
    edge_a = np.array([0.0, 2.0, 0.0, 2.0, inf, 2.0, -1.0, 2.0, 2.0, 2.0, nan, 2.0, 2.0])
    edge_b = np.array([3.0, 0.0, 0.0, inf, 3.0, 3.0, 3.0, -1.0, 3.0, 3.0, 3.0, nan, 3.0])
    edge_x = np.array([0.5, 0.5, 0.5, 0.5, 0.5, 0.0, 0.5, 0.5, -0.1, 1.1, 0.5, 0.5, 1.0])
    cases.append(case(edge_a, edge_b, edge_x, [1e-14, 0]))
    meta = {"numpy": np.__version__, "scipy": scipy.__version__}
    with open(os.path.join(ROOT, "tests", "data", "betainc.json"), "w") as fh:
        json.dump({"generator": "scripts/" + os.path.basename(sys.argv[0]), **meta, "cases": cases}, fh, separators=(",", ":"))


if __name__ == "__main__":
    main()
