"""Timing a compiled graph with uta-run, for the benchmarks.

OUT is the folder a prepare script filled: OUT/uta-run and, per graph,
OUT/<graph>/<module> with its manifest <module>.json.
"""
import math
import os
import re
import subprocess


def uta_time(out, name, module="k.ptx", repeat=30):
    """Median total kernel time (ms) of OUT/name/module over `repeat` runs:
    CUDA events per launch (CUDA for a .ptx module, Vulkan timestamps for a
    .spv one), L2 flushed once before each run, as do_bench does for a
    baseline's function."""
    run = subprocess.run(
        [os.path.join(out, "uta-run"), os.path.join(out, name, module + ".json"),
         "--seed=1", "--profile", f"--repeat={repeat}"],
        capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(f"uta-run {name}/{module}: {run.stderr.strip()}")
    return float(re.search(r"total: ([0-9.]+) ms", run.stdout).group(1))


def uta_time_steady(out, name, module="k.ptx", span_ms=350):
    """Like uta_time, over as many runs as keep the GPU busy for about
    `span_ms` of kernel time, for comparison with triton's do_bench (a warm-up
    then some 300 ms of calls). A GPU at its power limit lowers its clock
    within milliseconds of a sustained load, so the median of a short burst
    of runs can be faster than the same kernels' steady state; with this many
    runs the median is a steady-state run, as do_bench's is."""
    probe = uta_time(out, name, module, repeat=5)
    return uta_time(out, name, module, repeat=max(20, math.ceil(span_ms / probe)))
