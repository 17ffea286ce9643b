# Does NVRTC compile several programs at once in one process? Compiles the dumped xp kernels
# (XP_KERNEL_SOURCES) one after another, then on a pool of T threads (ctypes releases the GIL
# during each call), NVRTC's cache off; prints the wall time of each and the speed-up.
#   python3 nvrtc_threads.py SOURCES_DIR [N_FILES] [THREADS...]
import ctypes
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor

lib = None
for n in ("libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"):
    try:
        lib = ctypes.CDLL(n)
        break
    except OSError:
        pass
if lib is None:
    import glob
    import cupy  # noqa: F401  (its wheels carry NVRTC)
    c = glob.glob("/usr/local/cuda*/lib64/libnvrtc.so*") + glob.glob("/usr/lib/x86_64-linux-gnu/libnvrtc.so*")
    lib = ctypes.CDLL(c[0])
OPTS = [b"-arch=sm_90", b"-std=c++17", b"-default-device", b"--no-cache"]


def compile_one(src):
    p = ctypes.c_void_p()
    assert lib.nvrtcCreateProgram(ctypes.byref(p), src.encode(), b"xp.cu", 0, None, None) == 0
    arr = (ctypes.c_char_p * len(OPTS))(*OPTS)
    r = lib.nvrtcCompileProgram(p, len(OPTS), arr)
    n = ctypes.c_size_t()
    lib.nvrtcGetCUBINSize(p, ctypes.byref(n))
    buf = ctypes.create_string_buffer(n.value)
    lib.nvrtcGetCUBIN(p, buf)
    lib.nvrtcDestroyProgram(ctypes.byref(p))
    return r


d = sys.argv[1]
files = sorted(os.listdir(d))[: int(sys.argv[2]) if len(sys.argv) > 2 else 48]
srcs = [open(os.path.join(d, f)).read() for f in files]
t = time.perf_counter()
for s in srcs:
    compile_one(s)
one = time.perf_counter() - t
print(f"{len(srcs)} programs, 1 thread: {one:.2f} s ({one / len(srcs) * 1e3:.0f} ms each)")
for th in [int(x) for x in sys.argv[3:]] or [4, 8, 16]:
    t = time.perf_counter()
    with ThreadPoolExecutor(th) as ex:
        list(ex.map(compile_one, srcs))
    w = time.perf_counter() - t
    print(f"{th:2d} threads: {w:.2f} s, speed-up {one / w:.1f}x")
