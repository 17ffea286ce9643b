//! `xp::dist` on GPUs: every collective and dtype through communicators of one process
//! (`Communicator::local`, every GPU present) against the same computation by xp's operations
//! on one GPU; then the same program as two processes started through torchrun's and Slurm's
//! environment variables (this binary runs itself as each rank), a rank that never arrives and
//! ranks that call a collective on different shapes (typed errors, not hangs).
//!
//! A test binary of its own: the ranks are processes, and NCCL's communicators want the GPUs
//! to themselves while they run. Without two GPUs the multi-process part is skipped.
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use xp::dist::{self, Communicator, ReduceOp};
use xp::{Array, DType, Device, DistKind, Error};

const OPS: [ReduceOp; 5] = [ReduceOp::Sum, ReduceOp::Prod, ReduceOp::Max, ReduceOp::Min, ReduceOp::Avg];

#[path = "dist_gpu/more.rs"]
mod more;

/// Rank `r`'s operand: small values whose sums and products are exact in every dtype.
fn operand(r: usize, shape: &[usize], dt: DType, dev: Device) -> Array {
    let n: usize = shape.iter().product();
    let v: Vec<f64> = (0..n).map(|i| ((i + r) % 3 + 1) as f64).collect();
    let a = Array::from_vec(v, [n]).unwrap().reshape(shape.iter().map(|&s| s as isize).collect::<Vec<_>>()).unwrap();
    let a = if dt == DType::Bool { a.eq(2.0).unwrap() } else { a.astype(dt).unwrap() };
    a.to_device(dev).unwrap()
}

/// The reduction by xp's own operations (NumPy's meaning for every dtype).
fn reduced(parts: &[Array], op: ReduceOp) -> Array {
    let mut acc = parts[0].clone();
    for p in &parts[1..] {
        acc = match op {
            ReduceOp::Sum | ReduceOp::Avg => acc.add(p),
            ReduceOp::Prod => acc.mul(p),
            ReduceOp::Max => xp::maximum(&acc, p),
            ReduceOp::Min => xp::minimum(&acc, p),
        }
        .unwrap();
    }
    if op == ReduceOp::Avg {
        acc = acc.div(parts.len() as f64).unwrap().astype(parts[0].dtype()).unwrap();
    }
    acc
}

/// Exact equality after both go to the host as complex128.
fn same(a: &Array, b: &Array) -> bool {
    let host =
        |x: &Array| x.to_device(Device::Cpu).unwrap().astype(DType::C128).unwrap().to_vec::<xp::Complex64>().unwrap();
    a.shape() == b.shape() && a.dtype() == b.dtype() && host(a) == host(b)
}

fn refused(dt: DType, op: ReduceOp) -> bool {
    matches!(dt, DType::I16 | DType::U16)
        || (op == ReduceOp::Avg && !dt.is_inexact())
        || (dt.is_complex() && matches!(op, ReduceOp::Prod | ReduceOp::Max | ReduceOp::Min))
}

