//! The expansions: the function kept (with `#[inline(always)]`) and the generated module.
use crate::body::{Home, Lower};
use crate::sig::{self, Kind, Rules, Sig, Ty};
use crate::{native, Errors};
use proc_macro2::TokenStream;
use quote::{format_ident, quote, ToTokens};
use syn::ext::IdentExt;
use syn::{Ident, Item, ItemFn, ItemMod};

/// FNV-1a, 64 bits, of a string: the item's identity in xp's cache of compiled kernels.
pub fn fnv1a(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// The errors as `compile_error!`s, and the untouched item.
fn failed(err: syn::Error, item: &TokenStream) -> TokenStream {
    let e = err.to_compile_error();
    quote!(#e #item)
}

fn no_args(attr: &TokenStream, which: &str, errs: &mut Errors) {
    if !attr.is_empty() {
        errs.push(attr, format!("#[xp::{which}] takes no arguments"));
    }
}

/// The function with `#[inline(always)]` (in place of an `#[inline]` of its own), and clippy's
/// lints that ask for what the subset has not (iterators, `is_multiple_of`) allowed.
fn inlined(f: &ItemFn) -> TokenStream {
    let mut f = f.clone();
    f.attrs.retain(|a| !a.path().is_ident("inline"));
    quote! {
        #[inline(always)]
        #[allow(clippy::needless_range_loop, clippy::manual_is_multiple_of)]
        #f
    }
}

/// The `Func` constructor of a checked function.
fn func(sig: &Sig, f: &ItemFn, home: Home, siblings: Vec<String>, errs: &mut Errors) -> TokenStream {
    func_of(sig, f, home, siblings, false, errs).0
}

/// The `Func` constructor of a checked function, a raw kernel's where `raw`; and whether its body
/// uses `sync_threads()`, a shuffle or shared memory.
fn func_of(
    sig: &Sig,
    f: &ItemFn,
    home: Home,
    siblings: Vec<String>,
    raw: bool,
    errs: &mut Errors,
) -> (TokenStream, bool) {
    let name = sig.name.unraw().to_string();
    let params = sig.params.iter().map(|p| p.name.unraw().to_string()).collect();
    let mut lower = Lower::new(&name, sig.generic_names(), home, errs).with_siblings(siblings).with_params(params);
    if raw {
        let raw_mut = sig.params.iter().filter(|p| p.kind == Kind::RawMut).map(|p| p.name.unraw().to_string());
        lower = lower.with_raw(raw_mut.collect());
    }
    let body = lower.block(&f.block);
    let callees = lower.callees();
    let lockstep = lower.lockstep();
    let generics = sig.generics.iter().map(|g| {
        let (n, b) = (g.name.to_string(), g.bound.ast());
        quote!((#n, #b))
    });
    let params = sig.params.iter().map(sig::Param::ast);
    let outs = sig.outs.iter().map(Ty::ast);
    let func = quote! {
        ::xp::__rt::ast::Func {
            name: #name,
            generics: ::std::vec![#(#generics),*],
            params: ::std::vec![#(#params),*],
            outs: ::std::vec![#(#outs),*],
            body: #body,
            callees: #callees,
        }
    };
    (func, lockstep)
}

/// `fn name() -> &'static Func`, built once.
fn once_func(vis: TokenStream, name: &Ident, doc: &str, func: TokenStream) -> TokenStream {
    quote! {
        #[doc = #doc]
        #vis fn #name() -> &'static ::xp::__rt::ast::Func {
            static F: ::xp::__rt::OnceLock<::xp::__rt::ast::Func> = ::xp::__rt::OnceLock::new();
            F.get_or_init(|| #func)
        }
    }
}

fn parse_fn(item: &TokenStream, which: &str) -> Result<ItemFn, syn::Error> {
    syn::parse2(item.clone()).map_err(|e| {
        let mut err = syn::Error::new(
            e.span(),
            format!("#[xp::{which}] applies to a function: `fn name<T: Float>(x: T) -> T {{ .. }}`"),
        );
        err.combine(e);
        err
    })
}

/// The names of the arguments of `call`: the parameters but an `Index`.
fn arg_names(sig: &Sig) -> Vec<Ident> {
    sig.args().map(|p| p.name.clone()).collect()
}

/// `name`, or `__xp_name` where a parameter is called so.
fn fresh(name: &str, taken: &[Ident]) -> Ident {
    if taken.iter().any(|t| t == name) {
        format_ident!("__xp_{}", name)
    } else {
        format_ident!("{}", name)
    }
}

/// `#[xp::kernel]`
pub fn kernel(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut errs = Errors::default();
    no_args(&attr, "kernel", &mut errs);
    let f = match parse_fn(&item, "kernel") {
        Ok(f) => f,
        Err(e) => return failed(e, &item),
    };
    let sig =
        sig::parse(&f.sig, Rules { what: "a kernel", raw_index: true, tuple: true, raw_kernel: false }, &mut errs);
    let func = func(&sig, &f, Home::Child, Vec::new(), &mut errs);
    let native = native::native(&sig, &mut errs);
    if let Some(e) = errs.combined() {
        return failed(e, &item);
    }
    let hash = fnv1a(&item.to_string());
    let (vis, name) = (&f.vis, &sig.name);
    let func = once_func(quote!(), &format_ident!("__xp_func"), "The function as data.", func);
    let args = arg_names(&sig);
    let n = sig.outs.len();
    let outs: Vec<_> = (0..n).map(|k| fresh(&format!("out{k}"), &args)).collect();
    let arrays: Vec<_> = (0..n).map(|k| format_ident!("__xp_a{}", k)).collect();
    let ret = if sig.tuple { quote!((#(#arrays),*)) } else { quote!(#(#arrays)*) };
    let array = quote!(::xp::__rt::Array);
    let ret_ty = if sig.tuple {
        let a = arrays.iter().map(|_| &array);
        quote!((#(#a),*))
    } else {
        array.clone()
    };
    let operand = quote!(impl ::core::convert::Into<::xp::__rt::Operand<'a>>);
    let fname = name.unraw().to_string();
    let mod_doc = format!(
        "The kernel form of [`{fname}`](fn@{name}): [`call`](self::call) runs it over arrays (on any device): natively on the CPU, translated to CUDA on a GPU."
    );
    let call_doc = if sig.tuple {
        format!("Runs `{fname}` over arrays or scalars (broadcast together); returns its {n} outputs.")
    } else {
        format!("Runs `{fname}` over arrays or scalars (broadcast together); returns its output.")
    };
    let out_doc = format!("Runs `{fname}` over arrays or scalars (broadcast together) into the given outputs.");
    let f_inl = inlined(&f);
    let sym = quote!(::xp::__rt::Sym);
    let sym_ret_ty = if sig.tuple {
        let a = arrays.iter().map(|_| &sym);
        quote!((#(#a),*))
    } else {
        sym.clone()
    };
    let sym_doc = format!("`{fname}` inside `xp::fuse`: recorded on symbolic arrays, inlined into the fused kernel.");
    quote! {
        #f_inl
        #[doc = #mod_doc]
        #[allow(non_snake_case, unused_imports, dead_code, clippy::all)]
        #vis mod #name {
            use super::*;
            #func
            /// The kernel: the function as data, its native instances and its identity.
            pub fn kernel() -> &'static ::xp::__rt::RustKernel {
                static K: ::xp::__rt::OnceLock<::xp::__rt::RustKernel> = ::xp::__rt::OnceLock::new();
                K.get_or_init(|| ::xp::__rt::RustKernel::new(::core::module_path!(), __xp_func(), &__XpNative, __XP_HASH))
            }
            const __XP_HASH: u64 = #hash;
            #[doc = #call_doc]
            pub fn call<'a>(#(#args: #operand),*) -> ::xp::__rt::Result<#ret_ty> {
                let mut __xp_it = self::kernel().call_iter(&[#(::core::convert::Into::into(#args)),*])?;
                #(let #arrays = __xp_it.next().expect("xp: a kernel returns as many outputs as its function");)*
                ::core::result::Result::Ok(#ret)
            }
            #[doc = #out_doc]
            pub fn call_out<'a>(#(#args: #operand,)* #(#outs: &#array),*) -> ::xp::__rt::Result<()> {
                self::kernel().call_out(&[#(::core::convert::Into::into(#args)),*], &[#(#outs),*])
            }
            #[doc = #sym_doc]
            pub fn sym(#(#args: impl ::core::convert::Into<::xp::__rt::SymOperand>),*) -> ::xp::__rt::Result<#sym_ret_ty> {
                let __xp_v = ::xp::__rt::Sym::apply(self::kernel(), ::std::vec![#(::core::convert::Into::into(#args)),*])?;
                match <[#sym; #n]>::try_from(__xp_v) {
                    ::core::result::Result::Ok([#(#arrays),*]) => ::core::result::Result::Ok(#ret),
                    ::core::result::Result::Err(_) => ::core::unreachable!("xp: a kernel returned another number of outputs than its function's"),
                }
            }
            #native
        }
    }
}

/// `#[xp::raw_kernel]`
pub fn raw_kernel(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut errs = Errors::default();
    no_args(&attr, "raw_kernel", &mut errs);
    let f = match parse_fn(&item, "raw_kernel") {
        Ok(f) => f,
        Err(e) => return failed(e, &item),
    };
    let rules = Rules { what: "a raw kernel", raw_index: false, tuple: false, raw_kernel: true };
    let sig = sig::parse(&f.sig, rules, &mut errs);
    let (func, lockstep) = func_of(&sig, &f, Home::Child, Vec::new(), true, &mut errs);
    if let Some(e) = errs.combined() {
        return failed(e, &item);
    }
    let hash = fnv1a(&item.to_string());
    let (vis, name) = (&f.vis, &sig.name);
    let func = once_func(quote!(), &format_ident!("__xp_func"), "The function as data.", func);
    let args = arg_names(&sig);
    let (grid, block) = (fresh("grid", &args), fresh("block", &args));
    let operand = quote!(impl ::core::convert::Into<::xp::__rt::Operand<'a>>);
    let dim3 = quote!(impl ::core::convert::Into<::xp::__rt::Dim3>);
    let fname = name.unraw().to_string();
    let mod_doc = format!(
        "The raw kernel form of [`{fname}`](fn@{name}): [`launch`](self::launch) runs it on a grid of blocks of threads (on a GPU)."
    );
    let launch_doc = format!("Launch `{fname}` on `{grid}` × `{block}` threads.");
    let f_inl = inlined(&f);
    quote! {
        #[allow(dead_code)]
        #f_inl
        #[doc = #mod_doc]
        #[allow(non_snake_case, unused_imports, dead_code, clippy::all)]
        #vis mod #name {
            use super::*;
            #func
            /// The kernel: the function as data and its identity.
            pub fn kernel() -> &'static ::xp::__rt::RustRawKernel {
                static K: ::xp::__rt::OnceLock<::xp::__rt::RustRawKernel> = ::xp::__rt::OnceLock::new();
                K.get_or_init(|| ::xp::__rt::RustRawKernel::new(::core::module_path!(), __xp_func(), __XP_HASH, __XP_LOCKSTEP))
            }
            const __XP_HASH: u64 = #hash;
            /// true when the body uses sync_threads, shuffles or shared memory (its threads must run in lockstep: GPU only)
            const __XP_LOCKSTEP: bool = #lockstep;
            #[doc = #launch_doc]
            pub fn launch<'a>(#grid: #dim3, #block: #dim3, #(#args: #operand),*) -> ::xp::__rt::Result<()> {
                self::kernel().launch(::core::convert::Into::<::xp::__rt::Dim3>::into(#grid), ::core::convert::Into::<::xp::__rt::Dim3>::into(#block), &[#(::core::convert::Into::into(#args)),*])
            }
        }
    }
}

/// `#[xp::device]`
pub fn device(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut errs = Errors::default();
    no_args(&attr, "device", &mut errs);
    let f = match parse_fn(&item, "device") {
        Ok(f) => f,
        Err(e) => return failed(e, &item),
    };
    let sig = sig::parse(
        &f.sig,
        Rules { what: "a device function", raw_index: false, tuple: false, raw_kernel: false },
        &mut errs,
    );
    let func = func(&sig, &f, Home::Child, Vec::new(), &mut errs);
    if let Some(e) = errs.combined() {
        return failed(e, &item);
    }
    let (vis, name) = (&f.vis, &sig.name);
    let func = once_func(quote!(pub), &format_ident!("__xp_ast"), "The function as data.", func);
    let f_inl = inlined(&f);
    quote! {
        #f_inl
        #[doc(hidden)]
        #[allow(non_snake_case, unused_imports, dead_code, clippy::all)]
        #vis mod #name {
            use super::*;
            #func
        }
    }
}

/// The four functions of a reduction.
const PARTS: [&str; 4] = ["identity", "map", "combine", "finish"];

/// `#[xp::reduction]`
pub fn reduction(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut errs = Errors::default();
    no_args(&attr, "reduction", &mut errs);
    let m: ItemMod = match syn::parse2(item.clone()) {
        Ok(m) => m,
        Err(e) => {
            let mut err = syn::Error::new(
                e.span(),
                "#[xp::reduction] applies to a module: `mod name { fn map .. fn combine .. }`",
            );
            err.combine(e);
            return failed(err, &item);
        }
    };
    let Some((brace, items)) = &m.content else {
        errs.push(&m, "#[xp::reduction] applies to a module with its items in place: `mod name { .. }`");
        return failed(errs.combined().expect("an error"), &item);
    };
    let mut parts: [Option<&ItemFn>; 4] = [None; 4];
    for it in items {
        match it {
            Item::Use(_) => {}
            Item::Fn(f) => match PARTS.iter().position(|p| f.sig.ident == p) {
                Some(k) if parts[k].is_some() => errs.push(&f.sig.ident, format!("a second `{}`", PARTS[k])),
                Some(k) => parts[k] = Some(f),
                None => errs.push(
                    &f.sig.ident,
                    format!("`{}` is not a function of a reduction: they are `identity`, `map`, `combine` and `finish` (shared code goes into a #[xp::device] function outside the module)", f.sig.ident),
                ),
            },
            it => errs.push(it, "a reduction's module holds `use` items and the functions `identity`, `map`, `combine` and `finish`"),
        }
    }
    let [identity, map, combine, finish] = parts;
    let rules = |what, raw_index, tuple| Rules { what, raw_index, tuple, raw_kernel: false };
    let sigs = [
        identity.map(|f| sig::parse(&f.sig, rules("a reduction's `identity`", false, false), &mut errs)),
        map.map(|f| sig::parse(&f.sig, rules("a reduction's `map`", true, false), &mut errs)),
        combine.map(|f| sig::parse(&f.sig, rules("a reduction's `combine`", false, false), &mut errs)),
        finish.map(|f| sig::parse(&f.sig, rules("a reduction's `finish`", false, true), &mut errs)),
    ];
    for (k, missing) in [(1, map.is_none()), (2, combine.is_none())] {
        if missing {
            let what = if k == 1 {
                "`fn map<T: Float>(x: T) -> T` (each element's value)"
            } else {
                "`fn combine<T: Float>(a: T, b: T) -> T` (two values into one)"
            };
            errs.push(&m.ident, format!("a reduction has a `{}`: {what}", PARTS[k]));
        }
    }
    check_parts(&sigs, &parts, &mut errs);
    let siblings: Vec<String> = PARTS.iter().map(|s| s.to_string()).collect();
    let funcs: Vec<Option<TokenStream>> = parts
        .iter()
        .zip(&sigs)
        .map(|(f, s)| match (f, s) {
            (Some(f), Some(s)) => Some(func(s, f, Home::Same, siblings.clone(), &mut errs)),
            _ => None,
        })
        .collect();
    if let Some(e) = errs.combined() {
        return failed(e, &item);
    }
    let hash = fnv1a(&item.to_string());
    let ctor_names = PARTS.map(|p| format_ident!("__xp_{}", p));
    let ctors = funcs
        .into_iter()
        .zip(&ctor_names)
        .zip(PARTS)
        .filter_map(|((f, n), p)| f.map(|f| once_func(quote!(), n, &format!("The reduction's `{p}` as data."), f)));
    let opt = |k: usize| match parts[k] {
        Some(_) => {
            let n = &ctor_names[k];
            quote!(::core::option::Option::Some(#n()))
        }
        None => quote!(::core::option::Option::None),
    };
    let (finish_f, identity_f) = (opt(3), opt(0));
    let Some(map_sig) = &sigs[1] else { unreachable!("a map is checked") };
    let args = arg_names(map_sig);
    let axes = fresh("axes", &args);
    let name = m.ident.unraw().to_string();
    let operand = quote!(impl ::core::convert::Into<::xp::__rt::Operand<'a>>);
    let call_doc = format!("Reduces over `{axes}` (the axes dropped) by `{name}`.");
    let keep_doc = format!("Reduces over `{axes}` by `{name}`, the axes kept with length 1.");
    let generated = quote! {
        #(#[allow(dead_code)] #ctors)*
        /// The reduction: its functions as data and its identity.
        #[allow(dead_code)]
        pub fn kernel() -> &'static ::xp::__rt::RustReduction {
            static K: ::xp::__rt::OnceLock<::xp::__rt::RustReduction> = ::xp::__rt::OnceLock::new();
            K.get_or_init(|| {
                ::xp::__rt::RustReduction::new(
                    ::core::module_path!(),
                    #name,
                    __xp_map(),
                    __xp_combine(),
                    #finish_f,
                    #identity_f,
                    __XP_HASH,
                )
            })
        }
        #[allow(dead_code)]
        const __XP_HASH: u64 = #hash;
        #[doc = #call_doc]
        #[allow(dead_code)]
        pub fn call<'a>(#(#args: #operand,)* #axes: impl ::xp::__rt::IntoAxes) -> ::xp::__rt::Result<::xp::__rt::Array> {
            self::kernel().call(&[#(::core::convert::Into::into(#args)),*], #axes)
        }
        #[doc = #keep_doc]
        #[allow(dead_code)]
        pub fn call_keepdim<'a>(#(#args: #operand,)* #axes: impl ::xp::__rt::IntoAxes) -> ::xp::__rt::Result<::xp::__rt::Array> {
            self::kernel().call_keepdim(&[#(::core::convert::Into::into(#args)),*], #axes)
        }
    };
    let mut new_items: Vec<Item> = items
        .iter()
        .map(|it| match it {
            Item::Fn(f) => {
                let mut f = f.clone();
                f.vis = syn::parse_quote!(pub);
                if !f.attrs.iter().any(|a| a.path().is_ident("doc")) {
                    let doc = part_doc(&f.sig.ident.to_string());
                    f.attrs.push(syn::parse_quote!(#[doc = #doc]));
                }
                // read as data; natively only where the user calls them
                f.attrs.push(syn::parse_quote!(#[allow(dead_code)]));
                Item::Verbatim(inlined(&f))
            }
            it => it.clone(),
        })
        .collect();
    new_items.push(Item::Verbatim(generated));
    let mut out = m.clone();
    out.content = Some((*brace, new_items));
    out.into_token_stream()
}

/// The doc of a reduction's function made `pub` (where it has none).
fn part_doc(part: &str) -> &'static str {
    match part {
        "identity" => "The reduction's identity: the value of an empty reduction.",
        "map" => "The reduction's `map`: each element's value.",
        "combine" => "The reduction's `combine`: two values into one.",
        _ => "The reduction's `finish`: the result from the combined value.",
    }
}

/// The arities, generics and types of a reduction's functions.
fn check_parts(sigs: &[Option<Sig>; 4], parts: &[Option<&ItemFn>; 4], errs: &mut Errors) {
    let arity = [Some(0), None, Some(2), Some(1)];
    for k in 0..4 {
        if let (Some(_), Some(f), Some(n)) = (&sigs[k], parts[k], arity[k]) {
            if f.sig.inputs.len() != n {
                let what = [
                    "no parameters",
                    "",
                    "two parameters (of map's result type)",
                    "one parameter (of map's result type)",
                ][k];
                errs.push(&f.sig.ident, format!("a reduction's `{}` takes {what}", PARTS[k]));
            }
        }
    }
    let Some(map) = &sigs[1] else { return };
    for k in [0, 2, 3] {
        if let (Some(s), Some(f)) = (&sigs[k], parts[k]) {
            if s.generics_key() != map.generics_key() {
                errs.push(
                    &f.sig.generics,
                    format!(
                        "a reduction's functions have the same generic parameters: `{}` has not those of `map`",
                        PARTS[k]
                    ),
                );
            }
        }
    }
    let [m] = map.outs.as_slice() else { return };
    let mut want = |k: usize, tys: Vec<&Ty>, what: &str| {
        if let Some(f) = parts[k] {
            if tys.iter().any(|t| *t != m) {
                errs.push(&f.sig, format!("a reduction's `{}`: {what} of `map`'s result type", PARTS[k]));
            }
        }
    };
    if let Some(s) = &sigs[0] {
        want(0, s.outs.iter().collect(), "returns a value");
    }
    if let Some(s) = &sigs[2] {
        want(2, s.params.iter().map(|p| &p.ty).chain(&s.outs).collect(), "takes and returns values");
    }
    if let Some(s) = &sigs[3] {
        want(3, s.params.iter().map(|p| &p.ty).collect(), "takes a value");
    }
}
