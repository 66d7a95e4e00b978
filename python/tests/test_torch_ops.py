"""uta.custom_op: UTA graphs as torch.library operators on CPU tensors.

Forward and gradients against float64 torch (or, for the Clifford ops, the
float64 reference interpreter and finite differences), torch.library.opcheck
of every op kind, torch.compile with fullgraph (static and dynamic), double
backward, the compiled-graph cache, and the errors. Each runs on the
reference device and on Vulkan (lavapipe on CI). The cuda path runs on the
GPU machine (python/tests/gpu_torch_ops.py).
"""
import itertools

import numpy as np
import pytest

import uta
from conftest import import_torch

torch = import_torch()
pytestmark = pytest.mark.usefixtures("torch_call_path")

_names = itertools.count()


def op_name(what):
    """A name new to torch.library for every op a test makes."""
    return f"uta_test::{what}_{next(_names)}"


@pytest.fixture(params=["reference", "vulkan"])
def host_backend(request):
    if request.param == "vulkan":
        try:
            uta.device("vulkan")
        except uta.Unavailable as error:
            pytest.skip(f"no Vulkan device here: {error}")
    return request.param


def seeded(*shape, seed=0, requires_grad=True):
    generator = torch.Generator().manual_seed(seed)
    x = torch.randn(*shape, generator=generator)
    return x.requires_grad_(requires_grad)


def dense_layer(g, x, w, b):
    return g.softmax(g.gelu(x @ w + b), 1)


def dense_layer_torch(x, w, b):
    return torch.softmax(torch.nn.functional.gelu(x @ w + b), 1)


def assert_close(actual, expected, tolerance, what):
    actual = actual.detach().double()
    expected = expected.detach().double()
    assert torch.isfinite(actual).all(), f"{what}: non-finite elements"
    error = (actual - expected).norm() / expected.norm()
    assert error <= tolerance, f"{what}: rel_l2 {error:.3g} > {tolerance:g}"


def test_forward_and_gradients_match_float64_torch(host_backend):
    op = uta.custom_op(op_name("dense"), dense_layer,
                       host_backend=host_backend)
    x, w, b = seeded(6, 8, seed=1), seeded(8, 5, seed=2), seeded(5, seed=3)
    y = op(x, w, b)
    assert y.dtype == torch.float32 and y.shape == (6, 5)
    cotangent = seeded(6, 5, seed=4, requires_grad=False)
    grads = torch.autograd.grad(y, (x, w, b), cotangent)
    x64, w64, b64 = (t.detach().double().requires_grad_() for t in (x, w, b))
    y64 = dense_layer_torch(x64, w64, b64)
    grads64 = torch.autograd.grad(y64, (x64, w64, b64), cotangent.double())
    assert_close(y, y64, 1e-5, "output")
    for name, grad, grad64 in zip("xwb", grads, grads64):
        assert_close(grad, grad64, 1e-5, f"d{name}")


def test_wrt_gives_gradients_to_those_inputs_only(host_backend):
    op = uta.custom_op(op_name("dense_wrt"), dense_layer, wrt=[1],
                       host_backend=host_backend)
    x, w, b = seeded(4, 8, seed=5), seeded(8, 3, seed=6), seeded(3, seed=7)
    # Not .sum(): the rows of a softmax sum to 1, whose gradient is 0.
    cotangent = seeded(4, 3, seed=8, requires_grad=False)
    (op(x, w, b) * cotangent).sum().backward()
    assert x.grad is None and b.grad is None
    w64 = w.detach().double().requires_grad_()
    (dense_layer_torch(x.detach().double(), w64, b.detach().double()) *
     cotangent.double()).sum().backward()
    assert_close(w.grad, w64.grad, 1e-5, "dw")


