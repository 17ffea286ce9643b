//! The sort kernels run on the CPU, for tests without a GPU: `emu/emu.h` emulates the CUDA
//! features they use (a coroutine per CUDA thread, barriers for `__syncthreads`, warp votes and
//! shuffles, blocks interleaved so that decoupled look-back meets unfinished predecessors), and
//! `emu/driver.cpp` launches them as `radix.rs`, `segmented.rs`, `search.rs` and `merge.rs` do, checking the
//! results against `std::stable_sort` under the same order. This generates, per dtype, a
//! namespace with its kernels (the generated sources, each kernel a template over the block's
//! emulation slot) and a struct `K` of launchers, then builds and runs the program with g++.
//!
//! Slow (every warp vote is a round of coroutine switches): `cargo test -p xp-cuda --lib sort --
//! --ignored`.
use super::{keys, merge, radix, search, segmented};
use crate::codegen::PRELUDE;
use xp_core::DType;

const EMU: &str = concat!(include_str!("emu/emu.h"), include_str!("../runtime/special_stub.h"));
const DRIVER: &str = include_str!("emu/driver.cpp");

/// Block tiers the driver's segmented tests use (warps, items).
const TIERS: [(usize, usize); 4] = [(1, 2), (1, 4), (1, 8), (2, 8)];

/// Items per thread of the emulated passes (tiles of 1024: several tiles at test sizes).
const ITEMS: usize = 4;

const UNDEF: &str = "#undef XP_HIST\n#undef XP_PLAN\n#undef XP_PASS\n#undef ITEMS\n#undef VMODE\n#undef LINE_DIGIT\n\
#undef TILE\n#undef MERGE_THREADS\n#undef MERGE_ITEMS\n#undef MERGE_TILE\n#undef STAGE_BYTES\n#undef XP_SEG_BLOCK\n#undef XP_SEG_WARP\n#undef WARPS\n#undef OUTIDX\n#undef PK\n";

/// A generated kernel source as an emulator namespace: without the prelude, the kernel a template
/// over the emulation slot, dynamic shared memory a static array.
fn namespace(name: &str, src: &str, extra: &str) -> String {
    let body = src
        .replace(PRELUDE, "")
        .replace("extern \"C\" __global__ void", "template <int SLOT> void")
        .replace("extern __shared__ cd dyn_[];", "static cd dyn_[16384];");
    format!("namespace {name} {{\n{body}\n{extra}\n}}\n{UNDEF}")
}

/// Special values of `d` (bit patterns of the raw type; complex as parts), as C++ initialisers.
fn specials(d: DType) -> Vec<String> {
    let f32s: [u32; 11] = [
        0,
        0x8000_0000,
        0x3f80_0000,
        0xbf80_0000,
        1,
        0x8000_0001,
        0x7f80_0000,
        0xff80_0000,
        0x7fc0_0000,
        0xffc0_0001,
        0x7f80_0001,
    ];
    let f64s: [u64; 9] = [
        0,
        0x8000_0000_0000_0000,
        0x3ff0_0000_0000_0000,
        0xbff0_0000_0000_0000,
        1,
        0x7ff0_0000_0000_0000,
        0xfff0_0000_0000_0000,
        0x7ff8_0000_0000_0000,
        0xfff8_0000_0000_0001,
    ];
    match d {
        DType::Bool => vec!["0".into(), "1".into()],
        DType::F16 => {
            [0u16, 0x8000, 0x3c00, 0xbc00, 1, 0x7c00, 0xfc00, 0x7e00, 0xfe01].map(|b| format!("{b:#x}")).to_vec()
        }
        DType::BF16 => {
            [0u16, 0x8000, 0x3f80, 0xbf80, 1, 0x7f80, 0xff80, 0x7fc0, 0xffc1].map(|b| format!("{b:#x}")).to_vec()
        }
        DType::F32 => f32s.iter().map(|b| format!("{b:#x}u")).collect(),
        DType::F64 => f64s.iter().map(|b| format!("{b:#x}ull")).collect(),
        DType::C64 => {
            let p = [0usize, 1, 2, 3, 6, 7, 8, 9];
            p.iter()
                .flat_map(|&r| p.iter().map(move |&i| (f32s[r], f32s[i])))
                .map(|(r, i)| format!("RAW{{__uint_as_float({r:#x}u), __uint_as_float({i:#x}u)}}"))
                .collect()
        }
        DType::C128 => {
            let p = [0usize, 1, 2, 3, 5, 6, 7, 8];
            p.iter()
                .flat_map(|&r| p.iter().map(move |&i| (f64s[r], f64s[i])))
                .map(|(r, i)| format!("RAW{{__longlong_as_double({r:#x}ll), __longlong_as_double({i:#x}ll)}}"))
                .collect()
        }
        _ => {
            let w = 8 * d.size() as u32;
            let mask = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
            let sign = 1u64 << (w - 1);
            [0, 1, 2, mask, mask - 1, sign, sign - 1, sign + 1].map(|b| format!("{b:#x}ull")).to_vec()
        }
    }
}

