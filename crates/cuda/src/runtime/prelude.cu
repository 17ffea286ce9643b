// xp CUDA prelude: storage types, conversions and the device function of every elementwise op.
// Compiled by NVRTC in front of every generated kernel. No headers: float16 and bfloat16 are
// converted with PTX and integer arithmetic, complex numbers are plain structs.
typedef long long i64;
typedef unsigned long long u64;
typedef signed char i8;
typedef unsigned char u8;
typedef short i16;
typedef unsigned short u16;
typedef int i32;
typedef unsigned u32;
struct xp_h { unsigned short x; };
struct xp_bh { unsigned short x; };
struct __align__(8) cf { float re, im; };
struct __align__(16) cd { double re, im; };
#define XP_NAN __int_as_float(0x7fc00000)

__device__ __forceinline__ float ld(xp_h v) { float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(v.x)); return f; }
__device__ __forceinline__ float ld(xp_bh v) { return __uint_as_float(((unsigned)v.x) << 16); }
template <class T> __device__ __forceinline__ T ld(T v) { return v; }
__device__ __forceinline__ xp_h st_h(float f) { unsigned short h; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f)); xp_h r; r.x = h; return r; }
__device__ __forceinline__ xp_bh st_bh(float f) {
  unsigned u = __float_as_uint(f);
  xp_bh r;
  if ((u & 0x7fffffffu) > 0x7f800000u) { r.x = 0x7fc0; return r; }
  u += 0x7fffu + ((u >> 16) & 1u);
  r.x = (unsigned short)(u >> 16);
  return r;
}

// ---- conversions between compute types (NumPy astype semantics where C defines them) ----
// Floats to integers: negative values go through int64, so that unsigned targets wrap as NumPy's
// casts do on the host (CUDA's own conversion would saturate at 0).
template <class D> __device__ __forceinline__ D f2i(double x) { return x < 0 ? (D)(i64)x : (D)(u64)x; }
template <class D> struct Cv {
  template <class S> __device__ static D f(S x) { return (D)x; }
  __device__ static D f(float x) { return f2i<D>(x); }
  __device__ static D f(double x) { return f2i<D>(x); }
  __device__ static D f(cf x) { return f2i<D>(x.re); }
  __device__ static D f(cd x) { return f2i<D>(x.re); }
};
template <> struct Cv<float> {
  template <class S> __device__ static float f(S x) { return (float)x; }
  __device__ static float f(cf x) { return x.re; }
  __device__ static float f(cd x) { return (float)x.re; }
};
template <> struct Cv<double> {
  template <class S> __device__ static double f(S x) { return (double)x; }
  __device__ static double f(cf x) { return x.re; }
  __device__ static double f(cd x) { return x.re; }
};
template <> struct Cv<bool> {
  template <class S> __device__ static bool f(S x) { return x != 0; }
  __device__ static bool f(cf x) { return x.re != 0 || x.im != 0; }
  __device__ static bool f(cd x) { return x.re != 0 || x.im != 0; }
};
template <> struct Cv<cf> {
  template <class S> __device__ static cf f(S x) { cf r; r.re = (float)x; r.im = 0.f; return r; }
  __device__ static cf f(cf x) { return x; }
  __device__ static cf f(cd x) { cf r; r.re = (float)x.re; r.im = (float)x.im; return r; }
};
template <> struct Cv<cd> {
  template <class S> __device__ static cd f(S x) { cd r; r.re = (double)x; r.im = 0.0; return r; }
  __device__ static cd f(cf x) { cd r; r.re = x.re; r.im = x.im; return r; }
  __device__ static cd f(cd x) { return x; }
};
template <class D, class S> __device__ __forceinline__ D cv(S x) { return Cv<D>::f(x); }

// ---- comparisons and logical ops of real types (integers and floats alike) ----
#define REAL_CMP_OPS(T)                                                                             \
  __device__ __forceinline__ bool b_equal(T a, T b) { return a == b; }                           \
  __device__ __forceinline__ bool b_not_equal(T a, T b) { return a != b; }                       \
  __device__ __forceinline__ bool b_less(T a, T b) { return a < b; }                             \
  __device__ __forceinline__ bool b_less_equal(T a, T b) { return a <= b; }                      \
  __device__ __forceinline__ bool b_greater(T a, T b) { return a > b; }                          \
  __device__ __forceinline__ bool b_greater_equal(T a, T b) { return a >= b; }                   \
  __device__ __forceinline__ bool b_logical_and(T a, T b) { return a != 0 && b != 0; }           \
  __device__ __forceinline__ bool b_logical_or(T a, T b) { return a != 0 || b != 0; }            \
  __device__ __forceinline__ bool b_logical_xor(T a, T b) { return (a != 0) != (b != 0); }

