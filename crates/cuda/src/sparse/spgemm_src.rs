//! CUDA source of the sparse product `C = A B` (`spgemm.rs` has the plan): per row of `A`, a hash
//! table of `C`'s columns (linear probing on a multiplicative hash) whose values add up by
//! atomics, in shared memory for a warp per row where the row's products fit, in global memory
//! for a block per row otherwise.
use crate::codegen::{compute_ty, storage_ty, PRELUDE};
use xp_core::DType;

/// The accumulator type of `d` in a table, parts per value (2 for complex), and the expression
/// of a stored value from the parts at `v`.
fn accumulator(d: DType) -> (&'static str, usize, String) {
    let t = storage_ty(d);
    match d {
        DType::F16 | DType::BF16 | DType::F32 => ("float", 1, crate::codegen::store(d, "v[0]")),
        DType::F64 => ("double", 1, "v[0]".into()),
        DType::C64 => ("float", 2, "cf{v[0], v[1]}".into()),
        DType::C128 => ("double", 2, "cd{v[0], v[1]}".into()),
        DType::I64 | DType::U64 => ("u64", 1, format!("({t})v[0]")),
        DType::Bool => ("unsigned", 1, "v[0] != 0u".into()),
        // integers of up to 32 bits add modulo 2^32, then wrap to their width (NumPy's result)
        _ => ("unsigned", 1, format!("({t})v[0]")),
    }
}

/// The dtype of a table's value parts for values of `d`, and parts per value.
pub(super) fn table_dtype(d: DType) -> (DType, usize) {
    let (acc, parts, _) = accumulator(d);
    let t = match acc {
        "float" => DType::F32,
        "double" => DType::F64,
        "u64" => DType::U64,
        _ => DType::U32,
    };
    (t, parts)
}

/// Bytes of one table slot of `d` (a 32-bit column and the value's parts).
pub(super) fn slot_bytes(d: DType) -> usize {
    let (t, parts) = table_dtype(d);
    4 + parts * t.size()
}

/// The kernels for values of `d`, indices of `ix` (int32 or int64) in `A` and `B` and `ox` in
/// the result: `spgemm_bound` (each row's product count), `spgemm_warp` and `spgemm_block`.
/// Mode 0 counts each listed row's distinct columns into `counts`; mode 1 writes them from the
/// row's offset, `inc[r - 1]` of the counts' inclusive sums `inc` (zero sums included: the
/// caller drops them); `spgemm_ptr` writes the offsets as the result's index dtype.
pub(super) fn source(d: DType, ix: DType, ox: DType, warp_slots: usize) -> String {
    let (t, c, i, o) = (storage_ty(d), compute_ty(d), storage_ty(ix), storage_ty(ox));
    let (acc, parts, fin) = accumulator(d);
    let add = if parts == 2 {
        "atomicAdd(v, x.re); atomicAdd(v + 1, x.im);".to_string()
    } else if acc == "float" || acc == "double" {
        "atomicAdd(v, x);".to_string()
    } else {
        format!("atomicAdd(v, ({acc})x);")
    };
    format!(
        "{PRELUDE}
#define WS {warp_slots}
__device__ __forceinline__ void addv({acc}* v, {c} x) {{ {add} }}
__device__ __forceinline__ {t} fin(const {acc}* v) {{ return {fin}; }}

extern \"C\" __global__ void XP_NAME(spgemm_bound)(const {i}* __restrict__ ap, const {i}* __restrict__ ai,
    const {i}* __restrict__ bp, i64 m, i64* __restrict__ ub) {{
  for (i64 r = (i64)blockIdx.x * blockDim.x + threadIdx.x; r < m; r += (i64)gridDim.x * blockDim.x) {{
    i64 s = 0;
    for (i64 j = ap[r]; j < ap[r + 1]; ++j) {{ const i64 k = ai[j]; s += (i64)bp[k + 1] - (i64)bp[k]; }}
    ub[r] = s;
  }}
}}

// Inserts the products of row r into the table (keys: column or -1) of `ts` slots (a power of
// two) by a group of `gs` threads of which this is `g`: the group's warps take A's values in
// turn, the lanes of a warp B's row.
__device__ __forceinline__ void fill_row(const {i}* __restrict__ ap, const {i}* __restrict__ ai,
    const {t}* __restrict__ ad, const {i}* __restrict__ bp, const {i}* __restrict__ bi, const {t}* __restrict__ bd,
    i64 r, int* keys, {acc}* vals, unsigned ts, int g, int gs, int mode) {{
  const int lane = g & 31, w = g >> 5, nw = (gs + 31) >> 5;
  for (i64 j = (i64)ap[r] + w; j < (i64)ap[r + 1]; j += nw) {{
    const i64 k = ai[j];
    const {c} av = ({c})ld(ad[j]);
    for (i64 p = (i64)bp[k] + lane; p < (i64)bp[k + 1]; p += 32) {{
      const int col = (int)bi[p];
      unsigned h = ((unsigned)col * 2654435761u) & (ts - 1);
      for (;;) {{
        const int prev = atomicCAS(keys + h, -1, col);
        if (prev == -1 || prev == col) break;
        h = (h + 1) & (ts - 1);
      }}
      if (mode) addv(vals + {parts} * h, b_multiply(av, ({c})ld(bd[p])));
    }}
  }}
}}

extern \"C\" __global__ void XP_NAME(spgemm_ptr)(const i64* __restrict__ inc, i64 m, {o}* __restrict__ indptr) {{
  for (i64 r = (i64)blockIdx.x * blockDim.x + threadIdx.x; r <= m; r += (i64)gridDim.x * blockDim.x)
    indptr[r] = r ? ({o})inc[r - 1] : ({o})0;
}}

