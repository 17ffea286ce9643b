// The float32 standard_normal kernel with fewer instructions (issue 10): round keys read from the
// kernel parameters, and the Box–Muller functions xp ships (crates/cuda/src/kernels/
// box_muller_f32.cu), written for the inputs they can get (u1 in [2^-24, 1], u2 = k 2^-24). Times the variants with CUDA events and
// measures each part's error against the host specification exhaustively (every possible u1
// and u2). Build and run on the GPU machine:
//   nvcc -O3 -arch=sm_90 -o /tmp/nf benches/experiments/normal_fast.cu && /tmp/nf
#include <cstdio>
#include <cstring>
#include "common.cuh"
struct Str2 { u32 rk[20]; u32 d0, d1; };
// The same rounds with the keys of every round from the parameters.
__device__ __forceinline__ void philox2(u32 c[4], const Str2& s) {
#pragma unroll
  for (int r = 0; r < 10; ++r) {
    const u64 p0 = (u64)0xD2511F53u * c[0], p1 = (u64)0xCD9E8D57u * c[2];
    const u32 n0 = (u32)(p1 >> 32) ^ c[1] ^ s.rk[2 * r], n2 = (u32)(p0 >> 32) ^ c[3] ^ s.rk[2 * r + 1];
    c[0] = n0; c[1] = (u32)p1; c[2] = n2; c[3] = (u32)p0;
  }
}
// The shipped functions: xp_m2ln, xp_sqrt_small, xp_sincos_k, xp_normal_pair_f32.
#include "../../crates/cuda/src/kernels/box_muller_f32.cu"
template <int MODE>
__device__ __forceinline__ void pair(u32 a, u32 b, float& x, float& y) {
  const float u1 = (float)((a >> 8) + 1) * (1.0f / 16777216.0f);
  if (MODE == 2) { xp_normal_pair_f32(a, b, x, y); return; }
  const float u2 = (float)(b >> 8) * (1.0f / 16777216.0f);
  float sn, cs; sincospif(2.0f * u2, &sn, &cs);
  const float r = sqrtf(-2.0f * logf(u1));
  x = r * cs; y = r * sn;
}
// MODE 0: xp's kernel; 1: round keys from the parameters; 2: 1 with the functions above.
template <int MODE>
__global__ void k(float* __restrict__ o, long long n, Str s, Str2 s2) {
  const long long nb = n / 4;
  for (long long kb = (long long)blockIdx.x * blockDim.x + threadIdx.x; kb < nb; kb += (long long)gridDim.x * blockDim.x) {
    u32 w[4] = {(u32)kb, (u32)((u64)kb >> 32), s.d0, s.d1};
    if (MODE == 0) philox(w, s.k0, s.k1); else philox2(w, s2);
    float4 v;
    pair<MODE>(w[0], w[1], v.x, v.y); pair<MODE>(w[2], w[3], v.z, v.w);
    ((float4*)o)[kb] = v;
  }
}
__device__ unsigned ulps(float a, float b) {
  const long long d = (long long)__float_as_int(a) - (long long)__float_as_int(b);
  return (unsigned)min(d < 0 ? -d : d, 0xffffffffll);
}
// Worst errors against the host specification (crates/core/src/random/mod.rs: r from ln in
// float64 rounded, cos and sin rounded from float64), in hundredths of an ulp:
// [0] new radius, [1] old radius, [2] new cos/sin (|v| > 1e-3), [3] old cos/sin,
// [4] |new - spec| of cos/sin below 1e-3 in 1e-12, [5] new radius != old radius count,
// [6] new pair values (|v| > 1e-3), [7] old pair values, [8] |new - spec| below 1e-3 in 1e-12.
__global__ void err(Str s, unsigned* worst) {
  for (u32 m = blockIdx.x * blockDim.x + threadIdx.x; m < (1u << 24); m += gridDim.x * blockDim.x) {
    const float u1 = (float)(m + 1) * (1.0f / 16777216.0f);
    const float rs = sqrtf(-2.0f * (float)log((double)u1));
    const float rn = xp_sqrt_small(xp_m2ln(u1)), ro = sqrtf(-2.0f * logf(u1));
    atomicMax(worst + 0, 100 * ulps(rn, rs)); atomicMax(worst + 1, 100 * ulps(ro, rs));
    if (rn != ro) atomicAdd(worst + 5, 1);
    const float u2 = (float)m * (1.0f / 16777216.0f);
    const float cs_s = (float)cospi(2.0 * u2), sn_s = (float)sinpi(2.0 * u2);
    float cn, sn, co, so; xp_sincos_k(m, cn, sn); sincospif(2.0f * u2, &so, &co);
    const float sp[2] = {cs_s, sn_s}, nw[2] = {cn, sn}, ol[2] = {co, so};
    for (int q = 0; q < 2; ++q) {
      if (fabsf(sp[q]) > 1e-3f) { atomicMax(worst + 2, 100 * ulps(nw[q], sp[q])); atomicMax(worst + 3, 100 * ulps(ol[q], sp[q])); }
      else atomicMax(worst + 4, (unsigned)(1e12 * fabs((double)nw[q] - sp[q])));
    }
  }
  for (u64 kb = blockIdx.x * blockDim.x + threadIdx.x; kb < (1ull << 24); kb += gridDim.x * blockDim.x) {
    u32 w[4] = {(u32)kb, (u32)(kb >> 32), s.d0, s.d1}; philox(w, s.k0, s.k1);
    for (int j = 0; j < 2; ++j) {
      float xn, yn, xo, yo; pair<2>(w[2 * j], w[2 * j + 1], xn, yn); pair<0>(w[2 * j], w[2 * j + 1], xo, yo);
      const float u1 = (float)((w[2 * j] >> 8) + 1) * (1.0f / 16777216.0f);
      const double u2 = (double)(w[2 * j + 1] >> 8) / 16777216.0;
      const float r = sqrtf(-2.0f * (float)log((double)u1));
      const float sp[2] = {r * (float)cospi(2.0 * u2), r * (float)sinpi(2.0 * u2)}, nw[2] = {xn, yn}, ol[2] = {xo, yo};
      for (int q = 0; q < 2; ++q) {
        if (fabsf(sp[q]) > 1e-3f) { atomicMax(worst + 6, 100 * ulps(nw[q], sp[q])); atomicMax(worst + 7, 100 * ulps(ol[q], sp[q])); }
        else atomicMax(worst + 8, (unsigned)(1e12 * fabs((double)nw[q] - sp[q])));
      }
    }
  }
}
int main() {
  const long long n = 1ll << 26;
  float* o; cudaMalloc(&o, n * 4);
  float* c; cudaMalloc(&c, n * 4);
  Str s{0x12345678u, 0x9abcdef0u, 0, 0};
  Str2 s2;
  for (int r = 0; r < 10; ++r) { s2.rk[2 * r] = s.k0 + r * 0x9E3779B9u; s2.rk[2 * r + 1] = s.k1 + r * 0xBB67AE85u; }
  s2.d0 = s.d0; s2.d1 = s.d1;
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  printf("copy 256 MB: %.4f ms\n", time_it([&] { cudaMemcpyAsync(c, o, n * 4, cudaMemcpyDeviceToDevice); }));
#define RUN(M, T, G) printf("mode %d threads %d grid %-8d: %.4f ms\n", M, T, (int)(G), time_it([&] { k<M><<<(G), (T)>>>(o, n, s, s2); }));
  const long long nb = n / 4;
  for (int rep = 0; rep < 2; ++rep) {
    RUN(0, 512, sms * 4) RUN(1, 512, sms * 4) RUN(2, 512, sms * 4)
    RUN(2, 256, nb / 256) RUN(2, 512, sms * 2) RUN(2, 512, sms * 8) RUN(2, 1024, sms * 2) RUN(2, 256, sms * 8)
  }
  // Mode 1 must give mode 0's bits.
  float* o2; cudaMalloc(&o2, n * 4);
  k<0><<<sms * 4, 512>>>(o, n, s, s2); k<1><<<sms * 4, 512>>>(o2, n, s, s2);
  std::vector<float> h0(n), h1(n);
  cudaMemcpy(h0.data(), o, n * 4, cudaMemcpyDeviceToHost); cudaMemcpy(h1.data(), o2, n * 4, cudaMemcpyDeviceToHost);
  long long diff = 0; for (long long i = 0; i < n; ++i) diff += memcmp(&h0[i], &h1[i], 4) != 0;
  printf("mode 1 values differing from mode 0: %lld of %lld\n", diff, n);
  unsigned* worst; cudaMalloc(&worst, 9 * 4); cudaMemset(worst, 0, 9 * 4);
  err<<<sms * 8, 256>>>(s, worst);
  unsigned h[9]; cudaMemcpy(h, worst, 9 * 4, cudaMemcpyDeviceToHost);
  printf("radius (all 2^24 u1): new %.2f ulp, old %.2f ulp from the spec; new != old for %u\n", h[0] / 100.0, h[1] / 100.0, h[5]);
  printf("cos/sin (all 2^24 u2): new %.2f ulp, old %.2f ulp; below 1e-3 new within %.3g\n", h[2] / 100.0, h[3] / 100.0, h[4] * 1e-12);
  printf("values (2^26): new %.2f ulp, old %.2f ulp; below 1e-3 new within %.3g\n", h[6] / 100.0, h[7] / 100.0, h[8] * 1e-12);
  cudaError_t e = cudaDeviceSynchronize(); printf("%s\n", cudaGetErrorString(e));
  return 0;
}