// ---- integers: wrapping arithmetic through u64, Python floor division, NumPy shifts ----
template <class T> struct IsSigned { static const bool v = (T)(-1) < (T)0; };
#define INT_OPS(T)                                                                                  \
  __device__ __forceinline__ T u_negative(T x) { return (T)(0ULL - (u64)x); }                    \
  __device__ __forceinline__ T u_positive(T x) { return x; }                                     \
  __device__ __forceinline__ T u_absolute(T x) { return x < (T)0 ? u_negative(x) : x; }          \
  __device__ __forceinline__ T u_sign(T x) { return x > (T)0 ? (T)1 : (x < (T)0 ? (T)(0ULL - 1ULL) : (T)0); } \
  __device__ __forceinline__ T u_reciprocal(T x) {                                               \
    if (x == 0) return (IsSigned<T>::v && sizeof(T) >= 4) ? (T)(1ULL << (8 * sizeof(T) - 1)) : (T)0; \
    if (IsSigned<T>::v && x == (T)(0ULL - 1ULL)) return x;                                       \
    return (T)(1 / x); }                                                                          \
  __device__ __forceinline__ T u_square(T x) { return (T)((u64)x * (u64)x); }                    \
  __device__ __forceinline__ T u_floor(T x) { return x; }                                        \
  __device__ __forceinline__ T u_ceil(T x) { return x; }                                         \
  __device__ __forceinline__ T u_trunc(T x) { return x; }                                        \
  __device__ __forceinline__ T u_invert(T x) { return (T)~x; }                                   \
  __device__ __forceinline__ T u_conjugate(T x) { return x; }                                    \
  __device__ __forceinline__ T u_real(T x) { return x; }                                         \
  __device__ __forceinline__ T u_imag(T x) { return (T)0; }                                      \
  __device__ __forceinline__ bool u_isnan(T x) { return false; }                                 \
  __device__ __forceinline__ bool u_isinf(T x) { return false; }                                 \
  __device__ __forceinline__ bool u_isfinite(T x) { return true; }                               \
  __device__ __forceinline__ bool u_logical_not(T x) { return x == 0; }                          \
  __device__ __forceinline__ T b_add(T a, T b) { return (T)((u64)a + (u64)b); }                  \
  __device__ __forceinline__ T b_subtract(T a, T b) { return (T)((u64)a - (u64)b); }             \
  __device__ __forceinline__ T b_multiply(T a, T b) { return (T)((u64)a * (u64)b); }             \
  __device__ __forceinline__ T b_floor_divide(T a, T b) {                                        \
    if (b == 0) return (T)0;                                                                      \
    if (IsSigned<T>::v && b == (T)(0ULL - 1ULL)) return u_negative(a);                           \
    T q = (T)(a / b);                                                                             \
    return ((a % b != 0) && ((a < (T)0) != (b < (T)0))) ? (T)(q - 1) : q; }                      \
  __device__ __forceinline__ T b_remainder(T a, T b) {                                           \
    if (b == 0 || (IsSigned<T>::v && b == (T)(0ULL - 1ULL))) return (T)0;                        \
    T r = (T)(a % b);                                                                             \
    return (r != 0 && ((r < (T)0) != (b < (T)0))) ? (T)(r + b) : r; }                            \
  __device__ __forceinline__ T b_power(T a, T b) {                                               \
    u64 base = (u64)a, acc = 1ULL, e = (u64)b;                                                    \
    while (e) { if (e & 1ULL) acc *= base; base *= base; e >>= 1; }                               \
    return (T)acc; }                                                                              \
  __device__ __forceinline__ T b_maximum(T a, T b) { return a >= b ? a : b; }                    \
  __device__ __forceinline__ T b_minimum(T a, T b) { return a <= b ? a : b; }                    \
  __device__ __forceinline__ T b_fmax(T a, T b) { return a >= b ? a : b; }                       \
  __device__ __forceinline__ T b_fmin(T a, T b) { return a <= b ? a : b; }                       \
  __device__ __forceinline__ T b_bitwise_and(T a, T b) { return (T)(a & b); }                    \
  __device__ __forceinline__ T b_bitwise_or(T a, T b) { return (T)(a | b); }                     \
  __device__ __forceinline__ T b_bitwise_xor(T a, T b) { return (T)(a ^ b); }                    \
  __device__ __forceinline__ T b_left_shift(T a, T b) {                                          \
    return (b >= (T)0 && (u64)b < 8 * sizeof(T)) ? (T)((u64)a << (u64)b) : (T)0; }              \
  __device__ __forceinline__ T b_right_shift(T a, T b) {                                         \
    if (b >= (T)0 && (u64)b < 8 * sizeof(T)) return (T)(a >> b);                                 \
    return a < (T)0 ? (T)(0ULL - 1ULL) : (T)0; }                                                  \
  REAL_CMP_OPS(T)                                                                                \
  __device__ __forceinline__ bool is_nan(T x) { return false; }                                  \
  __device__ __forceinline__ bool gt(T a, T b) { return a > b; }                                 \
  __device__ __forceinline__ bool lt(T a, T b) { return a < b; }
INT_OPS(i8) INT_OPS(i16) INT_OPS(i32) INT_OPS(i64)
INT_OPS(u8) INT_OPS(u16) INT_OPS(u32) INT_OPS(u64)

