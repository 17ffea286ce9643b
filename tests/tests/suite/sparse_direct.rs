//! Sparse direct solves against SciPy (tests/data/sparse_direct.json, made by
//! scripts/gen_sparse_direct_reference.py): `spsolve` (one and three right-hand sides, the
//! residual below 1e-10 in float64), `splu(A).solve` with `A`, `Aᵀ` and `Aᴴ`, `factorized`,
//! `cholesky` on the Hermitian cases, `spsolve_triangular` of both triangles with and without a
//! unit diagonal, in float32, float64, complex64, complex128 and from int64, on every device
//! with `b` a stepped view; the singular matrices SciPy's `splu` refuses are typed errors naming
//! a column without a pivot. `spilu` by its properties: exact with nothing dropped, and a
//! preconditioner that makes GMRES converge in fewer iterations.
use super::common::split_cases;
use serde_json::Value;
use xp::sparse::linalg::{
    cholesky, factorized, gmres, spilu, splu, spsolve, spsolve_triangular, IluOptions, Krylov, Operator, Trans,
};
use xp::sparse::{CsrArray, Sparse};
use xp::{Array, DType, Device, Error, LinAlgKind};
use xp_testing::{devices, Failures};

fn load(v: &Value, dev: Device) -> Array {
    super::common::load_on(v, dev)
}

fn matrix(c: &Value, dev: Device) -> CsrArray {
    super::common::coo_case(c, dev)
}

/// `v` (1-D or 2-D) as a view stepping over every other row of an array twice as tall.
fn stepped(v: &Array) -> Array {
    let big = xp::concatenate(&[v, &v.mul(3.0).unwrap()], 0).unwrap();
    let n = v.shape()[0];
    let mut shape = vec![2, n];
    shape.extend_from_slice(&v.shape()[1..]);
    let big = big.reshape(shape.iter().map(|&s| s as isize).collect::<Vec<_>>()).unwrap();
    let mut axes: Vec<usize> = (0..shape.len()).collect();
    axes.swap(0, 1);
    let t = big.transpose(Some(&axes)).unwrap();
    t.take(&Array::from_vec(vec![0i64], [1]).unwrap().to_device(v.device()).unwrap(), Some(1))
        .unwrap()
        .squeeze(Some(&[1]))
        .unwrap()
}

fn check(f: &mut Failures, ok: bool, msg: String) {
    f.add(if ok { Ok(()) } else { Err(msg) });
}

fn fail(f: &mut Failures, msg: String) {
    f.add(Err(msg));
}

fn wide(v: &Array) -> Array {
    v.astype(if v.dtype().is_complex() { DType::C128 } else { DType::F64 }).unwrap()
}

fn norm(v: &Array) -> f64 {
    let v = wide(v).reshape([-1]).unwrap();
    xp::vdot(&v, &v).unwrap().scalar().unwrap().to_c128().re.sqrt()
}

/// `‖a − b‖ / ‖b‖`.
fn rel(a: &Array, b: &Array) -> f64 {
    norm(&wide(a).sub(&wide(b)).unwrap()) / norm(b).max(f64::MIN_POSITIVE)
}

fn tol(dtype: &str) -> f64 {
    if dtype == "float32" || dtype == "complex64" {
        2e-3
    } else {
        1e-9
    }
}

