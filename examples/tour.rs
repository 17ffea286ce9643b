//! A tour of xp: NumPy-style code written once, run on every device present, checked to agree
//! across devices, with a small timing table. The input is drawn on each device by
//! `default_rng(seed)`, as CuPy's tutorials start, and every device draws the same values.
//!
//! ```text
//! cargo run --release --example tour
//! ```
use std::time::Instant;
use xp::{s, Array, DType, Device, Result};

/// Written once: runs wherever x lives.
fn softmax(x: &Array, axis: isize) -> Result<Array> {
    let m = x.max_keepdim(axis)?; // the reduced axis kept with length 1
    let e = x.sub(&m)?.exp()?;
    e.div(&e.sum_keepdim(axis)?)
}

fn standardize(x: &Array) -> Result<Array> {
    let mods = xp::get_array_module(x); // the namespace of x's device
    let eps = mods.full([], 1e-12, x.dtype())?; // allocated where x lives
    x.sub(&x.mean_keepdim(0)?)?.div(&x.std_keepdim(0)?.add(&eps)?)
}

/// A few more NumPy-style computations: a moving average, a histogram-like count, a distance
/// matrix through broadcasting.
fn more(x: &Array) -> Result<Vec<Array>> {
    let mods = xp::get_array_module(x);
    let v = x.slice(s![.., 0])?; // first column, a view
    let c = v.cumsum(..)?;
    let w = 8;
    let moving = c.slice(s![w..])?.sub(&c.slice(s![..-w])?)?.div(w as f64)?;
    let edges = mods.linspace(-3.0, 3.0, 7, xp::Linspace { endpoint: true, dtype: Some(DType::F32) })?;
    let counts = v.expand_dims(1)?.lt(&edges)?.sum(0)?;
    let p = x.slice(s![..16, ..])?;
    let d = p.expand_dims(1)?.sub(&p.expand_dims(0)?)?.square()?.sum(-1)?.sqrt()?;
    Ok(vec![moving, counts, d])
}

/// Linear algebra, written once: a Gram matrix (`matmul`), a stack of 8 systems solved in one
/// batched call, and the singular values of a tall slice (with how well its SVD reconstructs it).
fn linear_algebra(x: &Array) -> Result<Vec<Array>> {
    let mods = xp::get_array_module(x);
    let gram = xp::matmul(&x.t()?, x)?.div(x.shape()[0] as f64)?; // [256, 256]
    let n = 64;
    let eye = mods.eye(n, None, 0, x.dtype())?.mul(n as f64)?;
    let a = x.slice(s![..8 * n as isize, ..n as isize])?.reshape([8, n as isize, n as isize])?.add(&eye)?;
    let b = x.slice(s![..8 * n as isize, -2..])?.reshape([8, n as isize, 2])?;
    let sol = xp::linalg::solve(&a, &b)?; // [8, 64, 2], one call for the stack
    let residual = xp::matmul(&a, &sol)?.sub(&b)?.abs()?.max(..)?;
    let tall = x.slice(s![..512, ..64])?;
    let f = xp::linalg::svd(&tall, false)?;
    let rebuilt = xp::matmul(&f.u.mul(&f.s.expand_dims(-2)?)?, &f.vh)?;
    let svd_error = rebuilt.sub(&tall)?.abs()?.max(..)?;
    Ok(vec![gram, sol, residual, f.s, svd_error])
}

/// Statistics of the result, written once: medians and percentiles per column, a histogram of
/// the first column, the correlations of the first 8 columns, a weighted average.
fn statistics(x: &Array) -> Result<Vec<Array>> {
    let median = xp::median(x, 0)?;
    let p = xp::percentile(x, [5.0, 95.0], 0, xp::QuantileMethod::Linear)?;
    let h = xp::Histogram { range: Some((-4.0, 4.0)), ..Default::default() };
    let (counts, _) = xp::histogram(&x.slice(s![.., 0])?, 16, h)?;
    let corr = xp::corrcoef(&x.slice(s![.., ..8])?, None, xp::Corrcoef { rowvar: false })?;
    let w = xp::get_array_module(x).linspace(0.0, 1.0, x.shape()[0], Default::default())?;
    let avg = xp::average(x, 0, Some(&w))?;
    Ok(vec![median, p, counts, corr, avg])
}

/// The input, drawn on `dev` as CuPy's tutorials do (`cp.random.default_rng(7)`): a random
/// matrix whose columns have different scales and means.
fn data(dev: Device, rows: usize, cols: usize) -> Result<Array> {
    let mut rng = xp::on(dev).default_rng(7);
    let z = rng.standard_normal([rows, cols], DType::F32)?;
    let scale = xp::on(dev).linspace(0.5, 2.0, cols, xp::Linspace { endpoint: true, dtype: Some(DType::F32) })?;
    z.mul(&scale)?.add(&rng.uniform(-1.0, 1.0, [cols])?.astype(DType::F32)?)
}

fn time_it(f: impl Fn() -> Result<Array>) -> Result<(Array, f64)> {
    let r = f()?; // warm-up (and, on a GPU, kernel compilation)
    let mut ts = vec![];
    for _ in 0..5 {
        let t = Instant::now();
        let out = f()?;
        out.to_buffer()?; // wait for the device
        ts.push(t.elapsed().as_secs_f64() * 1e3);
    }
    ts.sort_by(f64::total_cmp);
    Ok((r, ts[2]))
}

/// The largest difference between two results, relative to the larger of 1 and the largest
/// magnitude of `b`.
fn max_abs_diff(a: &Array, b: &Array) -> Result<f64> {
    let b = b.to_host()?.astype(DType::F64)?;
    let d = a.to_host()?.astype(DType::F64)?.sub(&b)?.abs()?;
    if d.size() == 0 {
        return Ok(0.0);
    }
    Ok(d.max(..)?.item::<f64>()? / b.abs()?.max(..)?.item::<f64>()?.max(1.0))
}

