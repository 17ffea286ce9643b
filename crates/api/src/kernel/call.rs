//! What every kernel call does before a backend runs it: count the arguments, resolve the type
//! placeholders (CuPy's rules: the first array that names a placeholder binds it; scalars take
//! the bound dtype, or NumPy's default for their kind), cast arrays to fixed parameter dtypes
//! where `same_kind` allows, broadcast, check devices, and lock each storage once.
use crate::backend::{CudaDevice, CudaStorage, Many, Reads, Storage};
use crate::ufunc::{can_cast_same_kind, Operand};
use crate::Array;
use smallvec::SmallVec;
use std::borrow::Cow;
use xp_core::kernel::{Param, ParamTy, Typedef};
use xp_core::{broadcast_shapes, default_dtype, DType, Device, Error, KernelArg, KernelTypes, Outputs, Result, Scalar};
use xp_cpu::CpuStorage;

/// A call's arguments, typed and ready for a backend.
pub(crate) struct Prepared<'a> {
    pub(crate) types: KernelTypes,
    /// the arrays (inputs cast where needed, then given outputs): borrowed unless cast
    arrays: SmallVec<[Cow<'a, Array>; 6]>,
    slots: SmallVec<[Slot; 8]>,
    pub(crate) shape: SmallVec<[usize; 4]>,
    pub(crate) device: Device,
    /// the kernel's name (the NVTX range of the call)
    name: String,
}

enum Slot {
    Array(usize),
    Raw(usize),
    Scalar(Scalar, DType),
    None,
}

fn args_err(kernel: &str, msg: String) -> Error {
    Error::KernelArgs { kernel: kernel.to_string(), msg }
}

/// Resolve the types of a call with inputs `args` and given outputs `outs` (empty: all
/// allocated). `broadcast_outs`: whether given outputs take part in the broadcast shape.
pub(crate) fn prepare<'a>(
    kernel: &str,
    ins: &[Param],
    out_params: &[Param],
    args: &'a [Operand],
    outs: &[&'a Array],
) -> Result<Prepared<'a>> {
    if args.len() != ins.len() {
        return Err(args_err(
            kernel,
            format!(
                "takes {} input argument(s) ({} output(s) optional), got {}",
                ins.len(),
                out_params.len(),
                args.len()
            ),
        ));
    }
    if !outs.is_empty() && outs.len() != out_params.len() {
        return Err(args_err(kernel, format!("takes {} output array(s), got {}", out_params.len(), outs.len())));
    }
    // Bind placeholders: arrays first (inputs, then given outputs), then scalars.
    let mut typedefs: SmallVec<[Typedef; 2]> = SmallVec::new();
    // `what` names the argument only when there is an error (no formatting on the hot path).
    let mut bind = |t: &std::sync::Arc<str>, d: DType, what: &dyn Fn() -> String| -> Result<()> {
        match typedefs.iter().find(|(n, _)| n == t) {
            Some((_, b)) if *b != d => {
                Err(args_err(kernel, format!("type {t} is already {b}, but {} has dtype {d}", what())))
            }
            Some(_) => Ok(()),
            None => {
                typedefs.push((t.clone(), d));
                Ok(())
            }
        }
    };
    for (p, a) in ins.iter().zip(args) {
        if let (ParamTy::Generic(t), Operand::Array(a)) = (&p.ty, a) {
            bind(t, a.dtype(), &|| format!("argument `{}`", p.name))?;
        }
    }
    for (p, o) in out_params.iter().zip(outs) {
        if let ParamTy::Generic(t) = &p.ty {
            bind(t, o.dtype(), &|| format!("output `{}`", p.name))?;
        }
    }
    for (p, a) in ins.iter().zip(args) {
        if let (ParamTy::Generic(t), Operand::Scalar(s)) = (&p.ty, a)
            && !typedefs.iter().any(|(n, _)| n == t)
        {
            typedefs.push((t.clone(), default_dtype(s)));
        }
    }
    let dtype_of = |p: &Param| -> Result<DType> {
        match &p.ty {
            ParamTy::Fixed(d) => Ok(*d),
            ParamTy::Generic(t) => typedefs.iter().find(|(n, _)| n == t).map(|x| x.1).ok_or_else(|| {
                args_err(kernel, format!("cannot determine type {t} of `{}`: no argument binds it", p.name))
            }),
        }
    };
    let in_dtypes: SmallVec<[DType; 8]> = ins.iter().map(dtype_of).collect::<Result<_>>()?;
    let out_dtypes: SmallVec<[DType; 4]> = out_params.iter().map(dtype_of).collect::<Result<_>>()?;
    let mut device: Option<Device> = None;
    let mut arrays = SmallVec::new();
    let mut slots = SmallVec::new();
    let mut shape: SmallVec<[usize; 4]> = SmallVec::new();
    let mut first = true;
    for ((p, a), &d) in ins.iter().zip(args).zip(&in_dtypes) {
        match a {
            Operand::Array(a) => {
                if a.dtype() != d && !can_cast_same_kind(a.dtype(), d) {
                    let msg = format!(
                        "argument `{}` has dtype {}, which cannot be cast to {d} ('same_kind')",
                        p.name,
                        a.dtype()
                    );
                    return Err(args_err(kernel, msg));
                }
                match device {
                    Some(dev) if dev != a.device() => {
                        return Err(Error::DeviceMismatch { op: "kernel call", lhs: dev, rhs: a.device() })
                    }
                    _ => device = Some(a.device()),
                }
                if !p.raw {
                    if first {
                        shape.extend_from_slice(a.shape());
                    } else if &shape[..] != a.shape() {
                        shape = broadcast_shapes("kernel call", &shape, a.shape())?.into();
                    }
                    first = false;
                }
                arrays.push(if a.dtype() == d { Cow::Borrowed(*a) } else { Cow::Owned(a.astype(d)?) });
                slots.push(if p.raw { Slot::Raw(arrays.len() - 1) } else { Slot::Array(arrays.len() - 1) });
            }
            Operand::Scalar(s) => {
                if p.raw {
                    return Err(args_err(kernel, format!("raw parameter `{}` needs an array", p.name)));
                }
                slots.push(Slot::Scalar(*s, d));
            }
        }
    }
    for ((p, o), &d) in out_params.iter().zip(outs).zip(&out_dtypes) {
        if o.dtype() != d {
            return Err(args_err(kernel, format!("output `{}` has dtype {}, expected {d}", p.name, o.dtype())));
        }
        match device {
            Some(dev) if dev != o.device() => {
                return Err(Error::DeviceMismatch { op: "kernel call", lhs: dev, rhs: o.device() })
            }
            _ => device = Some(o.device()),
        }
        // As CuPy: the inputs broadcast to the given outputs, which are never broadcast themselves.
        if first {
            shape.extend_from_slice(o.shape());
            first = false;
        } else if &shape[..] != o.shape() {
            let b = broadcast_shapes("kernel call", &shape, o.shape())?;
            if b != o.shape() {
                let msg = format!(
                    "output `{}` has shape {:?}, but the arguments broadcast to {b:?} (outputs are not broadcast)",
                    p.name,
                    o.shape()
                );
                return Err(args_err(kernel, msg));
            }
            shape = b.into();
        }
        arrays.push(Cow::Borrowed(*o));
        slots.push(Slot::Array(arrays.len() - 1));
    }
    if outs.is_empty() {
        slots.extend(out_params.iter().map(|_| Slot::None));
    }
    let device =
        device.ok_or_else(|| args_err(kernel, "needs at least one array argument to know its device".into()))?;
    let scalar = args.iter().map(|a| matches!(a, Operand::Scalar(_))).collect();
    let types = KernelTypes { typedefs, ins: in_dtypes, outs: out_dtypes, scalar };
    Ok(Prepared {
        types,
        arrays,
        slots,
        shape,
        device,
        name: if crate::profiler::nvtx_enabled() { kernel.to_string() } else { String::new() },
    })
}

