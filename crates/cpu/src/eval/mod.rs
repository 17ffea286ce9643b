//! The CPU evaluator of kernel programs ([`xp_core::kernel::Program`]): a program compiles once
//! into a list of block instructions over typed registers; a rayon task runs the list over its
//! range a block of [`BLK`] elements at a time, each instruction one tight typed loop compiled
//! for the widest SIMD the processor has (pulp's runtime dispatch). No instruction is
//! interpreted per element.
pub(crate) mod col;
mod exec;
mod io;
mod math;
mod reduce;

pub use exec::Operand;
pub(crate) use exec::{elementwise, Compiled};
pub(crate) use reduce::reduction;

/// Elements per block.
pub(crate) const BLK: usize = 512;

use crate::{CpuDevice, CpuStorage};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use xp_core::kernel::{ElementwiseDef, ReductionDef};
use xp_core::{DType, KernelArg, KernelDevice, KernelTypes, Result, Scalar};

fn operands<'a>(args: &'a [KernelArg<'a, CpuStorage>]) -> (Vec<Operand<'a>>, Vec<Option<Scalar>>) {
    let ops = args
        .iter()
        .map(|a| match a {
            KernelArg::Array(s, l) => Operand::Array(&s.0, l),
            KernelArg::Raw(s, l) => Operand::Raw(&s.0, l),
            KernelArg::Scalar(v, d) => Operand::Scalar(*v, *d),
            KernelArg::None => Operand::None,
        })
        .collect();
    let scalars = args.iter().map(|a| if let KernelArg::Scalar(v, _) = a { Some(*v) } else { None }).collect();
    (ops, scalars)
}

/// A compiled elementwise program per (kernel, placeholder dtypes, argument dtypes, which inputs
/// are scalars): a call of a kernel already seen neither checks nor compiles.
type ProgramKey = (u64, Vec<DType>, Vec<DType>, Vec<DType>, Vec<bool>);

fn compiled(def: &ElementwiseDef, types: &KernelTypes) -> Result<Arc<Compiled>> {
    // The calling thread's last kernel, compared field by field: a kernel called in a loop
    // allocates nothing, hashes nothing and takes no lock.
    thread_local! {
        static LAST: std::cell::RefCell<Option<(ProgramKey, Arc<Compiled>)>> = const { std::cell::RefCell::new(None) };
    }
    let same = |k: &ProgramKey| {
        k.0 == def.id
            && k.1.iter().copied().eq(types.typedefs.iter().map(|t| t.1))
            && k.2[..] == types.ins[..]
            && k.3[..] == types.outs[..]
            && k.4[..] == types.scalar[..]
    };
    if let Some(c) = LAST.with(|l| l.borrow().as_ref().filter(|(k, _)| same(k)).map(|(_, c)| c.clone())) {
        return Ok(c);
    }
    let key = (
        def.id,
        types.typedefs.iter().map(|t| t.1).collect(),
        types.ins.to_vec(),
        types.outs.to_vec(),
        types.scalar.to_vec(),
    );
    let c = compiled_shared(def, types, &key)?;
    LAST.with(|l| *l.borrow_mut() = Some((key, c.clone())));
    Ok(c)
}

/// The process-wide cache behind [`compiled`].
fn compiled_shared(def: &ElementwiseDef, types: &KernelTypes, key: &ProgramKey) -> Result<Arc<Compiled>> {
    static CACHE: OnceLock<Mutex<HashMap<ProgramKey, Result<Arc<Compiled>>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(c) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(key) {
        return c.clone();
    }
    let c = def.program(&types.typedefs, &types.scalar).map(|p| Arc::new(Compiled::new(&p, &types.ins, &types.outs)));
    let mut m = cache.lock().unwrap_or_else(|e| e.into_inner());
    if m.len() >= 4096 {
        m.clear(); // a bound, not an eviction policy: programs recompile in microseconds
    }
    m.insert(key.clone(), c.clone());
    c
}

impl KernelDevice for CpuDevice {
    fn elementwise_kernel(
        &self,
        def: &ElementwiseDef,
        types: &KernelTypes,
        args: &[KernelArg<'_, CpuStorage>],
        shape: &[usize],
    ) -> Result<xp_core::Outputs<CpuStorage>> {
        if let Some(native) = def.rust.as_ref().and_then(|r| r.native) {
            let outs = crate::native::elementwise(def, native, types, args, shape)?;
            return Ok(outs.into_iter().map(CpuStorage).collect());
        }
        let c = compiled(def, types)?;
        let (ops, scalars) = operands(args);
        Ok(elementwise(&c, &ops, &scalars, shape)?.into_iter().map(CpuStorage).collect())
    }
    fn reduction_kernel(
        &self,
        def: &ReductionDef,
        types: &KernelTypes,
        args: &[KernelArg<'_, CpuStorage>],
        shape: &[usize],
        axes: &[usize],
    ) -> Result<xp_core::Outputs<CpuStorage>> {
        let progs = def.programs(&types.typedefs, &types.scalar, &types.outs)?;
        let (ops, scalars) = operands(args);
        let parts = reduce::Parts::new(&progs, &types.ins, &types.outs);
        Ok(reduction(&progs, &parts, &ops, &scalars, shape, axes)?.into_iter().map(CpuStorage).collect())
    }
}
