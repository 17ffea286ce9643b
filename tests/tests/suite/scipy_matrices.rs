//! SciPy's special matrices and structure predicates in `xp::linalg` (`toeplitz` … `dft`,
//! `bandwidth`, `issymmetric`, …) against SciPy (tests/data/scipy_linalg.json, made by
//! scripts/gen_scipy_linalg_reference.py): every case of these ops on every device, each input in
//! every layout variant, dtype, shape and values with the case's own tolerance, errors where
//! SciPy raises, the result on the input's device, inputs untouched. Then properties: Hadamard
//! and Helmert orthogonality, the inverses of Hilbert and Pascal matrices, `convolution_matrix`
//! against `convolve`, `dft` against `fft`, batches against single matrices, exact tables
//! against their float forms, and typed errors for bad input.
use super::common;
use serde_json::Value;
use xp::linalg::{self, DftScale, Pascal, PascalKind, Symmetry};
use xp::signal::Mode;
use xp::{Array, Complex64, DType, Device, Error, Result};
use xp_testing::{devices, layouts, Failures};

/// The ops this module runs (`scipy_linalg.rs` counts them as having a home).
pub(super) const OPS: &[&str] = &[
    "block_diag",
    "circulant",
    "companion",
    "convolution_matrix",
    "dft",
    "fiedler",
    "fiedler_companion",
    "hadamard",
    "hankel",
    "helmert",
    "hilbert",
    "invhilbert",
    "leslie",
    "pascal",
    "invpascal",
    "toeplitz",
    "tri",
    "khatri_rao",
    "bandwidth",
    "issymmetric",
    "ishermitian",
];

fn size(v: &Value) -> usize {
    v.as_u64().expect("a size") as usize
}

/// A parameter that xp's types cannot express (an unknown mode, scale or kind): SciPy raises on
/// it, and in xp the call cannot be written.
fn unrepresentable(what: &str) -> Error {
    Error::invalid("scipy_matrices", format!("{what}: not expressible in xp's types"))
}

fn mode(p: &Value) -> Result<Mode> {
    match p["mode"].as_str() {
        Some("full") => Ok(Mode::Full),
        Some("same") => Ok(Mode::Same),
        Some("valid") => Ok(Mode::Valid),
        m => Err(unrepresentable(&format!("mode {m:?}"))),
    }
}

fn pascal_opts(p: &Value) -> Result<Pascal> {
    let kind = match p["kind"].as_str() {
        Some("symmetric") => PascalKind::Symmetric,
        Some("lower") => PascalKind::Lower,
        Some("upper") => PascalKind::Upper,
        k => return Err(unrepresentable(&format!("kind {k:?}"))),
    };
    Ok(Pascal { kind, exact: p["exact"].as_bool().unwrap_or(true) })
}

fn dtype(v: &Value) -> Option<DType> {
    v.as_str().map(|n| DType::from_name(n).expect("a dtype name"))
}

