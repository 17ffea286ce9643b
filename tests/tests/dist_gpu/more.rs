//! The `ShardedArray` operations after the first set (random draws, resharding between any
//! axes, FFTs along an unsharded axis, per-rank files) and the row-sharded CSR (its product by
//! halo exchange, conjugate gradients), each against the same computation on one GPU.
use super::close;
use xp::dist::{block, cg, Communicator, Placement, ShardedArray, ShardedCsr};
use xp::fft::FftNorm;
use xp::sparse::linalg::Krylov;
use xp::sparse::CsrArray;
use xp::{Array, DType, DistKind, Error};

/// The same shape and values, exactly (values that only move).
fn equal(a: &Array, b: &Array) -> bool {
    let host = |x: &Array| x.to_device(xp::Device::Cpu).unwrap();
    a.shape() == b.shape() && a.dtype() == b.dtype() && xp::array_equal(&host(a), &host(b)).unwrap()
}

fn fail(r: usize, what: &str) -> xp::Result<()> {
    Err(Error::invalid("sharded_more", format!("{what} differs on rank {r}")))
}

/// This rank's block of `a` along `axis`.
fn mine(comm: &Communicator, a: &Array, axis: usize) -> xp::Result<Array> {
    let (s, e) = block(a.shape()[axis], comm.size(), comm.rank());
    let idx = xp::on(a.device()).arange(s as f64, e as f64, 1.0, Some(DType::I64))?;
    a.take(&idx, Some(axis as isize))
}

pub fn run(comm: &Communicator) -> xp::Result<()> {
    random(comm)?;
    reshard(comm)?;
    fft(comm)?;
    files(comm)?;
    sort(comm)?;
    csr(comm)
}

/// The sample sort against one GPU's sort: duplicates, NaNs, runs of one value, a rank with
/// nothing.
fn sort(comm: &Communicator) -> xp::Result<()> {
    let (r, dev) = (comm.rank(), comm.device());
    let g = xp::on(dev);
    let wave = g.arange(0.0, 1001.0, 1.0, Some(DType::F64))?.mul(7.1)?.sin()?.mul(20.0)?.floor()?;
    let with_nan = wave.div(&wave.sub(3.0)?.abs()?.gt(0.5)?.astype(DType::F64)?)?;
    let cases = [
        ("f64 with NaN", with_nan.clone()),
        ("i32", wave.astype(DType::I32)?),
        ("f32 of one value", g.full([64], 2.5, DType::F32)?),
        ("u8, one element", g.full([1], 7.0, DType::U8)?),
        ("f64 sorted backwards", g.arange(500.0, 0.0, -1.0, Some(DType::F64))?),
        ("c128 with NaN", with_nan.astype(DType::C128)?.mul(&wave.astype(DType::C128)?.add(1.0)?)?),
        ("bf16", wave.astype(DType::BF16)?),
        // many merge tiles, each value repeated about 500 times
        ("f32, 2^20 + 37", g.arange(0.0, 1_048_613.0, 1.0, Some(DType::F32))?.mul(7.1)?.sin()?.mul(1000.0)?.floor()?),
    ];
    for (name, x) in cases {
        let sx = ShardedArray::from_root(comm, (r == 0).then_some(&x), 0, Placement::Sharded(0))?;
        let got = sx.sort()?;
        let host = |a: &Array| a.to_device(xp::Device::Cpu).unwrap();
        let want = xp::sort(&x, 0)?;
        if got.placement() != Placement::Sharded(0)
            || !equal_nan(&host(got.local()), &host(&mine(comm, &want, 0)?))
            || !equal_nan(&host(&got.all_gather()?), &host(&want))
        {
            return fail(r, &format!("sort of {name}"));
        }
    }
    Ok(())
}

/// The same values, NaNs equal.
fn equal_nan(a: &Array, b: &Array) -> bool {
    a.shape() == b.shape() && a.dtype() == b.dtype() && xp::array_equal_nan(a, b).unwrap()
}

/// Random arrays drawn by pieces equal the one-GPU draw of the same seed, every placement.
fn random(comm: &Communicator) -> xp::Result<()> {
    let (r, dev) = (comm.rank(), comm.device());
    type Draw = fn(&mut xp::random::Generator, &[usize]) -> xp::Result<Array>;
    let draws: [(&str, Draw); 3] = [
        ("standard_normal f32", |g, s| g.standard_normal(s, DType::F32)),
        ("random f64", |g, s| g.random(s, DType::F64)),
        ("integers i16", |g, s| g.integers(-9, 1000, s, DType::I16)),
    ];
    for (name, draw) in draws {
        for shape in [vec![7usize, 5], vec![1, 9], vec![4, 3, 6]] {
            for p in [Placement::Sharded(0), Placement::Sharded(1), Placement::Replicated] {
                let mut g = xp::on(dev).default_rng(21);
                let x = ShardedArray::random_with(comm, &mut g, &shape, p, draw)?;
                let second = g.random([3], DType::F64)?;
                let mut one = xp::on(dev).default_rng(21);
                let want = draw(&mut one, &shape)?;
                if x.placement() != p || !close(&x.all_gather()?, &want) {
                    return fail(r, &format!("{name} {shape:?} {p:?}"));
                }
                // the generator moved on as the one-GPU draw moves it
                if !close(&second, &one.random([3], DType::F64)?) {
                    return fail(r, &format!("the generator's state after {name} {shape:?} {p:?}"));
                }
            }
        }
    }
    Ok(())
}

