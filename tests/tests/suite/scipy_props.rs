//! The cases of `tests/data/scipy_linalg.json` whose factors are not unique (`props_only`: Schur
//! and Hessenberg forms), checked by their defining properties on every device, and the
//! identities between matrix functions the issue names (`expm(logm(A)) = A`, `sqrtm(A)² = A`).
use super::common;
use serde_json::Value;
use xp::linalg::{self, SchurOutput};
use xp::{Array, Complex64, DType, Device};
use xp_testing::{devices, Failures};

/// The ops whose `props_only` cases this module checks.
pub(super) const OPS: &[&str] = &["schur", "hessenberg", "null_space", "orth", "ldl"];

/// The largest |x − y| over two arrays of one shape (as complex128).
fn max_diff(x: &Array, y: &Array) -> f64 {
    let (a, b) = (x.astype(DType::C128).unwrap(), y.astype(DType::C128).unwrap());
    let (a, b) = (a.to_vec::<Complex64>().unwrap(), b.to_vec::<Complex64>().unwrap());
    a.iter().zip(&b).map(|(p, q)| (p - q).norm()).fold(0.0, f64::max)
}

/// `Q Aᴴ` etc.: the conjugate transpose of a stack.
fn ct(a: &Array) -> Array {
    xp::matrix_transpose(a).unwrap().conj().unwrap()
}

/// Rounding allowed for a dtype over `n × n` products of norm `scale`.
fn bound(dt: DType, n: usize, scale: f64) -> f64 {
    let eps = if dt.to_real() == DType::F32 { f32::EPSILON as f64 } else { f64::EPSILON };
    100.0 * eps * (n.max(1) as f64) * scale.max(1.0)
}

/// The entries `(i, j)` of every matrix of a host stack, C order, as complex128.
fn entries(a: &Array) -> (Vec<Complex64>, usize) {
    let n = a.shape()[a.ndim() - 1];
    (a.astype(DType::C128).unwrap().to_vec::<Complex64>().unwrap(), n)
}

/// `Z` unitary and `Z M Zᴴ = A` within rounding; a message when not.
fn similar(a: &Array, z: &Array, m: &Array, what: &str) -> Result<(), String> {
    let n = a.shape()[a.ndim() - 1];
    let scale = entries(a).0.iter().map(|v| v.norm()).fold(0.0, f64::max) * n as f64;
    let tol = bound(m.dtype(), n, scale);
    let back = xp::matmul(&xp::matmul(z, m).unwrap(), &ct(z)).unwrap();
    let d = max_diff(&back, a);
    if d > tol {
        return Err(format!("{what}: |Z M Zᴴ − A| = {d:e} > {tol:e}"));
    }
    let e = xp::eye(n, None, 0, z.dtype()).unwrap().to_device(z.device()).unwrap();
    let u = max_diff(&xp::matmul(&ct(z), z).unwrap(), &e.broadcast_to(z.shape().to_vec()).unwrap());
    if u > bound(z.dtype(), n, 1.0) {
        return Err(format!("{what}: Z not unitary, |ZᴴZ − I| = {u:e}"));
    }
    Ok(())
}

/// The Schur form's shape: zero below the diagonal (complex), or below the subdiagonal with
/// standardised 2 × 2 blocks (real: equal diagonal, `b c < 0`, no two subdiagonals in a row).
fn schur_shape(t: &Array, real: bool) -> Result<(), String> {
    let (v, n) = entries(t);
    for (b, m) in v.chunks(n * n.max(1)).enumerate() {
        let at = |i: usize, j: usize| m[i * n + j];
        for i in 0..n {
            for j in 0..i {
                let ok = at(i, j) == Complex64::new(0.0, 0.0) || (real && j + 1 == i);
                if !ok {
                    return Err(format!("matrix {b}: T[{i}, {j}] = {} below the form", at(i, j)));
                }
            }
            if real && i > 0 && at(i, i - 1).norm() != 0.0 {
                let std = at(i - 1, i - 1) == at(i, i) && (at(i - 1, i) * at(i, i - 1)).re < 0.0;
                if !std || (i > 1 && at(i - 1, i - 2).norm() != 0.0) {
                    return Err(format!("matrix {b}: block at {i} not standardised"));
                }
            }
        }
    }
    Ok(())
}

