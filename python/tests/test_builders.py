"""Every builder of uta.Graph, built, compiled and run from Python.

Each case is a small graph around one builder: its inferred type is checked,
then it is compiled for SPIR-V and run on the float64 reference and on Vulkan
(lavapipe here) with NumPy arrays in and out (outputs poisoned first), and
the two are compared with the tolerance of ``utac run --check``. A builder
of uta.Graph without a case here fails test_every_builder_has_a_case.
"""
import ctypes
import os

import numpy as np
import pytest

import uta
from conftest import assert_close, poisoned_outputs, random_inputs

CL3 = uta.Algebra(3, 0, 0)
MV = (8, 6)            # a Cl(3,0) multivector batch, blade axis 0
LAYER = (8, 3, 5)      # [2^n, B, F] of the layer ops


def positive(g, x):
    """|x| + 0.5: a domain for log, sqrt, rsqrt and pow's base."""
    return g.add(g.abs(x), g.fill([1], 0.5))


# name: (input shapes, build(g, *inputs) -> value, result shape)
CASES = {
    "constant": ([(2, 3)], lambda g, x: g.add(
        x, g.constant([2, 3], [[1, 2, 3], [4, 5, 6]])), (2, 3)),
    "fill": ([(2, 3)], lambda g, x: g.mul(x, g.fill([2, 3], -1.5)), (2, 3)),
    "add": ([(4, 8), (8,)], lambda g, x, b: g.add(x, b), (4, 8)),
    "sub": ([(4, 8), (4, 1)], lambda g, x, y: g.sub(x, y), (4, 8)),
    "mul": ([(4, 8), (4, 8)], lambda g, x, y: x * y, (4, 8)),
    "div": ([(4, 8), (4, 8)], lambda g, x, y: g.div(x, positive(g, y)),
            (4, 8)),
    "max": ([(4, 8), (4, 8)], lambda g, x, y: g.max(x, y), (4, 8)),
    "min": ([(4, 8), (4, 8)], lambda g, x, y: g.min(x, y), (4, 8)),
    "pow": ([(4, 8), (4, 8)], lambda g, x, y: g.pow(positive(g, x), y),
            (4, 8)),
    "neg": ([(4, 8)], lambda g, x: -x, (4, 8)),
    "abs": ([(4, 8)], lambda g, x: g.abs(x), (4, 8)),
    "sign": ([(4, 8)], lambda g, x: g.sign(x), (4, 8)),
    "exp": ([(4, 8)], lambda g, x: g.exp(x), (4, 8)),
    "log": ([(4, 8)], lambda g, x: g.log(positive(g, x)), (4, 8)),
    "sqrt": ([(4, 8)], lambda g, x: g.sqrt(positive(g, x)), (4, 8)),
    "rsqrt": ([(4, 8)], lambda g, x: g.rsqrt(positive(g, x)), (4, 8)),
    "tanh": ([(4, 8)], lambda g, x: g.tanh(x), (4, 8)),
    "erf": ([(4, 8)], lambda g, x: g.erf(x), (4, 8)),
    "sigmoid": ([(4, 8)], lambda g, x: g.sigmoid(x), (4, 8)),
    "relu": ([(4, 8)], lambda g, x: g.relu(x), (4, 8)),
    "silu": ([(4, 8)], lambda g, x: g.silu(x), (4, 8)),
    "gelu": ([(4, 8)], lambda g, x: g.add(g.gelu(x), g.gelu(x, True)),
             (4, 8)),
    "matmul": ([(5, 7), (7, 3), (3, 7)], lambda g, a, b, bt: g.add(
        a @ b, g.matmul(a, bt, transpose_b=True)), (5, 3)),
    "reduce_sum": ([(4, 6, 5)], lambda g, x: g.reduce_sum(x, [0, 2]), (6,)),
    "reduce_max": ([(4, 6)], lambda g, x: g.reduce_max(x, [1], True),
                   (4, 1)),
    "reduce_mean": ([(4, 6)], lambda g, x: g.reduce_mean(x, [0]), (6,)),
    "softmax": ([(4, 9)], lambda g, x: g.softmax(x, 1), (4, 9)),
    "layer_norm": ([(4, 9), (9,), (9,)],
                   lambda g, x, w, b: g.layer_norm(x, w, b, 1), (4, 9)),
    "transpose": ([(3, 4, 5)], lambda g, x: g.transpose(x, [2, 0, 1]),
                  (5, 3, 4)),
    "reshape": ([(3, 4)], lambda g, x: g.reshape(x, [2, 6]), (2, 6)),
    "broadcast_to": ([(1, 4)], lambda g, x: g.broadcast_to(x, [3, 4]),
                     (3, 4)),
    "cast": ([(4, 8)], lambda g, x: g.cast(x, "f16"), (4, 8)),
    "geometric_product": ([MV, MV], lambda g, a, b: g.geometric_product(
        CL3, a, b), MV),
    "outer_product": ([MV, MV], lambda g, a, b: g.outer_product(CL3, a, b),
                      MV),
    "left_contraction": ([MV, MV], lambda g, a, b: g.left_contraction(
        CL3, a, b), MV),
    "scalar_product": ([MV, MV], lambda g, a, b: g.scalar_product(
        CL3, a, b), (1, 6)),
    "sandwich": ([MV, MV], lambda g, r, x: g.sandwich(CL3, r, x), MV),
    "reverse": ([MV], lambda g, x: g.reverse(CL3, x), MV),
    "grade_involution": ([MV], lambda g, x: g.grade_involution(CL3, x), MV),
    "conjugate": ([MV], lambda g, x: g.conjugate(CL3, x), MV),
    "dual": ([MV], lambda g, x: g.dual(CL3, x), MV),
    "scalar_gate": ([MV], lambda g, x: g.scalar_gate(CL3, x), MV),
    "grade_project": ([(6, 8)], lambda g, x: g.grade_project(
        CL3, x, [0, 2], blade_axis=1), (6, 8)),
    "weighted_product": ([LAYER, LAYER, (5, 20)],
                         lambda g, a, b, w: g.weighted_product(CL3, a, b, w),
                         LAYER),
    "fc_product": ([LAYER, LAYER, (20, 5, 4)],
                   lambda g, a, b, w: g.fc_product(CL3, a, b, w), (8, 3, 4)),
    "grade_rms_norm": ([LAYER], lambda g, x: g.grade_rms_norm(CL3, x),
                       LAYER),
}
# Builders every case uses, so none needs a graph of its own. (A graph that
# only returns its input has no kernel, and its SPIR-V module no entry
# point, which validation refuses.)
IMPLICIT = {"input", "output"}
# Methods that are not ops: whole graphs (test_gradient.py), the handle's
# release (test_hardening.py).
NOT_OPS = {"gradient", "training_pair", "release"}