// ---- bool ----
__device__ __forceinline__ bool u_absolute(bool x) { return x; }
__device__ __forceinline__ bool u_positive(bool x) { return x; }
__device__ __forceinline__ bool u_floor(bool x) { return x; }
__device__ __forceinline__ bool u_ceil(bool x) { return x; }
__device__ __forceinline__ bool u_trunc(bool x) { return x; }
__device__ __forceinline__ bool u_real(bool x) { return x; }
__device__ __forceinline__ bool u_conjugate(bool x) { return x; }
__device__ __forceinline__ bool u_imag(bool x) { return false; }
__device__ __forceinline__ bool u_invert(bool x) { return !x; }
__device__ __forceinline__ bool u_isnan(bool x) { return false; }
__device__ __forceinline__ bool u_isinf(bool x) { return false; }
__device__ __forceinline__ bool u_isfinite(bool x) { return true; }
__device__ __forceinline__ bool u_logical_not(bool x) { return !x; }
__device__ __forceinline__ bool b_add(bool a, bool b) { return a || b; }
__device__ __forceinline__ bool b_multiply(bool a, bool b) { return a && b; }
__device__ __forceinline__ bool b_maximum(bool a, bool b) { return a || b; }
__device__ __forceinline__ bool b_minimum(bool a, bool b) { return a && b; }
__device__ __forceinline__ bool b_fmax(bool a, bool b) { return a || b; }
__device__ __forceinline__ bool b_fmin(bool a, bool b) { return a && b; }
__device__ __forceinline__ bool b_bitwise_and(bool a, bool b) { return a && b; }
__device__ __forceinline__ bool b_bitwise_or(bool a, bool b) { return a || b; }
__device__ __forceinline__ bool b_bitwise_xor(bool a, bool b) { return a != b; }
__device__ __forceinline__ bool b_equal(bool a, bool b) { return a == b; }
__device__ __forceinline__ bool b_not_equal(bool a, bool b) { return a != b; }
__device__ __forceinline__ bool b_less(bool a, bool b) { return !a && b; }
__device__ __forceinline__ bool b_less_equal(bool a, bool b) { return !a || b; }
__device__ __forceinline__ bool b_greater(bool a, bool b) { return a && !b; }
__device__ __forceinline__ bool b_greater_equal(bool a, bool b) { return a || !b; }
__device__ __forceinline__ bool b_logical_and(bool a, bool b) { return a && b; }
__device__ __forceinline__ bool b_logical_or(bool a, bool b) { return a || b; }
__device__ __forceinline__ bool b_logical_xor(bool a, bool b) { return a != b; }
__device__ __forceinline__ bool is_nan(bool x) { return false; }
__device__ __forceinline__ bool gt(bool a, bool b) { return a && !b; }
__device__ __forceinline__ bool lt(bool a, bool b) { return !a && b; }