/// An orthonormal basis `q` of the range (`orth`) or the null space of `a`: SciPy's dtype and
/// shape (the rank exactly), `QᴴQ = I`, the same projector `Q Qᴴ` as SciPy's basis, and for the
/// null space `A Q = 0`, all within rounding.
fn basis_check(a: &Array, q: &Array, want: &Value, range: bool) -> Result<(), String> {
    let w = common::load_on(want, q.device());
    if q.dtype() != w.dtype() || q.shape() != w.shape() {
        return Err(format!("{} {:?} != SciPy's {} {:?}", q.dtype(), q.shape(), w.dtype(), w.shape()));
    }
    let k = q.shape()[q.ndim() - 1];
    let tol = bound(q.dtype(), a.shape()[a.ndim() - 1].max(a.shape()[a.ndim() - 2]), 10.0);
    let e = xp::eye(k, None, 0, q.dtype()).unwrap().to_device(q.device()).unwrap();
    let u = max_diff(
        &xp::matmul(&ct(q), q).unwrap(),
        &e.broadcast_to(w.shape()[..w.ndim() - 2].iter().copied().chain([k, k]).collect::<Vec<_>>()).unwrap(),
    );
    if u > tol {
        return Err(format!("columns not orthonormal: |QᴴQ − I| = {u:e}"));
    }
    let d = max_diff(&xp::matmul(q, &ct(q)).unwrap(), &xp::matmul(&w, &ct(&w)).unwrap());
    if d > tol * 10.0 {
        return Err(format!("projector differs from SciPy's by {d:e}"));
    }
    if !range {
        let scale = entries(a).0.iter().map(|v| v.norm()).fold(1.0, f64::max);
        let r = max_diff(&xp::matmul(a, q).unwrap(), &xp::matmul(a, q).unwrap().mul(0.0).unwrap());
        if r > tol * scale {
            return Err(format!("|A Q| = {r:e}"));
        }
    }
    Ok(())
}

/// SciPy's `ldl` properties: dtypes, `lu[perm]` unit triangular (`lower` or upper), `d` block
/// diagonal with 1 × 1 and 2 × 2 blocks (Hermitian or symmetric as `A`), and `lu d lu*`
/// equal to `A` on the triangle read.
fn ldl_check(a: &Array, f: &linalg::Ldl, lower: bool, herm: bool, want: Option<DType>) -> Result<(), String> {
    if Some(f.lu.dtype()) != want || f.d.dtype() != f.lu.dtype() || f.perm.dtype() != DType::I64 {
        return Err(format!("dtypes {} {} {} (SciPy's {want:?}, int64)", f.lu.dtype(), f.d.dtype(), f.perm.dtype()));
    }
    let herm = herm && a.dtype().is_complex();
    let (lu, n) = entries(&f.lu);
    let (d, _) = entries(&f.d);
    let (av, _) = entries(a);
    let perm = f.perm.to_vec::<i64>().unwrap();
    let cj = |z: Complex64| if herm { z.conj() } else { z };
    let scale = av.iter().map(|v| v.norm()).fold(1.0, f64::max);
    let tol = bound(a.dtype(), n, scale) * 10.0;
    for b in 0..lu.len() / (n * n).max(1) {
        let (l, dm, am) = (&lu[b * n * n..][..n * n], &d[b * n * n..][..n * n], &av[b * n * n..][..n * n]);
        let p = &perm[b * n..][..n];
        for i in 0..n {
            for j in 0..n {
                let x = l[p[i] as usize * n + j];
                let zero_side = if lower { j > i } else { j < i };
                if (i == j && (x - 1.0).norm() > 1e-6) || (zero_side && x.norm() != 0.0) {
                    return Err(format!("matrix {b}: lu[perm][{i}, {j}] = {x}: not unit triangular"));
                }
                // D: nothing outside the 1 × 1 / 2 × 2 blocks, and blocks symmetric as A
                let far = i.abs_diff(j) > 1 && dm[i * n + j].norm() != 0.0;
                if far || (i != j && (dm[i * n + j] - cj(dm[j * n + i])).norm() > tol) {
                    return Err(format!("matrix {b}: d[{i}, {j}] = {} breaks the block form", dm[i * n + j]));
                }
                if i + 1 == j && dm[i * n + j].norm() != 0.0 && i > 0 && dm[(i - 1) * n + i].norm() != 0.0 {
                    return Err(format!("matrix {b}: overlapping 2 × 2 blocks at {i}"));
                }
                let read = if lower { i >= j } else { i <= j };
                if read {
                    let mut s = Complex64::new(0.0, 0.0);
                    for k in 0..n {
                        for m in 0..n {
                            s += l[i * n + k] * dm[k * n + m] * cj(l[j * n + m]);
                        }
                    }
                    let want = if herm && i == j { Complex64::new(am[i * n + j].re, 0.0) } else { am[i * n + j] };
                    if (s - want).norm() > tol {
                        return Err(format!("matrix {b}: (lu d lu*)[{i}, {j}] = {s} != A's {want}"));
                    }
                }
            }
        }
    }
    Ok(())
}

