//! The statistics family on the GPU: histograms with the bins privatised in shared memory.
//! Each block keeps its own 32-bit counters (or float64 sums) and a copy of the edges in shared
//! memory, reads its share of the values four at a time, guesses each value's bin from its
//! position in the range (NumPy's equal-bin path) and checks it against the two edges around it
//! (a binary search of the shared edges only for unequal bins), adds it with a shared-memory
//! atomic, and at the end adds its bins to the result with one global atomic per nonzero bin.
//! Bins and edges that do not fit in 48 KB take the same path with global atomics.
//!
//! A radix selection's pass counts the digits of the values' keys the same way, its 2^11 bins
//! always in shared memory.
use crate::codegen::{storage_ty, PRELUDE};
use crate::runtime::buffer::CudaStorage;
use crate::runtime::device::driver_err;
use crate::runtime::launch::{Family, Key, Param, Source};
use cudarc::driver::LaunchConfig;
use xp_core::select::RadixPass;
use xp_core::{BackendStorage, DType, Error, Layout, Result, StatsStorage};

/// Threads per block.
const THREADS: u32 = 512;
/// Shared memory a block may use without opting in.
const SMEM: usize = 48 * 1024;

/// The kernel for values of dtype `d`, weighted or not, bins in shared memory or not.
fn src(d: DType, weighted: bool, shared: bool) -> String {
    let t = storage_ty(d);
    let (acc, one) = if weighted { ("double", "w[i]") } else { ("u32", "1u") };
    let out_t = if weighted { "double" } else { "u64" };
    let (decl, edges, bins) = if shared {
        (
            format!("extern __shared__ double smem[];\n  {acc}* bins = ({acc}*)smem;\n  {t}* se = ({t}*)(bins + nb + (nb & 1));\n  for (int q = threadIdx.x; q < nb; q += blockDim.x) bins[q] = 0;\n  for (int q = threadIdx.x; q <= nb; q += blockDim.x) se[q] = e[q];\n  __syncthreads();"),
            "se",
            "bins",
        )
    } else {
        (String::new(), "e", "out")
    };
    let flush = if shared {
        format!("__syncthreads();\n  for (int q = threadIdx.x; q < nb; q += blockDim.x) if (bins[q] != 0) atomicAdd(out + q, ({out_t})bins[q]);")
    } else {
        String::new()
    };
    format!(
        "{PRELUDE}
__device__ __forceinline__ int find(const {t}* __restrict__ e, int nb, {t} x, double lo, double scale) {{
  int g = (int)(((double)x - lo) * scale);
  g = g < nb - 1 ? g : nb - 1;
  if (x >= e[g] && (g + 1 == nb || x < e[g + 1])) return g;
  // The count of edges e[1..nb) at or below x.
  int a = 1, b = nb;
  while (a < b) {{ const int m = (a + b) >> 1; if (e[m] <= x) a = m + 1; else b = m; }}
  return a - 1;
}}
extern \"C\" __global__ void XP_NAME(histogram)(const {t}* __restrict__ x, i64 n, const {t}* __restrict__ e, int nb,
                                 const double* __restrict__ w, {out_t}* __restrict__ out) {{
  (void)w;
  {decl}
  const {t} first = e[0], last = e[nb];
  const double lo = (double)first, scale = last > first ? (double)nb / ((double)last - lo) : 0.0;
  const i64 step = (i64)gridDim.x * blockDim.x;
  for (i64 i0 = (i64)blockIdx.x * blockDim.x + threadIdx.x; i0 < n; i0 += 4 * step) {{
    {t} v[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) {{ const i64 i = i0 + u * step; v[u] = i < n ? __ldcs(x + i) : ({t})XP_NAN; }}
#pragma unroll
    for (int u = 0; u < 4; ++u) {{
      const i64 i = i0 + u * step;
      if (v[u] >= first && v[u] <= last) atomicAdd({bins} + find({edges}, nb, v[u], lo, scale), {one});
      (void)i;
    }}
  }}
  {flush}
}}\n"
    )
}

/// The digit-counting kernel of a radix selection for values of dtype `d` (float32/float64):
/// keys as [`xp_core::select::RadixKey`] makes them.
fn radix_src(d: DType) -> String {
    let (t, u, bits, top) = match d {
        DType::F32 => ("float", "u32", "__float_as_uint", "0x80000000u"),
        _ => ("double", "u64", "(u64)__double_as_longlong", "0x8000000000000000ull"),
    };
    format!(
        "{PRELUDE}
__device__ __forceinline__ u64 key({t} x) {{
  const {u} u = {bits}(x);
  if (x != x) return (u64)({u})~({u})0;
  return (u64)((u & {top}) ? ({u})~u : ({u})(u | {top}));
}}
extern \"C\" __global__ void XP_NAME(select_digits)(const {t}* __restrict__ x, i64 n, int shift, int bits, u64 mask, u64 prefix,
                                 u64* __restrict__ out) {{
  __shared__ u32 bins[1 << {digit}];
  const int nb = 1 << bits;
  const u64 dm = (u64)nb - 1;
  for (int q = threadIdx.x; q < nb; q += blockDim.x) bins[q] = 0;
  __syncthreads();
  const i64 step = (i64)gridDim.x * blockDim.x;
  for (i64 i0 = (i64)blockIdx.x * blockDim.x + threadIdx.x; i0 < n; i0 += 4 * step) {{
    u64 k[4];
    bool in[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) {{ const i64 i = i0 + u * step; in[u] = i < n; k[u] = in[u] ? key(__ldcs(x + i)) : 0; }}
#pragma unroll
    for (int u = 0; u < 4; ++u)
      if (in[u] && (k[u] & mask) == prefix) atomicAdd(bins + ((k[u] >> shift) & dm), 1u);
  }}
  __syncthreads();
  for (int q = threadIdx.x; q < nb; q += blockDim.x) if (bins[q] != 0) atomicAdd(out + q, (u64)bins[q]);
}}\n",
        digit = xp_core::select::DIGIT
    )
}

