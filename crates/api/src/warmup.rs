//! Ahead-of-time kernel compilation for `xp::cuda::warmup`: runs each common operation once on
//! tiny arrays so that its kernels are compiled (or loaded from the disk cache) before the user's
//! first call needs them.
use crate::ufunc::{binary, unary};
use crate::{Array, BinaryOp, DType, Device, Result, UnaryOp};

/// Tiny operands of `dtype` on `device`: contiguous and strided (every other element).
fn operands(device: Device, dtype: DType) -> Result<[Array; 2]> {
    let base = crate::on(device).ones([4], dtype)?;
    Ok([base.slice(crate::s![..2])?, base.slice(crate::s![..;2])?])
}

pub(crate) fn run(device: Device, dtypes: &[DType]) -> Result<usize> {
    let before = crate::cuda::kernels_compiled_on_this_thread();
    for &d in dtypes {
        for a in operands(device, d)? {
            for &op in UnaryOp::ALL {
                if !op.is_special() && op.resolve(d).is_ok_and(|(l, _)| l == d) {
                    unary(op, &a)?;
                }
            }
            for &op in BinaryOp::ALL {
                if !op.is_special() && op.resolve(d, d).is_ok_and(|(l, _)| l == d) && op != BinaryOp::Pow {
                    binary(op, &a, &a)?;
                }
            }
            for &to in dtypes {
                a.astype(to)?;
            }
            a.sum(..)?;
            a.max(..)?;
            a.min(..)?;
            a.argmax(..)?;
            a.cumsum(..)?;
            if d.is_inexact() {
                a.mean(..)?;
            }
        }
    }
    Ok(crate::cuda::kernels_compiled_on_this_thread() - before)
}
