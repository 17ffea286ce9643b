//! The random family on the GPU: a thread per Philox block writes that block's values, the
//! same words to the same positions as on the CPU ([`xp_core::random`]).
use crate::codegen::{storage_ty, PRELUDE};
use crate::runtime::buffer::CudaStorage;
use crate::runtime::launch::{cfg, Family, Key, Param, Source};
use crate::CudaDevice;
use cudarc::driver::LaunchConfig;
use xp_core::random::{round_keys, wide, Stream};
use xp_core::{DType, Distribution, Error, RandomDevice, Result};

/// Device code: Philox4x32-10 of counter `c` under the round keys of `s`, in place. The ten
/// rounds' keys come from the kernel's parameters (computed on the host), so that a round is two
/// wide multiplies and two three-way xors with nothing else to add.
const PHILOX: &str = r#"
struct Str { unsigned rk[20]; unsigned d0, d1; unsigned long long first; };
__device__ __forceinline__ void philox(unsigned c[4], const Str& s) {
#pragma unroll
  for (int r = 0; r < 10; ++r) {
    const unsigned long long p0 = (unsigned long long)0xD2511F53u * c[0], p1 = (unsigned long long)0xCD9E8D57u * c[2];
    const unsigned n0 = (unsigned)(p1 >> 32) ^ c[1] ^ s.rk[2 * r], n2 = (unsigned)(p0 >> 32) ^ c[3] ^ s.rk[2 * r + 1];
    c[0] = n0; c[1] = (unsigned)p1; c[2] = n2; c[3] = (unsigned)p0;
  }
}
// Block b of the draw (attempt 0), or attempt j of value i.
__device__ __forceinline__ void block(const Str& s, unsigned long long b, unsigned j, unsigned w[4]) {
  w[0] = (unsigned)b; w[1] = (unsigned)(b >> 32); w[2] = s.d0; w[3] = s.d1 | (j << 16);
  philox(w, s);
}
"#;

/// Device code: the float32 normal's functions (see the file).
const BOX_MULLER_F32: &str = include_str!("box_muller_f32.cu");

