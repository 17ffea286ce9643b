//! Sweep rows of `xp::dist` on two GPUs of one process (`Communicator::local`), against CuPy's
//! NCCL communicators (`cupy.cuda.nccl.NcclCommunicator.initAll`) in the same run: all-reduce
//! at three sizes; and the scaling rows, a sum and `Aᵀ B` sharded over two GPUs against
//! the same on one GPU (CuPy's). Each call ends with both GPUs synchronised, on both sides.
use super::{one, Row};
use xp::dist::{self, Communicator, ReduceOp};
use xp::{Array, DType, Device, Result};

const NCCL_SETUP: &str = "from cupy.cuda import nccl\n\
    comms = nccl.NcclCommunicator.initAll([0, 1])\n\
    def both(f):\n    nccl.groupStart()\n    for i in (0, 1):\n        with xp.cuda.Device(i):\n            f(i)\n    nccl.groupEnd()\n    xp.cuda.Device(1).synchronize()\n";

fn two() -> [Device; 2] {
    [Device::Cuda(0), Device::Cuda(1)]
}

/// An all-reduce (sum) on both GPUs, both synchronised: rank 0's result.
fn all_reduce(comms: &[Communicator], xs: &[Array]) -> Result<Array> {
    let mut out =
        dist::group(|| comms.iter().zip(xs).map(|(c, x)| c.all_reduce(x, ReduceOp::Sum)).collect::<Result<Vec<_>>>())?;
    xp::cuda::synchronize(1)?;
    Ok(out.swap_remove(0))
}

/// [`all_reduce`] into arrays made beforehand (`all_reduce_out`, as CuPy's `allReduce` into its
/// `recvbuf`): rank 0's result.
fn all_reduce_out(comms: &[Communicator], xs: &[Array], ys: &[Array]) -> Result<Array> {
    dist::group(|| comms.iter().zip(xs).zip(ys).try_for_each(|((c, x), y)| c.all_reduce_out(x, ReduceOp::Sum, y)))?;
    xp::cuda::synchronize(1)?;
    Ok(ys[0].clone())
}

/// Rank i's operand of `n` float32 values i + 1, on GPU i.
fn operands(n: usize) -> Result<Vec<Array>> {
    two().iter().enumerate().map(|(i, &d)| xp::on(d).full([n], (i + 1) as f64, DType::F32)).collect()
}

pub(super) fn rows(r: &mut Vec<Row>, gpu: bool) {
    if !gpu || xp::cuda::device_count() < 2 {
        return;
    }
    for (label, n) in [("1 GiB", 1usize << 28), ("64 MiB", 1 << 24), ("1 MiB", 1 << 18)] {
        let setup = format!(
            "{NCCL_SETUP}N = {n}\nxs, ys = [], []\nfor i in (0, 1):\n    with xp.cuda.Device(i):\n        xs.append(xp.full(N, i + 1, dtype=xp.float32)); ys.append(xp.empty(N, dtype=xp.float32))\n\
             def ar(i): comms[i].allReduce(xs[i].data.ptr, ys[i].data.ptr, N, nccl.NCCL_FLOAT32, nccl.NCCL_SUM, xp.cuda.Stream.null.ptr)\n"
        );
        r.push(Row::new(
            "dist.all_reduce",
            format!("{label} f32 into a given out, 2 GPUs (ref: CuPy's NCCL)"),
            setup.clone(),
            "(both(ar), ys[0])[1]",
            move |_| {
                let comms = Communicator::local(&two())?;
                let xs = operands(n)?;
                let ys = two().iter().map(|&d| xp::on(d).empty([n], DType::F32)).collect::<Result<Vec<_>>>()?;
                one(move || all_reduce_out(&comms, &xs, &ys))
            },
        ));
        r.push(Row::new(
            "dist.all_reduce",
            format!("{label} f32, 2 GPUs (ref: CuPy's NCCL)"),
            setup,
            "(both(ar), ys[0])[1]",
            move |_| {
                let comms = Communicator::local(&two())?;
                let xs = operands(n)?;
                one(move || all_reduce(&comms, &xs))
            },
        ));
    }
    // the sum of 2^31 float32: each GPU sums its half, then one all-reduce of the two partial
    // sums; against CuPy's sum of the whole on one GPU
    let n = 1usize << 31;
    let setup = format!("N = {n}\nwith xp.cuda.Device(0):\n    X = xp.full(N, 0.5, dtype=xp.float32)\n");
    r.push(Row::new("dist.sum", "2^31 f32 on one GPU, xp (ref: CuPy, one GPU)", setup.clone(), "X.sum()", move |_| {
        let x = xp::on(Device::Cuda(0)).full([n], 0.5, DType::F32)?;
        one(move || {
            let s = x.sum(..)?;
            xp::cuda::synchronize(0)?;
            Ok(s)
        })
    }));
    r.push(Row::new("dist.sum", "2^31 f32 sharded over 2 GPUs (ref: CuPy, one GPU)", setup, "X.sum()", move |_| {
        let comms = Communicator::local(&two())?;
        let halves = two().iter().map(|&d| xp::on(d).full([n / 2], 0.5, DType::F32)).collect::<Result<Vec<_>>>()?;
        one(move || {
            let parts = halves.iter().map(|h| h.sum(..)).collect::<Result<Vec<_>>>()?;
            all_reduce(&comms, &parts)
        })
    }));
    // Aᵀ B of two 2^20 × 256 float32 matrices sharded by rows: a local product on each GPU and
    // one all-reduce of the 256 × 256 results; against CuPy's product on one GPU
    let (m, k) = (1usize << 20, 256usize);
    let setup = format!(
        "with xp.cuda.Device(0):\n    A = uniform(({m}, {k}), 5).astype(xp.float32)\n    B = uniform(({m}, {k}), 6).astype(xp.float32)\n"
    );
    let whole = move |s: u64| -> Result<Array> { super::uniform(&[m, k], s, Device::Cpu)?.astype(DType::F32) };
    r.push(Row::new(
        "dist.matmul",
        "Aᵀ B, 2^20 × 256 f32 on one GPU, xp (ref: CuPy, one GPU)",
        setup.clone(),
        "A.T @ B",
        move |_| {
            let (a, b) = (whole(5)?.to_device(Device::Cuda(0))?, whole(6)?.to_device(Device::Cuda(0))?);
            one(move || {
                let p = a.t()?.matmul(&b)?;
                xp::cuda::synchronize(0)?;
                Ok(p)
            })
        },
    ));
    r.push(Row::new(
        "dist.matmul",
        "Aᵀ B, 2^20 × 256 f32 row-sharded over 2 GPUs (ref: CuPy, one GPU)",
        setup,
        "A.T @ B",
        move |_| {
            let comms = Communicator::local(&two())?;
            let (a, b) = (whole(5)?, whole(6)?);
            let half = |x: &Array, i: usize| -> Result<Array> {
                let h = (m / 2) as isize;
                x.slice(xp::s![i as isize * h..(i as isize + 1) * h, ..])?.to_device(Device::Cuda(i))
            };
            let (a_s, b_s) = (
                (0..2).map(|i| half(&a, i)).collect::<Result<Vec<_>>>()?,
                (0..2).map(|i| half(&b, i)).collect::<Result<Vec<_>>>()?,
            );
            one(move || {
                let parts = a_s.iter().zip(&b_s).map(|(a, b)| a.t()?.matmul(b)).collect::<Result<Vec<_>>>()?;
                all_reduce(&comms, &parts)
            })
        },
    ));
}
