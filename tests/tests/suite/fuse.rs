//! `xp::fuse` against the same chain run op by op (xp's unfused ufuncs, themselves tested
//! against NumPy), on every device, across dtypes, layouts (every input layout of
//! `xp_testing::layouts`, broadcasting) and reductions. On the CPU the fused chain calls the same
//! scalar kernels in the same order, so results are bit-identical; on the GPU NVRTC may contract
//! a multiply and an add into one FMA, so floats agree to a few ulp.
use xp::fuse::Sym;
use xp::{Array, DType, Device, HostBuffer, Scalar};
use xp_testing::{devices, layouts};

fn data(d: DType, shape: &[usize], seed: u64) -> HostBuffer {
    let n: usize = shape.iter().product();
    HostBuffer::from_fn(n, d, |i| {
        let v = ((i as u64 * 2654435761 + seed * 97) % 23) as i64 - 11;
        match d.kind() {
            xp::Kind::Bool => Scalar::Bool(v > 0),
            xp::Kind::Int | xp::Kind::Uint => Scalar::Int(v.rem_euclid(if d == DType::U8 { 200 } else { 127 })),
            _ => Scalar::Float(v as f64 * 0.37),
        }
    })
}

fn close(dev: Device, a: &Array, b: &Array, what: &str) {
    let eps = match (dev, a.dtype()) {
        // float64 exp/log/tanh run through the SIMD kernels unfused and libm fused (a few ulp)
        (Device::Cpu, DType::F64 | DType::C128) => 1e-15,
        (Device::Cpu, _) => 0.0,
        (_, DType::F16 | DType::BF16) => 2e-3,
        (_, DType::F32 | DType::C64) => 4e-7,
        _ => 1e-15,
    };
    close_to(dev, a, b, what, eps)
}

/// A fused reduction sums in its own order (blocks, then partials): floats agree to a few ulp
/// of the sum on every device, integers exactly.
fn close_sum(dev: Device, a: &Array, b: &Array, what: &str) {
    let eps = match a.dtype() {
        DType::F32 => 2e-6,
        DType::F64 => 1e-14,
        _ => 0.0,
    };
    close_to(dev, a, b, what, eps)
}

fn close_to(dev: Device, a: &Array, b: &Array, what: &str, eps: f64) {
    assert_eq!((a.shape(), a.dtype()), (b.shape(), b.dtype()), "{dev} {what}");
    let (x, y) = (xp_testing::widen(&a.to_buffer().unwrap()), xp_testing::widen(&b.to_buffer().unwrap()));
    for (k, (p, q)) in x.iter().zip(&y).enumerate() {
        let same = (p.re.is_nan() && q.re.is_nan()) || (p - q).norm() <= eps * q.norm().max(1.0);
        assert!(same, "{dev} {what} at {k}: fused {p} vs unfused {q}");
    }
}

#[test]
fn fused_chains_equal_unfused_in_every_layout() {
    let tanh_chain = xp::fuse(|x: &Sym, y: &Sym| x.sin()?.add(&y.mul(0.1)?)?.tanh());
    let relu_sq = xp::fuse(|x: &Sym, y: &Sym| x.gt(0)?.where_(&x.mul(x)?, &y.neg()?));
    let divs = xp::fuse(|x: &Sym, y: &Sym| x.div(&y.add(100)?)?.add(&x.floor_divide(7)?));
    let mixed = xp::fuse(|x: &Sym, y: &Sym| x.astype(DType::F16)?.mul(3)?.add(y));
    let logic = xp::fuse(|x: &Sym, y: &Sym| x.gt(y)?.logical_and(&y.ge(0)?)?.logical_or(&x.eq(1)?));
    let cplx = xp::fuse(|x: &Sym, y: &Sym| x.mul(y)?.add(1.0)?.exp());
    let cases: Vec<(&str, &xp::fuse::Fused, Vec<DType>)> = vec![
        ("tanh(sin(x) + 0.1y)", &tanh_chain, vec![DType::F32, DType::F64, DType::F16]),
        ("where(x > 0, x*x, -y)", &relu_sq, vec![DType::I8, DType::I32, DType::F32]),
        ("x / (y + 100) + x // 7", &divs, vec![DType::I16, DType::I64, DType::F64]),
        ("f16(x) * 3 + y", &mixed, vec![DType::F32, DType::I8]),
        ("logic", &logic, vec![DType::I32, DType::F32]),
        ("exp(x*y + 1)", &cplx, vec![DType::C64, DType::C128]),
    ];
    for dev in devices() {
        for (name, f, dtypes) in &cases {
            for &d in dtypes {
                let xb = data(d, &[6, 5], 1);
                let y = Array::from_buffer(data(d, &[1, 5], 2), [1, 5], dev).unwrap();
                for (layout, x) in layouts(&xb, &[6, 5], dev).unwrap() {
                    let fused = f.call(&[&x, &y]).unwrap();
                    let plain = f.call_unfused(&[&x, &y]).unwrap();
                    close(dev, &fused, &plain, &format!("{name} {d} {layout}"));
                }
            }
        }
    }
}

