"""uta: build, compile and run UTA graphs from Python (docs/python.md).

A pure-Python package over UTA's C API (include/uta-c) through ctypes, so it
works with any CPython 3.9+ and needs no compiler of its own. Tensors go in
and out through DLPack without copies: torch CUDA tensors on the cuda
device, NumPy arrays (or any host tensor) on the vulkan and reference
devices.

    import numpy as np, uta
    g = uta.Graph("gelu_bias")
    x, b = g.input([4, 8]), g.input([8])
    g.output(g.gelu(x + b))
    dev = uta.device("reference")
    exe = uta.compile(g, device=dev).load(dev)
    (y,) = exe(np.ones((4, 8), np.float32), np.ones(8, np.float32))
    print(np.from_dlpack(y))

Only uta.Device, uta.load and the other runtime parts need nothing but
libuta_c_runtime.so: graphs compiled on one machine run on another that has
just a GPU driver.
"""
from .autograd import torch_function
from .compiler import CompiledGraph, KernelCache, compile
from .errors import (Error, GraphError, InternalError, InvalidInput,
                     Unavailable)
from .graph import Algebra, Graph, TrainingPair, Value
from .runtime import (Device, Executable, Tensor, default_tolerance, device,
                      fill_normal, load)
from .torch_ops import CustomOp, custom_op
from . import nn

__all__ = ["Algebra", "CompiledGraph", "CustomOp", "Device", "Error",
           "Executable",
           "Graph", "GraphError", "InternalError", "InvalidInput",
           "TrainingPair",
           "KernelCache", "Tensor", "Unavailable", "Value", "compile", "custom_op",
           "default_tolerance", "device", "fill_normal", "load",
           "torch_function"]
