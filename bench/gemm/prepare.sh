#!/usr/bin/env bash
#===- bench/gemm/prepare.sh - compile the GEMM benchmarks ------------------===#
#
#   bench/gemm/prepare.sh BUILD_DIR OUT_DIR
# then on the GPU machine: python3 bench/gemm/bench.py OUT_DIR
#
# OUT_DIR/<graph>/ gets the builds bench.py times: k.ptx (the default:
# mma.sync, 3xTF32 for f32), tf32.ptx (--allow-tf32, f32 graphs) and k.spv
# (the tiled SIMT GEMM for Vulkan, f32 graphs). linear_bias_gelu is the
# benchmark graph of bench/graphs.
#===----------------------------------------------------------------------===#
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$1 out=$2
utac="$build/bin/utac"
rm -rf "$out" && mkdir -p "$out"
cp "$build/bin/uta-run" "$out/"
for f in "$here"/*.mlir "$here/../graphs/linear_bias_gelu.mlir"; do
  name=$(basename "$f" .mlir)
  mkdir -p "$out/$name"
  "$utac" "$f" --remarks -o "$out/$name/k.ptx" 2>"$out/$name/k.remarks"
  if grep -q "xf32>" "$f"; then
    "$utac" "$f" --allow-tf32 -o "$out/$name/tf32.ptx"
    "$utac" "$f" --target=spirv -o "$out/$name/k.spv"
  fi
done
