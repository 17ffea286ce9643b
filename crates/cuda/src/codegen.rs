//! CUDA C source for each kernel family, generated from templates: specialised on the storage
//! and compute types of each operand, on contiguity (a contiguous launch skips all index
//! arithmetic) and, through the op's device function, on the op.
use xp_core::DType;

pub(crate) use crate::runtime::nvrtc::PRELUDE;

/// How elements of a dtype are stored in device memory.
pub(crate) fn storage_ty(d: DType) -> &'static str {
    match d {
        DType::F16 => "xp_h",
        DType::BF16 => "xp_bh",
        d => xp_core::kernel::print::c_type(d),
    }
}

/// The type arithmetic on a dtype runs in (float16 and bfloat16 compute in float): the names
/// the kernel IR prints too.
pub(crate) fn compute_ty(d: DType) -> &'static str {
    xp_core::kernel::print::c_type(d)
}

/// Bytes of `d`'s compute type.
pub(crate) fn compute_size(d: DType) -> usize {
    match d {
        DType::F16 | DType::BF16 => 4,
        d => d.size(),
    }
}

/// An expression that turns a compute value into the storage type of `d`.
pub(crate) fn store(d: DType, v: &str) -> String {
    match d {
        DType::F16 => format!("st_h({v})"),
        DType::BF16 => format!("st_bh({v})"),
        _ => format!("({})({v})", storage_ty(d)),
    }
}

/// Offset of position `pos` of the index space `ix` for operand `k`, into `var`.
fn offset_of(ix: &str, pos: &str, k: usize, var: &str) -> String {
    format!(
        "i64 {var} = {ix}.off[{k}]; {{ i64 rr = {pos}; for (int d = (int){ix}.nd - 1; d >= 0; --d) {{ i64 q = rr % {ix}.shape[d]; rr /= {ix}.shape[d]; {var} += q * {ix}.st[{k}][d]; }} }}"
    )
}

