//! Moving values between storages and registers: strided loads, raw gathers, stores.
use super::col::{Col, Lane, Reg};
use crate::iter::Walk;
use xp_core::Layout;

#[inline(always)]
pub(crate) fn load<T: Lane>(buf: &[T], l: &Layout, start: usize, n: usize, o: &mut [T::R]) {
    if l.is_contiguous() {
        let b = l.offset() + start;
        for (o, &x) in o[..n].iter_mut().zip(&buf[b..b + n]) {
            *o = x.up();
        }
        return;
    }
    let w = Walk::new(&[l]);
    let st = w.inner_stride(0);
    w.segments(start, start + n, |pos, len, off| {
        let o = &mut o[pos - start..pos - start + len];
        let base = off[0];
        if st == 1 {
            for (o, &x) in o.iter_mut().zip(&buf[base as usize..base as usize + len]) {
                *o = x.up();
            }
        } else {
            for (k, o) in o.iter_mut().enumerate() {
                *o = buf[(base + k as isize * st) as usize].up();
            }
        }
    });
}

pub(crate) fn gather<T: Lane>(buf: &[T], l: &Layout, ix: &[i64], m: Option<&[bool]>, o: &mut [T::R]) {
    let contiguous = l.is_contiguous();
    let shape = l.shape();
    for (k, &j) in ix.iter().enumerate() {
        if m.is_some_and(|m| !m[k]) {
            o[k] = T::R::default();
            continue;
        }
        let pos = if contiguous {
            l.offset() as isize + j as isize
        } else {
            let (mut r, mut p) = (j as usize, l.offset() as isize);
            for d in (0..shape.len()).rev() {
                p += (r % shape[d]) as isize * l.strides()[d];
                r /= shape[d];
            }
            p
        };
        o[k] = buf[pos as usize].up();
    }
}

/// Store register `r` (`n` values) into `out` at `start` as storage dtype `T`.
pub(crate) fn store<T: Lane>(r: &Col, out: *mut T, start: usize, n: usize) {
    // SAFETY: `out` holds the whole output; tasks write disjoint ranges `start..start + n`.
    let o = unsafe { std::slice::from_raw_parts_mut(out.add(start), n) };
    for (o, &x) in o.iter_mut().zip(&<<T as Lane>::R as Reg>::get(r)[..n]) {
        *o = T::down(x);
    }
}

/// An output buffer's address, shared by the tasks that write disjoint parts of it.
#[derive(Clone, Copy)]
pub(crate) struct Ptr(pub(crate) *mut u8);
// SAFETY: tasks write disjoint ranges (see `store`).
unsafe impl Send for Ptr {}
unsafe impl Sync for Ptr {}
