// Lets g++ parse the prelude and generated kernels as plain C++ (a syntax and overload check
// that needs no GPU); see codegen.rs's tests. Not used on the device.
#include <cmath>
#include <cstdint>
using namespace std;
// NVRTC compiles without the C headers: <cmath>'s macros must not be relied on.
#undef INFINITY
#undef NAN
#undef HUGE_VAL
#define __device__
#define __forceinline__ inline
#define __global__
#define __shared__
#define __restrict__
#define __grid_constant__
#define __align__(n) alignas(n)
#define asm(...)
#define __syncthreads()
struct XpDim { unsigned x, y, z; };
static XpDim threadIdx, blockIdx, blockDim, gridDim;
inline double __dadd_rn(double a, double b) { return a + b; }
inline double __dmul_rn(double a, double b) { return a * b; }
inline float __int_as_float(int) { return 0; }
inline int __float_as_int(float) { return 0; }
inline double __longlong_as_double(long long) { return 0; }
inline unsigned __float_as_uint(float) { return 0; }
inline float __uint_as_float(unsigned) { return 0; }
template <class T> T __shfl_down_sync(unsigned, T v, int) { return v; }
template <class T> T __shfl_up_sync(unsigned, T v, int) { return v; }
inline void __threadfence() {}
inline unsigned long long atomicAdd(unsigned long long* p, unsigned long long v) { return *p += v; }
inline unsigned __ballot_sync(unsigned, bool b) { return b; }
inline int __ffs(unsigned x) { return x ? __builtin_ffs(x) : 0; }
inline void __nanosleep(unsigned) {}
// Used by the sort kernels (crates/cuda/src/sort/).
#define __launch_bounds__(...)
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __clz(unsigned x) { return x ? __builtin_clz(x) : 32; }
template <class T> T __shfl_sync(unsigned, T v, int) { return v; }
template <class T> T __shfl_xor_sync(unsigned, T v, int) { return v; }
inline void __syncwarp(unsigned = 0xffffffffu) {}
inline int __syncthreads_or(int p) { return p; }
inline int __syncthreads_and(int p) { return p; }
inline unsigned atomicAdd(unsigned* p, unsigned v) { unsigned o = *p; *p += v; return o; }
inline long long __double_as_longlong(double) { return 0; }
// Used by the index kernels (crates/cuda/src/index/); sequential, so the host tests can run them.
inline int atomicMax(int* p, int v) { int o = *p; if (v > o) *p = v; return o; }
inline unsigned atomicMax(unsigned* p, unsigned v) { unsigned o = *p; if (v > o) *p = v; return o; }
inline long long atomicMax(long long* p, long long v) { long long o = *p; if (v > o) *p = v; return o; }
inline unsigned long long atomicMax(unsigned long long* p, unsigned long long v) { auto o = *p; if (v > o) *p = v; return o; }
inline int atomicMin(int* p, int v) { int o = *p; if (v < o) *p = v; return o; }
inline unsigned atomicMin(unsigned* p, unsigned v) { unsigned o = *p; if (v < o) *p = v; return o; }
inline long long atomicMin(long long* p, long long v) { long long o = *p; if (v < o) *p = v; return o; }
inline unsigned long long atomicMin(unsigned long long* p, unsigned long long v) { auto o = *p; if (v < o) *p = v; return o; }
template <class T> inline T __ldcs(const T* p) { return *p; }
inline void sincospif(float x, float* s, float* c) { *s = sinf(3.14159265f * x); *c = cosf(3.14159265f * x); }
inline double cospi(double x) { return cos(3.141592653589793 * x); }
inline unsigned __umulhi(unsigned a, unsigned b) { return (unsigned)(((unsigned long long)a * b) >> 32); }
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) { return (unsigned long long)(((unsigned __int128)a * b) >> 64); }
inline float atomicAdd(float* p, float v) { float o = *p; *p += v; return o; }
inline double atomicAdd(double* p, double v) { double o = *p; *p += v; return o; }
inline unsigned atomicAnd(unsigned* p, unsigned v) { unsigned o = *p; *p &= v; return o; }
inline unsigned long long atomicAnd(unsigned long long* p, unsigned long long v) { auto o = *p; *p &= v; return o; }
inline unsigned atomicOr(unsigned* p, unsigned v) { unsigned o = *p; *p |= v; return o; }
inline unsigned long long atomicOr(unsigned long long* p, unsigned long long v) { auto o = *p; *p |= v; return o; }
inline unsigned atomicXor(unsigned* p, unsigned v) { unsigned o = *p; *p ^= v; return o; }
inline unsigned long long atomicXor(unsigned long long* p, unsigned long long v) { auto o = *p; *p ^= v; return o; }
inline int atomicCAS(int* p, int c, int v) { int o = *p; if (o == c) *p = v; return o; }
inline unsigned atomicCAS(unsigned* p, unsigned c, unsigned v) { unsigned o = *p; if (o == c) *p = v; return o; }
inline unsigned long long atomicCAS(unsigned long long* p, unsigned long long c, unsigned long long v) { auto o = *p; if (o == c) *p = v; return o; }
// The loader names each entry point (`runtime/launch.rs`); here a plain prefix will do.
#ifndef XP_NAME
#define XP_NAME(e) xp_##e
#endif
