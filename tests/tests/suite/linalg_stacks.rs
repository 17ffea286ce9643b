//! Stacks of small matrices (issue 26) on every device, against NumPy and by property
//! (`tests/data/stacks.json`, made by `scripts/gen_stack_reference.py`): stacks of three
//! matrices — random, rank-deficient, repeated singular values (Hermitian positive definite when
//! square) — of 1×1 to 65×65, tall and wide, in float32, float64, complex64 and complex128, each
//! in every layout variant. On a GPU these are the one-block-per-matrix kernels.
//!
//! The bounds, with `n` the larger dimension, `ε` the dtype's machine epsilon and `C = 20 n ε`:
//! - singular values and eigenvalues within `C · max|value|` of NumPy's;
//! - `|UᴴU − I|`, `|VᴴV − I|`, `|QᴴQ − I|` at most `C` in every entry;
//! - `|U S Vh − A|`, `|Q R − A|`, `|A V − V W|`, `|L Lᴴ − A|` at most `C · scale` in every entry
//!   (`scale`: the largest singular value, `|A|`'s largest entry, or the largest eigenvalue);
//! - triangular factors exactly zero outside their triangle; Cholesky's diagonal real and
//!   positive; QR's `|diag R|` within `C · max|A|` of NumPy's (the rank-deficient member's is
//!   rounding noise and not compared).
use serde_json::Value;
use std::sync::OnceLock;
use xp::linalg::{self, QrMode, Uplo};
use xp::{Array, DType, Device, Error, LinAlgKind, Result};
use xp_testing::{devices, layouts, Failures};

fn data() -> &'static Value {
    static DATA: OnceLock<Value> = OnceLock::new();
    DATA.get_or_init(|| {
        let path = super::common::data_dir().join("stacks.json");
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
        serde_json::from_str(&text).expect("reference data is JSON")
    })
}

/// The cases of one op, without the largest stacks under the sanitizer.
fn cases(op: &str) -> Vec<&'static Value> {
    let all = data()["cases"].as_array().expect("cases");
    all.iter()
        .filter(|c| c["op"] == op)
        .filter(|c| !crate::common::sanitizing() || input(c).1.iter().all(|&d| d <= 33) || c["input"] == "real_65x33")
        .collect()
}

/// A case's input stack (float64 or complex128) and shape.
fn input(case: &Value) -> (xp::HostBuffer, Vec<usize>) {
    crate::common::array(&data()["inputs"][case["input"].as_str().expect("input name")])
}

fn dtype(case: &Value) -> DType {
    DType::from_name(case["dtype"].as_str().expect("dtype")).expect("known dtype")
}

/// NumPy's values of a case, as a complex128 host array.
fn values(case: &Value) -> Array {
    let (b, s) = crate::common::array(&case["values"]);
    Array::from_buffer(b, &s, Device::Cpu).and_then(|a| a.astype(DType::C128)).expect("values")
}

/// `x` on the host in complex128: every check is computed there.
fn host(x: &Array) -> Array {
    x.to_device(Device::Cpu).and_then(|a| a.astype(DType::C128)).expect("readable")
}

/// The largest magnitude of `x`'s entries.
fn maxabs(x: &Array) -> f64 {
    x.abs().and_then(|a| a.max(..)).and_then(|m| m.astype(DType::F64)).and_then(|m| m.item::<f64>()).expect("max")
}

/// The conjugate transpose of every matrix.
fn ct(x: &Array) -> Array {
    xp::matrix_transpose(&x.conj().expect("conj")).expect("transpose")
}

fn eps(d: DType) -> f64 {
    match d {
        DType::F32 | DType::C64 => f32::EPSILON as f64,
        _ => f64::EPSILON,
    }
}

/// `|x - y|`'s largest entry against `bound`, as a failure message.
fn within(what: &str, x: &Array, y: &Array, bound: f64) -> std::result::Result<(), String> {
    let e = maxabs(&x.sub(y).expect("same shapes"));
    if e <= bound {
        Ok(())
    } else {
        Err(format!("{what}: {e:.3e} > {bound:.3e}"))
    }
}

