//! The CPU subset's grammar: statements (declarations of scalars and fixed-size local arrays,
//! assignments and compound assignments, increments, `if`/`else`, `for`/`while`/`do` loops with
//! `break`/`continue`, blocks, `typedef`s, calls) over C expressions (arithmetic, comparisons,
//! logic, bit operations, `?:`, casts, calls, indexing of `raw` parameters, local arrays and
//! pointer parameters), and a preamble's `typedef`s and `__device__` functions with value,
//! pointer and reference parameters. Constructs of C/CUDA outside the subset (pointer
//! arithmetic, member access, `switch`, `goto`, structs, templates, macros) are recognised and
//! reported as such, so the CPU can say why it cannot run a body that NVRTC may well compile.
use super::lex::{lex, lex_with_directives, Tok, Token};
use super::SourceError;

/// An expression and the line it starts on.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct E {
    pub(crate) e: Expr,
    pub(crate) line: usize,
}

/// Expressions of the subset.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Expr {
    /// value, unsigned suffix, long suffix, decimal
    Int(u64, bool, bool, bool),
    /// value, `f` suffix
    Float(f64, bool),
    Bool(bool),
    Name(String),
    /// `name[index]`: a raw parameter, a local array or a pointer parameter (`*p` is `p[0]`)
    Index(String, Box<E>),
    /// `&name`: the address of a local, as the argument of a pointer parameter
    AddrOf(String),
    Un(&'static str, Box<E>),
    Bin(&'static str, Box<E>, Box<E>),
    Cond(Box<E>, Box<E>, Box<E>),
    /// `(type) e`, `type(e)`, `static_cast<type>(e)`
    Cast(String, Box<E>),
    Call(String, Vec<E>),
}

/// What an assignment writes.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Target {
    /// a variable
    Name(String),
    /// an element of a local array or pointer parameter (`*p` is `p[0]`)
    Elem(String, E),
}

/// A declaration's initialiser.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Init {
    Expr(E),
    /// `{a, b, ...}` (arrays)
    List(Vec<E>),
}

/// Statements of the subset.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Stmt {
    /// `type name [= init]`, or `type name[len] [= {...}]` (`arr`: `Some(None)` for `name[]`)
    Decl {
        ty: String,
        name: String,
        arr: Option<Option<u64>>,
        init: Option<Init>,
        line: usize,
    },
    /// `target op value` with op one of `=`, `+=`, `-=`, ... (`x++` is `x += 1`)
    Assign {
        target: Target,
        op: &'static str,
        value: E,
        line: usize,
    },
    /// an expression evaluated for its effects (a call)
    Expr(E),
    If {
        cond: E,
        then: Vec<Stmt>,
        els: Vec<Stmt>,
    },
    /// `{ ... }`: a scope
    Block(Vec<Stmt>),
    /// statements in the enclosing scope (several declarators of one declaration)
    Seq(Vec<Stmt>),
    /// `for (init; cond; step) body` (no condition: forever)
    For {
        init: Vec<Stmt>,
        cond: Option<E>,
        step: Vec<Stmt>,
        body: Vec<Stmt>,
    },
    While {
        cond: E,
        body: Vec<Stmt>,
    },
    DoWhile {
        body: Vec<Stmt>,
        cond: E,
    },
    Break(usize),
    Continue(usize),
    Return(Option<E>, usize),
    /// `typedef ty name;`
    Typedef {
        ty: String,
        name: String,
    },
}

/// How a function parameter is passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PKind {
    /// by value (and `const T&`)
    Value,
    /// `T* p`, `T p[]`: a local array or `&local` of the caller
    Pointer,
    /// `T& r`: a variable of the caller
    Ref,
}

/// A parameter of a preamble function.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct FParam {
    pub(crate) ty: String,
    pub(crate) name: String,
    pub(crate) kind: PKind,
}

/// A function of the preamble.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Func {
    pub(crate) name: String,
    /// the return type (`None`: void)
    pub(crate) ret: Option<String>,
    pub(crate) params: Vec<FParam>,
    pub(crate) body: Vec<Stmt>,
    /// the preamble line of its name
    pub(crate) line: usize,
}

/// An item of the preamble outside the subset: where, the name it defines when known, why.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Skipped {
    pub(crate) line: usize,
    pub(crate) name: Option<String>,
    pub(crate) msg: String,
}

/// A parsed preamble.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Preamble {
    /// `typedef ty name;`: (name, ty)
    pub(crate) typedefs: Vec<(String, String)>,
    pub(crate) funcs: Vec<Func>,
    /// items outside the subset (used only when the body names them)
    pub(crate) skipped: Vec<Skipped>,
    /// names `#define`d: a body or function using one is outside the subset
    pub(crate) macros: Vec<(String, usize)>,
    /// a reason the whole preamble is outside the subset (conditional compilation, a lexing
    /// error): any use of it reports this
    pub(crate) fatal: Option<SourceError>,
}