def clifford_cases():
    """(what, build, input shapes) of the Clifford op kinds, Cl(3,0)."""
    cl3 = uta.Algebra(3, 0)
    paths = cl3.num_paths
    return [
        ("geometric_product",
         lambda g, a, b: g.geometric_product(cl3, a, b), [(8, 4, 6)] * 2),
        ("weighted_product",
         lambda g, a, b, w: g.weighted_product(cl3, a, b, w),
         [(8, 4, 6), (8, 4, 6), (6, paths)]),
        ("fc_product", lambda g, a, b, w: g.fc_product(cl3, a, b, w),
         [(8, 4, 6), (8, 4, 6), (paths, 6, 5)]),
        ("grade_rms_norm", lambda g, a: g.grade_rms_norm(cl3, a),
         [(8, 4, 6)]),
        ("scalar_gate", lambda g, a: g.scalar_gate(cl3, a), [(8, 4, 6)]),
    ]


def tensor_cases():
    return [
        ("elementwise", lambda g, a, b: g.tanh(a * b + a), [(5, 7)] * 2),
        ("matmul", lambda g, a, b: a @ b, [(5, 7), (7, 3)]),
        ("reduction", lambda g, a: g.reduce_sum(g.exp(a), [1]), [(5, 7)]),
        ("layer_norm", lambda g, a, w, b: g.layer_norm(a, w, b, 1),
         [(5, 7), (7,), (7,)]),
        ("two_outputs", lambda g, a, b: (a + b, g.sigmoid(a) * b),
         [(5, 7)] * 2),
    ]


@pytest.mark.parametrize("what,build,shapes", tensor_cases() +
                         clifford_cases(), ids=lambda case: None)
def test_opcheck_every_op_kind(what, build, shapes):
    # opcheck runs the schema, fake-tensor (static and symbolic sizes),
    # autograd-registration and AOT-dispatch checks against the real run.
    op = uta.custom_op(op_name(what), build, host_backend="reference")
    inputs = [seeded(*shape, seed=s) for s, shape in enumerate(shapes)]
    torch.library.opcheck(op.library_op, (inputs, len(inputs)))


@pytest.mark.parametrize("what,build,shapes", clifford_cases(),
                         ids=lambda case: None)
def test_clifford_gradients_match_finite_differences(what, build, shapes,
                                                     host_backend):
    op = uta.custom_op(op_name(what + "_fd"), build, host_backend=host_backend)
    inputs = [seeded(*shape, seed=10 + s) for s, shape in enumerate(shapes)]
    y = op(*inputs)
    cotangent = seeded(*y.shape, seed=20, requires_grad=False)
    grads = torch.autograd.grad(y, inputs, cotangent)
    # The forward on the float64 reference interpreter, against which the
    # directional derivatives are taken: <cotangent, op(x + e v)>.
    reference = uta.custom_op(op_name(what + "_ref"), build,
                              host_backend="reference")
    rng = np.random.default_rng(30)
    for i, (x, grad) in enumerate(zip(inputs, grads)):
        direction = torch.from_numpy(
            rng.standard_normal(tuple(x.shape)).astype(np.float32))
        eps = 1e-2
        shifted = [t.detach() for t in inputs]

        def loss(scale):
            args = list(shifted)
            args[i] = shifted[i] + scale * eps * direction
            return (reference(*args).double() * cotangent.double()).sum()

        numeric = (loss(1) - loss(-1)) / (2 * eps)
        analytic = (grad.double() * direction.double()).sum()
        assert abs(numeric - analytic) <= 2e-3 * max(1.0, abs(analytic)), \
            f"d input {i}: finite difference {numeric:.6g}, gradient " \
            f"{analytic:.6g}"


def test_clifford_forward_matches_the_reference_interpreter(host_backend):
    for what, build, shapes in clifford_cases():
        op = uta.custom_op(op_name(what + "_fwd"), build,
                           host_backend=host_backend)
        reference = uta.custom_op(op_name(what + "_fwd_ref"), build,
                                  host_backend="reference")
        inputs = [seeded(*shape, seed=40 + s, requires_grad=False)
                  for s, shape in enumerate(shapes)]
        assert_close(op(*inputs), reference(*inputs), 1e-5, what)


