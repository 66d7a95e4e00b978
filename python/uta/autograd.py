"""UTA graphs as differentiable torch functions: uta.torch_function.

Torch is not a dependency of the package: it is imported when
torch_function is called, and only there. The forward and the backward are
two executables, a graph's and its gradient graph's (Graph.gradient,
docs/autodiff.md); torch's autograd calls the second with
the saved inputs and the outputs' cotangents.

    vjp = graph.gradient()
    f = uta.torch_function(uta.compile(graph, device=dev).load(dev),
                           uta.compile(vjp, device=dev).load(dev))
    y = f(x, w)            # x, w: torch tensors on dev (CPU ones on the
    y.sum().backward()     # reference and vulkan devices)
"""
from ._check import check_ints
from .errors import InvalidInput, Unavailable
from .runtime import Executable, _describe


def _check_signatures(forward, gradient, wrt):
    """The indices of the differentiated inputs, once `gradient` is checked
    to be the (not joint) gradient graph of `forward` for them."""
    for exe, what in ((forward, "forward"), (gradient, "gradient")):
        if not isinstance(exe, Executable):
            raise InvalidInput(f"torch_function: {what} is not a "
                               f"uta.Executable but {type(exe).__name__}")
    # The tensors of the forward pass go to the backward one.
    if forward.device.dlpack_device != gradient.device.dlpack_device:
        raise InvalidInput(f"torch_function: @{forward.name} runs on "
                           f"{forward.device.backend} and @{gradient.name} "
                           f"on {gradient.device.backend}, which take "
                           "tensors of different devices")
    indices = list(range(len(forward.inputs))) if wrt is None else \
        check_ints(wrt, "uta.torch_function", "wrt")
    expected_inputs = forward.inputs + forward.outputs
    expected_outputs = [forward.inputs[i] if 0 <= i < len(forward.inputs)
                        else None for i in indices]
    if (gradient.inputs != expected_inputs or
            gradient.outputs != expected_outputs):
        def signature(types):
            return ", ".join("?" if t is None else _describe(*t)
                             for t in types)
        raise InvalidInput(
            f"torch_function: @{gradient.name} is not the gradient graph of "
            f"@{forward.name} for wrt={indices}: it takes "
            f"({signature(gradient.inputs)}) -> "
            f"({signature(gradient.outputs)}), expected "
            f"({signature(expected_inputs)}) -> "
            f"({signature(expected_outputs)})")
    return indices


def torch_function(forward, gradient, wrt=None):
    """A differentiable torch function (what a torch.autograd.Function's
    apply is) that runs `forward`, an executable of a graph, and, in the
    backward pass, `gradient`, an executable of that graph's
    ``gradient(wrt)`` (not joint), loaded where the same tensors go. Its
    arguments are torch tensors of the forward graph's inputs; it returns
    the output (a tuple when there are several). Inputs outside `wrt` get
    no gradient. Backward is differentiable once (no gradients of
    gradients). Raises uta.Unavailable where torch does not import."""
    try:
        import torch
        from torch.autograd.function import once_differentiable
    except ImportError as error:
        raise Unavailable(f"uta.torch_function needs torch: {error}") \
            from None
    indices = _check_signatures(forward, gradient, wrt)

    class UtaFunction(torch.autograd.Function):
        @staticmethod
        def forward(ctx, *inputs):
            # Torch refuses to export a tensor that requires grad; the
            # detached tensor shares its memory.
            inputs = tuple(x.detach() for x in inputs)
            ctx.save_for_backward(*inputs)
            results = tuple(torch.from_dlpack(y) for y in forward(*inputs))
            return results[0] if len(results) == 1 else results

        @staticmethod
        @once_differentiable
        def backward(ctx, *cotangents):
            inputs = ctx.saved_tensors
            # A cotangent may be a broadcast view (sum().backward() gives
            # one); UTA takes dense row-major tensors.
            cotangents = tuple(g.contiguous() for g in cotangents)
            grads = [None] * len(inputs)
            for index, grad in zip(indices, gradient(*inputs, *cotangents)):
                grads[index] = torch.from_dlpack(grad)
            return tuple(grads)

    UtaFunction.__name__ = UtaFunction.__qualname__ = f"uta_{forward.name}"
    return UtaFunction.apply
