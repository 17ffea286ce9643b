//! Connected components: SciPy's `ndimage.label` and `generate_binary_structure`.
//!
//! ```
//! use xp::ndimage::{generate_binary_structure, label};
//! let mask = xp::Array::from_vec(vec![1u8, 1, 0, 0, 0, 1, 1, 0, 0], &[3, 3]).unwrap();
//! let four = label(&mask, None).unwrap();
//! assert_eq!(four.num_features, 3);
//! assert_eq!(four.labels.to_vec::<i32>().unwrap(), vec![1, 1, 0, 0, 0, 2, 3, 0, 0]);
//! let eight = label(&mask, Some(&generate_binary_structure(2, 2).unwrap())).unwrap();
//! assert_eq!(eight.labels.to_vec::<i32>().unwrap(), vec![1, 1, 0, 0, 0, 1, 2, 0, 0]);
//! ```
use crate::backend::Storage;
use crate::Array;
use xp_core::{DType, Error, FilterStorage, Kind, Result};

/// The result of [`label`]: SciPy's `(labeled_array, num_features)`.
#[derive(Clone, Debug)]
pub struct Labels {
    /// int32 labels of the input's shape: 1, 2, … in the C order of each component's first
    /// element, 0 for the background
    pub labels: Array,
    /// the number of components
    pub num_features: usize,
}

/// SciPy's `generate_binary_structure(rank, connectivity)`: the bool `3 × … × 3` neighbourhood
/// whose elements lie within `connectivity` unit steps of the centre (1: the faces, as a cross;
/// `rank`: every element), in host memory.
pub fn generate_binary_structure(rank: usize, connectivity: usize) -> Result<Array> {
    let n = 3usize.pow(rank as u32);
    let data: Vec<bool> = (0..n)
        .map(|mut k| {
            let mut steps = 0;
            for _ in 0..rank {
                steps += (k % 3 != 1) as usize;
                k /= 3;
            }
            steps <= connectivity.max(1)
        })
        .collect();
    Array::from_vec(data, vec![3; rank])
}

/// The backward half of `structure` (the offsets that precede the centre in C order), checked
/// as SciPy checks it: a `3 × … × 3` array of the input's rank, symmetric about its centre.
fn offsets(structure: &Array, rank: usize) -> Result<Vec<Vec<i8>>> {
    if structure.shape() != vec![3; rank].as_slice() {
        return Err(Error::invalid(
            "label",
            format!(
                "structure must have shape {:?} (3 along each of the input's axes), not {:?}",
                vec![3; rank],
                structure.shape()
            ),
        ));
    }
    let s = structure.not_equal(0)?.to_vec::<bool>()?;
    let n = s.len();
    if (0..n).any(|k| s[k] != s[n - 1 - k]) {
        return Err(Error::invalid("label", "structure must be symmetric about its centre"));
    }
    Ok((0..n / 2)
        .filter(|&k| s[k])
        .map(|k| {
            let mut o = vec![0i8; rank];
            let mut r = k;
            for a in (0..rank).rev() {
                o[a] = (r % 3) as i8 - 1;
                r /= 3;
            }
            o
        })
        .collect())
}

/// SciPy's `ndimage.label(input, structure)`: the connected components of the non-zero elements
/// of `input` (any real dtype, any layout, on its device). `structure` defaults to
/// `generate_binary_structure(rank, 1)` (faces only); it must be `3 × … × 3` and symmetric.
/// On the GPU the components come from a parallel union–find (up to 4 axes).
pub fn label(input: &Array, structure: Option<&Array>) -> Result<Labels> {
    if input.dtype().kind() == Kind::Complex {
        return Err(Error::InvalidDType { op: "label", dtype: input.dtype() });
    }
    if input.ndim() == 0 {
        let one = label(&input.reshape_exact(&[1])?, structure.map(|s| s.reshape_exact(&[3])).transpose()?.as_ref())?;
        return Ok(Labels { labels: one.labels.reshape_exact(&[])?, num_features: one.num_features });
    }
    let rank = input.ndim();
    let offs = match structure {
        Some(s) => offsets(s, rank)?,
        None => offsets(&generate_binary_structure(rank, 1)?, rank)?,
    };
    let fg = if input.dtype() == DType::Bool {
        input.ascontiguousarray()?
    } else {
        input.not_equal(0)?.ascontiguousarray()?
    };
    let (s, n) = match &*fg.read() {
        Storage::Cpu(x) => x.label(&fg.layout, &offs).map(|(s, n)| (Storage::Cpu(s), n))?,
        Storage::Cuda(x) => x.label(&fg.layout, &offs).map(|(s, n)| (Storage::Cuda(s), n))?,
    };
    let labels = Array::from_storage(s, input.shape());
    Ok(Labels { labels, num_features: n })
}
