//! Symbolic arrays: a closure over [`Sym`]s records its ufuncs, casts and `where`s into a graph,
//! with NumPy's loop resolution and weak-scalar promotion applied as it goes, so every node
//! knows its loop dtype and its result dtype.
use std::cell::RefCell;
use std::rc::Rc;
use xp_core::{default_dtype, promote_types, promote_weak, BinaryOp, DType, Error, Result, Scalar, UnaryOp};

/// A reduction ending a fused function.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Reduce {
    pub(crate) kind: ReduceKind,
    pub(crate) axes: Option<Vec<isize>>,
    pub(crate) keepdims: bool,
}

/// Which reduction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ReduceKind {
    Sum,
    Prod,
    Max,
    Min,
    Mean,
}

/// A node of a traced graph.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum FNode {
    Input(usize),
    Const(Scalar),
    /// op, loop dtype, operand (already of the loop dtype)
    Unary(UnaryOp, DType, usize),
    Binary(BinaryOp, DType, usize, usize),
    Where(usize, usize, usize),
    Cast(usize),
    Reduce(Reduce, usize),
    /// output `out` of a `#[xp::kernel]` function
    Kernel(KernelCall),
}

/// A `#[xp::kernel]` function applied to nodes (each of its parameter's dtype).
#[derive(Clone, Debug)]
pub(crate) struct KernelCall {
    pub(crate) k: &'static crate::kernel::RustKernel,
    pub(crate) typedefs: Vec<xp_core::kernel::Typedef>,
    pub(crate) args: Vec<usize>,
    pub(crate) out: usize,
}

impl PartialEq for KernelCall {
    fn eq(&self, o: &Self) -> bool {
        std::ptr::eq(self.k, o.k) && self.typedefs == o.typedefs && self.args == o.args && self.out == o.out
    }
}

/// A traced graph: nodes and their result dtypes.
#[derive(Debug, Default)]
pub(crate) struct Graph {
    pub(crate) nodes: Vec<(FNode, DType)>,
}

/// A symbolic array inside [`crate::fuse`]: it has a dtype but no data; its methods record
/// operations instead of running them. Rust scalars are weak, as in NumPy.
#[derive(Clone, Debug)]
pub struct Sym {
    g: Rc<RefCell<Graph>>,
    pub(crate) id: usize,
    dtype: DType,
}

/// An operand of a symbolic op: another [`Sym`] or a (weak) scalar.
#[derive(Clone, Debug)]
pub enum SymOperand {
    /// a symbolic array
    Sym(Sym),
    /// a weak scalar
    Scalar(Scalar),
}

impl From<&Sym> for SymOperand {
    fn from(s: &Sym) -> Self {
        SymOperand::Sym(s.clone())
    }
}
impl From<Sym> for SymOperand {
    fn from(s: Sym) -> Self {
        SymOperand::Sym(s)
    }
}
macro_rules! sym_from_scalar {
    ($($t:ty),*) => {$(
        impl From<$t> for SymOperand {
            fn from(v: $t) -> Self {
                SymOperand::Scalar(Scalar::from(v))
            }
        }
    )*};
}
sym_from_scalar!(bool, i32, i64, u32, u64, f32, f64);

pub(crate) fn new_graph() -> Rc<RefCell<Graph>> {
    Rc::new(RefCell::new(Graph::default()))
}

pub(crate) fn input(g: &Rc<RefCell<Graph>>, k: usize, dtype: DType) -> Sym {
    Sym::push(g, FNode::Input(k), dtype)
}