/// Arg-reduction along one axis: (value, index) pairs, the first index among equals, the first
/// NaN over everything. Block `b` handles output `b / chunks` over positions
/// `[part * per, part * per + per)`; with `ncand > 0` it instead chooses among the `ncand`
/// candidate indices `cand[ko * ncand ..]` that a first launch wrote (its second stage).
pub(crate) fn arg_reduce(name: &str, d: DType, better: &str, vec: usize) -> String {
    let (st, ct) = (storage_ty(d), compute_ty(d));
    let pick = |p: &str, q: &str| {
        format!(
            "for (int u = 0; u < {vec}; ++u) {{ const i64 jj = lo + ({q}) * {vec} + u; {ct} x = ld({p}.v[u]); if (ai < 0 || take_right(acc, ai, x, jj)) {{ acc = x; ai = jj; }} }}"
        )
    };
    let first_stage = if vec > 1 {
        // Unit stride, aligned: `vec` elements per load, two loads in flight.
        format!(
            "const Pack<{vec}, {st}>* ap = (const Pack<{vec}, {st}>*)(a + base + lo);
      const i64 nv = (hi - lo) / {vec}, b = blockDim.x;
      i64 q = t;
      for (; q + b < nv; q += 2 * b) {{
        const Pack<{vec}, {st}> p0 = ap[q], p1 = ap[q + b];
        {p0} {p1}
      }}
      if (q < nv) {{ const Pack<{vec}, {st}> p0 = ap[q]; {p0} }}
      c = lo + nv * {vec} + t;",
            p0 = pick("p0", "q"),
            p1 = pick("p1", "q + b"),
        )
    } else {
        format!(
            "// Four loads in flight, then the comparisons in index order (first index, first NaN).
      const i64 b = blockDim.x;
      for (; c + 3 * b < hi; c += 4 * b) {{
        {ct} x0 = ld(a[base + c * s]), x1 = ld(a[base + (c + b) * s]), x2 = ld(a[base + (c + 2 * b) * s]), x3 = ld(a[base + (c + 3 * b) * s]);
        if (ai < 0 || take_right(acc, ai, x0, c)) {{ acc = x0; ai = c; }}
        if (take_right(acc, ai, x1, c + b)) {{ acc = x1; ai = c + b; }}
        if (take_right(acc, ai, x2, c + 2 * b)) {{ acc = x2; ai = c + 2 * b; }}
        if (take_right(acc, ai, x3, c + 3 * b)) {{ acc = x3; ai = c + 3 * b; }}
      }}"
        )
    };
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
      {first_stage}
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

/// Elements of one tile of the single-pass scan (256 threads x 8 consecutive elements each).
pub(crate) const SCAN_TILE: usize = 2048;

/// Single-pass scan with decoupled look-back, for reorderable ops with an identity `id` (a CUDA
/// expression of the compute type). Each block takes the next tile id from `counter` (so every
/// tile before it has started: no deadlock), scans its tile in shared memory (thread-local runs,
/// warp shuffles, warp totals), publishes its aggregate, then warp 0 looks back over the preceding
/// tiles of its line, 32 at a time, adding aggregates until it meets an inclusive prefix (the
/// nearest one in the window), publishes its own inclusive prefix and the block writes its
/// outputs. Reads 1x, writes 1x. The op must be commutative (every reorderable op is).
///
/// With `lookback == false` the same tile scan starts instead from `incls[tile - 1]`, the inclusive
/// totals of the tiles before it computed by earlier launches (reduce, then scan the totals).
pub(crate) fn scan_lookback(name: &str, d: DType, op: &str, id: &str, lookback: bool) -> String {
    let (st, ct) = (storage_ty(d), compute_ty(d));
    let (tile, prefix) = if lookback {
        (
            "if (t == 0) tile_id = (i64)atomicAdd(counter, 1ull);",
            format!(
                "if (w == 0) {{
    // Warp 0 publishes the tile's aggregate, then looks back 32 tiles at a time.
    {ct} agg = {id};
    for (int q = 0; q < 8; ++q) agg = {op}(agg, wsum[q]);
    {ct} excl = {id};
    volatile int* vf = flags;
    if (part == 0) {{
      if (lane == 0) {{ incls[ti] = agg; __threadfence(); vf[ti] = 2; }}
    }} else {{
      if (lane == 0) {{ aggs[ti] = agg; __threadfence(); vf[ti] = 1; }}
      const i64 first = ti - part;
      for (i64 j = ti - 1 - lane;; j -= 32) {{
        int f = 2; {ct} v = {id};
        if (j >= first) {{
          while ((f = vf[j]) == 0) __nanosleep(32);
          __threadfence();
          v = f == 2 ? ld_volatile(&incls[j]) : ld_volatile(&aggs[j]);
        }}
        const unsigned m = __ballot_sync(0xffffffffu, f == 2);
        const int stop = m ? __ffs(m) - 1 : 32;
        {ct} y = lane <= stop ? v : {id};
        for (int of = 16; of > 0; of >>= 1) y = {op}(y, shfl_down(y, of));
        excl = {op}(y, excl);
        if (m) break;
      }}
      if (lane == 0) {{ incls[ti] = {op}(excl, agg); __threadfence(); vf[ti] = 2; }}
    }}
    if (lane == 0) tile_excl = excl;
  }}"
            ),
        )
    } else {
        (
            "if (t == 0) tile_id = blockIdx.x;",
            format!("if (t == 0) tile_excl = part == 0 ? {id} : ld(((const {st}*)incls)[ti - 1]);"),
        )
    };
    format!(
        "{PRELUDE}
template <class T> __device__ __forceinline__ T ld_volatile(const T* p) {{
  T r;
  if (sizeof(T) % 4 == 0) {{
    for (int i = 0; i < (int)sizeof(T) / 4; ++i) ((unsigned*)&r)[i] = ((const volatile unsigned*)p)[i];
  }} else {{
    for (int i = 0; i < (int)sizeof(T); ++i) ((unsigned char*)&r)[i] = ((const volatile unsigned char*)p)[i];
  }}
  return r;
}}
extern \"C\" __global__ void {name}({st}* __restrict__ o, const {st}* __restrict__ a, Idx k, i64 len, i64 sa, i64 so, i64 tpl, u64* counter, int* flags, {ct}* aggs, {ct}* incls) {{
  __shared__ {ct} sh[2048]; __shared__ {ct} wsum[8]; __shared__ {ct} tile_excl; __shared__ i64 tile_id;
  const int t = threadIdx.x, lane = t & 31, w = t >> 5;
  {tile}
  __syncthreads();
  const i64 ti = tile_id, line = ti / tpl, part = ti % tpl, lo = part * 2048;
  const i64 n = len - lo < 2048 ? len - lo : 2048;
  {pa}
  {po}
  for (int u = 0; u < 8; ++u) {{ const int e = u * 256 + t; sh[e] = e < n ? ({ct})ld(a[pa + (lo + e) * sa]) : {id}; }}
  __syncthreads();
  {ct} loc[8]; {ct} run = {id};
#pragma unroll
  for (int u = 0; u < 8; ++u) {{ run = {op}(run, sh[t * 8 + u]); loc[u] = run; }}
  {ct} x = run;
  for (int of = 1; of < 32; of <<= 1) {{ {ct} y = shfl_up(x, of); if (lane >= of) x = {op}(y, x); }}
  {ct} texcl = shfl_up(x, 1);
  if (lane == 0) texcl = {id};
  if (lane == 31) wsum[w] = x;
  __syncthreads();
  {ct} wpre = {id};
  for (int q = 0; q < w; ++q) wpre = {op}(wpre, wsum[q]);
  {prefix}
  __syncthreads();
  const {ct} pre = {op}(tile_excl, {op}(wpre, texcl));
#pragma unroll
  for (int u = 0; u < 8; ++u) sh[t * 8 + u] = {op}(pre, loc[u]);
  __syncthreads();
  for (int u = 0; u < 8; ++u) {{ const int e = u * 256 + t; if (e < n) o[po + (lo + e) * so] = {out}; }}
}}\n",
        pa = offset_of("k", "line", 1, "pa"),
        po = offset_of("k", "line", 0, "po"),
        out = store(d, "sh[e]"),
    )
}

