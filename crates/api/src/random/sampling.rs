//! Permutations and sampling: `permutation`, `shuffle`, `permuted` and `choice`, by sorting
//! random 64-bit keys (the stable sort breaks the rare equal keys by position), so that the same
//! seed picks the same elements in the same order on every device.
use super::{Generator, IntoSize};
use crate::{searchsorted, take_along_axis, Array, Side};
use xp_core::{normalize_axis, numel, DType, Error, Result};

/// The options of [`Generator::choice`] (NumPy's keywords; `Choice::default()` is NumPy's
/// defaults: with replacement, uniform weights, axis 0).
#[derive(Clone, Copy, Debug)]
pub struct Choice<'a> {
    /// draw with replacement (NumPy's `replace`)
    pub replace: bool,
    /// the probability of each element (NumPy's `p`): 1-D, non-negative, summing to 1 within
    /// `sqrt(eps)`
    pub p: Option<&'a Array>,
    /// the axis of the population (NumPy's `axis`)
    pub axis: isize,
}

impl Default for Choice<'_> {
    fn default() -> Self {
        Choice { replace: true, p: None, axis: 0 }
    }
}

impl Generator {
    /// Random 64-bit keys in `shape` (one draw).
    fn keys(&mut self, shape: &[usize]) -> Result<Array> {
        self.integers_closed(i64::MIN, i64::MAX, shape, DType::I64)
    }

    /// A random permutation of `0 .. n` (int64; NumPy's `Generator.permutation(n)`).
    pub fn permutation(&mut self, n: usize) -> Result<Array> {
        self.keys(&[n])?.argsort(0)
    }

    /// A copy of `x` with its slices along `axis` in a random order (NumPy's
    /// `Generator.permutation(x, axis)`).
    pub fn permutation_of(&mut self, x: &Array, axis: isize) -> Result<Array> {
        let ax = normalize_axis("permutation", axis, x.ndim())?;
        let p = self.permutation(x.shape()[ax])?.to_device(x.device())?;
        x.take(&p, ax as isize)
    }

    /// Shuffle `x` in place along `axis` (NumPy's `Generator.shuffle`).
    pub fn shuffle(&mut self, x: &Array, axis: isize) -> Result<()> {
        let y = self.permutation_of(x, axis)?;
        x.assign(&y)
    }

    /// A copy of `x` with each slice along `axis` shuffled independently (NumPy's
    /// `Generator.permuted`; `None` shuffles the flattened array, keeping the shape).
    pub fn permuted(&mut self, x: &Array, axis: Option<isize>) -> Result<Array> {
        match axis {
            None => {
                let flat = x.reshape_exact(&[x.size()])?;
                self.permutation_of(&flat, 0)?.reshape_exact(x.shape())
            }
            Some(axis) => {
                let ax = normalize_axis("permuted", axis, x.ndim())? as isize;
                let order = self.keys(x.shape())?.to_device(x.device())?.argsort(ax)?;
                take_along_axis(x, &order, ax)
            }
        }
    }

    /// Elements of `a` drawn along `opts.axis` (NumPy's `Generator.choice(a, size, replace, p,
    /// axis)`): the result is `a.take(indices, axis)` with indices of shape `size` (`None`: one
    /// element, the axis removed).
    pub fn choice(&mut self, a: &Array, size: impl IntoSize, opts: Choice) -> Result<Array> {
        let ax = normalize_axis("choice", opts.axis, a.ndim())?;
        let idx = self.choice_index(a.shape()[ax], size, opts)?.to_device(a.device())?;
        a.take(&idx, ax as isize)
    }

    /// Indices in `0 .. n` drawn as [`Generator::choice`] draws (NumPy's `choice(n, ..)`; int64
    /// of shape `size`).
    pub fn choice_index(&mut self, n: usize, size: impl IntoSize, opts: Choice) -> Result<Array> {
        let shape = size.into_size().map(|d| d.shape("choice")).transpose()?.unwrap_or_default();
        let k = numel(&shape);
        let bad = |param, r: String| Error::InvalidParameter { op: "choice", param, requirement: r };
        if n == 0 && k > 0 {
            return Err(bad("a", "must not be empty unless no samples are taken".into()));
        }
        let p = opts.p.map(|p| weights(p, n)).transpose()?;
        if !opts.replace && k > n {
            return Err(bad("size", format!("must be at most the population ({n}) without replacement, not {k}")));
        }
        let idx = match (opts.replace, p) {
            (true, None) => self.integers(0, n.max(1) as i64, &shape, DType::I64)?,
            (true, Some(p)) => {
                // The cumulative sum on the host, in order: every device searches the same edges.
                let mut acc = 0.0;
                let mut cdf: Vec<f64> = p
                    .iter()
                    .map(|x| {
                        acc += x;
                        acc
                    })
                    .collect();
                cdf.iter_mut().for_each(|c| *c /= acc);
                let cdf = Array::from_vec(cdf, [n])?.to_device(self.device)?;
                let u = self.random(&shape, DType::F64)?;
                searchsorted(&cdf, &u, Side::Right, None)?.minimum(n as i64 - 1)?
            }
            (false, None) => self.permutation(n)?.slice([xp_core::SliceElem::from(0..k)])?.reshape_exact(&shape)?,
            (false, Some(p)) => {
                if p.iter().filter(|&&x| x > 0.0).count() < k {
                    return Err(bad(
                        "p",
                        format!("must have at least {k} nonzero entries to draw {k} without replacement"),
                    ));
                }
                // Efraimidis and Spirakis: the k smallest of e_i / p_i, e_i standard exponential.
                let w = Array::from_vec(p, [n])?.to_device(self.device)?;
                let keys = self.standard_exponential([n], DType::F64)?.div(&w)?;
                keys.argsort(0)?.slice([xp_core::SliceElem::from(0..k)])?.reshape_exact(&shape)?
            }
        };
        Ok(idx)
    }
}

/// The weights `p` of a population of `n` on the host, checked as NumPy checks them.
fn weights(p: &Array, n: usize) -> Result<Vec<f64>> {
    let bad = |r: &str| Error::InvalidParameter { op: "choice", param: "p", requirement: r.into() };
    if p.ndim() != 1 || p.size() != n {
        return Err(bad(&format!("must be 1-dimensional with one weight per element ({n})")));
    }
    if !p.dtype().is_float() && !p.dtype().is_integer() {
        return Err(Error::InvalidDType { op: "choice", dtype: p.dtype() });
    }
    let v = p.astype(DType::F64)?.to_vec::<f64>()?;
    if v.iter().any(|x| x.is_nan() || *x < 0.0) {
        return Err(bad("must be non-negative"));
    }
    let s: f64 = v.iter().sum();
    if (s - 1.0).abs() > f64::EPSILON.sqrt() {
        return Err(bad(&format!("must sum to 1 (sums to {s})")));
    }
    Ok(v)
}
