//! `add.at` / `subtract.at` into a small destination (a histogram's bins) with shared-memory
//! accumulators, in one pass over the positions: each block holds the first `S` elements of the
//! destination in shared memory (as many as fit, up to 224 KB), reads its chunk of the positions
//! once, adds each value whose target lies below `S` to its shared accumulator (a shared-memory
//! atomic, no trip to L2) and the others to a tail buffer in global memory (L2 atomics, as CuPy
//! does for every value); then it writes its `S` sums to row `c` of a partial buffer, and a second
//! kernel adds the rows and the tail into the destination.
//!
//! Four positions per thread are loaded before their atomics, so that each thread has four loads
//! in flight: one block of 1024 threads fills an SM's shared memory. On the H100 2^24 float32
//! values into 2^16 bins (57344 shared, the rest in the tail) took 0.129 ms against CuPy's
//! 0.292 (`benches/experiments/at_take.py`); the earlier design, three ranges of 96 KB each
//! reading every position once per range, took 0.25 ms. Destinations with more than twice `S`
//! elements go to the plain atomic path.
//!
//! Integer sums are exact (wrapping, as the atomics); float sums are grouped by block, within a
//! summation's rounding of NumPy's sequential order, as the atomic path. Only the staged path
//! (`scatter.rs`: the index check in the kernel) uses it.
use super::flag::Flag;
use super::{offsets, Addr, COMMON};
use crate::codegen::{storage_ty, PRELUDE};
use crate::runtime::buffer::CudaStorage;
use crate::runtime::device::{driver_err, knob};
use crate::runtime::launch::{Family, Key, Param, Source};
use crate::space::Idx;
use cudarc::driver::LaunchConfig;
use xp_core::{BinaryOp, DType, Result};

/// Threads per block of the accumulating kernel.
const THREADS: u32 = 1024;
/// Positions each thread loads before it adds them.
const UNROLL: usize = 4;
/// Shared memory an H100 block may use, less the driver's reserve.
const SMEM_MAX: usize = 227 * 1024;

/// Shared memory the accumulators may take (`XP_AT_SMEM_KB`, default 224 KB: 57344 float32 bins,
/// one block per SM; 112 KB with two blocks per SM took 0.230 ms for the case above).
fn budget() -> usize {
    static B: std::sync::OnceLock<Option<usize>> = std::sync::OnceLock::new();
    knob(&B, "XP_AT_SMEM_KB").unwrap_or(224).clamp(8, 224) * 1024
}

/// The shape of one privatized `ufunc.at`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Plan {
    op: BinaryOp,
    dtype: DType,
    /// destination elements, those accumulated in shared memory, blocks (chunks of positions)
    m: usize,
    shared: usize,
    chunks: usize,
}

impl Plan {
    /// The plan for `op` on a contiguous destination of `m` elements of `dst`'s dtype with `n`
    /// positions, or None when the op or dtype has no shared-memory add or fewer than half the
    /// destination's elements fit in shared memory.
    pub(crate) fn new(dst: &CudaStorage, op: BinaryOp, m: usize, n: usize) -> Option<Plan> {
        Plan::for_shape(op, dst.dtype, m, n, dst.dev.sms)
    }

    fn for_shape(op: BinaryOp, dtype: DType, m: usize, n: usize, sms: usize) -> Option<Plan> {
        use DType::*;
        let ok_dtype = matches!(dtype, F32 | F64 | I32 | U32 | I64 | U64);
        if !matches!(op, BinaryOp::Add | BinaryOp::Sub) || !ok_dtype || m == 0 || n == 0 {
            return None;
        }
        let size = dtype.size();
        let shared = m.min(budget() / size);
        if m > 2 * shared {
            return None;
        }
        let per_sm = (SMEM_MAX / (shared * size + 1024)).clamp(1, 2);
        let by_work = n.div_ceil(THREADS as usize * 16);
        let chunks = (sms * per_sm).clamp(1, by_work.max(1));
        Some(Plan { op, dtype, m, shared, chunks })
    }

