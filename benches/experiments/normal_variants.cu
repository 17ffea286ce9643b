// Variants of the float32 standard_normal kernel (2^26 values), timed with CUDA events, to find
// what bounds it (issue 10). Build and run on the GPU machine:
//   nvcc -O3 -arch=sm_90 -o /tmp/nv benches/experiments/normal_variants.cu && /tmp/nv
// K0 is xp's kernel (crates/cuda/src/random.rs) as NVRTC compiles it; the others change one thing.
#include <cstdio>
#include "common.cuh"
__device__ __forceinline__ void block(const Str& s, u64 b, u32 w[4]) {
  w[0] = (u32)b; w[1] = (u32)(b >> 32); w[2] = s.d0; w[3] = s.d1; philox(w, s.k0, s.k1);
}
// Philox with the round keys computed once per thread (mode 6).
__device__ __forceinline__ void philox_k(u32 c[4], const u32* k) {
#pragma unroll
  for (int r = 0; r < 10; ++r) {
    const u32 h0 = __umulhi(0xD2511F53u, c[0]), l0 = 0xD2511F53u * c[0];
    const u32 h1 = __umulhi(0xCD9E8D57u, c[2]), l1 = 0xCD9E8D57u * c[2];
    const u32 n0 = h1 ^ c[1] ^ k[2 * r], n2 = h0 ^ c[3] ^ k[2 * r + 1];
    c[0] = n0; c[1] = l1; c[2] = n2; c[3] = l0;
  }
}
// The exact float of a 24-bit integer without I2F: low 23 bits through the exponent trick.
__device__ __forceinline__ float f24(u32 m) {
  const float lo = __uint_as_float(0x4b000000u | (m & 0x7fffffu)) - 8388608.0f;
  return (m & 0x800000u) ? lo + 8388608.0f : lo;
}
// Mode 5's own logf for x in [2^-24, 1] (no special cases; m in [2/3, 4/3), minimax log1p)
// and sincospi(2u) with an exact quarter-turn reduction and Taylor polynomials with π folded in.
__device__ __forceinline__ float log_unit(float a) {
  const int i = __float_as_int(a);
  const int e = (i - 0x3f2aaaab) & 0xff800000;
  const float m = __int_as_float(i - e) - 1.0f, s = m * m;
  const float fi = (float)e * 1.19209290e-7f;
  float r = -0.130310059f, t = 0.140869141f;
  r = fmaf(r, s, -0.121483512f); t = fmaf(t, s, 0.139814854f);
  r = fmaf(r, s, -0.166846126f); t = fmaf(t, s, 0.200120345f);
  r = fmaf(r, s, -0.249996200f);
  r = fmaf(t, m, r);
  r = fmaf(r, m, 0.333331972f);
  r = fmaf(r, m, -0.500000000f);
  r = fmaf(r, s, m);
  return fmaf(fi, 0.693147182f, r);
}
__device__ __forceinline__ void sincos_turn(float u, float& sn, float& cs) {
  const float j = rintf(4.0f * u);
  const float r = fmaf(j, -0.25f, u) * 2.0f;  // in [-1/4, 1/4] half-turns, exact
  const float s = r * r;
  float ps = -0.007370431f; ps = fmaf(ps, s, 0.08214589f); ps = fmaf(ps, s, -0.5992645f);
  ps = fmaf(ps, s, 2.550164f); ps = fmaf(ps, s, -5.1677128f); ps = fmaf(ps, s, 3.1415927f);
  const float sp = ps * r;
  float pc = 0.0019295743f; pc = fmaf(pc, s, -0.025806891f); pc = fmaf(pc, s, 0.23533063f);
  pc = fmaf(pc, s, -1.3352628f); pc = fmaf(pc, s, 4.0587121f); pc = fmaf(pc, s, -4.9348022f);
  const float cp = fmaf(pc, s, 1.0f);
  const int q = (int)j;
  const float a = (q & 1) ? cp : sp, b = (q & 1) ? sp : cp;
  sn = (q & 2) ? -a : a;
  cs = ((q + 1) & 2) ? -b : b;
}
template <int MODE>
__device__ __forceinline__ void pair(u32 a, u32 b, float& x, float& y) {
  float u1, u2;
  if (MODE == 2) { u1 = f24((a >> 8) + 1) * (1.0f / 16777216.0f); u2 = f24(b >> 8) * (1.0f / 16777216.0f); }
  else { u1 = (float)((a >> 8) + 1) * (1.0f / 16777216.0f); u2 = (float)(b >> 8) * (1.0f / 16777216.0f); }
  float sn, cs;
  if (MODE >= 5) { sincos_turn(u2, sn, cs); const float r = sqrtf(-2.0f * log_unit(u1)); x = r * cs; y = r * sn; return; }
  if (MODE == 1) { __sincosf(6.2831853f * u2, &sn, &cs); const float r = sqrtf(-2.0f * __logf(u1)); x = r * cs; y = r * sn; return; }
  sincospif(2.0f * u2, &sn, &cs);
  const float r = sqrtf(-2.0f * logf(u1));
  x = r * cs; y = r * sn;
}
// MODE 0: xp's kernel; 1: fast-math intrinsics (not accurate enough; a floor); 2: no I2F;
// 3: uniform only (Philox + store); 4: store only; 5: own log and sincospi (above); 6: 5 with
// the round keys computed once per thread.
template <int MODE, int PER>
__global__ void k(float* __restrict__ o, long long n, Str s) {
  const long long nb = n / 4;
  u32 kk[20];
#pragma unroll
  for (int r = 0; r < 10; ++r) { kk[2 * r] = s.k0 + r * 0x9E3779B9u; kk[2 * r + 1] = s.k1 + r * 0xBB67AE85u; }
  for (long long b0 = ((long long)blockIdx.x * blockDim.x + threadIdx.x) * PER; b0 < nb; b0 += (long long)gridDim.x * blockDim.x * PER) {
#pragma unroll
    for (int p = 0; p < PER; ++p) {
      const long long kb = b0 + p;
      float4 v;
      if (MODE == 4) { v = make_float4(kb, 1, 2, 3); }
      else {
        u32 w[4];
        if (MODE == 6) { w[0] = (u32)kb; w[1] = (u32)((u64)kb >> 32); w[2] = s.d0; w[3] = s.d1; philox_k(w, kk); }
        else block(s, (u64)kb, w);
        if (MODE == 3) v = make_float4((w[0] >> 8) * 5.96e-8f, (w[1] >> 8) * 5.96e-8f, (w[2] >> 8) * 5.96e-8f, (w[3] >> 8) * 5.96e-8f);
        else { pair<MODE>(w[0], w[1], v.x, v.y); pair<MODE>(w[2], w[3], v.z, v.w); }
      }
      ((float4*)o)[kb] = v;
    }
  }
}
// The largest error (in hundredths of an ulp) of mode M's values against Box–Muller in float64,
// over values above 1e-3 in size.
template <int M>
__global__ void err(long long nb, Str s, unsigned* worst) {
  for (long long kb = (long long)blockIdx.x * blockDim.x + threadIdx.x; kb < nb; kb += (long long)gridDim.x * blockDim.x) {
    u32 w[4]; block(s, (u64)kb, w);
    for (int j = 0; j < 2; ++j) {
      float x, y; pair<M>(w[2 * j], w[2 * j + 1], x, y);
      const double u1 = (double)((w[2 * j] >> 8) + 1) / 16777216.0, u2 = (double)(w[2 * j + 1] >> 8) / 16777216.0;
      double sn, cs; sincospi(2.0 * u2, &sn, &cs);
      const double r = sqrt(-2.0 * log(u1)), rx = r * cs, ry = r * sn;
      const double v[2] = {x, y}, ref[2] = {rx, ry};
      for (int q = 0; q < 2; ++q) {
        if (fabs(ref[q]) < 1e-3) continue;
        int ex; frexp(ref[q], &ex);
        const double ulp = ldexp(1.0, ex - 24);
        atomicMax(worst, (unsigned)(100.0 * fabs(v[q] - ref[q]) / ulp));
      }
    }
  }
}
int main() {
  const long long n = 1ll << 26;
  float* o; cudaMalloc(&o, n * 4);
  float* c; cudaMalloc(&c, n * 4);
  Str s{1, 0, 0, 0};
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  printf("copy 256 MB: %.4f ms\n", time_it([&] { cudaMemcpyAsync(c, o, n * 4, cudaMemcpyDeviceToDevice); }));
#define RUN(M, P, T, G) printf("mode %d per %d threads %d grid %-8d: %.4f ms\n", M, P, T, (int)(G), time_it([&] { k<M, P><<<(G), (T)>>>(o, n, s); }));
  const long long nb = n / 4;
  // One thread per block of four values (xp's launch), then grid-stride loops over fewer blocks.
  RUN(0, 1, 256, nb / 256) RUN(0, 2, 256, nb / 512) RUN(0, 1, 128, nb / 128)
  RUN(0, 1, 256, sms * 8) RUN(0, 1, 256, sms * 16) RUN(0, 1, 512, sms * 2) RUN(0, 1, 512, sms * 4)
  RUN(0, 1, 512, sms * 8) RUN(0, 1, 1024, sms * 2) RUN(0, 2, 512, sms * 4) RUN(0, 1, 384, sms * 4)
  RUN(1, 1, 256, nb / 256) RUN(1, 1, 512, sms * 4) RUN(2, 1, 256, nb / 256) RUN(2, 1, 512, sms * 4)
  RUN(3, 1, 256, nb / 256) RUN(3, 1, 512, sms * 4) RUN(4, 1, 256, nb / 256) RUN(4, 1, 512, sms * 4)
  RUN(5, 1, 256, nb / 256) RUN(5, 1, 512, sms * 4) RUN(5, 1, 1024, sms * 2)
  RUN(6, 1, 256, nb / 256) RUN(6, 1, 512, sms * 4) RUN(6, 1, 1024, sms * 2)
  unsigned* worst; cudaMalloc(&worst, 4);
  unsigned h;
  cudaMemset(worst, 0, 4); err<0><<<sms * 4, 512>>>(nb, s, worst); cudaMemcpy(&h, worst, 4, cudaMemcpyDeviceToHost);
  printf("mode 0 (xp): worst %.2f ulp against float64\n", h / 100.0);
  cudaMemset(worst, 0, 4); err<5><<<sms * 4, 512>>>(nb, s, worst); cudaMemcpy(&h, worst, 4, cudaMemcpyDeviceToHost);
  printf("mode 5: worst %.2f ulp against float64\n", h / 100.0);
  cudaError_t e = cudaDeviceSynchronize(); printf("%s\n", cudaGetErrorString(e));
  return 0;
}
