//! Sparse linear algebra against SciPy (tests/data/sparse_linalg.json, made by
//! scripts/gen_sparse_linalg_reference.py): every Krylov solver on Hermitian positive-definite,
//! non-symmetric and symmetric indefinite systems in float32, float64, complex64 and complex128,
//! on every device, with `b` a stepped view. At SciPy's defaults the true residual must meet the
//! tolerance and the iterations match SciPy's count; after three iterations with no tolerance the
//! iterate must be SciPy's (the recurrence is SciPy's step for step); with a Jacobi preconditioner
//! (a closure [`Operator`]) the solve must converge. LSQR and LSMR on over- and underdetermined
//! and damped problems against SciPy's solution and stopping reason. Typed errors for bad input.
use super::common::split_cases;
use serde_json::Value;
use xp::sparse::linalg::{
    bicg, bicgstab, cg, cgs, gcrotmk, gmres, lgmres, lsmr, lsqr, minres, qmr, tfqmr, Krylov, LinearOperator, Lsq,
    LsqStop, Operator, Solution, Status,
};
use xp::sparse::{CsrArray, Format};
use xp::{Array, DType, Device, Error};
use xp_testing::{devices, Failures};

fn load(v: &Value, dev: Device) -> Array {
    super::common::load_on(v, dev)
}

fn matrix(c: &Value, dev: Device) -> CsrArray {
    super::common::coo_case(c, dev)
}

/// `v` as a stepped view (every other element of an array twice as long).
fn stepped(v: &Array) -> Array {
    let n = v.shape()[0];
    let big = xp::stack(&[v, &v.mul(7.0).unwrap()], 1).unwrap().reshape([2 * n]).unwrap();
    big.slice(xp::s![..;2]).unwrap()
}

fn norm(v: &Array) -> f64 {
    let v = v.astype(if v.dtype().is_complex() { DType::C128 } else { DType::F64 }).unwrap();
    xp::vdot(&v, &v).unwrap().scalar().unwrap().to_c128().re.sqrt()
}

/// `‖a − b‖ / ‖b‖`.
fn rel(a: &Array, b: &Array) -> f64 {
    let w = if b.dtype().is_complex() || a.dtype().is_complex() { DType::C128 } else { DType::F64 };
    let (a, b) = (a.astype(w).unwrap(), b.astype(w).unwrap());
    norm(&a.sub(&b).unwrap()) / norm(&b).max(f64::MIN_POSITIVE)
}

fn single(dtype: &str) -> bool {
    dtype == "float32" || dtype == "complex64"
}

type Solver = for<'a> fn(&'a dyn LinearOperator, &Array, Krylov<'a>) -> xp::Result<Solution>;

fn solver(name: &str) -> Option<Solver> {
    Some(match name {
        "cg" => cg,
        "cgs" => cgs,
        "bicg" => bicg,
        "bicgstab" => bicgstab,
        "gmres" => gmres,
        "qmr" => |a, b, o| qmr(a, b, o, None, None),
        "tfqmr" => tfqmr,
        "minres" => |a, b, o| minres(a, b, 0.0, o),
        "lgmres" => |a, b, o| lgmres(a, b, o, 3),
        "gcrotmk" => |a, b, o| gcrotmk(a, b, o, None),
        _ => return None,
    })
}