/// Between every pair of placements of a 3-D array, dtypes whose padding differs.
fn reshard(comm: &Communicator) -> xp::Result<()> {
    let (r, dev) = (comm.rank(), comm.device());
    let g = xp::on(dev);
    let base = g.arange(0.0, 210.0, 1.0, Some(DType::F64))?.mul(0.7)?.sin()?.reshape([7, 5, 6])?;
    for dt in [DType::F64, DType::C64, DType::Bool, DType::I8] {
        let x = if dt == DType::Bool { base.gt(0.0)? } else { base.mul(50.0)?.astype(dt)? };
        let places = [Placement::Sharded(0), Placement::Sharded(1), Placement::Sharded(2), Placement::Replicated];
        for from in places {
            let sx = ShardedArray::from_root(comm, (r == 0).then_some(&x), 0, from)?;
            for to in places {
                let y = sx.reshard(to)?;
                let want = match to {
                    Placement::Sharded(a) => mine(comm, &x, a)?,
                    Placement::Replicated => x.clone(),
                };
                if y.placement() != to || !equal(y.local(), &want) || !equal(&y.all_gather()?, &x) {
                    return fail(r, &format!("reshard {dt} {from:?} → {to:?}"));
                }
            }
        }
    }
    Ok(())
}

/// FFTs along the unsharded axis; the sharded one is refused.
fn fft(comm: &Communicator) -> xp::Result<()> {
    let (r, dev) = (comm.rank(), comm.device());
    let x = xp::on(dev).arange(0.0, 56.0, 1.0, Some(DType::F64))?.mul(0.3)?.cos()?.reshape([7, 8])?;
    let sx = ShardedArray::from_root(comm, (r == 0).then_some(&x), 0, Placement::Sharded(0))?;
    let n = FftNorm::Backward;
    let f = sx.fft(None, 1, n)?;
    let rf = sx.rfft(Some(10), 1, FftNorm::Ortho)?;
    if !close(&f.all_gather()?, &xp::fft::fft(&x, None, 1, n)?)
        || !close(&f.ifft(None, 1, n)?.all_gather()?, &xp::fft::ifft(&xp::fft::fft(&x, None, 1, n)?, None, 1, n)?)
        || rf.shape() != [7, 6]
        || !close(&rf.all_gather()?, &xp::fft::rfft(&x, Some(10), 1, FftNorm::Ortho)?)
        || !close(
            &rf.irfft(Some(10), 1, FftNorm::Ortho)?.all_gather()?,
            &xp::fft::irfft(&xp::fft::rfft(&x, Some(10), 1, FftNorm::Ortho)?, Some(10), 1, FftNorm::Ortho)?,
        )
    {
        return fail(r, "fft along axis 1");
    }
    match sx.fft(None, 0, n) {
        Err(Error::InvalidArgument { .. }) => Ok(()),
        other => Err(Error::invalid("sharded_more", format!("an FFT along the sharded axis gave {other:?}"))),
    }
}

/// Per-rank `.npy` files: written and read back; a missing file fails on every rank.
fn files(comm: &Communicator) -> xp::Result<()> {
    let (r, n, dev) = (comm.rank(), comm.size(), comm.device());
    let dir =
        std::env::temp_dir().join(format!("xp-dist-files-{}", std::env::var("XP_MASTER_PORT").unwrap_or_default()));
    std::fs::create_dir_all(&dir).map_err(|e| Error::invalid("files", e.to_string()))?;
    let stem = dir.join("x");
    let x = xp::on(dev).arange(0.0, 35.0, 1.0, Some(DType::I32))?.reshape([7, 5])?;
    let sx = ShardedArray::from_root(comm, (r == 0).then_some(&x), 0, Placement::Sharded(1))?;
    sx.save(&stem)?;
    let path = xp::dist::shard_path(&stem, r, n);
    if !equal(&xp::load(&path)?, &mine(comm, &x, 1)?) {
        return fail(r, "the saved piece");
    }
    let back = ShardedArray::load(comm, &stem, Placement::Sharded(1))?;
    if back.shape() != [7, 5] || !equal(&back.all_gather()?, &x) {
        return fail(r, "save then load");
    }
    // rank 1's file is gone: rank 1 sees its own error, every other rank a typed failure
    comm.barrier()?;
    if r == 1 {
        std::fs::remove_file(&path).map_err(|e| Error::invalid("files", e.to_string()))?;
    }
    comm.barrier()?;
    match (r, ShardedArray::load(comm, &stem, Placement::Sharded(1))) {
        (1, Err(Error::Io { .. })) | (0, Err(Error::Dist { kind: DistKind::Rendezvous { .. }, .. })) => Ok(()),
        (_, other) => Err(Error::invalid("files", format!("rank {r}: a missing piece gave {other:?}"))),
    }
}

