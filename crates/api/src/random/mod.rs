//! Random numbers with the same stream on every device: NumPy's `Generator` on Philox4x32-10,
//! keyed by the seed and counted by each value's position, so that a draw is one parallel pass
//! and the same seed gives the same values on the CPU and on every GPU (uniform and integer
//! draws bit for bit; normal draws up to the last bits of the math libraries' `ln`/`sin`/`cos`).
//! Which words each value takes is specified in [`xp_core::random`].
//!
//! ```
//! use xp::{random::default_rng, DType};
//! let mut rng = default_rng(42);
//! let x = rng.standard_normal(&[1000], DType::F64).unwrap();
//! let m = x.mean(..).unwrap().item::<f64>().unwrap();
//! assert!(m.abs() < 0.15);
//! let dice = rng.integers(1, 7, &[10], DType::I64).unwrap().to_vec::<i64>().unwrap();
//! assert!(dice.iter().all(|d| (1..7).contains(d)));
//! // The same seed on another device draws the same values (here the CPU again).
//! let a = xp::on(xp::Device::Cpu).default_rng(7).random(&[4], DType::F32).unwrap();
//! let b = default_rng(7).random(&[4], DType::F32).unwrap();
//! assert_eq!(a.to_vec::<f32>().unwrap(), b.to_vec::<f32>().unwrap());
//! ```
use crate::{backend, Array, ArrayModule};
use spec::Stream;
/// The stream's specification: Philox4x32-10, which words each value takes, and the host
/// functions that turn them into values (to check a device's draws, or to draw on the host).
pub use xp_core::random as spec;
use xp_core::{numel, DType, Device, Distribution, Error, Result};

/// A random generator on one device (NumPy's `numpy.random.Generator`): each method call is one
/// draw of the stream, numbered in order, so two generators with the same seed on any devices
/// produce the same sequence of arrays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generator {
    device: Device,
    seed: u64,
    draws: u64,
}

/// A generator seeded with `seed` on the CPU (`xp::on(device).default_rng(seed)` for another
/// device; CuPy's `cupy.random.default_rng`).
pub fn default_rng(seed: u64) -> Generator {
    Generator { device: Device::Cpu, seed, draws: 0 }
}

impl ArrayModule {
    /// A random generator seeded with `seed` whose arrays live on this namespace's device.
    pub fn default_rng(&self, seed: u64) -> Generator {
        Generator { device: self.device(), seed, draws: 0 }
    }
}

impl Generator {
    /// The device the generator's arrays live on.
    pub fn device(&self) -> Device {
        self.device
    }
    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }
    /// The same stream on another device (the next draw is the same as this generator's).
    pub fn to_device(&self, device: Device) -> Generator {
        Generator { device, ..self.clone() }
    }

    fn draw(&mut self, shape: &[usize], dtype: DType, dist: Distribution) -> Result<Array> {
        let s = Stream::new(self.seed, self.draws);
        let st = backend::random(self.device, numel(shape), dtype, dist, s)?;
        self.draws += 1;
        Ok(Array::from_storage(st, shape))
    }

    fn float(op: &'static str, dtype: DType) -> Result<()> {
        match dtype {
            DType::F32 | DType::F64 => Ok(()),
            _ => Err(Error::InvalidDType { op, dtype }),
        }
    }

    /// Floats uniform in [0, 1) (`Generator.random`; float32 or float64): the top 24 or 53 bits
    /// of the stream's words, so every value is a multiple of 2^-24 or 2^-53.
    pub fn random(&mut self, shape: &[usize], dtype: DType) -> Result<Array> {
        Self::float("random", dtype)?;
        self.draw(shape, dtype, Distribution::Uniform)
    }

    /// Standard normal floats (`Generator.standard_normal`; float32 or float64), by Box–Muller.
    pub fn standard_normal(&mut self, shape: &[usize], dtype: DType) -> Result<Array> {
        Self::float("standard_normal", dtype)?;
        self.draw(shape, dtype, Distribution::StandardNormal)
    }

    /// Integers uniform in `low .. high` (`Generator.integers`, `endpoint=False`), without bias
    /// for any range; `dtype` is an integer dtype that holds both ends.
    pub fn integers(&mut self, low: i64, high: i64, shape: &[usize], dtype: DType) -> Result<Array> {
        if low >= high {
            return Err(Error::InvalidArgument { op: "integers", msg: format!("low ({low}) >= high ({high})") });
        }
        self.integers_closed(low, high - 1, shape, dtype)
    }

    /// Integers uniform in `low ..= high` (`Generator.integers` with `endpoint=True`).
    pub fn integers_closed(&mut self, low: i64, high: i64, shape: &[usize], dtype: DType) -> Result<Array> {
        if low > high {
            return Err(Error::InvalidArgument { op: "integers", msg: format!("low ({low}) > high ({high})") });
        }
        if !dtype.is_integer() {
            return Err(Error::InvalidDType { op: "integers", dtype });
        }
        for v in [low, high] {
            if !xp_core::scalar_fits(&xp_core::Scalar::Int(v), dtype) {
                return Err(Error::InvalidArgument {
                    op: "integers",
                    msg: format!("{v} does not fit in {}", dtype.name()),
                });
            }
        }
        let span = high.wrapping_sub(low) as u64;
        self.draw(shape, dtype, Distribution::Integers { low, span })
    }
}