/// The g++ syntax check of generated CUDA, shared by the kernel tests of every module.
#[cfg(test)]
pub(crate) mod tests_support {
    use std::path::{Path, PathBuf};
    use std::process::Command;
    use std::sync::OnceLock;

    const STUB: &str = concat!(include_str!("runtime/host_stub.h"), include_str!("runtime/special_stub.h"));
    const FLAGS: [&str; 3] = ["-std=c++17", "-fsyntax-only", "-w"];

    /// The stub and the prelude as g++'s precompiled header, made once per content (parsing them
    /// is most of a check's time: 0.24 s against 0.04 s from the header), shared by every test
    /// process through a path named by their hash; None where it cannot be made.
    fn precompiled() -> Option<&'static Path> {
        static HEADER: OnceLock<Option<PathBuf>> = OnceLock::new();
        HEADER
            .get_or_init(|| {
                let text = format!("{STUB}\n{}\n", super::PRELUDE);
                let hash =
                    text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3));
                let dir = std::env::temp_dir().join(format!("xp-codegen-pch-{hash:016x}"));
                let header = dir.join("pre.h");
                if dir.join("pre.h.gch").exists() {
                    return Some(header);
                }
                // Made beside the target under a private name, then renamed into place.
                let tmp = std::env::temp_dir().join(format!("xp-codegen-pch-{hash:016x}.{}", std::process::id()));
                std::fs::create_dir_all(&tmp).ok()?;
                std::fs::write(tmp.join("pre.h"), &text).ok()?;
                let made = Command::new("g++")
                    .args(["-std=c++17", "-w", "-x", "c++-header"])
                    .arg(tmp.join("pre.h"))
                    .arg("-o")
                    .arg(tmp.join("pre.h.gch"))
                    .status()
                    .is_ok_and(|s| s.success());
                if !made || std::fs::rename(&tmp, &dir).is_err() {
                    let _ = std::fs::remove_dir_all(&tmp);
                }
                dir.join("pre.h.gch").exists().then_some(header)
            })
            .as_deref()
    }

    /// Parse `src` (prelude included) with g++, CUDA keywords stubbed out; skipped without g++.
    pub(crate) fn syntax_check(name: &str, src: &str) {
        let dir = std::env::temp_dir().join(format!("xp-codegen-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("k.cpp");
        let mut cmd = Command::new("g++");
        cmd.args(FLAGS);
        match (src.strip_prefix(super::PRELUDE), precompiled()) {
            (Some(rest), Some(header)) => {
                std::fs::write(&file, rest).unwrap();
                cmd.arg("-include").arg(header);
            }
            _ => std::fs::write(&file, format!("{STUB}\n{src}")).unwrap(),
        }
        let out = cmd.arg(&file).output();
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
}

#[cfg(test)]
mod tests {
    //! Without a GPU: every device expression the front end can ask for, and every kernel
    //! template for every dtype, parsed by g++ with the CUDA keywords stubbed out. This catches
    //! missing overloads and template mistakes before any device time is spent.
    use super::tests_support::syntax_check;
    use super::*;
    use xp_core::{BinaryOp, UnaryOp};

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
            let op = if d == DType::Bool { "b_logical_or" } else { "b_maximum" };
            src += &scan("sc", d, op).replace(PRELUDE, "");
            src += &scan_blocks("sb", d, op).replace(PRELUDE, "");
            let add = if d == DType::Bool { "b_logical_or" } else { "b_add" };
            for (i, lb) in [(0, true), (1, false)] {
                let id = format!("cv<{}>((i64)0)", compute_ty(d));
                syntax_check(&format!("{}-scan{i}", d.name()), &scan_lookback("sl", d, add, &id, lb));
            }
            if d != DType::Bool {
                src += &arg_reduce("ar", d, "gt", 1).replace(PRELUDE, "");
                syntax_check(&format!("{}-argvec", d.name()), &arg_reduce("av", d, "lt", 2));
            }
            syntax_check(d.name(), &format!("{PRELUDE}\n{src}"));
        }
    }
}
