"""The checks at the C boundary (uta/_check.py): values that ctypes would
wrap, cut or pass as they are, and handles used after release.

One test per defect that once reached C (a negative count as a size_t, a
device index and a block size wrapped to a small one, a path cut at a NUL,
a bound run or an executable used after release), then the int, float and
string checks on the other arguments. Every case runs on the reference
device or compiles without one, so none needs a GPU.
"""
import os

import numpy as np
import pytest

import uta


def small_graph(name="small"):
    g = uta.Graph(name)
    x = g.input([4, 8])
    b = g.input([8])
    g.output(g.gelu(x + b))
    return g


@pytest.fixture(scope="module")
def compiled(cache):
    return uta.compile(small_graph(), target="spirv", cache=cache)


def inputs():
    rng = np.random.default_rng(5)
    return (rng.standard_normal((4, 8)).astype(np.float32),
            rng.standard_normal(8).astype(np.float32))


# One test per defect.

def test_fill_normal_negative_count_raises():
    with pytest.raises(uta.InvalidInput, match="^uta.fill_normal: count must "
                       "be a non-negative integer, got -5$"):
        uta.fill_normal(-5, 0)
    with pytest.raises(uta.InvalidInput, match="^uta.fill_normal: seed must "
                       "be a non-negative integer, got -1$"):
        uta.fill_normal(4, -1)
    with pytest.raises(uta.InvalidInput, match=r"stream must be at most "
                       r"2\^64 - 1 \(uint64\)"):
        uta.fill_normal(4, 0, 2**64)
    assert len(uta.fill_normal(0, 1)) == 0


def test_device_index_out_of_range_raises():
    # ctypes would pass 2**40 as the C int 0 and open device 0.
    with pytest.raises(uta.InvalidInput, match=r"^uta.device: index must be "
                       r"at most 2\^31 - 1 \(a C int\), got 1099511627776$"):
        uta.device("reference", 2**40)
    with pytest.raises(uta.InvalidInput, match="index must be a non-negative "
                       "integer, got -1"):
        uta.device("reference", -1)


def test_block_size_past_uint32_raises():
    # ctypes would pass 2**32 + 64 as the unsigned 64, and it would compile.
    with pytest.raises(uta.InvalidInput, match=r"^uta.compile: block_size "
                       r"must be at most 2\^32 - 1 \(a C unsigned\), got "
                       "4294967360$"):
        uta.compile(small_graph(), target="spirv", block_size=2**32 + 64)


def test_path_with_nul_raises(tmp_path, compiled, reference):
    # ctypes would cut the path at the NUL and write "module".
    for path in (str(tmp_path / "module\0.spv"),
                 os.fsencode(tmp_path / "module\0.spv")):
        with pytest.raises(uta.InvalidInput, match="^uta.CompiledGraph.save: "
                           "path contains a NUL"):
            compiled.save(path)
    assert os.listdir(tmp_path) == []
    compiled.save(tmp_path / "module.spv")  # os.PathLike
    with pytest.raises(uta.InvalidInput, match="manifest_path contains a "
                       "NUL"):
        uta.load(str(tmp_path / "module.spv.json\0ignored"), reference)
    with pytest.raises(uta.InvalidInput, match="^uta.KernelCache: directory "
                       "contains a NUL"):
        uta.KernelCache(str(tmp_path / "cache\0"))
    with pytest.raises(uta.InvalidInput, match="must be a path"):
        uta.KernelCache(None)
    assert sorted(os.listdir(tmp_path)) == ["module.spv", "module.spv.json"]


def test_bound_run_after_release_raises(compiled, reference):
    exe = compiled.load(reference)
    run = exe.bind(*inputs())
    (before,) = run()
    expected = np.from_dlpack(before).copy()
    exe.release()
    # The run held the released handle: it must never reach C again.
    with pytest.raises(uta.InvalidInput, match=r"^uta.Executable @small: "
                       "this bound run's executable was released$"):
        run()
    # The outputs the run allocated are the run's, not the executable's.
    assert np.array_equal(np.from_dlpack(run.outputs[0]), expected)


