# Usage (on the GPU machine, after `XP_SWEEP_CHECK_DIR=/tmp/ck_<row> .gpu/run --bin xp-bench --sweep --device cuda:0 --check --filter <row>` for each row):
#   python3 benches/experiments/check_vs_scipy.py /tmp/ck_ndimage.map_coordinates /tmp/ck_signal.detrend /tmp/ck_fft.irfftn
# xp's kept GPU outputs and CuPy's, each against NumPy/SciPy on the host (issue 26, third session).
# xp's GPU outputs (kept by --check) against NumPy/SciPy on the host, and CuPy against them too
import sys, numpy as np, scipy.ndimage, scipy.signal
src = open("benches/src/sweep.py").read()
ns = {"np": np, "xp": np}
exec(src[src.index("_M1, _M2, _M3"):src.index("def _stack")], ns)
u, cu = ns["uniform"], ns["cuniform"]
import cupy, cupyx.scipy.ndimage, cupyx.scipy.signal
def rel(a, b):
    a, b = np.asarray(a, np.float64) if not np.iscomplexobj(a) else a, np.asarray(b)
    return float(np.max(np.abs(a - b)) / max(np.max(np.abs(b)), 1e-300))
for name, d, ref, cp in [
    ("map_coordinates", sys.argv[1], lambda: scipy.ndimage.map_coordinates(u((2048, 2048)), u((2, 2048, 2048), 1).astype(np.float64) * 2047),
     lambda: cupyx.scipy.ndimage.map_coordinates(cupy.asarray(u((2048, 2048))), cupy.asarray(u((2, 2048, 2048), 1).astype(np.float64) * 2047)).get()),
    ("detrend", sys.argv[2], lambda: scipy.signal.detrend(u(1 << 22)), lambda: cupyx.scipy.signal.detrend(cupy.asarray(u(1 << 22))).get()),
    ("irfftn", sys.argv[3], lambda: np.fft.irfftn(cu((256, 128, 65)), (256, 128, 128)), lambda: cupy.fft.irfftn(cupy.asarray(cu((256, 128, 65))), (256, 128, 128)).get()),
]:
    try:
        x = np.load(d + "/0_0.npy")
        r, c = ref(), cp()
        print(f"{name}: xp-gpu vs host reference {rel(x, r):.2e}; cupy vs host reference {rel(c, r):.2e}; xp dtype {x.dtype} ref {r.dtype}")
    except Exception as e:
        print(name, "diag error", e)