/// Device code: the per-value samplers of `xp_core::random::sample`, line for line.
const SAMPLERS: &str = r#"
// The stream stays in the kernel's parameter space (__grid_constant__): no copy per thread.
struct Words { const Str* s; unsigned long long i; unsigned j; unsigned w[4]; int at; };
__device__ __forceinline__ void words_init(Words& q, const Str& s, unsigned long long i) {
  q.s = &s; q.i = i; q.j = 0; q.at = 0; block(s, i, 0, q.w);
}
__device__ __forceinline__ unsigned next_word(Words& q) {
  if (q.at == 4) { q.j = (q.j + 1) & 0xffffu; block(*q.s, q.i, q.j, q.w); q.at = 0; }
  return q.w[q.at++];
}
__device__ __forceinline__ double unit(Words& q) {
  const unsigned lo = next_word(q), hi = next_word(q);
  return (double)((((unsigned long long)hi << 32) | lo) >> 11) * (1.0 / 9007199254740992.0);
}
__device__ double normal1(Words& q) {
  const double u1 = 1.0 - unit(q), u2 = unit(q);
  return sqrt(-2.0 * log(u1)) * cospi(2.0 * u2);
}
__device__ double marsaglia_tsang(Words& q, double a) {
  const double d = a - 1.0 / 3.0, c = 1.0 / sqrt(9.0 * d);
  for (;;) {
    double x, v;
    for (;;) { x = normal1(q); v = 1.0 + c * x; if (v > 0.0) { v = v * v * v; break; } }
    const double u = unit(q), x2 = x * x;
    if (u < 1.0 - 0.0331 * x2 * x2 || log(u) < 0.5 * x2 + d * (1.0 - v + log(v))) return d * v;
  }
}
__device__ double standard_gamma(Words& q, double a) {
  if (!(a > 0.0)) return 0.0;
  if (a < 1.0) { const double u = unit(q); return marsaglia_tsang(q, a + 1.0) * pow(u, 1.0 / a); }
  return marsaglia_tsang(q, a);
}
__device__ long long poisson(Words& q, double lam) {
  if (!(lam > 0.0)) return 0;
  if (lam < 10.0) {
    const double limit = exp(-lam); long long k = 0; double prod = 1.0;
    for (;;) { prod *= unit(q); if (prod <= limit) return k; ++k; }
  }
  const double slam = sqrt(lam), loglam = log(lam), b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
  const double invalpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2.0);
  for (;;) {
    const double u = unit(q) - 0.5, v = unit(q), us = 0.5 - fabs(u);
    const double k = floor((2.0 * a / us + b) * u + lam + 0.43);
    if (us >= 0.07 && v <= vr) return (long long)k;
    if (k < 0.0 || (us < 0.013 && v > us)) continue;
    if (log(v) + log(invalpha) - log(a / (us * us) + b) <= -lam + k * loglam - lgamma(k + 1.0)) return (long long)k;
  }
}
__device__ long long binomial(Words& q, long long n, double p) {
  if (n <= 0 || !(p > 0.0)) return 0;
  if (p >= 1.0) return n;
  long long flip = 0;
  if (p > 0.5) { flip = n; p = 1.0 - p; }
  const double nf = (double)n;
  long long r;
  if (nf * p < 10.0) {
    const double lq = log1p(-p); double sum = 0.0; long long k = 0;
    for (;;) { sum += ceil(log(1.0 - unit(q)) / lq); if (sum > nf) break; ++k; }
    r = k;
  } else {
    const double qq = 1.0 - p, spq = sqrt(nf * p * qq), b = 1.15 + 2.53 * spq;
    const double a = -0.0873 + 0.0248 * b + 0.01 * p, c = nf * p + 0.5, alpha = (2.83 + 5.1 / b) * spq;
    const double vr = 0.92 - 4.2 / b, m = floor((nf + 1.0) * p), lr = log(p / qq);
    const double h = lgamma(m + 1.0) + lgamma(nf - m + 1.0);
    for (;;) {
      const double u = unit(q) - 0.5, v = unit(q), us = 0.5 - fabs(u);
      const double k = floor((2.0 * a / us + b) * u + c);
      if (k < 0.0 || k > nf) continue;
      if (us >= 0.07 && v <= vr) { r = (long long)k; break; }
      const double lv = log(v * alpha / (a / (us * us) + b));
      if (lv <= h - lgamma(k + 1.0) - lgamma(nf - k + 1.0) + (k - m) * lr) { r = (long long)k; break; }
    }
  }
  return flip ? flip - r : r;
}
"#;

/// The per-value kernel of a distribution that rejects: thread `i` (grid-stride) samples value
/// `i` from its own subsequence, parameters `p0`, `p1` read at `i * s0`, `i * s1` (stride 0 for
/// one value shared by every position).
/// What specialises a random kernel: the kind of draw (`kind` as the keys number them) and dtype.
fn spec(kind: u64, d: DType) -> String {
    let what = ["uniform", "normal", "integers32", "integers64", "integers_full", "exponential", "gamma", "poisson"];
    format!("{}_{}", what.get(kind as usize).copied().unwrap_or("binomial"), d.name())
}

fn value_src(dist: Distribution, d: DType) -> Option<String> {
    let st = storage_ty(d);
    let expr = match (dist, d) {
        (Distribution::StandardGamma, DType::F32 | DType::F64) => "standard_gamma(q, p0[i * s0])",
        (Distribution::Poisson, DType::I64) => "poisson(q, p0[i * s0])",
        (Distribution::Binomial, DType::I64) => "binomial(q, (long long)p0[i * s0], p1[i * s1])",
        _ => return None,
    };
    Some(format!(
        "{PRELUDE}{PHILOX}{SAMPLERS}
extern \"C\" __global__ void XP_NAME(random)({st}* __restrict__ o, long long n, const __grid_constant__ Str s, const double* __restrict__ p0, long long s0, const double* __restrict__ p1, long long s1) {{
  (void)p1; (void)s1;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {{
    Words q; words_init(q, s, s.first + (unsigned long long)i);
    o[i] = ({st})({expr});
  }}
}}\n"
    ))
}

