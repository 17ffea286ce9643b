// Per-line sorts, after the prelude, a key header and rank.cu; XP_SEG_BLOCK or XP_SEG_WARP
// selects the kernel. Line `line` of the input starts at idx_offset(k, 1, line) and steps by
// `sa`; its output (C-contiguous, the line's shape) starts at idx_offset(k, 0, line) and steps by
// `so`. OUTIDX 0 writes the sorted values to `ov`, 1 their positions along the line to `oi`.

#if defined(XP_SEG_BLOCK)

// One block of WARPS warps per line (n <= WARPS * 32 * ITEMS), the line in shared memory: an LSD
// radix sort of 8-bit digits whose passes rank the items in registers (rank.cu) and scatter them
// in shared memory; a pass whose digit is the same for the whole line is skipped.
// Dynamic shared memory: CAP items, CAP u16 positions (OUTIDX), WARPS * 256 u32 counters.
// (The bound is at least 256: Dev::kernel asks the occupancy of 256-thread blocks of every kernel,
// which the driver refuses beyond a kernel's bound.)
extern "C" __global__ void __launch_bounds__(WARPS * 32 > 256 ? WARPS * 32 : 256) XP_NAME(segsort_block)(const RAW* __restrict__ a, Idx k, i64 n, i64 sa,
                                                              i64 so, RAW* __restrict__ ov, i64* __restrict__ oi) {
  constexpr int T = WARPS * 32, CAP = T * ITEMS;
  extern __shared__ cd dyn_[];  // cd: 16-byte aligned for every item type
  unsigned char* dyn = (unsigned char*)dyn_;
  RAW* stage = (RAW*)dyn;
  u16* sval = (u16*)(dyn + CAP * sizeof(RAW));
  u32* wc = (u32*)(dyn + CAP * sizeof(RAW) + (OUTIDX ? CAP * 2 : 0));
  __shared__ u32 tot[256], start[256], wsum[WARPS];
  const int t = threadIdx.x, lane = t & 31, w = t >> 5;
  for (i64 line = blockIdx.x; line < k.n; line += gridDim.x) {
    const i64 pa = idx_offset(k, 1, line), po = idx_offset(k, 0, line);
    for (int r = t; r < n; r += T) {
      stage[r] = a[pa + r * sa];
      if (OUTIDX) sval[r] = (u16)r;
    }
    __syncthreads();
    RAW it[ITEMS];
    u32 pv[ITEMS], dig[ITEMS], rank[ITEMS];
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      const int pos = w * (ITEMS * 32) + i * 32 + lane;
      it[i] = pos < n ? stage[pos] : RAW{};
      pv[i] = (u32)pos;
    }
    for (int p = 0; p < PK; ++p) {
      // Skip the pass when every item has the digit of the line's current first item.
      const u32 d0 = key_digit(stage[0], p);
      int differ = 0;
#pragma unroll
      for (int i = 0; i < ITEMS; ++i) {
        const int pos = w * (ITEMS * 32) + i * 32 + lane;
        dig[i] = pos < n ? key_digit(it[i], p) : 255u;
        differ |= pos < n && dig[i] != d0;
      }
      if (!__syncthreads_or(differ)) continue;  // also: every read of the stage is done
      block_rank<WARPS, ITEMS>([&](int i) { return dig[i]; }, rank, wc, tot, start, wsum);
#pragma unroll
      for (int i = 0; i < ITEMS; ++i) {
        stage[rank[i]] = it[i];
        if (OUTIDX) sval[rank[i]] = (u16)pv[i];
      }
      __syncthreads();
#pragma unroll
      for (int i = 0; i < ITEMS; ++i) {
        const int pos = w * (ITEMS * 32) + i * 32 + lane;
        if (pos < n) {
          it[i] = stage[pos];
          pv[i] = OUTIDX ? (u32)sval[pos] : 0u;
        }
      }
    }
    for (int r = t; r < n; r += T) {
      if (OUTIDX) oi[po + r * so] = (i64)sval[r];
      else ov[po + r * so] = stage[r];
    }
    __syncthreads();  // the next line reuses the stage
  }
}

#elif defined(XP_SEG_WARP)

// Lines of n <= 32: a bitonic sort across the lanes of a warp, S = 2^lgs >= n lanes per line
// (32 / S lines per warp), in the strict order (valid first, NumPy's order, then position), so
// equal keys keep their order and the lanes past n never move before a real item.
extern "C" __global__ void __launch_bounds__(256) XP_NAME(segsort_warp)(const RAW* __restrict__ a, Idx k, i64 n, i64 sa, i64 so,
                                                       int lgs, RAW* __restrict__ ov, i64* __restrict__ oi) {
  const int t = threadIdx.x, S = 1 << lgs, jl = t & (S - 1);
  const i64 per_block = 256 >> lgs;
  for (i64 g0 = (i64)blockIdx.x * per_block; g0 < k.n; g0 += (i64)gridDim.x * per_block) {
    const i64 line = g0 + (t >> lgs);
    const bool has_line = line < k.n;
    i64 po = 0;
    RAW x = RAW{};
    bool valid = has_line && jl < n;
    if (has_line) {
      po = idx_offset(k, 0, line);
      if (valid) x = a[idx_offset(k, 1, line) + jl * sa];
    }
    int ix = jl;
    for (int kk = 2; kk <= S; kk <<= 1) {
      for (int jj = kk >> 1; jj > 0; jj >>= 1) {
        const RAW y = shfl_xor_any(x, jj);
        const int iy = __shfl_xor_sync(XP_FULL, ix, jj);
        const bool vy = __shfl_xor_sync(XP_FULL, (int)valid, jj) != 0;
        bool me_first;  // mine before the partner's
        if (valid != vy) me_first = valid;
        else if (!valid) me_first = ix < iy;
        else me_first = key_lt(x, y) || (!key_lt(y, x) && ix < iy);
        const bool lower = (jl & jj) == 0, ascending = (jl & kk) == 0;
        // The lower lane of an ascending pair keeps the first of the two, the upper the second.
        if (me_first != (lower == ascending)) {
          x = y;
          ix = iy;
          valid = vy;
        }
      }
    }
    if (has_line && jl < n) {
      if (OUTIDX) oi[po + jl * so] = (i64)ix;
      else ov[po + jl * so] = x;
    }
  }
}

#endif
