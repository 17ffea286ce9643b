//! [`LinearOperator`]: SciPy's abstract matrix, anything that can multiply a vector.
use crate::sparse::{BsrArray, CooArray, CscArray, CsrArray, DiaArray, SparseArray};
use crate::Array;
use std::fmt;
use xp_core::{DType, Error, Result};

/// A matrix known by its products (SciPy's `LinearOperator`): the shape, the dtype, `A x`
/// ([`matvec`](LinearOperator::matvec)) and, where the solver needs it, `Aᴴ x`
/// ([`rmatvec`](LinearOperator::rmatvec)). Dense 2-D arrays, every sparse format and
/// [`Operator`] (closures) are linear operators; the solvers take `&dyn LinearOperator`.
///
/// ```
/// use xp::sparse::linalg::LinearOperator;
/// let a = xp::Array::from_vec(vec![2.0f64, 1.0, 0.0, 3.0], &[2, 2]).unwrap();
/// let x = xp::Array::from_vec(vec![1.0f64, 1.0], &[2]).unwrap();
/// assert_eq!(a.matvec(&x).unwrap().to_vec::<f64>().unwrap(), [3.0, 3.0]);
/// assert_eq!(a.rmatvec(&x).unwrap().to_vec::<f64>().unwrap(), [2.0, 4.0]);
/// ```
pub trait LinearOperator: Send + Sync {
    /// `(rows, columns)`.
    fn shape(&self) -> [usize; 2];
    /// The dtype of the products (of a vector of this dtype).
    fn dtype(&self) -> DType;
    /// `A x` for `x` of shape `(columns,)`.
    fn matvec(&self, x: &Array) -> Result<Array>;
    /// `Aᴴ x` (the conjugate transpose) for `x` of shape `(rows,)`; an operator made without
    /// one answers [`Error::Unsupported`].
    fn rmatvec(&self, _x: &Array) -> Result<Array> {
        Err(Error::Unsupported { op: "rmatvec of this LinearOperator", backend: "any" })
    }
    /// `A X` for `X` of shape `(columns, k)`: by default one [`matvec`](LinearOperator::matvec)
    /// per column.
    fn matmat(&self, x: &Array) -> Result<Array> {
        by_columns(x, |c| self.matvec(c))
    }
    /// `Aᴴ X` for `X` of shape `(rows, k)`: by default one
    /// [`rmatvec`](LinearOperator::rmatvec) per column.
    fn rmatmat(&self, x: &Array) -> Result<Array> {
        by_columns(x, |c| self.rmatvec(c))
    }
    /// Whether the operator is well formed (a dense array must have two dimensions).
    fn validate(&self) -> Result<()> {
        Ok(())
    }
    /// The matrix as CSR where the operator holds one (a sparse or dense array), for the
    /// methods that factor it (`eigsh`'s shift-invert mode); `None` for a matrix-free operator.
    fn to_csr(&self) -> Option<Result<CsrArray>> {
        None
    }
    /// The matrix as CSR where the operator is a sparse array, for the solvers whose device
    /// paths multiply it in their own kernels (`cg`); `None` for dense and matrix-free operators.
    fn sparse_csr(&self) -> Option<Result<CsrArray>> {
        None
    }
}

/// `f` applied to each column of the 2-D `x`, the results stacked as columns.
fn by_columns(x: &Array, f: impl Fn(&Array) -> Result<Array>) -> Result<Array> {
    if x.ndim() != 2 {
        return Err(Error::invalid("matmat", format!("expected a 2-D array, got {} dimensions", x.ndim())));
    }
    let cols = (0..x.shape()[1]).map(|j| f(&x.slice(crate::s![.., j as isize])?)).collect::<Result<Vec<_>>>()?;
    crate::stack(&cols.iter().collect::<Vec<_>>(), 1)
}

/// `conj(v)` for complex arrays, `v` itself otherwise.
pub(crate) fn conj_if_complex(v: &Array) -> Result<Array> {
    if v.dtype().is_complex() {
        v.conj()
    } else {
        Ok(v.clone())
    }
}