impl Preamble {
    /// The function `name` (the last definition).
    pub(crate) fn func(&self, name: &str) -> Option<&Func> {
        self.funcs.iter().rev().find(|f| f.name == name)
    }
    /// Why `name` is not available: a skipped item or a macro of that name.
    pub(crate) fn why_not(&self, name: &str) -> Option<String> {
        if let Some((_, l)) = self.macros.iter().find(|m| m.0 == name) {
            return Some(format!(
                "`{name}` is a macro of the preamble (#define, line {l}): the CPU subset has no preprocessor"
            ));
        }
        if let Some(s) = self.skipped.iter().rev().find(|s| s.name.as_deref() == Some(name)) {
            return Some(format!("`{name}` (preamble line {}) is outside the CPU subset: {}", s.line, s.msg));
        }
        None
    }
}

/// The words of C's arithmetic type names.
const TYPE_WORDS: [&str; 27] = [
    "bool",
    "char",
    "short",
    "int",
    "long",
    "unsigned",
    "signed",
    "float",
    "double",
    "size_t",
    "ptrdiff_t",
    "i8",
    "i16",
    "i32",
    "i64",
    "u8",
    "u16",
    "u32",
    "u64",
    "int8_t",
    "int16_t",
    "int32_t",
    "int64_t",
    "uint8_t",
    "uint16_t",
    "uint32_t",
    "uint64_t",
];
/// Qualifiers of a declaration that change nothing on the CPU.
const QUALIFIERS: [&str; 4] = ["const", "volatile", "constexpr", "register"];
/// Keywords that start a statement outside the subset.
const OUTSIDE_KEYWORDS: [&str; 11] =
    ["switch", "case", "goto", "asm", "struct", "union", "class", "template", "namespace", "new", "delete"];
/// Function qualifiers of a preamble.
const FN_QUALIFIERS: [&str; 8] =
    ["__device__", "__host__", "__forceinline__", "__noinline__", "inline", "__inline__", "static", "extern"];
const ASSIGN_OPS: [&str; 11] = ["=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="];

struct P {
    t: Vec<Token>,
    k: usize,
    /// names that denote types besides C's: placeholders, typedefs
    types: Vec<String>,
}

/// Parse a body; `types` are the names that denote types besides C's (the signature's
/// placeholders and the preamble's typedefs).
pub(crate) fn parse(src: &str, types: &[String]) -> Result<Vec<Stmt>, SourceError> {
    let mut p = P { t: lex(src)?, k: 0, types: types.to_vec() };
    let mut out = Vec::new();
    while p.k < p.t.len() {
        out.push(p.stmt()?);
    }
    Ok(out)
}

/// The first identifier of `src` among the preamble's macros, as an error outside the subset.
pub(crate) fn macro_use(src: &str, pre: &Preamble) -> Result<(), SourceError> {
    if pre.macros.is_empty() {
        return Ok(());
    }
    for t in lex(src)? {
        if let Tok::Ident(w) = &t.tok {
            if let Some(why) = pre.macros.iter().any(|m| m.0 == *w).then(|| pre.why_not(w)).flatten() {
                return Err(SourceError::outside(t.line, why));
            }
        }
    }
    Ok(())
}

/// Parse one expression (a reduction's map or reduce expression).
pub(crate) fn parse_expr(src: &str, types: &[String]) -> Result<E, SourceError> {
    let mut p = P { t: lex(src)?, k: 0, types: types.to_vec() };
    let e = p.expr()?;
    p.eat(";");
    if p.k < p.t.len() {
        return Err(SourceError::syntax(p.line(), "unexpected text after the expression"));
    }
    Ok(e)
}

/// Parse a preamble: its typedefs and functions; items outside the subset are skipped and
/// noted (an error only if the body uses them).
pub(crate) fn parse_preamble(src: &str, types: &[String]) -> Preamble {
    let mut pre = Preamble::default();
    let (t, dirs) = match lex_with_directives(src) {
        Ok(x) => x,
        Err(mut e) => {
            e.outside = true;
            e.msg = format!("the preamble (line {}): {}", e.line, e.msg);
            pre.fatal = Some(e);
            return pre;
        }
    };
    for d in &dirs {
        let word: String = d.text.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
        let rest = d.text[word.len()..].trim_start();
        match word.as_str() {
            "define" | "undef" => {
                let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                pre.macros.push((name, d.line));
            }
            "include" | "pragma" | "line" | "error" | "warning" | "" => {}
            _ => {
                let msg = format!(
                    "the preamble's `#{word}` (line {}): conditional compilation is not in the CPU subset",
                    d.line
                );
                pre.fatal = Some(SourceError::outside(d.line, msg));
                return pre;
            }
        }
    }
    let mut p = P { t, k: 0, types: types.to_vec() };
    while p.k < p.t.len() {
        if p.eat(";") {
            continue;
        }
        let start = p.k;
        let line = p.line();
        let nf = pre.funcs.len();
        match p.item(&mut pre) {
            Ok(()) => {
                // a function that names a macro may mean something else than it reads
                let used = p.t[start..p.k].iter().find_map(|t| match &t.tok {
                    Tok::Ident(w) => pre.macros.iter().find(|m| m.0 == *w),
                    _ => None,
                });
                if let (Some((m, l)), true) = (used, pre.funcs.len() > nf) {
                    let f = pre.funcs.pop().expect("a function");
                    let msg =
                        format!("it uses the macro `{m}` (#define, line {l}): the CPU subset has no preprocessor");
                    pre.skipped.push(Skipped { line: f.line, name: Some(f.name), msg });
                }
            }
            Err(e) => {
                p.k = start;
                let name = p.item_name();
                p.skip_item();
                pre.skipped.push(Skipped { line, name, msg: e.msg });
            }
        }
    }
    pre
}

