//! The generator of elementwise and reduction kernels: CUDA C written from a specification
//! (`gen.rs` for elementwise maps, `reduce_src.rs` for reductions), for xp's own ops (`builtin.rs`,
//! `reduction.rs`'s `builtin*`) and for users' `ElementwiseKernel`/`ReductionKernel`
//! ([`xp_core::KernelDevice`] for [`CudaDevice`], below). A kernel's identity in the caches is a
//! hash of its specification (definition or op, dtypes, argument roles, layout class or plan).
pub(crate) mod builtin;
mod gen;
pub(crate) mod params;
mod raw_src;
mod reduce_src;
pub(crate) mod reduction;
pub(crate) mod scan_src;

use crate::runtime::buffer::CudaStorage;
use crate::runtime::device::{CudaDevice, Dev};
use crate::runtime::launch::{cfg, Kernel, Key, Source};
use crate::space::vector_width;
use gen::{Arg, Mode, Role};
use params::Params;
use smallvec::SmallVec;
use std::sync::Arc;
use xp_core::kernel::{hash_str, ElementwiseDef};
use xp_core::{numel, Error, KernelArg, KernelDevice, KernelTypes, Layout, Result};

/// The generated kernels `entries` of one source, under the identity hash `h`, compiled from
/// `src()` on a miss. `user`: a user's kernel, loaded under the user's own name (built-in entries
/// are `XP_NAME(entry)` in the source); NVRTC's log is reported under the first entry's name.
pub(crate) fn generated<const N: usize>(
    dev: &Dev,
    h: u64,
    user: bool,
    entries: [&str; N],
    src: impl FnOnce() -> Source,
) -> Result<[Kernel; N]> {
    dev.kernels(Key::generated(h, user), entries, src).map_err(|e| match e {
        Error::KernelCompile { log, .. } => Error::KernelCompile { kernel: entries[0].to_string(), log },
        e => e,
    })
}

/// The hash of a call's specialisation: definition, placeholder dtypes, argument roles and
/// dtypes, and the layout class.
pub(crate) fn spec_hash(id: u64, types: &KernelTypes, args: &[Arg], mode: &str) -> u64 {
    // Plain multiply-xor steps: this runs on every call, so nothing here formats a string.
    let mix = |h: u64, x: u64| (h ^ x).wrapping_mul(0x100_0000_01b3).rotate_left(29);
    let mut h = id;
    for (t, d) in &types.typedefs {
        h = hash_str(h, t);
        h = mix(h, *d as u64);
    }
    for a in args {
        let role = match a.role {
            Role::In => 1,
            Role::Scalar => 2,
            Role::Raw => 3,
            Role::Out(false) => 4,
            Role::Out(true) => 5,
        };
        h = mix(h, (role << 8) | a.dtype as u64);
    }
    hash_str(h, mode)
}

/// The layout class of an addressing mode, as part of a kernel's identity.
pub(crate) fn mode_name(mode: Mode) -> &'static str {
    match mode {
        Mode::Dense(16) => "d16",
        Mode::Dense(8) => "d8",
        Mode::Dense(4) => "d4",
        Mode::Dense(2) => "d2",
        Mode::Dense(_) => "d1",
        Mode::Strided(false) => "s",
        Mode::Strided(true) => "s32",
    }
}

/// A raw argument as a contiguous buffer: the storage itself when its layout is a contiguous
/// run, else a copy (kept alive until the launch is queued; frees are stream-ordered).
fn raw_ptr(s: &CudaStorage, l: &Layout, keep: &mut Vec<CudaStorage>) -> Result<u64> {
    if l.is_contiguous() {
        return Ok(s.ptr(l.offset()));
    }
    let c = s.contiguous_copy(l)?;
    let p = c.ptr(0);
    keep.push(c);
    Ok(p)
}

impl CudaDevice {
    pub(crate) fn dev(&self) -> &Arc<Dev> {
        &self.dev
    }
}

