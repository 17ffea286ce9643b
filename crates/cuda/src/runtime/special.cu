
// ---- SciPy's special functions (xp::special) ----
// CUDA's math library where it has the function (erf, erfc, erfcx, erfinv, erfcinv, normcdf,
// normcdfinv, lgamma, tgamma, j0, j1, y0, y1, cyl_bessel_i0/i1; float32 in the float versions);
// the rest in double, ported from the CPU backend's crates/cpu/src/special (same methods, same
// constants), float32 rounding the double result.
#define XP_PI 3.141592653589793
#define XP_INF __int_as_float(0x7f800000)
__device__ __forceinline__ double xp_gamma(double x) {
  if (x == 0) return copysign((double)XP_INF, x);
  if (x < 0 && x == floor(x)) return (double)XP_NAN;
  return tgamma(x);
}
__device__ __forceinline__ double xp_zeta_em(double s, double q) {
  const double A[12] = {12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9,
      7.47242496e10, -2.950130727918164224e12, 1.1646782814350067249e14, -4.5979787224074726105e15,
      1.8152105401943546773e17, -7.1661652561756670113e18};
  const double eps = 2.220446049250313e-16;
  double sum = pow(q, -s), a = q, b = 0;
  int i = 0;
  while (i < 9 || a <= 9.0) {
    i += 1; a += 1.0; b = pow(a, -s); sum += b;
    if (fabs(b / sum) < eps) return sum;
  }
  double w = a;
  sum += b * w / (s - 1.0);
  sum -= 0.5 * b;
  double fac = 1.0, k = 0.0;
  for (int j = 0; j < 12; j++) {
    fac *= s + k; b /= w;
    double t = fac * b / A[j];
    sum += t;
    if (fabs(t / sum) < eps) break;
    k += 1.0; fac *= s + k; b /= w; k += 1.0;
  }
  return sum;
}
__device__ __forceinline__ double xp_zeta(double s, double q) {
  if (isnan(s) || isnan(q)) return (double)XP_NAN;
  if (s == 1.0) return (double)XP_INF;
  if (s < 1.0) return (double)XP_NAN;
  if (q <= 0) {
    if (q == floor(q)) return (double)XP_INF;
    if (s != floor(s)) return (double)XP_NAN;
  }
  if (isinf(s)) return q == 1.0 ? 1.0 : (q < 1.0 ? (double)XP_INF : 0.0);
  return xp_zeta_em(s, q);
}
__device__ __forceinline__ double xp_riemann_zeta(double s) {
  if (isnan(s)) return s;
  if (s == 1.0) return (double)XP_INF;
  if (isinf(s) && s < 0) return (double)XP_NAN;
  if (s >= 0) {
    if (s == 0) return -0.5;
    if (s > 1.0) return xp_zeta(s, 1.0);
    return xp_zeta_em(s, 1.0);
  }
  if (s == floor(s * 0.5) * 2.0) return 0.0;
  double t = 1.0 - s;
  if (t > 171.0) return (double)XP_INF * (sin(XP_PI * s * 0.5) < 0 ? -1.0 : 1.0);
  double half = s * 0.5;
  double sn = sin(XP_PI * (half - 2.0 * floor(half * 0.5)));
  return pow(2.0, s) * pow(XP_PI, s - 1.0) * sn * xp_gamma(t) * xp_zeta(t, 1.0);
}
__device__ __forceinline__ double xp_digamma_pos(double x) {
  const double POSROOT = 1.4616321449683623, POSROOTVAL = -9.2412655217294275e-17;
  if (fabs(x - POSROOT) < 0.3) {
    double h = x - POSROOT, res = POSROOTVAL, p = -1.0;
    for (int n = 1; n < 100; n++) {
      p *= -h;
      double term = p * xp_zeta_em(n + 1.0, POSROOT);
      res += term;
      if (fabs(term) < 2.220446049250313e-19 * fmax(fabs(h), 2.2250738585072014e-308)) break;
    }
    return res;
  }
  double acc = 0;
  while (x < 10.0) { acc -= 1.0 / x; x += 1.0; }
  double z = 1.0 / (x * x);
  double series = z * (1.0 / 12.0 - z * (1.0 / 120.0 - z * (1.0 / 252.0 - z * (1.0 / 240.0
      - z * (1.0 / 132.0 - z * (691.0 / 32760.0 - z / 12.0))))));
  return acc + log(x) - 0.5 / x - series;
}
__device__ __forceinline__ double xp_digamma(double x) {
  if (isnan(x) || (isinf(x) && x > 0)) return x;
  if (x == 0) return copysign((double)XP_INF, -x);
  if (x < 0) {
    if (x == floor(x)) return (double)XP_NAN;
    double r = x - floor(x);
    return xp_digamma_pos(1.0 - x) - XP_PI / tan(XP_PI * r);
  }
  return xp_digamma_pos(x);
}
__device__ __forceinline__ double xp_stirling_rest(double x) {
  double z = 1.0 / (x * x);
  return (1.0 / 12.0 - z * (1.0 / 360.0 - z * (1.0 / 1260.0 - z * (1.0 / 1680.0 - z * (1.0 / 1188.0))))) / x;
}
__device__ __forceinline__ double xp_betaln(double a, double b) {
  double big = a >= b ? a : b, small = a >= b ? b : a;
  if (small > 0 && big >= 100.0)
    return lgamma(small) - small * log(big) - (big + small - 0.5) * log1p(small / big) + small
        + xp_stirling_rest(big) - xp_stirling_rest(big + small);
  return lgamma(a) + lgamma(b) - lgamma(a + b);
}
__device__ __forceinline__ double xp_beta(double a, double b) {
  if (isnan(a) || isnan(b)) return (double)XP_NAN;
  double direct = xp_gamma(a) * (xp_gamma(b) / xp_gamma(a + b));
  if (isfinite(direct) && direct != 0 && fabs(a) < 150.0 && fabs(b) < 150.0) return direct;
  if (a > 0 && b > 0) return exp(xp_betaln(a, b));
  double sg = xp_gamma(a) * xp_gamma(b) * xp_gamma(a + b);
  double sign = (sg < 0) ? -1.0 : 1.0;
  return sign * exp(lgamma(a) + lgamma(b) - lgamma(a + b));
}
__device__ __forceinline__ double xp_binom(double n, double k) {
  if (n < 0 && n == floor(n)) return (double)XP_NAN;
  double kx = floor(k);
  if (n >= 0 && n == floor(n) && k == kx && (k < 0 || k > n)) return 0.0;
  if (k == kx && (fabs(n) > 1e-8 || n == 0)) {
    double nx = floor(n);
    if (nx == n && kx > nx / 2 && nx > 0) kx = nx - kx;
    if (kx >= 0 && kx < 20) {
      double num = 1.0, den = 1.0;
      for (int i = 1; i <= (int)kx; i++) {
        num *= i + n - kx; den *= i;
        if (fabs(num) > 1e50) { num /= den; den = 1.0; }
      }
      return num / den;
    }
  }
  if (n >= 1e10 * k && k > 0) return exp(-xp_betaln(1.0 + n - k, 1.0 + k) - log(n + 1.0));
  if (k > 1e8 * fabs(n)) {
    double g = xp_gamma(1.0 + n);
    double num = (g / fabs(k) + g * n / (2.0 * k * k)) / (XP_PI * pow(fabs(k), n));
    double kf = floor(k);
    if (k < 0) return kf == k ? 0.0 : num * sin(XP_PI * k);
    double sgn = fmod(kf, 2.0) == 0 ? 1.0 : -1.0;
    return num * sin(XP_PI * (k - kf - n)) * sgn;
  }
  return 1.0 / (n + 1.0) / xp_beta(1.0 + n - k, 1.0 + k);
}
__device__ __forceinline__ double xp_power_factor(double a, double x) { return exp(a * log(x) - x - lgamma(a)); }
__device__ __forceinline__ double xp_p_series(double a, double x) {
  double term = 1.0 / a, sum = term, ap = a;
  for (int i = 0; i < 10000; i++) {
    ap += 1.0; term *= x / ap; sum += term;
    if (fabs(term) < fabs(sum) * 1e-17) break;
  }
  return sum * xp_power_factor(a, x);
}
__device__ __forceinline__ double xp_q_fraction(double a, double x) {
  const double TINY = 1e-300;
  double b = x + 1.0 - a, c = 1.0 / TINY, d = 1.0 / b, h = d;
  for (int i = 1; i < 10000; i++) {
    double an = -(double)i * (i - a);
    b += 2.0;
    d = an * d + b; if (fabs(d) < TINY) d = TINY;
    c = b + an / c; if (fabs(c) < TINY) c = TINY;
    d = 1.0 / d;
    double delta = d * c;
    h *= delta;
    if (fabs(delta - 1.0) < 1e-16) break;
  }
  return h * xp_power_factor(a, x);
}
__device__ __forceinline__ double xp_gammainc(double a, double x, bool upper) {
  if (isnan(a) || isnan(x) || a < 0 || x < 0) return (double)XP_NAN;
  if (a == 0) return x > 0 ? (upper ? 0.0 : 1.0) : (double)XP_NAN;
  if (x == 0) return upper ? 1.0 : 0.0;
  if (isinf(x)) return isinf(a) ? (double)XP_NAN : (upper ? 0.0 : 1.0);
  if (isinf(a)) return upper ? 1.0 : 0.0;
  if (x < a + 1.0) { double p = xp_p_series(a, x); return upper ? 1.0 - p : p; }
  double q = xp_q_fraction(a, x);
  return upper ? q : 1.0 - q;
}
__device__ __forceinline__ double xp_hankel(double ax, int nu) {
  double mu = 4.0 * nu * nu, term = 1.0, sum = 1.0;
  for (int k = 1; k < 60; k++) {
    double odd = 2.0 * k - 1.0;
    term *= -(mu - odd * odd) / (k * 8.0 * ax);
    sum += term;
    if (fabs(term) < 1e-17 * fabs(sum)) break;
  }
  return sum;
}
// The scaled Bessel functions: CUDA's I0/I1 times e^-|x| while they are finite, Hankel beyond.
__device__ __forceinline__ double xp_i0e(double x) {
  double ax = fabs(x);
  if (ax <= 700.0) return cyl_bessel_i0(ax) * exp(-ax);
  if (isinf(ax)) return 0.0;
  return xp_hankel(ax, 0) / sqrt(2.0 * XP_PI * ax);
}
__device__ __forceinline__ double xp_i1e(double x) {
  double ax = fabs(x), r;
  if (ax <= 700.0) r = cyl_bessel_i1(ax) * exp(-ax);
  else if (isinf(ax)) r = 0.0;
  else r = xp_hankel(ax, 1) / sqrt(2.0 * XP_PI * ax);
  return copysign(r, x);
}
__device__ __forceinline__ float xp_i0e_f(float x) {
  float ax = fabsf(x);
  return ax <= 80.0f ? cyl_bessel_i0f(ax) * expf(-ax) : (float)xp_i0e((double)x);
}
__device__ __forceinline__ float xp_i1e_f(float x) {
  float ax = fabsf(x);
  return ax <= 80.0f ? copysignf(cyl_bessel_i1f(ax) * expf(-ax), x) : (float)xp_i1e((double)x);
}
__device__ __forceinline__ double xp_log_ndtr(double x) {
  if (isnan(x)) return x;
  if (x > -1.0) return log1p(-0.5 * erfc(x * 0.7071067811865476));
  if (isinf(x)) return x;
  double z = -x / 1.4142135623730951;
  return log(0.5 * erfcx(z)) - z * z;
}
__device__ __forceinline__ float xp_log_ndtr_f(float x) {
  if (isnan(x)) return x;
  if (x > -1.0f) return log1pf(-0.5f * erfcf(x * 0.70710678f));
  if (isinf(x)) return x;
  float z = -x * 0.70710678f;
  return logf(0.5f * erfcxf(z)) - z * z;
}
__device__ __forceinline__ double xp_expit(double x) {
  if (x >= 0) return 1.0 / (1.0 + exp(-x));
  double e = exp(x);
  return e / (1.0 + e);
}
__device__ __forceinline__ double xp_log_expit(double x) { return x >= 0 ? -log1p(exp(-x)) : x - log1p(exp(x)); }
__device__ __forceinline__ double xp_entr(double x) {
  if (isnan(x)) return x;
  if (x > 0) return -x * log(x);
  return x == 0 ? 0.0 : -(double)XP_INF;
}
__device__ __forceinline__ double xp_xlogy(double x, double y) { return (x == 0 && !isnan(y)) ? 0.0 : x * log(y); }
__device__ __forceinline__ double xp_xlog1py(double x, double y) { return (x == 0 && !isnan(y)) ? 0.0 : x * log1p(y); }
__device__ __forceinline__ double xp_rel_entr(double x, double y) {
  if (isnan(x) || isnan(y)) return (double)XP_NAN;
  if (x > 0 && y > 0) return x * log(x / y);
  return (x == 0 && y >= 0) ? 0.0 : (double)XP_INF;
}
__device__ __forceinline__ double xp_kl_div(double x, double y) {
  if (isnan(x) || isnan(y)) return (double)XP_NAN;
  if (x > 0 && y > 0) return x * log(x / y) - x + y;
  return (x == 0 && y >= 0) ? y : (double)XP_INF;
}
// CUDA's own functions: double and float versions by name.
#define XP_CUDA_SPECIAL(name, fd, ff) \
  __device__ __forceinline__ double u_##name(double x) { return fd(x); } \
  __device__ __forceinline__ float u_##name(float x) { return ff(x); }
