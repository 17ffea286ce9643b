//! Linear algebra by property, on every device: matrix products at sizes around the GPU kernels'
//! tile edges against exact integer products (every dtype, transposed / negative-step /
//! broadcast operands); decompositions of random and ill-conditioned matrices checked by
//! reconstruction, orthogonality and residuals against float64 host arithmetic; and the typed
//! errors of bad input.
use xp::linalg::{self, QrMode, Uplo};
use xp::{s, Array, Complex64, DType, Device, Error, LinAlgKind};
use xp_testing::{devices, Failures};

/// Deterministic small integers in [-3, 3] (0..=3 for unsigned and bool-ish use).
fn ints(n: usize, seed: u64) -> Vec<i64> {
    crate::common::xorshift(n, seed).map(|s| (s % 7) as i64 - 3).collect()
}

fn host_c(a: &Array) -> Vec<Complex64> {
    xp_testing::widen(&a.to_buffer().unwrap())
}

/// The exact product of integer matrices (row-major), as i64.
fn exact(a: &[i64], b: &[i64], m: usize, k: usize, n: usize) -> Vec<i64> {
    let mut c = vec![0i64; m * n];
    for i in 0..m {
        for p in 0..k {
            for j in 0..n {
                c[i * n + j] += a[i * k + p] * b[p * n + j];
            }
        }
    }
    c
}

/// What NumPy's matmul gives for dtype `d` from the exact integer product `v`.
fn expected(v: i64, d: DType) -> Complex64 {
    let r = match d {
        DType::Bool => (v != 0) as i64 as f64,
        DType::I8 => v as i8 as f64,
        DType::U8 => v as u8 as f64,
        DType::I16 => v as i16 as f64,
        DType::U16 => v as u16 as f64,
        DType::I32 => v as i32 as f64,
        DType::U32 => v as u32 as f64,
        DType::U64 => v as u64 as f64,
        _ => v as f64,
    };
    Complex64::new(r, 0.0)
}

#[test]
fn stacks_of_row_column_products_are_exact_with_broadcast_and_reversed_operands() {
    // (3, 1, k) @ (k, 1), the column reversed in memory and broadcast over the stack: a 1 × 1
    // output per matrix (on the GPU a sum-of-products reduction from k = 257)
    let k = 3001;
    let (av, bv) = (ints(3 * k, 11), ints(k, 13));
    let want: Vec<i64> = (0..3).map(|i| (0..k).map(|j| av[i * k + j] * bv[j]).sum()).collect();
    let mut f = Failures::default();
    for dev in devices() {
        for d in [DType::F32, DType::F64, DType::C64, DType::C128, DType::I64] {
            let a = Array::from_vec(av.clone(), [3, 1, k]).unwrap().astype(d).unwrap().to_device(dev).unwrap();
            let b = Array::from_vec(bv.clone(), [k, 1]).unwrap().astype(d).unwrap().to_device(dev).unwrap();
            let brev = b.flip(0).unwrap().copy().unwrap().flip(0).unwrap();
            for (name, y) in [("c", &b), ("neg", &brev)] {
                let ctx = format!("matmul {d} (3, 1, {k}) @ ({k}, 1) {name} on {dev}");
                f.add(match xp::matmul(&a, y) {
                    Ok(c) if c.shape() != [3, 1, 1] || c.dtype() != d => Err(format!("{ctx}: got {:?}", c.shape())),
                    Ok(c) => {
                        let got = host_c(&c);
                        let w: Vec<Complex64> = want.iter().map(|&v| Complex64::new(v as f64, 0.0)).collect();
                        if got == w {
                            Ok(())
                        } else {
                            Err(format!("{ctx}: {got:?}, exact {w:?}"))
                        }
                    }
                    Err(e) => Err(format!("{ctx}: {e}")),
                });
            }
        }
    }
    f.finish();
}

