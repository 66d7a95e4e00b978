#!/usr/bin/env python3
"""UTA benchmarks on the GPU machine, each beside its same-run baselines.

Run there (it has torch and triton, no compiler):
    python3 bench/bench.py OUT_DIR
where OUT_DIR was filled here by `bench/prepare.sh BUILD OUT_DIR` (compiled
graphs and uta-run). Times are medians in the GPU's steady state, UTA's
and torch's by the same loop: `uta-run --profile --repeat` (CUDA events per
launch, an L2 flush and a synchronisation per run) over about 350 ms of
runs, and that loop in torch (uta_runner.time_like_uta_run); a GPU at its
power limit sets its clock by the power drawn, so both sides run at one
duty cycle. Inputs are random normals (never zeros). Prints a markdown table.
"""
import os
import re
import subprocess
import sys

import torch
import torch.nn.functional as F

import uta_runner
from clifford_torch import algebra, fcgp_torch, sgp_torch

OUT = sys.argv[1]
dev = "cuda"


def uta_time(name, repeat=None, module="k.ptx"):
    """Median total kernel time (ms) of a compiled graph (bench/prepare.sh
    builds): CUDA for a .ptx module, Vulkan for a .spv one. In the steady
    state, as torch is timed, unless a number of runs is given for kernels
    too slow for that (uta_runner.uta_median)."""
    return uta_runner.uta_median(OUT, name, module, repeat)


def uta_check(name, inputs, expected, module="k.ptx"):
    """Runs UTA's graph on `inputs` and returns its relative L2 error against
    `expected` (the torch formula in float64): both compute the same thing."""
    import numpy as np
    d = os.path.join(OUT, name, "check")
    os.makedirs(d, exist_ok=True)
    files = []
    for i, t in enumerate(inputs):
        files.append(os.path.join(d, f"in{i}.npy"))
        np.save(files[-1], t.float().cpu().numpy())
    out = subprocess.run(
        [os.path.join(OUT, "uta-run"), os.path.join(OUT, name, module + ".json"),
         "--inputs=" + ",".join(files), f"--save={d}"], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"uta-run {name}: {out.stderr.strip()}")
    got = torch.from_numpy(np.load(os.path.join(d, "result0.npy"))).double()
    ref = expected.double().cpu()
    return float((got - ref).norm() / ref.norm())


def uta_bytes(name, module="k"):
    """(kernels, bytes moved) of a build, from its `utac --stats` output."""
    text = open(os.path.join(OUT, name, module + ".stats")).read()
    tail = text[text.rfind("with fusion") if module != "nofusion" else text.rfind("without fusion"):]
    kernels = int(re.search(r"(\d+) kernels", tail).group(1))
    moved = int(re.search(r"total (\d+) B moved", tail).group(1))
    return kernels, moved


def cuda_kernels(fn):
    """The number of GPU kernels one call of `fn` launches (torch profiler)."""
    fn()
    torch.cuda.synchronize()
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        fn()
        torch.cuda.synchronize()
    return sum(1 for e in prof.events()
               if e.device_type == torch.autograd.DeviceType.CUDA)


def bench(fn):
    """torch's time, by uta-run's own loop (uta_runner.time_like_uta_run)."""
    return uta_runner.time_like_uta_run(fn)


# --- Clifford algebra for the torch baselines, in the dialect's blade order ---
def sandwich_torch(terms, rev, m, x):
    mx = [0] * x.shape[0]
    for i, j, k, s, _ in terms:
        mx[k] = mx[k] + s * m[i] * x[j]
    y = [0] * x.shape[0]
    for i, j, k, s, _ in terms:
        y[k] = y[k] + (s * rev[j]) * mx[i] * m[j]
    return torch.stack(y)


rows = []
# Copy rate: bytes read + written.
n = 1 << 28
src = torch.randn(n, device=dev)
dst = torch.empty_like(src)
t = bench(lambda: dst.copy_(src))
copy_gbs = 2 * n * 4 / t / 1e6
rows.append(("device-to-device copy 2^28 f32", f"{t:.3f}", "", "", f"{copy_gbs:.0f} GB/s"))
del src, dst

# Elementwise chain, 2^27.
shape = (8192, 16384)
a, b, c, d = (torch.randn(shape, device=dev) for _ in range(4))
chain = lambda a, b, c, d: torch.tanh(F.gelu(a * b + c) * d) + a
chain_c = torch.compile(chain)
te, tc, tu = bench(lambda: chain(a, b, c, d)), bench(lambda: chain_c(a, b, c, d)), uta_time("chain")
bytes_ = 5 * a.numel() * 4
rows.append(("chain tanh(gelu(a*b+c)*d)+a, 2^27", f"{tu:.3f}", f"{te:.3f}", f"{tc:.3f}",
             f"UTA {bytes_ / tu / 1e6:.0f} GB/s = {bytes_ / tu / 1e6 / copy_gbs:.0%} of copy"))
# The SPIR-V row needs NVIDIA's Vulkan driver; a machine without it skips
# the row, saying so, and times the rest.
try:
    tv = uta_time("chain", repeat=10, module="k.spv")
except RuntimeError as error:
    print(f"skipped the SPIR-V row: {error}")
else:
    rows.append(("chain, SPIR-V build on NVIDIA's Vulkan driver", f"{tv:.3f}", "", "",
                 f"UTA {bytes_ / tv / 1e6:.0f} GB/s = {bytes_ / tv / 1e6 / copy_gbs:.0%} of copy; "
                 f"PTX build {tu:.3f} ms"))