fn square(f: &mut Failures, dev: Device, c: &Value) {
    let name = c["name"].as_str().unwrap();
    let dtype = c["dtype"].as_str().unwrap();
    let a = matrix(c, dev);
    let b = stepped(&load(&c["b"], dev));
    let b_before = b.astype(DType::C128).unwrap().to_vec::<xp::Complex64>().unwrap();
    let jac = load(&c["jacobi"], dev);
    let n = b.shape()[0];
    let m = Operator::new([n, n], jac.dtype(), move |x| x.mul(&jac)).with_rmatvec({
        let jc = load(&c["jacobi"], dev).conj().unwrap();
        move |x| x.mul(&jc)
    });
    let bnorm = norm(&b);
    for (s, r) in c["solvers"].as_object().unwrap() {
        let Some(solve) = solver(s) else { continue };
        let what = format!("{name} {s} on {dev}");
        let full = &r["full"];
        // at SciPy's defaults
        let tol = if s == "minres" {
            1e-4
        } else if single(dtype) {
            3e-5
        } else {
            1.2e-5
        };
        match solve(&a, &b, Krylov::default()) {
            Ok(sol) => {
                let res = rel(&a.matmul(&sol.x).unwrap(), &b) * norm(&b) / bnorm;
                let scipy_ok = full.get("info").map(|i| i.as_i64() == Some(0)).unwrap_or(true);
                f.add(if sol.converged() == scipy_ok && res <= tol {
                    Ok(())
                } else {
                    Err(format!(
                        "{what}: status {:?} (SciPy info {}), residual {res:.3e} > {tol:e}",
                        sol.status, full["info"]
                    ))
                });
                if sol.x.dtype().name() != dtype {
                    f.add(Err(format!("{what}: x is {}, SciPy's {dtype}", sol.x.dtype().name())));
                }
                if let Some(it) = full.get("iters").and_then(|i| i.as_u64()) {
                    let slack = if single(dtype) { 3 } else { 1 };
                    if s != "gmres" && (sol.iterations as i64 - it as i64).unsigned_abs() > slack {
                        f.add(Err(format!("{what}: {} iterations, SciPy {it}", sol.iterations)));
                    }
                }
            }
            Err(e) => f.add(Err(format!("{what}: error {e}"))),
        }
        // three iterations, no tolerance: SciPy's iterate
        if let Some(want) = r["short"].get("x") {
            let opts = Krylov { rtol: 0.0, maxiter: Some(3), restart: Some(4), ..Default::default() };
            match solve(&a, &b, opts) {
                Ok(sol) => {
                    let d = rel(&sol.x, &load(want, dev));
                    let lim = if single(dtype) { 2e-4 } else { 1e-10 };
                    let status_ok = (sol.status == Status::MaxIter) == (r["short"]["info"].as_i64() == Some(3));
                    f.add(if d <= lim && status_ok {
                        Ok(())
                    } else {
                        Err(format!(
                            "{what}, 3 iterations: ‖x − SciPy's‖/‖x‖ = {d:.3e} (> {lim:e}) or status {:?}",
                            sol.status
                        ))
                    });
                }
                Err(e) => f.add(Err(format!("{what}, 3 iterations: error {e}"))),
            }
        }
        // a Jacobi preconditioner given as a closure (QMR's as M1): SciPy's iterate
        if let Some(want) = r.get("precond").and_then(|p| p.get("x")) {
            let got = if s == "qmr" {
                qmr(&a, &b, Krylov::default(), Some(&m), None)
            } else {
                solve(&a, &b, Krylov { m: Some(&m), ..Default::default() })
            };
            match got {
                Ok(sol) => {
                    let d = rel(&sol.x, &load(want, dev));
                    let lim = if single(dtype) { 1e-3 } else { 1e-7 };
                    f.add(if sol.converged() && d <= lim {
                        Ok(())
                    } else {
                        Err(format!("{what}, Jacobi: status {:?}, ‖x − SciPy's‖/‖x‖ = {d:.3e}", sol.status))
                    });
                }
                Err(e) => f.add(Err(format!("{what}, Jacobi: error {e}"))),
            }
        }
    }
    f.add(if b.astype(DType::C128).unwrap().to_vec::<xp::Complex64>().unwrap() == b_before {
        Ok(())
    } else {
        Err(format!("{name}: b changed"))
    });
}

