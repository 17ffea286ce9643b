//! NumPy's legacy module functions (`np.random.seed`, `rand`, `randn`, …) on one global
//! [`Generator`] per device, as CuPy keeps one per GPU. The global generators start from the
//! seed in `XP_SEED` if set, else from the clock; [`seed`] reseeds every device's.
//!
//! ```
//! xp::random::seed(3);
//! let a = xp::random::rand(&[2, 2]).unwrap();
//! xp::random::seed(3);
//! assert_eq!(xp::random::rand(&[2, 2]).unwrap().to_vec::<f64>().unwrap(), a.to_vec::<f64>().unwrap());
//! // The same functions for another device's generator: xp::on(device).random().
//! let n = xp::on(xp::Device::Cpu).random().randn(&[3]).unwrap();
//! assert_eq!(n.shape(), &[3]);
//! ```
use super::{Generator, IntoSize};
use crate::ufunc::Operand;
use crate::{Array, ArrayModule, IntoShape};
use std::sync::Mutex;
use xp_core::{DType, Device, Result};

/// The generators by device, and the seed new ones start from.
static GLOBAL: Mutex<(Vec<Generator>, Option<u64>)> = Mutex::new((Vec::new(), None));

fn initial_seed() -> u64 {
    if let Some(s) = std::env::var("XP_SEED").ok().and_then(|s| s.parse().ok()) {
        return s;
    }
    let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
    t ^ (u64::from(std::process::id()) << 32)
}

/// Run `f` on `device`'s global generator.
fn with_global<T>(device: Device, f: impl FnOnce(&mut Generator) -> T) -> T {
    let mut g = GLOBAL.lock().unwrap_or_else(|e| e.into_inner());
    let (gens, seed) = &mut *g;
    let i = match gens.iter().position(|g| g.device == device) {
        Some(i) => i,
        None => {
            let s = *seed.get_or_insert_with(initial_seed);
            gens.push(Generator::new(device, s));
            gens.len() - 1
        }
    };
    f(&mut gens[i])
}

/// Reseed the global generator of every device (`numpy.random.seed`).
pub fn seed(seed: u64) {
    let mut g = GLOBAL.lock().unwrap_or_else(|e| e.into_inner());
    g.0.clear();
    g.1 = Some(seed);
}

/// The legacy functions on one device's global generator (`xp::on(device).random()`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RandomModule {
    device: Device,
}

impl ArrayModule {
    /// NumPy's legacy random functions on this device's global generator.
    pub fn random(&self) -> RandomModule {
        RandomModule { device: self.device() }
    }
}

impl RandomModule {
    /// Uniform float64 in [0, 1) of `shape` (`np.random.rand(*shape)`).
    pub fn rand(&self, shape: impl IntoShape) -> Result<Array> {
        with_global(self.device, |g| g.random(shape, DType::F64))
    }
    /// Standard normal float64 of `shape` (`np.random.randn(*shape)`).
    pub fn randn(&self, shape: impl IntoShape) -> Result<Array> {
        with_global(self.device, |g| g.standard_normal(shape, DType::F64))
    }
    /// Integers in `low .. high` as int64 (`np.random.randint(low, high, size)`).
    pub fn randint(&self, low: i64, high: i64, shape: impl IntoShape) -> Result<Array> {
        with_global(self.device, |g| g.integers(low, high, shape, DType::I64))
    }
    /// Uniform float64 in [0, 1) (`np.random.random_sample(size)`).
    pub fn random_sample(&self, shape: impl IntoShape) -> Result<Array> {
        self.rand(shape)
    }
    /// Normal float64 (`np.random.normal(loc, scale, size)`).
    pub fn normal<'a, 'b>(
        &self,
        loc: impl Into<Operand<'a>>,
        scale: impl Into<Operand<'b>>,
        size: impl IntoSize,
    ) -> Result<Array> {
        with_global(self.device, |g| g.normal(loc, scale, size))
    }
    /// Uniform float64 in `[low, high)` (`np.random.uniform(low, high, size)`).
    pub fn uniform<'a, 'b>(
        &self,
        low: impl Into<Operand<'a>>,
        high: impl Into<Operand<'b>>,
        size: impl IntoSize,
    ) -> Result<Array> {
        with_global(self.device, |g| g.uniform(low, high, size))
    }
}

const CPU: RandomModule = RandomModule { device: Device::Cpu };

/// [`RandomModule::rand`] on the CPU.
pub fn rand(shape: impl IntoShape) -> Result<Array> {
    CPU.rand(shape)
}
/// [`RandomModule::randn`] on the CPU.
pub fn randn(shape: impl IntoShape) -> Result<Array> {
    CPU.randn(shape)
}
/// [`RandomModule::randint`] on the CPU.
pub fn randint(low: i64, high: i64, shape: impl IntoShape) -> Result<Array> {
    CPU.randint(low, high, shape)
}
/// [`RandomModule::random_sample`] on the CPU.
pub fn random_sample(shape: impl IntoShape) -> Result<Array> {
    CPU.random_sample(shape)
}
/// [`RandomModule::normal`] on the CPU.
pub fn normal<'a, 'b>(
    loc: impl Into<Operand<'a>>,
    scale: impl Into<Operand<'b>>,
    size: impl IntoSize,
) -> Result<Array> {
    CPU.normal(loc, scale, size)
}
/// [`RandomModule::uniform`] on the CPU.
pub fn uniform<'a, 'b>(
    low: impl Into<Operand<'a>>,
    high: impl Into<Operand<'b>>,
    size: impl IntoSize,
) -> Result<Array> {
    CPU.uniform(low, high, size)
}