    /// Accumulate `v` at the positions of `a` into the partial buffer, then add it into `dst`
    /// (contiguous, `m` elements from element 0) — only when `flag` shows no index out of range,
    /// which the second kernel reads on the device, so that a failed call leaves `dst` as it was.
    pub(crate) fn run(&self, dst: &CudaStorage, a: &Addr<'_>, v: &CudaStorage, ix: &Idx, flag: &Flag) -> Result<()> {
        let dev = &dst.dev;
        let d = self.dtype;
        let (rows, tail) = (self.chunks * self.shared, self.m - self.shared);
        let part = CudaStorage::alloc(dev, d, rows + tail)?;
        let s = dev.current();
        if tail > 0 {
            dev.bind()?;
            // SAFETY: the block holds rows + tail elements; the fill is ordered on the current
            // stream, before the kernels that add into the tail.
            unsafe { cudarc::driver::result::memset_d8_async(part.ptr(rows), 0, tail * d.size(), s.cu_stream()) }
                .map_err(driver_err)?;
        }
        let small = ix.n < 1 << 31;
        let key =
            Key::new(Family::PrivatizedScatter).dtype(d).flag(self.op == BinaryOp::Sub).bits(4, a.k as u64).flag(small);
        let k = dev.kernel(key, "scatter_privatized", || {
            let spec = format!("{}_{}_k{}{}", d.name(), self.op.name(), a.k, if small { "_i32" } else { "" });
            Source::new(spec, accumulate_src(d, self.op, a.k, small))
        })?;
        let smem = self.shared * d.size();
        if smem > 48 * 1024 {
            use cudarc::driver::sys::CUfunction_attribute_enum::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES as MAX;
            k.f.set_attribute(MAX, smem as i32).map_err(driver_err)?;
        }
        let mut ins = a.storages();
        ins.extend([v, dst, &part]);
        let w = dev.work(&ins)?;
        let (m, sh) = (self.m as i64, self.shared as i64);
        let (flag_ptr, nb, tail_ptr) = (flag.ptr(), a.nb as i64, part.ptr(rows));
        let args: [&dyn Param; 9] = [&v.buf.ptr, &a.ks, ix, &flag_ptr, &nb, &part.buf.ptr, &tail_ptr, &m, &sh];
        let cfg = LaunchConfig {
            grid_dim: (self.chunks as u32, 1, 1),
            block_dim: (THREADS, 1, 1),
            shared_mem_bytes: smem as u32,
        };
        // SAFETY: parameters match the kernel; value offsets lie inside `v`'s validated layout,
        // targets are checked against the destination's `m` elements before use, the partial
        // buffer holds chunks × S elements and the m − S of the tail, and the dynamic shared
        // memory S (allowed above 48 KB by the attribute).
        unsafe { w.launch(&k, cfg, &args) }?;
        let key = Key::new(Family::PrivatizedReduce).dtype(d);
        let k = dev.kernel(key, "scatter_privatized_sum", || Source::new(d.name(), reduce_src(d)))?;
        let c = self.chunks as i64;
        let args: [&dyn Param; 7] = [&dst.buf.ptr, &part.buf.ptr, &tail_ptr, &m, &sh, &c, &flag_ptr];
        // SAFETY: `dst` holds m elements, `part` chunks × S and then the tail; the flag is one word.
        unsafe { w.launch(&k, crate::runtime::launch::cfg(m), &args) }?;
        w.done()
    }
}

/// The accumulator type of `d` (unsigned for integers: wrapping sums).
fn acc_ty(d: DType) -> &'static str {
    match d {
        DType::F32 => "float",
        DType::F64 => "double",
        DType::I32 | DType::U32 => "unsigned",
        _ => "unsigned long long",
    }
}

