//! Property tests: broadcasting and slicing against independent index arithmetic, and the
//! `Result` API fed random (mostly invalid) shapes, axes and indices never panics.
use proptest::prelude::*;
use xp::{Array, DType, SliceElem};

fn iota(shape: &[usize]) -> Array {
    let n: usize = shape.iter().product();
    Array::from_vec((0..n as i64).collect(), shape).unwrap()
}

/// Value of iota(shape) at multi-index idx.
fn at(shape: &[usize], idx: &[usize]) -> i64 {
    idx.iter().zip(shape).fold(0, |acc, (&i, &n)| acc * n as i64 + i as i64)
}

fn shape_strategy() -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(0usize..5, 0..5)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn broadcasting_matches_index_arithmetic(a in shape_strategy(), drop in 0usize..4, ones in prop::collection::vec(any::<bool>(), 5)) {
        // b: a suffix of a's shape with some axes set to 1 — always broadcastable.
        let k = drop.min(a.len());
        let b: Vec<usize> = a[k..].iter().enumerate().map(|(i, &n)| if ones[i] { 1 } else { n }).collect();
        let (x, y) = (iota(&a), iota(&b));
        let r = x.add(&y).unwrap();
        prop_assert_eq!(r.shape(), &a[..]);
        let got = r.to_vec::<i64>().unwrap();
        let n: usize = a.iter().product();
        for (flat, &g) in got.iter().enumerate().take(n) {
            let mut idx = vec![0; a.len()];
            let mut rem = flat;
            for d in (0..a.len()).rev() { idx[d] = rem % a[d]; rem /= a[d]; }
            let bidx: Vec<usize> = idx[k..].iter().zip(&b).map(|(&i, &n)| if n == 1 { 0 } else { i }).collect();
            prop_assert_eq!(g, at(&a, &idx) + at(&b, &bidx));
        }
    }

    #[test]
    fn slicing_matches_python_semantics(n in 0usize..12, start in -15isize..15, stop in -15isize..15, step in prop_oneof![-4isize..0, 1isize..5], s_none in any::<bool>(), e_none in any::<bool>()) {
        let a = iota(&[n]);
        let (st, sp) = (if s_none { None } else { Some(start) }, if e_none { None } else { Some(stop) });
        let v = a.slice([SliceElem::Slice { start: st, stop: sp, step }]).unwrap().to_vec::<i64>().unwrap();
        // Python's rules, written out independently.
        let len = n as isize;
        let norm = |x: isize, lo: isize, hi: isize| { let x = if x < 0 { x + len } else { x }; x.clamp(lo, hi) };
        let (mut i, end) = if step > 0 {
            (st.map_or(0, |x| norm(x, 0, len)), sp.map_or(len, |x| norm(x, 0, len)))
        } else {
            (st.map_or(len - 1, |x| norm(x, -1, len - 1)), sp.map_or(-1, |x| norm(x, -1, len - 1)))
        };
        let mut want = vec![];
        while (step > 0 && i < end) || (step < 0 && i > end) { want.push(i as i64); i += step; }
        prop_assert_eq!(v, want);
    }

    #[test]
    fn random_bad_arguments_never_panic(shape in prop::collection::vec(0usize..4, 0..4), other in prop::collection::vec(0usize..4, 0..4),
                                         axes in prop::collection::vec(-6isize..6, 0..4), target in prop::collection::vec(-3isize..8, 0..4),
                                         idx in prop::collection::vec(-6isize..6, 0..5), k in -4isize..4) {
        let a = iota(&shape).astype(DType::F32).unwrap();
        let b = iota(&other);
        let ax = Some(&axes[..]);
        let one = axes.first().copied();
        let r = std::panic::catch_unwind(|| {
            let _ = a.add(&b);
            let _ = a.sum_keepdim(ax);
            let _ = a.mean(ax);
            let _ = a.std_with(ax, xp::Var { ddof: 1, ..Default::default() });
            let _ = a.max(ax);
            let _ = a.argmax(one);
            let _ = a.cumsum(one);
            let _ = a.reshape(&target);
            let _ = a.transpose(ax);
            let _ = a.squeeze(ax);
            let _ = a.expand_dims(k);
            let _ = a.swapaxes(k, one.unwrap_or(0));
            let _ = a.moveaxis(k, one.unwrap_or(0));
            let _ = a.flip(ax);
            let _ = a.roll(k, one);
            let _ = a.take(&Array::from_vec(idx.iter().map(|&i| i as i64).collect(), [idx.len()]).unwrap(), k);
            let _ = a.slice(idx.iter().map(|&i| SliceElem::Index(i)).collect::<Vec<_>>());
            let _ = a.broadcast_to(&other);
            let _ = a.assign(&b);
            let _ = xp::concatenate(&[&a, &b.astype(DType::F32).unwrap()], k);
            let _ = xp::stack(&[&a, &a], k);
            let _ = xp::split(&a, xp::Sections::Count(k.unsigned_abs()), k);
            let _ = a.tile(&other);
            let _ = a.repeat(other.len(), one);
            let _ = a.pad(&[(1, 2)], xp::PadMode::Reflect);
            let _ = a.diag(k);
            let _ = a.tril(k);
            let _ = xp::where_(&a.gt(1.0).unwrap(), &a, &b);
            let _ = a.matmul_free_check();
        });
        prop_assert!(r.is_ok(), "a Result API call panicked");
    }
}

/// Helper trait so the no-panic test can grow with the API without touching its body.
trait MatmulFreeCheck {
    fn matmul_free_check(&self) -> xp::Result<()>;
}
impl MatmulFreeCheck for Array {
    fn matmul_free_check(&self) -> xp::Result<()> {
        self.ravel()?.slice(xp::s![..;-1])?.copy()?;
        Ok(())
    }
}
