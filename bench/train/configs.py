"""The layer configurations of bench/train and their graphs.

Flash Clifford's Layer (x [2^n, B, F]; the grade-wise linear map with its
weight expanded per blade, plus a bias [1, 1, F] on every blade; the
GELU-gated weighted (SGP, weight [F, paths]) or fully connected (FC, weight
[paths, F, F]) geometric product; the grade RMS norm) as UTA MLIR, for each
configuration of the sweep: B in {1024, 2048, 4096, 8192} x F in {128, 256,
512, 1024}, Cl(3,0) and Cl(2,0), SGP and FC, f32 and tf32. The default set
is the configurations that Flash Clifford's H200 figures cover (BASELINES
below, ms of one forward + backward, torch.compile'd as its own benchmark
runs it, 2026-12-01/02); --full is the whole sweep.
"""
import itertools
import sys

BATCHES = (1024, 2048, 4096, 8192)
FEATURES = (128, 256, 512, 1024)

# (p, kind, precision, B, F) -> Flash Clifford's fwd+bwd ms and peak MB
# (None where not measured) on an H200.
BASELINES = {
    (3, "sgp", "tf32", 1024, 128): (1.437, 19), (3, "sgp", "tf32", 1024, 256): (1.238, 39),
    (3, "sgp", "tf32", 1024, 512): (1.359, 82), (3, "sgp", "tf32", 1024, 1024): (1.386, 192),
    (3, "sgp", "tf32", 2048, 128): (1.239, 38), (3, "sgp", "tf32", 2048, 256): (0.975, 76),
    (3, "sgp", "tf32", 2048, 512): (1.141, 156), (3, "sgp", "tf32", 2048, 1024): (1.167, 328),
    (3, "sgp", "tf32", 4096, 128): (1.417, 75), (3, "sgp", "tf32", 4096, 256): (1.390, 150),
    (3, "sgp", "tf32", 4096, 512): (1.349, 304), (3, "sgp", "tf32", 4096, 1024): (2.171, 624),
    (3, "sgp", "tf32", 8192, 128): (1.218, 149), (3, "sgp", "tf32", 8192, 256): (1.304, 298),
    (3, "sgp", "tf32", 8192, 512): (1.857, 600), (3, "sgp", "tf32", 8192, 1024): (4.194, 1216),
    (3, "fc", "tf32", 1024, 128): (1.508, 68), (3, "fc", "tf32", 1024, 256): (1.375, 151),
    (3, "sgp", "f32", 1024, 512): (1.490, None), (3, "sgp", "f32", 8192, 512): (3.590, None),
    (3, "fc", "tf32", 1024, 512): (1.887, None), (3, "fc", "tf32", 8192, 512): (4.182, None),
    (3, "fc", "f32", 8192, 512): (15.494, None),
}


def num_paths(p):
    """The (grade x, grade z, grade y) paths of Cl(p,0) with a product."""
    masks = range(1 << p)
    grade = lambda m: bin(m).count("1")  # noqa: E731
    return len({(grade(a), grade(a ^ b), grade(b))
                for a, b in itertools.product(masks, repeat=2)})


def name(p, kind, precision, batch, features):
    return f"cl{p}0_{kind}_{precision}_b{batch}_f{features}"


def configs(full=False):
    if not full:
        return sorted(BASELINES)
    return [(p, kind, precision, b, f)
            for p in (3, 2) for kind in ("sgp", "fc")
            for precision in ("f32", "tf32")
            for b in BATCHES for f in FEATURES]


def layer_mlir(p, kind, batch, features):
    """The layer as one UTA function @layer(x, linear weight, bias, weight)."""
    blades, paths = 1 << p, num_paths(p)
    t = lambda *s: "tensor<%sxf32>" % "x".join(map(str, s))  # noqa: E731
    x, lw, b = t(blades, batch, features), t(blades, features, features), \
        t(1, 1, features)
    w = t(features, paths) if kind == "sgp" else t(paths, features, features)
    product = "weighted_product" if kind == "sgp" else "fc_product"
    sig = f"{p}, 0, 0"
    return (f"func.func @layer(%x: {x}, %lw: {lw}, %b: {b}, %w: {w}) -> {x} {{\n"
            f"  %h = uta.matmul %x, %lw : ({x}, {lw}) -> {x}\n"
            f"  %y = uta.add %h, %b : ({x}, {b}) -> {x}\n"
            f"  %gx = clifford.scalar_gate <{sig}> %x : {x}\n"
            f"  %gy = clifford.scalar_gate <{sig}> %y : {x}\n"
            f"  %z = clifford.{product} <{sig}> %gx, %gy, %w : ({x}, {x}, {w}) -> {x}\n"
            f"  %n = clifford.grade_rms_norm <{sig}> %z : {x}\n"
            f"  return %n : {x}\n}}\n")


def write_inputs(p, kind, batch, features, directory, seed=7):
    """Seeded normal inputs x, lw, b, w and the cotangent g as .npy files,
    the weights scaled as a layer's initialisation would."""
    import os
    import numpy as np
    rng = np.random.default_rng(seed)
    blades, paths = 1 << p, num_paths(p)
    shapes = {"x": (blades, batch, features), "lw": (blades, features, features),
              "b": (1, 1, features),
              "w": (features, paths) if kind == "sgp" else
                   (paths, features, features),
              "g": (blades, batch, features)}
    scales = {"lw": features ** -0.5, "w": 1 / features if kind == "fc" else 1}
    for key, shape in shapes.items():
        values = rng.standard_normal(shape) * scales.get(key, 1)
        np.save(os.path.join(directory, key + ".npy"),
                values.astype(np.float32))


if __name__ == "__main__":
    # configs.py list [--full]: one configuration a line.
    # configs.py mlir P KIND B F: the layer's MLIR on stdout.
    # configs.py inputs P KIND B F DIR: seeded inputs as DIR/*.npy.
    if sys.argv[1] == "list":
        for c in configs("--full" in sys.argv):
            print(name(*c), *c)
    elif sys.argv[1] == "inputs":
        p, kind, batch, features = sys.argv[2:6]
        write_inputs(int(p), kind, int(batch), int(features), sys.argv[6])
    else:
        p, kind, batch, features = sys.argv[2:6]
        sys.stdout.write(layer_mlir(int(p), kind, int(batch), int(features)))
