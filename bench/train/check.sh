#!/usr/bin/env bash
#===- bench/train/check.sh - the training pair on the GPU, checked --------===#
#
#   bench/train/check.sh OUT_DIR        (OUT_DIR from bench/train/prepare.sh)
#
# For each layer of OUT_DIR/check: the forward on the seeded inputs, every
# output (the result and the residuals) against the float64 reference; then
# the backward on the values the forward saved (uta.saved: the inputs, and
# the GPU's own outputs) and the cotangent, every gradient against the
# reference's gradients through the pair. f32: rel_l2 and the largest
# elementwise error (max_rel, see uta-run) within 1e-5; tf32: rel_l2 within
# 2e-3 and max_rel within 1e-2 (one TF32 rounding of each operand, 2^-11,
# over sums of hundreds of products leaves single elements a few 1e-3 off).
# Then the backward 10 times, each in a process of its own, every gradient
# compared byte for byte with the first run's. Exit 2 when a check fails.
#===----------------------------------------------------------------------===#
set -euo pipefail
out=$1
run="$out/uta-run"
status=0

# uta-run with --expect, every result's rel_l2 within $l2 and max_rel
# within $elementwise; the lines go to stdout.
check_run() {
  local lines
  lines=$("$run" "$@" --tolerance=1 2>&1) || { echo "$lines"; return 1; }
  echo "$lines" | awk -v l2="$l2" -v elementwise="$elementwise" '
    /^result[0-9]+: rel_l2/ {
      verdict = ($3 <= l2 && $5 <= elementwise) ? "ok" : "FAIL"
      if (verdict == "FAIL") failed = 1
      print $1, "rel_l2", $3, "max_rel", $5, "(bounds " l2 ", " elementwise ")", verdict
      next
    }
    { print }
    END { exit failed }'
}

for dir in "$out"/check/*/; do
  dir=${dir%/}
  name=$(basename "$dir")
  l2=1e-5 elementwise=1e-5
  case "$name" in *tf32*) l2=2e-3 elementwise=1e-2 ;; esac
  inputs=("$dir"/in/{x,lw,b,w}.npy)
  echo "== $name (rel_l2 within $l2, max_rel within $elementwise)"
  rm -rf "$dir/run_fwd" "$dir"/run_bwd*
  if ! check_run "$dir/fwd.ptx.json" --inputs="$(IFS=,; echo "${inputs[*]}")" \
      --expect="$dir/ref_fwd" --save="$dir/run_fwd"; then
    status=2
    continue
  fi
  # The backward's saved values: forward arguments, then forward outputs.
  saved=()
  IFS=, read -ra indices <"$dir/saved.txt"
  for index in "${indices[@]}"; do
    if [ "$index" -lt 4 ]; then
      saved+=("${inputs[$index]}")
    else
      saved+=("$dir/run_fwd/result$((index - 4)).npy")
    fi
  done
  backward_inputs="$(IFS=,; echo "${saved[*]}"),$dir/in/g.npy"
  if ! check_run "$dir/bwd.ptx.json" --inputs="$backward_inputs" \
      --expect="$dir/ref_bwd" --save="$dir/run_bwd0"; then
    status=2
    continue
  fi
  same=yes
  for i in 1 2 3 4 5 6 7 8 9; do
    "$run" "$dir/bwd.ptx.json" --inputs="$backward_inputs" \
      --save="$dir/run_bwd$i" >/dev/null
    for f in "$dir"/run_bwd0/*.npy; do
      cmp -s "$f" "$dir/run_bwd$i/$(basename "$f")" || same=no
    done
  done
  echo "$name: backward 10 runs bit-identical: $same"
  [ "$same" = yes ] || status=2
done
exit $status
