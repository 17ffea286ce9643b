//! `Method::Auto`'s choice between the direct sum and the FFT (SciPy's `choose_conv_method`,
//! with a cost model whose constants were measured for xp's own kernels: see
//! `benches/RESULTS.md`, "convolution method").
use xp_core::Device;

/// How many multiply-adds of the direct method cost as much as one `n log2 n` unit of an FFT of
/// `n` points, on the CPU and on a GPU, measured with the `convmethod` rows of xp-bench (2-D
/// float32 `same`/fill convolutions, square kernels of 3 to 31): on the 2-core CPU, 1024² (the
/// FFT wins from 15×15; its unit is worth 4.0 multiply-adds of the row passes); on an H100,
/// 4096² (direct 0.81 ms against 1.06 at 21×21, 1.50 against 1.31 at 31×31: the unit lies
/// between 6.1 and 12.6 multiply-adds of the tiled kernel; 9 is their geometric middle).
const FFT_UNIT_CPU: f64 = 4.0;
const FFT_UNIT_GPU: f64 = 9.0;

/// Whether the FFT is expected to be faster than the direct sum for a convolution with
/// `outputs` results of `taps` weights each, whose transforms have `fft` points: the FFT
/// method makes three transforms (two forward, one back).
pub(crate) fn prefer_fft(dev: Device, outputs: usize, taps: usize, fft: usize) -> bool {
    if dev == Device::Cpu && !cfg!(feature = "fft") {
        return false; // a build without CPU FFTs: the direct method is the one there is
    }
    let direct = outputs as f64 * taps as f64;
    let n = fft as f64;
    let unit = match dev {
        Device::Cpu => FFT_UNIT_CPU,
        Device::Cuda(_) => FFT_UNIT_GPU,
    };
    3.0 * n * n.log2().max(1.0) * unit < direct
}