/// The emulated kernels of `d` and its launcher struct `K`, in namespace `ns`.
fn dtype_block(d: DType, ns: &str) -> String {
    let mut s = String::new();
    s += &namespace("k_hist", &radix::hist_src(d), "");
    s += &namespace("k_plan", &radix::plan_src(), "");
    for (vm, line) in [(0, false), (1, false), (1, true), (2, false)] {
        s += &namespace(
            &format!("k_pass_{vm}_{}", line as u8),
            &radix::pass_src_items(d, vm, line, ITEMS),
            "static constexpr int tile_items = TILE;",
        );
    }
    for (t, &tier) in TIERS.iter().enumerate() {
        for idx in [false, true] {
            s += &namespace(&format!("k_segb_{t}_{}", idx as u8), &segmented::block_src(d, tier, idx), "");
        }
    }
    for idx in [false, true] {
        s += &namespace(&format!("k_segw_{}", idx as u8), &segmented::warp_src(d, idx), "");
    }
    s += &namespace("k_search", &search::search_src(d), "");
    s += &namespace("k_merge", &merge::merge_src(d), "static constexpr int tile = MERGE_TILE;");
    let random = match d {
        DType::Bool => "return (RAW)(r & 1u);".to_string(),
        DType::C64 => "RAW x; x.re = __uint_as_float((u32)r); x.im = __uint_as_float((u32)(r >> 32)); return x;".into(),
        DType::C128 => {
            "RAW x; x.re = __longlong_as_double((i64)r); x.im = __longlong_as_double((i64)(r * 0x9e3779b97f4a7c15ull)); return x;"
                .into()
        }
        _ => "return (RAW)r;".into(),
    };
    let sp = specials(d);
    let slots = |f: &str| {
        format!("switch (s) {{ case 0: {f}<0>(a...); break; case 1: {f}<1>(a...); break; default: {f}<2>(a...); }}")
    };
    let segb: String = (0..TIERS.len())
        .flat_map(|t| (0..2).map(move |i| (t, i)))
        .map(|(t, i)| {
            format!(
                "if (t == {t} && idx == {i}) {{ {} return; }}\n",
                slots(&format!("k_segb_{t}_{i}::xp_segsort_block"))
            )
        })
        .collect();
    let caps: Vec<String> = TIERS.iter().map(|(w, i)| (w * 32 * i).to_string()).collect();
    let warps: Vec<String> = TIERS.iter().map(|(w, _)| w.to_string()).collect();
    let pass = |n: &str| {
        format!(
            "{{ typedef {n}::VT VT; auto f = [&](auto... a) {{ {} }}; f(src0, sst, ka, kb, kout, (const VT*)v0, (VT*)va, (VT*)vb, vout, plan, p, st, ctr, bi, bo, n, t0, nt, ll); }}",
            slots(&format!("{n}::xp_radix_pass"))
        )
    };
    s += &format!(
        "struct K {{
  typedef k_hist::RAW RAW;
  static constexpr int PK = {pk};
  static constexpr size_t TILE = k_pass_0_0::tile_items;
  static constexpr int nspecials = {nsp};
  static const RAW specials[{nsp}];
  static bool lt(RAW a, RAW b) {{ return k_hist::key_lt(a, b); }}
  static RAW random(u64 r) {{ {random} }}
  template <class... A> static void hist(int s, A... a) {{ {hist} }}
  template <class... A> static void plan(int s, A... a) {{ {plan} }}
  static void pass(int vm, bool line, int s, const RAW* src0, i64 sst, RAW* ka, RAW* kb, RAW* kout, const void* v0,
                   void* va, void* vb, i64* vout, const int* plan, int p, u32* st, u32* ctr, const u64* bi, u64* bo,
                   u64 n, u64 t0, u32 nt, u32 ll) {{
    if (vm == 0) {p00} else if (vm == 2) {p20} else if (line) {p11} else {p10}
  }}
  static int tier_for(size_t len) {{ const size_t caps[] = {{{caps}}}; int t = 0; while (caps[t] < len) ++t; return t; }}
  static int tier_warps(int t) {{ const int w[] = {{{warps}}}; return w[t]; }}
  template <class... A> static void segb(int t, int idx, int s, A... a) {{ {segb} }}
  template <class... A> static void segw(int idx, int s, A... a) {{ if (idx) {{ {w1} }} else {{ {w0} }} }}
  template <class... A> static void search(int s, A... a) {{ {search} }}
  static constexpr int merge_tile = k_merge::tile;
  template <class... A> static void merge_cuts(int s, A... a) {{ {cuts} }}
  template <class... A> static void merge(int s, A... a) {{ {merge} }}
}};
const K::RAW K::specials[{nsp}] = {{{spl}}};
",
        pk = keys::key_passes(d),
        nsp = sp.len(),
        spl = sp.join(", "),
        hist = slots("k_hist::xp_radix_hist"),
        plan = slots("k_plan::xp_radix_plan"),
        p00 = pass("k_pass_0_0"),
        p10 = pass("k_pass_1_0"),
        p11 = pass("k_pass_1_1"),
        p20 = pass("k_pass_2_0"),
        caps = caps.join(", "),
        warps = warps.join(", "),
        w0 = slots("k_segw_0::xp_segsort_warp"),
        w1 = slots("k_segw_1::xp_segsort_warp"),
        search = slots("k_search::xp_searchsorted"),
        cuts = slots("k_merge::xp_merge_cuts"),
        merge = slots("k_merge::xp_merge"),
    );
    format!("namespace {ns} {{\n{s}}}\n")
}