#[test]
fn matmul_at_tile_edges_is_exact_for_every_dtype_and_layout() {
    let mut f = Failures::default();
    let sizes = [
        (1, 1, 1),
        (15, 16, 17),
        (16, 16, 16),
        (17, 33, 31),
        (32, 32, 32),
        (33, 63, 65),
        (64, 64, 64),
        (65, 129, 63),
        (128, 17, 129),
        // matrix-vector products (the GPU's GEMV kernel from k = 256, the CPU's loops)
        (300, 257, 1),
        (7, 1024, 1),
        (1, 257, 300),
        // the CPU's row kernels: four rows at a time and the rest one by one (13 = 3·4 + 1), eight,
        // four and single rows of the matrix per pass (300 = 37·8 + 4)
        (13, 70, 1),
        (1, 300, 5),
        // tiny outputs with a long inner dimension (the CPU's outer-product loop)
        (2, 1024, 2),
        (3, 4000, 5),
        // a 1 × 1 output with a long inner dimension (the GPU's sum-of-products reduction; from
        // k = 2^16 the CPU splits the row over the cores in fixed blocks)
        (1, 5000, 1),
        (1, 70_000, 1),
    ];
    // under the sanitizer: one size on each side of the kernels' tile edges, a GEMV, a dot
    let sanitized = [sizes[1], sizes[2], sizes[3], sizes[9], sizes[16]];
    let sizes = if crate::common::sanitizing() { &sanitized[..] } else { &sizes[..] };
    for dev in devices() {
        for d in DType::ALL {
            for &(m, k, n) in sizes {
                if m * k * n > 70_000 && !matches!(d, DType::F32 | DType::I32 | DType::F64 | DType::C64) {
                    continue;
                }
                let (av, bv) = (ints(m * k, (m * 31 + k) as u64), ints(k * n, (k * 17 + n) as u64));
                // bool and unsigned: values folded into their range (0/1; 0..=3).
                let fold = |v: &[i64]| -> Vec<i64> {
                    match d {
                        DType::Bool => v.iter().map(|x| (x & 1).abs()).collect(),
                        _ if d.kind() == xp::Kind::Uint => v.iter().map(|x| x.abs()).collect(),
                        _ => v.to_vec(),
                    }
                };
                let (av, bv) = (fold(&av), fold(&bv));
                // float16/bfloat16 round products of k terms; keep k small enough to stay exact.
                if matches!(d, DType::F16 | DType::BF16) && k > 64 {
                    continue;
                }
                let want: Vec<Complex64> = exact(&av, &bv, m, k, n).into_iter().map(|v| expected(v, d)).collect();
                let mk = |v: &[i64], r: usize, c: usize| -> Array {
                    let a = Array::from_vec(v.to_vec(), [r, c]).unwrap().astype(d).unwrap();
                    a.to_device(dev).unwrap()
                };
                let (a, b) = (mk(&av, m, k), mk(&bv, k, n));
                // The same logical operands through transposes, negative steps and stepped views.
                let at = a.t().unwrap().copy().unwrap().t().unwrap(); // F-ordered
                let bt = b.t().unwrap().copy().unwrap().t().unwrap();
                let arev = a.flip(-1).unwrap().copy().unwrap().flip(-1).unwrap(); // negative column step
                let brev = b.flip(0).unwrap().copy().unwrap().flip(0).unwrap(); // negative row step
                let wide = xp::on(dev).zeros([m, 2 * k], d).unwrap();
                wide.slice(s![.., ..;2]).unwrap().assign(&a).unwrap();
                let astep = wide.slice(s![.., ..;2]).unwrap();
                let arows = a.flip(0).unwrap().copy().unwrap().flip(0).unwrap(); // negative row step
                for (name, x, y) in [
                    ("c/c", &a, &b),
                    ("f/f", &at, &bt),
                    ("f/c", &at, &b),
                    ("neg/neg", &arev, &brev),
                    ("step/f", &astep, &bt),
                    ("c/neg", &a, &brev),
                    ("negrows/c", &arows, &b),
                ] {
                    let ctx = format!("matmul {d} {m}x{k}x{n} {name} on {dev}");
                    match xp::matmul(x, y) {
                        Ok(c) if c.dtype() != d || c.shape() != [m, n] => {
                            f.add(Err(format!("{ctx}: got {} {:?}", c.dtype(), c.shape())))
                        }
                        Ok(c) => {
                            let got = host_c(&c);
                            if let Some(i) = (0..got.len()).find(|&i| got[i] != want[i]) {
                                f.add(Err(format!("{ctx}: element {i} is {}, exact {}", got[i], want[i])));
                            }
                        }
                        Err(e) => f.add(Err(format!("{ctx}: {e}"))),
                    }
                }
            }
        }
    }
    f.finish();
}

