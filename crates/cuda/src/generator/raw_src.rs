//! `#[xp::raw_kernel]` functions on the GPU: the lowered program printed as the body of an
//! `extern "C" __global__` function whose parameters are the function's own (scalars by value,
//! `Raw<T>` as a read-only view, `RawMut<T>` as a writable one with atomics), launched on the
//! caller's grid and block. CuPy's `RawKernel`, with rustc checking the body.
use super::params::Params;
use super::{generated, spec_hash};
use crate::codegen::{compute_ty, storage_ty};
use crate::runtime::buffer::CudaStorage;
use crate::runtime::device::CudaDevice;
use crate::runtime::launch::Source;
use cudarc::driver::LaunchConfig;
use xp_core::kernel::rust::ast::ParamKind;
use xp_core::kernel::ElementwiseDef;
use xp_core::{Error, KernelArg, KernelTypes, Result};

/// The writable view, its stores and atomics (what the printed program calls).
const RAW_MUT: &str = r#"
template <class S> struct XpSt { template <class V> __device__ static S f(V v) { return (S)v; } };
template <> struct XpSt<xp_h> { __device__ static xp_h f(float v) { return st_h(v); } };
template <> struct XpSt<xp_bh> { __device__ static xp_bh f(float v) { return st_bh(v); } };
template <class S> struct XpRawMut { S* p; i64 n;
  __device__ auto operator[](i64 j) const { return ld(p[j]); }
  __device__ i64 size() const { return n; }
  template <class V> __device__ void set(i64 j, V v) const { p[j] = XpSt<S>::f(v); } };
typedef unsigned long long xp_ull;
__device__ __forceinline__ u32 xp_lane_id() { u32 r; asm volatile("mov.u32 %0, %%laneid;" : "=r"(r)); return r; }
__device__ __forceinline__ i32 xp_atomic_add(i32* p, i32 v) { return atomicAdd(p, v); }
__device__ __forceinline__ u32 xp_atomic_add(u32* p, u32 v) { return atomicAdd(p, v); }
__device__ __forceinline__ u64 xp_atomic_add(u64* p, u64 v) { return (u64)atomicAdd((xp_ull*)p, (xp_ull)v); }
__device__ __forceinline__ i64 xp_atomic_add(i64* p, i64 v) { return (i64)atomicAdd((xp_ull*)p, (xp_ull)v); }
__device__ __forceinline__ float xp_atomic_add(float* p, float v) { return atomicAdd(p, v); }
__device__ __forceinline__ double xp_atomic_add(double* p, double v) { return atomicAdd(p, v); }
template <class T> __device__ __forceinline__ T xp_atomic_sub(T* p, T v) { return xp_atomic_add(p, (T)((T)0 - v)); }
__device__ __forceinline__ i32 xp_atomic_max(i32* p, i32 v) { return atomicMax(p, v); }
__device__ __forceinline__ u32 xp_atomic_max(u32* p, u32 v) { return atomicMax(p, v); }
__device__ __forceinline__ i64 xp_atomic_max(i64* p, i64 v) { return (i64)atomicMax((long long*)p, (long long)v); }
__device__ __forceinline__ u64 xp_atomic_max(u64* p, u64 v) { return (u64)atomicMax((xp_ull*)p, (xp_ull)v); }
__device__ __forceinline__ i32 xp_atomic_min(i32* p, i32 v) { return atomicMin(p, v); }
__device__ __forceinline__ u32 xp_atomic_min(u32* p, u32 v) { return atomicMin(p, v); }
__device__ __forceinline__ i64 xp_atomic_min(i64* p, i64 v) { return (i64)atomicMin((long long*)p, (long long)v); }
__device__ __forceinline__ u64 xp_atomic_min(u64* p, u64 v) { return (u64)atomicMin((xp_ull*)p, (xp_ull)v); }
__device__ __forceinline__ i32 xp_atomic_exch(i32* p, i32 v) { return atomicExch(p, v); }
__device__ __forceinline__ u32 xp_atomic_exch(u32* p, u32 v) { return atomicExch(p, v); }
__device__ __forceinline__ u64 xp_atomic_exch(u64* p, u64 v) { return (u64)atomicExch((xp_ull*)p, (xp_ull)v); }
__device__ __forceinline__ i64 xp_atomic_exch(i64* p, i64 v) { return (i64)atomicExch((xp_ull*)p, (xp_ull)v); }
__device__ __forceinline__ float xp_atomic_exch(float* p, float v) { return atomicExch(p, v); }
__device__ __forceinline__ double xp_atomic_exch(double* p, double v) {
  return __longlong_as_double((long long)atomicExch((xp_ull*)p, (xp_ull)__double_as_longlong(v))); }
