#!/usr/bin/env python3
"""Write the NumPy-made reference files of xp's file I/O tests, or check files against them.

Run from the repository root (needs numpy 2.x, nothing else):

    python3 scripts/gen_io_reference.py            # (re)writes tests/data/io/
    python3 scripts/gen_io_reference.py --check DIR

The first form writes small .npy/.npz files with np.save / np.savez / np.savez_compressed (one
.npy per dtype, big-endian and Fortran-order files, a 0-d and an empty array, two archives, and
files of dtypes xp refuses) and tests/data/io/expected.json, which lists for each file NumPy's own
reading of it: dtype name, shape and the values in C order (bools and integers exactly, floats as
repr strings so that nan, inf and -0.0 survive, complex as [re, im]). The tests in
tests/tests/suite/io.rs load the files with xp and compare with that listing.

--check DIR loads every .npy and .npz in DIR that expected.json lists (by file name) with NumPy
and compares dtype, shape and values (bit for bit, NaN equal to NaN) with the listing, so that the
files xp writes are checked by NumPy itself. To check xp's files:

    XP_IO_EXPORT_DIR=/tmp/xp-io cargo test -p xp-tests --test suite io::export
    python3 scripts/gen_io_reference.py --check /tmp/xp-io

(the test loads each reference file with xp and saves it again under the same name there).
"""
import json
import os
import sys

import numpy as np

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "io")
EXPECTED = os.path.join(OUT, "expected.json")


def arrays_by_dtype():
    """One array per dtype xp and .npy share, with values that exercise the dtype."""
    f = [0.0, -0.0, 1.5, -2.25, np.nan, np.inf, -np.inf]
    out = {
        "bool": np.array([[True, False, True], [False, False, True]]),
        "int8": np.array([-128, -1, 0, 1, 127], np.int8),
        "int16": np.array([-32768, -2, 0, 3, 32767], np.int16),
        "int32": np.array([[-2**31, -7, 0], [5, 2**31 - 1, 12345]], np.int32),
        "int64": np.array([-2**63, -1, 0, 1, 2**63 - 1, 10**15], np.int64),
        "uint8": np.array([0, 1, 127, 128, 255], np.uint8),
        "uint16": np.array([0, 1, 32768, 65535], np.uint16),
        "uint32": np.array([0, 1, 2**31, 2**32 - 1], np.uint32),
        "uint64": np.array([0, 1, 2**63, 2**64 - 1], np.uint64),
        "float16": np.array(f + [65504.0, 6e-8, np.finfo(np.float16).tiny], np.float16),
        "float32": np.array(f + [3.4028235e38, 1e-45, 0.1], np.float32).reshape(2, 5),
        "float64": np.array(f + [1.7976931348623157e308, 5e-324, 0.1, np.pi], np.float64),
        "complex64": np.array([1 + 2j, -0.5 - 0j, complex(np.nan, 1), complex(np.inf, -np.inf)], np.complex64),
        "complex128": np.array([[1 + 2j, -0.5 + 1e-300j], [complex(0, np.nan), complex(-np.inf, 3)]]),
    }
    return out


def reference_files():
    """File name -> array (or dict of arrays for .npz) written by NumPy."""
    files = {f"{name}.npy": a for name, a in arrays_by_dtype().items()}
    files["float64_be.npy"] = np.arange(-3, 3, 0.75).astype(">f8")
    files["int32_be.npy"] = np.array([[-2**31, -1, 0], [1, 256, 2**31 - 1]], ">i4")
    files["complex64_be.npy"] = np.array([1 - 2j, np.inf + 0.5j], ">c8")
    files["fortran_2d.npy"] = np.asfortranarray(np.arange(12, dtype=np.float64).reshape(3, 4) * 0.5)
    files["fortran_3d.npy"] = np.asfortranarray(np.arange(24, dtype=np.int16).reshape(2, 3, 4) - 5)
    # 16 axes: NumPy's growth padding (21 - digits of the first axis) takes this header past 128
    # bytes, which a writer without it would not.
    files["ndim16.npy"] = np.arange(4, dtype=np.uint8).reshape((2, 2) + (1,) * 14)
    # A header that is a multiple of 64 bytes before padding: NumPy still pads a full 64.
    files["aligned_pad.npy"] = np.arange(100, dtype=np.uint8).reshape((1, 10, 10) + (1,) * 11)
    files["format_v2.npy"] = np.array([[1.25, -2.5]], np.float32)
    files["format_v3.npy"] = np.array([7, 8, 9], np.int16)
    files["scalar_0d.npy"] = np.array(2.5)
    files["empty_0x3.npy"] = np.zeros((0, 3), np.float32)
    members = {
        "weights": np.arange(6, dtype=np.float64).reshape(2, 3) / 4,
        "ids": np.array([7, -1, 42, 0], np.int64),
        "flag": np.array(True),
        "c": np.array([1 + 1j, 2 - 3j], np.complex64),
    }
    files["arrays.npz"] = members
    files["arrays_compressed.npz"] = members
    return files


