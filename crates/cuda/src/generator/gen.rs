//! CUDA C of user kernels: the placeholders as `typedef`s of their compute types, the
//! preamble, and a grid-stride loop that loads each argument into a local of the parameter's
//! name, runs the body as written (`#line` maps NVRTC's messages to the body's lines), and
//! stores the outputs. Dense launches index every operand by `i` (with one up-to-16-byte pack
//! per operand per thread where every pointer is aligned for it); strided ones go through an
//! indexer over the collapsed shape.
use crate::codegen::{compute_ty, storage_ty, store, PRELUDE};
use xp_core::kernel::Typedef;
use xp_core::DType;

/// What an argument of the generated kernel is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Role {
    /// an array read elementwise
    In,
    /// a scalar passed by value
    Scalar,
    /// a raw array (contiguous, with its length)
    Raw,
    /// an output; `true` when its initial values are read from a given array
    Out(bool),
}

/// An argument: its name in the body, role and dtype.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Arg<'a> {
    pub(crate) name: &'a str,
    pub(crate) role: Role,
    pub(crate) dtype: DType,
}

/// How the kernel addresses its elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Mode {
    /// every elementwise operand contiguous over the same index space: `v` elements per pack
    Dense(usize),
    /// through the indexer; `true`: positions and extents fit 32 bits, so the index arithmetic
    /// divides in 32 bits (a 64-bit division is a long instruction sequence on the GPU)
    Strided(bool),
}

/// Dimensions the indexer holds.
pub(crate) const MAXD: usize = 12;

/// The source of user kernel `name`.
pub(crate) fn elementwise(
    name: &str,
    typedefs: &[Typedef],
    preamble: &str,
    args: &[Arg],
    body: &str,
    mode: Mode,
) -> String {
    let mut s = header(typedefs, preamble);
    let na = strided_count(args);
    if matches!(mode, Mode::Strided(_)) {
        s += &format!(
            "struct KIdx {{ i64 n, nd; i64 shape[{MAXD}]; i64 st[{na}][{MAXD}]; i64 off[{na}]; i64 mag[{MAXD}]; i64 shf[{MAXD}]; }};\n"
        );
    }
    let mut params = param_decls(args);
    params.push(if matches!(mode, Mode::Strided(_)) { "const KIdx _ix".into() } else { "const i64 _n".into() });
    let raws: String = args
        .iter()
        .filter(|a| a.role == Role::Raw)
        .map(|a| format!("  const XpRaw<{}> {n}{{_p_{n}, _n_{n}}};\n", storage_ty(a.dtype), n = a.name))
        .collect();
    let line_body = format!("#line 1 \"{name}\"\n{body}\n;\n");
    s += &format!("extern \"C\" __global__ void {name}({}) {{\n{raws}", params.join(", "));
    s += "  const i64 _step = (i64)gridDim.x * blockDim.x, _g = (i64)blockIdx.x * blockDim.x + threadIdx.x;\n";
    match mode {
        Mode::Dense(v) if v > 1 => {
            s += &format!("  const i64 _nv = _n / {v};\n  for (i64 _iv = _g; _iv < _nv; _iv += _step) {{\n");
            for a in args {
                let (st, n) = (storage_ty(a.dtype), &a.name);
                match a.role {
                    Role::In => {
                        s += &format!("    const Pack<{v}, {st}> _q_{n} = ((const Pack<{v}, {st}>*)_p_{n})[_iv];\n")
                    }
                    Role::Out(true) => {
                        s += &format!("    Pack<{v}, {st}> _q_{n} = ((const Pack<{v}, {st}>*)_g_{n})[_iv];\n")
                    }
                    Role::Out(false) => s += &format!("    Pack<{v}, {st}> _q_{n};\n"),
                    _ => {}
                }
            }
            s += &format!(
                "#pragma unroll\n    for (int _u = 0; _u < {v}; ++_u) {{\n      const i64 i = _iv * {v} + _u;\n"
            );
            for a in args {
                let (ct, n) = (compute_ty(a.dtype), &a.name);
                match a.role {
                    Role::In => s += &format!("      const {ct} {n} = ld(_q_{n}.v[_u]);\n"),
                    Role::Out(true) => s += &format!("      {ct} {n} = ld(_q_{n}.v[_u]);\n"),
                    Role::Out(false) => s += &format!("      {ct} {n} = {ct}();\n"),
                    _ => {}
                }
            }
            s += &format!("      {{\n{line_body}      }}\n");
            for a in args.iter().filter(|a| matches!(a.role, Role::Out(_))) {
                s += &format!("      _q_{n}.v[_u] = {};\n", store(a.dtype, a.name), n = a.name);
            }
            s += "    }\n";
            for a in args.iter().filter(|a| matches!(a.role, Role::Out(_))) {
                s += &format!("    ((Pack<{v}, {st}>*)_p_{n})[_iv] = _q_{n};\n", st = storage_ty(a.dtype), n = a.name);
            }
            s += &format!("  }}\n  for (i64 i = _nv * {v} + _g; i < _n; i += _step) {{\n");
            s += &scalar_body(args, &line_body, |_| "i".to_string());
            s += "  }\n";
        }
        Mode::Dense(_) => {
            s += "  for (i64 i = _g; i < _n; i += _step) {\n";
            s += &scalar_body(args, &line_body, |_| "i".to_string());
            s += "  }\n";
        }
        Mode::Strided(narrow) => {
            s += "  for (i64 i = _g; i < _ix.n; i += _step) {\n";
            s += &if narrow { offsets32("_ix", "i", na, "    ") } else { offsets("_ix", "i", na, "    ") };
            let mut k = 0;
            let mut slot = std::collections::HashMap::new();
            for a in args {
                match a.role {
                    Role::In | Role::Out(false) => {
                        slot.insert(a.name, k);
                        k += 1;
                    }
                    Role::Out(true) => {
                        slot.insert(a.name, k);
                        k += 2;
                    }
                    _ => {}
                }
            }
            s += &scalar_body(args, &line_body, |a: &Arg| format!("_o{}", slot[a.name]));
            s += "  }\n";
        }
    }
    s + "}\n"
}

