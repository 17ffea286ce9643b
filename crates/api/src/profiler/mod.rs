//! Timing in the spirit of CuPy's `cupyx.profiler.benchmark`: a function run `n_warmup` times,
//! then `n_repeat` times with the host time of each call and, on every GPU, the device time
//! between CUDA events recorded on its current stream before and after the call.
//!
//! ```
//! let a = xp::ones(&[1 << 16], xp::DType::F32).unwrap();
//! let b = xp::profiler::benchmark("sin", || a.sin(), 20, 2).unwrap();
//! assert_eq!(b.cpu_us.len(), 20);
//! println!("{b}"); // sin: CPU: 41.2 us +/- 3.1 (min 38.0, max 52.9) GPU-0: ...
//! ```
//!
//! With a profiler attached (Nsight Systems, Nsight Compute), xp's operations (ufuncs,
//! reductions, kernel calls, fused functions, products) appear as NVTX ranges named after the
//! op, and [`range`] opens ranges of your own; without one, a range costs an atomic load.
//!
//! ```
//! {
//!     let _r = xp::profiler::range("my step");
//!     xp::ones(&[8], xp::DType::F32).unwrap().sin().unwrap();
//! } // the range ends here
//! ```
mod nvtx;

pub use nvtx::{enabled as nvtx_enabled, range, Range};

use crate::Device;
use std::fmt;
use std::time::Instant;
use xp_core::Result;

/// The times of [`benchmark`], in microseconds.
#[derive(Clone, Debug, PartialEq)]
pub struct Benchmark {
    /// the name given
    pub name: String,
    /// host time of each repetition (until the function returned)
    pub cpu_us: Vec<f64>,
    /// per GPU: device time of each repetition (CUDA events around the call)
    pub gpu_us: Vec<(Device, Vec<f64>)>,
}

fn stats(v: &[f64]) -> (f64, f64, f64, f64) {
    let n = v.len().max(1) as f64;
    let mean = v.iter().sum::<f64>() / n;
    let sd = (v.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n).sqrt();
    let min = v.iter().copied().fold(f64::INFINITY, f64::min);
    let max = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (mean, sd, min, max)
}

impl Benchmark {
    /// The median host time in microseconds.
    pub fn cpu_median_us(&self) -> f64 {
        median(&self.cpu_us)
    }
    /// The median device time on `device` in microseconds, if it was timed.
    pub fn gpu_median_us(&self, device: Device) -> Option<f64> {
        self.gpu_us.iter().find(|(d, _)| *d == device).map(|(_, v)| median(v))
    }
}

fn median(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    if s.is_empty() {
        f64::NAN
    } else {
        s[s.len() / 2]
    }
}

impl fmt::Display for Benchmark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (m, s, lo, hi) = stats(&self.cpu_us);
        write!(f, "{:<20}: CPU: {m:10.3} us +/- {s:8.3} (min: {lo:10.3} / max: {hi:10.3}) us", self.name)?;
        for (d, v) in &self.gpu_us {
            let (m, s, lo, hi) = stats(v);
            let i = match d {
                Device::Cuda(i) => *i,
                Device::Cpu => 0,
            };
            write!(f, "  GPU-{i}: {m:10.3} us +/- {s:8.3} (min: {lo:10.3} / max: {hi:10.3}) us")?;
        }
        Ok(())
    }
}

/// Time `f`: `n_warmup` untimed calls, then `n_repeat` timed ones (host time; device time on
/// every GPU present, between events on its current stream, waited for after each call).
pub fn benchmark<R>(
    name: &str,
    mut f: impl FnMut() -> Result<R>,
    n_repeat: usize,
    n_warmup: usize,
) -> Result<Benchmark> {
    let gpus: Vec<usize> = crate::devices()
        .into_iter()
        .filter_map(|d| match d {
            Device::Cuda(i) => Some(i),
            Device::Cpu => None,
        })
        .collect();
    for _ in 0..n_warmup {
        f()?;
    }
    for &i in &gpus {
        crate::cuda::synchronize(i)?;
    }
    let mut cpu = Vec::with_capacity(n_repeat);
    let mut gpu: Vec<Vec<f64>> = vec![Vec::with_capacity(n_repeat); gpus.len()];
    for _ in 0..n_repeat {
        let starts = events(&gpus)?;
        let t = Instant::now();
        f()?;
        cpu.push(t.elapsed().as_secs_f64() * 1e6);
        let ends = events(&gpus)?;
        for (k, (s, e)) in starts.iter().zip(&ends).enumerate() {
            gpu[k].push(elapsed_us(s, e)?);
        }
    }
    Ok(Benchmark {
        name: name.to_string(),
        cpu_us: cpu,
        gpu_us: gpus.iter().map(|&i| Device::Cuda(i)).zip(gpu).collect(),
    })
}

#[cfg(xp_cuda)]
type Ev = xp_cuda::Event;
#[cfg(not(xp_cuda))]
type Ev = ();

#[cfg(xp_cuda)]
fn events(gpus: &[usize]) -> Result<Vec<Ev>> {
    gpus.iter().map(|&i| xp_cuda::Stream::current(i)?.record()).collect()
}
#[cfg(not(xp_cuda))]
fn events(_: &[usize]) -> Result<Vec<Ev>> {
    Ok(Vec::new())
}

#[cfg(xp_cuda)]
fn elapsed_us(s: &Ev, e: &Ev) -> Result<f64> {
    e.synchronize()?;
    Ok(s.elapsed_ms(e)? as f64 * 1e3)
}
#[cfg(not(xp_cuda))]
fn elapsed_us(_: &Ev, _: &Ev) -> Result<f64> {
    Ok(0.0)
}
