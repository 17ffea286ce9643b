//! Window functions: computed in float64 on the array's device from the sample positions (a
//! host loop and an upload cost more than NumPy's or CuPy's vectorised formulas for long
//! windows); Kaiser's Bessel series is summed by a kernel on the GPU, on the host otherwise. The formulas are
//! SciPy's (`scipy.signal.windows`), which NumPy's `hanning`, `hamming`, `blackman`, `bartlett`
//! and `kaiser` share for symmetric windows.
use crate::kernel::ElementwiseKernel;
use crate::{Array, ArrayModule};
use std::f64::consts::PI;
use xp_core::{Device, Error, Result};

/// A window and its parameters (SciPy's `get_window` names, typed).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Window {
    /// all ones (`boxcar`)
    Boxcar,
    /// Hann: `0.5 - 0.5 cos(2πn / (M-1))`
    Hann,
    /// Hamming: `0.54 - 0.46 cos(2πn / (M-1))`
    Hamming,
    /// Blackman: `0.42 - 0.5 cos(2πn / (M-1)) + 0.08 cos(4πn / (M-1))`
    Blackman,
    /// Bartlett: a triangle with zero ends
    Bartlett,
    /// Kaiser: `I0(β sqrt(1 - (2n/(M-1) - 1)²)) / I0(β)`
    Kaiser {
        /// the shape parameter β
        beta: f64,
    },
    /// Gaussian: `exp(-((n - (M-1)/2) / std)² / 2)`
    Gaussian {
        /// the standard deviation in samples (> 0)
        std: f64,
    },
    /// Tukey: a flat top with cosine tapers over the fraction `alpha` of the window
    Tukey {
        /// the tapered fraction (≤ 0: a boxcar, ≥ 1: a Hann window)
        alpha: f64,
    },
}

/// The modified Bessel function of the first kind, order 0, by its power series
/// `Σ ((x/2)^k / k!)²`, summed until a term no longer changes the sum (all terms are positive,
/// so the relative error is a few ulps).
fn i0(x: f64) -> f64 {
    let q = x * x / 4.0;
    let (mut sum, mut term, mut k) = (1.0f64, 1.0f64, 1.0f64);
    while term > sum * 1e-17 {
        term *= q / (k * k);
        sum += term;
        k += 1.0;
    }
    sum
}

/// The GPU's windows from the positions `n`: cosine sums `Σ a_k cos(k (n s - c))` (kind 0), a
/// triangle `n s` rising to `n = c` (1), a Gaussian `exp(-(n - c)² s)` (2).
const WINDOW_BODY: &str = "if (kind == 0) {\n  const double x = n * s - c;\n  w = a0 + a1 * cos(x) + a2 * cos(2.0 * x);\n} else if (kind == 1) {\n  const double r = n * s;\n  w = n <= c ? r : 2.0 - r;\n} else {\n  const double r = n - c;\n  w = exp(-(r * r) * s);\n}";

/// A kernel made once (`cell` keeps it).
fn cached<'a>(
    cell: &'a std::sync::OnceLock<ElementwiseKernel>,
    sig: &str,
    body: &str,
    name: &str,
    preamble: &str,
) -> Result<&'a ElementwiseKernel> {
    if let Some(k) = cell.get() {
        return Ok(k);
    }
    let k = ElementwiseKernel::with_preamble(sig, "float64 w", body, name, preamble)?;
    Ok(cell.get_or_init(|| k))
}

/// [`i0`] in CUDA C, term for term.
const KAISER_I0: &str = "__device__ double xp_i0(double x) {\n  const double q = __dmul_rn(x, x) / 4.0;\n  double s = 1.0, t = 1.0, k = 1.0;\n  while (t > s * 1e-17) {\n    t *= q / __dmul_rn(k, k);\n    s += t;\n    k += 1.0;\n  }\n  return s;\n}\n";
/// A Kaiser window's value at position `n`, rounded as the host's loop (no fused multiply-add).
const KAISER_BODY: &str =
    "const double r = (n - half) / half;\nconst double u = __dadd_rn(1.0, -__dmul_rn(r, r));\nw = xp_i0(__dmul_rn(beta, sqrt(u > 0.0 ? u : 0.0))) / i0b;";

