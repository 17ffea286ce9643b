//! The convolution case study: an image blurred with the normalised 31×31 Hanning kernel by
//! SciPy's `convolve2d` in `same` mode, with the `wrap` boundary and with `fill` (zeros), on the
//! CPU and on every GPU present.
//!
//! Two images: a Dirac comb (a one at every 512th row and column, so that the output shows the
//! kernel itself at each point, cut by the border with `fill` and whole with `wrap`) and a random
//! image. `Method::Auto` picks the direct sum or the FFT per device and size. Each GPU's result
//! is checked against the CPU's; GPU times are CUDA events around the call (median of five after
//! a warm-up), CPU times a clock. `convolution.png` shows the comb's top-left corner before and
//! after, with `wrap` and `fill`.
//!
//! ```sh
//! cargo run --release --example convolution [-- N]     # N×N images, default 4096
//! ```
#[path = "common/png.rs"]
mod png_out;
use png_out::write_png;
use std::time::Instant;
use xp::signal::{convolve2d, Boundary, Method, Mode};
use xp::{Array, DType, Device, Result};

/// The kernel: the outer product of two 31-point Hanning windows, summing to one.
fn kernel() -> Result<Array> {
    let h = xp::hanning(31)?;
    let k = xp::outer(&h, &h)?;
    k.div(&k.sum(..)?)?.astype(DType::F32)
}

/// The median of `runs` timings (ms) of `f` on `dev`, after one warm-up.
fn time(dev: Device, runs: usize, f: impl Fn() -> Result<Array>) -> Result<(f64, Array)> {
    let mut out = f()?;
    let mut ms = Vec::with_capacity(runs);
    for _ in 0..runs {
        match dev {
            Device::Cuda(i) => {
                let s = xp::cuda::Stream::current(i)?;
                let start = s.record()?;
                out = f()?;
                let end = s.record()?;
                end.synchronize()?;
                ms.push(start.elapsed_ms(&end)? as f64);
            }
            Device::Cpu => {
                let t = Instant::now();
                out = f()?;
                ms.push(t.elapsed().as_secs_f64() * 1e3);
            }
        }
    }
    ms.sort_by(f64::total_cmp);
    Ok((ms[ms.len() / 2], out))
}

/// The largest absolute difference between `a` and `b`, relative to `b`'s largest magnitude.
fn rel_diff(a: &Array, b: &Array) -> Result<f64> {
    let d = a.to_device(Device::Cpu)?.sub(b)?.abs()?.max(..)?.to_vec::<f32>()?[0] as f64;
    let m = b.abs()?.max(..)?.to_vec::<f32>()?[0] as f64;
    Ok(d / m.max(f64::MIN_POSITIVE))
}

fn main() -> Result<()> {
    let n: usize = std::env::args().nth(1).map_or(4096, |s| s.parse().expect("N, the image size"));
    let k = kernel()?;
    // the Dirac comb: diracs[::512, ::512] = 1
    let diracs = xp::zeros([n, n], DType::F32)?;
    let step = xp::SliceElem::Slice { start: None, stop: None, step: 512 };
    diracs.slice(vec![step, step])?.assign(&xp::ones([n.div_ceil(512), n.div_ceil(512)], DType::F32)?)?;
    let random = xp::random::default_rng(7).random([n, n], DType::F32)?;
    let mut devices = vec![Device::Cpu];
    devices.extend((0..xp::cuda::device_count()).map(Device::Cuda));
    println!("convolve2d of {n}×{n} float32 with a 31×31 Hanning kernel, mode same, method auto");
    for (name, img) in [("diracs", &diracs), ("random", &random)] {
        for (bname, boundary) in [("wrap", Boundary::Wrap), ("fill", Boundary::Fill(xp::Scalar::Int(0)))] {
            let mut cpu_out = None;
            for &dev in &devices {
                let (a, kd) = (img.to_device(dev)?, k.to_device(dev)?);
                let runs = if dev == Device::Cpu { 3 } else { 5 };
                let (ms, out) = time(dev, runs, || {
                    convolve2d(&a, &kd, xp::signal::Conv2d { mode: Mode::Same, boundary, method: Method::Auto })
                })?;
                let check = match &cpu_out {
                    None => "reference".to_string(),
                    Some(c) => {
                        let d = rel_diff(&out, c)?;
                        assert!(d < 1e-4, "{dev} differs from the CPU by {d:e} on {name}/{bname}");
                        format!("max |Δ| / max = {d:.1e} against the CPU")
                    }
                };
                println!("  {name:7} {bname:5} {dev:8} {ms:10.3} ms   {check}");
                if dev == Device::Cpu {
                    cpu_out = Some(out);
                }
            }
        }
    }
    let side = n.min(1024);
    let wrap = convolve2d(
        &diracs,
        &k,
        xp::signal::Conv2d { mode: Mode::Same, boundary: Boundary::Wrap, method: Method::Auto },
    )?;
    let fill = convolve2d(
        &diracs,
        &k,
        xp::signal::Conv2d { mode: Mode::Same, boundary: Boundary::default(), method: Method::Auto },
    )?;
    write_png("convolution.png", &[&diracs, &wrap, &fill], side)?;
    println!("wrote convolution.png: the comb, and its convolution with wrap and with fill ({side}² corners)");
    Ok(())
}
