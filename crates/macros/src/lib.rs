//! The procedural macros of xp: `#[xp::kernel]`, `#[xp::device]` and `#[xp::reduction]`.
//!
//! A kernel is a Rust function of scalars. The macro checks that it is written in the subset
//! below (every violation is a compile error at the construct, saying what is allowed), keeps the
//! function as it is (with `#[inline(always)]`: it runs natively and rustc type-checks it), and
//! writes beside it a module of the same name: the function's body as data (the AST of
//! `xp::__rt::ast`, which xp translates to CUDA at run time), its native instances for the CPU,
//! and `call` / `call_out`, which run it over arrays.
//!
//! ```ignore
//! #[xp::kernel]
//! pub fn leaky_relu<T: Float>(x: T, alpha: T) -> T {
//!     if x > T::ZERO { x } else { alpha * x }
//! }
//! let y = leaky_relu::call(&x, 0.1)?;
//! ```
//!
//! # The subset
//!
//! - **Signature**: type parameters only, each bound by exactly one of `Float`, `Int`, `Num`; no
//!   lifetimes, const generics, `where`, `self`, `async`, `const`, `unsafe`, `extern`. Parameters
//!   are `x` or `mut x` of a type `f32`, `f64`, `i8` .. `i64`, `u8` .. `u64`, `bool`, `usize`,
//!   `isize` or a generic parameter; a kernel's parameter may also be `Raw<T>` (a whole array,
//!   read with `x.at(j)` and `x.len()`) or one `Index` (the element's index). A kernel returns one
//!   such type or a tuple of them (several outputs); a device function returns one.
//! - **Statements**: `let [mut] x [: ty] [= e];`, `let [mut] a [: [ty; N]] = [e; N];` (a local
//!   array), expressions.
//! - **Expressions**: integer, float and bool literals; variables; `T::CONST`, `f32::MAX`,
//!   `f64::consts::PI`; `T::lit(v)`; `-`, `!`; `+ - * / % << >> & | ^ < <= > >= == != && ||`;
//!   `=` and the compound assignments to a variable or `a[j]`; `e as ty` (a primitive or a
//!   generic parameter); `if`/`else if`/`else`; blocks; `match` on integer and bool literals,
//!   ranges, `_` and `|`, with guards; `for v in a..b` (also `a..=b`, `(a..b).rev()`,
//!   `(a..b).step_by(s)`); `while`; `loop`; `break`; `continue`; `return`; `a[j]`; tuples.
//! - **Calls**: the float and integer methods (`x.sqrt()`, `x.mul_add(a, b)`, `x.wrapping_add(y)`,
//!   `r.at(j)`, `r.len()`, `x.to_f64()`, ...; also as `T::sqrt(x)`), the functions of
//!   `xp::kernel::math` (`math::erf(x)`), and functions marked `#[xp::device]`.
//!
//! A kernel reads only its parameters and its locals: no `const`s or `static`s from outside
//! (write the value, `T::lit(v)`, or pass it as a parameter).
//!
//! Outside it: closures, references, pointers, `unsafe`, `async`, macros (`println!`, `vec!`),
//! strings and chars, structs, fields, arrays other than `[v; N]`, ranges outside `for`, `?`,
//! `if let` / `while let` / `let else`, labels, `break` with a value, binding patterns, items in
//! a body, turbofish, and recursion.
//!
//! The generated code names everything through `::xp::__rt`; the macros are used through `xp`.
#![warn(missing_docs)]

mod allowed;
mod body;
mod emit;
mod native;
mod sig;

use proc_macro::TokenStream;
use quote::ToTokens;

/// A Rust function of scalars as a kernel over arrays, run natively on the CPU and translated
/// to CUDA on a GPU. Writes a module of the function's name beside it, with `call`, `call_out`
/// and `kernel`.
#[proc_macro_attribute]
pub fn kernel(attr: TokenStream, item: TokenStream) -> TokenStream {
    emit::kernel(attr.into(), item.into()).into()
}

/// A function that kernels may call: the same subset, one result, no `Raw` or `Index`
/// parameters.
#[proc_macro_attribute]
pub fn device(attr: TokenStream, item: TokenStream) -> TokenStream {
    emit::device(attr.into(), item.into()).into()
}

/// A reduction, on a module of `fn map` (each element's value), `fn combine` (two values into
/// one), and optionally `fn identity` and `fn finish`. Adds `call`, `call_keepdim` and `kernel`
/// to the module.
#[proc_macro_attribute]
pub fn reduction(attr: TokenStream, item: TokenStream) -> TokenStream {
    emit::reduction(attr.into(), item.into()).into()
}

/// The violations found so far.
#[derive(Default)]
pub(crate) struct Errors(Vec<syn::Error>);

impl Errors {
    /// An error spanning `node`.
    pub(crate) fn push(&mut self, node: impl ToTokens, msg: impl std::fmt::Display) {
        self.0.push(syn::Error::new_spanned(node, msg));
    }
    /// All of them as one error, if any.
    pub(crate) fn combined(self) -> Option<syn::Error> {
        self.0.into_iter().reduce(|mut a, b| {
            a.combine(b);
            a
        })
    }
}

#[cfg(test)]
mod tests;