fn lsq(f: &mut Failures, dev: Device, c: &Value) {
    let name = c["name"].as_str().unwrap();
    let a = matrix(c, dev);
    let b = stepped(&load(&c["b"], dev));
    for (key, r) in c["solvers"].as_object().unwrap() {
        let (s, damp) = key.split_once('_').unwrap();
        let damp: f64 = damp.parse().unwrap();
        let what = format!("{name} {key} on {dev}");
        let run = |o: Lsq| if s == "lsqr" { lsqr(&a, &b, o) } else { lsmr(&a, &b, o) };
        // SciPy runs float32 problems partly in float32 (its `u` and `v`), xp in float64: there
        // the solutions agree to float32's precision and the stopping reason may differ
        let f32_case = c["dtype"].as_str() == Some("float32");
        match run(Lsq { damp, atol: 1e-10, btol: 1e-10, ..Default::default() }) {
            Ok(sol) => {
                let d = rel(&sol.x, &load(&r["x"], dev));
                let it = r["itn"].as_u64().unwrap() as i64;
                let ok = if f32_case {
                    d <= 1e-5
                } else {
                    d <= 1e-7
                        && (sol.itn as i64 - it).abs() <= 1
                        && sol.istop.code() as i64 == r["istop"].as_i64().unwrap()
                };
                f.add(if ok {
                    Ok(())
                } else {
                    Err(format!(
                        "{what}: ‖x − SciPy's‖ rel {d:.3e}, itn {} (SciPy {it}), istop {:?} (SciPy {})",
                        sol.itn, sol.istop, r["istop"]
                    ))
                });
                let normr = r["normr"].as_f64().unwrap();
                if (sol.normr - normr).abs() > 1e-5 * norm(&b) {
                    f.add(Err(format!("{what}: normr {} (SciPy {normr})", sol.normr)));
                }
            }
            Err(e) => f.add(Err(format!("{what}: error {e}"))),
        }
        match run(Lsq { damp, atol: 0.0, btol: 0.0, conlim: 0.0, iter_lim: Some(3), ..Default::default() }) {
            Ok(sol) => {
                let d = rel(&sol.x, &load(&r["short"], dev));
                let lim = if f32_case { 1e-5 } else { 1e-10 };
                f.add(if d <= lim && sol.istop == LsqStop::IterationLimit {
                    Ok(())
                } else {
                    Err(format!("{what}, 3 iterations: rel {d:.3e}, istop {:?}", sol.istop))
                });
            }
            Err(e) => f.add(Err(format!("{what}, 3 iterations: error {e}"))),
        }
    }
}

fn reference(f: &mut Failures, dev: Device, c: &Value) {
    match c["group"].as_str().unwrap() {
        "square" => square(f, dev, c),
        _ => lsq(f, dev, c),
    }
}

split_cases!(reference, "sparse_linalg");

/// The same cases with the solvers' GPU paths (scalars on the device, fused updates) forced on
/// every device, the CPU included.
fn fused(f: &mut Failures, dev: Device, c: &Value) {
    super::common::forced_gpu_paths(|| reference(f, dev, c));
}

split_cases!(fused, "sparse_linalg");

fn poisson(k: usize, dev: Device) -> CsrArray {
    let d = |v: f64| Array::from_vec(vec![v], [1]).unwrap();
    let t =
        xp::sparse::diags_array(&[&d(-1.0), &d(2.0), &d(-1.0)], &[-1, 0, 1], Some([k, k]), None, Format::Csr).unwrap();
    let a = xp::sparse::kronsum(&t, &t, None).unwrap().tocsr().unwrap();
    CsrArray::new(
        &a.data().to_device(dev).unwrap(),
        &a.indices().to_device(dev).unwrap(),
        &a.indptr().to_device(dev).unwrap(),
        a.shape(),
    )
    .unwrap()
}

