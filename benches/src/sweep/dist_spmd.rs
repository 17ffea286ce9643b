//! Sweep rows of the `ShardedArray` operations and of the row-sharded CSR on two GPUs of one
//! process, each rank on a thread of its own (`dist::spmd`), against CuPy's same operation on
//! one GPU: what sharding over two GPUs gains (or costs) per call. Each call ends with both GPUs
//! synchronised.
use super::sparse_linalg::{poisson, py_setup, rhs};
use super::{checked, uniform, Row};
use xp::dist::{self, block, cg, Communicator, Placement, ShardedArray, ShardedCsr};
use xp::fft::FftNorm;
use xp::sparse::linalg::Krylov;
use xp::{Array, DType, Device, Result};

/// A row whose xp side builds each rank's state once (`make`, on the rank's thread) and then,
/// per call, runs `run` on every rank; rank 0's array is the call's output (with `--check`
/// the whole result, where `run` gathers it).
fn row<S: Send + Sync + 'static>(
    function: &str,
    size: String,
    py_setup: String,
    py_call: &str,
    make: impl Fn(&Communicator) -> Result<S> + Send + Sync + 'static,
    run: impl Fn(&S, bool) -> Result<Array> + Send + Sync + Copy + 'static,
) -> Row {
    let make = std::sync::Arc::new(make);
    Row::new(function, size, py_setup, py_call, move |_| {
        let comms = Communicator::local(&[Device::Cuda(0), Device::Cuda(1)])?;
        let make = make.clone();
        let states = dist::spmd(&comms, |c| make(c))?;
        checked(move |check| {
            let mut outs = dist::spmd(&comms, |c| {
                let out = run(&states[c.rank()], check)?;
                xp::cuda::synchronize(c.rank())?;
                Ok(out)
            })?;
            Ok(vec![outs.swap_remove(0)])
        })
    })
}

/// This rank's block of rows of `x` (on the host), on its GPU.
fn piece(c: &Communicator, x: &Array) -> Result<ShardedArray> {
    let (s, e) = block(x.shape()[0], c.size(), c.rank());
    let local = x.slice(xp::s![s as isize..e as isize])?.to_device(c.device())?;
    ShardedArray::from_local(c, local, Placement::Sharded(0))
}

/// The whole result with `--check`, else this rank's piece.
fn out(x: ShardedArray, check: bool) -> Result<Array> {
    if check {
        x.all_gather()
    } else {
        Ok(x.local().clone())
    }
}

pub(super) fn rows(r: &mut Vec<Row>, gpu: bool) {
    if !gpu || xp::cuda::device_count() < 2 {
        return;
    }
    for (label, n) in [("2^26", 1usize << 26), ("2^28", 1 << 28)] {
        r.push(row(
            "dist.sort",
            format!("{label} f32 sharded over 2 GPUs (ref: CuPy, one GPU)"),
            format!("X = uniform({n}, 7)"),
            "xp.sort(X)",
            move |c| piece(c, &uniform(&[n], 7, Device::Cpu)?),
            |s, check| out(s.sort()?, check),
        ));
    }
    let n = 1usize << 28;
    // the one-GPU sort the sharded one is measured against
    r.push(Row::new(
        "dist.sort",
        "2^28 f32 on one GPU, xp (ref: CuPy, one GPU)",
        format!("X = uniform({n}, 7)"),
        "xp.sort(X)",
        move |_| {
            let x = uniform(&[n], 7, Device::Cuda(0))?;
            super::one(move || {
                let s = x.sort(0)?;
                xp::cuda::synchronize(0)?;
                Ok(s)
            })
        },
    ));
    r.push(
        row(
            "dist.random",
            "standard_normal 2^28 f32 sharded over 2 GPUs (ref: CuPy, one GPU)".into(),
            "g = xp.random.default_rng(1)".into(),
            "g.standard_normal(size=1 << 28, dtype=xp.float32)",
            |c| Ok((c.clone(), std::sync::Mutex::new(xp::on(c.device()).default_rng(1)))),
            move |(c, g), _| {
                let mut g = g.lock().unwrap_or_else(|e| e.into_inner());
                let x = ShardedArray::random_with(c, &mut g, &[n], Placement::Sharded(0), |g, s| {
                    g.standard_normal(s, DType::F32)
                })?;
                Ok(x.local().clone())
            },
        )
        .out("[]"),
    );
    for (m, k) in [(4096usize, 4096usize), (16384, 8192)] {
        r.push(row(
            "dist.fft",
            format!("{m} × {k} c64 along axis 1, row-sharded over 2 GPUs (ref: CuPy, one GPU)"),
            format!("X = cuniform(({m}, {k}), 8)"),
            "xp.fft.fft(X, axis=1)",
            move |c| piece(c, &super::cuniform(&[m, k], 8, Device::Cpu)?),
            |s, check| out(s.fft(None, 1, FftNorm::Backward)?, check),
        ));
    }
    const K: usize = 1024;
    for k in [K, 4 * K] {
        r.push(row(
            "dist.csr_matvec",
            format!("{k}² Poisson f64, rows over 2 GPUs (ref: CuPy, one GPU)"),
            py_setup(k),
            "A @ b",
            move |c| {
                let a = poisson(k, Device::Cpu)?;
                let sa = ShardedCsr::from_root(c, (c.rank() == 0).then_some(&a), 0)?;
                Ok((sa, piece(c, &rhs(k, Device::Cpu)?)?))
            },
            |(a, b), check| out(a.matvec(b)?, check),
        ));
    }
    r.push(row(
        "dist.cg",
        format!("{K}² Poisson f64, 300 iterations, rows over 2 GPUs (ref: CuPy, one GPU)"),
        py_setup(K),
        "solve(L.cg, maxiter=300)",
        |c| {
            let a = poisson(K, Device::Cpu)?;
            let sa = ShardedCsr::from_root(c, (c.rank() == 0).then_some(&a), 0)?;
            Ok((sa, piece(c, &rhs(K, Device::Cpu)?)?))
        },
        |(a, b), check| out(cg(a, b, Krylov { rtol: 0.0, maxiter: Some(300), ..Default::default() })?.x, check),
    ));
}
