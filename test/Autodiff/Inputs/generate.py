#!/usr/bin/env python3
"""Writes the single-op graphs of the gradient checks (test/Autodiff).

One graph per clifford op and algebra, and Flash Clifford's whole Layer
(SGP and FC) per algebra, small enough for the finite differences of
`utac run --check-grad` (four reference runs per checked element). Operands broadcast where the op allows it, so that the checks also
cover the sums of the cotangents back to an operand's shape.

    python3 test/Autodiff/Inputs/generate.py   # rewrites the .mlir files here
"""
import itertools
import os

ALGEBRAS = {"cl200": (2, 0, 0), "cl300": (3, 0, 0), "cl130": (1, 3, 0),
            "cl301": (3, 0, 1)}


def num_paths(p, q, r):
    """The paths (gx, gz, gy) with a non-zero product, as the dialect counts."""
    n = p + q + r
    metric = [0] * r + [1] * p + [-1] * q
    paths = set()
    for a, b in itertools.product(range(1 << n), repeat=2):
        if any(metric[i] == 0 for i in range(n) if a & b & (1 << i)):
            continue
        grade = lambda m: bin(m).count("1")
        paths.add((grade(a), grade(a ^ b), grade(b)))
    return len(paths)


def tensor(*shape):
    return "tensor<%sxf32>" % "x".join(str(s) for s in shape)


def binary(op, alg, sig, blades, scalar=False):
    lhs, rhs = tensor(blades, 1, 5), tensor(blades, 3, 5)
    out = tensor(1 if scalar else blades, 3, 5)
    return ("func.func @%s_%s(%%x: %s, %%y: %s) -> %s {\n"
            "  %%z = clifford.%s <%s> %%x, %%y : (%s, %s) -> %s\n"
            "  return %%z : %s\n}\n" % (op, alg, lhs, rhs, out, op, sig, lhs,
                                        rhs, out, out))


def unary(op, alg, sig, blades, attrs=""):
    t = tensor(3, blades, 4)
    return ("func.func @%s_%s(%%x: %s) -> %s {\n"
            "  %%y = clifford.%s <%s> %%x%s {blade_axis = 1} : %s\n"
            "  return %%y : %s\n}\n" % (op, alg, t, t, op, sig, attrs, t, t))


def layer(op, alg, sig, blades, paths):
    x = tensor(blades, 3, 4)
    if op == "weighted_product":
        w, out = tensor(4, paths), x
    else:
        w, out = tensor(paths, 4, 5), tensor(blades, 3, 5)
    return ("func.func @%s_%s(%%x: %s, %%y: %s, %%w: %s) -> %s {\n"
            "  %%z = clifford.%s <%s> %%x, %%y, %%w : (%s, %s, %s) -> %s\n"
            "  return %%z : %s\n}\n" % (op, alg, x, x, w, out, op, sig, x, x, w,
                                        out, out))


def fc_gradients(alg, sig, blades, paths):
    """fc_product's gradient ops (their own rules: the double backward):
    the adjoint with respect to x, the weight gradient in the K-major
    layout, of batch-contiguous pairs, and of every operand batch-contiguous
    (pairs and cotangent)."""
    g, x = tensor(blades, 3, 5), tensor(blades, 3, 4)
    w, wk = tensor(paths, 4, 5), tensor(paths, 5, 4)
    adjoint = ("func.func @fc_product_adjoint_%s(%%g: %s, %%y: %s, %%w: %s) "
               "-> %s {\n"
               "  %%d = clifford.fc_product_adjoint <%s> lhs %%g, %%y, %%w : "
               "(%s, %s, %s) -> %s\n"
               "  return %%d : %s\n}\n" % (alg, g, x, w, x, sig, g, x, w, x, x))
    gradient = ("func.func @fc_product_weight_gradient_%s(%%g: %s, %%x: %s, "
                "%%y: %s) -> %s {\n"
                "  %%d = clifford.fc_product_weight_gradient <%s> %%g, %%x, %%y "
                "{transpose_weights = true} : (%s, %s, %s) -> %s\n"
                "  return %%d : %s\n}\n" % (alg, g, x, x, wk, sig, g, x, x, wk,
                                           wk))
    xt = tensor(blades, 4, 3)
    pairs = ("func.func @fc_product_weight_gradient_pairs_%s(%%g: %s, %%x: %s, "
             "%%y: %s) -> %s {\n"
             "  %%d = clifford.fc_product_weight_gradient <%s> %%g, %%x, %%y "
             "{transpose_pairs = true} : (%s, %s, %s) -> %s\n"
             "  return %%d : %s\n}\n" % (alg, g, xt, xt, w, sig, g, xt, xt, w,
                                        w))
    gt = tensor(blades, 5, 3)
    k_major = ("func.func @fc_product_weight_gradient_kmajor_%s(%%g: %s, "
               "%%x: %s, %%y: %s) -> %s {\n"
               "  %%d = clifford.fc_product_weight_gradient <%s> %%g, %%x, %%y "
               "{transpose_cotangent = true, transpose_pairs = true} : "
               "(%s, %s, %s) -> %s\n"
               "  return %%d : %s\n}\n" % (alg, gt, xt, xt, w, sig, gt, xt, xt,
                                            w, w))
    return adjoint, gradient, pairs, k_major