/// One `props_only` case on `dev`, in C order and transposed.
fn check(f: &mut Failures, dev: Device, case: &Value) {
    let op = case["op"].as_str().unwrap();
    let p = &case["params"];
    let a = common::load_on(&case["args"][0], dev);
    for (layout, x) in [
        ("contiguous", a.clone()),
        ("transposed", xp::matrix_transpose(&xp::matrix_transpose(&a).unwrap().copy().unwrap()).unwrap()),
    ] {
        let ctx = format!("{op} {p} {} {:?} on {dev}, {layout}", a.dtype(), a.shape());
        let before = x.to_buffer().unwrap();
        let want = case
            .get("results")
            .and_then(|r| r.as_array())
            .cloned()
            .or_else(|| case.get("result").map(|r| vec![r.clone()]));
        let dt_of = |k: usize| want.as_ref().map(|w| DType::from_name(w[k]["dtype"].as_str().unwrap()).unwrap());
        let r = match op {
            "schur" => {
                let out: SchurOutput = p["output"].as_str().unwrap().parse().unwrap();
                linalg::schur(&x, out).map_err(|e| e.to_string()).and_then(|s| {
                    if Some(s.t.dtype()) != dt_of(0) || Some(s.z.dtype()) != dt_of(1) {
                        return Err(format!(
                            "dtypes {} {} != SciPy's {:?} {:?}",
                            s.t.dtype(),
                            s.z.dtype(),
                            dt_of(0),
                            dt_of(1)
                        ));
                    }
                    similar(&x, &s.z, &s.t, "schur")?;
                    schur_shape(&s.t, !s.t.dtype().is_complex())
                })
            }
            "hessenberg" => {
                let calc_q = p["calc_q"] == true;
                linalg::hessenberg(&x, calc_q).map_err(|e| e.to_string()).and_then(|h| {
                    if Some(h.h.dtype()) != dt_of(0) {
                        return Err(format!("dtype {} != SciPy's {:?}", h.h.dtype(), dt_of(0)));
                    }
                    let (v, n) = entries(&h.h);
                    let below = v
                        .chunks(n * n.max(1))
                        .any(|m| (0..n).any(|i| (0..i.saturating_sub(1)).any(|j| m[i * n + j].norm() != 0.0)));
                    if below {
                        return Err("H not zero below its subdiagonal".into());
                    }
                    match h.q {
                        Some(q) => similar(&x, &q, &h.h, "hessenberg"),
                        None => {
                            // a unitary similarity keeps the Frobenius norm
                            let (na, nh) = (
                                xp::linalg::matrix_norm(&x, linalg::NormOrd::Fro).unwrap(),
                                xp::linalg::matrix_norm(&h.h, linalg::NormOrd::Fro).unwrap(),
                            );
                            let d = max_diff(&na, &nh);
                            if d > bound(h.h.dtype(), n, max_diff(&na, &na.mul(0.0).unwrap())) {
                                Err(format!("|H|_F differs from |A|_F by {d:e}"))
                            } else {
                                Ok(())
                            }
                        }
                    }
                })
            }
            "null_space" | "orth" => {
                let rcond = p["rcond"].as_f64();
                let q = if op == "orth" { linalg::orth(&x, rcond) } else { linalg::null_space(&x, rcond) };
                q.map_err(|e| e.to_string()).and_then(|q| basis_check(&x, &q, &case["result"], op == "orth"))
            }
            "ldl" => {
                let (lower, herm) = (p["lower"] == true, p["hermitian"] == true);
                linalg::ldl(&x, lower, herm)
                    .map_err(|e| e.to_string())
                    .and_then(|f| ldl_check(&x, &f, lower, herm, dt_of(0)))
            }
            _ => unreachable!(),
        };
        f.add(r.map_err(|m| format!("{ctx}: {m}")));
        if x.to_buffer().unwrap() != before {
            f.add(Err(format!("{ctx}: input modified")));
        }
    }
}

