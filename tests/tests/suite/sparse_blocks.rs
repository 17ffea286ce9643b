//! The block format (`BsrArray`) against SciPy 1.17 (`tests/data/sparse_bsr.json`, written by
//! `scripts/gen_sparse_reference.py`), on every device and through the front end's compositions:
//! `tobsr` in several block sizes of arrays with duplicates and explicit zeros, in seven value
//! dtypes; SciPy's own parts (blocks in its order) handed to the constructor; conversions, the
//! product with a dense vector in every layout, the transpose, arithmetic and SpGEMM in SciPy's
//! formats; the block size SciPy estimates; `kron`'s choice of format; typed errors.
use super::common::{array, case_tolerance};
use super::sparse::{expect, load};
use serde_json::Value;
use xp::sparse::{BsrArray, CooArray, CsrArray, Sparse, SparseArray};
use xp::{Array, DType, Device};
use xp_testing::{compare, devices, layouts, Expected, Failures, Tolerance};

const EXACT: Tolerance = Tolerance { rtol: 0.0, atol: 0.0 };

fn pair(v: &Value) -> [usize; 2] {
    [v[0].as_u64().unwrap() as usize, v[1].as_u64().unwrap() as usize]
}

fn csr_of(parts: &Value, shape: [usize; 2], dev: Device) -> CsrArray {
    CsrArray::new(&load(&parts[0], dev), &load(&parts[1], dev), &load(&parts[2], dev), shape).unwrap()
}

struct Check<'a> {
    f: &'a mut Failures,
    name: String,
    dev: Device,
}

impl Check<'_> {
    fn array(&mut self, what: &str, got: xp::Result<Array>, want: &Value, tol: Tolerance) {
        let r = match got {
            Ok(a) => compare(&a, &expect(want, tol)),
            Err(e) => Err(format!("error {e}")),
        };
        self.f.add(r.map_err(|m| format!("{} on {}: {what}: {m}", self.name, self.dev)));
    }
    fn parts(&mut self, what: &str, got: [&Array; 3], want: &Value) {
        for (k, part) in ["data", "indices", "indptr"].iter().enumerate() {
            self.array(&format!("{what} {part}"), Ok(got[k].clone()), &want[k], EXACT);
        }
    }
    /// `got` against xp's own dense computation `want` (exactly).
    fn same(&mut self, what: &str, got: xp::Result<Array>, want: xp::Result<Array>) {
        let r = match (got, want) {
            (Ok(g), Ok(w)) => {
                let buf = w.to_buffer().unwrap();
                compare(&g, &Expected::new(buf.dtype(), w.shape(), xp_testing::widen(&buf)))
            }
            // (refused alike: bool negation)
            (Err(g), Err(w)) if g.to_string() == w.to_string() => Ok(()),
            (g, w) => Err(format!("{:?} / {:?}", g.err(), w.err())),
        };
        self.f.add(r.map_err(|m| format!("{} on {}: {what}: {m}", self.name, self.dev)));
    }
    fn holds(&mut self, what: &str, ok: bool) {
        self.f.add(if ok { Ok(()) } else { Err(format!("{} on {}: {what}", self.name, self.dev)) });
    }
    /// A sparse result's format (SciPy's name), block size where BSR, and dense form.
    fn sparse(&mut self, what: &str, got: xp::Result<SparseArray>, want: &Value, blocks: Option<&Value>) {
        match got {
            Err(e) => self.f.add(Err(format!("{} on {}: {what}: error {e}", self.name, self.dev))),
            Ok(s) => {
                let fmt = want[0].as_str().unwrap();
                self.holds(
                    &format!("{what}: format {} where SciPy's is {fmt}", s.format().name()),
                    s.format().name() == fmt,
                );
                if let Some(b) = blocks {
                    self.holds(&format!("{what}: block size {:?}", s.blocksize()), s.blocksize() == Some(pair(b)));
                }
                let dense = want.as_array().unwrap().last().unwrap();
                self.array(what, s.toarray(), dense, Tolerance { rtol: 1e-6, atol: 1e-6 });
            }
        }
    }
}

