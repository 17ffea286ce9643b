//! User-defined kernels, written once for every backend: CuPy's signature language
//! (`"T x, raw T y, float32 a"`), a body in C, and the typed [`Program`] the CPU evaluates.
//!
//! A body in the *CPU subset* type-checks here with C's rules and runs on the CPU as well as the
//! GPU, with the same results (floating-point math functions to within their accuracy):
//! arithmetic, comparisons, `?:`, locals, fixed-size local arrays, `if`/`else`, `for`/`while`/
//! `do` loops with `break`/`continue`, increments and compound assignments, casts, typedefs, the
//! math functions of [`MathFn`], `raw` parameters indexed by an integer, and calls of the
//! preamble's functions (inlined; parameters by value, by reference, or pointers to a local
//! array or `&variable`; `typedef`s of the preamble apply). A body outside it (pointer
//! arithmetic, member access, `switch`, structs, templates, macros, CUDA intrinsics) compiles with
//! NVRTC on the GPU and gives [`crate::Error::KernelUnsupported`] on the CPU, saying which
//! construct and where.
//!
//! ```
//! use xp_core::kernel::{parse_params, ElementwiseDef, ParamTy};
//! use xp_core::DType;
//! let p = parse_params("axpy", "T x, raw T y, float32 a").unwrap();
//! assert_eq!(p[1].ty, ParamTy::Generic("T".into()));
//! assert!(p[1].raw && p[2].ty == ParamTy::Fixed(DType::F32));
//! let k = ElementwiseDef::new("T x, T y, float32 a", "T z", "z = a * x + y", "axpy", "").unwrap();
//! let prog = k.program(&[("T".into(), DType::F64)], &[false, false, true]).unwrap();
//! assert_eq!(prog.vars.len(), 4); // x, y, a, z
//! // a loop calling a preamble function runs on the CPU
//! let pre = "__device__ T twice(T v) { return 2 * v; }";
//! let k = ElementwiseDef::new("T x", "T z", "z = 0;\nfor (int k = 0; k < 3; ++k) z += twice(x);", "f", pre).unwrap();
//! assert!(k.program(&[("T".into(), DType::F32)], &[false]).is_ok());
//! // a `switch` is outside the CPU subset: the error says so, with the line
//! let k = ElementwiseDef::new("T x", "T z", "z = 0;\nswitch (i) { case 0: z = x; }", "f", "").unwrap();
//! let e = k.program(&[("T".into(), DType::F32)], &[false]).unwrap_err();
//! assert!(e.to_string().contains("line 2"));
//! ```
mod check;
pub mod ir;
mod lex;
mod parse;
pub mod print;
mod reduction;
pub mod remap;
pub mod rust;

use crate::{DType, Error, Result};
use std::sync::Arc;

/// A placeholder's binding in a call: its name (shared with the signature, so binding it
/// allocates nothing) and its dtype.
pub type Typedef = (Arc<str>, DType);
pub use ir::{compute, BinOp, MathFn, Node, Program, Role, TExpr, TStmt, UnOp, VarInfo};
pub use reduction::{ReductionDef, ReductionPrograms};

/// An error in kernel source: where, what, and whether the construct is valid C outside the
/// CPU subset (rather than a mistake).
#[derive(Clone, Debug, PartialEq)]
pub struct SourceError {
    /// 1-based line in the body
    pub line: usize,
    /// what was wrong
    pub msg: String,
    /// true when the source may be valid CUDA that the CPU cannot run
    pub outside: bool,
}

impl SourceError {
    pub(crate) fn syntax(line: usize, msg: impl Into<String>) -> Self {
        SourceError { line, msg: msg.into(), outside: false }
    }
    pub(crate) fn outside(line: usize, msg: impl Into<String>) -> Self {
        SourceError { line, msg: msg.into(), outside: true }
    }
    /// The typed error of kernel `kernel` (part `part`: "body", "map_expr", ...).
    pub fn into_error(self, kernel: &str, part: &str) -> Error {
        if self.outside {
            Error::KernelUnsupported {
                kernel: kernel.to_string(),
                backend: "cpu",
                reason: format!("{part} line {}: {}", self.line, self.msg),
            }
        } else {
            Error::KernelSource { kernel: kernel.to_string(), line: self.line, msg: format!("{part}: {}", self.msg) }
        }
    }
}

/// The type of a parameter: a dtype, or a placeholder resolved from the arguments.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ParamTy {
    /// a fixed dtype (`float32 a`)
    Fixed(DType),
    /// a placeholder (`T x`): the dtype of the first array argument that names it
    Generic(Arc<str>),
}

