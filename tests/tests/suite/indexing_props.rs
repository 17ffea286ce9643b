//! Indexing, sorting and sets at sizes that reach the parallel CPU paths and the multi-block GPU
//! kernels, against independent host loops: stable sorts by NumPy's order, gathers, compaction,
//! `ufunc.at` and assignment with many duplicate indices, and the typed errors (inputs untouched).
use super::common::xorshift;
use xp::{ix, Array, BinaryOp, BinaryUfunc, DType, Device, Error, IndexMode, Side};
use xp_testing::devices;

/// NumPy's order on f32: NaNs last, -0.0 equal to 0.0.
fn key(x: f32) -> (bool, f32) {
    (x.is_nan(), if x.is_nan() { 0.0 } else { x + 0.0 })
}

fn host_argsort(v: &[f32]) -> Vec<i64> {
    let mut p: Vec<i64> = (0..v.len() as i64).collect();
    p.sort_by(|&a, &b| key(v[a as usize]).partial_cmp(&key(v[b as usize])).unwrap());
    p
}

/// Floats with many ties, NaNs, infinities and both zeros.
fn tied(n: usize, seed: u64) -> Vec<f32> {
    xorshift(n, seed)
        .map(|r| match r % 97 {
            0 => f32::NAN,
            1 => -0.0,
            2 => 0.0,
            3 => f32::INFINITY,
            4 => f32::NEG_INFINITY,
            m => ((r >> 20) % 1000) as f32 / 8.0 - 60.0 + (m % 2) as f32,
        })
        .collect()
}

#[test]
fn large_sorts_are_stable_and_in_numpys_order() {
    for (n, lines) in [(1usize << 20, 1usize), (1500, 300), (70_000, 5), (3, 50_000)] {
        let v = tied(n * lines, n as u64);
        let host: Vec<Vec<i64>> = v.chunks(n).map(host_argsort).collect();
        for dev in devices() {
            let a = Array::from_vec(v.clone(), [lines, n]).unwrap().to_device(dev).unwrap();
            let ctx = format!("{lines} lines of {n} on {dev}");
            let got = a.argsort(-1).unwrap().to_vec::<i64>().unwrap();
            for (l, h) in host.iter().enumerate() {
                assert_eq!(&got[l * n..(l + 1) * n], &h[..], "argsort, line {l}: {ctx}");
            }
            let s = a.sort(-1).unwrap().to_vec::<f32>().unwrap();
            for (l, h) in host.iter().enumerate() {
                for (j, &p) in h.iter().enumerate() {
                    assert_eq!(key(s[l * n + j]), key(v[l * n + p as usize]), "sort, line {l} at {j}: {ctx}");
                }
            }
            // Along axis 0 of the transposed view: the same lines, strided.
            let t = Array::from_vec(v.clone(), [lines, n]).unwrap().to_device(dev).unwrap().t().unwrap();
            let got = t.argsort(0).unwrap().t().unwrap().copy().unwrap().to_vec::<i64>().unwrap();
            assert_eq!(got, host.concat(), "argsort along axis 0 of a transposed view: {ctx}");
        }
    }
}

#[test]
fn integer_sorts_of_every_width_match_a_host_sort() {
    let raw: Vec<u64> = xorshift(1 << 18, 7).collect();
    for dev in devices() {
        for d in
            [DType::I8, DType::U16, DType::I32, DType::U32, DType::I64, DType::U64, DType::Bool, DType::F16, DType::F64]
        {
            let a = Array::from_vec(raw.clone(), [raw.len()]).unwrap().astype(d).unwrap();
            let wide = a.to_buffer().unwrap();
            let val = |i: usize| match wide.get(i).unwrap() {
                xp::Scalar::Int(v) => (v as i128, 0.0),
                xp::Scalar::Uint(v) => (v as i128, 0.0),
                xp::Scalar::Bool(v) => (v as i128, 0.0),
                xp::Scalar::Float(v) => (0, v),
                s => panic!("unexpected {s:?}"),
            };
            let mut want: Vec<usize> = (0..wide.len()).collect();
            want.sort_by(|&x, &y| val(x).partial_cmp(&val(y)).unwrap());
            let got = a.to_device(dev).unwrap().argsort(0).unwrap().to_vec::<i64>().unwrap();
            let got: Vec<usize> = got.into_iter().map(|i| i as usize).collect();
            assert_eq!(got, want, "argsort of {d} on {dev}");
        }
    }
}

