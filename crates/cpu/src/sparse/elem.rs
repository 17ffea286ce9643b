//! What the sparse loops need of a value or index type: NumPy's multiply-accumulate and
//! addition per dtype, index values as positions, and an output pointer shared by tasks.
use xp_core::{bf16, f16, Complex32, Complex64};

/// A value type's multiply-accumulate in its accumulator type.
pub(super) trait Mac: xp_core::Element {
    type A: Copy + Send + Sync;
    const ZERO: Self::A;
    fn mac(acc: Self::A, a: Self, b: Self) -> Self::A;
    fn add(a: Self::A, b: Self::A) -> Self::A;
    /// `a + b` in the dtype (NumPy's addition: wrapping, or for bool, rounded for halves).
    fn plus(a: Self, b: Self) -> Self;
    fn out(acc: Self::A) -> Self;
}

macro_rules! mac_field {
    ($($t:ty => $zero:expr),*) => {$(
        impl Mac for $t {
            type A = $t;
            const ZERO: $t = $zero;
            #[inline(always)]
            fn mac(acc: $t, a: $t, b: $t) -> $t { acc + a * b }
            #[inline(always)]
            fn add(a: $t, b: $t) -> $t { a + b }
            #[inline(always)]
            fn plus(a: $t, b: $t) -> $t { a + b }
            #[inline(always)]
            fn out(acc: $t) -> $t { acc }
        }
    )*};
}
mac_field!(f32 => 0.0, f64 => 0.0, Complex32 => Complex32::new(0.0, 0.0), Complex64 => Complex64::new(0.0, 0.0));

macro_rules! mac_half {
    ($($t:ty),*) => {$(
        impl Mac for $t {
            type A = f32;
            const ZERO: f32 = 0.0;
            #[inline(always)]
            fn mac(acc: f32, a: $t, b: $t) -> f32 { acc + a.to_f32() * b.to_f32() }
            #[inline(always)]
            fn add(a: f32, b: f32) -> f32 { a + b }
            #[inline(always)]
            fn plus(a: $t, b: $t) -> $t { <$t>::from_f32(a.to_f32() + b.to_f32()) }
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
            fn add(a: $t, b: $t) -> $t { a.wrapping_add(b) }
            #[inline(always)]
            fn plus(a: $t, b: $t) -> $t { a.wrapping_add(b) }
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
    fn add(a: bool, b: bool) -> bool {
        a | b
    }
    #[inline(always)]
    fn plus(a: bool, b: bool) -> bool {
        a | b
    }
    #[inline(always)]
    fn out(acc: bool) -> bool {
        acc
    }
}

/// An index dtype's values as positions (the front end checked them).
pub(super) trait Ix: Copy + Send + Sync {
    fn at(self) -> usize;
    fn from_usize(v: usize) -> Self;
}
impl Ix for i32 {
    #[inline(always)]
    fn at(self) -> usize {
        self as usize
    }
    #[inline(always)]
    fn from_usize(v: usize) -> i32 {
        v as i32
    }
}
impl Ix for usize {
    #[inline(always)]
    fn at(self) -> usize {
        self
    }
    #[inline(always)]
    fn from_usize(v: usize) -> usize {
        v
    }
}
impl Ix for i64 {
    #[inline(always)]
    fn at(self) -> usize {
        self as usize
    }
    #[inline(always)]
    fn from_usize(v: usize) -> i64 {
        v as i64
    }
}

pub(super) use crate::par::Out;

/// A vector of `n` elements from the pool, not yet initialised, and the pointer tasks fill it
/// through (the caller sets its length once every element is written).
pub(super) fn fresh<T: xp_core::Element>(n: usize) -> (Vec<T>, Out<T>) {
    let mut v = crate::pool::alloc::<T>(n);
    let out = Out(v.spare_capacity_mut().as_mut_ptr().cast::<T>());
    (v, out)
}

/// `f(b)` for every task `b` of `tasks`, on the cores when there are several.
pub(super) fn each_task(tasks: usize, f: &(dyn Fn(usize) + Sync)) {
    if tasks == 1 {
        f(0)
    } else {
        crate::par::map(tasks, &|b| f(b));
    }
}

/// The offsets (from 0, one more than the counts) of consecutive runs of `counts` elements.
pub(super) fn offsets_of(counts: impl IntoIterator<Item = usize>) -> Vec<usize> {
    let mut ptr = vec![0usize];
    for n in counts {
        ptr.push(ptr[ptr.len() - 1] + n);
    }
    ptr
}

/// `tasks + 1` row bounds splitting `rows` rows into blocks of about equal stored-value counts
/// (block b holds the rows whose first value lies in [b·nnz/tasks, (b+1)·nnz/tasks)).
pub(super) fn row_blocks<I: Ix>(indptr: &[I], rows: usize, tasks: usize) -> Vec<usize> {
    let nnz = indptr[rows].at();
    let mut b: Vec<usize> = (0..=tasks)
        .map(|b| if b == tasks { rows } else { indptr[..rows].partition_point(|p| p.at() < b * nnz / tasks) })
        .collect();
    // from 0 to rows and never decreasing, even for offsets changed in place after their check,
    // so that no two tasks share a row
    b[0] = 0;
    for i in 1..b.len() {
        b[i] = b[i].clamp(b[i - 1], rows);
    }
    b
}

/// A dense operand read through its offset and strides.
#[derive(Clone, Copy)]
pub(super) struct Dense<'a, T> {
    pub(super) x: &'a [T],
    pub(super) off: isize,
    pub(super) s0: isize,
    pub(super) s1: isize,
}

impl<T: Copy> Dense<'_, T> {
    /// `X[i, c]` (bounds-checked: the indices come from the sparse array's parts, which a caller
    /// could have changed in place after they were checked).
    #[inline(always)]
    pub(super) fn at(&self, i: usize, c: usize) -> T {
        self.x[(self.off + i as isize * self.s0 + c as isize * self.s1) as usize]
    }
}
