//! The expansions compiled and run natively: against the AST and the native traits of xp-core
//! (its files, included as they are) and a stand-in for the rest of `xp::__rt` (the kernels and
//! arrays of xp), so that the generated code is type-checked and its native dispatch run.
#![deny(warnings, missing_docs)]

extern crate self as xp;

// xp-core's files, not this crate's: `cargo fmt -p xp-macros` leaves them alone
#[path = "../../core/src/kernel/rust/ast.rs"]
#[allow(clippy::type_complexity)]
#[rustfmt::skip]
pub mod ast;
#[path = "../../core/src/kernel/rust/native.rs"]
#[rustfmt::skip]
pub mod native;
// `xp::kernel::gpu`, the native stand-ins a raw kernel's plain function calls (its `xp_core`
// paths resolve to this crate: the `kernel::rust` module below)
#[path = "../../api/src/kernel/gpu.rs"]
#[rustfmt::skip]
pub mod gpu;
extern crate self as xp_core;
/// What `gpu.rs` imports from `xp_core`.
pub mod kernel {
    /// `xp_core::kernel::rust`
    pub mod rust {
        pub use crate::native::{Col, Elem};
    }
}

/// xp's dtypes (those the included files name).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum DType {
    Bool,
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    F16,
    BF16,
    F32,
    F64,
}

impl DType {
    /// bool and the integers
    pub fn is_integer(self) -> bool {
        !matches!(self, DType::F16 | DType::BF16 | DType::F32 | DType::F64)
    }
}

/// What the expansions name.
pub mod __rt {
    pub use crate::ast;
    pub use crate::native::{Col, ColMut, Elem, Float, Index, Int, NativeKernel, Num, Raw};
    pub use crate::DType;
    pub use std::sync::OnceLock;

    /// xp's result.
    pub type Result<T> = std::result::Result<T, String>;

