//! Kernel parameters built at run time: each value in its own 8-byte-aligned slot, launched
//! through `cuLaunchKernel`'s array of parameter pointers.
use crate::runtime::buffer::CudaStorage;
use crate::runtime::device::Dev;
use crate::runtime::launch::{with_addresses, Kernel};
use cudarc::driver::LaunchConfig;
use xp_core::{collapse, DType, Error, Layout, Result, Scalar};

/// The values of a launch's parameters, in order: one buffer of 8-byte words and where each
/// parameter starts in it. The buffers are reused by the calling thread's next launch (no
/// allocation per launch once warm: small kernels are bound by host time).
pub(crate) struct Params {
    words: Vec<u64>,
    starts: Vec<u32>,
}

type Buffers = (Vec<u64>, Vec<u32>);

thread_local! {
    static SPARE: std::cell::RefCell<Option<Buffers>> = const { std::cell::RefCell::new(None) };
}

impl Default for Params {
    fn default() -> Params {
        let (mut words, mut starts) =
            SPARE.with(|c| c.borrow_mut().take()).unwrap_or_else(|| (Vec::with_capacity(64), Vec::with_capacity(32)));
        words.clear();
        starts.clear();
        Params { words, starts }
    }
}

impl Drop for Params {
    fn drop(&mut self) {
        let spare = (std::mem::take(&mut self.words), std::mem::take(&mut self.starts));
        SPARE.with(|c| *c.borrow_mut() = Some(spare));
    }
}

impl Params {
    fn push(&mut self, w: &[u64]) {
        self.starts.push(self.words.len() as u32);
        self.words.extend_from_slice(w);
    }
    /// A device pointer.
    pub(crate) fn ptr(&mut self, p: u64) {
        self.push(&[p]);
    }
    /// A 64-bit integer.
    pub(crate) fn i64(&mut self, v: i64) {
        self.push(&[v as u64]);
    }
    /// Raw bytes (a struct), padded to 8 bytes.
    pub(crate) fn bytes(&mut self, b: &[u8]) {
        self.starts.push(self.words.len() as u32);
        for c in b.chunks(8) {
            let mut w = [0u8; 8];
            w[..c.len()].copy_from_slice(c);
            self.words.push(u64::from_le_bytes(w));
        }
        if b.is_empty() {
            self.words.push(0);
        }
    }
    /// A scalar as the compute type of `d` (float16 and bfloat16 as float).
    pub(crate) fn scalar(&mut self, v: Scalar, d: DType) {
        let one = |w: u64| [w, 0];
        let w: [u64; 2] = match d {
            DType::Bool => one(v.is_nonzero() as u64),
            DType::I8 | DType::I16 | DType::I32 => one(v.to_i64() as i32 as u32 as u64),
            DType::U8 | DType::U16 | DType::U32 => one(v.to_u64() as u32 as u64),
            DType::I64 => one(v.to_i64() as u64),
            DType::U64 => one(v.to_u64()),
            // rounded once, to the dtype itself (the kernel's float holds it exactly)
            DType::F16 => one(xp_core::f16::from_f64(v.to_f64()).to_f32().to_bits() as u64),
            DType::BF16 => one(xp_core::bf16::from_f64(v.to_f64()).to_f32().to_bits() as u64),
            DType::F32 => one((v.to_f64() as f32).to_bits() as u64),
            DType::F64 => one(v.to_f64().to_bits()),
            DType::C64 => {
                let c = v.to_c128();
                one((c.re as f32).to_bits() as u64 | (((c.im as f32).to_bits() as u64) << 32))
            }
            DType::C128 => {
                let c = v.to_c128();
                [c.re.to_bits(), c.im.to_bits()]
            }
        };
        self.push(if d == DType::C128 { &w } else { &w[..1] });
    }
    /// The indexer of same-shaped layouts (`struct KIdx`): count, dimensions, shape, strides
    /// and offsets of each, contiguous dimensions collapsed.
    pub(crate) fn indexer(&mut self, ls: &[&Layout]) -> Result<()> {
        let maxd = super::gen::MAXD;
        let (shape, strides) = collapse(ls);
        if shape.len() > maxd {
            return Err(Error::Unsupported {
                op: "kernels over more than 12 non-mergeable dimensions",
                backend: "cuda",
            });
        }
        self.starts.push(self.words.len() as u32);
        let w = &mut self.words;
        w.extend([shape.iter().product::<usize>() as u64, shape.len() as u64]);
        w.extend((0..maxd).map(|d| shape.get(d).map_or(1, |&n| n as u64)));
        for st in &strides {
            w.extend((0..maxd).map(|d| st.get(d).map_or(0, |&s| s as i64 as u64)));
        }
        w.extend(ls.iter().map(|l| l.offset() as u64));
        // magic numbers of each extent for 32-bit division (`gen::offsets32`); kernels that
        // declare a shorter indexer never read them (a parameter is copied by its own size)
        let magic: [(u64, u64); super::gen::MAXD] = std::array::from_fn(|d| {
            shape.get(d).map_or((1, 0), |&n| super::gen::magic((n as u64).clamp(1, (1 << 31) - 1)))
        });
        w.extend(magic.iter().map(|m| m.0));
        w.extend(magic.iter().map(|m| m.1));
        Ok(())
    }
    /// Launch `k` on the current stream of `dev` with these parameters, after the uses of
    /// `bufs` on other streams.
    pub(crate) fn launch(&self, dev: &Dev, k: &Kernel, c: LaunchConfig, bufs: &[&CudaStorage]) -> Result<()> {
        let w = dev.work(bufs)?;
        let base = self.words.as_ptr();
        // SAFETY: every start lies inside `words`.
        let at = |i: usize| unsafe { base.add(self.starts[i] as usize) } as *mut std::ffi::c_void;
        // SAFETY: the generated kernel's parameters are exactly these slots, in order and of
        // these sizes (the source and the slots are built from the same argument list); every
        // pointer addresses memory of a live storage (or a copy kept until after the launch).
        with_addresses(self.starts.len(), at, |ptrs| unsafe { w.launch_raw(k, c, ptrs) })?;
        w.done()
    }
}