fn solve_case(f: &mut Failures, dev: Device, c: &Value) {
    let name = c["name"].as_str().unwrap();
    let dtype = c["dtype"].as_str().unwrap();
    let a = matrix(c, dev);
    let (b, bb) = (stepped(&load(&c["b"], dev)), stepped(&load(&c["B"], dev)));
    let before = b.to_buffer().unwrap();
    let (x, xx) = (load(&c["x"], dev), load(&c["X"], dev));
    let t = tol(dtype);
    match spsolve(&a, &b) {
        Ok(got) => {
            check(f, got.dtype() == x.dtype(), format!("{name} on {dev}: dtype {} != {}", got.dtype(), x.dtype()));
            check(f, got.device() == dev, format!("{name}: on {}", got.device()));
            let e = rel(&got, &x);
            check(f, e < t, format!("{name} on {dev}: spsolve x off SciPy's by {e:e}"));
            let r = rel(&a.matmul(&got).unwrap(), &b);
            if dtype == "float64" || dtype == "complex128" || dtype == "int64" {
                check(f, r < 1e-10, format!("{name} on {dev}: residual {r:e} >= 1e-10"));
            }
        }
        Err(e) => fail(f, format!("{name} on {dev}: spsolve {e}")),
    }
    check(f, b.to_buffer().unwrap() == before, format!("{name} on {dev}: b changed"));
    match spsolve(&a, &bb) {
        Ok(got) => {
            check(f, got.shape() == [49, 3], format!("{name} on {dev}: shape {:?}", got.shape()));
            let e = rel(&got, &xx);
            check(f, e < t, format!("{name} on {dev}: spsolve X off SciPy's by {e:e}"));
        }
        Err(e) => fail(f, format!("{name} on {dev}: spsolve (n, 3) {e}")),
    }
    // (n, 1) answers (n,), as SciPy's
    let col = b.reshape([49, 1]).unwrap();
    check(f, spsolve(&a, &col).map(|x| x.shape().to_vec()).ok() == Some(vec![49]), format!("{name}: (n, 1)"));
    let lu = match splu(&a) {
        Ok(lu) => lu,
        Err(e) => return fail(f, format!("{name} on {dev}: splu {e}")),
    };
    for (key, trans) in [("lu_N", Trans::N), ("lu_T", Trans::T), ("lu_H", Trans::H)] {
        let want = load(&c[key], dev);
        match lu.solve(&b, trans) {
            Ok(got) => {
                let e = rel(&got, &want);
                check(f, e < t, format!("{name} on {dev}: splu solve {trans:?} off by {e:e}"));
            }
            Err(e) => fail(f, format!("{name} on {dev}: splu solve {trans:?} {e}")),
        }
    }
    let solve = factorized(&a).unwrap();
    check(f, rel(&solve(&b).unwrap(), &x) < t, format!("{name} on {dev}: factorized"));
    if c["kind"] == "spd" {
        match cholesky(&a) {
            Ok(ch) => {
                check(f, ch.is_cholesky(), format!("{name}: not Cholesky"));
                for (key, trans) in [("lu_N", Trans::N), ("lu_T", Trans::T), ("lu_H", Trans::H)] {
                    let e = rel(&ch.solve(&b, trans).unwrap(), &load(&c[key], dev));
                    check(f, e < t, format!("{name} on {dev}: cholesky solve {trans:?} off by {e:e}"));
                }
            }
            Err(e) => fail(f, format!("{name} on {dev}: cholesky {e}")),
        }
    }
    // nothing dropped: the ILU is the LU (no pivoting needed on these diagonals)
    if c["kind"] != "pivot" {
        let ilu = spilu(&a, IluOptions { drop_tol: Some(0.0), fill_factor: Some(1e6) }).unwrap();
        let e = rel(&ilu.solve(&b, Trans::N).unwrap(), &x);
        check(f, e < t * 10.0, format!("{name} on {dev}: exact spilu off by {e:e}"));
        let e = rel(&ilu.solve(&b, Trans::H).unwrap(), &load(&c["lu_H"], dev));
        check(f, e < t * 10.0, format!("{name} on {dev}: exact spilu (H) off by {e:e}"));
    }
}

