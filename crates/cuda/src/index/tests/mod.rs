//! Without a GPU: every kernel of the family parsed by g++ for every dtype, op, mode and variant,
//! and the kernels *run* on the CPU (`host_stub.h` makes them plain C++ with sequential atomics;
//! one block of one thread, so every grid-stride loop covers all positions and a compaction tile
//! is 16 positions) against reference loops written here from NumPy's rules. The host-side plans
//! (collapsing, vector words, index arrays) are the ones the launches use.
mod compact;
mod gather;
mod parse;
mod scatter;

use super::{Addr, Fix, Ks, COMMON};
use crate::codegen::PRELUDE;
use crate::space::Idx;
use xp_core::Layout;

const STUB: &str = concat!(include_str!("../../runtime/host_stub.h"), include_str!("../../runtime/special_stub.h"));

/// Kernel source `src` in namespace `n{i}` (helpers included), callable as `n{i}::xp_k`.
fn ns(i: usize, src: &str) -> String {
    let body = src.strip_prefix(PRELUDE).and_then(|s| s.strip_prefix(COMMON)).expect("a kernel of the family");
    format!("namespace n{i} {{\n{}\n}}\n", plain_name(&body.replace("extern \"C\" ", "")))
}

/// `src` with its entry point `XP_NAME(entry)` named `xp_k` (the tests call it so).
fn plain_name(src: &str) -> String {
    let mut out = String::new();
    let mut rest = src;
    while let Some(i) = rest.find("XP_NAME(") {
        out += &rest[..i];
        out += "xp_k";
        let r = &rest[i + "XP_NAME(".len()..];
        rest = &r[r.find(')').expect("a closed XP_NAME") + 1..];
    }
    out + rest
}

fn program(srcs: &[String]) -> String {
    let ks: String = srcs.iter().enumerate().map(|(i, s)| ns(i, s)).collect();
    format!("{PRELUDE}{COMMON}{ks}")
}

/// Compile kernels `srcs` (as `n0`, `n1`, …) with `main` and run them on one CPU thread (one
/// block of one thread); the printed tokens, or None without g++.
fn run(name: &str, srcs: &[String], main: &str) -> Option<Vec<String>> {
    let src = format!(
        "{STUB}\n#include <algorithm>\n#include <cstdio>\n#include <utility>\n#include <vector>\n{}\nint main() {{\n  blockDim.x = 1; gridDim.x = 1;\n{main}\n  return 0;\n}}\n",
        program(srcs)
    );
    compile_and_run(name, &src, "-std=c++17")
}

