//! The indexing, sorting and set workloads at the sizes issue 9 names (GPU: sorts of 2^24,
//! rows of 4096², masks of 2^26, 2^24 random takes from 2^26, unique of 2^24 int32, add.at of
//! 2^24 values into 2^16 bins; CPU: sorts of 2^22, the rest at 2^25 / 2^24).
use crate::{rand, sync, xorshift, Workload};
use xp::{Array, BinaryOp, BinaryUfunc, DType, Device, Result};

/// `n` pseudo-random integers in `0 .. hi` (int64), from a fixed xorshift stream.
pub(crate) fn rand_int(n: usize, hi: u64, d: Device) -> Result<Array> {
    let v: Vec<i64> = xorshift(n, 0x2545_F491_4F6C_DD1D).map(|s| ((s >> 11) % hi) as i64).collect();
    Array::from_vec(v, [n])?.to_device(d)
}

pub(crate) fn workloads(w: &mut Vec<Workload>, gpu: bool) {
    macro_rules! wl {
        ($name:expr, |$d:ident| $body:expr) => {
            w.push(Workload { name: $name, unit: "ms", setup: Box::new(move |$d: Device| $body) });
        };
    }
    let ls = if gpu { 24 } else { 22 };
    let ns = 1usize << ls;
    wl!(format!("sort_f32_2^{ls}"), |d| {
        let a = rand(ns, &[ns], d)?;
        Ok(Box::new(move || sync(&a.sort(-1)?)))
    });
    wl!(format!("argsort_f32_2^{ls}"), |d| {
        let a = rand(ns, &[ns], d)?;
        Ok(Box::new(move || sync(&a.argsort(-1)?)))
    });
    if gpu {
        wl!("sort_rows_f32_4096x4096".to_string(), |d| {
            let a = rand(1 << 24, &[4096, 4096], d)?;
            Ok(Box::new(move || sync(&a.sort(-1)?)))
        });
    }
    let lm = if gpu { 26 } else { 25 };
    let nm = 1usize << lm;
    wl!(format!("mask_select_f32_2^{lm}"), |d| {
        let a = rand(nm, &[nm], d)?;
        Ok(Box::new(move || sync(&a.get(&a.gt(0.5)?)?)))
    });
    wl!(format!("take_f32_2^24_from_2^{lm}"), |d| {
        let a = rand(nm, &[nm], d)?;
        let i = rand_int(1 << 24, nm as u64, d)?;
        Ok(Box::new(move || sync(&a.take(&i, 0)?)))
    });
    // The same gather without the out-of-bounds check's one wait (CuPy's take does not check).
    wl!(format!("take_wrap_f32_2^24_from_2^{lm}"), |d| {
        let a = rand(nm, &[nm], d)?;
        let i = rand_int(1 << 24, nm as u64, d)?;
        Ok(Box::new(move || sync(&a.take_mode(&i, 0, xp::IndexMode::Wrap)?)))
    });
    wl!("unique_i32_2^24".to_string(), |d| {
        let a = rand_int(1 << 24, 1 << 16, d)?.astype(DType::I32)?;
        Ok(Box::new(move || sync(&xp::unique_values(&a)?)))
    });
    wl!("add_at_f32_2^24_into_2^16".to_string(), |d| {
        let i = rand_int(1 << 24, 1 << 16, d)?;
        let v = rand(1 << 24, &[1 << 24], d)?;
        let bins = xp::on(d).zeros([1 << 16], DType::F32)?;
        Ok(Box::new(move || {
            BinaryOp::Add.at(&bins, &i, &v)?;
            sync(&bins)
        }))
    });
}