def test_double_backward_matches_float64_torch(host_backend):
    # The force-matching pattern: E(x, w), F = -dE/dx, loss(F), d loss/dw.
    op = uta.custom_op(op_name("energy"),
                       lambda g, x, w: g.reduce_sum(g.tanh(x @ w), [0, 1]),
                       host_backend=host_backend)
    x, w = seeded(6, 4, seed=50), seeded(4, 3, seed=51)
    energy = op(x, w)
    (forces,) = torch.autograd.grad(-energy, x, create_graph=True)
    (dw,) = torch.autograd.grad((forces ** 2).sum(), w)
    x64, w64 = (t.detach().double().requires_grad_() for t in (x, w))
    energy64 = torch.tanh(x64 @ w64).sum()
    (forces64,) = torch.autograd.grad(-energy64, x64, create_graph=True)
    (dw64,) = torch.autograd.grad((forces64 ** 2).sum(), w64)
    assert_close(forces, forces64, 1e-5, "forces")
    assert_close(dw, dw64, 1e-5, "d loss / dw")


def test_eager_calls_run_the_graphs_without_their_operators(
        monkeypatch, torch_call_path):
    # Eagerly, the op runs through an autograd node of its own (C++, or a
    # torch.autograd.Function on the Python path), and a backward that
    # records nothing runs the gradient graph directly: neither pays for
    # torch.library's Python autograd layers. With create_graph the gradient
    # graph's operator runs (its own backward is the double backward): the
    # C++ node calls it through the dispatcher, which these counters (on
    # the Python attribute) do not see. Under torch.compile both operators
    # run (the tests above).
    op = uta.custom_op(op_name("direct"), lambda g, x: g.tanh(x) * x,
                       host_backend="reference")
    calls = {0: 0, 1: 0}

    class Counting:
        def __init__(self, level):
            self.level, self.traced = level, op.levels[level].library_op

        def __call__(self, *args):
            calls[self.level] += 1
            return self.traced(*args)

        def __getattr__(self, name):
            return getattr(self.traced, name)

    for level in (0, 1):
        monkeypatch.setattr(op.levels[level], "library_op", Counting(level))
    x = seeded(5, seed=70)
    (plain,) = torch.autograd.grad(op(x).sum(), x)
    assert calls == {0: 0, 1: 0}
    (recorded,) = torch.autograd.grad(op(x).sum(), x, create_graph=True)
    through_python = 1 if torch_call_path == "python" else 0
    assert calls == {0: 0, 1: through_python} and recorded.requires_grad
    (second,) = torch.autograd.grad(recorded.sum(), x)
    x64 = x.detach().double().requires_grad_()
    (expected,) = torch.autograd.grad((torch.tanh(x64) * x64).sum(), x64,
                                      create_graph=True)
    (expected_second,) = torch.autograd.grad(expected.sum(), x64)
    assert_close(plain, expected, 1e-6, "plain backward")
    assert_close(recorded, expected, 1e-6, "recorded backward")
    assert_close(second, expected_second, 1e-5, "double backward")
    # The operator's results are the same.
    with torch.no_grad():
        assert torch.equal(op(x), op.library_op([x], 1)[0][0])


class DenseModel(torch.nn.Module):
    def __init__(self, op):
        super().__init__()
        self.op = op
        self.w = torch.nn.Parameter(seeded(8, 5, seed=60).detach())
        self.b = torch.nn.Parameter(seeded(5, seed=61).detach())

    def forward(self, x):
        return torch.cos(3 * self.op(x, self.w, self.b)).sum(1)


def test_torch_compile_fullgraph_static():
    op = uta.custom_op(op_name("dense_static"), dense_layer,
                       host_backend="reference")
    model = DenseModel(op)
    compiled = torch.compile(model, fullgraph=True, backend="aot_eager")
    x = seeded(6, 8, seed=62)
    y = compiled(x)
    assert_close(y, model(x), 1e-6, "compiled forward")
    y.sum().backward()
    grad = model.w.grad.clone()
    model.w.grad = None
    model(x).sum().backward()
    assert_close(grad, model.w.grad, 1e-6, "compiled dw")


def test_torch_compile_fullgraph_dynamic_compiles_once(host_backend):
    op = uta.custom_op(op_name("dense_dynamic"), dense_layer,
                       host_backend=host_backend)
    model = DenseModel(op)
    traced = []

    def counting_backend(graph_module, example_inputs):
        traced.append(graph_module)
        return graph_module.forward

    compiled = torch.compile(model, fullgraph=True, dynamic=True,
                             backend=counting_backend)
    for batch in (3, 7, 11):
        x = seeded(batch, 8, seed=batch)
        assert_close(compiled(x), model(x), 1e-6, f"batch {batch}")
    assert len(traced) == 1, "a new batch size was traced again"
    # One UTA compile per batch size and level that ran.
    assert op.cache_info()["compiled"] == 3


