"""The training step of Flash Clifford's Layer: UTA against Flash Clifford
and torch.compile.

    python3 bench/train/bench.py OUT [RESULTS.md] [RESULTS.csv]
        [--no-compile] [--compile-workers=N] [--only=NAME,...]
        [--profiles=DIR [--peaks=PEAKS.json]]
    (OUT from bench/train/prepare.sh)

For each configuration OUT holds (bench/train/configs.py): UTA's training
pair, @layer_forward then @layer_backward, each timed by `uta-run --profile
--repeat` in the GPU's steady state (uta_runner.uta_time_steady: the sum of
the kernels' CUDA-event times, median over about 350 ms of runs), and
@layer_vjp, the backward that recomputes the forward, for comparison; where
OUT/<name>/op holds the package that bench/train/torch_layer.py saves, the
same step through the Python package on torch tensors (the graph of
uta.nn.Layer as a uta.custom_op, forward and torch.autograd.grad, timed by
the loop below, and back to back as a training loop runs it), with its peak
memory; beside
them, in the same process, torch.compile of the same layer in plain torch
(bench/clifford_torch.py), forward + backward timed by the same loop
(uta_runner.time_like_uta_run), and its peak memory; and Flash Clifford's
H200 time from configs.BASELINES. UTA's peak memory is what a timed run
holds beyond the inputs: the larger of the forward's results and
intermediates, and the residuals with the backward's, the intermediates in
one workspace where those not live at the same launch share bytes
(uta.Executable.workspace_bytes).

Writes the table as markdown (stdout, and RESULTS.md if given) and one CSV
row per configuration (RESULTS.csv) for bench/train/plot.py, both
rewritten after each configuration so that a run cut short keeps its rows.
With --no-compile, torch.compile is left out. Its compiles take most of a
minute per configuration, so N worker processes (--compile-workers, default
8) first compile every configuration's step into Inductor's on-disk caches,
in parallel; the timed loop then loads them. Nothing they run is timed.
--only=NAME,... keeps the configurations of those names (configs.py's, as in
OUT/configs.txt). --profiles=DIR writes the timed runs' reports, DIR/<name>.
fwd.json and .bwd.json (uta-run --profile-json), placed on the roofline of
--peaks (bench/roofline/calibrate.py) when given: bench/roofline/plot.py
draws them.
"""
import csv
import datetime
import json
import math
import os
import re
import subprocess
import sys

import torch

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
sys.path.insert(0, os.path.join(here, ".."))
from clifford_torch import algebra, flash_layer_torch  # noqa: E402
from configs import BASELINES  # noqa: E402
from uta_runner import time_like_uta_run, uta_time_steady  # noqa: E402

with_compile = "--no-compile" not in sys.argv
workers = 8
only = None
profiles = peaks = None
warm_slice = None  # (k, n): this process is compile worker k of n
arguments = []
for a in sys.argv[1:]:
    if a.startswith("--compile-workers="):
        workers = int(a.split("=", 1)[1])
    elif a.startswith("--profiles="):
        profiles = a.split("=", 1)[1]
    elif a.startswith("--peaks="):
        peaks = a.split("=", 1)[1]
    elif a.startswith("--only="):
        only = set(a.split("=", 1)[1].split(","))
    elif a.startswith("--warm="):
        warm_slice = tuple(int(v) for v in a.split("=", 1)[1].split("/"))
    elif a != "--no-compile":
        arguments.append(a)
out = arguments[0]
md_path = arguments[1] if len(arguments) > 1 else None
csv_path = arguments[2] if len(arguments) > 2 else None
dev = "cuda"


def fmt(value, spec):
    return "-" if value is None else format(value, spec)


def kernels(name, file):
    text = open(os.path.join(out, name, file + ".stats")).read()
    counts = re.findall(r"with fusion.*?: (\d+) kernels", text)
    return int(counts[-1]) if counts else 0


def manifest_bytes(name, file, roles):
    manifest = json.load(open(os.path.join(out, name, file + ".ptx.json")))
    return sum(b["bytes"] for b in manifest["buffers"] if b["role"] in roles)


def workspace_bytes(name, half):
    """The bytes of the intermediates' workspace of `half` (uta-run's timed
    runs and the torch path hold one, shared where lifetimes allow)."""
    import uta
    path = os.path.join(out, name, half + ".ptx.json")
    return uta.load(path, uta.device("cuda")).workspace_bytes


