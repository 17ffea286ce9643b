#!/usr/bin/env python3
"""Generate the SciPy/NumPy reference data of xp's signal tests (tests/data/signal.json).

Run from the repository root:  python3 scripts/gen_signal_reference.py
Needs numpy (2.x), scipy and ml_dtypes. Uses the encoding of gen_reference.py.

Window cases: {"op": "window", "params": {"window", "m", "sym", and its parameter}, "result" |
"error"}; NumPy's own functions as {"op": "hanning" | ..., "params": {"m", "beta"}}.
"""
import json
import os
import sys

import numpy as np
from scipy.signal import windows as W

sys.path.insert(0, os.path.dirname(__file__))
from gen_reference import OUT, call  # noqa: E402

SCIPY = {"boxcar": (W.boxcar, None), "hann": (W.hann, None), "hamming": (W.hamming, None),
         "blackman": (W.blackman, None), "bartlett": (W.bartlett, None),
         "kaiser": (W.kaiser, "beta"), "gaussian": (W.gaussian, "std"), "tukey": (W.tukey, "alpha")}
PARAMS = {"beta": [0.0, 5.0, 14.0, 38.0], "std": [0.5, 3.0, 7.0], "alpha": [-0.5, 0.0, 0.25, 0.5, 0.9, 1.0, 1.5]}
NUMPY = {"hanning": np.hanning, "hamming": np.hamming, "blackman": np.blackman, "bartlett": np.bartlett,
         "kaiser": np.kaiser}


def windows():
    cases = []
    for name, (f, param) in SCIPY.items():
        for m in [0, 1, 2, 3, 8, 9, 31, 64]:
            for sym in [True, False]:
                for v in PARAMS[param] if param else [None]:
                    p = {"window": name, "m": m, "sym": sym}
                    if param:
                        p[param] = v
                    args = (m, v) if param else (m,)
                    cases.append({"op": "window", "args": [], "params": p,
                                  **call(lambda f=f, args=args, sym=sym: f(*args, sym=sym))})
    for name, f in NUMPY.items():
        for m in [0, 1, 2, 5, 12, 31]:
            for beta in ([0.0, 8.6, 14.0] if name == "kaiser" else [None]):
                p = {"m": m, "beta": beta}
                args = (m, beta) if name == "kaiser" else (m,)
                cases.append({"op": name, "args": [], "params": p, **call(lambda f=f, args=args: f(*args))})
    return cases


def main():
    cases = windows()
    with open(os.path.join(OUT, "signal.json"), "w") as fh:
        json.dump({"numpy": np.__version__, "cases": cases}, fh, separators=(",", ":"))
    print(f"{len(cases)} cases")


if __name__ == "__main__":
    main()
