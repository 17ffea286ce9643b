//! CUDA C source for each kernel family, generated from templates: specialised on the storage
//! and compute types of each operand, on contiguity (a contiguous launch skips all index
//! arithmetic) and, through the op's device function, on the op.
use xp_core::DType;

/// The prelude compiled in front of every kernel (types, conversions, op functions, indexer).
pub(crate) const PRELUDE: &str = include_str!("kernels/prelude.cu");

/// How elements of a dtype are stored in device memory.
pub(crate) fn storage_ty(d: DType) -> &'static str {
    match d {
        DType::Bool => "bool",
        DType::I8 => "i8",
        DType::I16 => "i16",
        DType::I32 => "i32",
        DType::I64 => "i64",
        DType::U8 => "u8",
        DType::U16 => "u16",
        DType::U32 => "u32",
        DType::U64 => "u64",
        DType::F16 => "xp_h",
        DType::BF16 => "xp_bh",
        DType::F32 => "float",
        DType::F64 => "double",
        DType::C64 => "cf",
        DType::C128 => "cd",
    }
}

/// The type arithmetic on a dtype runs in (float16 and bfloat16 compute in float).
pub(crate) fn compute_ty(d: DType) -> &'static str {
    match d {
        DType::F16 | DType::BF16 => "float",
        d => storage_ty(d),
    }
}

/// An expression that turns a compute value into the storage type of `d`.
fn store(d: DType, v: &str) -> String {
    match d {
        DType::F16 => format!("st_h({v})"),
        DType::BF16 => format!("st_bh({v})"),
        _ => format!("({})({v})", storage_ty(d)),
    }
}

fn index_loop(nops: usize, take: bool) -> String {
    let mut s = String::from("i64 r = i;\n      for (int d = (int)ix.nd - 1; d >= 0; --d) {\n        i64 q = r % ix.shape[d]; r /= ix.shape[d];\n");
    for k in 0..nops {
        if take && k > 0 {
            s += &format!("        p{k} += (d == tax ? tk[q] : q) * ix.st[{k}][d];\n");
        } else {
            s += &format!("        p{k} += q * ix.st[{k}][d];\n");
        }
    }
    s + "      }"
}

/// An elementwise kernel: `o = expr(x0, x1, ...)`, where `xk` is input k in its compute type.
/// With `take`, dimension `tax` of the inputs is addressed through the index array `tk`.
pub(crate) fn elementwise(name: &str, out: DType, ins: &[DType], expr: &str, contiguous: bool, take: bool) -> String {
    let mut params = format!("{}* __restrict__ o", storage_ty(out));
    for (k, d) in ins.iter().enumerate() {
        params += &format!(", const {}* __restrict__ a{k}", storage_ty(*d));
    }
    if take {
        params += ", const i64* __restrict__ tk, int tax";
    }
    let nops = ins.len() + 1;
    let decl: Vec<String> = (0..nops).map(|k| format!("p{k} = ix.off[{k}]")).collect();
    let index = if contiguous {
        (0..nops).map(|k| format!("p{k} += i;")).collect::<Vec<_>>().join(" ")
    } else {
        index_loop(nops, take)
    };
    let loads: String = ins
        .iter()
        .enumerate()
        .map(|(k, d)| format!("      {} x{k} = ld(a{k}[p{}]);\n", compute_ty(*d), k + 1))
        .collect();
    format!(
        "{PRELUDE}\nextern \"C\" __global__ void {name}({params}, Idx ix) {{\n  const i64 step = (i64)gridDim.x * blockDim.x;\n  for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < ix.n; i += step) {{\n      i64 {};\n      {index}\n{loads}      o[p0] = {};\n  }}\n}}\n",
        decl.join(", "),
        store(out, expr)
    )
}

