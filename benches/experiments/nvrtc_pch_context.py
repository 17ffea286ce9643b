# Precompiled prelude or not, context first or not, NVRTC's own cache off (`--no-cache`), one
# variant per process:
#   python3 nvrtc_pch_context.py SOURCES_DIR INCLUDE_DIR VARIANT
# VARIANT: "inline" (the prelude as text in each source), "pch" (included, -pch), "pch-ctx" (a CUDA
# context first, then as "pch"). SOURCES_DIR holds sources whose first line includes
# "xp_prelude.h" (INCLUDE_DIR). Prints per-compile milliseconds with NVRTC's PCH create status.
import ctypes
import os
import sys
import tempfile
import time

from cupy_backends.cuda.libs import nvrtc

src_dir, inc, variant = sys.argv[1], sys.argv[2], sys.argv[3]
lib = None
for name in ("libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"):
    try:
        lib = ctypes.CDLL(name)
        break
    except OSError:
        continue
if variant == "pch-ctx":
    import cupy as cp

    cp.zeros(1)
    cp.cuda.Device().synchronize()
pch_dir = tempfile.mkdtemp()
prelude = open(os.path.join(inc, "xp_prelude.h")).read()
opts = ["-arch=sm_90", "-std=c++17", "-default-device", "--no-cache"]
if variant != "inline":
    opts += [f"-I{inc}", "-pch", f"--pch-dir={pch_dir}"]
srcs = []
for f in sorted(os.listdir(src_dir))[:16]:
    s = open(os.path.join(src_dir, f)).read()
    first, rest = s.split("\n", 1)
    if variant == "inline":
        srcs.append(prelude + rest)
    else:
        srcs.append(first + "\nstruct xp_pch_boundary;\n" + rest)
ts = []
for s in srcs:
    t = time.perf_counter()
    p = nvrtc.createProgram(s, "xp.cu", [], [])
    nvrtc.compileProgram(p, opts)
    nvrtc.getCUBIN(p)
    st = lib.nvrtcGetPCHCreateStatus(ctypes.c_void_p(p)) if lib is not None else None
    nvrtc.destroyProgram(p)
    ts.append((round((time.perf_counter() - t) * 1e3), st))
print(variant, ts, "pch files:", len(os.listdir(pch_dir)))
