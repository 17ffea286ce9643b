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

/// Cephes' Chebyshev coefficients of `exp(-x) I0(x)` on `[0, 8]` (NumPy's `_i0A`, SciPy's `i0`).
const I0A: [f64; 30] = [
    -4.4153416464793395e-18,
    3.3307945188222384e-17,
    -2.431279846547955e-16,
    1.715391285555133e-15,
    -1.1685332877993451e-14,
    7.676185498604936e-14,
    -4.856446783111929e-13,
    2.95505266312964e-12,
    -1.726826291441556e-11,
    9.675809035373237e-11,
    -5.189795601635263e-10,
    2.6598237246823866e-09,
    -1.300025009986248e-08,
    6.046995022541919e-08,
    -2.670793853940612e-07,
    1.1173875391201037e-06,
    -4.4167383584587505e-06,
    1.6448448070728896e-05,
    -5.754195010082104e-05,
    0.00018850288509584165,
    -0.0005763755745385824,
    0.0016394756169413357,
    -0.004324309995050576,
    0.010546460394594998,
    -0.02373741480589947,
    0.04930528423967071,
    -0.09490109704804764,
    0.17162090152220877,
    -0.3046826723431984,
    0.6767952744094761,
];
/// Cephes' Chebyshev coefficients of `exp(-x) sqrt(x) I0(x)` on `(8, ∞)` in `8/x` (NumPy's `_i0B`).
const I0B: [f64; 25] = [
    -7.233180487874754e-18,
    -4.830504485944182e-18,
    4.46562142029676e-17,
    3.461222867697461e-17,
    -2.8276239805165836e-16,
    -3.425485619677219e-16,
    1.7725601330565263e-15,
    3.8116806693526224e-15,
    -9.554846698828307e-15,
    -4.150569347287222e-14,
    1.54008621752141e-14,
    3.8527783827421426e-13,
    7.180124451383666e-13,
    -1.7941785315068062e-12,
    -1.3215811840447713e-11,
    -3.1499165279632416e-11,
    1.1889147107846439e-11,
    4.94060238822497e-10,
    3.3962320257083865e-09,
    2.266668990498178e-08,
    2.0489185894690638e-07,
    2.8913705208347567e-06,
    6.889758346916825e-05,
    0.0033691164782556943,
    0.8044904110141088,
];

/// Clenshaw's sum of a Chebyshev series at `x` (Cephes' `chbevl`).
fn chbevl(x: f64, c: &[f64]) -> f64 {
    let (mut b0, mut b1, mut b2) = (c[0], 0.0, 0.0);
    for &a in &c[1..] {
        b2 = b1;
        b1 = b0;
        b0 = x * b1 - b2 + a;
    }
    0.5 * (b0 - b2)
}

/// The modified Bessel function of the first kind, order 0, as NumPy's `i0` and SciPy's
/// `special.i0` compute it (Cephes' two Chebyshev expansions; about 1e-16 relative).
fn i0(x: f64) -> f64 {
    let x = x.abs();
    if x <= 8.0 {
        x.exp() * chbevl(x / 2.0 - 2.0, &I0A)
    } else {
        x.exp() * chbevl(32.0 / x - 2.0, &I0B) / x.sqrt()
    }
}

/// [`i0`] in CUDA C, from the same tables.
fn i0_cuda() -> String {
    let table = |c: &[f64]| c.iter().map(|v| format!("{v:e}")).collect::<Vec<_>>().join(", ");
    format!(
        "__device__ double xp_chbevl(double x, const double* c, int n) {{
  double b0 = c[0], b1 = 0.0, b2 = 0.0;
  for (int i = 1; i < n; ++i) {{ b2 = b1; b1 = b0; b0 = x * b1 - b2 + c[i]; }}
  return 0.5 * (b0 - b2);
}}
__device__ double xp_i0(double x) {{
  const double a[{na}] = {{{a}}};
  const double b[{nb}] = {{{b}}};
  x = fabs(x);
  if (x <= 8.0) return exp(x) * xp_chbevl(x / 2.0 - 2.0, a, {na});
  return exp(x) * xp_chbevl(32.0 / x - 2.0, b, {nb}) / sqrt(x);
}}
",
        na = I0A.len(),
        nb = I0B.len(),
        a = table(&I0A),
        b = table(&I0B)
    )
}

/// The GPU's windows from the position `n` (the element's index): cosine sums `Σ a_k cos(k (n s - c))` (kind 0), a
/// triangle `2n / s` rising to `n = c` (1), a Gaussian `exp(-(n - c)² / s)` (2), Tukey's tapers
/// over `n ≤ c` and `n ≥ a0` with `s` its `alpha` and `a2` its `M - 1` (3), Kaiser's
/// `I0(a0 sqrt(1 - r²)) / a1` with `r = (n - c) / c` (4). Each is SciPy's formula in SciPy's
/// order of operations.
const WINDOW_BODY: &str = "const double n = (double)i;
if (kind == 0) {
  const double x = n * s - c;
  w = a0 + a1 * cos(x) + a2 * cos(2.0 * x);
} else if (kind == 1) {
  const double r = 2.0 * n / s;
  w = n <= c ? r : 2.0 - r;
} else if (kind == 2) {
  const double r = n - c;
  w = exp(-(r * r) / s);
} else if (kind == 3) {
  const double t = 2.0 * n / s / a2;
  w = n <= c ? 0.5 * (1.0 + cos(3.141592653589793 * (-1.0 + t))) : n < a0 ? 1.0 : 0.5 * (1.0 + cos(3.141592653589793 * (a1 + t)));
} else {
  const double r = (n - c) / c;
  const double u = 1.0 - r * r;
  w = xp_i0(a0 * sqrt(u > 0.0 ? u : 0.0)) / a1;
}";

