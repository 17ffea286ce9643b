//! Decompositions of matrices at the edges of the floating range, which the Array API suite's
//! Hypothesis draws found: zero elongated matrices, entries whose squares overflow float32, one
//! entry of 1e80 among ones (a graded matrix whose products underflow); on every device, checked
//! by reconstruction (`U S Vh = A`, `Q R = A`) and by the exact singular values where they are
//! known.
use xp::linalg::{self, QrMode};
use xp::{Array, Complex32, DType};
use xp_testing::{devices, Failures};

/// max |a - b| / max |a| (complex128 on the host)
fn rel_err(a: &Array, b: &Array) -> f64 {
    let (a, b) = (a.astype(DType::C128).unwrap(), b.astype(DType::C128).unwrap());
    let scale = a.abs().unwrap().max(..).unwrap().to_f64().unwrap().max(f64::MIN_POSITIVE);
    a.sub(&b).unwrap().abs().unwrap().max(..).unwrap().to_f64().unwrap() / scale
}

fn svd_rebuilds(a: &Array, tol: f64) -> Result<(), String> {
    let f = linalg::svd(a, false).map_err(|e| e.to_string())?;
    let us = f.u.mul(&f.s.astype(a.dtype()).unwrap().expand_dims(-2).unwrap()).unwrap();
    let back = xp::matmul(&us, &f.vh).unwrap();
    let e = rel_err(a, &back);
    if e <= tol {
        Ok(())
    } else {
        Err(format!("U S Vh off by {e:e}"))
    }
}

#[test]
fn decompositions_at_the_edges_of_the_range() {
    let mut f = Failures::default();
    for dev in devices() {
        // zero elongated matrices: exact zero singular values, no failure to converge
        for (m, n) in [(1, 2), (2, 1), (2, 5), (3, 7), (6, 1)] {
            let z = xp::on(dev).zeros([m, n], DType::F64).unwrap();
            let r = linalg::svd(&z, true).map_err(|e| e.to_string()).and_then(|s| {
                let sv = s.s.to_vec::<f64>().unwrap();
                if sv.iter().all(|&v| v == 0.0) {
                    Ok(())
                } else {
                    Err(format!("{sv:?}"))
                }
            });
            f.add(r.map_err(|e| format!("{dev} svd of zeros {m}x{n}: {e}")));
        }
        // one entry of 4.7e80 among ones
        let g = Array::from_vec(vec![0.0, 1.0, 1.0, 1.0, 4.74284398e80, 1.0, 1.0, 1.0, 1.0], [3, 3])
            .and_then(|a| a.to_device(dev))
            .unwrap();
        f.add(svd_rebuilds(&g, 1e-14).map_err(|e| format!("{dev} graded svd: {e}")));
        // complex64 entries whose squares overflow float32
        let c = |re: f32, im: f32| Complex32::new(re, im);
        let big = Array::from_vec(
            vec![c(0.0, 1.8446743e19), c(0.0, 0.0), c(0.0, 0.0), c(0.0, 0.0), c(0.0, 5.515761e15), c(0.0, 0.0)],
            [3, 2],
        )
        .and_then(|a| a.to_device(dev))
        .unwrap();
        let qr = linalg::qr(&big, QrMode::Reduced).map_err(|e| e.to_string()).and_then(|q| {
            let back = xp::matmul(q.q.as_ref().unwrap(), &q.r).unwrap();
            let e = rel_err(&big, &back);
            if e <= 1e-6 {
                Ok(())
            } else {
                Err(format!("Q R off by {e:e}"))
            }
        });
        f.add(qr.map_err(|e| format!("{dev} qr complex64 1e19: {e}")));
        let pair = Array::from_vec(vec![c(0.0, 0.0), c(5.515761e15, 1.8446743e19), c(0.0, 0.0), c(0.0, 0.0)], [2, 2])
            .and_then(|a| a.to_device(dev))
            .unwrap();
        f.add(svd_rebuilds(&pair, 1e-6).map_err(|e| format!("{dev} svd complex64 1e19: {e}")));
    }
    f.finish();
}