    macro_rules! arrays {
        ($($v:ident $t:ty),*) => {
            /// An array: a column of one dtype.
            #[derive(Clone, Debug, PartialEq)]
            #[allow(missing_docs)]
            pub enum Array { $($v(Vec<$t>)),* }
            impl Array {
                fn zeros(d: DType, n: usize) -> Array {
                    match d {
                        $(DType::$v => Array::$v(vec![<$t>::default(); n]),)*
                        _ => unreachable!(),
                    }
                }
                fn col_mut(&mut self) -> ColMut<'_> {
                    match self { $(Array::$v(v) => ColMut::$v(v),)* }
                }
            }
            $(
                impl<'a> From<&'a [$t]> for Operand<'a> {
                    fn from(s: &'a [$t]) -> Self { Operand(Col::$v(s), DType::$v) }
                }
                impl<'a, const N: usize> From<&'a [$t; N]> for Operand<'a> {
                    fn from(s: &'a [$t; N]) -> Self { Operand(Col::$v(s), DType::$v) }
                }
            )*
        };
    }
    arrays!(Bool bool, I8 i8, I16 i16, I32 i32, I64 i64, U8 u8, U16 u16, U32 u32, U64 u64, F32 f32, F64 f64);

    /// An argument: a column and its dtype.
    #[derive(Clone, Copy, Debug)]
    pub struct Operand<'a>(Col<'a>, DType);

    /// A kernel.
    pub struct RustKernel {
        /// the module's path
        pub path: &'static str,
        /// the function
        pub func: &'static ast::Func,
        native: &'static dyn NativeKernel,
        /// the identity
        pub hash: u64,
    }

    impl RustKernel {
        /// A kernel.
        pub fn new(path: &'static str, func: &'static ast::Func, native: &'static dyn NativeKernel, hash: u64) -> Self {
            RustKernel { path, func, native, hash }
        }
        /// [`RustKernel::call`]'s outputs in order.
        pub fn call_iter(&self, args: &[Operand<'_>]) -> Result<std::vec::IntoIter<Array>> {
            self.call(args).map(Vec::into_iter)
        }
        /// Runs natively: the generics bound to the dtype of their first argument, the arrays
        /// of one length.
        pub fn call(&self, args: &[Operand<'_>]) -> Result<Vec<Array>> {
            let f = self.func;
            let params: Vec<&ast::Param> = f.params.iter().filter(|p| p.kind != ast::ParamKind::Index).collect();
            let bind: Vec<DType> = f
                .generics
                .iter()
                .map(|(g, _)| {
                    let k = params.iter().position(|p| p.ty == ast::Ty::Gen(g)).ok_or("an unbound generic")?;
                    Ok::<_, String>(args[k].1)
                })
                .collect::<Result<_>>()?;
            let n = params
                .iter()
                .zip(args)
                .filter(|(p, _)| p.kind == ast::ParamKind::Value)
                .map(|(_, a)| a.0.len())
                .max()
                .unwrap_or(1);
            let mut outs: Vec<Array> = f
                .outs
                .iter()
                .map(|t| match t {
                    ast::Ty::D(d) => Array::zeros(*d, n),
                    ast::Ty::Gen(g) => Array::zeros(bind[f.generics.iter().position(|(h, _)| h == g).unwrap()], n),
                })
                .collect();
            let ins: Vec<Col<'_>> = args.iter().map(|a| a.0).collect();
            let mut cols: Vec<ColMut<'_>> = outs.iter_mut().map(Array::col_mut).collect();
            if !self.native.run(&bind, 0, &ins, &mut cols) {
                return Err(format!("no native instance for {bind:?}"));
            }
            Ok(outs)
        }
        /// Runs into outputs (checks the counts only).
        pub fn call_out(&self, args: &[Operand<'_>], outs: &[&Array]) -> Result<()> {
            let v = self.call(args)?;
            if v.len() == outs.len() {
                Ok(())
            } else {
                Err("outputs".into())
            }
        }
    }

    /// A symbolic array (the stand-in records nothing).
    pub struct Sym;
    /// An operand of a symbolic op.
    pub struct SymOperand;
    macro_rules! sym_from {
        ($($t:ty),*) => {$(
            impl From<$t> for SymOperand {
                fn from(_: $t) -> Self {
                    SymOperand
                }
            }
        )*};
    }
    sym_from!(f32, f64, i32, i64, u32, u64, bool, usize, i8, u8, i16, u16);
    impl Sym {
        /// (not run by the stand-in)
        pub fn apply(_k: &'static RustKernel, _args: Vec<SymOperand>) -> Result<Vec<Sym>> {
            Err("not run".into())
        }
    }

    /// A launch's grid or block; the value of a builtin (`thread_idx()`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct Dim3 {
        /// x
        pub x: u32,
        /// y
        pub y: u32,
        /// z
        pub z: u32,
    }
    impl From<u32> for Dim3 {
        fn from(x: u32) -> Self {
            Dim3 { x, y: 1, z: 1 }
        }
    }
    impl From<(u32,)> for Dim3 {
        fn from((x,): (u32,)) -> Self {
            Dim3 { x, y: 1, z: 1 }
        }
    }
    impl From<(u32, u32)> for Dim3 {
        fn from((x, y): (u32, u32)) -> Self {
            Dim3 { x, y, z: 1 }
        }
    }
    impl From<(u32, u32, u32)> for Dim3 {
        fn from((x, y, z): (u32, u32, u32)) -> Self {
            Dim3 { x, y, z }
        }
    }

    /// A raw kernel.
    pub struct RustRawKernel {
        /// the module's path
        pub path: &'static str,
        /// the function
        pub func: &'static ast::Func,
        /// the identity
        pub hash: u64,
        /// whether its threads run in lockstep
        pub lockstep: bool,
    }

    impl RustRawKernel {
        /// A raw kernel.
        pub fn new(path: &'static str, func: &'static ast::Func, hash: u64, lockstep: bool) -> Self {
            RustRawKernel { path, func, hash, lockstep }
        }
        /// (not run by the stand-in; checks the count of the arguments)
        pub fn launch(&self, grid: impl Into<Dim3>, block: impl Into<Dim3>, args: &[Operand<'_>]) -> Result<()> {
            let (grid, block) = (grid.into(), block.into());
            if args.len() != self.func.params.len() || grid.x == 0 || block.x == 0 {
                return Err("arguments".into());
            }
            Err("not run".into())
        }
    }

    /// Axes of a reduction.
    pub trait IntoAxes {}
    impl IntoAxes for i32 {}

    /// A reduction.
    #[allow(missing_docs)]
    pub struct RustReduction {
        pub path: &'static str,
        pub name: &'static str,
        pub map: &'static ast::Func,
        pub combine: &'static ast::Func,
        pub finish: Option<&'static ast::Func>,
        pub identity: Option<&'static ast::Func>,
        pub hash: u64,
    }

    impl RustReduction {
        /// A reduction.
        pub fn new(
            path: &'static str,
            name: &'static str,
            map: &'static ast::Func,
            combine: &'static ast::Func,
            finish: Option<&'static ast::Func>,
            identity: Option<&'static ast::Func>,
            hash: u64,
        ) -> Self {
            RustReduction { path, name, map, combine, finish, identity, hash }
        }
        /// (not run by the stand-in)
        pub fn call(&self, _args: &[Operand<'_>], _axes: impl IntoAxes) -> Result<Array> {
            Err("not run".into())
        }
        /// (not run by the stand-in)
        pub fn call_keepdim(&self, _args: &[Operand<'_>], _axes: impl IntoAxes) -> Result<Array> {
            Err("not run".into())
        }
    }
}

/// The kernels.
pub mod kernels {
    // the stand-ins of `xp::kernel::gpu`, by name and as `gpu::`
    use crate::gpu;
    use crate::gpu::{
        block_dim, block_idx, grid_dim, lane_id, shared, shfl, shfl_down, shfl_up, shfl_xor, sync_threads, thread_idx,
        warp_size, RawMut,
    };
    use xp::__rt::{Array, Float, Index, Int, Num, Raw};
    /// `xp::kernel::math` (a stand-in)
    pub mod math {
        /// erf (a stand-in)
        pub fn erf<T>(x: T) -> T {
            x
        }
    }

    /// Leaky ReLU.
    #[xp_macros::kernel]
    pub fn leaky_relu<T: Float>(x: T, alpha: T) -> T {
        if x > T::ZERO {
            x
        } else {
            alpha * x
        }
    }

    /// A sum of a table's element and a sign, by index.
    #[xp_macros::kernel]
    pub fn gather<T: Float>(x: T, table: Raw<T>, i: Index) -> (T, bool) {
        let k = i % table.len();
        (x + table.at(k), x > T::ZERO)
    }

    /// `a` times `n`, as a usize.
    #[xp_macros::kernel]
    pub fn scale<U: Int>(a: U, n: usize) -> usize {
        a.to_i64() as usize * n
    }

    /// The steps of the Collatz sequence.
    #[xp_macros::kernel]
    pub fn collatz(n: u64) -> u32 {
        let mut n = n;
        let mut steps = 0u32;
        while n != 1 {
            n = if n % 2 == 0 { n / 2 } else { 3 * n + 1 };
            steps += 1;
        }
        steps
    }

    /// Loops, matches, local arrays, casts, constants.
    #[xp_macros::kernel]
    pub fn mixed<T: Num>(x: T, k: i32) -> f64 {
        let mut buf = [0.0f64; 4];
        for j in 0..4 {
            buf[j] = j as f64;
        }
        let mut acc = 0.0;
        for j in (0..4).rev() {
            acc += buf[j];
        }
        for j in (0..8usize).step_by(4) {
            acc += j as f64;
        }
        let mut m = 0;
        loop {
            m += 1;
            if m >= 3 {
                break;
            }
        }
        let w = match k {
            0 => 1.0,
            1 | 2 if m == 3 => 2.0,
            -5..=-1 => -1.0,
            _ => std::f64::consts::PI.floor(),
        };
        acc + w + x.to_f64() + T::lit(2.0).to_f64() + f64::max(m as f64, 0.0) + math::erf(0.0)
    }

    /// x²
    #[xp_macros::device]
    pub fn sq<T: Float>(v: T) -> T {
        v * v
    }

    /// Device functions in a module.
    pub mod helpers {
        use super::*;
        /// x³
        #[xp_macros::device]
        pub fn cube<T: Float>(v: T) -> T {
            sq(v) * v
        }
    }

    /// Calls of device functions.
    #[xp_macros::kernel]
    pub fn poly<T: Float>(x: T) -> T {
        sq(x) + helpers::cube(x) + self::sq(x) + crate::kernels::sq(x)
    }

    /// The L2 norm.
    #[xp_macros::reduction]
    pub mod l2norm {
        use super::sq;
        use xp::__rt::Float;
        fn identity<T: Float>() -> T {
            T::ZERO
        }
        fn map<T: Float>(x: T) -> T {
            sq(x)
        }
        fn combine<T: Float>(a: T, b: T) -> T {
            a + b
        }
        fn finish<T: Float>(a: T) -> T {
            a.sqrt()
        }
    }

    /// A sum.
    #[xp_macros::reduction]
    pub mod sum {
        fn map(x: f32) -> f32 {
            x
        }
        fn combine(a: f32, b: f32) -> f32 {
            a + b
        }
    }

    /// A private reduction, used through its `call` only (no dead code reported).
    #[xp_macros::reduction]
    mod private_sum {
        fn map(x: f32) -> f32 {
            x
        }
        fn combine(a: f32, b: f32) -> f32 {
            a + b
        }
    }

    /// A private kernel and device function, used through `call` only.
    #[xp_macros::device]
    fn half(x: f32) -> f32 {
        x * 0.5
    }
    #[xp_macros::kernel]
    fn halve(x: f32) -> f32 {
        half(x)
    }

    /// Runs the private ones.
    pub fn private() -> bool {
        private_sum::call(&[1.0f32], 0).is_err() && halve::call(&[1.0f32]).is_ok()
    }

    /// saxpy as a raw kernel.
    #[xp_macros::raw_kernel]
    pub fn saxpy<T: Float>(a: T, x: Raw<T>, y: Raw<T>, out: RawMut<T>, n: i64) {
        let i = (block_idx().x * block_dim().x + thread_idx().x) as i64;
        if i < n {
            out.set(i, a * x.at(i) + y.at(i));
        }
    }

    /// Every construct of a raw kernel: a block's sum through shared memory and shuffles, the
    /// atomics, an early return.
    #[xp_macros::raw_kernel]
    pub fn block_sum<T: Float>(x: Raw<T>, out: RawMut<T>, counts: RawMut<i32>, n: i64) {
        let mut s = shared::<T, 256>();
        let mut flags = gpu::shared::<u32, 32>();
        let tid = thread_idx().x as usize;
        let i = (block_idx().x * block_dim().x + thread_idx().x) as i64;
        let far = thread_idx().y + thread_idx().z + block_idx().y + block_idx().z + block_dim().y + block_dim().z;
        if (far + grid_dim().x + grid_dim().y + grid_dim().z) as i64 > n * 1000 {
            return;
        }
        s[tid] = if i < n { x.at(i) } else { T::ZERO };
        flags[tid % 32] = 1;
        sync_threads();
        let mut stride = block_dim().x as usize / 2;
        while stride >= 32 {
            if tid < stride {
                s[tid] = s[tid] + s[tid + stride];
            }
            gpu::sync_threads();
            stride /= 2;
        }
        let mut v = s[tid];
        let mut d = 16u32;
        while d > 0 {
            v += shfl_down(v, d);
            d /= 2;
        }
        v = v + (shfl_up(v, 1) + shfl_xor(v, 1) + shfl(v, 0)) * T::ZERO;
        if lane_id() == 0 && tid < warp_size() as usize {
            out.atomic_add(block_idx().x as i64, v);
            counts.atomic_add(0, 1);
        }
        let old = counts.atomic_sub(1, 1) + counts.atomic_max(2, flags[0] as i32) + counts.atomic_min(3, -1);
        let prev = counts.atomic_cas(5, 0, old + counts.atomic_exch(4, 7));
        if tid == 0 {
            out.set(out.len() - 1, out.at(0) + T::lit(prev as f64));
        }
    }

    /// A private raw kernel, used through `launch` only (no dead code reported).
    #[xp_macros::raw_kernel]
    fn fill(out: RawMut<f32>, v: f32) {
        let i = thread_idx().x as i64;
        if i < out.len() {
            out.set(i, v);
        }
    }

    /// Launches the private one.
    pub fn private_raw() -> bool {
        fill::launch(1u32, (1u32, 1u32, 1u32), &[0.0f32], &[1.0f32]) == Err("not run".to_string())
    }

    /// Checks that `call_out` and the reductions' calls type-check.
    pub fn outs(a: &Array) -> bool {
        leaky_relu::call_out(&[1.0f32], &[0.5f32], a).is_ok()
            && l2norm::call(&[1.0f32], 0).is_err()
            && sum::call_keepdim(&[1.0f32], 0).is_err()
    }
}

use __rt::Array;
use kernels::*;

#[test]
fn leaky_relu_runs() {
    let y = leaky_relu::call(&[-2.0f32, 3.0], &[0.5f32, 0.5]).unwrap();
    assert_eq!(y, Array::F32(vec![-1.0, 3.0]));
    let y = leaky_relu::call(&[-2.0f64], &[0.25f64]).unwrap();
    assert_eq!(y, Array::F64(vec![-0.5]));
    // no instance for integers
    assert!(leaky_relu::call(&[1i32], &[1i32]).is_err());
    let k = leaky_relu::kernel();
    assert_eq!(k.path, "native::kernels::leaky_relu");
    assert_eq!(k.func.name, "leaky_relu");
    assert_eq!(k.func.generics, vec![("T", ast::Bound::Float)]);
    assert_eq!(k.func.params.len(), 2);
    assert_ne!(k.hash, gather::kernel().hash);
}

#[test]
fn positions_are_the_files() {
    let f = leaky_relu::kernel().func;
    let Some(tail) = &f.body.tail else { panic!("a tail") };
    let ast::E::If(cond, _, _) = &tail.kind else { panic!("an if") };
    // `if x > T::ZERO {` in `leaky_relu`: `x` at column 11
    assert_eq!(cond.col, 11);
    let src = include_str!("native.rs");
    let line = src.lines().nth(cond.line as usize - 1).unwrap();
    assert_eq!(&line[cond.col as usize..], "x > T::ZERO {");
}

#[test]
fn raw_index_tuple() {
    let (s, pos) = gather::call(&[1.0f32, -1.0, 2.0], &[10.0f32, 20.0]).unwrap();
    assert_eq!(s, Array::F32(vec![11.0, 19.0, 12.0]));
    assert_eq!(pos, Array::Bool(vec![true, false, true]));
    let p = &gather::kernel().func.params;
    assert_eq!(p[1].kind, ast::ParamKind::Raw);
    assert_eq!(p[2].kind, ast::ParamKind::Index);
    assert_eq!(p[2].ty, ast::Ty::D(DType::I64));
}

#[test]
fn ints_and_usize() {
    let y = scale::call(&[3i16, 4], &[2u64, 3]).unwrap();
    assert_eq!(y, Array::U64(vec![6, 12]));
    let y = collatz::call(&[1u64, 6, 27]).unwrap();
    assert_eq!(y, Array::U32(vec![0, 8, 111]));
}

#[test]
fn mixed_constructs() {
    let base = 6.0 + 4.0 + 2.0 + 3.0;
    let y = mixed::call(&[1.0f32, 1.0, 1.0, 1.0], &[0i32, 1, -3, 9]).unwrap();
    assert_eq!(y, Array::F64(vec![base + 2.0, base + 3.0, base, base + 4.0]));
    let y = mixed::call(&[7u8], &[0i32]).unwrap();
    assert_eq!(y, Array::F64(vec![base + 1.0 + 7.0]));
}

#[test]
fn device_calls() {
    let y = poly::call(&[2.0f64]).unwrap();
    assert_eq!(y, Array::F64(vec![4.0 + 8.0 + 4.0 + 4.0]));
    let c = &poly::kernel().func.callees;
    let names: Vec<(&str, &str)> = c.iter().map(|(n, f)| (*n, f().name)).collect();
    assert_eq!(names, vec![("sq", "sq"), ("helpers::cube", "cube"), ("self::sq", "sq"), ("crate::kernels::sq", "sq")]);
    let cube = c[1].1();
    assert_eq!(cube.callees[0].0, "sq");
    assert_eq!(sq(3.0f32), 9.0);
}

#[test]
fn reductions() {
    let r = l2norm::kernel();
    assert_eq!(r.name, "l2norm");
    assert_eq!(r.map.name, "map");
    assert_eq!(r.map.callees[0].1().name, "sq");
    assert_eq!(r.finish.map(|f| f.name), Some("finish"));
    assert_eq!(r.identity.map(|f| f.name), Some("identity"));
    assert_eq!(l2norm::finish(4.0f32), 2.0);
    let s = sum::kernel();
    assert!(s.finish.is_none() && s.identity.is_none());
    assert!(outs(&Array::F32(vec![0.0])));
    assert!(private());
}

#[test]
fn raw_kernels() {
    let k = block_sum::kernel();
    assert_eq!(k.path, "native::kernels::block_sum");
    assert!(k.lockstep);
    assert!(!saxpy::kernel().lockstep);
    assert_ne!(k.hash, saxpy::kernel().hash);
    let f = k.func;
    assert_eq!(f.name, "block_sum");
    let kinds: Vec<ast::ParamKind> = f.params.iter().map(|p| p.kind).collect();
    let (raw, raw_mut, value) = (ast::ParamKind::Raw, ast::ParamKind::RawMut, ast::ParamKind::Value);
    assert_eq!(kinds, vec![raw, raw_mut, raw_mut, value]);
    assert_eq!(f.params[2].ty, ast::Ty::D(DType::I32));
    // no results, and the GPU functions are no callees
    assert!(f.outs.is_empty() && f.callees.is_empty());
    assert!(matches!(f.body.stmts[0], ast::Stmt::Shared { name: "s", ty: ast::Ty::Gen("T"), len: 256 }));
    assert!(matches!(f.body.stmts[1], ast::Stmt::Shared { name: "flags", ty: ast::Ty::D(DType::U32), len: 32 }));
    let ast::Stmt::Let { name: "tid", init: Some(init), .. } = &f.body.stmts[2] else { panic!("let tid") };
    let ast::E::Cast(x, _) = &init.kind else { panic!("a cast") };
    assert!(matches!(x.kind, ast::E::Builtin("thread_idx", 0)));
    let all = format!("{f:?}");
    for want in [
        "Builtin(\"thread_idx\", 1)",
        "Builtin(\"thread_idx\", 2)",
        "Builtin(\"block_idx\", 0)",
        "Builtin(\"block_dim\", 2)",
        "Builtin(\"grid_dim\", 1)",
        "Builtin(\"lane_id\", 0)",
        "Builtin(\"warp_size\", 0)",
        "Return(None)",
        "Call(\"sync_threads\", [])",
        "Call(\"shfl_down\", [",
        "Call(\"shfl_up\", [",
        "Call(\"shfl_xor\", [",
        "Call(\"shfl\", [",
        "\"set\", [",
        "\"atomic_add\", [",
        "\"atomic_sub\", [",
        "\"atomic_max\", [",
        "\"atomic_min\", [",
        "\"atomic_exch\", [",
        "\"atomic_cas\", [",
    ] {
        assert!(all.contains(want), "no `{want}` in {all}");
    }
    // the launches type-check (the stand-in runs nothing)
    let e = saxpy::launch(1u32, (4u32,), &[2.0f32], &[1.0f32, 2.0], &[1.0f32, 1.0], &[0.0f32, 0.0], &[2i64]);
    assert_eq!(e, Err("not run".to_string()));
    let e = block_sum::launch((1u32, 1u32), 256u32, &[1.0f64], &[0.0f64], &[0i32; 6], &[1i64]);
    assert_eq!(e, Err("not run".to_string()));
    assert!(private_raw());
    // the native copy, as one thread of one block
    let mut out = [0.0f32; 2];
    saxpy(2.0f32, __rt::Raw::new(&[1.0, 2.0]), __rt::Raw::new(&[10.0, 20.0]), gpu::RawMut::new(&mut out), 2);
    assert_eq!(out, [12.0, 0.0]);
    let (mut out, mut counts) = ([0.0f64; 3], [0i32; 6]);
    block_sum(__rt::Raw::new(&[1.5, 2.0]), gpu::RawMut::new(&mut out), gpu::RawMut::new(&mut counts), 2);
    assert_eq!(out, [48.0, 0.0, 48.0]);
    assert_eq!(counts, [1, -1, 1, -1, 7, 0]);
    block_sum(__rt::Raw::new(&[1.5, 2.0]), gpu::RawMut::new(&mut out), gpu::RawMut::new(&mut counts), -1);
    assert_eq!(counts, [1, -1, 1, -1, 7, 0]); // returned early
}
