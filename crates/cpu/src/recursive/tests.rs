//! The recursive filters against SciPy's loops: bit for bit where the lines run whole (lanes and
//! single lines, any strides, broadcast states, every specialisation and the slice loop), and
//! against a complex128 reference within rounding where long lines run in pieces.
use super::*;

/// SciPy's loops over one line, in place, written as SciPy writes them.
fn scipy_line<T: Sample>(kind: RecursionKind, coef: &[Complex64], line: &mut [T], z: &mut [T]) {
    let coef: Vec<T> = coef.iter().map(|&c| T::from_c(c)).collect();
    match kind {
        RecursionKind::Df2t => {
            let k = coef.len() / 2;
            let (b, a) = coef.split_at(k);
            for v in line.iter_mut() {
                let xn = *v;
                let yn = z[0] + b[0] * xn;
                for j in 0..k - 2 {
                    z[j] = z[j + 1] + xn * b[j + 1] - yn * a[j + 1];
                }
                z[k - 2] = xn * b[k - 1] - yn * a[k - 1];
                *v = yn;
            }
        }
        RecursionKind::Sos => {
            for v in line.iter_mut() {
                let mut cur = *v;
                for (s, zs) in coef.chunks_exact(6).zip(z.chunks_exact_mut(2)) {
                    let new = s[0] * cur + zs[0];
                    zs[0] = s[1] * cur - s[4] * new + zs[1];
                    zs[1] = s[2] * cur - s[5] * new;
                    cur = new;
                }
                *v = cur;
            }
        }
    }
}

/// A xorshift stream of values in [-1, 1).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }
    fn value<T: Sample>(&mut self, complex: bool) -> T {
        let im = if complex { self.next() } else { 0.0 };
        T::from_c(Complex64::new(self.next(), im))
    }
    fn values<T: Sample>(&mut self, n: usize, complex: bool) -> Vec<T> {
        (0..n).map(|_| self.value(complex)).collect()
    }
    /// A pole of magnitude below 0.9.
    fn pole(&mut self) -> Complex64 {
        Complex64::from_polar(0.9 * (0.3 + 0.7 * self.next().abs()), std::f64::consts::PI * self.next())
    }
}

fn is_complex<T: Sample>() -> bool {
    matches!(T::DTYPE, xp_core::DType::C64 | xp_core::DType::C128)
}

/// A stable filter of `order` in dtype `T` (coefficients rounded to it): poles in conjugate
/// pairs (real filters) or anywhere (complex ones) inside radius 0.9.
fn random_filter<T: Sample>(rng: &mut Rng, kind: RecursionKind, order: usize) -> Recursion {
    let complex = is_complex::<T>();
    let round = |c: Complex64| T::from_c(c).to_c();
    let coef = match kind {
        RecursionKind::Df2t => {
            let mut a = vec![Complex64::new(1.0, 0.0)];
            let mut poles = Vec::new();
            while poles.len() < order {
                let p = rng.pole();
                if complex {
                    poles.push(p);
                } else if order - poles.len() == 1 {
                    poles.push(Complex64::new(p.re, 0.0));
                } else {
                    poles.extend([p, p.conj()]);
                }
            }
            for p in poles {
                a.push(Complex64::new(0.0, 0.0));
                for j in (1..a.len()).rev() {
                    let prev = a[j - 1];
                    a[j] -= p * prev;
                }
            }
            let b: Vec<Complex64> = (0..=order).map(|_| rng.value::<T>(complex).to_c()).collect();
            b.into_iter()
                .chain(a.into_iter().map(|v| if complex { v } else { Complex64::new(v.re, 0.0) }))
                .map(round)
                .collect()
        }
        RecursionKind::Sos => (0..order)
            .flat_map(|_| {
                let p = rng.pole();
                let (a1, a2) = (-2.0 * p.re, p.norm_sqr());
                let b: Vec<Complex64> = (0..3).map(|_| rng.value::<T>(complex).to_c()).collect();
                [b[0], b[1], b[2], Complex64::new(1.0, 0.0), Complex64::new(a1, 0.0), Complex64::new(a2, 0.0)]
            })
            .map(round)
            .collect(),
    };
    Recursion { kind, coef }
}