__device__ __forceinline__ i32 xp_atomic_cas(i32* p, i32 c, i32 v) { return atomicCAS(p, c, v); }
__device__ __forceinline__ u32 xp_atomic_cas(u32* p, u32 c, u32 v) { return atomicCAS(p, c, v); }
__device__ __forceinline__ u64 xp_atomic_cas(u64* p, u64 c, u64 v) { return (u64)atomicCAS((xp_ull*)p, (xp_ull)c, (xp_ull)v); }
__device__ __forceinline__ i64 xp_atomic_cas(i64* p, i64 c, i64 v) { return (i64)atomicCAS((xp_ull*)p, (xp_ull)c, (xp_ull)v); }
"#;

/// The source of raw kernel `def` for these bindings.
fn source(def: &ElementwiseDef, types: &KernelTypes, body: &str) -> String {
    let func = def.rust.as_ref().expect("a Rust function").func;
    let mut s = super::gen::header(&types.typedefs, "");
    s += RAW_MUT;
    let mut params = Vec::new();
    let mut views = String::new();
    for (k, p) in func.params.iter().enumerate() {
        let (d, n) = (types.ins[k], def.c_name(k));
        match p.kind {
            ParamKind::Raw => {
                params.push(format!("const {st}* __restrict__ _p{k}, const i64 _n{k}", st = storage_ty(d)));
                views += &format!("  const XpRaw<{st}> {n}{{_p{k}, _n{k}}};\n", st = storage_ty(d));
            }
            ParamKind::RawMut => {
                params.push(format!("{st}* _p{k}, const i64 _n{k}", st = storage_ty(d)));
                views += &format!("  const XpRawMut<{st}> {n}{{_p{k}, _n{k}}};\n", st = storage_ty(d));
            }
            _ => params.push(format!("const {} {n}", compute_ty(d))),
        }
    }
    s + &format!("extern \"C\" __global__ void {}({}) {{\n{views}{body}}}\n", def.entry(), params.join(", "))
}

/// Launch raw kernel `def` on `grid` × `block` threads.
pub(crate) fn launch(
    dev: &CudaDevice,
    def: &ElementwiseDef,
    types: &KernelTypes,
    args: &[KernelArg<'_, CudaStorage>],
    grid: [u32; 3],
    block: [u32; 3],
) -> Result<()> {
    let d = dev.dev();
    let mut p = Params::default();
    let mut keep = Vec::new();
    let mut used: Vec<&CudaStorage> = Vec::new();
    let mut gargs = Vec::new();
    for (k, a) in args.iter().enumerate() {
        let dtype = types.ins[k];
        match a {
            KernelArg::Raw(s, l) => {
                let mutable = def.rust.as_ref().is_some_and(|r| r.func.params[k].kind == ParamKind::RawMut);
                if mutable && !l.is_contiguous() {
                    let msg = format!("`{}` is written: it must be a contiguous array", def.ins[k].name);
                    return Err(Error::KernelArgs { kernel: def.name.clone(), msg });
                }
                used.push(*s);
                p.ptr(super::raw_ptr(s, l, &mut keep)?);
                p.i64(l.numel() as i64);
                gargs.push(super::gen::Arg { name: def.c_name(k), role: super::gen::Role::Raw, dtype });
            }
            KernelArg::Scalar(v, dt) => {
                p.scalar(*v, *dt);
                gargs.push(super::gen::Arg { name: def.c_name(k), role: super::gen::Role::Scalar, dtype });
            }
            _ => {
                let msg = format!("`{}`: a raw kernel takes scalars and whole arrays", def.ins[k].name);
                return Err(Error::KernelArgs { kernel: def.name.clone(), msg });
            }
        }
    }
    let key = spec_hash(def.id, types, &gargs, "raw");
    let failed = std::cell::Cell::new(None);
    let r = generated(d, key, true, [def.entry()], || {
        let body = def.gpu_body(&types.typedefs, &types.scalar).unwrap_or_else(|e| {
            failed.set(Some(e));
            "#error lowering failed".into()
        });
        Source::new("", source(def, types, &body))
    });
    let [f] = r.map_err(|e| failed.take().unwrap_or(e))?;
    used.extend(keep.iter());
    let c = LaunchConfig {
        grid_dim: (grid[0], grid[1], grid[2]),
        block_dim: (block[0], block[1], block[2]),
        shared_mem_bytes: 0,
    };
    p.launch(d, &f, c, &used)
}
