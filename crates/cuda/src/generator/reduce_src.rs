//! CUDA C of reductions, built-in and user-defined alike: each element of the inputs maps to a
//! value of the reduce type (`map`), values combine with `REDUCE(a, b)`, and the post-map writes
//! the outputs from the result `a`. Two layouts of the work:
//!
//! * **rows** (the reduced positions move fastest in memory): a block per (output, chunk) folds
//!   interleaved elements, with up-to-16-byte packs (a single input over unit-stride runs) and
//!   four loads in flight, then warp shuffles; `ordered` folds on one thread, in order;
//! * **columns** (a kept axis moves fastest): a thread per (output, chunk), adjacent threads on
//!   adjacent outputs (coalesced), `vec` adjacent outputs per thread with one pack per row.
//!
//! With several chunks per output the kernel writes partials of the reduce type, and the module's
//! second kernel (`fin`) folds them and runs the post-map.
use super::gen::{header, param_decls, prefixed_offsets, Arg, Role, MAXD};
use crate::codegen::{compute_size, compute_ty, storage_ty, store};
use xp_core::kernel::Typedef;
use xp_core::DType;

/// The (value, index) pair type of the arg-reductions and their combines (`arg.cu`), the
/// preamble of every arg-reduction kernel.
pub(crate) const ARG_CU: &str = include_str!("arg.cu");

/// What a reduction folds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Acc {
    /// values of a dtype's compute type
    Value(DType),
    /// (value, index) pairs of a dtype's compute type (`XpArg<T>`, [`ARG_CU`]): the map sees the
    /// reduced position as `_j`
    Arg(DType),
}

impl Acc {
    /// The dtype of the values.
    pub(crate) fn dtype(self) -> DType {
        match self {
            Acc::Value(d) | Acc::Arg(d) => d,
        }
    }
    /// The CUDA type folded.
    pub(crate) fn c_type(self) -> String {
        match self {
            Acc::Value(d) => compute_ty(d).to_string(),
            Acc::Arg(d) => format!("XpArg<{}>", compute_ty(d)),
        }
    }
    /// Bytes of one folded value in device memory (a partial): a pair is the value padded to 8
    /// bytes and the index, aligned as its value (complex128 to 16).
    pub(crate) fn bytes(self) -> usize {
        match self {
            Acc::Value(d) => compute_size(d),
            Acc::Arg(d) => {
                let cs = compute_size(d);
                (cs.next_multiple_of(8) + 8).next_multiple_of(if cs >= 16 { 16 } else { 8 })
            }
        }
    }
}

/// How the work of a reduction is laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Plan {
    /// A block per (output, chunk). `ordered`: one thread folds, in order; `run`: the reduced
    /// positions of every input form one strided run; `vec > 1`: one input, unit stride, packs
    /// of `vec` elements.
    Rows { ordered: bool, run: bool, vec: usize },
    /// A thread per (`vec` adjacent outputs, chunk).
    Cols { run: bool, vec: usize },
}

impl Plan {
    /// The plan in a kernel's name: `rows`/`cols`, `o` ordered, `r` one run, `v<n>` packs.
    pub(crate) fn label(self) -> String {
        match self {
            Plan::Rows { ordered, run, vec } => {
                format!("rows{}{}_v{vec}", if ordered { "_o" } else { "" }, if run { "_r" } else { "" })
            }
            Plan::Cols { run, vec } => format!("cols{}_v{vec}", if run { "_r" } else { "" }),
        }
    }
    /// A number naming the plan in a kernel's identity.
    pub(crate) fn code(self) -> u64 {
        match self {
            Plan::Rows { ordered, run, vec } => 1 | (ordered as u64) << 1 | (run as u64) << 2 | (vec as u64) << 3,
            Plan::Cols { run, vec } => (run as u64) << 2 | (vec as u64) << 3,
        }
    }
}

/// A reduction's parts, as CUDA C over the arguments' names.
pub(crate) struct Fold<'a> {
    /// the kernel's name
    pub(crate) name: &'a str,
    /// the finishing kernel's name
    pub(crate) fin: &'a str,
    /// placeholder bindings
    pub(crate) typedefs: &'a [Typedef],
    /// code before the kernels
    pub(crate) preamble: &'a str,
    /// inputs (arrays, scalars, raw arrays), then the outputs
    pub(crate) args: &'a [Arg<'a>],
    /// what is folded
    pub(crate) acc: Acc,
    /// an expression over the inputs
    pub(crate) map: &'a str,
    /// an expression over `a` and `b`
    pub(crate) reduce: &'a str,
    /// statements writing the outputs from `a`
    pub(crate) post: &'a str,
    /// the identity, written when nothing was reduced (empty: the reduce type's zero)
    pub(crate) identity: &'a str,
}

