//! `Y = Aᵀ X` for a CSR matrix `A` without forming `Aᵀ`: each task walks a block of `A`'s rows
//! (equal stored-value counts) and adds `a_rj · X[r, :]` into a private `Y` of its own, and the
//! private copies are summed at the end, in parallel over `Y`'s rows. SciPy runs the same
//! scatter on one thread (`csc_matvec` of the transpose).
use super::elem::{row_blocks, Dense, Ix, Mac, Out};
/// Elements of private accumulators allowed in all (beyond it, fewer tasks take the work).
const PRIVATE: usize = 1 << 26;

pub(super) fn product_t<T: Mac, I: Ix>(
    (indptr, indices, data): (&[I], &[I], &[T]),
    [rows, cols]: [usize; 2],
    x: Dense<'_, T>,
    k: usize,
) -> Vec<T> {
    let nnz = indptr[rows].at();
    let size = cols * k;
    let wanted = if nnz * k.max(1) < 1 << 16 { 1 } else { rayon::current_num_threads() };
    let tasks = wanted.min((PRIVATE / size.max(1)).max(1));
    let bounds = row_blocks(indptr, rows, tasks);
    let xat = |r: usize, c: usize| x.at(r, c);
    let parts: Vec<Vec<T::A>> = crate::par::map(tasks, &|b| {
        let mut acc = vec![T::ZERO; size];
        for r in bounds[b]..bounds[b + 1] {
            let (lo, hi) = (indptr[r].at(), indptr[r + 1].at());
            let (idx, val) = (&indices[lo..hi], &data[lo..hi]);
            if k == 1 {
                let xr = xat(r, 0);
                for (&j, &v) in idx.iter().zip(val) {
                    let a = &mut acc[j.at()];
                    *a = T::mac(*a, v, xr);
                }
                continue;
            }
            for (&j, &v) in idx.iter().zip(val) {
                let at = j.at() * k;
                for (c, a) in acc[at..at + k].iter_mut().enumerate() {
                    *a = T::mac(*a, v, xat(r, c));
                }
            }
        }
        acc
    });
    let mut out = crate::pool::alloc::<T>(size);
    let dst = Out(out.spare_capacity_mut().as_mut_ptr().cast::<T>());
    let chunk = size.div_ceil(rayon::current_num_threads().max(1)).max(1 << 12);
    crate::par::map(size.div_ceil(chunk), &|q| {
        for i in q * chunk..((q + 1) * chunk).min(size) {
            let s = parts[1..].iter().fold(parts[0][i], |s, p| T::add(s, p[i]));
            // SAFETY: element i belongs to this chunk alone
            unsafe { dst.at(i).write(T::out(s)) };
        }
    });
    // SAFETY: the chunks cover 0..size.
    unsafe { out.set_len(size) };
    out
}
