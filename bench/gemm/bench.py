#!/usr/bin/env python3
"""The GEMM engine beside cuBLAS (through torch), in one run on one GPU.

Run on the GPU machine (torch and triton, no compiler):
    [UTA_FLASH_CLIFFORD=DIR] python3 bench/gemm/bench.py OUT_DIR
where OUT_DIR was filled here by `bench/gemm/prepare.sh BUILD OUT_DIR` and
DIR, if given, is a checkout of Flash Clifford (timed beside FCGP).
Times are medians in the GPU's steady state, UTA's and its baselines' by
the same loop: `uta-run --profile --repeat` (CUDA events around the
launches, the L2 flushed before each run of the graph, a synchronisation
after it) over as many runs as make about 350 ms, and the same loop in
torch for cuBLAS, torch.compile and Flash Clifford
(uta_runner.time_like_uta_run). A GPU at its power limit sets its clock by
the power drawn, so both sides must run at one duty cycle: a short burst
times a kernel before the clock comes down, and do_bench's loop (a larger
flush, no synchronisation) draws less power between calls than uta-run's.
Errors are relative L2 norms against the float64 product of the same
inputs (random normals), for UTA and for cuBLAS. Prints a markdown table
with TFLOP/s and the fraction of the H100 SXM's dense peak for the
arithmetic used.
"""
import importlib.util
import os
import subprocess
import sys

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import uta_runner  # noqa: E402
from clifford_torch import algebra, fcgp_torch  # noqa: E402

OUT = sys.argv[1]
dev = "cuda"
# H100 SXM dense peaks (TFLOP/s): tensor cores per input type, and the f32
# FMA pipes that cuBLAS SGEMM and UTA's SIMT GEMM use.
PEAK = {"bf16": 989.0, "f16": 989.0, "tf32": 494.7, "f32": 66.9}


def uta_time(name, module, repeat=None):
    """Steady-state time, as the baselines are timed, or the median of
    `repeat` runs where a row's kernels are too slow for that
    (uta_runner.uta_median)."""
    return uta_runner.uta_median(OUT, name, module, repeat)


def uta_result(name, module, inputs):
    """UTA's result of `inputs` (torch tensors), as float64 on the GPU."""
    d = os.path.join(OUT, name, "check-" + module.replace(".", "-"))
    os.makedirs(d, exist_ok=True)
    files = []
    for i, t in enumerate(inputs):
        files.append(os.path.join(d, f"in{i}.npy"))
        np.save(files[-1], t.float().cpu().numpy())
    out = subprocess.run(
        [os.path.join(OUT, "uta-run"), os.path.join(OUT, name, module + ".json"),
         "--inputs=" + ",".join(files), f"--save={d}"],
        capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"uta-run {name}/{module}: {out.stderr.strip()}")
    return torch.from_numpy(np.load(os.path.join(d, "result0.npy"))).to(dev).double()


def rel(got, ref):
    return float((got.double() - ref).norm() / ref.norm())


def bench(fn):
    """A baseline's time, by uta-run's own loop (uta_runner.time_like_uta_run)."""
    return uta_runner.time_like_uta_run(fn)


def tflops(flops, ms):
    return flops / (ms * 1e-3) / 1e12


rows = []


def row(workload, kind, uta_ms, base_name, base_ms, flops, uta_err="", base_err=""):
    u, b = tflops(flops, uta_ms), tflops(flops, base_ms)
    rows.append((workload, f"{uta_ms:.3f}", f"{u:.1f} ({u / PEAK[kind]:.0%})",
                 base_name, f"{base_ms:.3f}", f"{b:.1f}", f"{base_ms / uta_ms:.2f}x",
                 uta_err, base_err))


torch.manual_seed(0)
torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False

# Square matmuls, B given [N, K] as in the graphs.
for dtype, kind, n in ((torch.bfloat16, "bf16", 8192), (torch.float16, "f16", 8192)):
    a = torch.randn(n, n, device=dev, dtype=dtype)
    b = torch.randn(n, n, device=dev, dtype=dtype)
    name = f"matmul_{kind}_{n}"
    cublas = bench(lambda: a @ b.T)
    row(f"matmul {n}^3 {kind} (wgmma)", kind, uta_time(name, "k.ptx"), "cuBLAS",
        cublas, 2 * n**3)
    row(f"matmul {n}^3 {kind} (mma.sync)", kind, uta_time(name, "mma.ptx"), "cuBLAS",
        cublas, 2 * n**3)

