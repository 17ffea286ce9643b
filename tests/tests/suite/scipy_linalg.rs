//! SciPy's `scipy.linalg` functions in `xp::linalg` against SciPy (tests/data/scipy_linalg.json,
//! made by scripts/gen_scipy_linalg_reference.py): every case of the ops listed in [`run`] on
//! every device, each input in every layout variant, values with the case's tolerance, errors
//! where SciPy raises, inputs untouched (the runner of `linalg.rs`). The special matrices'
//! cases run in `scipy_matrices.rs`; the ops of the file that no module runs yet are listed in
//! [`PENDING`] (issue 34 is building them), and `every_op_has_a_home` keeps that list honest.
use super::common;
use super::linalg::one_case_with;
use serde_json::Value;
use std::collections::BTreeSet;
use xp::linalg::{self, AssumeA, ChoFactor, LuFactor, LuOptions, Solve, SolveTriangular, Trans, Uplo};
use xp::{Array, Device, Error, LinAlgKind, Result};
use xp_testing::{devices, Failures, Tolerance};

/// The ops this module runs.
const OPS: &[&str] = &[
    "lu",
    "lu_factor",
    "lu_solve",
    "cho_factor",
    "cho_solve",
    "cholesky",
    "solve_triangular",
    "solve",
    "solve_banded",
    "solveh_banded",
    "solve_toeplitz",
    "solve_circulant",
    "expm",
    "expm_frechet",
    "lstsq",
    "qr",
    "rq",
    "qr_multiply",
    "subspace_angles",
    "logm",
    "sqrtm",
    "funm",
    "signm",
    "fractional_matrix_power",
    "polar",
    "svdvals",
    "pinvh",
    "cosm",
    "sinm",
    "tanm",
    "coshm",
    "sinhm",
    "tanhm",
    "eigh_tridiagonal",
    "eigvalsh_tridiagonal",
    "eig_banded",
];

/// The ops of the reference file that no module runs yet (issue 34 in progress).
const PENDING: &[&str] = &[];

fn trans(p: &Value) -> Trans {
    match p["trans"].as_i64() {
        Some(1) => Trans::T,
        Some(2) => Trans::C,
        _ => Trans::N,
    }
}

