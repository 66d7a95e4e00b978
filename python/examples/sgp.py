"""The SGP layer of Flash Clifford in Cl(3,0), from Python, checked in float64.

    sgp(x, y, w) = grade_rms_norm(weighted_product(gate(x), gate(y), w))

with x, y of layout [8 blades, batch, features] and w [features, 20 paths]
(docs/language.md). The graph is built op by op with uta.Graph, compiled, and
run on tensors that stay where they are (DLPack, no copies):

- with PyTorch and a CUDA device: torch CUDA tensors on the cuda device,
  checked against the layer written in torch, in float64;
- otherwise: NumPy arrays on the reference device (or --backend=vulkan),
  checked against the layer written in NumPy, in float64.

    python3 sgp.py                      # the best of the above, small shape
    python3 sgp.py --backend=reference --batch=16 --features=32
    python3 sgp.py --save=DIR           # only compile: DIR/sgp_cl3.ptx(.json)

--save compiles for PTX (sm_90 unless --sm) without running, for a GPU
machine without a compiler (sgp_gpu.py loads it there through
libuta_c_runtime.so alone). Exit code 0 when the check passes, 1 when not.
"""
import argparse
import math
import os
import sys

import uta

CL3 = uta.Algebra(3, 0, 0)


def build_sgp(batch, features):
    g = uta.Graph("sgp_cl3")
    x = g.input([8, batch, features])
    y = g.input([8, batch, features])
    w = g.input([features, CL3.num_paths])
    product = g.weighted_product(CL3, g.scalar_gate(CL3, x),
                                 g.scalar_gate(CL3, y), w)
    g.output(g.grade_rms_norm(CL3, product, 1e-6))
    return g


def cl3_tables():
    """Blade grades and the Cayley terms (x blade, y blade, result blade,
    sign, path) of Cl(3,0), blades ordered by grade then basis indices, paths
    (grade x, grade result, grade y) sorted, as docs/language.md numbers
    them."""
    n = 3
    masks = sorted(range(1 << n), key=lambda m: (bin(m).count("1"),
                   [i for i in range(n) if m >> i & 1]))
    position = {mask: i for i, mask in enumerate(masks)}
    grade = [bin(mask).count("1") for mask in masks]
    terms = []
    for i, a in enumerate(masks):
        for j, b in enumerate(masks):
            # Swaps to bring a's and b's basis vectors into order; e_k^2 = +1.
            swaps = sum(bin(a >> (k + 1)).count("1") for k in range(n)
                        if b >> k & 1)
            terms.append((i, j, position[a ^ b], -1 if swaps % 2 else 1))
    paths = sorted({(grade[i], grade[k], grade[j]) for i, j, k, _ in terms})
    index = {path: p for p, path in enumerate(paths)}
    return grade, [(i, j, k, s, index[(grade[i], grade[k], grade[j])])
                   for i, j, k, s in terms]


def sgp_formula(x, y, w, xp):
    """The layer term by term on float64 arrays of array module `xp` (numpy
    or torch)."""
    grade, terms = cl3_tables()
    if xp.__name__ == "torch":
        erf, mean = xp.erf, lambda t: t.mean(-1, keepdim=True)
    else:
        erf = xp.vectorize(math.erf)
        mean = lambda t: t.mean(axis=-1, keepdims=True)
    def gate(t):
        return t * (0.5 * (1 + erf(t[0:1] / math.sqrt(2))))
    x, y = gate(x), gate(y)
    z = [x[0] * 0 for _ in range(8)]
    for i, j, k, s, p in terms:
        z[k] = z[k] + (s * w[:, p]) * x[i] * y[j]
    z = xp.stack(z)
    out = z * 0
    for g in sorted(set(grade)):
        blades = [b for b in range(8) if grade[b] == g]
        ms = mean((z[blades] ** 2).sum(0))
        out[blades] = z[blades] / (ms + 1e-6) ** 0.5
    return out


def rel_l2(out, ref):
    diff = ((out - ref) ** 2).sum() ** 0.5
    norm = (ref ** 2).sum() ** 0.5
    return float(diff / norm)


def run_torch(exe, batch, features, seed):
    import torch
    generator = torch.Generator(device="cuda").manual_seed(seed)
    x, y = (torch.randn(8, batch, features, device="cuda",
                        generator=generator) for _ in range(2))
    w = torch.randn(features, CL3.num_paths, device="cuda",
                    generator=generator)
    (out,) = exe(x, y, w)
    result = torch.from_dlpack(out)
    assert result.data_ptr() == out.data_ptr(), "torch copied the result"
    expected = sgp_formula(x.double(), y.double(), w.double(), torch)
    return rel_l2(result.double(), expected)


def run_numpy(exe, batch, features, seed):
    import numpy
    rng = numpy.random.default_rng(seed)
    x, y = (rng.standard_normal((8, batch, features)).astype(numpy.float32)
            for _ in range(2))
    w = rng.standard_normal((features, CL3.num_paths)).astype(numpy.float32)
    # Poisoned: an element no kernel writes stays NaN and fails the check.
    out = numpy.full((8, batch, features), numpy.nan, numpy.float32)
    exe(x, y, w, out=[out])
    expected = sgp_formula(x.astype(numpy.float64), y.astype(numpy.float64),
                           w.astype(numpy.float64), numpy)
    if not numpy.all(numpy.isfinite(out)):
        return math.inf
    return rel_l2(out.astype(numpy.float64), expected)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="auto",
                        help="auto (cuda with torch, else reference), "
                             "cuda, vulkan, reference")
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--features", type=int, default=48)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", help="compile for PTX into this folder, "
                        "and do not run")
    parser.add_argument("--sm", default="90")
    args = parser.parse_args(argv)

    graph = build_sgp(args.batch, args.features)
    if args.save:
        os.makedirs(args.save, exist_ok=True)
        compiled = uta.compile(graph, target="ptx", sm=args.sm)
        path = os.path.join(args.save, "sgp_cl3.ptx")
        compiled.save(path)
        print(f"sgp: [8, {args.batch}, {args.features}] compiled for sm_"
              f"{args.sm}: {path}, {path}.json")
        return 0

    backend = args.backend
    if backend == "auto":
        try:
            import torch
            backend = "cuda" if torch.cuda.is_available() else "reference"
        except ImportError:
            backend = "reference"
    device = uta.device(backend)
    exe = uta.compile(graph, device=device).load(device)
    if backend == "cuda":
        error = run_torch(exe, args.batch, args.features, args.seed)
    else:
        error = run_numpy(exe, args.batch, args.features, args.seed)
    tolerance = uta.default_tolerance("f32", reduces=True)
    verdict = "ok" if error <= tolerance else "FAILED"
    print(f"sgp Cl(3,0) [8, {args.batch}, {args.features}] on {backend} "
          f"({device.description}): "
          f"rel_l2 {error:.2e} vs float64 (tol {tolerance:g}) {verdict}")
    return 0 if error <= tolerance else 1


if __name__ == "__main__":
    sys.exit(main())