/// `|xᴴx - I|` against `bound` (`x`'s columns orthonormal).
fn orthonormal(what: &str, x: &Array, bound: f64) -> std::result::Result<(), String> {
    let k = *x.shape().last().expect("matrix");
    let g = xp::matmul(&ct(x), x).expect("gram");
    within(what, &g, &xp::on(Device::Cpu).eye(k, None, 0, DType::C128).expect("eye"), bound)
}

/// Whether every entry of `x` outside its upper (`upper`) or lower triangle is exactly zero.
fn triangular(x: &Array, upper: bool) -> bool {
    let (r, c) = (x.shape()[x.ndim() - 2], x.shape()[x.ndim() - 1]);
    let mask = xp::on(Device::Cpu).ones([r, c], DType::Bool).expect("ones");
    let outside = if upper { mask.tril(-1) } else { mask.triu(1) }.expect("mask");
    let zero = xp::on(Device::Cpu).zeros([], DType::C128).expect("zero");
    maxabs(&xp::where_(&outside, x, &zero).expect("where")) == 0.0
}

/// Runs `body` on each layout variant of `a` (a stack in the case's dtype) on every device.
fn each_layout(
    f: &mut Failures,
    case: &Value,
    a: &Array,
    mut body: impl FnMut(&Array) -> std::result::Result<(), String>,
) {
    let buf = a.to_buffer().expect("host copy");
    for dev in devices() {
        let all = layouts(&buf, a.shape(), dev).expect("layouts");
        let keep = if crate::common::racing() { 1 } else { all.len() };
        for (name, x) in all.into_iter().take(keep) {
            let ctx = format!("{} {} {} on {dev}, {name}", case["op"], case["input"], case["dtype"]);
            f.add(body(&x).map_err(|m| format!("{ctx}: {m}")));
        }
    }
}

/// The case's input cast to its dtype, on the host.
fn cast_input(case: &Value) -> Array {
    let (b, s) = input(case);
    Array::from_buffer(b, &s, Device::Cpu).and_then(|a| a.astype(dtype(case))).expect("input")
}

fn err(e: Error) -> String {
    format!("unexpected error {e}")
}

#[test]
fn svd_of_stacks() {
    let mut f = Failures::default();
    for case in cases("svd") {
        let a = cast_input(case);
        let (m, n) = (a.shape()[1], a.shape()[2]);
        let k = m.min(n);
        let want = values(case);
        let c = 20.0 * m.max(n) as f64 * eps(dtype(case));
        let smax = maxabs(&want).max(f64::MIN_POSITIVE);
        each_layout(&mut f, case, &a, |x| {
            for full in [false, true] {
                let r = linalg::svd(x, full).map_err(err)?;
                let (uc, vr) = if full { (m, n) } else { (k, k) };
                if r.u.shape() != [3, m, uc] || r.s.shape() != [3, k] || r.vh.shape() != [3, vr, n] {
                    return Err(format!("shapes {:?} {:?} {:?}", r.u.shape(), r.s.shape(), r.vh.shape()));
                }
                if r.s.dtype() != dtype(case).to_real() || r.u.dtype() != dtype(case) {
                    return Err(format!("dtypes {} {}", r.u.dtype(), r.s.dtype()));
                }
                let (u, s, vh) = (host(&r.u), host(&r.s), host(&r.vh));
                within("singular values", &s, &want, c * smax)?;
                orthonormal("UᴴU - I", &u, c)?;
                orthonormal("V Vᴴ - I", &ct(&vh), c)?;
                let uk = u.slice(xp::s![.., .., ..k as isize]).map_err(err)?;
                let vk = vh.slice(xp::s![.., ..k as isize, ..]).map_err(err)?;
                let rec = xp::matmul(&uk.mul(&s.expand_dims(1).map_err(err)?).map_err(err)?, &vk).map_err(err)?;
                within("U S Vh - A", &rec, &host(x), c * smax)?;
            }
            within("svdvals", &host(&linalg::svdvals(x).map_err(err)?), &want, c * smax)
        });
    }
    f.finish();
}

