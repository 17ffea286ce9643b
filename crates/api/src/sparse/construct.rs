//! Constructors of standard sparse arrays: [`eye`], [`identity`], [`diags_array`] and
//! [`random_array`].
use super::keys::{cat, diag_span};
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
    let (r0, c0, len) = diag_span(k, [m, n]);
    let i: Array = mods.arange(0i64, len as i64, 1i64, Some(DType::I64))?;
    let (row, col) = (i.add(r0 as i64)?, i.add(c0 as i64)?);
    let data = mods.ones([len], dtype)?;
    SparseArray::Coo(CooArray::from_parts(data, row, col, [m, n], true, super::index_dtype(m.max(n)))?).asformat(format)
}

/// SciPy's `identity(n, dtype, format)` on `device`: the `n × n` identity.
pub fn identity(n: usize, dtype: DType, format: Format, device: Device) -> Result<SparseArray> {
    eye(n, n, 0, dtype, format, device)
}

/// SciPy's `diags_array(diagonals, offsets, shape, dtype, format)`: `diagonals[i]` on diagonal
/// `offsets[i]`; a diagonal of one value is broadcast along its diagonal, any other must have the
/// diagonal's length. `shape` defaults to the square that the first diagonal fills; `dtype` to
/// the diagonals' promoted dtype. On the first diagonal's device.
///
/// ```
/// use xp::sparse::{diags_array, Format};
/// let main = xp::Array::from_vec(vec![2.0f64, 2.0, 2.0], &[3]).unwrap();
/// let off = xp::Array::from_vec(vec![-1.0f64], &[1]).unwrap();
/// let a = diags_array(&[&main, &off, &off], &[0, -1, 1], None, None, Format::Csr).unwrap();
/// assert_eq!(a.toarray().unwrap().to_vec::<f64>().unwrap(), vec![2.0, -1.0, 0.0, -1.0, 2.0, -1.0, 0.0, -1.0, 2.0]);
/// ```
pub fn diags_array(
    diagonals: &[&Array],
    offsets: &[isize],
    shape: Option<[usize; 2]>,
    dtype: Option<DType>,
    format: Format,
) -> Result<SparseArray> {
    let op = "diags_array";
    if diagonals.is_empty() || diagonals.len() != offsets.len() {
        return Err(xp_core::Error::invalid(
            op,
            format!(
                "{} diagonals for {} offsets (one offset per diagonal, at least one)",
                diagonals.len(),
                offsets.len()
            ),
        ));
    }
    let first = diagonals[0];
    let shape = shape.unwrap_or_else(|| {
        let n = first.size() + offsets[0].unsigned_abs();
        [n, n]
    });
    let dtype = dtype
        .unwrap_or_else(|| diagonals.iter().skip(1).fold(first.dtype(), |d, a| xp_core::promote_types(d, a.dtype())));
    let mods = on(first.device());
    let (mut rows, mut cols, mut vals) = (vec![], vec![], vec![]);
    for (i, (&d, &k)) in diagonals.iter().zip(offsets).enumerate() {
        let (r0, c0, len) = diag_span(k, shape);
        if d.ndim() != 1 || (d.size() != len && d.size() != 1) {
            return Err(xp_core::Error::invalid(
                op,
                format!(
                    "diagonal {i} of shape {:?} at offset {k} does not fit the shape {shape:?} (length {len})",
                    d.shape()
                ),
            ));
        }
        let j = mods.arange(0i64, len as i64, 1i64, Some(DType::I64))?;
        rows.push(j.add(r0 as i64)?);
        cols.push(j.add(c0 as i64)?);
        vals.push(d.astype(dtype)?.broadcast_to([len])?.copy()?);
    }
    let coo = CooArray::from_parts(
        cat(&vals)?,
        cat(&rows)?,
        cat(&cols)?,
        shape,
        false,
        super::index_dtype(shape[0].max(shape[1])),
    )?;
    // SciPy's diagonals add where two name the same offset
    SparseArray::Csr(coo.tocsr()?).asformat(format)
}

/// SciPy's `random_array(shape, density, format, dtype, rng)`: `round(density · m · n)` distinct
/// positions chosen uniformly, with values uniform in [0, 1) (complex: both parts), drawn from
/// `rng` (xp's Philox streams: the same array on every device for the same seed), on `rng`'s
/// device. `dtype`: float32, float64, complex64 or complex128.
///
/// ```
/// let mut rng = xp::default_rng(7);
/// let a = xp::sparse::random_array([100, 50], 0.1, xp::DType::F64, xp::sparse::Format::Csr, &mut rng).unwrap();
/// assert_eq!(a.nnz(), 500);
/// ```
pub fn random_array(
    shape: [usize; 2],
    density: f64,
    dtype: DType,
    format: Format,
    rng: &mut crate::random::Generator,
) -> Result<SparseArray> {
    let op = "random_array";
    if !(0.0..=1.0).contains(&density) {
        return Err(xp_core::Error::InvalidParameter { op, param: "density", requirement: "must be in [0, 1]".into() });
    }
    let total = shape[0] * shape[1];
    let k = (density * total as f64).round() as usize;
    let pos = rng.choice_index(total, [k], crate::random::Choice { replace: false, ..Default::default() })?;
    let n = shape[1].max(1) as i64;
    let (row, col) = (pos.floor_divide(n)?, pos.remainder(n)?);
    let mut real = |d: DType| rng.random([k], d);
    let data = match dtype {
        DType::F32 | DType::F64 => real(dtype)?,
        DType::C64 | DType::C128 => {
            let part = if dtype == DType::C64 { DType::F32 } else { DType::F64 };
            let (re, im) = (real(part)?, real(part)?);
            re.astype(dtype)?.add(&im.astype(dtype)?.mul(xp_core::Complex64::new(0.0, 1.0))?)?.astype(dtype)?
        }
        d => return Err(xp_core::Error::InvalidDType { op, dtype: d }),
    };
    let coo = CooArray::from_parts(data, row, col, shape, false, super::index_dtype(shape[0].max(shape[1]).max(k)))?;
    SparseArray::Coo(coo).asformat(format)
}
