# Hardware experiment for issue 9 (not part of the build): can add.at of 2^24 f32 into 2^16 bins
# read its positions once by spreading the bins over a thread-block cluster's shared memories
# (remote shared-memory reductions through DSMEM), and do L2 cache hints help a random take of
# 2^24 from 2^26 f32. Against CuPy in the same run. On the GPU machine:
#   python3 benches/experiments/at_take.py
import cupy as cp
import numpy as np

def timed(f, reps=20):
    f(); f(); cp.cuda.Device().synchronize()
    s, e = cp.cuda.Event(), cp.cuda.Event()
    t = []
    for _ in range(reps):
        s.record(); f(); e.record(); e.synchronize()
        t.append(cp.cuda.get_elapsed_time(s, e))
    return float(np.median(t))

HDR = r"""
typedef long long i64; typedef unsigned long long u64;
__device__ __forceinline__ void cl_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}
__device__ __forceinline__ unsigned cl_rank() { unsigned r; asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned cl_id() { unsigned r; asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned cl_num() { unsigned r; asm volatile("mov.u32 %0, %%nclusterid.x;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned mapa(unsigned a, unsigned r) { unsigned d; asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(r)); return d; }
__device__ __forceinline__ void red_cl(unsigned a, float v) { asm volatile("red.shared::cluster.add.f32 [%0], %1;" :: "r"(a), "f"(v) : "memory"); }
"""

ACC = HDR + r"""
template <int CL, bool LOCAL, int U>
__device__ void acc_body(const float* __restrict__ v, const i64* __restrict__ ix, i64 n, float* __restrict__ part, i64 m, int sh) {
  extern __shared__ float acc[];
  const unsigned rank = cl_rank(), cid = cl_id();
  const i64 e = 1ll << sh, lo = (i64)rank * e, len = lo >= m ? 0 : (m - lo < e ? m - lo : e);
  for (i64 q = threadIdx.x; q < e; q += blockDim.x) acc[q] = 0.f;
  cl_sync();
  const unsigned base = (unsigned)__cvta_generic_to_shared(acc);
  unsigned rb[CL];
#pragma unroll
  for (int r = 0; r < CL; ++r) rb[r] = mapa(base, r);
  const i64 per = (n + gridDim.x - 1) / gridDim.x, s0 = blockIdx.x * per, s1 = s0 + per < n ? s0 + per : n;
  i64 i = s0 + threadIdx.x;
  for (; i + (U - 1) * (i64)blockDim.x < s1; i += U * (i64)blockDim.x) {
    i64 t[U]; float x[U];
#pragma unroll
    for (int u = 0; u < U; ++u) { t[u] = __ldcs(ix + i + u * blockDim.x); x[u] = __ldcs(v + i + u * blockDim.x); }
#pragma unroll
    for (int u = 0; u < U; ++u) {
      if ((unsigned long long)t[u] < (unsigned long long)m) {
        const unsigned own = (unsigned)(t[u] >> sh), o = (unsigned)(t[u] & (e - 1));
        if (LOCAL && own == rank) atomicAdd(acc + o, x[u]); else red_cl(rb[own] + 4 * o, x[u]);
      }
    }
  }
  for (; i < s1; i += blockDim.x) {
    const i64 t = ix[i];
    if ((unsigned long long)t < (unsigned long long)m) {
      const unsigned own = (unsigned)(t >> sh), o = (unsigned)(t & (e - 1));
      red_cl(rb[own] + 4 * o, v[i]);
    }
  }
  cl_sync();
  for (i64 q = threadIdx.x; q < len; q += blockDim.x) part[(i64)cid * m + lo + q] = acc[q];
}
"""

def cluster_kernel(CL, TH, LOCAL, U):
    name = f"acc_{CL}_{TH}_{int(LOCAL)}_{U}"
    src = ACC + (f'extern "C" __global__ void __cluster_dims__({CL}, 1, 1) __launch_bounds__({TH}) {name}('
                 f'const float* v, const i64* ix, i64 n, float* part, i64 m, int sh) '
                 f'{{ acc_body<{CL}, {str(LOCAL).lower()}, {U}>(v, ix, n, part, m, sh); }}\n')
    return cp.RawKernel(src, name, backend="nvrtc")