/// Run case `op` on inputs `x`; every output in SciPy's order.
fn run(op: &str, x: &[Array], p: &Value) -> Result<Vec<Array>> {
    let lower = p["lower"] == true;
    match op {
        "lu" => {
            let o = LuOptions { permute_l: p["permute_l"] == true, p_indices: p["p_indices"] == true };
            let f = linalg::lu(&x[0], o)?;
            // SciPy's shortcut for 1 × 1 matrices gives P the input's dtype (and p_indices
            // int64); xp keeps the real dtype (int32) at every size: compared as SciPy types it.
            let one = x[0].ndim() >= 2 && x[0].shape()[x[0].ndim() - 2..] == [1, 1];
            let p = match f.p {
                Some(p) if one && o.p_indices => Some(p.astype(xp::DType::I64)?),
                Some(p) if one => Some(p.astype(x[0].dtype())?),
                p => p,
            };
            Ok(p.into_iter().chain([f.l, f.u]).collect())
        }
        "lu_factor" => linalg::lu_factor(&x[0]).map(|f| vec![f.lu, f.piv]),
        "lu_solve" => {
            let f: LuFactor = linalg::lu_factor(&x[0])?;
            Ok(vec![linalg::lu_solve(&f, &x[1], trans(p))?])
        }
        "cho_factor" => Ok(vec![linalg::cho_factor(&x[0], lower)?.c]),
        "cho_solve" => {
            let f: ChoFactor = linalg::cho_factor(&x[0], lower)?;
            Ok(vec![linalg::cho_solve(&f, &x[1])?])
        }
        "cholesky" => Ok(vec![linalg::cholesky(&x[0], if lower { Uplo::Lower } else { Uplo::Upper })?]),
        "solve_triangular" => {
            let o = SolveTriangular { trans: trans(p), lower, unit_diagonal: p["unit_diagonal"] == true };
            Ok(vec![linalg::solve_triangular(&x[0], &x[1], o)?])
        }
        "solve" => {
            let assume_a = match p["assume_a"].as_str() {
                None => AssumeA::Auto,
                Some(s) => s.parse()?,
            };
            let o = Solve { assume_a, lower, transposed: p["transposed"] == true, check_finite: true };
            Ok(vec![linalg::solve_with(&x[0], &x[1], o)?])
        }
        "solve_banded" => {
            let lu = (p["l"].as_u64().unwrap() as usize, p["u"].as_u64().unwrap() as usize);
            Ok(vec![linalg::solve_banded(lu, &x[0], &x[1])?])
        }
        "solveh_banded" => Ok(vec![linalg::solveh_banded(&x[0], &x[1], lower)?]),
        "solve_toeplitz" if p["r_given"] == false => Ok(vec![linalg::solve_toeplitz(&x[0], None, &x[1])?]),
        "solve_toeplitz" => Ok(vec![linalg::solve_toeplitz(&x[0], Some(&x[1]), &x[2])?]),
        "solve_circulant" => Ok(vec![linalg::solve_circulant(&x[0], &x[1])?]),
        "expm" => Ok(vec![linalg::expm(&x[0])?]),
        "eigh_tridiagonal" if p["eigvals_only"] == true => Ok(vec![linalg::eigvalsh_tridiagonal(&x[0], &x[1])?]),
        "eigh_tridiagonal" => linalg::eigh_tridiagonal(&x[0], &x[1]).map(|f| vec![f.w, f.v]),
        "eigvalsh_tridiagonal" => Ok(vec![linalg::eigvalsh_tridiagonal(&x[0], &x[1])?]),
        "eig_banded" if p["eigvals_only"] == true => Ok(vec![linalg::eigvals_banded(&x[0], lower)?]),
        "eig_banded" => linalg::eig_banded(&x[0], lower).map(|f| vec![f.w, f.v]),
        "cosm" => Ok(vec![linalg::cosm(&x[0])?]),
        "sinm" => Ok(vec![linalg::sinm(&x[0])?]),
        "tanm" => Ok(vec![linalg::tanm(&x[0])?]),
        "coshm" => Ok(vec![linalg::coshm(&x[0])?]),
        "sinhm" => Ok(vec![linalg::sinhm(&x[0])?]),
        "tanhm" => Ok(vec![linalg::tanhm(&x[0])?]),
        "expm_frechet" => linalg::expm_frechet(&x[0], &x[1]).map(|(e, l)| vec![e, l]),
        "logm" => Ok(vec![linalg::logm(&x[0])?]),
        "lstsq" => {
            let driver = p["lapack_driver"].as_str().unwrap_or("gelsd").parse()?;
            let f = linalg::lstsq_with(&x[0], &x[1], linalg::LstsqSpec { cond: p["cond"].as_f64(), driver })?;
            Ok(vec![f.x, f.residues, f.rank, f.s])
        }
        "qr" => {
            let mode: linalg::QrOut = p["mode"].as_str().unwrap().parse()?;
            let f = linalg::qr_with(&x[0], linalg::QrSpec { mode, pivoting: p["pivoting"] == true })?;
            Ok(f.q.into_iter().chain([f.r]).chain(f.p).collect())
        }
        "rq" => {
            let f = linalg::rq(&x[0], p["mode"].as_str().unwrap().parse()?)?;
            Ok([f.r].into_iter().chain(f.q).collect())
        }
        "qr_multiply" => {
            let side = if p["mode"] == "left" { linalg::QrSide::Left } else { linalg::QrSide::Right };
            let f = linalg::qr_multiply(&x[0], &x[1], side, p["pivoting"] == true, p["conjugate"] == true)?;
            Ok([f.cq, f.r].into_iter().chain(f.p).collect())
        }
        "subspace_angles" => Ok(vec![linalg::subspace_angles(&x[0], &x[1])?]),
        "sqrtm" => Ok(vec![linalg::sqrtm(&x[0])?]),
        "signm" => Ok(vec![linalg::signm(&x[0])?]),
        "funm" => {
            let f: fn(xp::Complex64) -> xp::Complex64 = match p["func"].as_str() {
                Some("exp") => |z| z.exp(),
                Some("sin") => |z| z.sin(),
                Some("cos") => |z| z.cos(),
                Some("log1p") => |z| (z + 1.0).ln(),
                f => panic!("no funm func {f:?}"),
            };
            Ok(vec![linalg::funm(&x[0], f)?])
        }
        "fractional_matrix_power" => Ok(vec![linalg::fractional_matrix_power(&x[0], p["t"].as_f64().unwrap())?]),
        "polar" => {
            let side: linalg::Side = p["side"].as_str().unwrap_or("right").parse()?;
            let f = linalg::polar(&x[0], side)?;
            Ok(vec![f.u, f.p])
        }
        "svdvals" => Ok(vec![linalg::svdvals(&x[0])?]),
        "pinvh" => {
            let o = linalg::Pinvh { atol: p["atol"].as_f64(), rtol: p["rtol"].as_f64(), lower };
            Ok(vec![linalg::pinvh(&x[0], o)?])
        }
        _ => panic!("scipy_linalg runs no op {op}"),
    }
}

