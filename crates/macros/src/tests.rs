//! Expansions of sample items through the internal functions.
use crate::emit;
use proc_macro2::TokenStream;

/// The token string of an expansion, checked to parse as a file. The item is parsed from a
/// string, so that its tokens have positions (lines of the string, columns from 0).
fn expand(f: fn(TokenStream, TokenStream) -> TokenStream, src: &str) -> String {
    let item: TokenStream = src.parse().expect("tokens");
    let out = f(TokenStream::new(), item);
    if let Err(e) = syn::parse2::<syn::File>(out.clone()) {
        panic!("the expansion does not parse: {e}\n{out}");
    }
    out.to_string()
}

fn kernel(item: &str) -> String {
    expand(emit::kernel, item)
}

/// Whitespace-free, to compare with what is written by hand.
fn squash(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

fn has(out: &str, want: &str) {
    assert!(squash(out).contains(&squash(want)), "expected `{want}` in:\n{out}");
}

fn lacks(out: &str, want: &str) {
    assert!(!squash(out).contains(&squash(want)), "did not expect `{want}` in:\n{out}");
}

/// The messages of the `compile_error!`s of an expansion.
fn errors(out: &str) -> Vec<String> {
    let file: syn::File = syn::parse_str(out).expect("parses");
    let mut v = Vec::new();
    for it in file.items {
        if let syn::Item::Macro(m) = it {
            if m.mac.path.segments.last().is_some_and(|s| s.ident == "compile_error") {
                let s: syn::LitStr = m.mac.parse_body().expect("a message");
                v.push(s.value());
            }
        }
    }
    v
}

fn kernel_errors(item: &str) -> Vec<String> {
    errors(&kernel(item))
}

fn one_error(item: &str, want: &str) {
    let e = kernel_errors(item);
    assert!(e.iter().any(|e| e.contains(want)), "expected an error with `{want}`, got {e:#?}");
}

#[test]
fn leaky_relu_expansion() {
    let item = "/// Leaky ReLU.
pub fn leaky_relu<T: Float>(x: T, alpha: T) -> T {
    if x > T::ZERO { x } else { alpha * x }
}";
    let out = kernel(item);
    assert!(errors(&out).is_empty());
    has(&out, "#[inline(always)] #[allow(clippy::needless_range_loop, clippy::manual_is_multiple_of)] #[doc = \" Leaky ReLU.\"] pub fn leaky_relu<T: Float>(x: T, alpha: T) -> T");
    has(&out, "pub mod leaky_relu { use super::*;");
    has(&out, "generics: ::std::vec![(\"T\", ::xp::__rt::ast::Bound::Float)]");
    has(&out, "::xp::__rt::ast::Param { name: \"x\", ty: ::xp::__rt::ast::Ty::Gen(\"T\"), kind: ::xp::__rt::ast::ParamKind::Value }");
    has(&out, "outs: ::std::vec![::xp::__rt::ast::Ty::Gen(\"T\")]");
    has(&out, "::xp::__rt::ast::E::Bin(::xp::__rt::ast::BinOp::Gt");
    // `x` of `x > T::ZERO`: line 3, column 7
    has(&out, "::xp::__rt::ast::E::Var(\"x\"), 3u32, 7u32");
    has(&out, "::xp::__rt::ast::E::Const(::xp::__rt::ast::Ty::Gen(\"T\"), \"ZERO\"), 3u32, 11u32");
    has(&out, "[::xp::__rt::DType::F32] => __xp_chunk::<f32>(__xp_start, __xp_ins, __xp_outs)");
    has(&out, "[::xp::__rt::DType::F64] => __xp_chunk::<f64>");
    has(&out, "fn __xp_chunk<T: ::xp::__rt::Float>");
    has(&out, "__xp_o0[__xp_j] = super::leaky_relu::<T>(__xp_c0[__xp_j], __xp_c1[__xp_j]);");
    has(&out, "pub fn call<'a>(x: impl ::core::convert::Into<::xp::__rt::Operand<'a>>, alpha:");
    has(&out, "out0: &::xp::__rt::Array");
    let file: syn::File = syn::parse_str(&out).expect("parses");
    let pretty = prettyplease::unparse(&file);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/expanded_leaky_relu.txt");
    let text = format!(
        "// The expansion of #[xp::kernel] on leaky_relu (written by the unit test `leaky_relu_expansion`\n// of xp-macros; rerun it with XP_BLESS=1 to update).\n\n{pretty}"
    );
    if std::env::var_os("XP_BLESS").is_some() || !std::path::Path::new(path).exists() {
        std::fs::write(path, &text).expect("writes the sample");
    } else {
        let old = std::fs::read_to_string(path).expect("reads the sample");
        assert!(old == text, "tests/expanded_leaky_relu.txt is out of date: rerun with XP_BLESS=1");
    }
}

#[test]
fn statements_and_literals() {
    let out = kernel(
        "fn f(x: f32, n: i32) -> f32 {
            let mut acc: f32 = 0.0;
            let k = 3u8;
            let big = 1_000_000;
            let e = 1e-3f64;
            let one = 1f32;
            let mut buf: [f32; 4] = [0.0; 4];
            let w = [1.5; 8];
            let t;
            t = true;
            buf[0] = x;
            acc += x * 2.0;
            acc
        }",
    );
    has(&out, "::xp::__rt::ast::Stmt::Let { name: \"acc\", ty: ::core::option::Option::Some(::xp::__rt::ast::Ty::D(::xp::__rt::DType::F32)), init: ::core::option::Option::Some(::xp::__rt::ast::Expr::at(::xp::__rt::ast::E::Float(\"0.0\", ::core::option::Option::None)");
    has(&out, "E::Int(3u128, ::core::option::Option::Some(::xp::__rt::ast::Ty::D(::xp::__rt::DType::U8)))");
    has(&out, "E::Int(1000000u128, ::core::option::Option::None)");
    has(&out, "E::Float(\"1e-3\", ::core::option::Option::Some(::xp::__rt::ast::Ty::D(::xp::__rt::DType::F64)))");
    has(&out, "E::Float(\"1.0\", ::core::option::Option::Some(::xp::__rt::ast::Ty::D(::xp::__rt::DType::F32)))");
    has(&out, "::xp::__rt::ast::Stmt::Array { name: \"buf\", ty: ::core::option::Option::Some(::xp::__rt::ast::Ty::D(::xp::__rt::DType::F32)), elem:");
    has(&out, "len: 4usize }");
    has(&out, "::xp::__rt::ast::Stmt::Array { name: \"w\", ty: ::core::option::Option::None");
    has(&out, "::xp::__rt::ast::Stmt::Let { name: \"t\", ty: ::core::option::Option::None, init: ::core::option::Option::None }");
    has(&out, "E::Assign(::core::option::Option::None, ::xp::__rt::ast::bx(::xp::__rt::ast::Expr::at(::xp::__rt::ast::E::Var(\"t\")");
    has(&out, "E::Bool(true)");
    has(&out, "E::Assign(::core::option::Option::None, ::xp::__rt::ast::bx(::xp::__rt::ast::Expr::at(::xp::__rt::ast::E::Index(");
    has(&out, "E::Assign(::core::option::Option::Some(::xp::__rt::ast::BinOp::Add)");
    has(&out, "tail: ::core::option::Option::Some(::xp::__rt::ast::bx(::xp::__rt::ast::Expr::at(::xp::__rt::ast::E::Var(\"acc\"), 13u32, 12u32)))");
}