/// What a kernel computes from a block: the values per block and the statements that set
/// `v[0..per]` from the words `w` (block `k`).
fn body(dist: Distribution, d: DType) -> Option<(u32, String)> {
    Some(match (dist, d) {
        (Distribution::Uniform, DType::F32) => {
            (4, "for (int j = 0; j < 4; ++j) v[j] = (float)(w[j] >> 8) * (1.0f / 16777216.0f);".into())
        }
        (Distribution::Uniform, DType::F64) => (
            2,
            "for (int j = 0; j < 2; ++j) v[j] = (double)((((unsigned long long)w[2 * j + 1] << 32) | w[2 * j]) >> 11) * (1.0 / 9007199254740992.0);"
                .into(),
        ),
        (Distribution::StandardNormal, DType::F32) => (
            4,
            "for (int j = 0; j < 2; ++j) xp_normal_pair_f32(w[2 * j], w[2 * j + 1], v[2 * j], v[2 * j + 1]);"
            .into(),
        ),
        (Distribution::StandardNormal, DType::F64) => (
            2,
            "{
        const double u1 = (double)(((((unsigned long long)w[1] << 32) | w[0]) >> 11) + 1) * (1.0 / 9007199254740992.0);
        const double u2 = (double)((((unsigned long long)w[3] << 32) | w[2]) >> 11) * (1.0 / 9007199254740992.0);
        const double r = sqrt(-2.0 * log(u1)), t = 6.28318530717958647692 * u2;
        v[0] = r * cos(t); v[1] = r * sin(t);
      }"
            .into(),
        ),
        (Distribution::StandardExponential, DType::F32) => {
            (4, "for (int j = 0; j < 4; ++j) v[j] = -logf(1.0f - (float)(w[j] >> 8) * (1.0f / 16777216.0f));".into())
        }
        (Distribution::StandardExponential, DType::F64) => (
            2,
            "for (int j = 0; j < 2; ++j) v[j] = -log(1.0 - (double)((((unsigned long long)w[2 * j + 1] << 32) | w[2 * j]) >> 11) * (1.0 / 9007199254740992.0));"
                .into(),
        ),
        (Distribution::Integers { span, .. }, d) if d.is_integer() => {
            // Lemire's multiply-and-reject, retries from the value's own counter.
            let b = if span == u64::MAX {
                "for (int j = 0; j < 2; ++j) v[j] = (long long)(lo + ((((unsigned long long)w[2 * j + 1] << 32) | w[2 * j])));"
                    .to_string()
            } else if wide(span) {
                "const unsigned long long r = span + 1;
      for (int j = 0; j < 2; ++j) {
        unsigned long long x = ((unsigned long long)w[2 * j + 1] << 32) | w[2 * j];
        for (unsigned a = 1;; ++a) {
          const unsigned long long hi = __umul64hi(x, r), lw = x * r;
          if (lw >= r || lw >= (0ull - r) % r) { v[j] = (long long)(lo + hi); break; }
          unsigned q[4]; block(s, 2 * kb + j, a, q); x = ((unsigned long long)q[1] << 32) | q[0];
        }
      }"
                .to_string()
            } else {
                "const unsigned long long r = span + 1;
      for (int j = 0; j < 4; ++j) {
        unsigned x = w[j];
        for (unsigned a = 1;; ++a) {
          const unsigned long long m = (unsigned long long)x * r, l = m & 0xffffffffull;
          // The threshold (2^32 mod r, a division) only matters when l < r.
          if (l >= r || l >= ((1ull << 32) - r) % r) { v[j] = (long long)(lo + (m >> 32)); break; }
          unsigned q[4]; block(s, 4 * kb + j, a, q); x = q[0];
        }
      }"
                .to_string()
            };
            (if wide(span) { 2 } else { 4 }, b)
        }
        _ => return None,
    })
}

