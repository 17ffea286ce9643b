//! GPU streams, events, pinned host memory and device-to-device copies (each test returns at once
//! without a GPU, after `devices()` has reported the skip or failed under `XP_REQUIRE_CUDA=1`).
use xp::cuda::pinned::Pinned;
use xp::cuda::Stream;
use xp::{Array, DType, Device, Element, Error};

fn gpu() -> Option<(Device, usize)> {
    xp_testing::devices().into_iter().find_map(|d| match d {
        Device::Cuda(i) => Some((d, i)),
        Device::Cpu => None,
    })
}

/// `0, 1, ..., n-1` as f64 on the host, and its exact sum.
fn ramp(n: usize) -> (Vec<f64>, f64) {
    let v: Vec<f64> = (0..n).map(|i| i as f64).collect();
    (v, (n * (n - 1) / 2) as f64)
}

#[test]
fn a_stream_is_current_for_its_scope_only() {
    let Some((_, i)) = gpu() else { return };
    let default = Stream::current(i).unwrap();
    let (s, t) = (Stream::new(i).unwrap(), Stream::new(i).unwrap());
    assert!(s != default && s != t);
    {
        let _g = s.enter();
        assert!(Stream::current(i).unwrap() == s);
        t.scope(|| assert!(Stream::current(i).unwrap() == t));
        assert!(Stream::current(i).unwrap() == s, "the inner scope restored the outer stream");
        // Another thread has its own current stream.
        let other = std::thread::spawn(move || Stream::current(i).unwrap() == Stream::current(i).unwrap()).join();
        assert!(other.unwrap());
    }
    assert!(Stream::current(i).unwrap() == default);
}

#[test]
fn events_order_and_time_work_on_streams() {
    let Some((dev, i)) = gpu() else { return };
    let s = Stream::new(i).unwrap();
    let (host, total) = ramp(1 << 22);
    let start = s.record().unwrap();
    let r = s.scope(|| {
        let a = Array::from_vec(host.clone(), [host.len()]).unwrap().to_device(dev).unwrap();
        a.mul(3.0).unwrap().sum(..).unwrap()
    });
    let end = s.record().unwrap();
    // A second stream waits for the first one's event, then reads its result.
    let t = Stream::new(i).unwrap();
    t.wait(&end).unwrap();
    let doubled = t.scope(|| r.mul(2.0).unwrap());
    end.synchronize().unwrap();
    assert!(end.is_complete().unwrap());
    let ms = start.elapsed_ms(&end).unwrap();
    assert!(ms > 0.0 && ms < 60_000.0, "{ms} ms");
    t.synchronize().unwrap();
    assert_eq!(doubled.item::<f64>().unwrap(), 6.0 * total);
}

#[test]
fn arrays_cross_streams_without_explicit_synchronisation() {
    let Some((dev, i)) = gpu() else { return };
    let (s, t) = (Stream::new(i).unwrap(), Stream::new(i).unwrap());
    let n = 1 << 24;
    let (_, total) = ramp(n);
    for round in 0..4 {
        // Produced on s (a long chain), consumed at once on t: t must wait for s.
        let x = s.scope(|| {
            let mut x = xp::on(dev).arange(0, n as i64, 1, Some(DType::F64)).unwrap();
            for _ in 0..8 {
                x = x.add(1.0).unwrap().sub(1.0).unwrap();
            }
            x
        });
        let sum = t.scope(|| x.sum(..).unwrap());
        // Dropped while t may still read it; its memory must not be reused before t is done.
        drop(x);
        let junk = s.scope(|| xp::on(dev).full([n], -1.0, DType::F64).unwrap());
        assert_eq!(sum.item::<f64>().unwrap(), total, "round {round}");
        assert_eq!(junk.sum(..).unwrap().item::<f64>().unwrap(), -(n as f64));
        // Written on the default stream through a view, read on s.
        let y = xp::on(dev).zeros([4, 4], DType::I32).unwrap();
        y.slice(xp::s![1..3, ..])
            .unwrap()
            .assign(&Array::from_vec(vec![7i32; 8], [2, 4]).unwrap().to_device(dev).unwrap())
            .unwrap();
        let cnt = s.scope(|| y.sum(..).unwrap().item::<i64>().unwrap());
        assert_eq!(cnt, 56);
    }
}

#[test]
fn independent_work_from_eight_threads_each_on_its_own_stream() {
    let Some((dev, i)) = gpu() else { return };
    // A shared input made on the default stream, read by every thread's stream.
    let shared = xp::on(dev).arange(0, 4096, 1, Some(DType::I64)).unwrap();
    let handles: Vec<_> = (0..8)
        .map(|t| {
            let shared = shared.clone();
            std::thread::spawn(move || {
                let s = Stream::new(i).unwrap();
                let _g = s.enter();
                let n = 1000 + 37 * t;
                let host: Vec<f64> = (0..n).map(|k| ((k * (t + 3)) % 101) as f64 - 50.0).collect();
                let a = Array::from_vec(host.clone(), [n]).unwrap().to_device(dev).unwrap();
                for round in 0..20 {
                    let r = a.mul(2.0).unwrap().add(round as f64).unwrap().cumsum(..).unwrap();
                    let got = r.to_vec::<f64>().unwrap();
                    let mut acc = 0.0;
                    for (k, x) in host.iter().enumerate() {
                        acc += x * 2.0 + round as f64;
                        assert_eq!(got[k], acc, "thread {t} round {round} element {k}");
                    }
                    let m = shared.mul(t as i64).unwrap().sum(..).unwrap().item::<i64>().unwrap();
                    assert_eq!(m, t as i64 * 4095 * 4096 / 2, "thread {t} round {round}");
                }
            })
        })
        .collect();
    for h in handles {
        h.join().expect("a worker thread failed");
    }
}