#[test]
fn batched_matmul_broadcasts_zero_stride_batches() {
    let mut f = Failures::default();
    for dev in devices() {
        for d in [DType::F32, DType::F64, DType::C128, DType::I32, DType::F16] {
            let (av, bv) = (ints(3 * 4 * 5, 1), ints(5 * 6, 2));
            let a = Array::from_vec(av.clone(), [3, 1, 4, 5]).unwrap().astype(d).unwrap().to_device(dev).unwrap();
            let b = Array::from_vec(bv.clone(), [5, 6]).unwrap().astype(d).unwrap().to_device(dev).unwrap();
            let b3 = b.broadcast_to([2, 5, 6]).unwrap(); // a stride-0 batch axis
            let c = xp::matmul(&a, &b3).unwrap();
            assert_eq!(c.shape(), &[3, 2, 4, 6]);
            let got = host_c(&c);
            for i in 0..3 {
                let want = exact(&av[i * 20..(i + 1) * 20], &bv, 4, 5, 6);
                for j in 0..2 {
                    for q in 0..24 {
                        if got[(i * 2 + j) * 24 + q] != expected(want[q], d) {
                            f.add(Err(format!("{d} on {dev}: batch ({i}, {j}) element {q}")));
                        }
                    }
                }
            }
        }
    }
    f.finish();
}

/// A Hilbert matrix (condition ~1e10 at n = 8): the classic ill-conditioned test.
fn hilbert(n: usize) -> Vec<f64> {
    (0..n * n).map(|q| 1.0 / ((q / n + q % n + 1) as f64)).collect()
}

fn random(n: usize, seed: u64) -> Vec<f64> {
    ints(n, seed).into_iter().map(|v| v as f64 / 3.0 + 0.01 * ((v * 7) % 5) as f64).collect()
}

/// max |x - y| / max(1, max |y|) on the host.
fn rel_err(x: &Array, y: &Array) -> f64 {
    let (a, b) = (host_c(x), host_c(y));
    let scale = b.iter().map(|z| z.norm()).fold(1.0, f64::max);
    a.iter().zip(&b).map(|(p, q)| (p - q).norm()).fold(0.0, f64::max) / scale
}

fn on(dev: Device, v: Vec<f64>, shape: &[usize], d: DType) -> Array {
    Array::from_vec(v, shape).unwrap().astype(d).unwrap().to_device(dev).unwrap()
}

fn eps(d: DType) -> f64 {
    if matches!(d, DType::F32 | DType::C64) {
        1.2e-7
    } else {
        2.3e-16
    }
}

#[test]
fn decompositions_reconstruct_random_and_ill_conditioned_matrices() {
    let mut f = Failures::default();
    for dev in devices() {
        for d in [DType::F32, DType::F64, DType::C64, DType::C128] {
            let e = eps(d);
            for (name, n, data, cond) in [
                ("random", 6, random(36, 3), 1e2),
                ("hilbert", 6, hilbert(6), 1.5e7),
                ("random-big", 40, random(1600, 9), 1e3),
            ] {
                if matches!(d, DType::F32 | DType::C64) && cond > 1e6 {
                    continue; // beyond single precision
                }
                let a = on(dev, data.clone(), &[n, n], d);
                let ctx = |what: &str| format!("{what} of {name} {n}x{n} {d} on {dev}");
                let mut check = |what: &str, err: f64, bound: f64| {
                    if err.is_nan() || err > bound {
                        f.add(Err(format!("{}: error {err:e} above {bound:e}", ctx(what))));
                    }
                };
                let tol = 50.0 * n as f64 * e;
                // solve: the residual is small relative to |A| |x| however ill-conditioned A is
                // (backward stability of LU with partial pivoting).
                let b = on(dev, random(n * 2, 5), &[n, 2], d);
                let x = linalg::solve(&a, &b).unwrap();
                let mx = |t: &Array| host_c(t).iter().map(|z| z.norm()).fold(0.0, f64::max);
                let scale = mx(&a) * mx(&x) * n as f64 / mx(&b).max(1.0);
                check("solve residual", rel_err(&xp::matmul(&a, &x).unwrap(), &b), tol * scale.max(1.0));
                let ia = linalg::inv(&a).unwrap();
                check(
                    "inv",
                    rel_err(&xp::matmul(&a, &ia).unwrap(), &xp::on(dev).eye(n, None, 0, d).unwrap()),
                    tol * cond,
                );
                // QR: Q R = A, Q orthonormal.
                let qr = linalg::qr(&a, QrMode::Reduced).unwrap();
                let q = qr.q.unwrap();
                check("qr", rel_err(&xp::matmul(&q, &qr.r).unwrap(), &a), tol);
                let qhq = xp::matmul(&q.matrix_transpose().unwrap().conj().unwrap(), &q).unwrap();
                check("qr orthogonality", rel_err(&qhq, &xp::on(dev).eye(n, None, 0, d).unwrap()), tol);
                // SVD: U diag(s) Vh = A.
                let sv = linalg::svd(&a, false).unwrap();
                let us = sv.u.mul(&sv.s.astype(d).unwrap().expand_dims(0).unwrap()).unwrap();
                check("svd", rel_err(&xp::matmul(&us, &sv.vh).unwrap(), &a), tol);
                // Hermitian: A + Aᴴ, eigh: A V = V diag(w); cholesky of A Aᴴ + n I.
                let h = a.add(&a.matrix_transpose().unwrap().conj().unwrap()).unwrap();
                let eh = linalg::eigh(&h, Uplo::Lower).unwrap();
                let vw = eh.v.mul(&eh.w.astype(d).unwrap().expand_dims(0).unwrap()).unwrap();
                check("eigh", rel_err(&xp::matmul(&h, &eh.v).unwrap(), &vw), tol * 4.0);
                let pd = xp::matmul(&a, &a.matrix_transpose().unwrap().conj().unwrap())
                    .unwrap()
                    .add(&xp::on(dev).eye(n, None, 0, d).unwrap().mul(n as f64).unwrap())
                    .unwrap();
                let l = linalg::cholesky(&pd, Uplo::Lower).unwrap();
                check(
                    "cholesky",
                    rel_err(&xp::matmul(&l, &l.matrix_transpose().unwrap().conj().unwrap()).unwrap(), &pd),
                    tol,
                );
                // eig: A V = V diag(w) in complex arithmetic.
                if name != "hilbert" {
                    let eg = linalg::eig(&a).unwrap();
                    let c = if d.is_complex() { d } else { d.to_complex() };
                    let (ac, vc, wc) = (a.astype(c).unwrap(), eg.v.astype(c).unwrap(), eg.w.astype(c).unwrap());
                    let lhs = xp::matmul(&ac, &vc).unwrap();
                    check("eig", rel_err(&lhs, &vc.mul(&wc.expand_dims(0).unwrap()).unwrap()), tol * 20.0);
                }
            }
        }
    }
    f.finish();
}

