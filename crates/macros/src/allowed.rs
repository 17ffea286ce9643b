//! The one description of the kernel subset: quoted by the errors, and the lists that the checks
//! use.

/// The short summary that every "outside the kernel subset" error ends with.
pub const SUMMARY: &str = "`let`, `if`, `match` on integers and bools, `for` over a range, `while`, \
`loop`, `break`, `continue`, `return`, operators, assignments, `as` casts, literals, variables, \
`a[j]`, `T::CONST`, `T::lit(v)`, the float and integer methods, `math::` functions and \
#[xp::device] calls";

/// The types of parameters and results.
pub const TYPES: &str = "`f32`, `f64`, `i8`, `i16`, `i32`, `i64`, `u8`, `u16`, `u32`, `u64`, `bool`, \
`usize`, `isize`, a generic parameter (`T: Float`, `T: Int` or `T: Num`), and for a kernel's \
parameters also `Raw<T>` (a whole array) and `Index` (the element's index)";

/// The types of a raw kernel's parameters.
pub const RAW_TYPES: &str = "`f32`, `f64`, `i8`, `i16`, `i32`, `i64`, `u8`, `u16`, `u32`, `u64`, \
`bool`, `usize`, `isize`, a generic parameter (`T: Float`, `T: Int` or `T: Num`), `Raw<T>` (a whole \
array, read) and `RawMut<T>` (a whole array, written)";

/// The methods a kernel may call (`x.sqrt()`), as the primitives and the `Float`, `Int` and
/// `Num` traits have them.
pub const METHODS: &[&str] = &[
    "sin",
    "cos",
    "tan",
    "asin",
    "acos",
    "atan",
    "sinh",
    "cosh",
    "tanh",
    "asinh",
    "acosh",
    "atanh",
    "exp",
    "exp2",
    "exp_m1",
    "ln",
    "log2",
    "log10",
    "ln_1p",
    "sqrt",
    "cbrt",
    "floor",
    "ceil",
    "trunc",
    "round",
    "round_ties_even",
    "fract",
    "abs",
    "signum",
    "recip",
    "to_degrees",
    "to_radians",
    "powf",
    "powi",
    "log",
    "atan2",
    "hypot",
    "max",
    "min",
    "copysign",
    "mul_add",
    "clamp",
    "is_nan",
    "is_infinite",
    "is_finite",
    "is_sign_negative",
    "is_sign_positive",
    "wrapping_add",
    "wrapping_sub",
    "wrapping_mul",
    "wrapping_neg",
    "wrapping_shl",
    "wrapping_shr",
    "at",
    "len",
    "to_f64",
    "to_i64",
];

/// The functions of `xp::kernel::math` (`math::erf(x)`).
pub const MATH: &[&str] = &[
    "erf",
    "erfc",
    "erfinv",
    "erfcinv",
    "erfcx",
    "normcdf",
    "normcdfinv",
    "lgamma",
    "tgamma",
    "j0",
    "j1",
    "y0",
    "y1",
    "i0",
    "i1",
];

/// The builtins of a `#[xp::raw_kernel]` that are a `Dim3` (`thread_idx().x`).
pub const GPU_DIMS: &[&str] = &["thread_idx", "block_idx", "block_dim", "grid_dim"];

/// The builtins of a `#[xp::raw_kernel]` that are one `u32` (`lane_id()`).
pub const GPU_SCALARS: &[&str] = &["lane_id", "warp_size"];

/// The barrier and the warp shuffles of a `#[xp::raw_kernel]`, with their arities: `E::Call`s
/// whose threads run in lockstep.
pub const GPU_CALLS: &[(&str, usize)] =
    &[("sync_threads", 0), ("shfl_down", 2), ("shfl_up", 2), ("shfl_xor", 2), ("shfl", 2)];

/// A `#[xp::raw_kernel]`'s shared memory: `let s = shared::<f32, 256>();`.
pub const GPU_SHARED: &str = "shared";

/// The prefixes a GPU function may be called with: `thread_idx()`, `gpu::thread_idx()`,
/// `kernel::gpu::thread_idx()`, `xp::kernel::gpu::thread_idx()` (also with a leading `::`).
pub const GPU_PREFIXES: &[&[&str]] = &[&[], &["gpu"], &["kernel", "gpu"], &["xp", "kernel", "gpu"]];

/// The bytes of shared memory a block may have (statically).
pub const SHARED_BYTES: usize = 49152;

/// The methods of a `#[xp::raw_kernel]`'s `RawMut<T>` parameter that write it, with their
/// arities (`out.set(j, v)`, `out.atomic_cas(j, compare, v)`).
pub const RAW_MUT_METHODS: &[(&str, usize)] = &[
    ("set", 2),
    ("atomic_add", 2),
    ("atomic_sub", 2),
    ("atomic_max", 2),
    ("atomic_min", 2),
    ("atomic_exch", 2),
    ("atomic_cas", 3),
];

/// The message of a construct of `#[xp::raw_kernel]` found elsewhere (`` `thread_idx()` ``).
pub fn raw_only(construct: &str) -> String {
    format!("{construct} is available only in #[xp::raw_kernel]")
}

/// `a, b, c` of a list of names.
pub fn list(names: &[&str]) -> String {
    names.join(", ")
}

/// The message of a construct outside the subset; `construct` may end with a hint after `: `
/// ("a nested `fn`: make it a #[xp::device] function").
pub fn outside(construct: &str) -> String {
    match construct.split_once(": ") {
        Some((c, hint)) => format!("{c} is outside the kernel subset: {hint}; allowed: {SUMMARY}"),
        None => format!("{construct} is outside the kernel subset; allowed: {SUMMARY}"),
    }
}