#[test]
fn schur_and_hessenberg_forms() {
    let cases = common::load("scipy_linalg");
    let mut f = Failures::default();
    for dev in devices() {
        for case in cases.iter().filter(|c| OPS.contains(&c["op"].as_str().unwrap())) {
            if case.get("error").is_some() && matches!(case["op"].as_str(), Some("schur" | "hessenberg" | "ldl")) {
                // SciPy raises (not square): a typed error here
                let a = common::load_on(&case["args"][0], dev);
                let r = match case["op"].as_str().unwrap() {
                    "schur" => linalg::schur(&a, SchurOutput::Real).map(|_| ()),
                    "ldl" => linalg::ldl(&a, true, true).map(|_| ()),
                    _ => linalg::hessenberg(&a, false).map(|_| ()),
                };
                if !matches!(r, Err(xp::Error::LinAlg { kind: xp::LinAlgKind::NotSquare { .. }, .. })) {
                    f.add(Err(format!(
                        "{} of {:?} on {dev}: {r:?}, SciPy raises {}",
                        case["op"],
                        a.shape(),
                        case["error"]
                    )));
                }
                continue;
            }
            check(&mut f, dev, case);
        }
    }
    f.finish();
}

/// `expm(logm(A)) = A`, `sqrtm(A)² = A`, `fractional_matrix_power(A, 0.5)² = A` and
/// `signm(A)² = I`, on random stacks of every dtype, on every device.
#[test]
fn matrix_function_identities() {
    let mut f = Failures::default();
    for dev in devices() {
        for dt in [DType::F32, DType::F64, DType::C64, DType::C128] {
            for n in [1usize, 3, 6, 20] {
                let r = xp::random::default_rng(n as u64).standard_normal([2, n, n], DType::F64).unwrap();
                let r = if dt.is_complex() { r.add(&r.mul(Complex64::new(0.0, 0.3)).unwrap()).unwrap() } else { r };
                // eigenvalues near 1 + 0.3 r: away from the negative real axis and the imaginary one
                let e = xp::eye(n, None, 0, DType::F64).unwrap();
                let a = e
                    .add(&r.mul(0.3 / (n as f64).sqrt()).unwrap())
                    .unwrap()
                    .astype(dt)
                    .unwrap()
                    .to_device(dev)
                    .unwrap();
                let tol = bound(dt, n, 10.0) * 10.0;
                let ctx = format!("{dt} {n}x{n} on {dev}");
                let l = linalg::logm(&a).unwrap();
                let d = max_diff(&linalg::expm(&l).unwrap(), &a);
                f.add(if d <= tol { Ok(()) } else { Err(format!("expm(logm(A)) − A = {d:e} ({ctx})")) });
                let s = linalg::sqrtm(&a).unwrap();
                if s.dtype() != dt {
                    f.add(Err(format!("sqrtm dtype {} ({ctx})", s.dtype())));
                }
                let d = max_diff(&xp::matmul(&s, &s).unwrap(), &a);
                f.add(if d <= tol { Ok(()) } else { Err(format!("sqrtm(A)² − A = {d:e} ({ctx})")) });
                let h = linalg::fractional_matrix_power(&a, 0.5).unwrap();
                let d = max_diff(&xp::matmul(&h, &h).unwrap(), &a);
                f.add(if d <= tol { Ok(()) } else { Err(format!("(A^0.5)² − A = {d:e} ({ctx})")) });
                let m = a.sub(&e.mul(1.0).unwrap().astype(dt).unwrap().to_device(dev).unwrap()).unwrap();
                let sg = linalg::signm(&m).unwrap();
                let eye = e.astype(dt).unwrap().broadcast_to([2, n, n]).unwrap();
                let d = max_diff(&xp::matmul(&sg, &sg).unwrap(), &eye.to_device(dev).unwrap());
                f.add(if d <= tol * 100.0 { Ok(()) } else { Err(format!("signm(A − I)² − I = {d:e} ({ctx})")) });
            }
        }
    }
    f.finish();
}

