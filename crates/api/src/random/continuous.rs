//! Continuous distributions: NumPy's formulas over the stream's uniform, normal, exponential and
//! gamma draws, with scalar or array parameters broadcast together (float64 results, but for the
//! `standard_*` draws that take a dtype).
use super::{Generator, IntoSize, Param, Rule};
use crate::shape::{shape_of, IntoShape};
use crate::ufunc::{where_, Operand};
use crate::Array;
use xp_core::{DType, Distribution, Result};

/// `loc + scale z` with scalar `loc` and `scale`, as NumPy computes it (`z * scale + loc`), without
/// the multiply by 1 or the add of 0 that would change no value.
fn affine(z: Array, scale: f64, loc: f64) -> Result<Array> {
    let z = if scale == 1.0 { z } else { z.mul(scale)? };
    if loc == 0.0 {
        Ok(z)
    } else {
        z.add(loc)
    }
}

impl Generator {
    /// Uniforms in (0, 1): [`Generator::random`]'s float64 values with 0 replaced by 2^-53 (for
    /// the formulas that take a logarithm of `u` and of `1 - u`).
    fn open_unit(&mut self, shape: &[usize]) -> Result<Array> {
        self.random(shape, DType::F64)?.maximum(f64::EPSILON / 2.0)
    }

    /// Floats uniform in `[low, high)` (`Generator.uniform`): `low + (high - low) u`.
    pub fn uniform<'a, 'b>(
        &mut self,
        low: impl Into<Operand<'a>>,
        high: impl Into<Operand<'b>>,
        size: impl IntoSize,
    ) -> Result<Array> {
        let (ps, size) = ([Param::new("low", low, Rule::Any), Param::new("high", high, Rule::Any)], size.into_size());
        if let Some((shape, v)) = self.scalar_params("uniform", &ps, &size)? {
            return affine(self.random(&shape, DType::F64)?, v[1] - v[0], v[0]);
        }
        let (shape, p) = self.params("uniform", &ps, size)?;
        let u = self.random(&shape, DType::F64)?;
        u.mul(&p[1].sub(&p[0])?)?.add(&p[0])
    }

    /// Normal floats (`Generator.normal`): `loc + scale z`, `scale >= 0`.
    pub fn normal<'a, 'b>(
        &mut self,
        loc: impl Into<Operand<'a>>,
        scale: impl Into<Operand<'b>>,
        size: impl IntoSize,
    ) -> Result<Array> {
        let ps = [Param::new("loc", loc, Rule::Any), Param::new("scale", scale, Rule::NonNegative)];
        let size = size.into_size();
        if let Some((shape, v)) = self.scalar_params("normal", &ps, &size)? {
            return affine(self.standard_normal(&shape, DType::F64)?, v[1], v[0]);
        }
        let (shape, p) = self.params("normal", &ps, size)?;
        self.standard_normal(&shape, DType::F64)?.mul(&p[1])?.add(&p[0])
    }

    /// Log-normal floats (`Generator.lognormal`): `exp(mean + sigma z)`, `sigma >= 0`.
    pub fn lognormal<'a, 'b>(
        &mut self,
        mean: impl Into<Operand<'a>>,
        sigma: impl Into<Operand<'b>>,
        size: impl IntoSize,
    ) -> Result<Array> {
        let ps = [Param::new("mean", mean, Rule::Any), Param::new("sigma", sigma, Rule::NonNegative)];
        let size = size.into_size();
        if let Some((shape, v)) = self.scalar_params("lognormal", &ps, &size)? {
            return affine(self.standard_normal(&shape, DType::F64)?, v[1], v[0])?.exp();
        }
        let (shape, p) = self.params("lognormal", &ps, size)?;
        self.standard_normal(&shape, DType::F64)?.mul(&p[1])?.add(&p[0])?.exp()
    }

