//! `dst[p, i(b), q] = v[p, b, q]` (or `op(dst, v)`), in C order over `(p, b, q)` on one thread:
//! the last of several writes to one element wins and `ufunc.at` combines occurrences in order,
//! as NumPy does. The indices were checked (and turned into offsets) before anything is written.
use super::offsets;
use crate::kernel::Kernel;
use crate::CpuStorage;
use xp_core::{BinaryOp, Combine, Error, HostBuffer, IndexSet, Layout, Result};

pub(crate) fn scatter(
    dst: &mut HostBuffer,
    l: &Layout,
    set: &IndexSet<'_, CpuStorage>,
    deltas: &[isize],
    v: &HostBuffer,
    vl: &Layout,
    how: Combine,
) -> Result<()> {
    let d = dst.dtype();
    macro_rules! go {
        ($($t:ident),*) => {
            match (dst, v) {
                $((HostBuffer::$t(a), HostBuffer::$t(x)) => scatter_t(a, l, set, deltas, x, vl, how),)*
                (_, v) => Err(Error::InvalidDType { op: "scatter", dtype: if v.dtype() == d { d } else { v.dtype() } }),
            }
        };
    }
    go!(Bool, I8, I16, I32, I64, U8, U16, U32, U64, F16, BF16, F32, F64, C64, C128)
}

fn scatter_t<T: Kernel>(
    dst: &mut [T],
    l: &Layout,
    set: &IndexSet<'_, CpuStorage>,
    deltas: &[isize],
    v: &[T],
    vl: &Layout,
    how: Combine,
) -> Result<()> {
    let k = set.arrays.len();
    let (p_offs, q_offs) = (offsets(l, 0..set.axis), offsets(l, set.axis + k..l.ndim()));
    let nbd = set.shape.len();
    let vp = offsets(vl, 0..set.axis);
    let vb = offsets(vl, set.axis..set.axis + nbd);
    let vq = offsets(vl, set.axis + nbd..vl.ndim());
    let f: fn(T, T) -> T = match how {
        Combine::Assign => |_, x| x,
        Combine::Ufunc(BinaryOp::Add) => T::add,
        Combine::Ufunc(BinaryOp::Sub) => T::sub,
        Combine::Ufunc(BinaryOp::Mul) => T::mul,
        Combine::Ufunc(op) => match T::binary_fn(op) {
            Some(f) => f,
            None => return Err(Error::InvalidDType { op: op.name(), dtype: T::DTYPE }),
        },
    };
    let (base, vbase) = (l.offset() as isize, vl.offset() as isize);
    for (&po, &vpo) in p_offs.iter().zip(&vp) {
        for (&bo, &vbo) in deltas.iter().zip(&vb) {
            let (at, vat) = (base + po + bo, vbase + vpo + vbo);
            for (&qo, &vqo) in q_offs.iter().zip(&vq) {
                let (o, x) = ((at + qo) as usize, (vat + vqo) as usize);
                dst[o] = f(dst[o], v[x]);
            }
        }
    }
    Ok(())
}
