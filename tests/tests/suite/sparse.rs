//! Sparse arrays against SciPy (tests/data/sparse.json, made by scripts/gen_sparse_reference.py):
//! every matrix (empty, duplicates, unsorted coordinates, explicit zeros, empty rows and columns)
//! in every value dtype SciPy has, on every device: the CSR and CSC parts and their index dtype,
//! the dense array, products from both sides with the dense operand in every layout, sums, zero
//! elimination, transposes and round trips between the formats; typed errors for bad parts.
use super::common::{array, case_tolerance, split_cases};
use serde_json::Value;
use xp::sparse::{CooArray, CscArray, CsrArray, Format};
use xp::{Array, DType, Device};
use xp_testing::{compare, devices, layouts, Expected, Failures, Tolerance};

pub(super) fn load(v: &Value, dev: Device) -> Array {
    let (buf, shape) = array(v);
    Array::from_buffer(buf, &shape, dev).unwrap()
}

pub(super) fn expect(v: &Value, tol: Tolerance) -> Expected {
    let (buf, shape) = array(v);
    Expected::new(buf.dtype(), &shape, xp_testing::widen(&buf)).with_tol(tol)
}

/// A product's expected values compared norm-wise (an absolute tolerance of `rtol` times the
/// largest expected magnitude): its sums run in an order that differs between backends (atomic
/// additions on the GPU), so an element that cancels may differ by that much.
fn expect_sum(v: &Value, tol: Tolerance) -> Expected {
    let (buf, shape) = array(v);
    let w = xp_testing::widen(&buf);
    let big = w.iter().filter(|x| x.norm().is_finite()).fold(0.0f64, |m, x| m.max(x.norm()));
    Expected::new(buf.dtype(), &shape, w).with_tol(Tolerance { rtol: tol.rtol, atol: tol.atol.max(tol.rtol * big) })
}

fn exact(v: &Value) -> Expected {
    expect(v, Tolerance { rtol: 0.0, atol: 0.0 })
}

fn check(f: &mut Failures, what: &str, name: &str, dev: Device, got: xp::Result<Array>, want: &Expected) {
    f.add(match got {
        Ok(a) => compare(&a, want).map_err(|m| format!("{name} on {dev}: {what}: {m}")),
        Err(e) => Err(format!("{name} on {dev}: {what}: error {e}")),
    });
}

/// The three parts of a compressed array against SciPy's `[data, indices, indptr]`.
fn check_parts(
    f: &mut Failures,
    what: &str,
    name: &str,
    dev: Device,
    parts: [&Array; 3],
    want: &Value,
    tol: Tolerance,
) {
    check(f, &format!("{what} data"), name, dev, Ok(parts[0].clone()), &expect(&want[0], tol));
    check(f, &format!("{what} indices"), name, dev, Ok(parts[1].clone()), &exact(&want[1]));
    check(f, &format!("{what} indptr"), name, dev, Ok(parts[2].clone()), &exact(&want[2]));
}

