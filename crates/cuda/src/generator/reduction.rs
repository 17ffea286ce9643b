//! Reductions on the GPU, xp's built-in ones and user [`ReductionDef`]s alike: the plan (rows or
//! columns, packs, chunks per output) from the layouts, the source from [`super::reduce_src`],
//! one launch, and a second that folds the partials where outputs were split into chunks.
use super::params::Params;
use super::reduce_src::{Fold, Plan};
use super::{generated, raw_ptr, spec_hash, Arg, Role};
use crate::runtime::buffer::CudaStorage;
use crate::runtime::device::Dev;
use crate::runtime::launch::{blocks_cfg, cfg, Source};
use crate::space::{split, vector_width};
use std::sync::Arc;
use xp_core::kernel::{hash_str, ReductionDef};
use xp_core::{collapse, numel, BinaryOp, DType, KernelArg, KernelTypes, Layout, Result, Scalar};

/// Chunks of at least `min` positions splitting `n` into about `want` parts: (chunks, per), with
/// `per` a multiple of 16 when there are several chunks (so that packs stay aligned) and no
/// chunk empty.
pub(crate) fn chunking(n: usize, want: usize, min: usize) -> (usize, usize) {
    let chunks = want.min(n / min.max(1)).max(1);
    if chunks == 1 {
        return (1, n.max(1));
    }
    let per = n.div_ceil(chunks).next_multiple_of(16);
    (n.div_ceil(per), per)
}

/// The arrays a reduction reads elementwise, with their layouts over the full shape.
struct Operands<'a> {
    ins: Vec<(&'a CudaStorage, &'a Layout)>,
}

impl Operands<'_> {
    /// Whether the axis that moves fastest in memory (in the first input) is reduced: then a
    /// block per output (rows), else a thread per output (columns).
    fn rows(&self, axes: &[usize]) -> bool {
        let Some((_, l)) = self.ins.first() else { return true };
        (0..l.ndim())
            .filter(|&a| l.shape()[a] > 1)
            .min_by_key(|&a| l.strides()[a].unsigned_abs())
            .is_none_or(|a| axes.contains(&a))
    }
    /// Whether every input's base pointer and kept offset are aligned to `v` elements.
    fn aligned(&self, kls: &[Layout], v: usize) -> bool {
        self.ins
            .iter()
            .zip(kls)
            .all(|((s, _), kl)| s.ptr(0).is_multiple_of((v * s.dtype.size()) as u64) && kl.offset().is_multiple_of(v))
    }
    /// Elements per pack: 16 bytes of the widest input.
    fn widest(&self) -> usize {
        16 / self.ins.iter().map(|(s, _)| s.dtype.size()).max().unwrap_or(16)
    }
}

/// Whether the reduced positions of each output are too few for a block each (`sum(axis=1)` of
/// a (10^6, 2) array: a block per output left 254 of its 256 threads idle, 2.7 ms where CuPy
/// takes 0.07): then a thread per output reads them in sequence.
fn short_runs(rshape: &[usize], kls: &[Layout]) -> bool {
    numel(rshape) <= SHORT_RUN && numel(kls[0].shape()) >= 2048
}

/// The longest reduced extent a thread per output takes when the reduced axis is the fastest.
const SHORT_RUN: usize = 32;

/// The plan of a reduction over `kls` (kept layouts of the inputs, then the outputs) and `rls`
/// (the inputs' reduced layouts).
fn plan(ops: &Operands, axes: &[usize], kls: &[Layout], rls: &[Layout], reorder: bool) -> Plan {
    let rr: Vec<&Layout> = rls.iter().collect();
    let (rshape, rst) = collapse(&rr);
    let run = rshape.len() == 1;
    let nin = ops.ins.len();
    if !ops.rows(axes) {
        let kr: Vec<&Layout> = kls.iter().collect();
        let (kshape, kst) = collapse(&kr);
        let nk = numel(kls[0].shape());
        let columns = run && nin > 0 && kshape.len() == 1 && kst.iter().all(|s| s[0] == 1);
        let vec = if !columns {
            1
        } else {
            vector_width(ops.widest(), |v| {
                nk.is_multiple_of(v) && ops.aligned(kls, v) && rst.iter().all(|s| s[0].unsigned_abs().is_multiple_of(v))
            })
        };
        return Plan::Cols { run, vec };
    }
    if short_runs(&rshape, kls) {
        return Plan::Cols { run, vec: 1 };
    }
    let ordered = !reorder;
    let vec = if ordered || !run || nin != 1 || rst[0][0] != 1 {
        1
    } else {
        let kl = &kls[0];
        vector_width(ops.widest(), |v| {
            ops.aligned(kls, v)
                && (0..kl.ndim()).all(|a| kl.shape()[a] == 1 || kl.strides()[a].unsigned_abs().is_multiple_of(v))
        })
    };
    Plan::Rows { ordered, run, vec }
}