impl P {
    fn line(&self) -> usize {
        self.t.get(self.k).or(self.t.last()).map_or(1, |t| t.line)
    }
    fn peek(&self) -> Option<&Tok> {
        self.t.get(self.k).map(|t| &t.tok)
    }
    fn peek_at(&self, n: usize) -> Option<&Tok> {
        self.t.get(self.k + n).map(|t| &t.tok)
    }
    fn is(&self, p: &str) -> bool {
        matches!(self.peek(), Some(Tok::Punct(q)) if *q == p)
    }
    fn is_at(&self, n: usize, p: &str) -> bool {
        matches!(self.peek_at(n), Some(Tok::Punct(q)) if *q == p)
    }
    fn is_word(&self, w: &str) -> bool {
        matches!(self.peek(), Some(Tok::Ident(s)) if s == w)
    }
    fn eat(&mut self, p: &str) -> bool {
        let y = self.is(p);
        self.k += y as usize;
        y
    }
    fn eat_word(&mut self, w: &str) -> bool {
        let y = self.is_word(w);
        self.k += y as usize;
        y
    }
    fn expect(&mut self, p: &str) -> Result<(), SourceError> {
        if self.eat(p) {
            return Ok(());
        }
        let found = match self.peek() {
            None => "the end of the body".to_string(),
            Some(t) => format!("`{}`", show(t)),
        };
        Err(SourceError::syntax(self.line(), format!("expected `{p}`, found {found}")))
    }
    fn ident(&mut self) -> Result<String, SourceError> {
        match self.peek() {
            Some(Tok::Ident(s)) => {
                let s = s.clone();
                self.k += 1;
                Ok(s)
            }
            _ => Err(SourceError::syntax(self.line(), "expected a name")),
        }
    }
    fn is_type_word(&self, n: usize) -> bool {
        match self.peek_at(n) {
            Some(Tok::Ident(s)) => {
                QUALIFIERS.contains(&s.as_str()) || TYPE_WORDS.contains(&s.as_str()) || self.types.contains(s)
            }
            _ => false,
        }
    }
    /// A type name's words (several for C's `unsigned long long` and the like), canonicalised.
    /// `decl`: a declarator follows, so a type word right before `;`, `=`, `,`, `[` or `)` is
    /// its name (`typedef unsigned long long uint64_t;`).
    fn ty_words(&mut self, decl: bool) -> Result<String, SourceError> {
        let mut words: Vec<String> = Vec::new();
        while self.is_type_word(0) {
            let ends = [";", "=", ",", "[", ")"].iter().any(|p| self.is_at(1, p));
            if decl && ends && !words.is_empty() && !QUALIFIERS.iter().any(|q| self.is_word(q)) {
                break;
            }
            let w = self.ident()?;
            if !QUALIFIERS.contains(&w.as_str()) {
                words.push(w);
            }
            if words.last().is_some_and(|w| self.types.contains(w)) {
                break;
            }
        }
        while self.is_type_word(0) && QUALIFIERS.iter().any(|q| self.is_word(q)) {
            self.k += 1;
        }
        if words.is_empty() {
            return Err(SourceError::syntax(self.line(), "expected a type"));
        }
        Ok(words.join(" "))
    }
    /// A type name that is no pointer or reference.
    fn ty(&mut self) -> Result<String, SourceError> {
        self.ty_decl(false)
    }
    /// [`P::ty`] before a declarator.
    fn ty_decl(&mut self, decl: bool) -> Result<String, SourceError> {
        let t = self.ty_words(decl)?;
        if self.is("*") || self.is("&") {
            return Err(SourceError::outside(
                self.line(),
                "pointer and reference variables are not in the CPU subset (only pointer and reference parameters of preamble functions)",
            ));
        }
        Ok(t)
    }
    fn block_or_stmt(&mut self) -> Result<Vec<Stmt>, SourceError> {
        if self.eat("{") {
            self.block_rest()
        } else {
            Ok(vec![self.stmt()?])
        }
    }
    /// The statements of a block whose `{` is read, through its `}`.
    fn block_rest(&mut self) -> Result<Vec<Stmt>, SourceError> {
        let mut v = Vec::new();
        while !self.eat("}") {
            if self.peek().is_none() {
                return Err(SourceError::syntax(self.line(), "expected `}`"));
            }
            v.push(self.stmt()?);
        }
        Ok(v)
    }
    /// The end of a statement: `;`, or the end of the body (CuPy's operations often omit it).
    fn end(&mut self) -> Result<(), SourceError> {
        if self.peek().is_none() || self.is("}") {
            return Ok(());
        }
        if let Some(Tok::Punct(p)) = self.peek() {
            if ASSIGN_OPS.contains(p) || *p == "," {
                return Err(SourceError::outside(
                    self.line(),
                    format!("`{p}` inside an expression (assignments and the comma operator as values) is not in the CPU subset"),
                ));
            }
        }
        self.expect(";")
    }
    fn paren_expr(&mut self) -> Result<E, SourceError> {
        self.expect("(")?;
        let e = self.expr()?;
        self.expect(")")?;
        Ok(e)
    }
    fn stmt(&mut self) -> Result<Stmt, SourceError> {
        let line = self.line();
        if let Some(Tok::Ident(w)) = self.peek() {
            let w = w.clone();
            if OUTSIDE_KEYWORDS.contains(&w.as_str()) {
                return Err(SourceError::outside(line, format!("`{w}` is not in the CPU subset")));
            }
            match w.as_str() {
                "if" => {
                    self.k += 1;
                    let cond = self.paren_expr()?;
                    let then = self.block_or_stmt()?;
                    let els = if self.eat_word("else") { self.block_or_stmt()? } else { Vec::new() };
                    return Ok(Stmt::If { cond, then, els });
                }
                "for" => {
                    self.k += 1;
                    self.expect("(")?;
                    let init = if self.eat(";") {
                        Vec::new()
                    } else {
                        let v = if self.is_decl() { self.decls()? } else { self.simple_list()? };
                        self.expect(";")?;
                        v
                    };
                    let cond = if self.is(";") { None } else { Some(self.expr()?) };
                    self.expect(";")?;
                    let step = if self.is(")") { Vec::new() } else { self.simple_list()? };
                    self.expect(")")?;
                    let body = self.block_or_stmt()?;
                    return Ok(Stmt::For { init, cond, step, body });
                }
                "while" => {
                    self.k += 1;
                    let cond = self.paren_expr()?;
                    let body = self.block_or_stmt()?;
                    return Ok(Stmt::While { cond, body });
                }
                "do" => {
                    self.k += 1;
                    let body = self.block_or_stmt()?;
                    if !self.eat_word("while") {
                        return Err(SourceError::syntax(self.line(), "expected `while` after a `do` body"));
                    }
                    let cond = self.paren_expr()?;
                    self.end()?;
                    return Ok(Stmt::DoWhile { body, cond });
                }
                "break" | "continue" => {
                    self.k += 1;
                    self.end()?;
                    return Ok(if w == "break" { Stmt::Break(line) } else { Stmt::Continue(line) });
                }
                "return" => {
                    self.k += 1;
                    let e =
                        if self.peek().is_none() || self.is(";") || self.is("}") { None } else { Some(self.expr()?) };
                    self.end()?;
                    return Ok(Stmt::Return(e, line));
                }
                "typedef" => {
                    self.k += 1;
                    let ty = self.ty_decl(true)?;
                    let name = self.ident()?;
                    if self.is("[") || self.is("(") {
                        return Err(SourceError::outside(
                            line,
                            "typedefs of arrays and functions are not in the CPU subset",
                        ));
                    }
                    self.end()?;
                    self.types.push(name.clone());
                    return Ok(Stmt::Typedef { ty, name });
                }
                _ => {}
            }
        }
        if self.eat("{") {
            return Ok(Stmt::Block(self.block_rest()?));
        }
        if self.eat(";") {
            return Ok(Stmt::Seq(Vec::new()));
        }
        if self.is_decl() {
            let mut decls = self.decls()?;
            self.end()?;
            return Ok(if decls.len() == 1 { decls.pop().expect("one") } else { Stmt::Seq(decls) });
        }
        let s = self.simple()?;
        self.end()?;
        Ok(s)
    }
    /// A declaration starts here (a type, not a functional cast `type(e)`).
    fn is_decl(&self) -> bool {
        self.is_type_word(0) && !self.is_at(1, "(")
    }
    /// `type a [= e], b[2] [= {...}], ...` without the terminator.
    fn decls(&mut self) -> Result<Vec<Stmt>, SourceError> {
        let ty = self.ty_decl(true)?;
        let mut decls = Vec::new();
        loop {
            let line = self.line();
            let name = self.ident()?;
            let arr = if self.eat("[") {
                let n = if self.is("]") {
                    None
                } else {
                    match self.peek() {
                        Some(Tok::Int(v, ..)) => {
                            let v = *v;
                            self.k += 1;
                            Some(v)
                        }
                        _ => {
                            return Err(SourceError::outside(
                                line,
                                "a local array's length must be an integer literal in the CPU subset",
                            ))
                        }
                    }
                };
                self.expect("]")?;
                if self.is("[") {
                    return Err(SourceError::outside(line, "multi-dimensional local arrays are not in the CPU subset"));
                }
                Some(n)
            } else {
                None
            };
            let init = if self.eat("=") {
                if self.eat("{") {
                    let mut v = Vec::new();
                    while !self.eat("}") {
                        v.push(self.expr()?);
                        if !self.eat(",") {
                            self.expect("}")?;
                            break;
                        }
                    }
                    Some(Init::List(v))
                } else {
                    Some(Init::Expr(self.expr()?))
                }
            } else {
                None
            };
            decls.push(Stmt::Decl { ty: ty.clone(), name, arr, init, line });
            if !self.eat(",") {
                break;
            }
        }
        Ok(decls)
    }
    /// Comma-separated simple statements (a `for`'s initialisation or step).
    fn simple_list(&mut self) -> Result<Vec<Stmt>, SourceError> {
        let mut v = vec![self.simple()?];
        while self.eat(",") {
            v.push(self.simple()?);
        }
        Ok(v)
    }
    /// The target of an assignment at the cursor (`x`, `a[e]`, `*p`), or `None` (cursor kept).
    fn target(&mut self) -> Result<Option<Target>, SourceError> {
        let line = self.line();
        if self.is("*") {
            return match self.peek_at(1) {
                Some(Tok::Ident(n)) if !self.is_at(2, "[") && !self.is_at(2, "(") => {
                    let n = n.clone();
                    self.k += 2;
                    Ok(Some(Target::Elem(n, E { e: Expr::Int(0, false, false, true), line })))
                }
                _ => Err(SourceError::outside(line, "writes through pointer expressions are not in the CPU subset")),
            };
        }
        let Some(Tok::Ident(n)) = self.peek() else { return Ok(None) };
        if self.is_type_word(0) {
            return Ok(None);
        }
        let n = n.clone();
        if self.is_at(1, "[") {
            let save = self.k;
            self.k += 2;
            let i = self.expr()?;
            self.expect("]")?;
            if self.is("[") {
                return Err(SourceError::outside(line, "multi-dimensional indexing is not in the CPU subset"));
            }
            if self.is(".") || self.is("->") {
                self.k = save;
                return Ok(None);
            }
            return Ok(Some(Target::Elem(n, i)));
        }
        if self.is_at(1, "(") || self.is_at(1, ".") || self.is_at(1, "->") || self.is_at(1, "::") {
            return Ok(None);
        }
        self.k += 1;
        Ok(Some(Target::Name(n)))
    }
    /// An assignment, increment or expression statement, without its terminator.
    fn simple(&mut self) -> Result<Stmt, SourceError> {
        let line = self.line();
        let one = |line| E { e: Expr::Int(1, false, false, true), line };
        for (inc, op) in [("++", "+="), ("--", "-=")] {
            if self.eat(inc) {
                let Some(target) = self.target()? else {
                    return Err(SourceError::outside(
                        line,
                        format!("`{inc}` of this operand is not in the CPU subset"),
                    ));
                };
                return Ok(Stmt::Assign { target, op, value: one(line), line });
            }
        }
        let save = self.k;
        if let Some(target) = self.target()? {
            if let Some(Tok::Punct(p)) = self.peek() {
                if let Some(op) = ASSIGN_OPS.iter().find(|o| *o == p) {
                    self.k += 1;
                    let value = self.expr()?;
                    return Ok(Stmt::Assign { target, op, value, line });
                }
                for (inc, op) in [("++", "+="), ("--", "-=")] {
                    if *p == inc {
                        self.k += 1;
                        return Ok(Stmt::Assign { target, op, value: one(line), line });
                    }
                }
            }
            self.k = save;
        }
        if let (Some(Tok::Ident(name)), Some(Tok::Ident(next))) = (self.peek(), self.peek_at(1)) {
            // `T x` where T is no type the CPU knows: a CUDA type, a struct or a template
            return Err(SourceError::outside(
                line,
                format!(
                    "`{name} {next}` declares a `{name}`, a type the CPU subset does not have (only C's arithmetic \
                     types, the signature's placeholders and typedefs of them)"
                ),
            ));
        }
        if let (Some(Tok::Ident(name)), Some(Tok::Punct(p))) = (self.peek(), self.peek_at(1)) {
            if [".", "->", "::"].contains(p) {
                return Err(SourceError::outside(
                    line,
                    format!("a statement starting `{name}{p}` (member access, namespaces) is not in the CPU subset"),
                ));
            }
        }
        let e = self.expr()?;
        Ok(Stmt::Expr(e))
    }

