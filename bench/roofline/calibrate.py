"""The peaks of the GPU this runs on, for `uta-run --profile --peaks`.

    python3 bench/roofline/calibrate.py PEAKS.json

Measured with torch on the device, each the median of CUDA-event timings
after a warm-up: the bandwidth of a 1 GiB device-to-device copy (bytes read
plus bytes written over its time), and the operations per second of an
8192^3 cuBLAS GEMM (2 M N K over its time) in bf16, f16, tf32 (f32 inputs,
TF32 products) and f32 (cuBLAS's SGEMM: the SIMT cores' FMAs, UTA's "simt"
unit). UTA's 3xTF32 does three TF32 products per useful one, so its peak is
the tf32 peak over three, derived rather than measured (the file says so).
Writes {"format": "uta-peaks", "version": 1, "device": torch's name of the
device, "bytes_per_second", "flops_per_second": {unit: rate}, "measured":
what ran, "derived": {"3xtf32": ...}}.
"""
import datetime
import json
import sys

import torch


def median_ms(fn, runs=30):
    for _ in range(5):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(runs):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    times.sort()
    return times[len(times) // 2]


def gemm_rate(dtype, tf32=False, n=8192):
    torch.backends.cuda.matmul.allow_tf32 = tf32
    a = torch.randn(n, n, device="cuda").to(dtype)
    b = torch.randn(n, n, device="cuda").to(dtype)
    c = torch.empty(n, n, device="cuda", dtype=dtype)
    ms = median_ms(lambda: torch.matmul(a, b, out=c))
    torch.backends.cuda.matmul.allow_tf32 = False
    return 2 * n ** 3 / (ms * 1e-3)


def main():
    out = sys.argv[1]
    src = torch.empty(1 << 28, device="cuda")  # 1 GiB of f32
    dst = torch.empty_like(src)
    copy_ms = median_ms(lambda: dst.copy_(src))
    bandwidth = 2 * src.numel() * 4 / (copy_ms * 1e-3)
    del src, dst
    rates = {"bf16": gemm_rate(torch.bfloat16), "f16": gemm_rate(torch.float16),
             "tf32": gemm_rate(torch.float32, tf32=True),
             "simt": gemm_rate(torch.float32)}
    rates["3xtf32"] = rates["tf32"] / 3
    peaks = {
        "format": "uta-peaks", "version": 1,
        "device": torch.cuda.get_device_name(),
        "bytes_per_second": bandwidth, "flops_per_second": rates,
        "measured": (f"{datetime.date.today().isoformat()}, torch "
                     f"{torch.__version__}: a 1 GiB copy; 8192^3 cuBLAS GEMMs "
                     "(simt: f32 SGEMM)"),
        "derived": {"3xtf32": "tf32 / 3"},
    }
    with open(out, "w") as f:
        json.dump(peaks, f, indent=2)
    print(f"{peaks['device']}: copy {bandwidth / 1e9:.0f} GB/s; " +
          ", ".join(f"{unit} {rate / 1e12:.1f} TFLOP/s"
                    for unit, rate in rates.items()))


if __name__ == "__main__":
    main()
