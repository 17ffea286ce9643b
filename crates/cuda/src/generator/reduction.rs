//! Reductions on the GPU, xp's built-in ones and user [`ReductionDef`]s alike: the plan (rows or
//! columns, packs, chunks per output) from the layouts, the source from [`super::reduce_src`],
//! one launch, and a second that folds the partials where outputs were split into chunks.
use super::params::Params;
use super::reduce_src::{Acc, Fold, Plan, ARG_CU};
use super::scan_src::ScanMode;
use super::{generated, raw_ptr, spec_hash, Arg, Role};
use crate::runtime::buffer::CudaStorage;
use crate::runtime::device::Dev;
use crate::runtime::launch::{blocks_cfg, cfg, Source};
use crate::space::{split, vector_width};
use std::sync::Arc;
use xp_core::kernel::{hash_str, ReductionDef};
use xp_core::{collapse, numel, ArgReduceOp, BinaryOp, DType, KernelArg, KernelTypes, Layout, Result, Scalar};

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

/// A module of a reduction: its kernel in a plan, or the finishing kernel of a rows or columns
/// plan.
#[derive(Clone, Copy, Debug)]
enum Part {
    Main(Plan),
    Fin { rows: bool },
}

impl Fold<'_> {
    fn part(&self, p: Part) -> String {
        match p {
            Part::Main(plan) => self.source(plan),
            Part::Fin { rows } => self.fin_source(rows),
        }
    }
}