impl Sym {
    fn push(g: &Rc<RefCell<Graph>>, n: FNode, dtype: DType) -> Sym {
        let mut gr = g.borrow_mut();
        gr.nodes.push((n, dtype));
        Sym { g: g.clone(), id: gr.nodes.len() - 1, dtype }
    }
    pub(crate) fn node(&self, n: FNode, dtype: DType) -> Result<Sym> {
        if matches!(self.g.borrow().nodes[self.id].0, FNode::Reduce(..)) {
            return Err(Error::invalid("fuse", "operations after a reduction are not supported in a fused function"));
        }
        Ok(Sym::push(&self.g, n, dtype))
    }
    /// The dtype this symbolic array will have.
    pub fn dtype(&self) -> DType {
        self.dtype
    }
    /// `self` as `d` (a no-op when it already has that dtype).
    pub fn astype(&self, d: DType) -> Result<Sym> {
        if d == self.dtype {
            return Ok(self.clone());
        }
        self.node(FNode::Cast(self.id), d)
    }
    pub(crate) fn operand(&self, o: SymOperand, d: DType) -> Result<Sym> {
        match o {
            SymOperand::Sym(s) => {
                if !Rc::ptr_eq(&s.g, &self.g) {
                    return Err(Error::invalid("fuse", "a symbolic array of another fused function"));
                }
                s.astype(d)
            }
            SymOperand::Scalar(v) => self.node(FNode::Const(v), d),
        }
    }
    /// Apply a unary ufunc.
    pub fn unary(&self, op: UnaryOp) -> Result<Sym> {
        let (l, out) = op.resolve(self.dtype)?;
        let a = self.astype(l)?;
        self.node(FNode::Unary(op, l, a.id), out)
    }
    /// Apply a binary ufunc with `rhs` (NumPy 2 promotion, weak scalars).
    pub fn binary(&self, op: BinaryOp, rhs: impl Into<SymOperand>) -> Result<Sym> {
        let rhs = rhs.into();
        let db = match &rhs {
            SymOperand::Sym(s) => s.dtype,
            SymOperand::Scalar(v) => promote_weak(self.dtype, v),
        };
        let (l, out) = op.resolve(self.dtype, db)?;
        let (a, b) = (self.astype(l)?, self.operand(rhs, l)?);
        self.node(FNode::Binary(op, l, a.id, b.id), out)
    }
    /// `where(self, x, y)`: `self` is the condition (cast to bool).
    pub fn where_(&self, x: impl Into<SymOperand>, y: impl Into<SymOperand>) -> Result<Sym> {
        let (x, y) = (x.into(), y.into());
        let dt = |o: &SymOperand, other: &SymOperand| match (o, other) {
            (SymOperand::Sym(s), _) => s.dtype,
            (SymOperand::Scalar(v), SymOperand::Sym(s)) => promote_weak(s.dtype, v),
            (SymOperand::Scalar(v), _) => default_dtype(v),
        };
        let d = promote_types(dt(&x, &y), dt(&y, &x));
        let c = self.astype(DType::Bool)?;
        let (a, b) = (self.operand(x, d)?, self.operand(y, d)?);
        self.node(FNode::Where(c.id, a.id, b.id), d)
    }
    fn reduce(&self, kind: ReduceKind, axes: Option<Vec<isize>>, keepdims: bool) -> Result<Sym> {
        let d = match kind {
            ReduceKind::Sum | ReduceKind::Prod => crate::ufunc::sum_dtype(self.dtype),
            ReduceKind::Mean if !self.dtype.is_inexact() => DType::F64,
            _ => self.dtype,
        };
        self.node(FNode::Reduce(Reduce { kind, axes, keepdims }, self.id), d)
    }
    /// Sum over `axes` (`None`: all), ending the fused function.
    pub fn sum(&self, axes: Option<&[isize]>, keepdims: bool) -> Result<Sym> {
        self.reduce(ReduceKind::Sum, axes.map(<[isize]>::to_vec), keepdims)
    }
    /// Product over `axes`, ending the fused function.
    pub fn prod(&self, axes: Option<&[isize]>, keepdims: bool) -> Result<Sym> {
        self.reduce(ReduceKind::Prod, axes.map(<[isize]>::to_vec), keepdims)
    }
    /// Maximum over `axes`, ending the fused function.
    pub fn max(&self, axes: Option<&[isize]>, keepdims: bool) -> Result<Sym> {
        self.reduce(ReduceKind::Max, axes.map(<[isize]>::to_vec), keepdims)
    }
    /// Minimum over `axes`, ending the fused function.
    pub fn min(&self, axes: Option<&[isize]>, keepdims: bool) -> Result<Sym> {
        self.reduce(ReduceKind::Min, axes.map(<[isize]>::to_vec), keepdims)
    }
    /// Mean over `axes`, ending the fused function.
    pub fn mean(&self, axes: Option<&[isize]>, keepdims: bool) -> Result<Sym> {
        self.reduce(ReduceKind::Mean, axes.map(<[isize]>::to_vec), keepdims)
    }
}

macro_rules! sym_unary {
    ($($method:ident => $op:ident),* $(,)?) => {
        impl Sym {$(
            #[doc = concat!("`", stringify!($method), "` (NumPy's ufunc), recorded.")]
            pub fn $method(&self) -> Result<Sym> { self.unary(UnaryOp::$op) }
        )*}
    };
}
sym_unary! {
    neg => Neg, abs => Abs, sign => Sign, reciprocal => Reciprocal, exp => Exp, exp2 => Exp2,
    expm1 => Expm1, log => Log, log2 => Log2, log10 => Log10, log1p => Log1p, sqrt => Sqrt,
    cbrt => Cbrt, square => Square, sin => Sin, cos => Cos, tan => Tan, arcsin => Arcsin,
    arccos => Arccos, arctan => Arctan, sinh => Sinh, cosh => Cosh, tanh => Tanh,
    arcsinh => Arcsinh, arccosh => Arccosh, arctanh => Arctanh, floor => Floor, ceil => Ceil,
    trunc => Trunc, rint => Rint, isnan => IsNan, isinf => IsInf, isfinite => IsFinite,
    logical_not => LogicalNot, invert => Invert,
}

macro_rules! sym_binary {
    ($($method:ident => $op:ident),* $(,)?) => {
        impl Sym {$(
            #[doc = concat!("`", stringify!($method), "` (NumPy's ufunc), recorded.")]
            pub fn $method(&self, rhs: impl Into<SymOperand>) -> Result<Sym> { self.binary(BinaryOp::$op, rhs) }
        )*}
    };
}
sym_binary! {
    add => Add, sub => Sub, mul => Mul, div => Div, floor_divide => FloorDiv, remainder => Rem,
    pow => Pow, maximum => Max, minimum => Min, fmax => Fmax, fmin => Fmin, lt => Lt, le => Le,
    gt => Gt, ge => Ge, eq => Eq, ne => Ne, logical_and => LogicalAnd, logical_or => LogicalOr,
    bitwise_and => BitAnd, bitwise_or => BitOr, bitwise_xor => BitXor, arctan2 => Arctan2,
    hypot => Hypot,
}
