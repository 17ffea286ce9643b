//! Moving values between storages and registers: strided loads, raw gathers, stores.
use super::col::{Col, Lane, Reg};
use crate::iter::Walk;
use xp_core::Layout;

/// `x` as a slice of `B` when `A` and `B` are the same type (a storage type that is its own
/// register type), so that copies between them are one `memcpy`: the element loops, compiled
/// for baseline x86-64, copy 16 bytes at a time.
#[inline(always)]
fn same<A: 'static, B: 'static>(x: &[A]) -> Option<&[B]> {
    // SAFETY: equal type ids: `A` and `B` are the same type.
    (std::any::TypeId::of::<A>() == std::any::TypeId::of::<B>())
        .then(|| unsafe { std::slice::from_raw_parts(x.as_ptr().cast::<B>(), x.len()) })
}

/// `o[k] = x[k].up()`.
#[inline(always)]
fn up_all<T: Lane>(x: &[T], o: &mut [T::R]) {
    if let Some(x) = same::<T, T::R>(x) {
        o.copy_from_slice(x);
    } else {
        for (o, &x) in o.iter_mut().zip(x) {
            *o = x.up();
        }
    }
}

/// Ask for `x` in the cache ahead of its block.
#[inline(always)]
fn prefetch<T>(x: &[T]) {
    #[cfg(target_arch = "x86_64")]
    {
        let bytes = std::mem::size_of_val(x);
        let p = x.as_ptr().cast::<i8>();
        for k in (0..bytes).step_by(64) {
            // SAFETY: a prefetch is a hint; the address lies inside `x`.
            unsafe { std::arch::x86_64::_mm_prefetch(p.add(k), std::arch::x86_64::_MM_HINT_T0) };
        }
    }
}

#[inline(always)]
pub(crate) fn load<T: Lane>(buf: &[T], l: &Layout, start: usize, n: usize, o: &mut [T::R]) {
    if l.is_contiguous() {
        let b = l.offset() + start;
        up_all(&buf[b..b + n], &mut o[..n]);
        prefetch(&buf[(b + n).min(buf.len())..(b + 2 * n).min(buf.len())]);
        return;
    }
    let w = Walk::new(&[l]);
    let st = w.inner_stride(0);
    w.segments(start, start + n, |pos, len, off| {
        let o = &mut o[pos - start..pos - start + len];
        let base = off[0];
        if st == 1 {
            up_all(&buf[base as usize..base as usize + len], o);
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

/// Store register `r` (`n` values) into `out` at `start` as storage dtype `T`; `stream`: with
/// non-temporal stores (an output too large for the caches is not read for ownership first; the
/// task ends with [`fence`]).
pub(crate) fn store<T: Lane>(r: &Col, out: *mut T, start: usize, n: usize, stream: bool) {
    // SAFETY: `out` holds the whole output; tasks write disjoint ranges `start..start + n`.
    let o = unsafe { std::slice::from_raw_parts_mut(out.add(start), n) };
    let r = &<<T as Lane>::R as Reg>::get(r)[..n];
    if let Some(r) = same::<T::R, T>(r) {
        if stream {
            stream_copy(r, o);
        } else {
            o.copy_from_slice(r);
        }
    } else {
        for (o, &x) in o.iter_mut().zip(r) {
            *o = T::down(x);
        }
    }
}

/// An output buffer's address, shared by the tasks that write disjoint parts of it.
#[derive(Clone, Copy)]
pub(crate) struct Ptr(pub(crate) *mut u8);
// SAFETY: tasks write disjoint ranges (see `store`).
unsafe impl Send for Ptr {}
unsafe impl Sync for Ptr {}

/// `o.copy_from_slice(x)` with 16-byte non-temporal stores where `o` is aligned for them.
#[inline(always)]
fn stream_copy<T: Copy>(x: &[T], o: &mut [T]) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_stream_si128};
        let size = std::mem::size_of::<T>();
        let head = (o.as_ptr() as usize).wrapping_neg() % 16;
        if size > 0 && head.is_multiple_of(size) && 16usize.is_multiple_of(size) {
            let head = (head / size).min(o.len());
            let (xh, xb) = x.split_at(head);
            let (oh, ob) = o.split_at_mut(head);
            oh.copy_from_slice(xh);
            let per = 16 / size;
            let body = ob.len() / per * per;
            let (src, dst) = (xb.as_ptr().cast::<__m128i>(), ob.as_mut_ptr().cast::<__m128i>());
            for k in 0..body / per {
                // SAFETY: k * 16 bytes lie inside both slices; `dst` is 16-byte aligned.
                unsafe { _mm_stream_si128(dst.add(k), _mm_loadu_si128(src.add(k))) };
            }
            ob[body..].copy_from_slice(&xb[body..]);
            return;
        }
    }
    o.copy_from_slice(x);
}

/// Order a task's non-temporal stores before what follows (other threads read the output).
#[inline(always)]
pub(crate) fn fence() {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a store fence has no preconditions.
    unsafe {
        std::arch::x86_64::_mm_sfence()
    };
}

#[cfg(test)]
mod tests {
    /// Non-temporal copies at every alignment of both ends and lengths around the 16-byte
    /// steps, for 1-, 2-, 4- and 8-byte elements: equal to the source, nothing outside written.
    #[test]
    fn stream_copy_is_a_copy() {
        fn check<T: Copy + PartialEq + std::fmt::Debug>(make: impl Fn(usize) -> T, zero: T) {
            let src: Vec<T> = (0..300).map(&make).collect();
            for off in 0..8 {
                for len in [0, 1, 3, 7, 15, 16, 17, 33, 64, 255] {
                    let mut dst = [zero; 300];
                    super::stream_copy(&src[off..off + len], &mut dst[off..off + len]);
                    super::fence();
                    assert_eq!(&dst[off..off + len], &src[off..off + len]);
                    assert!(dst[..off].iter().chain(&dst[off + len..]).all(|&x| x == zero));
                }
            }
        }
        check(|k| k as u8 | 1, 0u8);
        check(|k| k as u16 + 1, 0u16);
        check(|k| k as f32 + 0.5, 0f32);
        check(|k| k as f64 - 0.25, 0f64);
    }
}
