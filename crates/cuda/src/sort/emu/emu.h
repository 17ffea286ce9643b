// A CPU emulation of the CUDA features xp's sort kernels use, for tests without a GPU
// (sort/emu.rs): every CUDA thread is a coroutine (ucontext) on one OS thread, scheduled round
// robin; __syncthreads, warp votes and shuffles are barriers over the block's or warp's
// coroutines; several blocks run interleaved (their shared memory apart: the kernels are
// instantiated once per concurrent block "slot", `template <int SLOT>`), so decoupled look-back
// sees predecessors that have published only their aggregate. Spin loops yield (XP_SPIN).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>
#include <ucontext.h>
using namespace std;
#define __device__
#define __forceinline__ inline
#define __global__
#define __shared__ static
#define __restrict__
#define __align__(n) __attribute__((aligned(n)))
#define __launch_bounds__(...)
#define XP_NAME(e) xp_##e
#define asm(...)
struct XpDim { unsigned x, y, z; };
static XpDim threadIdx, blockIdx, blockDim, gridDim;

inline float __int_as_float(int i) { float f; memcpy(&f, &i, 4); return f; }
inline double __longlong_as_double(long long i) { double f; memcpy(&f, &i, 8); return f; }
inline unsigned __float_as_uint(float f) { unsigned i; memcpy(&i, &f, 4); return i; }
inline float __uint_as_float(unsigned i) { float f; memcpy(&f, &i, 4); return f; }
inline long long __double_as_longlong(double f) { long long i; memcpy(&i, &f, 8); return i; }
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __ffs(unsigned x) { return x ? __builtin_ffs(x) : 0; }
inline int __clz(unsigned x) { return x ? __builtin_clz(x) : 32; }
inline void __threadfence() {}

// ---- the scheduler ----
struct EmuBar {
  int n = 0, count = 0;
  long gen = 0;
  void wait();
};
struct EmuCo {
  ucontext_t ctx;
  vector<char> stack;
  XpDim tid, bid;
  int slot = 0;
  bool done = false;
};
struct EmuBlock {
  EmuBar block;
  EmuBar warp[32];
  int flag[1024];
  unsigned long long word[1024];
};
static ucontext_t emu_sched;
static EmuCo* emu_cur;
static EmuBlock emu_blocks[4];
static function<void(int)> emu_body;
static long emu_switches;

inline void emu_yield() {
  ++emu_switches;
  swapcontext(&emu_cur->ctx, &emu_sched);
}
inline void __nanosleep(unsigned) { emu_yield(); }
#define XP_SPIN() emu_yield()
void EmuBar::wait() {
  const long g = gen;
  if (++count == n) {
    count = 0;
    ++gen;
    return;
  }
  while (gen == g) emu_yield();
}
inline EmuBlock& emu_blk() { return emu_blocks[emu_cur->slot]; }
inline int emu_t() { return (int)emu_cur->tid.x; }
inline EmuBar& emu_warp() { return emu_blk().warp[emu_t() >> 5]; }

static void emu_entry() {
  emu_body(emu_cur->slot);
  emu_cur->done = true;
  swapcontext(&emu_cur->ctx, &emu_sched);
}