/// `sin(0.37 k)` reshaped to rows × cols: rank 2 up to rounding, so its singular values span
/// sixteen orders of magnitude, where an SVD that is only backward stable in the large loses
/// digits (faer alone: |U S Vh - A| = 2.4e-11 in float64 at 512 × 64, LAPACK 1.3e-14).
fn rank_two(rows: usize, cols: usize) -> Vec<f64> {
    (0..rows * cols).map(|k| (0.37 * k as f64).sin()).collect()
}

#[test]
fn svd_reconstructs_rank_deficient_tall_square_and_wide_matrices() {
    let mut f = Failures::default();
    for dev in devices() {
        for d in [DType::F32, DType::F64, DType::C64, DType::C128] {
            // Under racecheck cuSOLVER's SVDs of these sizes took over 440 s: two small shapes.
            let shapes: &[(usize, usize)] = if crate::common::sanitizing() {
                &[(48, 20), (20, 36)]
            } else {
                &[(512, 64), (64, 512), (200, 100), (64, 64), (100, 80)]
            };
            for &(m, n) in shapes {
                for full in [false, true] {
                    let a = on(dev, rank_two(m, n), &[m, n], d);
                    // also as a transposed view of the other orientation
                    let at = on(dev, rank_two(n, m), &[n, m], d).matrix_transpose().unwrap();
                    for (layout, a) in [("contiguous", a), ("transposed", at)] {
                        let sv = linalg::svd(&a, full).unwrap();
                        let k = m.min(n) as isize;
                        let u = sv.u.slice(s![.., ..k]).unwrap();
                        let vh = sv.vh.slice(s![..k, ..]).unwrap();
                        let us = u.mul(&sv.s.astype(d).unwrap().expand_dims(0).unwrap()).unwrap();
                        let err = rel_err(&xp::matmul(&us, &vh).unwrap(), &a);
                        let uhu = xp::matmul(&sv.u.matrix_transpose().unwrap().conj().unwrap(), &sv.u).unwrap();
                        let eye = xp::on(dev).eye(uhu.shape()[0], None, 0, d).unwrap();
                        let orth = rel_err(&uhu, &eye);
                        let bound = 20.0 * (m.max(n) as f64).sqrt() * eps(d);
                        if err.is_nan() || err > bound || orth.is_nan() || orth > bound * 10.0 {
                            f.add(Err(format!(
                                "svd of rank-2 {m}x{n} {d} {layout} full={full} on {dev}: |U S Vh - A| = {err:e}, \
                                 |UᴴU - I| = {orth:e} (bounds {bound:e}, {:e})",
                                bound * 10.0
                            )));
                        }
                    }
                }
            }
        }
    }
    f.finish();
}