fn case(f: &mut Failures, dev: Device, c: &Value) {
    let shape = pair(&c["shape"]);
    let bs = pair(&c["blocksize"]);
    let tol = case_tolerance(c);
    let mut ck = Check { f, name: c["name"].as_str().unwrap().to_string(), dev };
    let csr = csr_of(&c["csr"], shape, dev);
    // tobsr: blocks by block column (SciPy's `sort_indices` of its order)
    let b = csr.tobsr(Some(bs)).unwrap();
    ck.parts("tobsr", [b.data(), b.indices(), b.indptr()], &c["sorted"]);
    ck.holds("tobsr block size", b.blocksize() == bs);
    ck.holds("tobsr nnz", b.nnz() as u64 == c["nnz"].as_u64().unwrap());
    ck.holds("tobsr canonical", b.has_canonical_format());
    ck.array("toarray", b.toarray(), &c["dense"], EXACT);
    let t = b.tocsr().unwrap();
    ck.parts("tocsr", [t.data(), t.indices(), t.indptr()], &c["tocsr"]);
    ck.holds("tocsr canonical", t.has_canonical_format());
    ck.holds("tocoo nnz", b.tocoo().unwrap().nnz() as u64 == c["coo_nnz"].as_u64().unwrap());
    ck.array("tocoo.toarray", b.tocoo().and_then(|x| x.toarray()), &c["dense"], EXACT);
    ck.array("tocsc.toarray", b.tocsc().and_then(|x| x.toarray()), &c["dense"], EXACT);
    ck.array("todia.toarray", b.todia().and_then(|x| x.toarray()), &c["dense"], EXACT);
    // SciPy's parts as it orders them: the constructor keeps them and sees whether they are sorted
    let s = &c["scipy"];
    let theirs = BsrArray::new(&load(&s[0], dev), &load(&s[1], dev), &load(&s[2], dev), shape).unwrap();
    let sorted = s[1] == c["sorted"][1];
    ck.holds("scipy's parts: canonical flag", theirs.has_canonical_format() == sorted);
    ck.array("scipy's parts toarray", theirs.toarray(), &c["dense"], EXACT);
    let canon = theirs.sum_duplicates().unwrap();
    ck.parts("scipy's parts sum_duplicates", [canon.data(), canon.indices(), canon.indptr()], &c["sorted"]);
    ck.array("scipy's parts tocsr", theirs.tocsr().and_then(|x| x.toarray()), &c["dense"], EXACT);
    // A @ x, x in every layout
    let (xb, xs) = array(&c["x"]);
    for (layout, x) in layouts(&xb, &xs, dev).unwrap() {
        ck.array(&format!("matvec ({layout})"), b.matmul(&x), &c["matvec"], tol);
        ck.array(&format!("scipy's parts matvec ({layout})"), theirs.matmul(&x), &c["matvec"], tol);
    }
    let tr = &c["transpose"];
    match b.transpose() {
        Ok(bt) => {
            ck.holds("transpose block size", bt.blocksize() == pair(&tr[0]));
            ck.array("transpose", bt.toarray(), &tr[1], EXACT);
        }
        Err(e) => ck.holds(&format!("transpose: error {e}"), false),
    }
    ck.holds("eliminate_zeros nnz", b.eliminate_zeros().unwrap().nnz() as u64 == c["eliminated_nnz"].as_u64().unwrap());
    ck.array("eliminate_zeros", b.eliminate_zeros().and_then(|x| x.toarray()), &c["dense"], EXACT);
    ck.same("neg", b.neg().and_then(|x| x.toarray()), b.toarray().and_then(|d| d.neg()));
    ck.same("mul_scalar", b.mul_scalar(3).and_then(|x| x.toarray()), b.toarray().and_then(|d| d.mul(3)));
    if let Some(add) = c.get("add") {
        // SciPy's `other.tobsr(blocksize) + this`, `this.maximum(other)`, `this @ other.T`
        let ob = csr_of(&c["other"], shape, dev).tobsr(Some(bs)).unwrap();
        ck.sparse("add", ob.add(&b), add, Some(&c["blocksize"]));
        if let Some(mx) = c.get("maximum") {
            ck.sparse("maximum", b.maximum(&ob), mx, None);
        }
        let mm = &c["matmul"];
        let prod = ob.transpose().and_then(|obt| b.matmul_sparse(&obt));
        ck.sparse("matmul_sparse", prod, &Value::from(vec![mm[0].clone(), mm[2].clone()]), Some(&mm[1]));
    }
}