#[test]
fn fused_reductions_and_errors() {
    let ssq = xp::fuse(|x: &Sym| x.square()?.sum(Some(&[0]), true));
    let mean = xp::fuse(|x: &Sym, y: &Sym| x.sub(y)?.abs()?.mean(None, false));
    let after = xp::fuse(|x: &Sym| x.sum(None, false)?.sqrt());
    for dev in devices() {
        for d in [DType::F32, DType::F64, DType::I32] {
            let xb = data(d, &[7, 4], 3);
            for (layout, x) in layouts(&xb, &[7, 4], dev).unwrap() {
                let r = ssq.call(&[&x]).unwrap();
                assert_eq!(r.shape(), &[1, 4]);
                close_sum(dev, &r, &x.square().unwrap().sum_keepdim(0).unwrap(), &format!("ssq {d} {layout}"));
                let m = mean.call(&[&x, &x.flip(1).unwrap()]).unwrap();
                let want = x.sub(&x.flip(1).unwrap()).unwrap().abs().unwrap().mean(..).unwrap();
                close_sum(dev, &m, &want, &format!("mean {d} {layout}"));
            }
        }
        let x = xp::on(dev).ones([3], DType::F32).unwrap();
        assert!(after.call(&[&x]).is_err(), "operations after a reduction are refused");
        assert!(ssq.call(&[&x, &x]).is_err(), "wrong number of arrays");
        let bad = xp::fuse(|x: &Sym| x.invert());
        assert!(matches!(bad.call(&[&x]), Err(xp::Error::InvalidDType { .. })), "invert of float32");
    }
}

/// Fused reductions large enough for every GPU plan (rows and columns, packs, outputs split into
/// chunks whose partials a second kernel folds), in float32 against the float64 chain, on every
/// device: sum of squares and max over either axis, of contiguous, transposed and stepped inputs.
#[test]
fn fused_reductions_in_every_plan() {
    let ssq0 = xp::fuse(|x: &Sym| x.square()?.sum(Some(&[0]), false));
    let ssq1 = xp::fuse(|x: &Sym| x.square()?.sum(Some(&[1]), true));
    let max0 = xp::fuse(|x: &Sym| x.mul(2.0)?.max(Some(&[0]), false));
    let mean1 = xp::fuse(|x: &Sym| x.abs()?.mean(Some(&[1]), false));
    for dev in devices() {
        for shape in [[3000usize, 40], [3, 50000], [257, 515]] {
            let base = Array::from_buffer(data(DType::F32, &shape, 5), shape, dev).unwrap();
            let rev = [shape[1], shape[0]];
            let variants = [
                ("contiguous", base.clone()),
                ("transposed", Array::from_buffer(data(DType::F32, &rev, 6), rev, dev).unwrap().t().unwrap()),
                ("stepped", base.slice(xp::s![..;2, ..]).unwrap()),
            ];
            for (layout, x) in variants {
                let w = x.astype(DType::F64).unwrap();
                let what = |k: &str| format!("{k} {shape:?} {layout}");
                let want = w.square().unwrap().sum(0).unwrap().astype(DType::F32).unwrap();
                close_to(dev, &ssq0.call(&[&x]).unwrap(), &want, &what("ssq0"), 1e-5);
                let want = w.square().unwrap().sum_keepdim(1).unwrap().astype(DType::F32).unwrap();
                close_to(dev, &ssq1.call(&[&x]).unwrap(), &want, &what("ssq1"), 1e-5);
                let want = x.mul(2.0).unwrap().max(0).unwrap();
                close_to(dev, &max0.call(&[&x]).unwrap(), &want, &what("max0"), 0.0);
                let want = w.abs().unwrap().mean(1).unwrap().astype(DType::F32).unwrap();
                close_to(dev, &mean1.call(&[&x]).unwrap(), &want, &what("mean1"), 1e-5);
            }
        }
    }
}
