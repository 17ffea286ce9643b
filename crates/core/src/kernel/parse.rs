//! The expression subset's grammar: statements (declarations, assignments, `if`/`else`, blocks)
//! over C expressions (arithmetic, comparisons, logic, bit operations, `?:`, casts, calls,
//! indexing of `raw` parameters). Constructs of C/CUDA outside the subset (loops, pointers,
//! increments, member access) are recognised and reported as such, so the CPU can say why it
//! cannot run a body that NVRTC may well compile.
use super::lex::{lex, Tok, Token};
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
    /// value, unsigned suffix, long suffix
    Int(u64, bool, bool),
    /// value, `f` suffix
    Float(f64, bool),
    Bool(bool),
    Name(String),
    /// `raw_param[index]`
    Index(String, Box<E>),
    Un(&'static str, Box<E>),
    Bin(&'static str, Box<E>, Box<E>),
    Cond(Box<E>, Box<E>, Box<E>),
    /// `(type) e`, `type(e)`, `static_cast<type>(e)`
    Cast(String, Box<E>),
    Call(String, Vec<E>),
}

/// Statements of the subset.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Stmt {
    /// `type name [= init]`
    Decl {
        ty: String,
        name: String,
        init: Option<E>,
        line: usize,
    },
    /// `name op value` with op one of `=`, `+=`, `-=`, ...
    Assign {
        name: String,
        op: &'static str,
        value: E,
        line: usize,
    },
    If {
        cond: E,
        then: Vec<Stmt>,
        els: Vec<Stmt>,
    },
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
const OUTSIDE_KEYWORDS: [&str; 10] =
    ["for", "while", "do", "switch", "return", "break", "continue", "goto", "asm", "struct"];

struct P<'a> {
    t: Vec<Token>,
    k: usize,
    types: &'a [String],
}

/// Parse a body; `types` are the names that denote types besides C's (the signature's
/// placeholders).
pub(crate) fn parse(src: &str, types: &[String]) -> Result<Vec<Stmt>, SourceError> {
    let mut p = P { t: lex(src)?, k: 0, types };
    let mut out = Vec::new();
    while p.k < p.t.len() {
        out.push(p.stmt()?);
    }
    Ok(out)
}

/// Parse one expression (a reduction's map or reduce expression).
pub(crate) fn parse_expr(src: &str, types: &[String]) -> Result<E, SourceError> {
    let mut p = P { t: lex(src)?, k: 0, types };
    let e = p.expr()?;
    p.eat(";");
    if p.k < p.t.len() {
        return Err(SourceError::syntax(p.line(), "unexpected text after the expression"));
    }
    Ok(e)
}

