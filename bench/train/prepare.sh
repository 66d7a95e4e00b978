#!/usr/bin/env bash
#===- bench/train/prepare.sh - training-step benchmarks for the GPU machine ===#
#
#   bench/train/prepare.sh BUILD_DIR OUT_DIR [--full]
# then there: python3 bench/train/bench.py OUT_DIR
#
# For each configuration of bench/train/configs.py (the ones Flash Clifford's
# H200 figures cover, or with --full the whole sweep), Flash Clifford's
# Layer as OUT_DIR/<name>/layer.mlir and its training pair for sm_90a (what
# `CompileOptions::forDevice` picks on an H100 or H200), tf32 configurations
# with --allow-tf32:
#   fwd.ptx   @layer_forward: the result and the residuals
#   bwd.ptx   @layer_backward: the gradients of x and the three weights
#   vjp.ptx   @layer_vjp, which recomputes the forward: the step before the
#             partition, for comparison
#   *.stats   `utac --stats`: kernels and bytes moved
#   *.remarks what the partition saved or recomputed
#===----------------------------------------------------------------------===#
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$1 out=$2 full=${3:-}
utac="$build/bin/utac"
rm -rf "$out" && mkdir -p "$out"
cp "$build/bin/uta-run" "$out/"
python3 "$root/bench/train/configs.py" list $full >"$out/configs.txt"
while read -r name p kind precision batch features; do
  mkdir -p "$out/$name"
  python3 "$root/bench/train/configs.py" mlir "$p" "$kind" "$batch" \
    "$features" >"$out/$name/layer.mlir"
  tf32=()
  [ "$precision" = tf32 ] && tf32=(--allow-tf32)
  for half in fwd:forward bwd:backward vjp:vjp; do
    file=${half%%:*} grad=${half#*:}
    "$utac" "$out/$name/layer.mlir" --target=ptx --sm=90a "${tf32[@]}" \
      --grad="$grad" --stats -o "$out/$name/$file.ptx" 2>"$out/$name/$file.stats"
  done
  "$utac" "$out/$name/layer.mlir" --grad=backward --remarks 2>&1 |
    grep -E "saved for|recomputed in" >"$out/$name/partition.remarks" || true
  echo "$name: forward, backward, vjp:" \
    "$(grep -h 'with fusion' "$out/$name"/{fwd,bwd,vjp}.stats | grep -o '[0-9]* kernels' | tr '\n' ' ')"
done <"$out/configs.txt"
