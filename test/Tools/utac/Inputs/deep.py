#!/usr/bin/env python3
"""Writes deeply nested or long-chained .mlir inputs for nesting-limit.test.

  deep.py KIND N    KIND is one of:
    attrs       an attribute of N nested lists: {a = [[[...]]]}
    regions     N nested regions of generic ops
    types       a function argument of N nested complex<> types
    sum         an affine map whose result sums N + 1 terms (N operators)
    negations   an affine map whose result negates d0 N times
    quoted      N brackets inside a comment and a string, which never count
"""
import sys

kind, n = sys.argv[1], int(sys.argv[2])
if kind == "attrs":
    print("func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {")
    print("  %0 = arith.constant {a = " + "[" * n + "]" * n +
          "} dense<1.0> : tensor<4xf32>")
    print("  return %0 : tensor<4xf32>")
    print("}")
elif kind == "regions":
    print("func.func @f() {")
    print('  ' + '"test.op"() ({ ' * n + '}) : () -> () ' * n)
    print("  return")
    print("}")
elif kind == "types":
    print("func.func @f(%x: " + "complex<" * n + "f32" + ">" * n + ") {")
    print("  return")
    print("}")
elif kind == "sum":
    print("#m = affine_map<(d0) -> (d0" + " + d0" * n + ")>")
    print("func.func @f(%x: memref<4xf32, #m>) {")
    print("  return")
    print("}")
elif kind == "negations":
    print("#m = affine_map<(d0) -> (" + "- " * n + "d0)>")
    print("func.func @f(%x: memref<4xf32, #m>) {")
    print("  return")
    print("}")
elif kind == "quoted":
    print("// " + "[" * n)
    print("func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes "
          '{note = "' + "{[(<" * n + '"} {')
    print("  return %x : tensor<4xf32>")
    print("}")
else:
    sys.exit("unknown kind " + kind)
