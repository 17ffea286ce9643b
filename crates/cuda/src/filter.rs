//! The filter family on the GPU: shared-memory tiled kernels over the last two axes (a batch of
//! images, a 1-D signal as one row). A block loads its output tile's input (the tile and its
//! halo, `(TH + kh - 1) × (TW + kw - 1)` values) and the weights into shared memory once.
//!
//! - **Correlation:** each thread sums `R` outputs of one column, sliding an `R`-value window of
//!   the column down the weights' rows in registers: per weight, one shared load of the input,
//!   one (broadcast) load of the weight and `R` fused multiply-adds.
//! - **Rank filter:** each thread copies its window into registers as integer keys in IEEE total
//!   order (the window size is compiled in, so the copies and the selection unroll into
//!   register operations) and selects the rank by a partial selection sort: `rank + 1` passes of
//!   compare-exchanges (two integer min/max each), no full sort.
//!
//! Windows whose shared tile does not fit the device, weights over more than two axes, and
//! rank windows of more than [`RANK_MAX`] values answer `Unsupported` (the front end then
//! computes them another way).
use crate::codegen::{storage_ty, PRELUDE};
use crate::runtime::buffer::CudaStorage;
use crate::runtime::device::driver_err;
use crate::runtime::launch::{Family, Key, Param, Source};
use cudarc::driver::sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN as OPTIN;
use cudarc::driver::sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES as DYN_SMEM;
use cudarc::driver::LaunchConfig;
use xp_core::{DType, Error, FilterStorage, Layout, Recursed, Recursion, Result};

/// Output columns of a tile (one warp wide).
const TW: usize = 32;
/// Thread rows of a block.
const BY: usize = 8;
/// The largest rank window compiled into registers.
pub(crate) const RANK_MAX: usize = 64;

/// The shared tile loader of both kernels: the block's input tile (`th × tw`, zero past the
/// input's edge) of batch `b`.
const TILE: &str = "
  for (int i = tid; i < th * tw; i += nt) {
    const int ty = i / tw, tx = i - ty * tw;
    const i64 gy = oy0 + ty, gx = ox0 + tx;
    tile[i] = (gy < H && gx < W) ? xb[gy * W + gx] : (T)0;
  }
";

fn correlate_src(t: &str, r: usize) -> String {
    format!(
        "{PRELUDE}
typedef {t} T;
#define R {r}
extern \"C\" __global__ void XP_NAME(correlate2d)(T* __restrict__ out, const T* __restrict__ x, const T* __restrict__ w,
    i64 H, i64 W, i64 OH, i64 OW, int kh, int kw, i64 batches) {{
  extern __shared__ __align__(16) unsigned char smem[];
  T* ws = (T*)smem;
  T* tile = ws + kh * kw;
  const int TH = {BY} * R, tw = {TW} + kw - 1, th = TH + kh - 1;
  const int tid = threadIdx.y * {TW} + threadIdx.x, nt = {TW} * {BY};
  for (int i = tid; i < kh * kw; i += nt) ws[i] = w[i];
  const i64 ox0 = (i64)blockIdx.x * {TW}, tiles = (OH + TH - 1) / TH;
  const int c = threadIdx.x, r0 = threadIdx.y * R;
  // (image, tile row) pairs strided over the grid's y and z
  for (i64 t = (i64)blockIdx.z * gridDim.y + blockIdx.y; t < batches * tiles; t += (i64)gridDim.z * gridDim.y) {{
    const i64 b = t / tiles, oy0 = (t - b * tiles) * TH;
    const T* xb = x + b * H * W;
    __syncthreads();
    {TILE}
    __syncthreads();
    T acc[R];
#pragma unroll
    for (int j = 0; j < R; ++j) acc[j] = 0;
    for (int q = 0; q < kw; ++q) {{
      T win[R];
#pragma unroll
      for (int j = 0; j < R - 1; ++j) win[j + 1] = tile[(r0 + j) * tw + c + q];
      for (int p = 0; p < kh; ++p) {{
#pragma unroll
        for (int j = 0; j < R - 1; ++j) win[j] = win[j + 1];
        win[R - 1] = tile[(r0 + p + R - 1) * tw + c + q];
        const T wv = ws[p * kw + q];
#pragma unroll
        for (int j = 0; j < R; ++j) acc[j] = fma(wv, win[j], acc[j]);
      }}
    }}
    T* ob = out + b * OH * OW;
#pragma unroll
    for (int j = 0; j < R; ++j) {{
      const i64 oy = oy0 + r0 + j, ox = ox0 + c;
      if (oy < OH && ox < OW) ob[oy * OW + ox] = acc[j];
    }}
  }}
}}
"
    )
}

