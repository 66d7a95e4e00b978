"""Host time per call of UTA ops through torch, beside torch's own floors.

    python3 bench/torch_ops/overhead.py PACKAGE [--out FILE.md]

PACKAGE is the cases folder that python/tests/torch_cuda_cases.py saves
(scripts/torch-gpu-check.sh prepare): its `gelu` case (1024 elements) and
`fc_layer` case. Each row calls one thing N times on cuda tensors so small
that the GPU waits for the host, and reports the median over repeats of the
wall time per call, in microseconds: what the host spends per call. Rows:
torch's eager gelu, an empty Python torch.library custom op (returns its
input's clone), the UTA gelu op, forward+backward of each through autograd,
the older uta.torch_function path, and the fc_layer training step eager
against its CUDA-graph replay. The UTA rows run on both per-call paths of
uta.custom_op: the C++ extension (libuta_torch.so) and Python.
"""
import argparse
import datetime
import os
import statistics
import sys
import time

import torch

import uta

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python", "tests"))
import torch_cuda_cases  # noqa: E402


def per_call_us(fn, calls=2000, repeats=7):
    for _ in range(50):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        torch.cuda.synchronize()
        times.append((time.perf_counter() - start) / calls * 1e6)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("package")
    parser.add_argument("--out", help="write the table to this .md file")
    args = parser.parse_args()

    def packaged(case):
        return uta.custom_op(torch_cuda_cases.op_name(case),
                             package=os.path.join(args.package, case))

    gelu = packaged("gelu")
    x = torch.randn(1024, device="cuda")
    xg = x.clone().requires_grad_()
    g = torch.randn(1024, device="cuda")

    @torch.library.custom_op("uta_bench::empty", mutates_args=())
    def empty(t: torch.Tensor) -> torch.Tensor:
        return t.clone()

    empty.register_fake(lambda t: torch.empty_like(t))

    # The same with autograd: torch's floor for a Python op's backward.
    @torch.library.custom_op("uta_bench::empty_grad", mutates_args=())
    def empty_grad(t: torch.Tensor) -> torch.Tensor:
        return t.clone()

    empty_grad.register_fake(lambda t: torch.empty_like(t))
    empty_grad.register_autograd(lambda ctx, grad: empty(grad),
                                 setup_context=lambda ctx, inputs, output:
                                 None)

    rows = []

    def row(what, fn, calls=2000):
        rows.append((what, per_call_us(fn, calls)))
        print(f"{what:58s} {rows[-1][1]:9.1f} us", flush=True)

    row("torch eager gelu, forward", lambda: torch.nn.functional.gelu(x))
    row("empty Python torch.library custom op, forward", lambda: empty(x))
    row("torch eager gelu, forward+backward",
        lambda: torch.nn.functional.gelu(xg).backward(g), 1000)
    row("empty Python custom op with autograd, forward+backward",
        lambda: empty_grad(xg).backward(g), 1000)

    want = torch.load(os.path.join(args.package, "fc_layer", "expected.pt"))
    layer = packaged("fc_layer")
    static = [t.cuda().requires_grad_() for t in want["inputs"]]
    cotangents = [t.cuda() for t in want["cotangents"]]

    def step():
        return torch.autograd.grad(layer(*static), static, cotangents)

    # Each UTA row on both per-call paths of uta.custom_op: the C++
    # extension (libuta_torch.so) and Python.
    from uta import _torch_extension
    print("extension:", _torch_extension.status())
    cpp_load = _torch_extension.load
    for path, load in (("C++", cpp_load), ("Python", lambda torch: None)):
        _torch_extension.load = load
        row(f"uta.custom_op gelu, forward ({path})", lambda: gelu(x))
        row(f"uta.custom_op gelu, forward+backward ({path})",
            lambda: gelu(xg).backward(g), 1000)
        # The backward operator takes the op's input, the forward's outputs
        # and residuals (gelu saves none), then the cotangent.
        y = gelu(x)
        row(f"uta.custom_op gelu's backward operator alone ({path})",
            lambda: gelu.levels[1].library_op([x, y, g], 1))
        row(f"fc_layer training step, eager ({path})", step, 200)
    _torch_extension.load = cpp_load

    # The older path: two executables behind a torch.autograd.Function.
    device = uta.device("cuda")
    index = os.path.join(args.package, "gelu")
    manifests = sorted(f for f in os.listdir(index) if f.endswith(".json")
                       and f != "index.json")
    forward, backward = (device.load(os.path.join(index, m))
                         for m in manifests)
    old = uta.torch_function(forward, backward)
    row("uta.torch_function gelu, forward+backward",
        lambda: old(xg).backward(g), 300)

    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):
            step()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        step()
    row("fc_layer training step, CUDA-graph replay", graph.replay, 200)

    # Where the host time of a forward+backward goes.
    import cProfile
    import pstats
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(300):
        gelu(xg).backward(g)
    torch.cuda.synchronize()
    profile.disable()
    pstats.Stats(profile).sort_stats("tottime").print_stats(12)

    if args.out:
        with open(args.out, "w") as out:
            out.write(f"# uta.custom_op host overhead, "
                      f"{datetime.date.today()}\n\n")
            out.write(f"Generated by bench/torch_ops/overhead.py on "
                      f"{torch.cuda.get_device_name()}, torch "
                      f"{torch.__version__}; median over 7 repeats of the "
                      "wall time per call (the GPU waits for the host). "
                      f"Extension: {_torch_extension.status()}.\n\n")
            out.write("| call | us per call |\n|---|---|\n")
            for what, us in rows:
                out.write(f"| {what} | {us:.1f} |\n")


if __name__ == "__main__":
    main()