/// Filters through the backend: `x` at `l`, the state `zi` at `zl`; returns `y` and `zf`.
fn backend<T: Sample>(x: &[T], l: &Layout, r: &Recursion, zi: &[T], zl: &Layout) -> (Vec<T>, Vec<T>) {
    let (xs, zs) = (CpuStorage(T::into_buffer(x.to_vec())), CpuStorage(T::into_buffer(zi.to_vec())));
    let out = recursive_filter(&xs, l, r, &zs, zl).unwrap();
    (T::slice_of(&out.y.0).unwrap().to_vec(), T::slice_of(&out.zf.0).unwrap().to_vec())
}

/// SciPy's loops over C-contiguous `lines × n` values from the C-contiguous states.
fn scipy_lines<T: Sample>(r: &Recursion, x: &[T], n: usize, zi: &[T]) -> (Vec<T>, Vec<T>) {
    let (mut y, mut z) = (x.to_vec(), zi.to_vec());
    for (line, z) in y.chunks_mut(n).zip(z.chunks_mut(r.state_len())) {
        scipy_line(r.kind, &r.coef, line, z);
    }
    (y, z)
}

fn bits<T: Sample>(v: &[T]) -> Vec<(u64, u64)> {
    v.iter().map(|x| x.to_c()).map(|c| (c.re.to_bits(), c.im.to_bits())).collect()
}

/// Every kind and order to try: the specialised ones, then some past them.
fn recursions<T: Sample>(rng: &mut Rng) -> Vec<Recursion> {
    let df2t = (1..=8).chain([12, 16, 20]).map(|o| (RecursionKind::Df2t, o));
    let sos = (1..=4).chain([8, 10]).map(|o| (RecursionKind::Sos, o));
    df2t.chain(sos).map(|(kind, o)| random_filter::<T>(rng, kind, o)).collect()
}

/// Many short lines, contiguous and transposed, with zero, random and broadcast states: bit for
/// bit SciPy's.
fn short_lines<T: Sample>() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let complex = is_complex::<T>();
    for r in recursions::<T>(&mut rng) {
        let k = r.state_len();
        for (lines, n) in [(37, 301), (3, 50), (5, 1), (1, 700), (20, 2000)] {
            let x: Vec<T> = rng.values(lines * n, complex);
            let l = Layout::contiguous(&[lines, n]);
            let zi: Vec<T> = rng.values(lines * k, complex);
            let zl = Layout::contiguous(&[lines, k]);
            let (y, zf) = backend(&x, &l, &r, &zi, &zl);
            let (ey, ez) = scipy_lines(&r, &x, n, &zi);
            assert_eq!(bits(&y), bits(&ey), "y of {:?} order {k}, {lines}x{n}", r.kind);
            assert_eq!(bits(&zf), bits(&ez), "zf of {:?} order {k}, {lines}x{n}", r.kind);

            // the same lines stored transposed (`n × lines`, read along the first axis)
            let xt: Vec<T> = (0..n * lines).map(|i| x[(i % lines) * n + i / lines]).collect();
            let lt = Layout::new(vec![lines, n], vec![1, lines as isize], 0);
            // one state broadcast to every line
            let z1: Vec<T> = rng.values(k, complex);
            let zb = Layout::new(vec![lines, k], vec![0, 1], 0);
            let (y, zf) = backend(&xt, &lt, &r, &z1, &zb);
            let (ey, ez) = scipy_lines(&r, &x, n, &z1.repeat(lines));
            assert_eq!(bits(&y), bits(&ey), "transposed y of {:?} order {k}", r.kind);
            assert_eq!(bits(&zf), bits(&ez), "transposed zf of {:?} order {k}", r.kind);
        }
    }
}

#[test]
fn recursive_short_lines_f32() {
    short_lines::<f32>();
}
#[test]
fn recursive_short_lines_f64() {
    short_lines::<f64>();
}
#[test]
fn recursive_short_lines_c64() {
    short_lines::<Complex32>();
}
#[test]
fn recursive_short_lines_c128() {
    short_lines::<Complex64>();
}

