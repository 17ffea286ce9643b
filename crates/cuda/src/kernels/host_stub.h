// Lets g++ parse the prelude and generated kernels as plain C++ (a syntax and overload check
// that needs no GPU); see codegen.rs's tests. Not used on the device.
#include <cmath>
#include <cstdint>
using namespace std;
#define __device__
#define __forceinline__ inline
#define __global__
#define __shared__
#define __restrict__
#define __align__(n) alignas(n)
#define asm(...)
#define __syncthreads()
struct XpDim { unsigned x, y, z; };
static XpDim threadIdx, blockIdx, blockDim, gridDim;
inline float __int_as_float(int) { return 0; }
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
