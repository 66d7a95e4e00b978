"""The ops that test_torch_cuda.py runs on cuda tensors, and their package.

The GPU machine has a driver but no compiler, so the work is split as
scripts/gpu-check.sh splits it (scripts/torch-gpu-check.sh):

    python3 torch_cuda_cases.py OUT_DIR [SM]
        here: saves each case's op, compiled for cuda (level 0 and 1, and 2
        where a case needs it) into OUT_DIR/<case>/, with its seeded inputs
        and cotangents and what the float64 reference interpreter makes of
        them (OUT_DIR/<case>/expected.pt);
    UTA_TORCH_PACKAGE=OUT_DIR pytest test_torch_cuda.py
        there: runs them on cuda tensors against those results.
"""
import os
import sys

import uta

CL3 = uta.Algebra(3, 0)
# CL3.num_paths, written out: the GPU machine has no compiler to ask.
CL3_PATHS = 20


def _dense(g, x, w, b):
    return g.softmax(g.gelu(x @ w + b), 1)


def _fc_layer(g, x, y, w):
    # Flash Clifford's fully connected product, normalised per grade.
    return g.grade_rms_norm(CL3, g.fc_product(CL3, g.scalar_gate(CL3, x), y,
                                              w))


def _sgp_layer(g, x, y, w):
    return g.grade_rms_norm(CL3, g.weighted_product(CL3, g.scalar_gate(CL3, x),
                                                    y, w))


def _energy(g, x, w):
    return g.reduce_sum(g.tanh(x @ w), [0, 1])


def _gelu(g, x):
    return g.gelu(x)


# name -> (build, input shapes, levels to compile).
CASES = {
    "dense": (_dense, [(64, 96), (96, 48), (48,)], (0, 1)),
    "fc_layer": (_fc_layer, [(8, 256, 64), (8, 256, 64),
                             (CL3_PATHS, 64, 64)], (0, 1)),
    "sgp_layer": (_sgp_layer, [(8, 512, 64), (8, 512, 64),
                               (64, CL3_PATHS)], (0, 1)),
    "energy": (_energy, [(32, 16), (16, 8)], (0, 1, 2)),
    "gelu": (_gelu, [(1024,)], (0, 1)),
}


def op_name(case):
    return f"uta_gpu::{case}"


def seeded(torch, shape, seed):
    generator = torch.Generator().manual_seed(seed)
    return torch.randn(tuple(shape), generator=generator)


def inputs_of(torch, case):
    _, shapes, _ = CASES[case]
    return [seeded(torch, shape, 100 * i + 1) for i, shape in
            enumerate(shapes)]


def prepare(out, sm):
    import torch
    assert CL3.num_paths == CL3_PATHS
    for case, (build, _, levels) in CASES.items():
        folder = os.path.join(out, case)
        inputs = inputs_of(torch, case)
        op = uta.custom_op(op_name(case), build)
        op.save(folder, [inputs], levels=levels, target="ptx", sm=sm)
        # The float64 interpreter's results on the same seeded inputs.
        reference = uta.custom_op(op_name(case) + "_reference", build,
                                  host_backend="reference")
        leaves = [x.clone().requires_grad_() for x in inputs]
        outputs = reference(*leaves)
        outputs = outputs if isinstance(outputs, tuple) else (outputs,)
        cotangents = [seeded(torch, y.shape, 7 + i)
                      for i, y in enumerate(outputs)]
        grads = torch.autograd.grad(outputs, leaves, cotangents)
        expected = {"inputs": inputs, "cotangents": cotangents,
                    "outputs": [y.detach() for y in outputs],
                    "grads": list(grads)}
        if 2 in levels:
            expected["double_grad"] = double_grad(torch, reference, inputs)
        torch.save(expected, os.path.join(folder, "expected.pt"))


def double_grad(torch, op, inputs):
    """d/dw of sum((dE/dx)^2) for E = op(x, w): the force-matching step."""
    x, w = (t.clone().requires_grad_() for t in inputs)
    (forces,) = torch.autograd.grad(op(x, w), x, create_graph=True)
    (dw,) = torch.autograd.grad((forces ** 2).sum(), w)
    return dw.detach()


if __name__ == "__main__":
    prepare(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "90a")
