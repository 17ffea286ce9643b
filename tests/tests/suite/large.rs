//! Sizes above the parallel threshold, where the CPU backend splits work across threads and takes
//! its fast paths (row bands, column strips, blocked argmax, float32 kernels, the block cache):
//! each result against an independent float64 computation in plain loops.
use xp::{Array, DType, Device};
use xp_testing::devices;

/// Deterministic values in [-1, 1).
fn data(n: usize, seed: u64) -> Vec<f64> {
    crate::common::xorshift(n, seed).map(|s| (s >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0).collect()
}

fn arr(v: &[f64], shape: &[usize], dt: DType, dev: Device) -> Array {
    Array::from_vec(v.to_vec(), shape).unwrap().astype(dt).unwrap().to_device(dev).unwrap()
}

fn f64s(a: &Array) -> Vec<f64> {
    a.astype(DType::F64).unwrap().to_vec::<f64>().unwrap()
}

#[track_caller]
fn close(got: &[f64], want: &[f64], rtol: f64, ctx: &str) {
    assert_eq!(got.len(), want.len(), "{ctx}: length");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!((g - w).abs() <= rtol * (1.0 + w.abs()), "{ctx}: element {i}: {g} vs {w}");
    }
}

/// Sums over axis 0 and axis 1 of an (r, c) matrix, in float64.
fn axis_sums(v: &[f64], r: usize, c: usize) -> (Vec<f64>, Vec<f64>) {
    let mut s0 = vec![0.0; c];
    let mut s1 = vec![0.0; r];
    for i in 0..r {
        for j in 0..c {
            s0[j] += v[i * c + j];
            s1[i] += v[i * c + j];
        }
    }
    (s0, s1)
}

#[test]
fn sums_in_every_mode() {
    for dev in devices() {
        // (rows, cols): row bands (few columns), column strips (many columns), inner runs.
        for (r, c) in [(3000, 40), (40, 3000), (5, 70_000), (700, 600), (1, 100_003), (100_003, 1)] {
            let v = data(r * c, (r * 7 + c) as u64);
            let (s0, s1) = axis_sums(&v, r, c);
            let total: f64 = v.iter().sum();
            for dt in [DType::F32, DType::F64] {
                let tol = if dt == DType::F32 { 1e-5 } else { 1e-12 };
                let a = arr(&v, &[r, c], dt, dev);
                let ctx = format!("{dt} ({r}, {c}) on {dev}");
                close(&f64s(&a.sum(0).unwrap()), &s0, tol, &format!("{ctx} axis 0"));
                close(&f64s(&a.sum(1).unwrap()), &s1, tol, &format!("{ctx} axis 1"));
                close(&f64s(&a.sum(..).unwrap()), &[total], tol * 10.0, &format!("{ctx} all"));
                // The same sums through a transposed view (the modes swap).
                let t = a.t().unwrap();
                close(&f64s(&t.sum(1).unwrap()), &s0, tol, &format!("{ctx} T axis 1"));
                close(&f64s(&t.sum(0).unwrap()), &s1, tol, &format!("{ctx} T axis 0"));
            }
            // Integers: exact.
            let iv: Vec<f64> = v.iter().map(|x| (x * 1000.0).round()).collect();
            let (i0, _) = axis_sums(&iv, r, c);
            let a = arr(&iv, &[r, c], DType::I32, dev);
            assert_eq!(f64s(&a.sum(0).unwrap()), i0, "int32 axis 0 on {dev}");
            let m = a.max(0).unwrap();
            let want: Vec<f64> = (0..c).map(|j| (0..r).map(|i| iv[i * c + j]).fold(f64::MIN, f64::max)).collect();
            assert_eq!(f64s(&m), want, "int32 max axis 0 on {dev}");
        }
    }
}

#[test]
fn pairwise_accuracy_beats_naive_summation() {
    // 2^25 ones: a naive float32 running sum stalls at 2^24; pairwise sums are exact here, along
    // an inner run and down the rows of a matrix alike.
    let n = 1 << 25;
    for dev in devices() {
        let a = xp::on(dev).ones([n], DType::F32).unwrap();
        assert_eq!(a.sum(..).unwrap().item::<f64>().unwrap(), n as f64, "on {dev}");
        let m = a.reshape([1 << 23, 4]).unwrap();
        let s = m.sum(0).unwrap().astype(DType::F64).unwrap().to_vec::<f64>().unwrap();
        assert_eq!(s, vec![(1 << 23) as f64; 4], "axis 0 on {dev}");
    }
}

#[test]
fn argmax_finds_first_extreme_and_first_nan() {
    for dev in devices() {
        let n = 1_000_003;
        let mut v = data(n, 5);
        v[700_001] = 3.0;
        v[900_000] = 3.0; // a tie later: the first wins
        v[123] = -3.0;
        let a = arr(&v, &[n], DType::F32, dev);
        assert_eq!(a.argmax(..).unwrap().item::<i64>().unwrap(), 700_001, "argmax on {dev}");
        assert_eq!(a.argmin(..).unwrap().item::<i64>().unwrap(), 123, "argmin on {dev}");
        v[800_000] = f64::NAN;
        v[950_000] = f64::NAN;
        let a = arr(&v, &[n], DType::F32, dev);
        assert_eq!(a.argmax(..).unwrap().item::<i64>().unwrap(), 800_000, "NaN argmax on {dev}");
        assert_eq!(a.argmin(..).unwrap().item::<i64>().unwrap(), 800_000, "NaN argmin on {dev}");
        // Along an axis of a strided view.
        let m = arr(&data(600 * 500, 9), &[600, 500], DType::F64, dev);
        let got = f64s(&m.t().unwrap().argmax(1).unwrap());
        let v = data(600 * 500, 9);
        let want: Vec<f64> = (0..500)
            .map(|j| {
                (0..600).fold((0usize, f64::MIN), |b, i| if v[i * 500 + j] > b.1 { (i, v[i * 500 + j]) } else { b }).0
                    as f64
            })
            .collect();
        assert_eq!(got, want, "argmax axis of a transposed view on {dev}");
    }
}