def test_executable_use_after_release_raises(compiled, reference):
    exe = compiled.load(reference)
    (y,) = exe(*inputs())
    exe.release()
    assert exe.released
    message = "^uta.Executable @small: this executable was released$"
    with pytest.raises(uta.InvalidInput, match=message):
        exe(*inputs())
    with pytest.raises(uta.InvalidInput, match=message):
        exe.bind(*inputs())
    exe.release()  # a second release does nothing
    # A result outlives the executable that made it.
    assert np.from_dlpack(y).shape == (4, 8)


# Every other handle owner.

def test_released_device_graph_compiled_and_cache_refuse_use(tmp_path,
                                                              compiled):
    device = uta.device("reference")
    exe = compiled.load(device)
    device.release()
    for use in (lambda: device.load(str(tmp_path / "none.json")),
                lambda: compiled.load(device),
                lambda: uta.compile(small_graph(), device=device)):
        with pytest.raises(uta.InvalidInput, match="^uta.Device: this device "
                           "was released$"):
            use()
    # An executable keeps its own hold on the device.
    (y,) = exe(*inputs())
    assert np.all(np.isfinite(np.from_dlpack(y)))

    g = small_graph("gone")
    (x, _) = g.inputs
    g.release()
    for use in (lambda: g.input([2]), lambda: str(g), lambda: x + x,
                lambda: g.ok, lambda: uta.compile(g, target="spirv")):
        with pytest.raises(uta.InvalidInput, match="^uta.Graph @gone: this "
                           "graph was released$"):
            use()

    mine = uta.compile(small_graph("mine"), target="spirv")
    mine.release()
    for use in (lambda: mine.module, lambda: mine.manifest,
                lambda: mine.save(str(tmp_path / "mine.spv")),
                lambda: mine.load("reference")):
        with pytest.raises(uta.InvalidInput, match="^uta.CompiledGraph "
                           "@mine: this compiled graph was released$"):
            use()
    assert not os.path.exists(tmp_path / "mine.spv")

    cache = uta.KernelCache("")
    cache.release()
    for use in (cache.stats,
                lambda: uta.compile(small_graph(), target="spirv",
                                    cache=cache)):
        with pytest.raises(uta.InvalidInput, match="^uta.KernelCache: this "
                           "kernel cache was released$"):
            use()


# The int, float and string checks.

@pytest.mark.parametrize("index", [True, np.True_, 1.0, "0", None])
def test_int_arguments_refuse_bools_floats_and_strings(index):
    with pytest.raises(uta.InvalidInput, match="^uta.device: index must be "
                       "an integer, got "):
        uta.device("reference", index)


def test_int_arguments_take_numpy_integers(cache):
    assert list(uta.fill_normal(np.int64(6), np.uint64(3), np.int32(1))) == \
        list(uta.fill_normal(6, 3, 1))
    assert uta.device("reference", np.int64(0)).index == 0
    g = uta.Graph("numpy_ints")
    x = g.input([np.int32(4), np.int64(8)])
    assert x.shape == (4, 8)
    assert g.reduce_sum(x, np.array([1])).shape == (4,)
    assert uta.compile(small_graph(), target="spirv", cache=cache,
                       block_size=np.uint32(128)).target == "spirv"


def test_shapes_and_axes_are_checked_per_element():
    g = uta.Graph("shapes")
    for shape, message in (([4, True], r"shape\[1\] must be an integer, got "
                            "bool True"),
                           ([4.0], r"shape\[0\] must be an integer, got "
                            "float 4.0"),
                           (4, "shape must be a sequence of integers, got "
                            "int 4"),
                           ("48", "shape must be a sequence of integers")):
        with pytest.raises(uta.GraphError, match="^input: " + message):
            g.input(shape)
    x = g.input([4, 8])
    with pytest.raises(uta.GraphError, match=r"^reduce_sum: dims\[0\] must "
                       "be an integer"):
        g.reduce_sum(x, [0.5])
    with pytest.raises(uta.GraphError, match="^softmax: dim must be an "
                       "integer, got bool False"):
        g.softmax(x, False)
    with pytest.raises(uta.GraphError, match=r"^gradient: wrt\[0\] must be "
                       "an integer"):
        g.gradient(wrt=[0.0])
    with pytest.raises(uta.GraphError, match="^uta.Algebra: q must be an "
                       "integer, got float 1.5"):
        uta.Algebra(2, 1.5)
    assert g.ok