#[test]
fn operators_casts_consts() {
    let out = kernel(
        "fn f<T: Float, U: Int>(x: T, m: U, b: bool) -> T {
            let a = -x;
            let c = !b && (m << 2u32) > U::ZERO || m % U::ONE != U::MAX;
            let d = (m as f64) as usize;
            let e = T::lit(0.5) + T::EPSILON + f64::consts::PI as f32 as T;
            let g = std::f32::consts::E + core::f64::consts::LN_2 as f32 + f32::MAX;
            let h = m ^ m & m | m >> 1u32;
            x <= a
        }",
    );
    has(&out, "E::Un(::xp::__rt::ast::UnOp::Neg");
    has(&out, "E::Un(::xp::__rt::ast::UnOp::Not");
    for op in ["And", "Or", "Shl", "Gt", "Rem", "Ne", "BitXor", "BitAnd", "BitOr", "Shr", "Le", "Add"] {
        has(&out, &format!("E::Bin(::xp::__rt::ast::BinOp::{op},"));
    }
    has(&out, "E::Const(::xp::__rt::ast::Ty::Gen(\"U\"), \"ZERO\")");
    has(&out, "E::Const(::xp::__rt::ast::Ty::Gen(\"T\"), \"EPSILON\")");
    has(&out, "E::Const(::xp::__rt::ast::Ty::D(::xp::__rt::DType::F64), \"PI\")");
    has(&out, "E::Const(::xp::__rt::ast::Ty::D(::xp::__rt::DType::F32), \"E\")");
    has(&out, "E::Const(::xp::__rt::ast::Ty::D(::xp::__rt::DType::F64), \"LN_2\")");
    has(&out, "E::Const(::xp::__rt::ast::Ty::D(::xp::__rt::DType::F32), \"MAX\")");
    has(&out, "E::Lit(::xp::__rt::ast::Ty::Gen(\"T\"),");
    has(&out, ", ::xp::__rt::ast::Ty::D(::xp::__rt::DType::U64))"); // as usize
    has(&out, ", ::xp::__rt::ast::Ty::Gen(\"T\"))"); // as T
                                                     // 2 generics: 2 × 8 arms
    has(&out, "[::xp::__rt::DType::F64, ::xp::__rt::DType::U64] => __xp_chunk::<f64, u64>");
    has(&out, "__xp_c2[__xp_j]"); // the bool column
    has(&out, "<bool as ::xp::__rt::Elem>::col(__xp_c2)");
}

#[test]
fn control_flow() {
    let out = kernel(
        "fn f(x: i32, y: f32) -> f32 {
            let mut s = 0.0f32;
            for i in 0..x { s += 1.0; }
            for _ in 0..=x { continue; }
            for i in (0..x).rev() { break; }
            for mut i in (1..=x).rev() { i += 1; }
            for i in (0..x).step_by(2) {}
            while s < 10.0 { s *= 2.0; }
            loop { if s > 1.0 { break; } else if s < 0.0 { return 0.0; } else { s += 1.0; } }
            let m = match x {
                0 => 1.0,
                1 | 2 if y > 0.0 => 2.0,
                -3 => 3.0,
                4..=6 | 10..20 => 4.0,
                ..=-10 => 5.0,
                100.. => 6.0,
                _ => 7.0,
            };
            let b = match y > 0.0 { true => 1, false => 0 };
            { s + m }
        }",
    );
    has(&out, "E::For { var: \"i\", lo:");
    has(&out, "inclusive: false, rev: false, step: ::core::option::Option::None, body:");
    has(&out, "E::For { var: \"_\",");
    has(&out, "inclusive: true, rev: false");
    has(&out, "inclusive: false, rev: true");
    has(&out, "inclusive: true, rev: true");
    has(&out, "rev: false, step: ::core::option::Option::Some(::xp::__rt::ast::bx(::xp::__rt::ast::Expr::at(::xp::__rt::ast::E::Int(2u128");
    has(&out, "E::While(");
    has(&out, "E::Loop(");
    has(&out, "E::Break");
    has(&out, "E::Continue");
    has(&out, "E::Return(::core::option::Option::Some(");
    has(&out, "E::If(");
    has(&out, "E::Match(");
    has(&out, "pats: ::std::vec![::xp::__rt::ast::Pat::Lit(0i128)], guard: ::core::option::Option::None");
    has(&out, "pats: ::std::vec![::xp::__rt::ast::Pat::Lit(1i128), ::xp::__rt::ast::Pat::Lit(2i128)], guard: ::core::option::Option::Some(");
    has(&out, "::xp::__rt::ast::Pat::Lit(-3i128)");
    has(&out, "::xp::__rt::ast::Pat::Range(::core::option::Option::Some(4i128), ::core::option::Option::Some(6i128), true), ::xp::__rt::ast::Pat::Range(::core::option::Option::Some(10i128), ::core::option::Option::Some(20i128), false)");
    has(&out, "::xp::__rt::ast::Pat::Range(::core::option::Option::None, ::core::option::Option::Some(-10i128), true)");
    has(
        &out,
        "::xp::__rt::ast::Pat::Range(::core::option::Option::Some(100i128), ::core::option::Option::None, false)",
    );
    has(&out, "::xp::__rt::ast::Pat::Wild");
    has(&out, "::xp::__rt::ast::Pat::Lit(1i128)], guard: ::core::option::Option::None, body: ::xp::__rt::ast::Expr::at(::xp::__rt::ast::E::Int(1u128");
    has(&out, "E::Block(::xp::__rt::ast::Block {");
}

