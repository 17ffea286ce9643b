//! Random numbers with the same stream on every device: NumPy's `Generator` on Philox4x32-10,
//! keyed by the seed and counted by each value's position, so that a draw is one parallel pass
//! and the same seed gives the same values on the CPU and on every GPU (uniform, integer,
//! `choice` and `permutation` draws bit for bit; draws through `ln`/`exp`/`sin`/`cos` up to the
//! last bits of the devices' math libraries). Which words each value takes is specified in
//! [`xp_core::random`].
//!
//! Parameters are scalars or arrays ([`Operand`]) broadcast together as in NumPy; `size` is a
//! shape, or `None` for the parameters' broadcast shape ([`IntoSize`]).
//!
//! ```
//! use xp::{random::default_rng, DType};
//! let mut rng = default_rng(42);
//! let x = rng.standard_normal(&[1000], DType::F64).unwrap();
//! let m = x.mean(..).unwrap().item::<f64>().unwrap();
//! assert!(m.abs() < 0.15);
//! let dice = rng.integers(1, 7, &[10], DType::I64).unwrap().to_vec::<i64>().unwrap();
//! assert!(dice.iter().all(|d| (1..7).contains(d)));
//! let y = rng.normal(10.0, 2.0, [3, 4]).unwrap();
//! assert_eq!(y.shape(), &[3, 4]);
//! // The same seed on another device draws the same values (here the CPU again).
//! let a = xp::on(xp::Device::Cpu).default_rng(7).random(&[4], DType::F32).unwrap();
//! let b = default_rng(7).random(&[4], DType::F32).unwrap();
//! assert_eq!(a.to_vec::<f32>().unwrap(), b.to_vec::<f32>().unwrap());
//! ```
mod continuous;
mod discrete;
mod legacy;
mod multivariate;
mod sampling;

pub use legacy::{normal, rand, randint, randn, random_sample, seed, uniform, RandomModule};
pub use sampling::Choice;

use crate::shape::shape_of;
use crate::ufunc::{materialize, write_out, Operand};
use crate::{backend, Array, ArrayModule, Dims, IntoShape};
use spec::Stream;
/// The stream's specification: Philox4x32-10, which words each value takes, and the host
/// functions that turn them into values (to check a device's draws, or to draw on the host).
pub use xp_core::random as spec;
use xp_core::{broadcast_shapes, numel, DType, Device, Distribution, Error, Result, Scalar};

/// A random generator on one device (NumPy's `numpy.random.Generator`): each method call is one
/// draw of the stream (or a fixed number of draws), numbered in order, so two generators with the
/// same seed on any devices produce the same sequence of arrays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generator {
    device: Device,
    seed: u64,
    draws: u64,
    spawned: u64,
    /// inside [`Generator::piece`]: the position in each draw of the values asked for
    from: Option<usize>,
}

/// A generator seeded with `seed` on the CPU (`xp::on(device).default_rng(seed)` for another
/// device; CuPy's `cupy.random.default_rng`).
pub fn default_rng(seed: u64) -> Generator {
    Generator::new(Device::Cpu, seed)
}

impl ArrayModule {
    /// A random generator seeded with `seed` whose arrays live on this namespace's device.
    pub fn default_rng(&self, seed: u64) -> Generator {
        Generator::new(self.device(), seed)
    }
}

/// NumPy's `size` argument: an output shape (anything [`IntoShape`] takes), or `None` for the
/// broadcast shape of the distribution's parameters.
pub trait IntoSize {
    /// The shape, or `None`.
    fn into_size(self) -> Option<Dims>;
}
impl<S: IntoShape> IntoSize for S {
    fn into_size(self) -> Option<Dims> {
        Some(self.into_dims())
    }
}
impl IntoSize for Option<&[usize]> {
    fn into_size(self) -> Option<Dims> {
        self.map(IntoShape::into_dims)
    }
}

/// The domain a parameter must lie in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rule {
    /// any value
    Any,
    /// `>= 0`
    NonNegative,
    /// `> 0`
    Positive,
    /// in [0, 1]
    Probability,
}