/// Everything a reduction launch needs.
struct Job<'a> {
    dev: &'a Arc<Dev>,
    /// the kernel's name and its finishing kernel's
    names: [&'a str; 2],
    /// a user's kernel (named by the user) or a built-in one (specialised by the plan)
    user: bool,
    /// the reduce type
    rt: DType,
    /// the module's source for a plan (only called on a cache miss)
    source: &'a dyn Fn(Plan) -> String,
    /// the kernel's identity without the plan
    key: u64,
    /// the arguments' parameters
    p: Params,
    ops: Operands<'a>,
    /// kept layouts (inputs, then outputs) and reduced layouts (inputs)
    kls: Vec<Layout>,
    rls: Vec<Layout>,
    reorder: bool,
    /// every buffer the kernels read or write
    bufs: Vec<&'a CudaStorage>,
}

/// The dtype that holds values of `d`'s compute type (float16 and bfloat16 compute in float32).
fn compute_dtype(d: DType) -> DType {
    match d {
        DType::F16 | DType::BF16 => DType::F32,
        d => d,
    }
}

impl Job<'_> {
    /// Plan and launch. `fixed`: rows of exactly `(chunks, per)` (chunks > 1), whose partials
    /// are returned (nk x chunks, in the reduce type's compute dtype) instead of finished.
    fn run(mut self, axes: &[usize], fixed: Option<(usize, usize)>) -> Result<Option<CudaStorage>> {
        let (nk, nr) = (numel(self.kls[0].shape()), numel(self.rls[0].shape()));
        if nk == 0 {
            return Ok(None);
        }
        let plan = match (fixed, plan(&self.ops, axes, &self.kls, &self.rls, self.reorder)) {
            (Some(_), Plan::Cols { .. }) => Plan::Rows { ordered: false, run: true, vec: 1 },
            (_, p) => p,
        };
        let key = self.key ^ plan.code().wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let spec = |plan: Plan| if self.user { String::new() } else { format!("{}_{}", self.rt.name(), plan.label()) };
        let [k, kfin] =
            generated(self.dev, key, self.user, self.names, || Source::new(spec(plan), (self.source)(plan)))?;
        let fill = k.fill;
        let (chunks, per) = match plan {
            _ if let Some(f) = fixed => f,
            Plan::Cols { vec, .. } => {
                // Enough threads to fill the device (a thread per `vec` outputs and chunk), at
                // least 16 rows each.
                let threads = 2048 * self.dev.sms;
                let chunks = if self.reorder { (threads / (nk / vec).max(1)).min(nr / 16).max(1) } else { 1 };
                let per = nr.div_ceil(chunks).max(1);
                (nr.div_ceil(per).max(1), per)
            }
            Plan::Rows { ordered, .. } if ordered || nk >= fill => (1, nr.max(1)),
            Plan::Rows { .. } => chunking(nr, fill / nk, 2048),
        };
        let part =
            if chunks > 1 { Some(CudaStorage::alloc(self.dev, compute_dtype(self.rt), nk * chunks)?) } else { None };
        let kr: Vec<&Layout> = self.kls.iter().collect();
        let rr: Vec<&Layout> = self.rls.iter().collect();
        self.p.indexer(&kr)?;
        self.p.indexer(&rr)?;
        self.p.i64(chunks as i64);
        self.p.i64(per as i64);
        self.p.ptr(part.as_ref().map_or(0, |s| s.ptr(0)));
        let with_part: Vec<&CudaStorage>;
        let bufs: &[&CudaStorage] = match &part {
            Some(s) => {
                with_part = self.bufs.iter().copied().chain([s]).collect();
                &with_part
            }
            None => &self.bufs,
        };
        let (work, finish) = match plan {
            Plan::Cols { vec, .. } => (cfg((nk / vec * chunks) as i64), cols_finish(nk, chunks)),
            Plan::Rows { .. } => (blocks_cfg((nk * chunks) as i64), blocks_cfg(nk as i64)),
        };
        self.p.launch(self.dev, &k, work, bufs)?;
        if fixed.is_some() {
            return Ok(part);
        }
        if chunks > 1 {
            self.p.launch(self.dev, &kfin, finish, bufs)?;
        }
        Ok(None)
    }
}

