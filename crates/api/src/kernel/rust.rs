//! Kernels written in Rust: [`RustKernel`] (what `#[xp::kernel]` builds), the traits a kernel's
//! generic parameters are bound by ([`Float`], [`Int`], [`Num`]), [`Raw`] and [`Index`]
//! parameters, and [`math`], the special functions a kernel may call.
//!
//! ```
//! use xp::kernel::Float;
//!
//! /// Leaky ReLU: `x` where positive, `alpha * x` elsewhere.
//! #[xp::kernel]
//! fn leaky_relu<T: Float>(x: T, alpha: T) -> T {
//!     if x > T::ZERO { x } else { alpha * x }
//! }
//!
//! fn main() {
//!     let x = xp::Array::from_vec(vec![-2.0f32, -0.5, 0.0, 3.0], &[4]).unwrap();
//!     let y = leaky_relu::call(&x, 0.1).unwrap(); // on the device `x` lives on
//!     assert_eq!(y.to_vec::<f32>().unwrap(), vec![-0.2f32, -0.05, 0.0, 3.0]);
//!     assert_eq!(leaky_relu(-2.0f32, 0.1), -0.2); // still a plain function of scalars
//! }
//! ```
//!
//! A kernel is an item of a module (as above), not of a function body: the module the macro
//! writes beside it reaches it through `super`.
use super::call::{prepare, Prepared};
use super::ElementwiseKernel;
use crate::ufunc::Operand;
use crate::Array;
use xp_core::kernel::rust::ast::Func;
pub use xp_core::kernel::rust::{Float, Index, Int, NativeKernel, Num, Raw};
use xp_core::kernel::ElementwiseDef;
use xp_core::{DType, Error, Result, Scalar};

/// An elementwise kernel written in Rust (`#[xp::kernel]`): the function runs natively on the
/// CPU and, lowered to xp's kernel IR and printed as CUDA C, on a GPU. Arguments broadcast;
/// scalars follow NumPy 2's rule for Python scalars (a float for an integer type, or an integer
/// out of the type's range, is an error rather than a silent cast).
#[derive(Clone, Debug)]
pub struct RustKernel {
    inner: ElementwiseKernel,
}

impl RustKernel {
    /// The kernel of function `func` (the macro's expansion calls this).
    #[doc(hidden)]
    pub fn new(path: &str, func: &'static Func, native: &'static dyn NativeKernel, hash: u64) -> RustKernel {
        RustKernel { inner: ElementwiseKernel::from_def(ElementwiseDef::from_rust(path, func, Some(native), hash)) }
    }
    /// The same kernel without its native instances: the CPU runs the function's lowered form
    /// (the program a GPU compiles) through xp's evaluator. For tests that both agree.
    pub fn lowered(&self) -> RustKernel {
        RustKernel { inner: ElementwiseKernel::from_def(self.def().without_native()) }
    }
    /// The definition (signature, identity hash, the function).
    pub fn def(&self) -> &ElementwiseDef {
        self.inner.def()
    }
    /// The typed program for dtype bindings `typedefs` (what a GPU compiles, printed as C).
    pub fn program(&self, typedefs: &[xp_core::kernel::Typedef], scalar: &[bool]) -> Result<xp_core::kernel::Program> {
        self.def().program(typedefs, scalar)
    }
    /// Run over `args` (the parameters other than an `Index`, in order); the outputs are
    /// allocated.
    pub fn call(&self, args: &[Operand]) -> Result<Vec<Array>> {
        Ok(self.inner.run_checked(args, &[], |p| self.check(args, p))?.into_vec())
    }
    /// As [`RustKernel::call`], the outputs in order without collecting them (what the macro's
    /// `call` unpacks into its tuple: no allocation beyond the arrays').
    #[doc(hidden)]
    pub fn call_iter(&self, args: &[Operand]) -> Result<impl Iterator<Item = Array> + use<>> {
        Ok(self.inner.run_checked(args, &[], |p| self.check(args, p))?.into_iter())
    }
    /// Run into given outputs (of the broadcast shape and the results' dtypes).
    pub fn call_out(&self, args: &[Operand], outs: &[&Array]) -> Result<()> {
        self.inner.run_checked(args, outs, |p| self.check(args, p)).map(|_| ())
    }
    /// The bounds of the generic parameters and NumPy 2's rule for scalars.
    fn check(&self, args: &[Operand], p: &Prepared) -> Result<()> {
        let d = self.def();
        if let Some(r) = &d.rust {
            xp_core::kernel::rust::check_bounds(&d.name, &r.func.generics, &p.types.typedefs)?;
        }
        for ((a, dt), param) in args.iter().zip(&p.types.ins).zip(&d.ins) {
            if let Operand::Scalar(s) = a {
                weak_scalar(&d.name, &param.name, *s, *dt)?;
            }
        }
        Ok(())
    }
}