HYB = r"""
typedef long long i64;
template <int U>
__device__ void hyb(const float* __restrict__ v, const i64* __restrict__ ix, i64 n, float* __restrict__ part, float* dst, i64 m, i64 S) {
  extern __shared__ float acc[];
  for (i64 q = threadIdx.x; q < S; q += blockDim.x) acc[q] = 0.f;
  __syncthreads();
  const i64 per = (n + gridDim.x - 1) / gridDim.x, s0 = blockIdx.x * per, s1 = s0 + per < n ? s0 + per : n;
  i64 i = s0 + threadIdx.x;
  for (; i + (U - 1) * (i64)blockDim.x < s1; i += U * (i64)blockDim.x) {
    i64 t[U]; float x[U];
#pragma unroll
    for (int u = 0; u < U; ++u) { t[u] = __ldcs(ix + i + u * blockDim.x); x[u] = __ldcs(v + i + u * blockDim.x); }
#pragma unroll
    for (int u = 0; u < U; ++u) {
      if ((unsigned long long)t[u] < (unsigned long long)S) atomicAdd(acc + t[u], x[u]);
      else if ((unsigned long long)t[u] < (unsigned long long)m) atomicAdd(dst + t[u], x[u]);
    }
  }
  for (; i < s1; i += blockDim.x) {
    const i64 t = ix[i];
    if ((unsigned long long)t < (unsigned long long)S) atomicAdd(acc + t, v[i]);
    else if ((unsigned long long)t < (unsigned long long)m) atomicAdd(dst + t, v[i]);
  }
  __syncthreads();
  for (i64 q = threadIdx.x; q < S; q += blockDim.x) part[blockIdx.x * S + q] = acc[q];
}
"""
def hybrid_kernel(TH, U):
    name = f"hyb_{TH}_{U}"
    src = HYB + f'extern "C" __global__ void __launch_bounds__({TH}) {name}(const float* v, const i64* ix, i64 n, float* part, float* dst, i64 m, i64 S) {{ hyb<{U}>(v, ix, n, part, dst, m, S); }}\n'
    return cp.RawKernel(src, name, backend="nvrtc")

REDUCE = cp.RawKernel(r"""
extern "C" __global__ void red(float* dst, const float* part, long long m, long long C) {
  for (long long j = blockIdx.x * (long long)blockDim.x + threadIdx.x; j < m; j += (long long)gridDim.x * blockDim.x) {
    float s = dst[j];
    for (long long c = 0; c < C; ++c) s += part[c * m + j];
    dst[j] = s;
  }
}
""", "red")

