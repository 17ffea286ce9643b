//! The procedural macros of xp: `#[xp::kernel]`, `#[xp::device]`, `#[xp::reduction]` and
//! `#[xp::raw_kernel]`.
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
//! # Raw kernels
//!
//! `#[xp::raw_kernel]` is a GPU kernel written in Rust, launched on a grid of blocks of threads
//! (CuPy's `RawKernel`, `cupyx.jit.rawkernel`): every thread runs the function once, and finds its
//! element from the builtins. The module beside it has `kernel` and
//! `launch(grid, block, args..)` (`grid` and `block` are `Dim3`s, from `n`, `(x, y)` or
//! `(x, y, z)`). There is no native form: on the CPU a launch is a typed "unsupported" error.
//!
//! ```ignore
//! use xp::kernel::gpu::*;
//! #[xp::raw_kernel]
//! pub fn saxpy<T: Float>(a: T, x: Raw<T>, y: Raw<T>, out: RawMut<T>, n: i64) {
//!     let i = (block_idx().x * block_dim().x + thread_idx().x) as i64;
//!     if i < n { out.set(i, a * x.at(i) + y.at(i)); }
//! }
//! saxpy::launch((n as u32).div_ceil(256), 256, 2.0f32, &x, &y, &out, n as i64)?;
//! ```
//!
//! Its subset is the kernel subset above, with:
//!
//! - **Signature**: no return type (or `-> ()`); parameters are values (as a kernel's), `Raw<T>`
//!   (read: `x.at(j)`, `x.len()`) and `RawMut<T>` (written, below; also `at`, `len`); no `Index`.
//! - **Builtins** (`u32`): `thread_idx()`, `block_idx()`, `block_dim()`, `grid_dim()` read by
//!   their field `.x`, `.y` or `.z` (`thread_idx().x`); `lane_id()`, `warp_size()`.
//! - **Shared memory**: `let [mut] s = shared::<T, N>();` (`T` a primitive or a generic
//!   parameter, `N` an integer literal, at most 49152 bytes), read `s[j]`, written `s[j] = v`.
//! - **Lockstep**: the barrier `sync_threads()`; the warp shuffles `shfl_down(v, delta)`,
//!   `shfl_up(v, delta)`, `shfl_xor(v, mask)`, `shfl(v, lane)`.
//! - **Writes**: `out.set(j, v)`; the atomics `out.atomic_add(j, v)`, `atomic_sub`, `atomic_max`,
//!   `atomic_min`, `atomic_exch` (each returns the old value) and `out.atomic_cas(j, compare, v)`.
//! - `return;` ends the thread.
//!
//! These functions are found by their path: the name alone, `gpu::name` or
//! `xp::kernel::gpu::name` (where the user's `use xp::kernel::gpu::*;` brings them). Anywhere
//! but in a raw kernel they (and `RawMut<T>`) are a compile error.
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

/// A GPU kernel written in Rust, launched on `grid` × `block` threads: no result, its arrays
/// `Raw<T>` (read) and `RawMut<T>` (written by index, atomics), the thread's position from
/// `thread_idx()`, `block_idx()` .., shared memory, barriers and warp shuffles. Writes a module of
/// the function's name beside it, with `launch` and `kernel`.
#[proc_macro_attribute]
pub fn raw_kernel(attr: TokenStream, item: TokenStream) -> TokenStream {
    emit::raw_kernel(attr.into(), item.into()).into()
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
