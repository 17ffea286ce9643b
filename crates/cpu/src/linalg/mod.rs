//! The linear-algebra family on the CPU: GEMM through matrixmultiply (every float and complex
//! kind; float16 and bfloat16 through float32; our own loop for integers and bool), the
//! decompositions through faer, one matrix of a stack per rayon task. Products are always built;
//! the decompositions (and faer, the largest dependency) only with the `linalg` feature: without
//! it they answer [`Error::FeatureDisabled`]. Strided operands are read
//! in place (matrixmultiply and faer both take arbitrary strides); nothing is copied to make a
//! layout contiguous.
//!
//! ```
//! use xp_core::{BackendDevice, BackendStorage, DType, Error, Layout, LinalgStorage, Scalar};
//! use xp_cpu::CpuDevice;
//! let a = CpuDevice.affine(4, Scalar::Int(1), Scalar::Int(1), DType::F64).unwrap(); // [[1, 2], [3, 4]]
//! let l = Layout::contiguous(&[2, 2]);
//! let sq = a.matmul(&l, &a, &l).unwrap().to_host(&l).unwrap();
//! assert_eq!(sq, vec![7.0, 10.0, 15.0, 22.0].into());
//! match a.inv(&l) {
//!     Ok(inv) => {
//!         let inv = inv.to_host(&l).unwrap();
//!         let want = [-2.0, 1.0, 1.5, -0.5];
//!         assert!((0..4).all(|i| (inv.get(i).unwrap().to_f64() - want[i]).abs() < 1e-12));
//!     }
//!     // a build without the `linalg` feature
//!     Err(e) => assert!(matches!(e, Error::FeatureDisabled { feature: "linalg", .. })),
//! }
//! ```
#[cfg(feature = "linalg")]
mod cholesky;
#[cfg(feature = "linalg")]
mod eigen;
#[cfg(feature = "linalg")]
mod expm;
#[cfg(feature = "linalg")]
mod francis;
mod gemv;
#[cfg(feature = "linalg")]
mod lapack;
#[cfg(feature = "linalg")]
mod lu;
#[cfg(feature = "linalg")]
mod lu_factor;
mod matmul;
#[cfg(feature = "linalg")]
mod qr;
#[cfg(feature = "linalg")]
mod schur;
mod skinny;
mod small;
mod stack;
#[cfg(feature = "linalg")]
mod svd;

use crate::CpuStorage;
#[cfg(feature = "linalg")]
use faer::traits::{ComplexField, RealField};
pub(crate) use small::wide;
use xp_core::linalg::{
    Determinant, EigFactors, EighSpec, HessenbergFactors, LuFactors, PivotedQrFactors, QrFactors, QrMode, SchurFactors,
    SvdFactors, SvdSpec, Trans, TriangularSpec, Uplo,
};
#[cfg(feature = "linalg")]
use xp_core::{Complex32, Complex64, Element, HostBuffer};
use xp_core::{Error, Layout, LinalgStorage, Result};

/// The element types the decompositions run on (float32, float64, complex64, complex128), with
/// their real type and the complex type of the same precision.
#[cfg(feature = "linalg")]
pub(crate) trait Field:
    Element + ComplexField<Real: Element + RealField> + lapack::Lapack + small::Small<Re = <Self as ComplexField>::Real>
{
    /// the complex type of the same precision
    type Cplx: Element + ComplexField<Real = Self::Real>;
    /// faer's complex results (`Complex<Self::Real>`, the same type) as [`Field::Cplx`]
    fn from_faer_cplx(x: num_complex::Complex<Self::Real>) -> Self::Cplx;
}

#[cfg(feature = "linalg")]
macro_rules! field {
    ($($t:ty => $c:ty),*) => {$(
        impl Field for $t {
            type Cplx = $c;
            fn from_faer_cplx(x: num_complex::Complex<Self::Real>) -> $c {
                x
            }
        }
    )*};
}
#[cfg(feature = "linalg")]
field!(f32 => Complex32, f64 => Complex64, Complex32 => Complex32, Complex64 => Complex64);

/// Runs `$body` with `$v` bound to the typed vector of a float or complex buffer; other dtypes
/// are refused (the front end converts them first).
#[cfg(feature = "linalg")]
macro_rules! on_field {
    ($op:expr, $buf:expr, $v:ident => $body:expr) => {
        match $buf {
            HostBuffer::F32($v) => $body,
            HostBuffer::F64($v) => $body,
            HostBuffer::C64($v) => $body,
            HostBuffer::C128($v) => $body,
            b => Err(Error::InvalidDType { op: $op, dtype: b.dtype() }),
        }
    };
}

#[cfg(feature = "linalg")]
fn wrap<T: Element>(v: Vec<T>) -> CpuStorage {
    CpuStorage(T::into_buffer(v))
}

