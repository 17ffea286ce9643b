//! Matrix Market files (`scipy.io.mmread` / `mmwrite`) in the coordinate format: fields `real`,
//! `integer`, `complex` and `pattern`, symmetries `general`, `symmetric`, `skew-symmetric` and
//! `hermitian` (the mirrored entries are made on reading). Read into a COO array of float64,
//! int64 or complex128 (pattern: float64 ones, as SciPy); written as `general`, with the field of
//! the array's dtype and each value's shortest exact decimal form.
//!
//! ```
//! # let dir = std::env::temp_dir().join(format!("xp-mm-doc-{}", std::process::id()));
//! # std::fs::create_dir_all(&dir).unwrap();
//! let a = xp::sparse::CsrArray::from_dense(&xp::Array::from_vec(vec![0.5f64, 0.0, 0.0, -2.0], &[2, 2]).unwrap()).unwrap();
//! let path = dir.join("a.mtx");
//! xp::sparse::mmwrite(&path, &a).unwrap();
//! let b = xp::sparse::mmread(&path).unwrap();
//! assert_eq!(b.toarray().unwrap().to_vec::<f64>().unwrap(), vec![0.5, 0.0, 0.0, -2.0]);
//! # std::fs::remove_dir_all(&dir).unwrap();
//! ```
use super::{CooArray, Sparse};
use crate::Array;
use std::fmt::Write as _;
use std::path::Path;
use xp_core::{Complex64, DType, Error, Result};

/// SciPy's `mmread(path)` of a coordinate file, as a COO array in host memory.
///
/// Errors: [`Error::Io`] when the file cannot be read; [`Error::BadFile`] naming the line for a
/// malformed header, size line or entry, an index outside the size, or a count that differs from
/// the entries; the dense `array` format is refused the same way.
pub fn mmread(path: impl AsRef<Path>) -> Result<CooArray> {
    let path = path.as_ref();
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| Error::Io {
        op: "mmread",
        path: shown.clone(),
        msg: e.to_string(),
    })?;
    let bad = |line: usize, msg: String| Error::BadFile { path: shown.clone(), msg: format!("line {line}: {msg}") };
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
    let (_, head) = lines.next().ok_or_else(|| bad(1, "empty file".into()))?;
    let words: Vec<String> = head.split_whitespace().map(|w| w.to_ascii_lowercase()).collect();
    if words.len() != 5 || words[0] != "%%matrixmarket" || words[1] != "matrix" {
        return Err(bad(1, format!("not a Matrix Market header: {head:?}")));
    }
    if words[2] != "coordinate" {
        return Err(bad(1, format!("format {:?} is not supported (only coordinate)", words[2])));
    }
    let (field, sym) = (words[3].as_str(), words[4].as_str());
    if !["real", "double", "integer", "complex", "pattern"].contains(&field) {
        return Err(bad(1, format!("unknown field {field:?}")));
    }
    if !["general", "symmetric", "skew-symmetric", "hermitian"].contains(&sym) {
        return Err(bad(1, format!("unknown symmetry {sym:?}")));
    }
    let mut body = lines.filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('%'));
    let (sl, size) = body.next().ok_or_else(|| bad(2, "no size line".into()))?;
    let nums = |l: usize, s: &str| -> Result<Vec<u64>> {
        s.split_whitespace().map(|w| w.parse::<u64>().map_err(|_| bad(l, format!("{w:?} is not a count")))).collect()
    };
    let [m, n, nnz] = nums(sl, size)?[..] else {
        return Err(bad(sl, format!("size line {size:?} is not 'rows cols entries'")));
    };
    let (m, n, nnz) = (m as usize, n as usize, nnz as usize);
    // (the count is the file's word: reserve no more than its text can hold)
    let reserve = nnz.min(text.len() / 4);
    let (mut row, mut col, mut re, mut im) =
        (Vec::with_capacity(reserve), Vec::with_capacity(reserve), Vec::new(), Vec::new());
    let mut ints: Vec<i64> = Vec::new();
    let mut count = 0usize;
    for (l, entry) in body {
        let w: Vec<&str> = entry.split_whitespace().collect();
        let want = match field {
            "pattern" => 2,
            "complex" => 4,
            _ => 3,
        };
        if w.len() != want {
            return Err(bad(l, format!("an entry of a {field} file has {want} fields: {entry:?}")));
        }
        let at = |s: &str, size: usize| -> Result<i64> {
            let v: usize = s.parse().map_err(|_| bad(l, format!("{s:?} is not an index")))?;
            if v == 0 || v > size {
                return Err(bad(l, format!("index {v} outside 1..={size}")));
            }
            Ok(v as i64 - 1)
        };
        let (i, j) = (at(w[0], m)?, at(w[1], n)?);
        let float = |s: &str| s.parse::<f64>().map_err(|_| bad(l, format!("{s:?} is not a number")));
        let (x, y) = match field {
            "pattern" => (1.0, 0.0),
            "integer" => {
                let v: i64 = w[2].parse().map_err(|_| bad(l, format!("{:?} is not an integer", w[2])))?;
                ints.push(v);
                (v as f64, 0.0)
            }
            "complex" => (float(w[2])?, float(w[3])?),
            _ => (float(w[2])?, 0.0),
        };
        row.push(i);
        col.push(j);
        re.push(x);
        im.push(y);
        count += 1;
        if i != j && sym != "general" {
            // the mirrored entry: the same, negated, or conjugated
            row.push(j);
            col.push(i);
            let (mx, my) = match sym {
                "skew-symmetric" => (-x, -y),
                "hermitian" => (x, -y),
                _ => (x, y),
            };
            re.push(mx);
            im.push(my);
            if field == "integer" {
                ints.push(if sym == "skew-symmetric" { -ints[ints.len() - 1] } else { ints[ints.len() - 1] });
            }
        }
    }
    if count != nnz {
        return Err(bad(sl, format!("the size line announces {nnz} entries, the file has {count}")));
    }
    let k = row.len();
    let data = match field {
        "integer" => Array::from_vec(ints, [k])?,
        "complex" => Array::from_vec(re.iter().zip(&im).map(|(&a, &b)| Complex64::new(a, b)).collect::<Vec<_>>(), [k])?,
        _ => Array::from_vec(re, [k])?,
    };
    CooArray::new(&data, &Array::from_vec(row, [k])?, &Array::from_vec(col, [k])?, [m, n])
}