#[test]
fn methods_and_calls() {
    let out = kernel(
        "fn f<T: Float>(x: T, r: Raw<T>, i: Index) -> (T, bool) {
            let a = x.sqrt().mul_add(x, T::ONE).max(x.abs());
            let b = r.at(i % r.len()) + T::sqrt(x);
            let c = math::erf(x) + xp::kernel::math::lgamma(x);
            let d = cnd(x) + helpers::cnd(x) + crate::dev::g(x) + ::other::h(x) + self::k(x) + super::m(x);
            let e = cnd(d);
            (a + b + c, x.is_nan())
        }",
    );
    has(&out, "E::Method(::xp::__rt::ast::bx(::xp::__rt::ast::Expr::at(::xp::__rt::ast::E::Method(::xp::__rt::ast::bx(::xp::__rt::ast::Expr::at(::xp::__rt::ast::E::Method(::xp::__rt::ast::bx(::xp::__rt::ast::Expr::at(::xp::__rt::ast::E::Var(\"x\")");
    has(&out, "\"sqrt\", ::std::vec![])");
    has(&out, "\"mul_add\", ::std::vec![");
    has(&out, "\"at\", ::std::vec![");
    has(&out, "\"len\", ::std::vec![])");
    has(&out, "\"is_nan\"");
    has(&out, "E::Call(\"erf\", ::std::vec![");
    has(&out, "E::Call(\"lgamma\", ::std::vec![");
    has(&out, "E::Call(\"cnd\", ::std::vec![");
    has(&out, "E::Call(\"helpers::cnd\", ::std::vec![");
    has(&out, "E::Tuple(::std::vec![");
    has(&out, "::xp::__rt::ast::Param { name: \"r\", ty: ::xp::__rt::ast::Ty::Gen(\"T\"), kind: ::xp::__rt::ast::ParamKind::Raw }");
    has(&out, "::xp::__rt::ast::Param { name: \"i\", ty: ::xp::__rt::ast::Ty::D(::xp::__rt::DType::I64), kind: ::xp::__rt::ast::ParamKind::Index }");
    has(&out, "outs: ::std::vec![::xp::__rt::ast::Ty::Gen(\"T\"), ::xp::__rt::ast::Ty::D(::xp::__rt::DType::Bool)]");
    // the callees, each once, by the name the call uses
    has(
        &out,
        "callees: ::std::vec![
            (\"cnd\", super::cnd::__xp_ast as fn() -> &'static ::xp::__rt::ast::Func),
            (\"helpers::cnd\", super::helpers::cnd::__xp_ast as fn() -> &'static ::xp::__rt::ast::Func),
            (\"crate::dev::g\", crate::dev::g::__xp_ast as fn() -> &'static ::xp::__rt::ast::Func),
            (\"::other::h\", ::other::h::__xp_ast as fn() -> &'static ::xp::__rt::ast::Func),
            (\"self::k\", super::k::__xp_ast as fn() -> &'static ::xp::__rt::ast::Func),
            (\"super::m\", super::super::m::__xp_ast as fn() -> &'static ::xp::__rt::ast::Func)
        ]",
    );
    // the native code: a Raw column is the whole array, the Index is not a column
    has(&out, "let [__xp_c0, __xp_c1] = __xp_ins else { return false };");
    has(&out, "let __xp_c1 = ::xp::__rt::Raw::new(__xp_c1);");
    lacks(&out, "if __xp_c1.len() < __xp_n");
    has(&out, "let [__xp_o0, __xp_o1] = __xp_outs else { return false };");
    has(&out, "<bool as ::xp::__rt::Elem>::col_mut(__xp_o1)");
    has(&out, "if __xp_o1.len() < __xp_n { return false; }");
    has(
        &out,
        "let (__xp_r0, __xp_r1) = super::f::<T>(__xp_c0[__xp_j], __xp_c1, __xp_start + __xp_j as ::xp::__rt::Index);
         __xp_o0[__xp_j] = __xp_r0; __xp_o1[__xp_j] = __xp_r1;",
    );
    // call: the arguments but the Index, two outputs
    has(&out, "pub fn call<'a>(x: impl ::core::convert::Into<::xp::__rt::Operand<'a>>, r: impl ::core::convert::Into<::xp::__rt::Operand<'a>>) -> ::xp::__rt::Result<(::xp::__rt::Array, ::xp::__rt::Array)>");
    has(&out, "::core::result::Result::Ok([__xp_a0, __xp_a1]) => ::core::result::Result::Ok((__xp_a0, __xp_a1))");
    has(&out, "out0: &::xp::__rt::Array, out1: &::xp::__rt::Array");
}

#[test]
fn usize_and_no_generics() {
    let out = kernel("fn f(n: usize, k: isize) -> usize { n + k as usize }");
    has(&out, "[] => __xp_chunk(__xp_start, __xp_ins, __xp_outs)");
    has(&out, "fn __xp_chunk(");
    has(&out, "<u64 as ::xp::__rt::Elem>::col(__xp_c0)");
    has(&out, "<i64 as ::xp::__rt::Elem>::col(__xp_c1)");
    has(&out, "__xp_o0[__xp_j] = super::f(__xp_c0[__xp_j] as usize, __xp_c1[__xp_j] as isize) as u64;");
    has(&out, "Ty::D(::xp::__rt::DType::U64)");
}

#[test]
fn clashing_names() {
    let out = kernel("fn f(out0: f32, kernel: f32, __xp_n: f32) -> f32 { out0 }");
    has(&out, "pub fn call_out<'a>(out0: impl ::core::convert::Into<::xp::__rt::Operand<'a>>, kernel: impl ::core::convert::Into<::xp::__rt::Operand<'a>>, __xp_n: impl ::core::convert::Into<::xp::__rt::Operand<'a>>, __xp_out0: &::xp::__rt::Array)");
    has(&out, "self::kernel().call_iter(");
}

#[test]
fn device_expansion() {
    let out = expand(
        emit::device,
        "pub(crate) fn cnd<T: Float>(d: T) -> T { T::ONE - math::erfc(d) * T::lit(0.5) + other(d) }",
    );
    assert!(errors(&out).is_empty(), "{out}");
    has(&out, "#[inline(always)] #[allow(clippy::needless_range_loop, clippy::manual_is_multiple_of)] pub(crate) fn cnd<T: Float>(d: T) -> T");
    has(&out, "#[doc(hidden)]");
    has(&out, "pub(crate) mod cnd { use super::*;");
    has(
        &out,
        "pub fn __xp_ast() -> &'static ::xp::__rt::ast::Func { static F: ::xp::__rt::OnceLock<::xp::__rt::ast::Func>",
    );
    has(&out, "(\"other\", super::other::__xp_ast as fn() -> &'static ::xp::__rt::ast::Func)");
    lacks(&out, "NativeKernel");
    let e = errors(&expand(emit::device, "fn g(x: f32, i: Index) -> (f32, f32) { (x, x) }"));
    assert!(e.iter().any(|e| e.contains("a device function has no `Index` parameter")), "{e:#?}");
    assert!(e.iter().any(|e| e.contains("a device function returns one value, not a tuple")), "{e:#?}");
}

#[test]
fn reduction_expansion() {
    let src = "pub mod l2norm {
        use xp::kernel::Float;
        fn identity<T: Float>() -> T { T::ZERO }
        fn map<T: Float>(x: T) -> T { sq(x) }
        #[inline]
        fn combine<T: Float>(a: T, b: T) -> T { a + b }
        fn finish<T: Float>(a: T) -> T { a.sqrt() }
    }";
    let out = expand(emit::reduction, src);
    assert!(errors(&out).is_empty(), "{out}");
    has(&out, "pub mod l2norm { use xp::kernel::Float;");
    let allow = "#[inline(always)] #[allow(clippy::needless_range_loop, clippy::manual_is_multiple_of)]";
    has(&out, &format!("{allow} #[doc = \"The reduction's identity: the value of an empty reduction.\"] #[allow(dead_code)] pub fn identity<T: Float>() -> T"));
    has(&out, &format!("{allow} #[doc = \"The reduction's `combine`: two values into one.\"] #[allow(dead_code)] pub fn combine<T: Float>(a: T, b: T) -> T"));
    lacks(&out, "#[inline] ");
    has(&out, "#[allow(dead_code)] #[doc = \"The reduction's `map` as data.\"] fn __xp_map() -> &'static ::xp::__rt::ast::Func");
    has(&out, "fn __xp_finish() -> &'static ::xp::__rt::ast::Func");
    has(&out, "(\"sq\", sq::__xp_ast as fn() -> &'static ::xp::__rt::ast::Func)");
    has(&out, "::xp::__rt::RustReduction::new(::core::module_path!(), \"l2norm\", __xp_map(), __xp_combine(), ::core::option::Option::Some(__xp_finish()), ::core::option::Option::Some(__xp_identity()), __XP_HASH,)");
    has(&out, "pub fn call<'a>(x: impl ::core::convert::Into<::xp::__rt::Operand<'a>>, axes: impl ::xp::__rt::IntoAxes) -> ::xp::__rt::Result<::xp::__rt::Array> { self::kernel().call(&[::core::convert::Into::into(x)], axes) }");
    has(&out, "pub fn call_keepdim<'a>(x: impl ::core::convert::Into<::xp::__rt::Operand<'a>>, axes: impl ::xp::__rt::IntoAxes) -> ::xp::__rt::Result<::xp::__rt::Array> { self::kernel().call_keepdim(&[::core::convert::Into::into(x)], axes) }");

    let minimal = expand(
        emit::reduction,
        "mod s { fn map(x: f32, i: Index) -> f32 { x } fn combine(a: f32, b: f32) -> f32 { a + b } }",
    );
    assert!(errors(&minimal).is_empty(), "{minimal}");
    has(&minimal, "__xp_map(), __xp_combine(), ::core::option::Option::None, ::core::option::Option::None, __XP_HASH");
}

#[test]
fn reduction_errors() {
    let e = errors(&expand(emit::reduction, "mod s { fn map(x: f32) -> f32 { x } }"));
    assert!(e.iter().any(|e| e.contains("a reduction has a `combine`")), "{e:#?}");
    let e = errors(&expand(
        emit::reduction,
        "mod s {
            struct A;
            fn helper() {}
            fn map<T: Float>(x: T) -> T { x }
            fn combine<T: Int>(a: T, b: T, c: T) -> T { map(a) }
            fn finish(a: f64) -> f32 { a as f32 }
            fn identity<T: Float>(z: T) -> T { z }
        }",
    ));
    for want in [
        "a reduction's module holds `use` items",
        "`helper` is not a function of a reduction",
        "a reduction's `combine` takes two parameters",
        "a reduction's `identity` takes no parameters",
        "`combine` has not those of `map`",
        "`finish` has not those of `map`",
        "a reduction's `finish`: takes a value of `map`'s result type",
        "a reduction's `map` is not callable",
    ] {
        assert!(e.iter().any(|e| e.contains(want)), "no `{want}` in {e:#?}");
    }
    let e = errors(&expand(emit::reduction, "fn map() {}"));
    assert!(e.iter().any(|e| e.contains("#[xp::reduction] applies to a module")), "{e:#?}");
}

#[test]
fn signature_errors() {
    let e = kernel_errors(
        "async unsafe fn f<'a, T: Copy, U, V: Float + Int, const N: usize, W: Float>(self, &x: f32, y: &f32, z: impl Float, w: f16, v: Vec<f32>, i: Index, j: Index, r: Raw<usize>) -> (f32, &f32) where W: Copy { 0.0 }",
    );
    for want in [
        "cannot be `async`",
        "cannot be `unsafe`",
        "has no lifetime parameters",
        "a generic parameter has one bound, `Float`, `Int` or `Num`",
        "has no const generics",
        "cannot have a `where` clause",
        "takes no `self`",
        "a parameter's pattern is a name",
        "the type `&f32` is outside the kernel subset",
        "the type `impl Float` is outside the kernel subset",
        "the type `f16` is outside the kernel subset",
        "the type `Vec<f32>` is outside the kernel subset",
        "at most one `Index` parameter",
        "`Raw<usize>` is not supported: write `Raw<u64>`",
    ] {
        assert!(e.iter().any(|e| e.contains(want)), "no `{want}` in {e:#?}");
    }
    one_error("fn f(x: f32) { }", "a kernel returns its outputs");
    one_error("fn f(x: f32) -> () { }", "the type `()` is outside");
    one_error("fn f<A: Num, B: Num, C: Num>(x: A, y: B, z: C) -> A { x }", "1000 bindings of types");
    assert!(kernel_errors("fn f<A: Num, B: Num>(x: A, y: B) -> A { x }").is_empty());
    let e = errors(&expand(emit::kernel, "struct S;"));
    assert!(e.iter().any(|e| e.contains("#[xp::kernel] applies to a function")), "{e:#?}");
    let out = emit::kernel("x".parse().expect("tokens"), "fn f(x: f32) -> f32 { x }".parse().expect("tokens"));
    assert!(errors(&out.to_string()).iter().any(|e| e.contains("takes no arguments")));
}

#[test]
fn body_errors() {
    let cases: &[(&str, &str)] = &[
        ("let g = |y: f32| y; x", "a closure is outside the kernel subset; allowed: `let`"),
        ("let r = &x; x", "a reference `&x` is outside the kernel subset"),
        ("let v = vec![x]; x", "the macro `vec!` is outside"),
        ("println!(\"{}\", x); x", "the macro `println!` is outside"),
        ("let s = x.to_string(); x", "the method `to_string` is outside the kernel subset; the methods are: sin, cos"),
        ("let (a, b) = x.sin_cos(); a", "the method `sin_cos` is outside"),
        ("let (a, b) = (x, x); a", "this `let` pattern"),
        ("let Some(a) = Some(x) else { return x }; a", "`let ... else` is outside"),
        ("let k = 1i32.checked_add(2); x", "write `wrapping_add`"),
        ("let k = 1i32.saturating_sub(2); x", "write `wrapping_sub`"),
        ("let k = x.powi::<i32>(2); x", "a turbofish on a method"),
        ("while let Some(y) = None::<f32> {} x", "`while let` is outside"),
        ("if let Some(y) = None::<f32> {} x", "`if let` is outside"),
        ("'a: loop { break 'a; } x", "a labelled loop is outside"),
        ("loop { break 'a; } x", "the labelled `break 'a` is outside"),
        ("loop { break 1.0; } x", "`break` with a value"),
        ("let p = P { v: x }; x", "a struct literal is outside"),
        ("let p = x.field; x", "a field access `a.b` is outside"),
        ("let y = x as f16; x", "`as f16`: a cast is to a primitive"),
        ("let y = 65u8 as char; x", "`as char`"),
        ("let y = &x as *const f32; x", "`as * const f32`"),
        ("for y in v.iter() {} x", "`for` runs over a range"),
        ("for y in 0.. {} x", "`for` runs over a range"),
        ("for (a, b) in 0..3 {} x", "the variable of a `for` is a name or `_`"),
        ("match 1 { y => x, }", "the binding pattern `y` is outside"),
        ("match 1 { y @ 1..=2 => x, _ => x }", "the binding pattern `y`"),
        ("match x { 1.0 => x, _ => x }", "a float literal pattern"),
        ("match 1 { (1, 2) => x, _ => x }", "this pattern"),
        ("unsafe { x }", "an `unsafe` block is outside"),
        ("let a = [x, x]; x", "an array literal `[a, b]`"),
        ("let r = 0..4; x", "a range outside `for`"),
        ("let s = \"a\"; x", "a string literal is outside"),
        ("let c = 'a'; x", "a char literal is outside"),
        ("let y = *x; x", "the dereference `*x` is outside"),
        ("let y = f::<f32>(x); x", "a turbofish `f::<T>`"),
        ("fn g() {} x", "a nested `fn`"),
        ("use std::f32; x", "a `use` item"),
        ("f(x)", "`f` calls itself"),
        ("self::f(x)", "`f` calls itself"),
        ("let y = Some(x); x", "the constructor `Some(..)`"),
        ("let y = f32::from_bits(1); x", "`f32::from_bits` is outside the kernel subset"),
        ("let y = math::sinpi(x); x", "`math::sinpi` is not a kernel math function; they are: erf"),
        ("let y = std::f32::EPSILON; x", "the path `std::f32::EPSILON` is outside"),
        ("(x + 1.0) = 2.0; x", "an assignment is to a variable or an array element"),
        ("let y = x?; x", "the `?` operator"),
        ("let y = async { x }; x", "an `async` block"),
        ("let y = 1i128; x", "the literal suffix `i128`"),
        ("let y = 1.0f16; x", "the literal suffix `f16`"),
        ("let y: [f32; 2] = z; x", "a local array is initialised by a repeat expression"),
        ("let y = [0.0; N]; x", "the length of a local array is an integer literal"),
    ];
    for (body, want) in cases {
        one_error(&format!("fn f(x: f32) -> f32 {{ {body} }}"), want);
    }
}

#[test]
fn every_violation_reported() {
    let e = kernel_errors("fn f(x: &f32) -> f32 { let g = |y: f32| y; let r = &x; x.sin_cos(); unsafe { x } }");
    assert_eq!(e.len(), 5, "{e:#?}");
}

#[test]
fn error_keeps_the_item() {
    let out = kernel("fn f(x: f32) -> f32 { let g = |y: f32| y; x }");
    has(&out, "fn f(x: f32) -> f32 { let g = |y: f32| y; x }");
    lacks(&out, "inline");
    lacks(&out, "mod f");
}

#[test]
fn fnv() {
    assert_eq!(emit::fnv1a(""), 0xcbf2_9ce4_8422_2325);
    assert_eq!(emit::fnv1a("a"), 0xaf63_dc4c_8601_ec8c);
}

#[test]
fn outside_values() {
    one_error("fn f(x: f32) -> f32 { x * K }", "`K` is not a parameter or a local variable");
    one_error("fn f(x: f32) -> f32 { let y = x; y + z }", "`z` is not a parameter or a local variable");
    // bound by parameters, `let` (after the initialiser) and `for`
    let ok = "fn f(x: f32, r#in: f32) -> f32 {
        let x = x + r#in;
        let mut a = [x; 2];
        for j in 0..2 { a[j] += x; }
        let s;
        s = a[0];
        s
    }";
    assert!(kernel_errors(ok).is_empty());
    one_error("fn f(x: f32) -> f32 { let y = y; x }", "`y` is not a parameter");
    // no second error at the uses of a name of a pattern outside the subset
    for body in [
        "let (a, b) = (x, x); a + b",
        "let Some(a) = Some(x) else { return x }; a",
        "match 1 { n => x * n as f32 }",
        "let mut s = x; for (a, b) in 0..3 { s += a as f32; } s",
    ] {
        let e = kernel_errors(&format!("fn f(x: f32) -> f32 {{ {body} }}"));
        assert!(!e.iter().any(|e| e.contains("is not a parameter")), "{body}: {e:#?}");
    }
}

fn raw(item: &str) -> String {
    expand(emit::raw_kernel, item)
}

fn raw_errors(item: &str) -> Vec<String> {
    errors(&raw(item))
}

#[test]
fn raw_kernel_expansion() {
    let out = raw("pub fn saxpy<T: Float>(a: T, x: Raw<T>, y: Raw<T>, out: RawMut<T>, n: i64) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as i64;
    if i < n { out.set(i, a * x.at(i) + y.at(i)); }
}");
    assert!(errors(&out).is_empty(), "{out}");
    has(&out, "#[allow(dead_code)] #[inline(always)] #[allow(clippy::needless_range_loop, clippy::manual_is_multiple_of)] pub fn saxpy<T: Float>(a: T, x: Raw<T>, y: Raw<T>, out: RawMut<T>, n: i64) {");
    has(&out, "pub mod saxpy { use super::*; #[doc = \"The function as data.\"] fn __xp_func() -> &'static ::xp::__rt::ast::Func");
    has(&out, "::xp::__rt::ast::Param { name: \"x\", ty: ::xp::__rt::ast::Ty::Gen(\"T\"), kind: ::xp::__rt::ast::ParamKind::Raw }");
    has(&out, "::xp::__rt::ast::Param { name: \"out\", ty: ::xp::__rt::ast::Ty::Gen(\"T\"), kind: ::xp::__rt::ast::ParamKind::RawMut }");
    has(&out, "outs: ::std::vec![], body:");
    has(&out, "callees: ::std::vec![]");
    for b in ["block_idx", "block_dim", "thread_idx"] {
        has(&out, &format!("::xp::__rt::ast::E::Builtin(\"{b}\", 0u8)"));
    }
    has(&out, "::xp::__rt::ast::E::Var(\"out\"), 3u32, 15u32)), \"set\", ::std::vec![");
    has(&out, "pub fn kernel() -> &'static ::xp::__rt::RustRawKernel { static K: ::xp::__rt::OnceLock<::xp::__rt::RustRawKernel> = ::xp::__rt::OnceLock::new(); K.get_or_init(|| ::xp::__rt::RustRawKernel::new(::core::module_path!(), __xp_func(), __XP_HASH, __XP_LOCKSTEP)) }");
    has(&out, "const __XP_LOCKSTEP: bool = false;");
    has(&out, "pub fn launch<'a>(grid: impl ::core::convert::Into<::xp::__rt::Dim3>, block: impl ::core::convert::Into<::xp::__rt::Dim3>, a: impl ::core::convert::Into<::xp::__rt::Operand<'a>>, x: impl ::core::convert::Into<::xp::__rt::Operand<'a>>, y: impl ::core::convert::Into<::xp::__rt::Operand<'a>>, out: impl ::core::convert::Into<::xp::__rt::Operand<'a>>, n: impl ::core::convert::Into<::xp::__rt::Operand<'a>>) -> ::xp::__rt::Result<()>");
    has(&out, "self::kernel().launch(::core::convert::Into::<::xp::__rt::Dim3>::into(grid), ::core::convert::Into::<::xp::__rt::Dim3>::into(block), &[::core::convert::Into::into(a), ::core::convert::Into::into(x), ::core::convert::Into::into(y), ::core::convert::Into::into(out), ::core::convert::Into::into(n)])");
    lacks(&out, "NativeKernel");
    lacks(&out, "__xp_chunk");
    // `-> ()` as no return type; parameters called `grid` and `block`
    let out = raw("fn f(grid: u32, block: u32, o: RawMut<u32>) -> () { o.set(0, grid + block); }");
    assert!(errors(&out).is_empty(), "{out}");
    has(&out, "pub fn launch<'a>(__xp_grid: impl ::core::convert::Into<::xp::__rt::Dim3>, __xp_block:");
}

#[test]
fn raw_kernel_constructs() {
    let out = raw("fn f<T: Float>(x: Raw<T>, o: RawMut<T>, h: RawMut<i32>, n: i64) {
        let mut s = shared::<T, 256>();
        let t = gpu::shared::<f32, {16}>();
        let u = xp::kernel::gpu::shared::<u8, 49152>();
        let mut w = ::xp::kernel::gpu::shared::<f64, 6144>();
        let tid = thread_idx().x as usize;
        let g = (grid_dim().z + block_dim().y + block_idx().z + thread_idx().y) as i64;
        if g > n { return; }
        s[tid] = x.at(tid as i64);
        sync_threads();
        let mut v = s[tid];
        v = v + shfl_down(v, 16) + gpu::shfl_up(v, 1) + shfl_xor(v, 2) + xp::kernel::gpu::shfl(v, 0);
        if lane_id() == 0 && warp_size() == 32 { o.atomic_add(0, v); }
        let old = h.atomic_sub(0, 1) + h.atomic_max(1, 2) + h.atomic_min(2, 3) + h.atomic_exch(3, 4);
        let c = h.atomic_cas(4, old, 5);
        o.set(1, o.at(0) + T::lit(o.len() as f64));
        let k = helpers::lane_id();
    }");
    assert!(errors(&out).is_empty(), "{out}");
    let shared = |name: &str, ty: &str, len: usize| {
        format!("::xp::__rt::ast::Stmt::Shared {{ name: \"{name}\", ty: {ty}, len: {len}usize }}")
    };
    has(&out, &shared("s", "::xp::__rt::ast::Ty::Gen(\"T\")", 256));
    has(&out, &shared("t", "::xp::__rt::ast::Ty::D(::xp::__rt::DType::F32)", 16));
    has(&out, &shared("u", "::xp::__rt::ast::Ty::D(::xp::__rt::DType::U8)", 49152));
    has(&out, &shared("w", "::xp::__rt::ast::Ty::D(::xp::__rt::DType::F64)", 6144));
    for (b, k) in [("thread_idx", 0), ("grid_dim", 2), ("block_dim", 1), ("block_idx", 2), ("thread_idx", 1)] {
        has(&out, &format!("::xp::__rt::ast::E::Builtin(\"{b}\", {k}u8)"));
    }
    has(&out, "::xp::__rt::ast::E::Builtin(\"lane_id\", 0u8)");
    has(&out, "::xp::__rt::ast::E::Builtin(\"warp_size\", 0u8)");
    has(&out, "::xp::__rt::ast::E::Return(::core::option::Option::None)");
    has(&out, "::xp::__rt::ast::E::Call(\"sync_threads\", ::std::vec![])");
    for sh in ["shfl_down", "shfl_up", "shfl_xor", "shfl"] {
        has(&out, &format!("::xp::__rt::ast::E::Call(\"{sh}\", ::std::vec![::xp::__rt::ast::Expr::at(::xp::__rt::ast::E::Var(\"v\")"));
    }
    for m in ["atomic_add", "atomic_sub", "atomic_max", "atomic_min", "atomic_exch", "atomic_cas", "set", "at", "len"] {
        has(&out, &format!("\"{m}\", ::std::vec!["));
    }
    // the GPU functions are no callees; a path of another module is
    has(
        &out,
        "callees: ::std::vec![(\"helpers::lane_id\", super::helpers::lane_id::__xp_ast as fn() -> &'static ::xp::__rt::ast::Func)]",
    );
    has(&out, "const __XP_LOCKSTEP: bool = true;");
    // each of shared memory, the barrier and a shuffle makes a kernel lockstep
    for body in ["let s = shared::<f32, 4>();", "sync_threads();", "let v = shfl_xor(1.0f32, 1);"] {
        let out = raw(&format!("fn f(o: RawMut<f32>) {{ {body} }}"));
        assert!(errors(&out).is_empty(), "{out}");
        has(&out, "const __XP_LOCKSTEP: bool = true;");
    }
    let out = raw("fn f(o: RawMut<f32>) { let l = lane_id(); o.atomic_add(0, 1.0); }");
    has(&out, "const __XP_LOCKSTEP: bool = false;");
}

#[test]
fn raw_only_elsewhere() {
    for (body, want) in [
        ("let i = thread_idx().x; x", "`thread_idx()` is available only in #[xp::raw_kernel]"),
        ("let i = gpu::block_dim(); x", "`block_dim()` is available only in #[xp::raw_kernel]"),
        ("sync_threads(); x", "`sync_threads()` is available only in #[xp::raw_kernel]"),
        ("shfl_down(x, 1)", "`shfl_down()` is available only in #[xp::raw_kernel]"),
        ("xp::kernel::gpu::shfl(x, 1)", "`shfl()` is available only in #[xp::raw_kernel]"),
        ("let s = shared::<f32, 4>(); x", "`shared::<T, N>()` is available only in #[xp::raw_kernel]"),
        ("shared::<f32, 4>(); x", "`shared::<T, N>()` is available only in #[xp::raw_kernel]"),
        ("let l = lane_id(); x", "`lane_id()` is available only in #[xp::raw_kernel]"),
        ("let w = warp_size(); x", "`warp_size()` is available only in #[xp::raw_kernel]"),
        ("r.set(0, x); x", "`.set()` (on a `RawMut<T>` parameter) is available only in #[xp::raw_kernel]"),
        ("r.atomic_cas(0, x, x)", "`.atomic_cas()` (on a `RawMut<T>` parameter) is available only"),
    ] {
        let item = format!("fn f(x: f32, r: Raw<f32>) -> f32 {{ {body} }}");
        one_error(&item, want);
        let e = errors(&expand(emit::device, &item.replace(", r: Raw<f32>", "")));
        assert!(e.iter().any(|e| e.contains(&want[..12])), "device: {body}: {e:#?}");
    }
    one_error(
        "fn f(x: f32, o: RawMut<f32>) -> f32 { x }",
        "a `RawMut<T>` parameter is available only in #[xp::raw_kernel]",
    );
    let e = errors(&expand(
        emit::reduction,
        "mod s { fn map(x: f32) -> f32 { x + thread_idx().x as f32 } fn combine(a: f32, b: f32) -> f32 { sync_threads(); a + b } }",
    ));
    for want in ["`thread_idx()` is available only", "`sync_threads()` is available only"] {
        assert!(e.iter().any(|e| e.contains(want)), "no `{want}` in {e:#?}");
    }
    // no field-access error besides
    let e = kernel_errors("fn f(x: f32) -> f32 { let i = thread_idx().x; x }");
    assert_eq!(e.len(), 1, "{e:#?}");
}

#[test]
fn raw_kernel_errors() {
    let one = |item: &str, want: &str| {
        let e = raw_errors(item);
        assert!(e.iter().any(|e| e.contains(want)), "{item}: expected an error with `{want}`, got {e:#?}");
    };
    one("fn f(x: f32) -> f32 { x }", "a raw kernel returns nothing: it writes its results through `RawMut<T>`");
    one("fn f(x: f32) -> (f32, f32) { (x, x) }", "a raw kernel returns nothing");
    one("fn f(i: Index, o: RawMut<f32>) {}", "a raw kernel has no `Index` parameter: its threads compute");
    one("fn f(o: RawMut<usize>) {}", "`RawMut<usize>` is not supported: write `RawMut<u64>`");
    one("fn f(o: RawMut<f32, f32>) {}", "`RawMut<T>` takes one element type");
    one("fn f(o: RawMut<Vec<f32>>) {}", "`RawMut<T>` takes one element type");
    one("fn f(x: &f32) {}", "the type `&f32` is outside the kernel subset; the types are `f32`, `f64`, `i8`, `i16`, `i32`, `i64`, `u8`, `u16`, `u32`, `u64`, `bool`, `usize`, `isize`, a generic parameter (`T: Float`, `T: Int` or `T: Num`), `Raw<T>` (a whole array, read) and `RawMut<T>` (a whole array, written)");
    // no native instances: no limit on the bindings of the generics
    assert!(raw_errors("fn f<A: Num, B: Num, C: Num>(o: RawMut<A>, b: B, c: C) {}").is_empty());
    assert!(raw_errors("fn f<'a, T: Float>(o: RawMut<'a, T>, x: Raw<'a, T>, n: usize) -> () { return; }")
        .iter()
        .any(|e| e.contains("no lifetime parameters")));
    assert!(raw_errors("fn f<T: Float>(o: RawMut<'_, T>, x: Raw<T>, n: usize) {}").is_empty());
    let cases: &[(&str, &str)] = &[
        (
            "let s = shared::<f32, 0>();",
            "the length of a shared array of `f32` is 1 ..= 12288: a block has 49152 bytes",
        ),
        ("let s = shared::<f32, 12289>();", "of `f32` is 1 ..= 12288"),
        ("let s = shared::<f64, 6145>();", "of `f64` is 1 ..= 6144"),
        ("let s = shared::<T, 6145>();", "of `T` (up to 8 bytes) is 1 ..= 6144"),
        ("let s = shared::<u8, 49153>();", "of `u8` is 1 ..= 49152"),
        ("let s = shared::<f32>();", "a shared array is `shared::<T, N>()`"),
        ("let s = shared();", "a shared array is `shared::<T, N>()`"),
        ("let s = shared::<256, f32>();", "a shared array is `shared::<T, N>()`"),
        ("let s = shared::<Vec<f32>, 4>();", "the type `Vec<f32>` is outside"),
        ("let s = shared::<f32, N>();", "the length of a shared array is an integer literal"),
        ("let s = shared::<f32, { 2 * 8 }>();", "the length of a shared array is an integer literal"),
        ("let s: [f32; 4] = shared::<f32, 4>();", "a shared array's type is in its turbofish"),
        ("let s = shared::<f32, 4>(1);", "`shared::<T, N>()` takes no arguments"),
        ("let (a, b) = shared::<f32, 4>();", "this `let` pattern"),
        ("shared::<f32, 4>();", "`shared::<T, N>()` initialises a `let`"),
        ("let v = thread_idx().w;", "`thread_idx()` is a `Dim3`: its fields are `.x`, `.y` and `.z`"),
        ("let v = grid_dim().0;", "`grid_dim()` is a `Dim3`: its fields are"),
        ("let v = thread_idx();", "`thread_idx()` is a `Dim3`: read one of its fields, `thread_idx().x`"),
        ("let v = thread_idx(1).x;", "`thread_idx()` takes no arguments"),
        ("let v = block_idx::<u32>().x;", "a turbofish"),
        ("let l = lane_id::<u32>();", "a turbofish"),
        ("let l = warp_size(1);", "`warp_size()` takes no arguments"),
        ("sync_threads(1);", "`sync_threads()` takes no arguments"),
        ("let v = shfl_down(1.0f32);", "`shfl_down(v, delta)` takes 2 arguments"),
        ("let v = shfl_xor(1.0f32, 1, 2);", "`shfl_xor(v, mask)` takes 2 arguments"),
        ("let v = shfl(1.0f32);", "`shfl(v, lane)` takes 2 arguments"),
        ("x.set(0, 1.0);", "`.set()` writes a `RawMut<T>` parameter: `out.set(j, v)`"),
        ("let y = 1.0f32; y.atomic_add(0, 1.0);", "`.atomic_add()` writes a `RawMut<T>` parameter"),
        ("o.set(0);", "`out.set(j, v)` takes 2 arguments"),
        ("o.atomic_cas(0, 1.0);", "`out.atomic_cas(j, compare, v)` takes 3 arguments"),
        ("let m = o.foo();", "the method `foo` is outside the kernel subset; the methods are: sin"),
        ("let m = o.foo();", ", to_i64, set, atomic_add, atomic_sub, atomic_max, atomic_min, atomic_exch, atomic_cas"),
        ("let p = o.field;", "a field access `a.b` is outside"),
        ("let p = (o.at(0), 1).0;", "a field access `a.b` is outside"),
    ];
    for (body, want) in cases {
        one(&format!("fn f<T: Float>(x: Raw<f32>, o: RawMut<f32>) {{ {body} }}"), want);
    }
}