/// The kernel parameters of `args`, in order: a pointer per array (and the initial values of a
/// given output), a value per scalar, a pointer and a length per raw array.
pub(crate) fn param_decls(args: &[Arg]) -> Vec<String> {
    let mut params = Vec::new();
    for a in args {
        let (st, ct, n) = (storage_ty(a.dtype), compute_ty(a.dtype), &a.name);
        match a.role {
            Role::In => params.push(format!("const {st}* __restrict__ _p_{n}")),
            Role::Scalar => params.push(format!("const {ct} {n}")),
            Role::Raw => params.push(format!("const {st}* __restrict__ _p_{n}, const i64 _n_{n}")),
            Role::Out(given) => {
                params.push(format!("{st}* __restrict__ _p_{n}"));
                if given {
                    params.push(format!("const {st}* __restrict__ _g_{n}"));
                }
            }
        }
    }
    params
}

/// The prelude, the `XpRaw` view of raw arrays, the placeholders' typedefs and the preamble.
pub(crate) fn header(typedefs: &[Typedef], preamble: &str) -> String {
    let mut s = format!(
        "{PRELUDE}\ntemplate <class S> struct XpRaw {{ const S* p; i64 n;\n  __device__ auto operator[](i64 j) const {{ return ld(p[j]); }}\n  __device__ i64 size() const {{ return n; }} }};\n"
    );
    for (t, d) in typedefs {
        s += &format!("typedef {} {t};\n", compute_ty(*d));
    }
    s + preamble + "\n"
}

/// How many operands the indexer addresses: each elementwise input and output, and each given
/// output's initial values.
pub(crate) fn strided_count(args: &[Arg]) -> usize {
    args.iter()
        .map(|a| match a.role {
            Role::In | Role::Out(false) => 1,
            Role::Out(true) => 2,
            _ => 0,
        })
        .sum::<usize>()
        .max(1)
}

/// `_o0.._o{na}`: the offsets of position `pos` for every strided operand.
pub(crate) fn offsets(ix: &str, pos: &str, na: usize, ind: &str) -> String {
    prefixed_offsets("_o", ix, pos, na, ind)
}

/// [`offsets`] with 32-bit position arithmetic (every extent and position below 2^31), each
/// division by an extent a multiply-high and a shift by the indexer's magic numbers
/// ([`magic`]): a division by a run-time value is a long instruction sequence on the GPU, and
/// was most of the time of broadcasting elementwise kernels.
pub(crate) fn offsets32(ix: &str, pos: &str, na: usize, ind: &str) -> String {
    let decl: Vec<String> = (0..na).map(|k| format!("_o{k} = {ix}.off[{k}]")).collect();
    let mut s = format!(
        "{ind}i64 {};\n{ind}{{ unsigned r = (unsigned){pos};\n{ind}  for (int d = (int){ix}.nd - 1; d >= 0; --d) {{ const unsigned e = (unsigned){ix}.shape[d], nr = (__umulhi(r, (unsigned){ix}.mag[d]) + r) >> (unsigned){ix}.shf[d], q = r - nr * e; r = nr;",
        decl.join(", ")
    );
    for k in 0..na {
        s += &format!(" _o{k} += (i64)q * {ix}.st[{k}][d];");
    }
    s + " } }\n"
}

/// The magic numbers of unsigned division by `d` (1 <= d < 2^31) for dividends below 2^31:
/// `n / d == (umulhi(n, m) + n) >> s` (the round-up method of Granlund and Montgomery).
pub(crate) fn magic(d: u64) -> (u64, u64) {
    let s = (0..32).find(|&s| (1u64 << s) >= d).unwrap_or(31);
    let m = ((1u64 << 32) * ((1u64 << s) - d)) / d + 1;
    (m, s)
}

