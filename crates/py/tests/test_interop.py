"""xp's Python module: DLPack both ways with NumPy (CPU) and, where a GPU and the libraries are
present, PyTorch, CuPy and JAX (zero-copy pointers, a transposed view, bfloat16, stream order,
one release of imported memory); errors as the standard's exceptions. Run with pytest."""

import gc
import os
import time

import numpy as np
import pytest

import xp

GPU = "cuda:0" in xp.__array_namespace_info__().devices()


def _lib(name):
    try:
        return __import__(name)
    except Exception:
        return None


torch, cupy = _lib("torch"), _lib("cupy")
jax = _lib("jax")
if jax is not None:
    import jax.numpy as jnp  # noqa: F401


def test_numpy_round_trip_values_and_dtypes():
    rng = np.random.default_rng(0)
    for dt in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
               "float16", "float32", "float64", "complex64", "complex128"):
        a = (rng.standard_normal((3, 5)) * 50).astype(dt)
        x = xp.asarray(a, device="cpu")
        assert x.dtype == getattr(xp, dt) and x.shape == (3, 5)
        back = np.from_dlpack(x)
        np.testing.assert_array_equal(back, a)


def test_numpy_views_and_zero_copy_export():
    a = np.arange(24.0).reshape(4, 6)
    x = xp.asarray(a, device="cpu")
    for view in (x.mT, x[::2, 1::3], x[::-1], xp.permute_dims(xp.reshape(x, (2, 3, 4)), (2, 0, 1))):
        ref = np.asarray(view.tolist())
        np.testing.assert_array_equal(np.from_dlpack(view), ref)
    # export is a view of xp's memory: two exports share it, and a write through xp shows
    y = x.mT
    p1 = np.from_dlpack(y).__array_interface__["data"][0]
    p2 = np.from_dlpack(y).__array_interface__["data"][0]
    assert p1 == p2
    e = np.from_dlpack(x)
    x[0, 0] = 99.0
    assert e[0, 0] == 99.0


def test_from_dlpack_copy_and_device_arguments():
    x = xp.asarray([[1.0, 2.0], [3.0, 4.0]], device="cpu")
    c = np.from_dlpack(x, copy=True)
    x[0, 0] = -1.0
    assert c[0, 0] == 1.0
    with pytest.raises(BufferError):
        x.__dlpack__(dl_device=(2, 0))
    cap = x.__dlpack__(max_version=(1, 0))
    assert "dltensor_versioned" in repr(cap)
    legacy = x.__dlpack__()
    assert "dltensor" in repr(legacy) and "versioned" not in repr(legacy)
    r = xp.from_dlpack(x)
    assert r.tolist() == x.tolist()


def test_capsules_are_used_once():
    x = xp.asarray([1, 2, 3])
    cap = x.__dlpack__(max_version=(1, 0))
    xp._xp.from_capsule(cap)
    with pytest.raises(TypeError):
        xp._xp.from_capsule(cap)
    with pytest.raises(TypeError):
        xp._xp.from_capsule(object())


def test_errors_are_the_standards_exceptions():
    x = xp.ones((2, 3))
    with pytest.raises(ValueError):
        x + xp.ones((4,))
    with pytest.raises(IndexError):
        x[5]
    with pytest.raises(IndexError):
        xp.sum(x, axis=3)
    with pytest.raises(ValueError):
        xp.sum(x, axis=3)
    with pytest.raises(xp.linalg.LinAlgError):
        xp.linalg.cholesky(-xp.eye(2))
    with pytest.raises(TypeError):
        xp.asarray([1, "a"])
    before = x.tolist()
    with pytest.raises(ValueError):
        x += xp.ones((4, 2, 3))
    assert x.tolist() == before


def test_scalars_and_promotion():
    x = xp.asarray([1, 2, 3], dtype=xp.int8)
    assert (x + 1).dtype == xp.int8
    assert (x * 2.5).dtype == xp.float64  # NumPy's weak scalars, as xp's Rust front end
    assert xp.result_type(xp.int8, xp.uint8) == xp.int16
    assert xp.can_cast(xp.int8, xp.float32) is False
    with pytest.raises(OverflowError):
        x + 1000
    assert float(xp.sum(xp.asarray([0.5, 0.25]))) == 0.75


needs_gpu = pytest.mark.skipif(not GPU, reason="no CUDA device")


def _ptr_xp(x):
    """The data pointer of an xp array on a GPU, read through a CuPy view of its export."""
    return cupy.from_dlpack(x).data.ptr