#[test]
fn bsr_conversions_products_and_arithmetic_match_scipy() {
    let data = &super::common::load("sparse_bsr")[0];
    let mut f = Failures::default();
    for dev in devices() {
        for generic in [false, true] {
            xp::sparse::force_generic(generic);
            for c in data["cases"].as_array().unwrap() {
                case(&mut f, dev, c);
            }
        }
        xp::sparse::force_generic(false);
    }
    f.finish();
}

/// `tobsr` without a block size and `asformat(Bsr)` pick the size SciPy's `estimate_blocksize`
/// picks (matrices of 2×2, 3×3, 4×4 and 6×6 dense blocks, a random one, the identity).
#[test]
fn estimated_block_sizes_are_scipys() {
    let data = &super::common::load("sparse_bsr")[0];
    for dev in devices() {
        for c in data["estimate"].as_array().unwrap() {
            let a = csr_of(&c["csr"], pair(&c["shape"]), dev);
            let want = pair(&c["blocksize"]);
            let name = c["name"].as_str().unwrap();
            assert_eq!(a.tobsr(None).unwrap().blocksize(), want, "{name} on {dev}");
            let any = SparseArray::Csr(a.clone()).asformat(xp::sparse::Format::Bsr).unwrap();
            assert_eq!(any.blocksize(), Some(want), "{name} on {dev}");
            compare(&any.toarray().unwrap(), &expect_dense(&a)).unwrap_or_else(|m| panic!("{name} on {dev}: {m}"));
        }
    }
}

fn expect_dense(a: &CsrArray) -> Expected {
    let d = a.toarray().unwrap();
    let buf = d.to_buffer().unwrap();
    Expected::new(buf.dtype(), d.shape(), xp_testing::widen(&buf))
}

/// `kron` without a format gives BSR of the second factor's shape where that factor is at least
/// half full, COO where it is sparser or either factor is empty, as SciPy's.
#[test]
fn kron_chooses_scipys_format() {
    let data = &super::common::load("sparse_bsr")[0];
    for dev in devices() {
        for c in data["kron"].as_array().unwrap() {
            let name = c["name"].as_str().unwrap();
            let a = csr_of(&c["a"], pair(&c["a_shape"]), dev);
            let b = CsrArray::from_dense(&load(&c["b"], dev)).unwrap();
            let k = xp::sparse::kron(&a, &b, None).unwrap();
            assert_eq!(k.format().name(), c["format"].as_str().unwrap(), "{name} on {dev}");
            if !c["blocksize"].is_null() {
                assert_eq!(k.blocksize(), Some(pair(&c["blocksize"])), "{name} on {dev}");
            }
            compare(&k.toarray().unwrap(), &expect(&c["dense"], EXACT))
                .unwrap_or_else(|m| panic!("{name} on {dev}: {m}"));
            let csr = xp::sparse::kron(&a, &b, Some(xp::sparse::Format::Csr)).unwrap();
            assert_eq!(csr.format(), xp::sparse::Format::Csr, "{name} on {dev}");
            compare(&csr.toarray().unwrap(), &expect(&c["dense"], EXACT))
                .unwrap_or_else(|m| panic!("{name} on {dev}: {m}"));
        }
    }
}

