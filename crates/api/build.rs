//! `cfg(xp_cuda)`: the CUDA backend is compiled in (feature `cuda`/`cuda-13` or `cuda-12`).
fn main() {
    println!("cargo:rustc-check-cfg=cfg(xp_cuda)");
    if std::env::var_os("CARGO_FEATURE_CUDA_13").is_some() || std::env::var_os("CARGO_FEATURE_CUDA_12").is_some() {
        println!("cargo:rustc-cfg=xp_cuda");
    }
}
