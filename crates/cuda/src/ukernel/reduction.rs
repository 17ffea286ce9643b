//! Reduction kernels on the GPU: a block per output (grid-stride over outputs); its threads map
//! and fold interleaved elements of the reduced axes with `REDUCE`, then fold their partial
//! results in shared memory; thread 0 runs the post-map and stores the outputs.
use super::gen::{header, param_decls, prefixed_offsets, MAXD};
use super::params::Params;
use super::{raw_ptr, spec_hash, user_kernel, Arg, InKernel, Role};
use crate::codegen::{compute_ty, storage_ty, store};
use crate::device::Dev;
use crate::storage::{blocks_cfg, split, CudaStorage};
use std::sync::Arc;
use xp_core::kernel::ReductionDef;
use xp_core::{numel, DType, KernelArg, KernelTypes, Layout, Result};

fn source(def: &ReductionDef, types: &KernelTypes, rt: DType, args: &[Arg], nk: usize, nr: usize) -> String {
    let mut s = header(&types.typedefs, &def.preamble);
    let rct = compute_ty(rt);
    s += &format!("typedef {rct} _RT;\n#define REDUCE(a, b) ({})\n", def.reduce_expr);
    s += &format!("struct KIdx {{ i64 n, nd; i64 shape[{MAXD}]; i64 st[{nk}][{MAXD}]; i64 off[{nk}]; }};\n");
    s += &format!("struct RIdx {{ i64 n, nd; i64 shape[{MAXD}]; i64 st[{nr}][{MAXD}]; i64 off[{nr}]; }};\n");
    let mut params = param_decls(args);
    params.push("const KIdx _kx, const RIdx _rx".into());
    s += &format!("extern \"C\" __global__ void {}({}) {{\n", def.name, params.join(", "));
    for a in args.iter().filter(|a| a.role == Role::Raw) {
        s += &format!("  const XpRaw<{}> {n}{{_p_{n}, _n_{n}}};\n", storage_ty(a.dtype), n = a.name);
    }
    s += "  __shared__ _RT _sh[256]; __shared__ bool _sh_has[256];\n  const int _t = threadIdx.x;\n";
    s += "  for (i64 _ko = blockIdx.x; _ko < _kx.n; _ko += gridDim.x) {\n";
    s += &prefixed_offsets("_k", "_kx", "_ko", nk, "    ");
    s += "    _RT _acc = _RT(); bool _has = false;\n    for (i64 _j = _t; _j < _rx.n; _j += blockDim.x) {\n";
    s += &prefixed_offsets("_r", "_rx", "_j", nr, "      ");
    let mut slot = 0;
    for a in args.iter().filter(|a| a.role == Role::In) {
        s += &format!("      const {} {n} = ld(_p_{n}[_k{slot} + _r{slot}]);\n", compute_ty(a.dtype), n = a.name);
        slot += 1;
    }
    s += &format!("      const _RT _v = (_RT)(\n#line 1 \"{}\"\n{}\n);\n", def.name, def.map_expr);
    s += "      _acc = _has ? (_RT)(REDUCE(_acc, _v)) : _v; _has = true;\n    }\n";
    s += "    _sh[_t] = _acc; _sh_has[_t] = _has; __syncthreads();\n";
    s += "    for (int _s = blockDim.x / 2; _s > 0; _s >>= 1) {\n      if (_t < _s && _sh_has[_t + _s]) { _sh[_t] = _sh_has[_t] ? (_RT)(REDUCE(_sh[_t], _sh[_t + _s])) : _sh[_t + _s]; _sh_has[_t] = true; }\n      __syncthreads();\n    }\n";
    let identity =
        if def.identity.trim().is_empty() { "_RT()".to_string() } else { format!("(_RT)({})", def.identity) };
    s += &format!("    if (_t == 0) {{\n      const _RT a = _sh_has[0] ? _sh[0] : {identity};\n");
    for a in args.iter().filter(|a| matches!(a.role, Role::Out(_))) {
        s += &format!("      {ct} {n} = {ct}();\n", ct = compute_ty(a.dtype), n = a.name);
    }
    s += &format!("      {{\n#line 1 \"{}\"\n{}\n;\n      }}\n", def.name, def.post_map_expr);
    for (k, a) in (slot..).zip(args.iter().filter(|a| matches!(a.role, Role::Out(_)))) {
        s += &format!("      _p_{n}[_k{k}] = {};\n", store(a.dtype, &a.name), n = a.name);
    }
    s + "    }\n    __syncthreads();\n  }\n}\n"
}

