# What moves CuPy's NCCL all-reduce time on two GPUs of one process: the memory the buffers come
# from (CuPy's cudaMalloc pool or the driver's stream-ordered pool, as xp's), the stream (legacy
# or non-blocking, as xp's), in place or not. Prints one line per variant: median wall ms (both
# GPUs synchronised after each call) and the median GPU ms on device 0 (CUDA events).
# Run: python3 benches/src/nccl_variants.py [REPS]
import statistics
import sys
import time

import cupy as cp
from cupy.cuda import nccl

reps = int(sys.argv[1]) if len(sys.argv) > 1 else 40
comms = nccl.NcclCommunicator.initAll([0, 1])
print("nccl", nccl.get_version(), "cupy", cp.__version__)


def bufs(n, pool):
    xs, ys = [], []
    for i in (0, 1):
        with cp.cuda.Device(i):
            cp.cuda.set_allocator(pool[i].malloc)
            xs.append(cp.full(n, i + 1, dtype=cp.float32))
            ys.append(cp.empty(n, dtype=cp.float32))
    return xs, ys


def run(label, n, pool, streams, inplace):
    xs, ys = bufs(n, pool)
    outs = xs if inplace else ys
    ev = []
    with cp.cuda.Device(0):
        ev = [cp.cuda.Event(), cp.cuda.Event()]

    def once():
        nccl.groupStart()
        for i in (0, 1):
            with cp.cuda.Device(i):
                if i == 0:
                    ev[0].record(streams[0])
                comms[i].allReduce(xs[i].data.ptr, outs[i].data.ptr, n, nccl.NCCL_FLOAT32, nccl.NCCL_SUM, streams[i].ptr)
                if i == 0:
                    ev[1].record(streams[0])
        nccl.groupEnd()
        for i in (0, 1):
            streams[i].synchronize()

    for _ in range(3):
        once()
    wall, gpu = [], []
    for _ in range(reps):
        t = time.perf_counter()
        once()
        wall.append((time.perf_counter() - t) * 1e3)
        gpu.append(cp.cuda.get_elapsed_time(ev[0], ev[1]))
    assert float(outs[0][:4].get()[0]) == 3.0
    print(f"{label:48s} wall {statistics.median(wall):8.3f} ms  gpu0 {statistics.median(gpu):8.3f} ms  (min wall {min(wall):.3f})")
    del xs, ys, outs


def pools(kind):
    out = []
    for i in (0, 1):
        with cp.cuda.Device(i):
            out.append(cp.cuda.MemoryPool() if kind == "malloc" else cp.cuda.MemoryAsyncPool())
    return out


def streams(kind):
    out = []
    for i in (0, 1):
        with cp.cuda.Device(i):
            out.append(cp.cuda.Stream.null if kind == "null" else cp.cuda.Stream(non_blocking=True))
    return out


for n, size in ((1 << 28, "1 GiB"), (1 << 18, "1 MiB")):
    for mem in ("malloc", "async"):
        for st in ("null", "nonblocking"):
            for inplace in (False, True):
                run(f"{size} {mem:6s} {st:11s} {'in-place' if inplace else 'out'}", n, pools(mem), streams(st), inplace)