// ---- real floating point (float16 and bfloat16 compute in float) ----
#define FLOAT_OPS(T)                                                                                \
  __device__ __forceinline__ T u_negative(T x) { return -x; }                                    \
  __device__ __forceinline__ T u_positive(T x) { return x; }                                     \
  __device__ __forceinline__ T u_absolute(T x) { return fabs(x); }                               \
  __device__ __forceinline__ T u_sign(T x) { return x > 0 ? (T)1 : (x < 0 ? (T)-1 : (x == 0 ? (T)0 : x)); } \
  __device__ __forceinline__ T u_reciprocal(T x) { return (T)1 / x; }                            \
  __device__ __forceinline__ T u_exp(T x) { return exp(x); }                                     \
  __device__ __forceinline__ T u_exp2(T x) { return exp2(x); }                                   \
  __device__ __forceinline__ T u_expm1(T x) { return expm1(x); }                                 \
  __device__ __forceinline__ T u_log(T x) { return log(x); }                                     \
  __device__ __forceinline__ T u_log2(T x) { return log2(x); }                                   \
  __device__ __forceinline__ T u_log10(T x) { return log10(x); }                                 \
  __device__ __forceinline__ T u_log1p(T x) { return log1p(x); }                                 \
  __device__ __forceinline__ T u_sqrt(T x) { return sqrt(x); }                                   \
  __device__ __forceinline__ T u_cbrt(T x) { return cbrt(x); }                                   \
  __device__ __forceinline__ T u_square(T x) { return x * x; }                                   \
  __device__ __forceinline__ T u_sin(T x) { return sin(x); }                                     \
  __device__ __forceinline__ T u_cos(T x) { return cos(x); }                                     \
  __device__ __forceinline__ T u_tan(T x) { return tan(x); }                                     \
  __device__ __forceinline__ T u_arcsin(T x) { return asin(x); }                                 \
  __device__ __forceinline__ T u_arccos(T x) { return acos(x); }                                 \
  __device__ __forceinline__ T u_arctan(T x) { return atan(x); }                                 \
  __device__ __forceinline__ T u_sinh(T x) { return sinh(x); }                                   \
  __device__ __forceinline__ T u_cosh(T x) { return cosh(x); }                                   \
  __device__ __forceinline__ T u_tanh(T x) { return tanh(x); }                                   \
  __device__ __forceinline__ T u_arcsinh(T x) { return asinh(x); }                               \
  __device__ __forceinline__ T u_arccosh(T x) { return acosh(x); }                               \
  __device__ __forceinline__ T u_arctanh(T x) { return atanh(x); }                               \
  __device__ __forceinline__ T u_floor(T x) { return floor(x); }                                 \
  __device__ __forceinline__ T u_ceil(T x) { return ceil(x); }                                   \
  __device__ __forceinline__ T u_trunc(T x) { return trunc(x); }                                 \
  __device__ __forceinline__ T u_rint(T x) { return rint(x); }                                   \
  __device__ __forceinline__ T u_conjugate(T x) { return x; }                                    \
  __device__ __forceinline__ T u_real(T x) { return x; }                                         \
  __device__ __forceinline__ T u_imag(T x) { return (T)0; }                                      \
  __device__ __forceinline__ T u_angle(T x) { return atan2((T)0, x); }                           \
  __device__ __forceinline__ bool u_isnan(T x) { return isnan(x); }                              \
  __device__ __forceinline__ bool u_isinf(T x) { return isinf(x); }                              \
  __device__ __forceinline__ bool u_isfinite(T x) { return isfinite(x); }                        \
  __device__ __forceinline__ bool u_logical_not(T x) { return x == 0; }                          \
  __device__ __forceinline__ T b_add(T a, T b) { return a + b; }                                 \
  __device__ __forceinline__ T b_subtract(T a, T b) { return a - b; }                            \
  __device__ __forceinline__ T b_multiply(T a, T b) { return a * b; }                            \
  __device__ __forceinline__ T b_divide(T a, T b) { return a / b; }                              \
  __device__ __forceinline__ void divmod(T a, T b, T* fl, T* md) {                               \
    if (b == 0) { *fl = a / b; *md = (T)XP_NAN; return; }                                        \
    T m = fmod(a, b); T div = (a - m) / b;                                                        \
    if (m != 0) { if ((b < 0) != (m < 0)) { m += b; div -= 1; } } else { m = copysign((T)0, b); } \
    T f;                                                                                          \
    if (div != 0) { f = floor(div); if (div - f > (T)0.5) f += 1; } else { f = copysign((T)0, a / b); } \
    *fl = f; *md = m; }                                                                           \
  __device__ __forceinline__ T b_floor_divide(T a, T b) { T f, m; divmod(a, b, &f, &m); return f; } \
  __device__ __forceinline__ T b_remainder(T a, T b) { T f, m; divmod(a, b, &f, &m); return m; } \
  __device__ __forceinline__ T b_power(T a, T b) { return pow(a, b); }                           \
  __device__ __forceinline__ T b_maximum(T a, T b) { return (a >= b || isnan(a)) ? a : b; }      \
  __device__ __forceinline__ T b_minimum(T a, T b) { return (a <= b || isnan(a)) ? a : b; }      \
  __device__ __forceinline__ T b_fmax(T a, T b) { return fmax(a, b); }                           \
  __device__ __forceinline__ T b_fmin(T a, T b) { return fmin(a, b); }                           \
  __device__ __forceinline__ T b_arctan2(T a, T b) { return atan2(a, b); }                       \
  __device__ __forceinline__ T b_hypot(T a, T b) { return hypot(a, b); }                         \
  __device__ __forceinline__ T b_logaddexp(T a, T b) {                                           \
    if (a == b) return a + (T)0.6931471805599453;                                                 \
    T d = a - b;                                                                                  \
    if (d > 0) return a + log1p(exp(-d));                                                         \
    if (d <= 0) return b + log1p(exp(d));                                                         \
    return d; }                                                                                   \
  __device__ __forceinline__ T b_copysign(T a, T b) { return copysign(a, b); }                   \
  REAL_CMP_OPS(T)                                                                                \
  __device__ __forceinline__ bool is_nan(T x) { return isnan(x); }                               \
  __device__ __forceinline__ bool gt(T a, T b) { return a > b; }                                 \
  __device__ __forceinline__ bool lt(T a, T b) { return a < b; }
FLOAT_OPS(float) FLOAT_OPS(double)

