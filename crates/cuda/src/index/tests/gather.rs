//! Gathers: every plan (take, general, vector words) against the reference offsets.
use super::{arr, idx_cpp, ks_cpp, print_ints, run, Case};
use crate::index::flag::locate;
use crate::index::gather::{gather_src, plan, take_src, Plan};
use crate::index::{word_ty, Fix};
use xp_core::Layout;

fn gather_cases() -> Vec<Case> {
    let c = |l: Layout, axis, idx: Vec<Vec<i64>>, bshape: Vec<usize>, fix| Case { l, axis, idx, bshape, fix };
    vec![
        // rows of a contiguous (4, 6, 8): 16-byte words
        c(Layout::contiguous(&[4, 6, 8]), 1, vec![vec![5, -1, 0, 2, 5]], vec![5], Fix::Raise),
        // transposed: no words
        c(Layout::new(vec![8, 6, 4], vec![1, 8, 48], 0), 1, vec![vec![3, -6, 1]], vec![3], Fix::Raise),
        // an offset of 2 elements: 8-byte words
        c(Layout::new(vec![4, 3, 8], vec![48, 16, 1], 2), 1, vec![vec![2, 0, 7, -4]], vec![2, 2], Fix::Wrap),
        // two arrays, a 2-D index shape, rows after
        c(
            Layout::contiguous(&[4, 6, 8]),
            0,
            vec![vec![1, -1, 3, 0, 2, 2], vec![5, 4, -6, 0, 1, 9]],
            vec![2, 3],
            Fix::Clip,
        ),
        // take of a 1-D array (strided, reversed), tail of a 4-position group
        c(
            Layout::new(vec![50], vec![-2], 190),
            0,
            vec![(0..15).map(|i| (i * 7 % 61) - 20).collect()],
            vec![3, 5],
            Fix::Wrap,
        ),
        // every axis indexed: the take kernel with two arrays
        c(
            Layout::contiguous(&[6, 7]),
            0,
            vec![vec![0, 5, -1, 2, 3, 1, 4], vec![6, 0, -7, 3, 2, 2, 1]],
            vec![7],
            Fix::Raise,
        ),
        // out of bounds: array 1 at b = 0 and array 0 at b = 2; NumPy names array 0's
        c(Layout::contiguous(&[4, 6, 8]), 0, vec![vec![1, 2, 9, 0], vec![7, 0, 1, 1]], vec![4], Fix::Raise),
        c(Layout::contiguous(&[64]), 0, vec![vec![1, 2, 3, 4, -65, 5, 70]], vec![7], Fix::Raise),
        // k = 0 (a 0-d mask's gather): B broadcasts the source
        c(Layout::new(vec![3, 5], vec![5, 1], 0), 1, vec![], vec![2], Fix::Unchecked),
    ]
}

#[test]
fn gathers_match_numpy_on_the_cpu() {
    for (ci, case) in gather_cases().iter().enumerate() {
        let a = case.addr();
        let (k, nb) = (a.k, a.nb);
        let src: Vec<u32> = (0..400).map(|i| 1000 + i).collect();
        let n: usize = case.out_shape().iter().product();
        let (kernel, call) = match plan(&case.l, &a, 4).unwrap() {
            Plan::Take { base, iv } => {
                let w = word_ty(4);
                let call = format!("n0::xp_k(({w}*)out, (const {w}*)src, ks, {nb}, {base}, &flag);");
                (take_src(4, k, case.fix, iv), format!("{}  {call}\n", ks_cpp(&a.ks, k)))
            }
            Plan::General { ix, ks, word, small } => {
                let w = word_ty(word);
                let call = format!("n0::xp_k(({w}*)out, (const {w}*)src, ks, ix, {nb}, &flag);");
                (gather_src(word, k, case.fix, small), format!("{}{}  {call}\n", ks_cpp(&ks, k), idx_cpp("ix", &ix)))
            }
        };
        let main = format!(
            "{}{}  static u32 out[{}] = {{}}; u64 flag = ~0ull;\n{call}{}  printf(\"%llu\", flag);\n",
            arr("u32", "src", &src),
            case.index_arrays(),
            n.max(1),
            print_ints("out", n)
        );
        let Some(got) = run(&format!("gather{ci}"), &[kernel], &main) else { return };
        let flag: u64 = got[n].parse().unwrap();
        match case.violation() {
            Some(v) => {
                assert_eq!(flag, v, "case {ci}: flag");
                assert_eq!(locate(v, nb).0 * nb + locate(v, nb).1, v as usize);
            }
            None => {
                assert_eq!(flag, u64::MAX, "case {ci}: no violation expected");
                let want: Vec<String> = case.offsets().iter().map(|&(o, _)| src[o].to_string()).collect();
                assert_eq!(&got[..n], &want[..], "case {ci}");
            }
        }
    }
}

#[test]
fn gather_plans_move_rows_as_words() {
    let cases = gather_cases();
    let word = |c: &Case| match plan(&c.l, &c.addr(), 4).unwrap() {
        Plan::General { word, .. } => word,
        Plan::Take { .. } => 0,
    };
    assert_eq!(word(&cases[0]), 16);
    assert_eq!(word(&cases[1]), 4);
    assert_eq!(word(&cases[2]), 8);
    assert_eq!(word(&cases[3]), 16);
    assert_eq!(word(&cases[4]), 0, "1-D take");
    assert_eq!(word(&cases[5]), 0, "every axis indexed");
}