/// Every collective and dtype through one process's communicators, one per GPU.
fn local(gpus: usize) {
    let devs: Vec<Device> = (0..gpus).map(Device::Cuda).collect();
    let comms = Communicator::local(&devs).unwrap();
    let n = comms.len();
    let one = Device::Cuda(0);
    let mut failures = Vec::new();
    let mut check = |ok: bool, what: String| {
        if !ok {
            failures.push(what);
        }
    };
    for dt in DType::ALL {
        let shape = [3usize, 5];
        let xs: Vec<Array> = (0..n).map(|r| operand(r, &shape, dt, devs[r])).collect();
        let on_one: Vec<Array> = xs.iter().map(|x| x.to_device(one).unwrap()).collect();
        for op in OPS {
            let got =
                dist::group(|| comms.iter().zip(&xs).map(|(c, x)| c.all_reduce(x, op)).collect::<xp::Result<Vec<_>>>());
            match got {
                Err(Error::InvalidDType { .. }) if refused(dt, op) => {}
                Err(e) => check(false, format!("all_reduce {op:?} {dt}: {e}")),
                Ok(_) if refused(dt, op) => check(false, format!("all_reduce {op:?} {dt}: NCCL cannot, yet no error")),
                Ok(got) => {
                    let want = reduced(&on_one, op);
                    for (r, g) in got.iter().enumerate() {
                        check(g.device() == devs[r] && same(g, &want), format!("all_reduce {op:?} {dt} on rank {r}"));
                    }
                }
            }
        }
        // broadcast from the last rank; reduce (sum) to rank 0
        let root = n - 1;
        let got =
            dist::group(|| comms.iter().zip(&xs).map(|(c, x)| c.broadcast(x, root)).collect::<xp::Result<Vec<_>>>());
        for (r, g) in got.unwrap().iter().enumerate() {
            check(same(g, &on_one[root]), format!("broadcast {dt} on rank {r}"));
        }
        if !refused(dt, ReduceOp::Sum) {
            let got = dist::group(|| {
                comms.iter().zip(&xs).map(|(c, x)| c.reduce(x, ReduceOp::Sum, 0)).collect::<xp::Result<Vec<_>>>()
            });
            let got = got.unwrap();
            check(got[0].as_ref().is_some_and(|g| same(g, &reduced(&on_one, ReduceOp::Sum))), format!("reduce {dt}"));
            check(got[1..].iter().all(Option::is_none), format!("reduce {dt}: a result off the root"));
        }
        // all_gather and gather stack the ranks' arrays
        let stacked = xp::stack(&on_one.iter().collect::<Vec<_>>(), 0).unwrap();
        let got = dist::group(|| comms.iter().zip(&xs).map(|(c, x)| c.all_gather(x)).collect::<xp::Result<Vec<_>>>());
        for (r, g) in got.unwrap().iter().enumerate() {
            check(same(g, &stacked), format!("all_gather {dt} on rank {r}"));
        }
        let got = dist::group(|| comms.iter().zip(&xs).map(|(c, x)| c.gather(x, root)).collect::<xp::Result<Vec<_>>>());
        let got = got.unwrap();
        check(got[root].as_ref().is_some_and(|g| same(g, &stacked)), format!("gather {dt}"));
        // pieces (size, 3, 5): reduce_scatter, all_to_all, scatter
        let pieces: Vec<Array> = (0..n).map(|r| operand(r, &[n, 3, 5], dt, devs[r])).collect();
        let pieces_one: Vec<Array> = pieces.iter().map(|x| x.to_device(one).unwrap()).collect();
        if !refused(dt, ReduceOp::Sum) {
            let got = dist::group(|| {
                comms
                    .iter()
                    .zip(&pieces)
                    .map(|(c, x)| c.reduce_scatter(x, ReduceOp::Sum))
                    .collect::<xp::Result<Vec<_>>>()
            });
            let want = reduced(&pieces_one, ReduceOp::Sum);
            for (r, g) in got.unwrap().iter().enumerate() {
                check(same(g, &want.slice(xp::s![r as isize]).unwrap()), format!("reduce_scatter {dt} on rank {r}"));
            }
        }
        let got =
            dist::group(|| comms.iter().zip(&pieces).map(|(c, x)| c.all_to_all(x)).collect::<xp::Result<Vec<_>>>());
        for (r, g) in got.unwrap().iter().enumerate() {
            let want: Vec<Array> = pieces_one.iter().map(|p| p.slice(xp::s![r as isize]).unwrap()).collect();
            check(
                same(g, &xp::stack(&want.iter().collect::<Vec<_>>(), 0).unwrap()),
                format!("all_to_all {dt} on rank {r}"),
            );
        }
        let got = dist::group(|| {
            comms
                .iter()
                .map(|c| c.scatter((c.rank() == 0).then_some(&pieces[0]), 0, &[3, 5], dt))
                .collect::<xp::Result<Vec<_>>>()
        });
        for (r, g) in got.unwrap().iter().enumerate() {
            check(same(g, &pieces_one[0].slice(xp::s![r as isize]).unwrap()), format!("scatter {dt} on rank {r}"));
        }
        // a ring of sends and receives, each rank's x to the next
        let got = dist::group(|| {
            let mut out = Vec::new();
            for (r, c) in comms.iter().enumerate() {
                c.send(&xs[r], (r + 1) % n)?;
                out.push(c.recv(&shape, dt, (r + n - 1) % n)?);
            }
            Ok(out)
        });
        for (r, g) in got.unwrap().iter().enumerate() {
            check(same(g, &on_one[(r + n - 1) % n]), format!("send/recv {dt} on rank {r}"));
        }
    }
    // a view (strided) travels as its values
    let xs: Vec<Array> =
        (0..n).map(|r| operand(r, &[6, 4], DType::F32, devs[r]).slice(xp::s![..;2, 1..]).unwrap()).collect();
    let got = dist::group(|| {
        comms.iter().zip(&xs).map(|(c, x)| c.all_reduce(x, ReduceOp::Sum)).collect::<xp::Result<Vec<_>>>()
    });
    let want = reduced(&xs.iter().map(|x| x.to_device(one).unwrap()).collect::<Vec<_>>(), ReduceOp::Sum);
    check(same(&got.unwrap()[0], &want), "all_reduce of a strided view".into());
    // all_reduce_out: into a whole array, in place (out = x), into a strided view of a bigger
    // array (the rest of which stays as it was); a wrong shape or dtype is refused, out untouched
    let xs: Vec<Array> = (0..n).map(|r| operand(r, &[6, 4], DType::F32, devs[r])).collect();
    let want = reduced(&xs.iter().map(|x| x.to_device(one).unwrap()).collect::<Vec<_>>(), ReduceOp::Sum);
    let fresh: Vec<Array> = devs.iter().map(|&d| xp::on(d).zeros([6, 4], DType::F32).unwrap()).collect();
    let inplace: Vec<Array> = xs.iter().map(|x| x.copy().unwrap()).collect();
    let big: Vec<Array> = devs.iter().map(|&d| xp::on(d).full([12, 5], -1.0, DType::F32).unwrap()).collect();
    let views: Vec<Array> = big.iter().map(|b| b.slice(xp::s![..;2, 1..]).unwrap()).collect();
    dist::group(|| {
        for r in 0..n {
            comms[r].all_reduce_out(&xs[r], ReduceOp::Sum, &fresh[r])?;
            comms[r].all_reduce_out(&inplace[r], ReduceOp::Sum, &inplace[r])?;
            comms[r].all_reduce_out(&xs[r], ReduceOp::Sum, &views[r])?;
        }
        Ok(())
    })
    .unwrap();
    for r in 0..n {
        check(same(&fresh[r], &want), format!("all_reduce_out into a fresh array, rank {r}"));
        check(same(&inplace[r], &want), format!("all_reduce_out in place, rank {r}"));
        check(same(&views[r], &want), format!("all_reduce_out into a view, rank {r}"));
        let rest = big[r].slice(xp::s![1..;2, ..]).unwrap();
        check(same(&rest, &xp::on(one).full([6, 5], -1.0, DType::F32).unwrap()), format!("rest of the view, rank {r}"));
    }
    let wrong = xp::on(devs[0]).zeros([6, 4], DType::F64).unwrap();
    check(
        matches!(comms[0].all_reduce_out(&xs[0], ReduceOp::Sum, &wrong), Err(Error::InvalidArgument { .. })),
        "all_reduce_out dtype".into(),
    );
    let wrong = xp::on(devs[0]).zeros([4, 6], DType::F32).unwrap();
    check(
        matches!(comms[0].all_reduce_out(&xs[0], ReduceOp::Sum, &wrong), Err(Error::ShapeMismatch { .. })),
        "all_reduce_out shape".into(),
    );
    check(
        same(&wrong, &xp::on(one).zeros([4, 6], DType::F32).unwrap()),
        "all_reduce_out refused, out untouched".into(),
    );
    // typed errors: outside a group (several GPUs), another device, a rank out of range
    let x0 = operand(0, &[4], DType::F32, devs[0]);
    if n > 1 {
        check(
            matches!(comms[0].all_reduce(&x0, ReduceOp::Sum), Err(Error::InvalidArgument { .. })),
            "outside a group".into(),
        );
        check(
            matches!(dist::group(|| comms[1].all_reduce(&x0, ReduceOp::Sum)), Err(Error::DeviceMismatch { .. })),
            "device".into(),
        );
    }
    check(dist::group(|| comms[0].broadcast(&x0, n)).is_err(), "root out of range".into());
    for c in &comms {
        c.synchronize().unwrap();
    }
    // the SPMD program of the processes below, each rank on a thread of this process
    if n > 1 {
        let got = dist::spmd(&comms, |c| sharded(c).and_then(|()| more::run(c)));
        check(got.is_ok(), format!("ShardedArray on threads (dist::spmd): {got:?}"));
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

/// What a child process does as one rank (`XP_DIST_CHILD` names the scenario).
fn child(scenario: &str) {
    if scenario == "lost" {
        return lost();
    }
    let result = (|| -> xp::Result<()> {
        let comm = dist::init()?;
        let (r, n) = (comm.rank(), comm.size());
        match scenario {
            "collectives" => {
                for dt in [DType::F32, DType::I64, DType::C128, DType::Bool] {
                    let x = operand(r, &[1000], dt, comm.device());
                    let got = comm.all_reduce(&x, ReduceOp::Sum)?;
                    let all: Vec<Array> = (0..n).map(|k| operand(k, &[1000], dt, comm.device())).collect();
                    if !same(&got, &reduced(&all, ReduceOp::Sum)) {
                        return Err(Error::invalid("child", format!("all_reduce {dt} differs on rank {r}")));
                    }
                    let g = comm.all_gather(&x)?;
                    if !same(&g, &xp::stack(&all.iter().collect::<Vec<_>>(), 0)?) {
                        return Err(Error::invalid("child", format!("all_gather {dt} differs on rank {r}")));
                    }
                }
                comm.barrier()?;
                // ranks that disagree on a shape: a typed mismatch on every rank, no hang
                let x = operand(r, &[10 + r], DType::F32, comm.device());
                match comm.all_reduce(&x, ReduceOp::Sum) {
                    Err(Error::Dist { kind: DistKind::Mismatch { .. }, .. }) => Ok(()),
                    other => Err(Error::invalid("child", format!("shapes differ, got {other:?}"))),
                }
            }
            "sharded" => sharded(&comm).and_then(|()| more::run(&comm)),
            other => Err(Error::invalid("child", format!("no scenario {other}"))),
        }
    })();
    if let Err(e) = result {
        eprintln!("rank failed: {e}");
        std::process::exit(3);
    }
}

/// A peer lost during a collective: rank 1 leaves after joining; rank 0's all-reduce never
/// completes, and its watchdog aborts the communicator within the timeout, so that reading
/// the result returns and the next call is a typed error (no per-call check: `verify` off, so
/// that only NCCL could notice).
fn lost() {
    let launch = dist::Launch::from_env().unwrap();
    // a short timeout (XP_TEST_LOST_TIMEOUT seconds, 3 by default; longer under a sanitizer,
    // where making the communicator alone takes longer than that)
    let secs = std::env::var("XP_TEST_LOST_TIMEOUT").ok().and_then(|v| v.parse().ok()).unwrap_or(3);
    let opts = dist::Options { timeout: Duration::from_secs(secs), verify: false };
    let comm = dist::init_with(&launch, Device::Cuda(launch.local_rank), &opts).unwrap();
    // one collective together (NCCL's connections are made), then rank 1 is gone
    let x = operand(0, &[1 << 20], DType::F32, comm.device());
    comm.all_reduce(&x, ReduceOp::Sum).unwrap();
    comm.synchronize().unwrap();
    if comm.rank() == 1 {
        std::process::exit(0);
    }
    std::thread::sleep(Duration::from_millis(500));
    let r = (|| -> xp::Result<()> {
        let y = comm.all_reduce(&x, ReduceOp::Sum)?;
        // without the watchdog this read waits for rank 1 for ever
        let _ = y.to_vec::<f32>();
        comm.all_reduce(&x, ReduceOp::Sum)?;
        comm.synchronize()
    })();
    match r {
        Err(e @ Error::Dist { .. }) => {
            eprintln!("rank failed: {e}");
            std::process::exit(3);
        }
        other => {
            eprintln!("after a lost peer: {other:?}");
            std::process::exit(4);
        }
    }
}

/// Values equal to 1e-12 (relative; sums run in another order), or exactly for integers.
fn close(a: &Array, b: &Array) -> bool {
    let host = |x: &Array| x.to_device(Device::Cpu).unwrap().astype(DType::F64).unwrap().to_vec::<f64>().unwrap();
    let (x, y) = (host(a), host(b));
    a.shape() == b.shape() && x.iter().zip(&y).all(|(p, q)| (p - q).abs() <= 1e-12 * q.abs().max(1.0))
}

/// Every `ShardedArray` operation of a 7 × 5 array over the ranks against the same on the
/// whole array.
fn sharded(comm: &Communicator) -> xp::Result<()> {
    use xp::dist::{block, Placement, ShardedArray};
    let (r, n, dev) = (comm.rank(), comm.size(), comm.device());
    let g = xp::on(dev);
    let x = g.arange(0.0, 35.0, 1.0, Some(DType::F64))?.mul(0.37)?.sin()?.reshape([7, 5])?;
    let fail = |what: &str| Err(Error::invalid("sharded", format!("{what} differs on rank {r}")));
    let rows = |a: &Array, axis: isize, len: usize| -> xp::Result<Array> {
        let (s, e) = block(len, n, r);
        a.take(&g.arange(s as f64, e as f64, 1.0, Some(DType::I64))?, Some(axis))
    };
    let sx = ShardedArray::from_root(comm, (r == 0).then_some(&x), 0, Placement::Sharded(0))?;
    if sx.shape() != [7, 5] || !close(sx.local(), &rows(&x, 0, 7)?) || !close(&sx.all_gather()?, &x) {
        return fail("from_root / all_gather");
    }
    let sl = ShardedArray::from_local(comm, rows(&x, 0, 7)?, Placement::Sharded(0))?;
    if sl.shape() != [7, 5] || !close(&sl.all_gather()?, &x) {
        return fail("from_local");
    }
    let v = ShardedArray::from_local(comm, g.arange(1.0, 6.0, 1.0, Some(DType::F64))?, Placement::Replicated)?;
    let c = ShardedArray::from_local(
        comm,
        g.arange(1.0, 8.0, 1.0, Some(DType::F64))?.reshape([7, 1])?,
        Placement::Replicated,
    )?;
    if !close(&sx.zip(&v, |a, b| a.add(b))?.all_gather()?, &x.add(v.local())?)
        || !close(&sx.zip(&c, |a, b| a.mul(b))?.all_gather()?, &x.mul(c.local())?)
        || !close(&sx.zip(&sl, |a, b| a.sub(b))?.all_gather()?, &x.sub(&x)?)
        || !close(&sx.map(|a| a.exp())?.all_gather()?, &x.exp()?)
    {
        return fail("element-wise");
    }
    for axis in [None, Some(0), Some(1)] {
        let ax = axis.map(|a| a as isize);
        let checks = [
            ("sum", sx.sum(axis)?, x.sum(ax)?),
            ("max", sx.max(axis)?, x.max(ax)?),
            ("min", sx.min(axis)?, x.min(ax)?),
            ("mean", sx.mean(axis)?, x.mean(ax)?),
            ("argmax", sx.argmax(axis)?, x.argmax(ax)?),
            ("argmin", sx.argmin(axis)?, x.argmin(ax)?),
        ];
        for (name, got, want) in checks {
            if !close(&got.all_gather()?, &want) {
                return fail(&format!("{name} over {axis:?}"));
            }
        }
        let var = x.var_with(ax, xp::Var { ddof: 1, keepdims: false })?;
        if !close(&sx.var(axis, 1)?.all_gather()?, &var) || !close(&sx.std(axis, 1)?.all_gather()?, &var.sqrt()?) {
            return fail(&format!("var/std over {axis:?}"));
        }
        let b = sx.map(|a| a.gt(0.0))?;
        if !close(&b.any(axis)?.all_gather()?, &x.gt(0.0)?.any(ax)?)
            || !close(&b.all(axis)?.all_gather()?, &x.gt(0.0)?.all(ax)?)
        {
            return fail(&format!("any/all over {axis:?}"));
        }
    }
    let w = g.arange(0.0, 15.0, 1.0, Some(DType::F64))?.reshape([5, 3])?;
    let sw = ShardedArray::from_local(comm, w.clone(), Placement::Replicated)?;
    if !close(&sx.matmul(&sw)?.all_gather()?, &x.matmul(&w)?)
        || !close(&sx.t_matmul(&sx)?.all_gather()?, &x.t()?.matmul(&x)?)
    {
        return fail("matmul");
    }
    let cols = sx.reshard(Placement::Sharded(1))?;
    if !close(cols.local(), &rows(&x, 1, 5)?) || !close(&cols.reshard(Placement::Sharded(0))?.all_gather()?, &x) {
        return fail("reshard");
    }
    let got = sx.gather(0)?;
    if (r == 0) != got.is_some() || got.is_some_and(|a| !close(&a, &x)) {
        return fail("gather");
    }
    Ok(())
}

/// Starts `ranks` of a world of `world` as children with `env(rank)`, each given `limit`;
/// their exit codes and output.
fn spawn(
    world: usize,
    ranks: &[usize],
    env: impl Fn(usize) -> Vec<(String, String)>,
    limit: Duration,
) -> Vec<(i32, String)> {
    spawn_as("collectives", world, ranks, env, limit)
}

fn spawn_as(
    scenario: &str,
    world: usize,
    ranks: &[usize],
    env: impl Fn(usize) -> Vec<(String, String)>,
    limit: Duration,
) -> Vec<(i32, String)> {
    let exe = std::env::current_exe().unwrap();
    let mut kids: Vec<_> = ranks
        .iter()
        .map(|&r| {
            let mut c = Command::new(&exe);
            c.args(["--exact", "dist_gpu", "--nocapture", "--test-threads", "1"])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
            for (k, v) in env(r) {
                c.env(k, v);
            }
            c.env("XP_DIST_CHILD", scenario).env("NCCL_NVLS_ENABLE", "0").env("WORLD", world.to_string());
            c.spawn().unwrap()
        })
        .collect();
    let t0 = Instant::now();
    let mut out = Vec::new();
    for k in kids.iter_mut() {
        loop {
            if let Some(st) = k.try_wait().unwrap() {
                let mut text = String::new();
                use std::io::Read;
                if let Some(mut e) = k.stderr.take() {
                    let _ = e.read_to_string(&mut text);
                }
                out.push((st.code().unwrap_or(-1), text));
                break;
            }
            if t0.elapsed() > limit {
                let _ = k.kill();
                out.push((-9, "killed: hung".into()));
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    out
}

/// xp's own launch variables for rank `r` of 2 on `port`.
fn xpvars_at(r: usize, port: &str) -> Vec<(String, String)> {
    vec![
        ("XP_RANK".into(), r.to_string()),
        ("XP_WORLD_SIZE".into(), "2".into()),
        ("XP_LOCAL_RANK".into(), r.to_string()),
        ("XP_MASTER_PORT".into(), port.to_string()),
    ]
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn processes() {
    let port = free_port().to_string();
    let torch = |r: usize| {
        [("RANK", r.to_string()), ("WORLD_SIZE", "2".into()), ("LOCAL_RANK", r.to_string())]
            .into_iter()
            .chain([("MASTER_ADDR", "127.0.0.1".into()), ("MASTER_PORT", port.clone())])
            .map(|(k, v)| (k.to_string(), v))
            .collect()
    };
    for (r, (code, err)) in spawn(2, &[0, 1], torch, Duration::from_secs(120)).into_iter().enumerate() {
        assert_eq!(code, 0, "torchrun rank {r}: {err}");
    }
    let port = free_port().to_string();
    let slurm = |r: usize| {
        [("SLURM_PROCID", r.to_string()), ("SLURM_NTASKS", "2".into()), ("SLURM_LOCALID", r.to_string())]
            .into_iter()
            .chain([("SLURM_JOB_NODELIST", "localhost".into()), ("MASTER_PORT", port.clone())])
            .map(|(k, v)| (k.to_string(), v))
            .collect()
    };
    for (r, (code, err)) in spawn(2, &[0, 1], slurm, Duration::from_secs(120)).into_iter().enumerate() {
        assert_eq!(code, 0, "Slurm rank {r}: {err}");
    }
    let port = free_port().to_string();
    let xpvars = |r: usize| xpvars_at(r, &port);
    for (r, (code, err)) in spawn_as("sharded", 2, &[0, 1], xpvars, Duration::from_secs(180)).into_iter().enumerate() {
        assert_eq!(code, 0, "ShardedArray rank {r}: {err}");
    }
    // rank 1 leaves during a collective: rank 0's watchdog ends the wait, a typed error follows
    let port = free_port().to_string();
    let t0 = Instant::now();
    let secs: u64 = std::env::var("XP_TEST_LOST_TIMEOUT").ok().and_then(|v| v.parse().ok()).unwrap_or(3);
    let got = spawn_as("lost", 2, &[0, 1], |r| xpvars_at(r, &port), Duration::from_secs(90 + 10 * secs));
    assert!(t0.elapsed() < Duration::from_secs(60 + 5 * secs), "waited {:?}", t0.elapsed());
    assert_eq!(got[0].0, 3, "rank 0 after a lost peer: {}", got[0].1);
    // rank 1 of 2 never starts: rank 0 fails within its timeout, naming it
    let port = free_port().to_string();
    let alone = |r: usize| {
        vec![
            ("XP_RANK".into(), r.to_string()),
            ("XP_WORLD_SIZE".into(), "2".into()),
            ("XP_MASTER_PORT".into(), port.clone()),
            ("XP_DIST_TIMEOUT".into(), "3".into()),
        ]
    };
    let t0 = Instant::now();
    let got = spawn(2, &[0], alone, Duration::from_secs(60));
    assert!(t0.elapsed() < Duration::from_secs(30), "waited {:?}", t0.elapsed());
    assert_eq!(got[0].0, 3, "{}", got[0].1);
    assert!(got[0].1.contains("rank(s) [1]"), "{}", got[0].1);
}

#[test]
fn dist_gpu() {
    if let Ok(s) = std::env::var("XP_DIST_CHILD") {
        child(&s);
        return;
    }
    let gpus = xp::cuda::device_count();
    if gpus == 0 {
        assert!(std::env::var("XP_REQUIRE_CUDA").map_or(true, |v| v != "1"), "XP_REQUIRE_CUDA=1 but no GPU");
        eprintln!("dist_gpu: no GPU, skipped");
        return;
    }
    if let Err(e) = xp::dist::nccl_version() {
        panic!("NCCL is needed on a GPU machine: {e}");
    }
    local(gpus.min(2));
    if gpus >= 2 {
        processes();
    } else {
        eprintln!("dist_gpu: one GPU, the two-process part skipped");
    }
}
