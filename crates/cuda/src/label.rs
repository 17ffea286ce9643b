//! Connected-component labelling on the GPU (SciPy's `ndimage.label`) by a parallel union–find:
//! every element starts as its own root; a thread per element unites it with each foreground
//! neighbour of the structure's backward half, linking the larger root under the smaller with a
//! compare-and-swap (retrying when another thread linked first), so that a component's root ends
//! as its first element in C order; a second pass points every element at its root and flags
//! the roots; an inclusive scan of the flags numbers the roots in C order, which are SciPy's
//! labels. The structure's offsets are compiled into the kernel (inputs of up to 4 axes).
use crate::codegen::PRELUDE;
use crate::runtime::buffer::CudaStorage;
use crate::runtime::launch::{Family, Key, Param, Source};
use cudarc::driver::{DeviceRepr, LaunchConfig};
use xp_core::{BackendStorage, BinaryOp, DType, Error, Layout, Result};

/// The most axes the kernels take.
const MAX_AXES: usize = 4;
const THREADS: u32 = 256;

/// The input's shape, passed by value.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
struct Dims {
    n: [i64; MAX_AXES],
    total: i64,
}

// SAFETY: plain #[repr(C)] integers, laid out as the kernels' `Dims`.
unsafe impl DeviceRepr for Dims {}

/// The offsets as a bit set over the C-order positions of the 3 × … × 3 neighbourhood.
fn offset_bits(offsets: &[Vec<i8>]) -> u64 {
    offsets.iter().fold(0u64, |m, o| m | 1 << o.iter().fold(0usize, |k, &s| k * 3 + (s + 1) as usize))
}

fn source(nd: usize, offsets: &[Vec<i8>], wide: bool) -> String {
    let (ix, ux) = if wide { ("long long", "unsigned long long") } else { ("int", "unsigned int") };
    // The left neighbour first; a neighbour adjacent to an earlier foreground one is skipped: the
    // two were united when the later of them was visited (as on the CPU). Fewer links, fewer
    // compare-and-swap retries on the large components of a dense mask.
    let nd_ = nd;
    let mut offsets = offsets.to_vec();
    if let Some(k) = offsets.iter().position(|o| o[nd_ - 1] == -1 && o[..nd_ - 1].iter().all(|&s| s == 0)) {
        let left = offsets.remove(k);
        offsets.insert(0, left);
    }
    let adjacent = |a: &[i8], b: &[i8]| -> bool {
        let d: Vec<i8> = a.iter().zip(b).map(|(x, y)| x - y).collect();
        offsets.iter().any(|o| *o == d || o.iter().zip(&d).all(|(x, y)| *x == -y))
    };
    let mut neighbours = String::new();
    for (k, o) in offsets.iter().enumerate() {
        let mut conds: Vec<String> = o
            .iter()
            .enumerate()
            .filter(|(_, &s)| s != 0)
            .map(|(a, &s)| if s < 0 { format!("c[{a}] >= 1") } else { format!("c[{a}] + 1 < d.n[{a}]") })
            .collect();
        conds.extend((0..k).filter(|&e| adjacent(&offsets[e], o)).map(|e| format!("!s{e}")));
        let delta: Vec<String> =
            o.iter().enumerate().filter(|(_, &s)| s != 0).map(|(a, &s)| format!("({s}) * st[{a}]")).collect();
        neighbours += &format!(
            "    bool s{k} = false;\n    if ({}) {{ const i64 j = i + {}; if (fg[j]) {{ s{k} = true; xp_unite(p, (I)i, (I)j); }} }}\n",
            if conds.is_empty() { "true".to_string() } else { conds.join(" && ") },
            delta.join(" + ")
        );
    }
    format!(
        "{PRELUDE}
typedef {ix} I;
typedef {ux} U;
struct Dims {{ i64 n[{MAX_AXES}]; i64 total; }};
__device__ __forceinline__ I xp_find(const volatile I* p, I x) {{
  I y = p[x];
  while (y != x) {{ x = y; y = p[x]; }}
  return x;
}}
__device__ __forceinline__ void xp_unite(I* p, I a, I b) {{
  for (;;) {{
    a = xp_find(p, a); b = xp_find(p, b);
    if (a == b) return;
    if (a < b) {{ const I t = a; a = b; b = t; }}
    if ((I)atomicCAS((U*)&p[a], (U)a, (U)b) == a) return;
  }}
}}
extern \"C\" __global__ void XP_NAME(label_init)(const bool* __restrict__ fg, I* __restrict__ p, const Dims d) {{
  for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < d.total; i += (i64)gridDim.x * blockDim.x)
    p[i] = fg[i] ? (I)i : (I)-1;
}}
extern \"C\" __global__ void XP_NAME(label_union)(const bool* __restrict__ fg, I* p, const Dims d) {{
  i64 st[{nd}];
  st[{last}] = 1;
  for (int a = {last} - 1; a >= 0; --a) st[a] = st[a + 1] * d.n[a + 1];
  for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < d.total; i += (i64)gridDim.x * blockDim.x) {{
    if (!fg[i]) continue;
    i64 c[{nd}], r = i;
    for (int a = {last}; a >= 0; --a) {{ c[a] = r % d.n[a]; r /= d.n[a]; }}
{neighbours}  }}
}}
extern \"C\" __global__ void XP_NAME(label_roots)(I* p, I* __restrict__ flag, const Dims d) {{
  for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < d.total; i += (i64)gridDim.x * blockDim.x) {{
    const I v = p[i];
    if (v < 0) {{ flag[i] = 0; continue; }}
    const I r = xp_find(p, (I)i);
    p[i] = r;
    flag[i] = r == (I)i;
  }}
}}
extern \"C\" __global__ void XP_NAME(label_number)(I* __restrict__ p, const I* __restrict__ cs, const Dims d) {{
  for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < d.total; i += (i64)gridDim.x * blockDim.x) {{
    const I r = p[i];
    p[i] = r < 0 ? (I)0 : cs[r];
  }}
}}
",
        last = nd - 1,
    )
}

