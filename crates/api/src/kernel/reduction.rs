//! [`ReductionKernel`]: CuPy's reduction kernel.
use super::call::prepare;
use crate::ufunc::Operand;
use crate::{Array, IntoAxes};
use std::sync::Arc;
use xp_core::kernel::ReductionDef;
use xp_core::{Error, KernelDevice, Result};

/// A reduction kernel: each element of the (broadcast) inputs maps to a value by `map_expr`,
/// values combine with `reduce_expr` over `a` and `b` (which must be associative: the order of
/// combination is the backend's), and `post_map_expr` writes the outputs from the result `a`.
/// `identity` is `reduce_expr`'s identity (empty: none, and an empty reduction is an error).
///
/// ```
/// use xp::kernel::ReductionKernel;
/// let l2 = ReductionKernel::new("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm").unwrap();
/// let x = xp::Array::from_vec(vec![3.0f64, 4.0, 0.0, 1.0, 0.0, 0.0], &[2, 3]).unwrap();
/// let rows = l2.call(&[(&x).into()], 1).unwrap();
/// assert_eq!(rows[0].to_vec::<f64>().unwrap(), vec![5.0, 1.0]);
/// ```
#[derive(Clone, Debug)]
pub struct ReductionKernel {
    def: Arc<ReductionDef>,
}

impl ReductionKernel {
    /// A kernel from CuPy's arguments; the reduce type is the first output's.
    pub fn new(
        in_params: &str,
        out_params: &str,
        map_expr: &str,
        reduce_expr: &str,
        post_map_expr: &str,
        identity: &str,
        name: &str,
    ) -> Result<ReductionKernel> {
        let def = ReductionDef::new(in_params, out_params, map_expr, reduce_expr, post_map_expr, identity, name, "")?;
        Ok(ReductionKernel { def: Arc::new(def) })
    }
    /// The kernel of a definition built by xp (a fused chain).
    pub(crate) fn from_def(def: ReductionDef) -> ReductionKernel {
        ReductionKernel { def: Arc::new(def) }
    }
    /// The same kernel reducing in `reduce_type` (a dtype name or a placeholder).
    pub fn with_reduce_type(mut self, reduce_type: &str) -> ReductionKernel {
        Arc::make_mut(&mut self.def).set_reduce_type(reduce_type);
        self
    }
    /// The definition.
    pub fn def(&self) -> &ReductionDef {
        &self.def
    }
    /// Reduce `axis` (all, one or several axes) of the broadcast inputs (CuPy's
    /// `kernel(*args, axis=axis)`).
    pub fn call(&self, args: &[Operand], axis: impl IntoAxes) -> Result<Vec<Array>> {
        self.call_with(args, axis, false)
    }
    /// [`ReductionKernel::call`] keeping the reduced axes with length 1 (CuPy's `keepdims=True`).
    pub fn call_keepdim(&self, args: &[Operand], axis: impl IntoAxes) -> Result<Vec<Array>> {
        self.call_with(args, axis, true)
    }
    /// Reduce and return the first output.
    pub fn call1(&self, args: &[Operand], axis: impl IntoAxes) -> Result<Array> {
        Ok(self.call_with(args, axis, false)?.swap_remove(0))
    }
    /// [`ReductionKernel::call1`] keeping the reduced axes with length 1.
    pub fn call1_keepdim(&self, args: &[Operand], axis: impl IntoAxes) -> Result<Array> {
        Ok(self.call_with(args, axis, true)?.swap_remove(0))
    }
    pub(crate) fn call_with(&self, args: &[Operand], axis: impl IntoAxes, keepdims: bool) -> Result<Vec<Array>> {
        let d = &*self.def;
        let p = prepare(&d.name, &d.ins, &d.outs, args, &[])?;
        let axes = axis.into_axes().normalize("ReductionKernel", p.shape.len())?;
        let kept: Vec<usize> = (0..p.shape.len()).filter(|a| !axes.contains(a)).map(|a| p.shape[a]).collect();
        let out_shape: Vec<usize> = if keepdims {
            p.shape.iter().enumerate().map(|(a, &n)| if axes.contains(&a) { 1 } else { n }).collect()
        } else {
            kept
        };
        let nr: usize = axes.iter().map(|&a| p.shape[a]).product();
        if nr == 0 && d.identity.trim().is_empty() {
            return Err(Error::EmptyReduction { op: "ReductionKernel" });
        }
        let res = p.run(
            |dev, a| dev.reduction_kernel(d, &p.types, a, &p.shape, &axes),
            |dev, a| dev.reduction_kernel(d, &p.types, a, &p.shape, &axes),
        )?;
        Ok(res.into_iter().map(|s| Array::from_storage(s, &out_shape)).collect())
    }
}