/// The largest difference from the complex128 reference, relative to the signal's largest
/// magnitude, of `y` and of `zf`.
fn errors<T: Sample>(r: &Recursion, x: &[T], n: usize, zi: &[T], y: &[T], zf: &[T]) -> (f64, f64) {
    let wide = |v: &[T]| v.iter().map(|v| v.to_c()).collect::<Vec<_>>();
    let (ey, ez) = scipy_lines(r, &wide(x), n, &wide(zi));
    let rel = |got: &[T], want: &[Complex64]| {
        let top = want.iter().map(|v| v.norm()).fold(0.0, f64::max).max(f64::MIN_POSITIVE);
        got.iter().zip(want).map(|(g, w)| (g.to_c() - w).norm() / top).fold(0.0, f64::max)
    };
    (rel(y, &ey), rel(zf, &ez))
}

/// The tolerance of the piece path: `tol`, or four times the error of SciPy's own loop in the
/// dtype where that is larger (a high-order direct form in float32 loses digits either way).
fn within<T: Sample>(r: &Recursion, x: &[T], n: usize, zi: &[T], tol: f64) -> f64 {
    let (y, zf) = scipy_lines(r, x, n, zi);
    let (ey, ez) = errors(r, x, n, zi, &y, &zf);
    tol.max(4.0 * ey.max(ez))
}

/// Long lines (the piece path), one contiguous, then three transposed with a broadcast state.
fn long_lines<T: Sample>(tol: f64) {
    let mut rng = Rng(0x0fed_cba9_8765_4321);
    let complex = is_complex::<T>();
    let mut rs = recursions::<T>(&mut rng);
    // SciPy's butter(4, 0.1) and butter(2, 0.05, output='sos'): poles near the unit circle
    let butter = [
        0.00041659920440659937,
        0.0016663968176263975,
        0.002499595226439596,
        0.0016663968176263975,
        0.00041659920440659937,
        1.0,
    ];
    let a = [-3.180638548874719, 3.8611943489942133, -2.112155355110969, 0.43826514226197977];
    let coef = butter.iter().chain(&a).map(|&v| T::from_c(Complex64::new(v, 0.0)).to_c()).collect();
    rs.push(Recursion { kind: RecursionKind::Df2t, coef });
    let sos = [
        0.005542717210280682,
        0.011085434420561363,
        0.005542717210280682,
        1.0,
        -1.7786317778245846,
        0.8008026466657073,
    ];
    let coef = sos.iter().map(|&v| T::from_c(Complex64::new(v, 0.0)).to_c()).collect();
    rs.push(Recursion { kind: RecursionKind::Sos, coef });
    for r in rs {
        let k = r.state_len();
        let n = 100_003;
        let x: Vec<T> = rng.values(n, complex);
        let zi: Vec<T> = rng.values(k, complex);
        let (y, zf) = backend(&x, &Layout::contiguous(&[1, n]), &r, &zi, &Layout::contiguous(&[1, k]));
        let (ey, ez) = errors(&r, &x, n, &zi, &y, &zf);
        let tol = within(&r, &x, n, &zi, tol);
        assert!(ey < tol && ez < tol, "{:?} order {k}: y error {ey:e}, zf error {ez:e}", r.kind);

        let (lines, n) = (3, 60_001);
        let x: Vec<T> = rng.values(lines * n, complex);
        let xt: Vec<T> = (0..n * lines).map(|i| x[(i % lines) * n + i / lines]).collect();
        let lt = Layout::new(vec![lines, n], vec![1, lines as isize], 0);
        let z1: Vec<T> = rng.values(k, complex);
        let (y, zf) = backend(&xt, &lt, &r, &z1, &Layout::new(vec![lines, k], vec![0, 1], 0));
        let (ey, ez) = errors(&r, &x, n, &z1.repeat(lines), &y, &zf);
        let tol = within(&r, &x, n, &z1.repeat(lines), tol);
        assert!(ey < tol && ez < tol, "{:?} order {k}, 3 lines: y error {ey:e}, zf error {ez:e}", r.kind);
    }
}

#[test]
fn recursive_long_lines_f32() {
    long_lines::<f32>(1e-4);
}
#[test]
fn recursive_long_lines_f64() {
    long_lines::<f64>(1e-11);
}
#[test]
fn recursive_long_lines_c64() {
    long_lines::<Complex32>(1e-4);
}
#[test]
fn recursive_long_lines_c128() {
    long_lines::<Complex64>(1e-11);
}

