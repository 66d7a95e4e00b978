"""Heatmaps of a bench/train run: UTA's training step against Flash
Clifford's H200 time and against torch.compile.

    python3 bench/train/plot.py RESULTS.csv OUT.png

Left: Flash Clifford's time over UTA's (above 1: UTA is faster) for each
configuration that its figures cover, as a grid of batch x features per
layer and precision. Right: torch.compile's time over UTA's for every
configuration of the run.
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.colors import TwoSlopeNorm  # noqa: E402


def grid(rows, baseline):
    """(labels of the rows, features, matrix of ratios) for the rows that
    have `baseline`: one row per (layer, precision, batch)."""
    features = sorted({int(r["features"]) for r in rows})
    keys = sorted({(r["p"], r["kind"], r["precision"], int(r["batch"]))
                   for r in rows if r[baseline]},
                  key=lambda k: (-int(k[0]), k[1], k[2], k[3]))
    matrix = [[float("nan")] * len(features) for _ in keys]
    for r in rows:
        if not r[baseline]:
            continue
        key = (r["p"], r["kind"], r["precision"], int(r["batch"]))
        matrix[keys.index(key)][features.index(int(r["features"]))] = (
            float(r[baseline]) / float(r["uta_ms"]))
    labels = [f"Cl({p},0) {kind.upper()} {precision} B={b}"
              for p, kind, precision, b in keys]
    return labels, features, matrix


def draw(axis, labels, features, matrix, title):
    values = [v for row in matrix for v in row if v == v]
    norm = TwoSlopeNorm(vmin=min(min(values), 0.9), vcenter=1.0,
                        vmax=max(max(values), 1.1))
    image = axis.imshow(matrix, cmap="RdYlGn", norm=norm, aspect="auto")
    axis.set_xticks(range(len(features)), [f"F={f}" for f in features])
    axis.set_yticks(range(len(labels)), labels, fontsize=7)
    for i, row in enumerate(matrix):
        for j, v in enumerate(row):
            if v == v:
                axis.text(j, i, f"{v:.2f}x", ha="center", va="center",
                          fontsize=7)
    axis.set_title(title, fontsize=9)
    return image


def main():
    rows = list(csv.DictReader(open(sys.argv[1])))
    figure, axes = plt.subplots(1, 2, figsize=(13, 0.32 * len(rows) + 3))
    for axis, baseline, title in (
            (axes[0], "flash_clifford_ms",
             "Flash Clifford (H200 figures) / UTA, fwd+bwd"),
            (axes[1], "compile_ms", "torch.compile / UTA, fwd+bwd, same run")):
        labels, features, matrix = grid(rows, baseline)
        figure.colorbar(draw(axis, labels, features, matrix, title), ax=axis)
    figure.suptitle("Training step of Flash Clifford's Layer: above 1, UTA "
                    "is faster")
    figure.tight_layout()
    figure.savefig(sys.argv[2], dpi=110)


if __name__ == "__main__":
    main()
