// xp sort library, compiled after the prelude and a dtype's key header (keys.rs): the warp-level
// multisplit of 8-bit digits and the stable block-wide rank that both the device-wide radix sort
// (onesweep.cu) and the per-line sorts (segment.cu) are built on, plus small shared helpers.
#define XP_FULL 0xffffffffu
#ifndef XP_RANK
#define XP_RANK 0
#endif

// Exclusive scan of one value per thread over the block, in thread order: warp shuffles, then the
// warp totals through `wsum` (one slot per warp; the caller syncs before `wsum` is written again).
__device__ __forceinline__ u32 block_excl_scan(u32 v, u32* wsum, int lane, int w) {
  u32 x = v;
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {
    const u32 y = __shfl_up_sync(XP_FULL, x, o);
    if (lane >= o) x += y;
  }
  if (lane == 31) wsum[w] = x;
  __syncthreads();
  u32 excl = x - v;
  for (int q = 0; q < w; ++q) excl += wsum[q];
  return excl;
}

// The lanes of the calling warp whose digit equals `d`: eight ballots, one per digit bit (CUB's
// MatchAny does the same; match.any.sync is slower).
__device__ __forceinline__ u32 warp_peers(u32 d) {
  u32 m = XP_FULL;
#pragma unroll
  for (int b = 0; b < 8; ++b) {
    const bool bit = (d >> b) & 1u;
    const u32 v = __ballot_sync(XP_FULL, bit);
    m &= bit ? v : ~v;
  }
  return m;
}

// `v` from lane `lane ^ m`, for any plain type (moved as 32-bit words through a union).
template <class T> __device__ __forceinline__ T shfl_xor_any(T v, int m) {
  constexpr int W = (int)((sizeof(T) + 3) / 4);
  union {
    T v;
    u32 w[W];
  } u;
#pragma unroll
  for (int q = 0; q < W; ++q) u.w[q] = 0u;
  u.v = v;
#pragma unroll
  for (int q = 0; q < W; ++q) u.w[q] = __shfl_xor_sync(XP_FULL, u.w[q], m);
  return u.v;
}

// The element offset of position `pos` of index space `k` for operand `op`.
__device__ __forceinline__ i64 idx_offset(const Idx& k, int op, i64 pos) {
  i64 o = k.off[op];
  for (int d = (int)k.nd - 1; d >= 0; --d) {
    const i64 q = pos % k.shape[d];
    pos /= k.shape[d];
    o += q * k.st[op][d];
  }
  return o;
}

// Stable block-wide rank of ITEMS 8-bit digits per thread, WARPS warps; `dig(i)` gives the digit of
// the thread's item i (recomputed where needed rather than held in ITEMS more registers). Items
// are warp-striped: item i of lane l in warp w is block position w * ITEMS * 32 + i * 32 + l. On
// return rank[i] is
// the item's position in the block's items stably sorted by digit, tot[d] the block's count of
// digit d and start[d] the exclusive prefix of those counts (d < 256).
// Shared memory: wc[2 * WARPS * 256] (per-warp digit counters, then per-warp peer words),
// tot[256], start[256], wsum[WARPS].
// XP_RANK picks how a warp finds the lanes that share a digit: 0 eight ballots (warp_peers), 1
// each lane ors its bit into its warp's word of the digit, 2 match.any.sync.
// Starts with a barrier-protected clear of wc and ends with a barrier after which tot and start
// are readable by every thread; wc is read until the function returns.
template <int WARPS, int ITEMS, class Dig>
__device__ __forceinline__ void block_rank(const Dig& dig, u32 (&rank)[ITEMS], u32* wc, u32* tot, u32* start,
                                           u32* wsum) {
  constexpr int T = WARPS * 32;
  constexpr int DPT = T >= 256 ? 1 : 256 / T;  // digits per thread in the digit scan
  const int t = threadIdx.x, lane = t & 31, w = t >> 5;
  for (int q = t; q < (XP_RANK == 1 ? 2 : 1) * WARPS * 256; q += T) wc[q] = 0u;
  __syncthreads();
  // Warp multisplit, item by item (lane order within an item, items in order: stable). The lowest
  // lane of each group of equal digits updates its warp's counter for the whole group.
  u32* mine = wc + w * 256;
  u32* pw = wc + (WARPS + w) * 256;
  const u32 below = (1u << lane) - 1u;
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    const u32 d = dig(i);
#if XP_RANK == 1
    atomicOr(&pw[d], 1u << lane);
    __syncwarp();
    const u32 peers = pw[d];
    __syncwarp();
#elif XP_RANK == 2
    const u32 peers = __match_any_sync(XP_FULL, d);
#else
    const u32 peers = warp_peers(d);
#endif
    const int leader = __ffs(peers) - 1;
    u32 old = 0u;
    if (lane == leader) {
      old = mine[d];
      mine[d] = old + (u32)__popc(peers);
      if (XP_RANK == 1) pw[d] = 0u;
    }
    old = __shfl_sync(XP_FULL, old, leader);
    rank[i] = old + (u32)__popc(peers & below);
    __syncwarp();
  }
  __syncthreads();
  // Per digit: the warps' counts become warp-exclusive prefixes; the digit's block total.
  u32 sum = 0u, loc[DPT];
  if (t * DPT < 256) {
#pragma unroll
    for (int q = 0; q < DPT; ++q) {
      const int d = t * DPT + q;
      u32 run = 0u;
      for (int ww = 0; ww < WARPS; ++ww) {
        const u32 c = wc[ww * 256 + d];
        wc[ww * 256 + d] = run;
        run += c;
      }
      tot[d] = run;
      loc[q] = sum;
      sum += run;
    }
  }
  // Exclusive scan of the threads' sums (digits in order).
  const u32 excl = block_excl_scan(sum, wsum, lane, w);
  if (t * DPT < 256) {
#pragma unroll
    for (int q = 0; q < DPT; ++q) start[t * DPT + q] = excl + loc[q];
  }
  __syncthreads();
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    const u32 d = dig(i);
    rank[i] += start[d] + mine[d];
  }
}