def flash_layer(kind, alg, sig, blades, paths):
    """Flash Clifford's Layer: the grade-wise linear map (its weight already
    expanded per blade) plus a bias on every blade, then the GELU-gated
    weighted (sgp) or fully connected (fc) product of x and that, then the
    grade RMS norm."""
    x, lw, b = tensor(blades, 3, 4), tensor(blades, 4, 4), tensor(1, 1, 4)
    if kind == "sgp":
        w, product = tensor(4, paths), "weighted_product"
    else:
        w, product = tensor(paths, 4, 4), "fc_product"
    return (
        "func.func @layer_%s_%s(%%x: %s, %%lw: %s, %%b: %s, %%w: %s) -> %s {\n"
        "  %%h = uta.matmul %%x, %%lw : (%s, %s) -> %s\n"
        "  %%y = uta.add %%h, %%b : (%s, %s) -> %s\n"
        "  %%gx = clifford.scalar_gate <%s> %%x : %s\n"
        "  %%gy = clifford.scalar_gate <%s> %%y : %s\n"
        "  %%z = clifford.%s <%s> %%gx, %%gy, %%w : (%s, %s, %s) -> %s\n"
        "  %%n = clifford.grade_rms_norm <%s> %%z : %s\n"
        "  return %%n : %s\n}\n"
        % (kind, alg, x, lw, b, w, x, x, lw, x, x, b, x, sig, x, sig, x,
           product, sig, x, x, w, x, sig, x, x))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    for alg, (p, q, r) in ALGEBRAS.items():
        sig = "%d, %d, %d" % (p, q, r)
        blades = 1 << (p + q + r)
        paths = num_paths(p, q, r)
        graphs = {}
        for op in ("geometric_product", "outer_product", "left_contraction"):
            graphs[op] = binary(op, alg, sig, blades)
        graphs["scalar_product"] = binary("scalar_product", alg, sig, blades,
                                          scalar=True)
        graphs["sandwich"] = binary("sandwich", alg, sig, blades)
        for op in ("reverse", "grade_involution", "conjugate", "scalar_gate"):
            graphs[op] = unary(op, alg, sig, blades)
        graphs["grade_project"] = unary("grade_project", alg, sig, blades,
                                        " grades [0, 2]")
        if r == 0:
            graphs["dual"] = unary("dual", alg, sig, blades)
        for op in ("weighted_product", "fc_product"):
            graphs[op] = layer(op, alg, sig, blades, paths)
        (graphs["fc_product_adjoint"], graphs["fc_product_weight_gradient"],
         graphs["fc_product_weight_gradient_pairs"],
         graphs["fc_product_weight_gradient_kmajor"]) = fc_gradients(
             alg, sig, blades, paths)
        for kind in ("sgp", "fc"):
            graphs["layer_" + kind] = flash_layer(kind, alg, sig, blades,
                                                  paths)
        x = tensor(blades, 3, 4)
        graphs["grade_rms_norm"] = (
            "func.func @grade_rms_norm_%s(%%x: %s) -> %s {\n"
            "  %%y = clifford.grade_rms_norm <%s> %%x : %s\n"
            "  return %%y : %s\n}\n" % (alg, x, x, sig, x, x))
        for op, text in graphs.items():
            name = "%s_%s.mlir" % (op, alg)
            with open(os.path.join(here, name), "w") as f:
                f.write("// Generated by generate.py: one %s in Cl(%d,%d,%d) "
                        "for the gradient checks.\n" % (op, p, q, r))
                f.write(text)


if __name__ == "__main__":
    main()