# linear_bias_gelu 8192x4096x4096 bf16: UTA's one kernel (GEMM + epilogue)
# beside torch.compile.
M, K, N = 8192, 4096, 4096
x16 = torch.randn(M, K, device=dev, dtype=torch.bfloat16)
w16 = (torch.randn(N, K, device=dev) / K**0.5).to(torch.bfloat16)
b16 = torch.randn(N, device=dev, dtype=torch.bfloat16)
lbg16 = torch.compile(lambda x, w, b: F.gelu(x @ w.T + b))
ref16 = F.gelu(x16.double() @ w16.double().T + b16.double())
name = "linear_bias_gelu_bf16_8192"
row("linear_bias_gelu 8192x4096x4096 bf16", "bf16", uta_time(name, "k.ptx"),
    "torch.compile bf16", bench(lambda: lbg16(x16, w16, b16)), 2 * M * N * K,
    f"{rel(uta_result(name, 'k.ptx', (x16, w16, b16)), ref16):.1e}",
    f"{rel(lbg16(x16, w16, b16), ref16):.1e}")
del x16, w16, b16, ref16

n = 4096
a = torch.randn(n, n, device=dev)
b = torch.randn(n, n, device=dev)
ref = a.double() @ b.double().T
name = "matmul_f32_4096"
cublas_f32 = bench(lambda: a @ b.T)
cublas_f32_err = rel(a @ b.T, ref)
for module, path in (("k.ptx", "wgmma"), ("mma.ptx", "mma.sync")):
    row(f"matmul 4096^3 f32 accurate (3xTF32, {path})", "tf32", uta_time(name, module),
        "cuBLAS f32", cublas_f32, 2 * n**3,
        f"{rel(uta_result(name, module, (a, b)), ref):.1e}", f"{cublas_f32_err:.1e}")
torch.backends.cuda.matmul.allow_tf32 = True
cublas_tf32 = bench(lambda: a @ b.T)
cublas_tf32_err = rel(a @ b.T, ref)
torch.backends.cuda.matmul.allow_tf32 = False
for module, path in (("tf32.ptx", "wgmma"), ("mma-tf32.ptx", "mma.sync")):
    row(f"matmul 4096^3 f32 --allow-tf32 ({path})", "tf32", uta_time(name, module),
        "cuBLAS tf32", cublas_tf32, 2 * n**3,
        f"{rel(uta_result(name, module, (a, b)), ref):.1e}", f"{cublas_tf32_err:.1e}")
# The SPIR-V row needs NVIDIA's Vulkan driver; a machine without it skips
# the row, saying so, and times the rest.
try:
    spv_ms = uta_time(name, "k.spv", repeat=5)
except RuntimeError as error:
    print(f"skipped the SPIR-V row: {error}")
else:
    row("matmul 4096^3 f32, SPIR-V on NVIDIA Vulkan (SIMT)", "f32", spv_ms,
        "cuBLAS f32", cublas_f32, 2 * n**3,
        f"{rel(uta_result(name, 'k.spv', (a, b)), ref):.1e}", f"{cublas_f32_err:.1e}")

# linear_bias_gelu 512x768x3072, f32 (accurate) and tf32.
M, K, N = 512, 768, 3072
x = torch.randn(M, K, device=dev)
w = torch.randn(N, K, device=dev) / K**0.5
bb = torch.randn(N, device=dev)


def lbg(x, w, b):
    return F.gelu(x @ w.T + b)


lbg_c = torch.compile(lbg)
ref = lbg(x.double(), w.double(), bb.double())
name = "linear_bias_gelu"
row("linear_bias_gelu 512x768x3072 f32 accurate", "tf32", uta_time(name, "k.ptx"),
    "torch.compile f32", bench(lambda: lbg_c(x, w, bb)), 2 * M * N * K,
    f"{rel(uta_result(name, 'k.ptx', (x, w, bb)), ref):.1e}",
    f"{rel(lbg_c(x, w, bb), ref):.1e}")
row("linear_bias_gelu 512x768x3072 f32 accurate (mma.sync)", "tf32", uta_time(name, "mma.ptx"),
    "torch.compile f32", bench(lambda: lbg_c(x, w, bb)), 2 * M * N * K,
    f"{rel(uta_result(name, 'mma.ptx', (x, w, bb)), ref):.1e}")
row("linear_bias_gelu 512x768x3072 f32, eager torch", "tf32", uta_time(name, "k.ptx"),
    "eager f32", bench(lambda: lbg(x, w, bb)), 2 * M * N * K)
torch.backends.cuda.matmul.allow_tf32 = True
torch._dynamo.reset()
lbg_t = torch.compile(lbg)
row("linear_bias_gelu 512x768x3072 --allow-tf32", "tf32", uta_time(name, "tf32.ptx"),
    "torch.compile tf32", bench(lambda: lbg_t(x, w, bb)), 2 * M * N * K,
    f"{rel(uta_result(name, 'tf32.ptx', (x, w, bb)), ref):.1e}",
    f"{rel(lbg_t(x, w, bb), ref):.1e}")
