//! Eigenvalues of a real symmetric tridiagonal matrix by bisection on Sturm counts (LAPACK's
//! `dlaebz`), 32 or 64 shifts at once: the count of eigenvalues below a shift is a
//! recurrence along the diagonal with a division per step, latency-bound for one shift, so many
//! shifts advance together (the lanes vectorise) — as the GPU kernel gives each its thread.
//!
//! Each interval starts from Gershgorin's bounds and halves until it is narrower than `ε` times
//! the matrix's norm: absolute accuracy `ε ‖T‖`, what LAPACK's QR iteration gives.
use super::Real;

/// Shifts advanced together: four AVX-512 registers of float32, four of float64 (a division
/// of four registers per step is about its latency; more lanes per eigenvalue mean fewer passes).
fn lanes<R>() -> usize {
    if std::mem::size_of::<R>() == 4 {
        64
    } else {
        32
    }
}

/// How many eigenvalues of the tridiagonal `(d, e2)` (`e2` the squared off-diagonal) lie below
/// each shift of `x`; a pivot smaller than `pivmin` counts as `-pivmin` (LAPACK's guard).
#[inline(always)]
fn below<R: Real, const LANES: usize>(d: &[R], e2: &[R], x: &[R; LANES], pivmin: R) -> [u32; LANES] {
    let zero = R::default();
    let guard = |t: R| if t.abs() < pivmin { zero - pivmin } else { t };
    let mut q = [zero; LANES];
    let mut cnt = [0u32; LANES];
    for l in 0..LANES {
        q[l] = guard(d[0] - x[l]);
        cnt[l] = (q[l] < zero) as u32;
    }
    for (&di, &f) in d[1..].iter().zip(e2) {
        for l in 0..LANES {
            let t = guard((di - x[l]) - f.div(q[l]));
            q[l] = t;
            cnt[l] += (t < zero) as u32;
        }
    }
    cnt
}

/// The eigenvalues of the symmetric tridiagonal with diagonal `d` and off-diagonal `e` (one
/// shorter), ascending, those of index `first..first + count` only.
#[inline(always)]
pub(crate) fn eigenvalues<R: Real>(d: &[R], e: &[R], first: usize, count: usize) -> Vec<R> {
    let n = d.len();
    let e2: Vec<R> = e.iter().map(|&x| x * x).collect();
    let (mut glo, mut ghi, mut e2max) = (f64::INFINITY, f64::NEG_INFINITY, 1.0f64);
    for i in 0..n {
        let r: f64 =
            (if i > 0 { e[i - 1].abs().into() } else { 0.0 }) + (if i + 1 < n { e[i].abs().into() } else { 0.0 });
        let di: f64 = d[i].into();
        glo = glo.min(di - r);
        ghi = ghi.max(di + r);
        if i + 1 < n {
            e2max = e2max.max(e2[i].into());
        }
    }
    let eps: f64 = R::EPS.into();
    let tnorm = glo.abs().max(ghi.abs());
    let tol = eps * tnorm;
    let (glo, ghi) = (glo - tol, ghi + tol);
    let pivmin = R::from_f64(<R as Into<f64>>::into(R::TINY) * e2max);
    let mut out = Vec::with_capacity(count);
    let step = lanes::<R>();
    for start in (first..first + count).step_by(step) {
        let k = step.min(first + count - start);
        let part = (d, &e2[..], pivmin, (glo, ghi), tol, start, k);
        out.extend(if step == 64 { multisect::<R, 64>(part) } else { multisect::<R, 32>(part) });
    }
    // bisection keeps the order up to its tolerance; make it exact
    out.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    out
}

/// Eigenvalues `start..start + k` (`k ≤ LANES`) from the interval `(glo, ghi)` to width `tol`:
/// with `g = LANES / k` shifts per eigenvalue, each pass cuts its interval into `g + 1` parts
/// and keeps the one the counts point to (bisection when `g = 1`; for a 8×8 float32 matrix `g = 8`,
/// and a pass gains `log2 9` bits for the same latency).
#[inline(always)]
#[allow(clippy::type_complexity)]
fn multisect<R: Real, const LANES: usize>(
    (d, e2, pivmin, (glo, ghi), tol, start, k): (&[R], &[R], R, (f64, f64), f64, usize, usize),
) -> Vec<R> {
    let g = LANES / k;
    let passes = if tol > 0.0 { ((ghi - glo) / tol).log2() / ((g + 1) as f64).log2() } else { 1.0 };
    let passes = passes.ceil().clamp(1.0, 200.0) as usize;
    // lane j·g + t holds shift t of eigenvalue start + j at lo + (hi - lo) · frac[t]
    let mut frac = [R::default(); LANES];
    for (t, f) in frac.iter_mut().enumerate().take(g) {
        *f = R::from_f64((t + 1) as f64 / (g + 1) as f64);
    }
    let (mut lo, mut hi) = (vec![R::from_f64(glo); k], vec![R::from_f64(ghi); k]);
    let mut x = [R::from_f64(glo); LANES];
    for _ in 0..passes {
        for j in 0..k {
            for t in 0..g {
                x[j * g + t] = lo[j] + (hi[j] - lo[j]) * frac[t];
            }
        }
        let c = below(d, e2, &x, pivmin);
        for j in 0..k {
            // p: the shifts of the group with at most `start + j` eigenvalues below (the counts
            // grow along the group, so these are its first p)
            let p = c[j * g..(j + 1) * g].iter().filter(|&&c| c as usize <= start + j).count();
            if p > 0 {
                lo[j] = x[j * g + p - 1];
            }
            if p < g {
                hi[j] = x[j * g + p];
            }
        }
    }
    let half = R::from_f64(0.5);
    (0..k).map(|j| half * (lo[j] + hi[j])).collect()
}
