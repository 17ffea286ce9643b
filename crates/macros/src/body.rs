//! A function body (syn) → the code that builds it as `::xp::__rt::ast` data; every construct
//! outside the subset is reported with its span.
use crate::allowed::{
    self, outside, raw_only, GPU_CALLS, GPU_DIMS, GPU_PREFIXES, GPU_SCALARS, GPU_SHARED, MATH, METHODS,
    RAW_MUT_METHODS, SHARED_BYTES,
};
use crate::sig::{self, bad_type, Ty};
use crate::Errors;
use proc_macro2::{Span, TokenStream};
use quote::{quote, ToTokens};
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{BinOp, Expr, Lit, Pat, RangeLimits, Stmt, UnOp};

/// Where the constructor code lives, relative to the function: what a relative path of a
/// `#[xp::device]` callee is prefixed with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Home {
    /// in a child module of the function's (`use super::*;`): `cnd` → `super::cnd`
    Child,
    /// in the function's own module (a reduction): paths stay as written
    Same,
}

/// The translation of one function's body.
pub struct Lower<'e> {
    /// the function's name (a call of it is recursion)
    name: String,
    /// the generic parameters' names
    generics: Vec<String>,
    /// names that cannot be called (a reduction's other functions)
    siblings: Vec<String>,
    home: Home,
    errs: &'e mut Errors,
    /// `(name as called, fn pointer path)`
    callees: Vec<(String, TokenStream)>,
    /// the parameters and every local bound so far (in source order)
    bound: Vec<String>,
    /// a `#[xp::raw_kernel]`'s body: the GPU builtins, shared memory and `RawMut` methods allowed
    raw: bool,
    /// the `RawMut<T>` parameters
    raw_mut: Vec<String>,
    /// whether the body uses `sync_threads`, a shuffle or shared memory
    lockstep: bool,
}

/// `(line, column)` of a span's start: 1-based line, 0-based column (0, 0 where unknown).
pub fn pos(span: Span) -> (u32, u32) {
    let lc = span.start();
    (lc.line as u32, lc.column as u32)
}