#[test]
fn large_gathers_and_masks_match_host_loops() {
    let n = 1usize << 21;
    let v: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let idx: Vec<i64> = xorshift(1 << 20, 3).map(|r| (r % (2 * n as u64)) as i64 - n as i64).collect();
    for dev in devices() {
        let a = Array::from_vec(v.clone(), [n]).unwrap().to_device(dev).unwrap();
        let i = Array::from_vec(idx.clone(), [idx.len()]).unwrap().to_device(dev).unwrap();
        let got = a.take(&i, 0).unwrap().to_vec::<f32>().unwrap();
        let want: Vec<f32> = idx.iter().map(|&j| v[(j + if j < 0 { n as i64 } else { 0 }) as usize]).collect();
        assert_eq!(got, want, "take on {dev}");
        // A strided source and a strided index array: rows of a 2-D gather.
        let m = a.reshape([2048, 1024]).unwrap().slice(xp::s![..;2, 1..;3]).unwrap();
        let rows = i.slice(xp::s![..;7]).unwrap().remainder(1024).unwrap();
        let got = m.get(ix![&rows]).unwrap();
        assert_eq!(got.shape(), &[rows.size(), 341]);
        let (g, r) = (got.to_vec::<f32>().unwrap(), rows.to_vec::<i64>().unwrap());
        for (k, &row) in r.iter().enumerate().step_by(997) {
            for c in [0usize, 5, 340] {
                assert_eq!(g[k * 341 + c], (row as usize * 2 * 1024 + 1 + 3 * c) as f32, "row gather on {dev}");
            }
        }
        // a[a % 3 == 1]: compaction of every third element.
        let sel = a.get(a.remainder(3.0).unwrap().equal(1.0).unwrap()).unwrap().to_vec::<f32>().unwrap();
        assert_eq!(sel, v.iter().copied().filter(|x| x % 3.0 == 1.0).collect::<Vec<_>>(), "mask on {dev}");
        let nz = xp::flatnonzero(&a.remainder(5.0).unwrap()).unwrap().to_vec::<i64>().unwrap();
        assert_eq!(nz.len(), n - n.div_ceil(5), "flatnonzero count on {dev}");
        assert!(nz.windows(2).all(|w| w[0] < w[1]) && nz.iter().all(|&p| p % 5 != 0), "flatnonzero on {dev}");
    }
}

#[test]
fn scatters_with_duplicates_follow_numpys_rules() {
    let m = 1024usize;
    let idx: Vec<i64> = xorshift(1 << 20, 11).map(|r| (r % m as u64) as i64).collect();
    let vals: Vec<i32> = (0..idx.len() as i32).collect();
    // Last write wins; add.at sums every occurrence (exact in integers).
    let mut last = vec![0i32; m];
    let mut sums = vec![0i64; m];
    let mut prod = vec![1.0f64; m];
    for (&i, &x) in idx.iter().zip(&vals) {
        last[i as usize] = x;
        sums[i as usize] += x as i64;
        prod[i as usize] /= 1.0 + (x % 3) as f64;
    }
    for dev in devices() {
        let i = Array::from_vec(idx.clone(), [idx.len()]).unwrap().to_device(dev).unwrap();
        let v = Array::from_vec(vals.clone(), [vals.len()]).unwrap().to_device(dev).unwrap();
        let a = xp::on(dev).zeros([m], DType::I32).unwrap();
        a.set(&i, &v).unwrap();
        assert_eq!(a.to_vec::<i32>().unwrap(), last, "last write wins on {dev}");
        let s = xp::on(dev).zeros([m], DType::I64).unwrap();
        BinaryOp::Add.at(&s, &i, &v.astype(DType::I64).unwrap()).unwrap();
        assert_eq!(s.to_vec::<i64>().unwrap(), sums, "add.at on {dev}");
        // divide.at applies every occurrence in order (the ordered path on the GPU).
        let p = xp::on(dev).ones([m], DType::F64).unwrap();
        let d = v.remainder(3).unwrap().add(1).unwrap().astype(DType::F64).unwrap();
        BinaryOp::Div.at(&p, &i, &d).unwrap();
        assert_eq!(p.to_vec::<f64>().unwrap(), prod, "divide.at on {dev}");
        let f = xp::on(dev).zeros([m], DType::F32).unwrap();
        xp::scatter_add(&f, &i, &v.astype(DType::F32).unwrap()).unwrap();
        for (g, &w) in f.to_vec::<f32>().unwrap().iter().zip(&sums) {
            // ~1000 float32 additions per bin, in any order: a summation bound of 1000 ulp.
            assert!((*g as f64 - w as f64).abs() <= 1.2e-4 * w as f64 + 1.0, "float add.at on {dev}: {g} vs {w}");
        }
        let mx = xp::on(dev).full([m], -1, DType::I32).unwrap();
        xp::scatter_max(&mx, &i, &v).unwrap();
        assert_eq!(mx.to_vec::<i32>().unwrap(), last, "maximum.at on {dev} (values increase)");
    }
}