// ---- complex ----
// ---- complex elementary functions as NumPy gives them (mirror of crates/cpu/src/{c99,cmath}.rs):
// C99 Annex G's special values first, then Hull et al.'s arcsin/arccos, Kahan's arctanh, and
// tanh guarded against overflow ----
#define XP_INF __int_as_float(0x7f800000)
template <class R> struct Zc { R re, im; };
template <class R> __device__ __forceinline__ Zc<R> zc(R re, R im) { Zc<R> z; z.re = re; z.im = im; return z; }
template <class R> __device__ __forceinline__ R xsign(R m, R s) { return isnan(m) ? m : copysign(m, s); }
template <class R> __device__ __forceinline__ Zc<R> zmul_i(Zc<R> z) { return zc(-z.im, z.re); }
template <class R> __device__ __forceinline__ Zc<R> zmul_mi(Zc<R> z) { return zc(z.im, -z.re); }
template <class R> __device__ Zc<R> z_sqrt(R x, R y) {
  const R inf = (R)XP_INF, nan = (R)XP_NAN;
  if (isinf(y)) return zc(inf, y);
  if (isnan(x)) return zc(nan, nan);
  if (isinf(x)) {
    if (x > 0) return isnan(y) ? zc(inf, nan) : zc(inf, copysign((R)0, y));
    return isnan(y) ? zc(nan, inf) : zc((R)0, copysign(inf, y));
  }
  if (isnan(y)) return zc(nan, nan);
  if (x == 0 && y == 0) return zc((R)0, y);
  R t = sqrt((fabs(x) + hypot(x, y)) / 2);
  if (x >= 0) return zc(t, y / (2 * t));
  return zc(fabs(y) / (2 * t), copysign(t, y));
}
template <class R> __device__ Zc<R> z_sinh(R x, R y) {
  const R nan = (R)XP_NAN;
  if (isfinite(x) && isfinite(y)) return y == 0 ? zc(sinh(x), y) : zc(sinh(x) * cos(y), cosh(x) * sin(y));
  if (x == 0) return zc(x, nan);
  if (y == 0) return zc(x, y);
  if (isinf(x)) return isfinite(y) ? zc(x * cos(y), (R)XP_INF * sin(y)) : zc(x, nan);
  return zc(nan, nan);
}
template <class R> __device__ Zc<R> z_cosh(R x, R y) {
  const R nan = (R)XP_NAN, inf = (R)XP_INF;
  if (isfinite(x) && isfinite(y)) return zc(cosh(x) * cos(y), sinh(x) * sin(y));
  if (x == 0) return zc(nan, xsign((R)0, isnan(y) ? x : x * y));
  if (y == 0) return isnan(x) ? zc(nan, y) : zc(inf, (signbit(x) != signbit(y)) ? -(R)0 : (R)0);
  if (isinf(x)) return isfinite(y) ? zc(inf * cos(y), x * sin(y)) : zc(inf, nan);
  return zc(nan, nan);
}
template <class R> __device__ Zc<R> z_tanh(R x, R y) {
  const R nan = (R)XP_NAN;
  if (isnan(x)) return y == 0 ? zc(nan, y) : zc(nan, nan);
  if (isinf(x)) return zc(copysign((R)1, x), xsign((R)0, y));
  if (!isfinite(y)) return x == 0 ? zc(x, nan) : zc(nan, nan);
  const R big = sizeof(R) == 4 ? (R)9 : (R)22;
  if (fabs(x) >= big) { R e = exp(-fabs(x)); return zc(copysign((R)1, x), 4 * sin(y) * cos(y) * e * e); }
  R d = cosh(2 * x) + cos(2 * y);
  return zc(sinh(2 * x) / d, sin(2 * y) / d);
}
template <class R> __device__ Zc<R> z_asinh_special(R x, R y, bool* hit) {
  const R nan = (R)XP_NAN, inf = (R)XP_INF, pi4 = (R)0.7853981633974483, pi2 = (R)1.5707963267948966;
  *hit = !(isfinite(x) && isfinite(y));
  if (!*hit) return zc(x, y);
  R ax = fabs(x), ay = fabs(y), re, im;
  if (isnan(x)) { if (ay == 0) { re = nan; im = 0; } else if (isinf(ay)) { re = inf; im = nan; } else { re = nan; im = nan; } }
  else if (isnan(y)) { if (isinf(ax)) { re = inf; im = nan; } else { re = nan; im = nan; } }
  else if (isinf(ax) && isinf(ay)) { re = inf; im = pi4; }
  else if (isinf(ax)) { re = inf; im = 0; }
  else { re = inf; im = pi2; }
  return zc(xsign(re, x), xsign(im, y));
}
// (asin β, acos β, ln(α + √(α² − 1))) for x, y ≥ 0 finite (Hull, Fairgrieve, Tang 1997)
template <class R> __device__ void z_hull(R x, R y, R* ras, R* rac, R* im) {
  R r = hypot(x + 1, y), s = hypot(x - 1, y), a = (R)0.5 * (r + s), b = x / a, yy = y * y;
  if (a > (R)1e8) *im = (R)0.6931471805599453 + log(a);
  else if (a < (R)1.5) {
    R am1 = x < 1 ? (R)0.5 * (yy / (r + (x + 1)) + yy / (s + (1 - x))) : (R)0.5 * (yy / (r + (x + 1)) + (s + (x - 1)));
    *im = log1p(am1 + sqrt(am1 * (a + 1)));
  } else *im = log(a + sqrt(a * a - 1));
  if (b <= (R)0.6417) { *ras = asin(b); *rac = acos(b); }
  else {
    R d = x <= 1 ? sqrt((R)0.5 * (a + x) * (yy / (r + (x + 1)) + (s + (1 - x))))
                 : y * sqrt((R)0.5 * ((a + x) / (r + (x + 1)) + (a + x) / (s + (x - 1))));
    *ras = atan2(x, d); *rac = atan2(d, x);
  }
}
template <class R> __device__ Zc<R> z_asin(R x, R y) {
  bool hit;
  if (!(isfinite(x) && isfinite(y))) { Zc<R> w = z_asinh_special(-y, x, &hit); return zmul_mi(w); }
  R ras, rac, im; z_hull(fabs(x), fabs(y), &ras, &rac, &im);
  return zc(copysign(ras, x), copysign(im, y));
}
template <class R> __device__ Zc<R> z_asinh(R x, R y) {
  bool hit; Zc<R> w = z_asinh_special(x, y, &hit);
  if (hit) return w;
  return zmul_mi(z_asin(-y, x));
}
template <class R> __device__ Zc<R> z_acos(R x, R y) {
  const R nan = (R)XP_NAN, inf = (R)XP_INF, pi = (R)3.141592653589793, pi2 = (R)1.5707963267948966, pi4 = (R)0.7853981633974483;
  if (isfinite(x) && isfinite(y)) {
    if (x == 0 && y == 0) return zc(pi2, -y);
    R ras, rac, im; z_hull(fabs(x), fabs(y), &ras, &rac, &im);
    return zc(signbit(x) ? pi - rac : rac, -copysign(im, y));
  }
  R ay = fabs(y), re, im;
  if (isnan(x)) { re = nan; im = isinf(ay) ? inf : nan; }
  else if (isnan(y)) { if (isinf(x)) { re = nan; im = inf; } else if (x == 0) { re = pi2; im = nan; } else { re = nan; im = nan; } }
  else if (isinf(x) && isinf(ay)) { re = x < 0 ? pi - pi4 : pi4; im = inf; }
  else if (isinf(x)) { re = x < 0 ? pi : (R)0; im = inf; }
  else { re = pi2; im = inf; }
  return zc(re, xsign(im, -y));
}
template <class R> __device__ Zc<R> z_acosh(R x, R y) {
  const R nan = (R)XP_NAN, inf = (R)XP_INF, pi = (R)3.141592653589793, pi2 = (R)1.5707963267948966, pi4 = (R)0.7853981633974483;
  if (isfinite(x) && isfinite(y)) {
    if (x == 0 && y == 0) return zc((R)0, copysign(pi2, y));
    Zc<R> w = z_acos(x, y); return zc(fabs(w.im), copysign(w.re, y));
  }
  R ay = fabs(y), re, im;
  if (isnan(x)) { if (isinf(ay)) { re = inf; im = nan; } else { re = nan; im = nan; } }
  else if (isnan(y)) { if (isinf(x)) { re = inf; im = nan; } else if (x == 0) { re = nan; im = pi2; } else { re = nan; im = nan; } }
  else if (isinf(x) && isinf(ay)) { re = inf; im = x < 0 ? pi - pi4 : pi4; }
  else if (isinf(x)) { re = inf; im = x < 0 ? pi : (R)0; }
  else { re = inf; im = pi2; }
  return zc(re, xsign(im, y));
}
template <class R> __device__ Zc<R> z_atanh(R x, R y) {
  const R nan = (R)XP_NAN, pi2 = (R)1.5707963267948966;
  if (isfinite(x) && isfinite(y)) {
    if (y == 0 && fabs(x) == 1) return zc(copysign((R)XP_INF, x), y);
    if (x == 0 && y == 0) return zc(x, y);
    const R lim = sizeof(R) == 4 ? (R)1e18 : (R)1e150;
    if (fabs(x) > lim || fabs(y) > lim) {  // 1/z ± iπ/2
      R m = fmax(fabs(x), fabs(y)), xs = x / m, ys = y / m;
      return zc(xs / (xs * xs + ys * ys) / m, copysign(pi2, y));
    }
    return zc((R)0.25 * log1p(4 * x / ((1 - x) * (1 - x) + y * y)), (R)0.5 * atan2(2 * y, (1 - x) * (1 + x) - y * y));
  }
  R ax = fabs(x), ay = fabs(y), re, im;
  if (isnan(x)) { if (isinf(ay)) { re = 0; im = pi2; } else { re = nan; im = nan; } }
  else if (isnan(y)) { if (isinf(ax) || x == 0) { re = 0; im = nan; } else { re = nan; im = nan; } }
  else { re = 0; im = pi2; }
  return zc(xsign(re, x), xsign(im, y));
}
#define CPLX_OPS(C, R)                                                                              \
  __device__ __forceinline__ C mk(R re, R im, C*) { C r; r.re = re; r.im = im; return r; }       \
  __device__ __forceinline__ C operator+(C a, C b) { return mk(a.re + b.re, a.im + b.im, (C*)0); } \
  __device__ __forceinline__ C operator-(C a, C b) { return mk(a.re - b.re, a.im - b.im, (C*)0); } \
  __device__ __forceinline__ C operator*(C a, C b) { return mk(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re, (C*)0); } \
  __device__ __forceinline__ C operator/(C a, C b) {                                             \
    R ar = a.re, ai = a.im, br = b.re, bi = b.im;                                                 \
    if (fabs(br) >= fabs(bi)) {                                                                   \
      if (br == 0 && bi == 0) return mk(ar / fabs(br), ai / fabs(bi), (C*)0);                     \
      R rat = bi / br, scl = (R)1 / (br + bi * rat);                                              \
      return mk((ar + ai * rat) * scl, (ai - ar * rat) * scl, (C*)0); }                           \
    R rat = br / bi, scl = (R)1 / (bi + br * rat);                                                \
    return mk((ar * rat + ai) * scl, (ai * rat - ar) * scl, (C*)0); }                             \
  __device__ __forceinline__ C cx(R re, C* t) { return mk(re, (R)0, t); }                        \
  __device__ __forceinline__ C c_exp(C z) {                                                      \
    if (isinf(z.re) && !isfinite(z.im)) {  /* C99 cexp corner cases */                            \
      if (z.re < 0) return mk((R)0, copysign((R)0, z.im), (C*)0);                                 \
      return mk(z.re, (R)XP_NAN, (C*)0); }                                                        \
    if (isinf(z.re) && z.im == 0) return mk(z.re > 0 ? z.re : (R)0, z.im, (C*)0);                 \
    if (isnan(z.re) && z.im == 0) return z;                                                       \
    R e = exp(z.re); return mk(e * cos(z.im), e * sin(z.im), (C*)0); }                            \
  __device__ __forceinline__ C c_log(C z) { return mk(log(hypot(z.re, z.im)), atan2(z.im, z.re), (C*)0); } \
  __device__ __forceinline__ C u_negative(C z) { return mk(-z.re, -z.im, (C*)0); }              \
  __device__ __forceinline__ C u_positive(C z) { return z; }                                     \
  __device__ __forceinline__ C u_conjugate(C z) { return mk(z.re, -z.im, (C*)0); }              \
  __device__ __forceinline__ R u_absolute(C z) { return hypot(z.re, z.im); }                    \
  __device__ __forceinline__ R u_real(C z) { return z.re; }                                      \
  __device__ __forceinline__ R u_imag(C z) { return z.im; }                                      \
  __device__ __forceinline__ R u_angle(C z) { return atan2(z.im, z.re); }                       \
  __device__ __forceinline__ C u_sign(C z) {                                                     \
    if (z.re == 0 && z.im == 0) return mk((R)0, (R)0, (C*)0); R n = hypot(z.re, z.im); return mk(z.re / n, z.im / n, (C*)0); } \
  __device__ __forceinline__ C u_reciprocal(C z) {  /* conj(z) / |z|^2, as NumPy */            \
    R n = z.re * z.re + z.im * z.im; return mk(z.re / n, -z.im / n, (C*)0); }                     \
  __device__ __forceinline__ C u_square(C z) { return z * z; }                                   \
  __device__ __forceinline__ C u_exp(C z) { return c_exp(z); }                                   \
  __device__ __forceinline__ C u_exp2(C z) { return c_exp(z * cx((R)0.6931471805599453, (C*)0)); } \
  __device__ __forceinline__ C u_expm1(C z) { return c_exp(z) - cx((R)1, (C*)0); }              \
  __device__ __forceinline__ C u_log(C z) { return c_log(z); }                                   \
  __device__ __forceinline__ C u_log2(C z) { C l = c_log(z); return mk(l.re / (R)0.6931471805599453, l.im / (R)0.6931471805599453, (C*)0); } \
  __device__ __forceinline__ C u_log10(C z) { C l = c_log(z); return mk(l.re / (R)2.302585092994046, l.im / (R)2.302585092994046, (C*)0); } \
  __device__ __forceinline__ C u_log1p(C z) { return c_log(z + cx((R)1, (C*)0)); }              \
  __device__ __forceinline__ C fz(Zc<R> w) { return mk(w.re, w.im, (C*)0); }                    \
  __device__ __forceinline__ C u_sqrt(C z) { return fz(z_sqrt<R>(z.re, z.im)); }                 \
  __device__ __forceinline__ C u_sin(C z) { return fz(zmul_mi(z_sinh<R>(-z.im, z.re))); }        \
  __device__ __forceinline__ C u_cos(C z) { return fz(z_cosh<R>(-z.im, z.re)); }                 \
  __device__ __forceinline__ C u_tan(C z) { return fz(zmul_mi(z_tanh<R>(-z.im, z.re))); }        \
  __device__ __forceinline__ C u_sinh(C z) { return fz(z_sinh<R>(z.re, z.im)); }                 \
  __device__ __forceinline__ C u_cosh(C z) { return fz(z_cosh<R>(z.re, z.im)); }                 \
  __device__ __forceinline__ C u_tanh(C z) { return fz(z_tanh<R>(z.re, z.im)); }                 \
  __device__ __forceinline__ C u_arcsin(C z) { return fz(z_asin<R>(z.re, z.im)); }               \
  __device__ __forceinline__ C u_arccos(C z) { return fz(z_acos<R>(z.re, z.im)); }               \
  __device__ __forceinline__ C u_arctan(C z) { return fz(zmul_mi(z_atanh<R>(-z.im, z.re))); }    \
  __device__ __forceinline__ C u_arcsinh(C z) { return fz(z_asinh<R>(z.re, z.im)); }             \
  __device__ __forceinline__ C u_arccosh(C z) { return fz(z_acosh<R>(z.re, z.im)); }             \
  __device__ __forceinline__ C u_arctanh(C z) { return fz(z_atanh<R>(z.re, z.im)); }             \
  __device__ __forceinline__ C u_rint(C z) { return mk(rint(z.re), rint(z.im), (C*)0); }        \
  __device__ __forceinline__ bool u_isnan(C z) { return isnan(z.re) || isnan(z.im); }           \
  __device__ __forceinline__ bool u_isinf(C z) { return isinf(z.re) || isinf(z.im); }           \
  __device__ __forceinline__ bool u_isfinite(C z) { return isfinite(z.re) && isfinite(z.im); }  \
  __device__ __forceinline__ bool u_logical_not(C z) { return z.re == 0 && z.im == 0; }         \
  __device__ __forceinline__ bool is_nan(C z) { return isnan(z.re) || isnan(z.im); }            \
  __device__ __forceinline__ bool gt(C a, C b) { return a.re > b.re || (a.re == b.re && a.im > b.im); } \
  __device__ __forceinline__ bool lt(C a, C b) { return a.re < b.re || (a.re == b.re && a.im < b.im); } \
  __device__ __forceinline__ C b_add(C a, C b) { return a + b; }                                 \
  __device__ __forceinline__ C b_subtract(C a, C b) { return a - b; }                            \
  __device__ __forceinline__ C b_multiply(C a, C b) { return a * b; }                            \
  __device__ __forceinline__ C b_divide(C a, C b) { return a / b; }                              \
  __device__ __forceinline__ C b_power(C a, C b) {                                               \
    if (b.re == 0 && b.im == 0) return cx((R)1, (C*)0);                                          \
    if (a.re == 0 && a.im == 0) return (b.re > 0 && b.im == 0) ? cx((R)0, (C*)0) : mk((R)XP_NAN, (R)XP_NAN, (C*)0); \
    if (b.im == 0 && b.re == floor(b.re) && fabs(b.re) <= 100) {                                  \
      int n = (int)fabs(b.re); C acc = cx((R)1, (C*)0), base = a;                                 \
      while (n) { if (n & 1) acc = acc * base; base = base * base; n >>= 1; }                     \
      return b.re < 0 ? cx((R)1, (C*)0) / acc : acc; }                                            \
    return c_exp(b * c_log(a)); }                                                                 \
  __device__ __forceinline__ C b_maximum(C a, C b) { return (is_nan(a) || (!is_nan(b) && !lt(a, b))) ? a : b; } \
  __device__ __forceinline__ C b_minimum(C a, C b) { return (is_nan(a) || (!is_nan(b) && !gt(a, b))) ? a : b; } \
  __device__ __forceinline__ C b_fmax(C a, C b) { return (is_nan(b) || (!is_nan(a) && !lt(a, b))) ? a : b; } \
  __device__ __forceinline__ C b_fmin(C a, C b) { return (is_nan(b) || (!is_nan(a) && !gt(a, b))) ? a : b; } \
  __device__ __forceinline__ bool b_equal(C a, C b) { return a.re == b.re && a.im == b.im; }    \
  __device__ __forceinline__ bool b_not_equal(C a, C b) { return !(a.re == b.re && a.im == b.im); } \
  __device__ __forceinline__ bool b_less(C a, C b) { return lt(a, b); }                          \
  __device__ __forceinline__ bool b_less_equal(C a, C b) { return a.re < b.re || (a.re == b.re && a.im <= b.im); } \
  __device__ __forceinline__ bool b_greater(C a, C b) { return gt(a, b); }                       \
  __device__ __forceinline__ bool b_greater_equal(C a, C b) { return a.re > b.re || (a.re == b.re && a.im >= b.im); } \
  __device__ __forceinline__ bool b_logical_and(C a, C b) { return !u_logical_not(a) && !u_logical_not(b); } \
  __device__ __forceinline__ bool b_logical_or(C a, C b) { return !u_logical_not(a) || !u_logical_not(b); } \
  __device__ __forceinline__ bool b_logical_xor(C a, C b) { return u_logical_not(a) != u_logical_not(b); }
