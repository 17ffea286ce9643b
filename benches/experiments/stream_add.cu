// Hardware experiment for issue 3 (not part of the build): how fast can c = a + b (f32, 2^26) go
// on this GPU, in which kernel shape, against a device copy; and what does an empty kernel launch
// cost on the host and on the device. Build and run on the GPU machine:
//   nvcc -O3 -arch=sm_90 -o /tmp/sa benches/experiments/stream_add.cu && /tmp/sa
#include <cstdio>
#include <vector>
#include <algorithm>
#include <chrono>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

// U float4 per thread, all loads before the first store; blocks cover the array once.
template <int U, bool CS>
__global__ void add_ilp(float4* __restrict__ c, const float4* __restrict__ a, const float4* __restrict__ b, long nv) {
  long base = (long)blockIdx.x * blockDim.x * U + threadIdx.x;
  float4 x[U], y[U];
#pragma unroll
  for (int j = 0; j < U; ++j) {
    long i = base + (long)j * blockDim.x;
    if (i < nv) {
      if (CS) { x[j] = __ldcs(a + i); y[j] = __ldcs(b + i); } else { x[j] = a[i]; y[j] = b[i]; }
    }
  }
#pragma unroll
  for (int j = 0; j < U; ++j) {
    long i = base + (long)j * blockDim.x;
    if (i < nv) {
      float4 r = make_float4(x[j].x + y[j].x, x[j].y + y[j].y, x[j].z + y[j].z, x[j].w + y[j].w);
      if (CS) __stcs(c + i, r); else c[i] = r;
    }
  }
}

// Grid-stride, one float4 per iteration (a one-wave persistent grid).
__global__ void add_gs(float4* __restrict__ c, const float4* __restrict__ a, const float4* __restrict__ b, long nv) {
  for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < nv; i += (long)gridDim.x * blockDim.x) {
    float4 x = a[i], y = b[i];
    c[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
  }
}

__global__ void copy_k(float4* __restrict__ c, const float4* __restrict__ a, long nv) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nv) c[i] = a[i];
}

__global__ void empty_k() {}

template <class F>
float median_ms(F f, int reps = 40) {
  cudaEvent_t s, e;
  cudaEventCreate(&s); cudaEventCreate(&e);
  for (int i = 0; i < 5; ++i) f();
  std::vector<float> t;
  for (int r = 0; r < reps; ++r) {
    cudaEventRecord(s); f(); cudaEventRecord(e); cudaEventSynchronize(e);
    float ms; cudaEventElapsedTime(&ms, s, e); t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main() {
  const long n = 1L << 26, nv = n / 4;
  float4 *a, *b, *c;
  CK(cudaMalloc(&a, n * 4)); CK(cudaMalloc(&b, n * 4)); CK(cudaMalloc(&c, n * 4));
  CK(cudaMemset(a, 0, n * 4)); CK(cudaMemset(b, 0, n * 4));
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  double add_bytes = 3.0 * n * 4, copy_bytes = 2.0 * n * 4;
  float m = median_ms([&] { cudaMemcpyAsync(c, a, n * 4, cudaMemcpyDeviceToDevice); });
  printf("cudaMemcpy d2d 256MB      %.4f ms  %.0f GB/s\n", m, copy_bytes / m / 1e6);
  double copy_bw = copy_bytes / m / 1e6;
  m = median_ms([&] { copy_k<<<nv / 256, 256>>>(c, a, nv); });
  printf("copy kernel float4        %.4f ms  %.0f GB/s\n", m, copy_bytes / m / 1e6);
  auto rep = [&](const char* name, float ms) {
    printf("%-26s%.4f ms  %.0f GB/s  %.0f%% of memcpy\n", name, ms, add_bytes / ms / 1e6, 100 * add_bytes / ms / 1e6 / copy_bw);
  };
  for (int bs : {128, 256, 512, 1024}) {
    char nm[64];
    snprintf(nm, 64, "add 1 x float4 b%d", bs);
    rep(nm, median_ms([&] { add_ilp<1, false><<<(nv + bs - 1) / bs, bs>>>(c, a, b, nv); }));
    snprintf(nm, 64, "add 2 x float4 b%d", bs);
    rep(nm, median_ms([&] { add_ilp<2, false><<<(nv + 2 * bs - 1) / (2 * bs), bs>>>(c, a, b, nv); }));
    snprintf(nm, 64, "add 4 x float4 b%d", bs);
    rep(nm, median_ms([&] { add_ilp<4, false><<<(nv + 4 * bs - 1) / (4 * bs), bs>>>(c, a, b, nv); }));
    snprintf(nm, 64, "add 2 x float4 cs b%d", bs);
    rep(nm, median_ms([&] { add_ilp<2, true><<<(nv + 2 * bs - 1) / (2 * bs), bs>>>(c, a, b, nv); }));
  }
  for (int per : {4, 8, 16, 32}) {
    char nm[64];
    snprintf(nm, 64, "add grid-stride %d blk/SM", per);
    rep(nm, median_ms([&] { add_gs<<<sms * per, 256>>>(c, a, b, nv); }));
  }
  // Launch cost: host enqueue for a burst that fits the queue, for 10^4 back to back, and the
  // device's time per empty kernel.
  cudaDeviceSynchronize();
  std::vector<double> burst;
  for (int r = 0; r < 30; ++r) {
    cudaDeviceSynchronize();
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 100; ++i) empty_k<<<1, 32>>>();
    burst.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / 100);
  }
  std::sort(burst.begin(), burst.end());
  cudaDeviceSynchronize();
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 10000; ++i) empty_k<<<1, 32>>>();
  double issue = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / 1e4;
  cudaDeviceSynchronize();
  double total = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / 1e4;
  float dev = median_ms([&] { for (int i = 0; i < 1000; ++i) empty_k<<<1, 32>>>(); }, 9);
  printf("empty kernel: host enqueue %.2f us/launch in bursts of 100 (median), %.2f us over 10^4 (until run %.2f); device %.2f us/kernel (events over 1000)\n",
         burst[burst.size() / 2], issue, total, dev);
  // The same with a CUDA graph of 100 empty kernels, for reference.
  cudaStream_t st; cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking);
  cudaGraph_t g; cudaGraphExec_t ge;
  cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal);
  for (int i = 0; i < 100; ++i) empty_k<<<1, 32, 0, st>>>();
  cudaStreamEndCapture(st, &g);
  cudaGraphInstantiate(&ge, g, 0);
  cudaGraphLaunch(ge, st); cudaStreamSynchronize(st);
  t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 100; ++i) cudaGraphLaunch(ge, st);
  cudaStreamSynchronize(st);
  double gr = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / 1e4;
  printf("empty kernel in a CUDA graph of 100: %.2f us/kernel until run\n", gr);
  return 0;
}