/// SciPy's `general_cosine`: `Σ a_k cos(k x)` on `m` points of `x` from -π to π (so that the
/// ends are `Σ (-1)^k a_k`).
fn cosine_sum(m: usize, a: &[f64]) -> Vec<f64> {
    (0..m)
        .map(|n| {
            let x = -PI + 2.0 * PI * n as f64 / (m - 1) as f64;
            a.iter().enumerate().map(|(k, &c)| c * (k as f64 * x).cos()).sum()
        })
        .collect()
}

/// `Σ a_k cos(k x)` on `m` points of `x` from -π to π, on `device` (as [`cosine_sum`]).
fn cosine_sum_on(m: usize, a: &[f64], device: Device) -> Result<Array> {
    let x = positions(m, device)?.mul(2.0 * PI / (m - 1) as f64)?.sub(PI)?;
    let mut w = crate::on(device).full(&[m], a[0], xp_core::DType::F64)?;
    for (k, &c) in a.iter().enumerate().skip(1) {
        w = w.add(&x.mul(k as f64)?.cos()?.mul(c)?)?;
    }
    Ok(w)
}

/// `0, 1, …, m - 1` as float64 on `device`.
fn positions(m: usize, device: Device) -> Result<Array> {
    crate::on(device).arange(0, m as i64, 1, Some(xp_core::DType::F64))
}

impl Window {
    /// The window as a float64 array on `device` (the values of [`Window::values`]).
    pub fn array(&self, m: usize, sym: bool, device: Device) -> Result<Array> {
        let on_host = matches!(self, Window::Kaiser { .. }) && !matches!(device, Device::Cuda(_));
        if m <= 1 || on_host {
            return crate::on(device).asarray(self.values(m, sym)?, &[m]);
        }
        self.values(0, sym)?; // the parameters' checks
        let len = if sym { m } else { m + 1 };
        let w = self.symmetric_on(len, device)?;
        if len == m {
            Ok(w)
        } else {
            w.slice(crate::s![..m as isize])?.copy()
        }
    }

    fn symmetric_on(&self, m: usize, device: Device) -> Result<Array> {
        let half = (m - 1) as f64 / 2.0;
        let on = crate::on(device);
        let n = || positions(m, device);
        if matches!(device, Device::Cuda(_)) {
            // one kernel from the positions (a chain of array operations is 8 to 12 passes over
            // the window: 0.2 ms for 2^22 points where CuPy's one kernel takes 0.04)
            static K: std::sync::OnceLock<ElementwiseKernel> = std::sync::OnceLock::new();
            let sig = "float64 n, int32 kind, float64 s, float64 c, float64 a0, float64 a1, float64 a2";
            let args = match *self {
                Window::Hann => Some((0i32, 2.0 * PI / (m - 1) as f64, PI, [0.5, 0.5, 0.0])),
                Window::Hamming => Some((0, 2.0 * PI / (m - 1) as f64, PI, [0.54, 0.46, 0.0])),
                Window::Blackman => Some((0, 2.0 * PI / (m - 1) as f64, PI, [0.42, 0.50, 0.08])),
                Window::Bartlett => Some((1, 2.0 / (m - 1) as f64, half, [0.0; 3])),
                Window::Gaussian { std } => Some((2, 1.0 / (2.0 * std * std), half, [0.0; 3])),
                _ => None,
            };
            if let Some((kind, sc, c, a)) = args {
                let k = cached(&K, sig, WINDOW_BODY, "xp_window", "")?;
                let pos = n()?;
                let ops = [(&pos).into(), kind.into(), sc.into(), c.into(), a[0].into(), a[1].into(), a[2].into()];
                return k.call1(&ops);
            }
        }
        match *self {
            Window::Hann => cosine_sum_on(m, &[0.5, 0.5], device),
            Window::Hamming => cosine_sum_on(m, &[0.54, 0.46], device),
            Window::Blackman => cosine_sum_on(m, &[0.42, 0.50, 0.08], device),
            Window::Bartlett => {
                let n = n()?;
                let r = n.mul(2.0)?.div((m - 1) as f64)?;
                crate::where_(&n.le(half)?, &r, &r.mul(-1.0)?.add(2.0)?)
            }
            Window::Gaussian { std } => {
                let r = n()?.sub(half)?;
                r.mul(&r)?.mul(-1.0)?.div(2.0 * std * std)?.exp()
            }
            Window::Kaiser { beta } => {
                // the host's series and roundings in a kernel (the CPU's evaluator has no loops)
                static K: std::sync::OnceLock<ElementwiseKernel> = std::sync::OnceLock::new();
                let sig = "float64 n, float64 half, float64 beta, float64 i0b";
                let k = cached(&K, sig, KAISER_BODY, "xp_kaiser", KAISER_I0)?;
                k.call1(&[(&n()?).into(), half.into(), beta.into(), i0(beta).into()])
            }
            Window::Tukey { alpha } if alpha >= 1.0 => Window::Hann.symmetric_on(m, device),
            Window::Tukey { alpha } if alpha > 0.0 => {
                let width = (alpha * (m - 1) as f64 / 2.0).floor();
                let n = n()?;
                let t = n.mul(2.0)?.div(alpha)?.div((m - 1) as f64)?;
                let taper = |shift: f64| t.add(shift)?.mul(PI)?.cos()?.add(1.0)?.mul(0.5);
                let (head, tail) = (taper(-1.0)?, taper(-2.0 / alpha + 1.0)?);
                let flat = crate::where_(&n.ge((m as f64) - width - 1.0)?, &tail, 1.0)?;
                crate::where_(&n.le(width)?, &head, &flat)
            }
            _ => on.ones(&[m], xp_core::DType::F64),
        }
    }

