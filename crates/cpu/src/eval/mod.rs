//! The CPU evaluator of kernel programs ([`xp_core::kernel::Program`]): a program compiles once
//! into a list of block instructions over typed registers; a rayon task runs the list over its
//! range a block of [`BLK`] elements at a time, each instruction one tight typed loop compiled
//! for the widest SIMD the processor has (pulp's runtime dispatch). No instruction is
//! interpreted per element.
mod col;
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
use xp_core::kernel::{ElementwiseDef, ReductionDef};
use xp_core::{KernelArg, KernelDevice, KernelTypes, Result, Scalar};

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

impl KernelDevice for CpuDevice {
    fn elementwise_kernel(
        &self,
        def: &ElementwiseDef,
        types: &KernelTypes,
        args: &[KernelArg<'_, CpuStorage>],
        shape: &[usize],
    ) -> Result<Vec<CpuStorage>> {
        let prog = def.program(&types.typedefs, &types.scalar)?;
        let (ops, scalars) = operands(args);
        let c = Compiled::new(&prog, &scalars, &types.ins, &types.outs);
        Ok(elementwise(&c, &ops, shape)?.into_iter().map(CpuStorage).collect())
    }
    fn reduction_kernel(
        &self,
        def: &ReductionDef,
        types: &KernelTypes,
        args: &[KernelArg<'_, CpuStorage>],
        shape: &[usize],
        axes: &[usize],
    ) -> Result<Vec<CpuStorage>> {
        let progs = def.programs(&types.typedefs, &types.scalar, &types.outs)?;
        let (ops, scalars) = operands(args);
        let parts = reduce::Parts::new(&progs, &scalars, &types.ins, &types.outs);
        Ok(reduction(&progs, &parts, &ops, shape, axes)?.into_iter().map(CpuStorage).collect())
    }
}