    pub(crate) fn expr(&mut self) -> Result<E, SourceError> {
        let c = self.binary(1)?;
        if self.eat("?") {
            let a = self.expr()?;
            self.expect(":")?;
            let b = self.expr()?;
            let line = c.line;
            return Ok(E { e: Expr::Cond(Box::new(c), Box::new(a), Box::new(b)), line });
        }
        Ok(c)
    }
    fn binary(&mut self, min: u8) -> Result<E, SourceError> {
        let mut lhs = self.unary()?;
        while let Some(Tok::Punct(op)) = self.peek() {
            let op: &'static str = op;
            let Some(prec) = precedence(op) else { break };
            if prec < min {
                break;
            }
            self.k += 1;
            let rhs = self.binary(prec + 1)?;
            let line = lhs.line;
            lhs = E { e: Expr::Bin(op, Box::new(lhs), Box::new(rhs)), line };
        }
        Ok(lhs)
    }
    fn unary(&mut self) -> Result<E, SourceError> {
        let line = self.line();
        for op in ["-", "+", "!", "~"] {
            if self.eat(op) {
                let e = self.unary()?;
                return Ok(E { e: Expr::Un(op, Box::new(e)), line });
            }
        }
        if self.is("*") || self.is("&") {
            let deref = self.is("*");
            if let Some(Tok::Ident(n)) = self.peek_at(1) {
                if !self.is_at(2, "[") && !self.is_at(2, "(") && !self.is_at(2, ".") && !self.is_at(2, "->") {
                    let n = n.clone();
                    self.k += 2;
                    let e = if deref {
                        Expr::Index(n, Box::new(E { e: Expr::Int(0, false, false, true), line }))
                    } else {
                        Expr::AddrOf(n)
                    };
                    return Ok(E { e, line });
                }
            }
            return Err(SourceError::outside(line, "pointer expressions are not in the CPU subset"));
        }
        if self.is("++") || self.is("--") {
            return Err(SourceError::outside(line, "increments inside expressions are not in the CPU subset"));
        }
        // A cast `(type) e`.
        if self.is("(") && self.is_type_word(1) {
            self.k += 1;
            let ty = self.ty()?;
            self.expect(")")?;
            let e = self.unary()?;
            return Ok(E { e: Expr::Cast(ty, Box::new(e)), line });
        }
        self.postfix()
    }
    fn postfix(&mut self) -> Result<E, SourceError> {
        let e = self.primary()?;
        if self.is("++") || self.is("--") {
            return Err(SourceError::outside(e.line, "increments inside expressions are not in the CPU subset"));
        }
        if self.is(".") || self.is("->") {
            return Err(SourceError::outside(e.line, "member access is not in the CPU subset"));
        }
        if self.is("[") {
            return Err(SourceError::outside(e.line, "indexing this expression is not in the CPU subset"));
        }
        Ok(e)
    }
    fn args(&mut self) -> Result<Vec<E>, SourceError> {
        let mut args = Vec::new();
        if !self.eat(")") {
            loop {
                args.push(self.expr()?);
                if self.eat(")") {
                    break;
                }
                self.expect(",")?;
            }
        }
        Ok(args)
    }
    fn primary(&mut self) -> Result<E, SourceError> {
        let line = self.line();
        let Some(t) = self.peek().cloned() else {
            return Err(SourceError::syntax(line, "expected an expression, found the end of the body"));
        };
        let e = match t {
            Tok::Int(v, u, l, d) => {
                self.k += 1;
                Expr::Int(v, u, l, d)
            }
            Tok::Float(v, f) => {
                self.k += 1;
                Expr::Float(v, f)
            }
            Tok::Punct("(") => {
                self.k += 1;
                let e = self.expr()?;
                self.expect(")")?;
                return Ok(e);
            }
            Tok::Ident(w) if w == "true" || w == "false" => {
                self.k += 1;
                Expr::Bool(w == "true")
            }
            Tok::Ident(w) if w == "static_cast" => {
                self.k += 1;
                self.expect("<")?;
                let ty = self.ty()?;
                self.expect(">")?;
                let e = self.paren_expr()?;
                Expr::Cast(ty, Box::new(e))
            }
            Tok::Ident(_) if self.is_type_word(0) => {
                // A functional cast `type(e)`.
                let ty = self.ty()?;
                let e = self.paren_expr()?;
                Expr::Cast(ty, Box::new(e))
            }
            Tok::Ident(w) => {
                self.k += 1;
                if self.eat("(") {
                    Expr::Call(w, self.args()?)
                } else if self.eat("[") {
                    let i = self.expr()?;
                    self.expect("]")?;
                    Expr::Index(w, Box::new(i))
                } else if self.is("::") {
                    return Err(SourceError::outside(line, format!("`{w}::` (namespaces) is not in the CPU subset")));
                } else if self.is("<") && matches!(self.peek_at(1), Some(Tok::Ident(_))) && self.is_at(2, ">") {
                    return Err(SourceError::outside(line, format!("`{w}<...>` (templates) is not in the CPU subset")));
                } else {
                    Expr::Name(w)
                }
            }
            Tok::Str(s) => {
                return Err(SourceError::outside(
                    line,
                    format!("literal `{s}`: strings and characters are not in the CPU subset"),
                ))
            }
            t => return Err(SourceError::syntax(line, format!("expected an expression, found `{}`", show(&t)))),
        };
        Ok(E { e, line })
    }

