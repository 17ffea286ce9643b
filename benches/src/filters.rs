//! The image filters of issue 12: `ndimage.gaussian_filter` (float32, σ = 4, SciPy's default
//! `reflect` mode and truncation at 4σ: two 33-tap passes) on a 4096² image (1024² on the CPU),
//! and `signal.medfilt2d` with a 5×5 window on a 2048² image (512² on the CPU).
use crate::{rand, sync, Workload};
use xp::ndimage::{gaussian_filter, Mode};
use xp::signal::medfilt2d;
use xp::Device;

pub(crate) fn workloads(w: &mut Vec<Workload>, gpu: bool) {
    let n = if gpu { 4096 } else { 1024 };
    w.push(Workload {
        name: format!("gaussian_filter_f32_{n}x{n}_sigma4"),
        unit: "ms",
        setup: Box::new(move |d: Device| {
            let a = rand(n * n, &[n, n], d)?;
            Ok(Box::new(move || sync(&gaussian_filter(&a, &[4.0], &[0], Mode::Reflect, 4.0, None)?)))
        }),
    });
    let m = if gpu { 2048 } else { 512 };
    w.push(Workload {
        name: format!("medfilt2d_f32_{m}x{m}_5x5"),
        unit: "ms",
        setup: Box::new(move |d: Device| {
            let a = rand(m * m, &[m, m], d)?;
            Ok(Box::new(move || sync(&medfilt2d(&a, &[5])?)))
        }),
    });
}
