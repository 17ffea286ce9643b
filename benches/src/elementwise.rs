//! Issue 27's elementwise rows at 2^24 elements (both devices), and its short-axis reductions: `x ** 2`, `x ** 0.5` and
//! `x ** 3` (NumPy fast-paths the first two as `square` and `sqrt`), and the transcendental
//! functions NumPy runs through SIMD loops (`exp`, `log`, `sin`, `tanh`), in float32 and float64.
use crate::{rand, sync, Workload};
use xp::{Array, DType, Device, Result};

/// The operations, by the name the reference harness knows them by.
const OPS: [&str; 7] = ["pow2", "pow05", "pow3", "exp", "log", "sin", "tanh"];

fn apply(op: &str, x: &Array) -> Result<Array> {
    match op {
        "pow2" => x.pow(2),
        "pow05" => x.pow(0.5),
        "pow3" => x.pow(3),
        "exp" => x.exp(),
        "log" => x.log(),
        "sin" => x.sin(),
        _ => x.tanh(),
    }
}

pub(crate) fn workloads(w: &mut Vec<Workload>) {
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
