# Where one NVRTC compilation of an xp kernel spends its time (NVRTC's --time report), NVRTC's
# cache off: the prelude alone with an empty kernel, then a few generated kernels, each with the
# prelude inline and as a precompiled header.
#   python3 nvrtc_phases.py SOURCES_DIR INCLUDE_DIR
import os
import sys
import tempfile
import time

from cupy_backends.cuda.libs import nvrtc

src_dir, inc = sys.argv[1], sys.argv[2]
prelude = open(os.path.join(inc, "xp_prelude.h")).read()
pch_dir = tempfile.mkdtemp()


def run(tag, src, extra):
    tf = tempfile.mktemp(suffix=".csv")
    opts = ["-arch=sm_90", "-std=c++17", "-default-device", "--no-cache", f"--time={tf}"] + extra
    t = time.perf_counter()
    p = nvrtc.createProgram(src, "xp.cu", [], [])
    nvrtc.compileProgram(p, opts)
    nvrtc.getCUBIN(p)
    nvrtc.destroyProgram(p)
    ms = (time.perf_counter() - t) * 1e3
    rows = open(tf).read().strip().splitlines() if os.path.exists(tf) else []
    phases = ", ".join(r for r in rows[1:] if r)
    print(f"{tag:28s} {ms:7.1f} ms | {phases[:400]}")


pch = [f"-I{inc}", "-pch", f"--pch-dir={pch_dir}"]
run("prelude + empty kernel", prelude + 'extern "C" __global__ void k() {}\n', [])
run("empty kernel", 'extern "C" __global__ void k() {}\n', [])
run("pch create: empty kernel", '#include "xp_prelude.h"\nstruct xp_pch_boundary;\nextern "C" __global__ void k() {}\n', pch)
run("pch use: empty kernel", '#include "xp_prelude.h"\nstruct xp_pch_boundary;\nextern "C" __global__ void k2() {}\n', pch)
for f in sorted(os.listdir(src_dir))[:4]:
    s = open(os.path.join(src_dir, f)).read()
    first, rest = s.split("\n", 1)
    run(f"inline {f[:8]}", prelude + rest, [])
    run(f"pch {f[:8]}", first + "\nstruct xp_pch_boundary;\n" + rest, pch)