/// Everything a reduction launch needs.
struct Job<'a> {
    dev: &'a Arc<Dev>,
    /// the kernel's name and its finishing kernel's
    names: [&'a str; 2],
    /// a user's kernel (named by the user) or a built-in one (specialised by the plan)
    user: bool,
    /// what is folded
    acc: Acc,
    /// a module's source (only called on a cache miss)
    source: &'a dyn Fn(Part) -> String,
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
    /// are returned (nk x chunks, in the folded values' compute dtype) instead of finished.
    fn run(mut self, axes: &[usize], fixed: Option<(usize, usize)>) -> Result<Option<CudaStorage>> {
        let (nk, nr) = (numel(self.kls[0].shape()), numel(self.rls[0].shape()));
        if nk == 0 {
            return Ok(None);
        }
        let plan = match (fixed, plan(&self.ops, axes, &self.kls, &self.rls, self.reorder)) {
            (Some(_), Plan::Cols { .. }) => Plan::Rows { ordered: false, run: true, vec: 1 },
            (_, p) => p,
        };
        let mix = |code: u64| self.key ^ code.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let spec = |label: &str| {
            if self.user {
                String::new()
            } else {
                format!("{}_{label}", self.acc.dtype().name())
            }
        };
        let [k] = generated(self.dev, mix(plan.code()), self.user, [self.names[0]], || {
            Source::new(spec(&plan.label()), (self.source)(Part::Main(plan)))
        })?;
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
        let part = if chunks == 1 {
            None
        } else if let Acc::Value(d) = self.acc {
            Some(CudaStorage::alloc(self.dev, compute_dtype(d), nk * chunks)?)
        } else {
            Some(CudaStorage::alloc(self.dev, DType::U8, nk * chunks * self.acc.bytes())?)
        };
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
            // the finishing kernel of every plan of this kind (codes above any plan's)
            let rows = matches!(plan, Plan::Rows { .. });
            let [kfin] = generated(self.dev, mix(1 << (20 + rows as u64)), self.user, [self.names[1]], || {
                Source::new(spec(if rows { "rows" } else { "cols" }), (self.source)(Part::Fin { rows }))
            })?;
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
        let (name, dtype) = (def.c_name(k), types.ins[k]);
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
        gargs.push(Arg { name: def.c_name(def.ins.len() + j), role: Role::Out(false), dtype: types.outs[j] });
        p.ptr(o.ptr(0));
        kls.push(Layout::contiguous(&kept));
    }
    if rls.is_empty() {
        rls.push(Layout::contiguous(&axes.iter().map(|&a| shape[a]).collect::<Vec<_>>()));
    }
    bufs.extend(outs.iter());
    bufs.extend(keep.iter());
    let key = spec_hash(def.id, types, &gargs, "reduce");
    // a Rust reduction's C, made once per binding (kept by the definition)
    let parts = def.rust_parts(&types.typedefs, &types.scalar)?;
    let fin = format!("{}_fin", def.name);
    let fold = Fold {
        name: &def.name,
        fin: &fin,
        typedefs: &types.typedefs,
        preamble: &def.preamble,
        args: &gargs,
        acc: Acc::Value(rt),
        map: parts.as_ref().map_or(&def.map_expr, |p| &p.map),
        reduce: parts.as_ref().map_or(&def.reduce_expr, |p| &p.reduce),
        post: parts.as_ref().map_or(&def.post_map_expr, |p| &p.post),
        identity: parts.as_ref().map_or(&def.identity, |p| &p.identity),
    };
    let source = |p| fold.part(p);
    let job = Job {
        dev,
        names: [&def.name, &fin],
        user: true,
        acc: Acc::Value(rt),
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

/// A built-in reduction: what its kernels fold and how, as CUDA expressions over the input
/// `x0` (in its compute type) and the reduced position `_j`.
struct Builtin<'a> {
    /// the entry name, as NumPy names the function (`sum`, `argmax`, `cumsum`, …)
    entry: &'a str,
    /// the inputs' dtype
    d: DType,
    map: &'a str,
    /// values combine with `b_<op>(a, b)`; pairs with `xp_argmax`/`xp_argmin`
    combine: Combine,
    post: &'a str,
    preamble: &'a str,
    /// the outputs' dtype
    out: DType,
    reorder: bool,
}

/// How a built-in fold combines two values.
#[derive(Clone, Copy, Debug)]
enum Combine {
    Op(BinaryOp),
    Arg(ArgReduceOp),
}

impl<'a> Builtin<'a> {
    /// The fold of `op` over values of `d`: the map `x0` (or `map`), the reduce `b_op(a, b)`.
    fn values(entry: &'a str, op: BinaryOp, d: DType, map: &'a str) -> Self {
        Builtin {
            entry,
            d,
            map,
            combine: Combine::Op(op),
            post: "o = a;",
            preamble: "",
            out: d,
            reorder: op.is_reorderable(),
        }
    }
    /// The fold over `(x0, _j)` pairs of `d` that keeps the first extreme.
    fn arg(op: ArgReduceOp, d: DType) -> Self {
        Builtin {
            entry: op.name(),
            d,
            map: "_RT{x0, _j}",
            combine: Combine::Arg(op),
            post: "o = a.i;",
            preamble: ARG_CU,
            out: DType::I64,
            reorder: true,
        }
    }
    /// What is folded: values of `d`, or (value, index) pairs.
    fn acc(&self) -> Acc {
        match self.combine {
            Combine::Op(_) => Acc::Value(self.d),
            Combine::Arg(_) => Acc::Arg(self.d),
        }
    }
    /// The kernel's identity in the caches (without the plan). Plain hashing, no formatting:
    /// this runs on every call.
    fn key(&self, nin: usize) -> u64 {
        let combine = match self.combine {
            Combine::Op(op) => op.name(),
            Combine::Arg(op) => op.name(),
        };
        let h = hash_str(hash_str(hash_str(hash_str(0x7ed, self.entry), combine), self.map), self.d.name());
        h ^ (nin as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }
    /// `f` of the fold over `nin` inputs named `x0`, `x1`, …, its kernels named `XP_NAME(entry)`
    /// and `XP_NAME(fin)`.
    fn with_fold<R>(&self, nin: usize, fin: &str, f: impl FnOnce(&Fold) -> R) -> R {
        let d = self.d;
        let names = ["x0", "x1", "x2", "x3"];
        let mut args: Vec<Arg> = names[..nin].iter().map(|&name| Arg { name, role: Role::In, dtype: d }).collect();
        args.push(Arg { name: "o", role: Role::Out(false), dtype: self.out });
        let (main, fin) = (format!("XP_NAME({})", self.entry), format!("XP_NAME({fin})"));
        let (reduce, identity) = match self.combine {
            Combine::Op(op) => (format!("b_{}(a, b)", op.name()), identity(op, d).unwrap_or_default()),
            Combine::Arg(op) => (format!("xp_{}(a, b)", op.name()), String::new()),
        };
        f(&Fold {
            name: &main,
            fin: &fin,
            typedefs: &[],
            preamble: self.preamble,
            args: &args,
            acc: self.acc(),
            map: self.map,
            reduce: &reduce,
            post: self.post,
            identity: &identity,
        })
    }
}

/// xp's reduction of `x` (laid out by `l`) with `op` over `axes`: the map `x0`, the reduce
/// `b_op(a, b)`, the post-map `o = a`.
pub(crate) fn builtin(x: &CudaStorage, l: &Layout, op: BinaryOp, axes: &[usize]) -> Result<CudaStorage> {
    let out = CudaStorage::alloc(&x.dev, x.dtype, split(l, axes).0.numel())?;
    let b = Builtin::values(reduce_entry(op), op, x.dtype, "x0");
    builtin_job(&b, &[(x, l)], axes, &out, None)?;
    Ok(out)
}

/// The index (int64) of the first maximum or minimum of `x` along `axis` (a NaN counts as the
/// extreme), for each kept position: a reduction of (value, index) pairs.
pub(crate) fn builtin_arg(x: &CudaStorage, l: &Layout, op: ArgReduceOp, axis: usize) -> Result<CudaStorage> {
    let out = CudaStorage::alloc(&x.dev, DType::I64, split(l, &[axis]).0.numel())?;
    builtin_job(&Builtin::arg(op, x.dtype), &[(x, l)], &[axis], &out, None)?;
    Ok(out)
}

/// The source of the scan kernel `entry` (`cumsum`, …) of `op` over `d` in `mode`: the
/// reduction's fold, laid out as a scan.
pub(crate) fn scan_source(entry: &str, op: BinaryOp, d: DType, mode: ScanMode) -> String {
    Builtin::values(entry, op, d, "x0").with_fold(1, "", |f| f.scan_source(mode))
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
    let b = Builtin::values(reduce_entry(op), op, x.dtype, "x0");
    match builtin_job(&b, &[(x, l)], &[axis], &out, Some((chunks, per)))? {
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
    let b = Builtin::values("dot", BinaryOp::Add, x.dtype, "b_multiply(x0, x1)");
    builtin_job(&b, &[(x, xl), (y, yl)], &axis, out, None).map(|_| ())
}

/// The reduction `b` over `axes` of the inputs `ins` (all of `b`'s value dtype) into `out`.
fn builtin_job(
    b: &Builtin,
    ins: &[(&CudaStorage, &Layout)],
    axes: &[usize],
    out: &CudaStorage,
    fixed: Option<(usize, usize)>,
) -> Result<Option<CudaStorage>> {
    let l = ins[0].1;
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
    let entry_fin = format!("{}_fin", b.entry);
    // the parts as text only when the kernel is compiled
    let source = |p| b.with_fold(ins.len(), &entry_fin, |f| f.part(p));
    let job = Job {
        dev: &ins[0].0.dev,
        names: [b.entry, &entry_fin],
        user: false,
        acc: b.acc(),
        source: &source,
        key: b.key(ins.len()),
        p,
        ops: Operands { ins: ins.to_vec() },
        kls,
        rls,
        reorder: b.reorder,
        bufs,
    };
    job.run(axes, fixed)
}
