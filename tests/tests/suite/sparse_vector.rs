//! 1-D sparse arrays (SciPy's 1-D `coo_array` and `csr_array`) against SciPy 1.17
//! (`tests/data/sparse_vector.json`, `scripts/gen_sparse_vector_reference.py`): every vector
//! (empty, zero length, duplicates, unsorted coordinates, explicit zeros, int32 and int64
//! coordinates) in every value dtype SciPy has, on every device and through the front end's
//! compositions: the CSR parts, arithmetic and comparisons with a second vector (SciPy's result
//! format, stored count and values), dense operands in every layout, products from both sides
//! with dense and sparse operands, reductions, indexing, and a 2-D array's rows, columns and
//! `max`/`min` along an axis as 1-D arrays; SciPy's own 1-D `.npz` files.
use super::common::{array, case_tolerance, split_cases};
use super::sparse::{expect, load};
use serde_json::Value;
use xp::sparse::{CooArray1d, CsrArray, CsrArray1d, Format, Sparse, Sparse1d, SparseArray1d};
use xp::{Array, BinaryOp, Device, Scalar};
use xp_testing::{compare, devices, layouts, Failures, Tolerance};

/// A result: sparse (format, dense form, stored values) or dense.
enum Got {
    Sparse(Format, Array, usize),
    Dense(Array),
}

fn sparse1(a: impl Into<SparseArray1d>) -> xp::Result<Got> {
    let a = a.into();
    Ok(Got::Sparse(a.format(), a.toarray()?, a.nnz()))
}

fn dense(a: xp::Result<Array>) -> xp::Result<Got> {
    a.map(Got::Dense)
}

/// `got` against SciPy's `want` (`null`: SciPy refuses it, not tested; `[format, dense, nnz]`
/// for a sparse result; the array otherwise). `format` false skips the format (SciPy's choice
/// for a zero-length product is an artefact of its code path).
fn check(f: &mut Failures, what: &str, dev: Device, got: xp::Result<Got>, want: &Value, tol: Tolerance, format: bool) {
    if want.is_null() {
        return;
    }
    f.add(
        (|| match (got.map_err(|e| format!("error {e}"))?, want.as_array()) {
            (Got::Sparse(fmt, d, nnz), Some(w)) => {
                let wf = if w[0] == "csr" { Format::Csr } else { Format::Coo };
                if format && fmt != wf {
                    return Err(format!("format {fmt:?}, SciPy's {wf:?}"));
                }
                if nnz as u64 != w[2].as_u64().unwrap() {
                    return Err(format!("nnz {nnz} where SciPy stores {}", w[2]));
                }
                compare(&d, &expect(&w[1], tol))
            }
            (Got::Dense(d), None) => compare(&d, &expect(want, tol)),
            (Got::Sparse(..), _) => Err("sparse where SciPy's is dense".into()),
            (Got::Dense(_), _) => Err("dense where SciPy's is sparse".into()),
        })()
        .map_err(|m| format!("on {dev}: {what}: {m}")),
    );
}

/// An operation of two sparse vectors.
type Pairwise = fn(&dyn Sparse1d, &dyn Sparse1d) -> xp::Result<CsrArray1d>;

fn matrix(v: &Value, dev: Device) -> CsrArray {
    let shape = [v[3][0].as_u64().unwrap() as usize, v[3][1].as_u64().unwrap() as usize];
    CsrArray::new(&load(&v[0], dev), &load(&v[1], dev), &load(&v[2], dev), shape).unwrap()
}

