//! Constructors of standard sparse arrays: [`eye`] and [`identity`].
use super::{CooArray, Format, SparseArray};
use crate::{on, Array};
use xp_core::{DType, Device, Result};

/// SciPy's `eye_array(m, n, k, dtype, format)` on `device`: ones on diagonal `k` (above the main
/// one for `k > 0`) of an `m × n` array.
///
/// ```
/// let e = xp::sparse::eye(2, 3, 1, xp::DType::F32, xp::sparse::Format::Csr, xp::Device::Cpu).unwrap();
/// assert_eq!(e.toarray().unwrap().to_vec::<f32>().unwrap(), vec![0.0, 1.0, 0.0, 0.0, 0.0, 1.0]);
/// ```
pub fn eye(m: usize, n: usize, k: isize, dtype: DType, format: Format, device: Device) -> Result<SparseArray> {
    let mods = on(device);
    // the diagonal's first position and length
    let (r0, c0) = if k >= 0 { (0, k as usize) } else { ((-k) as usize, 0) };
    let len = if r0 >= m || c0 >= n { 0 } else { (m - r0).min(n - c0) };
    let i: Array = mods.arange(0i64, len as i64, 1i64, Some(DType::I64))?;
    let (row, col) = (i.add(r0 as i64)?, i.add(c0 as i64)?);
    let data = mods.ones([len], dtype)?;
    SparseArray::Coo(CooArray::from_parts(data, row, col, [m, n], true, super::index_dtype(m.max(n)))?).asformat(format)
}

/// SciPy's `identity(n, dtype, format)` on `device`: the `n × n` identity.
pub fn identity(n: usize, dtype: DType, format: Format, device: Device) -> Result<SparseArray> {
    eye(n, n, 0, dtype, format, device)
}