impl Fold<'_> {
    pub(super) fn ins(&self) -> impl Iterator<Item = &Arg<'_>> {
        self.args.iter().filter(|a| a.role == Role::In)
    }
    pub(super) fn outs(&self) -> impl Iterator<Item = &Arg<'_>> {
        self.args.iter().filter(|a| matches!(a.role, Role::Out(_)))
    }
    /// The map as a function of the inputs' values and the reduced position `_j` (scalars and
    /// raw arrays are captured).
    pub(crate) fn map_fn(&self) -> String {
        let mut ps: Vec<String> = self.ins().map(|a| format!("const {} {}", compute_ty(a.dtype), a.name)).collect();
        ps.push("const i64 _j".into());
        format!(
            "auto _mv = [&]({}) -> _RT {{ return (_RT)(\n#line 1 \"{}\"\n{}\n); }};\n",
            ps.join(", "),
            self.name,
            self.map
        )
    }
    /// `_m(j)`: the mapped value at reduced position `j` (`run`: by the runs' strides, else
    /// through the reduced indexer).
    fn at_fn(&self, run: bool) -> String {
        let nr = self.ins().count().max(1);
        let offs = if run { String::new() } else { prefixed_offsets("_r", "_rx", "_j", nr, "      ") };
        let vals: Vec<String> = self
            .ins()
            .enumerate()
            .map(|(s, a)| {
                let o = if run { format!("_j * _rx.st[{s}][0]") } else { format!("_r{s}") };
                format!("ld(_p_{}[_k{s} + {o}])", a.name)
            })
            .collect();
        format!("auto _m = [&](const i64 _j) -> _RT {{\n{offs}      return _mv({}, _j);\n    }};\n", vals.join(", "))
    }
    /// The post-map of `acc` (the identity where `!has`), storing each output at its kept
    /// offset plus `plus`.
    fn post_block(&self, acc: &str, has: &str, plus: &str) -> String {
        let nin = self.ins().count();
        let mut s = format!("{{ const _RT a = {has} ? {acc} : _ID;\n");
        for a in self.outs() {
            s += &format!("      {ct} {n} = {ct}();\n", ct = compute_ty(a.dtype), n = a.name);
        }
        s += &format!("      {{\n#line 1 \"{}\"\n{}\n;\n      }}\n", self.name, self.post);
        for (k, a) in (nin..).zip(self.outs()) {
            s += &format!("      _p_{n}[_k{k}{plus}] = {};\n", store(a.dtype, a.name), n = a.name);
        }
        s + "    }"
    }
    /// The prelude, typedefs and preamble, then `_RT` (the folded type), `REDUCE(a, b)` and
    /// `_ID` (the identity): what the reduction and scan kernels share.
    pub(crate) fn defs(&self) -> String {
        let mut s = header(self.typedefs, self.preamble);
        let identity =
            if self.identity.trim().is_empty() { "_RT()".into() } else { format!("(_RT)({})", self.identity) };
        s += &format!("typedef {} _RT;\n#define REDUCE(a, b) ({})\n", self.acc.c_type(), self.reduce);
        s + &format!("#define _ID {identity}\n")
    }
    /// The source up to a kernel's opening line (`name`'s), and the offsets of an output's
    /// kept position `_ko` (as `_k0`, `_k1`, …).
    fn open(&self, name: &str) -> (String, String) {
        let nin = self.ins().count();
        let nk = nin + self.outs().count();
        let nr = nin.max(1);
        let mut s = self.defs();
        s += &format!("struct KIdx {{ i64 n, nd; i64 shape[{MAXD}]; i64 st[{nk}][{MAXD}]; i64 off[{nk}]; }};\n");
        s += &format!("struct RIdx {{ i64 n, nd; i64 shape[{MAXD}]; i64 st[{nr}][{MAXD}]; i64 off[{nr}]; }};\n");
        // block fold of (_acc, _has) into thread 0 (lane order kept within a warp)
        s += "__device__ __forceinline__ void _fold(_RT& acc, bool& has, _RT* wv, bool* wh) {
  const int t = threadIdx.x;
  for (int o = 16; o > 0; o >>= 1) { _RT v2 = shfl_down(acc, o); bool h2 = shfl_down(has, o);
    if (h2 && (t & 31) + o < 32) { acc = has ? (_RT)(REDUCE(acc, v2)) : v2; has = true; } }
  if ((t & 31) == 0) { wv[t >> 5] = acc; wh[t >> 5] = has; }
  __syncthreads();
  if (t < 32) {
    has = t < (int)(blockDim.x >> 5) && wh[t]; acc = has ? wv[t] : _RT();
    for (int o = 16; o > 0; o >>= 1) { _RT v2 = shfl_down(acc, o); bool h2 = shfl_down(has, o);
      if (h2 && (t & 31) + o < 32) { acc = has ? (_RT)(REDUCE(acc, v2)) : v2; has = true; } }
  }
}
";
        let mut params = param_decls(self.args);
        params
            .push("const KIdx _kx, const RIdx _rx, const i64 _chunks, const i64 _per, _RT* __restrict__ _part".into());
        let params = params.join(", ");
        let raws: String = self
            .args
            .iter()
            .filter(|a| a.role == Role::Raw)
            .map(|a| format!("  const XpRaw<{}> {n}{{_p_{n}, _n_{n}}};\n", storage_ty(a.dtype), n = a.name))
            .collect();
        s += &format!("extern \"C\" __global__ void {name}({params}) {{\n{raws}");
        (s, prefixed_offsets("_k", "_kx", "_ko", nk, "    "))
    }
    /// The source of the reduction kernel in `plan`: the outputs, or with several chunks per
    /// output the partials for [`Fold::fin_source`].
    pub(crate) fn source(&self, plan: Plan) -> String {
        let (mut s, kdecl) = self.open(self.name);
        s += &match plan {
            Plan::Rows { ordered, run, vec } => self.rows(ordered, run, vec, &kdecl),
            Plan::Cols { run, vec } => self.cols(run, vec, &kdecl),
        };
        s + "}\n"
    }
    /// The source of the finishing kernel of a rows (`rows`) or columns plan: it folds the
    /// partials of each output, then runs the post-map. A module of its own, compiled only
    /// where an output is split into chunks, and shared by every plan of its kind.
    pub(crate) fn fin_source(&self, rows: bool) -> String {
        let (mut s, kdecl) = self.open(self.fin);
        s += &if rows {
            format!(
                "  __shared__ _RT _wv[32]; __shared__ bool _wh[32];
  for (i64 _ko = blockIdx.x; _ko < _kx.n; _ko += gridDim.x) {{
{kdecl}    _RT _acc = _RT(); bool _has = false;
    for (i64 _c = threadIdx.x; _c < _chunks; _c += blockDim.x) {{
      const _RT _v = _part[_ko * _chunks + _c]; _acc = _has ? (_RT)(REDUCE(_acc, _v)) : _v; _has = true;
    }}
    _fold(_acc, _has, _wv, _wh);
    if (threadIdx.x == 0) {post}
    __syncthreads();
  }}
",
                post = self.post_block("_acc", "_has", "")
            )
        } else {
            // `blockDim.x` lanes per output (32: a warp folds its partials; 1: a thread does),
            // `blockDim.y` outputs per block; the shuffles only where a warp is one output
            format!(
                "  const int _l = threadIdx.x, _nl = blockDim.x;
  for (i64 _ko = (i64)blockIdx.x * blockDim.y + threadIdx.y; _ko < _kx.n; _ko += (i64)gridDim.x * blockDim.y) {{
{kdecl}    _RT _acc = _RT(); bool _has = false;
    for (i64 _c = _l; _c < _chunks; _c += _nl) {{
      const _RT _v = _part[_c * _kx.n + _ko]; _acc = _has ? (_RT)(REDUCE(_acc, _v)) : _v; _has = true;
    }}
    if (_nl == 32) {{
      for (int _o = 16; _o > 0; _o >>= 1) {{ _RT _v2 = shfl_down(_acc, _o); bool _h2 = shfl_down(_has, _o);
        if (_h2 && _l + _o < 32) {{ _acc = _has ? (_RT)(REDUCE(_acc, _v2)) : _v2; _has = true; }} }}
    }}
    if (_l == 0) {post}
  }}
",
                post = self.post_block("_acc", "_has", "")
            )
        };
        s + "}\n"
    }

    fn rows(&self, ordered: bool, run: bool, vec: usize, kdecl: &str) -> String {
        let fast = if vec > 1 {
            let a = self.ins().next().expect("packs need an input");
            let st = storage_ty(a.dtype);
            let lanes = (1..vec).fold("_RT _r = _mv(ld(_pk.v[0]), _j0);".to_string(), |acc, u| {
                format!("{acc} _r = (_RT)(REDUCE(_r, _mv(ld(_pk.v[{u}]), _j0 + {u})));")
            });
            format!(
                "    {{
      const Pack<{vec}, {st}>* _ap = (const Pack<{vec}, {st}>*)(_p_{n} + _k0 + _lo);
      auto _f = [&](const Pack<{vec}, {st}>& _pk, const i64 _q) -> _RT {{ const i64 _j0 = _lo + _q * {vec}; {lanes} return _r; }};
      const i64 _nv = (_hi - _lo) / {vec}, _b = blockDim.x;
      i64 _q = _t;
      if (_q < _nv) {{ _acc = _f(_ap[_q], _q); _has = true; _q += _b; }}
      for (; _q + _b < _nv; _q += 2 * _b) {{
        const Pack<{vec}, {st}> _p0 = _ap[_q], _p1 = _ap[_q + _b];
        _acc = (_RT)(REDUCE(_acc, REDUCE(_f(_p0, _q), _f(_p1, _q + _b))));
      }}
      if (_q < _nv) _acc = (_RT)(REDUCE(_acc, _f(_ap[_q], _q)));
      _j = _lo + _nv * {vec} + _t;
    }}
",
                n = a.name
            )
        } else if run && !ordered {
            // four independent loads in flight per thread
            "    if (_j < _hi) { _acc = _m(_j); _has = true; _j += blockDim.x; }
    for (const i64 _b = blockDim.x; _j + 3 * _b < _hi; _j += 4 * _b) {
      const _RT _x0 = _m(_j), _x1 = _m(_j + _b), _x2 = _m(_j + 2 * _b), _x3 = _m(_j + 3 * _b);
      _acc = (_RT)(REDUCE(_acc, REDUCE(REDUCE(_x0, _x1), REDUCE(_x2, _x3))));
    }
"
            .to_string()
        } else {
            String::new()
        };
        let (start, inc) = if ordered { ("(_t == 0 ? _lo : _hi)", "1") } else { ("_lo + _t", "blockDim.x") };
        format!(
            "  __shared__ _RT _wv[32]; __shared__ bool _wh[32];
  const int _t = threadIdx.x;
  for (i64 _bo = blockIdx.x; _bo < _kx.n * _chunks; _bo += gridDim.x) {{
    const i64 _ko = _bo / _chunks, _lo = (_bo % _chunks) * _per, _hi = _lo + _per < _rx.n ? _lo + _per : _rx.n;
{kdecl}    {mv}    {m}    _RT _acc = _RT(); bool _has = false;
    i64 _j = {start};
{fast}    for (; _j < _hi; _j += {inc}) {{ const _RT _v = _m(_j); _acc = _has ? (_RT)(REDUCE(_acc, _v)) : _v; _has = true; }}
    _fold(_acc, _has, _wv, _wh);
    if (_t == 0) {{
      if (_chunks == 1) {post}
      else _part[_bo] = _acc;
    }}
    __syncthreads();
  }}
",
            mv = self.map_fn(),
            m = self.at_fn(run),
            post = self.post_block("_acc", "_has", ""),
        )
    }

    fn cols(&self, run: bool, vec: usize, kdecl: &str) -> String {
        let head = format!(
            "  const i64 _step = (i64)gridDim.x * blockDim.x, _nkv = _kx.n / {vec};
  for (i64 _g = (i64)blockIdx.x * blockDim.x + threadIdx.x; _g < _nkv * _chunks; _g += _step) {{
    const i64 _c = _g / _nkv, _lo = _c * _per, _hi = _lo + _per < _rx.n ? _lo + _per : _rx.n;
    const i64 _ko = (_g % _nkv) * {vec};
    const bool _has = _lo < _hi;
{kdecl}    {mv}",
            mv = self.map_fn()
        );
        if vec == 1 {
            return format!(
                "{head}    {m}    _RT _acc = _RT();
    if (_has) {{
      _acc = _m(_lo);
#pragma unroll 4
      for (i64 _j = _lo + 1; _j < _hi; ++_j) _acc = (_RT)(REDUCE(_acc, _m(_j)));
    }}
    if (_chunks == 1) {post}
    else _part[_c * _kx.n + _ko] = _acc;
  }}
",
                m = self.at_fn(run),
                post = self.post_block("_acc", "_has", "")
            );
        }
        // `vec` adjacent outputs: the kept axis has unit stride in every input, rows are runs.
        let mut loads = String::new();
        let mut vals = Vec::new();
        for (s, a) in self.ins().enumerate() {
            let st = storage_ty(a.dtype);
            loads += &format!(
                "const Pack<{vec}, {st}> _q{s} = *(const Pack<{vec}, {st}>*)(_p_{n} + _k{s} + _j * _rx.st[{s}][0]); ",
                n = a.name
            );
            vals.push(format!("ld(_q{s}.v[_u])"));
        }
        vals.push("_j".into());
        let vals = vals.join(", ");
        format!(
            "{head}    _RT _acc[{vec}];
    if (_has) {{
      {{ const i64 _j = _lo; {loads}
#pragma unroll
        for (int _u = 0; _u < {vec}; ++_u) _acc[_u] = _mv({vals}); }}
#pragma unroll 4
      for (i64 _j = _lo + 1; _j < _hi; ++_j) {{ {loads}
#pragma unroll
        for (int _u = 0; _u < {vec}; ++_u) _acc[_u] = (_RT)(REDUCE(_acc[_u], _mv({vals}))); }}
    }}
#pragma unroll
    for (int _u = 0; _u < {vec}; ++_u) {{
      if (_chunks == 1) {post}
      else _part[_c * _kx.n + _ko + _u] = _acc[_u];
    }}
  }}