fn triangular_case(f: &mut Failures, dev: Device, c: &Value) {
    let name = c["name"].as_str().unwrap();
    let a = matrix(c, dev);
    let b = stepped(&load(&c["b"], dev));
    let want = load(&c["x"], dev);
    let (lower, unit) = (c["lower"].as_bool().unwrap(), c["unit"].as_bool().unwrap());
    match spsolve_triangular(&a, &b, lower, unit) {
        Ok(got) => {
            check(f, got.dtype() == want.dtype(), format!("{name} on {dev}: dtype {}", got.dtype()));
            let e = rel(&got, &want);
            check(f, e < tol(c["dtype"].as_str().unwrap()), format!("{name} on {dev}: off by {e:e}"));
        }
        Err(e) => fail(f, format!("{name} on {dev}: {e}")),
    }
    // the other triangle is ignored: the triangle plus its transpose's strict part
    let strict = a
        .sub(&CsrArray::from_dense(&a.toarray().unwrap().diagonal(0, 0, 1).unwrap().diag(0).unwrap()).unwrap())
        .unwrap();
    let full = a.add(&strict.transpose().unwrap()).unwrap();
    match spsolve_triangular(&full, &b, lower, unit) {
        Ok(got) => check(
            f,
            rel(&got, &want) < tol(c["dtype"].as_str().unwrap()),
            format!("{name} on {dev}: the other triangle was read"),
        ),
        Err(e) => fail(f, format!("{name} on {dev}: full matrix: {e}")),
    }
}

