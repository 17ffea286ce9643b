//! `#[xp::kernel]` functions on the CPU: the function's own native instances (compiled by rustc
//! in the user's crate, reached through [`NativeKernel`]) run over blocks of the broadcast
//! arguments, in parallel. A contiguous input whose storage type is its compute type is handed
//! over in place; strided, broadcast and float16 inputs are gathered into a block buffer; a
//! scalar is one buffer filled once per task; a `Raw` input is one contiguous copy per call
//! (none when it is already contiguous). Outputs are written in place (float16 through a
//! buffer). A panic of the function (a `Raw` read out of bounds, an integer division by zero)
//! becomes an error.
use crate::iter::Walk;
use crate::CpuStorage;
use rayon::prelude::*;
use std::ops::Range;
use std::sync::Mutex;
use xp_core::kernel::rust::{Col, ColMut, NativeKernel, OutOfBounds};
use xp_core::kernel::{compute, ElementwiseDef};
use xp_core::{bf16, f16, numel, DType, Error, HostBuffer, KernelArg, KernelTypes, Layout, Result, Scalar};

/// Elements per call of the native function.
const BLOCK: usize = 16384;

/// An output's buffer, written by the tasks at disjoint ranges.
#[derive(Clone, Copy)]
struct Ptr(*mut u8);
// SAFETY: tasks write disjoint ranges of each output.
unsafe impl Send for Ptr {}
unsafe impl Sync for Ptr {}

/// `b[r]` as a column (`b` holds a compute type).
fn col(b: &HostBuffer, r: Range<usize>) -> Col<'_> {
    match b {
        HostBuffer::Bool(v) => Col::Bool(&v[r]),
        HostBuffer::I8(v) => Col::I8(&v[r]),
        HostBuffer::I16(v) => Col::I16(&v[r]),
        HostBuffer::I32(v) => Col::I32(&v[r]),
        HostBuffer::I64(v) => Col::I64(&v[r]),
        HostBuffer::U8(v) => Col::U8(&v[r]),
        HostBuffer::U16(v) => Col::U16(&v[r]),
        HostBuffer::U32(v) => Col::U32(&v[r]),
        HostBuffer::U64(v) => Col::U64(&v[r]),
        HostBuffer::F32(v) => Col::F32(&v[r]),
        HostBuffer::F64(v) => Col::F64(&v[r]),
        HostBuffer::F16(_) | HostBuffer::BF16(_) | HostBuffer::C64(_) | HostBuffer::C128(_) => {
            unreachable!("not a compute type")
        }
    }
}

/// A mutable column of `len` elements of compute type `d` at element `start` of `p`.
///
/// # Safety
/// `p` points to an allocation of at least `start + len` elements of `d`, and no other column
/// covers these elements while this one lives.
unsafe fn col_mut<'a>(p: Ptr, d: DType, start: usize, len: usize) -> ColMut<'a> {
    macro_rules! m {
        ($($v:ident $t:ty),*) => {
            match d {
                $(DType::$v => ColMut::$v(unsafe { std::slice::from_raw_parts_mut((p.0 as *mut $t).add(start), len) }),)*
                _ => unreachable!("not a compute type"),
            }
        };
    }
    m!(Bool bool, I8 i8, I16 i16, I32 i32, I64 i64, U8 u8, U16 u16, U32 u32, U64 u64, F32 f32, F64 f64)
}

/// `o[..n]` = positions `start..start + n` of `src` under layout `l`, in `src`'s compute type.
fn gather(src: &HostBuffer, l: &Layout, start: usize, n: usize, o: &mut HostBuffer) {
    fn g<T: Copy, C: Copy>(s: &[T], l: &Layout, start: usize, n: usize, o: &mut Vec<C>, f: impl Fn(T) -> C) {
        o.clear();
        if l.is_contiguous() {
            let b = l.offset() + start;
            o.extend(s[b..b + n].iter().map(|&x| f(x)));
            return;
        }
        let w = Walk::new(&[l]);
        let st = w.inner_stride(0);
        w.segments(start, start + n, |_, len, off| {
            let base = off[0];
            o.extend((0..len as isize).map(|k| f(s[(base + k * st) as usize])));
        });
    }
    macro_rules! same {
        ($($v:ident),*) => {
            match (src, o) {
                $((HostBuffer::$v(s), HostBuffer::$v(o)) => g(s, l, start, n, o, |x| x),)*
                (HostBuffer::F16(s), HostBuffer::F32(o)) => g(s, l, start, n, o, f16::to_f32),
                (HostBuffer::BF16(s), HostBuffer::F32(o)) => g(s, l, start, n, o, bf16::to_f32),
                _ => unreachable!("buffer of the compute type"),
            }
        };
    }
    same!(Bool, I8, I16, I32, I64, U8, U16, U32, U64, F32, F64)
}

/// An empty buffer of compute type `d`.
fn empty(d: DType) -> HostBuffer {
    HostBuffer::full(0, Scalar::Int(0), compute(d))
}

/// The message of a panic payload.
fn panic_error(kernel: &str, p: Box<dyn std::any::Any + Send>) -> Error {
    if let Some(o) = p.downcast_ref::<OutOfBounds>() {
        return Error::IndexOutOfBounds { index: o.index as isize, axis: 0, size: o.len };
    }
    let msg = p
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".into());
    Error::KernelArgs { kernel: kernel.to_string(), msg: format!("the function panicked: {msg}") }
}

