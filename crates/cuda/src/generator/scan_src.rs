//! CUDA C of inclusive scans, from the same [`Fold`] as the reductions (`_RT`, `REDUCE`, `_ID`
//! and the map `_mv`): one input `x0` and one output `o` of the same dtype, along one axis. Every
//! kernel takes `(o, a, Idx k, len, sa, so, chunks, per, pre)`: `k` addresses each line's start
//! (operand 0 the output, 1 the input), `sa`/`so` are the axis strides, and a line is cut into
//! `chunks` consecutive ranges of `per` positions, the range of chunk `c > 0` starting from
//! `pre[line * chunks + c - 1]` (the inclusive total of the ranges before it, in the storage
//! type, from earlier launches).
use super::gen::prefixed_offsets;
use super::reduce_src::Fold;
use crate::codegen::{storage_ty, store};

/// Positions of one tile of [`ScanMode::Tiles`] (256 threads × 8 consecutive positions).
pub(crate) const SCAN_TILE: usize = 2048;

/// How a scan is laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum ScanMode {
    /// a thread per (line, chunk) walks its range in order (any op)
    Lines,
    /// a block per (line, chunk) scans its range in tiles of 256 coalesced positions in shared
    /// memory, carrying the running total (reorderable ops)
    Chunks,
    /// a block per chunk of exactly [`SCAN_TILE`] positions: thread-local runs of 8, warp
    /// shuffles and warp totals (reorderable ops with an identity)
    Tiles,
}

impl Fold<'_> {
    /// The scan kernel's source.
    pub(crate) fn scan_source(&self, mode: ScanMode) -> String {
        let d = self.acc.dtype();
        let st = storage_ty(d);
        let head = format!(
            "extern \"C\" __global__ void {}({st}* __restrict__ o, const {st}* __restrict__ a, Idx k, i64 len, i64 sa, i64 so, i64 chunks, i64 per, const {st}* __restrict__ pre) {{
  {}",
            self.name,
            self.map_fn()
        );
        // the line's first output (`_l0`) and input (`_l1`)
        let line_start = prefixed_offsets("_l", "k", "line", 2, "    ");
        let body = match mode {
            ScanMode::Lines => format!(
                "  const i64 step = (i64)gridDim.x * blockDim.x;
  for (i64 bo = (i64)blockIdx.x * blockDim.x + threadIdx.x; bo < k.n * chunks; bo += step) {{
    const i64 line = bo / chunks, part = bo % chunks, lo = part * per, hi = lo + per < len ? lo + per : len;
    if (lo >= hi) continue;
{line_start}    _RT acc = _mv(ld(a[_l1 + lo * sa]), lo);
    if (part > 0) acc = REDUCE((_RT)ld(pre[bo - 1]), acc);
    o[_l0 + lo * so] = {out};
    for (i64 j = lo + 1; j < hi; ++j) {{
      acc = REDUCE(acc, _mv(ld(a[_l1 + j * sa]), j));
      o[_l0 + j * so] = {out};
    }}
  }}
",
                out = store(d, "acc")
            ),
            ScanMode::Chunks => format!(
                "  __shared__ _RT sh[256];
  const int t = threadIdx.x;
  for (i64 bo = blockIdx.x; bo < k.n * chunks; bo += gridDim.x) {{
    const i64 line = bo / chunks, part = bo % chunks, lo = part * per, hi = lo + per < len ? lo + per : len;
{line_start}    _RT carry = _RT(); bool has = part > 0;
    if (has) carry = (_RT)ld(pre[bo - 1]);
    for (i64 base = lo; base < hi; base += 256) {{
      const i64 j = base + t; const bool act = j < hi;
      sh[t] = act ? _mv(ld(a[_l1 + j * sa]), j) : _RT();
      __syncthreads();
      for (int off = 1; off < 256; off <<= 1) {{
        const _RT w = t >= off ? sh[t - off] : _RT();
        __syncthreads();
        if (t >= off) sh[t] = REDUCE(w, sh[t]);
        __syncthreads();
      }}
      const _RT v = has ? REDUCE(carry, sh[t]) : sh[t];
      if (act) o[_l0 + j * so] = {out};
      const _RT tile = sh[(hi - base < 256 ? hi - base : 256) - 1];
      __syncthreads();
      carry = has ? REDUCE(carry, tile) : tile; has = true;
    }}
  }}
",
                out = store(d, "v")
            ),
            ScanMode::Tiles => format!(
                "  __shared__ _RT sh[{SCAN_TILE}]; __shared__ _RT wsum[8]; __shared__ _RT tile_excl;
  const int t = threadIdx.x, lane = t & 31, w = t >> 5;
  const i64 line = blockIdx.x / chunks, part = blockIdx.x % chunks, lo = part * {SCAN_TILE};
  const i64 n = len - lo < {SCAN_TILE} ? len - lo : {SCAN_TILE};
{line_start}  for (int u = 0; u < 8; ++u) {{ const int e = u * 256 + t; sh[e] = e < n ? _mv(ld(a[_l1 + (lo + e) * sa]), lo + e) : _ID; }}
  __syncthreads();
  _RT loc[8]; _RT run = _ID;
#pragma unroll
  for (int u = 0; u < 8; ++u) {{ run = REDUCE(run, sh[t * 8 + u]); loc[u] = run; }}
  _RT x = run;
  for (int of = 1; of < 32; of <<= 1) {{ const _RT y = shfl_up(x, of); if (lane >= of) x = REDUCE(y, x); }}
  _RT texcl = shfl_up(x, 1);
  if (lane == 0) texcl = _ID;
  if (lane == 31) wsum[w] = x;
  if (t == 0) tile_excl = part == 0 ? _ID : (_RT)ld(pre[blockIdx.x - 1]);
  __syncthreads();
  _RT wpre = _ID;
  for (int q = 0; q < w; ++q) wpre = REDUCE(wpre, wsum[q]);
  const _RT p = REDUCE(tile_excl, REDUCE(wpre, texcl));
#pragma unroll
  for (int u = 0; u < 8; ++u) sh[t * 8 + u] = REDUCE(p, loc[u]);
  __syncthreads();
  for (int u = 0; u < 8; ++u) {{ const int e = u * 256 + t; if (e < n) o[_l0 + (lo + e) * so] = {out}; }}
",
                out = store(d, "sh[e]")
            ),
        };
        format!("{}{head}{body}}}\n", self.defs())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::tests_support::syntax_check;
    use crate::generator::reduction::scan_source;
    use xp_core::{BinaryOp, DType};

    /// Every scan layout of every dtype (with an op it has), parsed by g++.
    #[test]
    fn scans_parse_in_every_mode_for_every_dtype() {
        for d in DType::ALL {
            let op = if d == DType::Bool { BinaryOp::LogicalOr } else { BinaryOp::Add };
            for mode in [ScanMode::Lines, ScanMode::Chunks, ScanMode::Tiles] {
                let entry = format!("scan_{mode:?}");
                syntax_check(&format!("scan-{}-{mode:?}", d.name()), &scan_source(&entry, op, d, mode));
            }
        }
    }
}
