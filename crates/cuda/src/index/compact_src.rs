//! CUDA source of the compaction kernels (`nonzero`, `compress`).
//!
//! A tile is `16 × blockDim.x` positions of the flag source, 16 consecutive ones per thread, so
//! that a contiguous flag source loads in 16-byte vectors (one load per thread for a bool mask)
//! and a thread's kept positions form one run of the output. Three launches:
//! 1. `count`: a block per tile counts its kept positions (`__popc` of the thread's 16 flag bits,
//!    then a block scan) into `cnt[tile]`;
//! 2. `scan`: one block (of 1024 threads) turns the counts into exclusive tile offsets
//!    `offs[tile]`, with the total in `offs[tiles]` (what the host reads back);
//! 3. `write`: a block per tile recomputes its flags, deals them out in rounds of one position per
//!    thread (coalesced), ranks them with warp ballots and writes each kept element (the value),
//!    or its coordinates.
//!
//! The kernels only assume that `blockDim.x` is a multiple of 32 (or 1, which is how the host
//! tests run them on the CPU).
use super::COMMON;
use crate::codegen::{storage_ty, PRELUDE};
use xp_core::DType;

/// Items per thread of a compaction tile.
pub(crate) const IPT: usize = 16;

/// How a compaction reads a source: through a pre-offset pointer (`dense`, `vec` elements per
/// load) or through its slot of the indexer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Access {
    pub(crate) dtype: DType,
    pub(crate) dense: bool,
    pub(crate) vec: usize,
}

/// An access in a kernel's name: `f32_v4` (dense, packs of 4) or `f32_strided`.
pub(crate) fn access_spec(a: Access) -> String {
    if a.dense {
        format!("{}_v{}", a.dtype.name(), a.vec)
    } else {
        format!("{}_strided", a.dtype.name())
    }
}

/// What the write pass produces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Out {
    /// the kept elements of a second source (indexer slot 1)
    Values(Access),
    /// the C-order coordinates of each kept position, coordinate `d` of rank `r` at
    /// `o[r * rs + d * js]`
    Coords,
}

/// The device helpers of every compaction kernel: the test (nonzero, or true for a mask), the 16
/// flag bits of a thread and the block scan.
fn helpers(f: Access) -> String {
    let ft = storage_ty(f.dtype);
    let (dense, vf) = (f.dense, f.vec);
    format!(
        "{PRELUDE}{COMMON}
__device__ __forceinline__ bool tst({ft} x) {{ return !u_logical_not(ld(x)); }}
// The flags of positions e0 .. e0 + 16 (those below n) as bits.
__device__ __forceinline__ unsigned flags16(const {ft}* __restrict__ f, const Idx& ix, i64 e0, i64 n) {{
  unsigned bits = 0;
  if ({dense} && e0 + 16 <= n) {{
    const Pack<{vf}, {ft}>* q = (const Pack<{vf}, {ft}>*)(f + e0);
#pragma unroll
    for (int u = 0; u < 16 / {vf}; ++u) {{
      const Pack<{vf}, {ft}> w = q[u];
#pragma unroll
      for (int k = 0; k < {vf}; ++k) bits |= (unsigned)tst(w.v[k]) << (u * {vf} + k);
    }}
  }} else {{
    for (int u = 0; u < 16 && e0 + u < n; ++u) bits |= (unsigned)tst(f[{dense} ? e0 + u : at(ix, 0, e0 + u)]) << u;
  }}
  return bits;
}}
// The exclusive prefix of c over the block's threads and, in total, their sum. Every thread of
// the block calls it (it holds two barriers).
template <class T> __device__ __forceinline__ T block_excl(T c, T* ws, T& total) {{
  const int t = threadIdx.x, lane = t & 31, w = t >> 5, nw = ((int)blockDim.x + 31) >> 5;
  T x = c;
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {{ const T y = __shfl_up_sync(0xffffffffu, x, o); if (lane >= o) x += y; }}
  const int live = (int)blockDim.x - 32 * w < 32 ? (int)blockDim.x - 32 * w : 32;
  if (lane == live - 1) ws[w] = x;
  __syncthreads();
  T pre = x - c;
  total = 0;
  for (int q = 0; q < nw; ++q) {{ const T s = ws[q]; if (q < w) pre += s; total += s; }}
  __syncthreads();
  return pre;
}}
"
    )
}

/// The per-tile count kernel.
pub(crate) fn count_src(f: Access) -> String {
    let ft = storage_ty(f.dtype);
    format!(
        "{}
extern \"C\" __global__ void XP_NAME(compact_count)(const {ft}* __restrict__ f, Idx ix, i64 n, int* __restrict__ cnt) {{
  __shared__ int ws[32];
  const i64 ts = 16 * (i64)blockDim.x, tiles = (n + ts - 1) / ts;
  for (i64 tile = blockIdx.x; tile < tiles; tile += gridDim.x) {{
    int total;
    block_excl(__popc(flags16(f, ix, tile * ts + 16 * (i64)threadIdx.x, n)), ws, total);
    if (threadIdx.x == 0) cnt[tile] = total;
  }}
}}\n",
        helpers(f)
    )
}

