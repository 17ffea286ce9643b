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
    products_and_sparse_products_capture();
    rust_kernels_capture();
}

#[xp::kernel]
fn graph_affine<T: xp::kernel::Float>(x: T, y: T, s: T) -> T {
    let mut v = x * s + y;
    if v < T::ZERO {
        v = -v;
    }
    v.sqrt()
}

#[xp::kernel]
fn graph_neighbours<T: xp::kernel::Float>(x: T, r: xp::kernel::Raw<T>, i: xp::kernel::Index) -> T {
    x + r.at((i + 1) % r.len())
}

#[xp::reduction]
mod graph_sumsq {
    use xp::kernel::Float;
    fn identity<T: Float>() -> T {
        T::ZERO
    }
    fn map<T: Float>(x: T) -> T {
        x * x
    }
    fn combine<T: Float>(a: T, b: T) -> T {
        a + b
    }
}

/// `#[xp::kernel]` and `#[xp::reduction]` captured: the kernel's first call (its compile and
/// module load) inside the capture, replays on new input values (the scalar is baked in), a
/// reduction over 2^22 elements (several blocks, partials allocated in the capture), and a raw
/// argument that is not contiguous (copied inside the graph).
fn rust_kernels_capture() {
    for dev in devices().into_iter().filter(|d| *d != Device::Cpu) {
        let Device::Cuda(i) = dev else { unreachable!() };
        let s = xp::cuda::Stream::new(i).unwrap();
        let g = xp::on(dev);
        let n = 1 << 22;
        let x = g.arange(0.0, n as f64, 1.0, Some(DType::F32)).unwrap().mul(1e-3).unwrap();
        let y = g.ones([n], DType::F32).unwrap();
        let (out, red) = (g.zeros([n], DType::F32).unwrap(), g.zeros([], DType::F32).unwrap());
        let wide = g.arange(0.0, 2.0 * n as f64, 1.0, Some(DType::F32)).unwrap();
        let stepped = wide.slice([xp::SliceElem::FULL.step(2)]).unwrap();
        let nb = g.zeros([n], DType::F32).unwrap();
        let (graph, ()) = s
            .capture(|| {
                out.assign(&graph_affine::call(&x, &y, 2.0f32)?)?;
                red.assign(&graph_sumsq::call(&y, ..)?)?;
                nb.assign(&graph_neighbours::call(&y, &stepped)?)
            })
            .unwrap();
        for round in 0..2 {
            if round == 1 {
                x.assign(&x.mul(-1.0).unwrap()).unwrap();
                y.assign(&y.mul(3.0).unwrap()).unwrap();
            }
            graph.launch().unwrap();
            s.synchronize().unwrap();
            let (xv, yv): (Vec<f32>, Vec<f32>) = (x.to_vec().unwrap(), y.to_vec().unwrap());
            let got: Vec<f32> = out.to_vec().unwrap();
            for k in [0, 1, 777, n - 1] {
                let want = graph_affine(xv[k], yv[k], 2.0);
                assert!(
                    (got[k] - want).abs() <= 1e-6 * want.abs().max(1.0),
                    "round {round} [{k}] {} vs {want}",
                    got[k]
                );
            }
            let want = yv.iter().map(|v| (v * v) as f64).sum::<f64>();
            let r = red.to_vec::<f32>().unwrap()[0] as f64;
            assert!((r - want).abs() <= 1e-4 * want, "round {round}: sum of squares {r} vs {want}");
            let nbv: Vec<f32> = nb.to_vec().unwrap();
            for k in [0, 5, n - 1] {
                let want = yv[k] + (2 * ((k + 1) % n)) as f32;
                assert_eq!(nbv[k], want, "round {round} neighbours [{k}]");
            }
        }
    }
}

/// What CG's captured iteration is made of, each captured alone in float32 and float64 and
/// replayed: `vdot`, a CSR matrix–vector product, and `assign` of a 0-d array.
fn products_and_sparse_products_capture() {
    for dev in devices().into_iter().filter(|d| *d != Device::Cpu) {
        let Device::Cuda(i) = dev else { unreachable!() };
        let s = xp::cuda::Stream::new(i).unwrap();
        let g = xp::on(dev);
        for dt in [DType::F32, DType::F64] {
            let x = g.arange(0.0, 64.0, 1.0, Some(dt)).unwrap();
            let d = |v: f64| Array::from_vec(vec![v], [1]).unwrap();
            let a = xp::sparse::diags_array(
                &[&d(-1.0), &d(2.0), &d(-1.0)],
                &[-1, 0, 1],
                Some([64, 64]),
                Some(dt),
                xp::sparse::Format::Csr,
            )
            .unwrap()
            .tocsr()
            .unwrap()
            .to_device(dev)
            .unwrap();
            let (dot, ax, zero) = (g.zeros([], dt).unwrap(), g.zeros([64], dt).unwrap(), g.zeros([], dt).unwrap());
            let steps: [(&str, &dyn Fn() -> xp::Result<()>); 3] = [
                ("vdot", &|| dot.assign(&xp::vdot(&x, &x)?)),
                ("csr @ x", &|| ax.assign(&a.matmul(&x)?)),
                ("0-d assign", &|| zero.assign(&dot)),
            ];
            for (what, step) in steps {
                let r = s.capture(step);
                let (graph, ()) = r.unwrap_or_else(|e| panic!("{what} {dt} on {dev}: {e}"));
                graph.launch().unwrap();
                s.synchronize().unwrap();
            }
            let want: f64 = (0..64).map(|k| (k * k) as f64).sum();
            assert_eq!(dot.astype(DType::F64).unwrap().to_f64().unwrap(), want, "{dt}");
            assert_eq!(zero.astype(DType::F64).unwrap().to_f64().unwrap(), want, "{dt}");
            let axv = ax.astype(DType::F64).unwrap().to_vec::<f64>().unwrap();
            assert_eq!((axv[0], axv[10], axv[63]), (-1.0, 0.0, 64.0), "{dt}");
        }
    }
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