fn reference(f: &mut Failures, dev: Device, c: &Value) {
    let name = c["name"].as_str().unwrap();
    let shape = [c["shape"][0].as_u64().unwrap() as usize, c["shape"][1].as_u64().unwrap() as usize];
    let tol = case_tolerance(c);
    let (data, row, col) = (load(&c["data"], dev), load(&c["row"], dev), load(&c["col"], dev));
    let coo = CooArray::new(&data, &row, &col, shape).unwrap();
    let csr = coo.tocsr().unwrap();
    let csc = coo.tocsc().unwrap();
    check_parts(f, "tocsr", name, dev, [csr.data(), csr.indices(), csr.indptr()], &c["csr"], tol);
    check_parts(f, "tocsc", name, dev, [csc.data(), csc.indices(), csc.indptr()], &c["csc"], tol);
    f.add(if csr.has_canonical_format() { Ok(()) } else { Err(format!("{name}: tocsr is not canonical")) });
    // the front end's own sort-and-sum (what a backend without a conversion of its own runs)
    let summed = coo.sum_duplicates().unwrap();
    check(f, "coo.sum_duplicates data", name, dev, Ok(summed.data().clone()), &expect(&c["csr"][0], tol));
    // (a COO array keeps its coordinates' width where an empty CSR one starts at int32)
    let scol = summed.col().astype(csr.indices().dtype());
    check(f, "coo.sum_duplicates col", name, dev, scol, &exact(&c["csr"][1]));
    let direct = CsrArray::from_triplets(&data, &row, &col, shape).unwrap();
    check_parts(f, "from_triplets", name, dev, [direct.data(), direct.indices(), direct.indptr()], &c["csr"], tol);
    // the parts handed back to the constructor; the CSC parts through the CSR of the transpose
    let again = CsrArray::new(csr.data(), csr.indices(), csr.indptr(), shape).unwrap();
    check_parts(f, "new", name, dev, [again.data(), again.indices(), again.indptr()], &c["csr"], tol);
    let dense = exact(&c["dense"]).with_tol(tol);
    for (what, d) in [
        ("coo.toarray", coo.toarray()),
        ("csr.toarray", csr.toarray()),
        ("csc.toarray", csc.toarray()),
        ("csr.tocoo.toarray", csr.tocoo().and_then(|a| a.toarray())),
        ("csc.tocsr.toarray", csc.tocsr().and_then(|a| a.toarray())),
        ("csr.tocsc.toarray", csr.tocsc().and_then(|a| a.toarray())),
        ("csr.T.T", csr.transpose().transpose().toarray()),
        ("coo.sum_duplicates", coo.sum_duplicates().and_then(|a| a.toarray())),
        ("from_dense", csr.toarray().and_then(|d| CsrArray::from_dense(&d)).and_then(|a| a.toarray())),
    ] {
        check(f, what, name, dev, d, &dense);
    }
    // rows and columns picked (repeats, negative indices, steps) against the dense array's own
    let dd = load(&c["dense"], dev);
    if shape[0] > 0 && shape[1] > 0 {
        let (m, n) = (shape[0] as i64, shape[1] as i64);
        let rows = Array::from_vec(vec![m - 1, 0, -1, m / 2], [4]).unwrap().to_device(dev).unwrap();
        let cols = Array::from_vec(vec![0, n - 1, -n, n / 2, 0], [5]).unwrap().to_device(dev).unwrap();
        let want = |a: xp::Result<Array>| {
            let a = a.unwrap();
            let (buf, sh) = (a.to_buffer().unwrap(), a.shape().to_vec());
            Expected::new(buf.dtype(), &sh, xp_testing::widen(&buf)).with_tol(tol)
        };
        let wrap = |x: &Array, len: i64| xp::where_(&x.lt(0).unwrap(), &x.add(len).unwrap(), x).unwrap();
        let dense_rows = want(dd.take(&wrap(&rows, m), 0));
        let dense_cols = want(dd.take(&wrap(&cols, n), 1));
        check(f, "take_rows", name, dev, csr.take_rows(&rows).and_then(|a| a.toarray()), &dense_rows);
        check(f, "csc take_rows", name, dev, csc.take_rows(&rows).and_then(|a| a.toarray()), &dense_rows);
        check(f, "take_cols", name, dev, csc.take_cols(&cols).and_then(|a| a.toarray()), &dense_cols);
        check(f, "csr take_cols", name, dev, csr.take_cols(&cols).and_then(|a| a.toarray()), &dense_cols);
        let stepped = Array::from_vec((0..m).step_by(2).collect::<Vec<i64>>(), [(m as usize).div_ceil(2)]).unwrap();
        let want_step = want(dd.take(&stepped.to_device(dev).unwrap(), 0));
        check(f, "slice_rows", name, dev, csr.slice_rows(0, shape[0], 2).and_then(|a| a.toarray()), &want_step);
        check(f, "csc slice_rows", name, dev, csc.slice_rows(0, shape[0], 2).and_then(|a| a.toarray()), &want_step);
        // bool masks (every other line) select as the integer lines they mark
        let mask = |len: i64| Array::from_vec((0..len).map(|i| i % 2 == 0).collect::<Vec<bool>>(), [len as usize]);
        let (rmask, cmask) = (mask(m).unwrap().to_device(dev).unwrap(), mask(n).unwrap().to_device(dev).unwrap());
        let even_cols = Array::from_vec((0..n).step_by(2).collect::<Vec<i64>>(), [(n as usize).div_ceil(2)]).unwrap();
        let want_ecols = want(dd.take(&even_cols.to_device(dev).unwrap(), 1));
        check(f, "take_rows(mask)", name, dev, csr.take_rows(&rmask).and_then(|a| a.toarray()), &want_step);
        check(f, "csc take_rows(mask)", name, dev, csc.take_rows(&rmask).and_then(|a| a.toarray()), &want_step);
        check(f, "take_cols(mask)", name, dev, csr.take_cols(&cmask).and_then(|a| a.toarray()), &want_ecols);
        check(f, "csc take_cols(mask)", name, dev, csc.take_cols(&cmask).and_then(|a| a.toarray()), &want_ecols);
        f.add(match csr.take_rows(&mask(m + 1).unwrap().to_device(dev).unwrap()) {
            Err(xp::Error::InvalidArgument { .. }) => Ok(()),
            r => Err(format!("{name}: a mask one too long gave {:?}", r.map(|a| a.shape()))),
        });
        // contiguous runs (step 1) take the slicing path
        let from_one = |len: i64| Array::from_vec((1..len).collect::<Vec<i64>>(), [len as usize - 1]).unwrap();
        let want_rows = want(dd.take(&from_one(m).to_device(dev).unwrap(), 0));
        let want_cols = want(dd.take(&from_one(n).to_device(dev).unwrap(), 1));
        check(f, "slice_rows 1..", name, dev, csr.slice_rows(1, shape[0], 1).and_then(|a| a.toarray()), &want_rows);
        check(f, "csc slice_cols 1..", name, dev, csc.slice_cols(1, shape[1], 1).and_then(|a| a.toarray()), &want_cols);
        let cstep = Array::from_vec((1..n).step_by(3).collect::<Vec<i64>>(), [(n as usize - 1).div_ceil(3)]).unwrap();
        let want_cstep = want(dd.take(&cstep.to_device(dev).unwrap(), 1));
        let (csr_cols, csc_cols) = (csr.slice_cols(1, shape[1], 3), csc.slice_cols(1, shape[1], 3));
        check(f, "csr slice_cols", name, dev, csr_cols.and_then(|a| a.toarray()), &want_cstep);
        check(f, "csc slice_cols", name, dev, csc_cols.and_then(|a| a.toarray()), &want_cstep);
        for (i, j) in [(0isize, 0isize), (-1, -1), (shape[0] as isize / 2, shape[1] as isize / 3)] {
            let (ii, jj) = (i.rem_euclid(shape[0] as isize), j.rem_euclid(shape[1] as isize));
            let e = want(dd.slice([xp::SliceElem::Index(ii), xp::SliceElem::Index(jj)]));
            check(f, &format!("get({i}, {j})"), name, dev, csr.get(i, j), &e);
            check(f, &format!("csc get({i}, {j})"), name, dev, csc.get(i, j), &e);
        }
        f.add(match csr.get(shape[0] as isize, 0) {
            Err(xp::Error::IndexOutOfBounds { .. }) => Ok(()),
            r => Err(format!("{name}: get past the rows gave {:?}", r.map(|a| a.shape().to_vec()))),
        });
    }
    let mut dense_t = dense.clone();
    dense_t.shape = vec![shape[1], shape[0]];
    dense_t.data = (0..shape[1] * shape[0]).map(|i| dense.data[(i % shape[0]) * shape[1] + i / shape[0]]).collect();
    check(f, "csr.T", name, dev, csr.transpose().toarray(), &dense_t);
    check(f, "coo.T", name, dev, coo.transpose().toarray(), &dense_t);
    // products with the operand in every layout
    let (xb, xs) = array(&c["x"]);
    let (mb, ms) = array(&c["xm"]);
    let (yb, ys) = array(&c["y"]);
    let (mv, mm, rv) = (expect_sum(&c["matvec"], tol), expect_sum(&c["matmat"], tol), expect_sum(&c["rmatvec"], tol));
    for (layout, x) in layouts(&xb, &xs, dev).unwrap() {
        check(f, &format!("csr @ x ({layout})"), name, dev, csr.matmul(&x), &mv);
        check(f, &format!("csc @ x ({layout})"), name, dev, csc.matmul(&x), &mv);
        check(f, &format!("coo @ x ({layout})"), name, dev, coo.matmul(&x), &mv);
    }
    for (layout, x) in layouts(&mb, &ms, dev).unwrap() {
        check(f, &format!("csr @ X ({layout})"), name, dev, csr.matmul(&x), &mm);
        check(f, &format!("csc @ X ({layout})"), name, dev, csc.matmul(&x), &mm);
    }
    for (layout, y) in layouts(&yb, &ys, dev).unwrap() {
        check(f, &format!("y @ csr ({layout})"), name, dev, csr.rmatmul(&y), &rv);
        check(f, &format!("y @ csc ({layout})"), name, dev, csc.rmatmul(&y), &rv);
    }
    for (what, got, key) in [
        ("sum", csr.sum(None), "sum"),
        ("sum(0)", csr.sum(Some(0)), "sum0"),
        ("sum(1)", csr.sum(Some(1)), "sum1"),
        ("csc sum(0)", csc.sum(Some(0)), "sum0"),
        ("csc sum(1)", csc.sum(Some(1)), "sum1"),
    ] {
        check(f, what, name, dev, got, &expect(&c[key], tol));
    }
    let ez = csr.eliminate_zeros().unwrap();
    check_parts(f, "eliminate_zeros", name, dev, [ez.data(), ez.indices(), ez.indptr()], &c["eliminated"], tol);
    let nz = csr.count_nonzero().unwrap();
    f.add(if nz == ez.nnz() { Ok(()) } else { Err(format!("{name}: count_nonzero {nz} != {}", ez.nnz())) });
    // every format through `asformat` and back gives the same parts
    let any = xp::sparse::SparseArray::Coo(coo.clone());
    for fmt in [Format::Csr, Format::Csc, Format::Coo] {
        let back = any.asformat(fmt).and_then(|a| a.tocsr()).unwrap();
        check_parts(
            f,
            &format!("via {}", fmt.name()),
            name,
            dev,
            [back.data(), back.indices(), back.indptr()],
            &c["csr"],
            tol,
        );
    }
}
split_cases!(reference, "sparse");

