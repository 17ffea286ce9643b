//! Runs of a compressed array's indices and values copied end to end (the lines a selection
//! picks, [`xp_core::SparseStorage::gather_runs`]): a warp per run, its lanes copying
//! neighbouring values of both arrays, in place of the composed gathers' index array per value.
use crate::codegen::{storage_ty, PRELUDE};
use crate::runtime::buffer::CudaStorage;
use crate::runtime::launch::{Family, Key, Source};
use cudarc::driver::LaunchConfig;
use xp_core::{DType, Error, Result};

pub(super) fn source(d: DType, ii: DType, io: DType) -> String {
    let (t, i, o) = (storage_ty(d), storage_ty(ii), storage_ty(io));
    format!(
        "{PRELUDE}
extern \"C\" __global__ void XP_NAME(gather_runs)(const {i}* __restrict__ ind, const {t}* __restrict__ dat,
    const i64* __restrict__ starts, const i64* __restrict__ ptr, {o}* __restrict__ oi, {t}* __restrict__ od,
    i64 lines) {{
  const int lane = threadIdx.x & 31;
  const i64 warps = (i64)gridDim.x * (blockDim.x >> 5);
  for (i64 q = ((i64)blockIdx.x * blockDim.x + threadIdx.x) >> 5; q < lines; q += warps) {{
    const i64 to = ptr[q], n = ptr[q + 1] - to, from = starts[q];
    for (i64 k = lane; k < n; k += 32) {{
      oi[to + k] = ({o})ind[from + k];
      od[to + k] = dat[from + k];
    }}
  }}
}}
"
    )
}

pub(super) fn gather_runs(
    indices: &CudaStorage,
    data: &CudaStorage,
    starts: &CudaStorage,
    ptr: &CudaStorage,
    total: usize,
    ix: DType,
) -> Result<(CudaStorage, CudaStorage)> {
    let op = "gather_runs";
    let (d, ii) = (data.dtype, indices.dtype);
    if starts.dtype != DType::I64 || ptr.dtype != DType::I64 || ptr.len != starts.len + 1 {
        return Err(Error::invalid(op, "run starts and offsets must be int64, one offset more than runs"));
    }
    if !matches!(ii, DType::I32 | DType::I64) || !matches!(ix, DType::I32 | DType::I64) {
        return Err(Error::invalid(op, "indices must be int32 or int64"));
    }
    let dev = &data.dev;
    let (oi, od) = (CudaStorage::alloc(dev, ix, total)?, CudaStorage::alloc(dev, d, total)?);
    let lines = starts.len;
    if lines == 0 || total == 0 {
        return Ok((oi, od));
    }
    let key = Key::new(Family::SparseMatmul).dtype(d).flag(ii == DType::I64).bits(3, 4 + (ix == DType::I64) as u64);
    let spec = format!("{}_{}_{}", d.name(), ii.name(), ix.name());
    let k = dev.kernel(key, "gather_runs", || Source::new(spec, source(d, ii, ix)))?;
    let blocks = (lines as u64 * 32).div_ceil(256).min(1 << 16) as u32;
    let cfg = LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (256, 1, 1), shared_mem_bytes: 0 };
    let n = lines as i64;
    let (pi, pd, ps, pp, qi, qd) = (indices.ptr(0), data.ptr(0), starts.ptr(0), ptr.ptr(0), oi.ptr(0), od.ptr(0));
    let wk = dev.work(&[indices, data, starts, ptr, &oi, &od])?;
    // SAFETY: the parameters match the kernel; every run lies inside indices and data (checked
    // by the front end), ptr holds lines + 1 non-decreasing offsets from 0 to total, and oi, od
    // hold total elements.
    unsafe { wk.launch(&k, cfg, &[&pi, &pd, &ps, &pp, &qi, &qd, &n]) }?;
    wk.done()?;
    Ok((oi, od))
}
