"""Gradient graphs from Python (Graph.gradient, docs/autodiff.md): values
worked by hand and finite differences in float64 NumPy on the reference
device, a run on Vulkan against the reference, the errors, and
uta.torch_function where torch imports.
"""
import math
import sys

import numpy as np
import pytest

import uta
from conftest import (assert_close, import_torch, poisoned_outputs,
                      random_inputs)


def run(graph, device, *inputs):
    """`graph` compiled for and run on `device`, outputs poisoned first."""
    compiled = uta.compile(graph, device=device)
    exe = compiled.load(device)
    out = poisoned_outputs(exe)
    exe(*inputs, out=out)
    return out


def test_hand_worked_gradient(reference):
    g = uta.Graph("fma")
    x, y = g.input([3]), g.input([3])
    g.output(x * y + x)
    xs = np.array([1.5, -2.0, 0.5], np.float32)
    ys = np.array([3.0, 0.25, -1.0], np.float32)
    cotangent = np.array([1.0, 2.0, -0.5], np.float32)
    f = [6.0, -2.5, 0.0]
    dfdx = [4.0, 2.5, 0.0]       # g (y + 1)
    dfdy = [1.5, -4.0, -0.25]    # g x

    vjp = g.gradient()
    assert vjp.name == "fma_vjp" and "func.func @fma_vjp" in str(vjp)
    assert [v.shape for v in vjp.inputs] == [(3,)] * 3
    assert len(vjp.outputs) == 2
    dx, dy = run(vjp, reference, xs, ys, cotangent)
    assert dx.tolist() == dfdx and dy.tolist() == dfdy

    joint = g.gradient(joint=True)
    assert joint.name == "fma_fwd_bwd" and len(joint.outputs) == 3
    assert [r.tolist() for r in run(joint, reference, xs, ys, cotangent)] \
        == [f, dfdx, dfdy]

    (dy,) = run(g.gradient(wrt=[1]), reference, xs, ys, cotangent)
    assert dy.tolist() == dfdy

    # Built on like any graph: dx + dy as a third output.
    vjp.output(vjp.outputs[0] + vjp.outputs[1])
    *_, total = run(vjp, reference, xs, ys, cotangent)
    assert total.tolist() == [a + b for a, b in zip(dfdx, dfdy)]
    # The source graph is unchanged.
    assert len(g.inputs) == 2 and len(g.outputs) == 1 and g.ok