fn rank_src(t: &str, kh: usize, kw: usize, rank: usize) -> String {
    let n = kh * kw;
    // select from whichever end is nearer: `lo` keeps the smaller key at i
    let (k, keep_min) = if rank <= n / 2 { (rank, true) } else { (n - 1 - rank, false) };
    let (lo, hi) = if keep_min { ("u < w ? u : w", "u < w ? w : u") } else { ("u < w ? w : u", "u < w ? u : w") };
    // IEEE bits as unsigned keys in total order, every NaN made the positive quiet one (so NaN
    // is last, as NumPy's sort and the CPU's selection put it): a compare-exchange is two
    // integer min/max instructions
    let (key, bits, tobits, frombits, nan) = if t == "float" {
        ("unsigned", 31, "__float_as_uint", "__uint_as_float", "0x7fc00000u")
    } else {
        (
            "unsigned long long",
            63,
            "(unsigned long long)__double_as_longlong",
            "__longlong_as_double",
            "0x7ff8000000000000ull",
        )
    };
    format!(
        "{PRELUDE}
typedef {t} T;
typedef {key} K;
__device__ __forceinline__ K to_key(T x) {{
  const K u = x != x ? {nan} : {tobits}(x);
  return u ^ (((K)0 - (u >> {bits})) | ((K)1 << {bits}));
}}
__device__ __forceinline__ T from_key(K k) {{
  return {frombits}(k ^ (((k >> {bits}) - 1) | ((K)1 << {bits})));
}}
extern \"C\" __global__ void XP_NAME(rank_filter2d)(T* __restrict__ out, const T* __restrict__ x,
    i64 H, i64 W, i64 OH, i64 OW, i64 batches) {{
  extern __shared__ __align__(16) unsigned char smem[];
  T* tile = (T*)smem;
  const int kh = {kh}, kw = {kw}, TH = {BY}, tw = {TW} + kw - 1, th = TH + kh - 1;
  const int tid = threadIdx.y * {TW} + threadIdx.x, nt = {TW} * {BY};
  const i64 ox0 = (i64)blockIdx.x * {TW}, tiles = (OH + TH - 1) / TH;
  const int c = threadIdx.x, r = threadIdx.y;
  for (i64 t = (i64)blockIdx.z * gridDim.y + blockIdx.y; t < batches * tiles; t += (i64)gridDim.z * gridDim.y) {{
    const i64 b = t / tiles, oy0 = (t - b * tiles) * TH;
    const T* xb = x + b * H * W;
    __syncthreads();
    {TILE}
    __syncthreads();
    K v[{n}];
#pragma unroll
    for (int p = 0; p < kh; ++p)
#pragma unroll
      for (int q = 0; q < kw; ++q) v[p * kw + q] = to_key(tile[(r + p) * tw + c + q]);
#pragma unroll
    for (int i = 0; i <= {k}; ++i)
#pragma unroll
      for (int j = i + 1; j < {n}; ++j) {{
        const K u = v[i], w = v[j];
        v[i] = {lo};
        v[j] = {hi};
      }}
    const i64 oy = oy0 + r, ox = ox0 + c;
    if (oy < OH && ox < OW) out[b * OH * OW + oy * OW + ox] = from_key(v[{k}]);
  }}
}}
"
    )
}

/// `(batch, H, W)` of a layout whose window is `(kh, kw)` over its last two axes; None when the
/// window spans more axes.
fn images(shape: &[usize], window: &[usize]) -> Option<(usize, usize, usize, usize, usize)> {
    let nd = shape.len();
    if nd == 0 || window[..nd.saturating_sub(2)].iter().any(|&m| m != 1) {
        return None;
    }
    let (h, kh) = if nd >= 2 { (shape[nd - 2], window[nd - 2]) } else { (1, 1) };
    let b: usize = shape[..nd.saturating_sub(2)].iter().product();
    Some((b, h, shape[nd - 1], kh, window[nd - 1]))
}

impl CudaStorage {
    /// The input contiguous (a copy when it is not), and its base address.
    fn dense_input(&self, l: &Layout) -> Result<(Option<CudaStorage>, u64)> {
        if l.is_contiguous() {
            return Ok((None, self.ptr(l.offset())));
        }
        let c = self.contiguous_copy(l)?;
        let p = c.ptr(0);
        Ok((Some(c), p))
    }

    /// The launch of `f` over the output tiles of `(b, oh, ow)` with `smem` bytes of shared
    /// memory; Unsupported when that is more than the device allows a block.
    fn tiles(
        &self,
        op: &'static str,
        f: &cudarc::driver::CudaFunction,
        (b, oh, ow): (usize, usize, usize),
        th: usize,
        smem: usize,
    ) -> Result<LaunchConfig> {
        let most = self.dev.ctx.attribute(OPTIN).map_err(driver_err)? as usize;
        if smem > most {
            return Err(Error::Unsupported { op, backend: "cuda" });
        }
        if smem > 48 << 10 {
            f.set_attribute(DYN_SMEM, smem as i32).map_err(driver_err)?;
        }
        // (image, tile row) pairs over y and z, each at most 65535 (the kernels loop over more)
        let pairs = b * oh.div_ceil(th);
        let gy = pairs.min(65535);
        Ok(LaunchConfig {
            grid_dim: (ow.div_ceil(TW) as u32, gy as u32, pairs.div_ceil(gy).min(65535) as u32),
            block_dim: (TW as u32, BY as u32, 1),
            shared_mem_bytes: smem as u32,
        })
    }
}