/// The same cases through the front end's compositions (what a backend without its own
/// conversion and transposed product runs). Not under racecheck: the compositions launch only
/// other families' kernels (sorts, scatters, searches), which their own tests race-check.
fn generic(f: &mut Failures, dev: Device, c: &Value) {
    if super::common::racing() {
        return;
    }
    xp::sparse::force_generic(true);
    reference(f, dev, c);
    xp::sparse::force_generic(false);
}
split_cases!(generic, "sparse");

/// The example: a 3 × 3 CSR matrix from a dense one, times a vector, on every device.
#[test]
fn course_example_gives_6_0_17() {
    for dev in devices() {
        let dense = Array::from_vec(vec![1.0f64, 0.0, 2.0, 0.0, 0.0, 0.0, 3.0, 1.0, 5.0], [3, 3]).unwrap();
        let a = CsrArray::from_dense(&dense.to_device(dev).unwrap()).unwrap();
        let b = Array::from_vec(vec![2.0f64, 1.0, 2.0], [3]).unwrap().to_device(dev).unwrap();
        assert_eq!(a.matmul(&b).unwrap().to_vec::<f64>().unwrap(), vec![6.0, 0.0, 17.0], "on {dev}");
    }
}

/// Products in the dtypes SciPy lacks (float16, bfloat16) against the dense product, and an
/// int64 index width forced by a large shape.
#[test]
fn half_precision_and_wide_indices_match_the_dense_product() {
    for dev in devices() {
        let dense64 =
            Array::from_vec((0..48).map(|i| if i % 3 == 0 { (i % 7) as f64 - 3.0 } else { 0.0 }).collect(), [6, 8])
                .unwrap()
                .to_device(dev)
                .unwrap();
        let x64 =
            Array::from_vec((0..8).map(|i| i as f64 * 0.25 - 1.0).collect(), [8]).unwrap().to_device(dev).unwrap();
        for d in [DType::F16, DType::BF16] {
            let (a, x) = (dense64.astype(d).unwrap(), x64.astype(d).unwrap());
            let want = a.astype(DType::F32).unwrap().matmul(&x.astype(DType::F32).unwrap()).unwrap().astype(d).unwrap();
            let got = CsrArray::from_dense(&a).unwrap().matmul(&x).unwrap();
            assert_eq!(got.dtype(), d);
            let f64s = |a: &Array| a.astype(DType::F64).unwrap().to_vec::<f64>().unwrap();
            assert_eq!(f64s(&got), f64s(&want), "{d} on {dev}");
        }
        // a shape beyond int32 picks int64 indices, as SciPy's get_index_dtype does
        let row = Array::from_vec(vec![0i64, 1], [2]).unwrap().to_device(dev).unwrap();
        let col = Array::from_vec(vec![3_000_000_000i64, 5], [2]).unwrap().to_device(dev).unwrap();
        let v = Array::from_vec(vec![2.0f32, 3.0], [2]).unwrap().to_device(dev).unwrap();
        let a = CsrArray::from_triplets(&v, &row, &col, [2, 4_000_000_000]).unwrap();
        assert_eq!((a.indices().dtype(), a.indptr().dtype()), (DType::I64, DType::I64));
        assert_eq!(a.indices().to_vec::<i64>().unwrap(), vec![3_000_000_000, 5]);
        assert_eq!(a.sum(Some(1)).unwrap().to_vec::<f32>().unwrap(), vec![2.0, 3.0]);
    }
}

