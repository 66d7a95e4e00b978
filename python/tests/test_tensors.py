"""Tensors in and out through DLPack, and the errors for bad ones.

NumPy arrays go in and come out without copies on the host devices (the
reference and Vulkan): an output given as out= is written where it lies, and
a result UTA allocated is viewed by numpy.from_dlpack at UTA's address. Bad
tensors (wrong dtype, shape, device, non-contiguous, freed, a consumed
capsule, not a tensor at all) are refused with errors that name the argument.
"""
import ctypes
import gc

import numpy as np
import pytest

import uta
from uta import _dlpack
from conftest import assert_close


def gelu_bias():
    g = uta.Graph("gelu_bias")
    x = g.input([37, 61])
    b = g.input([61])
    g.output(g.gelu(x + b))
    return g


@pytest.fixture(scope="module")
def compiled(cache):
    return uta.compile(gelu_bias(), target="spirv", cache=cache)


@pytest.fixture(params=["reference", "vulkan"])
def exe(request, compiled):
    try:
        device = uta.device(request.param)
    except uta.Unavailable as error:
        pytest.skip(f"no {request.param} device here: {error}")
    return compiled.load(device)


def inputs(seed=3):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal((37, 61)).astype(np.float32),
            rng.standard_normal(61).astype(np.float32))


def formula(x, b):
    """gelu(x + b) in float64."""
    from math import erf, sqrt
    z = x.astype(np.float64) + b.astype(np.float64)
    return 0.5 * z * (1 + np.vectorize(erf)(z / sqrt(2)))


def test_numpy_in_and_out_without_copies(exe):
    x, b = inputs()
    (y,) = exe(x, b, poison=True)
    assert isinstance(y, uta.Tensor) and y.shape == (37, 61)
    view = np.from_dlpack(y)
    # The array views the memory UTA wrote: same address, no copy.
    assert view.ctypes.data == y.data_ptr()
    assert_close(view, formula(x, b), 1e-5)
    # out=: written in place, returned as given.
    out = np.full((37, 61), np.nan, np.float32)
    (same,) = exe(x, b, out=[out])
    assert same is out
    assert_close(out, formula(x, b), 1e-5)


def test_results_outlive_their_tensor(exe):
    x, b = inputs()
    (y,) = exe(x, b)
    exported_before = _dlpack.live_exports()
    view = np.from_dlpack(y)
    expected = formula(x, b)
    del y
    gc.collect()
    # The view keeps UTA's memory alive after the uta.Tensor is gone, and
    # releases it when it goes.
    assert_close(view, expected, 1e-5)
    assert _dlpack.live_exports() == exported_before + 1
    del view
    gc.collect()
    assert _dlpack.live_exports() == exported_before


def test_capsules_and_other_producers(exe):
    x, b = inputs()
    # A capsule in; a result's own capsule, consumed by NumPy.
    (y,) = exe(x.__dlpack__(), b)
    capsule = y.__dlpack__()
    assert_close(np.from_dlpack(_Holder(capsule)), formula(x, b), 1e-5)
    # A capsule that was consumed cannot be used again.
    with pytest.raises(uta.InvalidInput,
                       match="input 0: the DLPack capsule was already "
                             "consumed"):
        exe(capsule, b)
    # A uta.Tensor is an input like any other.
    (z,) = exe(y, b)
    assert_close(np.from_dlpack(z), formula(formula(x, b), b), 1e-5)


class _Holder:
    """Hands a ready capsule to numpy.from_dlpack, which asks an object."""

    def __init__(self, capsule):
        self.capsule = capsule

    def __dlpack__(self, stream=None):
        return self.capsule

    def __dlpack_device__(self):
        return (_dlpack.CPU, 0)