/// The whole emulated program for `dtypes`.
pub(crate) fn program(dtypes: &[DType]) -> String {
    let mut s = format!("{EMU}\n{PRELUDE}\n");
    for &d in dtypes {
        s += &dtype_block(d, &format!("d_{}", d.name()));
    }
    s += DRIVER;
    s += "int main() {\n";
    for &d in dtypes {
        s += &format!("  Tests<d_{0}::K>{{\"{0}\"}}.all();\n", d.name());
    }
    s += "  printf(\"%d failures, %ld switches\\n\", failures, emu_switches);\n  return failures ? 1 : 0;\n}\n";
    s
}

/// Build and run the emulated program for `dtypes`; skipped without g++.
fn run(dtypes: &[DType]) {
    let dir = std::env::temp_dir().join(format!("xp-sort-emu-{}-{}", std::process::id(), dtypes[0].name()));
    std::fs::create_dir_all(&dir).unwrap();
    let (src, exe) = (dir.join("emu.cpp"), dir.join("emu"));
    std::fs::write(&src, program(dtypes)).unwrap();
    let built = std::process::Command::new("g++").args(["-std=c++17", "-O1", "-w", "-o"]).arg(&exe).arg(&src).output();
    let built = match built {
        Err(_) => {
            eprintln!("sort emulation: g++ not found, skipped");
            return;
        }
        Ok(o) => o,
    };
    assert!(built.status.success(), "the emulated program does not build:\n{}", String::from_utf8_lossy(&built.stderr));
    let out = std::process::Command::new(&exe).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    eprintln!("{text}");
    assert!(
        out.status.success(),
        "emulated sorts failed (program kept in {}):\n{text}{}",
        dir.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    if std::env::var_os("XP_EMU_KEEP").is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
#[ignore = "slow: the kernels on a CPU emulation of CUDA; run with --ignored"]
fn float_kernels_sort_as_the_reference_in_the_emulator() {
    run(&[DType::F32, DType::F64, DType::F16, DType::BF16]);
}

#[test]
#[ignore = "slow: the kernels on a CPU emulation of CUDA; run with --ignored"]
fn integer_kernels_sort_as_the_reference_in_the_emulator() {
    run(&[DType::I32, DType::U8, DType::Bool, DType::I64, DType::U64, DType::I16, DType::I8, DType::U16, DType::U32]);
}

#[test]
#[ignore = "slow: the kernels on a CPU emulation of CUDA; run with --ignored"]
fn complex_kernels_sort_as_the_reference_in_the_emulator() {
    run(&[DType::C64, DType::C128]);
}
