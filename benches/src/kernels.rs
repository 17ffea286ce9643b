//! Issue 11's workloads: the fused `tanh(sin(a) + 0.1a)` (against the reference's unfused
//! expression), standardize written with `fuse`, an ElementwiseKernel call on 1024 elements
//! (host time), and a chain of 10 small ops replayed as a CUDA graph (GPU).
use crate::{rand, small, sync, Workload};
use xp::fuse::Sym;
use xp::kernel::ElementwiseKernel;
use xp::{Array, Device, Result};

/// Standardize the columns: two fused reductions (sum and sum of squares of the centred
/// values) and one fused elementwise pass.
fn standardize_fused(
    x: &Array,
    mean: &xp::fuse::Fused,
    var: &xp::fuse::Fused,
    scale: &xp::fuse::Fused,
) -> Result<Array> {
    let m = mean.call(&[x])?;
    let v = var.call(&[x, &m])?;
    scale.call(&[x, &m, &v])
}

pub(crate) fn workloads(w: &mut Vec<Workload>, gpu: bool) {
    let n: usize = if gpu { 1 << 26 } else { 1 << 25 };
    let lg = n.trailing_zeros();
    let (r, c) = if gpu { (8192usize, 8192usize) } else { (4096, 8192) };
    w.push(Workload {
        name: format!("fused_tanh_sin_f32_2^{lg}"),
        unit: "ms",
        setup: Box::new(move |d: Device| {
            let a = rand(n, &[n], d)?;
            let f = xp::fuse(|x: &Sym| x.sin()?.add(&x.mul(0.1)?)?.tanh());
            Ok(Box::new(move || sync(&f.call(&[&a])?)))
        }),
    });
    w.push(Workload {
        name: format!("fused_standardize_{r}x{c}"),
        unit: "ms",
        setup: Box::new(move |d: Device| {
            let a = rand(r * c, &[r, c], d)?;
            let mean = xp::fuse(|x: &Sym| x.mean(Some(&[0]), true));
            let var = xp::fuse(|x: &Sym, m: &Sym| x.sub(m)?.square()?.mean(Some(&[0]), true));
            let scale = xp::fuse(|x: &Sym, m: &Sym, v: &Sym| x.sub(m)?.div(&v.sqrt()?.add(1e-12)?));
            Ok(Box::new(move || sync(&standardize_fused(&a, &mean, &var, &scale)?)))
        }),
    });
    w.push(Workload {
        name: "small_ewkernel_1024".to_string(),
        unit: "us/op",
        setup: Box::new(move |d: Device| {
            let (a, b) = (rand(1024, &[1024], d)?, rand(1024, &[1024], d)?);
            let k = ElementwiseKernel::new("T x, T y, float32 s", "T z", "z = s * x + y", "xp_bench_axpy")?;
            Ok(small(move || k.call1(&[(&a).into(), (&b).into(), 2.0f32.into()])))
        }),
    });
}

/// A chain of 10 small ops (1024 elements) captured once and replayed: microseconds per op.
pub(crate) fn graph_workload(w: &mut Vec<Workload>) {
    w.push(Workload {
        name: "small_graph_10ops_1024".to_string(),
        unit: "us/op",
        setup: Box::new(move |d: Device| {
            let Device::Cuda(i) = d else { return Err(xp::Error::invalid("graph", "GPU only")) };
            let (x, y) = (rand(1024, &[1024], d)?, rand(1024, &[1024], d)?);
            let out = xp::on(d).zeros([1024], xp::DType::F32)?;
            let s = xp::cuda::Stream::new(i)?;
            let (graph, ()) = s.capture(|| {
                let a = x.mul(&y)?.add(&x)?.sin()?.mul(&y)?.sub(&x)?;
                out.assign(&a.abs()?.sqrt()?.add(&y)?.exp()?.mul(&x)?)
            })?;
            graph.upload()?;
            // 1000 replays of 10 ops: the figure is per op
            Ok(Box::new(move || {
                for _ in 0..1000 {
                    graph.launch()?;
                }
                s.synchronize()
            }))
        }),
    });
}
