# Where NVRTC's time goes on xp's generated kernels, and what cuts it. Usage:
#   XP_KERNEL_SOURCES=DIR <run something with an empty XP_CACHE_DIR>
#   python3 nvrtc_prelude.py DIR [N]
# Takes N (default 24) of the dumped sources, splits off the prefix they share (the prelude),
# and times, per kernel (median over the sources):
#   as-is         the source as xp compiles it
#   include       the prelude as an included header (-I), no precompiled header
#   pch           the same with NVRTC's automatic precompiled header (-pch) after a first build
#   fast          as-is with -Ofast-compile=max
#   trivial       an empty kernel (NVRTC's floor)
import os
import statistics
import sys
import tempfile
import time

from cupy_backends.cuda.libs import nvrtc

def arch():
    import cupy as cp

    return f"-arch=sm_{cp.cuda.Device().compute_capability}"


LOGS = []


def compile_time(src, opts, headers=(), names=(), log=False):
    t = time.perf_counter()
    prog = nvrtc.createProgram(src, "xp.cu", [h.encode() for h in headers], [n.encode() for n in names])
    try:
        nvrtc.compileProgram(prog, opts)
        nvrtc.getCUBIN(prog)
        if log:
            LOGS.append(nvrtc.getProgramLog(prog))
    except Exception as e:  # noqa: BLE001
        log = nvrtc.getProgramLog(prog)
        raise RuntimeError(f"{e}\n{log[:2000]}") from None
    finally:
        nvrtc.destroyProgram(prog)
    return time.perf_counter() - t


def main():
    if len(sys.argv) > 3:
        # sources as xp compiles them with its precompiled prelude: time them with xp's options
        inc_dir, srcs = sys.argv[3], [open(os.path.join(sys.argv[1], f)).read() for f in sorted(os.listdir(sys.argv[1]))[:24]]
        pch = [arch(), "-std=c++17", "-default-device", f"-I{inc_dir}", "-pch", f"--pch-dir={tempfile.mkdtemp()}", "--pch-messages=true", "--pch-verbose=true"]
        ts = [compile_time(s, pch, log=True) for s in srcs]
        print("xp-form pch times ms", [round(x * 1e3) for x in ts])
        for lg in LOGS[:3]:
            print("log:", lg[:600])
        return
    d = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 24
    files = sorted(os.listdir(d))[:n]
    srcs = [open(os.path.join(d, f)).read() for f in files]
    heads = [s.split("\n", 1) for s in srcs]
    bodies = [h[1] for h in heads]
    prefix = os.path.commonprefix(bodies)
    prefix = prefix[: prefix.rfind("\n") + 1]
    print(f"{len(srcs)} sources, shared prefix {len(prefix)} bytes, mean source {statistics.mean(map(len, srcs)):.0f} bytes")
    base = [arch(), "-std=c++17", "-default-device"]
    inc = tempfile.mkdtemp()
    open(os.path.join(inc, "xp_prelude.h"), "w").write(prefix)
    pch_dir = tempfile.mkdtemp()
    split = [f'#include "xp_prelude.h"\n{h[0]}\n{h[1][len(prefix):]}' for h in heads]
    rows = {}
    rows["as-is"] = [compile_time(s, base) for s in srcs]
    rows["as-is again"] = [compile_time(s, base) for s in srcs]
    rows["include"] = [compile_time(s, base + [f"-I{inc}"]) for s in split]
    try:
        pch = base + [f"-I{inc}", "-pch", f"--pch-dir={pch_dir}"]
        rows["pch first"] = [compile_time(split[0], pch + ["--pch-messages=true", "--pch-verbose=true"], log=True)]
        rows["pch"] = [compile_time(s, pch + ["--pch-messages=true", "--pch-verbose=true"], log=True) for s in split]
        print("pch times ms", [round(x * 1e3) for x in rows["pch"]])
        print("pch dir holds", sorted(os.listdir(pch_dir)))
        for lg in LOGS[:3]:
            print("log:", lg[:600])
    except RuntimeError as e:
        print("pch failed:", str(e)[:500])
    try:
        mem = base + ["-pch", f"--pch-dir={tempfile.mkdtemp()}"]
        hdr = ([prefix], ["xp_prelude.h"])
        rows["pch in-memory header first"] = [compile_time(split[0], mem, *hdr)]
        rows["pch in-memory header"] = [compile_time(s, mem, *hdr) for s in split]
    except RuntimeError as e:
        print("pch in-memory failed:", str(e)[:500])
    # threads: a fresh PCH directory, 8 threads over the sources three times, errors counted
    import concurrent.futures

    tdir = tempfile.mkdtemp()
    tpch = base + [f"-I{inc}", "-pch", f"--pch-dir={tdir}"]
    errors = []

    def one(s):
        try:
            return compile_time(s, tpch)
        except RuntimeError as e:  # noqa: PERF203
            errors.append(str(e)[:200])
            return 0.0

    t = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(8) as ex:
        rows["pch 8 threads"] = list(ex.map(one, split * 3))
    print(f"8 threads: {len(split) * 3} compiles in {time.perf_counter() - t:.2f} s, {len(errors)} errors {errors[:2]}")
    try:
        rows["fast"] = [compile_time(s, base + ["-Ofast-compile=max"]) for s in srcs]
    except RuntimeError as e:
        print("fast failed:", str(e)[:500])
    rows["trivial"] = [compile_time('extern "C" __global__ void k() {}\n', base) for _ in range(5)]
    for k, v in rows.items():
        print(f"{k:10s} median {statistics.median(v) * 1e3:7.1f} ms  min {min(v) * 1e3:7.1f}  max {max(v) * 1e3:7.1f}")
    print("nvrtc", nvrtc.getVersion())


main()
