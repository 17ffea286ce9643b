//! Constructors of standard sparse arrays: [`eye`], [`identity`], [`diags_array`], [`spdiags`]
//! and [`random_array`].
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

/// SciPy's `spdiags(data, diags, m, n)`: row `k` of the 2-D `data` (a 1-D one is one row) on
/// diagonal `diags[k]` of an `m × n` array, aligned by column: `data[k, j]` lands at
/// `(j - diags[k], j)` where that lies inside the array (SciPy's DIA layout); values at one
/// position add up and zeros are not stored (SciPy's DIA → COO). In `format` (SciPy gives DIA,
/// which xp has not yet).
///
/// ```
/// use xp::sparse::{spdiags, Format};
/// let data = xp::Array::from_vec(vec![1i64, 2, 3, 4, 5, 6, 7, 8], &[2, 4]).unwrap();
/// let a = spdiags(&data, &[0, -1], [4, 4], Format::Csr).unwrap();
/// assert_eq!(a.toarray().unwrap().to_vec::<i64>().unwrap(), vec![1, 0, 0, 0, 5, 2, 0, 0, 0, 6, 3, 0, 0, 0, 7, 4]);
/// ```
pub fn spdiags(data: &Array, diags: &[isize], [m, n]: [usize; 2], format: Format) -> Result<SparseArray> {
    let op = "spdiags";
    let data = match data.ndim() {
        1 => data.reshape(&[1, data.size()][..])?,
        2 => data.clone(),
        d => return Err(xp_core::Error::invalid(op, format!("data must be 1-D or 2-D, got {d}-D"))),
    };
    let (k, len) = (data.shape()[0], data.shape()[1]);
    if k != diags.len() {
        return Err(xp_core::Error::invalid(
            op,
            format!("number of diagonals ({k}) does not match the number of offsets ({})", diags.len()),
        ));
    }
    let mods = on(data.device());
    let (mut rows, mut cols, mut vals) = (vec![], vec![], vec![]);
    for (i, &d) in diags.iter().enumerate() {
        // columns j with 0 <= j - d < m, j < n and j < len
        let lo = d.max(0);
        let hi = (n as isize).min(len as isize).min(m as isize + d);
        if hi <= lo {
            continue;
        }
        let j: Array = mods.arange(lo as i64, hi as i64, 1i64, Some(DType::I64))?;
        rows.push(j.sub(d as i64)?);
        vals.push(data.slice([xp_core::SliceElem::Index(i as isize), xp_core::SliceElem::from(lo..hi)])?);
        cols.push(j);
    }
    let ix = super::index_dtype(m.max(n));
    let coo = if vals.is_empty() {
        let z = mods.zeros([0], DType::I64)?;
        CooArray::from_parts(mods.zeros([0], data.dtype())?, z.clone(), z, [m, n], true, ix)?
    } else {
        let (r, c, v) = (cat(&rows)?, cat(&cols)?, cat(&vals)?);
        let keep = v.ne(0)?;
        let pick = |x: &Array| crate::compress(&keep, x, 0);
        CooArray::from_parts(pick(&v)?, pick(&r)?, pick(&c)?, [m, n], false, ix)?
    };
    SparseArray::Coo(coo).asformat(format)
}
