"""uta.nn: the Clifford layers as torch modules, on CPU tensors.

Every module's forward and gradients against the plain-torch layers of
bench/clifford_torch.py in float64 (term by term from the algebra's
Cayley table), Flash Clifford's parameter names and shapes for uta.nn.Layer
(a state_dict of them loads, strictly), training steps with torch.optim,
torch.compile(fullgraph=True), several algebras.
"""
import math
import os
import sys

import pytest

import uta
from conftest import import_torch

torch = import_torch()
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "bench"))
import clifford_torch  # noqa: E402

ALGEBRAS = [(2, 0, 0), (3, 0, 0), (1, 3, 0), (3, 0, 1)]


def seeded(*shape, seed, scale=1.0):
    generator = torch.Generator().manual_seed(seed)
    return torch.randn(*shape, generator=generator) * scale


def reference_layer(signature, x, linear_weight, linear_bias, gp_weight,
                    use_fc):
    """Flash Clifford's Layer in float64 torch."""
    grade, wterms, _ = clifford_torch.algebra(*signature)
    y = torch.bmm(x, linear_weight[torch.tensor(grade)]) + linear_bias
    layer = clifford_torch.fcgp_torch if use_fc else clifford_torch.sgp_torch
    return layer(grade, wterms, x, y, gp_weight)


def assert_close(actual, expected, tolerance, what):
    actual, expected = actual.detach().double(), expected.detach().double()
    assert torch.isfinite(actual).all(), f"{what}: non-finite elements"
    error = ((actual - expected).norm() / expected.norm()).item()
    assert error <= tolerance, f"{what}: rel_l2 {error:.3g} > {tolerance:g}"


def test_path_and_grade_counts_agree_with_the_compiler():
    for signature in ALGEBRAS + [(2, 2, 0), (4, 1, 1)]:
        algebra = uta.Algebra(*signature)
        assert uta.nn._num_paths(algebra) == algebra.num_paths, signature
        grade, _, paths = clifford_torch.algebra(*signature)
        assert uta.nn.functional.blade_grades(algebra) == grade
        assert paths == algebra.num_paths


@pytest.mark.parametrize("use_fc", [False, True], ids=["sgp", "fc"])
@pytest.mark.parametrize("signature", ALGEBRAS, ids=str)
def test_layer_matches_float64_torch(signature, use_fc):
    torch.manual_seed(0)
    layer = uta.nn.Layer(12, algebra=uta.Algebra(*signature), use_fc=use_fc)
    blades = 1 << sum(signature)
    x = seeded(blades, 5, 12, seed=1).requires_grad_()
    with torch.no_grad():
        layer.linear_bias.copy_(seeded(1, 1, 12, seed=2, scale=0.1))
    out = layer(x)
    cotangent = seeded(*out.shape, seed=3)
    params = [x, layer.linear_weight, layer.linear_bias, layer.gp_weight]
    grads = torch.autograd.grad(out, params, cotangent)
    params64 = [p.detach().double().requires_grad_() for p in params]
    out64 = reference_layer(signature, *params64, use_fc)
    grads64 = torch.autograd.grad(out64, params64, cotangent.double())
    assert_close(out, out64, 1e-5, "output")
    for name, grad, grad64 in zip(
            ["x", "linear_weight", "linear_bias", "gp_weight"], grads,
            grads64):
        assert_close(grad, grad64, 1e-4, f"d {name}")


@pytest.mark.parametrize("use_fc", [False, True], ids=["sgp", "fc"])
def test_layer_loads_a_flash_clifford_state_dict(use_fc):
    features, paths = 16, 20
    state = {
        "gp_weight": seeded(*((paths, features, features) if use_fc else
                              (features, paths)), seed=4),
        "linear_weight": seeded(4, features, features, seed=5),
        "linear_bias": seeded(1, 1, features, seed=6),
        "weight_expansion": torch.tensor([0, 1, 1, 1, 2, 2, 2, 3]),
    }
    layer = uta.nn.Layer(features, dims=3, use_fc=use_fc)
    assert {k: tuple(v.shape) for k, v in layer.state_dict().items()} == \
        {k: tuple(v.shape) for k, v in state.items()}
    layer.load_state_dict(state, strict=True)
    x = seeded(8, 3, features, seed=7)
    expected = reference_layer((3, 0, 0), x.double(),
                               *(state[k].double() for k in
                                 ("linear_weight", "linear_bias",
                                  "gp_weight")), use_fc)
    assert_close(layer(x), expected, 1e-5, "loaded layer")


def test_modules_match_their_definitions():
    algebra = uta.Algebra(3, 0)
    grade, wterms, _ = clifford_torch.algebra(3, 0, 0)
    x, y = seeded(8, 4, 6, seed=8), seeded(8, 4, 6, seed=9)
    linear = uta.nn.MultivectorLinear(6, 5, algebra)
    expected = torch.bmm(x.double(), linear.weight.double()[
        torch.tensor(grade)]) + linear.bias.double()
    assert_close(linear(x), expected, 1e-5, "MultivectorLinear")
    for use_fc in (False, True):
        product = uta.nn.GatedProduct(6, algebra, use_fc=use_fc)
        layer = clifford_torch.fcgp_torch if use_fc else \
            clifford_torch.sgp_torch
        assert_close(product(x, y), layer(grade, wterms, x.double(),
                                          y.double(),
                                          product.weight.double()),
                     1e-5, f"GatedProduct use_fc={use_fc}")
    norm = uta.nn.GradeRMSNorm(algebra)
    assert_close(norm(x), clifford_torch.grade_rms_norm(grade, x.double()),
                 1e-5, "GradeRMSNorm")


def test_a_layer_trains_and_compiles():
    torch.manual_seed(1)
    model = torch.nn.Sequential(uta.nn.Layer(8, dims=2),
                                uta.nn.Layer(8, dims=2, use_fc=True))
    x = seeded(4, 16, 8, seed=10)
    target = seeded(4, 16, 8, seed=11)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    losses = []
    for _ in range(20):
        optimizer.zero_grad()
        loss = ((model(x) - target) ** 2).mean()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    assert losses[-1] < 0.9 * losses[0], losses
    compiled = torch.compile(model, fullgraph=True, backend="aot_eager")
    assert_close(compiled(x), model(x), 1e-6, "compiled model")


def test_bad_arguments_raise_uta_errors():
    with pytest.raises(uta.InvalidInput, match="dims"):
        uta.nn.Layer(8, dims=4)
    with pytest.raises(uta.InvalidInput, match="algebra"):
        uta.nn.functional.multivector_linear(seeded(4, 2, 3, seed=0),
                                             seeded(3, 3, 3, seed=0))
    with pytest.raises(uta.GraphError):
        uta.nn.Layer(8, dims=3)(seeded(4, 2, 8, seed=0))  # 4 blades
