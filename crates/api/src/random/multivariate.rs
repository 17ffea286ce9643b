//! The multivariate normal distribution, through xp's own `linalg`.
use super::{Generator, IntoSize};
use crate::linalg::{eigh, Uplo};
use crate::{matmul, where_, Array};
use xp_core::{DType, Error, Result};

impl Generator {
    /// Vectors of the normal distribution with mean `mean` (shape `(k,)`) and covariance `cov`
    /// (`(k, k)`, symmetric positive semi-definite) (`Generator.multivariate_normal`): shape
    /// `size + [k]`, `mean + z A^T` with `A = V sqrt(Λ)` from the eigendecomposition of `cov` (as
    /// NumPy factors it by SVD, so that singular covariances work too). A covariance with an
    /// eigenvalue below `-1e-8` times the largest magnitude is refused. Eigenvalues within
    /// rounding of zero (below `k ε` times the largest, `matrix_rank`'s tolerance) count as zero:
    /// their square root would turn a `1e-16` of rounding into a `1e-8` step off the subspace.
    pub fn multivariate_normal(&mut self, mean: &Array, cov: &Array, size: impl IntoSize) -> Result<Array> {
        let op = "multivariate_normal";
        let bad = |param, r: &str| Error::InvalidParameter { op, param, requirement: r.into() };
        if mean.ndim() != 1 {
            return Err(bad("mean", "must be 1-dimensional"));
        }
        let k = mean.size();
        if cov.shape() != [k, k] {
            return Err(bad("cov", "must be square with the length of mean"));
        }
        for a in [mean, cov] {
            if a.device() != self.device {
                return Err(Error::DeviceMismatch { op, lhs: self.device, rhs: a.device() });
            }
        }
        let (mean, cov) = (mean.astype(DType::F64)?, cov.astype(DType::F64)?);
        let e = eigh(&cov, Uplo::Lower)?;
        let scale = e.w.abs()?.max(..)?.item::<f64>()?;
        if e.w.lt(-1e-8 * scale)?.any(..)?.item::<bool>()? {
            return Err(bad("cov", "must be positive semi-definite"));
        }
        let floor = k as f64 * f64::EPSILON * scale;
        let w = where_(&e.w.gt(floor)?, &e.w, 0.0)?;
        let a = e.v.mul(&w.sqrt()?)?;
        let mut shape = size.into_size().map(|d| d.shape("multivariate_normal")).transpose()?.unwrap_or_default();
        shape.push(k);
        let z = self.standard_normal(&shape, DType::F64)?;
        if k == 0 {
            return Ok(z);
        }
        matmul(&z, &a.t()?)?.add(&mean)
    }
}
