//! The random workloads at the sizes issue 10 names: `standard_normal`, `random` and `integers`
//! of 2^26 values on the GPU, 2^24 on the CPU, each a fresh draw of one generator per call.
use crate::{sync, Workload};
use xp::{DType, Device};

pub(crate) fn workloads(w: &mut Vec<Workload>, gpu: bool) {
    macro_rules! wl {
        ($name:expr, |$rng:ident, $n:ident| $body:expr) => {
            w.push(Workload {
                name: $name,
                unit: "ms",
                setup: Box::new(move |d: Device| {
                    let mut $rng = xp::on(d).default_rng(1);
                    let $n = 1usize << if gpu { 26 } else { 24 };
                    Ok(Box::new(move || sync(&$body?)))
                }),
            });
        };
    }
    let l = if gpu { 26 } else { 24 };
    wl!(format!("standard_normal_f32_2^{l}"), |rng, n| rng.standard_normal([n], DType::F32));
    wl!(format!("random_f32_2^{l}"), |rng, n| rng.random([n], DType::F32));
    wl!(format!("integers_i64_2^{l}"), |rng, n| rng.integers(0, 1000, [n], DType::I64));
}
