//! Sparse matrix functions against SciPy (tests/data/sparse_matfuncs.json, made by
//! scripts/gen_sparse_matfuncs_reference.py): `norm` (matrix norms and vector norms along each
//! axis), `inv`, `expm` (a low Padé degree and degree 13 with squaring), `expm_multiply`
//! (one and three right-hand sides), `matrix_power` (0, 1, 2, 5) and `onenormest` (never above
//! the exact 1-norm, within a factor 3 of it, exact when `t ≥ n`), in float32, float64 and complex128
//! (int64 for `matrix_power`) on every device; bad input as typed errors.
use super::common::split_cases;
use serde_json::Value;
use xp::linalg::NormOrd;
use xp::sparse::linalg::{expm, expm_multiply, inv, matrix_power, norm, onenormest};
use xp::sparse::{CsrArray, Sparse};
use xp::{Array, DType, Device, Error};
use xp_testing::{devices, Failures};

fn load(v: &Value, dev: Device) -> Array {
    super::common::load_on(v, dev)
}

fn matrix(c: &Value, dev: Device) -> CsrArray {
    super::common::coo_case(c, dev)
}

fn wide(v: &Array) -> Array {
    v.astype(if v.dtype().is_complex() { DType::C128 } else { DType::F64 }).unwrap()
}

/// `max |a − b| / max(max |b|, 1e-300)`.
fn rel(a: &Array, b: &Array) -> f64 {
    let (a, b) = (wide(a), wide(b));
    let d = a.sub(&b).unwrap().abs().unwrap().max(..).unwrap().to_f64().unwrap();
    d / b.abs().unwrap().max(..).unwrap().to_f64().unwrap().max(1e-300)
}

fn add(f: &mut Failures, ok: bool, msg: impl FnOnce() -> String) {
    f.add(if ok { Ok(()) } else { Err(msg()) });
}

fn ord_of(s: &str) -> Option<NormOrd> {
    Some(match s {
        "None" => return None,
        "fro" => NormOrd::Fro,
        "inf" => NormOrd::Inf,
        "-inf" => NormOrd::NegInf,
        p => NormOrd::P(p.parse().unwrap()),
    })
}