fn some(t: TokenStream) -> TokenStream {
    quote!(::core::option::Option::Some(#t))
}

fn none() -> TokenStream {
    quote!(::core::option::Option::None)
}

fn bx(t: TokenStream) -> TokenStream {
    quote!(::xp::__rt::ast::bx(#t))
}

fn strip(e: &Expr) -> &Expr {
    match e {
        Expr::Paren(p) => strip(&p.expr),
        Expr::Group(g) => strip(&g.expr),
        e => e,
    }
}

fn path_string(p: &syn::Path) -> String {
    let segs: Vec<String> = p.segments.iter().map(|s| s.ident.to_string()).collect();
    format!("{}{}", if p.leading_colon.is_some() { "::" } else { "" }, segs.join("::"))
}

fn bin_op(op: &BinOp) -> Option<(&'static str, bool)> {
    Some(match op {
        BinOp::Add(_) => ("Add", false),
        BinOp::Sub(_) => ("Sub", false),
        BinOp::Mul(_) => ("Mul", false),
        BinOp::Div(_) => ("Div", false),
        BinOp::Rem(_) => ("Rem", false),
        BinOp::And(_) => ("And", false),
        BinOp::Or(_) => ("Or", false),
        BinOp::BitXor(_) => ("BitXor", false),
        BinOp::BitAnd(_) => ("BitAnd", false),
        BinOp::BitOr(_) => ("BitOr", false),
        BinOp::Shl(_) => ("Shl", false),
        BinOp::Shr(_) => ("Shr", false),
        BinOp::Eq(_) => ("Eq", false),
        BinOp::Lt(_) => ("Lt", false),
        BinOp::Le(_) => ("Le", false),
        BinOp::Ne(_) => ("Ne", false),
        BinOp::Ge(_) => ("Ge", false),
        BinOp::Gt(_) => ("Gt", false),
        BinOp::AddAssign(_) => ("Add", true),
        BinOp::SubAssign(_) => ("Sub", true),
        BinOp::MulAssign(_) => ("Mul", true),
        BinOp::DivAssign(_) => ("Div", true),
        BinOp::RemAssign(_) => ("Rem", true),
        BinOp::BitXorAssign(_) => ("BitXor", true),
        BinOp::BitAndAssign(_) => ("BitAnd", true),
        BinOp::BitOrAssign(_) => ("BitOr", true),
        BinOp::ShlAssign(_) => ("Shl", true),
        BinOp::ShrAssign(_) => ("Shr", true),
        _ => return None,
    })
}

fn op_tokens(name: &str) -> TokenStream {
    let i = syn::Ident::new(name, Span::call_site());
    quote!(::xp::__rt::ast::BinOp::#i)
}

/// An integer literal's value (a pattern's, which may carry a `-`).
fn int_value(e: &Expr) -> Option<i128> {
    match strip(e) {
        Expr::Lit(l) => match &l.lit {
            Lit::Int(i) => i.base10_parse::<i128>().ok(),
            _ => None,
        },
        Expr::Unary(u) if matches!(u.op, UnOp::Neg(_)) => int_value(&u.expr).and_then(|v| v.checked_neg()),
        _ => None,
    }
}

/// The size in bytes of a primitive.
fn prim_size(rust: &str) -> usize {
    match rust {
        "bool" | "i8" | "u8" => 1,
        "i16" | "u16" => 2,
        "i32" | "u32" | "f32" => 4,
        _ => 8,
    }
}

/// The GPU function a call names (`thread_idx`, `gpu::sync_threads`,
/// `xp::kernel::gpu::shared::<f32, 256>`), if it does.
fn gpu_fn(c: &syn::ExprCall) -> Option<&'static str> {
    let Expr::Path(p) = strip(&c.func) else { return None };
    if p.qself.is_some() {
        return None;
    }
    let segs: Vec<String> = p.path.segments.iter().map(|s| s.ident.to_string()).collect();
    let (last, prefix) = segs.split_last()?;
    let prefix_ok = GPU_PREFIXES.iter().any(|q| {
        q.len() == prefix.len()
            && q.iter().zip(prefix).all(|(a, b)| a == b)
            && (p.path.leading_colon.is_none() || q.first() == Some(&"xp"))
    });
    if !prefix_ok {
        return None;
    }
    GPU_DIMS
        .iter()
        .chain(GPU_SCALARS)
        .chain(GPU_CALLS.iter().map(|(n, _)| n))
        .chain([&GPU_SHARED])
        .find(|n| **n == last.as_str())
        .copied()
}

impl<'e> Lower<'e> {
    /// A translation of the body of `name`, with these generic parameters.
    pub fn new(name: &str, generics: Vec<String>, home: Home, errs: &'e mut Errors) -> Self {
        Lower {
            name: name.to_string(),
            generics,
            siblings: Vec::new(),
            home,
            errs,
            callees: Vec::new(),
            bound: Vec::new(),
            raw: false,
            raw_mut: Vec::new(),
            lockstep: false,
        }
    }

    /// A `#[xp::raw_kernel]`'s body, with these `RawMut<T>` parameters.
    pub fn with_raw(mut self, raw_mut: Vec<String>) -> Self {
        self.raw = true;
        self.raw_mut = raw_mut;
        self
    }

    /// Whether the body uses `sync_threads()`, a shuffle or shared memory (its threads must run in
    /// lockstep).
    pub fn lockstep(&self) -> bool {
        self.lockstep
    }

    /// The function's parameters (the variables bound at the start).
    pub fn with_params(mut self, params: Vec<String>) -> Self {
        self.bound = params;
        self
    }

    /// Names that may not be called (with the reason in the message).
    pub fn with_siblings(mut self, siblings: Vec<String>) -> Self {
        self.siblings = siblings;
        self
    }

    /// The `#[xp::device]` functions called: `("name as called", path::__xp_ast as fn() -> ..)`.
    pub fn callees(&self) -> TokenStream {
        let c = self.callees.iter().map(|(n, p)| quote!((#n, #p as fn() -> &'static ::xp::__rt::ast::Func)));
        quote!(::std::vec![#(#c),*])
    }

    fn err(&mut self, node: impl ToTokens, msg: impl std::fmt::Display) -> TokenStream {
        self.errs.push(node, msg);
        TokenStream::new()
    }

    fn outside(&mut self, node: impl ToTokens, construct: &str) -> TokenStream {
        self.err(node, outside(construct))
    }

    fn is_type_name(&self, s: &str) -> bool {
        self.generics.iter().any(|g| g == s) || sig::prim(s).is_some()
    }

    fn type_of_name(&self, s: &str) -> Option<Ty> {
        if self.generics.iter().any(|g| g == s) {
            Some(Ty::Gen(s.to_string()))
        } else {
            sig::prim(s).map(Ty::Prim)
        }
    }

    fn ty(&mut self, ty: &syn::Type) -> TokenStream {
        match sig::scalar(ty, &self.generics) {
            Some(t) => t.ast(),
            None => self.err(ty, bad_type(ty)),
        }
    }

    /// `::xp::__rt::ast::Block { .. }`
    pub fn block(&mut self, b: &syn::Block) -> TokenStream {
        let mut stmts = Vec::new();
        let mut tail = none();
        for (k, s) in b.stmts.iter().enumerate() {
            match s {
                Stmt::Expr(e, None) if k + 1 == b.stmts.len() => tail = some(bx(self.expr(e))),
                s => stmts.push(self.stmt(s)),
            }
        }
        quote!(::xp::__rt::ast::Block { stmts: ::std::vec![#(#stmts),*], tail: #tail })
    }

    fn stmt(&mut self, s: &Stmt) -> TokenStream {
        match s {
            Stmt::Local(l) => self.local(l),
            Stmt::Expr(e, _) => {
                let e = self.expr(e);
                quote!(::xp::__rt::ast::Stmt::Expr(#e))
            }
            Stmt::Item(i) => {
                let what = match i {
                    syn::Item::Fn(_) => "a nested `fn`: make it a #[xp::device] function",
                    syn::Item::Use(_) => "a `use` item in a body: put it outside the function",
                    syn::Item::Struct(_) | syn::Item::Enum(_) | syn::Item::Union(_) => "a type definition",
                    syn::Item::Const(_) | syn::Item::Static(_) => "a `const` or `static` item",
                    _ => "an item in a body",
                };
                self.outside(i, what)
            }
            Stmt::Macro(m) => {
                let what = format!("the macro `{}!`", path_string(&m.mac.path));
                self.outside(m, &what)
            }
        }
    }

    fn local(&mut self, l: &syn::Local) -> TokenStream {
        let (pat, ty) = match &l.pat {
            Pat::Type(pt) => (&*pt.pat, Some(&*pt.ty)),
            p => (p, None),
        };
        if let Some((e, b)) = l.init.as_ref().and_then(|i| i.diverge.as_ref()) {
            self.bind_all(pat);
            return self.outside(quote!(#e #b), "`let ... else`");
        }
        let init = l.init.as_ref().map(|i| strip(&i.expr));
        let name = match pat {
            Pat::Ident(p) if p.by_ref.is_none() && p.subpat.is_none() => p.ident.unraw().to_string(),
            p => {
                self.outside(p, "this `let` pattern: a `let` binds one variable, `let [mut] x`");
                init.map(|e| self.expr(e));
                self.bind_all(p);
                return TokenStream::new();
            }
        };
        // the initialiser is read before the name is bound (`let x = x + 1.0;` reads the outer `x`)
        let stmt = match init {
            Some(Expr::Repeat(r)) => self.local_array(&name, ty, r),
            Some(Expr::Call(c)) if gpu_fn(c) == Some(GPU_SHARED) => self.local_shared(&name, ty, c),
            init => self.local_value(&name, ty, init),
        };
        self.bound.push(name);
        stmt
    }

    /// `let [mut] name[: ty] [= init];`
    fn local_value(&mut self, name: &str, ty: Option<&syn::Type>, init: Option<&Expr>) -> TokenStream {
        let ty = match ty {
            Some(syn::Type::Array(a)) => {
                return self
                    .err(a, "a local array is initialised by a repeat expression: `let a: [f32; 4] = [0.0; 4];`")
            }
            Some(t) => some(self.ty(t)),
            None => none(),
        };
        let init = match init {
            Some(e) => some(self.expr(e)),
            None => none(),
        };
        quote!(::xp::__rt::ast::Stmt::Let { name: #name, ty: #ty, init: #init })
    }

    /// `let [mut] name[: [ty; N]] = [elem; N];`
    fn local_array(&mut self, name: &str, ty: Option<&syn::Type>, r: &syn::ExprRepeat) -> TokenStream {
        let len = match strip(&r.len) {
            Expr::Lit(syn::ExprLit { lit: Lit::Int(i), .. }) => i.base10_parse::<usize>().ok(),
            _ => None,
        };
        let Some(len) = len else {
            return self.err(&r.len, "the length of a local array is an integer literal: `let a = [v; 4];`");
        };
        let elem_ty = match ty {
            None => none(),
            Some(syn::Type::Array(a)) => some(self.ty(&a.elem)),
            Some(t) => return self.err(t, "a local array's type is `[T; N]`"),
        };
        let elem = self.expr(&r.expr);
        quote!(::xp::__rt::ast::Stmt::Array { name: #name, ty: #elem_ty, elem: #elem, len: #len })
    }

    /// `let [mut] name = shared::<ty, len>();` (a raw kernel's)
    fn local_shared(&mut self, name: &str, ty: Option<&syn::Type>, c: &syn::ExprCall) -> TokenStream {
        if !self.raw {
            return self.err(c, raw_only("`shared::<T, N>()`"));
        }
        self.lockstep = true;
        const FORM: &str = "a shared array is `shared::<T, N>()`: its element type (a primitive or a generic parameter) and its length (an integer literal), `let s = shared::<f32, 256>();`";
        if let Some(t) = ty {
            return self.err(t, "a shared array's type is in its turbofish: `let s = shared::<f32, 256>();`");
        }
        if !c.args.is_empty() {
            return self.err(&c.args, "`shared::<T, N>()` takes no arguments");
        }
        let Expr::Path(p) = strip(&c.func) else { unreachable!("a path") };
        let segs = &p.path.segments;
        let last = segs.last().expect("a segment");
        if segs.iter().take(segs.len() - 1).any(|s| !s.arguments.is_none()) {
            return self.err(p, FORM);
        }
        let syn::PathArguments::AngleBracketed(a) = &last.arguments else {
            return self.err(p, FORM);
        };
        let args: Vec<&syn::GenericArgument> = a.args.iter().collect();
        let [syn::GenericArgument::Type(elem), len] = args[..] else {
            return self.err(a, FORM);
        };
        let Some(elem_ty) = sig::scalar(elem, &self.generics) else {
            return self.err(elem, bad_type(elem));
        };
        let lit = match len {
            syn::GenericArgument::Const(e) => match strip(e) {
                Expr::Lit(syn::ExprLit { lit: Lit::Int(i), .. }) => Some(i),
                Expr::Block(b) => match b.block.stmts.as_slice() {
                    [Stmt::Expr(Expr::Lit(syn::ExprLit { lit: Lit::Int(i), .. }), None)] => Some(i),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        };
        let Some(lit) = lit else {
            return self.err(len, "the length of a shared array is an integer literal: `shared::<f32, 256>()`");
        };
        // a generic parameter's widest type is 8 bytes (`f64`, `i64`, `u64`)
        let (size, what) = match &elem_ty {
            Ty::Prim(p) => (prim_size(p.rust), format!("`{}`", p.rust)),
            Ty::Gen(g) => (8, format!("`{g}` (up to 8 bytes)")),
        };
        let max = SHARED_BYTES / size;
        let len = match lit.base10_parse::<usize>() {
            Ok(n) if (1..=max).contains(&n) => n,
            _ => {
                return self.err(
                    len,
                    format!("the length of a shared array of {what} is 1 ..= {max}: a block has {SHARED_BYTES} bytes of shared memory"),
                )
            }
        };
        let ty = elem_ty.ast();
        quote!(::xp::__rt::ast::Stmt::Shared { name: #name, ty: #ty, len: #len })
    }

    /// Binds every name of a pattern outside the subset (reported), so that its uses are not
    /// reported again.
    fn bind_all(&mut self, p: &Pat) {
        match p {
            Pat::Ident(i) => {
                self.bound.push(i.ident.unraw().to_string());
                if let Some((_, sub)) = &i.subpat {
                    self.bind_all(sub);
                }
            }
            Pat::Tuple(t) => t.elems.iter().for_each(|p| self.bind_all(p)),
            Pat::TupleStruct(t) => t.elems.iter().for_each(|p| self.bind_all(p)),
            Pat::Slice(t) => t.elems.iter().for_each(|p| self.bind_all(p)),
            Pat::Or(t) => t.cases.iter().for_each(|p| self.bind_all(p)),
            Pat::Struct(t) => t.fields.iter().for_each(|f| self.bind_all(&f.pat)),
            Pat::Paren(t) => self.bind_all(&t.pat),
            Pat::Reference(t) => self.bind_all(&t.pat),
            Pat::Type(t) => self.bind_all(&t.pat),
            _ => {}
        }
    }

    fn at(&self, span: Span, kind: TokenStream) -> TokenStream {
        let (l, c) = pos(span);
        quote!(::xp::__rt::ast::Expr::at(#kind, #l, #c))
    }

    fn exprs<'a>(&mut self, es: impl IntoIterator<Item = &'a Expr>) -> TokenStream {
        let v: Vec<TokenStream> = es.into_iter().map(|e| self.expr(e)).collect();
        quote!(::std::vec![#(#v),*])
    }

    /// `::xp::__rt::ast::Expr::at(kind, line, col)`
    pub fn expr(&mut self, e: &Expr) -> TokenStream {
        let kind = match e {
            Expr::Paren(p) => return self.expr(&p.expr),
            Expr::Group(g) => return self.expr(&g.expr),
            Expr::Lit(l) => return self.lit(&l.lit),
            Expr::Path(p) => self.path(p),
            Expr::Unary(u) => {
                let op = match u.op {
                    UnOp::Neg(_) => quote!(::xp::__rt::ast::UnOp::Neg),
                    UnOp::Not(_) => quote!(::xp::__rt::ast::UnOp::Not),
                    _ => return self.outside(u.op, "the dereference `*x`"),
                };
                let x = bx(self.expr(&u.expr));
                quote!(::xp::__rt::ast::E::Un(#op, #x))
            }
            Expr::Binary(b) => match bin_op(&b.op) {
                Some((op, assign)) => {
                    let op = op_tokens(op);
                    if assign {
                        let (l, r) = (bx(self.place(&b.left)), bx(self.expr(&b.right)));
                        quote!(::xp::__rt::ast::E::Assign(::core::option::Option::Some(#op), #l, #r))
                    } else {
                        let (l, r) = (bx(self.expr(&b.left)), bx(self.expr(&b.right)));
                        quote!(::xp::__rt::ast::E::Bin(#op, #l, #r))
                    }
                }
                None => return self.outside(b.op, "this operator"),
            },
            Expr::Assign(a) => {
                let (l, r) = (bx(self.place(&a.left)), bx(self.expr(&a.right)));
                quote!(::xp::__rt::ast::E::Assign(::core::option::Option::None, #l, #r))
            }
            Expr::Cast(c) => {
                let x = bx(self.expr(&c.expr));
                let ty = match sig::scalar(&c.ty, &self.generics) {
                    Some(t) => t.ast(),
                    None => {
                        let ty = &c.ty;
                        return self.err(
                            quote!(#ty),
                            format!("`as {}`: a cast is to a primitive (`f32`, `f64`, `i8` .. `u64`, `bool`, `usize`, `isize`) or a generic parameter", quote!(#ty)),
                        );
                    }
                };
                quote!(::xp::__rt::ast::E::Cast(#x, #ty))
            }
            Expr::If(i) => self.if_(i),
            Expr::Block(b) => {
                if let Some(l) = &b.label {
                    self.outside(l, "a labelled block");
                }
                let b = self.block(&b.block);
                quote!(::xp::__rt::ast::E::Block(#b))
            }
            Expr::Match(m) => self.match_(m),
            Expr::ForLoop(f) => self.for_(f),
            Expr::While(w) => {
                if let Some(l) = &w.label {
                    self.outside(l, "a labelled loop");
                }
                if let Expr::Let(l) = strip(&w.cond) {
                    return self.outside(quote!(#l), "`while let`");
                }
                let (c, b) = (bx(self.expr(&w.cond)), self.block(&w.body));
                quote!(::xp::__rt::ast::E::While(#c, #b))
            }
            Expr::Loop(l) => {
                if let Some(lb) = &l.label {
                    self.outside(lb, "a labelled loop");
                }
                let b = self.block(&l.body);
                quote!(::xp::__rt::ast::E::Loop(#b))
            }
            Expr::Break(b) => {
                if let Some(l) = &b.label {
                    return self.outside(quote!(#b), &format!("the labelled `break {l}`"));
                }
                if let Some(v) = &b.expr {
                    return self.outside(quote!(#b), &format!("`break` with a value `{}`", quote!(#v)));
                }
                quote!(::xp::__rt::ast::E::Break)
            }
            Expr::Continue(c) => {
                if let Some(l) = &c.label {
                    return self.outside(quote!(#c), &format!("the labelled `continue {l}`"));
                }
                quote!(::xp::__rt::ast::E::Continue)
            }
            Expr::Return(r) => {
                let v = match &r.expr {
                    Some(v) => some(bx(self.expr(v))),
                    None => none(),
                };
                quote!(::xp::__rt::ast::E::Return(#v))
            }
            Expr::MethodCall(m) => self.method(m),
            Expr::Call(c) => self.call(c),
            Expr::Tuple(t) => {
                let v = self.exprs(&t.elems);
                quote!(::xp::__rt::ast::E::Tuple(#v))
            }
            Expr::Index(i) => {
                let (a, j) = (bx(self.expr(&i.expr)), bx(self.expr(&i.index)));
                quote!(::xp::__rt::ast::E::Index(#a, #j))
            }
            Expr::Field(f) => match strip(&f.base) {
                Expr::Call(c) if gpu_fn(c).is_some_and(|g| GPU_DIMS.contains(&g)) => self.dim_field(f, c),
                _ => return self.other(e),
            },
            other => return self.other(other),
        };
        self.at(e.span(), kind)
    }

    /// The constructs outside the subset.
    fn other(&mut self, e: &Expr) -> TokenStream {
        let what = match e {
            Expr::Closure(_) => "a closure".to_string(),
            Expr::Reference(_) => "a reference `&x`".to_string(),
            Expr::RawAddr(_) => "a raw pointer `&raw`".to_string(),
            Expr::Struct(_) => "a struct literal".to_string(),
            Expr::Field(_) => "a field access `a.b`".to_string(),
            Expr::Range(_) => "a range outside `for`".to_string(),
            Expr::Try(_) => "the `?` operator".to_string(),
            Expr::Array(_) => "an array literal `[a, b]`: a local array is `let a = [v; N];`".to_string(),
            Expr::Repeat(_) => "an array `[v; N]` outside `let a = [v; N];`".to_string(),
            Expr::Unsafe(_) => "an `unsafe` block".to_string(),
            Expr::Async(_) => "an `async` block".to_string(),
            Expr::Await(_) => "`.await`".to_string(),
            Expr::Const(_) => "a `const` block".to_string(),
            Expr::Let(_) => "`let` in an expression (`if let`, `while let`, let chains)".to_string(),
            Expr::Macro(m) => format!("the macro `{}!`", path_string(&m.mac.path)),
            Expr::TryBlock(_) => "a `try` block".to_string(),
            Expr::Yield(_) => "`yield`".to_string(),
            Expr::Infer(_) => "`_` as an expression".to_string(),
            _ => "this expression".to_string(),
        };
        self.outside(e, &what)
    }

    fn lit(&mut self, l: &Lit) -> TokenStream {
        let span = l.span();
        match l {
            Lit::Int(i) if matches!(i.suffix(), "f32" | "f64") => {
                // `1f32`: a float literal
                let (digits, suffix) =
                    (format!("{}.0", i.base10_digits()), Ty::Prim(sig::prim(i.suffix()).expect("a primitive")).ast());
                self.float(span, digits, some(suffix))
            }
            Lit::Int(i) => {
                let suffix = match i.suffix() {
                    "" => none(),
                    s => match sig::prim(s) {
                        Some(p) if p.rust != "bool" => some(Ty::Prim(p).ast()),
                        _ => {
                            return self.err(
                                l,
                                format!(
                                "the literal suffix `{s}`: suffixes are i8 .. i64, u8 .. u64, usize, isize, f32, f64"
                            ),
                            )
                        }
                    },
                };
                let digits = i.base10_digits();
                let (neg, digits) = match digits.strip_prefix('-') {
                    Some(d) => (true, d),
                    None => (false, digits),
                };
                let Ok(v) = digits.parse::<u128>() else {
                    return self.err(l, "this integer literal does not fit 128 bits");
                };
                let int = self.at(span, quote!(::xp::__rt::ast::E::Int(#v, #suffix)));
                if neg {
                    let x = bx(int);
                    self.at(span, quote!(::xp::__rt::ast::E::Un(::xp::__rt::ast::UnOp::Neg, #x)))
                } else {
                    int
                }
            }
            Lit::Float(f) => {
                let suffix = match f.suffix() {
                    "" => none(),
                    s @ ("f32" | "f64") => some(Ty::Prim(sig::prim(s).expect("a primitive")).ast()),
                    s => {
                        return self
                            .err(l, format!("the literal suffix `{s}`: a float literal is `f32`, `f64` or unsuffixed"))
                    }
                };
                let mut digits = f.base10_digits().to_string();
                if !digits.contains(['.', 'e', 'E']) {
                    digits.push_str(".0");
                }
                self.float(span, digits, suffix)
            }
            Lit::Bool(b) => {
                let v = b.value;
                self.at(span, quote!(::xp::__rt::ast::E::Bool(#v)))
            }
            Lit::Str(_) => self.outside(l, "a string literal"),
            Lit::Char(_) => self.outside(l, "a char literal"),
            Lit::Byte(_) | Lit::ByteStr(_) | Lit::CStr(_) => self.outside(l, "a byte or C string literal"),
            _ => self.outside(l, "this literal"),
        }
    }

    /// `E::Float` (under a `Neg` for digits with a `-`, as a macro_rules literal may have).
    fn float(&self, span: Span, digits: String, suffix: TokenStream) -> TokenStream {
        let (neg, digits) = match digits.strip_prefix('-') {
            Some(d) => (true, d.to_string()),
            None => (false, digits),
        };
        let x = self.at(span, quote!(::xp::__rt::ast::E::Float(#digits, #suffix)));
        if neg {
            let x = bx(x);
            self.at(span, quote!(::xp::__rt::ast::E::Un(::xp::__rt::ast::UnOp::Neg, #x)))
        } else {
            x
        }
    }

    fn turbofish(&mut self, p: &syn::Path) -> bool {
        let mut found = false;
        for s in &p.segments {
            if !s.arguments.is_none() {
                let a = &s.arguments;
                self.outside(quote!(#a), "a turbofish `f::<T>`: rustc infers the generic arguments");
                found = true;
            }
        }
        found
    }

    fn path(&mut self, p: &syn::ExprPath) -> TokenStream {
        if p.qself.is_some() {
            return self.outside(p, "a qualified path `<T as Trait>::X`");
        }
        if self.turbofish(&p.path) {
            return TokenStream::new();
        }
        let segs: Vec<String> = p.path.segments.iter().map(|s| s.ident.to_string()).collect();
        let upper = |s: &str| s.chars().next().is_some_and(|c| c.is_ascii_uppercase());
        match segs.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
            [_] if p.path.leading_colon.is_none() => {
                let v = p.path.segments[0].ident.unraw().to_string();
                if !self.bound.contains(&v) {
                    return self.err(
                        p,
                        format!("`{v}` is not a parameter or a local variable of the kernel: a kernel reads no constants, statics or values from outside; write the value (or `T::lit(v)`), or pass it as a parameter"),
                    );
                }
                quote!(::xp::__rt::ast::E::Var(#v))
            }
            [t, name] if p.path.leading_colon.is_none() && self.is_type_name(t) && upper(name) => {
                let ty = self.type_of_name(t).expect("a type").ast();
                quote!(::xp::__rt::ast::E::Const(#ty, #name))
            }
            [pre @ .., t @ ("f32" | "f64"), "consts", name]
                if matches!(pre, [] | ["std"] | ["core"]) && (p.path.leading_colon.is_none() || !pre.is_empty()) =>
            {
                let ty = Ty::Prim(sig::prim(t).expect("a primitive")).ast();
                quote!(::xp::__rt::ast::E::Const(#ty, #name))
            }
            _ => self.err(
                p,
                format!(
                    "the path `{}` is outside the kernel subset: a value is a variable, an associated constant `T::MAX` / `f32::EPSILON`, or `f64::consts::PI`",
                    path_string(&p.path)
                ),
            ),
        }
    }

    /// The left side of an assignment: a variable or `a[j]`.
    fn place(&mut self, e: &Expr) -> TokenStream {
        let var = |e: &Expr| matches!(strip(e), Expr::Path(p) if p.qself.is_none() && p.path.get_ident().is_some());
        match strip(e) {
            x if var(x) => self.expr(x),
            Expr::Index(i) if var(&i.expr) => self.expr(strip(e)),
            x => self.err(x, "an assignment is to a variable or an array element `a[j]`"),
        }
    }

    fn if_(&mut self, i: &syn::ExprIf) -> TokenStream {
        if let Expr::Let(l) = strip(&i.cond) {
            return self.outside(quote!(#l), "`if let`");
        }
        let c = bx(self.expr(&i.cond));
        let then = self.block(&i.then_branch);
        let els = match &i.else_branch {
            Some((_, e)) => some(bx(self.expr(e))),
            None => none(),
        };
        quote!(::xp::__rt::ast::E::If(#c, #then, #els))
    }

    fn match_(&mut self, m: &syn::ExprMatch) -> TokenStream {
        let x = bx(self.expr(&m.expr));
        let mut arms = Vec::new();
        for a in &m.arms {
            let mut pats = Vec::new();
            self.pat(&a.pat, &mut pats);
            let guard = match &a.guard {
                Some((_, g)) => some(self.expr(g)),
                None => none(),
            };
            let body = self.expr(&a.body);
            arms.push(quote!(::xp::__rt::ast::Arm { pats: ::std::vec![#(#pats),*], guard: #guard, body: #body }));
        }
        quote!(::xp::__rt::ast::E::Match(#x, ::std::vec![#(#arms),*]))
    }

    fn pat(&mut self, p: &Pat, out: &mut Vec<TokenStream>) {
        const PATS: &str = ": patterns are integer and bool literals, ranges `a..=b`, `_` and `|`";
        match p {
            Pat::Lit(l) => match &l.lit {
                Lit::Int(i) => match i.base10_parse::<i128>() {
                    Ok(v) => out.push(quote!(::xp::__rt::ast::Pat::Lit(#v))),
                    Err(_) => {
                        self.err(l, "this integer literal does not fit 128 bits");
                    }
                },
                Lit::Bool(b) => {
                    let v = i128::from(b.value);
                    out.push(quote!(::xp::__rt::ast::Pat::Lit(#v)));
                }
                Lit::Float(_) => {
                    self.outside(l, &format!("a float literal pattern{PATS}"));
                }
                _ => {
                    self.outside(l, &format!("this literal pattern{PATS}"));
                }
            },
            Pat::Range(r) => {
                let mut bound = |b: &Option<Box<Expr>>| match b {
                    None => Some(none()),
                    Some(e) => match int_value(e) {
                        Some(v) => Some(some(quote!(#v))),
                        None => {
                            self.err(e, "a range pattern's end is an integer literal");
                            None
                        }
                    },
                };
                let (lo, hi) = (bound(&r.start), bound(&r.end));
                let incl = matches!(r.limits, RangeLimits::Closed(_));
                if let (Some(lo), Some(hi)) = (lo, hi) {
                    out.push(quote!(::xp::__rt::ast::Pat::Range(#lo, #hi, #incl)));
                }
            }
            Pat::Wild(_) => out.push(quote!(::xp::__rt::ast::Pat::Wild)),
            Pat::Or(o) => o.cases.iter().for_each(|c| self.pat(c, out)),
            Pat::Paren(q) => self.pat(&q.pat, out),
            Pat::Ident(i) => {
                self.outside(p, &format!("the binding pattern `{}`{PATS}", i.ident));
                self.bind_all(p);
            }
            p => {
                self.outside(p, &format!("this pattern{PATS}"));
            }
        }
    }

    fn for_(&mut self, f: &syn::ExprForLoop) -> TokenStream {
        if let Some(l) = &f.label {
            self.outside(l, "a labelled loop");
        }
        let var = match &*f.pat {
            Pat::Ident(p) if p.by_ref.is_none() && p.subpat.is_none() => p.ident.unraw().to_string(),
            Pat::Wild(_) => "_".to_string(),
            p => {
                self.bind_all(p);
                return self.err(p, "the variable of a `for` is a name or `_`");
            }
        };
        self.bound.push(var.clone());
        const RANGE: &str = "`for` runs over a range: `a..b`, `a..=b`, `(a..b).rev()` or `(a..b).step_by(s)`";
        let (range, rev, step) = match strip(&f.expr) {
            Expr::MethodCall(m) if m.turbofish.is_none() && m.method == "rev" && m.args.is_empty() => {
                (strip(&m.receiver), true, None)
            }
            Expr::MethodCall(m) if m.turbofish.is_none() && m.method == "step_by" && m.args.len() == 1 => {
                (strip(&m.receiver), false, Some(&m.args[0]))
            }
            e => (e, false, None),
        };
        let Expr::Range(syn::ExprRange { start: Some(lo), end: Some(hi), limits, .. }) = range else {
            return self.err(&f.expr, RANGE);
        };
        let incl = matches!(limits, RangeLimits::Closed(_));
        let (lo, hi) = (bx(self.expr(lo)), bx(self.expr(hi)));
        let step = match step {
            Some(s) => some(bx(self.expr(s))),
            None => none(),
        };
        let body = self.block(&f.body);
        quote!(::xp::__rt::ast::E::For { var: #var, lo: #lo, hi: #hi, inclusive: #incl, rev: #rev, step: #step, body: #body })
    }

    fn method(&mut self, m: &syn::ExprMethodCall) -> TokenStream {
        let name = m.method.to_string();
        if let Some(t) = &m.turbofish {
            return self.outside(t, "a turbofish on a method `x.m::<T>()`");
        }
        if let Some(&(_, arity)) = RAW_MUT_METHODS.iter().find(|(n, _)| *n == name) {
            return self.raw_mut_method(m, &name, arity);
        }
        if !METHODS.contains(&name.as_str()) {
            let hint = match name.split_once('_') {
                Some(("checked" | "saturating" | "overflowing", op)) => {
                    format!(
                        " (a kernel's integer arithmetic wraps on the GPU: write `wrapping_{op}` or test the operands)"
                    )
                }
                _ => String::new(),
            };
            let mut methods = allowed::list(METHODS);
            if self.raw {
                for (n, _) in RAW_MUT_METHODS {
                    methods += &format!(", {n}");
                }
            }
            return self.err(
                &m.method,
                format!("the method `{name}` is outside the kernel subset{hint}; the methods are: {methods}"),
            );
        }
        let recv = bx(self.expr(&m.receiver));
        let args = self.exprs(&m.args);
        quote!(::xp::__rt::ast::E::Method(#recv, #name, #args))
    }

    fn call(&mut self, c: &syn::ExprCall) -> TokenStream {
        let Expr::Path(p) = strip(&c.func) else {
            return self.outside(&c.func, "a call of an expression: a kernel calls functions by path");
        };
        if p.qself.is_some() {
            return self.outside(p, "a qualified path `<T as Trait>::f`");
        }
        if let Some(g) = gpu_fn(c) {
            return self.gpu_call(c, g);
        }
        if self.turbofish(&p.path) {
            return TokenStream::new();
        }
        let path = &p.path;
        let segs: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        let last = segs.last().cloned().unwrap_or_default();
        if segs.len() == 2 && path.leading_colon.is_none() && self.is_type_name(&segs[0]) {
            let ty = self.type_of_name(&segs[0]).expect("a type");
            if last == "lit" {
                let [x] = c.args.iter().collect::<Vec<_>>()[..] else {
                    return self.err(c, "`T::lit(v)` takes one argument");
                };
                let (ty, x) = (ty.ast(), bx(self.expr(x)));
                return quote!(::xp::__rt::ast::E::Lit(#ty, #x));
            }
            if METHODS.contains(&last.as_str()) && !c.args.is_empty() {
                let recv = bx(self.expr(&c.args[0]));
                let args = self.exprs(c.args.iter().skip(1));
                return quote!(::xp::__rt::ast::E::Method(#recv, #last, #args));
            }
            return self.err(
                p,
                format!(
                    "`{}` is outside the kernel subset: the associated functions are `T::lit(v)` and the methods ({})",
                    path_string(path),
                    allowed::list(METHODS)
                ),
            );
        }
        if last.starts_with(|c: char| c.is_ascii_uppercase()) {
            return self
                .outside(p, &format!("the constructor `{}(..)`: a kernel has no structs or enums", path_string(path)));
        }
        let args = self.exprs(&c.args);
        if segs.len() >= 2 && segs[segs.len() - 2] == "math" {
            if !MATH.contains(&last.as_str()) {
                return self.err(
                    p,
                    format!("`{}` is not a kernel math function; they are: {}", path_string(path), allowed::list(MATH)),
                );
            }
            return quote!(::xp::__rt::ast::E::Call(#last, #args));
        }
        let own = path.leading_colon.is_none()
            && (segs.len() == 1 || (segs.len() == 2 && segs[0] == "self"))
            && last == self.name;
        if own {
            return self.err(
                p,
                format!(
                    "`{}` calls itself: a kernel cannot recurse (GPU code has no recursion); write a loop",
                    self.name
                ),
            );
        }
        if segs.len() == 1 && self.siblings.contains(&last) {
            return self.err(
                p,
                format!("a reduction's `{last}` is not callable: move the shared code into a #[xp::device] function"),
            );
        }
        let name = path_string(path);
        if !self.callees.iter().any(|(n, _)| *n == name) {
            let fp = self.callee_path(path);
            self.callees.push((name.clone(), fp));
        }
        quote!(::xp::__rt::ast::E::Call(#name, #args))
    }

    /// `out.set(j, v)`, `out.atomic_add(j, v)` ..: a raw kernel's `RawMut<T>` parameter written.
    fn raw_mut_method(&mut self, m: &syn::ExprMethodCall, name: &str, arity: usize) -> TokenStream {
        if !self.raw {
            return self.err(&m.method, raw_only(&format!("`.{name}()` (on a `RawMut<T>` parameter)")));
        }
        let form = if arity == 3 { format!("`out.{name}(j, compare, v)`") } else { format!("`out.{name}(j, v)`") };
        let recv_ok = matches!(strip(&m.receiver), Expr::Path(p) if p.qself.is_none()
            && p.path.get_ident().is_some_and(|i| self.raw_mut.contains(&i.unraw().to_string())));
        if !recv_ok {
            return self.err(&m.receiver, format!("`.{name}()` writes a `RawMut<T>` parameter: {form}"));
        }
        if m.args.len() != arity {
            return self.err(m, format!("{form} takes {arity} arguments"));
        }
        let recv = bx(self.expr(&m.receiver));
        let args = self.exprs(&m.args);
        quote!(::xp::__rt::ast::E::Method(#recv, #name, #args))
    }

    /// `thread_idx().x` ..: a raw kernel's `Dim3` builtin's field.
    fn dim_field(&mut self, f: &syn::ExprField, c: &syn::ExprCall) -> TokenStream {
        let g = gpu_fn(c).expect("a builtin");
        if !self.raw {
            return self.err(c, raw_only(&format!("`{g}()`")));
        }
        if !self.gpu_form(c, g, 0) {
            return TokenStream::new();
        }
        let axis: u8 = match &f.member {
            syn::Member::Named(i) if i == "x" => 0,
            syn::Member::Named(i) if i == "y" => 1,
            syn::Member::Named(i) if i == "z" => 2,
            m => return self.err(m, format!("`{g}()` is a `Dim3`: its fields are `.x`, `.y` and `.z`")),
        };
        quote!(::xp::__rt::ast::E::Builtin(#g, #axis))
    }

    /// No turbofish, `arity` arguments; reports otherwise.
    fn gpu_form(&mut self, c: &syn::ExprCall, g: &str, arity: usize) -> bool {
        let Expr::Path(p) = strip(&c.func) else { unreachable!("a path") };
        if self.turbofish(&p.path) {
            return false;
        }
        if c.args.len() != arity {
            let msg = match g {
                "shfl_down" | "shfl_up" => format!("`{g}(v, delta)` takes 2 arguments"),
                "shfl_xor" => format!("`{g}(v, mask)` takes 2 arguments"),
                "shfl" => format!("`{g}(v, lane)` takes 2 arguments"),
                _ => format!("`{g}()` takes no arguments"),
            };
            self.err(c, msg);
            return false;
        }
        true
    }

    /// A raw kernel's GPU function: a builtin, the barrier or a shuffle.
    fn gpu_call(&mut self, c: &syn::ExprCall, g: &'static str) -> TokenStream {
        if !self.raw {
            let what = if g == GPU_SHARED { "`shared::<T, N>()`".to_string() } else { format!("`{g}()`") };
            return self.err(c, raw_only(&what));
        }
        if g == GPU_SHARED {
            return self.err(c, "`shared::<T, N>()` initialises a `let`: `let s = shared::<f32, 256>();`");
        }
        if GPU_DIMS.contains(&g) {
            return self.err(c, format!("`{g}()` is a `Dim3`: read one of its fields, `{g}().x`, `.y` or `.z`"));
        }
        if GPU_SCALARS.contains(&g) {
            if !self.gpu_form(c, g, 0) {
                return TokenStream::new();
            }
            return quote!(::xp::__rt::ast::E::Builtin(#g, 0u8));
        }
        let arity = GPU_CALLS.iter().find(|(n, _)| *n == g).map_or(0, |(_, a)| *a);
        if !self.gpu_form(c, g, arity) {
            return TokenStream::new();
        }
        self.lockstep = true;
        let args = self.exprs(&c.args);
        quote!(::xp::__rt::ast::E::Call(#g, #args))
    }

    /// The path of a callee's `__xp_ast`, from where the constructor code lives.
    fn callee_path(&self, path: &syn::Path) -> TokenStream {
        let segs: Vec<&syn::Ident> = path.segments.iter().map(|s| &s.ident).collect();
        let first = segs[0].to_string();
        if path.leading_colon.is_some() {
            return quote!(::#(#segs)::*::__xp_ast);
        }
        match (self.home, first.as_str()) {
            (Home::Same, _) | (Home::Child, "crate") => quote!(#(#segs)::*::__xp_ast),
            (Home::Child, "self") => {
                let rest = &segs[1..];
                quote!(super::#(#rest)::*::__xp_ast)
            }
            (Home::Child, _) => quote!(super::#(#segs)::*::__xp_ast),
        }
    }
}