#[test]
fn stacks_report_the_first_failing_matrix() {
    for dev in devices() {
        let mut v = vec![];
        for k in 0..4 {
            let m = if k == 2 { [1.0, 2.0, 2.0, 4.0] } else { [2.0 + k as f64, 1.0, 1.0, 3.0] };
            v.extend(m);
        }
        let a = on(dev, v, &[2, 2, 2, 2], DType::F64);
        match linalg::inv(&a) {
            Err(Error::LinAlg { op: "inv", kind: LinAlgKind::Singular { index: 2 } }) => {}
            r => panic!("inv on {dev}: {r:?}"),
        }
        match linalg::solve(&a, &xp::on(dev).ones([2, 2, 2, 1], DType::F64).unwrap()) {
            Err(Error::LinAlg { op: "solve", kind: LinAlgKind::Singular { index: 2 } }) => {}
            r => panic!("solve on {dev}: {r:?}"),
        }
        let mut p = vec![];
        for k in 0..3 {
            p.extend(if k == 1 { [1.0, 2.0, 2.0, 1.0] } else { [2.0, 0.5, 0.5, 2.0] });
        }
        match linalg::cholesky(&on(dev, p, &[3, 2, 2], DType::F32), Uplo::Lower) {
            Err(Error::LinAlg { op: "cholesky", kind: LinAlgKind::NotPositiveDefinite { index: 1, order: 2 } }) => {}
            r => panic!("cholesky on {dev}: {r:?}"),
        }
    }
}

#[test]
fn bad_input_gives_typed_errors_that_name_the_problem() {
    for dev in devices() {
        let m = |shape: &[usize], d: DType| xp::on(dev).ones(shape, d).unwrap();
        let e = xp::matmul(&m(&[2, 3], DType::F32), &m(&[2, 3], DType::F32)).unwrap_err();
        assert!(matches!(&e, Error::NotAligned { lhs, rhs, .. } if lhs == &[2, 3] && rhs == &[2, 3]), "{e}");
        assert!(e.to_string().contains("[2, 3]"), "{e}");
        assert!(matches!(xp::dot(&m(&[4], DType::F64), &m(&[3], DType::F64)), Err(Error::NotAligned { .. })));
        let e = xp::matmul(&m(&[2, 2, 3], DType::F32), &m(&[3, 3, 2], DType::F32)).unwrap_err();
        assert!(matches!(e, Error::ShapeMismatch { .. }), "batch axes that do not broadcast: {e}");
        assert!(matches!(
            linalg::inv(&m(&[2, 3], DType::F64)),
            Err(Error::LinAlg { kind: LinAlgKind::NotSquare { rows: 2, cols: 3 }, .. })
        ));
        assert!(matches!(
            linalg::det(&m(&[3], DType::F64)),
            Err(Error::LinAlg { kind: LinAlgKind::NotMatrix { ndim: 1 }, .. })
        ));
        for d in [DType::F16, DType::BF16] {
            let e = linalg::svd(&m(&[2, 2], d), true).unwrap_err();
            assert!(matches!(e, Error::InvalidDType { op: "svd", dtype } if dtype == d), "{e}");
        }
        for bad in ["ij,jk->iz", "ij->ii", "i#", "ij,jk->ik->i", "...i..."] {
            let a = m(&[2, 2], DType::F64);
            assert!(matches!(xp::einsum(bad, &[&a, &a]), Err(Error::InvalidArgument { op: "einsum", .. })), "{bad}");
        }
        // A failed call leaves its inputs untouched.
        let a = on(dev, vec![1.0, 2.0, 2.0, 4.0], &[2, 2], DType::F64);
        let before = a.to_vec::<f64>().unwrap();
        assert!(linalg::inv(&a).is_err());
        assert_eq!(a.to_vec::<f64>().unwrap(), before);
        // Operands on different devices.
        if let Device::Cuda(_) = dev {
            let c = m(&[2, 2], DType::F32).to_host().unwrap();
            let g = m(&[2, 2], DType::F32);
            for r in [xp::matmul(&c, &g), linalg::solve(&c, &g), xp::einsum("ij,jk", &[&c, &g])] {
                assert!(matches!(r, Err(Error::DeviceMismatch { .. })), "{r:?}");
            }
        }
    }
}