impl Prepared<'_> {
    /// The call's shape checked against the given outputs (which must have exactly that shape).
    pub(crate) fn check_outs(&self, outs: &[&Array], shape: &[usize]) -> Result<()> {
        for o in outs {
            if o.shape() != shape {
                return Err(Error::ShapeMismatch { op: "kernel call", lhs: shape.to_vec(), rhs: o.shape().to_vec() });
            }
        }
        Ok(())
    }
    /// The backend's arguments: each slot with its storage (from `v`, in the order of the
    /// arrays) and its layout broadcast to the call's shape (borrowed where it already has it).
    fn args<'s, S>(&'s self, v: &[&'s S]) -> Result<SmallVec<[KernelArg<'s, S>; 6]>> {
        let mut out = SmallVec::new();
        for s in &self.slots {
            out.push(match s {
                Slot::Array(k) => {
                    let l = &self.arrays[*k].layout;
                    let l = if l.shape() == &self.shape[..] {
                        Cow::Borrowed(l)
                    } else {
                        Cow::Owned(l.broadcast_to("kernel call", &self.shape)?)
                    };
                    KernelArg::Array(v[*k], l)
                }
                Slot::Raw(k) => KernelArg::Raw(v[*k], Cow::Borrowed(&self.arrays[*k].layout)),
                Slot::Scalar(x, d) => KernelArg::Scalar(*x, *d),
                Slot::None => KernelArg::None,
            });
        }
        Ok(out)
    }
    /// Run `cpu` or `cuda` with the backend's arguments.
    pub(crate) fn run(
        &self,
        cpu: impl FnOnce(&xp_cpu::CpuDevice, &[KernelArg<'_, CpuStorage>]) -> Result<Outputs<CpuStorage>>,
        cuda: impl FnOnce(&CudaDevice, &[KernelArg<'_, CudaStorage>]) -> Result<Outputs<CudaStorage>>,
    ) -> Result<Outputs<Storage>> {
        let _r = crate::profiler::range(&self.name);
        let refs: SmallVec<[&Array; 6]> = self.arrays.iter().map(|a| &**a).collect();
        let reads = Reads::lock(&refs);
        if self.arrays.is_empty() {
            return Err(Error::KernelArgs { kernel: String::new(), msg: "no arrays".into() });
        }
        let many = reads.many("kernel call")?;
        // bound, so that the tuple (which borrows `reads`) is dropped before `reads` is
        #[allow(clippy::let_and_return)]
        let r = match (many, self.device) {
            (Many::Cpu(v), _) => Ok(cpu(&xp_cpu::CpuDevice, &self.args(&v)?)?.into_iter().map(Storage::Cpu).collect()),
            (Many::Cuda(v), Device::Cuda(_)) => {
                // The device from the storage: CudaDevice::new probes the driver and NVRTC.
                let dev: CudaDevice = v[0].cuda_device();
                Ok(cuda(&dev, &self.args(&v)?)?.into_iter().map(Storage::Cuda).collect())
            }
            (Many::Cuda(_), d) => Err(Error::DeviceMismatch { op: "kernel call", lhs: d, rhs: d }),
        };
        r
    }
}
