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
