//! `dst[p, i(b), q] = v[p, b, q]` (or `op(dst, v)`), in C order over `(p, b, q)` on one thread:
//! the last of several writes to one element wins and `ufunc.at` combines occurrences in order,
//! as NumPy does. The indices were checked before anything is written; each op gets its own
//! monomorphised loop (the hot ones inline), and a 1-D index with a value stride needs no
//! offset tables. A long 1-D index in nondecreasing order (the groups of a sorted sparse array)
//! is split where its value changes and the parts run on every core: each element's writes stay
//! on one thread, in order.
use super::{offsets, resolve};
use crate::scalar::ScalarOps;
use crate::CpuStorage;
use xp_core::{BinaryOp, Combine, Error, HostBuffer, IndexSet, Layout, Result};

pub(crate) fn scatter(
    dst: &mut HostBuffer,
    l: &Layout,
    set: &IndexSet<'_, CpuStorage>,
    idx: &[&[i64]],
    v: &HostBuffer,
    vl: &Layout,
    how: Combine,
) -> Result<()> {
    let d = dst.dtype();
    macro_rules! go {
        ($($t:ident),*) => {
            match (dst, v) {
                $((HostBuffer::$t(a), HostBuffer::$t(x)) => by_op(a, l, set, idx, x, vl, how),)*
                (_, v) => Err(Error::InvalidDType { op: "scatter", dtype: if v.dtype() == d { d } else { v.dtype() } }),
            }
        };
    }
    go!(Bool, I8, I16, I32, I64, U8, U16, U32, U64, F16, BF16, F32, F64, C64, C128)
}

fn by_op<T: ScalarOps>(
    dst: &mut [T],
    l: &Layout,
    set: &IndexSet<'_, CpuStorage>,
    idx: &[&[i64]],
    v: &[T],
    vl: &Layout,
    how: Combine,
) -> Result<()> {
    let s = Scatter { l, set, idx, vl };
    match how {
        Combine::Assign => s.run(dst, v, |_, x| x),
        Combine::Ufunc(BinaryOp::Add) => s.run(dst, v, T::add),
        Combine::Ufunc(BinaryOp::Sub) => s.run(dst, v, T::sub),
        Combine::Ufunc(BinaryOp::Mul) => s.run(dst, v, T::mul),
        Combine::Ufunc(op) => match T::binary_fn(op) {
            Some(f) => s.run(dst, v, f),
            None => return Err(Error::InvalidDType { op: op.name(), dtype: T::DTYPE }),
        },
    }
    Ok(())
}

struct Scatter<'a, 'b> {
    l: &'a Layout,
    set: &'a IndexSet<'b, CpuStorage>,
    idx: &'a [&'b [i64]],
    vl: &'a Layout,
}

impl Scatter<'_, '_> {
    /// The destination offset of index position `b` (relative to the layout's offset).
    #[inline]
    fn delta(&self, b: usize) -> isize {
        let a = self.set.axis;
        self.idx.iter().enumerate().fold(0, |acc, (j, ix)| {
            let n = self.l.shape()[a + j];
            acc + resolve(ix[b], n, self.set.mode).expect("validated") as isize * self.l.strides()[a + j]
        })
    }