/// `add.at` / `subtract.at` into destinations of 3000 to 2^17 elements from 2^20 values: on the
/// GPU all in shared-memory accumulators, partly in the global tail, and the atomic path beyond.
#[test]
fn histograms_of_every_size_match_host_sums() {
    let n = 1usize << 20;
    let r: Vec<u64> = xorshift(n, 23).collect();
    for dev in devices() {
        let on = xp::on(dev);
        for (m, dt) in [(1usize << 16, DType::F32), (40_000, DType::F64), (1 << 17, DType::F64), (3000, DType::U32)] {
            let idx: Vec<i64> = r.iter().map(|x| (x % m as u64) as i64).collect();
            let vals: Vec<i64> = r.iter().map(|x| (x >> 40) as i64 % 1000).collect();
            let i = on.asarray(idx.clone(), [n]).unwrap();
            let v = on.asarray(vals.clone(), [n]).unwrap().astype(dt).unwrap();
            let bins = on.full([m], 7, dt).unwrap();
            let op = if dt == DType::U32 { BinaryOp::Sub } else { BinaryOp::Add };
            op.at(&bins, &i, &v).unwrap();
            let mut want = vec![7i64; m];
            for (&b, &x) in idx.iter().zip(&vals) {
                want[b as usize] += if op == BinaryOp::Sub { -x } else { x };
            }
            let got = bins.astype(DType::F64).unwrap().to_vec::<f64>().unwrap();
            for (b, (g, &w)) in got.iter().zip(&want).enumerate() {
                // Integer sums exact (uint32 wraps); ~16 float additions per bin, in any order.
                let w = if dt == DType::U32 { w.rem_euclid(1 << 32) as f64 } else { w as f64 };
                assert!((g - w).abs() <= 1e-5 * w.abs(), "{op:?}.at {dt} into {m} bins on {dev}: bin {b}: {g} vs {w}");
            }
        }
        // A 2-D destination, indexed along its last axis: (4, 2^14) int32 from (4, 2^18) values.
        let (rows, m, nb) = (4usize, 1usize << 14, 1usize << 18);
        let idx: Vec<i64> = r[..nb].iter().map(|x| (x % m as u64) as i64).collect();
        let i = on.asarray(idx.clone(), [nb]).unwrap();
        let v = on
            .arange(0, (rows * nb) as i64, 1, Some(DType::I32))
            .unwrap()
            .reshape([rows as isize, nb as isize])
            .unwrap();
        let a = on.zeros([rows, m], DType::I32).unwrap();
        BinaryOp::Add.at(&a, ix![.., &i], &v).unwrap();
        let mut want = vec![0i32; rows * m];
        for row in 0..rows {
            for (b, &t) in idx.iter().enumerate() {
                want[row * m + t as usize] = want[row * m + t as usize].wrapping_add((row * nb + b) as i32);
            }
        }
        assert_eq!(a.to_vec::<i32>().unwrap(), want, "add.at along the last axis on {dev}");
    }
}

