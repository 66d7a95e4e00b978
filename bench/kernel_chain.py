#!/usr/bin/env python3
"""Generates long chains of uta ops, as .mlir on stdout.

  kernel_chain.py kernels N [--rows R --cols C]
      N ops that never fuse with each other, so the program compiles to N
      kernels: softmaxes along alternate dims (a softmax reads its whole
      row or column, so no softmax is recomputed inside another). What
      bench/compile_time.sh compiles to measure compile time per kernel.
  kernel_chain.py elementwise N [--rows R --cols C]
      N alternating uta.add / uta.sub ops, each reading the previous
      result and the argument (x + x, then that - x, ...): a chain whose
      values live one op each, which the reference interpreter runs in the
      memory of a few of them. After an even N the result is the argument
      again, exactly (2x and 2x - x are exact in float64).

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


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=["kernels", "elementwise"])
    parser.add_argument("count", type=int)
    parser.add_argument("--rows", type=int, default=64)
    parser.add_argument("--cols", type=int, default=64)
    args = parser.parse_args()
    if args.count < 1 or args.rows < 1 or args.cols < 1:
        parser.error("count, rows and cols must be positive")
    generate = kernels if args.kind == "kernels" else elementwise
    sys.stdout.write(generate(args.count, args.rows, args.cols))


if __name__ == "__main__":
    main()