def test_torch_compile_inductor_dynamic():
    op = uta.custom_op(op_name("dense_inductor"), dense_layer,
                       host_backend="reference")
    model = DenseModel(op)
    compiled = torch.compile(model, fullgraph=True, dynamic=True)
    for batch in (4, 9):
        x = seeded(batch, 8, seed=70 + batch)
        y = compiled(x)
        assert_close(y, model(x), 1e-6, f"inductor batch {batch}")
        y.sum().backward()


def test_the_cache_compiles_each_signature_once():
    op = uta.custom_op(op_name("cached"), lambda g, a: g.exp(a) * a,
                       host_backend="reference")
    for _ in range(3):
        op(seeded(4, 3, requires_grad=False))
    assert op.cache_info()["compiled"] == 1
    op(seeded(5, 3, requires_grad=False))
    op(seeded(4, 3, requires_grad=False).half())
    assert op.cache_info()["compiled"] == 3


def test_bad_inputs_raise_uta_errors():
    op = uta.custom_op(op_name("bad"), lambda g, a, b: a @ b,
                       host_backend="reference")
    a, b = seeded(4, 3, requires_grad=False), seeded(3, 2, requires_grad=False)
    with pytest.raises(uta.InvalidInput, match="float64"):
        op(a.double(), b.double())
    with pytest.raises(uta.InvalidInput, match="not contiguous"):
        op(seeded(3, 4, requires_grad=False).t(), b)
    with pytest.raises(uta.GraphError, match="matmul"):
        op(a, a)
    with pytest.raises(uta.InvalidInput, match="called with 1 tensors"):
        op(a)
    with pytest.raises(uta.InvalidInput):
        uta.custom_op("uta_test::bad_0x", 42)
    with pytest.raises(uta.InvalidInput, match="no outputs"):
        uta.custom_op(op_name("none"), lambda g, a: None)(a)
    name = op_name("twice")
    uta.custom_op(name, lambda g, a: a + a)
    with pytest.raises(uta.InvalidInput, match="twice"):
        uta.custom_op(name, lambda g, a: a + a)
    with pytest.raises(uta.InvalidInput, match="host_backend"):
        uta.custom_op(op_name("host"), lambda g, a: a,
                      host_backend=3)


def test_a_saved_package_runs_without_the_build_function(tmp_path, vulkan):
    name = op_name("packaged")
    op = uta.custom_op(name, dense_layer, host_backend="vulkan")
    x, w, b = seeded(6, 8, seed=80), seeded(8, 5, seed=81), seeded(5, seed=82)
    op.save(tmp_path, [(x, w, b)], levels=(0, 1), target="spirv")
    with pytest.raises(uta.InvalidInput, match="a package of"):
        uta.custom_op(op_name("wrong"), package=tmp_path)
    # What a machine with only the runtime has: the package, no build. (This
    # process has `name` already: the package is renamed.)
    index = (tmp_path / "index.json").read_text()
    (tmp_path / "index.json").write_text(index.replace(name, name + "_loaded"))
    packaged = uta.custom_op(name + "_loaded", package=tmp_path,
                             host_backend="vulkan")
    y = packaged(x, w, b)
    cotangent = seeded(6, 5, seed=83, requires_grad=False)
    grads = torch.autograd.grad(y, (x, w, b), cotangent)
    expected = op(x, w, b)
    expected_grads = torch.autograd.grad(expected, (x, w, b), cotangent)
    assert torch.equal(y, expected)
    for grad, expected_grad in zip(grads, expected_grads):
        assert torch.equal(grad, expected_grad)
    with pytest.raises(uta.InvalidInput, match="no build function"):
        packaged(seeded(7, 8), w, b)
    with pytest.raises(uta.InvalidInput, match="not a uta.custom_op package"):
        uta.custom_op(op_name("nothing"), package=tmp_path / "missing")


