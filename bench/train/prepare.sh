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
#   op/       with UTA_TORCH_PYTHON set (a python with torch; build/python
#             goes on its path): the graph of uta.nn.Layer as a
#             uta.custom_op package (bench/train/torch_layer.py), which
#             bench.py runs on torch tensors through the runtime-only
#             package (scripts/torch-gpu-check.sh prepare makes one)
# and OUT_DIR/check/: the same pair at a size the float64 reference computes
# here (Cl(3,0) SGP and FC, B = 256, F = 32, f32 and tf32), with seeded
# inputs and the reference's outputs, for bench/train/check.sh there.
#===----------------------------------------------------------------------===#
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$1 out=$2 full=${3:-}
utac="$build/bin/utac"
rm -rf "$out" && mkdir -p "$out"
cp "$build/bin/uta-run" "$out/"
# What was built, for bench.py's header: the commit, "+" where the working
# tree had changes.
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
git -C "$root" diff --quiet HEAD 2>/dev/null || commit="$commit+"
echo "$commit" >"$out/commit.txt"
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

if [ -n "${UTA_TORCH_PYTHON:-}" ]; then
  PYTHONPATH=$build/python "$UTA_TORCH_PYTHON" \
    "$root/bench/train/torch_layer.py" save "$out"
fi

# The correctness check: inputs (seeded normals), the reference's forward
# outputs (the result and the residuals) and gradients (through the pair),
# and which forward values the backward takes (uta.saved).
mkdir -p "$out/check"
for kind in sgp fc; do
  for precision in f32 tf32; do
    dir="$out/check/cl30_${kind}_${precision}"
    mkdir -p "$dir/in"
    python3 "$root/bench/train/configs.py" mlir 3 "$kind" 256 32 >"$dir/layer.mlir"
    python3 "$root/bench/train/configs.py" inputs 3 "$kind" 256 32 "$dir/in"
    tf32=()
    [ "$precision" = tf32 ] && tf32=(--allow-tf32)
    for half in fwd:forward bwd:backward; do
      "$utac" "$dir/layer.mlir" --target=ptx --sm=90a "${tf32[@]}" \
        --grad="${half#*:}" -o "$dir/${half%%:*}.ptx"
    done
    inputs=$(echo "$dir"/in/{x,lw,b,w}.npy | tr ' ' ,)
    "$utac" run "$dir/layer.mlir" --backend=reference --grad=forward \
      --inputs="$inputs" --save="$dir/ref_fwd" >/dev/null
    "$utac" run "$dir/layer.mlir" --backend=reference --grad=pair \
      --inputs="$inputs,$dir/in/g.npy" --save="$dir/ref_pair" >/dev/null
    # The pair's results are the output, then the gradients.
    mkdir -p "$dir/ref_bwd"
    for i in 1 2 3 4; do
      mv "$dir/ref_pair/result$i.npy" "$dir/ref_bwd/result$((i - 1)).npy"
    done
    rm -r "$dir/ref_pair"
    "$utac" "$dir/layer.mlir" --grad=backward --compile-to=uta |
      sed -n 's/.*uta.saved = array<i64: \([0-9, ]*\)>.*/\1/p' | tr -d ' ' \
      >"$dir/saved.txt"
  done
done
