//! GEMM over stacks: matrixmultiply's s/d/c/zgemm read each operand through its own strides
//! (transposed, negative, zero: no copy), one matrix per rayon task when the stack has several;
//! float16 and bfloat16 are widened to float32 and rounded once at the end (NumPy accumulates
//! them in float too); integers and bool run a plain loop with NumPy's wrapping (bool: or of ands).
use super::stack::Stack;
use rayon::prelude::*;
use xp_core::{bf16, f16, Complex32, Complex64, Element, Error, HostBuffer, Layout, Result};

/// Raw operand pointers shared by the tasks of one product (each task reads only).
#[derive(Clone, Copy)]
struct Ptr<T>(*const T);
// SAFETY: the pointed-to buffers outlive the product and are only read.
unsafe impl<T> Send for Ptr<T> {}
unsafe impl<T> Sync for Ptr<T> {}

impl<T> Ptr<T> {
    /// The pointer `n` elements on (a method, so that closures capture the whole `Ptr`).
    unsafe fn at(self, n: usize) -> *const T {
        self.0.add(n)
    }
}

/// One matrix product `C = A B`: sizes, operand pointers with their (row, column) strides, and
/// C dense row-major.
struct Job<T> {
    m: usize,
    k: usize,
    n: usize,
    a: *const T,
    sa: (isize, isize),
    b: *const T,
    sb: (isize, isize),
    c: *mut T,
}

/// A BLAS-style kernel for one [`Job`].
type Gemm<T> = unsafe fn(&Job<T>);

unsafe fn sgemm(j: &Job<f32>) {
    matrixmultiply::sgemm(j.m, j.k, j.n, 1.0, j.a, j.sa.0, j.sa.1, j.b, j.sb.0, j.sb.1, 0.0, j.c, j.n as isize, 1)
}
unsafe fn dgemm(j: &Job<f64>) {
    matrixmultiply::dgemm(j.m, j.k, j.n, 1.0, j.a, j.sa.0, j.sa.1, j.b, j.sb.0, j.sb.1, 0.0, j.c, j.n as isize, 1)
}
// Complex32 / Complex64 are #[repr(C)] (re, im): the layout of matrixmultiply's [f32; 2] / [f64; 2].
macro_rules! complex_gemm {
    ($name:ident, $t:ty, $f:path) => {
        unsafe fn $name(j: &Job<$t>) {
            use matrixmultiply::CGemmOption::Standard;
            let (one, zero) = ([1.0, 0.0], [0.0, 0.0]);
            let (a, b, c) = (j.a.cast(), j.b.cast(), j.c.cast());
            $f(Standard, Standard, j.m, j.k, j.n, one, a, j.sa.0, j.sa.1, b, j.sb.0, j.sb.1, zero, c, j.n as isize, 1)
        }
    };
}
complex_gemm!(cgemm, Complex32, matrixmultiply::cgemm);
complex_gemm!(zgemm, Complex64, matrixmultiply::zgemm);

/// The product of two stacks with the same batch shape (`al`: [.., m, k], `bl`: [.., k, n]).
pub(crate) fn matmul(a: &HostBuffer, al: &Layout, b: &HostBuffer, bl: &Layout) -> Result<HostBuffer> {
    let (sa, sb) = (Stack::new(al), Stack::new(bl));
    Ok(match (a, b) {
        (HostBuffer::F32(x), HostBuffer::F32(y)) => HostBuffer::F32(blas(x, &sa, y, &sb, sgemm)),
        (HostBuffer::F64(x), HostBuffer::F64(y)) => HostBuffer::F64(blas(x, &sa, y, &sb, dgemm)),
        (HostBuffer::C64(x), HostBuffer::C64(y)) => HostBuffer::C64(blas(x, &sa, y, &sb, cgemm)),
        (HostBuffer::C128(x), HostBuffer::C128(y)) => HostBuffer::C128(blas(x, &sa, y, &sb, zgemm)),
        (HostBuffer::F16(x), HostBuffer::F16(y)) => HostBuffer::F16(widened(x, al, y, bl, f16::to_f32, f16::from_f32)),
        (HostBuffer::BF16(x), HostBuffer::BF16(y)) => {
            HostBuffer::BF16(widened(x, al, y, bl, bf16::to_f32, bf16::from_f32))
        }
        (HostBuffer::Bool(x), HostBuffer::Bool(y)) => HostBuffer::Bool(looped(x, &sa, y, &sb)),
        (HostBuffer::I8(x), HostBuffer::I8(y)) => HostBuffer::I8(looped(x, &sa, y, &sb)),
        (HostBuffer::I16(x), HostBuffer::I16(y)) => HostBuffer::I16(looped(x, &sa, y, &sb)),
        (HostBuffer::I32(x), HostBuffer::I32(y)) => HostBuffer::I32(looped(x, &sa, y, &sb)),
        (HostBuffer::I64(x), HostBuffer::I64(y)) => HostBuffer::I64(looped(x, &sa, y, &sb)),
        (HostBuffer::U8(x), HostBuffer::U8(y)) => HostBuffer::U8(looped(x, &sa, y, &sb)),
        (HostBuffer::U16(x), HostBuffer::U16(y)) => HostBuffer::U16(looped(x, &sa, y, &sb)),
        (HostBuffer::U32(x), HostBuffer::U32(y)) => HostBuffer::U32(looped(x, &sa, y, &sb)),
        (HostBuffer::U64(x), HostBuffer::U64(y)) => HostBuffer::U64(looped(x, &sa, y, &sb)),
        _ => return Err(Error::InvalidDType { op: "matmul", dtype: b.dtype() }),
    })
}

