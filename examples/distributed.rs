//! k-means over a data set sharded across GPUs, one process per GPU, centroids by all-reduce
//! (`xp::dist`), checked against the same k-means on one GPU.
//!
//! Launch it as the ranks of a job:
//!
//! ```text
//! cargo build --release --example distributed
//! torchrun --nproc-per-node 2 target/release/examples/distributed
//! srun -n 2 --gpus-per-task 1 target/release/examples/distributed
//! ```
//!
//! Started without a launcher's variables it starts itself as one rank per GPU present (xp's own
//! `XP_RANK`/`XP_WORLD_SIZE` variables); without a GPU it says so and stops.
use std::time::Instant;
use xp::dist::{self, Communicator, Placement, ReduceOp, ShardedArray};
use xp::{Array, DType, Device, Result};

const N: usize = 1 << 20;
const D: usize = 16;
const K: usize = 8;
const ITERS: usize = 20;

/// The data set: K well-separated blobs, the same on every rank (Philox: the same values on
/// every device).
fn data(dev: Device) -> Result<Array> {
    let mut rng = xp::on(dev).default_rng(42);
    let centres = rng.random([K, D], DType::F32)?.mul(20.0)?;
    let which = rng.integers(0, K as i64, [N], DType::I64)?;
    centres.take(&which, Some(0))?.add(&rng.standard_normal([N, D], DType::F32)?)
}

/// One k-means step on the local points `x` (rows) from the centroids `c`: the per-cluster
/// sums (K × D) and counts (K) of the points nearest to each centroid.
fn step(x: &Array, c: &Array) -> Result<(Array, Array)> {
    // ‖x − c‖² up to ‖x‖², which does not change the nearest centroid
    let d = c.mul(c)?.sum(Some(1))?.sub(&x.matmul(&c.t()?)?.mul(2.0)?)?;
    let labels = d.argmin(Some(1))?;
    let onehot = labels
        .expand_dims(1)?
        .eq(&xp::on(x.device()).arange(0.0, K as f64, 1.0, Some(DType::I64))?)?
        .astype(DType::F32)?;
    Ok((onehot.t()?.matmul(x)?, onehot.sum(Some(0))?))
}

fn kmeans_sharded(comm: &Communicator, x: &ShardedArray) -> Result<Array> {
    // the first K points, which rank 0 holds, as the starting centroids, on every rank
    let first = x.local().slice(xp::s![..K as isize, ..])?;
    let mut c = comm.broadcast(&first, 0)?;
    for _ in 0..ITERS {
        let (sums, counts) = step(x.local(), &c)?;
        let sums = comm.all_reduce(&sums, ReduceOp::Sum)?;
        let counts = comm.all_reduce(&counts, ReduceOp::Sum)?;
        c = sums.div(&xp::maximum(&counts, 1.0)?.expand_dims(1)?)?;
    }
    comm.synchronize()?;
    Ok(c)
}

fn kmeans_one(x: &Array) -> Result<Array> {
    let mut c = x.slice(xp::s![..K as isize, ..])?;
    for _ in 0..ITERS {
        let (sums, counts) = step(x, &c)?;
        c = sums.div(&xp::maximum(&counts, 1.0)?.expand_dims(1)?)?;
    }
    Ok(c)
}

fn rank() -> Result<()> {
    let comm = dist::init()?;
    let dev = comm.device();
    let whole = data(dev)?;
    let (s, e) = dist::block(N, comm.size(), comm.rank());
    let mine = whole.slice(xp::s![s as isize..e as isize, ..])?.copy()?;
    let x = ShardedArray::from_local(&comm, mine, Placement::Sharded(0))?;
    // a first run compiles the kernels and sets NCCL's channels up; the second is timed
    kmeans_sharded(&comm, &x)?;
    comm.barrier()?;
    let t = Instant::now();
    let c = kmeans_sharded(&comm, &x)?;
    let sharded_ms = t.elapsed().as_secs_f64() * 1e3;
    if comm.rank() == 0 {
        kmeans_one(&whole)?;
        let t = Instant::now();
        let one = kmeans_one(&whole)?;
        xp::cuda::synchronize(match dev {
            Device::Cuda(i) => i,
            Device::Cpu => 0,
        })?;
        let one_ms = t.elapsed().as_secs_f64() * 1e3;
        // float32 sums in another order: compared relative to the centroids' size
        let diff = c.sub(&one)?.abs()?.max(..)?.to_f64()? / one.abs()?.max(..)?.to_f64()?;
        println!(
            "k-means of {N} points in {D} dimensions, {K} clusters, {ITERS} iterations on {} GPUs: {sharded_ms:.1} ms; \
             on one GPU: {one_ms:.1} ms; largest centroid difference {diff:.2e} (relative)",
            comm.size()
        );
        if diff > 1e-4 {
            eprintln!("the sharded centroids differ from the one-GPU run");
            std::process::exit(1);
        }
    }
    Ok(())
}

fn main() -> Result<()> {
    let launched = ["XP_RANK", "RANK", "SLURM_PROCID", "OMPI_COMM_WORLD_RANK", "PMI_RANK"]
        .iter()
        .any(|v| std::env::var(v).is_ok());
    if launched {
        return rank();
    }
    let gpus = xp::cuda::device_count();
    if gpus == 0 {
        println!("no GPU: xp::dist runs on CUDA devices (NCCL); nothing to do");
        return Ok(());
    }
    // start one rank per GPU, as a launcher would
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .map_err(|e| xp::Error::invalid("distributed", e.to_string()))?
        .local_addr()
        .map_err(|e| xp::Error::invalid("distributed", e.to_string()))?
        .port();
    let exe = std::env::current_exe().map_err(|e| xp::Error::invalid("distributed", e.to_string()))?;
    let kids: Vec<_> = (0..gpus)
        .map(|r| {
            std::process::Command::new(&exe)
                .env("XP_RANK", r.to_string())
                .env("XP_WORLD_SIZE", gpus.to_string())
                .env("XP_LOCAL_RANK", r.to_string())
                .env("XP_MASTER_PORT", port.to_string())
                .env("NCCL_NVLS_ENABLE", "0")
                .spawn()
        })
        .collect::<std::io::Result<_>>()
        .map_err(|e| xp::Error::invalid("distributed", e.to_string()))?;
    let mut ok = true;
    for mut k in kids {
        ok &= k.wait().map(|s| s.success()).unwrap_or(false);
    }
    if !ok {
        std::process::exit(1);
    }
    Ok(())
}
