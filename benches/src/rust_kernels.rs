//! Issue 33's workloads: kernels written in Rust (`#[xp::kernel]`, `#[xp::reduction]`) against
//! the same formulas as `ElementwiseKernel`/`ReductionKernel` (rows `ewkernel_*`), a hand-written
//! rayon loop over slices (CPU, `rayon_*`), and the reference's own (CuPy: `cupyx.jit` raw
//! kernels and `ElementwiseKernel`; NumPy: `np.where` and array expressions).
use crate::{rand, small, sync, Workload};
use rayon::prelude::*;
use xp::kernel::{ElementwiseKernel, ReductionKernel};
use xp::{Array, Device, Result};

#[path = "../../examples/common/course_kernels.rs"]
mod course;
use course::{black_scholes, l2norm, leaky_relu, saxpy};

/// The Black–Scholes body of `examples/black_scholes.rs` as an ElementwiseKernel.
const BS_BODY: &str = "
    const T sq = sqrt(t);
    const T d1 = (log(s / x) + (r + (T)0.5 * v * v) * t) / (v * sq);
    const T d2 = d1 - v * sq;
    const T e = exp(-r * t);
    call = s * cnd(d1) - x * e * cnd(d2);
    put = call - s + x * e;";
const BS_PRE: &str = "
__device__ T cnd(T d) {
    const T k = (T)1 / ((T)1 + (T)0.2316419 * fabs(d));
    const T poly = k * ((T)0.31938153 + k * ((T)-0.356563782 + k * ((T)1.781477937 + k * ((T)-1.821255978 + k * (T)1.330274429))));
    const T c = (T)0.3989422804014327 * exp((T)-0.5 * d * d) * poly;
    return d > 0 ? (T)1 - c : c;
}";

/// Option inputs: prices 5..30, strikes 1..100, times 0.25..10 (float32).
fn options(n: usize, d: Device) -> Result<(Array, Array, Array)> {
    let u = || rand(n, &[n], d);
    let (a, b, c) = (u()?, u()?, u()?);
    Ok((a.mul(25.0)?.add(5.0)?, b.mul(99.0)?.add(1.0)?, c.mul(9.75)?.add(0.25)?))
}

pub(crate) fn workloads(w: &mut Vec<Workload>, gpu: bool) {
    let n: usize = if gpu { 1 << 26 } else { 1 << 25 };
    let lg = n.trailing_zeros();
    let signed = move |d: Device| -> Result<Array> { rand(n, &[n], d)?.sub(0.5) };
    w.push(Workload {
        name: format!("rust_kernel_leaky_relu_f32_2^{lg}"),
        unit: "ms",
        setup: Box::new(move |d| {
            let x = signed(d)?;
            Ok(Box::new(move || sync(&leaky_relu::call(&x, 0.1f32)?)))
        }),
    });
    w.push(Workload {
        name: format!("ewkernel_leaky_relu_f32_2^{lg}"),
        unit: "ms",
        setup: Box::new(move |d| {
            let x = signed(d)?;
            let k = ElementwiseKernel::new("T x, T alpha", "T y", "y = x > 0 ? x : alpha * x", "xp_bench_leaky")?;
            Ok(Box::new(move || sync(&k.call1(&[(&x).into(), 0.1f32.into()])?)))
        }),
    });
    if !gpu {
        w.push(Workload {
            name: format!("rayon_leaky_relu_f32_2^{lg}"),
            unit: "ms",
            setup: Box::new(move |d| {
                let x = signed(d)?.to_vec::<f32>()?;
                let out = std::cell::RefCell::new(vec![0f32; x.len()]);
                Ok(Box::new(move || {
                    let mut o = out.borrow_mut();
                    o.par_chunks_mut(1 << 16).zip(x.par_chunks(1 << 16)).for_each(|(o, x)| {
                        for (o, &x) in o.iter_mut().zip(x) {
                            *o = if x > 0.0 { x } else { 0.1 * x };
                        }
                    });
                    Ok(())
                }))
            }),
        });
    }
    w.push(Workload {
        name: format!("rust_kernel_saxpy_f32_2^{lg}"),
        unit: "ms",
        setup: Box::new(move |d| {
            let (x, y) = (rand(n, &[n], d)?, rand(n, &[n], d)?);
            Ok(Box::new(move || sync(&saxpy::call(2.0f32, &x, &y)?)))
        }),
    });
    let nb: usize = if gpu { 1 << 24 } else { 1 << 22 };
    let lb = nb.trailing_zeros();
    w.push(Workload {
        name: format!("rust_kernel_black_scholes_f32_2^{lb}"),
        unit: "ms",
        setup: Box::new(move |d| {
            let (s, x, t) = options(nb, d)?;
            Ok(Box::new(move || sync(&black_scholes::call(&s, &x, &t, 0.02f32, 0.3f32)?.1)))
        }),
    });
    w.push(Workload {
        name: format!("ewkernel_black_scholes_f32_2^{lb}"),
        unit: "ms",
        setup: Box::new(move |d| {
            let (s, x, t) = options(nb, d)?;
            let k = ElementwiseKernel::with_preamble(
                "T s, T x, T t, T r, T v",
                "T call, T put",
                BS_BODY,
                "xp_bench_bs",
                BS_PRE,
            )?;
            Ok(Box::new(move || {
                let r = k.call(&[(&s).into(), (&x).into(), (&t).into(), 0.02f32.into(), 0.3f32.into()])?;
                sync(&r[1])
            }))
        }),
    });
    w.push(Workload {
        name: format!("rust_reduction_l2norm_f32_2^{lg}"),
        unit: "ms",
        setup: Box::new(move |d| {
            let x = rand(n, &[n], d)?;
            Ok(Box::new(move || sync(&l2norm::call(&x, 0)?)))
        }),
    });
    w.push(Workload {
        name: format!("redkernel_l2norm_f32_2^{lg}"),
        unit: "ms",
        setup: Box::new(move |d| {
            let x = rand(n, &[n], d)?;
            let k = ReductionKernel::new("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "xp_bench_l2")?;
            Ok(Box::new(move || sync(&k.call1(&[(&x).into()], 0)?)))
        }),
    });
    w.push(Workload {
        name: "small_rust_kernel_1024".to_string(),
        unit: "us/op",
        setup: Box::new(move |d| {
            let (a, b) = (rand(1024, &[1024], d)?, rand(1024, &[1024], d)?);
            Ok(small(move || saxpy::call(2.0f32, &a, &b)))
        }),
    });
}
