//! The statistics workloads at the sizes issue 10 names: `histogram` of 2^26 float32 values
//! into 1024 bins (2^24 on the CPU) and `median` of 2^24 float32 values.
use crate::{rand, sync, Workload};
use xp::{Device, Histogram};

pub(crate) fn workloads(w: &mut Vec<Workload>, gpu: bool) {
    let l = if gpu { 26 } else { 24 };
    w.push(Workload {
        name: format!("histogram_f32_2^{l}_1024"),
        unit: "ms",
        setup: Box::new(move |d: Device| {
            let a = rand(1 << l, &[1 << l], d)?;
            Ok(Box::new(move || sync(&xp::histogram(&a, 1024, Histogram::default())?.0)))
        }),
    });
    w.push(Workload {
        name: "median_f32_2^24".to_string(),
        unit: "ms",
        setup: Box::new(move |d: Device| {
            let a = rand(1 << 24, &[1 << 24], d)?;
            Ok(Box::new(move || sync(&xp::median(&a, ..)?)))
        }),
    });
}