fn main() -> Result<()> {
    let devices = xp::devices();
    println!("xp tour: devices present: {}", devices.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", "));
    if devices.len() == 1 {
        println!("(no CUDA device: everything runs on the CPU; the same code runs on a GPU unchanged)");
    }
    let host = data(Device::Cpu, 4096, 256)?;
    println!("\ninput {:?} {}:\n{}", host.shape(), host.dtype(), host.slice(s![..3, ..4])?);

    let mut reference: Option<Vec<Array>> = None;
    println!(
        "\n{:<12} {:>10} {:>10} {:>10} {:>10} {:>10}",
        "device", "softmax", "standardize", "more", "linalg", "stats"
    );
    for &dev in &devices {
        let x = match data(dev, 4096, 256) {
            Ok(x) => x,
            Err(e) => {
                println!("{dev:<12} skipped: {e}");
                continue;
            }
        };
        let run = || -> Result<(Vec<Array>, [f64; 5])> {
            let (a, ta) = time_it(|| softmax(&x, -1))?;
            let (b, tb) = time_it(|| standardize(&x))?;
            let (c, tc) = time_it(|| Ok(more(&x)?.remove(2)))?;
            let (_, tl) = time_it(|| Ok(linear_algebra(&x)?.remove(0)))?;
            let (_, ts) = time_it(|| Ok(statistics(&x)?.remove(0)))?;
            let mut outs = vec![a, b];
            outs.extend(more(&x)?);
            outs.push(c);
            outs.extend(linear_algebra(&x)?);
            outs.extend(statistics(&x)?);
            outs.push(x.clone());
            Ok((outs, [ta, tb, tc, tl, ts]))
        };
        match run() {
            Ok((outs, t)) => {
                println!(
                    "{:<12} {:>8.2}ms {:>8.2}ms {:>8.2}ms {:>8.2}ms {:>8.2}ms",
                    dev.to_string(),
                    t[0],
                    t[1],
                    t[2],
                    t[3],
                    t[4]
                );
                if let Some(r) = &reference {
                    for (i, (o, r)) in outs.iter().zip(r).enumerate() {
                        let d = max_abs_diff(o, r)?;
                        assert!(d < 1e-4, "device {dev} disagrees with the CPU on result {i}: {d}");
                    }
                    println!("{:<12} agrees with the CPU on all {} results", "", outs.len());
                } else {
                    reference = Some(outs);
                }
            }
            Err(e) if dev != Device::Cpu => println!("{dev:<12} not available yet: {e}"),
            Err(e) => return Err(e),
        }
    }
    let r = reference.expect("the CPU always runs");
    let rows = r[0].sum(-1)?;
    println!("\nsoftmax rows sum to 1: max |sum - 1| = {:.2e}", rows.sub(1.0)?.abs()?.max(..)?.item::<f64>()?);
    let z = &r[1];
    println!(
        "standardized columns: |mean| <= {:.1e}, |std - 1| <= {:.1e}",
        z.mean(0)?.abs()?.max(..)?.item::<f64>()?,
        z.std(0)?.sub(1.0)?.abs()?.max(..)?.item::<f64>()?
    );
    println!("values below each edge of linspace(-3, 3, 7) in column 0: {}", r[3]);
    println!("distance matrix of the first 16 rows, top-left corner:\n{}", r[4].slice(s![..3, ..3])?);
    println!(
        "linear algebra: Gram matrix {:?}, 8 systems solved at once (max |A x - b| = {:.1e}), \
         largest singular values of a 512x64 slice {} (max |U S Vh - A| = {:.1e})",
        r[6].shape(),
        r[8].item::<f64>()?,
        r[9].slice(s![..3])?,
        r[10].item::<f64>()?
    );
    println!(
        "statistics: column medians {} .., 5th/95th percentiles of column 0: {} / {}",
        r[11].slice(s![..3])?,
        r[12].slice(s![0, 0])?,
        r[12].slice(s![1, 0])?
    );
    println!("histogram of column 0 over [-4, 4): {}", r[13]);
    println!("correlations of columns 0..3:\n{}", r[14].slice(s![..3, ..3])?);
    if devices.len() > 1 {
        gpu_streams(&host)?;
        println!("kernels compiled by NVRTC in this process: {}", xp::cuda::kernels_compiled());
    }
    Ok(())
}

/// On the first GPU: work on a stream of its own (timed with events), an input uploaded from
/// pinned host memory and the result downloaded into it, both asynchronous.
fn gpu_streams(host: &Array) -> Result<()> {
    use xp::cuda::{pinned::Pinned, Stream};
    let s = Stream::new(0)?;
    let input = Pinned::from_slice(&host.to_vec::<f32>()?)?;
    let mut output = Pinned::<f32>::zeros(host.shape()[0])?;
    let start = s.record()?;
    s.scope(|| -> Result<()> {
        let x = Array::from_pinned(&input, host.shape(), Device::Cuda(0))?;
        softmax(&x, -1)?.max(-1)?.to_pinned(&mut output)
    })?;
    let end = s.record()?;
    end.synchronize()?;
    let want = softmax(host, -1)?.max(-1)?.to_vec::<f32>()?;
    let worst = output.as_slice()?.iter().zip(&want).map(|(a, b)| (a - b).abs()).fold(0.0f32, f32::max);
    assert!(worst < 1e-4, "the stream's result disagrees with the CPU: {worst}");
    println!(
        "
on a stream of its own, pinned in and out: {:.2} ms, agrees with the CPU",
        start.elapsed_ms(&end)?
    );
    Ok(())
}
