"""uta.custom_op on cuda tensors: against the float64 reference interpreter,
on torch's current stream, in torch's memory, captured in CUDA graphs, and
under torch.compile. Skips where torch sees no GPU.

The compiled ops come from the package that torch_cuda_cases.py saves
(UTA_TORCH_PACKAGE, as scripts/torch-gpu-check.sh passes it on the GPU
machine, which has no compiler), or are compiled here where this machine
has both a GPU and the compiler.
"""
import os

import pytest

import uta
import torch_cuda_cases
from conftest import import_torch

torch = import_torch()

pytestmark = [pytest.mark.skipif(not torch.cuda.is_available(),
                                 reason="torch sees no CUDA device"),
              pytest.mark.usefixtures("torch_call_path")]

PACKAGE = os.environ.get("UTA_TORCH_PACKAGE")
_ops = {}


def op(case):
    """The case's op, from its package when there is one."""
    if case not in _ops:
        build, _, _ = torch_cuda_cases.CASES[case]
        package = os.path.join(PACKAGE, case) if PACKAGE else None
        _ops[case] = uta.custom_op(torch_cuda_cases.op_name(case),
                                   None if package else build,
                                   package=package)
    return _ops[case]


def expected(case):
    if PACKAGE:
        return torch.load(os.path.join(PACKAGE, case, "expected.pt"))
    pytest.skip("no package of reference results (UTA_TORCH_PACKAGE)")


def cuda(tensors, requires_grad=False):
    return [t.cuda().requires_grad_(requires_grad) for t in tensors]


def poison_the_allocator(megabytes=256):
    """Fills freed blocks of torch's caching allocator with NaN, so outputs
    it hands out next start as NaN: an element no kernel writes shows."""
    block = torch.full((megabytes << 18,), float("nan"), device="cuda")
    del block


def assert_close(actual, reference, tolerance, what):
    actual = actual.detach().double().cpu()
    reference = reference.double()
    assert torch.isfinite(actual).all(), f"{what}: non-finite elements"
    error = ((actual - reference).norm() / reference.norm()).item()
    assert error <= tolerance, f"{what}: rel_l2 {error:.3g} > {tolerance:g}"


CASES = ["dense", "fc_layer", "sgp_layer", "energy", "gelu"]


@pytest.mark.parametrize("case", CASES)
def test_forward_and_gradients_match_the_reference(case):
    want = expected(case)
    inputs = cuda(want["inputs"], requires_grad=True)
    poison_the_allocator()
    outputs = op(case)(*inputs)
    outputs = outputs if isinstance(outputs, tuple) else (outputs,)
    for i, (y, ref) in enumerate(zip(outputs, want["outputs"])):
        assert_close(y, ref, 1e-5, f"{case} output {i}")
    poison_the_allocator()
    grads = torch.autograd.grad(outputs, inputs, cuda(want["cotangents"]))
    for i, (grad, ref) in enumerate(zip(grads, want["grads"])):
        assert_close(grad, ref, 1e-5, f"{case} d input {i}")


def test_double_backward_matches_the_reference():
    want = expected("energy")
    x, w = cuda(want["inputs"], requires_grad=True)
    (forces,) = torch.autograd.grad(op("energy")(x, w), x, create_graph=True)
    (dw,) = torch.autograd.grad((forces ** 2).sum(), w)
    assert_close(dw, want["double_grad"], 1e-5, "d sum(F^2) / dw")


def test_gradients_are_bit_identical_across_runs():
    want = expected("fc_layer")
    inputs = cuda(want["inputs"], requires_grad=True)
    cotangents = cuda(want["cotangents"])
    first = None
    for _ in range(10):
        grads = torch.autograd.grad(op("fc_layer")(*inputs), inputs,
                                    cotangents)
        if first is None:
            first = [g.clone() for g in grads]
        for g, f in zip(grads, first):
            assert torch.equal(g, f)