/// The 5-point Poisson matrix of a `k × k` grid, built on the host from its triplets.
fn poisson(k: usize, dev: xp::Device) -> xp::Result<CsrArray> {
    let (mut v, mut i, mut j) = (Vec::new(), Vec::new(), Vec::new());
    for row in 0..k * k {
        let (a, b) = (row / k, row % k);
        let mut put = |c: usize, x: f64| {
            v.push(x);
            i.push(row as i64);
            j.push(c as i64);
        };
        put(row, 4.0);
        if a > 0 {
            put(row - k, -1.0)
        }
        if a + 1 < k {
            put(row + k, -1.0)
        }
        if b > 0 {
            put(row - 1, -1.0)
        }
        if b + 1 < k {
            put(row + 1, -1.0)
        }
    }
    let g = xp::on(dev);
    let nnz = v.len();
    CsrArray::from_triplets(&g.asarray(v, [nnz])?, &g.asarray(i, [nnz])?, &g.asarray(j, [nnz])?, [k * k, k * k])
}

/// The product by halo exchange and CG against one GPU's.
fn csr(comm: &Communicator) -> xp::Result<()> {
    let (r, dev) = (comm.rank(), comm.device());
    let g = xp::on(dev);
    // a rectangular matrix with scattered columns: every rank needs entries of every other
    let (m, cols) = (29usize, 37usize);
    let dense = g.arange(0.0, (m * cols) as f64, 1.0, Some(DType::F64))?.mul(1.3)?.sin()?.reshape([m, cols])?;
    let dense = dense.mul(&dense.gt(0.6)?.astype(DType::F64)?)?;
    let a = CsrArray::from_dense(&dense)?;
    let x = g.arange(0.0, cols as f64, 1.0, Some(DType::F64))?.mul(0.1)?.cos()?;
    let sa = ShardedCsr::from_root(comm, (r == 0).then_some(&a), 0)?;
    let rows = CsrArray::from_dense(&mine(comm, &dense, 0)?)?;
    let sb = ShardedCsr::from_local(comm, &rows)?;
    let sxv = ShardedArray::from_root(comm, (r == 0).then_some(&x), 0, Placement::Sharded(0))?;
    for (how, s) in [("from_root", &sa), ("from_local", &sb)] {
        let y = s.matvec(&sxv)?;
        if s.shape() != [m, cols] || s.halo() == 0 || !close(&y.all_gather()?, &a.matmul(&x)?) {
            return fail(r, &format!("ShardedCsr::{how} matvec"));
        }
    }
    // a vector of the wrong length is refused
    if sa
        .matvec(&ShardedArray::from_root(comm, (r == 0).then_some(&x.slice(xp::s![..30])?), 0, Placement::Sharded(0))?)
        .is_ok()
    {
        return fail(r, "a short x was taken");
    }
    // CG on the Poisson matrix of a 24 × 24 grid, against the one-GPU cg
    let p = poisson(24, dev)?;
    let n = 24 * 24;
    let b = g.arange(0.0, n as f64, 1.0, Some(DType::F64))?.mul(0.05)?.sin()?;
    let sp = ShardedCsr::from_root(comm, (r == 0).then_some(&p), 0)?;
    let sbv = ShardedArray::from_root(comm, (r == 0).then_some(&b), 0, Placement::Sharded(0))?;
    let opts = || Krylov { rtol: 1e-10, ..Default::default() };
    let got = cg(&sp, &sbv, opts())?;
    let want = xp::sparse::linalg::cg(&p, &b, opts())?;
    let res = xp::linalg::norm(&b.sub(&p.matmul(&got.x.all_gather()?)?)?, None, ..)?.to_f64()?;
    let bn = xp::linalg::norm(&b, None, ..)?.to_f64()?;
    let xd = xp::linalg::norm(&got.x.all_gather()?.sub(&want.x)?, None, ..)?.to_f64()?;
    if !got.converged()
        || res > 1e-10 * bn * 1.01
        || got.iterations.abs_diff(want.iterations) > 2
        || xd > 1e-8 * xp::linalg::norm(&want.x, None, ..)?.to_f64()?
    {
        return fail(
            r,
            &format!("cg: {} vs {} iterations, residual {res:e}, distance {xd:e}", got.iterations, want.iterations),
        );
    }
    // with a first guess (this rank's block of the answer): done at once
    let x0 = got.x.local().clone();
    let again = cg(&sp, &sbv, Krylov { x0: Some(&x0), ..opts() })?;
    if again.iterations > 1 || !again.converged() {
        return fail(r, "cg from its answer");
    }
    Ok(())
}
