//! `xp::dist` over MPI (the `mpi` feature): this binary runs itself as two ranks under
//! `mpiexec` (`XP_MPIEXEC`, else `mpiexec` on the `PATH`; skipped when there is none) and checks,
//! on every rank, the world MPI reports against the launcher's variables, a broadcast, the
//! agreement on a failure (the lowest failing rank's reason, typed, everywhere) and the check
//! that ranks call the same operation. On a machine with a GPU per rank it also makes the NCCL
//! communicator through MPI (`dist::init`) and runs an all-reduce.
#![cfg(feature = "mpi")]
use std::process::Command;
use xp::dist::{Launch, Launcher, MpiWorld, ReduceOp};
use xp::{DType, DistKind, Error};

fn child() -> xp::Result<()> {
    let launch = Launch::from_env()?;
    if !matches!(launch.launcher, Launcher::Mpich | Launcher::OpenMpi) {
        return Err(Error::invalid("dist_mpi", format!("launched by {:?}", launch.launcher)));
    }
    let mut w = MpiWorld::join()?;
    let (r, n) = (w.rank(), w.size());
    let bad = |what: String| Err(Error::invalid("dist_mpi", format!("rank {r}: {what}")));
    if (r, n) != (launch.rank, launch.world_size) || n != 2 {
        return bad(format!("MPI says rank {r} of {n}, the launcher {} of {}", launch.rank, launch.world_size));
    }
    let got = w.broadcast(if r == 0 { b"from rank 0, 24 bytes!!!" } else { b"" })?;
    if got != b"from rank 0, 24 bytes!!!" {
        return bad(format!("broadcast gave {got:?}"));
    }
    w.agree(Ok(()))?;
    let mine = if r == 1 { Err(DistKind::Rendezvous { what: "rank 1 could not".into() }) } else { Ok(()) };
    match w.agree(mine) {
        Err(Error::Dist { kind: DistKind::Rendezvous { what }, .. }) if what.contains("rank 1 could not") => {}
        other => return bad(format!("a failure on rank 1 gave {other:?}")),
    }
    w.same("all_reduce of f32 [4]")?;
    match w.same(if r == 0 { "all_reduce of f32 [4]" } else { "all_reduce of f32 [5]" }) {
        Err(Error::Dist { kind: DistKind::Mismatch { .. }, .. }) => {}
        other => return bad(format!("different calls gave {other:?}")),
    }
    drop(w);
    // the whole path on GPUs: the NCCL id over MPI, then a collective
    if xp::cuda::device_count() >= n {
        let comm = xp::dist::init()?;
        let x = xp::on(comm.device()).full([1000], (r + 1) as f64, DType::F32)?;
        let s = comm.all_reduce(&x, ReduceOp::Sum)?.to_vec::<f32>()?;
        if s.iter().any(|&v| v != 3.0) {
            return bad("the all-reduce over an MPI-made communicator".into());
        }
        // the per-collective check goes through MPI too
        let y = xp::on(comm.device()).ones([10 + r], DType::F32)?;
        match comm.all_reduce(&y, ReduceOp::Sum) {
            Err(Error::Dist { kind: DistKind::Mismatch { .. }, .. }) => {}
            other => return bad(format!("different shapes over MPI gave {other:?}")),
        }
        eprintln!("rank {r}: NCCL over MPI checked");
    }
    Ok(())
}

#[test]
fn dist_mpi() {
    if std::env::var_os("XP_MPI_CHILD").is_some() {
        if let Err(e) = child() {
            eprintln!("rank failed: {e}");
            std::process::exit(3);
        }
        return;
    }
    // XP_MPIEXEC: the launcher and any arguments of its own (`mpiexec --allow-run-as-root`)
    let mpiexec = std::env::var("XP_MPIEXEC").unwrap_or_else(|_| "mpiexec".into());
    let mut words = mpiexec.split_whitespace();
    let exe = std::env::current_exe().unwrap();
    let out = Command::new(words.next().unwrap_or("mpiexec"))
        .args(words)
        .args(["-n", "2"])
        .arg(&exe)
        .args(["--exact", "dist_mpi", "--nocapture", "--test-threads", "1"])
        .env("XP_MPI_CHILD", "1")
        // Open MPI refuses root unless told, and two ranks may outnumber the cores
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .env("OMPI_MCA_rmaps_base_oversubscribe", "1")
        .output();
    match out {
        Err(e) => {
            assert!(std::env::var_os("XP_MPIEXEC").is_none(), "XP_MPIEXEC={mpiexec} cannot start: {e}");
            eprintln!("dist_mpi: no mpiexec ({e}), skipped");
        }
        Ok(o) => assert!(
            o.status.success(),
            "under {mpiexec}: {}\n{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        ),
    }
}
