//! The filter family on the CPU. A valid correlation runs, for each output row (the last axis),
//! one `acc += w · x[q ..]` pass per weight over a contiguous input row: every pass is a
//! vectorised multiply-add over the row, with the row of sums in L1; rows (and pieces of long
//! rows) go over both cores. A rank filter gathers each window and selects its element.
use crate::iter::map1;
use crate::CpuStorage;
use num_traits::float::{Float, TotalOrder};
use rayon::prelude::*;
use std::borrow::Cow;
use xp_core::{contiguous_strides, Element, Error, FilterStorage, HostBuffer, Layout, Recursed, Recursion, Result};

/// Output pieces along the last axis are at least this long (a task of this size amortises
/// rayon's scheduling).
const PIECE: usize = 4096;

/// float32 and float64.
trait Real: Element + Float + TotalOrder + Send + Sync + std::ops::AddAssign + Default {}
impl Real for f32 {}
impl Real for f64 {}

/// The elements of `l` in C order: the input itself when it is C-contiguous (the front end's
/// padded inputs are), else a copy.
fn dense<'a, T: Element>(x: &'a [T], l: &Layout) -> Cow<'a, [T]> {
    if l.is_contiguous() {
        Cow::Borrowed(&x[l.offset()..l.offset() + l.numel()])
    } else {
        Cow::Owned(map1(x, l, |v| v))
    }
}

/// A finished copy back to the host pool (a borrowed input is left alone).
fn recycle<T: Element>(v: Cow<'_, [T]>) {
    if let Cow::Owned(v) = v {
        crate::pool::give(T::into_buffer(v));
    }
}

/// The output shape and, for each output row, the input offset of its first window.
struct Rows {
    out: Vec<usize>,
    strides: Vec<isize>,
}

impl Rows {
    fn new(shape: &[usize], window: &[usize]) -> Rows {
        Rows { out: shape.iter().zip(window).map(|(n, m)| n - m + 1).collect(), strides: contiguous_strides(shape) }
    }
    fn row_len(&self) -> usize {
        *self.out.last().unwrap_or(&1)
    }
    fn rows(&self) -> usize {
        self.out[..self.out.len().saturating_sub(1)].iter().product()
    }
    /// The input offset of output row `r`'s first element.
    fn base(&self, mut r: usize) -> usize {
        let nd = self.out.len();
        let mut off = 0;
        for d in (0..nd.saturating_sub(1)).rev() {
            off += (r % self.out[d]) * self.strides[d] as usize;
            r /= self.out[d];
        }
        off
    }
    /// The input offsets of every position of a `window` box, relative to its first.
    fn offsets(&self, window: &[usize]) -> Vec<usize> {
        let n: usize = window.iter().product();
        (0..n)
            .map(|mut k| {
                let mut off = 0;
                for d in (0..window.len()).rev() {
                    off += (k % window[d]) * self.strides[d] as usize;
                    k /= window[d];
                }
                off
            })
            .collect()
    }
}

/// `f(row, start, out)` on pieces of every output row, in parallel.
fn pieces<T: Element + Default>(rows: &Rows, f: impl Fn(usize, usize, &mut [T]) + Sync + Send) -> Vec<T> {
    let len = rows.row_len();
    let total = rows.rows() * len;
    // from the host pool: a fresh multi-megabyte buffer costs more in page faults than the pass
    let mut out = crate::pool::alloc::<T>(total);
    out.resize(total, T::default());
    if total == 0 {
        return out;
    }
    let piece = if rows.rows() >= rayon::current_num_threads() * 4 { len } else { PIECE.min(len) };
    out.par_chunks_mut(len).enumerate().for_each(|(r, row)| {
        row.par_chunks_mut(piece).enumerate().for_each(|(i, p)| f(r, i * piece, p));
    });
    out
}

