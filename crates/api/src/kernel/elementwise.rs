//! [`ElementwiseKernel`]: CuPy's elementwise kernel.
use super::call::{prepare, Prepared};
use crate::ufunc::Operand;
use crate::Array;
use smallvec::SmallVec;
use std::sync::Arc;
use xp_core::kernel::ElementwiseDef;
use xp_core::{KernelDevice, Result};

/// An elementwise kernel: input and output parameters in CuPy's signature language, and a C
/// body run once per element of the broadcast arguments.
///
/// * `T x`: an array (or scalar) whose dtype binds the placeholder `T`; `float32 a`: a fixed
///   dtype (arrays of another dtype are cast where NumPy's `same_kind` allows it);
///   `raw T v`: a whole array, read by index (`v[i]`, C order), not broadcast.
/// * Scalars are passed as kernel parameters, not as 0-d arrays.
/// * `i` is the element's index in C order of the broadcast shape.
/// * Outputs are allocated, or given after the inputs ([`ElementwiseKernel::call_out`]): the body
///   may read a given output's values.
///
/// On the GPU the body is compiled by NVRTC as written (after `typedef`s of the placeholders
/// and the preamble). On the CPU, a body in the expression subset (see [`xp_core::kernel`]) runs
/// through xp's evaluator; another gives [`xp::Error::KernelUnsupported`](crate::Error) saying
/// which construct on which line.
///
/// ```
/// use xp::kernel::ElementwiseKernel;
/// let axpy = ElementwiseKernel::new("T x, T y, float32 a", "T z", "z = a * x + y", "axpy").unwrap();
/// let x = xp::arange(0.0, 4.0, 1.0, Some(xp::DType::F64)).unwrap();
/// let y = xp::ones(&[2, 4], xp::DType::F64).unwrap(); // broadcasts with x
/// let z = axpy.call1(&[(&x).into(), (&y).into(), 2.0f32.into()]).unwrap();
/// assert_eq!(z.shape(), &[2, 4]);
/// assert_eq!(z.to_vec::<f64>().unwrap()[..4], [1.0, 3.0, 5.0, 7.0]);
/// ```
#[derive(Clone, Debug)]
pub struct ElementwiseKernel {
    def: Arc<ElementwiseDef>,
}

impl ElementwiseKernel {
    /// A kernel from its input and output parameters, body and name.
    pub fn new(in_params: &str, out_params: &str, operation: &str, name: &str) -> Result<ElementwiseKernel> {
        ElementwiseKernel::with_preamble(in_params, out_params, operation, name, "")
    }
    /// A kernel with a preamble: CUDA C placed before it (helper functions, constants). A body
    /// that calls the preamble's functions runs on the GPU only.
    pub fn with_preamble(
        in_params: &str,
        out_params: &str,
        operation: &str,
        name: &str,
        preamble: &str,
    ) -> Result<ElementwiseKernel> {
        Ok(ElementwiseKernel { def: Arc::new(ElementwiseDef::new(in_params, out_params, operation, name, preamble)?) })
    }
    /// A kernel of a definition built by xp (a fused chain).
    pub(crate) fn from_def(def: ElementwiseDef) -> ElementwiseKernel {
        ElementwiseKernel { def: Arc::new(def) }
    }
    /// The definition (signature, body, identity hash).
    pub fn def(&self) -> &ElementwiseDef {
        &self.def
    }
    /// Run over `args` (the inputs, in order); the outputs are allocated.
    pub fn call(&self, args: &[Operand]) -> Result<Vec<Array>> {
        Ok(self.run(args, &[])?.into_vec())
    }
    /// Run and return the first output.
    pub fn call1(&self, args: &[Operand]) -> Result<Array> {
        Ok(self.run(args, &[])?.swap_remove(0))
    }
    /// Run into the given outputs (their shape must be the broadcast shape of the inputs and
    /// their dtypes those of the output parameters). They are written only if the call succeeds.
    pub fn call_out(&self, args: &[Operand], outs: &[&Array]) -> Result<()> {
        self.run(args, outs).map(|_| ())
    }
    fn run(&self, args: &[Operand], outs: &[&Array]) -> Result<SmallVec<[Array; 2]>> {
        self.run_checked(args, outs, |_| Ok(()))
    }
    /// Run after `check` has accepted the prepared call.
    pub(crate) fn run_checked(
        &self,
        args: &[Operand],
        outs: &[&Array],
        check: impl FnOnce(&Prepared) -> Result<()>,
    ) -> Result<SmallVec<[Array; 2]>> {
        let d = &*self.def;
        let p = prepare(&d.name, &d.ins, &d.outs, args, outs)?;
        check(&p)?;
        p.check_outs(outs, &p.shape)?;
        let res = p.run(
            |dev, a| dev.elementwise_kernel(d, &p.types, a, &p.shape),
            |dev, a| dev.elementwise_kernel(d, &p.types, a, &p.shape),
        )?;
        let res: SmallVec<[Array; 2]> = res.into_iter().map(|s| Array::from_storage(s, &p.shape)).collect();
        for (o, r) in outs.iter().zip(&res) {
            o.assign(r)?;
        }
        Ok(res)
    }
}