/// Rows per thread of the correlation: eight in single precision, four in double (whose tile
/// and registers are twice the size).
fn rows_per_thread(d: DType) -> usize {
    if d == DType::F32 {
        8
    } else {
        4
    }
}

impl FilterStorage for CudaStorage {
    fn recursive_filter(&self, l: &Layout, r: &Recursion, zi: &Self, zl: &Layout) -> Result<Recursed<Self>> {
        crate::recursive::filter(self, l, r, zi, zl)
    }
    fn label(&self, l: &Layout, offsets: &[Vec<i8>]) -> Result<(Self, usize)> {
        crate::label::label(self, l, offsets)
    }
    fn correlate_valid(&self, l: &Layout, w: &Self, wl: &Layout) -> Result<Self> {
        let op = "correlate";
        let d = self.dtype;
        if !matches!(d, DType::F32 | DType::F64) || w.dtype != d {
            return Err(Error::InvalidDType { op, dtype: d });
        }
        let Some((b, h, wd, kh, kw)) = images(l.shape(), wl.shape()) else {
            return Err(Error::Unsupported { op, backend: "cuda" });
        };
        let (oh, ow) = (h - kh + 1, wd - kw + 1);
        let out = CudaStorage::alloc(&self.dev, d, b * oh * ow)?;
        if b * oh * ow == 0 {
            return Ok(out);
        }
        let r = rows_per_thread(d);
        let th = BY * r;
        let smem = ((th + kh - 1) * (TW + kw - 1) + kh * kw) * d.size();
        let (xc, xp) = self.dense_input(l)?;
        let wc = w.contiguous_copy(wl)?;
        let key = Key::new(Family::Correlate).dtype(d).bits(4, r as u64);
        let f = self.dev.kernel(key, "correlate2d", || {
            Source::new(format!("{}_r{r}", d.name()), correlate_src(storage_ty(d), r))
        })?;
        let used = [xc.as_ref().unwrap_or(self), &wc, &out];
        let wk = self.dev.work(&used)?;
        let (po, pw) = (out.ptr(0), wc.ptr(0));
        let dims = [h as i64, wd as i64, oh as i64, ow as i64];
        let (ikh, ikw, nb) = (kh as i32, kw as i32, b as i64);
        let cfg = self.tiles(op, &f.f, (b, oh, ow), th, smem)?;
        let args: [&dyn Param; 10] = [&po, &xp, &pw, &dims[0], &dims[1], &dims[2], &dims[3], &ikh, &ikw, &nb];
        // SAFETY: the arguments match the kernel; every read lies inside the input (the tile
        // loader checks the image's edges) or the weights, every write inside the output.
        unsafe { wk.launch(&f, cfg, &args) }?;
        wk.done()?;
        Ok(out)
    }

    fn rank_valid(&self, l: &Layout, size: &[usize], rank: usize) -> Result<Self> {
        let op = "rank_filter";
        let d = self.dtype;
        if !matches!(d, DType::F32 | DType::F64) {
            return Err(Error::InvalidDType { op, dtype: d });
        }
        let Some((b, h, wd, kh, kw)) = images(l.shape(), size) else {
            return Err(Error::Unsupported { op, backend: "cuda" });
        };
        if kh * kw > RANK_MAX || kh > 255 || kw > 255 {
            return Err(Error::Unsupported { op, backend: "cuda" });
        }
        let (oh, ow) = (h - kh + 1, wd - kw + 1);
        let out = CudaStorage::alloc(&self.dev, d, b * oh * ow)?;
        if b * oh * ow == 0 {
            return Ok(out);
        }
        let smem = (BY + kh - 1) * (TW + kw - 1) * d.size();
        let (xc, xp) = self.dense_input(l)?;
        let key = Key::new(Family::RankFilter).dtype(d).bits(8, kh as u64).bits(8, kw as u64).bits(8, rank as u64);
        let f = self.dev.kernel(key, "rank_filter2d", || {
            Source::new(format!("{}_{kh}x{kw}_rank{rank}", d.name()), rank_src(storage_ty(d), kh, kw, rank))
        })?;
        let used = [xc.as_ref().unwrap_or(self), &out];
        let wk = self.dev.work(&used)?;
        let po = out.ptr(0);
        let dims = [h as i64, wd as i64, oh as i64, ow as i64, b as i64];
        let cfg = self.tiles(op, &f.f, (b, oh, ow), BY, smem)?;
        let args: [&dyn Param; 7] = [&po, &xp, &dims[0], &dims[1], &dims[2], &dims[3], &dims[4]];
        // SAFETY: the arguments match the kernel; every read lies inside the input (the tile
        // loader checks the image's edges), every write inside the output.
        unsafe { wk.launch(&f, cfg, &args) }?;
        wk.done()?;
        Ok(out)
    }
}