fn correlate<T: Real>(x: &[T], l: &Layout, w: &[T], wl: &Layout) -> HostBuffer {
    let (x, w) = (dense(x, l), dense(w, wl));
    let rows = Rows::new(l.shape(), wl.shape());
    let wlast = *wl.shape().last().unwrap_or(&1);
    let nd = wl.ndim();
    // the input offsets of the weights' rows (all but the last axis)
    let mut lead = wl.shape().to_vec();
    if nd > 0 {
        lead[nd - 1] = 1;
    }
    let row_offsets = rows.offsets(&lead);
    let out = pieces(&rows, |r, start, acc: &mut [T]| {
        let base = rows.base(r) + start;
        for (wr, &d) in w.chunks(wlast.max(1)).zip(&row_offsets) {
            for (q, &wq) in wr.iter().enumerate() {
                let src = &x[base + d + q..base + d + q + acc.len()];
                for (a, &v) in acc.iter_mut().zip(src) {
                    *a += wq * v;
                }
            }
        }
    });
    recycle(x);
    recycle(w);
    T::into_buffer(out)
}

fn rank<T: Real>(x: &[T], l: &Layout, size: &[usize], k: usize) -> HostBuffer {
    let x = dense(x, l);
    let rows = Rows::new(l.shape(), size);
    let offsets = rows.offsets(size);
    let out = pieces(&rows, |r, start, out: &mut [T]| {
        let base = rows.base(r) + start;
        let mut win = vec![T::default(); offsets.len()];
        for (j, o) in out.iter_mut().enumerate() {
            for (v, &d) in win.iter_mut().zip(&offsets) {
                *v = x[base + j + d];
            }
            // every NaN the positive one, so that NaN sorts last (NumPy's sort, the GPU's keys)
            for v in win.iter_mut() {
                if v.is_nan() {
                    *v = T::nan();
                }
            }
            *o = *win.select_nth_unstable_by(k, T::total_cmp).1;
        }
    });
    recycle(x);
    T::into_buffer(out)
}

impl FilterStorage for CpuStorage {
    fn correlate_valid(&self, l: &Layout, w: &Self, wl: &Layout) -> Result<Self> {
        let out = match (&self.0, &w.0) {
            (HostBuffer::F32(x), HostBuffer::F32(w)) => correlate(x, l, w, wl),
            (HostBuffer::F64(x), HostBuffer::F64(w)) => correlate(x, l, w, wl),
            _ => return Err(Error::InvalidDType { op: "correlate", dtype: self.0.dtype() }),
        };
        Ok(CpuStorage(out))
    }
    fn rank_valid(&self, l: &Layout, size: &[usize], k: usize) -> Result<Self> {
        let out = match &self.0 {
            HostBuffer::F32(x) => rank(x, l, size, k),
            HostBuffer::F64(x) => rank(x, l, size, k),
            _ => return Err(Error::InvalidDType { op: "rank_filter", dtype: self.0.dtype() }),
        };
        Ok(CpuStorage(out))
    }
    #[cfg(feature = "signal")]
    fn recursive_filter(&self, l: &Layout, r: &Recursion, zi: &Self, zl: &Layout) -> Result<Recursed<Self>> {
        crate::recursive::recursive_filter(self, l, r, zi, zl)
    }
    #[cfg(not(feature = "signal"))]
    fn recursive_filter(&self, _l: &Layout, _r: &Recursion, _zi: &Self, _zl: &Layout) -> Result<Recursed<Self>> {
        Err(Error::FeatureDisabled { op: "recursive_filter", backend: "cpu", feature: "signal" })
    }
    fn label(&self, l: &Layout, offsets: &[Vec<i8>]) -> Result<(Self, usize)> {
        match &self.0 {
            HostBuffer::Bool(x) if l.is_contiguous() => {
                crate::label::label(x, l, offsets).map(|(b, n)| (CpuStorage(b), n))
            }
            _ => Err(Error::invalid("label", "the backend takes a C-contiguous bool array")),
        }
    }
}