fn case(f: &mut Failures, dev: Device, c: &Value) {
    let name = c["name"].as_str().unwrap();
    let a = matrix(c, dev);
    let single = c["dtype"] == "float32";
    let tol = if single { 2e-4 } else { 1e-10 };
    match c["group"].as_str().unwrap() {
        "norms" => {
            for (key, want) in c["matrix"].as_object().unwrap() {
                let want = want.as_f64().unwrap();
                match norm(&a, ord_of(key), None).and_then(|x| x.astype(DType::F64)?.to_f64()) {
                    Ok(got) => add(f, (got - want).abs() <= tol * want.abs().max(1.0), || {
                        format!("{name} on {dev}: ord {key}: {got} != {want}")
                    }),
                    Err(e) => f.add(Err(format!("{name} on {dev}: ord {key}: {e}"))),
                }
            }
            for (key, want) in c["vector"].as_object().unwrap() {
                let (ax, o) = key.split_once('_').unwrap();
                let want = load(want, dev);
                match norm(&a, ord_of(o), Some(ax.parse().unwrap())) {
                    Ok(got) => add(f, got.shape() == want.shape() && rel(&got, &want) <= tol, || {
                        format!("{name} on {dev}: axis {key}: off by {}", rel(&got, &want))
                    }),
                    Err(e) => f.add(Err(format!("{name} on {dev}: axis {key}: {e}"))),
                }
            }
        }
        "inv" => match inv(&a) {
            Ok(x) => add(f, rel(&x.toarray().unwrap(), &load(&c["inv"], dev)) <= tol * 10.0, || {
                format!("{name} on {dev}: inv off")
            }),
            Err(e) => f.add(Err(format!("{name} on {dev}: {e}"))),
        },
        "expm" => match expm(&a) {
            Ok(x) => {
                let e = rel(&x.toarray().unwrap(), &load(&c["expm"], dev));
                add(f, e <= tol * 10.0, || format!("{name} on {dev}: expm off by {e:e}"));
                add(f, x.format() == xp::sparse::Format::Csr, || format!("{name}: format {:?}", x.format()));
            }
            Err(e) => f.add(Err(format!("{name} on {dev}: {e}"))),
        },
        "expm_multiply" => {
            for (b, y) in [("b", "y"), ("B", "Y")] {
                let bv = load(&c[b], dev);
                match expm_multiply(&a, &bv) {
                    Ok(x) => {
                        let e = rel(&x, &load(&c[y], dev));
                        add(f, e <= tol * 10.0 && x.shape() == bv.shape(), || {
                            format!("{name} on {dev}: {y} off by {e:e}")
                        });
                    }
                    Err(e) => f.add(Err(format!("{name} on {dev}: {e}"))),
                }
            }
        }
        "matrix_power" => {
            for (p, want) in c["powers"].as_object().unwrap() {
                match matrix_power(&a, p.parse().unwrap()) {
                    Ok(x) => {
                        add(f, rel(&x.toarray().unwrap(), &load(want, dev)) == 0.0 && x.dtype() == a.dtype(), || {
                            format!("{name} on {dev}: power {p}")
                        })
                    }
                    Err(e) => f.add(Err(format!("{name} on {dev}: power {p}: {e}"))),
                }
            }
        }
        _ => {
            let exact = c["exact"].as_f64().unwrap();
            match onenormest(&a, 2, 5) {
                // a lower bound, and (Higham & Tisseur's experience) within a factor 3
                Ok(est) => add(f, est <= exact * (1.0 + 1e-6) && est >= exact / 3.0, || {
                    format!("{name} on {dev}: estimate {est}, exact {exact}")
                }),
                Err(e) => f.add(Err(format!("{name} on {dev}: {e}"))),
            }
            match onenormest(&a, 50, 5) {
                Ok(est) => {
                    add(f, (est - exact).abs() <= 1e-6 * exact, || format!("{name} on {dev}: t >= n: {est} != {exact}"))
                }
                Err(e) => f.add(Err(format!("{name} on {dev}: {e}"))),
            }
        }
    }
}
split_cases!(case, "sparse_matfuncs");

/// Non-square input and a bad `B` are typed errors.
#[test]
fn bad_input_is_a_typed_error() {
    for dev in devices() {
        let rect = CsrArray::from_dense(&xp::ones([3, 4], DType::F64).unwrap().to_device(dev).unwrap()).unwrap();
        assert!(matches!(inv(&rect), Err(Error::LinAlg { .. })));
        assert!(matches!(expm(&rect), Err(Error::LinAlg { .. })));
        assert!(matches!(matrix_power(&rect, 2), Err(Error::LinAlg { .. })));
        let sq = CsrArray::from_dense(&xp::eye(4, None, 0, DType::F64).unwrap().to_device(dev).unwrap()).unwrap();
        let b = xp::ones([5], DType::F64).unwrap().to_device(dev).unwrap();
        assert!(matches!(expm_multiply(&sq, &b), Err(Error::InvalidArgument { .. })));
        assert!(matches!(norm(&sq, Some(NormOrd::Nuc), None), Err(Error::InvalidArgument { .. })));
        assert!(matches!(norm(&sq, None, Some(2)), Err(Error::InvalidArgument { .. })));
        // the identity: expm = e I, inv = I
        let e = expm(&sq).unwrap().toarray().unwrap();
        assert!(
            rel(
                &e,
                &xp::eye(4, None, 0, DType::F64).unwrap().mul(std::f64::consts::E).unwrap().to_device(dev).unwrap()
            ) < 1e-15
        );
        assert!(matches!(
            inv(&CsrArray::from_dense(&xp::zeros([3, 3], DType::F64).unwrap()).unwrap()),
            Err(Error::LinAlg { .. })
        ));
        let _ = sq.format();
    }
}