#[test]
fn eigh_of_stacks() {
    let mut f = Failures::default();
    for case in cases("eigh") {
        let (b, s) = input(case);
        let a64 = Array::from_buffer(b, &s, Device::Cpu).expect("input");
        // (A + Aᴴ) / 2 in the input's precision, then the case's dtype: as the generator made it
        let h = a64.add(&xp::matrix_transpose(&a64.conj().expect("conj")).expect("t")).and_then(|h| h.mul(0.5));
        let h = h.and_then(|h| h.astype(dtype(case))).expect("hermitian");
        let n = h.shape()[1];
        let want = values(case);
        let c = 20.0 * n as f64 * eps(dtype(case));
        let wmax = maxabs(&want).max(f64::MIN_POSITIVE);
        each_layout(&mut f, case, &h, |x| {
            for uplo in [Uplo::Lower, Uplo::Upper] {
                let r = linalg::eigh(x, uplo).map_err(err)?;
                if r.w.dtype() != dtype(case).to_real() || r.v.shape() != [3, n, n] {
                    return Err(format!("w {} v {:?}", r.w.dtype(), r.v.shape()));
                }
                let (w, v) = (host(&r.w), host(&r.v));
                within("eigenvalues", &w, &want, c * wmax)?;
                orthonormal("VᴴV - I", &v, c)?;
                let hv = xp::matmul(&host(x), &v).map_err(err)?;
                within("H V - V W", &hv, &v.mul(&w.expand_dims(1).map_err(err)?).map_err(err)?, c * wmax)?;
                within("eigvalsh", &host(&linalg::eigvalsh(x, uplo).map_err(err)?), &want, c * wmax)?;
            }
            Ok(())
        });
    }
    f.finish();
}

/// `A Aᴴ / n + I` of a case's input, in its precision, then its dtype.
fn positive_definite(case: &Value) -> Array {
    let (b, s) = input(case);
    let a = Array::from_buffer(b, &s, Device::Cpu).expect("input");
    let n = s[1];
    let g = xp::matmul(&a, &xp::matrix_transpose(&a.conj().expect("conj")).expect("t")).expect("gram");
    let eye = xp::on(Device::Cpu).eye(n, None, 0, a.dtype()).expect("eye");
    g.div(n as f64).and_then(|g| g.add(&eye)).and_then(|p| p.astype(dtype(case))).expect("pd")
}

#[test]
fn cholesky_of_stacks() {
    let mut f = Failures::default();
    for case in cases("cholesky") {
        let p = positive_definite(case);
        let n = p.shape()[1];
        let c = 20.0 * n as f64 * eps(dtype(case));
        let scale = maxabs(&host(&p));
        each_layout(&mut f, case, &p, |x| {
            for uplo in [Uplo::Lower, Uplo::Upper] {
                let l = host(&linalg::cholesky(x, uplo).map_err(err)?);
                let lower = uplo == Uplo::Lower;
                if !triangular(&l, !lower) {
                    return Err(format!("{uplo:?} factor not triangular"));
                }
                let d = l.diagonal(0, -2, -1).map_err(err)?;
                let im = maxabs(&d.imag().map_err(err)?);
                let low =
                    d.real().and_then(|r| r.min(..)).and_then(|v| v.astype(DType::F64)).and_then(|v| v.item::<f64>());
                if im != 0.0 || low.map_err(err)? <= 0.0 {
                    return Err(format!("{uplo:?} diagonal not real positive"));
                }
                let prod = if lower { xp::matmul(&l, &ct(&l)) } else { xp::matmul(&ct(&l), &l) }.map_err(err)?;
                within("L Lᴴ - A", &prod, &host(x), c * scale)?;
            }
            Ok(())
        });
    }
    f.finish();
}

#[test]
fn cholesky_names_the_failing_matrix_and_minor() {
    let mut f = Failures::default();
    for case in cases("cholesky").into_iter().filter(|c| c["input"] == "real_8x8" || c["input"] == "complex_33x33") {
        let p = positive_definite(case);
        let n = p.shape()[1];
        // member 1: the identity with -1 at (2, 2): its third leading minor is the first negative
        let mut d = vec![1.0f64; n];
        d[2] = -1.0;
        let bad = xp::on(Device::Cpu).asarray(d, [n]).and_then(|v| v.diag(0)).and_then(|m| m.astype(p.dtype()));
        let bad = bad
            .and_then(|m| xp::stack(&[&p.slice(xp::s![0]).unwrap(), &m, &p.slice(xp::s![2]).unwrap()], 0))
            .expect("stack");
        each_layout(&mut f, case, &bad, |x| match linalg::cholesky(x, Uplo::Lower) {
            Err(Error::LinAlg { kind: LinAlgKind::NotPositiveDefinite { index: 1, order: 3 }, .. }) => Ok(()),
            other => Err(format!("expected NotPositiveDefinite {{ index: 1, order: 3 }}, got {:?}", other.map(|_| ()))),
        });
    }
    f.finish();
}

