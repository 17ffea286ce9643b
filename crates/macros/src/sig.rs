//! A function's signature: its generic parameters and bounds, its parameters and its results,
//! checked against the kernel subset.
use crate::allowed::{RAW_TYPES, TYPES};
use crate::Errors;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{
    FnArg, GenericArgument, GenericParam, Ident, Pat, PathArguments, ReturnType, Signature, Type, TypeParamBound,
};

/// A generic parameter's bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// `T: Float`
    Float,
    /// `T: Int`
    Int,
    /// `T: Num`
    Num,
}

impl Bound {
    /// `::xp::__rt::ast::Bound::Float`
    pub fn ast(self) -> TokenStream {
        let v = format_ident!("{}", self.name());
        quote!(::xp::__rt::ast::Bound::#v)
    }
    /// `::xp::__rt::Float`
    pub fn trait_path(self) -> TokenStream {
        let v = format_ident!("{}", self.name());
        quote!(::xp::__rt::#v)
    }
    /// The trait's name.
    pub fn name(self) -> &'static str {
        match self {
            Bound::Float => "Float",
            Bound::Int => "Int",
            Bound::Num => "Num",
        }
    }
    /// The primitives that the native dispatch instantiates the parameter with, in order.
    pub fn prims(self) -> Vec<Prim> {
        let names: &[&str] = match self {
            Bound::Float => &["f32", "f64"],
            Bound::Int => &["i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64"],
            Bound::Num => &["i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f32", "f64"],
        };
        names.iter().filter_map(|n| prim(n)).collect()
    }
}

/// A primitive type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prim {
    /// its name in Rust (`usize`)
    pub rust: &'static str,
    /// the `DType` variant (`U64`)
    pub dtype: &'static str,
    /// the native column's element type (`u64`)
    pub elem: &'static str,
}

const PRIMS: &[Prim] = &[
    Prim { rust: "bool", dtype: "Bool", elem: "bool" },
    Prim { rust: "i8", dtype: "I8", elem: "i8" },
    Prim { rust: "i16", dtype: "I16", elem: "i16" },
    Prim { rust: "i32", dtype: "I32", elem: "i32" },
    Prim { rust: "i64", dtype: "I64", elem: "i64" },
    Prim { rust: "u8", dtype: "U8", elem: "u8" },
    Prim { rust: "u16", dtype: "U16", elem: "u16" },
    Prim { rust: "u32", dtype: "U32", elem: "u32" },
    Prim { rust: "u64", dtype: "U64", elem: "u64" },
    Prim { rust: "f32", dtype: "F32", elem: "f32" },
    Prim { rust: "f64", dtype: "F64", elem: "f64" },
    Prim { rust: "usize", dtype: "U64", elem: "u64" },
    Prim { rust: "isize", dtype: "I64", elem: "i64" },
];

/// The primitive of a name.
pub fn prim(name: &str) -> Option<Prim> {
    PRIMS.iter().copied().find(|p| p.rust == name)
}

/// `::xp::__rt::DType::F32`
pub fn dtype(p: Prim) -> TokenStream {
    let v = format_ident!("{}", p.dtype);
    quote!(::xp::__rt::DType::#v)
}

/// A scalar type: a generic parameter or a primitive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ty {
    /// a generic parameter, by name
    Gen(String),
    /// a primitive
    Prim(Prim),
}

