//! Scatters: assignment (winners by atomics and by sorting), `ufunc.at` by atomics, CAS loops and
//! the ordered path, against NumPy's sequential loop.
use super::{arr, idx_cpp, ks_cpp, print_floats, print_ints, run, Case};
use crate::index::atomic::{strategy, Strategy};
use crate::index::flag::locate;
use crate::index::scatter::{assign_src, atomic_src, ordered_src, per_b_src, Dedupe};
use crate::index::Fix;
use xp_core::{BinaryOp, DType, Layout};

/// A value of dtype `d` as a C++ literal (`v` small).
fn lit(d: DType, v: f64) -> String {
    match d {
        DType::Bool => (v != 0.0).to_string(),
        d if d.is_float() && v.is_nan() => "__builtin_nan(\"\")".into(),
        d if d.is_float() => format!("{v:?}"),
        _ => format!("{}", v as i64),
    }
}

/// NumPy's result of `op` on values of `d` (the few the tests use).
fn apply(op: BinaryOp, d: DType, a: f64, b: f64) -> f64 {
    let wrap = |x: i64| match d {
        DType::I16 => x as i16 as f64,
        DType::U8 => x as u8 as f64,
        DType::I32 => x as i32 as f64,
        _ => x as f64,
    };
    match op {
        BinaryOp::Add => {
            if d.is_float() {
                a + b
            } else {
                wrap(a as i64 + b as i64)
            }
        }
        BinaryOp::Sub => {
            if d.is_float() {
                a - b
            } else {
                wrap(a as i64 - b as i64)
            }
        }
        BinaryOp::Mul => wrap(a as i64 * b as i64),
        BinaryOp::Max => {
            if a.is_nan() || b.is_nan() {
                f64::NAN
            } else {
                a.max(b)
            }
        }
        BinaryOp::BitOr => wrap(a as i64 | b as i64),
        BinaryOp::LogicalAnd => ((a != 0.0) && (b != 0.0)) as i64 as f64,
        BinaryOp::Div => a / b,
        BinaryOp::Pow => wrap((a as i64).pow(b as u32)),
        _ => unreachable!(),
    }
}

fn cty(d: DType) -> &'static str {
    crate::codegen::storage_ty(d)
}

/// The stable sort of `n` (key, value) pairs `keys`/`vals` into `ka`/`va`, as C++ (what the sort
/// family's `sort_pairs` does on the device).
fn sort_cpp(n: usize) -> String {
    format!(
        "  static u32 ka[{n}]; static i64 va[{n}];
  {{ std::vector<std::pair<u32, i64>> pr; for (int i = 0; i < {n}; ++i) pr.push_back({{keys[i], vals[i]}});
    std::stable_sort(pr.begin(), pr.end(), [](auto& x, auto& y) {{ return x.first < y.first; }});
    for (int i = 0; i < {n}; ++i) {{ ka[i] = pr[i].first; va[i] = pr[i].second; }} }}\n"
    )
}

/// Scatter `case` with values `vals` (C-contiguous over the gather's shape) into `dst` (f64 list of
/// dtype `d`), as NumPy: in C order, `op` None assigning.
fn scatter_ref(case: &Case, d: DType, dst: &[f64], vals: &[f64], op: Option<BinaryOp>) -> Vec<f64> {
    let mut out = dst.to_vec();
    for (i, &(o, _)) in case.offsets().iter().enumerate() {
        out[o] = op.map_or(vals[i], |op| apply(op, d, out[o], vals[i]));
    }
    out
}

fn scatter_case() -> Case {
    // (3, 5, 4) with duplicates in a 2-D index shape over axis 1, rows of 4 after.
    Case {
        l: Layout::new(vec![3, 5, 4], vec![20, 4, 1], 0),
        axis: 1,
        idx: vec![vec![1, 3, -4, 0, 3, 1]],
        bshape: vec![2, 3],
        fix: Fix::Raise,
    }
}

#[test]
fn assignments_keep_the_last_duplicate_on_the_cpu() {
    let case = scatter_case();
    let a = case.addr();
    let (ix, n) = case.scatter_space();
    let dst: Vec<f64> = (0..60).map(|i| i as f64).collect();
    let vals: Vec<f64> = (0..n).map(|i| 100.0 + i as f64).collect();
    let want = scatter_ref(&case, DType::U32, &dst, &vals, None);
    let common = format!(
        "{}{}{}{}  static i32 win[5]; for (int t = 0; t < 5; ++t) win[t] = -1;\n{}",
        arr("u32", "dst", &dst),
        arr("u32", "v", &vals),
        case.index_arrays(),
        ks_cpp(&a.ks, 1),
        idx_cpp("ix", &ix)
    );
    // Winners by atomicMax.
    let srcs = [per_b_src(0, 1, case.fix, false), assign_src(4, 1, case.fix, Dedupe::Win32, true)];
    let main =
        format!("{common}  n0::xp_k(ks, {}, win);\n  n1::xp_k(dst, v, ks, ix, win);\n{}", a.nb, print_ints("dst", 60));
    if let Some(got) = run("assign-win", &srcs, &main) {
        assert_eq!(got, want.iter().map(|x| x.to_string()).collect::<Vec<_>>());
    }
    // Winners by sorting (the fallback's split passes), marked per position.
    let srcs = [
        per_b_src(1, 1, case.fix, false),
        per_b_src(2, 1, case.fix, false),
        assign_src(4, 1, case.fix, Dedupe::Keep, true),
    ];
    let nb = a.nb;
    let main = format!(
        "{common}  static u32 keys[{nb}]; static i64 vals[{nb}]; static u8 keep[{nb}];\n  n0::xp_k(ks, {nb}, keys, vals);\n{}  n1::xp_k(ka, va, {nb}, keep);\n  n2::xp_k(dst, v, ks, ix, keep);\n{}",
        sort_cpp(nb),
        print_ints("dst", 60)
    );
    if let Some(got) = run("assign-sort", &srcs, &main) {
        assert_eq!(got, want.iter().map(|x| x.to_string()).collect::<Vec<_>>());
    }
}