fn cases(f: &mut Failures, dev: Device, case: &Value) {
    // solve_circulant's own axis arguments (caxis, baxis, outaxis) and `singular='lstsq'` are
    // not offered: xp batches over leading axes and refuses a singular matrix.
    let p = &case["params"];
    // qr's mode="raw" (LAPACK's packed reflectors) is not offered either.
    let unoffered = p.get("caxis").is_some() || p.get("singular").is_some() || p["mode"] == "raw";
    if OPS.contains(&case["op"].as_str().unwrap()) && case.get("props_only") != Some(&Value::Bool(true)) && !unoffered {
        one_case_with(f, dev, case, run)
    }
}

common::split_cases!(cases, "scipy_linalg");

#[test]
fn every_op_has_a_home() {
    let ops: BTreeSet<String> =
        common::load("scipy_linalg").iter().map(|c| c["op"].as_str().unwrap().to_string()).collect();
    let homeless: Vec<&String> = ops
        .iter()
        .filter(|o| {
            ![OPS, PENDING, super::scipy_matrices::OPS, super::scipy_props::OPS].iter().any(|l| l.contains(&o.as_str()))
        })
        .collect();
    assert!(homeless.is_empty(), "ops of scipy_linalg.json that no test runs: {homeless:?}");
    let done: Vec<&&str> = PENDING.iter().filter(|o| OPS.contains(o)).collect();
    assert!(done.is_empty(), "ops both run and pending: {done:?}");
}

/// SciPy names the first zero of the diagonal; so does the typed error, on every device, for
/// every triangle and system, and the stack position of the failing matrix.
#[test]
fn singular_triangular_names_its_diagonal() {
    let mut f = Failures::default();
    for dev in devices() {
        for n in [1usize, 4, 7] {
            for zero in 0..n {
                for (lower, t) in [(false, Trans::N), (true, Trans::T), (false, Trans::C), (true, Trans::N)] {
                    // a stack of 3: the middle matrix has a zero at `zero` (and a later one)
                    let mut v = vec![0.0f64; 3 * n * n];
                    for b in 0..3 {
                        for i in 0..n {
                            for j in 0..n {
                                let keep = if lower { j <= i } else { j >= i };
                                v[b * n * n + i * n + j] = if i == j {
                                    2.0 + i as f64
                                } else if keep {
                                    0.5
                                } else {
                                    9.0
                                };
                            }
                        }
                    }
                    v[n * n + zero * n + zero] = 0.0;
                    v[n * n + (n - 1) * n + (n - 1)] = 0.0;
                    let a = Array::from_vec(v, [3, n, n]).unwrap().to_device(dev).unwrap();
                    let b = xp::ones([3, n, 2], xp::DType::F64).unwrap().to_device(dev).unwrap();
                    let o = SolveTriangular { trans: t, lower, unit_diagonal: false };
                    let got = linalg::solve_triangular(&a, &b, o);
                    let ok = matches!(got, Err(Error::LinAlg { kind: LinAlgKind::SingularDiagonal { index: 1, diagonal }, .. }) if diagonal == zero);
                    f.add(if ok {
                        Ok(())
                    } else {
                        Err(format!("n {n} zero {zero} lower {lower} {t:?} on {dev}: {got:?}"))
                    });
                    // with a unit diagonal the zeros are not read: the solve is exact
                    let x = linalg::solve_triangular(&a, &b, SolveTriangular { unit_diagonal: true, ..o }).unwrap();
                    f.add(if x.to_vec::<f64>().unwrap().iter().all(|v| v.is_finite()) {
                        Ok(())
                    } else {
                        Err("unit".into())
                    });
                }
            }
        }
    }
    f.finish();
}