def run_at():
    n, m = 1 << 24, 1 << 16
    rng = np.random.default_rng(1)
    idx = cp.asarray(rng.integers(0, m, n, dtype=np.int64))
    v = cp.asarray(rng.random(n, dtype=np.float32))
    bins = cp.zeros(m, cp.float32)
    ref = cp.zeros(m, cp.float64)
    cp.add.at(ref, idx, v.astype(cp.float64))
    t = timed(lambda: cp.add.at(bins, idx, v))
    print(f"cupy add.at: {t:.4f} ms")
    sms = cp.cuda.Device().attributes["MultiProcessorCount"]
    for S, TH, U in ((57344, 1024, 1), (57344, 1024, 4), (28672, 1024, 1), (28672, 1024, 4), (28672, 512, 4), (57344, 512, 4)):
        k = hybrid_kernel(TH, U)
        smem = 4 * S
        k.max_dynamic_shared_size_bytes = smem
        per_sm = max(1, min(227 * 1024 // (smem + 1024), 2048 // TH))
        grid = sms * per_sm
        part = cp.empty(grid * S, cp.float32)
        def go():
            k((grid,), (TH,), (v, idx, cp.int64(n), part, bins, cp.int64(m), cp.int64(S)), shared_mem=smem)
            REDUCE((256,), (256,), (bins, part, cp.int64(S), cp.int64(grid)))
        bins[:] = 0; go()
        err = float(cp.abs(bins - ref).max() / cp.abs(ref).max())
        tt = timed(go)
        print(f"hybrid S {S} threads {TH} U {U} grid {grid}: {tt:.4f} ms, cupy/ours {t/tt:.2f}, rel err {err:.1e}")
    for CL in (2, 4):
        for TH in (512, 1024):
            for LOCAL in (True,):
                for U in (4,):
                    sh = (m // CL - 1).bit_length()
                    smem = 4 << sh
                    try:
                        k = cluster_kernel(CL, TH, LOCAL, U)
                        k.max_dynamic_shared_size_bytes = smem
                    except Exception as ex:
                        print("compile fail", CL, TH, ex); continue
                    per_sm = max(1, min(227 * 1024 // (smem + 1024), 2048 // TH))
                    for gmul in (0.5, 1.0):
                        grid = max(CL, int(sms * per_sm * gmul) // CL * CL)
                        C = grid // CL
                        part = cp.empty(C * m, cp.float32)
                        def go():
                            k((grid,), (TH,), (v, idx, cp.int64(n), part, cp.int64(m), cp.int32(sh)), shared_mem=smem)
                            REDUCE((256,), (256,), (bins, part, cp.int64(m), cp.int64(C)))
                        try:
                            bins[:] = 0; go()
                            err = float(cp.abs(bins - ref).max() / cp.abs(ref).max())
                            tt = timed(go)
                            def only(): k((grid,), (TH,), (v, idx, cp.int64(n), part, cp.int64(m), cp.int32(sh)), shared_mem=smem)
                            to = timed(only)
                        except Exception as ex:
                            print("run fail", CL, TH, grid, ex); continue
                        print(f"cluster {CL} threads {TH} local {int(LOCAL)} U {U} grid {grid}: {tt:.4f} ms (acc alone {to:.4f}), cupy/ours {t/tt:.2f}, rel err {err:.1e}")

TAKE = r"""
typedef long long i64;
template <int H> __device__ __forceinline__ float src_ld(const float* p) {
  float r;
  if (H == 0) r = __ldg(p);
  else if (H == 1) r = __ldcg(p);
  else if (H == 2) asm volatile("ld.global.nc.L1::no_allocate.L2::evict_last.f32 %0, [%1];" : "=f"(r) : "l"(p));
  else asm volatile("ld.global.nc.L1::no_allocate.f32 %0, [%1];" : "=f"(r) : "l"(p));
  return r;
}
template <int H, bool CS, int U>
__device__ void take(float* __restrict__ o, const float* __restrict__ a, const i64* __restrict__ ix, i64 n, i64 len) {
  const i64 step = U * (i64)gridDim.x * blockDim.x;
  for (i64 b0 = U * ((i64)blockIdx.x * blockDim.x + threadIdx.x); b0 + U <= n; b0 += step) {
    i64 x[U]; float r[U];
#pragma unroll
    for (int u = 0; u < U; u += 2) {
      longlong2 q = CS ? __ldcs((const longlong2*)(ix + b0 + u)) : *(const longlong2*)(ix + b0 + u);
      x[u] = q.x; x[u + 1] = q.y;
    }
#pragma unroll
    for (int u = 0; u < U; ++u) { i64 c = x[u] < 0 ? x[u] + len : x[u]; r[u] = (unsigned long long)c < (unsigned long long)len ? src_ld<H>(a + c) : 0.f; }
#pragma unroll
    for (int u = 0; u < U; u += 4) {
      float4 w = make_float4(r[u], r[u + 1], r[u + 2], r[u + 3]);
      if (CS) __stcs((float4*)(o + b0 + u), w); else *(float4*)(o + b0 + u) = w;
    }
  }
}
"""
def take_kernel(H, CS, U):
    name = f"t_{H}_{int(CS)}_{U}"
    src = TAKE + f'extern "C" __global__ void {name}(float* o, const float* a, const i64* ix, i64 n, i64 len) {{ take<{H}, {str(CS).lower()}, {U}>(o, a, ix, n, len); }}\n'
    return cp.RawKernel(src, name, backend="nvrtc")

def run_take():
    n, m = 1 << 24, 1 << 26
    rng = np.random.default_rng(2)
    a = cp.asarray(rng.random(m, dtype=np.float32))
    idx = cp.asarray(rng.integers(0, m, n, dtype=np.int64))
    ref = cp.take(a, idx)
    t = timed(lambda: cp.take(a, idx))
    big = cp.empty(1 << 26, cp.float32)
    tc = timed(lambda: big.__setitem__(slice(None), a))
    print(f"cupy take: {t:.4f} ms; copy of 2^26 f32 {tc:.4f} ms")
    out = cp.empty(n, cp.float32)
    sms = cp.cuda.Device().attributes["MultiProcessorCount"]
    for H in (0, 3):
        for CS in (False, True):
            for U in (4,):
                k = take_kernel(H, CS, U)
                for blocks_per_sm in (8, 0):
                    grid = sms * blocks_per_sm if blocks_per_sm else n // U // 256
                    def go(): k((grid,), (256,), (out, a, idx, cp.int64(n), cp.int64(m)))
                    out[:] = 0; go()
                    ok = bool(cp.all(out == ref))
                    tt = timed(go)
                    print(f"take H {H} cs {int(CS)} U {U} grid {grid}: {tt:.4f} ms, cupy/ours {t/tt:.2f}, ok {ok}")

CEIL = cp.RawKernel(r"""
extern "C" __global__ void ceil_k(float* o, const float* a, long long n, long long m, int with_ix, const long long* ix) {
  const long long step = 4ll * gridDim.x * blockDim.x;
  for (long long b0 = 4ll * (blockIdx.x * (long long)blockDim.x + threadIdx.x); b0 + 4 <= n; b0 += step) {
    float r[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) {
      unsigned long long h = (unsigned long long)(b0 + u) * 0x9E3779B97F4A7C15ull; h ^= h >> 29; h *= 0xBF58476D1CE4E5B9ull; h ^= h >> 32;
      r[u] = a[h & (m - 1)];
    }
    *(float4*)(o + b0) = make_float4(r[0], r[1], r[2], r[3]);
  }
}
""", "ceil_k")

def run_ceiling():
    n, m = 1 << 24, 1 << 26
    a = cp.ones(m, cp.float32)
    out = cp.empty(n, cp.float32)
    sms = cp.cuda.Device().attributes["MultiProcessorCount"]
    for grid in (sms * 8, n // 4 // 256):
        t = timed(lambda: CEIL((grid,), (256,), (out, a, cp.int64(n), cp.int64(m), cp.int32(0), out)))
        print(f"2^24 random f32 reads from 2^26 with no index stream (hashed positions), grid {grid}: {t:.4f} ms")

print(cp.cuda.runtime.getDeviceProperties(0)["name"].decode())
run_at()
run_ceiling()
run_take()