def test_runs_on_the_current_stream_in_torch_memory():
    want = expected("dense")
    x, w, b = cuda(want["inputs"])
    stream = torch.cuda.Stream()
    torch.cuda.synchronize()
    before = torch.cuda.memory_allocated()
    with torch.cuda.stream(stream):
        # Queued behind a long matmul on the same stream: UTA must wait for
        # it on the GPU, not on the host.
        big = torch.randn(4096, 4096, device="cuda")
        for _ in range(8):
            big = big @ big / 64
        x_late = x + 0 * big[:64, :96]
        y = op("dense")(x_late, w, b)
        allocated = torch.cuda.memory_allocated()
    stream.synchronize()
    assert_close(y, want["outputs"][0], 1e-5, "output on a side stream")
    # The output is torch's memory (the caching allocator counts it).
    assert allocated - before >= y.numel() * 4
    assert y.untyped_storage().data_ptr() == y.data_ptr()


def test_a_captured_training_step_replays_with_correct_gradients():
    want = expected("fc_layer")
    static = cuda(want["inputs"], requires_grad=True)
    cotangents = cuda(want["cotangents"])
    layer = op("fc_layer")

    def step():
        return torch.autograd.grad(layer(*static), static, cotangents)

    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):  # warm-up, as torch.cuda.graph asks
            step()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        grads = step()
    # New values in the captured inputs, then replay.
    with torch.no_grad():
        for t in static:
            t.mul_(-0.5)
    poison_the_allocator()
    graph.replay()
    torch.cuda.synchronize()
    # The replay read the new values: it equals an eager step on them, bit
    # for bit (the same kernels), and not the captured step's gradients.
    eager = step()
    for i, (grad, now, then) in enumerate(zip(grads, eager, want["grads"])):
        assert torch.equal(grad, now), f"replayed d input {i}"
        assert not torch.allclose(grad.cpu(), then), f"stale d input {i}"


@pytest.mark.parametrize("mode", [None, "reduce-overhead"])
def test_torch_compile_fullgraph_on_cuda(mode):
    want = expected("dense")
    x, w, b = cuda(want["inputs"])
    dense = op("dense")

    def model(x, w, b):
        return torch.cos(3 * dense(x, w, b)).sum(1)

    compiled = torch.compile(model, fullgraph=True, mode=mode)
    for _ in range(3):
        y = compiled(x, w, b)
    torch.cuda.synchronize()
    assert_close(y, model(x, w, b).cpu(), 1e-6, f"compiled ({mode})")


def test_a_view_off_a_16_byte_boundary_runs():
    want = expected("dense")
    x, w, b = cuda(want["inputs"])
    # x one float into a larger block: contiguous, 4 bytes off alignment.
    block = torch.empty(x.numel() + 1, device="cuda")
    block[1:] = x.flatten()
    shifted = block[1:].view(x.shape)
    assert shifted.data_ptr() % 16 != 0
    assert_close(op("dense")(shifted, w, b), want["outputs"][0], 1e-5,
                 "misaligned input")


def test_a_first_call_inside_capture_is_refused_with_a_message():
    want = expected("gelu")
    (x,) = cuda(want["inputs"])
    fresh = torch.randn(7, 1024 // 7 + 3, device="cuda")  # a new signature
    graph = torch.cuda.CUDAGraph()
    with pytest.raises(uta.InvalidInput, match="inside CUDA-graph capture"):
        with torch.cuda.graph(graph):
            op("gelu")(fresh)
    # The op still runs after the aborted capture.
    assert_close(op("gelu")(x), want["outputs"][0], 1e-5, "after capture")


def test_ddp_over_nccl_with_world_size_1_matches_a_plain_run(tmp_path):
    import torch.distributed as dist
    want = expected("dense")
    x, w, b = cuda(want["inputs"])
    dense = op("dense")

    class Dense(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.w = torch.nn.Parameter(w.clone())
            self.b = torch.nn.Parameter(b.clone())

        def forward(self, x):
            return dense(x, self.w, self.b)

    cotangent = cuda(want["cotangents"])[0]
    plain = Dense()
    (plain(x) * cotangent).sum().backward()
    dist.init_process_group("nccl", init_method=f"file://{tmp_path}/init",
                            rank=0, world_size=1)
    try:
        model = torch.nn.parallel.DistributedDataParallel(
            Dense(), device_ids=[torch.cuda.current_device()])
        (model(x) * cotangent).sum().backward()
        torch.cuda.synchronize()
        for name, p in plain.named_parameters():
            got = dict(model.module.named_parameters())[name].grad
            assert torch.equal(got, p.grad), name
    finally:
        dist.destroy_process_group()