def unsupported_files():
    """Files of dtypes xp refuses (written by NumPy; not listed in expected.json)."""
    return {
        "object.npy": np.array([1, "a", None], dtype=object),
        "structured.npy": np.array([(1,), (2,)], dtype=[("a", "<i4")]),
        "datetime.npy": np.array(["2020-01-01T00:00:00"], dtype="<M8[s]"),
        "void2.npy": np.zeros(3, dtype="V2"),
        "unicode.npy": np.array(["ab", "c"]),
    }


def enc(v, kind):
    if kind == "b":
        return bool(v)
    if kind in "iu":
        return int(v)
    if kind == "f":
        return repr(float(v))
    if kind == "c":
        return [repr(float(v.real)), repr(float(v.imag))]
    raise ValueError(kind)


def describe(a):
    return {
        "dtype": a.dtype.name,
        "shape": list(a.shape),
        "values": [enc(v, a.dtype.kind) for v in np.ravel(a, order="C")],
    }


def generate():
    os.makedirs(OUT, exist_ok=True)
    expected = {}
    for name, a in reference_files().items():
        path = os.path.join(OUT, name)
        if isinstance(a, dict):
            (np.savez_compressed if "compressed" in name else np.savez)(path, **a)
            with np.load(path) as z:
                expected[name] = {"members": {k: describe(z[k]) for k in z.files}, "order": list(z.files)}
        else:
            version = {"format_v2.npy": (2, 0), "format_v3.npy": (3, 0)}.get(name)
            with open(path, "wb") as f:  # np.save, with the format version chosen for two files
                np.lib.format.write_array(f, np.asanyarray(a), version=version)
            expected[name] = describe(np.load(path))
    for name, a in unsupported_files().items():
        np.save(os.path.join(OUT, name), a, allow_pickle=True)
    with open(EXPECTED, "w") as f:  # one line per file
        expected = {"generator": "scripts/gen_io_reference.py", **expected}
        f.write("{\n" + ",\n".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in expected.items()) + "\n}\n")
    total = sum(os.path.getsize(os.path.join(OUT, n)) for n in os.listdir(OUT))
    print(f"wrote {len(os.listdir(OUT))} files, {total} bytes, to {os.path.normpath(OUT)}")


def same(got, want, where):
    """Compare NumPy's reading of a file with a listing; returns a list of mismatches."""
    errs = []
    if got.dtype.name != want["dtype"]:
        errs.append(f"{where}: dtype {got.dtype.name}, expected {want['dtype']}")
    if list(got.shape) != want["shape"]:
        errs.append(f"{where}: shape {list(got.shape)}, expected {want['shape']}")
    if not errs:
        vals = [enc(v, got.dtype.kind) for v in np.ravel(got, order="C")]
        if vals != want["values"]:
            errs.append(f"{where}: values {vals}, expected {want['values']}")
    return errs


def check(directory):
    with open(EXPECTED) as f:
        expected = json.load(f)
    errs, checked = [], 0
    for name in sorted(os.listdir(directory)):
        if name not in expected:
            continue
        path = os.path.join(directory, name)
        want = expected[name]
        try:
            if "members" in want:
                with np.load(path) as z:
                    if list(z.files) != want["order"]:
                        errs.append(f"{name}: members {list(z.files)}, expected {want['order']}")
                    for k, w in want["members"].items():
                        errs += same(z[k], w, f"{name}[{k}]")
            else:
                errs += same(np.load(path), want, name)
        except Exception as e:  # a file NumPy cannot read is a failure, not a crash
            errs.append(f"{name}: NumPy cannot load it: {e!r}")
        checked += 1
    for e in errs:
        print(e)
    print(f"checked {checked} files in {directory}: {len(errs)} mismatches")
    return 1 if errs or checked == 0 else 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        sys.exit(check(sys.argv[2]))
    if len(sys.argv) != 1:
        sys.exit(__doc__)
    generate()
