//! Compaction: values and coordinates, on one thread and with blocks of real threads.
use super::{arr, idx_cpp, print_floats, print_ints, run, run_threaded, unravel};
use crate::index::compact_src::{count_src, scan_src, write_src, Access, Out};
use crate::space::{idx, Idx};
use xp_core::{DType, Layout};

/// Run count, scan and write over `n` positions; `setup` declares the arrays, `write` calls the
/// write kernel `n2` given `offs`.
fn compaction(name: &str, f: Access, out: Out, n: usize, setup: &str, ix: &Idx, write: &str) -> Option<Vec<String>> {
    let t = n.div_ceil(16);
    let srcs = [count_src(f), scan_src(), write_src(f, out)];
    let main = format!(
        "{setup}{}  static int cnt[{t}]; static i64 offs[{}];\n  n0::xp_k(fp, ix, {n}, cnt); n1::xp_k(cnt, offs, {t});\n  printf(\"%lld \", offs[{t}]);\n{write}",
        idx_cpp("ix", ix),
        t + 1
    );
    run(name, &srcs, &main)
}

#[test]
fn compress_and_nonzero_match_numpy_on_the_cpu() {
    // Values: a (10, 11) f32 array under a mask of the same shape; dense and transposed.
    let n = 110;
    let mask: Vec<bool> = (0..n).map(|i| (i * 7) % 5 < 2 || i == 109).collect();
    let src: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
    for (vi, vl) in [Layout::contiguous(&[10, 11]), Layout::new(vec![10, 11], vec![1, 10], 0)].iter().enumerate() {
        let ml = Layout::contiguous(&[10, 11]);
        let ix = idx(&[&ml, vl]).unwrap();
        let va = Access { dtype: DType::F32, dense: vl.is_contiguous(), vec: if vl.is_contiguous() { 4 } else { 1 } };
        let fa = Access { dtype: DType::Bool, dense: true, vec: 16 };
        let setup = format!(
            "{}{}  const bool* fp = mask;\n  static float out[{n}];\n",
            arr("bool", "mask", &mask),
            arr("float", "src", &src)
        );
        let Some(got) = compaction(
            &format!("compress{vi}"),
            fa,
            Out::Values(va),
            n,
            &setup,
            &ix,
            &format!("  n2::xp_k(fp, ix, {n}, offs, src, out);\n{}", print_floats("out", n)),
        ) else {
            return;
        };
        let want: Vec<f32> = (0..n)
            .filter(|&i| mask[i])
            .map(|i| {
                let c = unravel(i, &[10, 11]);
                src[(c[0] as isize * vl.strides()[0] + c[1] as isize * vl.strides()[1]) as usize]
            })
            .collect();
        assert_eq!(got[0], want.len().to_string(), "count");
        let got: Vec<f32> = got[1..=want.len()].iter().map(|x| x.parse().unwrap()).collect();
        assert_eq!(got, want, "layout {vi}");
    }
    // Coordinates: nonzero of a strided (3, 4, 5) i32 view (every other element of its last axis).
    let shape = [3usize, 4, 5];
    let l = Layout::new(shape.to_vec(), vec![40, 10, 2], 1);
    let data: Vec<i32> = (0..121).map(|i| if i % 3 == 0 { 0 } else { i }).collect();
    let ix = idx(&[&l]).unwrap();
    let fa = Access { dtype: DType::I32, dense: false, vec: 1 };
    let setup = format!("{}  const i32* fp = data;\n  static i64 out[180];\n", arr("i32", "data", &data));
    let write = format!(
        "  n2::Dims dm = {{3, {{3, 4, 5}}}};\n  n2::xp_k(fp, ix, 60, offs, out, dm, 3, 1);\n{}",
        print_ints("out", 180)
    );
    let Some(got) = compaction("nonzero", fa, Out::Coords, 60, &setup, &ix, &write) else { return };
    let mut want = vec![];
    for i in 0..60 {
        let c = unravel(i, &shape);
        if data[1 + c[0] * 40 + c[1] * 10 + c[2] * 2] != 0 {
            want.extend(c.iter().map(|x| x.to_string()));
        }
    }
    assert_eq!(got[0], (want.len() / 3).to_string());
    assert_eq!(&got[1..=want.len()], &want[..]);
}