/// [`offsets`] into variables named `{prefix}0..`.
pub(crate) fn prefixed_offsets(o: &str, ix: &str, pos: &str, na: usize, ind: &str) -> String {
    let decl: Vec<String> = (0..na).map(|k| format!("{o}{k} = {ix}.off[{k}]")).collect();
    let mut s = format!("{ind}i64 {};\n{ind}{{ i64 r = {pos};\n{ind}  for (int d = (int){ix}.nd - 1; d >= 0; --d) {{ const i64 q = r % {ix}.shape[d]; r /= {ix}.shape[d];", decl.join(", "));
    for k in 0..na {
        s += &format!(" {o}{k} += q * {ix}.st[{k}][d];");
    }
    s + " } }\n"
}

/// Load, body, store for one element; `at(arg)` is the element's offset for that operand (a
/// given output's initial values sit at the offset after its own).
fn scalar_body(args: &[Arg], body: &str, at: impl Fn(&Arg) -> String) -> String {
    let mut s = String::new();
    for a in args {
        let (ct, n) = (compute_ty(a.dtype), &a.name);
        match a.role {
            Role::In => s += &format!("    const {ct} {n} = ld(_p_{n}[{}]);\n", at(a)),
            Role::Out(true) => {
                let p = at(a);
                let g =
                    if p == "i" { "i".to_string() } else { format!("_o{}", p[2..].parse::<usize>().unwrap_or(0) + 1) };
                s += &format!("    {ct} {n} = ld(_g_{n}[{g}]);\n")
            }
            Role::Out(false) => s += &format!("    {ct} {n} = {ct}();\n"),
            _ => {}
        }
    }
    s += &format!("    {{\n{body}    }}\n");
    for a in args.iter().filter(|a| matches!(a.role, Role::Out(_))) {
        s += &format!("    _p_{n}[{p}] = {};\n", store(a.dtype, a.name), n = a.name, p = at(a));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::tests_support::syntax_check;

    fn arg(name: &str, role: Role, dtype: DType) -> Arg<'_> {
        Arg { name, role, dtype }
    }

    /// The magic division against `/` for every divisor class and dividends up to 2^31 - 1.
    #[test]
    fn magic_division_is_exact() {
        let divisors = (1..=300u64).chain([641, 1000, 4096, 8191, 8192, 65535, 65537, 1 << 20, (1 << 31) - 1]);
        for d in divisors {
            let (m, s) = magic(d);
            assert!(m < 1 << 32, "{d}");
            for n in (0..2000u64).chain([d - 1, d, d + 1, 3 * d, (1 << 31) - 2, (1 << 31) - 1, 1 << 30, 123_456_789]) {
                if n >= 1 << 31 {
                    continue;
                }
                let hi = (n * m) >> 32;
                assert_eq!((hi + n) >> s, n / d, "{n} / {d}");
            }
        }
    }

    /// Every addressing mode, with scalars, raw arrays, given outputs and float16, parsed by g++.
    #[test]
    fn user_kernels_parse_in_every_mode() {
        let td: Vec<Typedef> = vec![("T".into(), DType::F16)];
        let args = vec![
            arg("x", Role::In, DType::F16),
            arg("alpha", Role::Scalar, DType::F32),
            arg("v", Role::Raw, DType::F64),
            arg("n", Role::Scalar, DType::I64),
            arg("y", Role::Out(false), DType::F16),
            arg("z", Role::Out(true), DType::I32),
        ];
        let body = "T t = x > 0 ? x : alpha * x;\ny = t + (T)v[n - 1 - i];\nz += (int)t;";
        for mode in [Mode::Dense(8), Mode::Dense(2), Mode::Dense(1), Mode::Strided(false), Mode::Strided(true)] {
            syntax_check(&format!("user-{mode:?}"), &elementwise("k", &td, "", &args, body, mode));
        }
    }

    /// arange's kernels on the device, for each output dtype they serve.
    #[test]
    fn affine_kernels_parse() {
        for (d, t, body) in [
            (DType::I64, DType::I64, super::super::AFFINE_INT),
            (DType::U8, DType::I64, super::super::AFFINE_INT),
            (DType::F32, DType::F64, super::super::AFFINE_FLOAT),
            (DType::F64, DType::F64, super::super::AFFINE_FLOAT),
        ] {
            let args = vec![arg("s", Role::Scalar, t), arg("d", Role::Scalar, t), arg("o", Role::Out(false), d)];
            for mode in [Mode::Dense(4), Mode::Dense(1)] {
                syntax_check(&format!("affine-{}-{mode:?}", d.name()), &elementwise("k", &[], "", &args, body, mode));
            }
        }
    }
}