/// The kernel: thread `k` (grid-stride) computes block `k` and writes its `per` values.
fn src(dist: Distribution, d: DType, per: u32, body: &str) -> String {
    let st = storage_ty(d);
    let vt = match dist {
        Distribution::Integers { .. } => "long long",
        _ => st,
    };
    format!(
        "{PRELUDE}{PHILOX}{BOX_MULLER_F32}
extern \"C\" __global__ void XP_NAME(random)({st}* __restrict__ o, long long n, Str s, unsigned long long lo, unsigned long long span) {{
  (void)lo; (void)span;
  const long long nb = (n + {per} - 1) / {per};
  for (long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x; k < nb; k += (long long)gridDim.x * blockDim.x) {{
    const unsigned long long kb = (unsigned long long)k + s.first / {per};
    unsigned w[4]; block(s, kb, 0, w);
    {vt} v[{per}];
    {body}
    if (k * {per} + {per} <= n) {{
      // One vector store per thread (the block's values are adjacent and aligned).
      Pack<{per}, {st}> p;
#pragma unroll
      for (int j = 0; j < {per}; ++j) p.v[j] = ({st})v[j];
      *(Pack<{per}, {st}>*)(o + k * {per}) = p;
    }} else {{
      for (int j = 0; j < {per}; ++j) if (k * {per} + j < n) o[k * {per} + j] = ({st})v[j];
    }}
  }}
}}\n"
    )
}

/// The kernel's parameter block for the stream (`Str` in the source): the key of each of
/// Philox's ten rounds, then the draw's two words.
#[repr(C)]
#[derive(Clone, Copy)]
struct Str {
    rk: [[u32; 2]; 10],
    d0: u32,
    d1: u32,
    first: u64,
}
// SAFETY: plain-old-data (22 u32 and a u64 at offset 88), laid out as the device struct.
unsafe impl cudarc::driver::DeviceRepr for Str {}

/// The kernel's stream parameter.
fn stream_arg(s: &Stream) -> Str {
    Str { rk: round_keys(s.key), d0: s.draw as u32, d1: (s.draw >> 32) as u32, first: s.first }
}

/// Draw a distribution that rejects: one thread per value.
fn by_values(
    dev: &std::sync::Arc<crate::runtime::device::Dev>,
    n: usize,
    dtype: DType,
    dist: Distribution,
    params: &[&CudaStorage],
    s: &Stream,
) -> Result<CudaStorage> {
    let src = value_src(dist, dtype).ok_or(Error::InvalidDType { op: "random", dtype })?;
    if params.len() != dist.params() || params.iter().any(|p| p.dtype != DType::F64) {
        return Err(Error::InvalidArgument { op: "random", msg: "parameters must be float64".into() });
    }
    let out = CudaStorage::alloc(dev, dtype, n)?;
    if n == 0 {
        return Ok(out);
    }
    let kind = match dist {
        Distribution::StandardGamma => 6,
        Distribution::Poisson => 7,
        _ => 8,
    };
    let key = Key::new(Family::Random).bits(4, kind).dtype(dtype);
    let f = dev.kernel(key, "random", || Source::new(spec(kind, dtype), src))?;
    let stride = |p: &CudaStorage| i64::from(p.len > 1);
    let (p0, s0) = (params[0], stride(params[0]));
    let (p1, s1) = params.get(1).map_or((p0, 0), |p| (*p, stride(p)));
    let mut reads: Vec<&CudaStorage> = params.to_vec();
    reads.push(&out);
    let wk = dev.work(&reads)?;
    let (nn, st) = (n as i64, stream_arg(s));
    let args: [&dyn Param; 7] = [&out.buf.ptr, &nn, &st, &p0.buf.ptr, &s0, &p1.buf.ptr, &s1];
    // SAFETY: parameters match the kernel; parameter reads stay below their lengths (stride 0
    // or n values), writes below n.
    unsafe { wk.launch(&f, cfg(nn), &args) }?;
    wk.done()?;
    Ok(out)
}

