//! `add.at` / `subtract.at` into a small destination (a histogram's bins) with shared-memory
//! accumulators: the destination is cut into `R` ranges that each fit one block's shared memory;
//! block `(c, r)` reads chunk `c` of the positions, adds each value whose target lies in range `r`
//! to its shared accumulator (a shared-memory atomic, no trip to L2), and writes the range's sums
//! to row `c` of a partial buffer; a second kernel adds the `C` rows into the destination.
//!
//! The two blocks of a chunk are neighbours in launch order, so the second read of the chunk's
//! indices mostly hits L2. Integer sums are exact (wrapping, as the atomics); float sums are
//! grouped by block, within a summation's rounding of NumPy's sequential order, as the atomic path.
//! Only the staged path (`scatter.rs`: a contiguous copy of the destination, the index check in
//! the kernel) uses it.
use super::flag::Flag;
use super::scatter::checked_target;
use super::{offsets, Addr, COMMON};
use crate::codegen::{storage_ty, PRELUDE};
use crate::device::{driver_err, knob, Key};
use crate::storage::{after, before, CudaStorage, Idx};
use cudarc::driver::{LaunchConfig, PushKernelArg};
use xp_core::{BinaryOp, DType, Result};

/// Threads per block of the accumulating kernel.
const THREADS: u32 = 1024;
/// Shared memory an H100 block may use, less the driver's reserve.
const SMEM_MAX: usize = 227 * 1024;
/// At most this many ranges (each chunk of positions is read once per range).
const MAX_RANGES: usize = 4;

/// Shared memory one range may take (`XP_AT_SMEM_KB`, default 96 KB: 2^16 float32 bins in three
/// ranges, two blocks per SM; on the H100 2^24 values took 0.253 ms so, 0.308 ms in two ranges of
/// 128 KB with one block per SM; four positions per thread and step made both slower: 0.461 and
/// 0.341 ms).
fn budget() -> usize {
    static B: std::sync::OnceLock<Option<usize>> = std::sync::OnceLock::new();
    knob(&B, "XP_AT_SMEM_KB").unwrap_or(96).clamp(8, 227) * 1024
}

/// The shape of one privatized `ufunc.at`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Plan {
    op: BinaryOp,
    dtype: DType,
    /// destination elements, ranges, elements per range, chunks of positions
    m: usize,
    ranges: usize,
    per_range: usize,
    chunks: usize,
}