#[test]
fn bad_input_is_a_typed_error_and_leaves_the_inputs() {
    for dev in devices() {
        let a = poisson(4, dev);
        let b = xp::ones([16], DType::F64).unwrap().to_device(dev).unwrap();
        let rect = CsrArray::from_dense(&xp::ones([3, 4], DType::F64).unwrap().to_device(dev).unwrap()).unwrap();
        assert!(
            matches!(
                cg(&rect, &b, Krylov::default()),
                Err(Error::LinAlg { kind: xp::LinAlgKind::NotSquare { rows: 3, cols: 4 }, .. })
            ),
            "on {dev}"
        );
        let short = xp::ones([5], DType::F64).unwrap().to_device(dev).unwrap();
        assert!(matches!(gmres(&a, &short, Krylov::default()), Err(Error::InvalidArgument { .. })), "on {dev}");
        let m = poisson(3, dev);
        let e = bicgstab(&a, &b, Krylov { m: Some(&m), ..Default::default() }).unwrap_err();
        assert!(e.to_string().contains("preconditioner"), "on {dev}: {e}");
        let x0 = xp::ones([7], DType::F64).unwrap().to_device(dev).unwrap();
        assert!(matches!(
            cg(&a, &b, Krylov { x0: Some(&x0), ..Default::default() }),
            Err(Error::InvalidArgument { .. })
        ));
        assert!(matches!(cg(&a, &b, Krylov { rtol: -1.0, ..Default::default() }), Err(Error::InvalidParameter { .. })));
        // an operator without Aᴴ cannot run BiCG
        let op = Operator::new([16, 16], DType::F64, {
            let a = a.clone();
            move |x| a.matmul(x)
        });
        assert!(matches!(bicg(&op, &b, Krylov::default()), Err(Error::Unsupported { .. })), "on {dev}");
        // a 3-D dense "matrix"
        let cube = xp::ones([2, 2, 2], DType::F64).unwrap();
        assert!(matches!(cg(&cube, &b, Krylov::default()), Err(Error::LinAlg { .. })));
        // x0 is not written
        let x0 = xp::zeros([16], DType::F64).unwrap().to_device(dev).unwrap().add(0.5).unwrap();
        let sol = cg(&a, &b, Krylov { x0: Some(&x0), rtol: 1e-10, ..Default::default() }).unwrap();
        assert!(sol.converged());
        assert_eq!(x0.to_vec::<f64>().unwrap(), vec![0.5; 16], "on {dev}");
        // non-convergence is typed
        let capped = cg(&a, &b, Krylov { maxiter: Some(2), rtol: 1e-12, ..Default::default() }).unwrap();
        assert_eq!(capped.status, Status::MaxIter);
        assert!(matches!(capped.ok("cg"), Err(Error::LinAlg { kind: xp::LinAlgKind::NoConvergence { .. }, .. })));
        // lsqr: b of the wrong length
        assert!(matches!(lsqr(&rect, &b, Lsq::default()), Err(Error::InvalidArgument { .. })));
    }
}

/// A matrix-free operator (a closure) and a dense matrix solve the same system as the sparse
/// array; a zero right-hand side gives zero at once; an integer matrix solves in float64.
#[test]
fn operators_of_every_kind_solve_the_same_system() {
    for dev in devices() {
        let a = poisson(5, dev);
        let b = xp::arange(0.0, 25.0, 1.0, Some(DType::F64)).unwrap().to_device(dev).unwrap();
        let want = cg(&a, &b, Krylov { rtol: 1e-12, ..Default::default() }).unwrap().x;
        let dense = a.toarray().unwrap();
        let op = Operator::new([25, 25], DType::F64, {
            let a = a.clone();
            move |x| a.matmul(x)
        });
        for (what, got) in [
            ("dense", cg(&dense, &b, Krylov { rtol: 1e-12, ..Default::default() })),
            ("closure", cg(&op, &b, Krylov { rtol: 1e-12, ..Default::default() })),
            ("int64 dense", cg(&dense.astype(DType::I64).unwrap(), &b, Krylov { rtol: 1e-12, ..Default::default() })),
        ] {
            let got = got.unwrap();
            assert_eq!(got.x.dtype(), DType::F64, "{what} on {dev}");
            assert!(rel(&got.x, &want) < 1e-9, "{what} on {dev}: {}", rel(&got.x, &want));
        }
        let zero = xp::zeros([25], DType::F64).unwrap().to_device(dev).unwrap();
        let z = gmres(&a, &zero, Krylov::default()).unwrap();
        assert!(z.converged() && z.iterations == 0 && norm(&z.x) == 0.0);
        // the callback sees every iterate
        let mut seen = 0;
        let mut cb = |_: &Array| seen += 1;
        let sol = cg(&a, &b, Krylov { callback: Some(&mut cb), ..Default::default() }).unwrap();
        assert_eq!(seen, sol.iterations, "on {dev}");
    }
}