/// The accumulating kernel: block `c` takes chunk `c` of the positions, `UNROLL` per thread and
/// step: first every load (the indices and values of all `UNROLL`, so that they are in flight
/// together: a check's `atomicMin` between them would order the later loads after it), then the
/// checks, then the atomics; targets below `S` go to shared memory, the others to the tail, and an
/// index out of range (recorded in the flag) nowhere.
fn accumulate_src(d: DType, op: BinaryOp, k: usize, small: bool) -> String {
    let (st, at) = (storage_ty(d), acc_ty(d));
    let neg = if op == BinaryOp::Sub { "-" } else { "" };
    let ok = super::flag::check_code("c", "j", "b[u]");
    format!(
        "{PRELUDE}{COMMON}
extern \"C\" __global__ void __launch_bounds__({THREADS}) XP_NAME(scatter_privatized)(const {st}* __restrict__ v, Ks ks, Idx ix, u64* flag, i64 nb,
                                                    {at}* __restrict__ part, {at}* tail, i64 m, i64 S) {{
  extern __shared__ cd acc_raw[];
  {at}* acc = ({at}*)acc_raw;
  for (i64 q = threadIdx.x; q < S; q += blockDim.x) acc[q] = ({at})0;
  __syncthreads();
  const i64 C = gridDim.x, per = (ix.n + C - 1) / C, s0 = blockIdx.x * per, s1 = (s0 + per < ix.n ? s0 + per : ix.n);
  for (i64 i0 = s0 + threadIdx.x; i0 < s1; i0 += {UNROLL} * (i64)blockDim.x) {{
    i64 t[{UNROLL}], b[{UNROLL}], raw[{UNROLL}][{k}]; {at} x[{UNROLL}]; bool live[{UNROLL}];
#pragma unroll
    for (int u = 0; u < {UNROLL}; ++u) {{
      const i64 i = i0 + u * (i64)blockDim.x;
      live[u] = i < s1;
      if (live[u]) {{
        {offs}
        t[u] = p0; b[u] = p2; x[u] = {neg}({at})__ldcs(v + p1);
#pragma unroll
        for (int j = 0; j < {k}; ++j) raw[u][j] = __ldcs(ks.p[j] + p2);
      }}
    }}
#pragma unroll
    for (int u = 0; u < {UNROLL}; ++u) {{
      if (!live[u]) {{ t[u] = -1; continue; }}
      bool inb = true;
#pragma unroll
      for (int j = 0; j < {k}; ++j) {{ const i64 c = fix<0>(raw[u][j], ks.len[j]); inb &= {ok}; t[u] += c * ks.st[j]; }}
      if (!inb) t[u] = -1;
    }}
#pragma unroll
    for (int u = 0; u < {UNROLL}; ++u) {{
      if ((u64)t[u] < (u64)S) atomicAdd(acc + t[u], x[u]);
      else if ((u64)t[u] < (u64)m) atomicAdd(tail + (t[u] - S), x[u]);
    }}
  }}
  __syncthreads();
  for (i64 q = threadIdx.x; q < S; q += blockDim.x) part[blockIdx.x * S + q] = acc[q];
}}\n",
        offs = offsets(&[0, 1, 2], small),
    )
}

/// `dst[j] += sum over c of part[c * S + j]` below `S`, `dst[j] += tail[j - S]` from `S` on, unless
/// the flag records an index out of range.
fn reduce_src(d: DType) -> String {
    let (st, at) = (storage_ty(d), acc_ty(d));
    format!(
        "{PRELUDE}
extern \"C\" __global__ void XP_NAME(scatter_privatized_sum)({st}* __restrict__ dst, const {at}* __restrict__ part, const {at}* __restrict__ tail,
                                   i64 m, i64 S, i64 C, const u64* __restrict__ flag) {{
  if (*flag != ~0ull) return;
  const i64 step = (i64)gridDim.x * blockDim.x;
  for (i64 j = (i64)blockIdx.x * blockDim.x + threadIdx.x; j < m; j += step) {{
    {at} s = ({at})dst[j];
    if (j < S) {{
#pragma unroll 8
      for (i64 c = 0; c < C; ++c) s += part[c * S + j];
    }} else {{
      s += tail[j - S];
    }}
    dst[j] = ({st})s;
  }}
}}\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::tests_support::syntax_check;

    #[test]
    fn plans_cover_the_destination_within_shared_memory() {
        // 2^16 float32 bins: 57344 in shared memory (224 KB), the rest in the tail, a block per SM.
        let p = Plan::for_shape(BinaryOp::Add, DType::F32, 1 << 16, 1 << 24, 132).expect("a plan");
        assert_eq!((p.shared, p.chunks), (57344, 132));
        for (d, m, n) in [(DType::F64, 1000, 1 << 20), (DType::I32, 1, 5), (DType::U64, 40_000, 1 << 22)] {
            let p = Plan::for_shape(BinaryOp::Sub, d, m, n, 132).expect("a plan");
            assert!(p.shared <= m && 2 * p.shared >= m && p.shared * d.size() <= SMEM_MAX);
            assert!(p.chunks >= 1 && p.chunks <= 264);
        }
        assert!(Plan::for_shape(BinaryOp::Mul, DType::F32, 100, 1000, 132).is_none());
        assert!(Plan::for_shape(BinaryOp::Add, DType::F16, 100, 1000, 132).is_none());
        assert!(Plan::for_shape(BinaryOp::Add, DType::F32, 1 << 20, 1 << 24, 132).is_none());
    }

    #[test]
    fn privatized_kernels_parse() {
        for d in [DType::F32, DType::F64, DType::I32, DType::U32, DType::I64, DType::U64] {
            for op in [BinaryOp::Add, BinaryOp::Sub] {
                syntax_check(&format!("at-acc-{}-{op:?}", d.name()), &accumulate_src(d, op, 2, true));
            }
            syntax_check(&format!("at-reduce-{}", d.name()), &reduce_src(d));
        }
    }
}
