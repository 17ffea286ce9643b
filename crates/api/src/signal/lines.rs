//! What the sequential filters (`lfilter`, `sosfilt`, hence `filtfilt`) share: SciPy's working
//! dtype, and the call of the filter family's `recursive_filter` on every line along the last
//! axis. The CPU runs order-specialised loops (lines over the cores, a long line in pieces
//! joined through the state map); the GPU a chunked parallel scan. A recursion a backend does
//! not take (a GPU state longer than its kernels hold in registers) is filtered on the host:
//! copied down, filtered, copied back.
use crate::backend::on_pair_map;
use crate::products::with_two;
use crate::Array;
use xp_core::{Complex64, DType, Device, Error, FilterStorage, Recursed, Recursion, RecursionKind, Result};

/// SciPy's working dtype of a filter: the common type of its operands, which must be a
/// floating or complex type of single or double precision (SciPy's "input type not
/// supported").
pub(super) fn work_dtype(op: &'static str, dtypes: &[DType]) -> Result<DType> {
    let d = dtypes.iter().copied().reduce(xp_core::promote_types).expect("at least one operand");
    match d {
        DType::F32 | DType::F64 | DType::C64 | DType::C128 => Ok(d),
        _ => Err(Error::InvalidDType { op, dtype: d }),
    }
}

/// Runs the recursion `kind` with the flat coefficients `coef` over every line of `x` along its
/// last axis, in dtype `d`, starting from `zi` (`x`'s leading shape, then the state; broadcast
/// where it has length 1) or zeros. Returns the output and the final state, on `x`'s device.
pub(super) fn filter_lines(
    op: &'static str,
    kind: RecursionKind,
    d: DType,
    coef: &Array,
    x: &Array,
    zi: Option<&Array>,
) -> Result<(Array, Array)> {
    // The coefficients in the working dtype, then widened: every value is exact in `d`.
    let coef: Vec<Complex64> = coef.astype(d)?.astype(DType::C128)?.to_vec()?;
    let r = Recursion { kind, coef };
    let x = x.cast_if(d)?;
    let (lead, n) = x.shape().split_at(x.ndim() - 1);
    let mut zshape = lead.to_vec();
    zshape.push(r.state_len());
    let z = match zi {
        Some(z) => z.cast_if(d)?.broadcast_to(&zshape)?,
        None => crate::on(x.device()).zeros(&zshape, d)?,
    };
    if x.size() == 0 || r.state_len() == 0 {
        // No recursion to run: an empty signal keeps its state; a pure gain has none.
        let gain = crate::on(x.device()).asarray(vec![r.coef[0]], [])?.astype(d)?;
        let y = if n[0] == 0 { x.copy()? } else { x.mul(&gain)? };
        return Ok((y, z.copy()?));
    }
    let run = |x: &Array, z: &Array| -> Result<Recursed<Array>> {
        let f = with_two(x, z, |p, q| on_pair_map!(op, p, q, s, t => s.recursive_filter(&x.layout, &r, t, &z.layout)))?;
        Ok(Recursed { y: Array::from_storage(f.y, x.shape()), zf: Array::from_storage(f.zf, &zshape) })
    };
    let out = match run(&x, &z) {
        Err(Error::Unsupported { .. }) if x.device() != Device::Cpu => {
            let dev = x.device();
            let f = run(&x.to_device(Device::Cpu)?, &z.to_device(Device::Cpu)?).map_err(|e| e.in_op(op))?;
            Recursed { y: f.y.to_device(dev)?, zf: f.zf.to_device(dev)? }
        }
        r => r.map_err(|e| e.in_op(op))?,
    };
    Ok((out.y, out.zf))
}