fn pinned_round_trip<T: Element + PartialEq + std::fmt::Debug>(dev: Device, vals: &[T]) {
    let p = Pinned::from_slice(vals).unwrap();
    let n = vals.len();
    let a = Array::from_pinned(&p, &[n], dev).unwrap();
    assert_eq!(a.to_vec::<T>().unwrap(), vals, "{}", T::DTYPE);
    // A reversed (non-contiguous) view comes back in C order.
    let mut back = Pinned::<T>::zeros(n).unwrap();
    a.slice(xp::s![..;-1]).unwrap().to_pinned(&mut back).unwrap();
    let want: Vec<T> = vals.iter().rev().cloned().collect();
    assert_eq!(back.as_slice().unwrap(), &want[..], "{}", T::DTYPE);
}

#[test]
fn pinned_buffers_round_trip_every_layout_and_refuse_bad_sizes() {
    let Some((dev, _)) = gpu() else { return };
    for d in [dev, Device::Cpu] {
        pinned_round_trip(d, &[1.5f32, -2.0, 3.25, 0.0, 7.0]);
        pinned_round_trip(d, &[1i8, -2, 127, -128]);
        pinned_round_trip(d, &[true, false, true]);
        pinned_round_trip(d, &[xp::f16::from_f32(1.5), xp::f16::from_f32(-0.25)]);
        pinned_round_trip(d, &[xp::Complex64::new(1.0, -2.0), xp::Complex64::new(0.5, 3.0)]);
        pinned_round_trip::<f64>(d, &[]);
        // A transposed 2-d view.
        let p = Pinned::from_slice(&[1u16, 2, 3, 4, 5, 6]).unwrap();
        let a = Array::from_pinned(&p, &[2, 3], d).unwrap();
        let mut t = Pinned::<u16>::zeros(6).unwrap();
        a.t().unwrap().to_pinned(&mut t).unwrap();
        assert_eq!(t.as_slice().unwrap(), &[1, 4, 2, 5, 3, 6]);
        // Wrong sizes and dtypes are typed errors; the inputs are untouched.
        assert!(matches!(Array::from_pinned(&p, &[4], d), Err(Error::LengthMismatch { .. })));
        let mut short = Pinned::<u16>::zeros(5).unwrap();
        assert!(a.to_pinned(&mut short).is_err());
        let mut wrong = Pinned::<f32>::zeros(6).unwrap();
        assert!(a.to_pinned(&mut wrong).is_err());
        assert_eq!(a.to_vec::<u16>().unwrap(), vec![1, 2, 3, 4, 5, 6]);
        assert_eq!(p.as_slice().unwrap(), &[1, 2, 3, 4, 5, 6]);
    }
}

#[test]
fn pinned_uploads_are_ordered_with_host_writes() {
    let Some((dev, _)) = gpu() else { return };
    let n = 1 << 22;
    let mut p = Pinned::<f32>::zeros(n).unwrap();
    for round in 0..4 {
        p.as_mut_slice().unwrap().fill(round as f32);
        let a = Array::from_pinned(&p, &[n], dev).unwrap();
        // Writing the buffer again waits for the upload above to finish.
        p.as_mut_slice().unwrap().fill(-1.0);
        assert_eq!(a.sum(..).unwrap().item::<f64>().unwrap(), round as f64 * n as f64);
        // A download that follows a long chain: reading the buffer waits for it.
        let mut x = xp::on(dev).full([n], round as f64, DType::F32).unwrap();
        for _ in 0..20 {
            x = x.add(1.0).unwrap();
        }
        x.to_pinned(&mut p).unwrap();
        assert!(p.as_slice().unwrap().iter().all(|&v| v == round as f32 + 20.0), "round {round}");
    }
}

#[test]
fn device_to_device_copies_on_one_gpu_and_between_gpus() {
    let Some((dev, _)) = gpu() else { return };
    let host: Vec<i32> = (0..6000).collect();
    let a = Array::from_vec(host.clone(), [60, 100]).unwrap().to_device(dev).unwrap();
    // Contiguous runs go through the copy engine, views through the copy kernel.
    let run = a.slice(xp::s![10..20, ..]).unwrap().copy().unwrap();
    assert_eq!(run.to_vec::<i32>().unwrap(), host[1000..2000].to_vec());
    let z = xp::on(dev).zeros([60, 100], DType::I32).unwrap();
    z.slice(xp::s![5..7, ..]).unwrap().assign(&a.slice(xp::s![0..2, ..]).unwrap()).unwrap();
    assert_eq!(z.sum(..).unwrap().item::<i64>().unwrap(), (0..200).sum::<i64>());
    let n = xp::cuda::device_count();
    if n < 2 {
        eprintln!("device_to_device: one GPU, the copy between GPUs is not exercised");
        return;
    }
    let other = Device::Cuda(1);
    for v in [a.clone(), a.t().unwrap(), a.slice(xp::s![..;-3, 7..50]).unwrap()] {
        let b = v.to_device(other).unwrap();
        assert_eq!(b.device(), other);
        assert_eq!(b.to_vec::<i32>().unwrap(), v.to_vec::<i32>().unwrap());
        let back = b.mul(2).unwrap().to_device(dev).unwrap();
        assert_eq!(back.to_vec::<i32>().unwrap(), v.mul(2).unwrap().to_vec::<i32>().unwrap());
    }
}