/// NumPy 2's rule for a Python scalar meeting an array of dtype `d`: a float (or complex) for an
/// integer, or an integer outside the integer dtype's range, is refused.
pub(crate) fn weak_scalar(kernel: &str, name: &str, s: Scalar, d: DType) -> Result<()> {
    let err = |msg: String| Err(Error::KernelArgs { kernel: kernel.to_string(), msg });
    let int = d.is_integer() && d != DType::Bool;
    match s {
        Scalar::Float(_) | Scalar::Complex(_) if int || d == DType::Bool => {
            err(format!("argument `{name}` is a float scalar, but its type is {d}"))
        }
        Scalar::Complex(_) if !d.is_complex() => {
            err(format!("argument `{name}` is a complex scalar, but its type is {d}"))
        }
        Scalar::Int(_) | Scalar::Uint(_) if d == DType::Bool => {
            err(format!("argument `{name}` is an integer scalar, but its type is bool"))
        }
        Scalar::Int(_) | Scalar::Uint(_) if int && !xp_core::scalar_fits(&s, d) => {
            err(format!("argument `{name}` = {s:?} is out of the range of {d}"))
        }
        _ => Ok(()),
    }
}

/// The special functions a kernel may call (`math::erf(x)`), natively as the CPU evaluates them
/// (in f64, then rounded to `T`) and as CUDA's functions of the same names on a GPU.
pub mod math {
    use super::Float;
    use xp_cpu::special as s;
    macro_rules! f {
        ($($(#[$m:meta])* $name:ident => $e:expr;)*) => {$(
            $(#[$m])*
            #[inline]
            pub fn $name<T: Float>(x: T) -> T {
                let f: fn(f64) -> f64 = $e;
                T::lit(f(x.to_f64()))
            }
        )*};
    }
    f! {
        /// the error function
        erf => s::erf;
        /// the complementary error function
        erfc => s::erfc;
        /// the inverse of `erf`
        erfinv => s::erfinv;
        /// the inverse of `erfc`
        erfcinv => s::erfcinv;
        /// the scaled complementary error function `exp(x²)·erfc(x)`
        erfcx => s::erfcx;
        /// the standard normal CDF
        normcdf => s::ndtr;
        /// its inverse
        normcdfinv => s::ndtri;
        /// `ln |Γ(x)|`
        lgamma => s::gammaln;
        /// `Γ(x)`
        tgamma => s::gamma;
        /// the Bessel function J₀
        j0 => s::j0;
        /// the Bessel function J₁
        j1 => s::j1;
        /// the Bessel function Y₀
        y0 => s::y0;
        /// the Bessel function Y₁
        y1 => s::y1;
        /// the modified Bessel function I₀
        i0 => s::i0;
        /// the modified Bessel function I₁
        i1 => s::i1;
    }
}

/// A reduction written in Rust (`#[xp::reduction]` on a module of `map`, `combine` and optional
/// `finish` and `identity` functions): each element maps to a value, values combine pairwise
/// (in an order of the backend's: `combine` must be associative), and `finish` writes the
/// outputs from the reduced value. On the CPU the lowered functions run through xp's
/// evaluator; on a GPU they are printed into xp's reduction kernels.
#[derive(Clone, Debug)]
pub struct RustReduction {
    inner: super::ReductionKernel,
}

impl RustReduction {
    /// The reduction of these functions (the macro's expansion calls this).
    #[doc(hidden)]
    pub fn new(
        path: &str,
        name: &str,
        map: &'static Func,
        combine: &'static Func,
        finish: Option<&'static Func>,
        identity: Option<&'static Func>,
        hash: u64,
    ) -> RustReduction {
        let def = xp_core::kernel::ReductionDef::from_rust(path, name, map, combine, finish, identity, hash);
        RustReduction { inner: super::ReductionKernel::from_def(def) }
    }
    /// The definition.
    pub fn def(&self) -> &xp_core::kernel::ReductionDef {
        self.inner.def()
    }
    /// Reduce `axis` (all, one or several axes) of the broadcast arguments; the first output.
    pub fn call(&self, args: &[Operand], axis: impl crate::IntoAxes) -> Result<Array> {
        self.check(args)?;
        self.inner.call1(args, axis)
    }
    /// [`RustReduction::call`] keeping the reduced axes with length 1.
    pub fn call_keepdim(&self, args: &[Operand], axis: impl crate::IntoAxes) -> Result<Array> {
        self.check(args)?;
        self.inner.call1_keepdim(args, axis)
    }
    /// Every output.
    pub fn call_all(&self, args: &[Operand], axis: impl crate::IntoAxes) -> Result<Vec<Array>> {
        self.check(args)?;
        self.inner.call(args, axis)
    }
    fn check(&self, args: &[Operand]) -> Result<()> {
        let d = self.def();
        let p = prepare(&d.name, &d.ins, &d.outs, args, &[])?;
        d.rust_parts(&p.types.typedefs, &p.types.scalar)?;
        for ((a, dt), param) in args.iter().zip(&p.types.ins).zip(&d.ins) {
            if let Operand::Scalar(s) = a {
                weak_scalar(&d.name, &param.name, *s, *dt)?;
            }
        }
        Ok(())
    }
}
