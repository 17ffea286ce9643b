//! Ahead-of-time kernel compilation for `xp::cuda::warmup`: runs each common operation once on
//! tiny arrays so that its kernels are compiled (or loaded from the disk cache) before the user's
//! first call needs them. The dtypes and layouts are spread over a pool of threads: NVRTC
//! compiles several programs at once (4.6× on 16 threads of an H100 host, RESULTS.md).
use crate::ufunc::{binary, unary};
use crate::{Array, BinaryOp, DType, Device, Result, UnaryOp};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A tiny operand of `dtype` on `device`: contiguous (`strided == false`) or every other element.
fn operand(device: Device, dtype: DType, strided: bool) -> Result<Array> {
    let base = crate::on(device).ones([4], dtype)?;
    if strided {
        base.slice(crate::s![..;2])
    } else {
        base.slice(crate::s![..2])
    }
}

/// Every warmed operation on `a` (of dtype `d`), casts to each of `dtypes`.
fn exercise(a: &Array, d: DType, dtypes: &[DType]) -> Result<()> {
    for &op in UnaryOp::ALL {
        if !op.is_special() && op.resolve(d).is_ok_and(|(l, _)| l == d) {
            unary(op, a)?;
        }
    }
    for &op in BinaryOp::ALL {
        if !op.is_special() && op.resolve(d, d).is_ok_and(|(l, _)| l == d) && op != BinaryOp::Pow {
            binary(op, a, a)?;
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
    Ok(())
}

pub(crate) fn run(device: Device, dtypes: &[DType]) -> Result<usize> {
    let jobs: Vec<(DType, bool)> = dtypes.iter().flat_map(|&d| [(d, false), (d, true)]).collect();
    let threads = std::env::var("XP_WARMUP_THREADS")
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .min(jobs.len())
        .max(1);
    let next = AtomicUsize::new(0);
    let work = || -> Result<usize> {
        let before = crate::cuda::kernels_compiled_on_this_thread();
        while let Some(&(d, strided)) = jobs.get(next.fetch_add(1, Ordering::Relaxed)) {
            exercise(&operand(device, d, strided)?, d, dtypes)?;
        }
        Ok(crate::cuda::kernels_compiled_on_this_thread() - before)
    };
    std::thread::scope(|s| {
        let pool: Vec<_> = (0..threads).map(|_| s.spawn(work)).collect();
        pool.into_iter().map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e))).sum()
    })
}
