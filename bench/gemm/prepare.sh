#!/usr/bin/env bash
#===- bench/gemm/prepare.sh - compile the GEMM benchmarks ------------------===#
#
#   bench/gemm/prepare.sh BUILD_DIR OUT_DIR
# then on the GPU machine: python3 bench/gemm/bench.py OUT_DIR
#
# OUT_DIR/<graph>/ gets the builds bench.py times: k.ptx (for the H100:
# --sm=90a, whose matmuls run on the wgmma schedule; 3xTF32 for f32),
# tf32.ptx (--allow-tf32, f32 graphs), mma.ptx and mma-tf32.ptx (--sm=90:
# the mma.sync schedule, for comparison) and k.spv (the tiled SIMT GEMM for
# Vulkan, f32 graphs). linear_bias_gelu and the
# FCGP layers (fc_product on the engine) are benchmark graphs of
# bench/graphs. With UTA_GEMM_CONFIGS="name ..." set, each
# named row of the GEMM table that applies to a graph is also built, as
# cfg-<name>.ptx and cfg-<name>-tf32.ptx, and bench.py times them beside the
# heuristic's choice.
#===----------------------------------------------------------------------===#
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$1 out=$2
utac="$build/bin/utac"
rm -rf "$out" && mkdir -p "$out"
cp "$build/bin/uta-run" "$out/"
for f in "$here"/*.mlir "$here"/../graphs/{linear_bias_gelu,fcgp_cl2,fcgp_cl3}.mlir; do
  name=$(basename "$f" .mlir)
  mkdir -p "$out/$name"
  "$utac" "$f" --sm=90a --remarks -o "$out/$name/k.ptx" 2>"$out/$name/k.remarks"
  "$utac" "$f" --sm=90 -o "$out/$name/mma.ptx"
  if grep -q "xf32>" "$f"; then
    "$utac" "$f" --sm=90a --allow-tf32 -o "$out/$name/tf32.ptx"
    "$utac" "$f" --sm=90 --allow-tf32 -o "$out/$name/mma-tf32.ptx"
    "$utac" "$f" --target=spirv -o "$out/$name/k.spv"
  fi
  for config in ${UTA_GEMM_CONFIGS:-}; do
    for tf32 in "" "-tf32"; do
      if [[ -n $tf32 ]] && ! grep -q "xf32>" "$f"; then continue; fi
      build=$out/$name/cfg-$config$tf32.ptx
      "$utac" "$f" --sm=90a ${tf32:+--allow-tf32} --uta-gemm-config="$config" \
        --remarks -o "$build" 2>"$build.remarks"
      # Keep the build only where the row applied.
      grep -q "tile $config (" "$build.remarks" || rm -f "$build" "$build".*
    done
  done
done
