//! rayon behind `&dyn` closures. A parallel loop written with a closure type instantiates rayon's
//! whole machinery (jobs, latches, unwinding) once per closure and per element type; inside the
//! generic kernels of this crate that came to ~190,000 of xp-cpu's 382,000 monomorphised items
//! and most of its build time. These helpers are generic over the element type only: the kernels
//! pass `&dyn` closures, and rayon is instantiated a few dozen times.
use rayon::prelude::*;

/// `f(i)` for `i in 0..n` on rayon's pool, collected in order.
pub(crate) fn map<R: Send>(n: usize, f: &(dyn Fn(usize) -> R + Sync)) -> Vec<R> {
    (0..n).into_par_iter().map(f).collect()
}

/// `f(i, chunk)` for the `i`-th chunk of `c` elements of `s` (the last may be shorter), on
/// rayon's pool.
pub(crate) fn chunks_mut<T: Send>(s: &mut [T], c: usize, f: &(dyn Fn(usize, &mut [T]) + Sync)) {
    s.par_chunks_mut(c).enumerate().for_each(|(i, ch)| f(i, ch));
}

/// `f(chunk)` for each chunk of `c` elements of `s`, on rayon's pool, collected in order.
pub(crate) fn chunks_map<T: Sync, R: Send>(s: &[T], c: usize, f: &(dyn Fn(&[T]) -> R + Sync)) -> Vec<R> {
    s.par_chunks(c).map(f).collect()
}

/// `f(i, chunk)` for the `i`-th chunk of `c` elements of `s`, on rayon's pool, collected in order.
pub(crate) fn chunks_mut_map<T: Send, R: Send>(
    s: &mut [T],
    c: usize,
    f: &(dyn Fn(usize, &mut [T]) -> R + Sync),
) -> Vec<R> {
    s.par_chunks_mut(c).enumerate().map(|(i, ch)| f(i, ch)).collect()
}

/// An output pointer shared by parallel tasks, each writing its own elements.
#[derive(Clone, Copy)]
pub(crate) struct Out<T>(pub(crate) *mut T);
// SAFETY: tasks write disjoint row ranges of one buffer that outlives them.
unsafe impl<T> Send for Out<T> {}
unsafe impl<T> Sync for Out<T> {}
impl<T> Out<T> {
    /// The element `i` on (a method, so that closures capture the whole `Out`).
    pub(crate) unsafe fn at(self, i: usize) -> *mut T {
        self.0.add(i)
    }
}
