//! Lane groups: up to `W` jobs filtered together, lane `i` of every state and sample vector
//! being job `i`'s, so that one recursion step is one SIMD operation per coefficient for the
//! whole group. Samples go through a scratch of `BLOCK` rows of `W` lanes: tiles of `W × W`
//! samples (`W` consecutive samples of each job) are loaded row by row and transposed, stepped
//! through, transposed back and stored row by row. With AVX-512 a tile is one 64-byte vector per
//! row and the transpose `log2 W` rounds of two-source permutes; elsewhere it is a scalar swap.
use super::{Job, Sample, Step};
use std::mem::MaybeUninit;

/// Samples per block of the scratch.
const BLOCK: usize = 64;

/// Transposes a `W × W` tile in place, `X`: with AVX-512 (the caller runs compiled for it).
#[inline(always)]
fn transpose<T: Copy, const W: usize, const X: bool>(m: &mut [[T; W]; W]) {
    #[cfg(target_arch = "x86_64")]
    if X && size_of::<[T; W]>() == 64 && matches!(W, 4 | 8 | 16) {
        // SAFETY: `X` is true only inside `on_avx512`, run when the processor has AVX-512F.
        unsafe { x86::transpose(m) };
        return;
    }
    let t = *m;
    for (i, row) in m.iter_mut().enumerate() {
        for (j, v) in row.iter_mut().enumerate() {
            *v = t[j][i];
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    /// Transposes a tile of `W` rows of 64 bytes (`W` of 16, 8 or 4 elements of 4, 8 or 16
    /// bytes) in place: `log2 W` rounds in which new row `2i` interleaves the first halves of
    /// rows `i` and `i + W/2`, and new row `2i + 1` their second halves.
    #[target_feature(enable = "avx512f")]
    #[inline]
    pub(super) unsafe fn transpose<T: Copy, const W: usize>(m: &mut [[T; W]; W]) {
        let p = m.as_mut_ptr() as *mut __m512i;
        // SAFETY: each row is 64 bytes (checked by the caller), read and written unaligned.
        let mut r: [__m512i; W] = std::array::from_fn(|i| unsafe { _mm512_loadu_si512(p.add(i).cast()) });
        let (lo, hi) = match W {
            16 => (
                _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23),
                _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31),
            ),
            8 => (_mm512_setr_epi64(0, 8, 1, 9, 2, 10, 3, 11), _mm512_setr_epi64(4, 12, 5, 13, 6, 14, 7, 15)),
            _ => (_mm512_setr_epi64(0, 1, 8, 9, 2, 3, 10, 11), _mm512_setr_epi64(4, 5, 12, 13, 6, 7, 14, 15)),
        };
        let mut w = 1;
        while w < W {
            r = std::array::from_fn(|i| {
                let (x, y, ix) = (r[i / 2], r[i / 2 + W / 2], if i % 2 == 0 { lo } else { hi });
                if W == 16 {
                    _mm512_permutex2var_epi32(x, ix, y)
                } else {
                    _mm512_permutex2var_epi64(x, ix, y)
                }
            });
            w *= 2;
        }
        for (i, v) in r.into_iter().enumerate() {
            // SAFETY: as above.
            unsafe { _mm512_storeu_si512(p.add(i).cast(), v) };
        }
    }
}

