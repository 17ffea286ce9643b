//! Sparse arrays in SciPy's own `.npz` layout (`scipy.sparse.save_npz` / `load_npz`): members
//! `data`, `indices` and `indptr` (CSR, CSC), `row` and `col` (COO) or `offsets` (DIA), `shape`
//! (int64), `format`
//! (a byte string: `b'csr'`) and `_is_array` (true: a sparse array, not a matrix). A file SciPy
//! wrote loads here and the reverse.
//!
//! ```
//! # let dir = std::env::temp_dir().join(format!("xp-sparse-doc-{}", std::process::id()));
//! # std::fs::create_dir_all(&dir).unwrap();
//! let a = xp::sparse::CsrArray::from_dense(&xp::Array::from_vec(vec![0i64, 3, 4, 0], &[2, 2]).unwrap()).unwrap();
//! let path = dir.join("a.npz");
//! xp::sparse::save_npz(&path, &a, false).unwrap();
//! let b = xp::sparse::load_npz(&path).unwrap();
//! assert_eq!(b.format(), xp::sparse::Format::Csr);
//! assert_eq!(b.toarray().unwrap().to_vec::<i64>().unwrap(), vec![0, 3, 4, 0]);
//! # std::fs::remove_dir_all(&dir).unwrap();
//! ```
use super::{BsrArray, CooArray, CooArray1d, CscArray, CsrArray, CsrArray1d, DiaArray, SparseArray, SparseArray1d};
use crate::io::npz::{load_on, save_archive};
use crate::Array;
use std::path::Path;
use xp_core::{DType, Device, Error, Result, SliceElem};

/// SciPy's `save_npz(path, a, compressed)`: `a` in SciPy's layout (`.npz` appended to a path
/// without it); deflated members when `compressed` (SciPy's default is true). Atomic like
/// [`crate::io::save`].
pub fn save_npz(path: impl AsRef<Path>, a: impl Into<SparseArray>, compressed: bool) -> Result<()> {
    let op = "save_npz";
    let a = a.into();
    let shape = Array::from_vec(a.shape().iter().map(|&d| d as i64).collect::<Vec<_>>(), [2])?;
    let is_array = Array::from_vec(vec![true], [])?;
    let (parts, format): (Vec<(&str, Array)>, &str) = match &a {
        SparseArray::Csr(x) => (vec![("indices", x.indices().clone()), ("indptr", x.indptr().clone())], "csr"),
        SparseArray::Csc(x) => (vec![("indices", x.indices().clone()), ("indptr", x.indptr().clone())], "csc"),
        SparseArray::Coo(x) => (vec![("row", x.row().clone()), ("col", x.col().clone())], "coo"),
        SparseArray::Dia(x) => (vec![("offsets", x.offsets().clone())], "dia"),
        SparseArray::Bsr(x) => (vec![("indices", x.indices().clone()), ("indptr", x.indptr().clone())], "bsr"),
    };
    let data = match &a {
        SparseArray::Csr(x) => x.data().clone(),
        SparseArray::Csc(x) => x.data().clone(),
        SparseArray::Coo(x) => x.data().clone(),
        SparseArray::Dia(x) => x.data().clone(),
        SparseArray::Bsr(x) => x.data().clone(),
    };
    let mut arrays: Vec<(&str, &Array)> = parts.iter().map(|(n, x)| (*n, x)).collect();
    arrays.extend([("shape", &shape), ("data", &data), ("_is_array", &is_array)]);
    save_archive(op, path.as_ref(), &arrays, &[("format", format)], compressed)
}

/// SciPy's `load_npz(path)` into host memory.
pub fn load_npz(path: impl AsRef<Path>) -> Result<SparseArray> {
    load_npz_on(path, Device::Cpu)
}

