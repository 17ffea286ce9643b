"""Host time per `from_dlpack` call on a GPU: xp's against CuPy's, each consuming xp, CuPy and
PyTorch tensors (median and best of 9 repeats of N calls, after a warm-up), and the same for NumPy on the
CPU. Run on the GPU machine: PYTHONPATH=crates/py/python python3 benches/src/from_dlpack.py [N]"""

import statistics
import sys
import timeit

import numpy as np

import xp

N = int(sys.argv[1]) if len(sys.argv) > 1 else 20000


def per_call_us(fn):
    for _ in range(200):
        fn()
    ts = timeit.repeat(fn, number=N, repeat=9)
    return statistics.median(ts) / N * 1e6, min(ts) / N * 1e6


def row(name, fn):
    med, best = per_call_us(fn)
    print(f"{name:<34} {med:8.2f} us median {best:8.2f} us best")


rows = []
a = np.ones((256, 256), dtype=np.float32)
x_cpu = xp.asarray(a)
row("numpy -> xp (cpu, copies)", lambda: xp.from_dlpack(a))
row("xp -> numpy (cpu)", lambda: np.from_dlpack(x_cpu))
row("xp -> xp (cpu)", lambda: xp.from_dlpack(x_cpu))
if "cuda:0" in xp.__array_namespace_info__().devices():
    import cupy
    import torch
    x = xp.ones((256, 256), dtype=xp.float32, device="cuda:0")
    c = cupy.ones((256, 256), dtype=cupy.float32)
    t = torch.ones((256, 256), dtype=torch.float32, device="cuda")
    row("xp -> xp (cuda)", lambda: xp.from_dlpack(x))
    row("cupy -> cupy (cuda)", lambda: cupy.from_dlpack(c))
    row("cupy -> xp (cuda)", lambda: xp.from_dlpack(c))
    row("xp -> cupy (cuda)", lambda: cupy.from_dlpack(x))
    row("torch -> xp (cuda)", lambda: xp.from_dlpack(t))
    row("torch -> cupy (cuda)", lambda: cupy.from_dlpack(t))
    row("xp -> torch (cuda)", lambda: torch.from_dlpack(x))