/// Count, scan and write with `g` blocks of `b` real threads; `setup` declares `fp` and the
/// output, `args` are the write kernel's output arguments.
#[allow(clippy::too_many_arguments)]
fn threaded(
    name: &str,
    f: Access,
    out: Out,
    n: usize,
    ix: &Idx,
    (g, b): (usize, usize),
    setup: &str,
    args: &str,
    print: &str,
) -> Option<Vec<String>> {
    let t = n.div_ceil(16 * b);
    let srcs = [count_src(f), scan_src(), write_src(f, out)];
    let main = format!(
        "{setup}{}  static int cnt[{t}]; static i64 offs[{}];
  xp_launch({g}, {b}, [&] {{ n0::xp_k(fp, ix, {n}, cnt); }});
  xp_launch(1, {b}, [&] {{ n1::xp_k(cnt, offs, {t}); }});
  xp_launch({g}, {b}, [&] {{ n2::xp_k(fp, ix, {n}, offs, {args}); }});
  printf(\"%lld \", offs[{t}]);\n{print}",
        idx_cpp("ix", ix),
        t + 1
    );
    run_threaded(name, &srcs, &main)
}

/// A reproducible pseudo-random sequence.
fn lcg(n: usize, seed: u64) -> Vec<u64> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            x >> 33
        })
        .collect()
}

#[test]
fn compaction_blocks_rank_across_warps() {
    for (b, g) in [(64, 2), (256, 3)] {
        // Values: a (50, 100) f32 array, contiguous and transposed, under a random mask.
        let n = 5000;
        let mask: Vec<bool> = lcg(n, 7).iter().map(|x| x % 3 == 0).collect();
        let src: Vec<f32> = (0..n).map(|i| i as f32).collect();
        for (vi, vl) in [Layout::contiguous(&[50, 100]), Layout::new(vec![50, 100], vec![1, 50], 0)].iter().enumerate()
        {
            let ml = Layout::contiguous(&[50, 100]);
            let ix = idx(&[&ml, vl]).unwrap();
            let va = Access { dtype: DType::F32, dense: vl.is_contiguous(), vec: 1 };
            let fa = Access { dtype: DType::Bool, dense: true, vec: 16 };
            let setup = format!(
                "{}{}  const bool* fp = mask;\n  static float out[{n}];\n",
                arr("bool", "mask", &mask),
                arr("float", "src", &src)
            );
            let Some(got) = threaded(
                &format!("tvalues{b}-{vi}"),
                fa,
                Out::Values(va),
                n,
                &ix,
                (g, b),
                &setup,
                "src, out",
                &print_floats("out", n),
            ) else {
                return;
            };
            let want: Vec<f32> = (0..n)
                .filter(|&i| mask[i])
                .map(|i| {
                    let c = unravel(i, &[50, 100]);
                    src[(c[0] as isize * vl.strides()[0] + c[1] as isize * vl.strides()[1]) as usize]
                })
                .collect();
            assert_eq!(got[0], want.len().to_string(), "count");
            let got: Vec<f32> = got[1..=want.len()].iter().map(|x| x.parse().unwrap()).collect();
            assert_eq!(got, want, "{b} threads, layout {vi}");
        }
        // Coordinates of the nonzeros of a strided (7, 9, 31) i32 view.
        let shape = [7usize, 9, 31];
        let n: usize = shape.iter().product();
        let l = Layout::new(shape.to_vec(), vec![9 * 62, 62, 2], 3);
        let data: Vec<i64> = lcg(2 * n + 4, 11).iter().map(|x| (x % 4) as i64).collect();
        let ix = idx(&[&l]).unwrap();
        let fa = Access { dtype: DType::I64, dense: false, vec: 1 };
        let setup = format!(
            "{}  const i64* fp = data;\n  static i64 out[{}];\n  n2::Dims dm = {{3, {{7, 9, 31}}}};\n",
            arr("i64", "data", &data),
            3 * n
        );
        let Some(got) = threaded(
            &format!("tcoords{b}"),
            fa,
            Out::Coords,
            n,
            &ix,
            (g, b),
            &setup,
            "out, dm, 3, 1",
            &print_ints("out", 3 * n),
        ) else {
            return;
        };
        let mut want = vec![];
        for i in 0..n {
            let c = unravel(i, &shape);
            if data[3 + c[0] * 9 * 62 + c[1] * 62 + c[2] * 2] != 0 {
                want.extend(c.iter().map(|x| x.to_string()));
            }
        }
        assert_eq!(got[0], (want.len() / 3).to_string());
        assert_eq!(&got[1..=want.len()], &want[..], "{b} threads");
    }
}