/// Run reduction kernel `def` over `shape`, reducing `axes`.
pub(crate) fn run(
    dev: &Arc<Dev>,
    def: &ReductionDef,
    types: &KernelTypes,
    args: &[KernelArg<'_, CudaStorage>],
    shape: &[usize],
    axes: &[usize],
) -> Result<Vec<CudaStorage>> {
    let kept: Vec<usize> = (0..shape.len()).filter(|a| !axes.contains(a)).map(|a| shape[a]).collect();
    let nk = numel(&kept);
    let outs: Vec<CudaStorage> = types.outs.iter().map(|&d| CudaStorage::alloc(dev, d, nk)).collect::<Result<_>>()?;
    if nk == 0 {
        return Ok(outs);
    }
    let rt = def.reduce_dtype(&types.typedefs, &types.outs)?;
    let (mut gargs, mut keep, mut used) = (Vec::new(), Vec::new(), Vec::new());
    let (mut kls, mut rls) = (Vec::new(), Vec::new());
    let mut p = Params::default();
    for (k, a) in args.iter().enumerate().take(def.ins.len()) {
        let (name, dtype) = (def.ins[k].name.as_str(), types.ins[k]);
        match a {
            KernelArg::Array(s, l) => {
                gargs.push(Arg { name, role: Role::In, dtype });
                used.push(*s);
                p.ptr(s.ptr(0));
                let (kl, rl) = split(l, axes);
                kls.push(kl);
                rls.push(rl);
            }
            KernelArg::Raw(s, l) => {
                gargs.push(Arg { name, role: Role::Raw, dtype });
                used.push(*s);
                p.ptr(raw_ptr(s, l, &mut keep)?);
                p.i64(l.numel() as i64);
            }
            KernelArg::Scalar(v, d) => {
                gargs.push(Arg { name, role: Role::Scalar, dtype });
                p.scalar(*v, *d);
            }
            KernelArg::None => {}
        }
    }
    for (j, o) in outs.iter().enumerate() {
        gargs.push(Arg { name: &def.outs[j].name, role: Role::Out(false), dtype: types.outs[j] });
        p.ptr(o.ptr(0));
        kls.push(Layout::contiguous(&kept));
    }
    if rls.is_empty() {
        rls.push(Layout::contiguous(&axes.iter().map(|&a| shape[a]).collect::<Vec<_>>()));
    }
    let (kr, rr): (Vec<&Layout>, Vec<&Layout>) = (kls.iter().collect(), rls.iter().collect());
    p.indexer(&kr)?;
    p.indexer(&rr)?;
    let key = spec_hash(def.id, types, &gargs, &format!("reduce{}/{}", kls.len(), rls.len()));
    let f = user_kernel(dev, key, &def.name, || source(def, types, rt, &gargs, kls.len(), rls.len()))?;
    let all: Vec<&CudaStorage> = used.iter().copied().chain(outs.iter()).chain(keep.iter()).collect();
    p.launch(dev, &f, blocks_cfg(nk as i64), &all).map_err(|e| e.in_kernel(&def.name))?;
    Ok(outs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::tests_support::syntax_check;

    /// A reduction with a scalar, a raw array and two outputs of float16 and int32, parsed by g++.
    #[test]
    fn reduction_kernels_parse() {
        let def = ReductionDef::new(
            "T x, T w, raw float64 v",
            "T s, int32 c",
            "x * w + (T)v[0]",
            "a + b",
            "s = a; c = (int)a",
            "0",
            "wsum",
            "float32",
        )
        .unwrap();
        let types = KernelTypes {
            typedefs: vec![("T".into(), DType::F16)],
            ins: vec![DType::F16, DType::F16, DType::F64],
            outs: vec![DType::F16, DType::I32],
            scalar: vec![false, true, false],
        };
        let args = vec![
            Arg { name: "x", role: Role::In, dtype: DType::F16 },
            Arg { name: "w", role: Role::Scalar, dtype: DType::F16 },
            Arg { name: "v", role: Role::Raw, dtype: DType::F64 },
            Arg { name: "s", role: Role::Out(false), dtype: DType::F16 },
            Arg { name: "c", role: Role::Out(false), dtype: DType::I32 },
        ];
        syntax_check("user-reduction", &source(&def, &types, DType::F32, &args, 3, 1));
    }
}
