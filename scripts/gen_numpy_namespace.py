#!/usr/bin/env python3
"""Write NumPy's public namespace for xp's coverage test: tests/data/numpy_namespace.json.

Run from the repository root:  python3 scripts/gen_numpy_namespace.py
Needs numpy (2.x). The test `tests/tests/suite/coverage.rs` checks every name listed here is
either implemented by xp (its table, checked by the compiler) or listed with a reason in
tests/data/numpy_omissions.txt.

Namespaces:
- "numpy": the public names of the top-level module (no leading underscore), submodules
  (numpy.testing, numpy.linalg, ...) left out; functions, types, dtype classes and constants kept.
- "numpy.linalg", "numpy.fft": the public names of those modules.
- "numpy.random.Generator": the public methods and attributes of the Generator class.

Each list is sorted, so that regenerating with the same NumPy gives the same file.
"""
import json
import sys
import os
import types

import numpy as np

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "numpy_namespace.json")


def public(obj):
    """The public names of `obj` that are not modules, sorted."""
    names = []
    for name in dir(obj):
        if name.startswith("_"):
            continue
        try:
            value = getattr(obj, name)
        except AttributeError:  # a deprecated or expired alias that raises on access
            continue
        if isinstance(value, types.ModuleType):
            continue
        names.append(name)
    return sorted(names)


def main():
    data = {
        "numpy_version": np.__version__,
        "namespaces": {
            "numpy": public(np),
            "numpy.linalg": public(np.linalg),
            "numpy.fft": public(np.fft),
            "numpy.random.Generator": public(np.random.Generator),
        },
    }
    with open(OUT, "w") as f:
        json.dump({"generator": "scripts/gen_numpy_namespace.py", **data}, f, indent=1, sort_keys=True)
        f.write("\n")
    counts = {k: len(v) for k, v in data["namespaces"].items()}
    print(f"wrote {os.path.normpath(OUT)}: numpy {np.__version__}, {counts}")


if __name__ == "__main__":
    main()
