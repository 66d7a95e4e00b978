"""A roofline plot of `uta-run --profile-json` reports.

    python3 bench/roofline/plot.py PEAKS.json OUT.png LABEL=PROFILE.json...

Each launch of each report is a labelled point: its arithmetic intensity
(all its operations over the bytes it must move) against the operations per
second it reached; each report its own colour (LABEL names it in the
legend). The roofs are the peaks file's (bench/roofline/calibrate.py): the
copy bandwidth's slope and one ceiling per unit. Also prints each launch's
fraction of its roofline and what bounds it (as uta-run --peaks does).
"""
import json
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def launches(path):
    report = json.load(open(path))
    if report.get("format") != "uta-profile":
        sys.exit(f"{path}: not a uta-run --profile-json report")
    for launch in report["launches"]:
        cost = launch.get("cost")
        if cost and launch["milliseconds"] > 0:
            yield launch, cost


def main():
    peaks_path, out = sys.argv[1], sys.argv[2]
    peaks = json.load(open(peaks_path))
    bandwidth = peaks["bytes_per_second"]
    ceilings = peaks["flops_per_second"]
    fig, ax = plt.subplots(figsize=(10, 6.5))
    lowest, highest = 0.05, 2000.0
    for unit, peak in sorted(ceilings.items(), key=lambda kv: -kv[1]):
        ridge = peak / bandwidth
        ax.plot([ridge, highest], [peak, peak], lw=1, color="0.4")
        ax.annotate(f"{unit} {peak / 1e12:.0f} TFLOP/s", (highest, peak),
                    ha="right", va="bottom", fontsize=8, color="0.3")
    top = max(ceilings.values())
    ax.plot([lowest, top / bandwidth], [bandwidth * lowest, top], lw=1.5,
            color="0.2")
    ax.annotate(f"copy {bandwidth / 1e9:.0f} GB/s", (lowest * 1.2,
                bandwidth * lowest * 1.6), fontsize=8, rotation=33)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    print("| report | launch | ms | TFLOP/s | GB/s | of its roofline | bound |")
    print("|---|---|---|---|---|---|---|")
    for index, argument in enumerate(sys.argv[3:]):
        label, path = argument.split("=", 1)
        colour = colours[index % len(colours)]
        first = True
        for launch, cost in launches(path):
            flops = sum(cost["flops"].values())
            moved = cost["bytes_read"] + cost["bytes_written"]
            seconds = launch["milliseconds"] * 1e-3
            intensity = flops / max(moved, 1)
            rate = flops / seconds
            ax.scatter([intensity], [rate], color=colour, s=30,
                       label=label if first else None, zorder=3)
            first = False
            # "layer_backward_k7_matmul" -> "k7_matmul"
            short = re.search(r"(k\d+_.*)$", launch["kernel"])
            name = short.group(1) if short else launch["kernel"]
            ax.annotate(name[:40], (intensity, rate), fontsize=6,
                        xytext=(4, 2), textcoords="offset points")
            least, bound = moved / bandwidth, "memory"
            for unit, count in cost["flops"].items():
                if unit in ceilings and count / ceilings[unit] > least:
                    least, bound = count / ceilings[unit], unit
            print(f"| {label} | {launch['kernel']} | {launch['milliseconds']:.4f} "
                  f"| {rate / 1e12:.2f} | {moved / seconds / 1e9:.0f} "
                  f"| {least / seconds:.0%} | {bound} |")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lowest, highest)
    ax.set_xlabel("operations per byte moved")
    ax.set_ylabel("operations per second")
    ax.set_title(f"Roofline, {peaks['device']} ({peaks.get('measured', '')})",
                 fontsize=9)
    ax.grid(True, which="both", lw=0.3)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    fig.savefig(out, dpi=130)


if __name__ == "__main__":
    main()