XP_CUDA_SPECIAL(erf, erf, erff)
XP_CUDA_SPECIAL(erfc, erfc, erfcf)
XP_CUDA_SPECIAL(erfcx, erfcx, erfcxf)
XP_CUDA_SPECIAL(erfinv, erfinv, erfinvf)
XP_CUDA_SPECIAL(erfcinv, erfcinv, erfcinvf)
XP_CUDA_SPECIAL(ndtr, normcdf, normcdff)
XP_CUDA_SPECIAL(ndtri, normcdfinv, normcdfinvf)
XP_CUDA_SPECIAL(gammaln, lgamma, lgammaf)
XP_CUDA_SPECIAL(i0, cyl_bessel_i0, cyl_bessel_i0f)
XP_CUDA_SPECIAL(i1, cyl_bessel_i1, cyl_bessel_i1f)
XP_CUDA_SPECIAL(j0, j0, j0f)
XP_CUDA_SPECIAL(j1, j1, j1f)
XP_CUDA_SPECIAL(y0, y0, y0f)
XP_CUDA_SPECIAL(y1, y1, y1f)
// Ours, in double: float32 rounds the double result.
#define XP_OWN_SPECIAL(name, f) \
  __device__ __forceinline__ double u_##name(double x) { return f(x); } \
  __device__ __forceinline__ float u_##name(float x) { return (float)f((double)x); }