fn reference(f: &mut Failures, dev: Device, c: &Value) {
    let name = c["name"].as_str().unwrap();
    let n = c["len"].as_u64().unwrap() as usize;
    let tol = case_tolerance(c);
    let exact = Tolerance { rtol: 0.0, atol: 0.0 };
    let v = CooArray1d::new(&load(&c["data"], dev), &load(&c["coords"], dev), n).unwrap();
    let w = CooArray1d::new(&load(&c["w"][0], dev), &load(&c["w"][1], dev), n).unwrap();
    let csr = v.tocsr().unwrap();
    let at = |what: &str| format!("{name}: {what}");
    // the CSR parts (sorted, duplicates summed) and the dense array from every form
    for (i, part) in [csr.data(), csr.indices(), csr.indptr()].into_iter().enumerate() {
        let t = if i == 0 { tol } else { exact };
        check(f, &at(&format!("tocsr part {i}")), dev, dense(Ok(part.clone())), &c["csr"][i], t, true);
    }
    for (what, d) in [
        ("coo.toarray", v.toarray()),
        ("csr.toarray", csr.toarray()),
        ("sum_duplicates", v.sum_duplicates().and_then(|a| a.toarray())),
        ("csr.tocoo", csr.tocoo().and_then(|a| a.toarray())),
        ("from_dense", v.toarray().and_then(|d| CsrArray1d::from_dense(&d)).and_then(|a| a.toarray())),
        ("as_row", v.as_row().toarray().and_then(|d| d.reshape(&[n][..]))),
        ("eliminate_zeros", csr.eliminate_zeros().and_then(|a| a.toarray())),
    ] {
        check(f, &at(what), dev, dense(d), &c["dense"], tol, true);
    }
    let again = CsrArray1d::new(csr.data(), csr.indices(), csr.indptr(), n).and_then(|a| a.toarray());
    check(f, &at("CsrArray1d::new"), dev, dense(again), &c["dense"], tol, true);
    f.add(match v.count_nonzero() {
        Ok(k) if k as u64 == c["count_nonzero"].as_u64().unwrap() => Ok(()),
        other => Err(format!("on {dev}: {name}: count_nonzero {other:?}, SciPy {}", c["count_nonzero"])),
    });
    check(f, &at("nonzero"), dev, dense(v.nonzero()), &c["nonzero"], exact, true);
    if !csr.has_canonical_format() || v.has_canonical_format() {
        f.add(Err(format!("{name}: canonical flags (coo as given, csr sorted) not as SciPy's")));
    }
    let ops = &c["ops"];
    let op = |k: &str| &ops[k];
    // with a second sparse vector, COO and CSR on either side
    let bin: [(&str, Pairwise); 5] = [
        ("add", |a, b| a.add(b)),
        ("sub", |a, b| a.sub(b)),
        ("multiply", |a, b| a.multiply(b)),
        ("maximum", |a, b| a.maximum(b)),
        ("minimum", |a, b| a.minimum(b)),
    ];
    let wcsr = w.tocsr().unwrap();
    for (k, g) in bin {
        check(f, &at(k), dev, g(&v, &w).and_then(sparse1), op(k), tol, true);
        check(f, &at(&format!("csr {k}")), dev, g(&csr, &wcsr).and_then(sparse1), op(k), tol, true);
    }
    for (k, o) in [
        ("ne", BinaryOp::Ne),
        ("lt", BinaryOp::Lt),
        ("gt", BinaryOp::Gt),
        ("eq", BinaryOp::Eq),
        ("le", BinaryOp::Le),
        ("ge", BinaryOp::Ge),
    ] {
        check(f, &at(k), dev, v.compare(&wcsr, o).and_then(sparse1), op(k), exact, true);
    }
    for (k, o, s) in [("gt_scalar", BinaryOp::Gt, 0), ("ne_scalar", BinaryOp::Ne, 0), ("lt_scalar", BinaryOp::Lt, 1)] {
        check(f, &at(k), dev, v.compare_scalar(Scalar::Int(s), o).and_then(sparse1), op(k), exact, true);
    }
    let ftol = Tolerance { rtol: tol.rtol.max(1e-6), atol: tol.atol.max(1e-6) };
    check(f, &at("divide"), dev, dense(v.divide(&w)), op("divide"), ftol, true);
    check(f, &at("divide_scalar"), dev, v.divide_scalar(2.0).and_then(sparse1), op("divide_scalar"), ftol, true);
    check(f, &at("mul_scalar"), dev, v.mul_scalar(3).and_then(sparse1), op("mul_scalar"), tol, true);
    check(f, &at("power"), dev, v.power(2).and_then(sparse1), op("power"), tol, true);
    check(f, &at("abs"), dev, v.abs().and_then(sparse1), op("abs"), tol, true);
    check(f, &at("neg"), dev, v.neg().and_then(sparse1), op("neg"), tol, true);
    // dense operands in every layout
    let (xb, xs) = array(&c["x"]);
    let (zb, zs) = array(&c["xnz"]);
    // (SciPy takes a dense operand of one element for a scalar: CSR results at length 1)
    let one = n != 1;
    for ((layout, x), (_, xnz)) in layouts(&xb, &xs, dev).unwrap().into_iter().zip(layouts(&zb, &zs, dev).unwrap()) {
        let k = |s: &str| at(&format!("{s} ({layout})"));
        check(f, &k("multiply_dense"), dev, v.multiply_dense(&x).and_then(sparse1), op("multiply_dense"), tol, one);
        check(f, &k("add_dense"), dev, dense(v.add_dense(&x)), op("add_dense"), tol, true);
        check(f, &k("divide_dense"), dev, v.divide_dense(&xnz).and_then(sparse1), op("divide_dense"), ftol, one);
        check(f, &k("v @ x"), dev, dense(v.matmul(&x)), op("matvec"), tol, true);
        check(f, &k("x @ v"), dev, dense(xp::matmul(&x, &csr)), op("rmatvec"), tol, true);
    }
    let (mb, ms) = array(&c["xm"]);
    for (layout, xm) in layouts(&mb, &ms, dev).unwrap() {
        check(f, &at(&format!("v @ X ({layout})")), dev, dense(xp::matmul(&v, &xm)), op("matmat"), tol, true);
    }
    let (yb, ys) = array(&c["ym"]);
    for (layout, ym) in layouts(&yb, &ys, dev).unwrap() {
        check(f, &at(&format!("Y @ v ({layout})")), dev, dense(csr.rmatmul(&ym)), op("rmatmat"), tol, true);
    }
    // sparse products
    let (bmat, amat) = (matrix(&c["bmat"], dev), matrix(&c["amat"], dev));
    // (SciPy's format for a product of an empty vector is an artefact of its code path)
    let long = n > 0 && v.nnz() > 0;
    check(f, &at("v @ w"), dev, dense(xp::matmul(&v, &wcsr)), op("dot_sparse"), tol, true);
    check(f, &at("v @ B"), dev, xp::matmul(&v, &bmat).and_then(sparse1), op("matmul_sparse"), tol, long);
    check(f, &at("A @ v"), dev, xp::matmul(&amat, &v).and_then(sparse1), op("matrix_vector"), tol, long);
    check(
        f,
        &at("csc A @ v"),
        dev,
        amat.tocsc().and_then(|a| a.matmul_vector(&csr)).and_then(sparse1),
        op("matrix_vector"),
        tol,
        long,
    );
    // reductions
    let mtol = if tol.rtol == 0.0 { Tolerance { rtol: 1e-12, atol: 1e-12 } } else { tol };
    for (k, got, t) in [
        ("sum", v.sum(), tol),
        ("mean", v.mean(), mtol),
        ("max", v.max(false), tol),
        ("min", csr.min(false), tol),
        ("max_explicit", v.max(true), tol),
        ("min_explicit", csr.min(true), tol),
        ("argmax", v.argmax(false), exact),
        ("argmin", csr.argmin(false), exact),
    ] {
        check(f, &at(k), dev, dense(got), op(k), t, true);
    }
    // indexing
    if n > 0 {
        let ni = n as isize;
        for (k, i) in [("get_0", 0), ("get_last", -1), ("get_mid", ni / 2)] {
            check(f, &at(k), dev, dense(v.get(i)), op(k), tol, true);
        }
        let take = Array::from_vec(vec![ni as i64 - 1, 0, 0, -1], [4]).unwrap().to_device(dev).unwrap();
        let mask =
            Array::from_vec((0..n).map(|i| i % 2 == 0).collect::<Vec<_>>(), [n]).unwrap().to_device(dev).unwrap();
        let s = |start, stop, step| xp::SliceElem::Slice { start, stop, step };
        for (k, got) in [
            ("slice_1_none_2", csr.slice(s(Some(1), None, 2))),
            ("slice_reversed", csr.slice(s(None, None, -1))),
            ("slice_last3", csr.slice(s(Some(-3), None, 1))),
            ("take", csr.take(&take)),
            ("mask", csr.take(&mask)),
        ] {
            // (SciPy's empty selection is COO whatever the format)
            check(f, &at(k), dev, got.and_then(sparse1), op(k), tol, one);
        }
        check(
            f,
            &at("coo slice"),
            dev,
            v.slice(s(None, None, -1)).and_then(|a| a.tocsr()).and_then(sparse1),
            op("slice_reversed"),
            tol,
            true,
        );
    }
    if let Some(want) = ops.get("reshape").filter(|w| !w.is_null()) {
        let got = v.reshape([2, n / 2]).and_then(|a| Ok(Got::Sparse(Format::Coo, a.toarray()?, a.nnz())));
        check(f, &at("reshape"), dev, got, want, tol, true);
    }
    // a 2-D array's lines and extremes along an axis
    if let Some(lines) = c.get("lines") {
        let m = matrix(&c["matrix"], dev);
        let csc = m.tocsc().unwrap();
        let l = |k: &str| &lines[k];
        for (k, got) in [
            ("row_1", m.row(1)),
            ("row_last", m.row(-1)),
            ("col_0", m.col(0)),
            ("col_last", csc.col(-1)),
            ("csc_col_0", csc.col(0)),
            ("max_0", m.max_along(0, false)),
            ("max_1", csc.max_along(1, false)),
            ("min_0", m.min_along(0, false)),
            ("min_1", m.min_along(1, false)),
        ] {
            check(f, &at(k), dev, got.and_then(sparse1), l(k), tol, true);
        }
    }
}
split_cases!(reference, "sparse_vector");