#[test]
fn out_of_bounds_indices_give_numpys_first_violation_and_change_nothing() {
    for dev in devices() {
        let on = xp::on(dev);
        let a = on.zeros([3, 4], DType::F32).unwrap();
        let (r, c) = (on.asarray(vec![1i64, 7], [2]).unwrap(), on.asarray(vec![9i64, 1], [2]).unwrap());
        assert_eq!(a.get(ix![&r, &c]).unwrap_err(), Error::IndexOutOfBounds { index: 7, axis: 0, size: 3 }, "{dev}");
        assert_eq!(a.set(ix![&r, &c], 1.0).unwrap_err(), Error::IndexOutOfBounds { index: 7, axis: 0, size: 3 });
        assert_eq!(a.sum(..).unwrap().item::<f32>().unwrap(), 0.0, "a failed set wrote on {dev}");
        let n = 1usize << 20;
        let mut iv: Vec<i64> = (0..n as i64).collect();
        iv[700_001] = -(n as i64) - 1;
        iv[900_000] = n as i64;
        let big = on.arange(0, n as i64, 1, None).unwrap();
        let i = on.asarray(iv.clone(), [n]).unwrap();
        let want = Error::IndexOutOfBounds { index: -(n as isize) - 1, axis: 0, size: n };
        assert_eq!(big.take(&i, 0).unwrap_err(), want, "take on {dev}");
        assert_eq!(big.set(&i, 5).unwrap_err(), want, "set on {dev}");
        assert_eq!(BinaryOp::Add.at(&big, &i, 1).unwrap_err(), want, "add.at on {dev}");
        assert_eq!(big.to_vec::<i64>().unwrap(), (0..n as i64).collect::<Vec<_>>(), "failed scatters wrote on {dev}");
        // A histogram-sized destination (the GPU checks inside the update, on a copy).
        let bins = on.arange(0, 16, 1, None).unwrap();
        let hv: Vec<i64> = (0..4096)
            .map(|b| {
                if b == 3000 {
                    16
                } else if b == 3500 {
                    -17
                } else {
                    b % 16
                }
            })
            .collect();
        let hi = on.asarray(hv.clone(), [4096]).unwrap();
        assert_eq!(
            BinaryOp::Add.at(&bins, &hi, 1).unwrap_err(),
            Error::IndexOutOfBounds { index: 16, axis: 0, size: 16 }
        );
        assert_eq!(bins.to_vec::<i64>().unwrap(), (0..16).collect::<Vec<_>>(), "a failed add.at wrote on {dev}");
        // Past the GPU's shared-memory accumulators (57344 float32): the tail is staged too.
        let wide = on.zeros([60_000], DType::F32).unwrap();
        let wi = on.asarray(vec![59_999i64, 100, 60_000, 58_000], [4]).unwrap();
        let want = Error::IndexOutOfBounds { index: 60_000, axis: 0, size: 60_000 };
        assert_eq!(BinaryOp::Add.at(&wide, &wi, 2.0).unwrap_err(), want, "wide add.at on {dev}");
        assert_eq!(wide.sum(..).unwrap().item::<f32>().unwrap(), 0.0, "a failed wide add.at wrote on {dev}");
        let ok = hi.remainder(16).unwrap();
        BinaryOp::Add.at(&bins, &ok, 1).unwrap();
        let want: Vec<i64> =
            (0..16).map(|b| b + hv.iter().filter(|&&x| x.rem_euclid(16) == b).count() as i64).collect();
        assert_eq!(bins.to_vec::<i64>().unwrap(), want, "add.at into 16 bins on {dev}");
        let w = big.take_mode(&i, 0, IndexMode::Wrap).unwrap().to_vec::<i64>().unwrap();
        assert_eq!((w[700_001], w[900_000]), (n as i64 - 1, 0), "wrap on {dev}");
        let c = big.take_mode(&i, 0, IndexMode::Clip).unwrap().to_vec::<i64>().unwrap();
        assert_eq!((c[700_001], c[900_000], c[5]), (0, n as i64 - 1, 5), "clip on {dev}");
    }
}