fn compile_and_run(name: &str, src: &str, std: &str) -> Option<Vec<String>> {
    let dir = std::env::temp_dir().join(format!("xp-index-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (file, exe) = (dir.join("k.cpp"), dir.join("k"));
    std::fs::write(&file, src).unwrap();
    let out =
        std::process::Command::new("g++").args([std, "-O1", "-w", "-pthread", "-o"]).arg(&exe).arg(&file).output();
    let Ok(out) = out else {
        eprintln!("{name}: g++ not found, skipped");
        return None;
    };
    assert!(out.status.success(), "{name}: does not compile:\n{}", String::from_utf8_lossy(&out.stderr));
    let res = std::process::Command::new(&exe).output().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(res.status.success(), "{name}: crashed");
    Some(String::from_utf8(res.stdout).unwrap().split_whitespace().map(String::from).collect())
}

/// What lets kernels run with real threads: a block of `blockDim.x` threads (one `std::thread`
/// each, `__syncthreads` a barrier, `__shared__` arrays shared), warp ballots and shuffles through
/// a per-warp exchange, blocks one after the other. Launch with `xp_launch(grid, block, f)`.
const THREADED: &str = r#"
#include <barrier>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>
#undef threadIdx
#undef __ballot_sync
#undef __shfl_up_sync
#undef __shfl_down_sync
#undef __shared__
#undef __syncthreads
thread_local XpDim threadIdx;
#define __shared__ static
static std::barrier<>* xp_block;
#define __syncthreads() xp_block->arrive_and_wait()
struct XpWarp { std::unique_ptr<std::barrier<>> bar; unsigned long long slot[32]; };
static XpWarp xp_warps[32];
static void xp_warp_sync() { xp_warps[threadIdx.x >> 5].bar->arrive_and_wait(); }
inline unsigned __ballot_sync(unsigned, bool b) {
  XpWarp& w = xp_warps[threadIdx.x >> 5];
  w.slot[threadIdx.x & 31] = b;
  xp_warp_sync();
  unsigned r = 0;
  for (int i = 0; i < 32; ++i) r |= (unsigned)(w.slot[i] != 0) << i;
  xp_warp_sync();
  return r;
}
template <class T> T xp_shfl(T v, int from) {
  XpWarp& w = xp_warps[threadIdx.x >> 5];
  unsigned long long bits = 0;
  memcpy(&bits, &v, sizeof(T));
  w.slot[threadIdx.x & 31] = bits;
  xp_warp_sync();
  T r = v;
  if (from >= 0 && from < 32) memcpy(&r, &w.slot[from], sizeof(T));
  xp_warp_sync();
  return r;
}
template <class T> T __shfl_up_sync(unsigned, T v, int o) { return xp_shfl(v, (int)(threadIdx.x & 31) - o); }
template <class T> T __shfl_down_sync(unsigned, T v, int o) { return xp_shfl(v, (int)(threadIdx.x & 31) + o); }
template <class F> void xp_launch(unsigned g, unsigned b, F f) {
  gridDim.x = g; blockDim.x = b;
  for (unsigned bi = 0; bi < g; ++bi) {
    blockIdx.x = bi;
    std::barrier<> blk(b);
    xp_block = &blk;
    for (unsigned w = 0; w < (b + 31) / 32; ++w) xp_warps[w].bar = std::make_unique<std::barrier<>>(32);
    std::vector<std::thread> ts;
    for (unsigned t = 0; t < b; ++t) ts.emplace_back([&f, t] { threadIdx.x = t; f(); });
    for (auto& t : ts) t.join();
  }
}
"#;

/// As [`run`], with kernels run by real threads (blocks a multiple of 32 threads; see
/// [`THREADED`]).
fn run_threaded(name: &str, srcs: &[String], main: &str) -> Option<Vec<String>> {
    let renamed = "#define threadIdx xp_seq_threadIdx\n#define __ballot_sync xp_seq_ballot\n#define __shfl_up_sync xp_seq_shfl_up\n#define __shfl_down_sync xp_seq_shfl_down\n";
    let src = format!(
        "{renamed}{STUB}{THREADED}\n#include <cstdio>\n{}\nint main() {{\n{main}\n  return 0;\n}}\n",
        program(srcs)
    );
    compile_and_run(name, &src, "-std=c++20")
}

fn arr<T: std::fmt::Display>(ty: &str, name: &str, v: &[T]) -> String {
    let body: Vec<String> = v.iter().map(|x| x.to_string()).collect();
    let body = if body.is_empty() { "0".to_string() } else { body.join(", ") };
    format!("  alignas(16) static {ty} {name}[{}] = {{{body}}};\n", v.len().max(1))
}

fn print_ints(name: &str, n: usize) -> String {
    format!("  for (long long i = 0; i < {n}; ++i) printf(\"%lld \", (long long){name}[i]);\n")
}

fn print_floats(name: &str, n: usize) -> String {
    format!("  for (long long i = 0; i < {n}; ++i) printf(\"%.17g \", (double){name}[i]);\n")
}

fn idx_cpp(name: &str, ix: &Idx) -> String {
    let mut s = format!("  Idx {name} = {{}}; {name}.n = {}; {name}.nd = {};", ix.n, ix.nd);
    for d in 0..12 {
        s += &format!(" {name}.shape[{d}] = {};", ix.shape[d]);
        for k in 0..4 {
            s += &format!(" {name}.st[{k}][{d}] = {};", ix.st[k][d]);
        }
    }
    for k in 0..4 {
        s += &format!(" {name}.off[{k}] = {};", ix.off[k]);
    }
    s + "\n"
}

fn ks_cpp(ks: &Ks, k: usize) -> String {
    let mut s = "  Ks ks = {};".to_string();
    for j in 0..k {
        s += &format!(
            " ks.p[{j}] = i{j}; ks.len[{j}] = {}; ks.st[{j}] = {}; ks.ts[{j}] = {};",
            ks.len[j], ks.st[j], ks.ts[j]
        );
    }
    s + "\n"
}

fn unravel(mut i: usize, shape: &[usize]) -> Vec<usize> {
    let mut c = vec![0; shape.len()];
    for d in (0..shape.len()).rev() {
        c[d] = i % shape[d];
        i /= shape[d];
    }
    c
}

/// NumPy's reading of index `i` on an axis of `n` (None: out of bounds).
fn fixr(i: i64, n: usize, fix: Fix) -> Option<i64> {
    let n = n as i64;
    match fix {
        _ if n == 0 => None,
        Fix::Raise | Fix::Unchecked => (-n..n).contains(&i).then_some(if i < 0 { i + n } else { i }),
        Fix::Wrap => Some(i.rem_euclid(n)),
        Fix::Clip => Some(i.clamp(0, n - 1)),
    }
}

/// One gather/scatter case: a buffer layout `l`, index arrays over `bshape` addressing axes
/// `axis ..`.
struct Case {
    l: Layout,
    axis: usize,
    idx: Vec<Vec<i64>>,
    bshape: Vec<usize>,
    fix: Fix,
}

impl Case {
    fn addr(&self) -> Addr<'_> {
        let k = self.idx.len();
        Addr {
            axis: self.axis,
            k,
            lens: self.l.shape()[self.axis..self.axis + k].to_vec(),
            bshape: &self.bshape,
            nb: self.bshape.iter().product(),
            fix: self.fix,
            ks: Ks::for_layout(&self.l, self.axis, k),
            arrays: vec![],
        }
    }
    /// The scatter's index space (destination, contiguous values, position) and its size.
    fn scatter_space(&self) -> (Idx, usize) {
        let (_, base, bpos) = self.addr().pbq(&self.l);
        let vl = Layout::contiguous(&self.out_shape());
        (crate::space::idx(&[&base, &vl, &bpos]).unwrap(), vl.numel())
    }
    fn out_shape(&self) -> Vec<usize> {
        let k = self.idx.len();
        let mut s = self.l.shape()[..self.axis].to_vec();
        s.extend_from_slice(&self.bshape);
        s.extend_from_slice(&self.l.shape()[self.axis + k..]);
        s
    }
    /// The first violation in NumPy's order (array by array), as the flag encodes it.
    fn violation(&self) -> Option<u64> {
        let nb = self.bshape.iter().product::<usize>();
        for (j, ix) in self.idx.iter().enumerate() {
            let n = self.l.shape()[self.axis + j];
            if let Some(b) = ix.iter().position(|&i| fixr(i, n, self.fix).is_none()) {
                return Some((j * nb + b) as u64);
            }
        }
        None
    }
    /// The buffer offset of every output position (C order), and its index position `b`.
    fn offsets(&self) -> Vec<(usize, usize)> {
        let (k, nbd) = (self.idx.len(), self.bshape.len());
        let os = self.out_shape();
        let nb: usize = self.bshape.iter().product();
        (0..os.iter().product())
            .map(|i| {
                let c = unravel(i, &os);
                let b = (0..nbd).fold(0, |acc, d| acc * self.bshape[d] + c[self.axis + d]);
                let st = self.l.strides();
                let mut off = self.l.offset() as isize;
                off += (0..self.axis).map(|d| c[d] as isize * st[d]).sum::<isize>();
                for (j, ix) in self.idx.iter().enumerate() {
                    let n = self.l.shape()[self.axis + j];
                    off += fixr(ix[b], n, self.fix).unwrap() as isize * st[self.axis + j];
                }
                off += (self.axis + k..self.l.ndim()).map(|d| c[d - k + nbd] as isize * st[d]).sum::<isize>();
                assert!(b < nb.max(1));
                (off as usize, b)
            })
            .collect()
    }
    fn index_arrays(&self) -> String {
        self.idx.iter().enumerate().map(|(j, v)| arr("i64", &format!("i{j}"), v)).collect()
    }
}
