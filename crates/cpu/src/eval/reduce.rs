//! Reduction kernels on the CPU: the reduced axes of each output are walked a block at a time,
//! the map program fills a block of values, the reduce program folds it in halves (pairwise,
//! vectorised), and the post-map program writes the outputs of a block of outputs at once.
use super::col::{with_class, with_lane, Col, Lane, Reg};
use super::exec::{Compiled, Operand};
use super::BLK;
use rayon::prelude::*;
use xp_core::kernel::ReductionPrograms;
use xp_core::{numel, DType, Element, HostBuffer, Layout, Result, Scalar};

/// The compiled parts of a reduction kernel.
pub(crate) struct Parts {
    map: Compiled,
    red: Compiled,
    post: Compiled,
    identity: Option<Compiled>,
}

impl Parts {
    pub(crate) fn new(p: &ReductionPrograms, in_dtypes: &[DType], out_dtypes: &[DType]) -> Parts {
        let rt = p.reduce_ty;
        let identity = p.identity.as_ref().map(|e| {
            let prog = xp_core::kernel::Program {
                vars: vec![xp_core::kernel::VarInfo {
                    name: "__id".into(),
                    ty: rt,
                    role: xp_core::kernel::Role::Out(0),
                }],
                body: vec![xp_core::kernel::TStmt::Set(0, e.clone())],
            };
            Compiled::new(&prog, &[], &[rt])
        });
        Parts {
            map: Compiled::new(&p.map, in_dtypes, &[rt]),
            red: Compiled::new(&p.reduce, &[rt, rt], &[rt]),
            post: Compiled::new(&p.post, &[rt], out_dtypes),
            identity,
        }
    }
}

/// Fold `v[..n]` into `v[0]` with the reduce program: halves combined pairwise.
fn fold(red: &Compiled, regs: &mut [Col], v: &mut Col, mut n: usize, rt: DType) -> Result<()> {
    let (ra, rb) = (red.ins_read[0].1, red.ins_read[1].1);
    let out = red.outs[0].0;
    while n > 1 {
        let h = n / 2;
        with_class!(rt, T => {
            let x = T::get(v);
            T::get_mut(&mut regs[ra])[..h].copy_from_slice(&x[..h]);
            T::get_mut(&mut regs[rb])[..h].copy_from_slice(&x[n - h..n]);
        });
        red.run(regs, &[Operand::None, Operand::None], 0, h)?;
        with_class!(rt, T => T::get_mut(v)[..h].copy_from_slice(&T::get(&regs[out])[..h]));
        n -= h;
    }
    Ok(())
}

