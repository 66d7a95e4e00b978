"""Clifford algebra tables and the Flash Clifford layers written in torch.

The references of the benchmarks (bench/bench.py, bench/gemm/bench.py): the
algebra's Cayley terms with their paths, built here from the basis blades'
bit masks, and the SGP and FCGP layers term by term, as their definitions in
docs/ spell them.
"""
import math

import torch


def algebra(p, q, r):
    n = p + q + r
    masks = sorted(range(1 << n), key=lambda m: (bin(m).count("1"),
                   [i for i in range(n) if m >> i & 1]))
    index = {m: i for i, m in enumerate(masks)}
    metric = [0] * r + [1] * p + [-1] * q
    def product(a, b):
        swaps = sum(bin(a >> (j + 1)).count("1") for j in range(n) if b >> j & 1)
        sign = -1 if swaps % 2 else 1
        for i in range(n):
            if a & b & (1 << i):
                sign *= metric[i]
        return sign, a ^ b
    grade = [bin(m).count("1") for m in masks]
    terms = []
    for i, a in enumerate(masks):
        for j, b in enumerate(masks):
            s, m = product(a, b)
            if s:
                terms.append((i, j, index[m], s))
    paths = sorted({(grade[i], grade[k], grade[j]) for i, j, k, s in terms})
    pidx = {t: n for n, t in enumerate(paths)}
    wterms = [(i, j, k, s, pidx[(grade[i], grade[k], grade[j])]) for i, j, k, s in terms]
    return grade, wterms, len(paths)


def gate(t):
    return t * (0.5 * (1 + torch.erf(t[0:1] / math.sqrt(2))))


def grade_rms_norm(grade, z, eps=1e-6):
    out = torch.empty_like(z)
    for g in sorted(set(grade)):
        idx = [b for b, gb in enumerate(grade) if gb == g]
        ms = (z[idx] ** 2).sum(0).mean(-1, keepdim=True)
        out[idx] = z[idx] / torch.sqrt(ms + eps)
    return out


def sgp_torch(grade, wterms, x, y, w):
    x, y = gate(x), gate(y)
    z = [torch.zeros_like(x[0]) for _ in range(x.shape[0])]
    for i, j, k, s, p in wterms:
        z[k] = z[k] + (s * w[:, p]) * x[i] * y[j]
    return grade_rms_norm(grade, torch.stack(z))


def fcgp_torch(grade, wterms, x, y, w):
    x, y = gate(x), gate(y)
    z = [0] * x.shape[0]
    for i, j, k, s, p in wterms:
        z[k] = z[k] + s * ((x[i] * y[j]) @ w[p])
    return grade_rms_norm(grade, torch.stack(z))




def flash_layer_torch(grade, wterms, fc, x, lw, b, w):
    """Flash Clifford's Layer: the grade-wise linear map (lw [2^n, F, F], its
    weight expanded per blade) plus the bias b [1, 1, F] on every blade, then
    the gated product of x and that (fc: fully connected, else SGP) and the
    grade norm."""
    y = torch.bmm(x, lw) + b
    return (fcgp_torch if fc else sgp_torch)(grade, wterms, x, y, w)