/// `P L U = A` for tall, wide and square stacks (past one panel of the blocked LU too), and
/// `lu_solve` in all three systems recovers a known solution, from the factors of the matrix and
/// of its transposed view, on every device and dtype (a property beside the reference values).
#[test]
fn lu_properties() {
    let mut f = Failures::default();
    for dev in devices() {
        for dt in [xp::DType::F32, xp::DType::F64, xp::DType::C64, xp::DType::C128] {
            let tol = Tolerance { rtol: if dt.to_real() == xp::DType::F32 { 2e-4 } else { 1e-11 }, atol: 0.0 };
            for (m, n) in [(5usize, 5usize), (7, 3), (3, 7), (60, 60), (1, 1), (300, 300), (300, 170), (170, 300)] {
                let a = xp::random::default_rng(7).standard_normal([2, m, n], xp::DType::F64).unwrap();
                let a = if dt.is_complex() { a.add(&a.mul(xp::Complex64::new(0.0, 0.5)).unwrap()).unwrap() } else { a };
                let a = a.astype(dt).unwrap().to_device(dev).unwrap();
                let r = linalg::lu(&a, LuOptions::default()).unwrap();
                let plu = xp::matmul(&r.p.unwrap().astype(dt).unwrap(), &xp::matmul(&r.l, &r.u).unwrap()).unwrap();
                let atol = tol.rtol * 10.0 * (m.max(n) as f64);
                let ok = xp::allclose_with(&plu, &a, xp::Tolerance { rtol: 0.0, atol, ..Default::default() }).unwrap();
                f.add(if ok { Ok(()) } else { Err(format!("P L U != A for {m}x{n} {dt} on {dev}")) });
                if m != n {
                    continue;
                }
                let x =
                    xp::random::default_rng(8).standard_normal([2, n, 3], xp::DType::F64).unwrap().astype(dt).unwrap();
                let x = x.to_device(dev).unwrap();
                let at = xp::matrix_transpose(&a).unwrap();
                for (a, t) in [Trans::N, Trans::T, Trans::C].into_iter().flat_map(|t| [(&a, t), (&at, t)]) {
                    let fac = linalg::lu_factor(a).unwrap();
                    let op_a = match t {
                        Trans::N => a.clone(),
                        Trans::T => xp::matrix_transpose(a).unwrap(),
                        Trans::C => xp::matrix_transpose(a).unwrap().conj().unwrap(),
                    };
                    let b = xp::matmul(&op_a, &x).unwrap();
                    let got = linalg::lu_solve(&fac, &b, t).unwrap();
                    let back = xp::matmul(&op_a, &got).unwrap();
                    let ok = xp::allclose_with(
                        &back,
                        &b,
                        xp::Tolerance { rtol: 0.0, atol: atol * 10.0, ..Default::default() },
                    )
                    .unwrap();
                    f.add(if ok { Ok(()) } else { Err(format!("lu_solve {t:?} {n} {dt} on {dev}")) });
                }
            }
        }
    }
    f.finish();
}

/// An exact zero pivot in a matrix large enough for the blocked path: LAPACK's semantics (the
/// factorisation goes on, `L`'s column stays zero, `P L U = A` still holds), on every device.
#[test]
fn zero_pivot_keeps_lapack_semantics() {
    let mut f = Failures::default();
    for dev in devices() {
        let n = 60;
        let a = xp::random::default_rng(9).standard_normal([n, n], xp::DType::F64).unwrap();
        // column 5 all zeros: the sixth pivot is exactly zero
        let mask = xp::arange(0, n as i64, 1, None).unwrap().ne(5).unwrap().astype(xp::DType::F64).unwrap();
        let a = a.mul(&mask).unwrap().to_device(dev).unwrap();
        let r = linalg::lu(&a, LuOptions::default()).unwrap();
        let finite = r.l.isfinite().unwrap().all(..).unwrap().item::<bool>().unwrap()
            && r.u.isfinite().unwrap().all(..).unwrap().item::<bool>().unwrap();
        let plu = xp::matmul(&r.p.unwrap(), &xp::matmul(&r.l, &r.u).unwrap()).unwrap();
        let ok = finite
            && xp::allclose_with(&plu, &a, xp::Tolerance { rtol: 0.0, atol: 1e-10, ..Default::default() }).unwrap();
        let u55 = r.u.slice([5.into(), 5.into()]).unwrap().item::<f64>().unwrap();
        f.add(if ok && u55 == 0.0 {
            Ok(())
        } else {
            Err(format!("zero pivot on {dev}: finite {finite}, U[5, 5] = {u55}"))
        });
    }
    f.finish();
}
