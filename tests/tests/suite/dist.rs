//! `xp::dist` without a GPU: the launchers' environments, the TCP rendezvous on loopback (ranks
//! as threads) and the typed errors. The collectives themselves are checked on GPUs
//! (`tests/tests/dist_gpu.rs`).
use std::collections::HashMap;
use std::net::TcpListener;
use std::time::{Duration, Instant};
use xp::dist::{first_node, Launch, Launcher, Options, Rendezvous};
use xp::{DistKind, Error};

fn vars(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
    let m: HashMap<String, String> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    move |k| m.get(k).cloned()
}

fn kind(e: Error) -> DistKind {
    match e {
        Error::Dist { kind, .. } => kind,
        e => panic!("expected a distributed error, got {e:?}"),
    }
}

#[test]
fn launchers_are_read_in_order() {
    let torch =
        [("RANK", "3"), ("WORLD_SIZE", "8"), ("LOCAL_RANK", "1"), ("MASTER_ADDR", "10.0.0.5"), ("MASTER_PORT", "1234")];
    let l = Launch::from_vars(vars(&torch)).unwrap();
    assert_eq!(
        l,
        Launch {
            rank: 3,
            world_size: 8,
            local_rank: 1,
            addr: "10.0.0.5".into(),
            port: 1234,
            launcher: Launcher::Torchrun
        }
    );
    // xp's own variables come first, whatever else is set
    let mut both = torch.to_vec();
    both.extend([("XP_RANK", "0"), ("XP_WORLD_SIZE", "2"), ("XP_MASTER_PORT", "4000")]);
    let l = Launch::from_vars(vars(&both)).unwrap();
    assert_eq!((l.rank, l.world_size, l.local_rank, l.port, l.launcher), (0, 2, 0, 4000, Launcher::Xp));
    assert_eq!(l.addr, "127.0.0.1");
    // Slurm: the first node of the step's list, a port from the job id
    let slurm = [
        ("SLURM_PROCID", "5"),
        ("SLURM_NTASKS", "16"),
        ("SLURM_LOCALID", "1"),
        ("SLURM_STEP_NODELIST", "gpu[07-10,12],login1"),
        ("SLURM_JOB_ID", "123456"),
    ];
    let l = Launch::from_vars(vars(&slurm)).unwrap();
    assert_eq!((l.rank, l.world_size, l.local_rank, l.launcher), (5, 16, 1, Launcher::Slurm));
    assert_eq!((l.addr.as_str(), l.port), ("gpu07", 20000 + (123456 % 20000) as u16));
    let mut slurm_master = slurm.to_vec();
    slurm_master.extend([("MASTER_ADDR", "head"), ("MASTER_PORT", "7000")]);
    let l = Launch::from_vars(vars(&slurm_master)).unwrap();
    assert_eq!((l.addr.as_str(), l.port), ("head", 7000));
    // Open MPI and MPICH
    let ompi = [("OMPI_COMM_WORLD_RANK", "1"), ("OMPI_COMM_WORLD_SIZE", "2"), ("OMPI_COMM_WORLD_LOCAL_RANK", "1")];
    let l = Launch::from_vars(vars(&ompi)).unwrap();
    assert_eq!((l.rank, l.world_size, l.local_rank, l.launcher, l.port), (1, 2, 1, Launcher::OpenMpi, 29500));
    let mpich = [("PMI_RANK", "2"), ("PMI_SIZE", "4"), ("MPI_LOCALRANKID", "0"), ("MASTER_PORT", "9000")];
    let l = Launch::from_vars(vars(&mpich)).unwrap();
    assert_eq!((l.rank, l.world_size, l.launcher, l.port), (2, 4, Launcher::Mpich, 9000));
}

#[test]
fn bad_environments_are_typed() {
    let env = |pairs: &[(&str, &str)]| kind(Launch::from_vars(vars(pairs)).unwrap_err());
    assert!(matches!(env(&[]), DistKind::Environment { .. }));
    // torchrun without its rendezvous address, a rank outside the world, numbers that are not
    let cases: [&[(&str, &str)]; 4] = [
        &[("RANK", "0"), ("WORLD_SIZE", "2"), ("MASTER_PORT", "1")],
        &[("RANK", "2"), ("WORLD_SIZE", "2"), ("MASTER_ADDR", "a"), ("MASTER_PORT", "1")],
        &[("RANK", "x"), ("WORLD_SIZE", "2"), ("MASTER_ADDR", "a"), ("MASTER_PORT", "1")],
        &[("XP_RANK", "0"), ("XP_WORLD_SIZE", "2"), ("XP_MASTER_PORT", "99999")],
    ];
    for c in cases {
        match env(c) {
            DistKind::Environment { what } => assert!(!what.is_empty()),
            k => panic!("{c:?}: {k:?}"),
        }
    }
    assert!(Launch::new(2, 2, 0, "127.0.0.1", 1).is_err());
    assert_eq!(first_node("n1").unwrap(), "n1");
    assert_eq!(first_node("a[3],b[1-2]").unwrap(), "a3");
    assert_eq!(first_node("x-[001-004]-y").unwrap(), "x-001-y");
    assert!(first_node("a[").is_err());
    assert!(first_node("").is_err());
}

