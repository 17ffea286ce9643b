// The float32 standard normal's functions on the GPU (Box–Muller), written for the only inputs
// they can get, with no special cases: u1 = m 2^-24 with m in [1, 2^24], u2 = k 2^-24 with k
// below 2^24. Each is within an ulp of the host specification (crates/core/src/random, float64
// rounded) over every possible input, as logf, sqrtf and sincospif are; without those functions'
// denormal, infinity and huge-argument paths the kernel's loop is 187 instructions instead of
// 232 (benches/experiments/normal_fast.cu measures both: 0.117 against 0.142 ms for 2^26 values
// on an H100).

// -2 ln(u) for u in [2^-24, 1]: u = 2^E (1 + f) with f in [-1/3, 1/3) (no rounding), and
// -2 log1p(f) = -2f + f^2 T(f) with T a minimax polynomial (relative error 5e-9).
__device__ __forceinline__ float xp_m2ln(float u) {
  const int i = __float_as_int(u);
  const int e = (i - 0x3f2aaaab) & (int)0xff800000;
  const float f = __int_as_float(i - e) - 1.0f, ef = (float)e;
  float p = 0.2566073f;
  p = fmaf(f, p, -0.27999672f); p = fmaf(f, p, 0.24397975f); p = fmaf(f, p, -0.28004575f);
  p = fmaf(f, p, 0.33358732f); p = fmaf(f, p, -0.40021333f); p = fmaf(f, p, 0.49999648f);
  p = fmaf(f, p, -0.6666642f);
  const float t = fmaf(f, p, 1.0f);
  const float l = fmaf(f * f, t, -2.0f * f);
  // E (-2 ln 2) (ef is E 2^23): a high part whose products with E are exact, and a low part.
  return fmaf(ef, -1.6525883e-07f, fmaf(ef, -3.406064e-13f, l));
}

// sqrt(x) for x = 0 or x in [2^-24, 64]: the reciprocal square root and one correction (rounded
// as sqrtf rounds on these inputs; 0 gives +0).
__device__ __forceinline__ float xp_sqrt_small(float x) {
  float rs;
  asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(rs) : "f"(fmaxf(x, 1e-30f)));
  const float y = x * rs, h = 0.5f * rs;
  return fmaf(fmaf(-y, y, x), h, y);
}

// cos and sin of 2π k 2^-24 for k below 2^24: the nearest quarter turn j taken exactly, the rest
// t in [-1/2, 1/2] quarter turns through minimax polynomials in t^2 (π/2 as a high and a low
// part), then the quadrant swaps and negates the pair.
__device__ __forceinline__ void xp_sincos_k(unsigned k, float& cs, float& sn) {
  const float y = (float)k * (1.0f / 4194304.0f);
  const float j = rintf(y), t = y - j, s = t * t;
  float p = fmaf(s, -0.004604813f, 0.079681404f);
  p = fmaf(s, p, -0.6459636f);
  const float q = fmaf(s, p, -4.371139e-08f);
  const float sn0 = fmaf(t, 1.5707964f, t * q);
  float c = fmaf(s, 0.0009037634f, -0.020860163f);
  c = fmaf(s, c, 0.25366923f); c = fmaf(s, c, -1.2337005f);
  const float cs0 = fmaf(s, c, 1.0f);
  const int qi = (int)j;
  const float a = (qi & 1) ? cs0 : sn0, b = (qi & 1) ? sn0 : cs0;
  sn = (qi & 2) ? -a : a;
  cs = ((qi + 1) & 2) ? -b : b;
}

// Two standard normals from two words, as xp_core::random::normal_pair_f32 defines them.
__device__ __forceinline__ void xp_normal_pair_f32(unsigned w0, unsigned w1, float& x, float& y) {
  const float u1 = (float)((w0 >> 8) + 1) * (1.0f / 16777216.0f);
  float cs, sn;
  xp_sincos_k(w1 >> 8, cs, sn);
  const float r = xp_sqrt_small(xp_m2ln(u1));
  x = r * cs;
  y = r * sn;
}