/// The product through a BLAS-style kernel: one call per matrix, matrices in parallel.
fn blas<T: Element + Default>(a: &[T], sa: &Stack, b: &[T], sb: &Stack, gemm: Gemm<T>) -> Vec<T> {
    let (m, k, n) = (sa.rows, sa.cols, sb.cols);
    let mut out = vec![T::default(); sa.len() * m * n];
    if m * n == 0 || k == 0 {
        return out; // empty, or a sum over nothing: zeros
    }
    let (pa, pb) = (Ptr(a.as_ptr()), Ptr(b.as_ptr()));
    let one = |i: usize, c: &mut [T]| {
        // SAFETY: matrix i of each stack lies inside its buffer (layouts validated by the front
        // end); `c` holds m * n elements written densely with row stride n.
        unsafe {
            let (a, b) = (pa.at(sa.offsets[i]), pb.at(sb.offsets[i]));
            gemm(&Job { m, k, n, a, sa: (sa.rs, sa.cs), b, sb: (sb.rs, sb.cs), c: c.as_mut_ptr() })
        }
    };
    if sa.len() == 1 {
        one(0, &mut out); // matrixmultiply threads a large single product itself
    } else {
        out.par_chunks_mut(m * n).enumerate().for_each(|(i, c)| one(i, c));
    }
    out
}

/// float16 / bfloat16: both operands widened to dense float32 stacks, one sgemm per matrix, the
/// result rounded once.
fn widened<T: Element + Sync>(
    a: &[T],
    al: &Layout,
    b: &[T],
    bl: &Layout,
    up: fn(T) -> f32,
    down: fn(f32) -> T,
) -> Vec<T> {
    let (wa, wb) = (crate::iter::map1(a, al, up), crate::iter::map1(b, bl, up));
    let (la, lb) = (Layout::contiguous(al.shape()), Layout::contiguous(bl.shape()));
    let c = blas(&wa, &Stack::new(&la), &wb, &Stack::new(&lb), sgemm);
    c.into_iter().map(down).collect()
}

/// Multiply-accumulate with NumPy's integer semantics (wrapping; bool: `acc or (a and b)`).
trait Mac: Copy + Default + Send + Sync {
    fn mac(acc: Self, a: Self, b: Self) -> Self;
}
impl Mac for bool {
    #[inline]
    fn mac(acc: bool, a: bool, b: bool) -> bool {
        acc | (a & b)
    }
}
macro_rules! mac_int {
    ($($t:ty),*) => {$(
        impl Mac for $t {
            #[inline]
            fn mac(acc: $t, a: $t, b: $t) -> $t { acc.wrapping_add(a.wrapping_mul(b)) }
        }
    )*};
}
mac_int!(i8, i16, i32, i64, u8, u16, u32, u64);

/// Integer and bool products: row i of C accumulates `A[i, p] * B[p, :]` over p, B's rows made
/// contiguous first so that the inner loop runs over unit strides (and vectorises).
fn looped<T: Mac>(a: &[T], sa: &Stack, b: &[T], sb: &Stack) -> Vec<T> {
    let (m, k, n) = (sa.rows, sa.cols, sb.cols);
    let mut out = vec![T::default(); sa.len() * m * n];
    if m * n == 0 || k == 0 {
        return out;
    }
    out.par_chunks_mut(m * n).enumerate().for_each(|(i, c)| {
        let (oa, ob) = (sa.offsets[i] as isize, sb.offsets[i] as isize);
        let bd: Vec<T> =
            (0..k * n).map(|q| b[(ob + (q / n) as isize * sb.rs + (q % n) as isize * sb.cs) as usize]).collect();
        c.par_chunks_mut(n).enumerate().with_min_len((1 << 14) / (k * n).max(1) + 1).for_each(|(r, row)| {
            for p in 0..k {
                let x = a[(oa + r as isize * sa.rs + p as isize * sa.cs) as usize];
                let brow = &bd[p * n..(p + 1) * n];
                for (o, &y) in row.iter_mut().zip(brow) {
                    *o = T::mac(*o, x, y);
                }
            }
        });
    });
    out
}