impl P<'_> {
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
    fn eat(&mut self, p: &str) -> bool {
        let y = self.is(p);
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
            Some(Tok::Ident(s)) => s == "const" || TYPE_WORDS.contains(&s.as_str()) || self.types.contains(s),
            _ => false,
        }
    }
    /// A type name (several words for C's `unsigned long long` and the like), canonicalised.
    fn ty(&mut self) -> Result<String, SourceError> {
        let mut words = Vec::new();
        while self.is_type_word(0) {
            let w = self.ident()?;
            if w != "const" {
                words.push(w);
            }
            if words.last().is_some_and(|w| self.types.contains(w)) {
                break;
            }
        }
        if words.is_empty() {
            return Err(SourceError::syntax(self.line(), "expected a type"));
        }
        if self.is("*") || self.is("&") {
            return Err(SourceError::outside(self.line(), "pointers and references are not in the CPU subset"));
        }
        Ok(words.join(" "))
    }
    fn block_or_stmt(&mut self) -> Result<Vec<Stmt>, SourceError> {
        if self.eat("{") {
            let mut v = Vec::new();
            while !self.eat("}") {
                if self.peek().is_none() {
                    return Err(SourceError::syntax(self.line(), "expected `}`"));
                }
                v.push(self.stmt()?);
            }
            Ok(v)
        } else {
            Ok(vec![self.stmt()?])
        }
    }
    /// The end of a statement: `;`, or the end of the body (CuPy's operations often omit it).
    fn end(&mut self) -> Result<(), SourceError> {
        if self.peek().is_none() || self.is("}") {
            return Ok(());
        }
        self.expect(";")
    }
    fn stmt(&mut self) -> Result<Stmt, SourceError> {
        let line = self.line();
        if let Some(Tok::Ident(w)) = self.peek() {
            if OUTSIDE_KEYWORDS.contains(&w.as_str()) {
                return Err(SourceError::outside(line, format!("`{w}` is not in the CPU subset (no loops or jumps)")));
            }
            if w == "if" {
                self.k += 1;
                self.expect("(")?;
                let cond = self.expr()?;
                self.expect(")")?;
                let then = self.block_or_stmt()?;
                let els = if matches!(self.peek(), Some(Tok::Ident(e)) if e == "else") {
                    self.k += 1;
                    self.block_or_stmt()?
                } else {
                    Vec::new()
                };
                return Ok(Stmt::If { cond, then, els });
            }
        }
        if self.is("{") {
            // A nested block: its statements, flattened into an `if (true)`.
            let then = self.block_or_stmt()?;
            return Ok(Stmt::If { cond: E { e: Expr::Bool(true), line }, then, els: Vec::new() });
        }
        if self.is_type_word(0) && !matches!(self.peek_at(1), Some(Tok::Punct("("))) {
            let ty = self.ty()?;
            let mut decls = Vec::new();
            loop {
                let line = self.line();
                let name = self.ident()?;
                if self.is("[") {
                    return Err(SourceError::outside(line, "local arrays are not in the CPU subset"));
                }
                let init = if self.eat("=") { Some(self.expr()?) } else { None };
                decls.push(Stmt::Decl { ty: ty.clone(), name, init, line });
                if !self.eat(",") {
                    break;
                }
            }
            self.end()?;
            return Ok(if decls.len() == 1 {
                decls.pop().expect("one")
            } else {
                Stmt::If { cond: E { e: Expr::Bool(true), line }, then: decls, els: Vec::new() }
            });
        }
        if self.is("++") || self.is("--") || self.is("*") {
            return Err(SourceError::outside(line, "increments and pointer writes are not in the CPU subset"));
        }
        let name = self.ident()?;
        const OPS: [&str; 11] = ["=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="];
        if let Some(Tok::Punct(p)) = self.peek() {
            if let Some(op) = OPS.iter().find(|o| *o == p) {
                self.k += 1;
                let value = self.expr()?;
                self.end()?;
                return Ok(Stmt::Assign { name, op, value, line });
            }
            if ["++", "--", "[", ".", "->", "("].contains(p) {
                return Err(SourceError::outside(
                    line,
                    format!("a statement starting `{name}{p}` (increments, element writes, calls or member access) is not in the CPU subset"),
                ));
            }
        }
        if let Some(Tok::Ident(next)) = self.peek() {
            // `T x` where T is no type the CPU knows: a CUDA type, a struct or a template
            return Err(SourceError::outside(
                line,
                format!(
                    "`{name} {next}` declares a `{name}`, a type the CPU subset does not have (only C's arithmetic \
                     types and the signature's placeholders)"
                ),
            ));
        }
        Err(SourceError::syntax(line, format!("expected an assignment to `{name}`")))
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
        if self.is("*") || self.is("&") || self.is("++") || self.is("--") {
            return Err(SourceError::outside(line, "pointers and increments are not in the CPU subset"));
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
        if self.is("++") || self.is("--") || self.is(".") || self.is("->") {
            return Err(SourceError::outside(e.line, "increments and member access are not in the CPU subset"));
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
            Tok::Int(v, u, l) => {
                self.k += 1;
                Expr::Int(v, u, l)
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
                self.expect("(")?;
                let e = self.expr()?;
                self.expect(")")?;
                Expr::Cast(ty, Box::new(e))
            }
            Tok::Ident(_) if self.is_type_word(0) => {
                // A functional cast `type(e)`.
                let ty = self.ty()?;
                self.expect("(")?;
                let e = self.expr()?;
                self.expect(")")?;
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
                } else {
                    Expr::Name(w)
                }
            }
            t => return Err(SourceError::syntax(line, format!("expected an expression, found `{}`", show(&t)))),
        };
        Ok(E { e, line })
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
        Tok::Ident(s) => s.clone(),
        Tok::Int(v, _, _) => v.to_string(),
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
        let Stmt::Decl { init: Some(E { e: Expr::Bin("+", _, r), .. }), .. } = &s[0] else { panic!("{s:?}") };
        assert!(matches!(r.e, Expr::Bin("*", _, _)));
        assert!(matches!(&s[1], Stmt::If { els, .. } if els.len() == 1));
        let s = p("y = x > 0 ? x : (float)alpha * x").unwrap();
        let Stmt::Assign { value: E { e: Expr::Cond(_, _, b), .. }, .. } = &s[0] else { panic!() };
        assert!(matches!(&b.e, Expr::Bin("*", c, _) if matches!(c.e, Expr::Cast(..))));
        assert!(p("z = T(x) + static_cast<double>(y) + v[i - 1]").is_ok());
    }

    #[test]
    fn errors_carry_lines_and_say_outside() {
        let e = p("y = x;\ny = (x + ;").unwrap_err();
        assert_eq!((e.line, e.outside), (2, false), "{e:?}");
        let e = p("y = 0;\nfor (int k = 0; k < 3; ++k) y += x;").unwrap_err();
        assert_eq!((e.line, e.outside), (2, true));
        let e = p("y = *x;").unwrap_err();
        assert!(e.outside);
    }
}