    /// Standard exponential floats (`Generator.standard_exponential`; float32 or float64) by
    /// inversion, `-ln(1 - u)`.
    /// `None` gives float64.
    pub fn standard_exponential(&mut self, shape: impl IntoShape, dtype: impl Into<Option<DType>>) -> Result<Array> {
        let (shape, dtype) = (shape_of("standard_exponential", shape)?, dtype.into().unwrap_or(DType::F64));
        Self::float("standard_exponential", dtype)?;
        self.draw(&shape, dtype, Distribution::StandardExponential, &[])
    }

    /// [`Generator::standard_exponential`] into `out` (float32 or float64).
    pub fn standard_exponential_out(&mut self, out: &Array) -> Result<()> {
        let r = self.standard_exponential(out.shape(), out.dtype())?;
        crate::ufunc::write_out("standard_exponential", &r, out)
    }

    /// Exponential floats of mean `scale >= 0` (`Generator.exponential`).
    pub fn exponential<'a>(&mut self, scale: impl Into<Operand<'a>>, size: impl IntoSize) -> Result<Array> {
        let (ps, size) = ([Param::new("scale", scale, Rule::NonNegative)], size.into_size());
        if let Some((shape, v)) = self.scalar_params("exponential", &ps, &size)? {
            return affine(self.standard_exponential(&shape, DType::F64)?, v[0], 0.0);
        }
        let (shape, p) = self.params("exponential", &ps, size)?;
        self.standard_exponential(&shape, DType::F64)?.mul(&p[0])
    }

    /// Standard gamma floats of shape `k >= 0` (`Generator.standard_gamma`; float32 or float64,
    /// computed in float64): Marsaglia and Tsang's method, each value from its own subsequence.
    pub fn standard_gamma<'a>(
        &mut self,
        shape: impl Into<Operand<'a>>,
        size: impl IntoSize,
        dtype: DType,
    ) -> Result<Array> {
        Self::float("standard_gamma", dtype)?;
        let (out, p) =
            self.params("standard_gamma", &[Param::new("shape", shape, Rule::NonNegative)], size.into_size())?;
        let k = Self::flat(&p[0], &out)?;
        self.draw(&out, dtype, Distribution::StandardGamma, &[&k])
    }

    /// [`Generator::standard_gamma`] of shape `k` into `out` (float32 or float64).
    pub fn standard_gamma_out<'a>(&mut self, shape: impl Into<Operand<'a>>, out: &Array) -> Result<()> {
        let r = self.standard_gamma(shape, out.shape(), out.dtype())?;
        crate::ufunc::write_out("standard_gamma", &r, out)
    }

    /// Gamma floats of shape `k >= 0` and scale `theta >= 0` (`Generator.gamma`).
    pub fn gamma<'a, 'b>(
        &mut self,
        shape: impl Into<Operand<'a>>,
        scale: impl Into<Operand<'b>>,
        size: impl IntoSize,
    ) -> Result<Array> {
        let ps = [Param::new("shape", shape, Rule::NonNegative), Param::new("scale", scale, Rule::NonNegative)];
        let (out, p) = self.params("gamma", &ps, size.into_size())?;
        self.standard_gamma(&p[0], &out, DType::F64)?.mul(&p[1])
    }

    /// Beta floats (`Generator.beta`, `a > 0`, `b > 0`): `x / (x + y)` of two gamma draws.
    pub fn beta<'a, 'b>(
        &mut self,
        a: impl Into<Operand<'a>>,
        b: impl Into<Operand<'b>>,
        size: impl IntoSize,
    ) -> Result<Array> {
        let ps = [Param::new("a", a, Rule::Positive), Param::new("b", b, Rule::Positive)];
        let (out, p) = self.params("beta", &ps, size.into_size())?;
        let x = self.standard_gamma(&p[0], &out, DType::F64)?;
        let y = self.standard_gamma(&p[1], &out, DType::F64)?;
        x.div(&x.add(&y)?)
    }

    /// Chi-square floats with `df > 0` degrees of freedom (`Generator.chisquare`): twice a
    /// gamma of shape `df / 2`.
    pub fn chisquare<'a>(&mut self, df: impl Into<Operand<'a>>, size: impl IntoSize) -> Result<Array> {
        let (out, p) = self.params("chisquare", &[Param::new("df", df, Rule::Positive)], size.into_size())?;
        self.standard_gamma(&p[0].mul(0.5)?, &out, DType::F64)?.mul(2.0)
    }

    /// Laplace (double exponential) floats (`Generator.laplace`, `scale >= 0`), by inversion as
    /// in NumPy.
    pub fn laplace<'a, 'b>(
        &mut self,
        loc: impl Into<Operand<'a>>,
        scale: impl Into<Operand<'b>>,
        size: impl IntoSize,
    ) -> Result<Array> {
        let ps = [Param::new("loc", loc, Rule::Any), Param::new("scale", scale, Rule::NonNegative)];
        let (shape, p) = self.params("laplace", &ps, size.into_size())?;
        let u = self.open_unit(&shape)?;
        let upper = u.mul(-2.0)?.add(2.0)?.log()?.neg()?;
        let lower = u.mul(2.0)?.log()?;
        where_(&u.ge(0.5)?, &upper, &lower)?.mul(&p[1])?.add(&p[0])
    }

    /// Logistic floats (`Generator.logistic`, `scale >= 0`): `loc + scale ln(u / (1 - u))`.
    pub fn logistic<'a, 'b>(
        &mut self,
        loc: impl Into<Operand<'a>>,
        scale: impl Into<Operand<'b>>,
        size: impl IntoSize,
    ) -> Result<Array> {
        let ps = [Param::new("loc", loc, Rule::Any), Param::new("scale", scale, Rule::NonNegative)];
        let (shape, p) = self.params("logistic", &ps, size.into_size())?;
        let u = self.open_unit(&shape)?;
        u.div(&u.neg()?.add(1.0)?)?.log()?.mul(&p[1])?.add(&p[0])
    }

    /// Gumbel floats (`Generator.gumbel`, `scale >= 0`): `loc - scale ln(-ln u)`.
    pub fn gumbel<'a, 'b>(
        &mut self,
        loc: impl Into<Operand<'a>>,
        scale: impl Into<Operand<'b>>,
        size: impl IntoSize,
    ) -> Result<Array> {
        let ps = [Param::new("loc", loc, Rule::Any), Param::new("scale", scale, Rule::NonNegative)];
        let (shape, p) = self.params("gumbel", &ps, size.into_size())?;
        let u = self.open_unit(&shape)?;
        u.log()?.neg()?.log()?.mul(&p[1])?.neg()?.add(&p[0])
    }

    /// Weibull floats of shape `a >= 0` (`Generator.weibull`): `e^(1/a)` of a standard
    /// exponential `e` (0 where `a` is 0, as NumPy).
    pub fn weibull<'a>(&mut self, a: impl Into<Operand<'a>>, size: impl IntoSize) -> Result<Array> {
        let (shape, p) = self.params("weibull", &[Param::new("a", a, Rule::NonNegative)], size.into_size())?;
        let e = self.standard_exponential(&shape, DType::F64)?;
        let w = e.pow(&p[0].reciprocal()?)?;
        where_(&p[0].equal(0.0)?, 0.0, &w)
    }

    /// Pareto II (Lomax) floats of shape `a > 0` (`Generator.pareto`): `exp(e / a) - 1`.
    pub fn pareto<'a>(&mut self, a: impl Into<Operand<'a>>, size: impl IntoSize) -> Result<Array> {
        let (shape, p) = self.params("pareto", &[Param::new("a", a, Rule::Positive)], size.into_size())?;
        self.standard_exponential(&shape, DType::F64)?.div(&p[0])?.expm1()
    }

    /// Rayleigh floats (`Generator.rayleigh`, `scale >= 0`): `scale sqrt(2e)`.
    pub fn rayleigh<'a>(&mut self, scale: impl Into<Operand<'a>>, size: impl IntoSize) -> Result<Array> {
        let (shape, p) = self.params("rayleigh", &[Param::new("scale", scale, Rule::NonNegative)], size.into_size())?;
        self.standard_exponential(&shape, DType::F64)?.mul(2.0)?.sqrt()?.mul(&p[0])
    }
}