/// Run `native` (the instances of `def`'s function) over `args` broadcast to `shape`.
pub(crate) fn elementwise(
    def: &ElementwiseDef,
    native: &dyn NativeKernel,
    types: &KernelTypes,
    args: &[KernelArg<'_, CpuStorage>],
    shape: &[usize],
) -> Result<Vec<HostBuffer>> {
    let bind = def.rust_binding(&types.typedefs)?;
    let n = numel(shape);
    let n_in = def.ins.len();
    // Raw inputs: whole and contiguous, in their compute type.
    let raws: Vec<Option<HostBuffer>> = args[..n_in]
        .iter()
        .map(|a| match a {
            KernelArg::Raw(s, l) if !(l.is_contiguous() && compute(s.0.dtype()) == s.0.dtype()) => {
                let mut b = empty(s.0.dtype());
                gather(&s.0, l, 0, l.numel(), &mut b);
                Some(b)
            }
            _ => None,
        })
        .collect();
    let mut outs: Vec<HostBuffer> = types
        .outs
        .iter()
        .map(|&d| {
            let mut b = HostBuffer::full(0, Scalar::Int(0), d);
            xp_core::with_buffer!(&mut b, v => *v = crate::pool::alloc(n));
            b
        })
        .collect();
    let ptrs: Vec<Ptr> =
        outs.iter_mut().map(|b| Ptr(xp_core::with_buffer!(b, v => v.as_mut_ptr().cast::<u8>()))).collect();
    let err = Mutex::new(None);
    let chunk =
        if n < crate::iter::PAR_THRESHOLD { n.max(1) } else { (n / (rayon::current_num_threads() * 4)).max(BLOCK * 4) };
    let task = |s: usize| -> Result<()> {
        let e = (s + chunk).min(n);
        let b = BLOCK.min(e - s);
        // per task: the block buffers, and each scalar filled once
        let mut bufs: Vec<HostBuffer> = (0..n_in)
            .map(|k| match &args[k] {
                KernelArg::Scalar(v, d) => HostBuffer::full(b, *v, compute(*d)),
                KernelArg::Array(st, _) => empty(st.0.dtype()),
                _ => empty(DType::Bool),
            })
            .collect();
        let mut tmp: Vec<HostBuffer> =
            types.outs.iter().map(|&d| HostBuffer::full(b, Scalar::Int(0), compute(d))).collect();
        let mut p = s;
        while p < e {
            let m = (e - p).min(BLOCK);
            for (k, a) in args[..n_in].iter().enumerate() {
                if let KernelArg::Array(st, l) = a {
                    if !(l.is_contiguous() && compute(st.0.dtype()) == st.0.dtype()) {
                        gather(&st.0, l, p, m, &mut bufs[k]);
                    }
                }
            }
            let cols: Vec<Col> = (0..n_in)
                .map(|k| match &args[k] {
                    KernelArg::Array(st, l) if l.is_contiguous() && compute(st.0.dtype()) == st.0.dtype() => {
                        col(&st.0, l.offset() + p..l.offset() + p + m)
                    }
                    KernelArg::Raw(st, l) => match &raws[k] {
                        Some(r) => col(r, 0..l.numel()),
                        None => col(&st.0, l.offset()..l.offset() + l.numel()),
                    },
                    _ => col(&bufs[k], 0..m),
                })
                .collect();
            let mut ocols: Vec<ColMut> = Vec::with_capacity(outs.len());
            for (k, (&d, t)) in types.outs.iter().zip(tmp.iter_mut()).enumerate() {
                ocols.push(if compute(d) == d {
                    // SAFETY: output k holds n elements; this task alone writes p..p + m.
                    unsafe { col_mut(ptrs[k], d, p, m) }
                } else {
                    let tp = Ptr(xp_core::with_buffer!(t, v => v.as_mut_ptr().cast::<u8>()));
                    // SAFETY: the task's own buffer of `b >= m` elements.
                    unsafe { col_mut(tp, compute(d), 0, m) }
                });
            }
            let ok = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                native.run(&bind, p as i64, &cols, &mut ocols)
            }))
            .map_err(|x| panic_error(&def.name, x))?;
            if !ok {
                let reason = format!("no native instance for {bind:?}");
                return Err(Error::KernelUnsupported { kernel: def.name.clone(), backend: "cpu", reason });
            }
            drop(ocols);
            for (k, (&d, t)) in types.outs.iter().zip(&tmp).enumerate() {
                if compute(d) != d {
                    let HostBuffer::F32(t) = t else { unreachable!("f16 computes as f32") };
                    // SAFETY: as above; the output's storage type is d.
                    unsafe {
                        match d {
                            DType::F16 => {
                                let o = std::slice::from_raw_parts_mut((ptrs[k].0 as *mut f16).add(p), m);
                                o.iter_mut().zip(t).for_each(|(o, &x)| *o = f16::from_f32(x));
                            }
                            _ => {
                                let o = std::slice::from_raw_parts_mut((ptrs[k].0 as *mut bf16).add(p), m);
                                o.iter_mut().zip(t).for_each(|(o, &x)| *o = bf16::from_f32(x));
                            }
                        }
                    }
                }
            }
            p += m;
        }
        Ok(())
    };
    let run = |s: usize| {
        if let Err(x) = task(s) {
            *err.lock().unwrap_or_else(|e| e.into_inner()) = Some(x);
        }
    };
    let starts: Vec<usize> = (0..n).step_by(chunk).collect();
    if starts.len() > 1 {
        starts.into_par_iter().for_each(run);
    } else if n > 0 {
        run(0);
    }
    if let Some(e) = err.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    for b in &mut outs {
        // SAFETY: the tasks wrote all n elements of each output (no error was reported).
        xp_core::with_buffer!(b, v => unsafe { v.set_len(n) });
    }
    Ok(outs)
}