if os.path.exists(os.path.join(OUT, "chain", "fastmath.ptx.json")):
    # --fast-math beside the default, same run: time and error against the
    # float64 formula on the same inputs.
    tf = uta_time("chain", module="fastmath.ptx")
    exact = chain(a.double(), b.double(), c.double(), d.double())
    err_default = uta_check("chain", [a, b, c, d], exact)
    err_fast = uta_check("chain", [a, b, c, d], exact, module="fastmath.ptx")
    del exact
    rows.append(("chain, --fast-math (tanh.approx, ex2.approx)", f"{tf:.3f}", "", "",
                 f"default build {tu:.3f} ms; rel. L2 error {err_fast:.1e} "
                 f"(default {err_default:.1e})"))
del a, b, c, d

# linear_bias_gelu 512x768x3072.
x = torch.randn(512, 768, device=dev); w = torch.randn(3072, 768, device=dev); bb = torch.randn(3072, device=dev)
torch.backends.cuda.matmul.allow_tf32 = False
lbg = lambda x, w, b: F.gelu(x @ w.T + b)
lbg_c = torch.compile(lbg)
lerr = uta_check("linear_bias_gelu", (x, w, bb), lbg(x.double(), w.double(), bb.double()))
te, tc, tu = bench(lambda: lbg(x, w, bb)), bench(lambda: lbg_c(x, w, bb)), uta_time("linear_bias_gelu")
rows.append(("linear_bias_gelu 512x768x3072 f32", f"{tu:.3f}", f"{te:.3f}", f"{tc:.3f}",
             f"UTA {2 * 512 * 768 * 3072 / tu / 1e9:.1f} TFLOP/s; rel_l2 {lerr:.1e}"))

for p, nb in ((2, 4), (3, 8)):
    grade, wterms, P = algebra(p, 0, 0)
    x = torch.randn(nb, 4096, 512, device=dev); y = torch.randn_like(x); w = torch.randn(512, P, device=dev)
    f = lambda x, y, w: sgp_torch(grade, wterms, x, y, w)
    fc = torch.compile(f)
    err = uta_check(f"sgp_cl{p}", (x, y, w), f(x.double(), y.double(), w.double()))
    te, tc, tu = bench(lambda: f(x, y, w)), bench(lambda: fc(x, y, w)), uta_time(f"sgp_cl{p}")
    floor = 3 * x.numel() * 4 / copy_gbs / 1e6
    kc = cuda_kernels(lambda: fc(x, y, w))
    rows.append((f"SGP Cl({p},0) [{nb},4096,512]", f"{tu:.3f}", f"{te:.3f}", f"{tc:.3f}",
                 f"floor {floor:.3f} ms; UTA {tu / floor:.2f}x floor; "
                 f"torch.compile runs {kc} kernels; "
                 f"UTA vs torch f64 rel_l2 {err:.1e}"))

for p, nb in ((2, 4), (3, 8)):
    grade, wterms, P = algebra(p, 0, 0)
    x = torch.randn(nb, 4096, 512, device=dev); y = torch.randn_like(x)
    w = torch.randn(P, 512, 512, device=dev) / 16
    f = lambda x, y, w: fcgp_torch(grade, wterms, x, y, w)
    fc = torch.compile(f)
    err = uta_check(f"fcgp_cl{p}", (x, y, w), f(x.double(), y.double(), w.double()))
    te, tc, tu = bench(lambda: f(x, y, w)), bench(lambda: fc(x, y, w)), uta_time(f"fcgp_cl{p}", repeat=5)
    rows.append((f"FCGP Cl({p},0) [{nb},4096,512] f32 (no tf32)", f"{tu:.3f}", f"{te:.3f}", f"{tc:.3f}",
                 f"UTA vs torch f64 rel_l2 {err:.1e}"))

grade, terms, _ = algebra(3, 0, 1)
rev = [(-1) ** (g * (g - 1) // 2) for g in grade]
m = torch.randn(16, 1, device=dev); x = torch.randn(16, 1 << 20, device=dev)
f = lambda m, x: sandwich_torch(terms, rev, m, x)
fc = torch.compile(f)
err = uta_check("sandwich_pga", (m, x), f(m.double(), x.double()))
te, tc, tu = bench(lambda: f(m, x)), bench(lambda: fc(m, x)), uta_time("sandwich_pga")
floor = 2 * x.numel() * 4 / copy_gbs / 1e6
rows.append(("sandwich Cl(3,0,1), 2^20 points", f"{tu:.3f}", f"{te:.3f}", f"{tc:.3f}",
             f"floor {floor:.3f} ms; UTA {tu / floor:.2f}x floor; rel_l2 {err:.1e}"))

# Each pass family's effect: the same graph built with it on and off.
variants = [("k", "default"), ("nofusion", "--uta-fusion=none")]
if os.path.exists(os.path.join(OUT, "chain", "novec.ptx.json")):
    variants.append(("novec", "--uta-vectorize=off"))
family = []
for name in ("chain", "linear_bias_gelu", "sgp_cl3", "sandwich_pga"):
    for module, label in variants:
        kernels, moved = uta_bytes(name, module)
        ms = uta_time(name, repeat=10, module=module + ".ptx")
        family.append((name, label, str(kernels), f"{moved / 1e6:.1f}", f"{ms:.3f}",
                       f"{moved / ms / 1e6:.0f}"))

print("| benchmark | UTA ms | torch eager ms | torch.compile ms | note |")
print("|---|---|---|---|---|")
for r in rows:
    print("| " + " | ".join(r) + " |")
print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}")
print()
print("| graph | build | kernels | MB moved (model) | UTA ms | GB/s |")
print("|---|---|---|---|---|---|")
for r in family:
    print("| " + " | ".join(r) + " |")
