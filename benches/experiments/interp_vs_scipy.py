# Usage: as check_vs_scipy.py, for ndimage.map_coordinates, rotate, zoom and shift kept in /tmp/ck_<row>.
# xp's GPU interpolation outputs (kept by --check) against SciPy on the host
import numpy as np, scipy.ndimage as nd
src = open("benches/src/sweep.py").read()
ns = {"np": np, "xp": np}
exec(src[src.index("_M1, _M2, _M3"):src.index("def _stack")], ns)
u = ns["uniform"]
def rel(a, b):
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    return float(np.max(np.abs(a - b)) / max(np.max(np.abs(b)), 1e-300))
img = u((2048, 2048))
refs = {
    "ndimage.map_coordinates": lambda: nd.map_coordinates(img, u((2, 2048, 2048), 1).astype(np.float64) * 2047),
    "ndimage.rotate": lambda: nd.rotate(img, 30, reshape=False),
    "ndimage.zoom": lambda: nd.zoom(u((1024, 1024)), 2),
    "ndimage.shift": lambda: nd.shift(img, (10.5, -3.25)),
}
for name, f in refs.items():
    try:
        x = np.load(f"/tmp/ck_{name}/0_0.npy")
        r = f()
        print(f"{name}: xp-gpu vs SciPy {rel(x, r):.2e} (shapes {x.shape} {r.shape})")
    except Exception as e:
        print(name, "diag error", e)