def test_wrong_dtype(exe):
    x, b = inputs()
    with pytest.raises(uta.InvalidInput,
                       match=r"input 0: a float64 tensor; UTA takes f32"):
        exe(x.astype(np.float64), b)
    with pytest.raises(uta.InvalidInput,
                       match=r"input 1: expected f32 \[61\], got f16 \[61\]"):
        exe(x, b.astype(np.float16))
    with pytest.raises(uta.InvalidInput, match="input 0: a int32 tensor"):
        exe(x.astype(np.int32), b)


def test_wrong_shape(exe):
    x, b = inputs()
    with pytest.raises(uta.InvalidInput,
                       match=r"input 0: expected f32 \[37, 61\], got f32 "
                             r"\[61, 37\]"):
        exe(np.ascontiguousarray(x.T), b)
    with pytest.raises(uta.InvalidInput,
                       match=r"out 0: expected f32 \[37, 61\], got f32 "
                             r"\[37, 60\]"):
        exe(x, b, out=[np.zeros((37, 60), np.float32)])
    with pytest.raises(uta.InvalidInput, match="takes 2 inputs, got 1"):
        exe(x)
    with pytest.raises(uta.InvalidInput, match="returns 1 outputs, out= has 2"):
        exe(x, b, out=[x, x])


def test_misaligned_host_memory(exe):
    x, b = inputs()
    raw = bytearray(b.nbytes + 1)
    shifted = np.frombuffer(raw, np.float32, count=b.size, offset=1)
    shifted[...] = b
    with pytest.raises(uta.InvalidInput,
                       match="input 1: the memory is not aligned to its "
                             "4-byte elements"):
        exe(x, shifted)


def test_not_contiguous(exe):
    x, b = inputs()
    with pytest.raises(uta.InvalidInput,
                       match=r"input 0: not contiguous \(shape \[37, 61\], "
                             r"strides \[1, 37\]"):
        exe(np.ascontiguousarray(x.T).T, b)
    wide = np.zeros((37, 122), np.float32)
    with pytest.raises(uta.InvalidInput, match="out 0: not contiguous"):
        exe(x, b, out=[wide[:, ::2]])


def test_size_one_axes_may_have_any_stride():
    dense = np.arange(32, dtype=np.float32).reshape(4, 1, 8)
    odd = np.lib.stride_tricks.as_strided(dense, shape=(4, 1, 8),
                                          strides=(32, 4 * 1000, 4))
    borrowed = _dlpack.borrow(odd, "x")
    assert borrowed.shape == (4, 1, 8)
    assert borrowed.address == dense.ctypes.data


def test_zero_element_tensors_may_have_any_stride():
    # A capsule as torch makes one for torch.empty(3, 0): strides (1, 1).
    managed = _dlpack.DLManagedTensor()
    shape = (ctypes.c_int64 * 2)(3, 0)
    strides = (ctypes.c_int64 * 2)(1, 1)
    tensor = managed.dl_tensor
    tensor.device = _dlpack.DLDevice(_dlpack.CPU, 0)
    tensor.ndim = 2
    tensor.dtype = _dlpack.DLDataType(_dlpack.FLOAT, 32, 1)
    tensor.shape, tensor.strides = shape, strides
    capsule = _dlpack._capsule_new(ctypes.addressof(managed), b"dltensor",
                                   None)
    borrowed = _dlpack.borrow(capsule, "x")
    assert borrowed.shape == (3, 0)


def test_wrong_device(exe):
    x, b = inputs()
    with pytest.raises(uta.InvalidInput,
                       match=r"input 1: a tensor on cuda:0, but @gelu_bias "
                             r"runs on \w+ and takes cpu:0 tensors"):
        exe(x, _OnCuda(b))


class _OnCuda:
    """A producer that says its tensor is on CUDA device 0 (no GPU needed:
    the device is checked before the tensor is asked for)."""

    def __init__(self, array):
        self.array = array

    def __dlpack_device__(self):
        return (_dlpack.CUDA, 0)

    def __dlpack__(self, stream=None):
        raise AssertionError("the device is checked first")


