"""Timing a compiled graph with uta-run, for the benchmarks.

OUT is the folder a prepare script filled: OUT/uta-run and, per graph,
OUT/<graph>/<module> with its manifest <module>.json.
"""
import math
import os
import re
import subprocess


def uta_time(out, name, module="k.ptx", repeat=30, report=()):
    """Median total kernel time (ms) of OUT/name/module over `repeat` runs:
    CUDA events per launch (CUDA for a .ptx module, Vulkan timestamps for a
    .spv one), L2 flushed once before each run, as do_bench does for a
    baseline's function. `report`: more uta-run options for the profile's
    files (--profile-json=..., --peaks=...)."""
    run = subprocess.run(
        [os.path.join(out, "uta-run"), os.path.join(out, name, module + ".json"),
         "--seed=1", "--profile", f"--repeat={repeat}", *report],
        capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(f"uta-run {name}/{module}: {run.stderr.strip()}")
    return float(re.search(r"total: ([0-9.]+) ms", run.stdout).group(1))


def uta_time_steady(out, name, module="k.ptx", span_ms=350, report=()):
    """Like uta_time, over as many runs as keep the GPU busy for about
    `span_ms` of kernel time, as time_like_uta_run times a baseline. A GPU
    at its power limit lowers its clock within milliseconds of a sustained
    load, so the median of a short burst of runs can be faster than the same
    kernels' steady state; with this many runs the median is a steady-state
    run."""
    probe = uta_time(out, name, module, repeat=5)
    return uta_time(out, name, module, repeat=max(20, math.ceil(span_ms / probe)),
                    report=report)


def uta_median(out, name, module="k.ptx", repeat=None):
    """uta_time_steady, or uta_time over `repeat` runs where a graph's
    kernels are too slow for the steady state's span."""
    if repeat is None:
        return uta_time_steady(out, name, module)
    return uta_time(out, name, module, repeat)


def median_call_time(fn, calls, before=None):
    """Median time (ms) of `calls` calls of fn: CUDA events around each call,
    then a synchronisation; `before`, if given, runs ahead of each call,
    outside the events."""
    import torch
    times = []
    for _ in range(calls):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        if before:
            before()
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    return sorted(times)[len(times) // 2]


def time_like_uta_run(fn, span_ms=350):
    """Median time (ms) of fn's GPU work, timed by the loop `uta-run
    --profile --repeat` runs: per call an L2 flush (a memset of twice the L2,
    at least 64 MiB), CUDA events around the call, then a synchronisation;
    as many calls as take about `span_ms`, counted by 5 calls first and
    started after a second's pause, as uta_time_steady's second uta-run
    process starts after the first one's exit. Baselines timed so run at the
    duty cycle UTA's runs do, which on a GPU at its power limit sets the
    clock."""
    import time
    import torch
    props = torch.cuda.get_device_properties(torch.cuda.current_device())
    flush = torch.empty(max(2 * props.L2_cache_size, 64 << 20) // 4,
                        dtype=torch.int32, device="cuda")
    probe = median_call_time(fn, 5, flush.zero_)
    calls = max(20, math.ceil(span_ms / probe))
    time.sleep(1.0)
    return median_call_time(fn, calls, flush.zero_)