impl Rule {
    fn requirement(self) -> &'static str {
        match self {
            Rule::Any => "may be anything",
            Rule::NonNegative => "must be >= 0",
            Rule::Positive => "must be > 0",
            Rule::Probability => "must lie in [0, 1]",
        }
    }
    fn holds(self, v: f64) -> bool {
        match self {
            Rule::Any => true,
            Rule::NonNegative => v >= 0.0,
            Rule::Positive => v > 0.0,
            Rule::Probability => (0.0..=1.0).contains(&v),
        }
    }
    /// Where the rule fails (NaN fails every rule but `Any`).
    fn fails(self, a: &Array) -> Result<Array> {
        let nan = a.isnan()?;
        match self {
            Rule::Any => nan.logical_and(false),
            Rule::NonNegative => a.lt(0.0)?.logical_or(&nan),
            Rule::Positive => a.le(0.0)?.logical_or(&nan),
            Rule::Probability => a.lt(0.0)?.logical_or(&a.gt(1.0)?)?.logical_or(&nan),
        }
    }
}

/// One parameter of a distribution: its NumPy name, value and domain.
pub(crate) struct Param<'a> {
    pub(crate) name: &'static str,
    pub(crate) value: Operand<'a>,
    pub(crate) rule: Rule,
}

impl<'a> Param<'a> {
    pub(crate) fn new(name: &'static str, value: impl Into<Operand<'a>>, rule: Rule) -> Param<'a> {
        Param { name, value: value.into(), rule }
    }
}

impl Generator {
    fn new(device: Device, seed: u64) -> Generator {
        Generator { device, seed, draws: 0, spawned: 0, from: None }
    }
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

    /// `n` independent child generators (NumPy's `Generator.spawn`): child `j` of spawn call `c`
    /// is keyed by the Philox block `(j, c)` of a key derived from this seed, so children never
    /// share a stream with each other, with later spawns, or (but for a 2^-64 chance of equal
    /// keys) with this generator.
    pub fn spawn(&mut self, n: usize) -> Vec<Generator> {
        let c = self.spawned;
        self.spawned += 1;
        (0..n as u64)
            .map(|j| {
                Generator::new(self.device, derive(self.seed, [j as u32, (j >> 32) as u32, c as u32, 0x5eed_0000]))
            })
            .collect()
    }

    /// A generator whose stream is this one's advanced by `jumps` jumps (NumPy's
    /// `Generator.jumped` / `bit_generator.jumped`): a different key derived from the seed and
    /// `jumps`, so streams of different jumps do not overlap.
    pub fn jumped(&self, jumps: u64) -> Generator {
        let key = derive(self.seed, [jumps as u32, (jumps >> 32) as u32, 0, 0x0ace_0000]);
        Generator { draws: self.draws, ..Generator::new(self.device, key) }
    }

    pub(crate) fn stream(&mut self) -> Stream {
        let s = Stream::new(self.seed, self.draws);
        self.draws += 1;
        s
    }

    /// One draw of `dist` in `shape` as `dtype`; `params` are float64 arrays on the device, of
    /// one value or broadcast to `shape` and contiguous ([`Generator::flat`]).
    pub(crate) fn draw(
        &mut self,
        shape: &[usize],
        dtype: DType,
        dist: Distribution,
        params: &[&Array],
    ) -> Result<Array> {
        let s = self.stream();
        let n = numel(shape);
        let Some(start) = self.from else {
            return Ok(Array::from_storage(backend::random(self.device, n, dtype, dist, params, s)?, shape));
        };
        if params.iter().any(|p| p.size() > 1) {
            return Err(Error::invalid("random", "a piece of a draw takes scalar parameters only"));
        }
        // from the block holding `start`: the values before it are dropped
        let head = start % 4;
        let st = backend::random(self.device, n + head, dtype, dist, params, s.from(start as u64))?;
        let flat = Array::from_storage(st, &[n + head]);
        let piece = if head == 0 { flat } else { crate::fft::slice_axis(&flat, 0, head, n + head)?.copy()? };
        piece.reshape_exact(shape)
    }