/// Run case `op` on inputs `x` (size-only ops on `dev`); every output in SciPy's order.
fn run(op: &str, x: &[Array], p: &Value, dev: Device) -> Result<Vec<Array>> {
    let one = |r: Result<Array>| r.map(|v| vec![v]);
    let refs: Vec<&Array> = x.iter().collect();
    let tol = Symmetry { atol: p["atol"].as_f64(), rtol: p["rtol"].as_f64() };
    match op {
        "block_diag" => one(linalg::block_diag(&refs)),
        "circulant" => one(linalg::circulant(&x[0])),
        "toeplitz" => one(linalg::toeplitz(&x[0], x.get(1))),
        "hankel" => one(linalg::hankel(&x[0], x.get(1))),
        "fiedler" => one(linalg::fiedler(&x[0])),
        "leslie" => one(linalg::leslie(&x[0], &x[1])),
        "companion" => one(linalg::companion(&x[0])),
        "fiedler_companion" => one(linalg::fiedler_companion(&x[0])),
        "convolution_matrix" => one(linalg::convolution_matrix(&x[0], size(&p["n"]), mode(p)?)),
        "khatri_rao" => one(linalg::khatri_rao(&x[0], &x[1])),
        "dft" => {
            let scale = match p["scale"].as_str() {
                None => DftScale::Unscaled,
                Some("sqrtn") => DftScale::SqrtN,
                Some("n") => DftScale::N,
                Some(s) => return Err(unrepresentable(&format!("scale {s:?}"))),
            };
            one(linalg::dft_on(dev, size(&p["n"]), scale))
        }
        "hadamard" => one(linalg::hadamard_on(dev, size(&p["n"]), dtype(&p["dtype"]))),
        "helmert" => one(linalg::helmert_on(dev, size(&p["n"]), p["full"] == true)),
        "hilbert" => one(linalg::hilbert_on(dev, size(&p["n"]))),
        "invhilbert" => one(linalg::invhilbert_on(dev, size(&p["n"]), p["exact"] == true)),
        "pascal" => one(linalg::pascal_on(dev, size(&p["n"]), pascal_opts(p)?)),
        "invpascal" => one(linalg::invpascal_on(dev, size(&p["n"]), pascal_opts(p)?)),
        "tri" => {
            let k = p["k"].as_i64().unwrap() as isize;
            one(linalg::tri_on(dev, size(&p["N"]), p["M"].as_u64().map(|m| m as usize), k, dtype(&p["dtype"])))
        }
        "bandwidth" if x[0].ndim() == 2 || x[0].size() == 0 => {
            let (l, u) = linalg::bandwidth(&x[0])?;
            let m = xp::on(dev);
            Ok(vec![m.full([], l as i64, DType::I64)?, m.full([], u as i64, DType::I64)?])
        }
        "bandwidth" => linalg::bandwidth_stack(&x[0]).map(|(l, u)| vec![l, u]),
        "issymmetric" => one(linalg::issymmetric(&x[0], tol)),
        "ishermitian" => one(linalg::ishermitian(&x[0], tol)),
        _ => panic!("scipy_matrices runs no op {op}"),
    }
}