/// One parameter of a kernel signature.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Param {
    /// its name in the body
    pub name: String,
    /// its type
    pub ty: ParamTy,
    /// `raw`: the whole array, indexed explicitly (`x[i]`), not broadcast
    pub raw: bool,
}

impl Param {
    /// The parameter's dtype under the placeholder bindings `typedefs` (float64 for a
    /// placeholder left unbound: the front end refuses such calls before a program is made).
    pub fn dtype(&self, typedefs: &[Typedef]) -> DType {
        match &self.ty {
            ParamTy::Fixed(d) => *d,
            ParamTy::Generic(t) => typedefs.iter().find(|(n, _)| n == t).map_or(DType::F64, |x| x.1),
        }
    }
}

/// A dtype of the signature language: NumPy's names, and C's `float`, `double`, `int`, ...
fn dtype_name(s: &str) -> Option<DType> {
    DType::from_name(s).or(match s {
        "float" => Some(DType::F32),
        "double" => Some(DType::F64),
        "int" => Some(DType::I32),
        "half" => Some(DType::F16),
        "unsigned" => Some(DType::U32),
        "complex<float>" => Some(DType::C64),
        "complex<double>" => Some(DType::C128),
        _ => None,
    })
}

fn valid_name(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Parse a parameter list: comma-separated `[raw] type name`, where `type` is a dtype name or a
/// placeholder (any other identifier).
pub fn parse_params(kernel: &str, src: &str) -> Result<Vec<Param>> {
    let bad = |msg: String| Error::KernelSource { kernel: kernel.to_string(), line: 1, msg };
    let mut out: Vec<Param> = Vec::new();
    if src.trim().is_empty() {
        return Ok(out);
    }
    for part in src.split(',') {
        let words: Vec<&str> = part.split_whitespace().collect();
        let (raw, rest) = match words.first() {
            Some(&"raw") => (true, &words[1..]),
            _ => (false, &words[..]),
        };
        let [ty, name] = rest else {
            return Err(bad(format!("parameter `{}` is not `[raw] type name`", part.trim())));
        };
        if !valid_name(name) || !valid_name(ty.trim_end_matches('>').replace('<', "_").as_str()) {
            return Err(bad(format!("parameter `{}` is not `[raw] type name`", part.trim())));
        }
        if out.iter().any(|p| p.name == *name) {
            return Err(bad(format!("parameter `{name}` appears twice")));
        }
        let ty = match dtype_name(ty) {
            Some(d) => ParamTy::Fixed(d),
            None => ParamTy::Generic((*ty).into()),
        };
        out.push(Param { name: name.to_string(), ty, raw });
    }
    Ok(out)
}

/// A 64-bit FNV-1a hash, for kernel identities (a kernel's cache key is a hash of its
/// specification: signature, body, preamble, dtypes and layout class).
pub fn hash_str(h: u64, s: &str) -> u64 {
    s.bytes().fold(h ^ 0xcbf2_9ce4_8422_2325, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3))
}

/// Every placeholder named by `params`, in order of first appearance.
pub fn placeholders<'a>(params: impl IntoIterator<Item = &'a Param>) -> Vec<String> {
    let mut v: Vec<String> = Vec::new();
    for p in params {
        if let ParamTy::Generic(t) = &p.ty {
            if !v.iter().any(|x| **x == **t) {
                v.push(t.to_string());
            }
        }
    }
    v
}

/// An elementwise kernel: CuPy's `ElementwiseKernel(in_params, out_params, operation, name)`.
#[derive(Clone, Debug)]
pub struct ElementwiseDef {
    /// the kernel's name (a C identifier)
    pub name: String,
    /// input parameters
    pub ins: Vec<Param>,
    /// output parameters
    pub outs: Vec<Param>,
    /// the body
    pub body: String,
    /// code placed before the kernel: its typedefs and functions (those in the CPU subset) the
    /// CPU inlines into the body
    pub preamble: String,
    /// a hash of all of the above
    pub id: u64,
    parsed: std::result::Result<Vec<parse::Stmt>, SourceError>,
    /// the preamble's typedefs and functions
    pre: Arc<parse::Preamble>,
    /// a program built rather than parsed (a fused chain): used as is
    typed: Option<Program>,
    /// a function written in Rust (`#[xp::kernel]`): lowered per binding
    pub rust: Option<Arc<RustSource>>,
}

/// The Rust function of a `#[xp::kernel]` kernel: its body as data, its native instances, and
/// the names its parameters take in the generated CUDA C.
pub struct RustSource {
    /// the function
    pub func: &'static rust::ast::Func,
    /// its native instances (the CPU runs these rather than the lowered program)
    pub native: Option<&'static dyn rust::NativeKernel>,
    /// the C names of the inputs, then the outputs
    pub c_names: Vec<String>,
    /// the CUDA entry point's name (prefixed, so that no C name can clash)
    pub entry: String,
    /// a raw kernel (`#[xp::raw_kernel]`): launched on a grid, GPU constructs allowed
    pub raw: bool,
}