#[test]
fn qr_of_stacks() {
    let mut f = Failures::default();
    for case in cases("qr") {
        let a = cast_input(case);
        let (m, n) = (a.shape()[1], a.shape()[2]);
        let k = m.min(n);
        let want = values(case);
        let c = 20.0 * m.max(n) as f64 * eps(dtype(case));
        let scale = maxabs(&host(&a)).max(f64::MIN_POSITIVE);
        each_layout(&mut f, case, &a, |x| {
            for mode in [QrMode::Reduced, QrMode::Complete, QrMode::R] {
                let r = linalg::qr(x, mode).map_err(err)?;
                let rr = host(&r.r);
                if !triangular(&rr, true) {
                    return Err(format!("{mode:?}: R not upper triangular"));
                }
                let diag = rr
                    .slice(xp::s![.., ..k as isize, ..k as isize])
                    .and_then(|t| t.diagonal(0, -2, -1))
                    .map_err(err)?;
                let got = diag.abs().map_err(err)?.astype(DType::C128).map_err(err)?;
                // the rank-deficient member's trailing diagonal is noise: compared as zeros
                let mask = xp::on(Device::Cpu).asarray(vec![1.0, 0.0, 1.0], [3, 1]).map_err(err)?;
                within("|diag R|", &got.mul(&mask).map_err(err)?, &want, c * scale * (n as f64).sqrt())?;
                if let Some(q) = r.q {
                    let q = host(&q);
                    orthonormal("QᴴQ - I", &q, c)?;
                    within("Q R - A", &xp::matmul(&q, &rr).map_err(err)?, &host(x), c * scale * (n as f64).sqrt())?;
                } else if mode != QrMode::R {
                    return Err("no Q".into());
                }
            }
            Ok(())
        });
    }
    f.finish();
}

/// The front end's functions built on the stack kernels (`lstsq`, `pinv`, `matrix_rank`,
/// `slogdet`) agree with their definitions on stacks of the sizes the kernels take.
#[test]
fn derived_functions_on_stacks() -> Result<()> {
    let mut f = Failures::default();
    for case in cases("svd").into_iter().filter(|c| c["dtype"] == "float64" || c["dtype"] == "complex64") {
        let a = cast_input(case);
        let (m, n) = (a.shape()[1], a.shape()[2]);
        let c = 20.0 * m.max(n) as f64 * eps(dtype(case));
        each_layout(&mut f, case, &a, |x| {
            // pinv(A) A pinv(A) = pinv(A) (Penrose), on the full-rank member 0
            let x0 = x.slice(xp::s![0..1]).map_err(err)?;
            let p = host(&linalg::pinv(&x0, None).map_err(err)?);
            let xa = host(&x0);
            let ppa = xp::matmul(&xp::matmul(&p, &xa).map_err(err)?, &p).map_err(err)?;
            within("pinv A pinv - pinv", &ppa, &p, 1e3 * c * maxabs(&p).max(1.0))?;
            // matrix_rank against NumPy's default tolerance applied to NumPy's singular values
            // (a member whose value lies within a factor 4 of the tolerance is not compared)
            let rank = linalg::matrix_rank(x, None).map_err(err)?.astype(DType::I64).map_err(err)?;
            let got: Vec<i64> = rank.to_vec().map_err(err)?;
            let sv = values(case).real().and_then(|v| v.to_vec::<f64>()).map_err(err)?;
            let k = m.min(n);
            for (z, (row, &g)) in sv.chunks(k).zip(&got).enumerate() {
                let tol = row[0] * m.max(n) as f64 * eps(dtype(case));
                if row.iter().any(|&v| v > tol / 4.0 && v < tol * 4.0) {
                    continue;
                }
                let want = row.iter().filter(|&&v| v > tol).count() as i64;
                if g != want {
                    return Err(format!("matrix_rank of member {z}: {g} != {want}"));
                }
            }
            Ok(())
        });
    }
    f.finish();
    Ok(())
}
