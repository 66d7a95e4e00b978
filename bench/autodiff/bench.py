"""Forward + backward of the Flash Clifford layers: UTA against torch.

    python3 bench/autodiff/bench.py OUT   (OUT from bench/autodiff/prepare.sh)

For SGP in Cl(2,0) [4,4096,512] and Cl(3,0) [8,4096,512] and FCGP in Cl(3,0)
[8,4096,512]: UTA's forward graph and its joint graph @f_fwd_bwd (the
results and the gradients of x, y and the weights), with their kernel
counts; torch's term-by-term layer (bench/clifford_torch.py) forward +
backward, eager and torch.compile, and its kernel count per iteration.
Both sides are timed in the GPU's steady state by one loop: `uta-run
--profile --repeat` over about 350 ms of runs (uta_runner.uta_time_steady)
and that loop in torch (uta_runner.time_like_uta_run: an L2 flush, CUDA
events around the call, a synchronisation), as bench/gemm/bench.py does: a
GPU at its power limit sets its clock by the power drawn.
Then the determinism check: UTA's @f_vjp run 10 times, each in a process of
its own, every gradient compared byte for byte with the first run's.
"""
import filecmp
import os
import re
import subprocess
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from clifford_torch import algebra, fcgp_torch, sgp_torch  # noqa: E402
from uta_runner import time_like_uta_run, uta_time_steady  # noqa: E402

out = sys.argv[1]
dev = "cuda"
torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False


def kernels(name, file):
    text = open(os.path.join(out, name, file + ".stats")).read()
    counts = re.findall(r"(\d+) kernels", text)
    return counts[-1] if counts else "?"


def torch_time(fn):
    for _ in range(3):  # warm-up: torch.compile's first calls compile
        fn()
    torch.cuda.synchronize()
    return time_like_uta_run(fn)


def torch_kernel_count(fn):
    with torch.profiler.profile(
            activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        fn()
        torch.cuda.synchronize()
    return sum(1 for e in prof.events()
               if e.device_type == torch.autograd.DeviceType.CUDA)


print(torch.cuda.get_device_name(), "torch", torch.__version__)
print("| layer | UTA fwd ms (kernels) | UTA fwd+bwd ms (kernels) | torch eager fwd+bwd ms (kernels) | torch.compile fwd+bwd ms |")
print("|---|---|---|---|---|")
for name, p, fc in (("sgp_cl2", 2, False), ("sgp_cl3", 3, False),
                    ("fcgp_cl3", 3, True)):
    grade, wterms, P = algebra(p, 0, 0)
    torch.manual_seed(0)
    x = torch.randn(1 << p, 4096, 512, device=dev)
    y = torch.randn_like(x)
    w = (torch.randn(P, 512, 512, device=dev) / 16 if fc
         else torch.randn(512, P, device=dev))
    for t in (x, y, w):
        t.requires_grad_(True)
    layer = fcgp_torch if fc else sgp_torch
    f = lambda x, y, w: layer(grade, wterms, x, y, w)  # noqa: E731
    g = torch.randn(x.shape[0], 4096, w.shape[-1] if fc else 512, device=dev)

    def step(fn):
        def run():
            z = fn(x, y, w)
            torch.autograd.grad(z, (x, y, w), g)
        return run
    eager = step(f)
    compiled = step(torch.compile(f))
    t_eager = torch_time(eager)
    k_eager = torch_kernel_count(eager)
    t_compiled = torch_time(compiled)
    t_fwd = uta_time_steady(out, name, "fwd.ptx")
    t_joint = uta_time_steady(out, name, "joint.ptx")
    print(f"| {name} [{1 << p},4096,512] f32 | {t_fwd:.3f} ({kernels(name, 'fwd')}) "
          f"| {t_joint:.3f} ({kernels(name, 'joint')}) | {t_eager:.3f} ({k_eager}) "
          f"| {t_compiled:.3f} |", flush=True)
    del x, y, w, g
    torch.cuda.empty_cache()

# Determinism: 10 processes, every gradient byte for byte.
for name in ("sgp_cl3", "fcgp_cl3"):
    dirs = []
    for i in range(10):
        d = os.path.join(out, name, f"det{i}")
        subprocess.run([os.path.join(out, "uta-run"),
                        os.path.join(out, name, "vjp.ptx.json"), "--seed=1",
                        f"--save={d}"], check=True, capture_output=True)
        dirs.append(d)
    files = sorted(os.listdir(dirs[0]))
    same = all(filecmp.cmp(os.path.join(dirs[0], f), os.path.join(d, f),
                           shallow=False) for d in dirs[1:] for f in files)
    print(f"determinism {name} @f_vjp: {len(files)} gradients x 10 processes: "
          f"{'bit-identical' if same else 'DIFFERENT'}")