/// Offset of position `pos` of the index space `ix` for operand `k`, into `var`.
fn offset_of(ix: &str, pos: &str, k: usize, var: &str) -> String {
    format!(
        "i64 {var} = {ix}.off[{k}]; {{ i64 rr = {pos}; for (int d = (int){ix}.nd - 1; d >= 0; --d) {{ i64 q = rr % {ix}.shape[d]; rr /= {ix}.shape[d]; {var} += q * {ix}.st[{k}][d]; }} }}"
    )
}

/// Block reduction: block `b` handles output `b / chunks`, part `b % chunks` (reduced positions
/// `[part * per, part * per + per)`): its threads fold interleaved elements, then a shared-memory
/// tree combines them. With `chunks > 1` the outputs are partials that a second launch reduces.
/// `ordered` ops (not reorderable) fold on one thread, in order, and use one chunk.
pub(crate) fn reduce(name: &str, d: DType, op: &str, ordered: bool, run: bool) -> String {
    let (st, ct) = (storage_ty(d), compute_ty(d));
    // `run`: the reduced positions form one strided run, so no division locates an element.
    let roff = if run { "i64 p = j * r.st[1][0];".to_string() } else { offset_of("r", "j", 1, "p") };
    // Reorderable ops over a run: four independent loads in flight per thread.
    let unrolled = if run && !ordered {
        format!(
            "if (j < hi) {{ acc = ld(a[base + j * r.st[1][0]]); has = true; j += blockDim.x; }}
    for (; j + 3 * (i64)blockDim.x < hi; j += 4 * (i64)blockDim.x) {{
      const i64 s0 = r.st[1][0], b = blockDim.x;
      {ct} x0 = ld(a[base + j * s0]), x1 = ld(a[base + (j + b) * s0]), x2 = ld(a[base + (j + 2 * b) * s0]), x3 = ld(a[base + (j + 3 * b) * s0]);
      acc = {op}(acc, {op}({op}(x0, x1), {op}(x2, x3)));
    }}"
        )
    } else {
        String::new()
    };
    let (start, inc) = if ordered { ("(t == 0 ? lo : hi)", "1") } else { ("lo + t", "blockDim.x") };
    format!(
        "{PRELUDE}\nextern \"C\" __global__ void {name}({st}* __restrict__ o, const {st}* __restrict__ a, Idx k, Idx r, i64 chunks, i64 per) {{
  __shared__ {ct} buf[256]; __shared__ bool hv[256];
  const int t = threadIdx.x;
  for (i64 bo = blockIdx.x; bo < k.n * chunks; bo += gridDim.x) {{
    const i64 ko = bo / chunks, lo = (bo % chunks) * per, hi = lo + per < r.n ? lo + per : r.n;
    {base}
    {ct} acc = {ct}(); bool has = false;
    i64 j = {start};
    {unrolled}
    for (; j < hi; j += {inc}) {{
      {roff}
      {ct} x = ld(a[base + p]);
      acc = has ? {op}(acc, x) : x; has = true;
    }}
    buf[t] = acc; hv[t] = has; __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {{
      if (t < s && hv[t + s]) {{ buf[t] = hv[t] ? {op}(buf[t], buf[t + s]) : buf[t + s]; hv[t] = true; }}
      __syncthreads();
    }}
    if (t == 0) o[bo] = {out};
    __syncthreads();
  }}
}}\n",
        base = offset_of("k", "ko", 1, "base"),
        out = store(d, "buf[0]"),
    )
}

