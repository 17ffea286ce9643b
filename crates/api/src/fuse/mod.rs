//! Kernel fusion (CuPy's `fuse`): a closure over symbolic arrays ([`Sym`]) is traced once per
//! signature of input dtypes into a graph of ufuncs, casts and `where`s, lowered to one typed
//! program, and run as one elementwise kernel (one pass over memory) on whichever device holds
//! the inputs, optionally followed by a reduction. On the CPU the chain runs block by block
//! through xp's evaluator; complex chains, which it does not evaluate, run op by op.
//!
//! ```
//! use xp::fuse::Sym;
//! let f = xp::fuse(|x: &Sym, y: &Sym| x.sin()?.add(&y.mul(0.1)?)?.tanh());
//! let a = xp::Array::from_vec(vec![0.0f32, 1.0, 2.0, 3.0], &[4]).unwrap();
//! let fused = f.call(&[&a, &a]).unwrap();
//! let plain = a.sin().unwrap().add(&a.mul(0.1).unwrap()).unwrap().tanh().unwrap();
//! assert!(xp::allclose_with(&fused, &plain, xp::Tolerance { rtol: 1e-6, atol: 1e-6, ..Default::default() }).unwrap());
//! // ending in a reduction
//! let ss = xp::fuse(|x: &Sym| x.square()?.sum(None, false));
//! assert_eq!(ss.call(&[&a]).unwrap().item::<f32>().unwrap(), 14.0);
//! ```
mod kernel;
mod lower;
mod sym;

use crate::kernel::ElementwiseKernel;
use crate::Array;
use crate::IntoAxes;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
pub use sym::{Sym, SymOperand};
use xp_core::{DType, Error, Result};

/// A function of symbolic arrays that [`fuse`] accepts: a closure of one to six `&Sym`
/// arguments returning `Result<Sym>` (annotate the arguments: `|x: &Sym, y: &Sym| ...`).
pub trait FuseFn<Args>: Send + Sync + 'static {
    /// How many arrays the function takes.
    fn arity(&self) -> usize;
    /// Call it on symbolic arrays.
    fn trace(&self, args: &[Sym]) -> Result<Sym>;
}

macro_rules! fuse_fn {
    ($n:literal: $($a:ident $k:literal),*) => {
        impl<F> FuseFn<($(fuse_fn!(@ty $a),)*)> for F
        where
            F: Fn($(&fuse_fn!(@ty $a)),*) -> Result<Sym> + Send + Sync + 'static,
        {
            fn arity(&self) -> usize {
                $n
            }
            fn trace(&self, args: &[Sym]) -> Result<Sym> {
                self($(&args[$k]),*)
            }
        }
    };
    (@ty $a:ident) => { Sym };
}
fuse_fn!(1: a 0);
fuse_fn!(2: a 0, b 1);
fuse_fn!(3: a 0, b 1, c 2);
fuse_fn!(4: a 0, b 1, c 2, d 3);
fuse_fn!(5: a 0, b 1, c 2, d 3, e 4);
fuse_fn!(6: a 0, b 1, c 2, d 3, e 4, f 5);

/// One traced signature: its kernel, the graph (for the op-by-op path), and the reduction that
/// ends it.
struct Traced {
    /// the chain as one elementwise kernel (none when the chain's result is an input)
    map: Option<ElementwiseKernel>,
    /// the chain and its reduction as one reduction kernel (GPU)
    reduction: Option<crate::kernel::ReductionKernel>,
    graph: Vec<(sym::FNode, DType)>,
    root: usize,
    reduce: Option<sym::Reduce>,
}

/// A traced function, type-erased.
type Tracer = Box<dyn Fn(&[Sym]) -> Result<Sym> + Send + Sync>;

/// A fused function: call it like any xp function ([`Fused::call`]).
pub struct Fused {
    f: Tracer,
    arity: usize,
    cache: Mutex<HashMap<Vec<DType>, Arc<Traced>>>,
}

impl std::fmt::Debug for Fused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Fused({} arguments, {} signatures traced)", self.arity, self.cache.lock().map_or(0, |c| c.len()))
    }
}

