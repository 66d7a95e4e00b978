"""The cuda path of the package, on the stand-in libcuda.so.1 (no GPU).

test/Runtime/Inputs/fake-libcuda.cpp keeps "device memory" in host memory
and interprets the kernels of test/Runtime/Inputs/add.json
(r = 0.5 * (x + y) through an intermediate), so the package's CUDA glue runs
here for real: CUDA DLPack tensors wrapped where they lie (the kernel writes
into an out= array's own memory), the stream handshake (the producer is
asked for UTA's stream), results exported as CUDA capsules at the address UTA
wrote, bound runs, and the device, alignment and device-index errors.

ctest's python-fake-cuda runs this file with LD_LIBRARY_PATH at the stand-in
and UTA_FAKE_CUDA_MANIFEST at add.json; elsewhere it skips.
"""
import ctypes
import os

import numpy as np
import pytest

import uta
from uta import _capi, _dlpack

MANIFEST = os.environ.get("UTA_FAKE_CUDA_MANIFEST")
pytestmark = pytest.mark.skipif(not MANIFEST,
                                reason="UTA_FAKE_CUDA_MANIFEST is not set "
                                       "(ctest's python-fake-cuda sets it)")


class FakeCudaTensor:
    """A DLPack producer of "CUDA" memory: a NumPy array's host memory,
    which the stand-in driver treats as device memory."""

    def __init__(self, array, device_id=0, offset=0):
        self.array = array
        self.device_id = device_id
        self.offset = offset
        self.streams = []

    def __dlpack_device__(self):
        return (_dlpack.CUDA, self.device_id)

    def __dlpack__(self, stream=None):
        self.streams.append(stream)
        return _dlpack.export(self.array.ctypes.data + self.offset,
                              _dlpack.CUDA, self.device_id, _capi.F32,
                              self.array.shape, self.array)


def read(tensor):
    """A uta.Tensor's "device" memory, readable on the stand-in driver."""
    count = int(np.prod(tensor.shape))
    raw = ctypes.string_at(tensor.data_ptr(), 4 * count)
    return np.frombuffer(raw, np.float32).reshape(tensor.shape)


@pytest.fixture(scope="module")
def cuda():
    device = uta.device("cuda")
    assert device.backend == "cuda" and device.cuda_stream != 0
    return device


@pytest.fixture(scope="module")
def exe(cuda):
    return uta.load(MANIFEST, cuda)


def inputs():
    x = np.arange(1000, dtype=np.float32) * 0.25
    y = 1 - np.arange(1000, dtype=np.float32)
    return x, y


def test_results_on_the_device(cuda, exe):
    x, y = inputs()
    fx, fy = FakeCudaTensor(x), FakeCudaTensor(y)
    (r,) = exe(fx, fy, poison=True)
    assert r.__dlpack_device__() == (_dlpack.CUDA, 0)
    assert np.array_equal(read(r), 0.5 * (x + y))
    # Each producer was asked to order its work before UTA's stream.
    assert fx.streams == [cuda.cuda_stream] == fy.streams
    # The exported capsule points at the memory the kernel wrote.
    exported = _dlpack.borrow(r, "r")
    assert exported.address == r.data_ptr()
    assert exported.device_type == _dlpack.CUDA and exported.shape == (1000,)


def test_out_is_written_in_place(exe):
    x, y = inputs()
    out = np.full(1000, np.nan, np.float32)
    target = FakeCudaTensor(out)
    (same,) = exe(FakeCudaTensor(x), FakeCudaTensor(y), out=[target])
    assert same is target
    # The kernel wrote into the array's own memory: no copy anywhere.
    assert np.array_equal(out, 0.5 * (x + y))


def test_bound_run(exe):
    x, y = inputs()
    out = np.full(1000, np.nan, np.float32)
    bound = exe.bind(FakeCudaTensor(x), FakeCudaTensor(y),
                     out=[FakeCudaTensor(out)])
    bound()
    assert np.array_equal(out, 0.5 * (x + y))
    x *= 2
    bound()
    assert np.array_equal(out, 0.5 * (x + y))
    (r,) = exe.bind(FakeCudaTensor(x), FakeCudaTensor(y))()
    assert np.array_equal(read(r), 0.5 * (x + y))


def test_cuda_tensor_errors(exe):
    x, y = inputs()
    with pytest.raises(uta.InvalidInput,
                       match=r"input 1: a tensor on cpu:0, but @main runs on "
                             r"cuda and takes cuda:0 tensors"):
        exe(FakeCudaTensor(x), y)
    with pytest.raises(uta.InvalidInput, match="input 0: a tensor on cuda:1"):
        exe(FakeCudaTensor(x, device_id=1), FakeCudaTensor(y))
    wide = np.zeros(1004, np.float32)
    with pytest.raises(uta.InvalidInput, match="not 16-byte aligned"):
        exe(FakeCudaTensor(x), FakeCudaTensor(wide[1:1001]))
    with pytest.raises(uta.InvalidInput, match=r"expected f32 \[1000\]"):
        exe(FakeCudaTensor(x), FakeCudaTensor(wide))
    (r,) = exe(FakeCudaTensor(x), FakeCudaTensor(y))
    r.free()
    with pytest.raises(uta.InvalidInput, match="the uta.Tensor was freed"):
        exe(r, FakeCudaTensor(y))


def test_result_feeds_the_next_run(exe):
    x, y = inputs()
    (r,) = exe(FakeCudaTensor(x), FakeCudaTensor(y))
    (s,) = exe(r, FakeCudaTensor(y))
    assert np.array_equal(read(s), 0.5 * (0.5 * (x + y) + y))


def test_results_after_the_device_is_released():
    # An executable allocates its cuda outputs through its own device
    # handle, so it runs on after the uta.Device it came from is released.
    device = uta.device("cuda")
    exe = uta.load(MANIFEST, device)
    device.release()
    x, y = inputs()
    (r,) = exe(FakeCudaTensor(x), FakeCudaTensor(y))
    assert np.array_equal(read(r), 0.5 * (x + y))
