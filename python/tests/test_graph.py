"""Graphs from Python: errors of bad graphs, compiling through the cache,
the runtime alone on a saved module, and the package's other entry points.
"""
import os

import numpy as np
import pytest

import uta
from conftest import assert_close, poisoned_outputs, random_inputs


def test_builder_errors_are_raised_where_the_op_is_built():
    g = uta.Graph("bad")
    x = g.input([4, 8])
    y = g.input([3])
    with pytest.raises(uta.GraphError, match=r"^add: .*"):
        g.add(x, y)
    # The graph keeps its first error (uta::Graph's rule): compile refuses.
    assert not g.ok
    with pytest.raises(uta.GraphError, match="^add: "):
        g.exp(x)
    with pytest.raises(uta.InvalidInput, match="graph @bad: add: "):
        uta.compile(g, target="spirv")


def test_other_bad_graphs():
    with pytest.raises(uta.GraphError):
        uta.Graph("1bad")
    g = uta.Graph("sizes")
    with pytest.raises(uta.GraphError, match="^input: "):
        g.input([0, 4])
    g = uta.Graph("dtype")
    with pytest.raises(uta.InvalidInput, match="unknown dtype 'f64'"):
        g.input([4], "f64")
    g = uta.Graph("algebra")
    x = g.input([8, 4])
    with pytest.raises(uta.GraphError, match="^reverse: "):
        g.reverse(uta.Algebra(7, 0), x)
    g = uta.Graph("blades")
    x = g.input([8, 4])
    with pytest.raises(uta.GraphError, match="blade"):
        g.geometric_product(uta.Algebra(2, 0), x, x)
    g, other = uta.Graph("one"), uta.Graph("two")
    a = g.input([2])
    with pytest.raises(uta.GraphError, match="belongs to graph @one"):
        other.neg(a)
    with pytest.raises(uta.GraphError, match="expected a uta.Value"):
        g.add(a, 1.0)
    with pytest.raises(uta.GraphError, match="matmul: "):
        g.matmul(a, a)
    g = uta.Graph("dims")
    with pytest.raises(uta.GraphError, match="reduce_sum: "):
        g.reduce_sum(g.input([2]), [3])


def test_ints_beyond_int64_refused():
    # ctypes wraps integers silently: 2**64 + 4 must not become a size of 4,
    # nor 2**64 - 1 an axis of -1, nor 2**32 + 3 an algebra of 3 vectors.
    g = uta.Graph("wide")
    with pytest.raises(uta.GraphError, match=r"^input: shape\[0\] must be "
                       r"at most 2\^63 - 1 \(int64\), got "
                       "18446744073709551620$"):
        g.input([2**64 + 4])
    x = g.input([2, 3])
    with pytest.raises(uta.GraphError, match=r"^reshape: sizes\[0\] must be "
                       r"at most 2\^63 - 1 \(int64\)"):
        g.reshape(x, [2**63, 3])
    with pytest.raises(uta.GraphError, match="^softmax: dim must be at most"):
        g.softmax(x, 2**64 - 1)
    with pytest.raises(uta.GraphError, match="^reverse: blade_axis must be "
                       "at most"):
        g.reverse(uta.Algebra(1, 0), x, 2**64)
    with pytest.raises(uta.GraphError, match=r"^uta.Algebra: p must be at "
                       r"most 2\^31 - 1 \(a C int\), got 4294967299$"):
        uta.Algebra(2**32 + 3, 0)
    assert g.ok


def test_algebra():
    assert uta.Algebra(3, 0).num_blades == 8
    assert uta.Algebra(3, 0).num_paths == 20
    assert uta.Algebra(2, 0).num_paths == 10
    assert uta.Algebra(7, 0).num_blades == 0


def test_graph_text():
    g = uta.Graph("text")
    x = g.input([2, 3])
    g.output(g.relu(x))
    text = str(g)
    assert "func.func @text" in text and "uta.relu" in text