    /// `f`'s draws as the values at positions `start..` of each whole draw (the next draw of
    /// shape `s` gives the values `start .. start + s.size()` of the flat draw of a larger
    /// array): how the shards of a distributed array draw their own parts of one global array.
    /// `f` calls element-wise distributions with scalar parameters (`random`, `standard_normal`,
    /// `integers`, `normal(loc, scale)`, …); a parameter array is an error.
    pub fn piece<R>(&mut self, start: usize, f: impl FnOnce(&mut Generator) -> Result<R>) -> Result<R> {
        let before = self.from.replace(start);
        let r = f(self);
        self.from = before;
        r
    }

    /// A parameter as the backend takes it: one value, or `shape`'s values in order.
    pub(crate) fn flat(a: &Array, shape: &[usize]) -> Result<Array> {
        if a.size() == 1 {
            return a.reshape_exact(&[1]);
        }
        a.broadcast_to(shape)?.ascontiguousarray()
    }

    /// The parameters' values when every one is a scalar (checked by its rule, the shape that of
    /// `size`, or 0-d): formulas then run as scalar operations, with no 0-d device arrays to fill
    /// and no launch for a multiply by 1 or an add of 0 (`normal(0, 1, n)` on a GPU was five
    /// launches where CuPy's `standard_normal` is one). `None` when any is an array.
    pub(crate) fn scalar_params(
        &self,
        op: &'static str,
        ps: &[Param],
        size: &Option<Dims>,
    ) -> Result<Option<(Vec<usize>, Vec<f64>)>> {
        let mut vals = Vec::with_capacity(ps.len());
        for p in ps {
            let Operand::Scalar(s) = &p.value else { return Ok(None) };
            let v = s.to_f64();
            if !p.rule.holds(v) {
                return Err(invalid(op, p));
            }
            vals.push(v);
        }
        let shape = size.as_ref().map(|d| d.shape(op)).transpose()?.unwrap_or_default();
        Ok(Some((shape, vals)))
    }

    /// The parameters as float64 arrays on the generator's device, each checked against its
    /// rule, and the output shape (`size`, which the parameters must broadcast to, or their
    /// broadcast shape).
    pub(crate) fn params(
        &self,
        op: &'static str,
        ps: &[Param],
        size: Option<Dims>,
    ) -> Result<(Vec<usize>, Vec<Array>)> {
        let size = size.map(|d| d.shape(op)).transpose()?;
        let mut shape: Vec<usize> = Vec::new();
        let mut arrays = Vec::with_capacity(ps.len());
        for p in ps {
            let a = match p.value {
                Operand::Array(a) if a.device() != self.device => {
                    return Err(Error::DeviceMismatch { op, lhs: self.device, rhs: a.device() })
                }
                Operand::Array(a) if a.dtype().is_complex() => {
                    return Err(Error::InvalidDType { op, dtype: a.dtype() })
                }
                Operand::Scalar(s) => {
                    let v = s.to_f64();
                    if !p.rule.holds(v) {
                        return Err(invalid(op, p));
                    }
                    Array::scalar_on(v, DType::F64, self.device)?
                }
                o => {
                    let a = materialize(&o, DType::F64, self.device)?;
                    if p.rule != Rule::Any && p.rule.fails(&a)?.any(..)?.item::<bool>()? {
                        return Err(invalid(op, p));
                    }
                    a
                }
            };
            shape = broadcast_shapes(op, &shape, a.shape())?;
            arrays.push(a);
        }
        let shape = match size {
            Some(size) => {
                if broadcast_shapes(op, &size, &shape)? != size {
                    return Err(Error::ShapeMismatch { op, lhs: shape, rhs: size });
                }
                size
            }
            None => shape,
        };
        Ok((shape, arrays))
    }