/// Column reduction, for when a kept axis moves fastest in memory: one thread per (part, kept
/// element), adjacent threads on adjacent kept elements (coalesced), each folding its range of
/// reduced positions in order. Output: partials laid out (chunks, kept).
pub(crate) fn reduce_columns(name: &str, d: DType, op: &str, run: bool) -> String {
    let (st, ct) = (storage_ty(d), compute_ty(d));
    let roff = |v: &str, j: &str| if run { format!("i64 {v} = {j} * r.st[1][0];") } else { offset_of("r", j, 1, v) };
    format!(
        "{PRELUDE}\nextern \"C\" __global__ void {name}({st}* __restrict__ o, const {st}* __restrict__ a, Idx k, Idx r, i64 chunks, i64 per) {{
  const i64 step = (i64)gridDim.x * blockDim.x;
  for (i64 g = (i64)blockIdx.x * blockDim.x + threadIdx.x; g < k.n * chunks; g += step) {{
    const i64 ko = g % k.n, lo = (g / k.n) * per, hi = lo + per < r.n ? lo + per : r.n;
    {base}
    {first}
    {ct} acc = ld(a[base + p0]);
    for (i64 j = lo + 1; j < hi; ++j) {{
      {next}
      acc = {op}(acc, ld(a[base + p]));
    }}
    o[g] = {out};
  }}
}}\n",
        base = offset_of("k", "ko", 1, "base"),
        first = roff("p0", "lo"),
        next = roff("p", "j"),
        out = store(d, "acc"),
    )
}

/// Arg-reduction along one axis: (value, index) pairs, the first index among equals, the first
/// NaN over everything. Block `b` handles output `b / chunks` over positions
/// `[part * per, part * per + per)`; with `ncand > 0` it instead chooses among the `ncand`
/// candidate indices `cand[ko * ncand ..]` that a first launch wrote (its second stage).
pub(crate) fn arg_reduce(name: &str, d: DType, better: &str) -> String {
    let (st, ct) = (storage_ty(d), compute_ty(d));
    format!(
        "{PRELUDE}\n__device__ __forceinline__ bool take_right({ct} lv, i64 li, {ct} rv, i64 ri) {{
  if (is_nan(rv)) return !is_nan(lv) || ri < li;
  if (is_nan(lv)) return false;
  if ({better}(rv, lv)) return true;
  return !{better}(lv, rv) && ri < li;
}}
extern \"C\" __global__ void {name}(i64* __restrict__ o, const {st}* __restrict__ a, Idx k, i64 n, i64 s, i64 chunks, i64 per, const i64* __restrict__ cand, i64 ncand) {{
  __shared__ {ct} bv[256]; __shared__ i64 bi[256];
  const int t = threadIdx.x;
  for (i64 bo = blockIdx.x; bo < k.n * chunks; bo += gridDim.x) {{
    const i64 ko = bo / chunks, lo = (bo % chunks) * per, hi = ncand > 0 ? ncand : (lo + per < n ? lo + per : n);
    {base}
    {ct} acc = {ct}(); i64 ai = -1;
    i64 c = (ncand > 0 ? 0 : lo) + t;
    if (ncand == 0) {{
      // Four loads in flight, then the comparisons in index order (first index, first NaN).
      const i64 b = blockDim.x;
      for (; c + 3 * b < hi; c += 4 * b) {{
        {ct} x0 = ld(a[base + c * s]), x1 = ld(a[base + (c + b) * s]), x2 = ld(a[base + (c + 2 * b) * s]), x3 = ld(a[base + (c + 3 * b) * s]);
        if (ai < 0 || take_right(acc, ai, x0, c)) {{ acc = x0; ai = c; }}
        if (take_right(acc, ai, x1, c + b)) {{ acc = x1; ai = c + b; }}
        if (take_right(acc, ai, x2, c + 2 * b)) {{ acc = x2; ai = c + 2 * b; }}
        if (take_right(acc, ai, x3, c + 3 * b)) {{ acc = x3; ai = c + 3 * b; }}
      }}
    }}
    for (; c < hi; c += blockDim.x) {{
      const i64 j = ncand > 0 ? cand[ko * ncand + c] : c;
      {ct} x = ld(a[base + j * s]);
      if (ai < 0 || take_right(acc, ai, x, j)) {{ acc = x; ai = j; }}
    }}
    bv[t] = acc; bi[t] = ai; __syncthreads();
    for (int w = blockDim.x / 2; w > 0; w >>= 1) {{
      if (t < w && bi[t + w] >= 0 && (bi[t] < 0 || take_right(bv[t], bi[t], bv[t + w], bi[t + w]))) {{ bv[t] = bv[t + w]; bi[t] = bi[t + w]; }}
      __syncthreads();
    }}
    if (t == 0) o[bo] = bi[0];
    __syncthreads();
  }}
}}\n",
        base = offset_of("k", "ko", 1, "base"),
    )
}