    fn run<T: Copy + Send + Sync>(&self, dst: &mut [T], v: &[T], f: impl Fn(T, T) -> T + Sync) {
        let (set, l, vl) = (self.set, self.l, self.vl);
        let k = self.idx.len();
        let (base, vbase) = (l.offset() as isize, vl.offset() as isize);
        let nbd = set.shape.len();
        let simple = set.axis == 0 && l.ndim() == k && nbd <= 1;
        if simple {
            // One index position per element (`a[idx] = v`, `np.add.at(a, idx, v)`).
            let sv = if nbd == 1 { vl.strides()[0] } else { 0 };
            if k == 1 && sorted_in_range(self.idx[0], l.shape()[0]) {
                return sorted_parallel(dst, v, base, l.strides()[0], vbase, sv, self.idx[0], &f);
            }
            if k == 1 {
                let (n, s, ix) = (l.shape()[0] as i64, l.strides()[0], self.idx[0]);
                let last = vbase + ix.len().saturating_sub(1) as isize * sv;
                assert!(ix.is_empty() || (vbase.max(last) < v.len() as isize && vbase.min(last) >= 0));
                for (b, &i) in ix.iter().enumerate() {
                    let r = if (0..n).contains(&i) { i } else { resolve(i, n as usize, set.mode).expect("validated") };
                    let (o, x) = ((base + r as isize * s) as usize, (vbase + b as isize * sv) as usize);
                    debug_assert!(o < dst.len() && x < v.len());
                    // SAFETY: `r` lies in 0..n, so `o` is an element of the validated layout `l`
                    // of `dst`; `x` lies between the first and last value positions, checked
                    // against `v` above (the value layout is linear in `b`).
                    unsafe { *dst.get_unchecked_mut(o) = f(*dst.get_unchecked(o), *v.get_unchecked(x)) };
                }
            } else {
                for b in 0..set.len() {
                    let o = (base + self.delta(b)) as usize;
                    dst[o] = f(dst[o], v[(vbase + b as isize * sv) as usize]);
                }
            }
            return;
        }
        let (p_offs, q_offs) = (offsets(l, 0..set.axis), offsets(l, set.axis + k..l.ndim()));
        let vp = offsets(vl, 0..set.axis);
        let vb = offsets(vl, set.axis..set.axis + nbd);
        let vq = offsets(vl, set.axis + nbd..vl.ndim());
        for (&po, &vpo) in p_offs.iter().zip(&vp) {
            for (b, &vbo) in vb.iter().enumerate() {
                let (at, vat) = (base + po + self.delta(b), vbase + vpo + vbo);
                for (&qo, &vqo) in q_offs.iter().zip(&vq) {
                    let (o, x) = ((at + qo) as usize, (vat + vqo) as usize);
                    dst[o] = f(dst[o], v[x]);
                }
            }
        }
    }
}

/// Indices long enough to split (and cheap to check) that are nondecreasing and lie in `0..n`.
fn sorted_in_range(ix: &[i64], n: usize) -> bool {
    use rayon::prelude::*;
    const MIN: usize = 1 << 16;
    if ix.len() < MIN || rayon::current_num_threads() < 2 || ix[0] < 0 || ix[ix.len() - 1] >= n as i64 {
        return false;
    }
    ix.par_windows(2).with_min_len(MIN).all(|w| w[0] <= w[1])
}

/// The 1-D scatter of `v` (from `vbase`, stride `sv`) through the nondecreasing in-range `ix`
/// into `dst` (from `base`, stride `s`), split into parts at changes of index.
#[allow(clippy::too_many_arguments)]
fn sorted_parallel<T: Copy + Send + Sync>(
    dst: &mut [T],
    v: &[T],
    base: isize,
    s: isize,
    vbase: isize,
    sv: isize,
    ix: &[i64],
    f: &(impl Fn(T, T) -> T + Sync),
) {
    use rayon::prelude::*;
    let parts = rayon::current_num_threads() * 4;
    let mut cuts = vec![0usize];
    for p in 1..parts {
        let mut c = (ix.len() * p / parts).max(*cuts.last().unwrap());
        while c < ix.len() && c > 0 && ix[c] == ix[c - 1] {
            c += 1;
        }
        cuts.push(c);
    }
    cuts.push(ix.len());
    let last = vbase + (ix.len() as isize - 1) * sv;
    assert!(vbase.min(last) >= 0 && (vbase.max(last) as usize) < v.len());
    let (len, out) = (dst.len(), crate::par::Out(dst.as_mut_ptr()));
    cuts.par_windows(2).for_each(|w| {
        for b in w[0]..w[1] {
            let o = (base + ix[b] as isize * s) as usize;
            let x = v[(vbase + b as isize * sv) as usize];
            assert!(o < len);
            // SAFETY: `o` is in bounds (checked), and only this part writes element `o`: the
            // parts split between different index values of a sorted index.
            unsafe { *out.at(o) = f(*out.at(o), x) };
        }
    });
}