// Run `grid` blocks of `threads` threads, `slots` blocks at a time; body(slot) runs the kernel
// instantiation for that slot.
inline void emu_launch(unsigned grid, unsigned threads, int slots, function<void(int)> body) {
  emu_body = body;
  gridDim = {grid, 1, 1};
  blockDim = {threads, 1, 1};
  for (unsigned b0 = 0; b0 < grid; b0 += slots) {
    const unsigned nb = grid - b0 < (unsigned)slots ? grid - b0 : slots;
    vector<EmuCo> cos(nb * threads);
    for (unsigned s = 0; s < nb; ++s) {
      emu_blocks[s].block = EmuBar();
      emu_blocks[s].block.n = threads;
      for (unsigned w = 0; w < (threads + 31) / 32; ++w) {
        emu_blocks[s].warp[w] = EmuBar();
        emu_blocks[s].warp[w].n = 32;
      }
      for (unsigned t = 0; t < threads; ++t) {
        EmuCo& c = cos[s * threads + t];
        c.stack.resize(1 << 16);
        getcontext(&c.ctx);
        c.ctx.uc_stack.ss_sp = c.stack.data();
        c.ctx.uc_stack.ss_size = c.stack.size();
        c.ctx.uc_link = nullptr;
        makecontext(&c.ctx, emu_entry, 0);
        c.tid = {t, 0, 0};
        c.bid = {b0 + s, 0, 0};
        c.slot = (int)s;
      }
    }
    // Each round visits the live coroutines in a fresh random order (fixed seed), so blocks
    // interleave arbitrarily between their barriers.
    vector<size_t> order(cos.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    static unsigned long long seed = 0x243f6a8885a308d3ull;
    for (bool live = true; live;) {
      live = false;
      for (size_t i = order.size(); i > 1; --i) {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        const size_t j = seed % i;
        const size_t tmp = order[i - 1];
        order[i - 1] = order[j];
        order[j] = tmp;
      }
      for (size_t o : order) {
        EmuCo& c = cos[o];
        if (c.done) continue;
        live = true;
        emu_cur = &c;
        threadIdx = c.tid;
        blockIdx = c.bid;
        swapcontext(&emu_sched, &c.ctx);
      }
    }
  }
}

// ---- block and warp primitives ----
inline void __syncthreads() { emu_blk().block.wait(); }
inline int __syncthreads_or(int p) {
  EmuBlock& b = emu_blk();
  b.flag[emu_t()] = p != 0;
  b.block.wait();
  int r = 0;
  for (unsigned i = 0; i < blockDim.x; ++i) r |= b.flag[i];
  b.block.wait();
  return r;
}
inline void __syncwarp(unsigned = 0xffffffffu) { emu_warp().wait(); }
// The lanes of the calling warp (all of them call) for which `f(lane's value)` holds, as a mask.
template <class F> unsigned emu_warp_mask(unsigned long long v, F f) {
  EmuBlock& b = emu_blk();
  const int t = emu_t(), w0 = t & ~31;
  b.word[t] = v;
  emu_warp().wait();
  unsigned r = 0;
  for (int l = 0; l < 32; ++l) r |= (unsigned)f(b.word[w0 + l]) << l;
  emu_warp().wait();
  return r;
}
inline unsigned __ballot_sync(unsigned, bool p) {
  return emu_warp_mask(p, [](unsigned long long x) { return x != 0; });
}
inline unsigned __match_any_sync(unsigned, unsigned v) {
  return emu_warp_mask(v, [&](unsigned long long x) { return x == v; });
}
// Lane `src(lane)`'s value (own value when src is outside the warp).
template <class T, class F> T emu_shfl(T v, F src) {
  static_assert(sizeof(T) <= 8, "shuffles move at most 8 bytes");
  EmuBlock& b = emu_blk();
  const int t = emu_t(), w0 = t & ~31, s = src(t & 31);
  unsigned long long x = 0;
  memcpy(&x, &v, sizeof(T));
  b.word[t] = x;
  emu_warp().wait();
  T r = v;
  if (s >= 0 && s < 32) memcpy(&r, &b.word[w0 + s], sizeof(T));
  emu_warp().wait();
  return r;
}
template <class T> T __shfl_sync(unsigned, T v, int src) { return emu_shfl(v, [&](int) { return src & 31; }); }
template <class T> T __shfl_xor_sync(unsigned, T v, int m) { return emu_shfl(v, [&](int l) { return l ^ m; }); }
template <class T> T __shfl_up_sync(unsigned, T v, int d) { return emu_shfl(v, [&](int l) { return l - d; }); }
template <class T> T __shfl_down_sync(unsigned, T v, int d) { return emu_shfl(v, [&](int l) { return l + d; }); }
inline unsigned atomicAdd(unsigned* p, unsigned v) { const unsigned o = *p; *p += v; return o; }
inline unsigned atomicOr(unsigned* p, unsigned v) { const unsigned o = *p; *p |= v; return o; }

inline unsigned long long atomicAdd(unsigned long long* p, unsigned long long v) {
  const unsigned long long o = *p;
  *p += v;
  return o;
}