    /// One top-level item of a preamble: a typedef, or a function (definition or prototype).
    fn item(&mut self, pre: &mut Preamble) -> Result<(), SourceError> {
        let line = self.line();
        if self.eat_word("typedef") {
            let ty = self.ty_decl(true)?;
            let name = self.ident()?;
            if !self.eat(";") {
                return Err(SourceError::outside(line, "typedefs of arrays and functions are not in the CPU subset"));
            }
            self.types.push(name.clone());
            pre.typedefs.push((name, ty));
            return Ok(());
        }
        if let Some(Tok::Ident(w)) = self.peek() {
            if OUTSIDE_KEYWORDS.contains(&w.as_str()) || w == "__global__" || w == "__constant__" || w == "__shared__" {
                return Err(SourceError::outside(line, format!("`{w}` items are not in the CPU subset")));
            }
        }
        while FN_QUALIFIERS.iter().any(|q| self.is_word(q)) {
            self.k += 1;
        }
        let ret = if self.eat_word("void") { None } else { Some(self.ty()?) };
        let name_line = self.line();
        let name = self.ident()?;
        if !self.eat("(") {
            return Err(SourceError::outside(line, "global variables of a preamble are not in the CPU subset"));
        }
        let mut params: Vec<FParam> = Vec::new();
        let none = self.is(")") || (self.is_word("void") && self.is_at(1, ")"));
        if !none {
            loop {
                let (pline, start) = (self.line(), self.k);
                let ty = self.ty_words(true)?;
                let constant = self.t[start..self.k].iter().any(|t| t.tok == Tok::Ident("const".into()));
                let mut kind = PKind::Value;
                if self.eat("*") {
                    kind = PKind::Pointer;
                    while self.eat_word("const") || self.eat_word("__restrict__") || self.eat_word("restrict") {}
                    if self.is("*") {
                        return Err(SourceError::outside(pline, "pointers to pointers are not in the CPU subset"));
                    }
                } else if self.eat("&") {
                    // `const T&` is a value to the CPU
                    kind = if constant { PKind::Value } else { PKind::Ref };
                }
                // a prototype's parameters may be unnamed
                let pname = if self.is(",") || self.is(")") { String::new() } else { self.ident()? };
                if self.eat("[") {
                    if kind != PKind::Value {
                        return Err(SourceError::outside(pline, "arrays of pointers are not in the CPU subset"));
                    }
                    if let Some(Tok::Int(..)) = self.peek() {
                        self.k += 1;
                    }
                    self.expect("]")?;
                    kind = PKind::Pointer;
                }
                if self.is("=") {
                    return Err(SourceError::outside(pline, "default arguments are not in the CPU subset"));
                }
                params.push(FParam { ty, name: pname, kind });
                if !self.eat(",") {
                    break;
                }
            }
        } else {
            self.eat_word("void");
        }
        self.expect(")")?;
        if self.eat(";") {
            return Ok(()); // a prototype
        }
        self.expect("{")?;
        let body = self.block_rest()?;
        pre.funcs.push(Func { name, ret, params, body, line: name_line });
        Ok(())
    }
    /// The name an item at the cursor defines, if one can be told: the name before its first
    /// `(`, else the last name before `=`, `;`, `[` or `{`.
    fn item_name(&self) -> Option<String> {
        let mut last = None;
        let mut from = self.k;
        if matches!(self.peek(), Some(Tok::Ident(w)) if w == "template") {
            // past the template's parameter list
            from = self.t[from..].iter().position(|t| t.tok == Tok::Punct(">")).map_or(self.t.len(), |p| from + p + 1);
        }
        for (j, t) in self.t[from..].iter().enumerate() {
            match &t.tok {
                Tok::Ident(s) if !FN_QUALIFIERS.contains(&s.as_str()) => {
                    if ["struct", "union", "class"].contains(&s.as_str()) {
                        if let Some(Tok::Ident(n)) = self.t.get(from + j + 1).map(|t| &t.tok) {
                            return Some(n.clone());
                        }
                    }
                    last = Some(s.clone())
                }
                Tok::Punct("(") => return last,
                Tok::Punct("=" | ";" | "[" | "{") => return last,
                _ => {}
            }
        }
        last
    }
    /// Move past the item at the cursor: through the `;` that ends it at depth 0, or through the
    /// `}` (and a `;` after it) that closes its first brace.
    fn skip_item(&mut self) {
        let mut depth = 0usize;
        while let Some(t) = self.peek().cloned() {
            self.k += 1;
            match t {
                Tok::Punct("{") => depth += 1,
                Tok::Punct("}") => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        self.eat(";");
                        return;
                    }
                }
                Tok::Punct(";") if depth == 0 => return,
                _ => {}
            }
        }
    }
}

