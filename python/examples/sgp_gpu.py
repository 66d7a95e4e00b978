"""SGP Cl(3,0) on torch CUDA tensors through the runtime-only package.

For a GPU machine without a compiler: scripts/python-gpu-prepare.sh compiles
the layer here (python/examples/sgp.py --save) and stages the package with
only libuta_c_runtime.so and libuta_runtime.so; this script, run there,

1. loads the module on the cuda device and runs it on torch CUDA tensors
   [8, 4096, 512] (and w [512, 20]), handed over by DLPack;
2. shows that nothing was copied: the output's data pointer as UTA wrote it
   and as torch.from_dlpack sees it, an out= torch tensor written where it
   lies, torch's allocator untouched by the run, and the profiler's CUDA
   activity during the run: UTA's kernel and no memcpy of any kind;
3. shows the stream handshake: inputs written on another torch stream right
   before the run are read after that work, not before;
4. checks the result against the layer written in torch float64;
5. measures, for the cached, loaded graph, the wall time per call from
   Python (exe(x, y, w), and a bound run) against the kernel's GPU time
   from the profiler: the difference is the per-call overhead.

    PYTHONPATH=build/python-gpu python3 python/examples/sgp_gpu.py \\
        build/python-gpu/modules/sgp_cl3.ptx.json

Exit code 0 when every check passes.
"""
import argparse
import os
import sys
import time

import torch
from torch.profiler import ProfilerActivity, profile

import uta

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sgp import rel_l2, sgp_formula  # noqa: E402


def cuda_activity(prof):
    """(kernels, copies) of a profile: names and GPU microseconds."""
    kernels, copies = [], []
    for event in prof.events():
        if event.device_type != torch.autograd.DeviceType.CUDA:
            continue
        name = event.name
        entry = (name, event.time_range.elapsed_us())
        if "memcpy" in name.lower() or "memset" in name.lower():
            copies.append(entry)
        else:
            kernels.append(entry)
    return kernels, copies


def per_call_us(call, repeats):
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(repeats):
        call()
    torch.cuda.synchronize()
    return (time.perf_counter() - start) / repeats * 1e6


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("manifest")
    parser.add_argument("--repeats", type=int, default=200)
    args = parser.parse_args()
    failures = []

    device = uta.device("cuda")
    exe = device.load(args.manifest)
    print(f"device: {device.description}")
    print(f"loaded {exe} (compiler library here: "
          f"{'yes' if uta._capi.compiler else 'no'})")
    (_, xshape), _, (_, wshape) = exe.inputs
    torch.manual_seed(0)
    x = torch.randn(*xshape, device="cuda")
    y = torch.randn(*xshape, device="cuda")
    w = torch.randn(*wshape, device="cuda")
    for _ in range(3):  # warm: pool, module, first-launch costs
        exe(x, y, w)
    torch.cuda.synchronize()

    # 1-2. One run under the profiler; torch's allocator and pointers.
    allocated = torch.cuda.memory_allocated()
    with profile(activities=[ProfilerActivity.CPU,
                             ProfilerActivity.CUDA]) as prof:
        (out,) = exe(x, y, w)
        torch.cuda.synchronize()
    result = torch.from_dlpack(out)
    kernels, copies = cuda_activity(prof)
    print(f"output: UTA wrote at 0x{out.data_ptr():x}, torch.from_dlpack "
          f"gives data_ptr 0x{result.data_ptr():x}, device {result.device}, "
          f"shape {list(result.shape)}")
    if result.data_ptr() != out.data_ptr():
        failures.append("torch.from_dlpack moved the output")
    after = torch.cuda.memory_allocated()
    print(f"torch.cuda.memory_allocated: {allocated} bytes before the run, "
          f"{after} after (the output is UTA's memory, viewed by torch)")
    if after != allocated:
        failures.append("torch allocated memory during the run")
    print(f"CUDA activity during the run: kernels {kernels}, copies "
          f"{copies}")
    if copies:
        failures.append(f"copies during the run: {copies}")
    if not any(name.startswith(exe.name) for name, _ in kernels):
        failures.append("the profiler saw no UTA kernel")
    target = torch.empty_like(x)
    pointer = target.data_ptr()
    exe(x, y, w, out=[target])
    print(f"out=: a torch tensor at 0x{pointer:x} written in place "
          f"(data_ptr after: 0x{target.data_ptr():x})")

    # 4. The result against torch float64.
    expected = sgp_formula(x.double(), y.double(), w.double(), torch)
    tolerance = uta.default_tolerance("f32", reduces=True)
    for what, tensor in (("result", result), ("out=", target)):
        error = rel_l2(tensor.double(), expected)
        verdict = "ok" if error <= tolerance else "FAILED"
        print(f"{what}: rel_l2 {error:.2e} vs torch float64 "
              f"(tol {tolerance:g}) {verdict}")
        if error > tolerance:
            failures.append(f"{what} differs from torch float64")

    # 3. Inputs written on another stream just before the run.
    side = torch.cuda.Stream()
    big = torch.randn(8192, 8192, device="cuda")
    with torch.cuda.stream(side):
        fresh = torch.empty_like(x)
        for _ in range(4):  # keep the side stream busy a while
            big = big @ big * 1e-4
        fresh.copy_(x)
        (handed,) = exe(fresh, y, w)
    error = rel_l2(torch.from_dlpack(handed).double(), expected)
    print(f"inputs written on a side stream right before the run: rel_l2 "
          f"{error:.2e} {'ok' if error <= tolerance else 'FAILED'}")
    if error > tolerance:
        failures.append("the stream handshake did not order the inputs")

    # 5. Per-call overhead of the cached graph.
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(20):
            exe(x, y, w)
        torch.cuda.synchronize()
    kernels, _ = cuda_activity(prof)
    kernel_us = sum(us for name, us in kernels
                    if name.startswith(exe.name)) / 20
    timing = []
    exe(x, y, w, timing=timing)
    call_us = per_call_us(lambda: exe(x, y, w), args.repeats)
    bound = exe.bind(x, y, w)
    bound_us = per_call_us(bound, args.repeats)
    print(f"kernel time: {kernel_us:.1f} us a run (profiler, warm L2); "
          f"{timing[0] * 1e3:.1f} us (UTA's timing, cold L2)")
    print(f"exe(x, y, w): {call_us:.1f} us a call, overhead "
          f"{call_us - kernel_us:.1f} us over the kernel")
    print(f"bound run:    {bound_us:.1f} us a call, overhead "
          f"{bound_us - kernel_us:.1f} us over the kernel")

    for failure in failures:
        print(f"FAILED: {failure}")
    print("sgp_gpu: " + ("all checks passed" if not failures else
                         f"{len(failures)} checks failed"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
