//! CUDA graphs (`Stream::capture`, `Graph::launch`): a chain of xp operations captured once and
//! replayed gives what running the chain gives, on new input values each time; buffers the
//! graph uses outlive the arrays that held them; and calls that cannot be captured are typed
//! errors that leave the process able to go on.
//!
//! A test binary of its own, one test: while a thread captures, the driver refuses device-wide
//! waits from other threads of the process (`cuCtxSynchronize` fails, and breaks the capture),
//! which the suite's other tests make all the time.
use xp::{Array, DType, Device, Error};
use xp_testing::devices;

/// Ten small ops, written into `out`.
fn chain(x: &Array, y: &Array, out: &Array) -> xp::Result<()> {
    let a = x.mul(y)?.add(1.5)?.sin()?.mul(x)?;
    let b = a.sub(y)?.abs()?.sqrt()?.add(&a)?.exp()?.mul(0.5)?;
    out.assign(&b)
}

#[test]
fn graphs() {
    captured_chains_replay_on_new_inputs();
    graphs_keep_their_buffers_and_refuse_waits();
}

fn captured_chains_replay_on_new_inputs() {
    for dev in devices().into_iter().filter(|d| *d != Device::Cpu) {
        let Device::Cuda(i) = dev else { unreachable!() };
        let s = xp::cuda::Stream::new(i).unwrap();
        let g = xp::on(dev);
        let (x, y, out) = (
            g.zeros([1000], DType::F32).unwrap(),
            g.zeros([1000], DType::F32).unwrap(),
            g.zeros([1000], DType::F32).unwrap(),
        );
        let (graph, ()) = s.capture(|| chain(&x, &y, &out)).unwrap();
        assert_eq!(out.to_vec::<f32>().unwrap(), vec![0.0; 1000], "capturing runs nothing");
        for round in 0..3 {
            let xv: Vec<f32> = (0..1000).map(|k| (k as f32 * 0.01 + round as f32).sin()).collect();
            let yv: Vec<f32> = (0..1000).map(|k| (k as f32 * 0.003 - round as f32).cos()).collect();
            x.assign(&Array::from_vec(xv.clone(), [1000]).unwrap().to_device(dev).unwrap()).unwrap();
            y.assign(&Array::from_vec(yv.clone(), [1000]).unwrap().to_device(dev).unwrap()).unwrap();
            xp::cuda::synchronize(i).unwrap();
            graph.launch().unwrap();
            s.synchronize().unwrap();
            let want = g.zeros([1000], DType::F32).unwrap();
            chain(&x, &y, &want).unwrap();
            assert_eq!(out.to_vec::<f32>().unwrap(), want.to_vec::<f32>().unwrap(), "round {round}");
        }
    }
}

fn graphs_keep_their_buffers_and_refuse_waits() {
    for dev in devices().into_iter().filter(|d| *d != Device::Cpu) {
        let Device::Cuda(i) = dev else { unreachable!() };
        let s = xp::cuda::Stream::new(i).unwrap();
        let g = xp::on(dev);
        let out = g.zeros([4096], DType::F64).unwrap();
        let graph = {
            // the input and every temporary are dropped before the graph runs
            let x = g.arange(0.0, 4096.0, 1.0, Some(DType::F64)).unwrap();
            let (graph, ()) = s.capture(|| out.assign(&x.mul(2.0)?.add(&x)?)).unwrap();
            graph
        };
        // fresh allocations must not take the graph's buffers
        let noise: Vec<Array> = (0..8).map(|_| g.full([4096], -1.0, DType::F64).unwrap()).collect();
        graph.launch().unwrap();
        s.synchronize().unwrap();
        let want: Vec<f64> = (0..4096).map(|k| 3.0 * k as f64).collect();
        assert_eq!(out.to_vec::<f64>().unwrap(), want);
        assert!(noise.iter().all(|a| a.to_vec::<f64>().unwrap() == vec![-1.0; 4096]));
        // waits and host reads inside a capture are typed errors, and the capture fails with them
        let y = g.ones([8], DType::F32).unwrap();
        let r = s.capture(|| y.add(1.0)?.to_vec::<f32>());
        assert!(matches!(r, Err(Error::NotCapturable { .. })), "{r:?}");
        let r = s.capture(|| Array::from_vec(vec![1.0f32; 8], [8])?.to_device(dev));
        assert!(matches!(r, Err(Error::NotCapturable { .. })), "{r:?}");
        // the default stream cannot be captured; the process goes on
        let d = xp::cuda::Stream::current(i).unwrap();
        assert!(d.capture(|| Ok(())).is_err());
        assert_eq!(y.add(1.0).unwrap().to_vec::<f32>().unwrap(), vec![2.0; 8]);
        drop(graph);
        assert_eq!(out.to_vec::<f64>().unwrap()[4095], 3.0 * 4095.0);
    }
}
