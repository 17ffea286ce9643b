//! The random family on the GPU: a thread per Philox block writes that block's values, the
//! same words to the same positions as on the CPU ([`xp_core::random`]).
use crate::codegen::{storage_ty, PRELUDE};
use crate::device::{driver_err, Key};
use crate::storage::{after, before, cfg, CudaStorage};
use crate::CudaDevice;
use cudarc::driver::PushKernelArg;
use xp_core::random::{wide, Stream};
use xp_core::{DType, Distribution, Error, RandomDevice, Result};

/// Device code: Philox4x32-10 of counter `c` under key (`k0`, `k1`), in place.
const PHILOX: &str = r#"
__device__ __forceinline__ void philox(unsigned c[4], unsigned k0, unsigned k1) {
#pragma unroll
  for (int r = 0; r < 10; ++r) {
    if (r > 0) { k0 += 0x9E3779B9u; k1 += 0xBB67AE85u; }
    const unsigned h0 = __umulhi(0xD2511F53u, c[0]), l0 = 0xD2511F53u * c[0];
    const unsigned h1 = __umulhi(0xCD9E8D57u, c[2]), l1 = 0xCD9E8D57u * c[2];
    const unsigned n0 = h1 ^ c[1] ^ k0, n2 = h0 ^ c[3] ^ k1;
    c[0] = n0; c[1] = l1; c[2] = n2; c[3] = l0;
  }
}
struct Str { unsigned k0, k1, d0, d1; };
// Block b of the draw (attempt 0), or attempt j of value i.
__device__ __forceinline__ void block(const Str& s, unsigned long long b, unsigned j, unsigned w[4]) {
  w[0] = (unsigned)b; w[1] = (unsigned)(b >> 32); w[2] = s.d0; w[3] = s.d1 | (j << 16);
  philox(w, s.k0, s.k1);
}
"#;

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
            "for (int j = 0; j < 2; ++j) {
        const float u1 = (float)((w[2 * j] >> 8) + 1) * (1.0f / 16777216.0f);
        const float u2 = (float)(w[2 * j + 1] >> 8) * (1.0f / 16777216.0f);
        float sn, cs; sincospif(2.0f * u2, &sn, &cs);
        const float r = sqrtf(-2.0f * logf(u1));
        v[2 * j] = r * cs; v[2 * j + 1] = r * sn;
      }"
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
          unsigned q[4]; block(s, 2 * k + j, a, q); x = ((unsigned long long)q[1] << 32) | q[0];
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
          unsigned q[4]; block(s, 4 * k + j, a, q); x = q[0];
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
        "{PRELUDE}{PHILOX}
extern \"C\" __global__ void xp_k({st}* __restrict__ o, long long n, Str s, unsigned long long lo, unsigned long long span) {{
  (void)lo; (void)span;
  const long long nb = (n + {per} - 1) / {per};
  for (long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x; k < nb; k += (long long)gridDim.x * blockDim.x) {{
    unsigned w[4]; block(s, (unsigned long long)k, 0, w);
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

/// The kernel's parameter block for the stream (four words, as `Str` in the source).
#[repr(C)]
#[derive(Clone, Copy)]
struct Str {
    k0: u32,
    k1: u32,
    d0: u32,
    d1: u32,
}
// SAFETY: plain-old-data of four u32, laid out as the device struct.
unsafe impl cudarc::driver::DeviceRepr for Str {}

impl RandomDevice for CudaDevice {
    fn random(&self, n: usize, dtype: DType, dist: Distribution, s: Stream) -> Result<CudaStorage> {
        let dev = &self.dev;
        let (per, b) = body(dist, dtype).ok_or(Error::InvalidDType { op: "random", dtype })?;
        let out = CudaStorage::alloc(dev, dtype, n)?;
        if n == 0 {
            return Ok(out);
        }
        let (kind, lo, span) = match dist {
            Distribution::Uniform => (0, 0, 0),
            Distribution::StandardNormal => (1, 0, 0),
            Distribution::Integers { low, span } => {
                (2 + u64::from(wide(span)) + u64::from(span == u64::MAX), low as u64, span)
            }
        };
        let key = Key::new(50).bits(3, kind).dtype(dtype);
        let (f, _) = dev.kernel(key, "xp_k", || src(dist, dtype, per, &b))?;
        let st = Str { k0: s.key[0], k1: s.key[1], d0: s.draw as u32, d1: (s.draw >> 32) as u32 };
        let stream = dev.current();
        before(&stream, &[&out])?;
        let nn = n as i64;
        let mut l = stream.launch_builder(&f);
        l.arg(&out.buf.ptr).arg(&nn).arg(&st).arg(&lo).arg(&span);
        // SAFETY: parameters match the kernel; it writes only positions below n of `out`.
        unsafe { l.launch(cfg(n.div_ceil(per as usize) as i64)) }.map_err(driver_err)?;
        after(&stream, &[&out])?;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::tests_support::syntax_check;

    #[test]
    fn random_kernels_parse() {
        let dists = [
            Distribution::Uniform,
            Distribution::StandardNormal,
            Distribution::Integers { low: -3, span: 9 },
            Distribution::Integers { low: 0, span: 1 << 40 },
            Distribution::Integers { low: i64::MIN, span: u64::MAX },
        ];
        for dist in dists {
            for d in [DType::F32, DType::F64, DType::I64, DType::U8, DType::I32] {
                if let Some((per, b)) = body(dist, d) {
                    syntax_check(&format!("random-{dist:?}-{}", d.name()), &src(dist, d, per, &b));
                }
            }
        }
    }
}
