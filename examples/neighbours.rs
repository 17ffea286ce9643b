//! Indexing and sorting, written once and run on every device present: for each of 2048 query
//! points, its 8 nearest neighbours among 16384 points (a distance matrix, `argpartition`, then
//! `take_along_axis` and a sort of the 8), and a histogram of the distances by `add.at` (duplicate
//! bins accumulate). Each device's answers are checked against the CPU's.
//!
//! ```text
//! cargo run --release --example neighbours
//! ```
use std::time::Instant;
use xp::{s, Array, BinaryOp, BinaryUfunc, DType, Result};

const K: usize = 8;
const BINS: usize = 64;

/// The k nearest points of `pts` to each query: (indices sorted by distance, distances).
fn nearest(queries: &Array, pts: &Array, k: usize) -> Result<(Array, Array)> {
    // |q - p|² = |q|² - 2 q·p + |p|², a [queries, points] matrix from one matmul.
    let q2 = queries.square()?.sum_keepdim(-1)?;
    let p2 = pts.square()?.sum(-1)?;
    let d2 = q2.sub(&xp::matmul(queries, &pts.t()?)?.mul(2.0)?)?.add(&p2)?.maximum(0.0)?;
    let part = d2.argpartition(&[k as isize - 1], -1)?.slice(s![.., ..k as isize])?;
    let dist = xp::take_along_axis(&d2, &part, -1)?;
    let order = dist.argsort(-1)?; // stable: equal distances keep the smaller index first
    let idx = xp::take_along_axis(&part, &order, -1)?;
    Ok((idx, xp::take_along_axis(&dist, &order, -1)?.sqrt()?))
}

/// Counts of `x` in `BINS` equal bins over [0, hi): `np.add.at(counts, bin, 1)`.
fn histogram(x: &Array, hi: f64) -> Result<Array> {
    let bins = x.mul(BINS as f64 / hi)?.floor()?.clip(Some(0.0), Some(BINS as f64 - 1.0))?.astype(DType::I64)?;
    let counts = xp::get_array_module(x).zeros([BINS], DType::I64)?;
    BinaryOp::Add.at(&counts, &bins.ravel()?, 1)?;
    Ok(counts)
}

fn points(n: usize, seed: u64) -> Result<Array> {
    let mut s = seed;
    let v: Vec<f32> = (0..n * 3)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 40) as f32 / (1u64 << 24) as f32
        })
        .collect();
    Array::from_vec(v, [n, 3])
}

fn main() -> Result<()> {
    let (q, p) = (points(2048, 0x9E37_79B9_7F4A_7C15)?, points(16384, 0x2545_F491_4F6C_DD1D)?);
    let mut reference: Option<(Vec<i64>, Vec<f32>, Vec<i64>)> = None;
    for dev in xp::devices() {
        let (qd, pd) = (q.to_device(dev)?, p.to_device(dev)?);
        let run = || -> Result<(Array, Array, Array)> {
            let (idx, dist) = nearest(&qd, &pd, K)?;
            let hist = histogram(&dist, 0.25)?;
            Ok((idx, dist, hist))
        };
        run()?; // warm-up (and kernel compilation on a GPU)
        let t = Instant::now();
        let (idx, dist, hist) = run()?;
        let (i, d, h) = (idx.to_vec::<i64>()?, dist.to_vec::<f32>()?, hist.to_vec::<i64>()?);
        let ms = t.elapsed().as_secs_f64() * 1e3;
        println!(
            "{dev:<8} {K} nearest of {} queries among {} points + histogram: {ms:.2} ms",
            q.shape()[0],
            p.shape()[0]
        );
        println!("{:<8} query 0: neighbours {:?}", "", &i[..K]);
        println!("{:<8} distance histogram (first 12 of {BINS} bins): {:?}", "", &h[..12]);
        assert_eq!(h.iter().sum::<i64>(), (q.shape()[0] * K) as i64, "every distance lands in a bin");
        match &reference {
            None => reference = Some((i, d, h)),
            Some((ri, rd, rh)) => {
                let dd = d.iter().zip(rd).map(|(a, b)| (a - b).abs()).fold(0.0f32, f32::max);
                // Floating-point ties in distance may order two neighbours differently; the distances agree.
                let same = i.iter().zip(ri).filter(|(a, b)| a == b).count();
                assert!(dd < 1e-4, "{dev}: distances differ from the CPU's by {dd}");
                assert!(same * 1000 >= i.len() * 999, "{dev}: only {same} of {} neighbours agree", i.len());
                let hd: i64 = h.iter().zip(rh).map(|(a, b)| (a - b).abs()).sum();
                assert!(hd <= 4, "{dev}: histogram differs from the CPU's by {hd} counts");
                println!(
                    "{:<8} agrees with the CPU ({same} of {} neighbours identical, distances within {dd:.1e})",
                    "",
                    i.len()
                );
            }
        }
    }
    let (_, _, h) = reference.expect("the CPU always runs");
    let mode = h.iter().enumerate().max_by_key(|&(_, &c)| c).map(|(b, _)| b).unwrap_or(0);
    println!(
        "most common neighbour distance: [{:.4}, {:.4})",
        mode as f64 * 0.25 / BINS as f64,
        (mode + 1) as f64 * 0.25 / BINS as f64
    );
    Ok(())
}