/// Bad parts are typed errors and leave the inputs as they were.
#[test]
fn bad_parts_are_typed_errors() {
    for dev in devices() {
        let a = |v: Vec<i64>| Array::from_vec(v.clone(), [v.len()]).unwrap().to_device(dev).unwrap();
        let data = Array::from_vec(vec![1.0f64, 2.0, 3.0], [3]).unwrap().to_device(dev).unwrap();
        let cases: Vec<(&str, xp::Result<CsrArray>)> = vec![
            ("index past the columns", CsrArray::new(&data, &a(vec![0, 1, 5]), &a(vec![0, 2, 3]), [2, 5])),
            ("negative index", CsrArray::new(&data, &a(vec![0, -1, 2]), &a(vec![0, 2, 3]), [2, 5])),
            ("indptr too short", CsrArray::new(&data, &a(vec![0, 1, 2]), &a(vec![0, 3]), [2, 5])),
            ("indptr not from 0", CsrArray::new(&data, &a(vec![0, 1, 2]), &a(vec![1, 2, 3]), [2, 5])),
            ("indptr decreasing", CsrArray::new(&data, &a(vec![0, 1, 2]), &a(vec![0, 3, 2, 3]), [3, 5])),
            ("indptr ends short", CsrArray::new(&data, &a(vec![0, 1, 2]), &a(vec![0, 1, 2]), [2, 5])),
            ("indices and data differ", CsrArray::new(&data, &a(vec![0, 1]), &a(vec![0, 1, 3]), [2, 5])),
            ("float indices", CsrArray::new(&data, &data, &a(vec![0, 1, 3]), [2, 5])),
            ("row out of range", CsrArray::from_triplets(&data, &a(vec![0, 2, 1]), &a(vec![0, 1, 2]), [2, 5])),
            ("col out of range", CsrArray::from_triplets(&data, &a(vec![0, 1, 1]), &a(vec![0, 1, 7]), [2, 5])),
            ("lengths differ", CsrArray::from_triplets(&data, &a(vec![0, 1]), &a(vec![0, 1, 2]), [2, 5])),
        ];
        for (what, r) in cases {
            assert!(r.is_err(), "{what} on {dev}: accepted");
        }
        assert_eq!(data.to_vec::<f64>().unwrap(), vec![1.0, 2.0, 3.0]);
        let ok = CsrArray::from_triplets(&data, &a(vec![0, 1, 1]), &a(vec![0, 1, 2]), [2, 5]).unwrap();
        let short = Array::from_vec(vec![1.0f64; 4], [4]).unwrap().to_device(dev).unwrap();
        match ok.matmul(&short) {
            Err(xp::Error::NotAligned { lhs_size: 5, rhs_size: 4, .. }) => {}
            r => panic!("a short operand on {dev}: {r:?}"),
        }
        assert!(matches!(CooArray::from_dense(&data), Err(xp::Error::InvalidArgument { .. })));
        let _ = CscArray::from_dense(&data.reshape(&[1, 3][..]).unwrap()).unwrap();
    }
}

fn coo_of(parts: &Value, shape: [usize; 2], dev: Device) -> CooArray {
    CooArray::new(&load(&parts[0], dev), &load(&parts[1], dev), &load(&parts[2], dev), shape).unwrap()
}

