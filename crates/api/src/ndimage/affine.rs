//! SciPy's `ndimage.affine_transform`: the output at index `o` samples the input at
//! `matrix · o + offset` by spline interpolation. The coordinates are built on the device as
//! SciPy's C code computes them (`offset`, then `+ o[l] · matrix[a, l]` for each output axis in
//! turn; for a diagonal given as a 1-D matrix, `(o + offset / matrix) · matrix` as its
//! `zoom_shift`), and sampled by [`map_coordinates`](super::map_coordinates), which prefilters
//! the input and rounds integer outputs as SciPy does.
use super::{map_coordinates, per_axis, Interpolation};
use crate::Array;
use xp_core::{DType, Error, Result};

/// SciPy's `affine_transform(input, matrix, offset, output_shape, order, mode, cval,
/// prefilter)`: the output (of `output_shape`, default the input's) at index `o` is the input
/// interpolated at `matrix · o + offset`. `matrix` (float64 values, on any device; it is read to
/// the host) is one of SciPy's forms:
/// - `(ndim,)`: the diagonal of the matrix (SciPy's zoom and shift path);
/// - `(ndim, out_ndim)`: the linear map, the output may have another number of axes;
/// - `(ndim, ndim + 1)`: the map with the offset as its last column (`offset` is then ignored);
/// - `(ndim + 1, ndim + 1)`: homogeneous coordinates, the last row `[0, …, 0, 1]`.
///
/// `offset` is one value or one per input axis. The result has the input's dtype.
///
/// ```
/// use xp::ndimage::{affine_transform, Interpolation};
/// let x = xp::arange(0.0, 12.0, 1.0, None).unwrap().reshape(&[3, 4]).unwrap();
/// // the transpose: output (i, j) reads input (j, i)
/// let m = xp::Array::from_vec(vec![0.0, 1.0, 1.0, 0.0], &[2, 2]).unwrap();
/// let lin = Interpolation { order: 1, ..Default::default() };
/// let t = affine_transform(&x, &m, &[0.0], Some(&[4, 3]), lin).unwrap();
/// assert_eq!(t.to_vec::<f64>().unwrap(), x.transpose(..).unwrap().to_vec::<f64>().unwrap());
/// // a shift by one sample along the columns, as a homogeneous matrix
/// let h = xp::Array::from_vec(vec![1.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0], &[3, 3]).unwrap();
/// let s = affine_transform(&x, &h, &[0.0], None, lin).unwrap();
/// assert_eq!(s.to_vec::<f64>().unwrap()[..4], [1.0, 2.0, 3.0, 0.0]);
/// ```
pub fn affine_transform(
    input: &Array,
    matrix: &Array,
    offset: &[f64],
    output_shape: Option<&[usize]>,
    interp: Interpolation,
) -> Result<Array> {
    let op = "affine_transform";
    if interp.order > 5 {
        return Err(Error::invalid(op, format!("spline order not supported: {}", interp.order)));
    }
    let out_shape: Vec<usize> = output_shape.unwrap_or(input.shape()).to_vec();
    let nd = input.ndim();
    if nd < 1 || out_shape.is_empty() {
        return Err(Error::invalid(op, "input and output rank must be > 0"));
    }
    if matrix.dtype().is_complex() {
        return Err(Error::InvalidDType { op, dtype: matrix.dtype() });
    }
    let m = matrix.astype(DType::F64)?.to_vec::<f64>()?;
    let ms = matrix.shape().to_vec();
    if !(ms.len() == 1 || ms.len() == 2) || ms[0] < 1 {
        return Err(Error::invalid(op, "no proper affine matrix provided"));
    }
    let (mut rows, mut cols) = (ms[0], if ms.len() == 2 { ms[1] } else { 1 });
    let mut m = m;
    let mut offset = offset.to_vec();
    if ms.len() == 2 && cols == nd + 1 && (rows == nd || rows == nd + 1) {
        if rows == nd + 1 {
            let last = &m[nd * cols..];
            if last[..nd].iter().any(|&v| v != 0.0) || last[nd] != 1.0 {
                return Err(Error::invalid(
                    op,
                    format!(
                        "expected a homogeneous transformation matrix with shape {ms:?} for image shape {:?}, \
                         but the bottom row was not [0, …, 0, 1]",
                        input.shape()
                    ),
                ));
            }
        }
        // the last column is the offset
        offset = (0..nd).map(|a| m[a * cols + nd]).collect();
        m = (0..nd).flat_map(|a| m[a * cols..a * cols + nd].to_vec()).collect();
        (rows, cols) = (nd, nd);
    }
    if rows != nd {
        return Err(Error::invalid(op, "affine matrix has wrong number of rows"));
    }
    if ms.len() == 2 && cols != out_shape.len() {
        return Err(Error::invalid(op, "affine matrix has wrong number of columns"));
    }
    if ms.len() == 1 && out_shape.len() != nd {
        return Err(Error::invalid(op, "a diagonal matrix needs an output of the input's rank"));
    }
    let offset = per_axis(op, "offset", &offset, nd)?;
    let on = crate::on(input.device());
    let on_axis = |l: usize| -> Result<Array> {
        let mut s = vec![1; out_shape.len()];
        s[l] = out_shape[l];
        on.arange(0.0, out_shape[l] as f64, 1.0, Some(DType::F64))?.reshape_exact(&s)
    };
    let coords = (0..nd)
        .map(|a| {
            let c = if ms.len() == 1 {
                // SciPy's zoom_shift: (o + offset / zoom) · zoom
                on_axis(a)?.add(offset[a] / m[a])?.mul(m[a])?
            } else {
                // offset + o[0]·m[a, 0], + o[1]·m[a, 1], …
                let mut t = on_axis(0)?.mul(m[a * cols])?.add(offset[a])?;
                for l in 1..cols {
                    t = t.add(&on_axis(l)?.mul(m[a * cols + l])?)?;
                }
                t
            };
            c.broadcast_to(&out_shape[..])
        })
        .collect::<Result<Vec<_>>>()?;
    let coords = crate::stack(&coords.iter().collect::<Vec<_>>(), 0)?;
    map_coordinates(input, &coords, interp)
}