def uta_peak_mb(name):
    forward = (manifest_bytes(name, "fwd", ("result",)) +
               workspace_bytes(name, "fwd"))
    manifest = json.load(open(os.path.join(out, name, "fwd.ptx.json")))
    residuals = sum(b["bytes"] for b in manifest["buffers"]
                    if b["role"] == "result" and b["index"] >= 1)
    backward = (residuals + manifest_bytes(name, "bwd", ("result",)) +
                workspace_bytes(name, "bwd"))
    return max(forward, backward) / 2**20


def compiled_step(p, kind, precision, batch, features):
    """torch.compile of the plain-torch layer's forward + backward, compiled
    (run three times) on seeded inputs."""
    torch.backends.cuda.matmul.allow_tf32 = precision == "tf32"
    torch.set_float32_matmul_precision(
        "high" if precision == "tf32" else "highest")
    grade, wterms, paths = algebra(p, 0, 0)
    torch.manual_seed(0)
    x = torch.randn(1 << p, batch, features, device=dev, requires_grad=True)
    lw = (torch.randn(1 << p, features, features, device=dev) /
          features ** 0.5).requires_grad_()
    b = torch.randn(1, 1, features, device=dev, requires_grad=True)
    w = (torch.randn(paths, features, features, device=dev) / features
         if kind == "fc" else torch.randn(features, paths, device=dev))
    w.requires_grad_()
    g = torch.randn_like(x)
    layer = torch.compile(
        lambda *a: flash_layer_torch(grade, wterms, kind == "fc", *a))

    def step():
        y = layer(x, lw, b, w)
        torch.autograd.grad(y, (x, lw, b, w), g)
    for _ in range(3):  # torch.compile compiles on the first calls
        step()
    torch.cuda.synchronize()
    return step


def time_step(step):
    """A warm step's peak memory beyond what was allocated before it (MB),
    and its time by the loop uta-run's are taken with (ms)."""
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    base = torch.cuda.memory_allocated()
    step()
    torch.cuda.synchronize()
    peak = (torch.cuda.max_memory_allocated() - base) / 2**20
    ms = time_like_uta_run(step)
    torch.cuda.empty_cache()
    return ms, peak


def torch_step(*config):
    """torch.compile of the plain-torch layer: fwd + bwd ms, peak MB."""
    return time_step(compiled_step(*config))


def back_to_back_ms(step, span_ms=350):
    """ms per step of `step` run back to back, as a training loop runs it:
    CUDA events around about `span_ms` of steps, nothing between them, so
    that host time the GPU waits for counts and the L2 stays warm."""
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    torch.cuda.synchronize()
    start.record()
    step()
    end.record()
    end.synchronize()
    steps = max(20, math.ceil(span_ms / max(start.elapsed_time(end), 1e-3)))
    start.record()
    for _ in range(steps):
        step()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) / steps


def torch_uta_step(name, p, kind, precision, batch, features):
    """The step through uta.custom_op on torch tensors: ms and peak MB by
    time_step, and ms per step back to back; Nones where OUT has no package
    for the configuration."""
    if not os.path.isdir(os.path.join(out, name, "op")):
        return None, None, None
    from torch_layer import training_step
    step = training_step(out, name, p, kind, precision, batch, features)
    for _ in range(3):  # loads the modules, warms the caches
        step()
    ms, peak = time_step(step)
    return ms, peak, back_to_back_ms(step)


def report_options(name, half):
    """uta-run's options that write the profile of `half` (--profiles)."""
    if not profiles:
        return ()
    options = [f"--profile-json={os.path.join(profiles, f'{name}.{half}.json')}"]
    if peaks:
        options.append(f"--peaks={peaks}")
    return tuple(options)


def write_results():
    if md_path:
        with open(md_path, "w") as f:
            f.write("\n".join(lines) + "\n")
    if csv_path and rows:
        with open(csv_path, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)


configs = [line.split() for line in open(os.path.join(out, "configs.txt"))]
if profiles:
    os.makedirs(profiles, exist_ok=True)
if only:
    configs = [c for c in configs if c[0] in only]
if warm_slice:
    k, n = warm_slice
    for _, p, kind, precision, batch, features in configs[k::n]:
        compiled_step(int(p), kind, precision, int(batch), int(features))
        torch.cuda.empty_cache()
    sys.exit(0)
if with_compile and workers > 1:
    compilers = [subprocess.Popen([sys.executable, __file__, out,
                                   f"--warm={k}/{workers}"])
                 for k in range(workers)]
    for compiler in compilers:
        if compiler.wait() != 0:
            sys.exit(f"bench.py: compile worker failed ({compiler.args})")