",
            post = self.post_block("_acc[_u]", "_has", " + _u")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::tests_support::syntax_check;

    fn arg(name: &str, role: Role, dtype: DType) -> Arg<'_> {
        Arg { name, role, dtype }
    }

    /// A user reduction (a scalar, a raw array, two outputs, float16) and the built-in form, in
    /// every plan, parsed by g++.
    #[test]
    fn reductions_parse_in_every_plan() {
        let td: Vec<Typedef> = vec![("T".into(), DType::F16)];
        let user = [
            arg("x", Role::In, DType::F16),
            arg("y", Role::In, DType::F32),
            arg("w", Role::Scalar, DType::F16),
            arg("v", Role::Raw, DType::F64),
            arg("s", Role::Out(false), DType::F16),
            arg("c", Role::Out(false), DType::I32),
        ];
        let plans = [
            Plan::Rows { ordered: false, run: true, vec: 1 },
            Plan::Rows { ordered: true, run: false, vec: 1 },
            Plan::Cols { run: true, vec: 1 },
            Plan::Cols { run: false, vec: 1 },
            Plan::Cols { run: true, vec: 4 },
        ];
        // a fused chain's map: its statements in a lambda called in place
        let fused =
            "[&]() -> float {\nfloat __out;\nfloat _t1;\n_t1 = b_multiply(x, x);\n__out = _t1 + y;\nreturn __out;\n}()";
        for (i, plan) in plans.into_iter().enumerate() {
            for (j, map) in ["x * w + (T)v[0] + y", fused].into_iter().enumerate() {
                let f = Fold {
                    name: "wsum",
                    fin: "wsum_fin",
                    typedefs: &td,
                    preamble: "",
                    args: &user,
                    acc: Acc::Value(DType::F32),
                    map,
                    reduce: "a + b",
                    post: "s = a; c = (int)a",
                    identity: "0",
                };
                syntax_check(&format!("reduction-user-{i}-{j}"), &f.source(plan));
                if i < 2 {
                    syntax_check(&format!("reduction-user-fin-{i}-{j}"), &f.fin_source(i == 0));
                }
            }
        }
        for d in DType::ALL {
            let one = [arg("x0", Role::In, d), arg("o", Role::Out(false), d)];
            let op = if d == DType::Bool { "b_logical_or(a, b)" } else { "b_maximum(a, b)" };
            let f = Fold {
                name: "XP_NAME(reduce)",
                fin: "XP_NAME(reduce_fin)",
                typedefs: &[],
                preamble: "",
                args: &one,
                acc: Acc::Value(d),
                map: "x0",
                reduce: op,
                post: "o = a;",
                identity: "",
            };
            for (i, plan) in [Plan::Rows { ordered: false, run: true, vec: 4 }, Plan::Cols { run: true, vec: 2 }]
                .into_iter()
                .enumerate()
            {
                syntax_check(&format!("reduction-{}-{i}", d.name()), &f.source(plan));
            }
            // the arg-reductions' (value, index) pairs, in every plan
            let pair = [arg("x0", Role::In, d), arg("o", Role::Out(false), DType::I64)];
            let f = Fold {
                preamble: ARG_CU,
                args: &pair,
                acc: Acc::Arg(d),
                map: "_RT{x0, _j}",
                reduce: "xp_argmax(a, b)",
                post: "o = a.i;",
                ..f
            };
            let mine = if d == DType::F16 { &plans[..] } else { &plans[4..] };
            for (i, &plan) in [Plan::Rows { ordered: false, run: true, vec: 4 }].iter().chain(mine).enumerate() {
                syntax_check(&format!("argmax-{}-{i}", d.name()), &f.source(plan));
            }
            for rows in [true, false] {
                syntax_check(&format!("argmax-fin-{}-{rows}", d.name()), &f.fin_source(rows));
            }
        }
    }
}