/// The same cases through the front end's compositions (what a backend without its own sparse
/// loops runs).
fn generic(f: &mut Failures, dev: Device, c: &Value) {
    if super::common::racing() {
        return;
    }
    xp::sparse::force_generic(true);
    reference(f, dev, c);
    xp::sparse::force_generic(false);
}
split_cases!(generic, "sparse_vector");

/// SciPy's 1-D `.npz` files load, and xp writes the same members back.
#[test]
fn scipy_1d_npz_files_load_and_xp_writes_the_same_members() {
    let dir = std::env::temp_dir().join(format!("xp-sparse-npz1d-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for dev in devices() {
        for c in super::common::load("sparse_vector_files") {
            let file = c["file"].as_str().unwrap();
            let theirs = super::common::data_dir().join("sparse").join(file);
            let a = xp::sparse::load_npz_1d_on(&theirs, dev).unwrap();
            assert_eq!(a.format().name(), c["format"].as_str().unwrap(), "{file}");
            assert_eq!(a.nnz() as u64, c["nnz"].as_u64().unwrap(), "{file}");
            let want = expect(&c["dense"], Tolerance { rtol: 0.0, atol: 0.0 });
            compare(&a.toarray().unwrap(), &want).unwrap_or_else(|m| panic!("{file} on {dev}: {m}"));
            assert!(xp::sparse::load_npz_on(&theirs, dev).is_err(), "{file}: a 1-D file as a 2-D array");
            let ours = dir.join(file);
            xp::sparse::save_npz_1d(&ours, a.clone(), true).unwrap();
            let (t, o) = (xp::io::load_npz(&theirs).unwrap(), xp::io::load_npz(&ours).unwrap());
            let names = |n: &xp::io::Npz| {
                let mut v: Vec<String> = n.names().map(String::from).collect();
                v.sort();
                v
            };
            assert_eq!(names(&t), names(&o), "{file}");
            for (name, x) in t.iter() {
                let y = o.get(name).unwrap();
                assert_eq!((x.dtype(), x.shape()), (y.dtype(), y.shape()), "{file}: {name}");
                assert_eq!(x.to_buffer().unwrap(), y.to_buffer().unwrap(), "{file}: {name}");
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Bad input is a typed error naming what is wrong, and the operands are left as they were.
#[test]
fn bad_vectors_are_typed_errors() {
    for dev in devices() {
        let put = |v: Vec<i64>| Array::from_vec(v.clone(), [v.len()]).unwrap().to_device(dev).unwrap();
        let data = Array::from_vec(vec![1.0f64, 2.0], [2]).unwrap().to_device(dev).unwrap();
        assert!(matches!(
            CooArray1d::new(&data, &put(vec![0, 5]), 5),
            Err(xp::Error::IndexOutOfBounds { index: 5, .. })
        ));
        assert!(matches!(
            CooArray1d::new(&data, &put(vec![-1, 0]), 5),
            Err(xp::Error::IndexOutOfBounds { index: -1, .. })
        ));
        assert!(CooArray1d::new(&data, &put(vec![0]), 5).is_err());
        assert!(CsrArray1d::new(&data, &put(vec![0, 1]), &put(vec![0, 1]), 5).is_err());
        assert!(CsrArray1d::new(&data, &put(vec![0, 1]), &put(vec![0, 1, 2]), 5).is_err());
        let v = CooArray1d::new(&data, &put(vec![3, 1]), 5).unwrap();
        let u = CooArray1d::new(&data, &put(vec![3, 1]), 4).unwrap();
        assert!(matches!(v.add(&u), Err(xp::Error::ShapeMismatch { .. })));
        assert!(matches!(v.matmul(&xp::on(dev).ones([4], xp::DType::F64).unwrap()), Err(xp::Error::NotAligned { .. })));
        assert!(v.multiply_dense(&xp::on(dev).ones([2, 5], xp::DType::F64).unwrap()).is_err());
        assert!(matches!(v.get(5), Err(xp::Error::IndexOutOfBounds { .. })));
        assert!(v.reshape([2, 3]).is_err());
        let m = CsrArray::from_dense(&xp::on(dev).eye(3, None, 0, xp::DType::F64).unwrap()).unwrap();
        assert!(matches!(m.row(3), Err(xp::Error::IndexOutOfBounds { .. })));
        assert!(matches!(m.matmul_vector(&v), Err(xp::Error::NotAligned { .. })));
        // the inputs as they were
        assert_eq!(v.toarray().unwrap().to_vec::<f64>().unwrap(), vec![0.0, 2.0, 0.0, 1.0, 0.0]);
        assert_eq!(data.to_vec::<f64>().unwrap(), vec![1.0, 2.0]);
    }
}

/// `get_array_module` of a 1-D sparse array is its device's namespace.
#[test]
fn get_array_module_knows_1d_sparse_arrays() {
    for dev in devices() {
        let v = CsrArray1d::from_dense(&xp::on(dev).ones([3], xp::DType::F32).unwrap()).unwrap();
        assert_eq!(xp::get_array_module(&v), xp::on(dev));
        assert_eq!(xp::get_array_module(&v.tocoo().unwrap()), xp::on(dev));
    }
}

/// Vectors long enough that the CPU merges one row in several pieces, and that the GPU's
/// launches are many blocks wide, against their dense forms: sums, slices, products.
#[test]
fn long_vectors_agree_with_their_dense_forms() {
    let n = 1_000_000usize;
    for dev in devices() {
        let m = xp::on(dev);
        let mk = |seed: u64| -> CsrArray1d {
            let at = m.default_rng(seed).integers(0, n as i64, [150_000], None).unwrap();
            let v = m.default_rng(seed + 1).standard_normal([150_000], xp::DType::F64).unwrap();
            CooArray1d::new(&v, &at, n).unwrap().tocsr().unwrap()
        };
        let (v, w) = (mk(1), mk(3));
        let (dv, dw) = (v.toarray().unwrap(), w.toarray().unwrap());
        let exact = Tolerance { rtol: 0.0, atol: 0.0 };
        let want = |a: Array| {
            let (buf, sh) = (a.to_buffer().unwrap(), a.shape().to_vec());
            xp_testing::Expected::new(buf.dtype(), &sh, xp_testing::widen(&buf)).with_tol(exact)
        };
        let sum = v.add(&w).unwrap();
        compare(&sum.toarray().unwrap(), &want(dv.add(&dw).unwrap()))
            .unwrap_or_else(|e| panic!("on {dev}: v + w: {e}"));
        let stored =
            dv.add(&dw).unwrap().ne(0).unwrap().astype(xp::DType::I64).unwrap().sum(..).unwrap().to_i64().unwrap();
        assert_eq!(sum.nnz() as i64, stored, "on {dev}: v + w stores its nonzeros");
        let sorted = sum.indices().astype(xp::DType::I64).unwrap();
        assert!(
            xp::diff(&sorted, 1, 0).unwrap().gt(0).unwrap().all(..).unwrap().item::<bool>().unwrap(),
            "on {dev}: sorted"
        );
        let s = xp::SliceElem::Slice { start: Some(999_998), stop: Some(7), step: -3 };
        compare(&v.slice(s).unwrap().toarray().unwrap(), &want(dv.slice([s]).unwrap()))
            .unwrap_or_else(|e| panic!("on {dev}: slice: {e}"));
        let x = m.arange(0i64, n as i64, 1i64, Some(xp::DType::F64)).unwrap().mul(1e-6).unwrap();
        let close = |got: Array, w: Array, what: &str| {
            let e = want(w).with_tol(Tolerance { rtol: 1e-12, atol: 1e-9 });
            compare(&got, &e).unwrap_or_else(|m| panic!("on {dev}: {what}: {m}"));
        };
        close(v.matmul(&x).unwrap(), dv.mul(&x).unwrap().sum(..).unwrap(), "v @ x");
        close(v.dot_sparse(&w).unwrap(), dv.mul(&dw).unwrap().sum(..).unwrap(), "v @ w");
        // A @ v with an infinity where v stores nothing: SpGEMM's answer (no NaN from inf · 0)
        let d =
            Array::from_vec(vec![1.0f64, f64::INFINITY, 2.0, 0.0, 3.0, 4.0], [2, 3]).unwrap().to_device(dev).unwrap();
        let a = CsrArray::from_dense(&d).unwrap();
        let u = CooArray1d::from_dense(&Array::from_vec(vec![2.0f64, 0.0, 1.0], [3]).unwrap().to_device(dev).unwrap())
            .unwrap();
        let got = a.matmul_vector(&u).unwrap().toarray().unwrap().to_vec::<f64>().unwrap();
        assert_eq!(got, vec![4.0, 4.0], "on {dev}: A @ v with an infinity");
    }
}