@needs_gpu
@pytest.mark.skipif(torch is None or cupy is None, reason="needs torch and cupy")
def test_torch_round_trip_zero_copy():
    t = torch.arange(12, dtype=torch.float32, device="cuda").reshape(3, 4)
    x = xp.from_dlpack(t)
    assert x.device == "cuda:0" and x.shape == (3, 4)
    assert _ptr_xp(x) == t.data_ptr()
    back = torch.from_dlpack(x)
    assert back.data_ptr() == t.data_ptr()
    # a transposed view keeps its strides, no copy
    xt = xp.from_dlpack(t.T)
    assert xt.shape == (4, 3) and _ptr_xp(xt) == t.data_ptr()
    assert torch.equal(torch.from_dlpack(xt + 0), t.T)
    b = torch.randn(5, 7, device="cuda").to(torch.bfloat16)
    xb = xp.from_dlpack(b)
    assert xb.dtype == xp.bfloat16
    assert torch.equal(torch.from_dlpack(xb), b)


@needs_gpu
@pytest.mark.skipif(cupy is None, reason="needs cupy")
def test_cupy_round_trip_zero_copy():
    c = cupy.arange(20, dtype=cupy.float64).reshape(4, 5)
    x = xp.from_dlpack(c)
    assert _ptr_xp(x) == c.data.ptr
    back = cupy.from_dlpack(x)
    assert back.data.ptr == c.data.ptr
    assert bool(cupy.all(cupy.from_dlpack(xp.matmul(x, x.mT)) == c @ c.T))


@needs_gpu
@pytest.mark.skipif(cupy is None, reason="needs cupy")
def test_cuda_array_interface_both_ways():
    class OnlyInterface:  # a producer with the interface and no DLPack (as Numba's arrays)
        def __init__(self, c):
            self.c = c
            self.__cuda_array_interface__ = c.__cuda_array_interface__

    c = cupy.arange(12, dtype=cupy.float32).reshape(3, 4)
    x = xp.asarray(OnlyInterface(c))
    assert x.shape == (3, 4) and x.dtype == xp.float32 and _ptr_xp(x) == c.data.ptr
    assert np.asarray(x).tolist() == c.get().tolist()
    xt = xp.asarray(OnlyInterface(c.T))
    assert _ptr_xp(xt) == c.data.ptr and np.asarray(xt).tolist() == c.get().T.tolist()
    # out: CuPy reads xp's description, a view included, without a copy
    y = xp.asarray([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], device="cuda:0")
    cy = cupy.asarray(y.mT)
    assert cy.data.ptr == _ptr_xp(y) and cy.get().tolist() == [[1.0, 4.0], [2.0, 5.0], [3.0, 6.0]]
    assert not hasattr(xp.asarray([1.0], device="cpu"), "__cuda_array_interface__")
    with pytest.raises(TypeError):  # big-endian data
        xp._xp.from_cuda_interface(0, [3], None, ">f4", False, 0, None, None)


@needs_gpu
@pytest.mark.skipif(jax is None or cupy is None, reason="needs jax and cupy")
def test_jax_round_trip_zero_copy():
    import jax.numpy as jnp
    j = jnp.arange(16, dtype=jnp.float32).reshape(4, 4) * 2
    x = xp.from_dlpack(j)
    assert x.device == "cuda:0"
    assert _ptr_xp(x) == j.unsafe_buffer_pointer()
    back = jax.dlpack.from_dlpack(x)
    assert back.unsafe_buffer_pointer() == j.unsafe_buffer_pointer()
    np.testing.assert_array_equal(np.asarray(back), np.asarray(j))


@needs_gpu
@pytest.mark.skipif(torch is None, reason="needs torch")
def test_torch_side_stream_is_ordered_and_released_once():
    base = torch.cuda.memory_allocated()
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        a = torch.ones(1 << 24, device="cuda")
        for _ in range(20):  # long enough that a consumer not ordered after it reads early
            a = a * 1.0000001 + 1e-7
    x = xp.from_dlpack(a)  # no host synchronisation: xp's stream waits on torch's
    total = float(xp.sum(x))
    s.synchronize()
    assert abs(total - float(a.sum())) <= 1e-3 * abs(total)
    del x, a
    gc.collect()
    torch.cuda.synchronize()
    # torch defers the free of a block that another stream used (ours, through the DLPack
    # stream argument) until it sees that stream's event complete, which its next allocation
    # checks; under a sanitizer the kernels are slow enough for that to take a while
    for _ in range(200):
        torch.empty(1, device="cuda")
        if torch.cuda.memory_allocated() == base:
            break
        time.sleep(0.01)
    assert torch.cuda.memory_allocated() == base


@needs_gpu
def test_default_device_from_environment():
    if os.environ.get("XP_DEFAULT_DEVICE") == "cuda:0":
        assert xp.zeros(3).device == "cuda:0"
    x = xp.asarray([1.0, 2.0], device="cuda:0")
    assert x.device == "cuda:0" and np.asarray(x).tolist() == [1.0, 2.0]