row("linear_bias_gelu 512x768x3072 --allow-tf32 (mma.sync)", "tf32",
    uta_time(name, "mma-tf32.ptx"), "torch.compile tf32", bench(lambda: lbg_t(x, w, bb)),
    2 * M * N * K, f"{rel(uta_result(name, 'mma-tf32.ptx', (x, w, bb)), ref):.1e}")
torch.backends.cuda.matmul.allow_tf32 = False

# FCGP: gates, fc_product on the GEMM engine, grade_rms_norm. Beside it
# torch's term-by-term formula (eager and torch.compile) always, and Flash
# Clifford's fused layer (its Triton kernels around a batched matmul) where
# UTA_FLASH_CLIFFORD names a checkout of it: its ops/fc_p2m0.py and
# ops/fc_p3m0.py, loaded by path, timed with the same inputs and weights.
def flash_clifford_fcgp(p):
    root = os.environ.get("UTA_FLASH_CLIFFORD")
    if not root:
        return None
    path = os.path.join(root, "ops", f"fc_p{p}m0.py")
    spec = importlib.util.spec_from_file_location(f"flash_clifford_fc_p{p}m0", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    layer = getattr(module, f"fused_gelu_fcgp_norm_{p}d")
    return lambda x, y, w: layer(x, y, w, True)


print(f"Flash Clifford: {os.environ.get('UTA_FLASH_CLIFFORD') or 'not given (UTA_FLASH_CLIFFORD)'}")
for p, nb in ((2, 4), (3, 8)):
    grade, wterms, P = algebra(p, 0, 0)
    x = torch.randn(nb, 4096, 512, device=dev)
    y = torch.randn_like(x)
    w = torch.randn(P, 512, 512, device=dev) / 16
    f = lambda x, y, w: fcgp_torch(grade, wterms, x, y, w)
    fc = torch.compile(f)
    ref = f(x.double(), y.double(), w.double())
    name = f"fcgp_cl{p}"
    slots = {(i, k, grade[i], grade[j]) for i, j, k, s, _ in wterms}
    flops = 2 * 4096 * 512 * 512 * len({(k, gi, gj) for _, k, gi, gj in slots})
    flash = flash_clifford_fcgp(p)
    uta_ms = uta_time(name, "k.ptx")
    uta_err = f"{rel(uta_result(name, 'k.ptx', (x, y, w)), ref):.1e}"
    row(f"FCGP Cl({p},0) [{nb},4096,512] accurate", "tf32", uta_ms,
        "torch.compile f32", bench(lambda: fc(x, y, w)), flops, uta_err,
        f"{rel(fc(x, y, w), ref):.1e}")
    if flash:
        row(f"FCGP Cl({p},0) [{nb},4096,512] accurate", "tf32", uta_ms,
            "Flash Clifford f32", bench(lambda: flash(x, y, w)), flops, uta_err,
            f"{rel(flash(x, y, w), ref):.1e}")
    torch.backends.cuda.matmul.allow_tf32 = True
    torch._dynamo.reset()
    ft = torch.compile(f)
    uta_ms = uta_time(name, "tf32.ptx")
    uta_err = f"{rel(uta_result(name, 'tf32.ptx', (x, y, w)), ref):.1e}"
    row(f"FCGP Cl({p},0) [{nb},4096,512] --allow-tf32", "tf32", uta_ms,
        "torch.compile tf32", bench(lambda: ft(x, y, w)), flops, uta_err,
        f"{rel(ft(x, y, w), ref):.1e}")
    if flash:
        row(f"FCGP Cl({p},0) [{nb},4096,512] --allow-tf32", "tf32", uta_ms,
            "Flash Clifford tf32", bench(lambda: flash(x, y, w)), flops, uta_err,
            f"{rel(flash(x, y, w), ref):.1e}")
    torch.backends.cuda.matmul.allow_tf32 = False
    del x, y, w, ref

# The table rows named in UTA_GEMM_CONFIGS at prepare time, beside the
# heuristic's choice of the same graph and precision.
for name in sorted(os.listdir(OUT)):
    d = os.path.join(OUT, name)
    if not os.path.isdir(d):
        continue
    for build in sorted(f for f in os.listdir(d) if f.startswith("cfg-") and f.endswith(".ptx")):
        default = "tf32.ptx" if build.endswith("-tf32.ptx") else "k.ptx"
        ms, base = uta_time(name, build), uta_time(name, default)
        rows.append((f"{name} {build[4:-4]}", f"{ms:.3f}", "", f"UTA {default}",
                     f"{base:.3f}", "", f"{base / ms:.2f}x", "", ""))

print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}")
print("| workload | UTA ms | UTA TFLOP/s (of peak) | baseline | baseline ms | "
      "baseline TFLOP/s | speed vs baseline | UTA rel. error | baseline rel. error |")
print("|---|---|---|---|---|---|---|---|---|")
for r in rows:
    print("| " + " | ".join(r) + " |")
