//! Sparse arrays in [`crate::matmul`] and [`crate::dot`] (SciPy's `@`: sparse with dense gives a
//! dense array, sparse with sparse a sparse one), and operator sugar with SciPy's sparse *array*
//! meanings: `+`, `-` and `*` (elementwise, as SciPy's `multiply`) of two sparse arrays give a
//! sparse array, `/` of two a dense one; `*` and `/` by a scalar keep the format (`/` in float64
//! as SciPy's); unary `-`. With a dense operand, the methods: [`Sparse::add_dense`] (a dense
//! array), [`Sparse::multiply_dense`] (COO over the stored positions), [`Sparse::divide_dense`]
//! — operators there would leave `&x + &y` of dense arrays without a type to infer.
//!
//! The operators panic on error, as std's and xp's dense operators do (shape mismatch, mixed
//! devices); the methods ([`Sparse::add`], [`Sparse::multiply_dense`], …) return a `Result`.
//!
//! ```
//! use xp::sparse::{CsrArray, Format, Sparse};
//! let a = CsrArray::from_dense(&xp::Array::from_vec(vec![1.0f64, 0.0, 0.0, 2.0], &[2, 2]).unwrap()).unwrap();
//! let x = xp::Array::from_vec(vec![1.0f64, 1.0], &[2]).unwrap();
//! assert_eq!(xp::matmul(&a, &x).unwrap().to_vec::<f64>().unwrap(), vec![1.0, 2.0]); // A @ x
//! assert_eq!(xp::matmul(&x, &a).unwrap().to_vec::<f64>().unwrap(), vec![1.0, 2.0]); // x @ A
//! assert_eq!(xp::matmul(&a, &a).unwrap().format(), Format::Csr);                     // A @ A
//! let s = &(&a + &a) * 0.5;                                                           // sparse
//! assert_eq!(s.toarray().unwrap().to_vec::<f64>().unwrap(), vec![1.0, 0.0, 0.0, 2.0]);
//! let d = a.add_dense(&x).unwrap();                                                  // dense
//! assert_eq!(d.to_vec::<f64>().unwrap(), vec![2.0, 1.0, 1.0, 3.0]);
//! assert_eq!(a.multiply_dense(&x).unwrap().nnz(), 2);                                 // COO
//! let v = a.row(1).unwrap();                                                          // 1-D COO
//! assert_eq!((&(&v + &v) * 0.5).toarray().unwrap().to_vec::<f64>().unwrap(), vec![0.0, 2.0]);
//! assert_eq!(xp::matmul(&a, &v).unwrap().nnz(), 1);                                   // A @ v
//! ```
use super::{
    BsrArray, CooArray, CooArray1d, CscArray, CsrArray, CsrArray1d, DiaArray, Sparse, Sparse1d, SparseArray,
    SparseArray1d,
};
use crate::{Array, Matmul};
use xp_core::Result;

fn expect<T>(r: Result<T>) -> T {
    r.unwrap_or_else(|e| panic!("xp sparse operator failed: {e}"))
}

macro_rules! sparse_operators {
    ($($t:ty),*) => {$(
        impl Matmul<Array> for $t {
            type Output = Array;
            fn matmul_with(&self, x: &Array) -> Result<Array> {
                <$t>::matmul(self, x)
            }
        }
        impl Matmul<$t> for Array {
            type Output = Array;
            fn matmul_with(&self, a: &$t) -> Result<Array> {
                <$t>::rmatmul(a, self)
            }
        }
        impl<B: Sparse> Matmul<B> for $t {
            type Output = SparseArray;
            fn matmul_with(&self, b: &B) -> Result<SparseArray> {
                self.matmul_sparse(b)
            }
        }
        impl<B: Sparse> std::ops::Add<&B> for &$t {
            type Output = SparseArray;
            fn add(self, b: &B) -> SparseArray {
                expect(Sparse::add(self, b))
            }
        }
        impl<B: Sparse> std::ops::Sub<&B> for &$t {
            type Output = SparseArray;
            fn sub(self, b: &B) -> SparseArray {
                expect(Sparse::sub(self, b))
            }
        }
        impl<B: Sparse> std::ops::Mul<&B> for &$t {
            type Output = SparseArray;
            /// The elementwise product (SciPy's sparse-array `*`).
            fn mul(self, b: &B) -> SparseArray {
                expect(Sparse::multiply(self, b))
            }
        }
        impl<B: Sparse> std::ops::Div<&B> for &$t {
            type Output = Array;
            fn div(self, b: &B) -> Array {
                expect(Sparse::divide(self, b))
            }
        }
        impl std::ops::Mul<f64> for &$t {
            type Output = $t;
            fn mul(self, s: f64) -> $t {
                expect(self.mul_scalar(s))
            }
        }
        impl std::ops::Mul<i64> for &$t {
            type Output = $t;
            fn mul(self, s: i64) -> $t {
                expect(self.mul_scalar(s))
            }
        }
        impl std::ops::Div<f64> for &$t {
            type Output = SparseArray;
            fn div(self, s: f64) -> SparseArray {
                expect(self.divide_scalar(s))
            }
        }
        impl std::ops::Neg for &$t {
            type Output = $t;
            fn neg(self) -> $t {
                expect(<$t>::neg(self))
            }
        }
    )*};
}
sparse_operators!(CsrArray, CscArray, CooArray, DiaArray, BsrArray, SparseArray);

/// The same operators for 1-D sparse arrays (results as [`Sparse1d`]'s methods give them).
macro_rules! vector_operators {
    ($($t:ty),*) => {$(
        impl<B: Sparse1d> std::ops::Add<&B> for &$t {
            type Output = CsrArray1d;
            fn add(self, b: &B) -> CsrArray1d {
                expect(Sparse1d::add(self, b))
            }
        }
        impl<B: Sparse1d> std::ops::Sub<&B> for &$t {
            type Output = CsrArray1d;
            fn sub(self, b: &B) -> CsrArray1d {
                expect(Sparse1d::sub(self, b))
            }
        }
        impl<B: Sparse1d> std::ops::Mul<&B> for &$t {
            type Output = CsrArray1d;
            /// The elementwise product (SciPy's sparse-array `*`).
            fn mul(self, b: &B) -> CsrArray1d {
                expect(Sparse1d::multiply(self, b))
            }
        }
        impl<B: Sparse1d> std::ops::Div<&B> for &$t {
            type Output = Array;
            fn div(self, b: &B) -> Array {
                expect(Sparse1d::divide(self, b))
            }
        }
        impl std::ops::Mul<f64> for &$t {
            type Output = $t;
            fn mul(self, s: f64) -> $t {
                expect(self.mul_scalar(s))
            }
        }
        impl std::ops::Mul<i64> for &$t {
            type Output = $t;
            fn mul(self, s: i64) -> $t {
                expect(self.mul_scalar(s))
            }
        }
        impl std::ops::Div<f64> for &$t {
            type Output = SparseArray1d;
            fn div(self, s: f64) -> SparseArray1d {
                expect(self.divide_scalar(s))
            }
        }
        impl std::ops::Neg for &$t {
            type Output = $t;
            fn neg(self) -> $t {
                expect(<$t>::neg(self))
            }
        }
    )*};
}
vector_operators!(CooArray1d, CsrArray1d);
