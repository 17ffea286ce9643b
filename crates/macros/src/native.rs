//! The native dispatch of a kernel: a `NativeKernel` whose `run` picks the instance of the
//! function for the dtypes bound to its generic parameters, and runs it over a block of elements.
use crate::sig::{dtype, Kind, Prim, Sig};
use crate::Errors;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// The most instances the dispatch writes (the product of the generics' types).
pub const MAX_ARMS: usize = 100;

/// Every binding of the generic parameters to primitives, in order.
fn bindings(sig: &Sig) -> Vec<Vec<Prim>> {
    sig.generics.iter().fold(vec![Vec::new()], |acc, g| {
        acc.iter()
            .flat_map(|b| {
                g.bound.prims().into_iter().map(move |p| {
                    let mut b = b.clone();
                    b.push(p);
                    b
                })
            })
            .collect()
    })
}

/// `struct __XpNative; impl NativeKernel for __XpNative { .. }` and the generic `__xp_chunk`
/// that runs `super::name` over one block.
pub fn native(sig: &Sig, errs: &mut Errors) -> TokenStream {
    if sig.outs.is_empty() {
        return TokenStream::new(); // the signature's error is reported
    }
    let arms: usize = sig.generics.iter().map(|g| g.bound.prims().len()).product();
    if arms > MAX_ARMS {
        errs.push(
            &sig.name,
            format!(
                "a kernel's generic parameters have {arms} bindings of types, over the {MAX_ARMS} that its native code is written for: use fewer parameters or narrower bounds (`Float` is 2 types, `Int` 8, `Num` 10)"
            ),
        );
        return TokenStream::new();
    }
    let arms = bindings(sig).into_iter().map(|b| {
        let dts = b.iter().map(|p| dtype(*p));
        let tys = b.iter().map(|p| format_ident!("{}", p.elem));
        let turbofish = if b.is_empty() { quote!() } else { quote!(::<#(#tys),*>) };
        quote!([#(#dts),*] => __xp_chunk #turbofish(__xp_start, __xp_ins, __xp_outs))
    });
    let chunk = chunk(sig);
    quote! {
        struct __XpNative;
        impl ::xp::__rt::NativeKernel for __XpNative {
            fn run(
                &self,
                __xp_bind: &[::xp::__rt::DType],
                __xp_start: ::xp::__rt::Index,
                __xp_ins: &[::xp::__rt::Col<'_>],
                __xp_outs: &mut [::xp::__rt::ColMut<'_>],
            ) -> bool {
                match __xp_bind {
                    #(#arms,)*
                    _ => false,
                }
            }
        }
        #chunk
    }
}

fn chunk(sig: &Sig) -> TokenStream {
    let name = &sig.name;
    let gens: Vec<_> = sig.generics.iter().map(|g| &g.name).collect();
    let bounds = sig.generics.iter().map(|g| {
        let (n, b) = (&g.name, g.bound.trait_path());
        quote!(#n: #b)
    });
    let bounds = if gens.is_empty() { quote!() } else { quote!(<#(#bounds),*>) };
    let elem = quote!(::xp::__rt::Elem);
    let some = quote!(::core::option::Option::Some);
    // the columns of the arguments
    let args: Vec<_> = sig.args().collect();
    let cols: Vec<_> = (0..args.len()).map(|k| format_ident!("__xp_c{}", k)).collect();
    let col_of = args.iter().zip(&cols).map(|(p, c)| {
        let t = p.ty.elem();
        quote!(let #some(#c) = <#t as #elem>::col(#c) else { return false };)
    });
    let outs: Vec<_> = (0..sig.outs.len()).map(|k| format_ident!("__xp_o{}", k)).collect();
    let out_of = sig.outs.iter().zip(&outs).map(|(t, o)| {
        let t = t.elem();
        quote!(let #some(#o) = <#t as #elem>::col_mut(#o) else { return false };)
    });
    // every value column and every output is at least n long; reslice them to n
    let values: Vec<_> = args.iter().zip(&cols).filter(|(p, _)| p.kind == Kind::Value).map(|(_, c)| c).collect();
    let long = values.iter().copied().chain(outs.iter().skip(1));
    let raws = args.iter().zip(&cols).filter(|(p, _)| p.kind == Kind::Raw).map(|(_, c)| c);
    let mut k = 0;
    let call_args = sig.params.iter().map(|p| match p.kind {
        Kind::Index => quote!(__xp_start + __xp_j as ::xp::__rt::Index),
        Kind::Raw | Kind::RawMut => {
            let c = &cols[k];
            k += 1;
            quote!(#c)
        }
        Kind::Value => {
            let c = &cols[k];
            k += 1;
            match p.ty.converted() {
                Some(t) => quote!(#c[__xp_j] as #t),
                None => quote!(#c[__xp_j]),
            }
        }
    });
    let turbofish = if gens.is_empty() { quote!() } else { quote!(::<#(#gens),*>) };
    let call = quote!(super::#name #turbofish(#(#call_args),*));
    let store = |o: &syn::Ident, r: TokenStream, t: &crate::sig::Ty| match t.converted() {
        Some(_) => {
            let e = t.elem();
            quote!(#o[__xp_j] = #r as #e;)
        }
        None => quote!(#o[__xp_j] = #r;),
    };
    let body = if sig.tuple {
        let rs: Vec<_> = (0..outs.len()).map(|k| format_ident!("__xp_r{}", k)).collect();
        let stores = outs.iter().zip(&rs).zip(&sig.outs).map(|((o, r), t)| store(o, quote!(#r), t));
        quote!(let (#(#rs),*) = #call; #(#stores)*)
    } else {
        store(&outs[0], call, &sig.outs[0])
    };
    let o0 = &outs[0];
    quote! {
        #[inline(never)]
        fn __xp_chunk #bounds (
            __xp_start: ::xp::__rt::Index,
            __xp_ins: &[::xp::__rt::Col<'_>],
            __xp_outs: &mut [::xp::__rt::ColMut<'_>],
        ) -> bool {
            let [#(#cols),*] = __xp_ins else { return false };
            #(#col_of)*
            let [#(#outs),*] = __xp_outs else { return false };
            #(#out_of)*
            let __xp_n = #o0.len();
            #(if #long.len() < __xp_n { return false; })*
            #(let #values = &#values[..__xp_n];)*
            #(let #outs = &mut #outs[..__xp_n];)*
            #(let #raws = ::xp::__rt::Raw::new(#raws);)*
            for __xp_j in 0..__xp_n {
                #body
            }
            true
        }
    }
}
