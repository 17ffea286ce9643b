//! Arrays assembled from others: SciPy's `block_array` (a grid of blocks, `None` for zeros) and
//! `kronsum`.
//!
//! ```
//! use xp::sparse::{block_array, kronsum, CsrArray, Format, Sparse};
//! let a = CsrArray::from_dense(&xp::Array::from_vec(vec![1.0f64, 2.0, 0.0, 3.0], &[2, 2]).unwrap()).unwrap();
//! let g = block_array(&[&[Some(&a as &dyn Sparse), None], &[None, Some(&a)]], None).unwrap();
//! assert_eq!((g.format(), g.shape(), g.nnz()), (Format::Coo, [4, 4], 6));
//! let k = kronsum(&a, &a, None).unwrap();     // kron(I, a) + kron(a, I)
//! assert_eq!(k.toarray().unwrap().to_vec::<f64>().unwrap()[..4], [2.0, 2.0, 2.0, 0.0]);
//! ```
use super::keys::cat;
use super::{index_dtype_for, kron, CooArray, Format, Sparse, SparseArray};
use xp_core::{DType, Error, Result};

/// SciPy's `block_array(blocks, format)`: the grid `blocks` (rows of equal length; `None` is a
/// block of zeros) as one array. Blocks of a grid row share their row count and blocks of a grid
/// column their column count; a grid row or column of `None` only is empty. A grid of CSR blocks
/// without `None` gives CSR, one of CSC blocks CSC, any other COO (SciPy's formats); `format`
/// converts the result.
pub fn block_array(blocks: &[&[Option<&dyn Sparse>]], format: Option<Format>) -> Result<SparseArray> {
    let op = "block_array";
    let width = blocks.first().map(|r| r.len()).unwrap_or(0);
    if width == 0 || blocks.iter().any(|r| r.len() != width) {
        return Err(Error::invalid(op, "blocks must be a non-empty grid: rows of one, non-zero length"));
    }
    // each grid row's height and each grid column's width, checked to agree
    let (mut heights, mut widths) = (vec![None; blocks.len()], vec![None; width]);
    for (i, row) in blocks.iter().enumerate() {
        for (j, b) in row.iter().enumerate() {
            let Some(b) = b else { continue };
            let [m, n] = b.shape();
            for (seen, got, what, at) in [(&mut heights[i], m, "row", i), (&mut widths[j], n, "column", j)] {
                match *seen {
                    Some(s) if s != got => {
                        return Err(Error::invalid(
                            op,
                            format!("blocks[{i}][{j}] has {got} {what}s where grid {what} {at} has {s}"),
                        ))
                    }
                    _ => *seen = Some(got),
                }
            }
        }
    }
    let present: Vec<&dyn Sparse> = blocks.iter().flat_map(|r| r.iter().flatten().copied()).collect();
    let (h, w): (Vec<usize>, Vec<usize>) =
        (heights.iter().map(|h| h.unwrap_or(0)).collect(), widths.iter().map(|w| w.unwrap_or(0)).collect());
    let shape: [usize; 2] = [h.iter().sum(), w.iter().sum()];
    let dt = present.iter().map(|b| b.dtype()).reduce(xp_core::promote_types).unwrap_or(DType::F64);
    let device = present.first().map(|b| b.device()).unwrap_or(xp_core::Device::Cpu);
    let (mut rows, mut cols, mut data, mut ixs) = (vec![], vec![], vec![], vec![]);
    let mut r0 = 0usize;
    for (i, row) in blocks.iter().enumerate() {
        let mut c0 = 0usize;
        for (j, b) in row.iter().enumerate() {
            if let Some(b) = b {
                let coo = b.canonical_csr()?.tocoo()?;
                rows.push(coo.row().cast_if(DType::I64)?.add(r0 as i64)?);
                cols.push(coo.col().cast_if(DType::I64)?.add(c0 as i64)?);
                data.push(coo.data().cast_if(dt)?);
                ixs.push(coo.row().dtype());
            }
            c0 += w[j];
        }
        r0 += h[i];
    }
    let ix = index_dtype_for(&ixs, shape[0].max(shape[1]));
    let coo = if data.is_empty() {
        let z = crate::on(device).zeros([0], DType::I64)?;
        CooArray::from_parts(crate::on(device).zeros([0], dt)?, z.clone(), z, shape, true, ix)?
    } else {
        CooArray::from_parts(cat(&data)?, cat(&rows)?, cat(&cols)?, shape, false, ix)?
    };
    // SciPy's formats: CSR for a full grid of CSR blocks, CSC for one of CSC blocks, else COO
    let full = present.len() == blocks.len() * width;
    let all = |f: Format| full && present.iter().all(|b| b.format() == f);
    let out = if all(Format::Csr) {
        SparseArray::Csr(coo.tocsr()?)
    } else if all(Format::Csc) {
        SparseArray::Csc(coo.tocsc()?)
    } else {
        SparseArray::Coo(coo)
    };
    match format {
        Some(f) => out.asformat(f),
        None => Ok(out),
    }
}

/// SciPy's `kronsum(A, B, format)`: `kron(I_n, A) + kron(B, I_m)` of a square `m × m` array `A`
/// and a square `n × n` array `B` (identities of their promoted dtype), CSR unless `format`
/// says otherwise.
pub fn kronsum(a: &dyn Sparse, b: &dyn Sparse, format: Option<Format>) -> Result<SparseArray> {
    let op = "kronsum";
    for (x, name) in [(a, "A"), (b, "B")] {
        let [m, n] = x.shape();
        if m != n {
            return Err(Error::invalid(op, format!("{name} is not square ({m} × {n})")));
        }
    }
    let dt = xp_core::promote_types(a.dtype(), b.dtype());
    let eye = |n: usize| super::identity(n, dt, Format::Csr, a.device());
    let (i_m, i_n) = (eye(a.shape()[0])?, eye(b.shape()[0])?);
    let sum = kron(&i_n, a, Some(Format::Coo))?.add(&kron(b, &i_m, Some(Format::Coo))?)?;
    match format {
        Some(f) => sum.asformat(f),
        None => Ok(sum),
    }
}
