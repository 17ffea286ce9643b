// merge, after the prelude, a key header and rank.cu: the stable merge of two sorted contiguous
// lines a (na values) and b (nb) into o (na + nb) in NumPy's order (key_lt), a's values first
// among equals (merge path). merge_cuts finds, for each tile of MERGE_TILE outputs, how many of
// its first outputs come from a (a binary search along the tile's first diagonal); merge then
// stages each tile's values in shared memory (coalesced reads), each thread merges MERGE_ITEMS
// consecutive outputs from there, and the tile goes back out through shared memory (coalesced
// writes): every value is read and written once.
#define MERGE_THREADS 256
#define MERGE_ITEMS 8
#define MERGE_TILE (MERGE_THREADS * MERGE_ITEMS)

// How many of the first d outputs of the merge of a and b come from a.
template <typename P>
__device__ __forceinline__ i64 merge_corank(P a, i64 na, P b, i64 nb, i64 d) {
  i64 lo = d > nb ? d - nb : 0, hi = d < na ? d : na;
  while (lo < hi) {
    const i64 mid = lo + ((hi - lo) >> 1);
    // a[mid] is among the first d unless b[d - 1 - mid] comes strictly before it
    if (!key_lt(b[d - 1 - mid], a[mid])) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

extern "C" __global__ void __launch_bounds__(256) XP_NAME(merge_cuts)(i64* __restrict__ cuts, const RAW* __restrict__ a, i64 na,
                                                      const RAW* __restrict__ b, i64 nb, i64 tiles) {
  const i64 step = (i64)gridDim.x * blockDim.x;
  for (i64 t = (i64)blockIdx.x * blockDim.x + threadIdx.x; t <= tiles; t += step) {
    const i64 d = t * MERGE_TILE < na + nb ? t * MERGE_TILE : na + nb;
    cuts[t] = merge_corank(a, na, b, nb, d);
  }
}

extern "C" __global__ void __launch_bounds__(MERGE_THREADS) XP_NAME(merge)(RAW* __restrict__ o, const RAW* __restrict__ a, i64 na,
                                                           const RAW* __restrict__ b, i64 nb,
                                                           const i64* __restrict__ cuts, i64 tiles) {
  __shared__ RAW s[MERGE_TILE];
  for (i64 tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const i64 d0 = tile * MERGE_TILE;
    const i64 a0 = cuts[tile], a1 = cuts[tile + 1];
    const i64 b0 = d0 - a0;
    const int la = (int)(a1 - a0);
    const int len = (int)((d0 + MERGE_TILE < na + nb ? d0 + MERGE_TILE : na + nb) - d0);
    const int lb = len - la;
    for (int k = threadIdx.x; k < len; k += MERGE_THREADS) s[k] = k < la ? a[a0 + k] : b[b0 + k - la];
    __syncthreads();
    // this thread's outputs start at diagonal t0 of the tile: s[0, la) is a's part, s[la, len) b's
    const int t0 = (int)threadIdx.x * MERGE_ITEMS < len ? (int)threadIdx.x * MERGE_ITEMS : len;
    const int i0 = (int)merge_corank(s, la, s + la, lb, t0);
    int i = i0, j = t0 - i0;
    RAW v[MERGE_ITEMS];
#pragma unroll
    for (int k = 0; k < MERGE_ITEMS; ++k) {
      if (t0 + k < len) {
        const bool from_a = j >= lb || (i < la && !key_lt(s[la + j], s[i]));
        v[k] = from_a ? s[i] : s[la + j];
        i += from_a;
        j += !from_a;
      }
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < MERGE_ITEMS; ++k)
      if (t0 + k < len) s[t0 + k] = v[k];
    __syncthreads();
    for (int k = threadIdx.x; k < len; k += MERGE_THREADS) o[d0 + k] = s[k];
    __syncthreads();
  }
}