/// The finishing launch of a column plan: a warp per output when each has many partials (two
/// outputs of 62500 partials each, one thread apiece, took 1.5 ms of `sum(axis=0)` over a
/// (10^6, 2) array), a thread per output otherwise (`blockDim.x` lanes per output, `blockDim.y`
/// outputs per block).
fn cols_finish(nk: usize, chunks: usize) -> cudarc::driver::LaunchConfig {
    let lanes = if chunks >= 32 { 32 } else { 1 };
    let per_block = 256 / lanes;
    let blocks = nk.div_ceil(per_block as usize).min(1 << 20) as u32;
    cudarc::driver::LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (lanes, per_block, 1), shared_mem_bytes: 0 }
}

/// Run reduction kernel `def` over `shape`, reducing `axes`.
pub(crate) fn run(
    dev: &Arc<Dev>,
    def: &ReductionDef,
    types: &KernelTypes,
    args: &[KernelArg<'_, CudaStorage>],
    shape: &[usize],
    axes: &[usize],
) -> Result<xp_core::Outputs<CudaStorage>> {
    let kept: Vec<usize> = (0..shape.len()).filter(|a| !axes.contains(a)).map(|a| shape[a]).collect();
    let nk = numel(&kept);
    let outs: xp_core::Outputs<CudaStorage> =
        types.outs.iter().map(|&d| CudaStorage::alloc(dev, d, nk)).collect::<Result<_>>()?;
    if nk == 0 {
        return Ok(outs);
    }
    let rt = def.reduce_dtype(&types.typedefs, &types.outs)?;
    let (mut gargs, mut keep, mut bufs) = (Vec::new(), Vec::new(), Vec::new());
    let (mut kls, mut rls, mut ins) = (Vec::new(), Vec::new(), Vec::new());
    let mut p = Params::default();
    for (k, a) in args.iter().enumerate().take(def.ins.len()) {
        let (name, dtype) = (def.ins[k].name.as_str(), types.ins[k]);
        match a {
            KernelArg::Array(s, l) => {
                gargs.push(Arg { name, role: Role::In, dtype });
                bufs.push(*s);
                ins.push((*s, &**l));
                p.ptr(s.ptr(0));
                let (kl, rl) = split(l, axes);
                kls.push(kl);
                rls.push(rl);
            }
            KernelArg::Raw(s, l) => {
                gargs.push(Arg { name, role: Role::Raw, dtype });
                bufs.push(*s);
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
    bufs.extend(outs.iter());
    bufs.extend(keep.iter());
    let key = spec_hash(def.id, types, &gargs, "reduce");
    let fin = format!("{}_fin", def.name);
    let fold = Fold {
        name: &def.name,
        fin: &fin,
        typedefs: &types.typedefs,
        preamble: &def.preamble,
        args: &gargs,
        rt,
        map: &def.map_expr,
        reduce: &def.reduce_expr,
        post: &def.post_map_expr,
        identity: &def.identity,
    };
    let source = |plan| fold.source(plan);
    let job = Job {
        dev,
        names: [&def.name, &fin],
        user: true,
        rt,
        source: &source,
        key,
        p,
        ops: Operands { ins },
        kls,
        rls,
        reorder: true,
        bufs,
    };
    job.run(axes, None)?;
    Ok(outs)
}

/// The entry name of xp's reduction with `op`: `sum`, `prod`, `max`, ... as NumPy names them.
fn reduce_entry(op: BinaryOp) -> &'static str {
    match op {
        BinaryOp::Add => "sum",
        BinaryOp::Mul => "prod",
        BinaryOp::Max => "max",
        BinaryOp::Min => "min",
        BinaryOp::LogicalAnd => "all",
        BinaryOp::LogicalOr => "any",
        _ => op.name(),
    }
}

/// A CUDA expression of `op`'s identity in `d`'s compute type, if it has one.
pub(crate) fn identity(op: BinaryOp, d: DType) -> Option<String> {
    let ct = crate::codegen::compute_ty(d);
    Some(match op.identity(d)? {
        Scalar::Int(v) => format!("cv<{ct}>((i64){v})"),
        Scalar::Bool(b) => format!("cv<{ct}>({b})"),
        _ => return None,
    })
}

/// xp's reduction of `x` (laid out by `l`) with `op` over `axes`: the map `x0`, the reduce
/// `b_op(a, b)`, the post-map `o = a`.
pub(crate) fn builtin(x: &CudaStorage, l: &Layout, op: BinaryOp, axes: &[usize]) -> Result<CudaStorage> {
    let out = CudaStorage::alloc(&x.dev, x.dtype, split(l, axes).0.numel())?;
    builtin_job(reduce_entry(op), &[(x, l)], "x0", op, axes, &out, None)?;
    Ok(out)
}

/// The partial results of [`builtin`] over one axis in `chunks` (> 1) consecutive ranges of
/// `per` positions: (kept, chunks), C-contiguous, in the compute dtype of `x`'s dtype.
pub(crate) fn builtin_parts(
    x: &CudaStorage,
    l: &Layout,
    op: BinaryOp,
    axis: usize,
    chunks: usize,
    per: usize,
) -> Result<CudaStorage> {
    let out = CudaStorage::alloc(&x.dev, x.dtype, 0)?;
    let parts = builtin_job(reduce_entry(op), &[(x, l)], "x0", op, &[axis], &out, Some((chunks, per)))?;
    match parts {
        Some(p) => Ok(p),
        None => CudaStorage::alloc(&x.dev, compute_dtype(x.dtype), 0),
    }
}

/// `out[i] = Σ_j x[i, j] · y[i, j]` over the last axis of two `(count, k)` layouts (float or
/// complex `x.dtype`, as `y`'s): a product whose output is 1 × 1 per matrix, `(1, k) @ (k, 1)`,
/// as one reduction over every SM (CuPy's route; cuBLAS's GEMM walks such a product with few
/// blocks).
pub(crate) fn builtin_dot(x: &CudaStorage, xl: &Layout, y: &CudaStorage, yl: &Layout, out: &CudaStorage) -> Result<()> {
    let axis = [xl.ndim() - 1];
    builtin_job("dot", &[(x, xl), (y, yl)], "b_multiply(x0, x1)", BinaryOp::Add, &axis, out, None).map(|_| ())
}

/// A reduction with `op` over `axes` of `map` (an expression of `x0`, `x1`, … in the compute
/// type of the first input's dtype, which every input and `out` share).
fn builtin_job(
    entry: &str,
    ins: &[(&CudaStorage, &Layout)],
    map: &str,
    op: BinaryOp,
    axes: &[usize],
    out: &CudaStorage,
    fixed: Option<(usize, usize)>,
) -> Result<Option<CudaStorage>> {
    let (x, l) = ins[0];
    let d = x.dtype;
    let names = ["x0", "x1", "x2", "x3"];
    let mut args: Vec<Arg> = names[..ins.len()].iter().map(|&name| Arg { name, role: Role::In, dtype: d }).collect();
    args.push(Arg { name: "o", role: Role::Out(false), dtype: d });
    let mut p = Params::default();
    let (mut kls, mut rls, mut bufs) = (Vec::new(), Vec::new(), Vec::new());
    for &(s, sl) in ins {
        p.ptr(s.ptr(0));
        let (kl, rl) = split(sl, axes);
        kls.push(kl);
        rls.push(rl);
        bufs.push(s);
    }
    p.ptr(out.ptr(0));
    kls.push(Layout::contiguous(split(l, axes).0.shape()));
    bufs.push(out);
    // `sum`, `dot`: the entry names (for the profile)
    let entry_fin = format!("{entry}_fin");
    // the parts as text only when the kernel is compiled
    let source = |plan| {
        let (main, fin) = (format!("XP_NAME({entry})"), format!("XP_NAME({entry_fin})"));
        let reduce = format!("b_{}(a, b)", op.name());
        let id = identity(op, d).unwrap_or_default();
        let fold = Fold {
            name: &main,
            fin: &fin,
            typedefs: &[],
            preamble: "",
            args: &args,
            rt: d,
            map,
            reduce: &reduce,
            post: "o = a;",
            identity: &id,
        };
        fold.source(plan)
    };
    let key = hash_str(hash_str(hash_str(0x7ed, op.name()), d.name()), map);
    let job = Job {
        dev: &x.dev,
        names: [entry, &entry_fin],
        user: false,
        rt: d,
        source: &source,
        key,
        p,
        ops: Operands { ins: ins.to_vec() },
        kls,
        rls,
        reorder: op.is_reorderable(),
        bufs,
    };
    job.run(axes, fixed)
}
