//! The functions SciPy applies to the stored values alone, because they map zero to zero (so the
//! structure stays, explicit zeros included): `abs sin sinh tan tanh arcsin arcsinh arctan
//! arctanh sqrt expm1 log1p floor ceil trunc rint sign deg2rad rad2deg`, and `power` by a
//! nonzero scalar; `mul_scalar`, `div_scalar` and `neg`. Every format has them; duplicates are
//! summed first, as SciPy does, except by `mul_scalar`, `div_scalar` and `neg`, which keep the
//! stored values as they are (SciPy's `A * s`, `A / s`, `-A`).
//!
//! ```
//! let d = xp::Array::from_vec(vec![0.0f64, -4.0, 9.0, 0.0], &[2, 2]).unwrap();
//! let a = xp::sparse::CsrArray::from_dense(&d).unwrap();
//! assert_eq!(a.abs().unwrap().sqrt().unwrap().data().to_vec::<f64>().unwrap(), vec![2.0, 3.0]);
//! assert!(a.power(0).is_err()); // would make every absent entry 1
//! ```
use super::{BsrArray, CooArray, CooArray1d, CscArray, CsrArray, CsrArray1d, DiaArray};
use crate::Array;
use xp_core::{Error, Result, Scalar};

macro_rules! zero_preserving {
    ($t:ty; $($name:ident),*) => {
        impl $t {
            $(
                #[doc = concat!("NumPy's `", stringify!($name), "` of the stored values (the structure kept).")]
                pub fn $name(&self) -> Result<$t> {
                    self.map_data(|d| d.$name())
                }
            )*
            /// Every stored value multiplied by `s` (SciPy's `A * s`): the format is kept.
            pub fn mul_scalar(&self, s: impl Into<Scalar>) -> Result<$t> {
                let s = s.into();
                self.map_stored(|d| d.mul(s))
            }
            /// Every stored value divided by `s` (SciPy's `A / s` in the value dtype's true division).
            pub fn div_scalar(&self, s: impl Into<Scalar>) -> Result<$t> {
                let s = s.into();
                self.map_stored(|d| d.div(s))
            }
            /// `-A`.
            pub fn neg(&self) -> Result<$t> {
                self.map_stored(|d| d.neg())
            }
            /// NumPy's `deg2rad` of the stored values.
            pub fn deg2rad(&self) -> Result<$t> {
                self.map_data(|d| d.mul(std::f64::consts::PI / 180.0))
            }
            /// NumPy's `rad2deg` of the stored values.
            pub fn rad2deg(&self) -> Result<$t> {
                self.map_data(|d| d.mul(180.0 / std::f64::consts::PI))
            }
            /// The stored values to the power `p` (SciPy's `power`); `p = 0` is an error, as it
            /// would make every absent entry one.
            pub fn power(&self, p: impl Into<Scalar>) -> Result<$t> {
                let p = p.into();
                if p.to_c128() == xp_core::Complex64::new(0.0, 0.0) {
                    return Err(Error::invalid("power", "zero power is not supported as it would densify the array"));
                }
                self.map_data(|d| d.pow(p))
            }
        }
    };
}

macro_rules! all_formats {
    ($($t:ty),*) => {$(
        zero_preserving!($t; abs, sin, sinh, tan, tanh, arcsin, arcsinh, arctan, arctanh, sqrt, expm1, log1p,
            floor, ceil, trunc, rint, sign);
    )*};
}
all_formats!(CsrArray, CscArray, CooArray, DiaArray, BsrArray, CooArray1d, CsrArray1d);

impl CsrArray {
    /// The canonical structure with the values `f(data)` (duplicates summed first, as SciPy's
    /// `_deduped_data`: `sqrt` of a stored 4 and 5 at one place is 3).
    pub(crate) fn map_data(&self, f: impl FnOnce(&Array) -> Result<Array>) -> Result<CsrArray> {
        let c = self.0.canonicalized()?;
        Ok(CsrArray(c.with_data(f(&c.data)?)))
    }
}

impl CsrArray {
    /// The same structure, duplicates included, with the values `f(data)`.
    pub(crate) fn map_stored(&self, f: impl FnOnce(&Array) -> Result<Array>) -> Result<CsrArray> {
        Ok(CsrArray(self.0.with_data(f(&self.0.data)?)))
    }
}

impl CscArray {
    /// As [`CsrArray::map_stored`].
    pub(crate) fn map_stored(&self, f: impl FnOnce(&Array) -> Result<Array>) -> Result<CscArray> {
        Ok(CscArray(self.0.with_data(f(&self.0.data)?)))
    }
}

impl CscArray {
    /// As [`CsrArray::map_data`].
    pub(crate) fn map_data(&self, f: impl FnOnce(&Array) -> Result<Array>) -> Result<CscArray> {
        let c = self.0.canonicalized()?;
        Ok(CscArray(c.with_data(f(&c.data)?)))
    }
}

impl DiaArray {
    /// The diagonals with the values `f(data)` (the structure kept).
    pub(crate) fn map_data(&self, f: impl FnOnce(&Array) -> Result<Array>) -> Result<DiaArray> {
        self.with_data(f(self.data())?)
    }
    /// As [`Self::map_data`] (a diagonal holds no duplicates).
    pub(crate) fn map_stored(&self, f: impl FnOnce(&Array) -> Result<Array>) -> Result<DiaArray> {
        self.map_data(f)
    }
}

impl BsrArray {
    /// The canonical blocks with the values `f(data)`.
    pub(crate) fn map_data(&self, f: impl FnOnce(&Array) -> Result<Array>) -> Result<BsrArray> {
        let c = self.sum_duplicates()?;
        c.with_data(f(c.data())?)
    }
    /// The same blocks, duplicates included, with the values `f(data)`.
    pub(crate) fn map_stored(&self, f: impl FnOnce(&Array) -> Result<Array>) -> Result<BsrArray> {
        self.with_data(f(self.data())?)
    }
}