def test_cache_hits_by_the_counters():
    cache = uta.KernelCache("")
    g = uta.Graph("cached")
    x = g.input([16])
    g.output(g.tanh(x))
    first = uta.compile(g, target="spirv", cache=cache)
    second = uta.compile(g, target="spirv", cache=cache)
    assert not first.cache_hit and second.cache_hit
    stats = cache.stats()
    assert stats["misses"] == 1 and stats["memory_hits"] == 1
    assert first.target == "spirv" and first.name == "cached"
    assert '"launches"' in first.manifest and len(first.module) > 0


def test_compile_options():
    g = uta.Graph("opts")
    x = g.input([16])
    g.output(g.exp(x))
    with pytest.raises(uta.InvalidInput, match="unknown target 'cuda'"):
        uta.compile(g, target="cuda")
    # PTX compiles here without a GPU; its module is PTX text.
    ptx = uta.compile(g, target="ptx", sm="80", fusion=False,
                      vectorize=False, block_size=128)
    assert b".entry" in ptx.module
    with pytest.raises(uta.InvalidInput):
        uta.compile(g, target="ptx", sm="12")
    for device in ("reference", uta.device("reference")):
        assert uta.compile(g, device=device).target == "spirv"


def test_intermediates_not_live_together_share_the_workspace(vulkan):
    # A chain of 64x64 matmuls: each intermediate meets only its neighbours,
    # so three slots hold what the sum of five would.
    g = uta.Graph("chain")
    x = g.input([64, 64])
    y = x
    for _ in range(6):
        y = g.relu(g.matmul(y, x))
    g.output(y)
    exe = uta.compile(g, target="spirv", fusion=False).load(vulkan)
    slot = 64 * 64 * 4
    assert 0 < exe.workspace_bytes <= 3 * slot


def test_saved_module_runs_through_the_runtime_alone(tmp_path, reference,
                                                     vulkan):
    g = uta.Graph("saved")
    x = g.input([6, 10])
    w = g.input([10, 4])
    g.output(g.softmax(g.matmul(x, w), 1))
    compiled = uta.compile(g, target="spirv")
    path = tmp_path / "saved.spv"
    compiled.save(str(path))
    assert os.path.exists(f"{path}.json")
    exe = uta.load(f"{path}.json", vulkan)
    assert exe.name == "saved"
    assert exe.inputs == [(0, (6, 10)), (0, (10, 4))]
    oracle = compiled.load(reference)
    inputs = random_inputs(exe, seed=9)
    expected = poisoned_outputs(oracle)
    oracle(*inputs, out=expected)
    (y,) = exe(*inputs, poison=True)
    assert_close(np.from_dlpack(y), expected[0], compiled.tolerance())
    with pytest.raises(uta.InvalidInput, match="nonexistent"):
        uta.load(str(tmp_path / "nonexistent.json"), vulkan)


def test_kernel_time_is_reported(vulkan):
    g = uta.Graph("timed")
    x = g.input([1024])
    g.output(g.sigmoid(x))
    exe = uta.compile(g, device=vulkan).load(vulkan)
    timing = []
    exe(np.ones(1024, np.float32), timing=timing)
    assert len(timing) == 1 and timing[0] >= 0


def test_unknown_backend():
    with pytest.raises(uta.InvalidInput, match='unknown backend "tpu"'):
        uta.device("tpu")


def test_fill_normal_matches_the_c_generator():
    values = np.ctypeslib.as_array(uta.fill_normal(1000, seed=1, stream=2))
    again = np.ctypeslib.as_array(uta.fill_normal(1000, seed=1, stream=2))
    assert np.array_equal(values, again) and np.all(values != 0)
    assert abs(values.mean()) < 0.2 and 0.8 < values.std() < 1.2
    assert uta.default_tolerance("f32") == 1e-5
    assert uta.default_tolerance("f32", reduces=True) == 1e-4