/// Bad parts and block sizes are typed errors naming what was wrong.
#[test]
fn bad_blocks_are_typed_errors() {
    for dev in devices() {
        let on = |v: Vec<i32>, n: usize| Array::from_vec(v, [n]).unwrap().to_device(dev).unwrap();
        let data = xp::on(dev).ones(&[2, 2, 2][..], xp::DType::F64).unwrap();
        let (indices, indptr) = (on(vec![0, 1], 2), on(vec![0, 1, 2], 3));
        assert!(BsrArray::new(&data, &indices, &indptr, [4, 4]).is_ok());
        let flat = data.reshape(&[2, 4][..]).unwrap();
        let err = |r: xp::Result<BsrArray>| r.unwrap_err().to_string();
        assert!(err(BsrArray::new(&flat, &indices, &indptr, [4, 4])).contains("3-D"), "{dev}");
        assert!(err(BsrArray::new(&data, &indices, &indptr, [5, 4])).contains("blocksize"), "{dev}");
        assert!(err(BsrArray::new(&data, &indices, &on(vec![0, 1], 2), [4, 4])).contains("index pointer size"));
        let far = on(vec![0, 2], 2);
        assert!(matches!(BsrArray::new(&data, &far, &indptr, [4, 4]), Err(xp::Error::IndexOutOfBounds { .. })));
        let csr = CsrArray::from_dense(&xp::on(dev).ones(&[6, 8][..], xp::DType::F32).unwrap()).unwrap();
        for bad in [[0, 1], [4, 2], [2, 3]] {
            assert!(err(csr.tobsr(Some(bad))).contains("invalid blocksize"), "{bad:?} on {dev}");
        }
    }
}

/// `xp::matmul`, `xp::dot` and the operators take sparse operands of every format, with SciPy's
/// meanings, and agree with the same operations on the dense arrays (NumPy's definitions).
#[test]
fn matmul_dot_and_operators_take_sparse_operands() {
    use xp::sparse::{Format, SparseArray as S};
    let dense = |v: Vec<f64>, shape: &[usize], dev: Device| Array::from_vec(v, shape).unwrap().to_device(dev).unwrap();
    let same = |what: &str, got: Array, want: Array| {
        let buf = want.to_buffer().unwrap();
        let e = Expected::new(buf.dtype(), want.shape(), xp_testing::widen(&buf))
            .with_tol(Tolerance { rtol: 1e-12, atol: 1e-12 });
        compare(&got, &e).unwrap_or_else(|m| panic!("{what}: {m}"));
    };
    for dev in devices() {
        let a = dense(
            vec![1., 0., 2., 0., 0., 0., 3., 0., 0., 4., 0., 5., 6., 0., 0., 0., 0., 0., 0., 7., 8., 0., 0., 9.],
            &[6, 4],
            dev,
        );
        let b = dense(
            vec![0., 1., 2., 0., 0., 0., -3., 0., 1., 0., 0., 0., 6., 0., 0., 2., 0., 0., 0., 7., 0., 1., 0., 0.],
            &[6, 4],
            dev,
        );
        let x = dense(vec![1., -2., 3., 0.5], &[4], dev);
        let y = dense((0..18).map(f64::from).collect(), &[3, 6], dev);
        let csr = CsrArray::from_dense(&a).unwrap();
        let other = CsrArray::from_dense(&b).unwrap();
        for fmt in [Format::Csr, Format::Csc, Format::Coo, Format::Dia, Format::Bsr] {
            let s = S::Csr(csr.clone()).asformat(fmt).unwrap();
            let t = S::Csr(other.clone()).asformat(fmt).unwrap();
            let w = |what: &str| format!("{} {what} on {dev}", fmt.name());
            same(&w("A @ x"), xp::matmul(&s, &x).unwrap(), xp::matmul(&a, &x).unwrap());
            same(&w("dot(A, x)"), xp::dot(&s, &x).unwrap(), xp::matmul(&a, &x).unwrap());
            same(&w("Y @ A"), xp::matmul(&y, &s).unwrap(), xp::matmul(&y, &a).unwrap());
            let gram = xp::dot(&s, &t.transpose().unwrap()).unwrap();
            same(&w("A @ B.T"), gram.toarray().unwrap(), xp::matmul(&a, &b.t().unwrap()).unwrap());
            same(&w("A + B"), (&s + &t).toarray().unwrap(), &a + &b);
            same(&w("A - B"), (&s - &t).toarray().unwrap(), &a - &b);
            same(&w("A * B"), (&s * &t).toarray().unwrap(), &a * &b);
            same(&w("A + D"), s.add_dense(&b).unwrap(), &a + &b);
            same(&w("A * D"), s.multiply_dense(&b).unwrap().toarray().unwrap(), &a * &b);
            same(&w("A * 2"), (&s * 2.0).toarray().unwrap(), &a * 2.0);
            same(&w("-A"), (-&s).toarray().unwrap(), -&a);
            same(&w("A / 4"), (&s / 4.0).toarray().unwrap(), &a / 4.0);
            assert_eq!((&s * 2.0).format(), fmt, "{}", w("A * 2 keeps the format"));
        }
    }
}