impl LinearOperator for Array {
    fn shape(&self) -> [usize; 2] {
        match Array::shape(self) {
            [r, c] => [*r, *c],
            _ => [0, 0],
        }
    }
    fn dtype(&self) -> DType {
        Array::dtype(self)
    }
    fn matvec(&self, x: &Array) -> Result<Array> {
        self.matmul(x)
    }
    fn rmatvec(&self, x: &Array) -> Result<Array> {
        // Aᴴ x = conj(xᴴ A)
        conj_if_complex(&conj_if_complex(x)?.matmul(self)?)
    }
    fn matmat(&self, x: &Array) -> Result<Array> {
        self.matmul(x)
    }
    fn rmatmat(&self, x: &Array) -> Result<Array> {
        // Aᴴ X = conj(Aᵀ conj(X))
        conj_if_complex(&self.t()?.matmul(&conj_if_complex(x)?)?)
    }
    fn validate(&self) -> Result<()> {
        if self.ndim() != 2 {
            return Err(Error::LinAlg {
                op: "LinearOperator",
                kind: xp_core::LinAlgKind::NotMatrix { ndim: self.ndim() },
            });
        }
        Ok(())
    }
    fn to_csr(&self) -> Option<Result<CsrArray>> {
        Some(CsrArray::from_dense(self))
    }
}

macro_rules! sparse_operator {
    ($($t:ty),*) => {$(
        impl LinearOperator for $t {
            fn shape(&self) -> [usize; 2] {
                <$t>::shape(self)
            }
            fn dtype(&self) -> DType {
                <$t>::dtype(self)
            }
            fn matvec(&self, x: &Array) -> Result<Array> {
                self.matmul(x)
            }
            fn rmatvec(&self, x: &Array) -> Result<Array> {
                // Aᴴ x = conj(xᴴ A)
                conj_if_complex(&self.rmatmul(&conj_if_complex(x)?)?)
            }
            fn matmat(&self, x: &Array) -> Result<Array> {
                self.matmul(x)
            }
            fn rmatmat(&self, x: &Array) -> Result<Array> {
                conj_if_complex(&self.rmatmul(&conj_if_complex(x)?.t()?)?.t()?)
            }
            fn to_csr(&self) -> Option<Result<CsrArray>> {
                Some(crate::sparse::Sparse::canonical_csr(self))
            }
            fn sparse_csr(&self) -> Option<Result<CsrArray>> {
                self.to_csr()
            }
        }
    )*};
}
sparse_operator!(CsrArray, CscArray, CooArray, DiaArray, BsrArray, SparseArray);

impl<T: LinearOperator + ?Sized> LinearOperator for &T {
    fn shape(&self) -> [usize; 2] {
        (**self).shape()
    }
    fn dtype(&self) -> DType {
        (**self).dtype()
    }
    fn matvec(&self, x: &Array) -> Result<Array> {
        (**self).matvec(x)
    }
    fn rmatvec(&self, x: &Array) -> Result<Array> {
        (**self).rmatvec(x)
    }
    fn matmat(&self, x: &Array) -> Result<Array> {
        (**self).matmat(x)
    }
    fn rmatmat(&self, x: &Array) -> Result<Array> {
        (**self).rmatmat(x)
    }
    fn validate(&self) -> Result<()> {
        (**self).validate()
    }
    fn to_csr(&self) -> Option<Result<CsrArray>> {
        (**self).to_csr()
    }
    fn sparse_csr(&self) -> Option<Result<CsrArray>> {
        (**self).sparse_csr()
    }
}

/// A product function of an [`Operator`].
pub type ProductFn = Box<dyn Fn(&Array) -> Result<Array> + Send + Sync>;