/// The scan of `tiles` tile counts into exclusive offsets, the total last: one block, in rounds of
/// four consecutive counts per thread (coalesced), each round's block scan added to a carry.
pub(crate) fn scan_src() -> String {
    format!(
        "{}
extern \"C\" __global__ void __launch_bounds__(1024) XP_NAME(compact_scan)(const int* __restrict__ cnt, i64* __restrict__ offs, i64 tiles) {{
  __shared__ i64 ws[32];
  const i64 round = 4 * (i64)blockDim.x;
  i64 carry = 0;
  for (i64 r0 = 0; r0 < tiles; r0 += round) {{
    const i64 lo = r0 + 4 * (i64)threadIdx.x;
    i64 c[4], s = 0;
#pragma unroll
    for (int u = 0; u < 4; ++u) {{ c[u] = lo + u < tiles ? cnt[lo + u] : 0; s += c[u]; }}
    i64 total;
    i64 pre = carry + block_excl(s, ws, total);
#pragma unroll
    for (int u = 0; u < 4; ++u) if (lo + u < tiles) {{ offs[lo + u] = pre; pre += c[u]; }}
    carry += total;
  }}
  if (threadIdx.x == 0) offs[tiles] = carry;
}}\n",
        helpers(Access { dtype: DType::Bool, dense: true, vec: 1 })
    )
}

/// The write kernel: flags from `f`, output as `out` says.
///
/// The thread-contiguous flags (vector loads) are exchanged through shared memory so that round
/// `u` of a tile covers positions `u * blockDim.x + t`: each round's loads of values are
/// coalesced, and its kept elements, ranked by warp ballots and a scan of the (round, warp)
/// counts, land contiguously in the output, so its stores are coalesced too.
pub(crate) fn write_src(f: Access, out: Out) -> String {
    let ft = storage_ty(f.dtype);
    let (params, body) = match out {
        Out::Values(v) => {
            let vt = storage_ty(v.dtype);
            let at = if v.dense { "e" } else { "at(ix, 1, e)" };
            (format!("const {vt}* __restrict__ a, {vt}* __restrict__ o"), format!("if (bit) o[r] = a[{at}];"))
        }
        Out::Coords => (
            "i64* __restrict__ o, Dims dm, i64 rs, i64 js".into(),
            "if (bit) {
        i64 m = e, *q = o + r * rs;
        for (int d = (int)dm.nd - 1; d > 0; --d) { q[d * js] = m % dm.d[d]; m /= dm.d[d]; }
        if (dm.nd > 0) q[0] = m;
      }"
            .into(),
        ),
    };
    format!(
        "{}
struct Dims {{ i64 nd; i64 d[32]; }};
extern \"C\" __global__ void XP_NAME(compact_write)(const {ft}* __restrict__ f, Idx ix, i64 n, const i64* __restrict__ offs, {params}) {{
  __shared__ unsigned sb[1024]; __shared__ int wc[16 * 32]; __shared__ int ws[32];
  const int t = threadIdx.x, bd = blockDim.x, lane = t & 31, w = t >> 5, nw = (bd + 31) >> 5;
  const unsigned lt = (1u << lane) - 1u;
  const i64 ts = 16 * (i64)bd, tiles = (n + ts - 1) / ts;
  for (i64 tile = blockIdx.x; tile < tiles; tile += gridDim.x) {{
    const i64 base = tile * ts;
    sb[t] = flags16(f, ix, base + 16 * (i64)t, n);
    __syncthreads();
    // Round u, thread t: position u * bd + t of the tile.
    unsigned bits = 0;
#pragma unroll
    for (int u = 0; u < 16; ++u) {{ const int q = u * bd + t; bits |= ((sb[q >> 4] >> (q & 15)) & 1u) << u; }}
#pragma unroll
    for (int u = 0; u < 16; ++u) {{
      const unsigned m = __ballot_sync(0xffffffffu, (bits >> u) & 1u);
      if (lane == 0) wc[u * nw + w] = __popc(m);
    }}
    __syncthreads();
    {{
      // Exclusive scan of the (round, warp) counts in that order, a run of them per thread.
      const int m = 16 * nw, per = (m + bd - 1) / bd, lo = t * per, hi = lo + per < m ? lo + per : m;
      int s = 0;
      for (int q = lo; q < hi; ++q) s += wc[q];
      int total;
      int pre = block_excl(s, ws, total);
      for (int q = lo; q < hi; ++q) {{ const int c = wc[q]; wc[q] = pre; pre += c; }}
    }}
    __syncthreads();
    const i64 o0 = offs[tile];
#pragma unroll
    for (int u = 0; u < 16; ++u) {{
      const unsigned m = __ballot_sync(0xffffffffu, (bits >> u) & 1u);
      const bool bit = (bits >> u) & 1u;
      const i64 e = base + u * bd + t, r = o0 + wc[u * nw + w] + __popc(m & lt);
      {body}
    }}
    __syncthreads();
  }}
}}\n",
        helpers(f)
    )
}
