"""Where one uta.nn.Layer training step's time goes, from torch.

    PYTHONPATH=TORCH_DIR/python python3 bench/train/profile_step.py OUT NAME

OUT from bench/train/prepare.sh (with UTA_TORCH_PYTHON, so that OUT/NAME/op
holds the layer's uta.custom_op package); NAME one of OUT/configs.txt. Runs
the step of bench/train/torch_layer.py and prints which per-call path of
uta.custom_op ran (uta._torch_extension.status()), the step's wall time per
step back to back (what a training loop sees) and synchronised after each
step (host time the GPU waits for shows), then torch.profiler's table of
five steps: UTA's kernels, torch's own (the linear weight's expansion) and
the host time of the C++ autograd node.
"""
import os
import sys
import time

import torch

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
from torch_layer import training_step  # noqa: E402

from uta import _torch_extension  # noqa: E402


def ms_per_step(step, synchronise_each, steps=50):
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(steps):
        step()
        if synchronise_each:
            torch.cuda.synchronize()
    torch.cuda.synchronize()
    return (time.perf_counter() - start) / steps * 1e3


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[1])
    out, name = sys.argv[1:]
    configs = {line.split()[0]: line.split()
               for line in open(os.path.join(out, "configs.txt"))}
    if name not in configs:
        sys.exit(f"{name}: not a configuration of {out}/configs.txt")
    _, p, kind, precision, batch, features = configs[name]
    step = training_step(out, name, int(p), kind, precision, int(batch),
                         int(features))
    for _ in range(5):
        step()
    print(f"{name} on {torch.cuda.get_device_name()}; per-call path: "
          f"{_torch_extension.status()}")
    print(f"back to back {ms_per_step(step, False):.3f} ms/step, "
          f"synchronised each {ms_per_step(step, True):.3f} ms/step")
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CPU,
                             ProfilerActivity.CUDA]) as profiler:
        for _ in range(5):
            step()
        torch.cuda.synchronize()
    print(profiler.key_averages().table(sort_by="self_cuda_time_total",
                                        row_limit=25))


if __name__ == "__main__":
    main()