impl Plan {
    /// The plan for `op` on a contiguous destination of `m` elements of `dst`'s dtype with `n`
    /// positions, or None when the op or dtype has no shared-memory add or the destination needs
    /// too many ranges.
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
        let ranges = (m * size).div_ceil(budget());
        if ranges > MAX_RANGES {
            return None;
        }
        let per_range = m.div_ceil(ranges);
        let per_sm = (SMEM_MAX / (per_range * size + 1024)).clamp(1, 2);
        let by_work = n.div_ceil(THREADS as usize * 16);
        let chunks = (sms * per_sm / ranges).clamp(1, by_work.max(1));
        Some(Plan { op, dtype, m, ranges, per_range, chunks })
    }

    /// Accumulate `v` at the positions of `a` into the partial buffer, then add it into `dst`
    /// (contiguous, `m` elements from element 0) — only when `flag` shows no index out of range,
    /// which the second kernel reads on the device, so that a failed call leaves `dst` as it was.
    pub(crate) fn run(&self, dst: &CudaStorage, a: &Addr<'_>, v: &CudaStorage, ix: &Idx, flag: &Flag) -> Result<()> {
        let dev = &dst.dev;
        let d = self.dtype;
        let part = CudaStorage::alloc(dev, d, self.chunks * self.m)?;
        let small = ix.n < 1 << 31;
        let key = Key::new(40).dtype(d).flag(self.op == BinaryOp::Sub).bits(4, a.k as u64).flag(small);
        let (f, _) = dev.kernel(key, "xp_k", || accumulate_src(d, self.op, a.k, small))?;
        let smem = self.per_range * d.size();
        if smem > 48 * 1024 {
            use cudarc::driver::sys::CUfunction_attribute_enum::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES as MAX;
            f.set_attribute(MAX, smem as i32).map_err(driver_err)?;
        }
        let s = dev.current();
        let mut ins = a.storages();
        ins.extend([v, dst, &part]);
        before(&s, &ins)?;
        let (m, e, r) = (self.m as i64, self.per_range as i64, self.ranges as i32);
        let (flag_ptr, nb) = (flag.ptr(), a.nb as i64);
        let mut b = s.launch_builder(&f);
        b.arg(&v.buf.ptr).arg(&a.ks).arg(ix).arg(&flag_ptr).arg(&nb).arg(&part.buf.ptr).arg(&m).arg(&e).arg(&r);
        let cfg = LaunchConfig {
            grid_dim: ((self.chunks * self.ranges) as u32, 1, 1),
            block_dim: (THREADS, 1, 1),
            shared_mem_bytes: smem as u32,
        };
        // SAFETY: parameters match the kernel; value offsets lie inside `v`'s validated layout,
        // targets are checked against the destination's `m` elements before use, the partial
        // buffer holds chunks × m elements and the dynamic shared memory one range (allowed above
        // 48 KB by the attribute).
        unsafe { b.launch(cfg) }.map_err(driver_err)?;
        let (f, _) = dev.kernel(Key::new(41).dtype(d), "xp_k", || reduce_src(d))?;
        let c = self.chunks as i64;
        let mut b = s.launch_builder(&f);
        b.arg(&dst.buf.ptr).arg(&part.buf.ptr).arg(&m).arg(&c).arg(&flag_ptr);
        // SAFETY: `dst` holds m elements, `part` chunks × m; the flag is one word.
        unsafe { b.launch(crate::storage::cfg(m)) }.map_err(driver_err)?;
        after(&s, &ins)
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

/// The accumulating kernel: block (c, r) = (blockIdx.x / R, blockIdx.x % R).
fn accumulate_src(d: DType, op: BinaryOp, k: usize, small: bool) -> String {
    let (st, at) = (storage_ty(d), acc_ty(d));
    let neg = if op == BinaryOp::Sub { "-" } else { "" };
    format!(
        "{PRELUDE}{COMMON}
extern \"C\" __global__ void __launch_bounds__({THREADS}) xp_k(const {st}* __restrict__ v, Ks ks, Idx ix, u64* flag, i64 nb,
                                                    {at}* __restrict__ part, i64 m, i64 e, int R) {{
  extern __shared__ cd acc_raw[];
  {at}* acc = ({at}*)acc_raw;
  const int r = blockIdx.x % R;
  const i64 c = blockIdx.x / R, C = gridDim.x / R;
  const i64 lo = r * e, len = lo >= m ? 0 : (m - lo < e ? m - lo : e);
  for (i64 q = threadIdx.x; q < len; q += blockDim.x) acc[q] = ({at})0;
  __syncthreads();
  const i64 per = (ix.n + C - 1) / C, s0 = c * per, s1 = (s0 + per < ix.n ? s0 + per : ix.n);
  for (i64 i = s0 + threadIdx.x; i < s1; i += blockDim.x) {{
    {offs}
    {t}
    const i64 o = p0 - lo;
    if ((u64)o < (u64)len) atomicAdd(acc + o, {neg}({at})v[p1]);
  }}
  __syncthreads();
  for (i64 q = threadIdx.x; q < len; q += blockDim.x) part[c * m + lo + q] = acc[q];
}}\n",
        offs = offsets(&[0, 1, 2], small),
        t = checked_target(k),
    )
}

/// `dst[j] += sum over c of part[c * m + j]`, unless the flag records an index out of range.
fn reduce_src(d: DType) -> String {
    let (st, at) = (storage_ty(d), acc_ty(d));
    format!(
        "{PRELUDE}
extern \"C\" __global__ void xp_k({st}* __restrict__ dst, const {at}* __restrict__ part, i64 m, i64 C,
                                   const u64* __restrict__ flag) {{
  if (*flag != ~0ull) return;
  const i64 step = (i64)gridDim.x * blockDim.x;
  for (i64 j = (i64)blockIdx.x * blockDim.x + threadIdx.x; j < m; j += step) {{
    {at} s = ({at})dst[j];
    for (i64 c = 0; c < C; ++c) s += part[c * m + j];
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
        // 2^16 float32 bins: three ranges of 21846 (85 KB), two blocks per SM.
        let p = Plan::for_shape(BinaryOp::Add, DType::F32, 1 << 16, 1 << 24, 132).expect("a plan");
        assert_eq!((p.ranges, p.per_range, p.chunks), (3, 21846, 88));
        for (d, m, n) in [(DType::F64, 1000, 1 << 20), (DType::I32, 1, 5), (DType::U64, 40_000, 1 << 22)] {
            let p = Plan::for_shape(BinaryOp::Sub, d, m, n, 132).expect("a plan");
            assert!(p.ranges * p.per_range >= m && p.per_range * d.size() <= SMEM_MAX);
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
