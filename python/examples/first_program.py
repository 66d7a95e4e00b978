"""A first program with the uta package: gelu(x + b), built, compiled, run.

Builds the graph op by op, compiles it for the best device here (cuda with a
GPU, else Vulkan, else the float64 reference), runs it on NumPy arrays (host
devices) or torch CUDA tensors (cuda), and compares the result with the
float64 reference device. docs/python.md walks through it.

    PYTHONPATH=build/python python3 python/examples/first_program.py
"""
import sys

import numpy as np

import uta


def main():
    graph = uta.Graph("gelu_bias")
    x = graph.input([37, 61])
    b = graph.input([61])
    graph.output(graph.gelu(x + b))

    try:
        device = uta.device("best")
    except uta.Unavailable:
        device = uta.device("reference")
    reference = uta.device("reference")
    compiled = uta.compile(graph, device=device)
    exe = compiled.load(device)
    oracle = compiled.load(reference)

    rng = np.random.default_rng(0)
    xs = rng.standard_normal((37, 61)).astype(np.float32)
    bs = rng.standard_normal(61).astype(np.float32)
    expected = np.full((37, 61), np.nan, np.float32)
    oracle(xs, bs, out=[expected])

    if device.backend == "cuda":
        import torch  # CUDA tensors in, a CUDA tensor out, no copies
        (y,) = exe(torch.from_numpy(xs).cuda(), torch.from_numpy(bs).cuda())
        result = torch.from_dlpack(y).cpu().numpy()
    else:
        (y,) = exe(xs, bs)
        result = np.from_dlpack(y)  # a view of UTA's memory

    error = np.linalg.norm(result - expected) / np.linalg.norm(expected)
    tolerance = compiled.tolerance()
    print(f"gelu(x + b) on {device.backend} ({device.description}): "
          f"rel_l2 {error:.2e} (tol {tolerance:g})")
    return 0 if error <= tolerance else 1


if __name__ == "__main__":
    sys.exit(main())
