"""Fixtures of the uta package's tests: devices, seeded inputs, comparison.

Inputs are seeded (numpy's default_rng), outputs are poisoned with NaN before
each run, and every result is compared with the float64 reference device
with the tolerance of ``utac run --check``. Vulkan tests skip where no Vulkan
device exists (on CI, lavapipe is there).
"""
import os

import numpy as np
import pytest

import uta


def import_torch():
    """torch, or a skip where it does not import; a failure instead with
    UTA_REQUIRE_TORCH=1 (scripts/uta.sh test installs torch, so its torch
    tests must run)."""
    if os.environ.get("UTA_REQUIRE_TORCH") == "1":
        import torch
        return torch
    return pytest.importorskip("torch")


@pytest.fixture(scope="session")
def reference():
    return uta.device("reference")


@pytest.fixture(scope="session")
def vulkan():
    try:
        return uta.device("vulkan")
    except uta.Unavailable as error:
        pytest.skip(f"no Vulkan device here: {error}")


@pytest.fixture(scope="session")
def cache():
    """A memory-only kernel cache shared by the session's compiles."""
    return uta.KernelCache("")


def random_inputs(exe, seed):
    """Seeded standard-normal inputs of `exe`'s signature (f32 or f16)."""
    rng = np.random.default_rng(seed)
    arrays = []
    for dtype, shape in exe.inputs:
        values = rng.standard_normal(shape)
        arrays.append(values.astype(np.float16 if dtype == 1 else np.float32))
    return arrays


def poisoned_outputs(exe):
    """NaN-filled arrays for `exe`'s outputs, to pass as out=."""
    return [np.full(shape, np.nan,
                    dtype=np.float16 if dtype == 1 else np.float32)
            for dtype, shape in exe.outputs]


def rel_l2(out, ref):
    out = np.asarray(out, dtype=np.float64)
    ref = np.asarray(ref, dtype=np.float64)
    norm = np.linalg.norm(ref)
    error = np.linalg.norm(out - ref)
    return error / norm if norm > 0 else error


def assert_close(out, ref, tolerance, what="result"):
    out = np.asarray(out)
    assert np.all(np.isfinite(out)), f"{what}: non-finite elements " \
        f"(an unwritten, poisoned element is NaN)"
    error = rel_l2(out, ref)
    assert error <= tolerance, f"{what}: rel_l2 {error:.3g} > {tolerance:g}"


@pytest.fixture(params=["extension", "python"])
def torch_call_path(request, monkeypatch):
    """Runs a torch test on each per-call path of uta.custom_op: the C++
    extension (libuta_torch.so), which must load where UTA_REQUIRE_TORCH=1
    (the build makes it for that torch), and the Python one."""
    import torch
    from uta import _torch_extension
    if request.param == "python":
        monkeypatch.setattr(_torch_extension, "load", lambda torch: None)
    elif _torch_extension.load(torch) is None:
        if os.environ.get("UTA_REQUIRE_TORCH") == "1":
            pytest.fail(f"no torch extension: {_torch_extension.status()}")
        pytest.skip(f"no torch extension: {_torch_extension.status()}")
    return request.param