/// Arithmetic of two sparse arrays with each format on the left (the result's format and
/// canonical parts, zeros dropped), with dense arrays, and the zero-preserving functions.
fn ops(f: &mut Failures, dev: Device, c: &Value) {
    use xp::sparse::{Sparse, SparseArray};
    let name = c["name"].as_str().unwrap();
    let shape = [c["shape"][0].as_u64().unwrap() as usize, c["shape"][1].as_u64().unwrap() as usize];
    let tol = case_tolerance(c);
    let (a, b) = (coo_of(&c["a"], shape, dev), coo_of(&c["b"], shape, dev));
    for (key, want) in c["ops"].as_object().unwrap() {
        let (op, fmt) = key.rsplit_once('_').unwrap();
        let fmt = parse_format(fmt);
        let left = SparseArray::Coo(a.clone()).asformat(fmt).unwrap();
        let got = match op {
            "add" => left.add(&b),
            "subtract" => left.sub(&b),
            "multiply" => left.multiply(&b),
            "maximum" => left.maximum(&b),
            _ => left.minimum(&b),
        };
        match (got, want.get("error")) {
            (Err(_), Some(_)) => {}
            (Ok(r), Some(e)) => {
                f.add(Err(format!("{name} {key} on {dev}: expected an error ({e}), got {:?}", r.format())))
            }
            (Err(e), None) => f.add(Err(format!("{name} {key} on {dev}: error {e}"))),
            (Ok(r), None) => {
                let fname = want["format"].as_str().unwrap();
                if r.format().name() != fname {
                    f.add(Err(format!("{name} {key} on {dev}: format {} != {fname}", r.format().name())));
                }
                let csr = r.tocsr().unwrap();
                check_parts(f, key, name, dev, [csr.data(), csr.indices(), csr.indptr()], &want["csr"], tol);
            }
        }
    }
    structure(f, dev, c, &a, &b);
    super::sparse_assembly::more(f, dev, c, &a, &b, tol);
    let dense = load(&c["dense"], dev);
    check(f, "add_dense", name, dev, a.add_dense(&dense), &expect(&c["add_dense"], tol));
    check(
        f,
        "multiply_dense",
        name,
        dev,
        a.multiply_dense(&dense).and_then(|m| m.toarray()),
        &expect(&c["multiply_dense"], tol),
    );
    if let Some(u) = c.get("ufuncs") {
        let csr = a.tocsr().unwrap();
        type Fun = fn(&CsrArray) -> xp::Result<CsrArray>;
        let funs: [(&str, Fun); 19] = [
            ("abs", |a| a.abs()),
            ("sin", |a| a.sin()),
            ("sinh", |a| a.sinh()),
            ("tan", |a| a.tan()),
            ("tanh", |a| a.tanh()),
            ("arcsin", |a| a.arcsin()),
            ("arcsinh", |a| a.arcsinh()),
            ("arctan", |a| a.arctan()),
            ("arctanh", |a| a.arctanh()),
            ("sqrt", |a| a.sqrt()),
            ("expm1", |a| a.expm1()),
            ("log1p", |a| a.log1p()),
            ("floor", |a| a.floor()),
            ("ceil", |a| a.ceil()),
            ("trunc", |a| a.trunc()),
            ("rint", |a| a.rint()),
            ("sign", |a| a.sign()),
            ("deg2rad", |a| a.deg2rad()),
            ("rad2deg", |a| a.rad2deg()),
        ];
        for (fname, fun) in funs {
            check(f, fname, name, dev, fun(&csr).map(|r| r.data().clone()), &expect(&u[fname], tol));
        }
        check(f, "power(2)", name, dev, csr.power(2).map(|r| r.data().clone()), &expect(&c["power2"], tol));
    }
}
split_cases!(ops, "sparse_ops");

/// The same through the front end's compositions (the composed SpGEMM among them); not under
/// racecheck, as [`generic`].
fn ops_generic(f: &mut Failures, dev: Device, c: &Value) {
    if super::common::racing() {
        return;
    }
    xp::sparse::force_generic(true);
    ops(f, dev, c);
    xp::sparse::force_generic(false);
}
split_cases!(ops_generic, "sparse_ops");

/// Diagonals, traces, triangles, `find`, stacks, `block_diag` and `kron` of the same operands.
fn structure(f: &mut Failures, dev: Device, c: &Value, a: &CooArray, b: &CooArray) {
    use xp::sparse::{self, Sparse, SparseArray};
    let name = c["name"].as_str().unwrap();
    let tol = case_tolerance(c);
    let (csr, bcsr) = (a.tocsr().unwrap(), b.tocsr().unwrap());
    for (k, want) in c["diagonal"].as_object().unwrap() {
        let k: isize = k.parse().unwrap();
        check(f, &format!("diagonal({k})"), name, dev, csr.diagonal(k), &expect(want, tol));
    }
    check(f, "trace", name, dev, csr.trace(0), &expect(&c["trace"], tol));
    for (what, tri) in
        [("tril", sparse::tril as fn(&dyn Sparse, isize) -> xp::Result<CooArray>), ("triu", sparse::triu)]
    {
        for (k, want) in c[what].as_object().unwrap() {
            let k: isize = k.parse().unwrap();
            check(f, &format!("{what}({k})"), name, dev, tri(&csr, k).and_then(|t| t.toarray()), &expect(want, tol));
        }
    }
    let (r, col, d) = sparse::find(&csr).unwrap();
    for (what, got, want) in
        [("find rows", r, &c["find"][0]), ("find cols", col, &c["find"][1]), ("find values", d, &c["find"][2])]
    {
        check(f, what, name, dev, Ok(got), &expect(want, tol));
    }
    for (what, stack) in
        [("hstack", sparse::hstack as fn(&[&dyn Sparse]) -> xp::Result<SparseArray>), ("vstack", sparse::vstack)]
    {
        for (fmt, want) in c[what].as_object().unwrap() {
            let to = |x: &CsrArray| SparseArray::Csr(x.clone()).asformat(parse_format(fmt)).unwrap();
            let (x, y) = (to(&csr), to(&bcsr));
            let r = stack(&[&x, &y]).unwrap();
            if r.format().name() != want[0].as_str().unwrap() {
                f.add(Err(format!("{name} {what} of {fmt} on {dev}: format {}", r.format().name())));
            }
            check(f, &format!("{what} of {fmt}"), name, dev, r.toarray(), &expect(&want[1], tol));
        }
    }
    check(
        f,
        "block_diag",
        name,
        dev,
        sparse::block_diag(&[&csr, &bcsr]).and_then(|m| m.toarray()),
        &expect(&c["block_diag"], tol),
    );
    if let Some(k) = c.get("kron") {
        check(f, "kron", name, dev, sparse::kron(&csr, &bcsr, None).and_then(|m| m.toarray()), &expect(k, tol));
    }
}