/// A symmetric window of `m` points as a function of the point (SciPy's formulas), and the
/// arguments of the GPU's `WINDOW_BODY` for it.
struct Shape {
    at: Box<dyn Fn(usize) -> f64 + Sync>,
    kernel: (i32, f64, f64, [f64; 3]),
}

impl Window {
    /// The window as a float64 array on `device` (the values of [`Window::values`]).
    pub fn array(&self, m: usize, sym: bool, device: Device) -> Result<Array> {
        if matches!(self, Window::Boxcar) || matches!(self, Window::Tukey { alpha } if *alpha <= 0.0) {
            self.values(0, sym)?; // the parameters' checks
            return crate::on(device).ones([m], xp_core::DType::F64);
        }
        if m <= 1 || !matches!(device, Device::Cuda(_)) {
            // the host's loop over both cores straight into the result
            return Array::from_vec(self.values(m, sym)?, [m])?.to_device(device);
        }
        self.values(0, sym)?; // the parameters' checks
        let len = if sym { m } else { m + 1 };
        // one kernel from the positions (a chain of array operations is 8 to 12 passes over
        // the window: 0.2 ms for 2^22 points where CuPy's one kernel takes 0.04)
        static K: std::sync::OnceLock<ElementwiseKernel> = std::sync::OnceLock::new();
        let k = crate::kernel::once(&K, || {
            let sig = "int8 z, int32 kind, float64 s, float64 c, float64 a0, float64 a1, float64 a2";
            ElementwiseKernel::with_preamble(sig, "float64 w", WINDOW_BODY, "xp_window", &i0_cuda())
        })?;
        let (kind, sc, c, a) = self.shape(len).kernel;
        // the position is the element's index: one pass of writes (an array of positions was a
        // pass more)
        let z = crate::kernel::shape_only(&[m], device)?;
        k.call1(&[(&z).into(), kind.into(), sc.into(), c.into(), a[0].into(), a[1].into(), a[2].into()])
    }

    fn shape(&self, m: usize) -> Shape {
        let half = (m - 1) as f64 / 2.0;
        let step = 2.0 * PI / (m - 1) as f64;
        let cosines = |a: [f64; 3]| Shape {
            at: Box::new(move |n| {
                let x = -PI + step * n as f64;
                a[0] + a[1] * x.cos() + a[2] * (2.0 * x).cos()
            }),
            kernel: (0, step, PI, a),
        };
        match *self {
            Window::Boxcar | Window::Tukey { alpha: ..=0.0 } => {
                Shape { at: Box::new(|_| 1.0), kernel: (0, 0.0, 0.0, [1.0, 0.0, 0.0]) }
            }
            Window::Hann | Window::Tukey { alpha: 1.0.. } => cosines([0.5, 0.5, 0.0]),
            Window::Hamming => cosines([0.54, 0.46, 0.0]),
            Window::Blackman => cosines([0.42, 0.50, 0.08]),
            Window::Bartlett => {
                let s = (m - 1) as f64;
                Shape {
                    at: Box::new(move |n| {
                        let r = 2.0 * n as f64 / s;
                        if n as f64 <= half {
                            r
                        } else {
                            2.0 - r
                        }
                    }),
                    kernel: (1, s, half, [0.0; 3]),
                }
            }
            Window::Gaussian { std } => {
                let s = 2.0 * std * std;
                Shape {
                    at: Box::new(move |n| {
                        let r = n as f64 - half;
                        (-(r * r) / s).exp()
                    }),
                    kernel: (2, s, half, [0.0; 3]),
                }
            }
            Window::Kaiser { beta } => {
                let i0b = i0(beta);
                Shape {
                    at: Box::new(move |n| {
                        let r = (n as f64 - half) / half;
                        i0(beta * (1.0 - r * r).max(0.0).sqrt()) / i0b
                    }),
                    kernel: (4, 0.0, half, [beta, i0b, 0.0]),
                }
            }
            Window::Tukey { alpha } => {
                let width = (alpha * (m - 1) as f64 / 2.0).floor();
                let (tail, shift, m1) = (m as f64 - width - 1.0, -2.0 / alpha + 1.0, (m - 1) as f64);
                Shape {
                    at: Box::new(move |n| {
                        let (x, t) = (n as f64, 2.0 * n as f64 / alpha / m1);
                        if x <= width {
                            0.5 * (1.0 + (PI * (-1.0 + t)).cos())
                        } else if x < tail {
                            1.0
                        } else {
                            0.5 * (1.0 + (PI * (shift + t)).cos())
                        }
                    }),
                    kernel: (3, alpha, width, [tail, shift, m1]),
                }
            }
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
        use rayon::prelude::*;
        let len = if sym { m } else { m + 1 };
        let at = self.shape(len).at;
        // into a buffer from the host pool (a fresh one's page faults are a pass of their own)
        let mut v = xp_cpu::pool::alloc::<f64>(m);
        (0..m).into_par_iter().with_min_len(1 << 14).map(&at).collect_into_vec(&mut v);
        Ok(v)
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