/// Run the reduction kernel of a fused chain (a mean passes its count as the last input).
fn fused_reduce(
    k: &crate::kernel::ReductionKernel,
    red: &sym::Reduce,
    args: &[&Array],
    mut ops: Vec<crate::ufunc::Operand>,
) -> Result<Array> {
    let axes = match &red.axes {
        None => crate::Axes::All,
        Some(v) => crate::Axes::List(v.clone()),
    };
    if red.kind == sym::ReduceKind::Mean {
        let shape = args.iter().try_fold(Vec::new(), |s, a| xp_core::broadcast_shapes("fuse", &s, a.shape()))?;
        let reduced = (&axes).into_axes().normalize("fuse", shape.len())?;
        let count: usize = reduced.iter().map(|&a| shape[a]).product();
        ops.push((count as f64).into());
    }
    Ok(k.call_with(&ops, axes, red.keepdims)?.swap_remove(0))
}

/// `r`, with a chain that cannot be inlined (`KernelUnsupported`) as none.
fn unsupported<T>(r: Result<Option<T>>) -> Result<Option<T>> {
    match r {
        Err(Error::KernelUnsupported { .. }) => Ok(None),
        r => r,
    }
}

/// Fuse `f`, a function of symbolic arrays, into one kernel per signature of input dtypes.
pub fn fuse<Args, F: FuseFn<Args>>(f: F) -> Fused {
    let arity = f.arity();
    Fused { f: Box::new(move |a: &[Sym]| f.trace(a)), arity, cache: Mutex::new(HashMap::new()) }
}

impl Fused {
    fn traced(&self, dtypes: Vec<DType>) -> Result<Arc<Traced>> {
        if let Some(t) = self.cache.lock().unwrap_or_else(|e| e.into_inner()).get(&dtypes) {
            return Ok(t.clone());
        }
        let g = sym::new_graph();
        let args: Vec<Sym> = dtypes.iter().enumerate().map(|(k, &d)| sym::input(&g, k, d)).collect();
        let out = (self.f)(&args)?;
        let graph = g.borrow().nodes.clone();
        let (root, reduce) = match &graph[out.id].0 {
            sym::FNode::Reduce(r, a) => (*a, Some(r.clone())),
            _ => (out.id, None),
        };
        // A chain that cannot be inlined (a kernel with a Raw parameter) runs op by op.
        let map = unsupported(lower::kernel(&graph, root, &dtypes))?;
        let reduction = match reduce.as_ref() {
            Some(r) => unsupported(lower::reduction(&graph, root, &dtypes, r, graph[out.id].1).map(Some))?,
            None => None,
        };
        let t = Arc::new(Traced { map, reduction, graph, root, reduce });
        self.cache.lock().unwrap_or_else(|e| e.into_inner()).insert(dtypes, t.clone());
        Ok(t)
    }
    /// Run on `args` (broadcast together, all on one device).
    pub fn call(&self, args: &[&Array]) -> Result<Array> {
        if args.len() != self.arity {
            return Err(Error::invalid(
                "fuse",
                format!("the fused function takes {} arrays, got {}", self.arity, args.len()),
            ));
        }
        let t = self.traced(args.iter().map(|a| a.dtype()).collect())?;
        let ops: Vec<crate::ufunc::Operand> = args.iter().map(|a| (*a).into()).collect();
        // On the GPU a chain ending in a reduction is one kernel. The CPU evaluator folds each
        // output's elements in turn, which is slow along columns (measured: standardize's
        // column means 5x slower than the chain's values reduced by xp's column sums), so there
        // the chain runs fused and xp reduces its values.
        let fused = match (&t.map, &t.reduction, &t.reduce) {
            (_, Some(k), Some(red)) if matches!(args[0].device(), xp_core::Device::Cuda(_)) => {
                fused_reduce(k, red, args, ops)
            }
            (Some(k), _, red) => k.call1(&ops).and_then(|r| match red {
                None => Ok(r),
                Some(red) => lower::reduce(&r, red),
            }),
            _ => return self.call_unfused(args),
        };
        match fused {
            Err(Error::KernelUnsupported { .. }) => self.call_unfused(args),
            r => r,
        }
    }
    /// Run op by op, without fusing (the reference the fused kernel is tested against).
    pub fn call_unfused(&self, args: &[&Array]) -> Result<Array> {
        let t = self.traced(args.iter().map(|a| a.dtype()).collect())?;
        let r = lower::eager(&t.graph, t.root, args)?;
        match &t.reduce {
            None => Ok(r),
            Some(red) => lower::reduce(&r, red),
        }
    }
}