    fn name(&self) -> &'static str {
        match self {
            Window::Boxcar => "boxcar",
            Window::Hann => "hann",
            Window::Hamming => "hamming",
            Window::Blackman => "blackman",
            Window::Bartlett => "bartlett",
            Window::Kaiser { .. } => "kaiser",
            Window::Gaussian { .. } => "gaussian",
            Window::Tukey { .. } => "tukey",
        }
    }

    /// The `m` values of the window, symmetric (`sym`, for filter design) or periodic (one
    /// point longer and cut: for spectral analysis). A parameter that is not a number, or a
    /// Gaussian's `std` ≤ 0, is an [`Error::InvalidArgument`].
    pub fn values(&self, m: usize, sym: bool) -> Result<Vec<f64>> {
        let bad = |what: &str| Err(Error::invalid(self.name(), what.to_string()));
        match *self {
            Window::Kaiser { beta } if !beta.is_finite() => return bad("beta must be finite"),
            Window::Gaussian { std } if !(std > 0.0 && std.is_finite()) => return bad("std must be positive"),
            Window::Tukey { alpha } if alpha.is_nan() => return bad("alpha must be a number"),
            _ => {}
        }
        if m <= 1 {
            return Ok(vec![1.0; m]);
        }
        let len = if sym { m } else { m + 1 };
        let mut w = self.symmetric(len);
        w.truncate(m);
        Ok(w)
    }

    fn symmetric(&self, m: usize) -> Vec<f64> {
        let half = (m - 1) as f64 / 2.0;
        match *self {
            Window::Boxcar => vec![1.0; m],
            Window::Hann => cosine_sum(m, &[0.5, 0.5]),
            Window::Hamming => cosine_sum(m, &[0.54, 0.46]),
            Window::Blackman => cosine_sum(m, &[0.42, 0.50, 0.08]),
            Window::Bartlett => (0..m)
                .map(|n| {
                    let r = 2.0 * n as f64 / (m - 1) as f64;
                    if n as f64 <= half {
                        r
                    } else {
                        2.0 - r
                    }
                })
                .collect(),
            Window::Kaiser { beta } => (0..m)
                .map(|n| {
                    let r = (n as f64 - half) / half;
                    i0(beta * (1.0 - r * r).max(0.0).sqrt()) / i0(beta)
                })
                .collect(),
            Window::Gaussian { std } => (0..m)
                .map(|n| {
                    let r = (n as f64 - half) / std;
                    (-0.5 * r * r).exp()
                })
                .collect(),
            Window::Tukey { alpha } if alpha <= 0.0 => vec![1.0; m],
            Window::Tukey { alpha } if alpha >= 1.0 => Window::Hann.symmetric(m),
            Window::Tukey { alpha } => {
                let width = (alpha * (m - 1) as f64 / 2.0).floor() as usize;
                let span = alpha * (m - 1) as f64;
                (0..m)
                    .map(|n| {
                        let x = n as f64;
                        if n <= width {
                            0.5 * (1.0 + (PI * (-1.0 + 2.0 * x / span)).cos())
                        } else if n < m - width - 1 {
                            1.0
                        } else {
                            0.5 * (1.0 + (PI * (-2.0 / alpha + 1.0 + 2.0 * x / span)).cos())
                        }
                    })
                    .collect()
            }
        }
    }
}

