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
import traceback

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


class Session:
    """The loaded layer, its torch inputs, and the checks' verdicts."""

    def __init__(self, manifest, repeats):
        self.device = uta.device("cuda")
        self.exe = self.device.load(manifest)
        self.repeats = repeats
        self.failures = []
        print(f"device: {self.device.description}")
        print(f"loaded {self.exe} (compiler library here: "
              f"{'yes' if uta._capi.compiler else 'no'})")
        (_, xshape), _, (_, wshape) = self.exe.inputs
        torch.manual_seed(0)
        self.x = torch.randn(*xshape, device="cuda")
        self.y = torch.randn(*xshape, device="cuda")
        self.w = torch.randn(*wshape, device="cuda")
        for _ in range(3):  # warm: the pool, the module, first launches
            self.exe(self.x, self.y, self.w)
        torch.cuda.synchronize()
        self.expected = sgp_formula(self.x.double(), self.y.double(),
                                    self.w.double(), torch)
        self.tolerance = uta.default_tolerance("f32", reduces=True)

    def fail(self, why):
        print(f"FAILED: {why}")
        self.failures.append(why)

    def check_close(self, what, tensor):
        error = rel_l2(tensor.double(), self.expected)
        verdict = "ok" if error <= self.tolerance else "FAILED"
        print(f"{what}: rel_l2 {error:.2e} vs torch float64 "
              f"(tol {self.tolerance:g}) {verdict}")
        if error > self.tolerance:
            self.fail(f"{what} differs from torch float64")

    def zero_copy(self):
        """One run under the profiler: pointers, torch's allocator, copies;
        then out= written in place; both checked against float64."""
        exe, x, y, w = self.exe, self.x, self.y, self.w
        allocated = torch.cuda.memory_allocated()
        with profile(activities=[ProfilerActivity.CPU,
                                 ProfilerActivity.CUDA]) as prof:
            (out,) = exe(x, y, w)
            torch.cuda.synchronize()
        result = torch.from_dlpack(out)
        after = torch.cuda.memory_allocated()
        print(f"output: UTA wrote at 0x{out.data_ptr():x}, torch.from_dlpack "
              f"gives data_ptr 0x{result.data_ptr():x}, device "
              f"{result.device}, shape {list(result.shape)}")
        if result.data_ptr() != out.data_ptr():
            self.fail("torch.from_dlpack moved the output")
        print(f"torch.cuda.memory_allocated: {allocated} bytes before the "
              f"run, {after} after (the output is UTA's memory, viewed by "
              "torch)")
        if after != allocated:
            self.fail("torch allocated memory during the run")
        kernels, copies = cuda_activity(prof)
        print(f"CUDA activity during the run: kernels {kernels}, copies "
              f"{copies}")
        if copies:
            self.fail(f"copies during the run: {copies}")
        if not any(name.startswith(exe.name) for name, _ in kernels):
            self.fail("the profiler saw no UTA kernel")
        self.check_close("result", result)
        target = torch.empty_like(x)
        pointer = target.data_ptr()
        (same,) = exe(x, y, w, out=[target])
        print(f"out=: a torch tensor at 0x{pointer:x} written in place "
              f"(returned as given: {same is target}, data_ptr after "
              f"0x{target.data_ptr():x})")
        self.check_close("out=", target)

    def stream_handshake(self):
        """Inputs written on another torch stream just before the run."""
        side = torch.cuda.Stream()
        big = torch.randn(8192, 8192, device="cuda")
        with torch.cuda.stream(side):
            fresh = torch.empty_like(self.x)
            for _ in range(4):  # keep the side stream busy a while
                big = big @ big * 1e-4
            fresh.copy_(self.x)
            (handed,) = self.exe(fresh, self.y, self.w)
        self.check_close("inputs written on a side stream right before the "
                         "run", torch.from_dlpack(handed))

    def overhead(self):
        """Wall time per call of the cached, loaded graph against the
        kernel's GPU time."""
        exe, x, y, w = self.exe, self.x, self.y, self.w
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for _ in range(20):
                exe(x, y, w)
            torch.cuda.synchronize()
        kernels, _ = cuda_activity(prof)
        kernel_us = sum(us for name, us in kernels
                        if name.startswith(exe.name)) / 20
        timing = []
        exe(x, y, w, timing=timing)
        call_us = per_call_us(lambda: exe(x, y, w), self.repeats)
        bound = exe.bind(x, y, w)
        bound_us = per_call_us(bound, self.repeats)
        # Where exe()'s extra time goes: handing the three inputs over
        # (__dlpack__ with the stream handshake, the checks), no run.
        handover_us = per_call_us(
            lambda: [exe._borrow(t, "input", exe.inputs[i])
                     for i, t in enumerate((x, y, w))], self.repeats)
        print(f"kernel time: {kernel_us:.1f} us a run (profiler, warm L2); "
              f"{timing[0] * 1e3:.1f} us (UTA's timing, cold L2)")
        print(f"exe(x, y, w): {call_us:.1f} us a call, overhead "
              f"{call_us - kernel_us:.1f} us over the kernel")
        print(f"bound run:    {bound_us:.1f} us a call, overhead "
              f"{bound_us - kernel_us:.1f} us over the kernel")
        print(f"of exe()'s time, handing the 3 inputs over (DLPack, stream "
              f"handshake, checks): {handover_us:.1f} us")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("manifest")
    parser.add_argument("--repeats", type=int, default=200)
    args = parser.parse_args()
    session = Session(args.manifest, args.repeats)
    # Each part reports on its own, so one that breaks leaves the others'.
    for part in (session.zero_copy, session.stream_handshake,
                 session.overhead):
        print(f"== {part.__name__}")
        try:
            part()
        except Exception:  # noqa: BLE001 (reported, then the next part)
            traceback.print_exc()
            session.failures.append(f"{part.__name__} raised")
    failures = session.failures
    print("sgp_gpu: " + ("all checks passed" if not failures else
                         f"{len(failures)} checks failed: "
                         + "; ".join(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