XP_OWN_SPECIAL(gamma, xp_gamma)
XP_OWN_SPECIAL(digamma, xp_digamma)
XP_OWN_SPECIAL(expit, xp_expit)
XP_OWN_SPECIAL(log_expit, xp_log_expit)
XP_OWN_SPECIAL(entr, xp_entr)
XP_OWN_SPECIAL(riemann_zeta, xp_riemann_zeta)
// float32 in float where CUDA's float functions keep SciPy's float32 accuracy
__device__ __forceinline__ double u_log_ndtr(double x) { return xp_log_ndtr(x); }
__device__ __forceinline__ float u_log_ndtr(float x) { return xp_log_ndtr_f(x); }
__device__ __forceinline__ double u_i0e(double x) { return xp_i0e(x); }
__device__ __forceinline__ float u_i0e(float x) { return xp_i0e_f(x); }
__device__ __forceinline__ double u_i1e(double x) { return xp_i1e(x); }
__device__ __forceinline__ float u_i1e(float x) { return xp_i1e_f(x); }
__device__ __forceinline__ double u_logit(double p) { return log(p / (1.0 - p)); }
__device__ __forceinline__ float u_logit(float p) { return (float)log((double)p / (1.0 - (double)p)); }
#define XP_OWN_SPECIAL2(name, f) \
  __device__ __forceinline__ double b_##name(double a, double b) { return f(a, b); } \
  __device__ __forceinline__ float b_##name(float a, float b) { return (float)f((double)a, (double)b); }
__device__ __forceinline__ double xp_gammainc_l(double a, double x) { return xp_gammainc(a, x, false); }
__device__ __forceinline__ double xp_gammainc_u(double a, double x) { return xp_gammainc(a, x, true); }
XP_OWN_SPECIAL2(xlogy, xp_xlogy)
XP_OWN_SPECIAL2(xlog1py, xp_xlog1py)
XP_OWN_SPECIAL2(beta, xp_beta)
XP_OWN_SPECIAL2(betaln, xp_betaln)
XP_OWN_SPECIAL2(gammainc, xp_gammainc_l)
XP_OWN_SPECIAL2(gammaincc, xp_gammainc_u)
XP_OWN_SPECIAL2(zeta, xp_zeta)
XP_OWN_SPECIAL2(rel_entr, xp_rel_entr)
XP_OWN_SPECIAL2(kl_div, xp_kl_div)
XP_OWN_SPECIAL2(binom, xp_binom)