def test_wrt_holds_in_the_double_backward():
    # Only w gets gradients: the double backward differentiates w and the
    # cotangent, never x (whose gradient graph need not even exist).
    op = uta.custom_op(op_name("energy_wrt"),
                       lambda g, x, w: g.reduce_sum(g.tanh(x @ w), [0, 1]),
                       wrt=[1], host_backend="reference")
    x, w = seeded(6, 4, seed=90), seeded(4, 3, seed=91)
    (dw,) = torch.autograd.grad(op(x, w), w, create_graph=True)
    (ddw,) = torch.autograd.grad((dw ** 2).sum(), w)
    w64 = w.detach().double().requires_grad_()
    (dw64,) = torch.autograd.grad(torch.tanh(x.detach().double() @ w64).sum(),
                                  w64, create_graph=True)
    (ddw64,) = torch.autograd.grad((dw64 ** 2).sum(), w64)
    assert_close(ddw, ddw64, 1e-5, "d sum(dw^2) / dw")
    for bad in ([], [-1], [0, 0]):
        with pytest.raises(uta.InvalidInput, match="wrt"):
            uta.custom_op(op_name("bad_wrt"), lambda g, x: x, wrt=bad)


def test_equal_symbolic_sizes_trace_once(host_backend):
    # Two inputs whose batch sizes must agree: one symbol for both, so a
    # new batch size reuses the trace.
    op = uta.custom_op(op_name("pair"), lambda g, a, b: g.tanh(a * b),
                       host_backend=host_backend)
    traced = []

    def counting_backend(graph_module, example_inputs):
        traced.append(graph_module)
        return graph_module.forward

    f = torch.compile(lambda a, b: op(a, b) + 1, fullgraph=True,
                      dynamic=True, backend=counting_backend)
    for batch in (5, 9):
        a, b = seeded(batch, 3, seed=batch), seeded(batch, 3, seed=batch + 1)
        assert_close(f(a, b), torch.tanh(a.double() * b.double()) + 1, 1e-6,
                     f"batch {batch}")
    assert len(traced) == 1


def test_the_extension_refuses_stale_ids_and_bad_tensors(torch_call_path):
    if torch_call_path != "extension":
        pytest.skip("the C++ extension's own operators")
    from uta import _torch_extension
    from uta.torch_ops import _extension_call
    extension = _torch_extension.load(torch)
    op = uta.custom_op(op_name("ids"), lambda g, a: g.tanh(a),
                       host_backend="reference")
    x = seeded(3, 4)
    op(x).sum().backward()  # makes the step, its forward and its backward
    (step,) = op._steps.values()
    runner = step.forward.runner_id(extension)
    with pytest.raises(uta.InvalidInput, match="no runner 123456789"):
        _extension_call(extension.run.default, 123456789, [x])
    with pytest.raises(uta.InvalidInput, match="no step 123456789"):
        _extension_call(extension.step.default, 123456789, [x])
    with pytest.raises(uta.InvalidInput, match="takes 1 tensors, got 2"):
        _extension_call(extension.run.default, runner, [x, x])
    with pytest.raises(uta.InvalidInput,
                       match=r"input 0 is torch.float32 \[4, 3\], expected "
                             r"torch.float32 \[3, 4\]"):
        _extension_call(extension.run.default, runner,
                        [seeded(4, 3, requires_grad=False)])
    with pytest.raises(uta.InvalidInput, match="no executable"):
        _extension_call(extension.runner_new, 0, "x", torch.device("cpu"))
    with pytest.raises(uta.InvalidInput, match="num_outputs -1 is negative"):
        _extension_call(extension.step_new, runner, -1, [], [], "x")
    # A released runner is gone for new calls; the step that holds it
    # still runs.
    assert extension.release(runner) and not extension.release(runner)
    with pytest.raises(uta.InvalidInput, match="no runner"):
        _extension_call(extension.run.default, runner, [x])
    step.forward._extension = None  # released above: made again on use
    (grad,) = torch.autograd.grad(op(x).sum(), x)
    assert_close(grad, 1 - torch.tanh(x.detach().double()) ** 2, 1e-5,
                 "after release")