/// Large enough for the CPU's parallel loops (2·10^5 values): `tobsr` of sorted rows (merged)
/// and of unsorted ones (marked), block heights at and past the merge's limit, and column
/// selections of columns picked once and many times, against the dense forms (integer values,
/// so every sum is exact).
#[test]
fn long_blocks_and_columns_match_their_dense_forms() {
    let (m, n, nnz) = (600usize, 900usize, 200_000usize);
    let mut z = 0x2545_f491_4f6c_dd1du64;
    let mut next = |hi: usize| {
        z ^= z << 13;
        z ^= z >> 7;
        z ^= z << 17;
        (z % hi as u64) as i64
    };
    let rows: Vec<i64> = (0..nnz).map(|_| next(m)).collect();
    let cols: Vec<i64> = (0..nnz).map(|_| next(n)).collect();
    let vals: Vec<f64> = (0..nnz).map(|_| (next(19) - 9) as f64).collect();
    let picks_many: Vec<i64> = (0..5000).map(|_| next(n)).collect();
    let picks_once: Vec<i64> = (0..n as i64).rev().step_by(3).collect();
    for dev in devices() {
        let on = |v: Array| v.to_device(dev).unwrap();
        let coo = CooArray::new(
            &on(Array::from_vec(vals.clone(), [nnz]).unwrap()),
            &on(Array::from_vec(rows.clone(), [nnz]).unwrap()),
            &on(Array::from_vec(cols.clone(), [nnz]).unwrap()),
            [m, n],
        )
        .unwrap();
        let sorted = coo.tocsr().unwrap();
        let dense = sorted.toarray().unwrap();
        let want = dense.to_vec::<f64>().unwrap();
        // the same matrix with every row's values reversed (unsorted columns)
        let (p, mut i, mut d) = (
            sorted.indptr().to_vec::<i64>().unwrap(),
            sorted.indices().astype(DType::I64).unwrap().to_vec::<i64>().unwrap(),
            sorted.data().to_vec::<f64>().unwrap(),
        );
        for r in 0..m {
            let (lo, hi) = (p[r] as usize, p[r + 1] as usize);
            i[lo..hi].reverse();
            d[lo..hi].reverse();
        }
        let k = i.len();
        let unsorted = CsrArray::new(
            &on(Array::from_vec(d, [k]).unwrap()),
            &on(Array::from_vec(i, [k]).unwrap()),
            &on(Array::from_vec(p, [m + 1]).unwrap()),
            [m, n],
        )
        .unwrap();
        for (what, a) in [("sorted", &sorted), ("unsorted", &unsorted)] {
            for bs in [[2, 2], [3, 3], [10, 3]] {
                let b = a.tobsr(Some(bs)).unwrap();
                assert!(b.has_canonical_format(), "{what} {bs:?} on {dev}: not canonical");
                assert_eq!(b.toarray().unwrap().to_vec::<f64>().unwrap(), want, "{what} tobsr {bs:?} on {dev}");
            }
            for picks in [&picks_many, &picks_once] {
                let sel = on(Array::from_vec(picks.clone(), [picks.len()]).unwrap());
                let got = a.take_cols(&sel).unwrap().toarray().unwrap().to_vec::<f64>().unwrap();
                assert_eq!(got, dense.take(&sel, 1).unwrap().to_vec::<f64>().unwrap(), "{what} take_cols on {dev}");
            }
        }
    }
}