/// The piece path is taken for a long line of a decaying filter, and not for an integrator.
#[test]
fn recursive_pieces_taken() {
    struct Probe<'a>(&'a Lines<'a, f32>, &'a Recursion);
    impl WithStep<f32> for Probe<'_> {
        type Out = bool;
        fn with<R: Step<f32>>(self, r: R) -> bool {
            chunks::run::<f32, R, 16>(&r, self.1, self.0).is_some()
        }
    }
    let n = 100_000;
    let x = vec![1.0f32; n];
    let lines = Lines { src: vec![Src { data: &x, start: 0, stride: 1, len: n }], n, zi: vec![0.0; 1], k: 1 };
    let c = |v: &[f64]| v.iter().map(|&v| Complex64::new(v, 0.0)).collect::<Vec<_>>();
    let decaying = Recursion { kind: RecursionKind::Df2t, coef: c(&[1.0, 0.0, 1.0, -0.5]) };
    assert!(dispatch(&decaying, Probe(&lines, &decaying)));
    let integrator = Recursion { kind: RecursionKind::Df2t, coef: c(&[1.0, 0.0, 1.0, -1.0]) };
    assert!(!dispatch(&integrator, Probe(&lines, &integrator)));
    // and the integrator's whole line is still right
    let (y, zf) = backend(&x, &Layout::contiguous(&[1, n]), &integrator, &[0.0], &Layout::contiguous(&[1, 1]));
    assert_eq!((y[n - 1], zf[0]), (n as f32, n as f32));
}

/// A dtype other than the four, and mismatched dtypes, are refused.
#[test]
fn recursive_dtypes_refused() {
    let r = Recursion { kind: RecursionKind::Df2t, coef: vec![Complex64::new(1.0, 0.0); 4] };
    let x = CpuStorage(HostBuffer::I32(vec![1, 2, 3]));
    let z = CpuStorage(HostBuffer::I32(vec![0]));
    let (l, zl) = (Layout::contiguous(&[3]), Layout::contiguous(&[1]));
    assert!(recursive_filter(&x, &l, &r, &z, &zl).is_err());
    let x = CpuStorage(HostBuffer::F32(vec![1.0, 2.0, 3.0]));
    let z = CpuStorage(HostBuffer::F64(vec![0.0]));
    assert!(recursive_filter(&x, &l, &r, &z, &zl).is_err());
}

/// Timings of the benchmark's shapes (run with `--release --ignored --nocapture`).
#[test]
#[ignore]
fn recursive_timing() {
    let c = |v: &[f64]| v.iter().map(|&v| Complex64::new(v as f32 as f64, 0.0)).collect::<Vec<_>>();
    let b = [0.000_416_599_2, 0.001_666_396_9, 0.002_499_595_3, 0.001_666_396_9, 0.000_416_599_2];
    let a = [1.0, -3.180_638_6, 3.861_194_4, -2.112_155_4, 0.438_265_14];
    let df2t = Recursion { kind: RecursionKind::Df2t, coef: c(&[b, a].concat()) };
    let sos = Recursion { kind: RecursionKind::Sos, coef: c(&[1e-7, 2e-7, 1e-7, 1.0, -1.46, 0.535].repeat(4)) };
    let mut rng = Rng(7);
    for r in [&df2t, &sos] {
        for (lines, n) in [(64, 1 << 18), (1, 1 << 24)] {
            let x = CpuStorage(HostBuffer::F32(rng.values(lines * n, false)));
            let k = r.state_len();
            let z = CpuStorage(HostBuffer::F32(vec![0.0; lines * k]));
            let (l, zl) = (Layout::contiguous(&[lines, n]), Layout::contiguous(&[lines, k]));
            let mut best = f64::INFINITY;
            for _ in 0..15 {
                let t = std::time::Instant::now();
                drop(recursive_filter(&x, &l, r, &z, &zl).unwrap());
                best = best.min(t.elapsed().as_secs_f64());
            }
            eprintln!(
                "{:?} {lines}x{n}: {:.2} ms {:.3} ns/sample",
                r.kind,
                best * 1e3,
                best * 1e9 / (lines * n) as f64
            );
        }
    }
}
