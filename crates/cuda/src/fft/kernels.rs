//! The FFT's two small kernels: `norm`'s scaling of a result, and the zeroing of the imaginary
//! parts that NumPy's real inverse transform ignores (the first value of each line of the real
//! axis, and the last for an even length).
use crate::codegen::{storage_ty, PRELUDE};
use crate::device::{driver_err, Key};
use crate::storage::{after, before, cfg, CudaStorage};
use cudarc::driver::PushKernelArg;
use xp_core::{DType, Result};

fn src(t: &str) -> String {
    format!(
        "{PRELUDE}
extern \"C\" __global__ void xp_scale({t}* d, i64 n, {t} s) {{
  for (i64 i = blockIdx.x * (i64)blockDim.x + threadIdx.x; i < n; i += (i64)gridDim.x * blockDim.x) d[i] *= s;
}}
extern \"C\" __global__ void xp_edge({t}* d, i64 lines, i64 m, i64 inner, i64 last) {{
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
fn kernels(x: &CudaStorage) -> Result<[(cudarc::driver::CudaFunction, usize); 2]> {
    let real = x.dtype.to_real();
    let t = storage_ty(real);
    x.dev.kernels(Key::new(60).dtype(real), ["xp_scale", "xp_edge"], || src(t))
}

/// Multiply every value of `x` (float or complex) by `s`, in place.
pub(super) fn scale(x: &CudaStorage, s: f64) -> Result<()> {
    let [(f, _), _] = kernels(x)?;
    let n = (x.len * if x.dtype.is_complex() { 2 } else { 1 }) as i64;
    let st = x.dev.current();
    before(&st, &[x])?;
    let p = x.ptr(0);
    let mut l = st.launch_builder(&f);
    l.arg(&p).arg(&n);
    let (s32, s64) = (s as f32, s);
    if x.dtype.to_real() == DType::F32 {
        l.arg(&s32);
    } else {
        l.arg(&s64);
    }
    // SAFETY: the kernel's parameters; it touches the buffer's `n` reals.
    unsafe { l.launch(cfg(n)) }.map_err(driver_err)?;
    after(&st, &[x])
}

/// Zero, in the complex buffer `x` of shape `(outer, m, inner)`, the imaginary parts at
/// position 0 of the middle axis and, when the real length `n` is even, at `n / 2`.
pub(super) fn drop_edge_imag(x: &CudaStorage, outer: usize, m: usize, inner: usize, n: usize) -> Result<()> {
    let [_, (f, _)] = kernels(x)?;
    let lines = (outer * inner) as i64;
    let last = if n.is_multiple_of(2) { (n / 2) as i64 } else { 0 };
    let (m, inner) = (m as i64, inner as i64);
    let st = x.dev.current();
    before(&st, &[x])?;
    let p = x.ptr(0);
    let mut l = st.launch_builder(&f);
    l.arg(&p).arg(&lines).arg(&m).arg(&inner).arg(&last);
    // SAFETY: the kernel's parameters; it writes inside the `outer * m * inner` values.
    unsafe { l.launch(cfg(lines)) }.map_err(driver_err)?;
    after(&st, &[x])
}
