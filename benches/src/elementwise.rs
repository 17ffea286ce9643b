//! Issue 27's elementwise rows at 2^24 elements (both devices), and its short-axis reductions: `x ** 2`, `x ** 0.5` and
//! `x ** 3` (NumPy fast-paths the first two as `square` and `sqrt`), and the transcendental
//! functions NumPy runs through SIMD loops (`exp`, `log`, `sin`, `tanh`, `expm1`, `log1p`, `sinh`,
//! `cosh`), in float32 and float64.
use crate::{rand, sync, Workload};
use xp::{Array, DType, Device, Result};

/// The operations, by the name the reference harness knows them by.
const OPS: [&str; 11] = ["pow2", "pow05", "pow3", "exp", "log", "sin", "tanh", "expm1", "log1p", "sinh", "cosh"];

fn apply(op: &str, x: &Array) -> Result<Array> {
    match op {
        "pow2" => x.pow(2),
        "pow05" => x.pow(0.5),
        "pow3" => x.pow(3),
        "exp" => x.exp(),
        "log" => x.log(),
        "sin" => x.sin(),
        "expm1" => x.expm1(),
        "log1p" => x.log1p(),
        "sinh" => x.sinh(),
        "cosh" => x.cosh(),
        _ => x.tanh(),
    }
}

/// `xp::special` rows: SciPy's (CuPy's `cupyx.scipy.special`) function of the same name on 2^24
/// elements in (0.5, 1.5) scaled to each function's interesting range.
const SPECIAL: [&str; 10] =
    ["erf", "ndtr", "ndtri", "erfinv", "gammaln", "digamma", "i0e", "log_ndtr", "expit", "xlogy"];

fn special(op: &str, x: &Array) -> Result<Array> {
    use xp::special as sp;
    match op {
        "erf" => sp::erf(x),
        "ndtr" => sp::ndtr(x),
        "ndtri" => sp::ndtri(&x.sub(0.5)?),   // (0, 1)
        "erfinv" => sp::erfinv(&x.sub(1.0)?), // (-0.5, 0.5)
        "gammaln" => sp::gammaln(&x.mul(10.0)?),
        "digamma" => sp::digamma(&x.mul(10.0)?),
        "i0e" => sp::i0e(&x.mul(10.0)?),
        "log_ndtr" => sp::log_ndtr(&x.mul(-10.0)?),
        "expit" => sp::expit(x),
        _ => sp::xlogy(x, x),
    }
}

pub(crate) fn workloads(w: &mut Vec<Workload>) {
    for op in SPECIAL {
        for dt in [DType::F32, DType::F64] {
            let tag = if dt == DType::F32 { "f32" } else { "f64" };
            w.push(Workload {
                name: format!("special_{op}_{tag}_2^24"),
                unit: "ms",
                setup: Box::new(move |d: Device| {
                    let x = rand(1 << 24, &[1 << 24], d)?.add(0.5)?.astype(dt)?;
                    Ok(Box::new(move || sync(&special(op, &x)?)))
                }),
            });
        }
    }
    // short-axis reductions: a (10^6, 2) float64 array, k-means' distances to two centres
    w.push(Workload {
        name: "short_sum_axis1_1e6x2_f64".to_string(),
        unit: "ms",
        setup: Box::new(|d: Device| {
            let x = rand(2_000_000, &[1_000_000, 2], d)?.astype(DType::F64)?;
            Ok(Box::new(move || sync(&x.sum(1)?)))
        }),
    });
    w.push(Workload {
        name: "short_argmax_axis1_1e6x2_f64".to_string(),
        unit: "ms",
        setup: Box::new(|d: Device| {
            let x = rand(2_000_000, &[1_000_000, 2], d)?.astype(DType::F64)?;
            Ok(Box::new(move || sync(&x.argmax(1)?)))
        }),
    });
    for op in OPS {
        for dt in [DType::F32, DType::F64] {
            let tag = if dt == DType::F32 { "f32" } else { "f64" };
            w.push(Workload {
                name: format!("{op}_{tag}_2^24"),
                unit: "ms",
                setup: Box::new(move |d: Device| {
                    // uniform in (0.5, 1.5): inside every function's domain
                    let x = rand(1 << 24, &[1 << 24], d)?.add(0.5)?.astype(dt)?;
                    Ok(Box::new(move || sync(&apply(op, &x)?)))
                }),
            });
        }
    }
}
