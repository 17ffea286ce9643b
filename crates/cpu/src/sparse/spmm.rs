//! `Y = A X` for a CSR matrix `A` and a dense `X` of any strides: rows split into blocks that
//! hold about the same number of stored values (a row-count split leaves one core with the
//! dense rows of a power-law graph), each block on one rayon task writing its own rows of `Y`.
//! Sums follow NumPy's `matmul`: integers wrap, bool is or-of-ands, float16/bfloat16 accumulate
//! in float32 and round once.
use xp_core::{bf16, f16, Complex32, Complex64, CsrParts, Error, HostBuffer, Layout, Result};

use crate::CpuStorage;

/// A value type's multiply-accumulate in its accumulator type.
trait Mac: xp_core::Element {
    type A: Copy + Send + Sync;
    const ZERO: Self::A;
    fn mac(acc: Self::A, a: Self, b: Self) -> Self::A;
    fn out(acc: Self::A) -> Self;
}

macro_rules! mac_float {
    ($($t:ty),*) => {$(
        impl Mac for $t {
            type A = $t;
            const ZERO: $t = 0.0;
            #[inline(always)]
            fn mac(acc: $t, a: $t, b: $t) -> $t { acc + a * b }
            #[inline(always)]
            fn out(acc: $t) -> $t { acc }
        }
    )*};
}
mac_float!(f32, f64);

macro_rules! mac_complex {
    ($($t:ty),*) => {$(
        impl Mac for $t {
            type A = $t;
            const ZERO: $t = <$t>::new(0.0, 0.0);
            #[inline(always)]
            fn mac(acc: $t, a: $t, b: $t) -> $t { acc + a * b }
            #[inline(always)]
            fn out(acc: $t) -> $t { acc }
        }
    )*};
}
mac_complex!(Complex32, Complex64);

macro_rules! mac_half {
    ($($t:ty),*) => {$(
        impl Mac for $t {
            type A = f32;
            const ZERO: f32 = 0.0;
            #[inline(always)]
            fn mac(acc: f32, a: $t, b: $t) -> f32 { acc + a.to_f32() * b.to_f32() }
            #[inline(always)]
            fn out(acc: f32) -> $t { <$t>::from_f32(acc) }
        }
    )*};
}
mac_half!(f16, bf16);

macro_rules! mac_int {
    ($($t:ty),*) => {$(
        impl Mac for $t {
            type A = $t;
            const ZERO: $t = 0;
            #[inline(always)]
            fn mac(acc: $t, a: $t, b: $t) -> $t { acc.wrapping_add(a.wrapping_mul(b)) }
            #[inline(always)]
            fn out(acc: $t) -> $t { acc }
        }
    )*};
}
mac_int!(i8, i16, i32, i64, u8, u16, u32, u64);

impl Mac for bool {
    type A = bool;
    const ZERO: bool = false;
    #[inline(always)]
    fn mac(acc: bool, a: bool, b: bool) -> bool {
        acc | (a & b)
    }
    #[inline(always)]
    fn out(acc: bool) -> bool {
        acc
    }
}

/// An index dtype's values as positions (the front end checked them).
trait Ix: Copy + Send + Sync {
    fn at(self) -> usize;
}
impl Ix for i32 {
    #[inline(always)]
    fn at(self) -> usize {
        self as usize
    }
}
impl Ix for i64 {
    #[inline(always)]
    fn at(self) -> usize {
        self as usize
    }
}

/// The output pointer shared by the tasks, each writing its own rows.
#[derive(Clone, Copy)]
struct Out<T>(*mut T);
// SAFETY: tasks write disjoint row ranges of one buffer that outlives them.
unsafe impl<T> Send for Out<T> {}
unsafe impl<T> Sync for Out<T> {}
impl<T> Out<T> {
    /// The element `i` on (a method, so that closures capture the whole `Out`).
    unsafe fn at(self, i: usize) -> *mut T {
        self.0.add(i)
    }
}

/// Stored values per task below which a product stays on one thread.
const BLOCK_NNZ: usize = 1 << 15;

