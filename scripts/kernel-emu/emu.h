// See stack_linalg.py and recursive.py beside this file.
// CPU emulation of CUDA blocks: one std::thread per CUDA thread, a barrier for __syncthreads,
// warp-wide exchanges for shuffles. Enough to run xp's one-block-per-matrix kernels on the host.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>
#include <mutex>
#include <condition_variable>
#include <algorithm>
using namespace std;
// NVRTC compiles without the C headers: <cmath>'s macros must not be relied on.
#undef INFINITY
#undef NAN
#undef HUGE_VAL
#define __device__
#define __forceinline__ inline
#define __global__
#define XP_NAME(e) xp_##e
#define __shared__ static
#define __restrict__
#define __grid_constant__
#define __align__(n) alignas(n)
#define asm(...)
#define __launch_bounds__(...)
struct XpDim { unsigned x, y, z; };
extern thread_local XpDim threadIdx;
extern XpDim blockIdx, blockDim, gridDim;
struct Barrier {
  int n = 0, count = 0, gen = 0; std::mutex m; std::condition_variable cv;
  long long acc = 0, res = 0;
  long long wait(long long v = 0) {
    std::unique_lock<std::mutex> l(m);
    int g = gen; acc |= v;
    if (++count == n) { res = acc; acc = 0; count = 0; gen++; cv.notify_all(); return res; }
    cv.wait(l, [&] { return gen != g; });
    return res;
  }
};
extern Barrier block_bar;
extern Barrier warp_bar[32];
extern unsigned char exch[32][32][16];
inline void __syncthreads() { block_bar.wait(); }
inline int __syncthreads_or(int p) { return block_bar.wait(p != 0) != 0; }
inline void __syncwarp(unsigned = 0xffffffffu) { warp_bar[threadIdx.x >> 5].wait(); }
template <class T> T xchg(T v, int src) {
  int w = threadIdx.x >> 5, l = threadIdx.x & 31;
  memcpy(exch[w][l], &v, sizeof(T));
  warp_bar[w].wait();
  T r; memcpy(&r, exch[w][src & 31], sizeof(T));
  warp_bar[w].wait();
  return r;
}
template <class T> T __shfl_xor_sync(unsigned, T v, int o) { return xchg(v, (threadIdx.x & 31) ^ o); }
template <class T> T __shfl_down_sync(unsigned, T v, int o) { int l = threadIdx.x & 31; return xchg(v, l + o < 32 ? l + o : l); }
template <class T> T __shfl_up_sync(unsigned, T v, int o) { int l = threadIdx.x & 31; return xchg(v, l >= o ? l - o : l); }
template <class T> T __shfl_sync(unsigned, T v, int s) { return xchg(v, s); }
inline float __int_as_float(int i) { float f; memcpy(&f, &i, 4); return f; }
inline int __float_as_int(float f) { int i; memcpy(&i, &f, 4); return i; }
inline double __longlong_as_double(long long i) { double f; memcpy(&f, &i, 8); return f; }
inline long long __double_as_longlong(double f) { long long i; memcpy(&i, &f, 8); return i; }
inline unsigned __float_as_uint(float f) { unsigned i; memcpy(&i, &f, 4); return i; }
inline float __uint_as_float(unsigned i) { float f; memcpy(&f, &i, 4); return f; }
inline void __threadfence() {}
// Runs `kernel` over a grid of `grid` blocks of `threads` threads, one block at a time.
template <class F> void launch(int grid, int threads, F kernel) {
  gridDim = {(unsigned)grid, 1, 1};
  blockDim = {(unsigned)threads, 1, 1};
  block_bar.n = threads;
  for (int w = 0; w < 32; ++w) warp_bar[w].n = 32;
  for (int b = 0; b < grid; ++b) {
    blockIdx = {(unsigned)b, 0, 0};
    std::vector<std::thread> ts;
    for (int t = 0; t < threads; ++t) ts.emplace_back([=] { threadIdx = {(unsigned)t, 0, 0}; kernel(); });
    for (auto& t : ts) t.join();
  }
}
#define EMU_GLOBALS \
  thread_local XpDim threadIdx; XpDim blockIdx, blockDim, gridDim; Barrier block_bar; Barrier warp_bar[32]; \
  unsigned char exch[32][32][16];