/// Reduce `axes` of the operands (each broadcast to `shape`); returns the outputs, shaped as the
/// kept axes in order.
pub(crate) fn reduction(
    p: &ReductionPrograms,
    parts: &Parts,
    srcs: &[Operand],
    scalars: &[Option<Scalar>],
    shape: &[usize],
    axes: &[usize],
) -> Result<Vec<HostBuffer>> {
    let rt = p.reduce_ty;
    let kept: Vec<usize> = (0..shape.len()).filter(|a| !axes.contains(a)).collect();
    let nk = numel(&kept.iter().map(|&a| shape[a]).collect::<Vec<_>>());
    let nr: usize = axes.iter().map(|&a| shape[a]).product();
    // Each array operand's view of output k's reduced elements: the reduced axes, offset by k.
    let sub = |l: &Layout, k: usize| -> Layout {
        let (mut off, mut r) = (l.offset() as isize, k);
        for &a in kept.iter().rev() {
            off += (r % shape[a]) as isize * l.strides()[a];
            r /= shape[a];
        }
        Layout::new(
            axes.iter().map(|&a| shape[a]).collect(),
            axes.iter().map(|&a| l.strides()[a]).collect(),
            off as usize,
        )
    };
    let outs_n = parts.post.outs.len();
    let chunk = (nk / (rayon::current_num_threads() * 4)).clamp(1, BLK);
    let blocks: Vec<usize> = (0..nk).step_by(chunk.max(1)).collect();
    let results: Vec<Result<Vec<HostBuffer>>> = blocks
        .par_iter()
        .map(|&k0| {
            let k1 = (k0 + chunk).min(nk);
            let (mut mregs, mut rregs, mut pregs) = (parts.map.regs_for(BLK, scalars), parts.red.regs(), parts.post.regs_for(BLK, scalars));
            let mut acc = Col::new(rt, BLK);
            let mut one = Col::new(rt, 2);
            let init = match &parts.identity {
                Some(c) => {
                    let mut r = c.regs();
                    c.run(&mut r, &[], 0, 1)?;
                    Some(r[c.outs[0].0].clone())
                }
                None => None,
            };
            for k in k0..k1 {
                let layouts: Vec<Option<Layout>> = srcs
                    .iter()
                    .map(|s| match s {
                        Operand::Array(_, l) => Some(sub(l, k)),
                        _ => None,
                    })
                    .collect();
                let view: Vec<Operand> = srcs
                    .iter()
                    .zip(&layouts)
                    .map(|(s, l)| match (s, l) {
                        (Operand::Array(b, _), Some(l)) => Operand::Array(b, l),
                        (s, _) => *s,
                    })
                    .collect();
                let mut have = false;
                if let Some(id) = &init {
                    with_class!(rt, T => T::get_mut(&mut one)[0] = T::get(id)[0]);
                    have = true;
                }
                let mut r0 = 0;
                while r0 < nr {
                    let m = (nr - r0).min(BLK);
                    parts.map.run(&mut mregs, &view, r0, m)?;
                    // Folded in place, out of the map's registers and back (no copy of the block).
                    let r = parts.map.outs[0].0;
                    let mut v = std::mem::replace(&mut mregs[r], Col::B(Vec::new()));
                    let folded = fold(&parts.red, &mut rregs, &mut v, m, rt);
                    with_class!(rt, T => T::get_mut(&mut one)[have as usize] = T::get(&v)[0]);
                    mregs[r] = v;
                    folded?;
                    if have {
                        fold(&parts.red, &mut rregs, &mut one, 2, rt)?;
                    }
                    have = true;
                    r0 += m;
                }
                with_class!(rt, T => T::get_mut(&mut acc)[k - k0] = T::get(&one)[0]);
            }
            // Post-map a block of outputs at once.
            let ra = parts.post.ins_read.first().map(|x| x.1);
            if let Some(ra) = ra {
                with_class!(rt, T => T::get_mut(&mut pregs[ra])[..k1 - k0].copy_from_slice(&T::get(&acc)[..k1 - k0]));
            }
            let none: Vec<Operand> = vec![Operand::None; 1 + srcs.len()];
            parts.post.run(&mut pregs, &none, 0, k1 - k0)?;
            Ok(parts
                .post
                .outs
                .iter()
                .map(|&(r, d)| {
                    with_lane!(d, T => {
                        let v: Vec<T> = <<T as Lane>::R as Reg>::get(&pregs[r])[..k1 - k0].iter().map(|&x| <T as super::col::Lane>::down(x)).collect();
                        T::into_buffer(v)
                    }, unreachable!("complex"))
                })
                .collect())
        })
        .collect();
    let mut outs: Vec<Vec<HostBuffer>> = vec![Vec::new(); outs_n];
    for r in results {
        for (k, b) in r?.into_iter().enumerate() {
            outs[k].push(b);
        }
    }
    Ok(outs.into_iter().zip(&parts.post.outs).map(|(parts, &(_, d))| concat(parts, d, nk)).collect())
}

fn concat(parts: Vec<HostBuffer>, d: DType, n: usize) -> HostBuffer {
    with_lane!(d, T => {
        let mut v: Vec<T> = Vec::with_capacity(n);
        for p in &parts {
            v.extend_from_slice(T::slice_of(p).expect("dtype"));
        }
        T::into_buffer(v)
    }, unreachable!("complex"))
}