impl RandomDevice for CudaDevice {
    fn random(
        &self,
        n: usize,
        dtype: DType,
        dist: Distribution,
        params: &[&CudaStorage],
        s: Stream,
    ) -> Result<CudaStorage> {
        let dev = &self.dev;
        if dist.params() > 0 {
            return by_values(dev, n, dtype, dist, params, &s);
        }
        let (per, b) = body(dist, dtype).ok_or(Error::InvalidDType { op: "random", dtype })?;
        let out = CudaStorage::alloc(dev, dtype, n)?;
        if n == 0 {
            return Ok(out);
        }
        let (kind, lo, span) = match dist {
            Distribution::Uniform => (0, 0, 0),
            Distribution::StandardNormal => (1, 0, 0),
            Distribution::StandardExponential => (5, 0, 0),
            Distribution::Integers { low, span } => {
                (2 + u64::from(wide(span)) + u64::from(span == u64::MAX), low as u64, span)
            }
            _ => unreachable!("parameterised distributions are drawn by value"),
        };
        let key = Key::new(Family::Random).bits(4, kind).dtype(dtype);
        let f = dev.kernel(key, "random", || Source::new(spec(kind, dtype), src(dist, dtype, per, &b)))?;
        let st = stream_arg(&s);
        let wk = dev.work(&[&out])?;
        let nn = n as i64;
        let args: [&dyn Param; 5] = [&out.buf.ptr, &nn, &st, &lo, &span];
        // The kernels bound by their arithmetic (logarithms, sines) run faster as a grid-stride
        // loop over a few resident blocks per SM (float32 normals 2^26: 0.143 ms against 0.167 ms
        // for a thread per Philox block, benches/experiments/normal_variants.cu on an H100); the ones
        // bound by their stores keep a thread per block.
        let blocks = n.div_ceil(per as usize) as i64;
        let launch = match dist {
            Distribution::StandardNormal | Distribution::StandardExponential => LaunchConfig {
                grid_dim: ((blocks as u64).div_ceil(512).min(4 * dev.sms as u64).max(1) as u32, 1, 1),
                block_dim: (512, 1, 1),
                shared_mem_bytes: 0,
            },
            _ => cfg(blocks),
        };
        // SAFETY: parameters match the kernel; it writes only positions below n of `out`.
        unsafe { wk.launch(&f, launch, &args) }?;
        wk.done()?;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::tests_support::syntax_check;

    #[test]
    fn round_keys_give_the_specifications_blocks() {
        // The rounds under the parameter block's keys, in the order the device reads them.
        let s = Stream::new(0x0123_4567_89ab_cdef, 77);
        let a = stream_arg(&s);
        for b in [0u64, 5, 1 << 33] {
            let c = a.rk.into_iter().fold([b as u32, (b >> 32) as u32, a.d0, a.d1], xp_core::random::philox_round);
            assert_eq!(c, s.block(b), "block {b}");
        }
    }

    #[test]
    fn random_kernels_parse() {
        let dists = [
            Distribution::Uniform,
            Distribution::StandardNormal,
            Distribution::Integers { low: -3, span: 9 },
            Distribution::Integers { low: 0, span: 1 << 40 },
            Distribution::Integers { low: i64::MIN, span: u64::MAX },
            Distribution::StandardExponential,
        ];
        for dist in dists {
            for d in [DType::F32, DType::F64, DType::I64, DType::U8, DType::I32] {
                if let Some((per, b)) = body(dist, d) {
                    syntax_check(&format!("random-{dist:?}-{}", d.name()), &src(dist, d, per, &b));
                }
            }
        }
        for dist in [Distribution::StandardGamma, Distribution::Poisson, Distribution::Binomial] {
            for d in [DType::F32, DType::F64, DType::I64] {
                if let Some(s) = value_src(dist, d) {
                    syntax_check(&format!("random-{dist:?}-{}", d.name()), &s);
                }
            }
        }
    }
}