fn singular_case(f: &mut Failures, dev: Device, c: &Value) {
    let name = c["name"].as_str().unwrap();
    let a = matrix(c, dev);
    let cols: Vec<u64> = c["columns"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
    for (what, r) in [
        ("splu", splu(&a).map(|_| ())),
        ("spsolve", spsolve(&a, &xp::ones([25], DType::F64).unwrap().to_device(dev).unwrap()).map(|_| ())),
    ] {
        match r {
            Err(Error::LinAlg { kind: LinAlgKind::SingularColumn { column }, .. }) => check(
                f,
                cols.contains(&(column as u64)),
                format!("{name} on {dev}: {what} named column {column}, want one of {cols:?}"),
            ),
            other => fail(f, format!("{name} on {dev}: {what} answered {other:?}")),
        }
    }
}

fn reference(f: &mut Failures, dev: Device, c: &Value) {
    match c["group"].as_str().unwrap() {
        "solve" => solve_case(f, dev, c),
        "triangular" => triangular_case(f, dev, c),
        _ => singular_case(f, dev, c),
    }
}
split_cases!(reference, "sparse_direct");

fn poisson(k: usize, dev: Device) -> CsrArray {
    let d = |v: f64| Array::from_vec(vec![v], [1]).unwrap();
    let t = xp::sparse::diags_array(
        &[&d(-1.0), &d(2.0), &d(-1.0)],
        &[-1, 0, 1],
        Some([k, k]),
        None,
        xp::sparse::Format::Csr,
    )
    .unwrap();
    let a = xp::sparse::kronsum(&t, &t, None).unwrap().tocsr().unwrap();
    a.to_device(dev).unwrap()
}

/// Non-square, the wrong right-hand side, a matrix that is not positive definite and a
/// complex right-hand side for real factors are typed errors that leave the inputs as they were.
#[test]
fn bad_input_is_a_typed_error() {
    for dev in devices() {
        let a = poisson(4, dev);
        let b = xp::ones([16], DType::F64).unwrap().to_device(dev).unwrap();
        let rect = CsrArray::from_dense(&xp::ones([3, 4], DType::F64).unwrap().to_device(dev).unwrap()).unwrap();
        for r in [spsolve(&rect, &b).map(|_| ()), splu(&rect).map(|_| ()), cholesky(&rect).map(|_| ())] {
            assert!(matches!(r, Err(Error::LinAlg { kind: LinAlgKind::NotSquare { rows: 3, cols: 4 }, .. })), "{r:?}");
        }
        let short = xp::ones([15], DType::F64).unwrap().to_device(dev).unwrap();
        assert!(matches!(spsolve(&a, &short), Err(Error::InvalidArgument { .. })));
        assert!(matches!(splu(&a).unwrap().solve(&short, Trans::N), Err(Error::InvalidArgument { .. })));
        let cube = xp::ones([16, 1, 1], DType::F64).unwrap();
        assert!(matches!(spsolve_triangular(&a, &cube, true, false), Err(Error::InvalidArgument { .. })));
        // indefinite: -A is not positive definite; spsolve still solves it by LU
        let neg = CsrArray::from_dense(&a.toarray().unwrap().neg().unwrap()).unwrap();
        assert!(matches!(cholesky(&neg), Err(Error::LinAlg { kind: LinAlgKind::NonPositivePivot { .. }, .. })));
        let x = spsolve(&neg, &b).unwrap();
        assert!(rel(&neg.matmul(&x).unwrap(), &b) < 1e-12);
        let shifted = a
            .add(&xp::sparse::identity(16, DType::F64, xp::sparse::Format::Csr, dev).unwrap().mul_scalar(-2.5).unwrap())
            .unwrap();
        assert!(matches!(cholesky(&shifted), Err(Error::LinAlg { kind: LinAlgKind::NonPositivePivot { .. }, .. })));
        let x = spsolve(&shifted, &b).unwrap();
        assert!(rel(&shifted.matmul(&x).unwrap(), &b) < 1e-10);
        let zb = xp::zeros([16], DType::C128).unwrap().to_device(dev).unwrap();
        assert!(matches!(splu(&a).unwrap().solve(&zb, Trans::N), Err(Error::InvalidArgument { .. })));
        // a zero on the diagonal of a triangular solve
        let mut d = a.toarray().unwrap().to_vec::<f64>().unwrap();
        d[5 * 16 + 5] = 0.0;
        let z = CsrArray::from_dense(&Array::from_vec(d, [16, 16]).unwrap().to_device(dev).unwrap()).unwrap();
        assert!(matches!(
            spsolve_triangular(&z, &b, true, false),
            Err(Error::LinAlg { kind: LinAlgKind::SingularColumn { column: 5 }, .. })
        ));
        assert!(spsolve_triangular(&z, &b, true, true).is_ok());
        assert!(matches!(
            spilu(&a, IluOptions { drop_tol: Some(-1.0), fill_factor: None }),
            Err(Error::InvalidArgument { .. })
        ));
        assert_eq!(b.to_vec::<f64>().unwrap(), vec![1.0; 16]);
    }
}

/// The default ILU as GMRES's preconditioner: fewer iterations than none, the same solution.
#[test]
fn spilu_preconditions_gmres() {
    for dev in devices() {
        let a = poisson(16, dev);
        // a non-symmetric part: convection
        let n = 256;
        let d = |v: f64| Array::from_vec(vec![v], [1]).unwrap();
        let c = xp::sparse::diags_array(&[&d(-0.4), &d(0.4)], &[-1, 1], Some([n, n]), None, xp::sparse::Format::Csr)
            .unwrap();
        let a = a.add(&c.tocsr().unwrap().to_device(dev).unwrap()).unwrap();
        let b = xp::arange(0.0, n as f64, 1.0, Some(DType::F64)).unwrap().to_device(dev).unwrap();
        let ilu = spilu(&a, IluOptions::default()).unwrap();
        let m = Operator::new([n, n], DType::F64, move |x| ilu.solve(x, Trans::N));
        let opts = || Krylov { rtol: 1e-10, restart: Some(30), maxiter: Some(200), ..Default::default() };
        let plain = gmres(&a, &b, opts()).unwrap();
        let pre = gmres(&a, &b, Krylov { m: Some(&m), ..opts() }).unwrap();
        assert!(plain.converged() && pre.converged(), "on {dev}");
        assert!(pre.iterations * 4 < plain.iterations, "on {dev}: {} vs {}", pre.iterations, plain.iterations);
        assert!(rel(&pre.x, &plain.x) < 1e-7);
    }
}