impl Ty {
    /// The AST's `Ty` of it.
    pub fn ast(&self) -> TokenStream {
        match self {
            Ty::Gen(n) => quote!(::xp::__rt::ast::Ty::Gen(#n)),
            Ty::Prim(p) => {
                let d = dtype(*p);
                quote!(::xp::__rt::ast::Ty::D(#d))
            }
        }
    }
    /// The native column's element type (`T`, `f32`; `u64` for `usize`).
    pub fn elem(&self) -> TokenStream {
        let i = match self {
            Ty::Gen(n) => ident(n),
            Ty::Prim(p) => ident(p.elem),
        };
        quote!(#i)
    }
    /// The Rust type, when it differs from the column's (`usize`, `isize`).
    pub fn converted(&self) -> Option<Ident> {
        match self {
            Ty::Prim(p) if p.rust != p.elem => Some(ident(p.rust)),
            _ => None,
        }
    }
}

fn ident(s: &str) -> Ident {
    format_ident!("{}", s)
}

/// What a parameter is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// a value
    Value,
    /// `Raw<T>`
    Raw,
    /// `Index`
    Index,
    /// `RawMut<T>` (a raw kernel's)
    RawMut,
}

/// A parameter.
#[derive(Clone, Debug)]
pub struct Param {
    /// its name
    pub name: Ident,
    /// its type (the element's for a `Raw` or `RawMut`, `i64` for an `Index`)
    pub ty: Ty,
    /// what it is
    pub kind: Kind,
}

impl Param {
    /// The AST's `Param` of it.
    pub fn ast(&self) -> TokenStream {
        let name = syn::ext::IdentExt::unraw(&self.name).to_string();
        let ty = self.ty.ast();
        let kind = format_ident!("{}", format!("{:?}", self.kind));
        quote!(::xp::__rt::ast::Param { name: #name, ty: #ty, kind: ::xp::__rt::ast::ParamKind::#kind })
    }
}

/// A generic parameter.
#[derive(Clone, Debug)]
pub struct Generic {
    /// its name
    pub name: Ident,
    /// its bound
    pub bound: Bound,
}

/// A checked signature.
#[derive(Clone, Debug)]
pub struct Sig {
    /// the function's name
    pub name: Ident,
    /// its generic parameters
    pub generics: Vec<Generic>,
    /// its parameters
    pub params: Vec<Param>,
    /// its results (one, or a tuple's elements)
    pub outs: Vec<Ty>,
    /// whether the result is a tuple
    pub tuple: bool,
}

impl Sig {
    /// The names of the generic parameters.
    pub fn generic_names(&self) -> Vec<String> {
        self.generics.iter().map(|g| g.name.to_string()).collect()
    }
    /// `(name, bound)` of the generics, to compare the functions of a reduction.
    pub fn generics_key(&self) -> Vec<(String, Bound)> {
        self.generics.iter().map(|g| (g.name.to_string(), g.bound)).collect()
    }
    /// The parameters that are the call's arguments (all but an `Index`).
    pub fn args(&self) -> impl Iterator<Item = &Param> {
        self.params.iter().filter(|p| p.kind != Kind::Index)
    }
}

/// What a function may have.
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    /// the kind of function, in messages ("a kernel")
    pub what: &'static str,
    /// `Raw<T>` and `Index` parameters
    pub raw_index: bool,
    /// a tuple of results
    pub tuple: bool,
    /// a raw kernel: `Raw<T>` and `RawMut<T>` parameters (no `Index`), no result
    pub raw_kernel: bool,
}

/// Checks a signature; reports every violation into `errs`.
pub fn parse(sig: &Signature, rules: Rules, errs: &mut Errors) -> Sig {
    let what = rules.what;
    if let Some(t) = &sig.constness {
        errs.push(t, format!("{what} cannot be a `const fn`"));
    }
    if let Some(t) = &sig.asyncness {
        errs.push(t, format!("{what} cannot be `async`"));
    }
    if let Some(t) = &sig.unsafety {
        errs.push(t, format!("{what} cannot be `unsafe`"));
    }
    if let Some(t) = &sig.abi {
        errs.push(t, format!("{what} cannot have an `extern` ABI"));
    }
    if let Some(t) = &sig.variadic {
        errs.push(t, format!("{what} cannot be variadic"));
    }
    if let Some(w) = &sig.generics.where_clause {
        errs.push(w, format!("{what} cannot have a `where` clause: write the bound in place, `<T: Float>`"));
    }
    let mut generics = Vec::new();
    for g in &sig.generics.params {
        match g {
            GenericParam::Type(t) => {
                let bound = bound_of(t, errs);
                if let Some(d) = &t.default {
                    errs.push(d, "a generic parameter of a kernel has no default");
                }
                if let Some(bound) = bound {
                    generics.push(Generic { name: t.ident.clone(), bound });
                }
            }
            GenericParam::Lifetime(l) => errs.push(
                l,
                format!("{what} has no lifetime parameters: only type parameters `T: Float`, `T: Int`, `T: Num`"),
            ),
            GenericParam::Const(c) => errs
                .push(c, format!("{what} has no const generics: only type parameters `T: Float`, `T: Int`, `T: Num`")),
        }
    }
    let names: Vec<String> = sig.generics.params.iter().filter_map(type_param_name).collect();
    let mut params = Vec::new();
    let mut index: Option<&syn::PatType> = None;
    for a in &sig.inputs {
        let pt = match a {
            FnArg::Receiver(r) => {
                errs.push(r, format!("{what} takes no `self`: it is a free function of scalars"));
                continue;
            }
            FnArg::Typed(pt) => pt,
        };
        let name = match &*pt.pat {
            Pat::Ident(p) if p.by_ref.is_none() && p.subpat.is_none() => Some(p.ident.clone()),
            other => {
                errs.push(other, "a parameter's pattern is a name: `x` or `mut x`");
                None
            }
        };
        let param = param_ty(&pt.ty, &names, rules, errs);
        if let (Some(name), Some((ty, kind))) = (name, param) {
            if kind == Kind::Index {
                if index.is_some() {
                    errs.push(pt, format!("{what} has at most one `Index` parameter"));
                }
                index = Some(pt);
            }
            params.push(Param { name, ty, kind });
        }
    }
    let (outs, tuple) = match &sig.output {
        ReturnType::Default if rules.raw_kernel => (Vec::new(), false),
        ReturnType::Type(_, ty) if rules.raw_kernel => {
            if !matches!(strip(ty), Type::Tuple(t) if t.elems.is_empty()) {
                errs.push(
                    ty,
                    format!("{what} returns nothing: it writes its results through `RawMut<T>` parameters (`out.set(j, v)`); remove the return type"),
                );
            }
            (Vec::new(), false)
        }
        ReturnType::Default => {
            errs.push(
                &sig.ident,
                format!("{what} returns its outputs: add a return type, `-> T` (or a tuple of them for several outputs); types: {TYPES}"),
            );
            (Vec::new(), false)
        }
        ReturnType::Type(_, ty) => match strip(ty) {
            Type::Tuple(t) if rules.tuple && !t.elems.is_empty() => {
                (t.elems.iter().filter_map(|e| result_ty(e, &names, errs)).collect(), true)
            }
            Type::Tuple(t) if !rules.tuple => {
                errs.push(t, format!("{what} returns one value, not a tuple"));
                (Vec::new(), false)
            }
            ty => (result_ty(ty, &names, errs).into_iter().collect(), false),
        },
    };
    Sig { name: sig.ident.clone(), generics, params, outs, tuple }
}

fn type_param_name(g: &GenericParam) -> Option<String> {
    match g {
        GenericParam::Type(t) => Some(t.ident.to_string()),
        _ => None,
    }
}

fn bound_of(t: &syn::TypeParam, errs: &mut Errors) -> Option<Bound> {
    let msg = "a generic parameter has one bound, `Float`, `Int` or `Num` (`T: Float`)";
    if t.bounds.len() != 1 {
        errs.push(
            if t.bounds.is_empty() {
                quote!(#t)
            } else {
                let b = &t.bounds;
                quote!(#b)
            },
            msg,
        );
        return None;
    }
    let b = &t.bounds[0];
    let found = match b {
        TypeParamBound::Trait(tb) if tb.lifetimes.is_none() && matches!(tb.modifier, syn::TraitBoundModifier::None) => {
            tb.path.segments.last().and_then(|s| match (s.ident.to_string().as_str(), &s.arguments) {
                ("Float", PathArguments::None) => Some(Bound::Float),
                ("Int", PathArguments::None) => Some(Bound::Int),
                ("Num", PathArguments::None) => Some(Bound::Num),
                _ => None,
            })
        }
        _ => None,
    };
    if found.is_none() {
        errs.push(b, msg);
    }
    found
}

/// `(T)` and groups unwrapped.
fn strip(ty: &Type) -> &Type {
    match ty {
        Type::Paren(p) => strip(&p.elem),
        Type::Group(g) => strip(&g.elem),
        ty => ty,
    }
}

/// A scalar type (a primitive or a generic parameter), or None.
pub fn scalar(ty: &Type, generics: &[String]) -> Option<Ty> {
    let Type::Path(p) = strip(ty) else { return None };
    if p.qself.is_some() || p.path.leading_colon.is_some() || p.path.segments.len() != 1 {
        return None;
    }
    let s = &p.path.segments[0];
    if !s.arguments.is_none() {
        return None;
    }
    let name = s.ident.to_string();
    if generics.contains(&name) {
        Some(Ty::Gen(name))
    } else {
        prim(&name).map(Ty::Prim)
    }
}

/// The message of a type outside the subset.
pub fn bad_type(ty: &impl quote::ToTokens) -> String {
    bad_type_of(ty, TYPES)
}

/// The message of a type outside the subset, whose types are `types`.
fn bad_type_of(ty: &impl quote::ToTokens, types: &str) -> String {
    let s = quote!(#ty).to_string().replace(" < ", "<").replace(" >", ">").replace("& ", "&");
    format!("the type `{s}` is outside the kernel subset; the types are {types}")
}

/// The message of a parameter's type outside the subset.
fn bad_param_type(ty: &impl quote::ToTokens, rules: Rules) -> String {
    bad_type_of(ty, if rules.raw_kernel { RAW_TYPES } else { TYPES })
}

fn result_ty(ty: &Type, generics: &[String], errs: &mut Errors) -> Option<Ty> {
    let t = scalar(ty, generics);
    if t.is_none() {
        errs.push(ty, bad_type(ty));
    }
    t
}

fn param_ty(ty: &Type, generics: &[String], rules: Rules, errs: &mut Errors) -> Option<(Ty, Kind)> {
    if let Some(t) = scalar(ty, generics) {
        return Some((t, Kind::Value));
    }
    if let Type::Path(p) = strip(ty) {
        if let (None, Some(last)) = (&p.qself, p.path.segments.last()) {
            let name = last.ident.to_string();
            if name == "Index" && last.arguments.is_none() {
                if rules.raw_kernel {
                    errs.push(
                        ty,
                        format!("{} has no `Index` parameter: its threads compute their indices from `thread_idx()`, `block_idx()` and `block_dim()`", rules.what),
                    );
                    return None;
                }
                if !rules.raw_index {
                    errs.push(ty, format!("{} has no `Index` parameter (a kernel's parameter)", rules.what));
                    return None;
                }
                return Some((Ty::Prim(prim("i64")?), Kind::Index));
            }
            if name == "Raw" {
                if !rules.raw_index && !rules.raw_kernel {
                    errs.push(ty, format!("{} has no `Raw` parameter (a kernel's parameter)", rules.what));
                    return None;
                }
                return array_elem(ty, "Raw", &last.arguments, generics, rules, errs).map(|t| (t, Kind::Raw));
            }
            if name == "RawMut" {
                if !rules.raw_kernel {
                    errs.push(ty, crate::allowed::raw_only("a `RawMut<T>` parameter"));
                    return None;
                }
                return array_elem(ty, "RawMut", &last.arguments, generics, rules, errs).map(|t| (t, Kind::RawMut));
            }
        }
    }
    errs.push(ty, bad_param_type(ty, rules));
    None
}

/// The element type of `Raw<T>` / `RawMut<T>` (a lifetime argument allowed).
fn array_elem(
    ty: &Type,
    which: &str,
    args: &PathArguments,
    generics: &[String],
    rules: Rules,
    errs: &mut Errors,
) -> Option<Ty> {
    let elem = match args {
        PathArguments::AngleBracketed(a) => {
            let tys: Vec<&Type> = a
                .args
                .iter()
                .filter_map(|g| match g {
                    GenericArgument::Type(t) => Some(t),
                    _ => None,
                })
                .collect();
            let lifetimes = a.args.iter().all(|g| matches!(g, GenericArgument::Lifetime(_) | GenericArgument::Type(_)));
            match (tys.as_slice(), lifetimes) {
                ([t], true) => scalar(t, generics),
                _ => None,
            }
        }
        _ => None,
    };
    match elem {
        Some(Ty::Prim(p)) if p.rust != p.elem => {
            errs.push(ty, format!("`{which}<{}>` is not supported: write `{which}<{}>`", p.rust, p.elem));
            None
        }
        Some(t) => Some(t),
        None => {
            errs.push(ty, format!("`{which}<T>` takes one element type; {}", bad_param_type(ty, rules)));
            None
        }
    }
}