/// Inclusive scan: one thread per (line, chunk); the thread scans `[part * per, part * per + per)`
/// of its line sequentially, starting from `pre[b - 1]` (the inclusive total of the chunks before
/// it, from an earlier pass) when `part > 0`. With `chunks == 1` each thread scans a whole line.
pub(crate) fn scan(name: &str, d: DType, op: &str) -> String {
    let (st, ct) = (storage_ty(d), compute_ty(d));
    format!(
        "{PRELUDE}\nextern \"C\" __global__ void {name}({st}* __restrict__ o, const {st}* __restrict__ a, Idx k, i64 len, i64 sa, i64 so, i64 chunks, i64 per, const {st}* __restrict__ pre) {{
  const i64 step = (i64)gridDim.x * blockDim.x;
  for (i64 bo = (i64)blockIdx.x * blockDim.x + threadIdx.x; bo < k.n * chunks; bo += step) {{
    const i64 line = bo / chunks, part = bo % chunks, lo = part * per, hi = lo + per < len ? lo + per : len;
    if (lo >= hi) continue;
    {pa}
    {po}
    {ct} acc = ld(a[pa + lo * sa]);
    if (part > 0) acc = {op}(ld(pre[bo - 1]), acc);
    o[po + lo * so] = {st0};
    for (i64 j = lo + 1; j < hi; ++j) {{
      acc = {op}(acc, ld(a[pa + j * sa]));
      o[po + j * so] = {st1};
    }}
  }}
}}\n",
        pa = offset_of("k", "line", 1, "pa"),
        po = offset_of("k", "line", 0, "po"),
        st0 = store(d, "acc"),
        st1 = store(d, "acc"),
    )
}

/// Chunked scan for reorderable ops: one block per (line, chunk); the chunk is scanned in tiles of
/// 256 coalesced elements with a shared-memory (Hillis–Steele) scan, carrying the running total
/// from tile to tile, starting from `pre[b - 1]` (the total of the chunks before) when `part > 0`.
pub(crate) fn scan_blocks(name: &str, d: DType, op: &str) -> String {
    let (st, ct) = (storage_ty(d), compute_ty(d));
    format!(
        "{PRELUDE}\nextern \"C\" __global__ void {name}({st}* __restrict__ o, const {st}* __restrict__ a, Idx k, i64 len, i64 sa, i64 so, i64 chunks, i64 per, const {st}* __restrict__ pre) {{
  __shared__ {ct} sh[256];
  const int t = threadIdx.x;
  for (i64 bo = blockIdx.x; bo < k.n * chunks; bo += gridDim.x) {{
    const i64 line = bo / chunks, part = bo % chunks, lo = part * per, hi = lo + per < len ? lo + per : len;
    {pa}
    {po}
    {ct} carry = {ct}(); bool has = part > 0;
    if (has) carry = ld(pre[bo - 1]);
    for (i64 base = lo; base < hi; base += 256) {{
      const i64 j = base + t; const bool act = j < hi;
      sh[t] = act ? ld(a[pa + j * sa]) : {ct}();
      __syncthreads();
      for (int off = 1; off < 256; off <<= 1) {{
        {ct} w = t >= off ? sh[t - off] : {ct}();
        __syncthreads();
        if (t >= off) sh[t] = {op}(w, sh[t]);
        __syncthreads();
      }}
      {ct} v = has ? {op}(carry, sh[t]) : sh[t];
      if (act) o[po + j * so] = {st0};
      const i64 last = (hi - base < 256 ? hi - base : 256) - 1;
      {ct} tile = sh[last];
      __syncthreads();
      carry = has ? {op}(carry, tile) : tile; has = true;
    }}
  }}
}}\n",
        pa = offset_of("k", "line", 1, "pa"),
        po = offset_of("k", "line", 0, "po"),
        st0 = store(d, "v"),
    )
}