def test_freed_tensor(exe):
    x, b = inputs()
    (y,) = exe(x, b)
    view = np.from_dlpack(y)
    y.free()
    with pytest.raises(uta.InvalidInput,
                       match="input 0: the uta.Tensor was freed"):
        exe(y, b)
    with pytest.raises(uta.InvalidInput, match="the uta.Tensor was freed"):
        np.from_dlpack(y)
    assert "freed" in repr(y)
    # Views exported before free keep their memory.
    assert_close(view, formula(x, b), 1e-5)


def test_producer_refusals_name_the_argument(exe):
    x, b = inputs()
    frozen = b.copy()
    frozen.flags.writeable = False
    try:
        frozen.__dlpack__()
    except BufferError:
        pass
    else:
        pytest.skip("this NumPy exports read-only arrays")
    with pytest.raises(uta.InvalidInput,
                       match=r"input 1: ndarray.__dlpack__ refused: "):
        exe(x, frozen)


def test_not_a_tensor(exe):
    x, b = inputs()
    with pytest.raises(uta.InvalidInput,
                       match="input 1: a list is not a tensor"):
        exe(x, [1.0] * 61)


def test_cuda_is_unavailable_or_refuses_host_tensors():
    try:
        device = uta.device("cuda")
    except uta.Unavailable as error:
        assert "cuda" in str(error)
        return
    pytest.skip(f"a CUDA device is here: {device}")


def test_device_tensor_wrap_is_cuda_only(reference):
    # Host devices never wrap foreign pointers; the C API says so.
    from uta import _capi
    handle = ctypes.c_void_p()
    status = _capi.runtime.uta_device_tensor_wrap(
        reference._handle, 4096, _capi.F32, _capi.shape_array([4]), 1,
        ctypes.byref(handle))
    assert status == _capi.INVALID_INPUT
    assert "only cuda wraps" in _capi.last_error()


def test_bound_runs(exe):
    x, b = inputs()
    bound = exe.bind(x, b)
    (y,) = bound()
    assert_close(np.from_dlpack(y), formula(x, b), 1e-5)
    # The same memory is read again: new values in x give new results.
    x[:] = x * 2
    (again,) = bound()
    assert again is y
    assert_close(np.from_dlpack(y), formula(x, b), 1e-5)
    out = np.full((37, 61), np.nan, np.float32)
    (written,) = exe.bind(x, b, out=[out], poison=True)()
    assert written is out
    assert_close(out, formula(x, b), 1e-5)
    with pytest.raises(uta.InvalidInput, match="input 1: expected f32"):
        exe.bind(x, x)


def test_profile_reports_each_launch_with_its_counts(exe):
    """Executable.profile: the report uta-run --profile-json writes, each
    launch's median time with the counts the compiler wrote in the manifest
    (on Vulkan), no launches on the reference, which times nothing."""
    x, b = inputs()
    report = exe.profile(x, b, runs=3)
    assert report["format"] == "uta-profile" and report["version"] == 1
    if exe.device.backend == "reference":
        assert report["launches"] == [] and report["runs"] == 2
        return
    assert report["runs"] == 2  # the first run warms up
    (launch,) = report["launches"]
    assert launch["kernel"].startswith("gelu_bias_k0_") and launch["runs"] == 2
    assert launch["milliseconds"] > 0
    cost = launch["cost"]
    # gelu (20 operations) and the bias add (1) per element of [37, 61];
    # x and b read, y written.
    assert cost["flops"] == {"simt": 21 * 37 * 61}
    assert cost["bytes_read"] == 4 * (37 * 61 + 61)
    assert cost["bytes_written"] == 4 * 37 * 61
    assert cost["flops_per_second"]["simt"] > 0


def test_profile_refuses_bad_arguments(exe):
    x, b = inputs()
    for runs in (0, 100001, 2.5, True, "3"):
        with pytest.raises(uta.InvalidInput, match="runs must be"):
            exe.profile(x, b, runs=runs)
    with pytest.raises(uta.InvalidInput, match="takes 2 inputs, got 1"):
        exe.profile(x)