#[test]
fn bad_indices_are_typed_errors_that_leave_inputs_untouched() {
    for dev in devices() {
        let on = xp::on(dev);
        let a = on.arange(0.0, 12.0, 1.0, Some(DType::F32)).unwrap().reshape([3, 4]).unwrap();
        let before = a.to_vec::<f32>().unwrap();
        let mask = on.ones([4], DType::Bool).unwrap();
        assert_eq!(a.get(&mask).unwrap_err(), Error::BoolIndexMismatch { axis: 0, size: 3, got: 4 });
        assert_eq!(a.set(&mask, 1.0).unwrap_err(), Error::BoolIndexMismatch { axis: 0, size: 3, got: 4 });
        let f = on.zeros([2], DType::F64).unwrap();
        assert!(matches!(a.get(&f), Err(Error::IndexDType { dtype: DType::F64, .. })));
        let i = on.asarray(vec![0i64], [1]).unwrap();
        assert_eq!(a.get(ix![&i, 0, 0]).unwrap_err(), Error::TooManyIndices { ndim: 2, given: 3 });
        let v = on.zeros([3], DType::F32).unwrap();
        let two = on.asarray(vec![0i64, 2], [2]).unwrap();
        assert!(matches!(a.set(ix![&two], &v), Err(Error::ShapeMismatch { .. })), "value shape on {dev}");
        if let Device::Cuda(_) = dev {
            let host = Array::from_vec(vec![0i64], [1]).unwrap();
            assert!(matches!(a.get(&host), Err(Error::DeviceMismatch { .. })));
            assert!(matches!(a.set(&host, 1.0), Err(Error::DeviceMismatch { .. })));
            assert!(matches!(BinaryOp::Add.at(&a, &host, 1.0), Err(Error::DeviceMismatch { .. })));
            assert!(matches!(
                xp::searchsorted(&a.ravel().unwrap(), &host.astype(DType::F32).unwrap(), Side::Left, None),
                Err(Error::DeviceMismatch { .. })
            ));
        }
        assert!(matches!(a.sort(..).unwrap().argpartition(&[12], 0), Err(Error::InvalidArgument { .. })));
        assert_eq!(a.to_vec::<f32>().unwrap(), before, "an input changed on {dev}");
        assert_eq!((f.to_vec::<f64>().unwrap(), mask.to_vec::<bool>().unwrap()), (vec![0.0; 2], vec![true; 4]));
    }
}

#[test]
fn partition_puts_each_kth_element_in_place() {
    let v = tied(5000, 5);
    for dev in devices() {
        let a = Array::from_vec(v.clone(), [5, 1000]).unwrap().to_device(dev).unwrap();
        let p = a.partition(&[0, 499, -1], -1).unwrap().to_vec::<f32>().unwrap();
        let ap = a.argpartition(&[10], 1).unwrap();
        let picked = xp::take_along_axis(&a, &ap, 1).unwrap().to_vec::<f32>().unwrap();
        for (l, line) in v.chunks(1000).enumerate() {
            let mut s = line.to_vec();
            s.sort_by(|x, y| key(*x).partial_cmp(&key(*y)).unwrap());
            for k in [0usize, 499, 999] {
                assert_eq!(key(p[l * 1000 + k]), key(s[k]), "partition line {l} k {k} on {dev}");
                assert!(p[l * 1000..l * 1000 + k].iter().all(|&x| key(x) <= key(s[k])), "left part on {dev}");
            }
            assert_eq!(key(picked[l * 1000 + 10]), key(s[10]), "argpartition line {l} on {dev}");
        }
    }
}

#[test]
fn unique_of_many_duplicates_matches_host_counts() {
    let raw: Vec<i32> = xorshift(1 << 20, 13).map(|r| (r % 5000) as i32 - 2500).collect();
    let mut counts = std::collections::BTreeMap::new();
    for &x in &raw {
        *counts.entry(x).or_insert(0i64) += 1;
    }
    for dev in devices() {
        let a = Array::from_vec(raw.clone(), [1 << 10, 1 << 10]).unwrap().to_device(dev).unwrap();
        let u = xp::unique_all(&a).unwrap();
        assert_eq!(u.values.to_vec::<i32>().unwrap(), counts.keys().copied().collect::<Vec<_>>(), "values on {dev}");
        assert_eq!(
            u.counts.unwrap().to_vec::<i64>().unwrap(),
            counts.values().copied().collect::<Vec<_>>(),
            "counts on {dev}"
        );
        let back = u.values.take(&u.inverse.unwrap(), ..).unwrap();
        assert_eq!(back.to_vec::<i32>().unwrap(), raw, "values[inverse] rebuilds the input on {dev}");
        let first = u.indices.unwrap().to_vec::<i64>().unwrap();
        for (k, &v) in counts.keys().enumerate().step_by(97) {
            assert_eq!(raw.iter().position(|&x| x == v).unwrap() as i64, first[k], "first index on {dev}");
        }
        let t = Array::from_vec(vec![-2500i32, 0, 2499, 9999], [4]).unwrap().to_device(dev).unwrap();
        let inn = xp::isin(&t, &a).unwrap().to_vec::<bool>().unwrap();
        assert_eq!(inn, vec![counts.contains_key(&-2500), counts.contains_key(&0), counts.contains_key(&2499), false]);
    }
}
