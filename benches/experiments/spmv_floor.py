"""What the GPU allows for the issue-29 SpMV (10^6 x 10^6, 10^7 random float32 values): the
bandwidth ceiling (a device-to-device copy), the cost of the 10^7 random reads of x alone, and
kernels that do only the SpMV's memory traffic, against cuSPARSE (CuPy) on the same matrix.

    python3 benches/experiments/spmv_floor.py

Kernels (CUDA events, median of 50 after warm-up):
- copy:    cupy copy of the 80 MB of data + indices (read 80 MB, write 80 MB)
- stream:  y[r] = sum of data[j] over the row (the SpMV without x: its DRAM traffic)
- gather:  y[r] = sum of x[indices[j]] over the row (indices and the gathers, no data)
- spmv:    a thread per row (the plain CSR kernel), and cuSPARSE through CuPy
"""
import cupy as cp
import cupyx.scipy.sparse as cps
import numpy as np

N, NNZ = 1_000_000, 10_000_000
rng = np.random.default_rng(1)
row, col = rng.integers(0, N, NNZ), rng.integers(0, N, NNZ)
A = cps.csr_matrix((cp.asarray(rng.random(NNZ, dtype=np.float32)), (cp.asarray(row), cp.asarray(col))), shape=(N, N))
A.sum_duplicates()
x = cp.asarray(rng.random(N, dtype=np.float32))
ptr, ind, dat = A.indptr, A.indices, A.data
print("nnz", A.nnz, "index dtype", ind.dtype)

SRC = r"""
extern "C" __global__ void stream(const int* p, const float* d, float* y, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x; if (r >= n) return;
  float s = 0; for (int j = p[r]; j < p[r + 1]; ++j) s += d[j]; y[r] = s; }
extern "C" __global__ void gather(const int* p, const int* i, const float* x, float* y, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x; if (r >= n) return;
  float s = 0; for (int j = p[r]; j < p[r + 1]; ++j) s += x[i[j]]; y[r] = s; }
extern "C" __global__ void flat_gather(const int* i, const float* x, float* y, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x; if (j >= n) return; y[j] = __ldg(x + i[j]); }
extern "C" __global__ void scalar(const int* p, const int* i, const float* d, const float* x, float* y, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x; if (r >= n) return;
  float s = 0; for (int j = p[r]; j < p[r + 1]; ++j) s += d[j] * __ldg(x + i[j]); y[r] = s; }
"""
mod = cp.RawModule(code=SRC)
y = cp.empty(N, cp.float32)
yflat = cp.empty(A.nnz, cp.float32)
both = cp.concatenate([dat.view(cp.int32), ind])


def timed(f, reps=50):
    for _ in range(5):
        f()
    ts = []
    for _ in range(reps):
        a, b = cp.cuda.Event(), cp.cuda.Event()
        a.record()
        f()
        b.record()
        b.synchronize()
        ts.append(cp.cuda.get_elapsed_time(a, b) * 1e3)
    return float(np.median(ts))


grid = ((N + 255) // 256,)
gflat = ((A.nnz + 255) // 256,)
k = {n: mod.get_function(n) for n in ["stream", "gather", "flat_gather", "scalar"]}
rows = [
    ("copy 80 MB (read+write)", lambda: both.copy()),
    ("stream data by rows", lambda: k["stream"](grid, (256,), (ptr, dat, y, np.int32(N)))),
    ("gather x by rows (no data)", lambda: k["gather"](grid, (256,), (ptr, ind, x, y, np.int32(N)))),
    ("gather x flat (10^7 reads, 40 MB written)", lambda: k["flat_gather"](gflat, (256,), (ind, x, yflat, np.int32(A.nnz)))),
    ("scalar CSR SpMV (thread per row)", lambda: k["scalar"](grid, (256,), (ptr, ind, dat, x, y, np.int32(N)))),
    ("cuSPARSE SpMV (CuPy A @ x)", lambda: A @ x),
]
for name, f in rows:
    print(f"{name:45s} {timed(f):8.1f} us")
print("copy bandwidth", round(2 * both.nbytes / timed(lambda: both.copy()) / 1e6, 2), "TB/s")