def dense(x, w, b):
    """softmax(gelu(x @ w + b), axis 1) in float64."""
    z = x @ w + b
    erf = np.vectorize(math.erf)
    h = 0.5 * z * (1 + erf(z / math.sqrt(2)))
    e = np.exp(h - h.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def dense_graph():
    g = uta.Graph("dense")
    x, w, b = g.input([3, 4]), g.input([4, 5]), g.input([5])
    g.output(g.softmax(g.gelu(x @ w + b), 1))
    return g


def test_gradient_matches_finite_differences(reference):
    vjp = dense_graph().gradient()
    rng = np.random.default_rng(5)
    inputs = [rng.standard_normal(s).astype(np.float32)
              for s in ((3, 4), (4, 5), (5,))]
    cotangent = rng.standard_normal((3, 5)).astype(np.float32)
    grads = run(vjp, reference, *inputs, cotangent)

    # d/dp of sum(cotangent * dense(...)), one element at a time.
    point = [a.astype(np.float64) for a in inputs]
    step = 1e-6
    for index, grad in enumerate(grads):
        expected = np.zeros(point[index].shape)
        for element in np.ndindex(point[index].shape):
            sides = []
            for sign in (1, -1):
                moved = [p.copy() for p in point]
                moved[index][element] += sign * step
                sides.append(np.sum(cotangent * dense(*moved)))
            expected[element] = (sides[0] - sides[1]) / (2 * step)
        assert_close(grad, expected, 1e-5, f"gradient {index}")


def test_joint_gradient_on_vulkan(reference, vulkan):
    joint = dense_graph().gradient(joint=True)
    compiled = uta.compile(joint, device=vulkan)
    oracle, exe = compiled.load(reference), compiled.load(vulkan)
    inputs = random_inputs(exe, seed=3)
    expected = poisoned_outputs(oracle)
    oracle(*inputs, out=expected)
    results = exe(*inputs, poison=True)
    assert len(results) == 4
    for i, (y, ref) in enumerate(zip(results, expected)):
        assert_close(np.from_dlpack(y), ref, compiled.tolerance(),
                     f"output {i}")


def test_training_pair_equals_the_joint_gradient(reference, vulkan):
    """forward, then backward on the values it saved, on Vulkan: the
    outputs and gradients of the joint graph on the reference."""
    graph = dense_graph()
    pair = graph.training_pair()
    assert isinstance(pair, uta.TrainingPair)
    assert pair.forward.name == "dense_forward"
    assert pair.backward.name == "dense_backward"
    num_inputs = len(graph.inputs)
    assert len(pair.forward.outputs) == 1 + pair.num_residuals
    assert len(pair.backward.inputs) == len(pair.saved) + 1
    assert len(pair.backward.outputs) == num_inputs
    # The matmul's output is a residual; the softmax reads it back.
    assert pair.num_residuals >= 1
    assert all(0 <= i < num_inputs + len(pair.forward.outputs)
               for i in pair.saved)

    joint = graph.gradient(joint=True)
    oracle = uta.compile(joint, device=reference).load(reference)
    forward = uta.compile(pair.forward, device=vulkan).load(vulkan)
    backward = uta.compile(pair.backward, device=vulkan).load(vulkan)
    arguments = random_inputs(oracle, seed=5)
    inputs, cotangent = arguments[:num_inputs], arguments[num_inputs:]
    expected = poisoned_outputs(oracle)
    oracle(*arguments, out=expected)

    # Copies: NumPy's views of DLPack are read-only, which DLPack refuses.
    outputs = [np.array(np.from_dlpack(y))
               for y in forward(*inputs, poison=True)]
    values = inputs + outputs
    saved = [values[i] for i in pair.saved]
    gradients = [np.from_dlpack(d)
                 for d in backward(*saved, *cotangent, poison=True)]
    tolerance = uta.compile(joint, device=vulkan).tolerance()
    for i, (actual, ref) in enumerate(zip(outputs[:1] + gradients, expected)):
        assert_close(actual, ref, tolerance, f"output {i}")


def test_training_pair_errors():
    g = uta.Graph("errs")
    x, y = g.input([2]), g.input([2])
    with pytest.raises(uta.GraphError, match="^training pair: the graph has "
                       "no outputs to differentiate$"):
        g.training_pair()
    g.output(x * y)
    with pytest.raises(uta.GraphError, match=r"^training pair: cannot "
                       r"differentiate with respect to argument #2"):
        g.training_pair(wrt=[2])
    with pytest.raises(uta.GraphError, match=r"^training_pair: wrt\[0\] "
                       "must be at most"):
        g.training_pair(wrt=[2**64])
    pair = g.training_pair(wrt=[1])
    assert len(pair.backward.outputs) == 1 and g.ok


def test_gradient_errors():
    g = uta.Graph("errs")
    x, y = g.input([2]), g.input([2])
    with pytest.raises(uta.GraphError, match="^gradient: the graph has no "
                       "outputs to differentiate$"):
        g.gradient()
    g.output(x * y)
    with pytest.raises(uta.GraphError, match=r"argument #2: @errs has 2 "
                       "arguments"):
        g.gradient(wrt=[2])
    with pytest.raises(uta.GraphError, match=r"argument #-1: @errs has 2"):
        g.gradient(wrt=[0, -1], joint=True)
    with pytest.raises(uta.GraphError, match="argument #1 is listed twice"):
        g.gradient(wrt=[1, 1])
    with pytest.raises(uta.GraphError, match=r"^gradient: wrt\[0\] must be "
                       "at most"):
        g.gradient(wrt=[2**64])
    assert g.ok and g.gradient().ok

    with pytest.raises(uta.GraphError, match="^add: "):
        g.add(x, g.input([3]))
    with pytest.raises(uta.GraphError, match="^gradient: the graph has an "
                       "error: add: "):
        g.gradient()


def test_torch_function(reference):
    torch = import_torch()
    g = dense_graph()
    forward = uta.compile(g, device=reference).load(reference)
    backward = uta.compile(g.gradient(), device=reference).load(reference)
    f = uta.torch_function(forward, backward)
    rng = np.random.default_rng(8)
    arrays = [rng.standard_normal(s).astype(np.float32)
              for s in ((3, 4), (4, 5), (5,))]
    cotangent = torch.from_numpy(rng.standard_normal((3, 5)))

    # The same function in torch's float64 autograd is the reference.
    ours = [torch.tensor(a, requires_grad=True) for a in arrays]
    theirs = [torch.tensor(a, dtype=torch.float64, requires_grad=True)
              for a in arrays]
    y = f(*ours)
    assert y.shape == (3, 5) and y.requires_grad
    x, w, b = theirs
    expected = torch.softmax(torch.nn.functional.gelu(x @ w + b), 1)
    assert_close(y.detach().numpy(), expected.detach().numpy(), 1e-4)
    (y * cotangent.float()).sum().backward()
    (expected * cotangent).sum().backward()
    for i, (a, b) in enumerate(zip(ours, theirs)):
        assert_close(a.grad.numpy(), b.grad.numpy(), 1e-4, f"grad {i}")

    # Inputs outside wrt get none; a cotangent that is a broadcast view.
    only_w = uta.compile(g.gradient(wrt=[1]), device=reference)
    f = uta.torch_function(forward, only_w.load(reference), wrt=[1])
    ours = [torch.tensor(a, requires_grad=True) for a in arrays]
    f(*ours).sum().backward()
    assert ours[0].grad is None and ours[2].grad is None
    assert ours[1].grad.shape == (4, 5)

    with pytest.raises(uta.InvalidInput, match="is not the gradient graph"):
        uta.torch_function(forward, backward, wrt=[1])


def test_torch_function_without_torch(monkeypatch, reference):
    g = dense_graph()
    forward = uta.compile(g, device=reference).load(reference)
    monkeypatch.setitem(sys.modules, "torch", None)  # import torch fails
    with pytest.raises(uta.Unavailable, match="needs torch"):
        uta.torch_function(forward, forward)
