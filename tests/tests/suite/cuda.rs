//! GPU-only behaviour (each test returns at once without a GPU, after `devices()` has reported
//! the skip or, with `XP_REQUIRE_CUDA=1`, failed): out-of-memory as a typed error that leaves the
//! inputs untouched, arrays that are `Send + Sync`, kernel warm-up (streams and 8-thread work: `streams.rs`).
use xp::{Array, DType, Device, Error};

fn gpu() -> Option<(Device, usize)> {
    xp_testing::devices().into_iter().find_map(|d| match d {
        Device::Cuda(i) => Some((d, i)),
        Device::Cpu => None,
    })
}

#[test]
fn out_of_memory_is_a_typed_error_and_the_process_goes_on() {
    let Some((dev, i)) = gpu() else { return };
    let a = xp::on(dev).arange(0, 1000, 1, Some(DType::F32)).unwrap();
    // Over a limit far above what the other tests hold at once (they run in parallel).
    xp::cuda::memory::set_limit(i, 40 << 30).unwrap();
    let e = xp::on(dev).zeros([50 << 28], DType::F32).unwrap_err();
    xp::cuda::memory::set_limit(i, usize::MAX).unwrap();
    assert!(matches!(e, Error::OutOfMemory { requested, .. } if requested == 50 << 30), "{e:?}");
    // More than the device has: the driver refuses, the pool is trimmed, the retry fails too.
    let e = xp::on(dev).zeros([1 << 38], DType::F32).unwrap_err();
    assert!(matches!(e, Error::OutOfMemory { .. }), "{e:?}");
    assert!(e.to_string().contains("requested"), "{e}");
    // The input is untouched and the next operation works.
    let s = a.sum(..).unwrap().item::<f64>().unwrap();
    assert_eq!(s, 499_500.0);
    assert!(xp::cuda::memory::used_bytes(i).unwrap() >= 4000);
    assert!(xp::cuda::memory::total_bytes(i).unwrap() >= xp::cuda::memory::used_bytes(i).unwrap());
    xp::cuda::memory::free_all_blocks(i).unwrap();
}

#[test]
fn arrays_are_send_and_sync() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Array>();
    let Some((dev, _)) = gpu() else { return };
    let a = xp::on(dev).ones([10], DType::F32).unwrap();
    let b = std::thread::spawn(move || a.sum(..).unwrap().item::<f32>().unwrap()).join().unwrap();
    assert_eq!(b, 10.0);
}

#[test]
fn warmup_compiles_ahead_of_use() {
    let Some((dev, i)) = gpu() else { return };
    xp::cuda::warmup(i, &[DType::F16, DType::I32]).unwrap();
    // Counted per thread: other tests compiling meanwhile do not disturb the check.
    let before = xp::cuda::kernels_compiled_on_this_thread();
    let a = xp::on(dev).arange(0, 8, 1, Some(DType::F16)).unwrap();
    let r = a.exp().unwrap().add(&a).unwrap().sum(..).unwrap();
    let t = a.slice(xp::s![..;2]).unwrap().tanh().unwrap().max(..).unwrap();
    let c = a.astype(DType::I32).unwrap().cumsum(..).unwrap();
    assert!(r.item::<f64>().unwrap() > 0.0 && t.item::<f64>().unwrap() > 0.0);
    assert_eq!(c.to_vec::<i64>().unwrap(), vec![0, 1, 3, 6, 10, 15, 21, 28]);
    assert_eq!(xp::cuda::kernels_compiled_on_this_thread(), before, "warmed-up operations compile nothing");
    assert_eq!(xp::cuda::warmup(i, &[DType::F16, DType::I32]).unwrap(), 0, "a second warmup compiles nothing");
}

#[test]
fn device_properties_are_what_the_driver_reports() {
    let Some((_, i)) = gpu() else {
        // Without a GPU (or a CUDA build) a typed error, never a panic.
        let e = xp::cuda::properties(0).unwrap_err();
        assert!(matches!(e, Error::NoCuda(_) | Error::CudaNotCompiled), "{e:?}");
        assert!(xp::cuda::mem_info(0).is_err());
        return;
    };
    let p = xp::cuda::properties(i).unwrap();
    eprintln!(
        "{} sm_{}{}: {} SMs, {} bytes",
        p.name, p.compute_capability.0, p.compute_capability.1, p.multiprocessor_count, p.total_memory
    );
    assert!(!p.name.is_empty());
    assert!(p.compute_capability >= (5, 0));
    let attr = |name: &str| p.attributes.iter().find(|(n, _)| *n == name).map(|&(_, v)| v);
    assert_eq!(attr("MULTIPROCESSOR_COUNT"), Some(p.multiprocessor_count));
    assert_eq!(attr("COMPUTE_CAPABILITY_MAJOR"), Some(p.compute_capability.0));
    assert_eq!(attr("WARP_SIZE"), Some(32));
    assert!(p.max_threads_per_block >= 512 && p.max_block_dim[0] >= 512 && p.max_grid_dim[0] > 65_535);
    assert!(p.shared_memory_per_block_optin >= p.shared_memory_per_block);
    let (free, total) = xp::cuda::mem_info(i).unwrap();
    assert_eq!(total, p.total_memory);
    assert!(free <= total && free > 0);
    assert!(xp::cuda::properties(999).is_err());
}

/// Every built-in kernel is named after what it does and what specialises it (readable in Nsight),
/// and one name never stands for two kernels (the loader refuses that, failing the op). Runs one
/// op of each family, then checks every name the process has loaded so far (the other tests' too).
#[test]
fn kernel_names_say_what_they_do_and_never_repeat() {
    let Some((dev, i)) = gpu() else { return };
    let m = xp::on(dev);
    let a = m.arange(0, 64, 1, Some(DType::F32)).unwrap().reshape([8, 8]).unwrap();
    let t = a.matrix_transpose().unwrap();
    let ints = a.astype(DType::I32).unwrap();
    let idx = m.arange(0, 8, 2, Some(DType::I64)).unwrap();
    a.exp().unwrap().add(&t).unwrap().sum(..).unwrap();
    a.argmax(..).unwrap();
    ints.cumsum(..).unwrap();
    t.sort(-1).unwrap();
    a.take(&idx, 0).unwrap();
    ints.copy().unwrap().put(&idx, 1.0, xp::IndexMode::Raise).unwrap();
    xp::nonzero(&ints).unwrap();
    xp::matmul(&ints, &ints).unwrap();
    xp::linalg::inv(&a.add(&m.eye(8, None, 0, DType::F32).unwrap().mul(100.0).unwrap()).unwrap()).unwrap();
    xp::default_rng(1).to_device(dev).standard_normal([16], None).unwrap();
    let names = xp::cuda::kernels_loaded();
    eprintln!("{} kernels loaded on cuda:{i}:\n{}", names.len(), names.join("\n"));
    assert!(names.len() >= 10, "{names:?}");
    for n in &names {
        let words: Vec<&str> = n.split('_').collect();
        let descriptive = words.len() >= 2
            && words[0] == "xp"
            && words[1].len() >= 2
            && words.iter().all(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()));
        assert!(descriptive, "kernel name {n:?} does not say what it does");
    }
    for expected in ["xp_sum_", "xp_argmax_", "xp_segsort_", "xp_gemm_tiled_", "xp_take_"] {
        assert!(names.iter().any(|n| n.starts_with(expected)), "no {expected}* among {names:?}");
    }
}