/// A port free on loopback now.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// Runs `f(rank)` for every rank of a world of `n` on threads; each rank's result.
fn world<T: Send + 'static>(
    n: usize,
    ranks: &[usize],
    f: impl Fn(Launch) -> T + Send + Sync + Clone + 'static,
) -> Vec<T> {
    let port = free_port();
    let threads: Vec<_> = ranks
        .iter()
        .map(|&r| {
            let f = f.clone();
            std::thread::spawn(move || f(Launch::new(r, n, r, "127.0.0.1", port).unwrap()))
        })
        .collect();
    threads.into_iter().map(|t| t.join().unwrap()).collect()
}

#[test]
fn ranks_meet_share_bytes_and_agree() {
    let out = world(3, &[0, 1, 2], |l| {
        let mut r = Rendezvous::join(&l, Duration::from_secs(20)).unwrap();
        let mine = if l.rank == 0 { b"the id".to_vec() } else { Vec::new() };
        let got = r.broadcast(&mine).unwrap();
        r.barrier().unwrap();
        r.same("all_reduce of float32 [4]").unwrap();
        // rank 2 calls something else: every rank learns who
        let what = if l.rank == 2 { "all_reduce of float32 [5]" } else { "all_reduce of float32 [4]" };
        let differ = r.same(what).unwrap_err();
        // a failure on rank 1 fails the step everywhere
        let step = r.agree(if l.rank == 1 { Err(DistKind::Aborted) } else { Ok(()) });
        (got, kind(differ), step.map_err(kind))
    });
    for (rank, (got, differ, step)) in out.into_iter().enumerate() {
        assert_eq!(got, b"the id", "rank {rank}");
        match differ {
            DistKind::Mismatch { what } => assert!(what.contains("rank 2") && what.contains("[5]"), "{what}"),
            k => panic!("rank {rank}: {k:?}"),
        }
        assert!(step.is_err(), "rank {rank}: a failed step reported as done");
    }
}

#[test]
fn a_rank_that_never_arrives_is_named() {
    let t0 = Instant::now();
    // rank 2 of 3 never starts
    let out = world(3, &[0, 1], |l| Rendezvous::join(&l, Duration::from_secs(2)).map(|_| ()).map_err(kind));
    assert!(t0.elapsed() < Duration::from_secs(15), "the rendezvous waited {:?}", t0.elapsed());
    assert_eq!(out[0], Err(DistKind::Timeout { seconds: 2, missing: vec![2] }));
    // rank 1 hears of it from rank 0 (the same kind), or times out on its own
    assert!(matches!(&out[1], Err(DistKind::Timeout { .. })), "{:?}", out[1]);
    // a world whose rank 0 never comes: the others name it
    let out = world(2, &[1], |l| Rendezvous::join(&l, Duration::from_secs(1)).map(|_| ()).map_err(kind));
    assert_eq!(out[0], Err(DistKind::Timeout { seconds: 1, missing: vec![0] }));
}

#[test]
fn ranks_that_disagree_on_the_world_fail() {
    let port = free_port();
    let a = std::thread::spawn(move || {
        Rendezvous::join(&Launch::new(0, 2, 0, "127.0.0.1", port).unwrap(), Duration::from_secs(10)).map(|_| ())
    });
    let b = std::thread::spawn(move || {
        Rendezvous::join(&Launch::new(1, 3, 0, "127.0.0.1", port).unwrap(), Duration::from_secs(10)).map(|_| ())
    });
    let (a, b) = (a.join().unwrap().map_err(kind), b.join().unwrap().map_err(kind));
    assert_eq!(a, Err(DistKind::WorldSize { expected: 2, got: 3, rank: 1 }));
    assert_eq!(b, Err(DistKind::WorldSize { expected: 2, got: 3, rank: 1 }));
}

#[test]
fn communicators_need_cuda_devices() {
    let l = Launch::new(0, 1, 0, "127.0.0.1", free_port()).unwrap();
    let e = xp::dist::init_with(&l, xp::Device::Cpu, &Options::default()).unwrap_err();
    assert!(matches!(e, Error::Unsupported { .. }), "{e:?}");
    let e = xp::dist::Communicator::local(&[xp::Device::Cpu]).unwrap_err();
    assert!(matches!(e, Error::Unsupported { .. }), "{e:?}");
    assert!(xp::dist::Communicator::local(&[]).is_err());
    if xp::cuda::device_count() == 0 {
        // no GPU: the typed error of a machine without one
        assert!(xp::dist::Communicator::local(&[xp::Device::Cuda(0)]).is_err());
    }
}