    fn float(op: &'static str, dtype: DType) -> Result<()> {
        match dtype {
            DType::F32 | DType::F64 => Ok(()),
            _ => Err(Error::InvalidDType { op, dtype }),
        }
    }

    /// Floats uniform in [0, 1) (`Generator.random`; float32 or float64): the top 24 or 53 bits
    /// of the stream's words, so every value is a multiple of 2^-24 or 2^-53.
    /// `None` gives float64.
    pub fn random(&mut self, shape: impl IntoShape, dtype: impl Into<Option<DType>>) -> Result<Array> {
        let (shape, dtype) = (shape_of("random", shape)?, dtype.into().unwrap_or(DType::F64));
        Self::float("random", dtype)?;
        self.draw(&shape, dtype, Distribution::Uniform, &[])
    }

    /// [`Generator::random`] into `out` (NumPy's `out=`): its shape and dtype (float32 or
    /// float64) say what to draw.
    pub fn random_out(&mut self, out: &Array) -> Result<()> {
        let r = self.random(out.shape(), out.dtype())?;
        write_out("random", &r, out)
    }

    /// Standard normal floats (`Generator.standard_normal`; float32 or float64), by Box–Muller.
    /// `None` gives float64.
    pub fn standard_normal(&mut self, shape: impl IntoShape, dtype: impl Into<Option<DType>>) -> Result<Array> {
        let (shape, dtype) = (shape_of("standard_normal", shape)?, dtype.into().unwrap_or(DType::F64));
        Self::float("standard_normal", dtype)?;
        self.draw(&shape, dtype, Distribution::StandardNormal, &[])
    }

    /// [`Generator::standard_normal`] into `out` (float32 or float64).
    pub fn standard_normal_out(&mut self, out: &Array) -> Result<()> {
        let r = self.standard_normal(out.shape(), out.dtype())?;
        write_out("standard_normal", &r, out)
    }

    /// Integers uniform in `low .. high` (`Generator.integers`, `endpoint=False`), without bias
    /// for any range; `dtype` is an integer dtype that holds both ends (`None`: int64).
    pub fn integers(
        &mut self,
        low: i64,
        high: i64,
        shape: impl IntoShape,
        dtype: impl Into<Option<DType>>,
    ) -> Result<Array> {
        if low >= high {
            return Err(Error::InvalidParameter {
                op: "integers",
                param: "high",
                requirement: format!("must be > low ({high} <= {low})"),
            });
        }
        self.integers_closed(low, high - 1, shape, dtype)
    }

    /// Integers uniform in `low ..= high` (`Generator.integers` with `endpoint=True`).
    pub fn integers_closed(
        &mut self,
        low: i64,
        high: i64,
        shape: impl IntoShape,
        dtype: impl Into<Option<DType>>,
    ) -> Result<Array> {
        let (shape, dtype) = (&shape_of("integers", shape)?[..], dtype.into().unwrap_or(DType::I64));
        if low > high {
            return Err(Error::InvalidParameter {
                op: "integers",
                param: "high",
                requirement: format!("must be >= low ({high} < {low})"),
            });
        }
        if !dtype.is_integer() {
            return Err(Error::InvalidDType { op: "integers", dtype });
        }
        for v in [low, high] {
            if !xp_core::scalar_fits(&Scalar::Int(v), dtype) {
                return Err(Error::InvalidArgument {
                    op: "integers",
                    msg: format!("{v} does not fit in {}", dtype.name()),
                });
            }
        }
        let span = high.wrapping_sub(low) as u64;
        self.draw(shape, dtype, Distribution::Integers { low, span }, &[])
    }
}

fn invalid(op: &'static str, p: &Param) -> Error {
    Error::InvalidParameter { op, param: p.name, requirement: p.rule.requirement().into() }
}

/// A 64-bit key from block `ctr` under `seed`'s key.
fn derive(seed: u64, ctr: [u32; 4]) -> u64 {
    let w = spec::philox(ctr, Stream::new(seed, 0).key);
    ((w[1] as u64) << 32) | w[0] as u64
}
