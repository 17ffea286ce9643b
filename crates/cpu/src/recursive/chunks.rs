//! Long lines in pieces, for when the lines are too few to fill every lane of every thread (one
//! line of 2^24 samples): the recursion is linear, so a piece's output is the output of its
//! samples from a zero state plus the zero-input response of the state it truly starts from.
//!
//! 1. In parallel, as lanes: every piece filtered from a zero state (the first from the line's
//!    initial state), keeping its final state `f_c`.
//! 2. Per line, in order, in complex128: the true state at each piece's start,
//!    `S_1 = f_0`, `S_{c+1} = Φ_c S_c + f_c`, where `Φ_c = A^{L_c}` is the zero-input map
//!    across the piece's `L_c` samples (`A`, the one-step map, built by stepping each unit
//!    vector; its power by repeated squaring). The last `S` is the line's final state.
//! 3. In parallel, every piece after the first adds the zero-input response from `S_c`, which
//!    for a decaying filter falls below the dtype's rounding after a few hundred samples: the
//!    response stops once every state value is below `ε · 2^-8 · max|S_c|`.
//!
//! The result matches the sequential recursion (SciPy's) up to rounding, not bit for bit. A
//! filter whose zero-input response does not decay within a quarter of a piece (a pole on or
//! near the unit circle, an unstable filter) keeps the sequential path.
use super::{run_jobs, Job, Lines, Sample, Step};
use xp_core::{matrix_power, norm_inf, Complex64, Recursion};

/// Pieces are at least this long.
const MIN_PIECE: usize = 4096;

const ZERO: Complex64 = Complex64::new(0.0, 0.0);

/// The zero-input maps across a full piece and across the last one.
struct Maps {
    full: Vec<Complex64>,
    last: Vec<Complex64>,
}

impl Maps {
    /// The maps across `len` and `last` samples, or None when the zero-input response takes
    /// more than `len / 4` samples to fall below `eps · 2^-8` (or overflows).
    fn new(rec: &Recursion, len: usize, last: usize, eps: f64) -> Option<Maps> {
        let k = rec.state_len();
        let a = rec.transition();
        // the norms of A^(2^j) while 2^j <= len
        let mut square = a.clone();
        let mut norms = vec![norm_inf(&square, k)];
        while 1usize << norms.len() <= len {
            square = matrix_power(&square, k, 2);
            norms.push(norm_inf(&square, k));
        }
        if norms.iter().any(|v| !v.is_finite()) {
            return None;
        }
        let decay = norms.iter().position(|&v| v <= eps / 256.0)?;
        if 1usize << decay > len / 4 {
            return None;
        }
        Some(Maps { full: matrix_power(&a, k, len as u64), last: matrix_power(&a, k, last as u64) })
    }
}

/// Adds to `y` the zero-input response from the state `s` (complex128), until it decays below
/// the dtype's rounding.
fn settle<T: Sample, R: Step<T>>(r: &R, y: &mut [T], s: &[Complex64]) {
    let mut w = r.state::<T>();
    for (v, &c) in R::flat(&mut w).iter_mut().zip(s) {
        *v = T::from_c(c);
    }
    let mags = R::flat(&mut w).iter().map(|v| v.mag());
    let top = mags.fold(0.0f64, |m, v| if v.is_nan() || m.is_nan() { f64::NAN } else { m.max(v) });
    if top == 0.0 {
        return;
    }
    // a non-finite state runs to the end, as the sequential recursion would carry it
    let tol = if top.is_finite() { T::EPS / 256.0 * top } else { -1.0 };
    for blk in y.chunks_mut(32) {
        for v in blk.iter_mut() {
            *v = *v + r.step(T::default(), &mut w);
        }
        if R::flat(&mut w).iter().all(|v| v.mag() < tol) {
            break;
        }
    }
}

/// How many pieces each line is cut into: enough for `W` lanes on every thread, each at least
/// [`MIN_PIECE`] long (1: the lines are enough as they are).
fn pieces(lines: usize, n: usize, lanes: usize, min_piece: usize) -> usize {
    let slots = rayon::current_num_threads() * lanes;
    if lines >= slots {
        return 1;
    }
    slots.div_ceil(lines).min(n / min_piece).max(1)
}

/// Filters `x`'s lines in pieces (see the module's docs); None when they are better filtered
/// whole.
pub(super) fn run<T: Sample, R: Step<T>, const W: usize>(
    r: &R,
    rec: &Recursion,
    x: &Lines<T>,
) -> Option<(Vec<T>, Vec<T>)> {
    run_with::<T, R, W>(r, rec, x, MIN_PIECE)
}

/// [`run`] with pieces at least `min_piece` long.
pub(super) fn run_with<T: Sample, R: Step<T>, const W: usize>(
    r: &R,
    rec: &Recursion,
    x: &Lines<T>,
    min_piece: usize,
) -> Option<(Vec<T>, Vec<T>)> {
    let (lines, n, k) = (x.src.len(), x.n, x.k);
    let p = pieces(lines, n, W, min_piece);
    if p < 2 {
        return None;
    }
    let len = n.div_ceil(p);
    let p = n.div_ceil(len);
    let maps = Maps::new(rec, len, n - (p - 1) * len, T::EPS)?;

    // 1. every piece from a zero state (the first from the line's), as lanes
    let mut y = crate::pool::alloc::<T>(lines * n);
    let mut f = vec![T::default(); lines * p * k];
    let dst = &mut y.spare_capacity_mut()[..lines * n];
    let mut fs = f.chunks_mut(k);
    let mut jobs = Vec::with_capacity(lines * p);
    for ((line, src), z0) in dst.chunks_mut(n).zip(&x.src).zip(x.zi.chunks(k)) {
        for (c, dst) in line.chunks_mut(len).enumerate() {
            let zf = fs.next().expect("a state per piece");
            jobs.push(Job { src: src.part(c * len, dst.len()), dst, z0: (c == 0).then_some(z0), zf });
        }
    }
    run_jobs::<T, R, W>(r, &mut jobs);
    drop(jobs);
    // SAFETY: the pieces tile all `lines * n` outputs, and each job writes all of its.
    unsafe { y.set_len(lines * n) };

    // 2. the true state at every piece's start, and at each line's end
    let mut starts = vec![ZERO; lines * p * k];
    let mut zf = vec![T::default(); lines * k];
    for ((fl, sl), zl) in f.chunks(p * k).zip(starts.chunks_mut(p * k)).zip(zf.chunks_mut(k)) {
        let mut s: Vec<Complex64> = fl[..k].iter().map(|v| v.to_c()).collect();
        for c in 1..p {
            sl[c * k..(c + 1) * k].copy_from_slice(&s);
            let phi = if c == p - 1 { &maps.last } else { &maps.full };
            s = phi
                .chunks_exact(k)
                .zip(&fl[c * k..(c + 1) * k])
                .map(|(row, &fc)| row.iter().zip(&s).fold(fc.to_c(), |acc, (&m, &v)| acc + m * v))
                .collect();
        }
        for (o, &v) in zl.iter_mut().zip(&s) {
            *o = T::from_c(v);
        }
    }

    // 3. every later piece's response to its true starting state
    // (through `par`'s `&dyn` loops: rayon's machinery is not instantiated per filter kind)
    let starts = &starts;
    crate::par::chunks_mut(&mut y, n, &|l, yl| {
        let sl = &starts[l * p * k..(l + 1) * p * k];
        crate::par::chunks_mut(yl, len, &|c, seg| {
            if c > 0 {
                settle(r, seg, &sl[c * k..(c + 1) * k]);
            }
        });
    });
    Some((y, zf))
}