/// The product over typed slices: `x` is read at `off + j * s0 + c * s1`.
fn product<T: Mac, I: Ix>(
    (indptr, indices, data): (&[I], &[I], &[T]),
    rows: usize,
    x: &[T],
    (off, s0, s1): (isize, isize, isize),
    k: usize,
) -> Vec<T> {
    let nnz = indptr[rows].at();
    let mut out = crate::pool::alloc::<T>(rows * k);
    let tasks =
        if nnz * k.max(1) < 2 * BLOCK_NNZ { 1 } else { (nnz * k / BLOCK_NNZ).min(8 * rayon::current_num_threads()) };
    // block b holds the rows whose first value lies in [b·nnz/tasks, (b+1)·nnz/tasks)
    let bounds: Vec<usize> = (0..=tasks)
        .map(|b| if b == tasks { rows } else { indptr[..rows].partition_point(|p| p.at() < b * nnz / tasks) })
        .collect();
    let dst = Out(out.spare_capacity_mut().as_mut_ptr().cast::<T>());
    let xat = |j: usize, c: usize| -> T {
        // SAFETY: j < cols and c < k (indices checked by the front end), so the position lies
        // inside X's validated layout
        unsafe { *x.get_unchecked((off + j as isize * s0 + c as isize * s1) as usize) }
    };
    let block = |b: usize| {
        let mut acc = vec![T::ZERO; k];
        for r in bounds[b]..bounds[b + 1] {
            let (lo, hi) = (indptr[r].at(), indptr[r + 1].at());
            if k == 1 {
                let mut s = T::ZERO;
                for (&j, &v) in indices[lo..hi].iter().zip(&data[lo..hi]) {
                    s = T::mac(s, v, xat(j.at(), 0));
                }
                // SAFETY: row r of the output belongs to this block alone
                unsafe { dst.at(r).write(T::out(s)) };
                continue;
            }
            acc.iter_mut().for_each(|a| *a = T::ZERO);
            for (&j, &v) in indices[lo..hi].iter().zip(&data[lo..hi]) {
                let j = j.at();
                for (c, a) in acc.iter_mut().enumerate() {
                    *a = T::mac(*a, v, xat(j, c));
                }
            }
            for (c, a) in acc.iter().enumerate() {
                // SAFETY: as above
                unsafe { dst.at(r * k + c).write(T::out(*a)) };
            }
        }
    };
    if tasks == 1 {
        block(0);
    } else {
        crate::par::map(tasks, &|b| block(b));
    }
    // SAFETY: the blocks cover rows 0..rows, and each wrote its k values per row.
    unsafe { out.set_len(rows * k) };
    out
}

/// [`xp_core::SparseStorage::csr_matmul`] on host buffers.
pub(super) fn csr_matmul(a: &CsrParts<'_, CpuStorage>, x: &CpuStorage, xl: &Layout) -> Result<HostBuffer> {
    let op = "csr_matmul";
    let k = xl.shape().get(1).copied().unwrap_or(1);
    let st = xl.strides();
    let xs = (xl.offset() as isize, st[0], st.get(1).copied().unwrap_or(0));
    macro_rules! typed {
        ($p:expr, $i:expr, $($v:ident),*) => {
            match (&a.data.0, &x.0) {
                $((HostBuffer::$v(d), HostBuffer::$v(xv)) => HostBuffer::$v(product(($p, $i, d), a.rows, xv, xs, k)),)*
                _ => return Err(Error::InvalidDType { op, dtype: x.0.dtype() }),
            }
        };
    }
    macro_rules! go {
        ($ix:ident) => {{
            let (HostBuffer::$ix(p), HostBuffer::$ix(i)) = (&a.indptr.0, &a.indices.0) else {
                return Err(Error::invalid(op, "indptr and indices must share one index dtype"));
            };
            Ok(typed!(p, i, Bool, I8, I16, I32, I64, U8, U16, U32, U64, F16, BF16, F32, F64, C64, C128))
        }};
    }
    match &a.indptr.0 {
        HostBuffer::I32(_) => go!(I32),
        HostBuffer::I64(_) => go!(I64),
        b => Err(Error::InvalidDType { op, dtype: b.dtype() }),
    }
}