/// `expm` of matrices past the small-matrix paths (the blocked LU inside the CPU's one-pass
/// Padé evaluation; several squarings) against an independent reference: for a symmetric `A`,
/// `V diag(exp w) Vᵀ` from `eigh`; a transposed (non-contiguous) operand gives the transposed
/// exponential, and a stack (its matrices one per thread) gives each matrix's own.
#[test]
fn expm_of_large_matrices() {
    let mut f = Failures::default();
    for dev in devices() {
        for (n, scale) in [(150usize, 0.5), (200, 20.0)] {
            let r = xp::random::default_rng(n as u64).standard_normal([n, n], DType::F64).unwrap();
            let s = r.add(&xp::matrix_transpose(&r).unwrap()).unwrap().mul(scale / (n as f64).sqrt()).unwrap();
            let a = s.to_device(dev).unwrap();
            let ctx = format!("{n}x{n}, norm scale {scale}, on {dev}");
            let e = linalg::eigh(&a, linalg::Uplo::Lower).unwrap();
            let want = xp::matmul(&e.v.mul(&e.w.exp().unwrap().expand_dims(-2).unwrap()).unwrap(), &ct(&e.v)).unwrap();
            let got = linalg::expm(&a).unwrap();
            let size = max_diff(&want, &want.mul(0.0).unwrap());
            let d = max_diff(&got, &want) / size;
            f.add(if d <= 1e-11 { Ok(()) } else { Err(format!("expm vs eigh: relative {d:e} ({ctx})")) });
            // a general (non-symmetric) matrix through a transposed view
            let g = xp::random::default_rng(7).standard_normal([n, n], DType::F64).unwrap();
            let g = g.mul(scale / (n as f64).sqrt()).unwrap().to_device(dev).unwrap();
            let eg = linalg::expm(&g).unwrap();
            let et = linalg::expm(&xp::matrix_transpose(&g).unwrap()).unwrap();
            let size = max_diff(&eg, &eg.mul(0.0).unwrap());
            let d = max_diff(&et, &xp::matrix_transpose(&eg).unwrap()) / size;
            f.add(if d <= 1e-12 { Ok(()) } else { Err(format!("expm(Aᵀ) vs expm(A)ᵀ: relative {d:e} ({ctx})")) });
            let es = linalg::expm(&xp::stack(&[&a, &g], 0).unwrap()).unwrap();
            for (k, one) in [&got, &eg].into_iter().enumerate() {
                let size = max_diff(one, &one.mul(0.0).unwrap());
                let d = max_diff(&es.slice([xp::SliceElem::Index(k as isize)]).unwrap(), one) / size;
                f.add(if d <= 1e-12 {
                    Ok(())
                } else {
                    Err(format!("expm of a stack, matrix {k}: relative {d:e} ({ctx})"))
                });
            }
        }
    }
    f.finish();
}

/// `ldl` of matrices large enough for interchanges far apart (the in-place symmetric swaps of
/// the lower triangle), with 1 × 1 and 2 × 2 pivots (a zero diagonal forces the latter): the
/// properties of [`ldl_check`] for both triangles, Hermitian and complex symmetric, a stack and a
/// transposed operand, every dtype, on every device.
#[test]
fn ldl_of_larger_matrices() {
    let mut f = Failures::default();
    for dev in devices() {
        for dt in [DType::F32, DType::F64, DType::C64, DType::C128] {
            for n in [17usize, 40] {
                let rng = |s: u64| xp::random::default_rng(s).standard_normal([3, n, n], DType::F64).unwrap();
                let r = if dt.is_complex() {
                    rng(n as u64).add(&rng(1).mul(Complex64::new(0.0, 1.0)).unwrap()).unwrap()
                } else {
                    rng(n as u64)
                };
                // the second matrix of the stack has a zero diagonal
                let ones = xp::ones([n, n], DType::F64).unwrap();
                let no_diag = ones.sub(&xp::eye(n, None, 0, DType::F64).unwrap()).unwrap();
                let r = r.mul(&xp::stack(&[&ones, &no_diag, &ones], 0).unwrap()).unwrap();
                for herm in [true, false] {
                    if !herm && !dt.is_complex() {
                        continue;
                    }
                    let t = xp::matrix_transpose(&r).unwrap();
                    let s = r
                        .add(&if herm { t.conj().unwrap() } else { t })
                        .unwrap()
                        .astype(dt)
                        .unwrap()
                        .to_device(dev)
                        .unwrap();
                    for lower in [true, false] {
                        for (layout, x) in [
                            ("contiguous", s.clone()),
                            (
                                "transposed",
                                xp::matrix_transpose(&xp::matrix_transpose(&s).unwrap().copy().unwrap()).unwrap(),
                            ),
                        ] {
                            let ctx = format!("ldl {dt} {n}x{n} lower={lower} hermitian={herm} {layout} on {dev}");
                            let r = linalg::ldl(&x, lower, herm)
                                .map_err(|e| e.to_string())
                                .and_then(|fa| ldl_check(&x, &fa, lower, herm, Some(dt)));
                            f.add(r.map_err(|m| format!("{ctx}: {m}")));
                        }
                    }
                }
            }
        }
    }
    f.finish();
}
