//! xp's equivalence suites, one test binary: every case runs on every device present and is
//! compared with an independent reference (NumPy 2.4 data in `tests/data`, or float64 loops).
mod common;
mod cuda;
mod edge;
mod errors;
mod fft;
mod fit;
mod fuse;
mod indexing;
mod indexing_props;
mod io;
mod kernels;
mod large;
mod linalg;
mod linalg_props;
mod manip;
mod ndimage;
mod promotion;
mod properties;
mod random_dists;
mod random_props;
mod reductions;
mod repr;
mod signal;
mod stats;
mod streams;
mod ufuncs;