def test_float_arguments_must_fit_a_c_float():
    g = uta.Graph("floats")
    with pytest.raises(uta.GraphError, match=r"^fill: value = 1e\+39 is past "
                       "float32's range"):
        g.fill([2], 1e39)
    with pytest.raises(uta.GraphError, match="^fill: value must be a real "
                       "number, got str '1'"):
        g.fill([2], "1")
    # A string among a constant's values is one bad value, not a list.
    with pytest.raises(uta.GraphError, match=r"^constant: values\[1\] must "
                       "be a real number, got str 'ab'"):
        g.constant([2], [1.0, "ab"])
    x = g.input([4, 8])
    w = g.input([8])
    with pytest.raises(uta.GraphError, match="^layer_norm: epsilon must be "
                       "a real number, got bool True"):
        g.layer_norm(x, w, w, 1, True)
    # inf and nan are floats a C float holds.
    assert g.constant([2], [float("inf"), float("nan")]).shape == (2,)
    assert g.fill([2], np.float32(0.5)).shape == (2,)
    assert g.ok


def test_strings_refuse_nul_and_other_types():
    with pytest.raises(uta.GraphError, match="^uta.Graph: name contains a "
                       "NUL character"):
        uta.Graph("a\0b")
    with pytest.raises(uta.GraphError, match="^uta.Graph: name must be a "
                       "str, got int 7"):
        uta.Graph(7)
    with pytest.raises(uta.InvalidInput, match="^uta.device: backend "
                       "contains a NUL"):
        uta.device("reference\0cuda")
    with pytest.raises(uta.InvalidInput, match="^uta.compile: sm must be a "
                       "str, got int 90"):
        uta.compile(small_graph(), target="ptx", sm=90)
    with pytest.raises(uta.InvalidInput, match="^uta.compile: graph must be "
                       "a uta.Graph, got str"):
        uta.compile("graph", target="spirv")
    with pytest.raises(uta.InvalidInput, match="unknown target"):
        uta.compile(small_graph(), target=["ptx"])
    with pytest.raises(uta.InvalidInput, match="^uta.load: device must be a "
                       "uta.Device or a backend name, got int"):
        uta.load("x.json", 0)


def test_huge_fill_is_refused_at_once(cache):
    # A splat of 2^40 elements was written out value by value into the
    # manifest: the compile ran without end, its memory growing. Now a
    # kernel fills it, and a fill that large is refused at compile time.
    g = uta.Graph("huge_fill")
    g.output(g.fill([2**20, 2**20], 1.0))
    with pytest.raises(uta.InvalidInput, match="kernels are limited to "
                       r"2\^31 - 1"):
        uta.compile(g, target="spirv", cache=cache)


def test_large_fill_and_aliased_results_run(vulkan, cache):
    # Results that alias (a value twice, an input) and a fill of more than
    # 64 KiB each get a buffer of their own, on host and device buffers.
    g = uta.Graph("aliased")
    x = g.input([4, 8])
    e = g.exp(x)
    g.output(e)
    g.output(x)
    g.output(e)
    g.output(g.fill([160, 128], 0.75))
    exe = uta.compile(g, target="spirv", cache=cache).load(vulkan)
    x_value = np.random.default_rng(3).standard_normal((4, 8)).astype(
        np.float32)
    results = [r.numpy() for r in exe(x_value, poison=True)]
    np.testing.assert_allclose(results[0], np.exp(x_value), rtol=1e-5)
    np.testing.assert_array_equal(results[1], x_value)
    np.testing.assert_allclose(results[2], np.exp(x_value), rtol=1e-5)
    np.testing.assert_array_equal(results[3], np.full((160, 128), 0.75,
                                                      np.float32))
