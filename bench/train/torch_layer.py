"""UTA's layer on torch tensors, for bench/train: the graph of uta.nn's
Layer (uta.nn.functional.layer_op's) as a uta.custom_op, saved per
configuration as a package here and run from it on the GPU machine, which
has the runtime but no compiler.

    python3 bench/train/torch_layer.py save OUT
        (here, the torch venv's python with build/python on PYTHONPATH) for
        each configuration of OUT/configs.txt, OUT/<name>/op/: the op and
        its backward (the training pair) compiled for sm_90a, tf32
        configurations with allow_tf32;
    training_step(OUT, name, p, kind, precision, batch, features)
        (there, from bench.py) the step uta.nn.Layer runs: the linear weight
        [grades, F, F] expanded per blade (index_select, as the module does),
        the op on x, the expanded weight, the bias and the product weight,
        then torch.autograd.grad of the output against a seeded cotangent
        for all four parameters and x.
"""
import os
import sys

import uta
from uta.nn.functional import _layer_graph, blade_grades

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
from configs import num_paths  # noqa: E402


def op_name(name):
    return f"uta_bench::{name}"


def shapes(p, kind, batch, features):
    """x, the expanded linear weight, the bias and the product weight."""
    blades = 1 << p
    w = ((features, num_paths(p)) if kind == "sgp"
         else (num_paths(p), features, features))
    return [(blades, batch, features), (blades, features, features),
            (1, 1, features), w]


def make_op(p, kind, precision, name, package=None):
    algebra = uta.Algebra(p, 0)
    build = (_layer_graph(algebra, kind == "fc", True, 1e-6)
             if package is None else None)
    return uta.custom_op(op_name(name), build,
                         allow_tf32=precision == "tf32", package=package)


def save(out):
    import torch
    for line in open(os.path.join(out, "configs.txt")):
        name, p, kind, precision, batch, features = line.split()
        p, batch, features = int(p), int(batch), int(features)
        op = make_op(p, kind, precision, name)
        example = [(shape, torch.float32)
                   for shape in shapes(p, kind, batch, features)]
        op.save(os.path.join(out, name, "op"), [example], levels=(0, 1),
                target="ptx", sm="90a")
        print(f"{name}: uta.custom_op package", flush=True)


def training_step(out, name, p, kind, precision, batch, features,
                  device="cuda"):
    """The training step of uta.nn.Layer on seeded tensors: a function of no
    arguments that runs forward and backward."""
    import torch
    op = make_op(p, kind, precision, name,
                 package=os.path.join(out, name, "op"))
    generator = torch.Generator(device=device).manual_seed(0)

    def normal(*shape, scale=1.0):
        return (torch.randn(shape, generator=generator, device=device) *
                scale).requires_grad_()
    grades = p + 1
    x = normal(1 << p, batch, features)
    linear = normal(grades, features, features, scale=features ** -0.5)
    bias = normal(1, 1, features)
    w_shape = shapes(p, kind, batch, features)[3]
    w = normal(*w_shape, scale=1 / features if kind == "fc" else 1.0)
    g = torch.randn(1 << p, batch, features, generator=generator,
                    device=device)
    expansion = torch.tensor(blade_grades(uta.Algebra(p, 0)), device=device)

    def step():
        y = op(x, linear.index_select(0, expansion), bias, w)
        torch.autograd.grad(y, (x, linear, bias, w), g)
    return step


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "save":
        sys.exit("usage: torch_layer.py save OUT")
    save(sys.argv[2])
