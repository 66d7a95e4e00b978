#!/usr/bin/env bash
#===- scripts/gpu-check.sh - execution checks on a GPU machine ------------===#
#
# The GPU machine has a driver but no compiler, so the work is split:
#   scripts/gpu-check.sh prepare BUILD_DIR OUT_DIR [CASES...]
#       here: compile each case (default: test/GPU/cases/*.mlir and
#       examples/*.mlir) to OUT_DIR/<case>/k.ptx + k.ptx.json, save the float64
#       reference results of seed 1 to OUT_DIR/<case>/ref, copy uta-run;
#   scripts/gpu-check.sh run OUT_DIR
#       there: run every case with `uta-run --seed=1 --expect=ref` and print
#       one line per result; exit 2 if any check failed.
#===----------------------------------------------------------------------===#
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

prepare() {
  local build=$1 out=$2
  shift 2
  local cases=("$@")
  [ ${#cases[@]} -eq 0 ] && cases=("$root"/test/GPU/cases/*.mlir "$root"/examples/*.mlir)
  rm -rf "$out" && mkdir -p "$out"
  cp "$build/bin/uta-run" "$out/"
  for f in "${cases[@]}"; do
    local name
    name=$(basename "$f" .mlir)
    mkdir -p "$out/$name"
    "$build/bin/utac" "$f" --target=ptx -o "$out/$name/k.ptx" &&
      "$build/bin/utac" run "$f" --backend=reference --seed=1 \
        --save="$out/$name/ref" >/dev/null ||
      { echo "prepare: $name failed" >&2; exit 1; }
  done
}

run() {
  local out=$1 status=0
  for dir in "$out"/*/; do
    local name
    name=$(basename "$dir")
    local lines
    lines=$("$out/uta-run" "$dir/k.ptx.json" --seed=1 --expect="$dir/ref" 2>&1)
    local code=$?
    [ $code -ne 0 ] && status=2
    while IFS= read -r line; do
      printf '%-34s %s\n' "$name" "$line"
    done <<<"$lines"
  done
  return $status
}

case "${1:-}" in
prepare) shift; prepare "$@" ;;
run) shift; run "$@" ;;
*) echo "usage: scripts/gpu-check.sh prepare BUILD OUT [CASES...] | run OUT" >&2; exit 1 ;;
esac
