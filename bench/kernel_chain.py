#!/usr/bin/env python3
"""Generates long chains of uta ops, or many independent ones, as .mlir on
stdout.

  kernel_chain.py kernels N [--rows R --cols C]
      N ops that never fuse with each other, so the program launches N
      kernels: softmaxes along alternate dims (a softmax reads its whole
      row or column, so no softmax is recomputed inside another). The two
      dims make two distinct kernels, each compiled once.
  kernel_chain.py elementwise N [--rows R --cols C]
      N alternating uta.add / uta.sub ops, each reading the previous
      result and the argument (x + x, then that - x, ...): a chain whose
      values live one op each, which the reference interpreter runs in the
      memory of a few of them. After an even N the result is the argument
      again, exactly (2x and 2x - x are exact in float64).
  kernel_chain.py distinct N [--rows R --cols C]
      N independent softmaxes of arguments of N shapes (R x C, R x (C + 1),
      ...), every one a result: N kernels that differ (in their shapes), so
      none is merged into another. What bench/compile_time.sh compiles to
      measure compile time per distinct kernel.
  kernel_chain.py relus N [--rows R --cols C]
      N independent relus of N arguments, every one a result: N identical
      elementwise kernels, which the CUDA pipeline also runs several to a
      launch (uta-merge-independent-launches).
  kernel_chain.py matmuls N [--rows R --cols C]
      N independent matmuls of one argument by N others (R x C by C x C),
      every product a result: N identical kernels, which compile to one
      kernel launched N times, each on its own buffers.

Deterministic: the same arguments give the same text.
"""

import argparse
import sys


def kernels(count, rows, cols):
    kind = f"tensor<{rows}x{cols}xf32>"
    lines = [f"func.func @chain(%x: {kind}) -> {kind} {{"]
    previous = "%x"
    for i in range(count):
        lines.append(f"  %v{i} = uta.softmax {previous} dim {i % 2} : {kind}")
        previous = f"%v{i}"
    lines.append(f"  return {previous} : {kind}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def elementwise(count, rows, cols):
    kind = f"tensor<{rows}x{cols}xf32>"
    lines = [f"func.func @chain(%x: {kind}) -> {kind} {{"]
    previous = "%x"
    for i in range(count):
        op = "uta.add" if i % 2 == 0 else "uta.sub"
        lines.append(f"  %v{i} = {op} {previous}, %x : "
                     f"({kind}, {kind}) -> {kind}")
        previous = f"%v{i}"
    lines.append(f"  return {previous} : {kind}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def distinct(count, rows, cols):
    kinds = [f"tensor<{rows}x{cols + i}xf32>" for i in range(count)]
    arguments = ", ".join(f"%x{i}: {kind}" for i, kind in enumerate(kinds))
    lines = [f"func.func @distinct({arguments}) -> ({', '.join(kinds)}) {{"]
    for i, kind in enumerate(kinds):
        lines.append(f"  %v{i} = uta.softmax %x{i} dim 1 : {kind}")
    values = ", ".join(f"%v{i}" for i in range(count))
    lines.append(f"  return {values} : {', '.join(kinds)}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def relus(count, rows, cols):
    kind = f"tensor<{rows}x{cols}xf32>"
    kinds = ", ".join([kind] * count)
    arguments = ", ".join(f"%x{i}: {kind}" for i in range(count))
    lines = [f"func.func @relus({arguments}) -> ({kinds}) {{"]
    for i in range(count):
        lines.append(f"  %v{i} = uta.relu %x{i} : {kind}")
    values = ", ".join(f"%v{i}" for i in range(count))
    lines.append(f"  return {values} : {kinds}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def matmuls(count, rows, cols):
    lhs, rhs = f"tensor<{rows}x{cols}xf32>", f"tensor<{cols}x{cols}xf32>"
    product = f"tensor<{rows}x{cols}xf32>"
    arguments = ", ".join([f"%a: {lhs}"] +
                          [f"%b{i}: {rhs}" for i in range(count)])
    results = ", ".join([product] * count)
    lines = [f"func.func @matmuls({arguments}) -> ({results}) {{"]
    for i in range(count):
        lines.append(f"  %p{i} = uta.matmul %a, %b{i} : "
                     f"({lhs}, {rhs}) -> {product}")
    values = ", ".join(f"%p{i}" for i in range(count))
    lines.append(f"  return {values} : {results}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind",
                        choices=["kernels", "elementwise", "distinct",
                                 "relus", "matmuls"])
    parser.add_argument("count", type=int)
    parser.add_argument("--rows", type=int, default=64)
    parser.add_argument("--cols", type=int, default=64)
    args = parser.parse_args()
    if args.count < 1 or args.rows < 1 or args.cols < 1:
        parser.error("count, rows and cols must be positive")
    generate = {"kernels": kernels, "elementwise": elementwise,
                "distinct": distinct, "relus": relus,
                "matmuls": matmuls}[args.kind]
    sys.stdout.write(generate(args.count, args.rows, args.cols))


if __name__ == "__main__":
    main()