date = datetime.date.today().isoformat()
# The commit prepare.sh built from (the GPU machine's copy has no history).
try:
    with open(os.path.join(out, "commit.txt")) as commit_file:
        built = f"UTA at {commit_file.read().strip()}"
except OSError:
    built = "UTA at an unrecorded commit"
lines = [
    f"# Training step of Flash Clifford's Layer, {date}",
    "",
    f"{torch.cuda.get_device_name()}, torch {torch.__version__}, {built}; "
    "generated by "
    "`bench/train/prepare.sh BUILD OUT` and `python3 bench/train/bench.py "
    "OUT` (bench/README.md). ms of one forward + backward; UTA: the sum of "
    "its kernels' times in the steady state (uta-run), torch.compile: CUDA "
    "events around the step, same loop; UTA from torch: the same step "
    "through uta.custom_op on torch tensors (the graph of uta.nn.Layer), "
    "same loop, and in brackets back to back as a training loop runs it "
    "(CUDA events around a run of steps); Flash Clifford: its H200 figures "
    "(configs.BASELINES). Kernels: forward + backward. Peak: MB allocated "
    "beyond the inputs.",
    "",
    "| layer | B | F | UTA fwd+bwd ms (kernels) | UTA fwd+vjp ms | UTA from torch ms (back to back) | Flash Clifford | torch.compile | vs FC | vs compile | peak MB UTA / from torch / FC / compile |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
]
print("\n".join(lines), flush=True)
rows = []
for name, p, kind, precision, batch, features in configs:
    p, batch, features = int(p), int(batch), int(features)
    t_fwd = uta_time_steady(out, name, "fwd.ptx",
                            report=report_options(name, "fwd"))
    t_bwd = uta_time_steady(out, name, "bwd.ptx",
                            report=report_options(name, "bwd"))
    t_vjp = uta_time_steady(out, name, "vjp.ptx")
    t_torch, peak_torch, t_torch_loop = torch_uta_step(
        name, p, kind, precision, batch, features)
    t_compile, peak_compile = (
        torch_step(p, kind, precision, batch, features) if with_compile
        else (None, None))
    fc_ms, fc_peak = BASELINES.get((p, kind, precision, batch, features),
                                   (None, None))
    uta = t_fwd + t_bwd
    peak = uta_peak_mb(name)
    vs_fc = f"{fc_ms / uta:.2f}x" if fc_ms else "-"
    line = (f"| Cl({p},0) {kind.upper()} {precision} | {batch} | {features} "
            f"| {uta:.3f} ({kernels(name, 'fwd')}+{kernels(name, 'bwd')}) "
            f"| {t_fwd + t_vjp:.3f} | {fmt(t_torch, '.3f')} "
            f"({fmt(t_torch_loop, '.3f')}) "
            f"| {fc_ms if fc_ms else '-'} "
            f"| {fmt(t_compile, '.3f')} | {vs_fc} "
            f"| {fmt(t_compile and t_compile / uta, '.2f')}x "
            f"| {peak:.0f} / {fmt(peak_torch, '.0f')} "
            f"/ {fc_peak if fc_peak else '-'} "
            f"/ {fmt(peak_compile, '.0f')} |")
    print(line, flush=True)
    lines.append(line)
    rows.append({"name": name, "p": p, "kind": kind, "precision": precision,
                 "batch": batch, "features": features, "uta_ms": uta,
                 "uta_forward_ms": t_fwd, "uta_vjp_ms": t_fwd + t_vjp,
                 "uta_torch_ms": t_torch or "",
                 "uta_torch_back_to_back_ms": t_torch_loop or "",
                 "uta_torch_peak_mb": peak_torch or "",
                 "flash_clifford_ms": fc_ms or "", "compile_ms": t_compile or "",
                 "uta_peak_mb": peak, "flash_clifford_peak_mb": fc_peak or "",
                 "compile_peak_mb": peak_compile or ""})
    write_results()

beaten = [r for r in rows if r["flash_clifford_ms"]]
if beaten:
    geomean = math.exp(sum(math.log(r["flash_clifford_ms"] / r["uta_ms"])
                           for r in beaten) / len(beaten))
    summary = (f"\nAgainst Flash Clifford: faster in "
               f"{sum(r['flash_clifford_ms'] > r['uta_ms'] for r in beaten)} "
               f"of {len(beaten)}, geometric mean {geomean:.2f}x.")
    if with_compile:
        summary += (f" Against torch.compile: faster in "
                    f"{sum(r['compile_ms'] > r['uta_ms'] for r in rows)} of "
                    f"{len(rows)}.")
    print(summary)
    lines.append(summary)
write_results()