/// SciPy's `get_window`: `nx` values of `window` as float64 on `device`, periodic when
/// `fftbins` (SciPy's default) and symmetric otherwise.
pub fn get_window(window: Window, nx: usize, fftbins: bool, device: Device) -> Result<Array> {
    window.array(nx, !fftbins, device)
}

/// SciPy's `scipy.signal.windows` functions: `m` points, symmetric when `sym`.
pub mod windows {
    use super::Window;
    use crate::Array;
    use xp_core::{Device, Result};

    fn make(w: Window, m: usize, sym: bool, device: Device) -> Result<Array> {
        w.array(m, sym, device)
    }
    /// A boxcar (all ones).
    pub fn boxcar(m: usize, sym: bool, device: Device) -> Result<Array> {
        make(Window::Boxcar, m, sym, device)
    }
    /// A Hann window.
    pub fn hann(m: usize, sym: bool, device: Device) -> Result<Array> {
        make(Window::Hann, m, sym, device)
    }
    /// A Hamming window.
    pub fn hamming(m: usize, sym: bool, device: Device) -> Result<Array> {
        make(Window::Hamming, m, sym, device)
    }
    /// A Blackman window.
    pub fn blackman(m: usize, sym: bool, device: Device) -> Result<Array> {
        make(Window::Blackman, m, sym, device)
    }
    /// A Bartlett window.
    pub fn bartlett(m: usize, sym: bool, device: Device) -> Result<Array> {
        make(Window::Bartlett, m, sym, device)
    }
    /// A Kaiser window of shape `beta`.
    pub fn kaiser(m: usize, beta: f64, sym: bool, device: Device) -> Result<Array> {
        make(Window::Kaiser { beta }, m, sym, device)
    }
    /// A Gaussian window of standard deviation `std` samples.
    pub fn gaussian(m: usize, std: f64, sym: bool, device: Device) -> Result<Array> {
        make(Window::Gaussian { std }, m, sym, device)
    }
    /// A Tukey window tapering the fraction `alpha`.
    pub fn tukey(m: usize, alpha: f64, sym: bool, device: Device) -> Result<Array> {
        make(Window::Tukey { alpha }, m, sym, device)
    }
}

/// NumPy's window functions (symmetric, float64) on this module's device.
impl ArrayModule {
    /// NumPy's `hanning(M)`.
    pub fn hanning(&self, m: usize) -> Result<Array> {
        windows::hann(m, true, self.device())
    }
    /// NumPy's `hamming(M)`.
    pub fn hamming(&self, m: usize) -> Result<Array> {
        windows::hamming(m, true, self.device())
    }
    /// NumPy's `blackman(M)`.
    pub fn blackman(&self, m: usize) -> Result<Array> {
        windows::blackman(m, true, self.device())
    }
    /// NumPy's `bartlett(M)`.
    pub fn bartlett(&self, m: usize) -> Result<Array> {
        windows::bartlett(m, true, self.device())
    }
    /// NumPy's `kaiser(M, beta)`.
    pub fn kaiser(&self, m: usize, beta: f64) -> Result<Array> {
        windows::kaiser(m, beta, true, self.device())
    }
}

/// NumPy's `hanning(M)` in host memory.
pub fn hanning(m: usize) -> Result<Array> {
    crate::on(Device::Cpu).hanning(m)
}
/// NumPy's `hamming(M)` in host memory.
pub fn hamming(m: usize) -> Result<Array> {
    crate::on(Device::Cpu).hamming(m)
}
/// NumPy's `blackman(M)` in host memory.
pub fn blackman(m: usize) -> Result<Array> {
    crate::on(Device::Cpu).blackman(m)
}
/// NumPy's `bartlett(M)` in host memory.
pub fn bartlett(m: usize) -> Result<Array> {
    crate::on(Device::Cpu).bartlett(m)
}
/// NumPy's `kaiser(M, beta)` in host memory.
pub fn kaiser(m: usize, beta: f64) -> Result<Array> {
    crate::on(Device::Cpu).kaiser(m, beta)
}