fn precedence(op: &str) -> Option<u8> {
    Some(match op {
        "||" => 1,
        "&&" => 2,
        "|" => 3,
        "^" => 4,
        "&" => 5,
        "==" | "!=" => 6,
        "<" | "<=" | ">" | ">=" => 7,
        "<<" | ">>" => 8,
        "+" | "-" => 9,
        "*" | "/" | "%" => 10,
        _ => return None,
    })
}

fn show(t: &Tok) -> String {
    match t {
        Tok::Ident(s) | Tok::Str(s) => s.clone(),
        Tok::Int(v, ..) => v.to_string(),
        Tok::Float(v, _) => v.to_string(),
        Tok::Punct(p) => p.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Result<Vec<Stmt>, SourceError> {
        parse(s, &["T".to_string()])
    }

    #[test]
    fn precedence_and_forms() {
        let s = p("T t = a + b * c;\nif (t > 0) { y = t; } else y = -t\n").unwrap();
        assert_eq!(s.len(), 2);
        let Stmt::Decl { init: Some(Init::Expr(E { e: Expr::Bin("+", _, r), .. })), .. } = &s[0] else {
            panic!("{s:?}")
        };
        assert!(matches!(r.e, Expr::Bin("*", _, _)));
        assert!(matches!(&s[1], Stmt::If { els, .. } if els.len() == 1));
        let s = p("y = x > 0 ? x : (float)alpha * x").unwrap();
        let Stmt::Assign { value: E { e: Expr::Cond(_, _, b), .. }, .. } = &s[0] else { panic!() };
        assert!(matches!(&b.e, Expr::Bin("*", c, _) if matches!(c.e, Expr::Cast(..))));
        assert!(p("z = T(x) + static_cast<double>(y) + v[i - 1]").is_ok());
    }

    #[test]
    fn loops_arrays_and_increments() {
        let s = p("y = 0;\nfor (int k = 0, j = 1; k < 3; ++k, j--) { if (k == 1) continue; y += x; }").unwrap();
        let Stmt::For { init, cond: Some(_), step, body } = &s[1] else { panic!("{s:?}") };
        assert_eq!((init.len(), step.len(), body.len()), (2, 2, 2));
        assert!(matches!(&body[0], Stmt::If { then, .. } if matches!(then[0], Stmt::Continue(2))));
        let s = p("unsigned long long a[2] = {1, 2,}, b[] = {3};\na[1] ^= a[0] << 3; *b = 1; a[0]++;").unwrap();
        let Stmt::Seq(d) = &s[0] else { panic!("{s:?}") };
        assert!(matches!(&d[0], Stmt::Decl { arr: Some(Some(2)), init: Some(Init::List(v)), .. } if v.len() == 2));
        assert!(matches!(&d[1], Stmt::Decl { arr: Some(None), .. }));
        assert!(matches!(&s[1], Stmt::Assign { target: Target::Elem(n, _), op: "^=", .. } if n == "a"));
        assert!(matches!(&s[2], Stmt::Assign { target: Target::Elem(n, _), op: "=", .. } if n == "b"));
        assert!(matches!(&s[3], Stmt::Assign { op: "+=", .. }));
        let s = p("do { x = f(x); } while (x < 3); while (true) break; init(st, i);").unwrap();
        assert!(matches!(&s[0], Stmt::DoWhile { .. }));
        assert!(matches!(&s[1], Stmt::While { body, .. } if matches!(body[0], Stmt::Break(1))));
        assert!(matches!(&s[2], Stmt::Expr(E { e: Expr::Call(..), .. })));
        let s = p("typedef unsigned int U; U u = U(3);").unwrap();
        assert!(matches!(&s[1], Stmt::Decl { ty, .. } if ty == "U"));
    }

    #[test]
    fn errors_carry_lines_and_say_outside() {
        let e = p("y = x;\ny = (x + ;").unwrap_err();
        assert_eq!((e.line, e.outside), (2, false), "{e:?}");
        let e = p("y = 0;\nswitch (x) { case 1: y = 1; }").unwrap_err();
        assert_eq!((e.line, e.outside), (2, true));
        for src in ["y = *(x + 1);", "T* q = p;", "y = x++;", "y = a.b;", "y = z = 1;", "T m[2][2];"] {
            let e = p(src).unwrap_err();
            assert!(e.outside, "{src}: {e:?}");
        }
    }

    #[test]
    fn preambles() {
        let pre = parse_preamble(
            "typedef unsigned long long uint64_t;\n#define N 4\n__device__ inline T f(T a, const T& b) { return a + b; }\n\
             __device__ void g(uint64_t* s, T& r, T v[]) { s[0] = 1; r = v[1]; }\n\
             struct S { int a; };\ntemplate <class U> __device__ U h(U x) { return x; }\n\
             __device__ T proto(T);\n__constant__ float c[4];",
            &["T".to_string()],
        );
        assert_eq!(pre.typedefs, vec![("uint64_t".to_string(), "unsigned long long".to_string())]);
        assert_eq!(pre.macros, vec![("N".to_string(), 2)]);
        assert_eq!(pre.funcs.len(), 2);
        let kinds: Vec<PKind> = pre.funcs[1].params.iter().map(|p| p.kind).collect();
        assert_eq!(kinds, [PKind::Pointer, PKind::Ref, PKind::Pointer]);
        assert_eq!(pre.funcs[0].params[1].kind, PKind::Value);
        let names: Vec<Option<&str>> = pre.skipped.iter().map(|s| s.name.as_deref()).collect();
        assert_eq!(names, [Some("S"), Some("h"), Some("c")]);
        assert!(pre.why_not("N").unwrap().contains("macro"));
        assert!(pre.why_not("h").unwrap().contains("template"));
        assert!(parse_preamble("#ifdef X\n#endif", &[]).fatal.is_some());
    }
}