impl KernelDevice for CudaDevice {
    fn elementwise_kernel(
        &self,
        def: &ElementwiseDef,
        types: &KernelTypes,
        args: &[KernelArg<'_, CudaStorage>],
        shape: &[usize],
    ) -> Result<xp_core::Outputs<CudaStorage>> {
        let dev = self.dev();
        let n = numel(shape);
        let n_in = def.ins.len();
        let outs: xp_core::Outputs<CudaStorage> =
            types.outs.iter().map(|&d| CudaStorage::alloc(dev, d, n)).collect::<Result<_>>()?;
        if n == 0 {
            return Ok(outs);
        }
        let dense = args.iter().all(|a| !matches!(a, KernelArg::Array(_, l) if !l.is_contiguous()));
        let mut gargs: SmallVec<[Arg; 8]> = SmallVec::new();
        let mut keep = Vec::new();
        let mut p = Params::default();
        // (pointer, element size) of each elementwise operand; their layouts where strided
        let mut arrays: SmallVec<[(u64, usize); 8]> = SmallVec::new();
        let out_layout = if dense { None } else { Some(Layout::contiguous(shape)) };
        let mut layouts: SmallVec<[&Layout; 8]> = SmallVec::new();
        let mut used: SmallVec<[&CudaStorage; 8]> = SmallVec::new();
        for (k, a) in args.iter().enumerate() {
            let (name, dtype) =
                if k < n_in { (def.c_name(k), types.ins[k]) } else { (def.c_name(k), types.outs[k - n_in]) };
            let out = k >= n_in;
            let role = match a {
                KernelArg::Array(..) if out => Role::Out(true),
                KernelArg::None => Role::Out(false),
                KernelArg::Array(..) => Role::In,
                KernelArg::Scalar(..) => Role::Scalar,
                KernelArg::Raw(..) => Role::Raw,
            };
            gargs.push(Arg { name, role, dtype });
            if out {
                let o = &outs[k - n_in];
                p.ptr(o.ptr(0));
                arrays.push((o.ptr(0), dtype.size()));
                layouts.extend(out_layout.as_ref());
            }
            match a {
                KernelArg::Array(s, l) => {
                    used.push(s);
                    let ptr = if dense { s.ptr(l.offset()) } else { s.ptr(0) };
                    p.ptr(ptr);
                    arrays.push((ptr, dtype.size()));
                    if !dense {
                        layouts.push(l);
                    }
                }
                KernelArg::Raw(s, l) => {
                    used.push(s);
                    p.ptr(raw_ptr(s, l, &mut keep)?);
                    p.i64(l.numel() as i64);
                }
                KernelArg::Scalar(v, d) => p.scalar(*v, *d),
                KernelArg::None => {}
            }
        }
        let (mode, threads) = if dense {
            let widest = arrays.iter().map(|a| a.1).max().unwrap_or(1);
            let v = vector_width(16 / widest, |v| arrays.iter().all(|a| a.0 % (v * a.1) as u64 == 0));
            p.i64(n as i64);
            (Mode::Dense(v), n.div_ceil(v))
        } else {
            p.indexer(&layouts)?;
            (Mode::Strided(n < (1 << 31)), n)
        };
        let key = spec_hash(def.id, types, &gargs, mode_name(mode));
        // A Rust function's body is lowered and printed only on a miss; an error there is kept
        // and reported as it is (not as NVRTC's).
        let failed = std::cell::Cell::new(None);
        let r = generated(dev, key, true, [def.entry()], || {
            let body = def.gpu_body(&types.typedefs, &types.scalar).unwrap_or_else(|e| {
                failed.set(Some(e));
                "#error lowering failed".into()
            });
            Source::new("", gen::elementwise(def.entry(), &types.typedefs, &def.preamble, &gargs, &body, mode))
        });
        let [f] = r.map_err(|e| failed.take().unwrap_or(e))?;
        used.extend(outs.iter());
        used.extend(keep.iter());
        p.launch(dev, &f, cfg(threads as i64), &used)?;
        drop(used);
        Ok(outs)
    }
    fn reduction_kernel(
        &self,
        def: &xp_core::kernel::ReductionDef,
        types: &KernelTypes,
        args: &[KernelArg<'_, CudaStorage>],
        shape: &[usize],
        axes: &[usize],
    ) -> Result<xp_core::Outputs<CudaStorage>> {
        reduction::run(self.dev(), def, types, args, shape, axes)
    }
    fn raw_kernel(
        &self,
        def: &ElementwiseDef,
        types: &KernelTypes,
        args: &[KernelArg<'_, CudaStorage>],
        grid: [u32; 3],
        block: [u32; 3],
    ) -> Result<()> {
        raw_src::launch(self, def, types, args, grid, block)
    }
}

/// `n` copies of `value` as `dtype`: a dense kernel with the value as its parameter.
pub(crate) fn fill(dev: &Arc<Dev>, n: usize, value: xp_core::Scalar, dtype: xp_core::DType) -> Result<CudaStorage> {
    dense_from_scalars(dev, n, dtype, "fill", &[("v", value, dtype)], "o = v")
}

/// `start + i * step` for `i < n` as `dtype` (arange, linspace), made on the device with the host's
/// arithmetic: wrapping int64 when the dtype and both arguments are integers, else float64 with the
/// product and the sum rounded separately (no fused multiply-add, so both backends agree to the
/// bit). None for the combinations the host makes (complex, bool, half precision, an integer dtype
/// from floats).
pub(crate) fn affine(
    dev: &Arc<Dev>,
    n: usize,
    start: xp_core::Scalar,
    step: xp_core::Scalar,
    dtype: xp_core::DType,
) -> Result<Option<CudaStorage>> {
    use xp_core::{DType, Scalar};
    let int = |s: &Scalar| matches!(s, Scalar::Int(_) | Scalar::Uint(_));
    let (t, body) = if dtype.is_integer() && int(&start) && int(&step) {
        (DType::I64, AFFINE_INT)
    } else if matches!(dtype, DType::F32 | DType::F64)
        && !matches!(start, Scalar::Complex(_))
        && !matches!(step, Scalar::Complex(_))
    {
        (DType::F64, AFFINE_FLOAT)
    } else {
        return Ok(None);
    };
    dense_from_scalars(dev, n, dtype, "affine", &[("s", start, t), ("d", step, t)], body).map(Some)
}

/// [`affine`]'s bodies: wrapping integers, float64 rounded step by step.
const AFFINE_INT: &str = "o = (i64)((unsigned long long)s + (unsigned long long)d * (unsigned long long)i)";
const AFFINE_FLOAT: &str = "o = __dadd_rn(s, __dmul_rn(d, (double)i))";

/// A dense kernel writing `o` (of `dtype`, `n` long) from scalar parameters and the index `i`.
fn dense_from_scalars(
    dev: &Arc<Dev>,
    n: usize,
    dtype: xp_core::DType,
    name: &str,
    scalars: &[(&'static str, xp_core::Scalar, xp_core::DType)],
    body: &str,
) -> Result<CudaStorage> {
    let out = CudaStorage::alloc(dev, dtype, n)?;
    if n == 0 {
        return Ok(out);
    }
    let mut args: Vec<Arg> = scalars.iter().map(|&(name, _, dtype)| Arg { name, role: Role::Scalar, dtype }).collect();
    args.push(Arg { name: "o", role: Role::Out(false), dtype });
    let v = vector_width(16 / dtype.size(), |v| out.ptr(0) % (v * dtype.size()) as u64 == 0);
    let mode = Mode::Dense(v);
    let mut key = hash_str(hash_str(hash_str(0x5eed, name), dtype.name()), mode_name(mode));
    for &(_, _, t) in scalars {
        key = hash_str(key, t.name());
    }
    let [f] = generated(dev, key, false, [name], || {
        let spec: Vec<&str> =
            std::iter::once(dtype.name()).chain(scalars.iter().map(|s| s.2.name())).chain([mode_name(mode)]).collect();
        Source::new(spec.join("_"), gen::elementwise(&format!("XP_NAME({name})"), &[], "", &args, body, mode))
    })?;
    let mut p = Params::default();
    for &(_, value, t) in scalars {
        p.scalar(value, t);
    }
    p.ptr(out.ptr(0));
    p.i64(n as i64);
    p.launch(dev, &f, cfg(n.div_ceil(v) as i64), &[&out])?;
    Ok(out)
}