impl StatsStorage for CudaStorage {
    fn radix_counts(&self, l: &Layout, p: RadixPass) -> Result<Vec<u64>> {
        let op = "radix_counts";
        let d = self.dtype;
        if !matches!(d, DType::F32 | DType::F64) || p.bits > xp_core::select::DIGIT {
            return Err(Error::InvalidDType { op, dtype: d });
        }
        if !l.is_contiguous() {
            return Err(Error::invalid(op, "the backend takes contiguous values"));
        }
        let (n, nb) = (l.numel(), 1usize << p.bits);
        let out = CudaStorage::alloc(&self.dev, DType::I64, nb)?;
        let used = [self, &out];
        let wk = self.dev.work(&used)?;
        self.dev.bind()?;
        // SAFETY: zeroes the counts just allocated, nb elements of 8 bytes.
        unsafe { cudarc::driver::result::memset_d8_async(out.buf.ptr, 0, nb * 8, wk.stream().cu_stream()) }
            .map_err(driver_err)?;
        if n > 0 {
            let key = Key::new(Family::RadixSelect).dtype(d);
            let f = self.dev.kernel(key, "select_digits", || Source::new(d.name(), radix_src(d)))?;
            let blocks = (n.div_ceil(4 * THREADS as usize)).min(4 * self.dev.sms).max(1) as u32;
            let cfg = LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (THREADS, 1, 1), shared_mem_bytes: 0 };
            let (nn, shift, bits) = (n as i64, p.shift as i32, p.bits as i32);
            let x = self.buf.ptr + (l.offset() * d.size()) as u64;
            let args: [&dyn Param; 7] = [&x, &nn, &shift, &bits, &p.mask, &p.prefix, &out.buf.ptr];
            // SAFETY: the arguments match the kernel; it reads n values and adds into the nb
            // counts of `out` (nb at most the shared array's 2^DIGIT).
            unsafe { wk.launch(&f, cfg, &args) }?;
        }
        wk.done()?;
        let counts = out.to_host(&Layout::contiguous(&[nb]))?;
        match counts {
            xp_core::HostBuffer::I64(v) => Ok(v.into_iter().map(|c| c as u64).collect()),
            _ => Err(Error::invalid(op, "counts were not int64")),
        }
    }

    fn histogram(&self, l: &Layout, edges: &Self, weights: Option<&Self>) -> Result<Self> {
        let op = "histogram";
        let d = self.dtype;
        if !matches!(d, DType::F32 | DType::F64) || edges.dtype != d || edges.len < 2 {
            return Err(Error::InvalidDType { op, dtype: d });
        }
        if !l.is_contiguous() || weights.is_some_and(|w| w.dtype != DType::F64 || w.len < l.numel()) {
            return Err(Error::invalid(op, "the backend takes contiguous values and float64 weights"));
        }
        let (n, nb) = (l.numel(), edges.len - 1);
        let weighted = weights.is_some();
        let out = CudaStorage::alloc(&self.dev, if weighted { DType::F64 } else { DType::I64 }, nb)?;
        let mut used = vec![self, edges, &out];
        used.extend(weights);
        let wk = self.dev.work(&used)?;
        self.dev.bind()?;
        // SAFETY: zeroes the result just allocated, nb elements of 8 bytes.
        unsafe { cudarc::driver::result::memset_d8_async(out.buf.ptr, 0, nb * 8, wk.stream().cu_stream()) }
            .map_err(driver_err)?;
        if n > 0 {
            let smem = 8 * (nb + 1).div_ceil(2) * 2 + (nb + 1) * d.size();
            let shared = smem <= SMEM;
            let key = Key::new(Family::Histogram).bits(1, u64::from(weighted)).bits(1, u64::from(shared)).dtype(d);
            let f = self.dev.kernel(key, "histogram", || {
                let spec = format!(
                    "{}{}{}",
                    d.name(),
                    if weighted { "_weighted" } else { "" },
                    if shared { "_shared" } else { "" }
                );
                Source::new(spec, src(d, weighted, shared))
            })?;
            // Enough blocks for every SM several times over, each with its own bins.
            let blocks = (n.div_ceil(4 * THREADS as usize)).min(4 * self.dev.sms).max(1) as u32;
            let cfg = LaunchConfig {
                grid_dim: (blocks, 1, 1),
                block_dim: (THREADS, 1, 1),
                shared_mem_bytes: if shared { smem as u32 } else { 0 },
            };
            let (nn, nbi) = (n as i64, nb as i32);
            let x = self.buf.ptr + (l.offset() * d.size()) as u64;
            let wp = weights.map_or(out.buf.ptr, |w| w.buf.ptr);
            let args: [&dyn Param; 6] = [&x, &nn, &edges.buf.ptr, &nbi, &wp, &out.buf.ptr];
            // SAFETY: the arguments match the kernel; it reads n values (and weights), nb + 1
            // edges, and adds into the nb bins of `out`.
            unsafe { wk.launch(&f, cfg, &args) }?;
        }
        wk.done()?;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::tests_support::syntax_check;

    #[test]
    fn histogram_kernels_parse() {
        for d in [DType::F32, DType::F64] {
            for (w, s) in [(false, false), (false, true), (true, false), (true, true)] {
                syntax_check(&format!("histogram-{}-{w}-{s}", d.name()), &src(d, w, s));
            }
            syntax_check(&format!("radix-{}", d.name()), &radix_src(d));
        }
    }
}