#[cfg(test)]
mod tests {
    //! Without a GPU: every device expression the front end can ask for, and every kernel
    //! template for every dtype, parsed by g++ with the CUDA keywords stubbed out. This catches
    //! missing overloads and template mistakes before any device time is spent.
    use super::*;
    use xp_core::{BinaryOp, UnaryOp};

    const STUB: &str = include_str!("kernels/host_stub.h");

    fn syntax_check(name: &str, src: &str) {
        let dir = std::env::temp_dir().join(format!("xp-codegen-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("k.cpp");
        std::fs::write(&file, format!("{STUB}\n{src}")).unwrap();
        let out = std::process::Command::new("g++").args(["-std=c++17", "-fsyntax-only", "-w"]).arg(&file).output();
        let _ = std::fs::remove_dir_all(&dir);
        match out {
            Err(_) => eprintln!("codegen test {name}: g++ not found, syntax check skipped"),
            Ok(o) => assert!(
                o.status.success(),
                "{name}: generated CUDA does not parse:\n{}",
                String::from_utf8_lossy(&o.stderr)
            ),
        }
    }

    #[test]
    fn every_op_expression_parses_for_its_loop_dtypes() {
        let mut body = String::from(PRELUDE);
        let mut k = 0;
        for d in DType::ALL {
            let ct = compute_ty(d);
            for &op in UnaryOp::ALL {
                if op.resolve(d).is_ok_and(|(l, _)| l == d) {
                    body += &format!("void t{k}() {{ {ct} x0 = {ct}(); auto r = u_{}(x0); (void)r; }}\n", op.name());
                    k += 1;
                }
            }
            for &op in BinaryOp::ALL {
                if op.resolve(d, d).is_ok_and(|(l, _)| l == d) {
                    body += &format!(
                        "void t{k}() {{ {ct} x0 = {ct}(), x1 = {ct}(); auto r = b_{}(x0, x1); (void)r; }}\n",
                        op.name()
                    );
                    k += 1;
                }
            }
            for to in DType::ALL {
                body += &format!("void t{k}() {{ {ct} x0 = {ct}(); auto r = cv<{}>(x0); (void)r; }}\n", compute_ty(to));
                k += 1;
            }
        }
        assert!(k > 600, "{k} expressions");
        syntax_check("ops", &body);
    }

    #[test]
    fn every_kernel_template_parses_for_every_dtype() {
        for d in DType::ALL {
            let mut src = String::new();
            for (i, contiguous) in [(0, true), (1, false)] {
                src += &elementwise(&format!("e{i}"), d, &[d, d], "x0", contiguous, false).replace(PRELUDE, "");
            }
            src += &elementwise("tk", d, &[d], "x0", false, true).replace(PRELUDE, "");
            src += &elementwise("wh", d, &[DType::Bool, d, d], "(x0 ? x1 : x2)", true, false).replace(PRELUDE, "");
            let op = if d == DType::Bool { "b_logical_or" } else { "b_maximum" };
            src += &reduce("r0", d, op, false, true).replace(PRELUDE, "");
            src += &reduce("r1", d, op, true, false).replace(PRELUDE, "");
            src += &reduce_columns("rc", d, op, true).replace(PRELUDE, "");
            src += &scan("sc", d, op).replace(PRELUDE, "");
            src += &scan_blocks("sb", d, op).replace(PRELUDE, "");
            if d != DType::Bool {
                src += &arg_reduce("ar", d, "gt").replace(PRELUDE, "");
            }
            syntax_check(d.name(), &format!("{PRELUDE}\n{src}"));
        }
    }
}
