//! SciPy's special matrices (`scipy.linalg`'s `toeplitz` … `convolution_matrix`, `pascal`,
//! `dft`, …) and its structure predicates (`bandwidth`, `issymmetric`, `ishermitian`), with
//! SciPy's names, arguments, result dtypes and edge cases.
//!
//! ```
//! use xp::linalg::{self, PascalKind};
//! let c = xp::Array::from_vec(vec![1i64, 2, 3], &[3]).unwrap();
//! let t = linalg::toeplitz(&c, None).unwrap();                       // r = conj(c)
//! assert_eq!(t.to_vec::<i64>().unwrap(), vec![1, 2, 3, 2, 1, 2, 3, 2, 1]);
//! let h = linalg::hadamard(4, None).unwrap();                        // int64
//! let n4 = xp::matmul(&h, &h.t().unwrap()).unwrap();                 // H Hᵀ = n I
//! assert_eq!(n4.to_vec::<i64>().unwrap(), xp::eye(4, None, 0, xp::DType::I64).unwrap().mul(4).unwrap().to_vec::<i64>().unwrap());
//! let p = linalg::pascal(3, linalg::Pascal { kind: PascalKind::Lower, ..Default::default() }).unwrap();
//! assert_eq!((p.dtype(), p.to_vec::<u64>().unwrap()), (xp::DType::U64, vec![1, 0, 0, 1, 1, 0, 1, 2, 1]));
//! let stack = xp::Array::from_vec(vec![1.0f64, 2.0, 3.0, 4.0], &[2, 2]).unwrap();
//! assert_eq!(linalg::circulant(&stack).unwrap().shape(), &[2, 2, 2]);  // batched over leading axes
//! assert!(matches!(linalg::hadamard(6, None), Err(xp::Error::InvalidParameter { .. })));
//! ```
//!
//! Functions of arrays build their result on the device of their input, from whole-array
//! operations: the matrices are gathers (`take`) of the input's values through index grids made
//! with `arange` arithmetic, so that a GPU does the work. Functions of sizes alone take their
//! device through an `_on` twin, as [`crate::tri_on`] does (the plain form builds in host
//! memory). The exact integer tables (`pascal`, `invpascal`, `invhilbert` with `exact`) are
//! computed on the host in 128-bit integers and uploaded: they are small by nature (their
//! entries outgrow 64 bits beyond n = 14 … 68), and the request is refused with
//! [`Error::InvalidParameter`] where an entry would not fit the 64-bit dtype (SciPy returns an
//! object array of Python integers there).
//!
//! Batches follow SciPy 1.17: `toeplitz`, `circulant`, `companion`, `fiedler`,
//! `fiedler_companion`, `leslie`, `convolution_matrix`, `block_diag` and `khatri_rao` take
//! leading batch axes (broadcast between two inputs); `hankel` batches as SciPy announces for
//! 1.19 (1.17 flattens N-D input with a warning). A zero-size batch gives an empty result (SciPy
//! refuses it). `bandwidth` answers host integers for one matrix; [`bandwidth_stack`] answers
//! arrays for a stack.
mod generated;
mod predicates;
mod structured;

pub use crate::{tri, tri_on};
pub use generated::{
    dft, dft_on, hadamard, hadamard_on, helmert, helmert_on, hilbert, hilbert_on, invhilbert, invhilbert_on, invpascal,
    invpascal_on, pascal, pascal_on, DftScale, Pascal, PascalKind,
};
pub use predicates::{bandwidth, bandwidth_stack, ishermitian, issymmetric, Symmetry};
pub use structured::{
    block_diag, circulant, companion, convolution_matrix, fiedler, fiedler_companion, hankel, khatri_rao, leslie,
    toeplitz,
};

use crate::Array;
use xp_core::{Device, Error, IndexMode, Result};

/// Int64 index grids on `dev`: rows `i` of shape (r, 1) and columns `j` of shape (1, c).
fn grid(dev: Device, r: usize, c: usize) -> Result<(Array, Array)> {
    let m = crate::on(dev);
    Ok((
        m.arange(0, r as i64, 1, None)?.reshape_exact(&[r, 1])?,
        m.arange(0, c as i64, 1, None)?.reshape_exact(&[1, c])?,
    ))
}

/// `v[..., idx]`: a gather along the last axis through an index array built here, in bounds by
/// construction (so no bounds check, and no wait for one on a GPU).
fn pick(v: &Array, idx: &Array) -> Result<Array> {
    v.take_mode(idx, -1, IndexMode::Wrap)
}

/// `n × n` elements, or an error where that count overflows.
fn square(op: &'static str, n: usize) -> Result<usize> {
    n.checked_mul(n).ok_or_else(|| Error::InvalidParameter { op, param: "n", requirement: "is too large".into() })
}

/// The batch axes and the length of the last axis of a (1-D at least, as `np.atleast_1d`) input.
fn vector(a: &Array) -> Result<(Array, Vec<usize>, usize)> {
    let a = if a.ndim() == 0 { a.reshape_exact(&[1])? } else { a.clone() };
    let n = a.shape()[a.ndim() - 1];
    let batch = a.shape()[..a.ndim() - 1].to_vec();
    Ok((a, batch, n))
}