#[test]
fn ufunc_at_matches_numpy_on_the_cpu() {
    let case = scatter_case();
    let a = case.addr();
    let (ix, n) = case.scatter_space();
    let cases: [(DType, BinaryOp); 8] = [
        (DType::F64, BinaryOp::Add),
        (DType::I32, BinaryOp::Sub),
        (DType::F32, BinaryOp::Max),
        (DType::U8, BinaryOp::BitOr),
        (DType::I16, BinaryOp::Mul),
        (DType::Bool, BinaryOp::LogicalAnd),
        (DType::F64, BinaryOp::Div),
        (DType::I64, BinaryOp::Pow),
    ];
    for (d, op) in cases {
        let dst: Vec<f64> =
            (0..60).map(|i| if d == DType::Bool { (i % 3 != 0) as i64 as f64 } else { (i % 7) as f64 + 1.0 }).collect();
        let mut vals: Vec<f64> =
            (0..n).map(|i| if d == DType::Bool { (i % 5 != 0) as i64 as f64 } else { (i % 3) as f64 + 1.0 }).collect();
        if d == DType::F32 {
            vals[7] = f64::NAN;
        }
        let want = scatter_ref(&case, d, &dst, &vals, Some(op));
        let (t, lits) = (cty(d), |v: &[f64]| v.iter().map(|&x| lit(d, x)).collect::<Vec<_>>());
        let head = format!(
            "{}{}{}{}{}",
            arr(t, "dst", &lits(&dst)),
            arr(t, "v", &lits(&vals)),
            case.index_arrays(),
            ks_cpp(&a.ks, 1),
            idx_cpp("ix", &ix)
        );
        let print = if d.is_float() { print_floats("dst", 60) } else { print_ints("dst", 60) };
        let name = format!("at-{}-{}", d.name(), op.name());
        let got = if strategy(op, d) == Strategy::Ordered {
            let srcs = [per_b_src(1, 1, case.fix, false), ordered_src(d, op, 1, case.fix, false, true)];
            let nb = a.nb;
            let main = format!(
                "{head}  static u32 keys[{nb}]; static i64 vals[{nb}];\n  n0::xp_k(ks, {nb}, keys, vals);\n{}  n1::xp_k(dst, v, ks, ix, ka, va, {nb}, 4);\n{print}",
                sort_cpp(nb)
            );
            run(&name, &srcs, &main)
        } else {
            let main = format!("{head}  n0::xp_k(dst, v, ks, ix);\n{print}");
            run(&name, &[atomic_src(d, op, 1, case.fix, true, false)], &main)
        };
        let Some(got) = got else { return };
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            let g: f64 = g.parse().unwrap();
            assert!(
                g == *w || (g.is_nan() && w.is_nan()) || (g - w).abs() <= 1e-12 * w.abs(),
                "{name}[{i}]: {g} vs {w}"
            );
        }
    }
}

#[test]
fn strategies_follow_the_order_rules() {
    use BinaryOp::*;
    assert_eq!(strategy(Add, DType::F32), Strategy::Native);
    assert_eq!(strategy(Add, DType::C128), Strategy::Native);
    assert_eq!(strategy(Mul, DType::C128), Strategy::Ordered);
    assert_eq!(strategy(Mul, DType::C64), Strategy::Cas);
    assert_eq!(strategy(Add, DType::I8), Strategy::Cas);
    assert_eq!(strategy(BitXor, DType::U16), Strategy::Native);
    assert_eq!(strategy(Max, DType::F64), Strategy::Cas);
    assert_eq!(strategy(Max, DType::U64), Strategy::Native);
    assert_eq!(strategy(LogicalOr, DType::Bool), Strategy::Native);
    assert_eq!(strategy(LogicalOr, DType::F32), Strategy::Cas);
    for op in [Div, Pow, Arctan2, FloorDiv, Rem, Shl, Shr, CopySign, Hypot, Lt, Eq] {
        assert_eq!(strategy(op, DType::F64), Strategy::Ordered, "{op:?}");
    }
    assert_eq!(locate(17, 5), (3, 2));
}
