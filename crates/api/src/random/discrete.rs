//! Discrete distributions (int64 results): Poisson and binomial draw each value from its own
//! counter subsequence ([`xp_core::random::sample`]); geometric and multinomial build on draws.
use super::{Generator, IntoSize, Param, Rule};
use crate::ufunc::Operand;
use crate::{stack, Array};
use xp_core::{DType, Distribution, Error, Result};

impl Generator {
    /// Poisson counts of mean `lam` (`Generator.poisson`; `0 <= lam < 2^63 - 2^61`, as NumPy).
    pub fn poisson<'a>(&mut self, lam: impl Into<Operand<'a>>, size: impl IntoSize) -> Result<Array> {
        let (shape, p) = self.params("poisson", &[Param::new("lam", lam, Rule::NonNegative)], size.into_size())?;
        if p[0].ge(9.2e18)?.any(..)?.item::<bool>()? {
            return Err(Error::InvalidParameter {
                op: "poisson",
                param: "lam",
                requirement: "must be < 9.2e18".into(),
            });
        }
        let lam = Self::flat(&p[0], &shape)?;
        self.draw(&shape, DType::I64, Distribution::Poisson, &[&lam])
    }

    /// Binomial counts of `n >= 0` trials (truncated to integers) with success probability `p`
    /// in [0, 1] (`Generator.binomial`).
    pub fn binomial<'a, 'b>(
        &mut self,
        n: impl Into<Operand<'a>>,
        p: impl Into<Operand<'b>>,
        size: impl IntoSize,
    ) -> Result<Array> {
        let ps = [Param::new("n", n, Rule::NonNegative), Param::new("p", p, Rule::Probability)];
        let (shape, a) = self.params("binomial", &ps, size.into_size())?;
        let (n, p) = (Self::flat(&a[0].trunc()?, &shape)?, Self::flat(&a[1], &shape)?);
        self.draw(&shape, DType::I64, Distribution::Binomial, &[&n, &p])
    }

    /// Geometric counts, the number of trials up to the first success of probability `p` in
    /// (0, 1] (`Generator.geometric`): `ceil(e / -ln(1 - p))` of a standard exponential `e`, at
    /// least 1.
    pub fn geometric<'a>(&mut self, p: impl Into<Operand<'a>>, size: impl IntoSize) -> Result<Array> {
        let (shape, a) = self.params("geometric", &[Param::new("p", p, Rule::Probability)], size.into_size())?;
        if a[0].le(0.0)?.any(..)?.item::<bool>()? {
            return Err(Error::InvalidParameter {
                op: "geometric",
                param: "p",
                requirement: "must lie in (0, 1]".into(),
            });
        }
        let rate = a[0].neg()?.log1p()?.neg()?;
        let e = self.standard_exponential(&shape, DType::F64)?;
        e.div(&rate)?.ceil()?.maximum(1.0)?.astype(DType::I64)
    }

    /// Counts of `n` trials over the categories of probabilities `pvals` (`Generator.multinomial`):
    /// shape `size + [pvals.len()]`, drawn as conditional binomials category by category (one
    /// binomial draw per category but the last). The probabilities but the last must be in
    /// [0, 1] and sum to at most 1 (plus 1e-12); the last category takes what remains.
    pub fn multinomial(&mut self, n: i64, pvals: &[f64], size: impl IntoSize) -> Result<Array> {
        let bad = |r: &str| Error::InvalidParameter { op: "multinomial", param: "pvals", requirement: r.into() };
        if n < 0 {
            return Err(Error::InvalidParameter { op: "multinomial", param: "n", requirement: "must be >= 0".into() });
        }
        if pvals.is_empty() {
            return Err(bad("must not be empty"));
        }
        if pvals.iter().any(|p| !(0.0..=1.0).contains(p)) {
            return Err(bad("must lie in [0, 1]"));
        }
        let head = &pvals[..pvals.len() - 1];
        if head.iter().sum::<f64>() > 1.0 + 1e-12 {
            return Err(bad("must sum to at most 1 (but the last)"));
        }
        let shape = size.into_size().map(|d| d.shape("multinomial")).transpose()?.unwrap_or_default();
        let mut left = crate::full_on(self.device, &shape, n, DType::I64)?;
        let (mut mass, mut counts) = (1.0f64, Vec::with_capacity(pvals.len()));
        for &p in head {
            let q = if mass > 0.0 { (p / mass).min(1.0) } else { 0.0 };
            let x = self.binomial(&left, q, &shape)?;
            left = left.sub(&x)?;
            mass -= p;
            counts.push(x);
        }
        counts.push(left);
        stack(&counts.iter().collect::<Vec<_>>(), -1)
    }
}
