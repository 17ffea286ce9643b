//! Statistics on any device, as NumPy defines them: order statistics (`median`, `quantile`,
//! `percentile` with NumPy's `method`s, and the `nan` twins), weighted means and covariances
//! (`average`, `cov`, `corrcoef`), counting (`histogram`, `histogram2d`, `histogramdd`,
//! `bincount`, `digitize`), and differences, gradients, integrals and interpolation (`diff`,
//! `ediff1d`, `gradient`, `trapezoid`, `interp`, `nancumsum`, `nancumprod`).
//!
//! ```
//! use xp::{Array, Bins, Histogram, QuantileMethod};
//! let a = Array::from_vec(vec![3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0], &[2, 4]).unwrap();
//! assert_eq!(xp::median(&a, ..).unwrap().item::<f64>().unwrap(), 3.5);
//! let q = xp::quantile(&a, [0.25, 0.75], -1, QuantileMethod::Lower).unwrap();
//! assert_eq!(q.to_vec::<f64>().unwrap(), vec![1.0, 2.0, 3.0, 6.0]);
//! let (h, edges) = xp::histogram(&a, 4, Histogram::default()).unwrap();
//! assert_eq!(h.to_vec::<i64>().unwrap(), vec![3, 2, 2, 1]);
//! assert_eq!(edges.to_vec::<f64>().unwrap(), vec![1.0, 3.0, 5.0, 7.0, 9.0]);
//! let b = Bins::Count(2);
//! assert_eq!(xp::histogram(&a, b, Histogram { range: Some((0.0, 4.0)), ..Default::default() }).unwrap().0.to_vec::<i64>().unwrap(), vec![2, 3]);
//! ```
mod calculus;
mod histogram;
mod moments;
mod quantile;
mod select;

pub use calculus::{diff, diff_with, ediff1d, gradient, interp, trapezoid, Spacing};
pub use histogram::{bincount, digitize, histogram, histogram2d, histogramdd, Bins, Histogram};
pub use moments::{average, average_returned, corrcoef, cov, Corrcoef, Cov};
pub use quantile::{
    median, nanmedian, nanpercentile, nanquantile, percentile, quantile, IntoQuantiles, QuantileMethod,
};
