//! Issue 34's rows: SciPy's linear algebra against CuPy (`cupyx.scipy.linalg`) on a GPU and
//! SciPy on the CPU, at the sizes the issue names: a stack of 4096 32×32 systems factored and
//! solved (`lu_factor` + `lu_solve`; CuPy's functions take one matrix, so its row is a loop of
//! 4096 calls each), a 4096² triangular solve with 4096 right-hand sides, and the CPU's
//! `lu_factor` and `cho_solve` at 1024 (float64).
use crate::{rand, sync, Workload};
use xp::linalg::{self, SolveTriangular, Trans};
use xp::{Array, DType, Device, Result};

/// A well-conditioned float64 n × n stack: uniform [0, 1) plus n on the diagonal.
fn well(batch: usize, n: usize, d: Device) -> Result<Array> {
    let a = rand(batch * n * n, &[batch, n, n], d)?.astype(DType::F64)?;
    a.add(&xp::on(d).eye(n, None, 0, DType::F64)?.mul(n as f64)?)
}

pub(crate) fn workloads(w: &mut Vec<Workload>, gpu: bool) {
    w.push(Workload {
        name: "lu_factor_solve_f64_4096x32x32".to_string(),
        unit: "ms",
        setup: Box::new(|d| {
            let a = well(4096, 32, d)?;
            let b = rand(4096 * 32, &[4096, 32, 1], d)?.astype(DType::F64)?;
            Ok(Box::new(move || sync(&linalg::lu_solve(&linalg::lu_factor(&a)?, &b, Trans::N)?)))
        }),
    });
    let n = if gpu { 4096 } else { 1024 };
    w.push(Workload {
        name: format!("solve_triangular_f64_{n}_{n}rhs"),
        unit: "ms",
        setup: Box::new(move |d| {
            let a = well(1, n, d)?.reshape([n as isize, n as isize])?.triu(0)?;
            let b = rand(n * n, &[n, n], d)?.astype(DType::F64)?;
            Ok(Box::new(move || sync(&linalg::solve_triangular(&a, &b, SolveTriangular::default())?)))
        }),
    });
    w.push(Workload {
        name: "lu_factor_f64_1024".to_string(),
        unit: "ms",
        setup: Box::new(|d| {
            let a = well(1, 1024, d)?.reshape([1024, 1024])?;
            Ok(Box::new(move || sync(&linalg::lu_factor(&a)?.lu)))
        }),
    });
    w.push(Workload {
        name: "cho_solve_f64_1024".to_string(),
        unit: "ms",
        setup: Box::new(|d| {
            let a = well(1, 1024, d)?.reshape([1024, 1024])?;
            let spd = xp::matmul(&a, &xp::matrix_transpose(&a)?)?;
            let c = linalg::cho_factor(&spd, false)?;
            let b = rand(1024, &[1024], d)?.astype(DType::F64)?;
            Ok(Box::new(move || sync(&linalg::cho_solve(&c, &b)?)))
        }),
    });
    w.push(Workload {
        name: "solve_toeplitz_f64_1024".to_string(),
        unit: "ms",
        setup: Box::new(|d| {
            let c = rand(1024, &[1024], d)?.astype(DType::F64)?;
            let c = c.add(&xp::on(d).eye(1024, None, 0, DType::F64)?.slice([xp::SliceElem::Index(0)])?.mul(1024.0)?)?;
            let r = rand(1024, &[1024], d)?.astype(DType::F64)?;
            let b = rand(1024, &[1024], d)?.astype(DType::F64)?;
            Ok(Box::new(move || sync(&linalg::solve_toeplitz(&c, Some(&r), &b)?)))
        }),
    });
    w.push(Workload {
        name: "expm_f64_1024".to_string(),
        unit: "ms",
        setup: Box::new(|d| {
            // column sums near 4: the degree-13 approximant without scaling, for SciPy and CuPy too
            let a = rand(1024 * 1024, &[1024, 1024], d)?.astype(DType::F64)?.mul(8.0 / 1024.0)?;
            Ok(Box::new(move || sync(&linalg::expm(&a)?)))
        }),
    });
    // the rest of the family: a row each against SciPy (CuPy has none of them but lstsq's
    // relatives; on a GPU these compare with nothing or run on the host)
    w.push(Workload {
        name: "schur_f64_256".to_string(),
        unit: "ms",
        setup: Box::new(|d| {
            let a = rand(256 * 256, &[256, 256], d)?.astype(DType::F64)?;
            Ok(Box::new(move || sync(&linalg::schur(&a, linalg::SchurOutput::Real)?.t)))
        }),
    });
    for (name, f) in [
        ("sqrtm_f64_128", linalg::sqrtm as fn(&Array) -> Result<Array>),
        ("logm_f64_128", linalg::logm),
        ("signm_f64_128", linalg::signm),
    ] {
        w.push(Workload {
            name: name.to_string(),
            unit: "ms",
            setup: Box::new(move |d| {
                let a = well(1, 128, d)?.reshape([128, 128])?;
                let a = if name.starts_with("signm") {
                    a.sub(&xp::on(d).eye(128, None, 0, DType::F64)?.mul(128.5)?)?
                } else {
                    a
                };
                Ok(Box::new(move || sync(&f(&a)?)))
            }),
        });
    }
    w.push(Workload {
        name: "ldl_f64_256".to_string(),
        unit: "ms",
        setup: Box::new(|d| {
            let a = rand(256 * 256, &[256, 256], d)?.astype(DType::F64)?;
            let s = a.add(&xp::matrix_transpose(&a)?)?;
            Ok(Box::new(move || sync(&linalg::ldl(&s, true, true)?.lu)))
        }),
    });
    w.push(Workload {
        name: "qr_pivoting_f64_512".to_string(),
        unit: "ms",
        setup: Box::new(|d| {
            let a = rand(512 * 512, &[512, 512], d)?.astype(DType::F64)?;
            let spec = linalg::QrSpec { mode: linalg::QrOut::Full, pivoting: true };
            Ok(Box::new(move || sync(&linalg::qr_with(&a, spec)?.r)))
        }),
    });
    w.push(Workload {
        name: "lstsq_f64_1024x256".to_string(),
        unit: "ms",
        setup: Box::new(|d| {
            let a = rand(1024 * 256, &[1024, 256], d)?.astype(DType::F64)?;
            let b = rand(1024, &[1024], d)?.astype(DType::F64)?;
            Ok(Box::new(move || sync(&linalg::lstsq_with(&a, &b, linalg::LstsqSpec::default())?.x)))
        }),
    });
    w.push(Workload {
        name: "expm_frechet_f64_256".to_string(),
        unit: "ms",
        setup: Box::new(|d| {
            let a = rand(256 * 256, &[256, 256], d)?.astype(DType::F64)?.mul(4.0 / 256.0)?;
            let e = rand(256 * 256, &[256, 256], d)?.astype(DType::F64)?;
            Ok(Box::new(move || sync(&linalg::expm_frechet(&a, &e)?.1)))
        }),
    });
}