def test_every_builder_has_a_case():
    builders = {name for name in dir(uta.Graph)
                if not name.startswith("_") and callable(getattr(uta.Graph,
                                                                 name))}
    assert builders - set(CASES) - IMPLICIT - NOT_OPS == set()


def build(name):
    shapes, make, _ = CASES[name]
    g = uta.Graph(f"case_{name}")
    inputs = [g.input(shape) for shape in shapes]
    result = make(g, *inputs)
    g.output(result)
    return g, result


@pytest.mark.parametrize("name", sorted(CASES))
def test_builder_type(name):
    _, result = build(name)
    assert result.shape == CASES[name][2]
    assert result.dtype == (1 if name == "cast" else 0)


@pytest.mark.parametrize("name", sorted(CASES))
def test_builder_runs(name, reference, vulkan, cache):
    g, result = build(name)
    compiled = uta.compile(g, target="spirv", cache=cache)
    oracle = compiled.load(reference)
    exe = compiled.load(vulkan)
    inputs = random_inputs(exe, seed=len(name))
    expected = poisoned_outputs(oracle)
    oracle(*inputs, out=expected)
    actual = poisoned_outputs(exe)
    exe(*inputs, out=actual, poison=True)
    dtype = "f16" if result.dtype == 1 else "f32"
    assert_close(actual[0], expected[0], compiled.tolerance(dtype), name)


def test_f16_tensors(reference, vulkan, cache):
    g = uta.Graph("halves")
    x = g.input([4, 8], "f16")
    y = g.input([8], "f16")
    g.output(g.add(x, y))
    compiled = uta.compile(g, target="spirv", cache=cache)
    rng = np.random.default_rng(5)
    xs = rng.standard_normal((4, 8)).astype(np.float16)
    ys = rng.standard_normal(8).astype(np.float16)
    for device in (reference, vulkan):
        (total,) = compiled.load(device)(xs, ys)
        assert total.dtype == "f16"
        assert_close(np.from_dlpack(total),
                     xs.astype(np.float64) + ys.astype(np.float64), 1e-2)


def test_bf16_tensors(reference):
    # SPIR-V has no bf16 here; the reference interprets the graph, whatever
    # target it was compiled for.
    g = uta.Graph("brain")
    x = g.input([4, 8])
    g.output(g.cast(x, "bf16"))
    compiled = uta.compile(g, target="ptx")
    exe = compiled.load(reference)
    assert exe.outputs == [(2, (4, 8))]
    xs = np.random.default_rng(6).standard_normal((4, 8)).astype(np.float32)
    (brain,) = exe(xs)
    assert brain.dtype == "bf16"
    # NumPy has no bf16: widen its bit patterns by hand.
    bits = np.frombuffer(ctypes.string_at(brain.data_ptr(), 4 * 8 * 2),
                         np.uint16)
    widened = (bits.astype(np.uint32) << 16).view(np.float32)
    assert_close(widened.reshape(4, 8), xs.astype(np.float64), 1e-2)


def test_every_cpp_builder_is_in_python():
    """Each builder that include/uta/Graph.h declares (a method returning a
    Tensor, or output) has a method of uta.Graph, named in snake_case: a
    builder added to the C++ API without the C API and the package fails
    here."""
    header = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                          "..", "include", "uta", "Graph.h")
    builders = {"output"}
    with open(header) as text:
        for line in text:
            words = line.split()
            if len(words) >= 2 and words[0] == "Tensor" and "(" in words[1]:
                builders.add(words[1].split("(")[0])
    assert len(builders) > 40
    snake = {"".join("_" + c.lower() if c.isupper() else c for c in name)
             for name in builders}
    missing = {name for name in snake if not hasattr(uta.Graph, name)}
    assert missing == set()
