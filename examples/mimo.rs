//! Massive MIMO: the channel of every OFDM subcarrier decomposed in one call, on every device.
//!
//! A base station with `T` antennas serves `R` receive antennas over `K` subcarriers; each
//! subcarrier has its own complex channel matrix `H_k` (`R × T`, Rayleigh fading: independent
//! complex Gaussian entries of unit power). One `xp::linalg::svd` call on the `K × R × T` stack
//! gives every subcarrier's singular values at once (on a GPU, one kernel launch for the whole
//! stack), and with them the capacity of each subcarrier's spatial channels at a given SNR with
//! equal power on the transmit antennas:
//!
//! `C_k = Σ_i log2(1 + SNR / T · σ_{k,i}²)` bits/s/Hz.
//!
//! The channels are drawn by xp's counter-based generator, so every device decomposes the same
//! matrices; each GPU's singular values and capacities are checked against the CPU's, and each
//! device's factors by reconstruction (`|U S Vh - H| / |H|`). Times: a clock on the CPU, CUDA
//! events on a GPU, the median of five runs after a warm-up.
//!
//! ```sh
//! cargo run --release --example mimo [-- K R T]     # default 1024 subcarriers of 32 × 32
//! ```
use std::time::Instant;
use xp::linalg::{self, Svd};
use xp::{Array, Complex64, DType, Device, Result};

/// `K` channel matrices `R × T` of complex64 with unit-power Gaussian entries, on `dev`.
fn channels(dev: Device, (k, r, t): (usize, usize, usize)) -> Result<Array> {
    let mut rng = xp::on(dev).default_rng(2026);
    let parts = rng.normal(0.0, std::f64::consts::FRAC_1_SQRT_2, [2, k, r, t])?.astype(DType::F32)?;
    let (re, im) = (parts.slice(xp::s![0])?, parts.slice(xp::s![1])?);
    re.astype(DType::C64)?.add(&im.astype(DType::C64)?.mul(Complex64::new(0.0, 1.0))?)
}

/// The median of five timings (ms) of `f` on `dev`, after one warm-up run, and its last result.
fn time<T>(dev: Device, f: impl Fn() -> Result<T>) -> Result<(f64, T)> {
    let mut out = f()?;
    let mut ms = vec![];
    for _ in 0..5 {
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
    Ok((ms[2], out))
}

/// Each subcarrier's capacity (bits/s/Hz) from its singular values `s` (`K × min(R, T)`).
fn capacity(s: &Array, snr: f64, t: usize) -> Result<Array> {
    s.astype(DType::F64)?.square()?.mul(snr / t as f64)?.log1p()?.div(std::f64::consts::LN_2)?.sum(-1)
}

/// The largest of `|a - b|` relative to `b`'s largest magnitude (both brought to the CPU).
fn rel_diff(a: &Array, b: &Array) -> Result<f64> {
    let (a, b) = (a.to_device(Device::Cpu)?.astype(DType::C128)?, b.to_device(Device::Cpu)?.astype(DType::C128)?);
    let d = a.sub(&b)?.abs()?.max(..)?.item::<f64>()?;
    Ok(d / b.abs()?.max(..)?.item::<f64>()?.max(f64::MIN_POSITIVE))
}

fn main() -> Result<()> {
    let args: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let shape = match args.as_slice() {
        [k, r, t] => (*k, *r, *t),
        _ => (1024, 32, 32),
    };
    let (k, r, t) = shape;
    let snr_db = 10.0;
    let snr = 10f64.powf(snr_db / 10.0);
    println!("{k} subcarriers, {r} x {t} complex64 channels, SNR {snr_db} dB, equal power per transmit antenna");
    let mut reference: Option<(Array, Array)> = None;
    for dev in xp::devices() {
        let h = channels(dev, shape)?;
        let (ms, f): (f64, Svd) = time(dev, || {
            let f = linalg::svd(&h, false)?;
            if let Device::Cuda(i) = dev {
                xp::cuda::synchronize(i)?;
            }
            Ok(f)
        })?;
        let c = capacity(&f.s, snr, t)?;
        let rec = xp::matmul(&f.u.mul(&f.s.astype(DType::C64)?.expand_dims(-2)?)?, &f.vh)?;
        let err = rel_diff(&rec, &h)?;
        let mean = c.mean(..)?.item::<f64>()?;
        print!(
            "{:>7}: svd of the stack {ms:8.3} ms   mean capacity {mean:6.2} bit/s/Hz   |U S Vh - H|/|H| = {err:.1e}",
            dev.to_string()
        );
        if err > 1e-4 {
            return Err(xp::Error::invalid("mimo", format!("the factors on {dev} do not reconstruct H ({err:.1e})")));
        }
        match &reference {
            None => {
                println!();
                reference = Some((f.s.to_device(Device::Cpu)?, c.to_device(Device::Cpu)?));
            }
            Some((s0, c0)) => {
                let (ds, dc) = (rel_diff(&f.s, s0)?, rel_diff(&c, c0)?);
                println!("   vs cpu: singular values {ds:.1e}, capacities {dc:.1e}");
                if ds > 1e-4 || dc > 1e-4 {
                    return Err(xp::Error::invalid("mimo", format!("{dev} disagrees with the CPU")));
                }
            }
        }
    }
    let (_, c) = reference.expect("the CPU is always present");
    let v = c.to_vec::<f64>()?;
    println!(
        "capacity per subcarrier: min {:.2}, max {:.2} bit/s/Hz (first four: {:.2?})",
        v.iter().copied().fold(f64::INFINITY, f64::min),
        v.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        &v[..v.len().min(4)]
    );
    Ok(())
}
