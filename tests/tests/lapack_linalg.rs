//! The suite's NumPy and SciPy linear-algebra cases alone, for CI's `lapack` step: built with
//! `xp/lapack`, this small target checks every LAPACK path from the front end without compiling
//! the whole suite a second time (`test = false`: the default run has these cases in the suite).
#[path = "suite/common.rs"]
mod common;
#[path = "suite/linalg.rs"]
mod linalg;