#[cfg(feature = "linalg")]
fn c64_up(x: Complex32) -> Complex64 {
    Complex64::new(x.re as f64, x.im as f64)
}

#[cfg(feature = "linalg")]
fn c64_down(x: Complex64) -> Complex32 {
    Complex32::new(x.re as f32, x.im as f32)
}

#[cfg(feature = "linalg")]
fn wrap2<T: Element>((a, b): (Vec<T>, Vec<T>)) -> (CpuStorage, CpuStorage) {
    (wrap(a), wrap(b))
}

/// The decompositions of a build without the `linalg` feature: each answers
/// [`Error::FeatureDisabled`].
#[cfg(not(feature = "linalg"))]
macro_rules! without_linalg {
    ($($name:ident($($arg:ident: $t:ty),*) -> $r:ty;)*) => {$(
        fn $name(&self, _l: &Layout, $($arg: $t),*) -> Result<$r> {
            let _ = ($($arg,)*);
            Err(Error::FeatureDisabled { op: stringify!($name), backend: "cpu", feature: "linalg" })
        }
    )*};
}

impl LinalgStorage for CpuStorage {
    fn matmul(&self, l: &Layout, rhs: &Self, rl: &Layout) -> Result<Self> {
        matmul::matmul(&self.0, l, &rhs.0, rl).map(CpuStorage)
    }
    fn axpy(&self, l: &Layout, alpha: f64, x: &Self, xl: &Layout) -> Result<Self> {
        use xp_core::HostBuffer as H;
        Ok(CpuStorage(match (&self.0, &x.0) {
            (H::F64(y), H::F64(x)) => H::F64(crate::iter::map2(y, l, x, xl, |y, x| y + alpha * x)),
            (H::F32(y), H::F32(x)) => {
                let a = alpha as f32;
                H::F32(crate::iter::map2(y, l, x, xl, |y, x| y + a * x))
            }
            _ => return Err(xp_core::Error::Unsupported { op: "axpy", backend: "cpu" }),
        }))
    }
    #[cfg(feature = "linalg")]
    fn solve(&self, l: &Layout, b: &Self, bl: &Layout) -> Result<Self> {
        on_field!("solve", &self.0, a => {
            let b = <_ as Element>::slice_of(&b.0).ok_or(Error::InvalidDType { op: "solve", dtype: b.0.dtype() })?;
            lu::solve(a, l, b, bl).map(wrap)
        })
    }
    #[cfg(feature = "linalg")]
    fn expm_pade(&self, l: &Layout, b: &[f64]) -> Result<Self> {
        on_field!("expm", &self.0, a => expm::pade(a, l, b).map(wrap))
    }
    #[cfg(feature = "linalg")]
    fn lu_factor(&self, l: &Layout) -> Result<LuFactors<Self>> {
        on_field!("lu_factor", &self.0, a => {
            let (lu, piv) = lu_factor::lu_factor(a, l)?;
            Ok(LuFactors { lu: wrap(lu), piv: wrap(piv) })
        })
    }
    #[cfg(feature = "linalg")]
    fn lu_solve(&self, l: &Layout, piv: &Self, pl: &Layout, b: &Self, bl: &Layout, trans: Trans) -> Result<Self> {
        on_field!("lu_solve", &self.0, a => {
            let b = <_ as Element>::slice_of(&b.0).ok_or(Error::InvalidDType { op: "lu_solve", dtype: b.0.dtype() })?;
            let p = <i32 as Element>::slice_of(&piv.0).ok_or(Error::InvalidDType { op: "lu_solve", dtype: piv.0.dtype() })?;
            lu_factor::lu_solve(a, l, p, pl, b, bl, trans).map(wrap)
        })
    }
    #[cfg(feature = "linalg")]
    fn solve_triangular(&self, l: &Layout, b: &Self, bl: &Layout, spec: TriangularSpec) -> Result<Self> {
        on_field!("solve_triangular", &self.0, a => {
            let b = <_ as Element>::slice_of(&b.0).ok_or(Error::InvalidDType { op: "solve_triangular", dtype: b.0.dtype() })?;
            lu_factor::solve_triangular(a, l, b, bl, spec).map(wrap)
        })
    }
    #[cfg(feature = "linalg")]
    fn inv(&self, l: &Layout) -> Result<Self> {
        on_field!("inv", &self.0, a => lu::inv(a, l).map(wrap))
    }
    #[cfg(feature = "linalg")]
    fn det(&self, l: &Layout) -> Result<Determinant<Self>> {
        on_field!("det", &self.0, a => {
            let (det, sign, logabsdet) = lu::det(a, l)?;
            Ok(Determinant { det: wrap(det), sign: wrap(sign), logabsdet: wrap(logabsdet) })
        })
    }
    #[cfg(feature = "linalg")]
    fn cholesky(&self, l: &Layout, uplo: Uplo) -> Result<Self> {
        on_field!("cholesky", &self.0, a => cholesky::cholesky(a, l, uplo).map(wrap))
    }
    #[cfg(feature = "linalg")]
    fn qr(&self, l: &Layout, mode: QrMode) -> Result<QrFactors<Self>> {
        on_field!("qr", &self.0, a => {
            let (q, r) = qr::qr(a, l, mode)?;
            Ok(QrFactors { q: q.map(wrap), r: wrap(r) })
        })
    }
    #[cfg(feature = "linalg")]
    fn qr_pivoted(&self, l: &Layout, mode: QrMode) -> Result<PivotedQrFactors<Self>> {
        on_field!("qr", &self.0, a => {
            let (q, r, p) = qr::qr_pivoted(a, l, mode)?;
            Ok(PivotedQrFactors { qr: QrFactors { q: q.map(wrap), r: wrap(r) }, p: wrap(p) })
        })
    }
    #[cfg(feature = "linalg")]
    fn svd(&self, l: &Layout, spec: SvdSpec) -> Result<SvdFactors<Self>> {
        on_field!("svd", &self.0, a => {
            let (u, s, vh) = svd::svd(a, l, spec)?;
            Ok(SvdFactors { u: u.map(wrap), s: wrap(s), vh: vh.map(wrap) })
        })
    }
    #[cfg(feature = "linalg")]
    fn eigh(&self, l: &Layout, spec: EighSpec) -> Result<EigFactors<Self>> {
        on_field!("eigh", &self.0, a => {
            let (w, v) = eigen::eigh(a, l, spec)?;
            Ok(EigFactors { w: wrap(w), v: v.map(wrap) })
        })
    }
    #[cfg(feature = "linalg")]
    fn eig(&self, l: &Layout, vectors: bool) -> Result<EigFactors<Self>> {
        on_field!("eig", &self.0, a => {
            let (w, v) = eigen::eig(a, l, vectors)?;
            Ok(EigFactors { w: wrap(w), v: v.map(wrap) })
        })
    }
    #[cfg(feature = "linalg")]
    fn schur(&self, l: &Layout, complex: bool) -> Result<SchurFactors<Self>> {
        use xp_core::HostBuffer as H;
        let (t, z) = match &self.0 {
            H::F32(a) if complex => wrap2(schur::schur_complex(a, l, |x| Complex32::new(x, 0.0), c64_up, c64_down)?),
            H::F64(a) if complex => wrap2(schur::schur_complex(a, l, |x| Complex64::new(x, 0.0), |x| x, |x| x)?),
            H::F32(a) => wrap2(schur::schur_real(a, l, |x| x as f64, |x| x as f32)?),
            H::F64(a) => wrap2(schur::schur_real(a, l, |x| x, |x| x)?),
            H::C64(a) => wrap2(schur::schur_complex(a, l, |x| x, c64_up, c64_down)?),
            H::C128(a) => wrap2(schur::schur_complex(a, l, |x| x, |x| x, |x| x)?),
            b => return Err(Error::InvalidDType { op: "schur", dtype: b.dtype() }),
        };
        Ok(SchurFactors { t, z })
    }
    #[cfg(feature = "linalg")]
    fn hessenberg(&self, l: &Layout, calc_q: bool) -> Result<HessenbergFactors<Self>> {
        on_field!("hessenberg", &self.0, a => {
            let (h, q) = schur::hessenberg(a, l, calc_q)?;
            Ok(HessenbergFactors { h: wrap(h), q: q.map(wrap) })
        })
    }
    #[cfg(not(feature = "linalg"))]
    without_linalg! {
        solve(b: &Self, bl: &Layout) -> Self;
        inv() -> Self;
        lu_factor() -> LuFactors<Self>;
        lu_solve(piv: &Self, pl: &Layout, b: &Self, bl: &Layout, trans: Trans) -> Self;
        solve_triangular(b: &Self, bl: &Layout, spec: TriangularSpec) -> Self;
        det() -> Determinant<Self>;
        cholesky(uplo: Uplo) -> Self;
        qr(mode: QrMode) -> QrFactors<Self>;
        svd(spec: SvdSpec) -> SvdFactors<Self>;
        eigh(spec: EighSpec) -> EigFactors<Self>;
        eig(vectors: bool) -> EigFactors<Self>;
        schur(complex: bool) -> SchurFactors<Self>;
        hessenberg(calc_q: bool) -> HessenbergFactors<Self>;
        qr_pivoted(mode: QrMode) -> PivotedQrFactors<Self>;
    }
}
