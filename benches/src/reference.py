# The same workloads as xp-bench, run through NumPy (CPU) or CuPy (GPU), timed the same way:
# warm-up, then the median of repeated runs. Prints one JSON object per line:
# {"workload": ..., "median_ms": ...}. Called by `xp-bench --compare`; argv: device reps names...
import json
import sys
import time

device, reps, names = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
gpu = device.startswith("cuda")
if gpu:
    import cupy as xp
    xp.cuda.Device(int(device.split(":")[1])).use()
else:
    import numpy as xp


def sync():
    if gpu:
        xp.cuda.Stream.null.synchronize()


def rand(n, shape=None):
    a = xp.random.default_rng(1).random(n, dtype=xp.float32) if not gpu else xp.random.random(n, dtype=xp.float32)
    return a.reshape(shape) if shape else a


def big(gpu_n, cpu_n):
    return gpu_n if gpu else cpu_n


N = big(1 << 26, 1 << 25)
R, C = big((8192, 8192), (4096, 8192))


def standardize(x):
    return (x - x.mean(axis=0, keepdims=True)) / (x.std(axis=0, keepdims=True) + 1e-12)


def setup(name):
    if name.startswith("add_f32"):
        a, b = rand(N), rand(N)
        return lambda: a + b
    if name.startswith("sum_f32"):
        a = rand(N)
        return lambda: a.sum()
    if name.startswith("tanh_sin"):
        a = rand(N)
        return lambda: xp.tanh(xp.sin(a) + 0.1 * a)
    if name.startswith("sum_axis0"):
        a = rand(R * C, (R, C))
        return lambda: a.sum(axis=0)
    if name.startswith("sum_axis1"):
        a = rand(R * C, (R, C))
        return lambda: a.sum(axis=1)
    if name.startswith("transpose_copy"):
        a = rand(R * C, (R, C))
        return lambda: xp.ascontiguousarray(a.T)
    if name.startswith("standardize"):
        a = rand(R * C, (R, C))
        return lambda: standardize(a)
    if name.startswith("cumsum_f32"):
        a = rand(10_000_000)
        return lambda: xp.cumsum(a)
    if name.startswith("argmax_f32"):
        a = rand(N)
        return lambda: xp.argmax(a)
    if name.startswith("copy_d2d"):
        a = rand(N)
        return lambda: a.copy()
    if name.startswith("h2d_pinned"):
        import cupyx
        p = cupyx.empty_pinned((N,), dtype=xp.float32)
        p[:] = xp.asnumpy(rand(N))
        d = xp.empty(N, dtype=xp.float32)
        return lambda: d.set(p)
    if name.startswith("d2h_pinned"):
        import cupyx
        p = cupyx.empty_pinned((N,), dtype=xp.float32)
        a = rand(N)
        return lambda: a.get(out=p)
    if name.startswith("small_add"):
        a, b = rand(1024), rand(1024)
        return lambda: [a + b for _ in range(10_000)]
    if name.startswith("small_copy"):
        a = rand(1024)
        return lambda: [a.copy() for _ in range(10_000)]
    if name.startswith("small_sum"):
        a = rand(1024)
        return lambda: [a.sum() for _ in range(10_000)]
    return None


for name in names:
    f = setup(name)
    if f is None:
        continue
    for _ in range(2):
        f()
    sync()
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        f()
        sync()
        ts.append((time.perf_counter() - t) * 1e3)
    ts.sort()
    ms = ts[len(ts) // 2]
    if name.startswith("small_"):
        ms = ms / 10_000 * 1e3  # microseconds per op, as xp-bench reports them
    print(json.dumps({"workload": name, "median_ms": ms}), flush=True)