/// The layout variants of the inputs: for each variant name, every input in that variant where
/// it has one (0-d and 1-d inputs have fewer), else contiguous.
fn variants(inputs: &[common::Input], dev: Device) -> Vec<(&'static str, Vec<Array>)> {
    let per: Vec<Vec<(&'static str, Array)>> = inputs.iter().map(|(b, s)| layouts(b, s, dev).unwrap()).collect();
    let mut out = vec![];
    for name in ["contiguous", "transposed", "stepped", "reversed", "offset"] {
        if name != "contiguous" && !per.iter().any(|v| v.iter().any(|(n, _)| *n == name)) {
            continue;
        }
        out.push((name, per.iter().map(|v| v.iter().find(|(n, _)| *n == name).unwrap_or(&v[0]).1.clone()).collect()));
    }
    out
}

fn snapshot(a: &Array) -> String {
    format!("{:?}", a.to_buffer().unwrap())
}

fn cases(f: &mut Failures, dev: Device, case: &Value) {
    let op = case["op"].as_str().unwrap();
    if !OPS.contains(&op) {
        return;
    }
    let inputs: Vec<common::Input> = case["args"].as_array().unwrap().iter().map(common::array).collect();
    // error cases carry no tolerance
    let mut want = if case.get("error").is_some() { common::expected_all(case) } else { common::tolerant_case(case).0 };
    // The generator takes fiedler's |a_i - a_j| as exact, but for complex input NumPy's own
    // magnitude loop (not libm's hypot, which xp's CPU uses) may differ in the last place.
    if op == "fiedler" && inputs.iter().any(|(b, _)| b.dtype().is_complex()) {
        if let Ok(w) = &mut want {
            w.iter_mut().for_each(|e| e.tol = xp_testing::Tolerance { rtol: 4.0 * f64::EPSILON, atol: 0.0 });
        }
    }
    let p = &case["params"];
    for (name, x) in variants(&inputs, dev) {
        let before: Vec<String> = x.iter().map(snapshot).collect();
        let ctx = format!("{op} {p} {:?} on {dev}, {name}", x.iter().map(|a| a.shape().to_vec()).collect::<Vec<_>>());
        match (run(op, &x, p, dev), &want) {
            (Ok(got), Ok(w)) if got.len() == w.len() => {
                for (g, e) in got.iter().zip(w) {
                    // block_diag() of nothing has no input to take a device from: host memory
                    let home = if x.is_empty() && op == "block_diag" { Device::Cpu } else { dev };
                    if g.device() != home {
                        f.add(Err(format!("{ctx}: result on {}, not {home}", g.device())));
                    }
                    f.add(xp_testing::compare(g, e).map_err(|m| format!("{ctx}: {m}")));
                }
            }
            (Ok(got), Ok(w)) => f.add(Err(format!("{ctx}: {} results, SciPy gives {}", got.len(), w.len()))),
            (Err(_), Err(_)) => {}
            (Ok(_), Err(why)) => f.add(Err(format!("{ctx}: SciPy raises ({why}), xp returned a result"))),
            (Err(e), Ok(_)) => f.add(Err(format!("{ctx}: unexpected error {e}"))),
        }
        for (k, a) in x.iter().enumerate() {
            if snapshot(a) != before[k] {
                f.add(Err(format!("{ctx}: input {k} was modified")));
            }
        }
    }
}

common::split_cases!(cases, "scipy_linalg");

#[test]
fn every_matrix_op_has_cases() {
    let data = common::load("scipy_linalg");
    for op in OPS {
        assert!(data.iter().any(|c| c["op"] == *op), "no case of {op} in scipy_linalg.json");
    }
}

// ------------------------------------------------------------------------------------------
// properties
// ------------------------------------------------------------------------------------------

fn host(a: &Array) -> Vec<Complex64> {
    xp_testing::widen(&a.to_buffer().unwrap())
}

/// The largest |x - y| over two arrays of one shape.
fn max_diff(x: &Array, y: &Array) -> f64 {
    assert_eq!(x.shape(), y.shape());
    host(x).iter().zip(host(y)).map(|(a, b)| (a - b).norm()).fold(0.0, f64::max)
}

fn identity(dev: Device, n: usize, d: DType) -> Array {
    xp::on(dev).eye(n, None, 0, d).unwrap()
}

/// Deterministic values in [-1, 1) on `dev`, of `shape`.
fn uniform(dev: Device, shape: &[usize], seed: u64) -> Array {
    let n = shape.iter().product();
    let v: Vec<f64> = common::xorshift(n, seed).map(|s| (s >> 11) as f64 / (1u64 << 52) as f64 - 1.0).collect();
    Array::from_vec(v, shape).unwrap().to_device(dev).unwrap()
}

#[test]
fn hadamard_rows_are_orthogonal() {
    let mut f = Failures::default();
    for dev in devices() {
        for n in [1usize, 2, 4, 8, 16, 64] {
            for d in [DType::I64, DType::I8, DType::F32, DType::F64, DType::C128] {
                let h = linalg::hadamard_on(dev, n, d).unwrap();
                let g = xp::matmul(&h, &h.t().unwrap()).unwrap();
                let want = identity(dev, n, d).mul(n as i64).unwrap();
                let ok = h.dtype() == d && h.device() == dev && max_diff(&g, &want.astype(g.dtype()).unwrap()) == 0.0;
                f.add(ok.then_some(()).ok_or(format!("hadamard({n}, {d}) on {dev}: H Hᵀ != n I")));
            }
        }
        let u = linalg::hadamard_on(dev, 2, DType::U8).unwrap();
        f.add((u.to_vec::<u8>().unwrap() == vec![1, 1, 1, 255]).then_some(()).ok_or("uint8 -1 wraps to 255".into()));
    }
    f.finish();
}

#[test]
fn helmert_rows_are_orthonormal() {
    let mut f = Failures::default();
    for dev in devices() {
        for n in [1usize, 2, 3, 7, 50] {
            let h = linalg::helmert_on(dev, n, true).unwrap();
            let e = max_diff(&xp::matmul(&h, &h.t().unwrap()).unwrap(), &identity(dev, n, DType::F64));
            f.add((e < 1e-14).then_some(()).ok_or(format!("helmert({n}) on {dev}: |H Hᵀ - I| = {e}")));
            let part = linalg::helmert_on(dev, n, false).unwrap();
            f.add((part.shape() == [n - 1, n]).then_some(()).ok_or(format!("helmert({n}, full=false) shape")));
        }
    }
    f.finish();
}

#[test]
fn invhilbert_inverts_hilbert() {
    let mut f = Failures::default();
    for dev in devices() {
        for n in 1usize..=6 {
            let h = linalg::hilbert_on(dev, n).unwrap();
            let inv = linalg::invhilbert_on(dev, n, false).unwrap();
            let e = max_diff(&xp::matmul(&inv, &h).unwrap(), &identity(dev, n, DType::F64));
            f.add((e < 1e-8).then_some(()).ok_or(format!("invhilbert({n}) @ hilbert({n}) on {dev}: error {e}")));
        }
        // the float entries are the exact integers while they stay below 2^53
        for n in [0usize, 1, 5, 10] {
            let exact = linalg::invhilbert_on(dev, n, true).unwrap();
            let float = linalg::invhilbert_on(dev, n, false).unwrap();
            let same = exact.dtype() == DType::I64 && max_diff(&exact.astype(DType::F64).unwrap(), &float) == 0.0;
            f.add(same.then_some(()).ok_or(format!("invhilbert({n}) exact and float differ on {dev}")));
        }
        f.add(linalg::invhilbert_on(dev, 14, true).map(|_| ()).map_err(|e| format!("n = 14 fits int64: {e}")));
        let too_big = matches!(linalg::invhilbert_on(dev, 15, true), Err(Error::InvalidParameter { .. }));
        f.add(too_big.then_some(()).ok_or("invhilbert(15, exact) must be refused".into()));
    }
    f.finish();
}

#[test]
fn invpascal_inverts_pascal_exactly() {
    let mut f = Failures::default();
    for dev in devices() {
        for kind in [PascalKind::Symmetric, PascalKind::Lower, PascalKind::Upper] {
            for n in [0usize, 1, 2, 5, 12] {
                let exact = Pascal { kind, exact: true };
                let p = linalg::pascal_on(dev, n, exact).unwrap().astype(DType::I64).unwrap();
                let q = linalg::invpascal_on(dev, n, exact).unwrap();
                let g = xp::matmul(&q, &p).unwrap();
                let ok = q.dtype() == DType::I64 && max_diff(&g, &identity(dev, n, DType::I64)) == 0.0;
                f.add(ok.then_some(()).ok_or(format!("invpascal({n}, {kind:?}) @ pascal on {dev} != I")));
                // float forms: the same integers, and an exact inverse at these sizes
                let float = Pascal { kind, exact: false };
                let pf = linalg::pascal_on(dev, n, float).unwrap();
                let qf = linalg::invpascal_on(dev, n, float).unwrap();
                let ok = max_diff(&pf, &p.astype(DType::F64).unwrap()) == 0.0
                    && max_diff(&qf, &q.astype(DType::F64).unwrap()) == 0.0;
                f.add(ok.then_some(()).ok_or(format!("pascal({n}, {kind:?}) float and exact differ on {dev}")));
            }
        }
        // the largest exact tables that fit, and the first that do not
        for (n, kind, fits_p, fits_q) in [
            (34, PascalKind::Symmetric, true, true),
            (35, PascalKind::Symmetric, false, true),
            (36, PascalKind::Symmetric, false, false),
            (67, PascalKind::Lower, true, true),
            (68, PascalKind::Upper, true, false),
            (69, PascalKind::Lower, false, false),
        ] {
            let o = Pascal { kind, exact: true };
            for (what, r, fits) in [
                ("pascal", linalg::pascal_on(dev, n, o), fits_p),
                ("invpascal", linalg::invpascal_on(dev, n, o), fits_q),
            ] {
                let ok = match r {
                    Ok(_) => fits,
                    Err(Error::InvalidParameter { .. }) => !fits,
                    Err(_) => false,
                };
                f.add(ok.then_some(()).ok_or(format!("{what}({n}, {kind:?}) exact: fits is {fits}")));
            }
        }
        // pascal(34)'s corner C(66, 33) is the largest uint64 entry SciPy returns
        let p = linalg::pascal_on(dev, 34, Pascal::default()).unwrap();
        let last = *p.to_vec::<u64>().unwrap().last().unwrap();
        f.add((last == 7219428434016265740).then_some(()).ok_or(format!("pascal(34)[-1, -1] = {last}")));
    }
    f.finish();
}

#[test]
fn convolution_matrix_is_convolve() {
    let mut f = Failures::default();
    for dev in devices() {
        for (m, n) in [(1usize, 1usize), (3, 5), (5, 3), (4, 4), (6, 1), (1, 6), (7, 2)] {
            let a = uniform(dev, &[m], 3 + m as u64);
            let v = uniform(dev, &[n], 17 + n as u64);
            for mode in [Mode::Full, Mode::Same, Mode::Valid] {
                let c = linalg::convolution_matrix(&a, n, mode).unwrap();
                let got = xp::matmul(&c, &v).unwrap();
                let want = xp::convolve(&a, &v, mode).unwrap();
                // numpy.convolve's "same" is as long as its longer operand, and so is this
                let e = if got.shape() == want.shape() { max_diff(&got, &want) } else { f64::INFINITY };
                f.add((e < 1e-14).then_some(()).ok_or(format!("convolution_matrix({m}, {n}, {mode:?}) on {dev}: {e}")));
            }
        }
    }
    f.finish();
}

#[test]
fn dft_is_fft() {
    let mut f = Failures::default();
    for dev in devices() {
        for n in [1usize, 2, 3, 8, 17, 64] {
            let x = uniform(dev, &[n], n as u64);
            let y = xp::matmul(&linalg::dft_on(dev, n, DftScale::Unscaled).unwrap(), &x).unwrap();
            let want = xp::fft::fft(&x, None, -1, xp::fft::FftNorm::Backward).unwrap();
            let e = max_diff(&y, &want);
            f.add((e < 1e-12).then_some(()).ok_or(format!("dft({n}) @ x vs fft on {dev}: {e}")));
            let u = linalg::dft_on(dev, n, DftScale::SqrtN).unwrap();
            let uh = u.t().unwrap().conj().unwrap();
            let e = max_diff(&xp::matmul(&u, &uh).unwrap(), &identity(dev, n, DType::C128));
            f.add((e < 1e-13).then_some(()).ok_or(format!("dft({n}, sqrtn) not unitary on {dev}: {e}")));
            let s = linalg::dft_on(dev, n, DftScale::N).unwrap();
            let e = max_diff(&s.mul(n as f64).unwrap(), &linalg::dft_on(dev, n, DftScale::Unscaled).unwrap());
            f.add((e < 1e-13).then_some(()).ok_or(format!("dft({n}, n) * n != dft({n}) on {dev}")));
        }
    }
    f.finish();
}

/// Matrix `k` of a stack.
fn nth(a: &Array, k: usize) -> Array {
    a.slice([xp::SliceElem::Index(k as isize)]).unwrap()
}

/// Matrix `k` of a batch, made alone.
type Single<'a> = Box<dyn Fn(usize) -> Array + 'a>;

#[test]
fn batches_match_single_matrices() {
    let mut f = Failures::default();
    for dev in devices() {
        let c = uniform(dev, &[3, 5], 1);
        let r = uniform(dev, &[3, 4], 2);
        let s = uniform(dev, &[3, 4], 3).add(2.0).unwrap(); // nonzero leading coefficients
        let pairs: [(&str, Array, Single); 7] = [
            (
                "toeplitz",
                linalg::toeplitz(&c, Some(&r)).unwrap(),
                Box::new(|k| linalg::toeplitz(&nth(&c, k), Some(&nth(&r, k))).unwrap()),
            ),
            (
                "hankel",
                linalg::hankel(&c, Some(&r)).unwrap(),
                Box::new(|k| linalg::hankel(&nth(&c, k), Some(&nth(&r, k))).unwrap()),
            ),
            ("circulant", linalg::circulant(&c).unwrap(), Box::new(|k| linalg::circulant(&nth(&c, k)).unwrap())),
            ("fiedler", linalg::fiedler(&c).unwrap(), Box::new(|k| linalg::fiedler(&nth(&c, k)).unwrap())),
            ("companion", linalg::companion(&s).unwrap(), Box::new(|k| linalg::companion(&nth(&s, k)).unwrap())),
            (
                "fiedler_companion",
                linalg::fiedler_companion(&s).unwrap(),
                Box::new(|k| linalg::fiedler_companion(&nth(&s, k)).unwrap()),
            ),
            (
                "convolution_matrix",
                linalg::convolution_matrix(&c, 3, Mode::Same).unwrap(),
                Box::new(|k| linalg::convolution_matrix(&nth(&c, k), 3, Mode::Same).unwrap()),
            ),
        ];
        for (op, batched, single) in &pairs {
            for k in 0..3 {
                let e = max_diff(&nth(batched, k), &single(k));
                f.add((e == 0.0).then_some(()).ok_or(format!("{op} on {dev}: matrix {k} of the batch differs")));
            }
        }
        // a vector broadcast against a batch, and the predicates of a stack
        let t = linalg::toeplitz(&nth(&c, 0), Some(&r)).unwrap();
        f.add((t.shape() == [3, 5, 4]).then_some(()).ok_or(format!("toeplitz broadcast shape {:?}", t.shape())));
        let sym = t.slice([xp::SliceElem::FULL, xp::SliceElem::from(..4), xp::SliceElem::FULL]).unwrap();
        let sym = sym.add(&sym.swapaxes(-1, -2).unwrap()).unwrap();
        let flags = linalg::issymmetric(&sym, Symmetry::default()).unwrap();
        f.add((flags.to_vec::<bool>().unwrap() == vec![true; 3]).then_some(()).ok_or("stack of symmetric".into()));
        let (lo, up) = linalg::bandwidth_stack(&t).unwrap();
        for k in 0..3 {
            let (l, u) = linalg::bandwidth(&nth(&t, k)).unwrap();
            let same = lo.to_vec::<i64>().unwrap()[k] == l as i64 && up.to_vec::<i64>().unwrap()[k] == u as i64;
            f.add(same.then_some(()).ok_or(format!("bandwidth of matrix {k} on {dev}")));
        }
    }
    f.finish();
}

#[test]
fn bad_input_is_a_typed_error() {
    let mut f = Failures::default();
    for dev in devices() {
        let m = xp::on(dev);
        let v3 = m.ones([3], DType::F64).unwrap();
        let zero_lead = m.asarray(vec![0.0, 1.0, 2.0], [3]).unwrap();
        let b = m.ones([2], DType::Bool).unwrap();
        let cases: Vec<(&str, Result<Array>)> = vec![
            ("hadamard(0)", linalg::hadamard_on(dev, 0, None)),
            ("hadamard(12)", linalg::hadamard_on(dev, 12, None)),
            ("hadamard(2, bool)", linalg::hadamard_on(dev, 2, DType::Bool)),
            ("helmert(0)", linalg::helmert_on(dev, 0, false)),
            ("huge n", linalg::hilbert_on(dev, usize::MAX)),
            ("companion of one coefficient", linalg::companion(&m.ones([1], None).unwrap())),
            ("companion with a zero lead", linalg::companion(&zero_lead)),
            ("companion of bool", linalg::companion(&b)),
            ("fiedler_companion with a zero lead", linalg::fiedler_companion(&zero_lead)),
            ("fiedler of bool", linalg::fiedler(&b)),
            ("leslie lengths", linalg::leslie(&v3, &v3)),
            ("leslie of one", linalg::leslie(&m.ones([1], None).unwrap(), &m.ones([0], None).unwrap())),
            ("leslie batches", linalg::leslie(&m.ones([2, 3], None).unwrap(), &m.ones([3, 2], None).unwrap())),
            ("convolution_matrix n = 0", linalg::convolution_matrix(&v3, 0, Mode::Full)),
            (
                "convolution_matrix of nothing",
                linalg::convolution_matrix(&m.ones([2, 0], None).unwrap(), 2, Mode::Full),
            ),
            ("convolution_matrix of 0-d", linalg::convolution_matrix(&m.ones([], None).unwrap(), 2, Mode::Full)),
            ("khatri_rao 1-D", linalg::khatri_rao(&v3, &v3)),
            ("khatri_rao columns", linalg::khatri_rao(&m.ones([2, 3], None).unwrap(), &m.ones([2, 2], None).unwrap())),
            (
                "block_diag batches",
                linalg::block_diag(&[&m.ones([3, 1, 1], None).unwrap(), &m.ones([2, 1, 1], None).unwrap()]),
            ),
            ("issymmetric not square", linalg::issymmetric(&m.ones([3, 2], None).unwrap(), Symmetry::default())),
            ("ishermitian 1-D", linalg::ishermitian(&v3, Symmetry::default())),
            ("bandwidth_stack 1-D", linalg::bandwidth_stack(&v3).map(|p| p.0)),
            ("bandwidth 3-D", linalg::bandwidth(&m.ones([2, 2, 2], None).unwrap()).map(|_| v3.clone())),
        ];
        for (what, r) in cases {
            f.add(r.err().map(|_| ()).ok_or(format!("{what} on {dev}: expected an error")));
        }
        // a zero-size batch is empty, not an error (SciPy refuses it)
        let empty = m.ones([0, 4], None).unwrap();
        let r = linalg::toeplitz(&empty, None).unwrap();
        f.add((r.shape() == [0, 4, 4]).then_some(()).ok_or(format!("toeplitz of a (0, 4) batch: {:?}", r.shape())));
        let r = linalg::companion(&empty).unwrap();
        f.add((r.shape() == [0, 3, 3]).then_some(()).ok_or(format!("companion of a (0, 4) batch: {:?}", r.shape())));
    }
    f.finish();
}

/// Fiedler's companion matrix of seven coefficients (SciPy's, every rule of its pentadiagonal
/// pattern present), on every device.
#[test]
fn fiedler_companion_of_seven_coefficients() {
    let want = [
        [-2, -3, 1, 0, 0, 0],
        [1, 0, 0, 0, 0, 0],
        [0, -4, 0, -5, 1, 0],
        [0, 1, 0, 0, 0, 0],
        [0, 0, 0, -6, 0, -7],
        [0, 0, 0, 1, 0, 0],
    ];
    let want: Vec<f64> = want.iter().flatten().map(|&v| v as f64).collect();
    for dev in devices() {
        let a = xp::on(dev).asarray(vec![1i64, 2, 3, 4, 5, 6, 7], [7]).unwrap();
        let c = linalg::fiedler_companion(&a).unwrap();
        assert_eq!((c.dtype(), c.shape()), (DType::F64, &[6, 6][..]));
        assert_eq!(c.to_vec::<f64>().unwrap(), want, "on {dev}");
    }
}