/// SciPy's `mmwrite(path, a)`: the canonical entries of `a` (duplicates summed) in the coordinate
/// format, `general` symmetry; field `integer` for integer and bool values, `real` for floats,
/// `complex` for complex ones.
pub fn mmwrite(path: impl AsRef<Path>, a: &dyn Sparse) -> Result<()> {
    let path = path.as_ref();
    let coo = a.canonical_csr()?.tocoo()?;
    let [m, n] = coo.shape();
    let (row, col) = (coo.row().to_device(xp_core::Device::Cpu)?, coo.col().to_device(xp_core::Device::Cpu)?);
    let (row, col) = (row.cast_if(DType::I64)?.to_vec::<i64>()?, col.cast_if(DType::I64)?.to_vec::<i64>()?);
    let d = coo.data().to_device(xp_core::Device::Cpu)?;
    let (field, vals): (&str, Vec<String>) = match d.dtype().kind() {
        xp_core::Kind::Bool | xp_core::Kind::Int | xp_core::Kind::Uint => {
            ("integer", d.astype(DType::I64)?.to_vec::<i64>()?.iter().map(|v| v.to_string()).collect())
        }
        xp_core::Kind::Complex => (
            "complex",
            d.astype(DType::C128)?.to_vec::<Complex64>()?.iter().map(|c| format!("{:e} {:e}", c.re, c.im)).collect(),
        ),
        xp_core::Kind::Float => {
            ("real", d.astype(DType::F64)?.to_vec::<f64>()?.iter().map(|v| format!("{v:e}")).collect())
        }
    };
    let mut out = format!("%%MatrixMarket matrix coordinate {field} general\n%\n{m} {n} {}\n", vals.len());
    for ((r, c), v) in row.iter().zip(&col).zip(&vals) {
        let _ = writeln!(out, "{} {} {v}", r + 1, c + 1);
    }
    std::fs::write(path, out).map_err(|e| Error::Io {
        op: "mmwrite",
        path: path.display().to_string(),
        msg: e.to_string(),
    })
}