/// Filters up to `W` jobs (of any lengths) together. A block ends where a job does, whose final
/// state is then saved and its lane zeroed.
#[inline(always)]
fn run<T: Sample, R: Step<T>, const W: usize, const X: bool>(r: &R, jobs: &mut [Job<T>]) {
    assert!(jobs.len() <= W);
    let mut z = r.state::<[T; W]>();
    for (lane, job) in jobs.iter().enumerate() {
        if let Some(z0) = job.z0 {
            for (v, &s) in R::flat(&mut z).iter_mut().zip(z0) {
                v[lane] = s;
            }
        }
    }
    let zero = [T::default(); W];
    let mut buf = [zero; BLOCK];
    let end = jobs.iter().map(|j| j.src.len).max().unwrap_or(0);
    let mut pos = 0;
    while pos < end {
        let blk = jobs.iter().filter(|j| j.src.len > pos).fold(BLOCK, |m, j| m.min(j.src.len - pos));
        let (tiles, tail) = buf[..blk].split_at_mut(blk - blk % W);
        // in: whole tiles row by row, transposed; the tail sample by sample
        for (t, tile) in tiles.chunks_exact_mut(W).enumerate() {
            let tile: &mut [[T; W]; W] = tile.try_into().expect("W rows");
            for (lane, row) in tile.iter_mut().enumerate() {
                *row = jobs.get(lane).filter(|j| j.src.len > pos).map_or(zero, |j| j.src.row(pos + t * W));
            }
            transpose::<T, W, X>(tile);
        }
        let at = pos + tiles.len();
        for lane in 0..W {
            match jobs.get(lane).filter(|j| j.src.len > pos) {
                Some(j) => tail.iter_mut().enumerate().for_each(|(i, b)| b[lane] = j.src.at(at + i)),
                None => tail.iter_mut().for_each(|b| b[lane] = T::default()),
            }
        }
        for v in buf[..blk].iter_mut() {
            *v = r.step(*v, &mut z);
        }
        // out: the same way back
        let (tiles, tail) = buf[..blk].split_at_mut(blk - blk % W);
        for (t, tile) in tiles.chunks_exact_mut(W).enumerate() {
            let tile: &mut [[T; W]; W] = tile.try_into().expect("W rows");
            transpose::<T, W, X>(tile);
            for (job, row) in jobs.iter_mut().zip(tile.iter()).filter(|(j, _)| j.src.len > pos) {
                let o = pos + t * W;
                // one 64-byte store per row
                let out: &mut [MaybeUninit<T>; W] = (&mut job.dst[o..o + W]).try_into().expect("W outputs");
                *out = row.map(MaybeUninit::new);
            }
        }
        for (lane, job) in jobs.iter_mut().enumerate().filter(|(_, j)| j.src.len > pos) {
            job.dst[at..pos + blk].iter_mut().zip(tail.iter()).for_each(|(o, b)| {
                o.write(b[lane]);
            });
            if job.src.len == pos + blk {
                for (v, o) in R::flat(&mut z).iter_mut().zip(job.zf.iter_mut()) {
                    *o = v[lane];
                    v[lane] = T::default();
                }
            }
        }
        pos += blk;
    }
}

/// A lane group, to run compiled for the processor's widest SIMD.
struct Lanes<'r, 'j, 'a, T, R, const W: usize>(&'r R, &'j mut [Job<'a, T>]);

impl<T: Sample, R: Step<T>, const W: usize> Lanes<'_, '_, '_, T, R, W> {
    /// Runs the group, `X`: with AVX-512's transposes.
    #[inline(always)]
    fn call<const X: bool>(self) {
        run::<T, R, W, X>(self.0, self.1)
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn on_avx512<T: Sample, R: Step<T>, const W: usize>(k: Lanes<'_, '_, '_, T, R, W>) {
    k.call::<true>()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn on_avx2<T: Sample, R: Step<T>, const W: usize>(k: Lanes<'_, '_, '_, T, R, W>) {
    k.call::<false>()
}

/// Filters up to `W` jobs together, compiled for AVX-512 or AVX2 when the processor has them.
pub(super) fn group<T: Sample, R: Step<T>, const W: usize>(r: &R, jobs: &mut [Job<T>]) {
    let k = Lanes::<T, R, W>(r, jobs);
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512f") {
            // SAFETY: the processor has the features the function is compiled for.
            return unsafe { on_avx512(k) };
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: as above.
            return unsafe { on_avx2(k) };
        }
    }
    k.call::<false>()
}

#[cfg(test)]
mod tests {
    use super::transpose;

    fn check<T: Copy + PartialEq + std::fmt::Debug, const W: usize>(f: impl Fn(usize) -> T) {
        let want = |m: &[[T; W]; W]| (0..W * W).all(|k| m[k % W][k / W] == f(k));
        let mut m: [[T; W]; W] = std::array::from_fn(|i| std::array::from_fn(|j| f(i * W + j)));
        transpose::<T, W, false>(&mut m);
        assert!(want(&m));
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx512f") {
            let mut m: [[T; W]; W] = std::array::from_fn(|i| std::array::from_fn(|j| f(i * W + j)));
            // SAFETY: the processor has AVX-512F.
            unsafe { super::x86::transpose(&mut m) };
            assert!(want(&m));
        }
    }

    #[test]
    fn recursive_tile_transposes() {
        check::<f32, 16>(|i| i as f32);
        check::<f64, 8>(|i| i as f64);
        check::<(f32, f32), 8>(|i| (i as f32, -0.5));
        check::<(f64, f64), 4>(|i| (i as f64, -(i as f64)));
    }
}