// A warp per listed row (rows[q], or row q where `rows` is null; products ub[r] <= WS / 2), its
// table in shared memory.
extern \"C\" __global__ void XP_NAME(spgemm_warp)(const {i}* __restrict__ ap, const {i}* __restrict__ ai,
    const {t}* __restrict__ ad, const {i}* __restrict__ bp, const {i}* __restrict__ bi, const {t}* __restrict__ bd,
    const i64* __restrict__ rows, i64 nrows, const i64* __restrict__ ub, int mode, i64* __restrict__ counts,
    const i64* __restrict__ inc, {o}* __restrict__ oi, {t}* __restrict__ od) {{
  __shared__ int keys_[4][WS];
  __shared__ {acc} vals_[4][{parts} * WS];
  const int w = threadIdx.x >> 5, lane = threadIdx.x & 31;
  int* keys = keys_[w];
  {acc}* vals = vals_[w];
  for (i64 q = (i64)blockIdx.x * 4 + w; q < nrows; q += (i64)gridDim.x * 4) {{
    const i64 r = rows ? rows[q] : q;
    if (ub[r] == 0) continue;  // (the warp's lanes share q)
    unsigned ts = 32;
    while (ts < 2 * ub[r]) ts <<= 1;
    for (unsigned s = lane; s < ts; s += 32) keys[s] = -1;
    if (mode) for (unsigned s = lane; s < {parts} * ts; s += 32) vals[s] = ({acc})0;
    __syncwarp();
    fill_row(ap, ai, ad, bp, bi, bd, r, keys, vals, ts, lane, 32, mode);
    __syncwarp();
    i64 n = 0;
    const i64 base = mode && r > 0 ? inc[r - 1] : 0;
    for (unsigned s0 = 0; s0 < ts; s0 += 32) {{
      const unsigned s = s0 + lane;
      const bool occ = keys[s] != -1;
      const unsigned b = __ballot_sync(0xffffffffu, occ);
      if (mode && occ) {{
        const i64 at = base + n + __popc(b & ((1u << lane) - 1u));
        oi[at] = ({o})keys[s];
        od[at] = fin(vals + {parts} * s);
      }}
      n += __popc(b);
    }}
    if (!mode && lane == 0) counts[r] = n;
    __syncwarp();
  }}
}}

// A block per listed row, its table of tsz[q] slots at toff[q] in global memory.
extern \"C\" __global__ void XP_NAME(spgemm_block)(const {i}* __restrict__ ap, const {i}* __restrict__ ai,
    const {t}* __restrict__ ad, const {i}* __restrict__ bp, const {i}* __restrict__ bi, const {t}* __restrict__ bd,
    const i64* __restrict__ rows, const i64* __restrict__ toff, const i64* __restrict__ tsz, int* tkeys, {acc}* tvals,
    int mode, i64* __restrict__ counts, const i64* __restrict__ inc, {o}* __restrict__ oi, {t}* __restrict__ od) {{
  __shared__ int wc[32];
  __shared__ i64 run;
  const i64 q = blockIdx.x, r = rows[q];
  const unsigned ts = (unsigned)tsz[q];
  int* keys = tkeys + toff[q];
  {acc}* vals = tvals + {parts} * toff[q];
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5, nw = blockDim.x >> 5;
  for (unsigned s = threadIdx.x; s < ts; s += blockDim.x) keys[s] = -1;
  if (mode) for (unsigned s = threadIdx.x; s < {parts} * ts; s += blockDim.x) vals[s] = ({acc})0;
  if (threadIdx.x == 0) run = 0;
  __syncthreads();
  fill_row(ap, ai, ad, bp, bi, bd, r, keys, vals, ts, threadIdx.x, blockDim.x, mode);
  __syncthreads();
  const i64 base = mode && r > 0 ? inc[r - 1] : 0;
  for (unsigned s0 = 0; s0 < ts; s0 += blockDim.x) {{
    const unsigned s = s0 + threadIdx.x;
    const bool occ = s < ts && keys[s] != -1;
    const unsigned b = __ballot_sync(0xffffffffu, occ);
    if (lane == 0) wc[w] = __popc(b);
    __syncthreads();
    i64 before = run;
    for (int v = 0; v < w; ++v) before += wc[v];
    if (mode && occ) {{
      const i64 at = base + before + __popc(b & ((1u << lane) - 1u));
      oi[at] = ({o})keys[s];
      od[at] = fin(vals + {parts} * s);
    }}
    __syncthreads();
    if (threadIdx.x == 0) for (int v = 0; v < nw; ++v) run += wc[v];
    __syncthreads();
  }}
  if (!mode && threadIdx.x == 0) counts[r] = run;
}}
"
    )
}