CPLX_OPS(cf, float) CPLX_OPS(cd, double)

// ---- indexing: an n-d position to an element offset for each operand ----
#define XP_MAXD 12
struct Idx {
  i64 n;            // positions
  i64 nd;           // dimensions after collapsing
  i64 shape[XP_MAXD];
  i64 st[4][XP_MAXD];  // strides of out and up to three inputs, in elements
  i64 off[4];
};

// ---- vector access: V consecutive elements in one (up to 16-byte) load or store ----
template <int V, class T> struct alignas(sizeof(T) * V) Pack { T v[V]; };

// ---- warp shuffles for every compute type ----
#define XP_SHFL(T, W) \
  __device__ __forceinline__ T shfl_down(T v, int o) { return (T)__shfl_down_sync(0xffffffffu, (W)v, o); } \
  __device__ __forceinline__ T shfl_up(T v, int o) { return (T)__shfl_up_sync(0xffffffffu, (W)v, o); }
XP_SHFL(float, float) XP_SHFL(double, double) XP_SHFL(i32, i32) XP_SHFL(u32, u32) XP_SHFL(i64, i64)
XP_SHFL(u64, u64) XP_SHFL(i8, int) XP_SHFL(u8, int) XP_SHFL(i16, int) XP_SHFL(u16, int) XP_SHFL(bool, int)
#define XP_SHFL_C(C) \
  __device__ __forceinline__ C shfl_down(C v, int o) { C r; r.re = shfl_down(v.re, o); r.im = shfl_down(v.im, o); return r; } \
  __device__ __forceinline__ C shfl_up(C v, int o) { C r; r.re = shfl_up(v.re, o); r.im = shfl_up(v.im, o); return r; }
XP_SHFL_C(cf) XP_SHFL_C(cd)