/// A linear operator made of closures (SciPy's `LinearOperator(shape, matvec, rmatvec, matmat,
/// dtype=...)`): a preconditioner, a matrix-free stencil, a shift-invert solve.
///
/// ```
/// use xp::sparse::linalg::{LinearOperator, Operator};
/// // the diagonal matrix diag(1, 2, 3) without storing it
/// let d = xp::Array::from_vec(vec![1.0f64, 2.0, 3.0], &[3]).unwrap();
/// let op = Operator::new([3, 3], xp::DType::F64, move |x| x.mul(&d));
/// let y = op.matvec(&xp::ones(&[3], xp::DType::F64).unwrap()).unwrap();
/// assert_eq!(y.to_vec::<f64>().unwrap(), [1.0, 2.0, 3.0]);
/// ```
pub struct Operator {
    shape: [usize; 2],
    dtype: DType,
    matvec: ProductFn,
    rmatvec: Option<ProductFn>,
    matmat: Option<ProductFn>,
}

impl fmt::Debug for Operator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Operator {{ shape: {:?}, dtype: {} }}", self.shape, self.dtype.name())
    }
}

impl Operator {
    /// An operator of `shape` and `dtype` whose `A x` is `matvec(x)`.
    pub fn new(
        shape: [usize; 2],
        dtype: DType,
        matvec: impl Fn(&Array) -> Result<Array> + Send + Sync + 'static,
    ) -> Operator {
        Operator { shape, dtype, matvec: Box::new(matvec), rmatvec: None, matmat: None }
    }
    /// With `Aᴴ x` given by `rmatvec`.
    pub fn with_rmatvec(mut self, rmatvec: impl Fn(&Array) -> Result<Array> + Send + Sync + 'static) -> Operator {
        self.rmatvec = Some(Box::new(rmatvec));
        self
    }
    /// With `A X` given by `matmat` (instead of one `matvec` per column).
    pub fn with_matmat(mut self, matmat: impl Fn(&Array) -> Result<Array> + Send + Sync + 'static) -> Operator {
        self.matmat = Some(Box::new(matmat));
        self
    }
}

impl LinearOperator for Operator {
    fn shape(&self) -> [usize; 2] {
        self.shape
    }
    fn dtype(&self) -> DType {
        self.dtype
    }
    fn matvec(&self, x: &Array) -> Result<Array> {
        (self.matvec)(x)
    }
    fn rmatvec(&self, x: &Array) -> Result<Array> {
        match &self.rmatvec {
            Some(f) => f(x),
            None => Err(Error::Unsupported { op: "rmatvec of an Operator made without one", backend: "any" }),
        }
    }
    fn matmat(&self, x: &Array) -> Result<Array> {
        match &self.matmat {
            Some(f) => f(x),
            None => by_columns(x, |c| self.matvec(c)),
        }
    }
}

/// The identity of size `n` (SciPy's `IdentityOperator`): the solvers' default preconditioner.
#[derive(Clone, Copy, Debug)]
pub struct IdentityOperator {
    /// the size
    pub n: usize,
    /// the dtype
    pub dtype: DType,
}

impl LinearOperator for IdentityOperator {
    fn shape(&self) -> [usize; 2] {
        [self.n, self.n]
    }
    fn dtype(&self) -> DType {
        self.dtype
    }
    fn matvec(&self, x: &Array) -> Result<Array> {
        Ok(x.clone())
    }
    fn rmatvec(&self, x: &Array) -> Result<Array> {
        Ok(x.clone())
    }
    fn matmat(&self, x: &Array) -> Result<Array> {
        Ok(x.clone())
    }
    fn rmatmat(&self, x: &Array) -> Result<Array> {
        Ok(x.clone())
    }
}

/// SciPy's `aslinearoperator`: any linear operator (a dense 2-D array, a sparse array, an
/// [`Operator`]) as a boxed trait object, checked to be well formed.
pub fn aslinearoperator<'a, T: LinearOperator + 'a>(a: T) -> Result<Box<dyn LinearOperator + 'a>> {
    a.validate()?;
    Ok(Box::new(a))
}