fn parse_format(s: &str) -> Format {
    match s {
        "csr" => Format::Csr,
        "csc" => Format::Csc,
        _ => Format::Coo,
    }
}

/// Operands of different shapes are a typed error naming both.
#[test]
fn arithmetic_of_mismatched_shapes_is_a_typed_error() {
    use xp::sparse::Sparse;
    let a = xp::sparse::eye(2, 3, 0, DType::F32, Format::Csr, Device::Cpu).unwrap();
    let b = xp::sparse::eye(3, 2, 0, DType::F32, Format::Csr, Device::Cpu).unwrap();
    match a.add(&b) {
        Err(xp::Error::ShapeMismatch { lhs, rhs, .. }) => assert_eq!((lhs, rhs), (vec![2, 3], vec![3, 2])),
        r => panic!("{:?}", r.map(|r| r.shape())),
    }
}

/// Files SciPy's `save_npz` wrote load on every device with their format, index width and
/// values; the same arrays saved by xp hold the same members (names, dtypes, shapes, values and
/// the format string), so SciPy reads them as it reads its own, and load back unchanged.
#[test]
fn scipy_npz_files_load_and_xp_writes_the_same_members() {
    let dir = std::env::temp_dir().join(format!("xp-sparse-npz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for dev in devices() {
        for c in super::common::load("sparse_files") {
            let file = c["file"].as_str().unwrap();
            let theirs = super::common::data_dir().join("sparse").join(file);
            let a = xp::sparse::load_npz_on(&theirs, dev).unwrap();
            assert_eq!(a.format().name(), c["format"].as_str().unwrap(), "{file}");
            assert_eq!(a.nnz() as u64, c["nnz"].as_u64().unwrap(), "{file}");
            let index = match &a {
                xp::sparse::SparseArray::Csr(x) => x.indices().dtype(),
                xp::sparse::SparseArray::Csc(x) => x.indices().dtype(),
                xp::sparse::SparseArray::Coo(x) => x.row().dtype(),
                xp::sparse::SparseArray::Dia(x) => x.offsets().dtype(),
                xp::sparse::SparseArray::Bsr(x) => x.indices().dtype(),
            };
            assert_eq!(index.name(), c["index_dtype"].as_str().unwrap(), "{file}");
            compare(&a.toarray().unwrap(), &exact(&c["dense"])).unwrap_or_else(|m| panic!("{file} on {dev}: {m}"));
            let ours = dir.join(file);
            xp::sparse::save_npz(&ours, a.clone(), c["compressed"].as_bool().unwrap()).unwrap();
            let (t, o) = (xp::io::load_npz(&theirs).unwrap(), xp::io::load_npz(&ours).unwrap());
            let names = |n: &xp::io::Npz| {
                let mut v: Vec<String> = n.names().map(String::from).collect();
                v.sort();
                v
            };
            assert_eq!(names(&t), names(&o), "{file}");
            assert_eq!(t.text("format"), o.text("format"), "{file}");
            for (name, x) in t.iter() {
                let y = o.get(name).unwrap();
                assert_eq!((x.dtype(), x.shape()), (y.dtype(), y.shape()), "{file}: {name}");
                assert_eq!(x.to_buffer().unwrap(), y.to_buffer().unwrap(), "{file}: {name}");
            }
            let back = xp::sparse::load_npz(&ours).unwrap();
            compare(&back.toarray().unwrap(), &exact(&c["dense"])).unwrap();
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// CuPy's failing SpGEMM (cupy#7699: an all-ones 600 × 600 product came back wrong) gives every
/// entry 600 here; the composed product (whose forced form crosses a block per row) gives 60 for
/// the 60 × 60 one.
#[test]
fn all_ones_squared_is_the_size_everywhere() {
    use xp::sparse::Sparse;
    for dev in devices() {
        for (n, forced) in [(600usize, false), (60, true)] {
            let ones = xp::on(dev).ones([n, n], DType::F64).unwrap();
            let a = CsrArray::from_dense(&ones).unwrap();
            xp::sparse::force_generic(forced);
            let c = a.matmul_sparse(&a).unwrap();
            xp::sparse::force_generic(false);
            assert_eq!(c.nnz(), n * n, "on {dev}");
            let d = c.toarray().unwrap();
            assert!(
                d.eq(n as f64).unwrap().all(..).unwrap().item::<bool>().unwrap(),
                "{n} on {dev}, composed: {forced}"
            );
        }
    }
}

/// `diags_array` against the dense array built element by element (diagonals of their own length,
/// a broadcast one, two on one offset adding up), in a wide and a tall shape.
#[test]
fn diags_array_places_every_diagonal() {
    for dev in devices() {
        let v = |x: Vec<f64>| Array::from_vec(x.clone(), [x.len()]).unwrap().to_device(dev).unwrap();
        for shape in [[4usize, 6], [6, 4]] {
            let offs = [0isize, 2, -1, 2];
            let lens: Vec<usize> = offs
                .iter()
                .map(|&k| {
                    let (r0, c0) = if k >= 0 { (0, k as usize) } else { ((-k) as usize, 0) };
                    (shape[0] - r0).min(shape[1] - c0)
                })
                .collect();
            let diags: Vec<Array> = vec![
                v((0..lens[0]).map(|i| i as f64 + 1.0).collect()),
                v(vec![7.0]),
                v((0..lens[2]).map(|i| -(i as f64) - 1.0).collect()),
                v((0..lens[3]).map(|i| 10.0 * i as f64).collect()),
            ];
            let refs: Vec<&Array> = diags.iter().collect();
            let a = xp::sparse::diags_array(&refs, &offs, Some(shape), None, Format::Csc).unwrap();
            assert_eq!(a.format(), Format::Csc);
            let mut want = vec![0.0; shape[0] * shape[1]];
            for (d, &k) in diags.iter().zip(&offs) {
                let vals = d.to_vec::<f64>().unwrap();
                let (r0, c0) = if k >= 0 { (0, k as usize) } else { ((-k) as usize, 0) };
                for j in 0..(shape[0] - r0).min(shape[1] - c0) {
                    want[(r0 + j) * shape[1] + c0 + j] += vals[if vals.len() == 1 { 0 } else { j }];
                }
            }
            assert_eq!(a.toarray().unwrap().to_vec::<f64>().unwrap(), want, "{shape:?} on {dev}");
        }
        let bad = xp::sparse::diags_array(&[&v(vec![1.0, 2.0])], &[0], Some([3, 3]), None, Format::Csr);
        assert!(matches!(bad, Err(xp::Error::InvalidArgument { .. })), "a short diagonal on {dev}");
    }
}

/// `random_array`: the asked number of distinct positions, values in [0, 1), and the same array
/// on every device for one seed.
#[test]
fn random_array_is_the_same_on_every_device() {
    let mut first: Option<Array> = None;
    for dev in devices() {
        let mut rng = xp::on(dev).default_rng(29);
        let a = xp::sparse::random_array([300, 200], 0.05, DType::F64, Format::Csr, &mut rng).unwrap();
        assert_eq!(a.nnz(), 3000);
        let c = a.tocsr().unwrap();
        assert_eq!(c.sum_duplicates().unwrap().nnz(), 3000, "distinct positions on {dev}");
        let d = c.data().to_device(Device::Cpu).unwrap().to_vec::<f64>().unwrap();
        assert!(d.iter().all(|&x| (0.0..1.0).contains(&x)));
        let dense = a.toarray().unwrap().to_device(Device::Cpu).unwrap();
        match &first {
            None => first = Some(dense),
            Some(f) => assert!(xp::array_equal(f, &dense).unwrap(), "{dev} differs from the CPU"),
        }
    }
    let mut rng = xp::default_rng(1);
    assert!(xp::sparse::random_array([3, 3], 1.5, DType::F64, Format::Csr, &mut rng).is_err());
}

/// Matrix Market files SciPy's `mmwrite` wrote (general, symmetric, skew-symmetric, hermitian,
/// integer, pattern) read to SciPy's arrays; xp's own file of each reads back the same.
#[test]
fn matrix_market_files_read_as_scipy_reads_them() {
    let dir = std::env::temp_dir().join(format!("xp-sparse-mtx-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for c in super::common::load("sparse_mtx") {
        let file = c["file"].as_str().unwrap();
        let a = xp::sparse::mmread(super::common::data_dir().join("sparse").join(file)).unwrap();
        let want = expect(&c["dense"], Tolerance { rtol: 0.0, atol: 0.0 });
        compare(&a.toarray().unwrap(), &want).unwrap_or_else(|m| panic!("{file}: {m}"));
        let ours = dir.join(file);
        xp::sparse::mmwrite(&ours, &a).unwrap();
        let back = xp::sparse::mmread(&ours).unwrap();
        compare(&back.toarray().unwrap(), &want).unwrap_or_else(|m| panic!("{file} written by xp: {m}"));
    }
    let bad = dir.join("bad.mtx");
    std::fs::write(&bad, "%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 1.0\n").unwrap();
    assert!(matches!(xp::sparse::mmread(&bad), Err(xp::Error::BadFile { .. })));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Duplicates are summed before the zero-preserving functions and `count_nonzero` (SciPy's
/// `_deduped_data`); a bad axis, a shape whose positions overflow int64 and a Matrix Market
/// count beyond the file are typed errors.
#[test]
fn duplicates_and_limits_as_scipy() {
    let v = |x: Vec<f64>| Array::from_vec(x.clone(), [x.len()]).unwrap();
    let i = |x: Vec<i64>| Array::from_vec(x.clone(), [x.len()]).unwrap();
    let dup = CooArray::new(&v(vec![4.0, 5.0]), &i(vec![0, 0]), &i(vec![0, 0]), [1, 1]).unwrap();
    assert_eq!(dup.sqrt().unwrap().toarray().unwrap().to_vec::<f64>().unwrap(), vec![3.0]);
    assert_eq!(dup.tocsr().unwrap().abs().unwrap().nnz(), 1);
    let cancel = CooArray::new(&v(vec![1.0, -1.0]), &i(vec![0, 0]), &i(vec![0, 0]), [1, 1]).unwrap();
    let csr = CsrArray::new(cancel.data(), &i(vec![0, 0]), &i(vec![0, 2]), [1, 1]).unwrap();
    assert_eq!(csr.count_nonzero().unwrap(), 0);
    assert!(matches!(csr.sum(Some(2)), Err(xp::Error::AxisOutOfRange { .. })));
    let huge = CooArray::new(&v(vec![1.0, 2.0]), &i(vec![2, 0]), &i(vec![0, 0]), [3, 1 << 62]).unwrap();
    assert!(matches!(huge.tocsr(), Err(xp::Error::InvalidArgument { .. })));
    let dir = std::env::temp_dir().join(format!("xp-sparse-limits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("huge.mtx");
    std::fs::write(&p, "%%MatrixMarket matrix coordinate real general\n1 1 18446744073709551615\n1 1 1.0\n").unwrap();
    assert!(matches!(xp::sparse::mmread(&p), Err(xp::Error::BadFile { .. })));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// CuPy's failing SpGEMM (cupy#10033: `X.T @ X` for X of 50 000 × 5 000 at density 0.05 ran out
/// of memory or came back all zeros) against the dense product of the same matrix, on every GPU
/// present (on the CPU it is 3·10^9 products: longer than a CI run should take).
#[test]
fn gram_of_a_tall_sparse_matrix_is_the_dense_product() {
    use xp::sparse::Sparse;
    for dev in devices().into_iter().filter(|d| *d != Device::Cpu) {
        let mut rng = xp::on(dev).default_rng(10033);
        let x = xp::sparse::random_array([50_000, 5_000], 0.05, DType::F64, Format::Csr, &mut rng)
            .unwrap()
            .tocsr()
            .unwrap();
        let g = x.transpose().matmul_sparse(&x).unwrap();
        let xd = x.toarray().unwrap();
        let want = xd.t().unwrap().matmul(&xd).unwrap();
        drop(xd);
        let got = g.toarray().unwrap();
        let scale = want.abs().unwrap().max(..).unwrap().to_f64().unwrap();
        let err = got.sub(&want).unwrap().abs().unwrap().max(..).unwrap().to_f64().unwrap();
        assert!(scale > 100.0 && err <= 1e-12 * scale, "on {dev}: largest difference {err} of {scale}");
        // every sum of positive products is positive: the product is dense, as the dense one is
        assert_eq!(g.nnz(), 5_000 * 5_000, "on {dev}");
    }
}

/// `get_array_module` of a sparse array (any format, or behind the `Sparse` trait) is the
/// namespace of the device its parts live on, as CuPy's recognises its sparse matrices.
#[test]
fn get_array_module_knows_sparse_arrays() {
    use xp::sparse::Sparse;
    for dev in devices() {
        let d = xp::on(dev).eye(3, None, 0, DType::F32).unwrap();
        let csr = CsrArray::from_dense(&d).unwrap();
        let (csc, coo) = (csr.tocsc().unwrap(), csr.tocoo().unwrap());
        let dynamic: &dyn Sparse = &csc;
        for m in [
            xp::get_array_module(&csr),
            xp::get_array_module(&csc),
            xp::get_array_module(&coo),
            xp::get_array_module(dynamic),
        ] {
            assert_eq!(m, xp::on(dev), "on {dev}");
        }
    }
}

/// Assignment past the array or with lengths that do not broadcast is a typed error, and the
/// array is left as it was.
#[test]
fn bad_assignments_are_typed_errors() {
    use xp::sparse::Sparse;
    for dev in devices() {
        let eye = xp::on(dev).eye(3, None, 0, DType::F64).unwrap();
        let a = CsrArray::from_dense(&eye).unwrap();
        let at = |v: Vec<i64>| Array::from_vec(v.clone(), [v.len()]).unwrap().to_device(dev).unwrap();
        let one = Array::from_vec(vec![1.0f64], [1]).unwrap().to_device(dev).unwrap();
        match a.assign(&at(vec![3]), &at(vec![0]), &one) {
            Err(xp::Error::IndexOutOfBounds { index: 3, axis: 0, size: 3 }) => {}
            r => panic!("row 3 of 3 on {dev}: {:?}", r.map(|s| s.nnz())),
        }
        match a.assign(&at(vec![0, 1]), &at(vec![0, 1, 2]), &one) {
            Err(xp::Error::InvalidArgument { .. }) => {}
            r => panic!("lengths 2 and 3 on {dev}: {:?}", r.map(|s| s.nnz())),
        }
        let d = a.toarray().unwrap().to_device(Device::Cpu).unwrap().to_vec::<f64>().unwrap();
        assert_eq!(d, vec![1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0], "on {dev}");
    }
}
