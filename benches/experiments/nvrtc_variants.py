# What one NVRTC compilation of each dumped xp kernel costs under variants of its options and
# source, NVRTC's cache off, so that the cold-start work cuts what matters:
#   base      xp's options (-arch=sm_90 -std=c++17 -default-device), straight to a cubin
#   ptx       the same to PTX only (-arch=compute_90): front end + NVVM, without ptxas
#   minimal   base + -minimal (NVRTC 12.4+: no texture/surface/devrt declarations)
#   ptxas-O1  base + --ptxas-options=-O1 (ptxas's optimisation level; default 3)
#   main      base, the module without its second kernel (a reduction's finishing kernel)
# Usage: XP_KERNEL_SOURCES=dir <run xp>; python3 nvrtc_variants.py dir [max_files]
import os
import statistics
import sys
import time

from cupy_backends.cuda.libs import nvrtc

BASE = ["-std=c++17", "-default-device", "--no-cache"]


def compile_ms(src, opts, ptx=False):
    t = time.perf_counter()
    p = nvrtc.createProgram(src, "xp.cu", [], [])
    try:
        nvrtc.compileProgram(p, opts)
        nvrtc.getPTX(p) if ptx else nvrtc.getCUBIN(p)
    except Exception as e:  # an option this NVRTC does not take
        return f"err {str(e)[:40]}"
    finally:
        nvrtc.destroyProgram(p)
    return (time.perf_counter() - t) * 1e3


def main_only(src):
    k = src.split('extern "C" __global__')
    return src if len(k) < 3 else 'extern "C" __global__'.join(k[:2])


variants = {
    "base": lambda s: compile_ms(s, ["-arch=sm_90"] + BASE),
    "ptx": lambda s: compile_ms(s, ["-arch=compute_90"] + BASE, ptx=True),
    "minimal": lambda s: compile_ms(s, ["-arch=sm_90", "-minimal"] + BASE),
    "ptxas-O1": lambda s: compile_ms(s, ["-arch=sm_90", "--ptxas-options=-O1"] + BASE),
    "main": lambda s: compile_ms(main_only(s), ["-arch=sm_90"] + BASE),
}
d = sys.argv[1]
files = sorted(os.listdir(d))[: int(sys.argv[2]) if len(sys.argv) > 2 else None]
print("nvrtc", nvrtc.getVersion(), len(files), "sources")
cols = {k: [] for k in variants}
for f in files:
    s = open(os.path.join(d, f)).read()
    entry = next((l.split("void ", 1)[1].split(")")[0] for l in s.splitlines() if "__global__ void" in l), f)
    spec = s.split("\n", 1)[0].split("##e", 1)[-1].lstrip("#_") if s.startswith("#define XP_NAME") else ""
    name = entry.replace("XP_NAME(", "") + " " + spec
    row = []
    for k, v in variants.items():
        r = v(s)
        if isinstance(r, float):
            cols[k].append(r)
            row.append(f"{r:7.1f}")
        else:
            row.append(r)
    kernels = s.count("__global__")
    print(f"{name[:48]:48s} {len(s) // 1024:3d} KB {kernels}k " + " ".join(row))
print("median ms: " + ", ".join(f"{k} {statistics.median(v):.1f}" for k, v in cols.items() if v))