impl std::fmt::Debug for RustSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RustSource").field("func", &self.func.name).field("entry", &self.entry).finish()
    }
}

impl ElementwiseDef {
    /// Parse the signature (errors now) and the body (its errors are reported when the CPU is
    /// asked to run it; the GPU compiles the body as written).
    pub fn new(ins: &str, outs: &str, body: &str, name: &str, preamble: &str) -> Result<ElementwiseDef> {
        if !valid_name(name) {
            return Err(Error::KernelSource {
                kernel: name.to_string(),
                line: 1,
                msg: "the name must be a C identifier".into(),
            });
        }
        let (ins, outs) = (parse_params(name, ins)?, parse_params(name, outs)?);
        if outs.is_empty() {
            return Err(Error::KernelSource { kernel: name.into(), line: 1, msg: "a kernel needs an output".into() });
        }
        if let Some(p) = outs.iter().find(|p| p.raw || ins.iter().any(|q| q.name == p.name)) {
            let msg = format!("output `{}` is raw or repeats an input's name", p.name);
            return Err(Error::KernelSource { kernel: name.into(), line: 1, msg });
        }
        let mut types = placeholders(ins.iter().chain(&outs));
        let pre = parse::parse_preamble(preamble, &types);
        types.extend(pre.typedefs.iter().map(|t| t.0.clone()));
        let parsed = parse::macro_use(body, &pre).and_then(|_| parse::parse(body, &types));
        let id = [name, body, preamble, &format!("{ins:?}{outs:?}")].iter().fold(0, |h, s| hash_str(h, s));
        Ok(ElementwiseDef {
            name: name.into(),
            ins,
            outs,
            body: body.into(),
            preamble: preamble.into(),
            id,
            parsed,
            pre: Arc::new(pre),
            typed: None,
            rust: None,
        })
    }
    /// A kernel of a typed program built by xp (a fused chain): its body for the GPU is the
    /// program printed as C ([`print::body`]); the CPU runs the program itself.
    pub fn from_program(name: &str, ins: Vec<Param>, outs: Vec<Param>, program: Program) -> ElementwiseDef {
        let body = print::body(&program);
        let id = [name, &body, &format!("{ins:?}{outs:?}")].iter().fold(11, |h, s| hash_str(h, s));
        ElementwiseDef {
            name: name.into(),
            ins,
            outs,
            body,
            preamble: String::new(),
            id,
            parsed: Ok(Vec::new()),
            pre: Arc::default(),
            typed: Some(program),
            rust: None,
        }
    }
    /// The kernel of a function written in Rust (`#[xp::kernel]`): `path` its module path (part
    /// of its identity), `hash` a hash of its tokens. The parameters other than an `Index` are
    /// the inputs; the results are outputs `out0`, `out1`, ...
    pub fn from_rust(
        path: &str,
        func: &'static rust::ast::Func,
        native: Option<&'static dyn rust::NativeKernel>,
        hash: u64,
    ) -> ElementwiseDef {
        use rust::ast::{ParamKind, Ty};
        let pty = |t: Ty| match t {
            Ty::D(d) => ParamTy::Fixed(d),
            Ty::Gen(n) => ParamTy::Generic(n.into()),
        };
        let mut ins = Vec::new();
        let mut c_names = Vec::new();
        for p in func.params.iter().filter(|p| p.kind != ParamKind::Index) {
            let raw = matches!(p.kind, ParamKind::Raw | ParamKind::RawMut);
            c_names.push(if raw { rust::lower::raw_name(ins.len()) } else { rust::lower::value_name(p.name) });
            ins.push(Param { name: p.name.to_string(), ty: pty(p.ty), raw });
        }
        let outs: Vec<Param> = (func.outs.iter().enumerate())
            .map(|(k, t)| Param { name: format!("out{k}"), ty: pty(*t), raw: false })
            .collect();
        c_names.extend((0..outs.len()).map(rust::lower::result_name));
        let id = hash_str(hash_str(hash ^ 0x5275_7374, path), func.name);
        ElementwiseDef {
            name: func.name.into(),
            ins,
            outs,
            body: String::new(),
            preamble: String::new(),
            id,
            parsed: Ok(Vec::new()),
            pre: Arc::default(),
            typed: None,
            rust: Some(Arc::new(RustSource { func, native, c_names, entry: format!("xpk_{}", func.name), raw: false })),
        }
    }
    /// The kernel of a raw kernel written in Rust (`#[xp::raw_kernel]`): every parameter is an
    /// input (scalars, `Raw` and `RawMut` arrays); there are no outputs.
    pub fn from_rust_raw(path: &str, func: &'static rust::ast::Func, hash: u64) -> ElementwiseDef {
        let mut d = ElementwiseDef::from_rust(path, func, None, hash ^ 0x5261_7721);
        if let Some(r) = &d.rust {
            let r = RustSource {
                func,
                native: None,
                c_names: r.c_names.clone(),
                entry: format!("xpr_{}", func.name),
                raw: true,
            };
            d.rust = Some(Arc::new(r));
        }
        d
    }
    /// The same kernel without native instances (the CPU runs the lowered program).
    pub fn without_native(&self) -> ElementwiseDef {
        let mut d = self.clone();
        if let Some(r) = &self.rust {
            let r = RustSource {
                func: r.func,
                native: None,
                c_names: r.c_names.clone(),
                entry: r.entry.clone(),
                raw: r.raw,
            };
            d.rust = Some(Arc::new(r));
        }
        d
    }
    /// The C name of argument `k` (the inputs, then the outputs).
    pub fn c_name(&self, k: usize) -> &str {
        match &self.rust {
            Some(r) => &r.c_names[k],
            None if k < self.ins.len() => &self.ins[k].name,
            None => &self.outs[k - self.ins.len()].name,
        }
    }
    /// The CUDA entry point's name.
    pub fn entry(&self) -> &str {
        self.rust.as_ref().map_or(&self.name, |r| &r.entry)
    }
    /// The body the GPU compiles: as written, or for a Rust function its program for these
    /// bindings printed as C.
    pub fn gpu_body(&self, typedefs: &[Typedef], scalar: &[bool]) -> Result<std::borrow::Cow<'_, str>> {
        match &self.rust {
            None => Ok(std::borrow::Cow::Borrowed(&self.body)),
            Some(_) => Ok(std::borrow::Cow::Owned(print::body(&self.program(typedefs, scalar)?))),
        }
    }
    /// The compute dtype of each generic parameter of a Rust function under `typedefs`,
    /// checked against its bound.
    pub fn rust_binding(&self, typedefs: &[Typedef]) -> Result<Vec<DType>> {
        match &self.rust {
            Some(r) => rust::binding(&self.name, &r.func.generics, typedefs),
            None => Ok(Vec::new()),
        }
    }
    /// The typed program for placeholder bindings `typedefs`; `scalar[k]` says whether input `k`
    /// is a scalar. Errors: the body's syntax or type errors ([`Error::KernelSource`]) or a
    /// construct outside the CPU subset ([`Error::KernelUnsupported`]).
    pub fn program(&self, typedefs: &[Typedef], scalar: &[bool]) -> Result<Program> {
        if let Some(r) = &self.rust {
            let bind = self.rust_binding(typedefs)?;
            let p =
                if r.raw { rust::lower::lower_raw(r.func, &bind) } else { rust::lower::lower(r.func, &bind, scalar) };
            return p.map_err(|e| Error::KernelSource {
                kernel: self.name.clone(),
                line: e.line as usize,
                msg: format!("column {}: {}", e.col + 1, e.msg),
            });
        }
        if let Some(p) = &self.typed {
            if let Some(v) = p.vars.iter().find(|v| v.ty.is_complex()) {
                let reason = format!("`{}` is complex: complex values run on the GPU only", v.name);
                return Err(Error::KernelUnsupported { kernel: self.name.clone(), backend: "cpu", reason });
            }
            return Ok(p.clone());
        }
        let stmts = self.parsed.as_ref().map_err(|e| e.clone().into_error(&self.name, "body"))?;
        let tys = |p: &Param| p.dtype(typedefs);
        let raws = check::raw_params(&self.ins, typedefs);
        let mut c = check::Checker::new(typedefs, &raws).with_preamble(&self.pre);
        for (k, p) in self.ins.iter().enumerate() {
            if p.raw {
                continue;
            }
            let role = if scalar.get(k).copied().unwrap_or(false) { Role::Scalar(k) } else { Role::In(k) };
            c.declare(&p.name, compute(tys(p)), role);
        }
        for (k, p) in self.outs.iter().enumerate() {
            c.declare(&p.name, compute(tys(p)), Role::Out(k));
        }
        if let Some(v) = c.vars.iter().find(|v| v.ty.is_complex()) {
            let reason = format!("`{}` is complex: complex arithmetic in kernel bodies runs on the GPU only", v.name);
            return Err(Error::KernelUnsupported { kernel: self.name.clone(), backend: "cpu", reason });
        }
        c.program(stmts).map_err(|e| e.into_error(&self.name, "body"))
    }
}
