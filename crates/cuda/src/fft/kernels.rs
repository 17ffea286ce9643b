//! The FFT's two small kernels: `norm`'s scaling of a result, and the zeroing of the imaginary
//! parts that NumPy's real inverse transform ignores (the first value of each line of the real
//! axis, and the last for an even length).
use crate::codegen::{storage_ty, PRELUDE};
use crate::runtime::buffer::CudaStorage;
use crate::runtime::launch::{cfg, Family, Kernel, Key, Param, Source};
use xp_core::{DType, Result};

fn src(t: &str) -> String {
    format!(
        "{PRELUDE}
extern \"C\" __global__ void XP_NAME(fft_scale)({t}* d, i64 n, {t} s) {{
  for (i64 i = blockIdx.x * (i64)blockDim.x + threadIdx.x; i < n; i += (i64)gridDim.x * blockDim.x) d[i] *= s;
}}
extern \"C\" __global__ void XP_NAME(fft_drop_edge_imag)({t}* d, i64 lines, i64 m, i64 inner, i64 last) {{
  for (i64 t = blockIdx.x * (i64)blockDim.x + threadIdx.x; t < lines; t += (i64)gridDim.x * blockDim.x) {{
    const i64 o = t / inner, i = t % inner;
    d[2 * (o * m * inner + i) + 1] = 0;
    if (last > 0) d[2 * ((o * m + last) * inner + i) + 1] = 0;
  }}
}}
"
    )
}

/// The kernels of `x`'s real type: (scale, edge).
fn kernels(x: &CudaStorage) -> Result<[Kernel; 2]> {
    let real = x.dtype.to_real();
    let t = storage_ty(real);
    let key = Key::new(Family::FftPost).dtype(real);
    x.dev.kernels(key, ["fft_scale", "fft_drop_edge_imag"], || Source::new(real.name(), src(t)))
}

/// Multiply every value of `x` (float or complex) by `s`, in place.
pub(super) fn scale(x: &CudaStorage, s: f64) -> Result<()> {
    let [k, _] = kernels(x)?;
    let n = (x.len * if x.dtype.is_complex() { 2 } else { 1 }) as i64;
    let wk = x.dev.work(&[x])?;
    let p = x.ptr(0);
    let (s32, s64) = (s as f32, s);
    let factor: &dyn Param = if x.dtype.to_real() == DType::F32 { &s32 } else { &s64 };
    // SAFETY: the kernel's parameters; it touches the buffer's `n` reals.
    unsafe { wk.launch(&k, cfg(n), &[&p, &n, factor]) }?;
    wk.done()
}

/// Zero, in the complex buffer `x` of shape `(outer, m, inner)`, the imaginary parts at
/// position 0 of the middle axis and, when the real length `n` is even, at `n / 2`.
pub(super) fn drop_edge_imag(x: &CudaStorage, outer: usize, m: usize, inner: usize, n: usize) -> Result<()> {
    let [_, k] = kernels(x)?;
    let lines = (outer * inner) as i64;
    let last = if n.is_multiple_of(2) { (n / 2) as i64 } else { 0 };
    let (m, inner) = (m as i64, inner as i64);
    let wk = x.dev.work(&[x])?;
    let p = x.ptr(0);
    let args: [&dyn Param; 5] = [&p, &lines, &m, &inner, &last];
    // SAFETY: the kernel's parameters; it writes inside the `outer * m * inner` values.
    unsafe { wk.launch(&k, cfg(lines), &args) }?;
    wk.done()
}