/// SciPy's `load_npz(path)` onto `device`.
///
/// Errors: those of [`crate::io::load_npz`]; [`Error::BadFile`] for an archive without SciPy's
/// members; [`Error::InvalidArgument`] for a format SciPy does not write; the
/// constructors' errors for parts that do not form an array.
pub fn load_npz_on(path: impl AsRef<Path>, device: Device) -> Result<SparseArray> {
    let path = path.as_ref();
    let npz = load_on(path, device)?;
    let bad = |msg: String| Error::BadFile { path: path.display().to_string(), msg };
    let format = npz.text("format").ok_or_else(|| bad("not a sparse array: no 'format' member".into()))?;
    let get = |name: &str| npz.get(name).ok_or_else(|| bad(format!("a {format} array needs a '{name}' member")));
    let shape = get("shape")?.cast_if(DType::I64)?.to_vec::<i64>()?;
    let [m, n] = shape[..] else {
        return Err(bad(format!("shape {shape:?} is not two dimensions (a 1-D array loads by load_npz_1d)")));
    };
    let dim = |d: i64| usize::try_from(d).map_err(|_| bad(format!("negative dimension in shape {shape:?}")));
    let shape = [dim(m)?, dim(n)?];
    let data = get("data")?;
    Ok(match format {
        "csr" => SparseArray::Csr(CsrArray::new(data, get("indices")?, get("indptr")?, shape)?),
        "csc" => SparseArray::Csc(CscArray::new(data, get("indices")?, get("indptr")?, shape)?),
        "coo" => {
            let (row, col) = match npz.get("coords") {
                Some(c) => (c.slice([SliceElem::Index(0)])?, c.slice([SliceElem::Index(1)])?),
                None => (get("row")?.clone(), get("col")?.clone()),
            };
            SparseArray::Coo(CooArray::new(data, &row, &col, shape)?)
        }
        "dia" => SparseArray::Dia(DiaArray::new(data, get("offsets")?, shape)?),
        "bsr" => SparseArray::Bsr(BsrArray::new(data, get("indices")?, get("indptr")?, shape)?),
        f => return Err(Error::invalid("load_npz", format!("sparse format {f:?} is not supported by xp yet"))),
    })
}

/// SciPy's `save_npz(path, v, compressed)` of a 1-D array: SciPy's members (`coords` of shape
/// `(1, nnz)` for COO, `indices` and `indptr` for CSR; `shape` of one element).
pub fn save_npz_1d(path: impl AsRef<Path>, v: impl Into<SparseArray1d>, compressed: bool) -> Result<()> {
    let v = v.into();
    let shape = Array::from_vec(vec![v.shape()[0] as i64], [1])?;
    let is_array = Array::from_vec(vec![true], [])?;
    let c = v.line();
    let (parts, format): (Vec<(&str, Array)>, &str) = match &v {
        SparseArray1d::Coo(_) => (vec![("coords", c.indices.reshape(&[1, c.indices.size()][..])?)], "coo"),
        SparseArray1d::Csr(_) => (vec![("indices", c.indices.clone()), ("indptr", c.indptr.clone())], "csr"),
    };
    let mut arrays: Vec<(&str, &Array)> = parts.iter().map(|(n, x)| (*n, x)).collect();
    arrays.extend([("shape", &shape), ("data", &c.data), ("_is_array", &is_array)]);
    save_archive("save_npz", path.as_ref(), &arrays, &[("format", format)], compressed)
}

/// SciPy's `load_npz(path)` of a 1-D array, into host memory.
pub fn load_npz_1d(path: impl AsRef<Path>) -> Result<SparseArray1d> {
    load_npz_1d_on(path, Device::Cpu)
}

/// SciPy's `load_npz(path)` of a 1-D array (COO or CSR) onto `device`; errors as
/// [`load_npz_on`]'s.
pub fn load_npz_1d_on(path: impl AsRef<Path>, device: Device) -> Result<SparseArray1d> {
    let path = path.as_ref();
    let npz = load_on(path, device)?;
    let bad = |msg: String| Error::BadFile { path: path.display().to_string(), msg };
    let format = npz.text("format").ok_or_else(|| bad("not a sparse array: no 'format' member".into()))?;
    let get = |name: &str| npz.get(name).ok_or_else(|| bad(format!("a 1-D {format} array needs a '{name}' member")));
    let shape = get("shape")?.cast_if(DType::I64)?.to_vec::<i64>()?;
    let [len] = shape[..] else {
        return Err(bad(format!("shape {shape:?} is not one dimension (a 2-D array loads by load_npz)")));
    };
    let len = usize::try_from(len).map_err(|_| bad(format!("negative length in shape {shape:?}")))?;
    let data = get("data")?;
    Ok(match format {
        "coo" => SparseArray1d::Coo(CooArray1d::new(data, &get("coords")?.ravel()?, len)?),
        "csr" => SparseArray1d::Csr(CsrArray1d::new(data, get("indices")?, get("indptr")?, len)?),
        f => return Err(Error::invalid("load_npz", format!("SciPy has no 1-D {f:?} array"))),
    })
}