/// Labels and their count for the contiguous bool input at `l` (see `FilterStorage::label`).
pub(crate) fn label(x: &CudaStorage, l: &Layout, offsets: &[Vec<i8>]) -> Result<(CudaStorage, usize)> {
    let nd = l.ndim();
    if nd == 0 || nd > MAX_AXES || x.dtype != DType::Bool || !l.is_contiguous() {
        return Err(Error::Unsupported { op: "label of more than 4 axes", backend: "cuda" });
    }
    let total = l.numel();
    let wide = total >= 1 << 31;
    let it = if wide { DType::I64 } else { DType::I32 };
    let p = CudaStorage::alloc(&x.dev, it, total)?;
    if total == 0 {
        return Ok((p, 0));
    }
    let flag = CudaStorage::alloc(&x.dev, it, total)?;
    let mut n = [1i64; MAX_AXES];
    for (a, &s) in l.shape().iter().enumerate() {
        n[a] = s as i64;
    }
    let dims = Dims { n, total: total as i64 };
    let structure = offset_bits(offsets);
    let key = Key::new(Family::Label).bits(3, nd as u64).flag(wide).bits(40, structure);
    let [init, unite, roots, number] =
        x.dev.kernels(key, ["label_init", "label_union", "label_roots", "label_number"], || {
            let spec = format!("{nd}d_s{structure:x}{}", if wide { "_i64" } else { "" });
            Source::new(spec, source(nd, offsets, wide))
        })?;
    let blocks = total.div_ceil(THREADS as usize).min(1 << 30) as u32;
    let cfg = LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (THREADS, 1, 1), shared_mem_bytes: 0 };
    let (px, pp, pf) = (x.ptr(l.offset()), p.ptr(0), flag.ptr(0));
    let wk = x.dev.work(&[x, &p, &flag])?;
    // SAFETY (all four launches): the parameters match the kernels; `fg` holds `total` bools
    // (a contiguous layout), `p` and `flag` `total` indices of the kernels' index type; every
    // index a kernel forms lies in [0, total): neighbours are taken only inside the shape, and
    // `p` holds -1 or an index of the same array.
    for f in [&init, &unite] {
        let args: [&dyn Param; 3] = [&px, &pp, &dims];
        unsafe { wk.launch(f, cfg, &args) }?;
    }
    let args: [&dyn Param; 3] = [&pp, &pf, &dims];
    unsafe { wk.launch(&roots, cfg, &args) }?;
    wk.done()?;
    let flat = Layout::contiguous(&[total]);
    let cs = flag.scan(&flat, BinaryOp::Add, 0)?;
    let wk = x.dev.work(&[&p, &cs])?;
    let pc = cs.ptr(0);
    let args: [&dyn Param; 3] = [&pp, &pc, &dims];
    unsafe { wk.launch(&number, cfg, &args) }?;
    wk.done()?;
    let last = cs.to_host(&Layout::contiguous(&[1]).with_offset(total - 1))?;
    let count = last.get(0).map_or(0, |v| v.to_i64() as usize);
    Ok((p, count))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::tests_support::syntax_check;

    #[test]
    fn label_kernels_parse_for_every_rank() {
        for nd in 1..=MAX_AXES {
            // the full structure's backward half
            let offsets: Vec<Vec<i8>> = (0..3usize.pow(nd as u32) / 2)
                .map(|k| (0..nd).rev().map(|a| ((k / 3usize.pow(a as u32)) % 3) as i8 - 1).collect())
                .collect();
            for wide in [false, true] {
                syntax_check(&format!("label{nd}{wide}"), &source(nd, &offsets, wide));
            }
        }
    }
}