#[test]
fn cumsum_long_lines() {
    for dev in devices() {
        let n = 1_000_001;
        let v: Vec<f64> = data(n, 11).iter().map(|x| (x * 100.0).round()).collect();
        let mut acc = 0.0;
        let want: Vec<f64> = v
            .iter()
            .map(|x| {
                acc += x;
                acc
            })
            .collect();
        for dt in [DType::I64, DType::F64] {
            let got = f64s(&arr(&v, &[n], dt, dev).cumsum(..).unwrap());
            assert_eq!(got, want, "cumsum {dt} on {dev}");
        }
        // cumprod of values near one, float64
        let w: Vec<f64> = data(100_000, 3).iter().map(|x| 1.0 + x * 1e-4).collect();
        let mut p = 1.0;
        let want: Vec<f64> = w
            .iter()
            .map(|x| {
                p *= x;
                p
            })
            .collect();
        close(&f64s(&arr(&w, &[100_000], DType::F64, dev).cumprod(..).unwrap()), &want, 1e-12, "cumprod");
        // along axis 0 of a matrix (many lines)
        let m: Vec<f64> = data(400 * 300, 4).iter().map(|x| (x * 10.0).round()).collect();
        let got = f64s(&arr(&m, &[400, 300], DType::I32, dev).cumsum(0).unwrap());
        let mut want = m.clone();
        for i in 1..400 {
            for j in 0..300 {
                want[i * 300 + j] += want[(i - 1) * 300 + j];
            }
        }
        assert_eq!(got, want, "cumsum axis 0 on {dev}");
    }
}

#[test]
fn elementwise_on_large_strided_operands() {
    for dev in devices() {
        let (r, c) = (500, 300);
        let v = data(r * c, 21);
        let w = data(c, 22);
        let a = arr(&v, &[r, c], DType::F64, dev);
        let row = arr(&w, &[c], DType::F64, dev);
        // a.T[::-1, ::2] + row[::-1, None]... build the same from plain loops
        let at = a.t().unwrap().slice(xp::s![..;-1, ..;2]).unwrap(); // (c, r/2)
        let col = row.slice(xp::s![..;-1]).unwrap().expand_dims(1).unwrap();
        let got = f64s(&at.add(&col).unwrap());
        let mut want = vec![];
        for i in 0..c {
            for j in (0..r).step_by(2) {
                want.push(v[j * c + (c - 1 - i)] + w[c - 1 - i]);
            }
        }
        assert_eq!(got, want, "strided add on {dev}");
    }
}

#[test]
fn float32_kernels_and_their_fallback_blocks() {
    for dev in devices() {
        let n = 200_000;
        let mut v: Vec<f64> = data(n, 31).iter().map(|x| x * 20.0).collect();
        v[1000] = 1e5; // outside the sin/cos kernel range: that block falls back to libm
        v[50_000] = f64::NAN;
        v[70_000] = f64::INFINITY;
        v[90_000] = -100.0; // exp underflow region
        let a = arr(&v, &[n], DType::F32, dev);
        let vf: Vec<f64> = v.iter().map(|&x| x as f32 as f64).collect();
        type Op = fn(&Array) -> xp::Result<Array>;
        type Reference = fn(f64) -> f64;
        let ops: [(&str, Op, Reference); 4] = [
            ("sin", Array::sin, f64::sin),
            ("cos", Array::cos, f64::cos),
            ("exp", Array::exp, f64::exp),
            ("tanh", Array::tanh, f64::tanh),
        ];
        for (name, op, reference) in ops {
            let got = f64s(&op(&a).unwrap());
            for (i, (&g, &x)) in got.iter().zip(&vf).enumerate() {
                let w = reference(x) as f32 as f64;
                let ok = if w.is_nan() {
                    g.is_nan()
                } else if w.is_infinite() {
                    g == w
                } else {
                    (g - w).abs() <= 2e-6 * (1.0 + w.abs())
                };
                assert!(ok, "{name}({x}) on {dev} at {i}: {g} vs {w}");
            }
        }
    }
}

#[test]
fn reused_buffers_hold_fresh_results() {
    // Large temporaries go back to the block cache; the next result of that size reuses one.
    for dev in devices() {
        let n = 1 << 20;
        for k in 0..4 {
            let a = xp::on(dev).full([n], k as f64, DType::F32).unwrap();
            let b = a.add(1.0).unwrap();
            let s = b.sum(..).unwrap().item::<f64>().unwrap();
            assert_eq!(s, (k as f64 + 1.0) * n as f64, "round {k} on {dev}");
        }
    }
    xp_cpu_free();
}

/// Empty the CPU block cache. (Whether it is then empty is the pool's own doctest: here other
/// tests of this binary give blocks back concurrently, so a count read after would race.)
fn xp_cpu_free() {
    xp::cpu::free_all_blocks();
}
